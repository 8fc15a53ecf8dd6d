"""Unit tests for sadie_pipeline.core.enrichment.contacts (and its names and emails_phones): people and titles, e-mails (plain,
mailto, obfuscated, Cloudflare), phones, generic mailboxes and titles, links to follow."""

from __future__ import annotations

import pytest

from sadie_pipeline.core.enrichment.contacts import contact_page_links, extract_contacts
from sadie_pipeline.core.enrichment.emails_phones import decode_cfemail, find_emails, find_phones, is_generic_mailbox
from sadie_pipeline.core.enrichment.names import is_first_name_only, is_generic_title, name_key, split_name, title_rank


def cf(email: str, key: int = 0x5A) -> str:
    """Cloudflare's data-cfemail encoding of `email`."""
    return format(key, "02x") + "".join(format(ord(c) ^ key, "02x") for c in email)


TEAM_PAGE = f"""<!doctype html><html><head><title>Our Team | Seaside Inn</title>
<script>var x = "ceo@tracker.example";</script></head><body>
<nav><a href="/">Home</a> <a href="/rooms/">Rooms</a> <a href="/contact/">Contact</a></nav>
<main>
<h1>Meet the Team</h1>
<div class="team">
  <div class="card"><h3>Maria Lopez</h3><p>General Manager</p>
    <p><a href="mailto:mlopez@seasideinn.com">Email Maria</a></p></div>
  <div class="card"><h3>David O'Brien</h3><p>Director of Sales &amp; Marketing</p>
    <p>david [at] seasideinn [dot] com</p><p>Direct: 305.555.0150</p></div>
  <div class="card"><h3>Tom</h3><p>Manager</p></div>
</div>
<p>The inn has been owned and operated by Bob and Linda Smith since 1998.</p>
<p>Write to Linda: <a href="/cdn-cgi/l/email-protection" class="__cf_email__" data-cfemail="{cf('linda@seasideinn.com')}">[email&#160;protected]</a></p>
<footer>
  <p>Seaside Inn, 123 Ocean Dr, Miami Beach, FL 33139</p>
  <p>Phone: <a href="tel:+13055550142">(305) 555-0142</a> | Fax: (305) 555-0143 | Toll free 1-800-555-0199</p>
  <p>Reservations: <a href="mailto:reservations@seasideinn.com?subject=Booking">reservations@seasideinn.com</a>
     Info: info@seasideinn.com</p>
  <img src="/img/logo@2x.png" alt="logo">
</footer></main></body></html>"""


def by_name(contacts):
    return {p.full_name: p for p in contacts.people}


def test_team_page_people_titles_and_their_emails_and_phones():
    c = extract_contacts(TEAM_PAGE, "US", site_domain="https://www.seasideinn.com/")
    people = by_name(c)
    assert set(people) == {"Maria Lopez", "David O'Brien", "Tom", "Bob Smith", "Linda Smith"}
    maria = people["Maria Lopez"]
    assert (maria.title, maria.email, maria.phone) == ("General Manager", "mlopez@seasideinn.com", None)
    assert maria.confidence == 0.7 and not maria.first_name_only and not maria.generic_title
    david = people["David O'Brien"]
    assert david.title == "Director of Sales & Marketing"
    assert david.email == "david@seasideinn.com"  # de-obfuscated, spells his first name
    assert david.phone == "+13055550150"
    linda = people["Linda Smith"]
    assert (linda.title, linda.email) == ("Owner", "linda@seasideinn.com")  # Cloudflare-protected
    assert people["Bob Smith"].title == "Owner" and people["Bob Smith"].email is None  # Bob shares the surname


def test_first_name_only_and_generic_titles_get_the_seed_penalties():
    tom = by_name(extract_contacts(TEAM_PAGE))["Tom"]
    assert tom.first_name_only and tom.generic_title
    assert tom.confidence == pytest.approx(0.7 - 0.3 - 0.1)


