"""The `email_verification` asset on the Key West hotels (`detected`), mailboxes checked for real
against the sandbox's SMTP listener and Microsoft account check: every status agrees with the
world's truth, only verified addresses are marked verified, guesses are verified or removed."""

from __future__ import annotations

import pytest
from dagster import materialize

from sadie_pipeline.core.enrichment.layers import CONTACT_LAYERS, LAYER_DNS
from sadie_pipeline.hotels.enrichment.email_verify import email_verification
from sadie_pipeline.hotels.enrichment.owner import dns_email_provider, rdap_owner, website_contacts
from sadie_pipeline.sandbox.owners import owner_truth
from sadie_pipeline_tests.hotels.conftest import sandbox_resources

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def _run(assets, database, store, instance, sb):
    config = {"ops": {a.op.name: {"config": {"force_refresh": True}} for a in assets}}
    result = materialize(assets, partition_key="US-FL", instance=instance, run_config=config,
                         resources=sandbox_resources(database, store, sb))
    assert result.success
    return {a.op.name: {k: v.value for k, v in result.asset_materializations_for_node(a.op.name)[0].metadata.items()}
            for a in assets}


def _expected(sb, email: str) -> str | None:
    """The status the truth calls for, None for an address at a domain the world does not host."""
    domain = email.rsplit("@", 1)[1]
    place = next((p for p in sb.world.hotels if p.domain == domain), None)
    if place is None or not place.mail:
        return None
    truth = owner_truth(place)
    if truth.o365:
        return "verified_o365" if truth.exists(email) else "rejected"
    if truth.mail_kind == "silent":
        return "unknown"
    if truth.mail_kind == "catch_all":
        return "catch_all"
    return "verified_smtp" if truth.exists(email) else "rejected"


def test_mailboxes_are_checked_against_the_truth(detected, database, local_object_store, instance, sb):
    _run([rdap_owner, dns_email_provider, website_contacts], database, local_object_store, instance, sb)
    with database.connect() as conn:
        # the other contact layers are not under test here: mark them done so verification may run
        conn.execute("UPDATE sadie_gtm.hotel_owner_enrichment SET layers_completed = layers_completed | %s",
                     (CONTACT_LAYERS | LAYER_DNS,))
        hotel_id, domain = next(
            (h, e.split("@")[1]) for h, e in conn.execute(
                """SELECT hotel_id, email FROM sadie_gtm.hotel_decision_makers
                    WHERE email LIKE '%%@%%' ORDER BY id""").fetchall()
            if _expected(sb, e) in ("verified_smtp", "verified_o365"))
        # a guess that exists (the owner's first.last) and one that does not
        place = next(p for p in sb.world.hotels if p.domain == domain)
        owner = owner_truth(place).owner
        conn.execute("""INSERT INTO sadie_gtm.hotel_decision_makers (hotel_id, full_name, title, sources, confidence)
                        VALUES (%s, %s, 'Owner', '{website_scrape}', 0.7),
                               (%s, 'Zebulon Quux', 'Night Manager', '{website_scrape}', 0.7)""",
                     (hotel_id, owner.name, hotel_id))
    meta = _run([email_verification], database, local_object_store, instance, sb)["email_verification"]

    with database.connect() as conn:
        rows = conn.execute("""SELECT full_name, email, email_status, email_verified, email_reply, email_checked_at
                                 FROM sadie_gtm.hotel_decision_makers ORDER BY id""").fetchall()
    checked = 0
    for name, email, status, verified, reply, checked_at in rows:
        assert verified == (status in ("verified_smtp", "verified_o365")), (name, email, status)
        if email and (expected := _expected(sb, email)) is not None and status != "pattern_guess":
            assert status == expected, (name, email, status, reply)
            assert reply and checked_at is not None
            checked += 1
    assert checked >= 2
    by_name = {r[0]: r for r in rows}
    if owner_truth(place).exists(owner.email or "") and by_name[owner.name][1]:
        # the owner's guessed address exists: verified, no longer a guess
        assert by_name[owner.name][2] in ("verified_smtp", "verified_o365") and by_name[owner.name][3]
    # a guess the server rejects is removed; the rejection stays on the row
    _, email, status, verified, reply, _ = by_name["Zebulon Quux"]
    if reply is not None:
        assert (email, status, verified) == (None, "rejected", False) and "zebulon" in reply
    statuses = meta["email_statuses"]  # figures: the count per status
    assert statuses.get("verified_smtp", 0) + statuses.get("verified_o365", 0) == meta["emails_verified"] >= 1
    assert meta["emails_checked"] >= checked
    assert meta["emails_verified"] == sum(1 for r in rows if r[3])
