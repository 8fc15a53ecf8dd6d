"""Contacts from a hotel's own contact / about / team pages (seed 001, "Website Scrape" layer,
``LAYER_WEBSITE``): people with their titles, e-mail addresses, phone numbers.

* ``contact_page_links(html, base_url)``: which links of a homepage to follow (contact, team,
  about pages, English and French; same site only; at most 5, best first).
* ``extract_contacts(html_or_text, region)``: ``Contacts(people, emails, phones, faxes)``.
  People come from "Jane Doe, General Manager", "General Manager: Jane Doe", "Jane Doe is our
  owner", "owned and operated by Bob and Linda Smith", "Your hosts, Bob & Linda" and team cards
  (a name line followed by a title line). E-mails come from the text, ``mailto:`` links,
  Cloudflare-protected addresses (``data-cfemail``) and obfuscations such as
  ``jane [at] hotel [dot] com``; phones from the text and ``tel:`` links, as E.164 through
  ``normalize.phone_to_e164`` with the hotel's region (numbers labelled "fax" are kept apart).
  A person's e-mail and phone are the ones in their line or card, or an address whose local part
  spells their name (``jane.doe@``, ``jdoe@``).
* Seed confidence modifiers: ``first_name_only`` (-0.30), ``generic_title`` (-0.10, e.g. a bare
  "Manager"), generic mailboxes (``info@``, ``reservations@``, ``frontdesk@`` ...) flagged and never
  attached to a person.

The pieces live beside this module: ``names`` (person names, job titles), ``emails_phones``
(e-mail and phone finding) and ``page_extract`` (HTML to lines, people in lines and cards).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from urllib.parse import unquote, urljoin, urlsplit, urlunsplit

from selectolax.lexbor import LexborHTMLParser

from sadie_pipeline.core.entity_resolution import website_parts
from sadie_pipeline.core.normalize import PhoneError, phone_to_e164

from .confidence import contact_confidence
from .emails_phones import _email_spans, _phone_spans, _valid_email, is_generic_mailbox
from .names import is_first_name_only, is_generic_title, name_key, split_name, title_rank
from .page_extract import _Found, _html_lines, _looks_like_html, _people_in_cards, _people_in_line

__all__ = [
    "Contacts",
    "EmailContact",
    "Person",
    "contact_page_links",
    "extract_contacts",
]

SOURCE = "website_scrape"


@dataclass(frozen=True)
class Person:
    full_name: str
    title: str | None
    email: str | None
    phone: str | None
    first_name_only: bool
    generic_title: bool
    confidence: float
    evidence: str
    source: str = SOURCE


@dataclass(frozen=True)
class EmailContact:
    email: str
    generic: bool
    on_site: bool | None  # None when the site's domain is unknown


@dataclass(frozen=True)
class Contacts:
    people: tuple[Person, ...]
    emails: tuple[EmailContact, ...]
    phones: tuple[str, ...]
    faxes: tuple[str, ...]


def _name_matches_email(full_name: str, email: str) -> bool:
    """True when the local part spells the name: first.last, flast, lastf, firstlast, lastfirst,
    firstl or (for first names of 3+ letters) first."""
    first, last = split_name(full_name)
    local = re.sub(r"[^a-z]", "", email.split("@", 1)[0].lower())
    if not first or len(local) < 2:
        return False
    forms = {first + last, first[0] + last, last + first[0], last + first, first + last[:1]} if last else set()
    forms = {f for f in forms if len(f) >= 3}
    if len(first) >= 3:
        forms.add(first)
    return local in forms


_NEAR_CHARS = 160  # how far after a person's mention their e-mail may be
_NEAR_PHONE_CHARS = 80  # ... and their phone (a direct line sits right by the name)
_TOLL_FREE = re.compile(r"^\+1(?:800|833|844|855|866|877|888)")


def extract_contacts(content: str | bytes | None, region: str = "US", *, site_domain: str | None = None
                     ) -> Contacts:
    """People, e-mails and phones of a contact/about/team page (HTML, or text such as the stored
    stripped website text).

    `region` is the ISO country code numbers without a country code belong to (``"US"``,
    ``"CA"``); `site_domain` (the hotel's website or domain) marks which e-mails are on-site.
    A person's e-mail is an address spelling their name anywhere on the page, else the first
    personal (non-generic) address within 160 characters after the mention and before the next
    person; their phone the first number within 80 characters that is neither a fax nor toll-free
    (central reservations)."""
    if not content:
        return Contacts((), (), (), ())
    if isinstance(content, (bytes, bytearray)):
        content = bytes(content).decode("utf-8", errors="replace")
    if _looks_like_html(content):
        lines, link_emails, link_phones = _html_lines(content)
    else:
        lines = [" ".join(line.split()) for line in content.splitlines()]
        lines = [line for line in lines if line]
        link_emails, link_phones = [], []
    doc = "\n".join(lines)
    offsets, pos = [], 0
    for line in lines:
        offsets.append(pos)
        pos += len(line) + 1

    email_spans = _email_spans(doc)
    phone_spans = _phone_spans(doc, region)
    all_emails: dict[str, None] = {}
    for _, _, e in email_spans:
        all_emails.setdefault(e, None)
    for raw in link_emails:
        e = _valid_email(raw)
        if e:
            all_emails.setdefault(e, None)
    phones: dict[str, None] = {}
    faxes: dict[str, None] = {}
    for _, _, p, fax in phone_spans:
        (faxes if fax else phones).setdefault(p, None)
    for raw in link_phones:
        try:
            p = phone_to_e164(raw, region)
        except PhoneError:
            continue
        if p and p not in faxes:
            phones.setdefault(p, None)

    found: list[_Found] = []
    taken_lines: set[int] = set()
    for i, line in enumerate(lines):
        people = _people_in_line(line, offsets[i])
        if people:
            taken_lines.add(i)
            found.extend(people)
    found.extend(_people_in_cards(lines, offsets, taken_lines))
    found.sort(key=lambda f: f.start)

    personal = [e for e in all_emails if not is_generic_mailbox(e)]
    named = {e: [f for f in found if _name_matches_email(f.name, e)] for e in personal}
    used: set[str] = set()
    starts = sorted({f.start for f in found})
    people_by_key: dict[str, Person] = {}
    for f in found:
        email = next((e for e in personal if e not in used and f in named[e]), None)
        nxt = next((s for s in starts if s > f.start), len(doc))
        stop = min(nxt, f.end + _NEAR_CHARS) if nxt > f.end else f.end + _NEAR_CHARS
        if email is None:
            email = next((e for a, _, e in email_spans
                          if f.start <= a < stop and e not in used and not is_generic_mailbox(e) and not named[e]),
                         None)
        phone_stop = min(stop, f.end + _NEAR_PHONE_CHARS)
        phone = next((p for a, _, p, fax in phone_spans
                      if f.start <= a < phone_stop and not fax and not _TOLL_FREE.match(p)), None)
        if email:
            used.add(email)
        first_only = is_first_name_only(f.name)
        generic = is_generic_title(f.title)
        person = Person(
            full_name=f.name, title=f.title, email=email, phone=phone, first_name_only=first_only,
            generic_title=generic,
            confidence=contact_confidence(SOURCE, first_name_only=first_only, generic_title=generic),
            evidence=" ".join(f.evidence.split())[:300],
        )
        key = name_key(f.name)
        old = people_by_key.get(key)
        if old is None:
            people_by_key[key] = person
        else:  # the same person twice on a page: keep the better title, fill the blanks
            better = old if title_rank(old.title) >= title_rank(person.title) else person
            people_by_key[key] = replace(better, email=old.email or person.email, phone=old.phone or person.phone)

    # "Maria" on a page that also names "Maria Lopez" is Maria Lopez
    people = list(people_by_key.values())
    full = [p for p in people if not p.first_name_only]
    kept = []
    for p in people:
        if p.first_name_only:
            first = split_name(p.full_name)[0]
            if sum(1 for q in full if split_name(q.full_name)[0] == first) == 1:
                continue
        kept.append(p)

    parts = website_parts(site_domain) if site_domain else None
    site = parts[0] if parts else None
    emails = tuple(
        EmailContact(e, is_generic_mailbox(e),
                     None if site is None else (e.rsplit("@", 1)[1] == site or e.rsplit("@", 1)[1].endswith("." + site)))
        for e in all_emails
    )
    return Contacts(tuple(kept), emails, tuple(phones), tuple(faxes))


# --- which pages to fetch ---------------------------------------------------------------------------

_LINK_KINDS = [
    (3.0, re.compile(r"contact|get-in-touch|reach-us|nous-joindre|joindre|contactez|contacto|kontakt|"
                     r"\bfind-us\b", re.IGNORECASE)),
    (2.5, re.compile(r"\bteam\b|our-team|\bstaff\b|management|leadership|\bpeople\b|meet-|\bowners?\b|"
                     r"innkeepers?|our-hosts|\bhosts?\b|equipe|équipe|\bwho-we-are\b", re.IGNORECASE)),
    (2.0, re.compile(r"about|our-story|\bhistory\b|a-propos|à-propos|apropos|qui-sommes-nous|nosotros|"
                     r"\bimpressum\b", re.IGNORECASE)),
]
_TEXT_KINDS = [
    (3.0, re.compile(r"\bcontact|get in touch|nous joindre|contactez|contacto|kontakt|find us\b", re.IGNORECASE)),
    (2.5, re.compile(r"\b(?:our team|the team|team|staff|management|leadership|meet the|owners?|innkeepers?|"
                     r"your hosts?|équipe|equipe)\b", re.IGNORECASE)),
    (2.0, re.compile(r"\b(?:about|our story|history|à propos|a propos|qui sommes-nous|who we are)\b", re.IGNORECASE)),
]
_SKIP_PATH = re.compile(r"career|jobs?\b|employment|privacy|terms|cookie|legal-notice|login|sign-?in|account|"
                        r"cart|checkout|booking|reserv|/book\b|wp-admin|feed|\.(?:pdf|jpe?g|png|gif|webp|svg|docx?|"
                        r"zip|mp4)$", re.IGNORECASE)


def _canonical(url: str) -> str:
    p = urlsplit(url)
    path = p.path.rstrip("/") or ""
    return urlunsplit((p.scheme.lower(), p.netloc.lower(), path, p.query, ""))


def contact_page_links(html: str | bytes | None, base_url: str, max_links: int = 5) -> list[str]:
    """Absolute URLs of the homepage's contact, team and about pages, same site only (the
    registrable domain of `base_url`, any subdomain), without fragments, once each, at most
    `max_links`: contact pages first, then team/staff/owners, then about/history, each in page
    order. Careers, privacy, booking and file links are skipped."""
    if not html or not base_url:
        return []
    if isinstance(html, (bytes, bytearray)):
        html = bytes(html).decode("utf-8", errors="replace")
    base_parts = website_parts(base_url)
    if base_parts is None:
        return []
    site = base_parts[0]
    base_canon = _canonical(urljoin(base_url, "."))
    base_self = _canonical(base_url)
    tree = LexborHTMLParser(html)
    scored: dict[str, tuple[float, int, str]] = {}
    for order, node in enumerate(tree.css("a[href]")):
        href = (node.attributes.get("href") or "").strip()
        low = href.lower()
        if not href or low.startswith(("mailto:", "tel:", "javascript:", "#", "data:", "sms:", "whatsapp:")):
            continue
        url = urljoin(base_url, href).split("#", 1)[0]
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https"):
            continue
        wp = website_parts(url)
        if wp is None or wp[0] != site:
            continue
        canon = _canonical(url)
        if canon in (base_self, base_canon) or not parts.path.strip("/") and not parts.query:
            continue
        path = unquote(parts.path)
        if _SKIP_PATH.search(path):
            continue
        text = " ".join((node.text() or "").split()) or (node.attributes.get("title") or node.attributes.get(
            "aria-label") or "")
        score = 0.0
        for s, pattern in _LINK_KINDS:
            if pattern.search(path.replace("_", "-")):
                score = max(score, s)
        for s, pattern in _TEXT_KINDS:
            if len(text) <= 40 and pattern.search(text):
                score = max(score, s)
        if score <= 0:
            continue
        if canon not in scored or scored[canon][0] < score:
            prev_order = scored[canon][1] if canon in scored else order
            scored[canon] = (score, prev_order, url)
    ranked = sorted(scored.values(), key=lambda t: (-t[0], t[1]))
    return [url for _, _, url in ranked[:max_links]]