def test_page_emails_phones_and_faxes():
    c = extract_contacts(TEAM_PAGE, "US", site_domain="seasideinn.com")
    emails = {e.email: e for e in c.emails}
    assert set(emails) == {"mlopez@seasideinn.com", "david@seasideinn.com", "linda@seasideinn.com",
                           "reservations@seasideinn.com", "info@seasideinn.com"}
    assert emails["reservations@seasideinn.com"].generic and emails["info@seasideinn.com"].generic
    assert not emails["mlopez@seasideinn.com"].generic
    assert all(e.on_site for e in c.emails)
    assert c.phones == ("+13055550150", "+13055550142", "+18005550199")
    assert c.faxes == ("+13055550143",)


def test_inline_text_patterns_from_stripped_website_text():
    text = ("Welcome! Jane Doe General Manager jane.doe@harborhotel.ca 902-555-0101. "
            "Our front desk: frontdesk@harborhotel.ca. Assistant General Manager: Paul Martin "
            "(pmartin@harborhotel.ca). Questions? Ask Sarah Chen, our Revenue Manager. "
            "Your hosts, Bob & Linda. Call 1-800-555-0199. Built in 1925.")
    people = by_name(extract_contacts(text, "CA"))
    assert people["Jane Doe"].title == "General Manager"
    assert people["Jane Doe"].email == "jane.doe@harborhotel.ca"
    assert people["Jane Doe"].phone == "+19025550101"
    assert people["Paul Martin"].title == "Assistant General Manager"
    assert people["Paul Martin"].email == "pmartin@harborhotel.ca"
    assert people["Sarah Chen"].title == "Revenue Manager" and people["Sarah Chen"].email is None
    assert people["Bob"].first_name_only and people["Bob"].title == "Host"
    assert people["Bob"].phone is None  # a toll-free central line is nobody's direct phone
    assert "Front" not in " ".join(people)


@pytest.mark.parametrize("line, name, title", [
    ("John Smith, General Manager", "John Smith", "General Manager"),
    ("General Manager: John Smith", "John Smith", "General Manager"),
    ("Owner - Priya Patel", "Priya Patel", "Owner"),
    ("Mr. Luc Tremblay | Directeur", None, None),
    ("Jean-Luc Picard is the owner of the inn", "Jean-Luc Picard", "Owner"),
    ("Contact Anne McDonald (Director of Operations)", "Anne McDonald", "Director of Operations"),
    ("José Álvarez, Proprietor", "José Álvarez", "Proprietor"),
    ("Owner/Operator: Kim Nguyen", "Kim Nguyen", "Owner/Operator"),
    ("June Carter, Owner", "June Carter", "Owner"),
    ("Sales Manager Front Desk", None, None),
    ("Best Western Plus, General Manager Of The Year", None, None),
    ("Our Partners Visit Florida Expedia", None, None),
])
def test_name_title_patterns(line, name, title):
    people = extract_contacts(line).people
    if name is None:
        assert people == ()
    else:
        assert [(p.full_name, p.title) for p in people] == [(name, title)]


@pytest.mark.parametrize("text, emails", [
    ("Email: jane [at] seasideinn [dot] com", ["jane@seasideinn.com"]),
    ("reservations(at)seasideinn(dot)co(dot)uk", ["reservations@seasideinn.co.uk"]),
    ("write to gm at seasideinn dot com today", ["gm@seasideinn.com"]),
    ("Book rooms at Booking.com or Expedia.com", []),
    ("Contact: Jane.Doe@SeasideInn.com.", ["jane.doe@seasideinn.com"]),
    ("logo@2x.png example@example.com name@yourdomain.com", []),
])
def test_find_emails_plain_and_obfuscated(text, emails):
    assert find_emails(text) == emails


def test_cfemail_decoding():
    assert decode_cfemail(cf("owner@inn.ca", key=0x13)) == "owner@inn.ca"
    assert decode_cfemail("zz") is None and decode_cfemail("ab") is None


