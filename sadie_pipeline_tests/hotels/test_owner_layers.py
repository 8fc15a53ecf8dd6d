"""Owner layers for tier-1 hotels of the demo region, on the sandbox: RDAP registrant, DNS mail
provider, website contacts, e-mail verification (after contacts and DNS); re-runs change nothing;
under injected RDAP failures no hotel is lost."""

from __future__ import annotations

import pytest
from dagster import materialize

from sadie_pipeline.core.entity_resolution import website_parts
from sadie_pipeline.core.hotel_status import DETECTED_OR_ENRICHED
from sadie_pipeline.hotels.enrichment.owner import (
    WAITING,
    dns_email_provider,
    email_verification,
    owner_assets,
    rdap_owner,
    website_contacts,
)
from sadie_pipeline_tests.hotels.conftest import DEMO, sandbox_resources

pytestmark = [pytest.mark.slow, pytest.mark.browser]
OWNER_BITS = 1 | 4 | 8 | 32  # RDAP, DNS, WEBSITE, EMAIL_VERIFY
# the sandbox's mail set-ups -> the provider analyze_email_dns names
PROVIDERS = {"google": "google_workspace", "microsoft": "microsoft_365", "zoho": "zoho", "godaddy": "godaddy",
             "self": "self_hosted", None: None}
LIVE_SITES = {"ok", "js_only", "redirect_www", "moved", "huge"}






def _run(assets, database, store, instance, sb, force=False):
    config = {"ops": {a.op.name: {"config": {"force_refresh": force}} for a in assets}}
    result = materialize(assets, partition_key="US-FL", instance=instance, run_config=config,
                         resources=sandbox_resources(database, store, sb))
    assert result.success
    return {a.op.name: {k: v.value for k, v in result.asset_materializations_for_node(a.op.name)[0].metadata.items()}
            for a in assets}


def _tier1(database):
    with database.connect() as conn:
        return conn.execute(
            """SELECT h.id, h.name, h.website FROM sadie_gtm.hotels h
                 JOIN sadie_gtm.hotel_booking_engines hbe ON hbe.hotel_id = h.id
                 JOIN sadie_gtm.booking_engines be ON be.id = hbe.booking_engine_id
                WHERE be.tier = 1 AND h.status = ANY(%s) ORDER BY h.id""", (list(DETECTED_OR_ENRICHED),)).fetchall()


def _snapshot(database):
    with database.connect() as conn:
        enrichment = conn.execute(
            """SELECT hotel_id, layers_completed, registrant_org, email_provider, mx_hosts, sources, confidence
                 FROM sadie_gtm.hotel_owner_enrichment ORDER BY hotel_id""").fetchall()
        people = conn.execute(
            """SELECT id, hotel_id, full_name, title, email, email_verified, email_status, phone, sources, confidence,
                      raw_source_url FROM sadie_gtm.hotel_decision_makers ORDER BY id""").fetchall()
        dead = conn.execute("SELECT count(*) FROM pipeline.dead_letters").fetchone()[0]
    return enrichment, people, dead


def _truth():
    by_name = {h["name"]: h for h in DEMO["hotels"]}
    rdap = {d["domain"]: d["rdap"] for d in DEMO["brand_domains"]}
    for h in DEMO["hotels"]:
        if h.get("website"):
            rdap.setdefault(website_parts(h["website"])[0], h.get("rdap"))
    return by_name, rdap


def test_owner_layers_find_owner_mail_and_contacts(detected, database, local_object_store, instance, sb):
    tier1 = _tier1(database)
    assert len(tier1) >= 2
    meta = _run(owner_assets, database, local_object_store, instance, sb)
    for name in ("rdap_owner", "dns_email_provider", "website_contacts", "email_verification"):
        assert (meta[name]["hotels"], meta[name]["ok"]) == (len(tier1), len(tier1)), (name, meta[name])
    # Dagster ran e-mail verification after contacts and DNS: no hotel had to wait
    assert meta["email_verification"]["skipped"] == 0
    assert meta["website_contacts"]["decision_makers_found"] >= 1
    assert sum(meta["dns_email_provider"]["providers"].values()) == len(tier1)

    truth, rdap_truth = _truth()
    with database.connect() as conn:
        rows = {r[0]: r[1:] for r in conn.execute(
            """SELECT hotel_id, layers_completed, registrant_org, email_provider, mx_hosts
                 FROM sadie_gtm.hotel_owner_enrichment""")}
        people = conn.execute(
            """SELECT hotel_id, full_name, title, email, email_status, sources, raw_source_url, confidence
                 FROM sadie_gtm.hotel_decision_makers""").fetchall()
    checked_contacts = 0
    for hotel_id, name, website in tier1:
        layers, org, provider, mx = rows[hotel_id]
        assert layers & OWNER_BITS == OWNER_BITS, name
        record = rdap_truth.get(website_parts(website)[0])
        expected_org = record["org"] if record and not record["privacy"] else None
        assert org == expected_org, (name, org)
        assert provider == PROVIDERS[truth[name]["mail"]], (name, provider)
        assert bool(mx) == (truth[name]["mail"] is not None), (name, mx)
        hotel_people = [p for p in people if p[0] == hotel_id]
        if truth[name]["site"] in LIVE_SITES:
            for contact in truth[name]["contacts"]:
                match = [p for p in hotel_people if p[1] == contact["name"] and "website_scrape" in p[5]]
                assert match, (name, contact, hotel_people)
                _, _, title, email, status, _, url, confidence = match[0]
                assert (title, email) == (contact["title"], contact["email"]), (name, match)
                assert status in ("valid_domain", "role_account"), (name, match)
                assert url and url.startswith("http") and 0 < confidence <= 1
                checked_contacts += 1
        if record and not record["privacy"] and record.get("name") and record["name"] != "Domain Administrator":
            assert any(p[1] == record["name"] and p[2] == "Domain Registrant" and "rdap" in p[5]
                       for p in hotel_people), (name, hotel_people)
        if record and record["privacy"]:
            assert not any("rdap" in p[5] for p in hotel_people), name
    assert checked_contacts >= 2
    # every address got a status; no SMTP happened, so nothing claims to be verified
    assert all(p[4] for p in people if p[3])
    with database.connect() as conn:
        assert conn.execute("SELECT count(*) FROM sadie_gtm.hotel_decision_makers WHERE email_verified").fetchone()[0] == 0
        assert conn.execute("SELECT count(*) FROM pipeline.dead_letters").fetchone()[0] == 0


