"""Websites and booking-engine detection for the sandbox's demo region (Chromium for JS pages)."""

from __future__ import annotations

import json
import shutil
from urllib.parse import parse_qsl, urlsplit

import pytest
from dagster import materialize

from sadie_pipeline.core.hotel_status import HotelStatus
from sadie_pipeline.hotels.assets import booking_engine_detection, hotel_discovery, hotel_entities, hotel_websites
from sadie_pipeline.hotels.markets import add_market
from sadie_pipeline.resources.serper import SerperResource
from sadie_pipeline.resources.web import WebsiteFetcher
from sadie_pipeline.settings import PROJECT_ROOT
from sadie_pipeline_tests.fixtures.sandbox import KEY

pytestmark = [pytest.mark.slow, pytest.mark.browser]
NOT_ENGINES = {"Hilton", "Marriott", "Choice Hotels", "Booking.com"}  # brand systems and OTAs: not leads
DEMO = json.loads((PROJECT_ROOT / "sadie_pipeline/sandbox/fixtures/demo_region.json").read_text())


def _same_link(a: str, b: str) -> bool:
    """Equal but for empty query fields (a GET form's blank date inputs)."""
    pa, pb = urlsplit(a), urlsplit(b)
    return (pa.netloc, pa.path, sorted(parse_qsl(pa.query))) == (pb.netloc, pb.path, sorted(parse_qsl(pb.query)))


def test_sites_are_fetched_stored_and_their_engines_detected(database, local_object_store, instance, sb):
    if not shutil.which("chromium"):
        pytest.skip("no system Chromium")
    sb.configure("sites", hang_s=2.0)
    with database.connect() as conn:
        add_market(conn, "US-FL", ["Key West", "Orlando"])
    resources = {
        "database": database, "object_store": local_object_store,
        "serper": SerperResource(api_key=KEY, base_url=sb.base_url("serper"), requests_per_minute=6000),
        "website_fetcher": WebsiteFetcher(proxy=sb.proxy_url, total_timeout_s=3, read_timeout_s=2, connect_timeout_s=2),
    }
    result = materialize([hotel_discovery, hotel_entities, hotel_websites, booking_engine_detection],
                         partition_key="US-FL", instance=instance, resources=resources)
    assert result.success

    with database.connect() as conn:
        rows = conn.execute(
            """SELECT h.name, h.status, be.name, hbe.booking_url, h.website_content_s3_path
                 FROM sadie_gtm.hotels h
                 LEFT JOIN sadie_gtm.hotel_booking_engines hbe ON hbe.hotel_id = h.id
                 LEFT JOIN sadie_gtm.booking_engines be ON be.id = hbe.booking_engine_id""").fetchall()
        catalogue = conn.execute("SELECT count(*) FROM sadie_gtm.booking_engines").fetchone()[0]
    assert catalogue >= 30
    found = {name: (status, engine, url, path) for name, status, engine, url, path in rows}
    truth = {h["name"]: h for h in DEMO["hotels"] if h["city"] in ("Key West", "Orlando")}
    assert set(found) == set(truth)
    for name, hotel in truth.items():
        status, engine, url, path = found[name]
        engine_truth = hotel.get("engine") or {}
        expected = engine_truth.get("url") if engine_truth.get("name") not in NOT_ENGINES else None
        if hotel["site"] in ("ok", "js_only", "redirect_www", "huge", "moved") and expected:
            assert status == HotelStatus.DETECTED, (name, hotel["site"])
            assert engine and _same_link(url, expected), (name, engine, url)
            assert path and path.endswith(".txt")
        if hotel["site"].startswith("dead") or hotel["site"] in ("nxdomain", "none") or not expected:
            assert status == HotelStatus.NO_BOOKING_ENGINE, (name, hotel["site"])
    text = local_object_store.list_keys("website-content/fl/key-west/")
    assert any(k.endswith(".txt") for k in text)
    assert all(len(local_object_store.get_bytes(k)) <= 50_000 for k in text if k.endswith(".txt"))
