"""One switch for the fast paths: SADIE_LISTINGS_FAST_PATHS=off turns off thin rows, twins,
redelivered raw files and trusted inserts, and the same imports end in the same public tables
either way (README.md, "Fast paths")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import psycopg
import pytest
from dagster import DagsterInstance

from sadie_pipeline.listings import trusted
from sadie_pipeline.listings.review import approve_all
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore
from sadie_pipeline.settings import listings_fast_paths
from sadie_pipeline_tests.listings.helpers import import_file, metadata, promote, register, sample
from sadie_pipeline_tests.listings.processes import end_state, jobs, scratch_database

pytestmark = pytest.mark.slow  # whole imports through Dagster against PostgreSQL

SLUGS = ("visit-pei", "charlottetown-eats")
# The third import is the first delivered again byte for byte (a redelivery when the switch is on).
IMPORTS = [("visit-pei", "visit-pei.csv"), ("charlottetown-eats", "charlottetown-eats.csv"),
           ("visit-pei", "visit-pei.csv"), ("visit-pei", "visit-pei.revision.csv")]
_WITHOUT_ROW_TRIGGERS = trusted.without_row_triggers


@pytest.mark.parametrize(("value", "on"), [(None, True), ("on", True), ("off", False), ("OFF", False),
                                           ("0", False), ("false", False), ("no", False), (" off ", False)])
def test_the_switch_reads_the_environment(monkeypatch, value, on):
    if value is None:
        monkeypatch.delenv("SADIE_LISTINGS_FAST_PATHS", raising=False)
    else:
        monkeypatch.setenv("SADIE_LISTINGS_FAST_PATHS", value)
    assert listings_fast_paths() is on


def _details(url: str) -> list[tuple]:
    """Per DMO record (by listing name, DMO and source id; no ids): its listing_info, location,
    contact_info, images, opening dates and hours."""
    with psycopg.connect(url) as conn:
        return conn.execute(
            """SELECT l.name, d.slug, li.external_source_id, li.description, li.info_visible, li.info_status,
                      li.l_hash, li.location_hash, li.li_hash, li.contact_info_hash, li.images_hash, li.hours_hash,
                      li.raw_hash, l.category, l.listing_match_hash, l.l_hash, l.location_hash, l.listing_status,
                      (SELECT row(loc.address1, loc.address2, loc.city, loc.state, loc.zip, loc.country, loc.lat,
                                  loc.lng)::text FROM public.locations loc WHERE loc.id = l.location_id),
                      (SELECT row(ci.name, ci.email, ci.local_phone, ci.international_phone, ci.website_url,
                                  ci.facebook_url, ci.instagram_url)::text
                         FROM public.contact_info ci WHERE ci.id = li.contact_info_id),
                      (SELECT array_agg(format('%s:%s', i.rank, i.image) ORDER BY i.rank, i.image)
                         FROM public.listing_images i WHERE i.listing_info_id = li.id),
                      (SELECT array_agg(format('%s..%s [%s]', od.start_date, od.end_date,
                                               (SELECT string_agg(format('%s %s-%s', oh.day_id, oh.open_time,
                                                                         oh.close_time), ', '
                                                                  ORDER BY oh.day_id, oh.open_time, oh.close_time)
                                                  FROM public.opening_hours oh WHERE oh.opening_date_id = od.id))
                                        ORDER BY od.start_date, od.end_date)
                         FROM public.opening_dates od WHERE od.listing_info_id = li.id)
                 FROM public.listing_info li JOIN public.listings l ON l.id = li.listing_id
                 JOIN public.dmos d ON d.id = li.dmo_id
                ORDER BY 1, 2, 3""").fetchall()


def _counts(url: str) -> dict[str, int]:
    """Rows per public table: a child left behind by one way and not the other shows here."""
    tables = ("listings", "locations", "listing_info", "contact_info", "listing_images", "opening_dates",
              "opening_hours")
    with psycopg.connect(url) as conn:
        return {t: conn.execute(f"SELECT count(*) FROM public.{t}").fetchone()[0] for t in tables}


def _import_all(database: Database, store: ObjectStore, instance: DagsterInstance) -> dict[str, Any]:
    """The imports, one after the other; what the fast paths did in them, and what a person saw
    after each (the listings and what waited for review)."""
    ran: dict[str, Any] = {"same_file_as_jobs": [], "records_reused": 0, "records_copied": 0, "seen": []}
    for slug, name in IMPORTS:
        result, summary = import_file(database, store, instance, slug, sample(name))
        assert result.success and summary["stage"] == "promoted", summary
        ran["same_file_as_jobs"] += metadata(result, "listing_raw_files")["same_file_as_jobs"]
        stage = metadata(result, "listing_stage")
        ran["records_reused"] += stage["records_reused"]
        ran["records_copied"] += stage["records_copied"]
        ran["seen"].append(end_state(database.url))
    return ran


def _scenario(url: str, root: Path, monkeypatch: pytest.MonkeyPatch, switch: str) -> dict[str, Any]:
    """The sequence on an empty database: both DMOs registered, the four imports, every pending row
    approved, both promoted. The state after each import and at the end, and what ran."""
    monkeypatch.setenv("SADIE_LISTINGS_FAST_PATHS", switch)
    trusted_statements: list[object] = []

    def counted(conn):
        trusted_statements.append(conn)
        return _WITHOUT_ROW_TRIGGERS(conn)

    monkeypatch.setattr(trusted, "without_row_triggers", counted)
    database, store = Database(url=url), ObjectStore(local_root=str(root / "objects"))
    with DagsterInstance.ephemeral() as instance:
        for slug in SLUGS:
            register(database, instance, slug)
        ran = _import_all(database, store, instance)
        for slug in SLUGS:
            with database.connect() as conn:
                approve_all(conn, slug)
            assert promote(database, store, instance, slug).success
    ran["trusted_statements"] = len(trusted_statements)
    return {"seen": ran.pop("seen"), "end": end_state(url), "details": _details(url), "counts": _counts(url),
            "jobs": [j[1:] for j in jobs(url)], "ran": ran}


def test_the_same_imports_end_the_same_with_the_fast_paths_on_or_off(tmp_path, monkeypatch):
    with scratch_database() as url:
        on = _scenario(url, tmp_path / "on", monkeypatch, "on")
    with scratch_database() as url:
        off = _scenario(url, tmp_path / "off", monkeypatch, "off")

    # The fast paths ran with the switch on, and none of them with it off.
    assert on["ran"]["same_file_as_jobs"] == [1] and off["ran"]["same_file_as_jobs"] == []
    assert on["ran"]["records_reused"] > 0 and off["ran"]["records_reused"] == 0
    assert on["ran"]["records_copied"] > 0 and off["ran"]["records_copied"] == 0
    assert on["ran"]["trusted_statements"] > 0 and off["ran"]["trusted_statements"] == 0
    # And they changed nothing.
    assert all(state["review"] for state in on["seen"]) and on["seen"] == off["seen"]
    assert on["end"]["review"] == [] and on["end"] == off["end"]
    assert len(on["details"]) == on["counts"]["listing_info"] and on["details"] == off["details"]
    assert on["counts"] == off["counts"]
    assert on["jobs"] == off["jobs"]
