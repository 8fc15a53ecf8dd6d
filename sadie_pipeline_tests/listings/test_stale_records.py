"""Time-based soft delete and the archive (issue 33), on PostgreSQL with a pulled JSON source served over
real HTTP: a record the source has not shown for more than N days (import.stale_after_days) is proposed
for deletion in review, approving it soft-deletes it at the next promotion; within N days, or from a
file dropped in the inbox, nothing is proposed; an archived listing stays archived through imports."""

from __future__ import annotations

import datetime as dt
import functools
import json
import re
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest

from sadie_pipeline.core.config import ConfigError, merge_config
from sadie_pipeline.core.staleness import is_stale, stale_after_days
from sadie_pipeline.listings import curation
from sadie_pipeline.listings.importer import import_inbox_file
from sadie_pipeline.listings.promote import promote_dmo
from sadie_pipeline.listings.repository import get_dmo, upsert_dmo
from sadie_pipeline.listings.sources.pull import pull_source
from sadie_pipeline.listings.stage import stage_dmo
from sadie_pipeline.listings.states import ListingStatus
from sadie_pipeline.web.users import add_user
from sadie_pipeline_tests.listings.helpers import GRILL, INN, PUB, SIMPLE_CONFIG, drop_in_inbox, write_csv
from sadie_pipeline_tests.web.server import logged_in, page_token, serving

SLUG = "events-feed"
FIELDS = {"listings.name": "name", "locations.address1": "street", "locations.city": "city",
          "listing_info.description": "text"}
PLACES = {"A": {"id": "a", "name": "Harbour Grill", "street": "12 Water St", "city": "Charlottetown", "text": "Fish."},
          "B": {"id": "b", "name": "Blue Heron Inn", "street": "4 Main St", "city": "Souris", "text": "Rooms."},
          "C": {"id": "c", "name": "Olde Dublin Pub", "street": "131 Sydney St", "city": "Charlottetown", "text": "Pub."}}
NOW = dt.datetime(2026, 11, 29, 12, 0)


@pytest.fixture
def site(tmp_path):
    """A web server for the source's file (it changes between pulls)."""
    handler = functools.partial(SimpleHTTPRequestHandler, directory=str(tmp_path))
    handler.log_message = lambda *a: None
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield tmp_path, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _publish(site, *places: dict) -> None:
    (site[0] / "listings.json").write_text(json.dumps({"items": list(places)}))


def _pulled_dmo(database, site, **section) -> None:
    config = {"import": {"source_type": "json", "url": f"{site[1]}/listings.json", "records_path": "items",
                         "full_import": False, "stale_after_days": 30, **section},
              "transform": {"map_fields": FIELDS}}
    with database.connect() as conn:
        upsert_dmo(conn, SLUG, "Events Feed", config)


def _pull_and_stage(database, store, slug=SLUG) -> int:
    pull_source(database, store, slug)
    with database.connect() as conn:
        dmo = get_dmo(conn, slug)
    return stage_dmo(database, store, dmo).job_id


def _promote(database, slug=SLUG) -> None:
    with database.connect() as conn:
        dmo = get_dmo(conn, slug)
    promote_dmo(database, dmo)


def _last_seen(database, name: str, days_ago: int) -> None:
    """As if the source last showed the record `days_ago` days ago."""
    with database.connect() as conn:
        conn.execute("UPDATE public.listing_info li SET last_seen_at = localtimestamp - %s * interval '1 day' "
                     "FROM public.listings l WHERE l.id = li.listing_id AND l.name = %s", (days_ago, name))


def _proposals(database, job_id: int) -> list[tuple]:
    with database.connect() as conn:
        return conn.execute("SELECT s.id, s.name, s.action, s.review_status, s.review_reason FROM staging.listings s "
                            "WHERE s.job_id = %s AND s.row_kind = 'deletion' ORDER BY s.name", (job_id,)).fetchall()


def _record(database, name: str) -> tuple:
    with database.connect() as conn:
        return conn.execute("SELECT li.info_visible, li.info_status, l.listing_visible, l.listing_status "
                            "FROM public.listing_info li JOIN public.listings l ON l.id = li.listing_id "
                            "WHERE l.name = %s", (name,)).fetchone()


def test_the_rule_counts_days_and_applies_to_pulled_sources_only():
    pulled = {"import": {"source_type": "wordpress", "url": "https://x.test/wp-json/wp/v2/listing",
                         "stale_after_days": 30}}
    assert stale_after_days(pulled) == 30
    assert stale_after_days({"import": {"source_type": "csv", "url": None, "stale_after_days": 30}}) is None
    assert stale_after_days({"import": {"source_type": "wordpress", "url": "https://x.test/"}}) is None
    assert is_stale(NOW - dt.timedelta(days=31), NOW, 30)
    assert not is_stale(NOW - dt.timedelta(days=29), NOW, 30) and not is_stale(None, NOW, 30)
    with pytest.raises(ConfigError, match="stale_after_days: a csv source without import.url is not pulled"):
        merge_config({"import": {"stale_after_days": 30}})
    with pytest.raises(ConfigError, match="greater than 0"):
        merge_config({"import": {"source_type": "poi", "url": "https://x.test/a.geojson", "stale_after_days": 0}})


