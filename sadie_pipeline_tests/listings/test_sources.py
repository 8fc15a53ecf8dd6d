"""Pulled sources end to end on the sandbox (real HTTP, real PostgreSQL): WordPress, Drupal, a partner
API, GeoJSON, JSON/JSON-lines files, a scraped site; incremental pulls; bad input per page or record."""

from __future__ import annotations

import json

import pytest

from sadie_pipeline.listings.repository import upsert_dmo
from sadie_pipeline.listings.sources.http import SourceError
from sadie_pipeline.listings.sources.pull import pull_source
from sadie_pipeline_tests.conftest import add_partition
from sadie_pipeline_tests.listings.helpers import drop_in_inbox, metadata, run_assets
from sadie_pipeline_tests.listings.sources_helpers import (
    drupal_config,
    import_errors,
    live,
    newest_job,
    partner_config,
    poi_config,
    pull_row,
    run_pull,
    scrape_config,
    wordpress_config,
)

pytestmark = pytest.mark.slow  # whole pulls through Dagster, PostgreSQL and the sandbox


def _register(database, instance, slug, config):
    with database.connect() as conn:
        upsert_dmo(conn, slug, slug.title(), config)
    add_partition(instance, slug)


def _touch(sb, service, site, count):
    import httpx

    return httpx.post(f"{sb.base_url(service)}/{site}/_sandbox/touch", json={"count": count}).json()["changed"]


def test_wordpress_pull_is_staged_and_promoted_like_a_file(database, local_object_store, instance, sb):
    _register(database, instance, "wp-pei", wordpress_config(sb))
    result = run_pull(database, local_object_store, instance, "wp-pei")

    job = newest_job(database, "wp-pei")
    assert (job["records_read"], job["inserted"], job["errors"], job["stage"]) == (24, 24, 0, "promoted")
    assert live(database, "wp-pei") == 24
    raw = metadata(result, "listing_raw_files")
    assert raw["records_read"] == 24 and raw["pull"]["pages_fetched"] == 1 and raw["import_problems"] == 0
    with database.connect() as conn:
        row = conn.execute("""SELECT l.name, li.external_source_id, li.description, ci.local_phone, i.image
                                FROM public.listing_info li JOIN public.listings l ON l.id = li.listing_id
                                JOIN public.contact_info ci ON ci.id = li.contact_info_id
                                LEFT JOIN public.listing_images i ON i.listing_info_id = li.id
                               WHERE li.external_source_id = '14'""").fetchone()
    assert row[0] == "Boardwalk Tours" and row[1] == "14"            # the post id is the source id
    assert "Prince Edward Island" in row[2] and "<p>" not in row[2]    # rendered content as text
    assert row[3] == "(902) 853-3624" and row[4].endswith("/wp-content/uploads/2026/01/boardwalk-tours-14.jpg")
    [request] = [r for r in sb.requests("wordpress") if r["path"].endswith("/listing")]
    assert "_embed=1" in request["query"] and request["headers"]["User-Agent"].startswith("sadie-pipeline/")


def test_incremental_pull_fetches_only_what_changed_and_deletes_nothing(database, local_object_store, instance, sb):
    _register(database, instance, "wp-inc", wordpress_config(sb, "big-300"))
    run_pull(database, local_object_store, instance, "wp-inc")
    first = newest_job(database, "wp-inc")
    assert pull_row(database, first["job_id"])["pages_total"] == 3 and live(database, "wp-inc") == 300
    changed = _touch(sb, "wordpress", "big-300", 4)

    sb.reset_stats()
    run_pull(database, local_object_store, instance, "wp-inc")
    job = newest_job(database, "wp-inc")
    pull = pull_row(database, job["job_id"])
    assert pull["incremental"] and pull["since"] == pull_row(database, first["job_id"])["high_water_mark"]
    assert (pull["pages_fetched"], pull["pages_total"], pull["records"]) == (1, 1, 4)
    assert sb.stats("wordpress")["requests"] == 1
    assert (job["updated"], job["deleted"]) == (4, 0) and live(database, "wp-inc") == 300
    with database.connect() as conn:
        updated = conn.execute("SELECT count(*) FROM public.listing_info WHERE description LIKE '%Updated%'").fetchone()[0]
    assert updated == len(changed) == 4

    sb.reset_stats()  # nothing changed since: one request, no record, a job that stages nothing
    run_pull(database, local_object_store, instance, "wp-inc")
    assert pull_row(database, newest_job(database, "wp-inc")["job_id"])["records"] == 0
    assert sb.stats("wordpress")["requests"] == 1 and live(database, "wp-inc") == 300


