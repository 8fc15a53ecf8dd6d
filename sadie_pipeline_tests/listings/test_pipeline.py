"""The full cycle on the bundled sample DMOs: import, stage, promote, changed re-import, review."""

from __future__ import annotations

import pytest

from sadie_pipeline.listings.review import approve_all, list_pending
from sadie_pipeline_tests.listings.helpers import import_file, metadata, promote, register, sample

pytestmark = pytest.mark.slow  # whole imports through Dagster against PostgreSQL


def _live(database, slug):
    with database.connect() as conn:
        return conn.execute(
            """SELECT count(*) FROM public.listing_info li JOIN public.dmos d ON d.id = li.dmo_id
                WHERE d.slug = %s AND li.info_visible""", (slug,)).fetchone()[0]


def test_first_import_counts_match_the_sample(database, local_object_store, instance):
    register(database, instance, "visit-pei")
    result, summary = import_file(database, local_object_store, instance, "visit-pei", sample("visit-pei.csv"))

    assert result.success
    assert summary["records_read"] == 40
    assert summary["errors"] == 2
    assert summary["inserted"] == 35          # distinct valid places
    assert summary["duplicate"] == 3          # 2 exact copies + 1 near duplicate
    assert summary["needing_review"] == 3
    assert _live(database, "visit-pei") == 35
    stage_meta = metadata(result, "listing_stage")
    assert stage_meta["action_insert"] == 35 and stage_meta["errors"] == 2
    # every sample category maps to the vocabulary: lodging is what hotel discovery reads
    assert stage_meta["categories_unmapped"] == 0
    assert set(stage_meta["categories"]) == {"lodging", "attraction", "restaurant", "shop"}
    with database.connect() as conn:
        assert conn.execute("SELECT count(*) FROM public.listings WHERE category = 'lodging.hotel'").fetchone()[0] > 0
    promo_meta = metadata(result, "listing_promotion")
    assert promo_meta["promoted_insert"] == 35 and promo_meta["live_listings"] == 35


def test_bad_records_land_in_job_errors_with_record_and_reason(database, local_object_store, instance):
    register(database, instance, "visit-pei")
    _, summary = import_file(database, local_object_store, instance, "visit-pei", sample("visit-pei.csv"))
    with database.connect() as conn:
        rows = conn.execute(
            "SELECT rec_num, error_type, error_message, original_record FROM pipeline.job_errors WHERE job_id = %s ORDER BY rec_num",
            (summary["job_id"],)).fetchall()
    assert [(r[0], r[1]) for r in rows] == [(14, "missing_field"), (27, "invalid_type")]
    assert "listings.name" in rows[0][2]
    assert rows[1][3]["Business Name"] == "Point Prim Lighthouse" and rows[1][3]["Latitude"] == "abc"


def test_cross_dmo_overlap_links_to_existing_listings(database, local_object_store, instance):
    register(database, instance, "visit-pei")
    register(database, instance, "charlottetown-eats")
    import_file(database, local_object_store, instance, "visit-pei", sample("visit-pei.csv"))
    _, summary = import_file(database, local_object_store, instance, "charlottetown-eats", sample("charlottetown-eats.csv"))

    assert summary["inserted"] == 20 and summary["errors"] == 0
    with database.connect() as conn:
        shared = conn.execute(
            """SELECT count(*) FROM public.listings l
                WHERE (SELECT count(*) FROM public.listing_info li WHERE li.listing_id = l.id) = 2""").fetchone()[0]
        total = conn.execute("SELECT count(*) FROM public.listings").fetchone()[0]
        gahan = conn.execute(
            """SELECT l.name FROM public.listings l JOIN public.listing_info li ON li.listing_id = l.id
                WHERE li.external_source_id = 'CE-001'""").fetchone()[0]
    assert shared == 10
    assert total == 45
    # The second DMO links to the listing; it does not rename it.
    assert gahan == "The Gahan House Pub & Brewery"


