"""Owner layers for tier-1 hotels of the demo region, on the sandbox: every layer of seed 001
(RDAP, WHOIS and its history, DNS, website contacts, licences, ABN, certificates, reviews, Common
Crawl) and e-mail verification after every contact layer and DNS, each address checked against
the sandbox's mail servers; re-runs change nothing; under injected RDAP failures no hotel is lost."""

from __future__ import annotations

import pytest

from sadie_pipeline.core.enrichment.layers import CONTACT_LAYERS, LAYER_DNS, OWNER_LAYERS
from sadie_pipeline.core.enrichment.mailbox import PATTERN_GUESS, MailboxStatus
from sadie_pipeline.core.entity_resolution import website_parts
from sadie_pipeline.hotels.enrichment.common import LAYER_ASSETS
from sadie_pipeline.hotels.enrichment.email_verify import WAITING, email_verification
from sadie_pipeline.hotels.enrichment.layer_assets import OWNER_LAYER_ASSETS
from sadie_pipeline.hotels.enrichment.owner import rdap_owner
from sadie_pipeline.sandbox.owners import owner_truth
from sadie_pipeline_tests.hotels.conftest import DEMO, run_layers, tier1_hotels

pytestmark = [pytest.mark.slow, pytest.mark.browser]
BIT_OF = {name: bit for bit, name in LAYER_ASSETS.items()}
OWNER_BITS = sum(BIT_OF[a.op.name] for a in OWNER_LAYER_ASSETS)
# the sandbox's mail set-ups -> the provider analyze_email_dns names
PROVIDERS = {"google": "google_workspace", "microsoft": "microsoft_365", "zoho": "zoho", "godaddy": "godaddy",
             "self": "self_hosted", None: None}
LIVE_SITES = {"ok", "js_only", "redirect_www", "moved", "huge"}
STATUSES = {s.value for s in MailboxStatus}
VERIFIED = {s.value for s in MailboxStatus if s.verified}
FIGURES = ("hotels", "ok", "dead_lettered", "skipped", "skipped_by_reason", "decision_makers_found",
           "registrant_orgs_found", "providers", "records_found", "archived_records_found", "licences_matched",
           "owners_found", "abns_found", "hotels_with_cert_org", "replies_read", "places_found", "pages_stored",
           "emails_verified")






def _snapshot(database):
    with database.connect() as conn:
        enrichment = conn.execute(
            """SELECT hotel_id, layers_completed, registrant_org, whois_registrant_org, whois_history_org,
                      email_provider, mx_hosts, sources, confidence
                 FROM sadie_gtm.hotel_owner_enrichment ORDER BY hotel_id""").fetchall()
        people = conn.execute(
            """SELECT id, hotel_id, full_name, title, email, email_verified, email_status, email_reply, phone, sources,
                      confidence, raw_source_url FROM sadie_gtm.hotel_decision_makers ORDER BY id""").fetchall()
        dead = conn.execute("SELECT count(*) FROM pipeline.dead_letters").fetchone()[0]
    return enrichment, people, dead


def _assert_same(after, before):
    """The snapshots are equal; on failure, the rows that differ."""
    for part, (a, b) in enumerate(zip(after, before)):
        if a != b:
            changed = [r for r in a if r not in b] + [r for r in b if r not in a] if isinstance(a, list) else [a, b]
            raise AssertionError(("changed rows (after, then before)", part, changed))


def _truth():
    by_name = {h["name"]: h for h in DEMO["hotels"]}
    rdap = {d["domain"]: d["rdap"] for d in DEMO["brand_domains"]}
    for h in DEMO["hotels"]:
        if h.get("website"):
            rdap.setdefault(website_parts(h["website"])[0], h.get("rdap"))
    return by_name, rdap


def _mail_truth(world, domain):
    """(mailboxes, mail kind, on Microsoft) of a domain as the sandbox's mail servers know it; None: unknown."""
    places = [p for p in world.hotels if (p.domain or "").lower() == domain.lower()]
    if not places:
        return None
    truths = [owner_truth(p) for p in places]
    return frozenset().union(*(t.mailboxes for t in truths)), truths[0].mail_kind, truths[0].o365


def _expected_status(world, email):
    """What checking `email` must say, from the owner truth of its domain."""
    known = _mail_truth(world, email.rsplit("@", 1)[-1])
    if known is None:
        return MailboxStatus.UNKNOWN.value          # no server answers for it (relay denied)
    boxes, kind, o365 = known
    exists = email.lower() in boxes
    if o365:
        return (MailboxStatus.VERIFIED_O365 if exists else MailboxStatus.REJECTED).value
    if kind == "silent":
        return MailboxStatus.UNKNOWN.value
    if kind == "catch_all":
        return MailboxStatus.CATCH_ALL.value
    return (MailboxStatus.VERIFIED_SMTP if exists else MailboxStatus.REJECTED).value   # normal, greylist