def test_wordpress_application_password_from_the_environment(database, local_object_store, monkeypatch, sb):
    config = wordpress_config(sb, "private", auth={"type": "basic", "username_env": "WP_USER",
                                                   "password_env": "WP_APP_PASSWORD"})
    with database.connect() as conn:
        upsert_dmo(conn, "wp-private", "Private", config)
    with pytest.raises(SourceError, match="WP_USER .* is not set"):
        pull_source(database, local_object_store, "wp-private")
    monkeypatch.setenv("WP_USER", "editor")
    monkeypatch.setenv("WP_APP_PASSWORD", "abcd efgh ijkl mnop")
    assert pull_source(database, local_object_store, "wp-private").records_read == 24
    assert all(r["headers"].get("Authorization") == "<redacted>" for r in sb.requests("wordpress"))


def test_drupal_relationships_and_incremental_changed_filter(database, local_object_store, instance, sb):
    _register(database, instance, "drupal-pei", drupal_config(sb, "big-120", paging={"page_size": 25}))
    run_pull(database, local_object_store, instance, "drupal-pei")
    first = newest_job(database, "drupal-pei")
    assert (first["records_read"], first["inserted"], first["errors"]) == (120, 120, 0)
    with database.connect() as conn:
        city, category, image = conn.execute(
            """SELECT lo.city, l.category, i.image FROM public.listing_info li JOIN public.listings l ON l.id = li.listing_id
                 JOIN public.locations lo ON lo.id = l.location_id
                 LEFT JOIN public.listing_images i ON i.listing_info_id = li.id LIMIT 1""").fetchone()
    assert city and category and image.startswith(sb.url) and "/drupal/big-120/sites/default/files/" in image

    _touch(sb, "drupal", "big-120", 3)
    run_pull(database, local_object_store, instance, "drupal-pei")
    pull = pull_row(database, newest_job(database, "drupal-pei")["job_id"])
    assert (pull["incremental"], pull["records"], pull["pages_fetched"]) == (True, 3, 1)
    last = [r for r in sb.requests("drupal")][-1]
    assert "filter[changed][condition][operator]=>" in last["query"] and "include=field_image" in last["query"]


def test_partner_api_key_ids_and_rate_limit(database, local_object_store, instance, monkeypatch, sb):
    monkeypatch.setenv("PARTNER_API_KEY", "partner-secret-1")
    sb.configure("partner", rate_limit=(3, 1.0))  # 429 with Retry-After past 3 requests a second
    _register(database, instance, "partner", partner_config(sb))
    run_pull(database, local_object_store, instance, "partner")

    job = newest_job(database, "partner")
    assert (job["records_read"], job["inserted"], job["errors"]) == (24, 24, 0)
    assert sb.stats("partner")["rate_limited"] > 0  # the guard waited and retried them
    with database.connect() as conn:
        ids = [r[0] for r in conn.execute("SELECT external_source_id FROM public.listing_info ORDER BY 1 LIMIT 2")]
    assert ids == ["PL-000001", "PL-000002"]
    assert all(r["headers"].get("X-API-Key") == "<redacted>" for r in sb.requests("partner"))


