"""listing_geocodes on PostgreSQL against the sandbox's Google and Nominatim services: only listings
without coordinates whose address is new or changed are asked for, once per normalised address;
failures keep the listing, with the reason, and are asked again by the next run."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from dagster import materialize

from sadie_pipeline.core.geocode import Address, query_text
from sadie_pipeline.listings.enrichment_assets import listing_geocodes
from sadie_pipeline.listings.geocoder import GeocoderResource
from sadie_pipeline.sandbox import Sandbox
from sadie_pipeline.sandbox.services.geocoding import locate
from sadie_pipeline_tests.fixtures.sandbox import KEY
from sadie_pipeline_tests.listings.helpers import import_file, metadata, register

pytestmark = pytest.mark.slow  # imports through Dagster against PostgreSQL

SLUG = "geo-dmo"
COLUMNS = ["Name", "Address", "City", "Province", "Postal", "Lat", "Lng", "Images"]
CONFIG = {
    "transform": {"map_fields": {
        "listings.name": "Name", "locations.address1": "Address", "locations.city": "City",
        "locations.state": "Province", "locations.zip": "Postal", "locations.lat": "Lat", "locations.lng": "Lng",
        "listing_images.image": "Images"}, "default_country": "CA"},
    "validate": {"required_fields": ["listings.name"]},
}
GRILL = {"Name": "Harbour Grill", "Address": "12 Water St", "City": "Charlottetown", "Province": "PE",
         "Postal": "C1A 4K3"}
PUB = {"Name": "Olde Dublin Pub", "Address": "12 Water Street", "City": "Charlottetown", "Province": "PE",
       "Postal": "C1A4K3"}  # the grill's address, spelt otherwise: one question
INN = {"Name": "Blue Heron Inn", "Address": "4 Main St", "City": "Souris", "Province": "PE"}
LIGHTHOUSE = {"Name": "Point Prim Lighthouse", "Address": "2147 Point Prim Rd", "City": "Belfast", "Province": "PE",
              "Lat": "46.05000", "Lng": "-62.87000"}
LOST = {"Name": "Lost Cafe", "Address": "1 Nowhere Rd", "City": "Montague", "Province": "PE"}
CRAFTS = {"Name": "Island Crafts Collective", "City": "Summerside", "Province": "PE"}  # no street line
RECORDS = [GRILL, PUB, INN, LIGHTHOUSE, LOST, CRAFTS]


def write(path: Path, rows: list[dict[str, str]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows({c: row.get(c, "") for c in COLUMNS} for row in rows)
    return path


def google(sb: Sandbox, **settings) -> GeocoderResource:
    return GeocoderResource(**{"provider": "google", "base_url": sb.base_url("google_geocoding"), "api_key": KEY,
                               "backoff_base_s": 0.01, **settings})


def geocode(database, instance, geocoder, **config):
    result = materialize([listing_geocodes], partition_key=SLUG, instance=instance,
                         resources={"database": database, "geocoder": geocoder},
                         run_config={"ops": {"listing_geocodes": {"config": config}}} if config else None)
    assert result.success
    return metadata(result, "listing_geocodes")


def located(database) -> dict[str, tuple]:
    """Each listing's coordinates and geocode outcome, by name."""
    with database.connect() as conn:
        rows = conn.execute("""
            SELECT l.name, loc.lat::float8, loc.lng::float8, g.status, g.reason, loc.address1, loc.address2, loc.city,
                   loc.state, loc.zip, loc.country
              FROM public.listings l JOIN public.locations loc ON loc.id = l.location_id
              LEFT JOIN pipeline.location_geocodes g ON g.location_id = loc.id""").fetchall()
    return {r[0]: r[1:] for r in rows}


def expected_point(row: tuple) -> tuple[float, float]:
    point = locate(query_text(Address(*row[4:])))
    return point.lat, point.lng


@pytest.fixture
def imported(database, local_object_store, instance, tmp_path):
    register(database, instance, SLUG, CONFIG)
    result, summary = import_file(database, local_object_store, instance, SLUG, write(tmp_path / "a.csv", RECORDS))
    assert result.success and summary["inserted"] == 6
    return tmp_path


def test_listings_without_coordinates_are_geocoded_once_per_address(database, instance, sb, imported):
    meta = geocode(database, instance, google(sb))

    rows = located(database)
    for name in ("Harbour Grill", "Blue Heron Inn"):
        assert rows[name][2] == "geocoded" and rows[name][:2] == pytest.approx(expected_point(rows[name]), abs=1e-7)
    assert rows["Olde Dublin Pub"][:3] == rows["Harbour Grill"][:3]  # one address: one answer for both
    assert rows["Point Prim Lighthouse"][:3] == (46.05, -62.87, None)  # the source's own: never asked
    assert rows["Lost Cafe"][:3] == (None, None, "zero_results") and "no such address" in rows["Lost Cafe"][3]
    assert rows["Island Crafts Collective"][2] == "no_address"
    assert sb.stats("google_geocoding")["requests"] == 3  # the grill and the pub share one question
    assert (meta["candidates"], meta["asked"], meta["located_geocoded"], meta["errors"]) == (5, 3, 3, 0)
    assert (meta["located_zero_results"], meta["located_no_address"]) == (1, 1)
    assert meta["preview"].records and "openstreetmap.org" in meta["map_links"]
    with database.connect() as conn:
        assert conn.execute("SELECT count(*) FROM pipeline.geocode_cache").fetchone()[0] == 3
        visible = conn.execute("SELECT count(*) FROM public.listing_info WHERE info_visible").fetchone()[0]
    assert visible == 6  # a listing that was not found stays

    sb.reset_stats()
    again = geocode(database, instance, google(sb))
    assert sb.stats("google_geocoding")["requests"] == 0
    assert (again["candidates"], again["not_asked_again"], again["asked"]) == (2, 2, 0)