def test_unchanged_reimport_changes_nothing(database, local_object_store, instance):
    register(database, instance, "visit-pei")
    import_file(database, local_object_store, instance, "visit-pei", sample("visit-pei.csv"))
    with database.connect() as conn:
        before = conn.execute("SELECT count(*), max(updated_at) FROM public.listings").fetchone()
    result, summary = import_file(database, local_object_store, instance, "visit-pei", sample("visit-pei.csv"))
    assert summary["unchanged"] == 35
    # Unchanged records (and two exact copies of them, duplicates again) are staged from their earlier
    # staging without being transformed; the fuzzy duplicate and the two bad rows are validated again.
    assert metadata(result, "listing_stage")["records_reused"] == 37
    assert summary["errors"] == 2
    assert summary["inserted"] == summary["updated"] == summary["deleted"] == 0
    with database.connect() as conn:
        after = conn.execute("SELECT count(*), max(updated_at) FROM public.listings").fetchone()
    assert after == before


def test_revision_updates_and_soft_deletes_after_approval(database, local_object_store, instance):
    register(database, instance, "visit-pei")
    import_file(database, local_object_store, instance, "visit-pei", sample("visit-pei.csv"))
    _, summary = import_file(database, local_object_store, instance, "visit-pei", sample("visit-pei.revision.csv"))

    assert (summary["inserted"], summary["updated"], summary["deleted"], summary["unchanged"]) == (2, 5, 3, 27)
    assert summary["deletes_promoted"] == 0           # deletions wait for a person
    assert _live(database, "visit-pei") == 37

    with database.connect() as conn:
        phone = conn.execute(
            """SELECT c.international_phone FROM public.contact_info c
                 JOIN public.listing_info li ON li.contact_info_id = c.id
                 JOIN public.listings l ON l.id = li.listing_id WHERE l.name = 'Rodd Charlottetown'""").fetchone()[0]
        moved = conn.execute(
            """SELECT loc.address1 FROM public.locations loc JOIN public.listings l ON l.location_id = loc.id
                WHERE l.name = 'Holman''s Ice Cream Parlour'""").fetchone()[0]
        hours = conn.execute(
            """SELECT count(*), min(h.open_time), max(h.close_time) FROM public.opening_hours h
                 JOIN public.opening_dates d ON d.id = h.opening_date_id
                 JOIN public.listing_info li ON li.id = d.listing_info_id
                 JOIN public.listings l ON l.id = li.listing_id WHERE l.name = 'Kensington Station Pub'""").fetchone()
        pending_deletes = [r for r in list_pending(conn, "visit-pei") if r["action"] == "delete"]
    assert phone == "+19028947300"
    assert moved == "9 Summer St"
    assert hours == (7, "11:00", "23:00")
    assert sorted(r["name"] for r in pending_deletes) == [
        "Alberton Museum", "Charlottetown Farmers' Market", "Receiver Coffee Co."]

    with database.connect() as conn:
        approve_all(conn, "visit-pei")
    assert promote(database, local_object_store, instance, "visit-pei").success
    with database.connect() as conn:
        gone = conn.execute(
            """SELECT l.name, li.info_status, l.listing_visible FROM public.listing_info li
                 JOIN public.listings l ON l.id = li.listing_id WHERE NOT li.info_visible ORDER BY 1""").fetchall()
    assert [g[0] for g in gone] == ["Alberton Museum", "Charlottetown Farmers' Market", "Receiver Coffee Co."]
    assert {g[1] for g in gone} == {"missing_from_import"}
    assert not any(g[2] for g in gone)            # their only listing_info: the listing is hidden too
    assert _live(database, "visit-pei") == 34


def test_promoting_twice_changes_nothing(database, local_object_store, instance):
    register(database, instance, "visit-pei")
    import_file(database, local_object_store, instance, "visit-pei", sample("visit-pei.csv"))

    def snapshot():
        with database.connect() as conn:
            return [conn.execute(f"SELECT count(*), max(updated_at) FROM public.{t}").fetchone()
                    for t in ("listings", "listing_info", "locations", "contact_info", "listing_images", "opening_hours")] + [
                conn.execute("SELECT count(*) FROM pipeline.bridge_source_target").fetchone()]

    before = snapshot()
    result = promote(database, local_object_store, instance, "visit-pei")
    assert metadata(result, "listing_promotion")["promoted_total"] == 0
    assert snapshot() == before