def test_an_api_answering_500_then_200_is_retried_through_the_guard(database, local_object_store, monkeypatch, sb):
    monkeypatch.setenv("PARTNER_API_KEY", "k")
    with database.connect() as conn:
        upsert_dmo(conn, "partner", "Partner", partner_config(sb))
    sb.configure("partner", fail_next=1)
    result = pull_source(database, local_object_store, "partner")
    assert result.records_read == 24 and result.problems == []
    assert sb.stats("partner")["statuses"]["500"] == 1 and sb.stats("partner")["statuses"]["200"] == 5


def test_bad_pages_are_job_errors_and_the_pull_goes_on(database, local_object_store, instance, monkeypatch, sb):
    """Page 2 hangs past the timeout, page 3 is HTML, page 4 renamed its list: one job_errors row each."""
    monkeypatch.setenv("PARTNER_API_KEY", "k")
    sb.configure("partner", hang_s=3)
    _register(database, instance, "partner-bad", partner_config(sb, "defects"))
    run_pull(database, local_object_store, instance, "partner-bad")

    job = newest_job(database, "partner-bad")
    errors = import_errors(database, job["job_id"])
    assert [e[0] for e in errors] == ["page_failed", "not_json", "schema_changed"]
    assert "page=2" in errors[0][1] and "no answer within 2 s" in errors[0][2]
    assert "answered text/html, not JSON: <!DOCTYPE html>" in errors[1][2]
    assert "no list of records at 'data.properties'; 'data' has keys: items" in errors[2][2]
    # pages 1 and 5 were kept; one of page 1's records lost its name and address (a changed schema)
    assert job["records_read"] == 9 and job["errors"] == 3 + 1
    with database.connect() as conn:
        stage_errors = conn.execute("SELECT error_type, count(*) FROM pipeline.job_errors WHERE job_id = %s "
                                    "AND stage = 'stage' GROUP BY 1", (job["job_id"],)).fetchall()
        full_import = conn.execute("SELECT config_params->'import'->'full_import' FROM pipeline.job_configs "
                                   "WHERE job_id = %s", (job["job_id"],)).fetchone()[0]
    assert stage_errors == [("missing_field", 1)]
    assert full_import is False  # the pages lost are not deletions
    pull = pull_row(database, job["job_id"])
    assert (pull["pages_failed"], pull["high_water_mark"]) == (3 - 1, None)  # the schema page came back


def test_unreachable_source_fails_the_job_with_one_line_and_leaves_live_listings(database, local_object_store,
                                                                                  instance, sb):
    _register(database, instance, "wp-gone", wordpress_config(sb))
    run_pull(database, local_object_store, instance, "wp-gone")
    assert live(database, "wp-gone") == 24
    gone = wordpress_config(sb)
    gone["import"]["url"] = "http://127.0.0.1:9/wp-json/wp/v2/listing"  # nothing listens on the discard port
    _register(database, instance, "wp-gone", gone)

    result = run_pull(database, local_object_store, instance, "wp-gone", raise_on_error=False)
    assert not result.success
    job = newest_job(database, "wp-gone")
    assert job["status"] == "failed" and job["stage"] == "import"
    assert "\n" not in job["error_summary"] and job["error_summary"].startswith("cannot pull http://127.0.0.1:9/")
    assert live(database, "wp-gone") == 24


def test_geojson_pois_with_coordinates_from_the_geometry(database, local_object_store, instance, sb):
    _register(database, instance, "osm", poi_config(sb, "defects"))
    run_pull(database, local_object_store, instance, "osm")
    job = newest_job(database, "osm")
    assert (job["records_read"], job["inserted"]) == (23, 23)
    [(kind, record_id, message)] = import_errors(database, job["job_id"])
    assert kind == "missing_geometry" and record_id == "node/9000007" and "has no geometry" in message
    with database.connect() as conn:
        lat, lng = conn.execute("""SELECT lo.lat, lo.lng FROM public.listing_info li
                                     JOIN public.listings l ON l.id = li.listing_id
                                     JOIN public.locations lo ON lo.id = l.location_id
                                    WHERE li.external_source_id = 'way/9000003'""").fetchone()
    assert 45.9 < float(lat) < 47 and -64.5 < float(lng) < -62  # a building's centre