def test_a_record_unseen_for_more_than_n_days_is_proposed_for_deletion_and_approved_in_review(
        database, local_object_store, site):
    _pulled_dmo(database, site)
    _publish(site, PLACES["A"], PLACES["B"], PLACES["C"])
    _pull_and_stage(database, local_object_store)
    _promote(database)
    _publish(site, PLACES["A"])                     # B and C no longer shown (a partial source: no full import)
    _last_seen(database, "Blue Heron Inn", 31)      # past 30 days
    _last_seen(database, "Olde Dublin Pub", 10)     # within them: nothing
    job_id = _pull_and_stage(database, local_object_store)
    [(row_id, name, action, status, reason)] = _proposals(database, job_id)
    assert (name, action, status) == ("Blue Heron Inn", "delete", "pending")
    assert re.fullmatch(r"absent from the source for 31 days \(last seen \d{4}-\d\d-\d\d; stale after 30 days\)",
                        reason)
    _promote(database)                              # waits for a person
    assert _record(database, "Blue Heron Inn") == (True, "active", True, "active")

    with database.connect() as conn:
        add_user(conn, "rita", "correct horse battery staple", "reviewer")
    with serving(database, local_object_store) as web, logged_in(web, "rita", "correct horse battery staple") as rita:
        queue = rita.get("/review", params={"dmo": SLUG, "reason": "absent"}).text
        assert "absent from the source for 31 days" in queue
        token = page_token(rita)
        assert rita.post(f"/review/{row_id}/approve", data={"csrf_token": token}).status_code in (200, 303)
    _promote(database)
    assert _record(database, "Blue Heron Inn") == (False, "missing_from_import", False, "missing_from_import")
    assert _record(database, "Olde Dublin Pub")[0] is True and _record(database, "Harbour Grill")[0] is True


def test_a_rejected_proposal_is_not_made_again_until_the_record_is_seen(database, local_object_store, site):
    from sadie_pipeline.listings.review import reject

    _pulled_dmo(database, site)
    _publish(site, PLACES["A"], PLACES["B"])
    _pull_and_stage(database, local_object_store)
    _promote(database)
    _publish(site, PLACES["A"])
    _last_seen(database, "Blue Heron Inn", 40)
    [(row_id, *_)] = _proposals(database, _pull_and_stage(database, local_object_store))
    with database.connect() as conn:
        assert reject(conn, [row_id], "rita") == [row_id]
    _promote(database)
    assert _proposals(database, _pull_and_stage(database, local_object_store)) == []
    assert _record(database, "Blue Heron Inn")[0] is True


def test_files_dropped_in_the_inbox_are_never_stale(database, local_object_store, tmp_path):
    with database.connect() as conn:
        upsert_dmo(conn, "upload-dmo", "Upload", {**SIMPLE_CONFIG, "import": {"full_import": False}})
        dmo = get_dmo(conn, "upload-dmo")
    for rows in ([GRILL, INN, PUB], [GRILL]):
        key = drop_in_inbox(local_object_store, "upload-dmo", write_csv(tmp_path / f"f{len(rows)}.csv", rows))
        import_inbox_file(database, local_object_store, dmo, key)
        job_id = stage_dmo(database, local_object_store, dmo).job_id
        promote_dmo(database, dmo)
        _last_seen(database, INN["Name"], 400)
    assert _proposals(database, job_id) == []
    assert _record(database, INN["Name"])[0] is True


def test_an_archived_listing_stays_archived_through_imports_until_unarchived(database, local_object_store, site):
    _pulled_dmo(database, site, full_import=True)
    _publish(site, PLACES["A"], PLACES["B"])
    _pull_and_stage(database, local_object_store)
    _promote(database)
    with database.connect() as conn:
        listing_id = conn.execute("SELECT id FROM public.listings WHERE name = 'Harbour Grill'").fetchone()[0]
        assert curation.archive(conn, listing_id, curation.Editor("rita"), "closed for good")
        assert not curation.archive(conn, listing_id, curation.Editor("rita"))
    _publish(site, {**PLACES["A"], "name": "Harbour Grill & Bar", "text": "Fish and more."}, PLACES["B"])
    _pull_and_stage(database, local_object_store)
    _promote(database)                              # the listing's new name is taken; it stays archived
    assert _record(database, "Harbour Grill & Bar") == (True, "active", False, "archived")
    _publish(site, PLACES["B"])                     # a full import without it: its record soft-deleted
    [(row_id, *_)] = _proposals(database, _pull_and_stage(database, local_object_store))
    from sadie_pipeline.listings.review import approve

    with database.connect() as conn:
        approve(conn, [row_id], "rita")
    _promote(database)
    assert _record(database, "Harbour Grill & Bar") == (False, "missing_from_import", False, "archived")
    with database.connect() as conn:
        assert curation.unarchive(conn, listing_id, curation.Editor("rita"))
        status = conn.execute("SELECT listing_status, listing_visible FROM public.listings WHERE id = %s",
                              (listing_id,)).fetchone()
        changes = [r[0] for r in conn.execute("SELECT change FROM pipeline.listing_changes WHERE listing_id = %s "
                                              "ORDER BY id", (listing_id,))]
    assert status == ("active", True) and changes == ["archive", "unarchive"]


def test_listing_status_takes_the_values_of_the_state_model(database):
    with database.connect() as conn:
        definition = conn.execute("SELECT pg_get_constraintdef(oid) FROM pg_constraint "
                                  "WHERE conname = 'listings_listing_status_check'").fetchone()[0]
    assert set(re.findall(r"'([a-z_]+)'", definition)) == {s.value for s in ListingStatus}