def test_rerunning_changes_nothing(detected, database, local_object_store, instance, sb):
    first = _run(owner_assets, database, local_object_store, instance, sb)
    before = _snapshot(database)
    assert before[1], "no decision makers found"

    again = _run(owner_assets, database, local_object_store, instance, sb)
    assert all(m["hotels"] == 0 for m in again.values())        # every layer already done
    assert _snapshot(database) == before

    forced = _run(owner_assets, database, local_object_store, instance, sb, force=True)
    assert _snapshot(database) == before                        # same rows, same values
    for name, m in forced.items():
        for key in ("hotels", "ok", "dead_lettered", "skipped", "decision_makers_found", "registrant_orgs_found",
                    "providers", "emails_checked", "emails_guessed", "email_statuses"):
            assert m.get(key) == first[name].get(key), (name, key)


def test_email_verification_waits_for_contacts_and_dns(detected, database, local_object_store, instance, sb):
    tier1 = _tier1(database)
    meta = _run([email_verification], database, local_object_store, instance, sb)["email_verification"]
    assert (meta["hotels"], meta["ok"], meta["skipped"]) == (len(tier1), 0, len(tier1))
    assert meta["skipped_by_reason"] == {WAITING: len(tier1)}

    _run([dns_email_provider], database, local_object_store, instance, sb)
    meta = _run([email_verification], database, local_object_store, instance, sb)["email_verification"]
    assert meta["skipped_by_reason"] == {WAITING: len(tier1)}   # DNS alone is not enough

    _run([website_contacts], database, local_object_store, instance, sb)
    meta = _run([email_verification], database, local_object_store, instance, sb)["email_verification"]
    assert (meta["ok"], meta["skipped"]) == (len(tier1), 0)
    assert meta["emails_checked"] >= 1


def test_pattern_guess_for_people_without_an_address(detected, database, local_object_store, instance, sb):
    _run(owner_assets, database, local_object_store, instance, sb)
    with database.connect() as conn:
        found = conn.execute(
            """SELECT hotel_id, full_name, email FROM sadie_gtm.hotel_decision_makers
                WHERE email_status = 'valid_domain' AND 'website_scrape' = ANY(sources)""").fetchall()
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
    _run([email_verification], database, local_object_store, instance, sb, force=True)
    with database.connect() as conn:
        email, status = conn.execute("""SELECT email, email_status FROM sadie_gtm.hotel_decision_makers
                                         WHERE full_name = 'Anna Kowalski'""").fetchone()
        foreign = dict(conn.execute("""SELECT full_name, email_status FROM sadie_gtm.hotel_decision_makers
                                        WHERE full_name IN ('Luis Fernandez', 'Ray Nobody')""").fetchall())
    assert foreign == {"Luis Fernandez": "valid_domain", "Ray Nobody": "no_mx"}
    local, domain = known_email.split("@")
    assert status == "pattern_guess" and email.endswith("@" + domain), (known_name, known_email, email)
    assert email.split("@")[0] in ("anna.kowalski", "akowalski", "anna"), email
    before = _snapshot(database)
    _run([email_verification], database, local_object_store, instance, sb, force=True)
    assert _snapshot(database) == before                        # the guess stays a guess


def test_rdap_failures_lose_no_hotel(detected, database, local_object_store, instance, sb):
    tier1 = _tier1(database)
    sb.configure("rdap", error_rate=1.0)                 # every lookup a 5xx: retried, then dead-lettered
    meta = _run([rdap_owner], database, local_object_store, instance, sb)["rdap_owner"]
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
    meta = _run([rdap_owner], database, local_object_store, instance, sb)["rdap_owner"]
    assert (meta["hotels"], meta["ok"]) == (len(tier1), len(tier1))
    with database.connect() as conn:
        assert conn.execute("SELECT count(*) FROM pipeline.dead_letters WHERE layer = 'rdap_owner' "
                            "AND resolved_at IS NULL").fetchone()[0] == 0
