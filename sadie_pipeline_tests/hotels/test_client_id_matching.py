"""Exact matching on booking-engine client ids (issue 32, item 4) against the real PostgreSQL:
detection stores the client id of the booking URL; client_id_matches merges, after detection,
the hotels of one client id that two sources found (once); hotel_entities merges an engine's client
page with the Serper record of its hotel when the hotel's detection found the same client id."""

from __future__ import annotations

import gzip
import json

import psycopg
import pytest
from dagster import materialize
from psycopg.types.json import Jsonb

from sadie_pipeline.core.hotel_status import HotelStatus
from sadie_pipeline.hotels.assets import booking_engine_detection, hotel_entities
from sadie_pipeline.hotels.client_matches import client_id_matches
from sadie_pipeline.hotels.entity_reviews import ReviewDecision
from sadie_pipeline.hotels.markets import add_market
from sadie_pipeline.hotels.websites import content_key

pytestmark = pytest.mark.slow  # Dagster runs against PostgreSQL

SOL = {"name": "Casa Sol Guesthouse", "address": "1200 Duval St", "city": "Key West", "state": "FL",
       "zip": "33040", "phone": "+13055550111", "website": "https://casasol.test/"}
# Cloudbeds' page of the same guesthouse: another name, no address, no phone
SOL_PAGE = {"name": "Book your stay - CSG", "city": "Key West", "booking_engine": "Cloudbeds",
            "client_id": "abc123", "booking_url": "https://hotels.cloudbeds.com/reservation/AbC123"}
HOME = '<html><body><h1>Casa Sol</h1><a href="https://hotels.cloudbeds.com/reservation/AbC123">Book now</a></body></html>'


def _source(conn: psycopg.Connection, source: str, external_id: str, record: dict) -> int:
    return conn.execute("""INSERT INTO sadie_gtm.hotel_sources (region, city, source, external_id, record)
                           VALUES ('US-FL', %s, %s, %s, %s) RETURNING id""",
                        (record["city"], source, external_id, Jsonb(record))).fetchone()[0]


def _hotel_of(conn: psycopg.Connection, source_id: int) -> int:
    return conn.execute("SELECT hotel_id FROM sadie_gtm.hotel_sources WHERE id = %s", (source_id,)).fetchone()[0]


def _run(asset, instance, resources) -> dict:
    result = materialize([asset], partition_key="US-FL", instance=instance, resources=resources)
    assert result.success
    [mat] = result.asset_materializations_for_node(asset.op.name)
    return {k: v.value for k, v in mat.metadata.items()}


def _fetched(store, hotel_id: int) -> None:
    """What hotel_websites stores for the hotel's home page (detection reads it)."""
    meta = {"url": SOL["website"], "final_url": SOL["website"], "status": 200, "request_urls": [], "js_globals": [],
            "cookies": [], "followed_url": None}
    store.put_bytes(content_key("FL", "Key West", hotel_id, "fetch.json"), json.dumps(meta).encode())
    store.put_bytes(content_key("FL", "Key West", hotel_id, "html.gz"), gzip.compress(HOME.encode()))


@pytest.fixture
def two_hotels(database, local_object_store, instance) -> tuple[int, int, dict]:
    """Cloudbeds' page of the guesthouse (found first) and its Serper record: two hotels after
    resolution (nothing but the client id says one); (page source id, serper source id, resources)."""
    with database.connect() as conn:
        add_market(conn, "US-FL", ["Key West"])
        page = _source(conn, "engine_client", "cloudbeds:abc123", SOL_PAGE)
        serper = _source(conn, "serper", "ChIJcasasol", SOL)
    resources = {"database": database, "object_store": local_object_store}
    _run(hotel_entities, instance, resources)
    with database.connect() as conn:
        assert _hotel_of(conn, page) != _hotel_of(conn, serper)
        _fetched(local_object_store, _hotel_of(conn, serper))
    return page, serper, resources


