"""review_responses and gmaps_details for the tier-1 hotels of the demo region, on the sandbox:
reply signers become decision makers (rules first, the LLM only for prose signatures), the Google
Maps details land on the enrichment row, and a re-run changes nothing."""

from __future__ import annotations

import pytest

from sadie_pipeline.core.enrichment.confidence import contact_confidence
from sadie_pipeline.core.enrichment.review_signers import read_signature
from sadie_pipeline.hotels.enrichment.reviews import gmaps_details, review_responses, reviews_assets
from sadie_pipeline.sandbox.owners import owner_truth
from sadie_pipeline.sandbox.services.serper import place_details
from sadie_pipeline_tests.hotels.conftest import run_layers, tier1_hotels

pytestmark = [pytest.mark.slow, pytest.mark.browser]
REVIEWS, GMAPS = 16, 2048






def _snapshot(database):
    with database.connect() as conn:
        enrichment = conn.execute(
            """SELECT hotel_id, layers_completed, review_replies, opening_hours, price_level, photos_count,
                      gmaps_rating, gmaps_reviews, sources, confidence
                 FROM sadie_gtm.hotel_owner_enrichment ORDER BY hotel_id""").fetchall()
        people = conn.execute(
            """SELECT id, hotel_id, full_name, title, email, sources, confidence, raw_source_url
                 FROM sadie_gtm.hotel_decision_makers ORDER BY id""").fetchall()
    return enrichment, people


def _expected_person(place):
    """What the replies of a place say (None: team-signed or no reply), by reading the truth's style."""
    truth = owner_truth(place)
    replies = [r.response for r in truth.reviews if r.response]
    signer = truth.manager or truth.owner
    statuses = {read_signature(r).status for r in replies}
    if not replies or statuses <= {"team", "unsigned"}:
        return None, replies, statuses
    return signer, replies, statuses


def test_review_signers_and_gmaps_details(detected, database, local_object_store, instance, sb):
    tier1 = tier1_hotels(database, "id", "google_place_id")
    places = {p.cid: p for p in sb.hotels}
    assert len(tier1) >= 2 and all(pid in places for _, pid in tier1)
    sb.reset_stats("groq")
    meta = run_layers(reviews_assets, database, local_object_store, instance, sb)
    for name in ("review_responses", "gmaps_details"):
        assert (meta[name]["hotels"], meta[name]["ok"]) == (len(tier1), len(tier1)), (name, meta[name])
    enrichment, people = _snapshot(database)
    rows = {r[0]: r for r in enrichment}
    found = {}
    for p in people:
        assert p[5] == ["review_response"] and p[4] is None
        found.setdefault(p[1], []).append(p)
    prose_hotels = 0
    for hotel_id, pid in tier1:
        place = places[pid]
        signer, replies, statuses = _expected_person(place)
        row = rows[hotel_id]
        assert row[1] & (REVIEWS | GMAPS) == REVIEWS | GMAPS and row[2] == len(replies)
        # Google Maps details as the place answers them
        details = place_details(place)
        assert (row[3], row[4], row[5]) == (details["openingHours"], details["priceLevel"], details["photosCount"])
        assert (float(row[6]), row[7]) == (place.rating, place.reviews)
        if signer is None:
            assert hotel_id not in found, (place.name, found.get(hotel_id))
            continue
        (person,) = found[hotel_id]
        first = signer.name.split()[0]
        prose = statuses == {"unreadable"}
        prose_hotels += prose
        # the signer is the hotel's true manager / owner: full name or first name, stated or implied title
        assert person[2] in (signer.name, first) and person[2] in owner_truth(place).true_people() | {first}
        assert person[3] == ("Manager" if prose else signer.title)
        assert person[6] == contact_confidence("review_response", first_name_only=person[2] == first,
                                               generic_title=person[3] in ("Manager", ""),
                                               multiple_sources=len(replies) >= 2)
        assert person[7] == f"https://www.google.com/maps?cid={pid}"
    # the LLM read only the prose signatures: one call per such hotel (its replies share one text)
    assert prose_hotels >= 1
    assert meta["review_responses"]["llm_calls"] == prose_hotels == sb.stats("groq")["requests"]
    assert meta["review_responses"]["decision_makers_found"] == len(people)
    assert meta["gmaps_details"]["places_found"] == len(tier1)

    before = _snapshot(database)
    again = run_layers(reviews_assets, database, local_object_store, instance, sb)
    assert again["review_responses"]["hotels"] == 0 and again["gmaps_details"]["hotels"] == 0
    assert _snapshot(database) == before
    refreshed = run_layers(reviews_assets, database, local_object_store, instance, sb, force=True)
    assert refreshed["review_responses"]["hotels"] == len(tier1)
    assert _snapshot(database) == before


def test_hotels_without_a_place_id_complete_with_nothing(detected, database, local_object_store, instance, sb):
    with database.connect() as conn:
        conn.execute("UPDATE sadie_gtm.hotels SET google_place_id = NULL")
    sb.reset_stats("serper")
    meta = run_layers(reviews_assets, database, local_object_store, instance, sb)
    tier1 = tier1_hotels(database, "id", "google_place_id")
    assert meta["review_responses"]["hotels_without_place_id"] == len(tier1) == meta["gmaps_details"]["ok"]
    assert sb.stats("serper")["requests"] == 0
    enrichment, people = _snapshot(database)
    assert people == [] and all(r[1] & (REVIEWS | GMAPS) == REVIEWS | GMAPS and r[2] is None for r in enrichment)


assert review_responses in reviews_assets and gmaps_details in reviews_assets