def test_find_phones_e164_by_region_skipping_dates_years_and_faxes():
    text = ("Tel (902) 555-0142, Fax: 902-555-0143. Intl +44 20 7946 0958. "
            "Open 2024-05-01 to 2024-10-31. Since 1925. Room 1204. ZIP 33139-1234.")
    assert find_phones(text, "CA") == ["+19025550142", "+442079460958"]
    assert find_phones("Call 416.555.0199 ext. 12", "CA") == ["+14165550199"]


@pytest.mark.parametrize("email, generic", [
    ("info@seasideinn.com", True),
    ("reservations.miami@seasideinn.com", True),
    ("frontdesk2@seasideinn.com", True),
    ("front.desk@seasideinn.com", True),
    ("gm@seasideinn.com", True),
    ("maria.lopez@seasideinn.com", False),
    ("mlopez@seasideinn.com", False),
    ("information", False),
])
def test_generic_mailboxes(email, generic):
    assert is_generic_mailbox(email) is generic


def test_generic_titles_and_ranks():
    assert is_generic_title("Manager") and is_generic_title(None) and is_generic_title("Front Desk")
    assert not is_generic_title("General Manager")
    ranks = [title_rank(t) for t in ("Owner", "General Manager", "Assistant General Manager", "Director of Sales",
                                     "Director of Catering", "Front Office Manager", "Manager")]
    assert ranks == sorted(ranks, reverse=True) and ranks[0] == 100 and ranks[-1] == 20


def test_name_helpers():
    assert split_name("Dr. Mary-Jane O'Brien Jr.") == ("maryjane", "obrien")
    assert split_name("José A. Pérez") == ("jose", "perez")
    assert split_name("Maria") == ("maria", "")
    assert is_first_name_only("Maria") and is_first_name_only("Chef Tony")
    assert not is_first_name_only("Maria Lopez")
    assert name_key("Mr. José  Pérez, Jr.") == "jose perez" == name_key("jose perez")


def test_contact_page_links_same_site_ranked_and_capped():
    home = """<html><body><nav>
      <a href="/">Home</a><a href="/rooms">Rooms</a><a href="/about-us/">About Us</a>
      <a href="https://www.seasideinn.com/our-team/#top">Meet the Team</a>
      <a href="/contact-us/">Contact</a><a href="/page-12">Contact Us</a>
      <a href="https://facebook.com/seasideinn">Contact us on Facebook</a>
      <a href="/careers/contact">Careers</a><a href="/privacy-policy">Privacy</a>
      <a href="mailto:info@seasideinn.com">Email</a><a href="tel:+13055550142">Call</a>
      <a href="https://blog.seasideinn.com/history">Our History</a>
      <a href="/fr/nous-joindre">Nous joindre</a><a href="/contact-us">Contact again</a>
      <a href="/brochure.pdf">About (PDF)</a><a href="javascript:void(0)">Contact</a>
    </nav></body></html>"""
    links = contact_page_links(home, "https://www.seasideinn.com/")
    assert links == [
        "https://www.seasideinn.com/contact-us/",
        "https://www.seasideinn.com/page-12",
        "https://www.seasideinn.com/fr/nous-joindre",
        "https://www.seasideinn.com/our-team/",
        "https://www.seasideinn.com/about-us/",
    ]
    assert contact_page_links(home, "https://www.seasideinn.com/", max_links=2) == links[:2]
    assert contact_page_links("", "https://x.com") == [] and contact_page_links(home, "not a url") == []


def test_a_company_managing_the_hotel_is_not_a_person():
    # "managed by Orange Blossom Hospitality" names a business: no manager called "Orange Blossom"
    for text in ("The property is managed by Orange Blossom Hospitality.",
                 "The property is managed by Sunshine Hotel Management.", "Run by Gulf Coast Hotel Partners",
                 "managed by Peninsula Hospitality LLC"):
        assert extract_contacts(f"<p>{text}</p>").people == (), text
    people = extract_contacts("<p>Owned and operated by Bob and Linda Smith since 1990.</p>").people
    assert [(p.full_name, p.title) for p in people] == [("Bob Smith", "Owner"), ("Linda Smith", "Owner")]