def test_json_and_jsonl_files_in_the_inbox(database, local_object_store, instance, tmp_path):
    fields = {"listings.name": "name", "locations.address1": "address.street", "locations.city": "address.city"}
    doc = {"data": {"items": [{"id": "a1", "name": "Harbour Inn", "address": {"street": "1 Water St", "city": "Souris"}},
                              {"id": "a2", "name": "Red Sands Café", "address": {"street": "2 Queen St", "city": "Montague"}},
                              "not an object"]}}
    (tmp_path / "listings.json").write_text(json.dumps(doc))
    _register(database, instance, "json-dmo", {"import": {"source_type": "json", "records_path": "data.items"},
                                               "transform": {"map_fields": fields}})
    run_assets(database, local_object_store, instance, "json-dmo",
               drop_in_inbox(local_object_store, "json-dmo", tmp_path / "listings.json"))
    job = newest_job(database, "json-dmo")
    assert (job["records_read"], job["inserted"], job["errors"]) == (2, 2, 1)
    assert import_errors(database, job["job_id"])[0][0] == "bad_record"

    lines = [json.dumps({"name": "Dune Museum", "address": {"street": "3 Shore Rd", "city": "Cavendish"}}), "{oops"]
    (tmp_path / "listings.jsonl").write_text("\n".join(lines) + "\n")
    _register(database, instance, "jsonl-dmo", {"import": {"source_type": "jsonl"}, "transform": {"map_fields": fields}})
    run_assets(database, local_object_store, instance, "jsonl-dmo",
               drop_in_inbox(local_object_store, "jsonl-dmo", tmp_path / "listings.jsonl"))
    job = newest_job(database, "jsonl-dmo")
    assert (job["records_read"], job["inserted"]) == (1, 1)
    assert "line 2" in import_errors(database, job["job_id"])[0][2]


def test_scraped_site_obeys_robots_txt_and_names_itself(database, local_object_store, instance, sb, monkeypatch):
    monkeypatch.setenv("SADIE_HTTP_PROXY", sb.proxy_url)
    _register(database, instance, "scraped", scrape_config())
    run_pull(database, local_object_store, instance, "scraped")
    job = newest_job(database, "scraped")
    assert (job["records_read"], job["inserted"], job["errors"]) == (23, 23, 1)
    [(kind, url, _)] = import_errors(database, job["job_id"])
    assert kind == "robots_disallowed" and url.endswith("/private/dune-museum-4/")
    requests = sb.requests("scrape")
    assert [r["path"] for r in requests].count("/robots.txt") == 1 and requests[0]["path"] == "/robots.txt"
    assert not any(r["path"].startswith("/private/") for r in requests)
    assert all(r["headers"]["User-Agent"].startswith("sadie-pipeline/") for r in requests)
    with database.connect() as conn:
        images = conn.execute("SELECT count(*) FROM public.listing_images").fetchone()[0]
    assert images == 23 * 2


def test_a_javascript_site_read_without_a_browser_gives_nothing_and_fails(database, local_object_store, monkeypatch,
                                                                          sb):
    monkeypatch.setenv("SADIE_HTTP_PROXY", sb.proxy_url)
    with database.connect() as conn:
        upsert_dmo(conn, "js-site", "Js", scrape_config("www.explore-js.test"))
    with pytest.raises(SourceError, match="the source gave no records"):
        pull_source(database, local_object_store, "js-site")


@pytest.mark.browser
def test_a_javascript_site_is_rendered_in_chromium(database, local_object_store, monkeypatch, sb):
    monkeypatch.setenv("SADIE_HTTP_PROXY", sb.proxy_url)
    with database.connect() as conn:
        config = scrape_config("www.explore-js.test", javascript=True)
        config["import"]["http"]["timeout_s"] = 30  # a page rendered on a slow machine
        upsert_dmo(conn, "js-site", "Js", config)
    result = pull_source(database, local_object_store, "js-site")
    assert result.records_read == 23 and [p.kind.value for p in result.problems] == ["robots_disallowed"]