def test_a_changed_address_is_asked_again_and_the_rest_is_not(database, local_object_store, instance, sb, imported):
    geocode(database, instance, google(sb))
    moved = {**INN, "Address": "6 Main St"}
    _, summary = import_file(database, local_object_store, instance, SLUG,
                             write(imported / "b.csv", [GRILL, PUB, moved, LIGHTHOUSE, LOST, CRAFTS]))
    assert summary["updated"] == 1
    sb.reset_stats()

    meta = geocode(database, instance, google(sb))

    assert sb.stats("google_geocoding")["requests"] == 1 and meta["asked"] == 1
    inn = located(database)["Blue Heron Inn"]
    assert inn[2] == "geocoded" and inn[:2] == pytest.approx(expected_point(inn), abs=1e-7)


def test_a_coordinate_cleared_by_a_promotion_comes_back_from_the_cache(database, instance, sb, imported):
    geocode(database, instance, google(sb))
    with database.connect() as conn:
        conn.execute("""UPDATE public.locations SET lat = NULL, lng = NULL
                         WHERE id = (SELECT location_id FROM public.listings WHERE name = 'Harbour Grill')""")
    sb.reset_stats()
    meta = geocode(database, instance, google(sb))
    assert sb.stats("google_geocoding")["requests"] == 0 and meta["from_cache"] == 1
    assert located(database)["Harbour Grill"][2] == "geocoded"


def test_failures_keep_the_listing_with_the_reason_and_are_asked_again(database, instance, sb, imported):
    sb.configure("google_geocoding", error_rate=1.0)
    meta = geocode(database, instance, google(sb, max_attempts=2))

    rows = located(database)  # three addresses, four listings: the grill and the pub share one
    assert meta["errors"] == 4 and rows["Blue Heron Inn"][:3] == (None, None, "failed")
    assert "transient" in rows["Blue Heron Inn"][3] or "breaker" in rows["Blue Heron Inn"][3]

    sb.reset("google_geocoding")
    retried = geocode(database, instance, google(sb))
    assert retried["asked"] == 3 and retried["located_geocoded"] == 3 and retried["located_zero_results"] == 1
    assert located(database)["Blue Heron Inn"][2] == "geocoded"


def test_a_5xx_then_200_and_google_over_query_limit_are_retried(database, instance, sb, imported):
    sb.configure("google_geocoding", fail_next=1, rate_limit=(2, 1.0))
    meta = geocode(database, instance, google(sb, max_concurrency=1, backoff_base_s=0.4, max_attempts=5))
    assert meta["located_geocoded"] == 3 and meta["errors"] == 0
    assert meta["guard"]["retries"] >= 2 and sb.stats("google_geocoding")["rate_limited"] >= 1


def test_a_wrong_key_fails_every_call_without_retrying(database, instance, sb, imported):
    sb.expect_api_key("google_geocoding", "the-right-one")
    meta = geocode(database, instance, google(sb))
    assert meta["errors"] == 4 and meta["errors_by_class"] == {"auth": 3}
    assert sb.stats("google_geocoding")["requests"] == 3
    assert "REQUEST_DENIED" in located(database)["Harbour Grill"][3]


def test_nominatim_is_the_keyless_alternative(database, instance, sb, imported):
    nominatim = GeocoderResource(provider="nominatim", base_url=sb.base_url("nominatim"), requests_per_second=50)
    meta = geocode(database, instance, nominatim)
    assert meta["provider"] == "nominatim" and meta["located_geocoded"] == 3
    grill = located(database)["Harbour Grill"]
    assert grill[:2] == pytest.approx(expected_point(grill), abs=1e-7)
    assert all("sadie-pipeline" in r["headers"]["User-Agent"] for r in sb.requests("nominatim"))


def test_without_a_provider_nothing_is_asked(database, instance, sb, imported):
    meta = geocode(database, instance, GeocoderResource(provider="off"))
    assert meta["asked"] == 0 and meta["left_for_next_run"] == 3 and "off" in meta["note"]


def test_a_run_stopped_halfway_ends_where_a_clean_run_ends(database, instance, sb, imported):
    partial = geocode(database, instance, google(sb), max_addresses=1, batch_size=1)
    assert partial["asked"] == 1 and partial["left_for_next_run"] == 2
    rest = geocode(database, instance, google(sb))
    assert rest["asked"] == 2
    statuses = {name: row[2] for name, row in located(database).items()}
    assert statuses == {"Harbour Grill": "geocoded", "Olde Dublin Pub": "geocoded", "Blue Heron Inn": "geocoded",
                        "Point Prim Lighthouse": None, "Lost Cafe": "zero_results",
                        "Island Crafts Collective": "no_address"}