def _assert_mail_truth(world, people):
    """Every address's status is what the mail servers' truth says; a guess is kept only where no
    answer can prove it, removed (NULL, the reply naming it) where the mailbox does not exist."""
    for name, email, verified, status, reply in people:
        if email is None:
            if status == MailboxStatus.REJECTED.value:
                guess = reply.split(":", 1)[0]
                assert _expected_status(world, guess) == MailboxStatus.REJECTED.value, (name, reply)
            else:
                assert status is None and not verified, (name, status)
            continue
        expected = _expected_status(world, email)
        if status == PATTERN_GUESS:
            assert expected in (MailboxStatus.CATCH_ALL.value, MailboxStatus.UNKNOWN.value), (name, email, expected)
        else:
            assert status == expected, (name, email, status, expected)
        assert bool(verified) == (status in VERIFIED), (name, email, status)
        if verified:
            boxes, kind, _ = _mail_truth(world, email.rsplit("@", 1)[-1])
            assert email.lower() in boxes and kind != "catch_all", (name, email)


def _assert_owner_sources(world, name, hotel_people, record):
    """Owners from the new layers match the truth: the licensee's owner, the newest unmasked
    archived registrant; nobody found who is not the hotel's owner or staff."""
    truth = owner_truth(world.hotel(name))
    if truth.licence and truth.licence.owner_name:
        assert any(p[1] == truth.licence.owner_name and "gov_registry" in p[5] for p in hotel_people), name
    unmasked = [s for s in truth.whois_history if not s.masked]
    if truth.whois.masked and unmasked and unmasked[-1].name and not truth.agency_registrant:
        assert any(p[1] == unmasked[-1].name and "whois_history" in p[5] for p in hotel_people), name
    allowed = set(truth.true_people()) | ({record["name"]} if record and record.get("name") else set())
    first_names = {n.split()[0] for n in allowed}
    for p in hotel_people:
        assert p[1] in allowed or p[1] in first_names, (name, p)


def test_owner_layers_find_owner_mail_and_contacts(detected, database, local_object_store, instance, sb):
    tier1 = tier1_hotels(database, "id", "name", "website")
    assert len(tier1) >= 2
    assert OWNER_BITS == OWNER_LAYERS                     # every owner layer of the seed runs here
    meta = run_layers(OWNER_LAYER_ASSETS, database, local_object_store, instance, sb)
    for name, m in meta.items():
        assert (m["hotels"], m["ok"], m["skipped"], m["dead_lettered"]) == (len(tier1), len(tier1), 0, 0), (name, m)
    assert meta["website_contacts"]["decision_makers_found"] >= 1
    assert sum(meta["dns_email_provider"]["providers"].values()) == len(tier1)
    assert meta["email_verification"]["emails_checked"] >= 2

    truth, rdap_truth = _truth()
    world = sb.world
    with database.connect() as conn:
        rows = {r[0]: r[1:] for r in conn.execute(
            """SELECT hotel_id, layers_completed, registrant_org, email_provider, mx_hosts, whois_registrant_org,
                      whois_history_org FROM sadie_gtm.hotel_owner_enrichment""")}
        people = conn.execute(
            """SELECT hotel_id, full_name, title, email, email_status, sources, raw_source_url, confidence,
                      email_verified, email_reply FROM sadie_gtm.hotel_decision_makers""").fetchall()
    checked_contacts = 0
    for hotel_id, name, website in tier1:
        layers, org, provider, mx, whois_org, history_org = rows[hotel_id]
        assert layers & OWNER_BITS == OWNER_BITS, name
        record = rdap_truth.get(website_parts(website)[0])
        expected_org = record["org"] if record and not record["privacy"] else None
        assert org == expected_org, (name, org)
        owner = owner_truth(world.hotel(name))
        assert whois_org == owner.whois.org, (name, whois_org)
        assert provider == PROVIDERS[truth[name]["mail"]], (name, provider)
        assert bool(mx) == (truth[name]["mail"] is not None), (name, mx)
        hotel_people = [p for p in people if p[0] == hotel_id]
        if truth[name]["site"] in LIVE_SITES:
            for contact in truth[name]["contacts"]:
                match = [p for p in hotel_people if p[1] == contact["name"] and "website_scrape" in p[5]]
                assert match, (name, contact, hotel_people)
                _, _, title, email, status, _, url, confidence, _, _ = match[0]
                assert (title, email) == (contact["title"], contact["email"]), (name, match)
                assert status == _expected_status(world, email), (name, match)
                assert url and url.startswith("http") and 0 < confidence <= 1
                checked_contacts += 1
        if record and not record["privacy"] and record.get("name") and record["name"] != "Domain Administrator":
            assert any(p[1] == record["name"] and p[2] == "Domain Registrant" and "rdap" in p[5]
                       for p in hotel_people), (name, hotel_people)
        if record and record["privacy"]:
            assert not any("rdap" in p[5] for p in hotel_people), name
        _assert_owner_sources(world, name, hotel_people, record)
    assert checked_contacts >= 2
    # every address got a status from a mail server's answer, and each matches the truth
    assert all(p[4] in STATUSES | {PATTERN_GUESS} for p in people if p[3])
    _assert_mail_truth(world, [(p[1], p[3], p[8], p[4], p[9]) for p in people])
    assert sum(1 for p in people if p[8]) >= 1
    with database.connect() as conn:
        assert conn.execute("SELECT count(*) FROM pipeline.dead_letters").fetchone()[0] == 0


