"""hotel_websites + booking_engine_detection on corpus sites (a local proxy, no browser): the engine
found on a followed booking page is kept with the page it was on; an uncatalogued booking host
sends the hotel to review (status 98) and is listed for the catalogue; OTA links stay a dead end."""

from __future__ import annotations

from click.testing import CliRunner
from dagster import materialize

from sadie_pipeline.cli import main
from sadie_pipeline.core.hotel_status import HotelStatus
from sadie_pipeline.hotels.assets import booking_engine_detection, hotel_websites
from sadie_pipeline.hotels.markets import add_market
from sadie_pipeline.hotels.websites import unknown_engine_hosts
from sadie_pipeline.resources.web import WebsiteFetcher
from sadie_pipeline.sandbox.corpus_server import CorpusServer
from sadie_pipeline.sandbox.detection_corpus import engine_sites, followed_sites, negative_sites, unknown_sites


def test_followed_and_unknown_engines_are_recorded(sadie_env, database, local_object_store, instance):
    followed = followed_sites(every=40)[0]
    unknown = unknown_sites()[:2]
    plain = next(s for s in engine_sites() if s.engine == "Cloudbeds")
    ota = next(s for s in negative_sites() if s.signal == "ota_links_only")
    sites = [followed, *unknown, plain, ota]
    with database.connect() as conn:
        add_market(conn, "US-FL", ["Key West"])
        ids = {s.key: conn.execute(
            """INSERT INTO sadie_gtm.hotels (region, city, state, name, website, status)
               VALUES ('US-FL', 'Key West', 'FL', %s, %s, %s) RETURNING id""",
            (s.key, s.url, HotelStatus.SCRAPED)).fetchone()[0] for s in sites}
    with CorpusServer(sites) as server:
        resources = {"database": database, "object_store": local_object_store,
                     "website_fetcher": WebsiteFetcher(proxy=server.proxy_url, total_timeout_s=3, browser_enabled=False)}
        result = materialize([hotel_websites, booking_engine_detection], partition_key="US-FL", instance=instance,
                             resources=resources)
    assert result.success
    with database.connect() as conn:
        rows = {r[0]: r[1:] for r in conn.execute(
            """SELECT h.name, h.status, be.name, hbe.booking_url, hbe.unknown_host, hbe.found_on_url
                 FROM sadie_gtm.hotels h
                 LEFT JOIN sadie_gtm.hotel_booking_engines hbe ON hbe.hotel_id = h.id
                 LEFT JOIN sadie_gtm.booking_engines be ON be.id = hbe.booking_engine_id""")}
        listed = unknown_engine_hosts(conn, ["US-FL"])
        stages = dict(conn.execute("SELECT name, pipeline_stage FROM sadie_gtm.hotel_pipeline_status").fetchall())
    status, engine, url, host, found_on = rows[followed.key]
    assert (status, engine, host, found_on) == (HotelStatus.DETECTED, followed.engine, None, followed.url + "booking/")
    assert url and url.startswith("https://")
    assert rows[plain.key][:2] == (HotelStatus.DETECTED, "Cloudbeds") and rows[plain.key][4] is None
    for site in unknown:
        assert rows[site.key][0] == HotelStatus.ENGINE_REVIEW and rows[site.key][3] == site.unknown_host
        assert stages[site.key] == "engine_review"
    assert rows[ota.key][0] == HotelStatus.NO_BOOKING_ENGINE and rows[ota.key][1] is None
    assert sorted(u["host"] for u in listed) == sorted(s.unknown_host for s in unknown)
    assert all(u["hotels"] == 1 and u["example"].startswith("https://") for u in listed)
    meta = result.asset_materializations_for_node("booking_engine_detection")[0].metadata
    assert meta["engine_review"].value == 2 and meta["found_on_followed_page"].value == 1
    assert unknown[0].unknown_host in meta["unknown_engine_hosts"].value
    assert set(ids) == set(rows)
    shown = CliRunner().invoke(main, ["hotel", "engines", "--region", "us-fl"])
    assert shown.exit_code == 0 and "2 unknown booking hosts" in shown.output
    assert all(s.unknown_host in shown.output for s in unknown)