def test_detection_stores_the_client_id_and_client_id_matches_merges_once(two_hotels, database, instance):
    page, serper, resources = two_hotels
    with database.connect() as conn:
        older, detected = _hotel_of(conn, page), _hotel_of(conn, serper)
    meta = _run(booking_engine_detection, instance, resources)
    assert meta["hotels"] == 2
    with database.connect() as conn:
        row = conn.execute("SELECT client_id, client_id_matched_at FROM sadie_gtm.hotel_booking_engines "
                           "WHERE hotel_id = %s", (detected,)).fetchone()
    assert row == ("abc123", None)                               # lower-cased, not matched yet

    meta = _run(client_id_matches, instance, resources)
    assert meta["detected_since_last_run"] == 1 and meta["hotels_merged"] == 1
    assert meta["merges_by_stage"] == {"client_id": 1}
    with database.connect() as conn:
        assert _hotel_of(conn, page) == _hotel_of(conn, serper) == older          # the oldest hotel kept
        statuses = dict(conn.execute("SELECT id, status FROM sadie_gtm.hotels").fetchall())
        kept_engine = conn.execute("SELECT client_id FROM sadie_gtm.hotel_booking_engines WHERE hotel_id = %s",
                                   (older,)).fetchone()
        merges = conn.execute("""SELECT hotel_id, merged_hotel_id, source_id_a, source_id_b, stage, booking_engine,
                                        client_id FROM sadie_gtm.hotel_merges""").fetchall()
    # the page's hotel had no website: it takes the engine its duplicate was detected with
    assert statuses == {older: HotelStatus.DETECTED, detected: HotelStatus.DUPLICATE}
    assert kept_engine == ("abc123",)
    assert merges == [(older, detected, page, serper, "client_id", "Cloudbeds", "abc123")]

    meta = _run(client_id_matches, instance, resources)                       # a second run does nothing
    assert meta["detected_since_last_run"] == 0 and meta["hotels_merged"] == 0
    meta = _run(hotel_entities, instance, resources)                          # and resolution agrees
    assert meta["hotels_created"] == meta["hotels_merged"] == 0 and meta["merges_by_stage"] == {"client_id": 1}
    with database.connect() as conn:
        assert conn.execute("SELECT count(*) FROM sadie_gtm.hotel_merges").fetchone()[0] == 1


def test_a_reject_decision_between_the_two_hotels_holds(two_hotels, database, instance):
    page, serper, resources = two_hotels
    with database.connect() as conn:
        conn.execute("""INSERT INTO sadie_gtm.hotel_entity_reviews (source_id_a, source_id_b, score, decision,
                                                                    decided_by, decided_at)
                        VALUES (%s, %s, 0.5, %s, 'carol', now())""", (page, serper, ReviewDecision.SEPARATE))
    _run(booking_engine_detection, instance, resources)
    meta = _run(client_id_matches, instance, resources)
    assert meta["detected_since_last_run"] == 1 and meta["hotels_merged"] == 0
    meta = _run(hotel_entities, instance, resources)
    assert meta["merges_by_stage"] == {} and meta["hotels_merged"] == 0
    with database.connect() as conn:
        assert _hotel_of(conn, page) != _hotel_of(conn, serper)
        assert conn.execute("SELECT count(*) FROM sadie_gtm.hotel_merges").fetchone()[0] == 0


def test_hotel_entities_merges_an_engine_client_page_into_the_detected_hotel(database, local_object_store, instance):
    resources = {"database": database, "object_store": local_object_store}
    with database.connect() as conn:
        add_market(conn, "US-FL", ["Key West"])
        serper = _source(conn, "serper", "ChIJcasasol", SOL)
    _run(hotel_entities, instance, resources)
    with database.connect() as conn:
        hotel = _hotel_of(conn, serper)
    _fetched(local_object_store, hotel)
    _run(booking_engine_detection, instance, resources)
    with database.connect() as conn:
        page = _source(conn, "engine_client", "cloudbeds:abc123", dict(SOL_PAGE, client_id="ABC123"))
    meta = _run(hotel_entities, instance, resources)
    assert meta["hotels_created"] == 0 and meta["merges_by_stage"] == {"client_id": 1}
    assert meta["new_merges_by_stage"] == {"client_id": 1}
    with database.connect() as conn:
        assert _hotel_of(conn, page) == hotel
        [merge] = conn.execute("SELECT hotel_id, stage, client_id FROM sadie_gtm.hotel_merges").fetchall()
    assert merge == (hotel, "client_id", "abc123")
    assert _run(hotel_entities, instance, resources)["new_merges_by_stage"] == {}    # recorded once