def test_rerunning_changes_nothing(detected, database, local_object_store, instance, sb):
    first = run_layers(OWNER_LAYER_ASSETS, database, local_object_store, instance, sb)
    before = _snapshot(database)
    assert before[1], "no decision makers found"

    again = run_layers(OWNER_LAYER_ASSETS, database, local_object_store, instance, sb)
    assert all(m["hotels"] == 0 for m in again.values())        # every layer already done
    _assert_same(_snapshot(database), before)

    forced = run_layers(OWNER_LAYER_ASSETS, database, local_object_store, instance, sb, force=True)
    _assert_same(_snapshot(database), before)                   # same rows, same values
    for name, m in forced.items():
        for key in FIGURES:
            assert m.get(key) == first[name].get(key), (name, key)
    # every address is checked again, except the guesses the mail servers rejected: not guessed again
    verified, again = first["email_verification"], forced["email_verification"]
    removed = verified["guesses_removed"]
    statuses = {**verified["email_statuses"], "rejected": verified["email_statuses"].get("rejected", 0) - removed}
    assert again["emails_checked"] == verified["emails_checked"] - removed
    assert again["email_statuses"] == {k: v for k, v in statuses.items() if v}
    assert (again["emails_guessed"], again["guesses_removed"]) == (verified["emails_guessed"] - removed, 0)


def test_email_verification_waits_for_contacts_and_dns(detected, database, local_object_store, instance, sb):
    tier1 = tier1_hotels(database, "id", "name", "website")
    meta = run_layers([email_verification], database, local_object_store, instance, sb)["email_verification"]
    assert (meta["hotels"], meta["ok"], meta["skipped"]) == (len(tier1), 0, len(tier1))
    assert meta["skipped_by_reason"] == {WAITING: len(tier1)}

    by_name = {a.op.name: a for a in OWNER_LAYER_ASSETS}
    contact = [a for a in OWNER_LAYER_ASSETS if BIT_OF[a.op.name] & CONTACT_LAYERS]
    last = by_name["cc_contacts"]
    # every contact layer but the last (and the crawl it reads), no DNS yet
    run_layers([a for a in contact if a is not last] + [by_name["cc_harvest"]], database, local_object_store, instance, sb)
    meta = run_layers([email_verification], database, local_object_store, instance, sb)["email_verification"]
    assert meta["skipped_by_reason"] == {WAITING: len(tier1)}

    run_layers([by_name[LAYER_ASSETS[LAYER_DNS]]], database, local_object_store, instance, sb)
    meta = run_layers([email_verification], database, local_object_store, instance, sb)["email_verification"]
    assert meta["skipped_by_reason"] == {WAITING: len(tier1)}   # DNS and all contact layers but one: waiting

    run_layers([last], database, local_object_store, instance, sb)
    meta = run_layers([email_verification], database, local_object_store, instance, sb)["email_verification"]
    assert (meta["ok"], meta["skipped"]) == (len(tier1), 0)
    assert meta["emails_checked"] >= 1


def test_pattern_guess_for_people_without_an_address(detected, database, local_object_store, instance, sb):
    run_layers(OWNER_LAYER_ASSETS, database, local_object_store, instance, sb)
    world = sb.world
    with database.connect() as conn:
        found = conn.execute(
            """SELECT hotel_id, full_name, email FROM sadie_gtm.hotel_decision_makers
                WHERE email_status = ANY(%s) AND 'website_scrape' = ANY(sources)""", (sorted(VERIFIED),)).fetchall()
        # a person named on a team page without an address, at a hotel whose pattern is known
        hotel_id, known_name, known_email = next(
            (h, n, e) for h, n, e in found if e.split("@")[0] in (n.lower().replace(" ", "."),
                                                                    (n[0] + n.split()[-1]).lower(),
                                                                    n.split()[0].lower()))
        conn.execute("""INSERT INTO sadie_gtm.hotel_decision_makers (hotel_id, full_name, title, sources, confidence)
                        VALUES (%s, 'Anna Kowalski', 'Sales Manager', '{website_scrape}', 0.7)""", (hotel_id,))
        # addresses at other domains: their MX is looked up (a management company's, a dead domain)
        conn.execute("""INSERT INTO sadie_gtm.hotel_decision_makers (hotel_id, full_name, title, email, sources, confidence)
                        VALUES (%s, 'Luis Fernandez', 'Director of Operations', 'lfernandez@southernmostinnkeywest.test',
                                '{website_scrape}', 0.7),
                               (%s, 'Ray Nobody', 'Owner', 'ray@no-such-domain.test', '{website_scrape}', 0.7)""",
                     (hotel_id, hotel_id))
    meta = run_layers([email_verification], database, local_object_store, instance, sb, force=True)["email_verification"]
    assert meta["emails_guessed"] >= 1
    with database.connect() as conn:
        email, status, verified, reply = conn.execute(
            """SELECT email, email_status, email_verified, email_reply FROM sadie_gtm.hotel_decision_makers
                WHERE full_name = 'Anna Kowalski'""").fetchone()
        foreign = dict(conn.execute("""SELECT full_name, email_status FROM sadie_gtm.hotel_decision_makers
                                        WHERE full_name IN ('Luis Fernandez', 'Ray Nobody')""").fetchall())
    assert foreign == {"Luis Fernandez": _expected_status(world, "lfernandez@southernmostinnkeywest.test"),
                       "Ray Nobody": "no_mx"}                   # no MX: nothing to ask, not checked
    domain = known_email.split("@")[1]
    guess = email if email is not None else reply.split(":", 1)[0]
    assert guess.endswith("@" + domain), (known_name, known_email, guess)
    assert guess.split("@")[0] in ("anna.kowalski", "akowalski", "anna"), guess
    expected = _expected_status(world, guess)                   # what the domain's mail server says of it
    if expected in VERIFIED:
        assert (email, status, verified) == (guess, expected, True)
    elif expected == MailboxStatus.REJECTED.value:
        assert (email, status, verified) == (None, expected, False) and guess in reply, reply
    else:                                                       # catch-all or no answer: still only a guess
        assert (email, status, verified) == (guess, PATTERN_GUESS, False) and expected in reply, reply
    before = _snapshot(database)
    meta = run_layers([email_verification], database, local_object_store, instance, sb, force=True)["email_verification"]
    _assert_same(_snapshot(database), before)                   # checked again: the same answer, same rows
    if expected == MailboxStatus.REJECTED.value:
        assert meta["emails_guessed"] == 0                      # a rejected guess is not guessed again


def test_rdap_failures_lose_no_hotel(detected, database, local_object_store, instance, sb):
    tier1 = tier1_hotels(database, "id", "name", "website")
    sb.configure("rdap", error_rate=1.0)                 # every lookup a 5xx: retried, then dead-lettered
    meta = run_layers([rdap_owner], database, local_object_store, instance, sb)["rdap_owner"]
    # Each hotel is dead-lettered after 3 attempts, or skipped once the breaker opened: none is lost.
    assert meta["hotels"] == len(tier1) and meta["ok"] == 0
    assert meta["dead_lettered"] + meta["skipped"] == len(tier1) and meta["dead_lettered"] >= 1
    assert all("breaker" in reason for reason in meta["skipped_by_reason"])
    with database.connect() as conn:
        dead = conn.execute("SELECT count(*), min(attempts), min(error_class) "
                            "FROM pipeline.dead_letters WHERE layer = 'rdap_owner'").fetchone()
        done = conn.execute("SELECT count(*) FROM sadie_gtm.hotel_owner_enrichment "
                            "WHERE layers_completed & 1 = 1").fetchone()[0]
    assert dead == (meta["dead_lettered"], 3, "transient")
    assert done == 0                                      # nothing marked done: the next run retries them

    sb.configure("rdap", error_rate=0.0)                 # the service is back: every hotel succeeds
    meta = run_layers([rdap_owner], database, local_object_store, instance, sb)["rdap_owner"]
    assert (meta["hotels"], meta["ok"]) == (len(tier1), len(tier1))
    with database.connect() as conn:
        assert conn.execute("SELECT count(*) FROM pipeline.dead_letters WHERE layer = 'rdap_owner' "
                            "AND resolved_at IS NULL").fetchone()[0] == 0
