"""Promotion details the faster batch must keep: unchanged rows promote from their keys alone, the
bridge is corrected where it points elsewhere, duplicates wait for their primary, the per-row
foreign-key path writes the same children, the metadata queries give what the plain joins give, and
thin rows are promoted with their job, without being taken twice or superseded by a run meanwhile."""

from __future__ import annotations

import threading

import pytest

from sadie_pipeline.core.matching import MatchRecord, certainty
from sadie_pipeline.listings import previews, trusted
from sadie_pipeline.listings.assets import listing_raw_files, listing_stage
from sadie_pipeline.listings.promote import live_listing_count, promote_dmo
from sadie_pipeline.listings.repository import get_dmo
from sadie_pipeline.listings.review import approve, approve_all, list_pending
from sadie_pipeline.listings.stage import stage_dmo
from sadie_pipeline.metadata import markdown_table
from sadie_pipeline_tests.listings.helpers import (
    GRILL,
    INN,
    import_file,
    metadata,
    promote,
    register,
    sample,
    until,
    waiting_on_a_lock,
    write_csv,
)
from sadie_pipeline_tests.listings.helpers import SIMPLE_CONFIG as CONFIG

pytestmark = pytest.mark.slow  # whole imports through Dagster against PostgreSQL

UNSURE = {"Name": "Harbourfront Grill Downtown", "Address": "12 Water St", "City": "Charlottetown"}

CONTENT_COLUMNS = ("name", "category", "google_place_id", "address1", "address2", "city", "state", "zip", "country",
                   "lat", "lng", "l_hash", "location_hash")


def stage_only(database, store, instance, slug, path):
    return import_file(database, store, instance, slug, path, assets=[listing_raw_files, listing_stage])[1]["job_id"]


def public_rows(conn):
    """Everything promotion may write, except the last-seen marks."""
    return [conn.execute(f"SELECT * FROM public.{t} ORDER BY id").fetchall()
            for t in ("locations", "contact_info", "listing_images", "opening_dates", "opening_hours")] + [
        conn.execute("""SELECT id, name, category, location_id, l_hash, location_hash, updated_at, listing_visible
                          FROM public.listings ORDER BY id""").fetchall(),
        conn.execute("""SELECT id, listing_id, description, li_hash, images_hash, hours_hash, updated_at, info_visible
                          FROM public.listing_info ORDER BY id""").fetchall(),
        conn.execute("SELECT * FROM pipeline.bridge_source_target ORDER BY id").fetchall(),
    ]


def test_unchanged_rows_promote_from_their_keys_alone(database, local_object_store, instance):
    """A re-imported record staged as unchanged may be a thin row: keys and targets, no content and
    no staging.listing_info row. Promotion only marks its listing and listing_info as seen."""
    register(database, instance, "visit-pei")
    import_file(database, local_object_store, instance, "visit-pei", sample("visit-pei.csv"))
    job_id = stage_only(database, local_object_store, instance, "visit-pei", sample("visit-pei.csv"))
    with database.connect() as conn:
        conn.execute("""DELETE FROM staging.listing_info WHERE id IN (
                            SELECT id FROM staging.listings WHERE job_id = %s AND action = 'unchanged')""", (job_id,))
        thinned = conn.execute(
            f"""UPDATE staging.listings SET {', '.join(f'{c} = NULL' for c in CONTENT_COLUMNS)}
                 WHERE job_id = %s AND action = 'unchanged'""", (job_id,)).rowcount
        before = public_rows(conn)
    assert thinned == 35

    result = promote(database, local_object_store, instance, "visit-pei")
    assert result.success
    meta = metadata(result, "listing_promotion")
    assert (meta["promoted_unchanged"], meta["promoted_total"], meta["live_listings"]) == (35, 35, 35)
    with database.connect() as conn:
        assert public_rows(conn) == before
        seen = conn.execute("""SELECT (SELECT count(*) FROM public.listing_last_seen WHERE last_job_id = %(job)s),
                                      (SELECT count(*) FROM public.listing_info WHERE last_job_id = %(job)s)""",
                            {"job": job_id}).fetchone()
        promoted = conn.execute("""SELECT count(*) FROM staging.listings s JOIN pipeline.jobs j ON j.id = s.job_id
                                    WHERE s.job_id = %s AND s.action = 'unchanged'
                                      AND (s.promoted_at IS NOT NULL OR s.reused_from IS NOT NULL AND j.stage = 'promoted')""",
                                (job_id,)).fetchone()[0]
        results = conn.execute("SELECT records_unchanged, records_new FROM pipeline.job_results WHERE job_id = %s",
                               (job_id,)).fetchone()
    assert seen == (35, 35)
    assert promoted == 35
    assert results == (35, 0)


def test_a_bridge_key_held_with_another_target_is_corrected(tmp_path, database, local_object_store, instance):
    register(database, instance, "dmo-a", CONFIG)
    job_id = stage_only(database, local_object_store, instance, "dmo-a", write_csv(tmp_path / "a.csv", [GRILL]))
    with database.connect() as conn:
        source_id = conn.execute("SELECT source_id FROM staging.listings WHERE job_id = %s", (job_id,)).fetchone()[0]
        conn.execute("""INSERT INTO pipeline.bridge_source_target (dmo_id, source_id, target_type, target_id, certainty_score)
                        SELECT dmo_id, source_id, 'listing', 999999, 0.5 FROM staging.listings WHERE job_id = %s""",
                     (job_id,))

    assert promote(database, local_object_store, instance, "dmo-a").success
    with database.connect() as conn:
        bridge = conn.execute("""SELECT target_type, target_id, certainty_score, job_id FROM pipeline.bridge_source_target
                                  WHERE source_id = %s ORDER BY target_type""", (source_id,)).fetchall()
        listing_id, info_id = conn.execute("SELECT listing_id, id FROM public.listing_info").fetchone()
    assert [(t, target, float(c), j) for t, target, c, j in bridge] == [
        ("listing", listing_id, 1.0, job_id), ("listing_info", info_id, 1.0, job_id)]


def test_an_approved_duplicate_waits_for_its_primary(tmp_path, database, local_object_store, instance):
    """dmo-b sends a fuzzy match to dmo-a's listing (pending) and an exact copy of it (a duplicate,
    pending). The approved copy is promoted only with its primary, onto the primary's targets."""
    assert 0.5 <= certainty(MatchRecord(1, GRILL["Name"], GRILL["Address"], "Charlottetown", None, "+19025550100"),
                            MatchRecord(2, UNSURE["Name"], UNSURE["Address"], "Charlottetown")) < 0.8
    register(database, instance, "dmo-a", CONFIG)
    register(database, instance, "dmo-b", CONFIG)
    import_file(database, local_object_store, instance, "dmo-a", write_csv(tmp_path / "a.csv", [GRILL]))
    import_file(database, local_object_store, instance, "dmo-b", write_csv(tmp_path / "b.csv", [UNSURE, UNSURE]))
    with database.connect() as conn:
        pending = {r["action"]: r["id"] for r in list_pending(conn, "dmo-b")}
        assert set(pending) == {"insert", "duplicate"}  # a new listing_info of dmo-a's listing, and its copy
        primary = pending["insert"]
        approve(conn, [pending["duplicate"]])

    first = promote(database, local_object_store, instance, "dmo-b")
    assert metadata(first, "listing_promotion")["promoted_total"] == 0
    with database.connect() as conn:
        assert conn.execute("SELECT promoted_at FROM staging.listings WHERE id = %s",
                            (pending["duplicate"],)).fetchone()[0] is None
        approve(conn, [primary])

    second = promote(database, local_object_store, instance, "dmo-b")
    assert metadata(second, "listing_promotion")["promoted_total"] == 2
    with database.connect() as conn:
        rows = conn.execute("""SELECT promoted_at IS NOT NULL, target_listing_id, target_listing_info_id
                                 FROM staging.listings WHERE id IN (%s, %s) ORDER BY id""",
                            (primary, pending["duplicate"])).fetchall()
        grill = conn.execute("SELECT id FROM public.listings").fetchall()
        info = conn.execute("""SELECT li.id FROM public.listing_info li JOIN public.dmos d ON d.id = li.dmo_id
                                WHERE d.slug = 'dmo-b'""").fetchall()
    assert len(grill) == 1 and len(info) == 1
    assert rows == [(True, grill[0][0], info[0][0])] * 2


def test_children_are_the_same_when_keys_are_checked_per_row(database, local_object_store, instance):
    """A trigger of our own on a child table: the per-row foreign-key checks run, and images, dates
    and hours (which refer to dates inserted in the same statement) are written all the same."""
    register(database, instance, "visit-pei")
    with database.connect() as conn:
        conn.execute("CREATE FUNCTION public.noop() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$")
        conn.execute("CREATE TRIGGER noop BEFORE INSERT ON public.opening_hours FOR EACH ROW EXECUTE FUNCTION public.noop()")
        assert not trusted.allowed(conn, trusted.PROMOTED_TABLES)
    try:
        import_file(database, local_object_store, instance, "visit-pei", sample("visit-pei.csv"))
        import_file(database, local_object_store, instance, "visit-pei", sample("visit-pei.revision.csv"))
        with database.connect() as conn:
            approve_all(conn, "visit-pei")
        assert promote(database, local_object_store, instance, "visit-pei").success
        with database.connect() as conn:
            hours = conn.execute(
                """SELECT count(*), min(h.open_time), max(h.close_time) FROM public.opening_hours h
                     JOIN public.opening_dates d ON d.id = h.opening_date_id
                     JOIN public.listing_info li ON li.id = d.listing_info_id
                     JOIN public.listings l ON l.id = li.listing_id WHERE l.name = 'Kensington Station Pub'""").fetchone()
            children = conn.execute("""SELECT (SELECT count(*) FROM public.listing_images),
                                              (SELECT count(*) FROM public.opening_dates),
                                              (SELECT count(*) FROM public.opening_hours)""").fetchone()
    finally:
        with database.connect() as conn:
            conn.execute("DROP TRIGGER IF EXISTS noop ON public.opening_hours")
            conn.execute("DROP FUNCTION IF EXISTS public.noop()")
    assert hours == (7, "11:00", "23:00")
    assert all(children)


def test_live_count_and_preview_match_the_plain_joins(database, local_object_store, instance):
    register(database, instance, "visit-pei")
    import_file(database, local_object_store, instance, "visit-pei", sample("visit-pei.csv"))
    import_file(database, local_object_store, instance, "visit-pei", sample("visit-pei.revision.csv"))
    with database.connect() as conn:
        approve_all(conn, "visit-pei")
    promote(database, local_object_store, instance, "visit-pei")
    with database.connect() as conn:
        dmo = get_dmo(conn, "visit-pei")
        # A listing hidden while this DMO's listing_info of it stays visible does not count as live.
        conn.execute("""UPDATE public.listings SET listing_visible = false WHERE id = (
                            SELECT min(listing_id) FROM public.listing_info WHERE dmo_id = %s AND info_visible)""",
                     (dmo.id,))
        joined = conn.execute(
            """SELECT count(*) FROM public.listing_info li JOIN public.listings l ON l.id = li.listing_id
                WHERE li.dmo_id = %s AND li.info_visible AND l.listing_visible""", (dmo.id,)).fetchone()[0]
        latest = conn.execute(
            """SELECT l.id, l.name, loc.city, li.info_status, li.last_seen_at
                 FROM public.listing_info li JOIN public.listings l ON l.id = li.listing_id
                 LEFT JOIN public.locations loc ON loc.id = l.location_id
                WHERE li.dmo_id = %s ORDER BY li.updated_at DESC, l.id LIMIT %s""",
            (dmo.id, previews.PREVIEW_ROWS)).fetchall()
        assert live_listing_count(conn, dmo) == joined == 33
        assert previews.live_preview(conn, dmo) == markdown_table(
            ("listing", "name", "city", "status", "last seen"), latest)


def test_rows_of_a_job_still_being_staged_are_not_promoted(tmp_path, database, local_object_store, instance):
    """A job's rows may be ok to promote before its stage ends (thin rows are staged so); promotion
    takes the rows of staged jobs only, and those of older jobs a person decided on."""
    register(database, instance, "dmo-a", CONFIG)
    job_id = stage_only(database, local_object_store, instance, "dmo-a", write_csv(tmp_path / "a.csv", [GRILL]))
    with database.connect() as conn, database.connect() as stage:
        conn.execute("UPDATE pipeline.jobs SET stage = 'stage', status = 'in_progress' WHERE id = %s", (job_id,))
        conn.commit()
        stage.execute("SELECT pg_advisory_lock_shared(2, %s)", (job_id,))  # a live stage holds the job
        assert metadata(promote(database, local_object_store, instance, "dmo-a"), "listing_promotion")["promoted_total"] == 0
    with database.connect() as conn:
        assert conn.execute("SELECT count(*) FROM public.listings").fetchone()[0] == 0
        conn.execute("UPDATE pipeline.jobs SET stage = 'staged', status = 'succeeded' WHERE id = %s", (job_id,))
    assert metadata(promote(database, local_object_store, instance, "dmo-a"), "listing_promotion")["promoted_total"] == 1


def _meanwhile(database, dmo, other):
    """Runs `other` while a promotion of the DMO is held at its last-seen touch (a connection holds
    one listing_info row); once `other` waits too, or has ended, lets both finish. Returns the
    promotion's result and `other`'s."""
    outcomes: dict[str, object] = {}
    promotion = threading.Thread(target=lambda: outcomes.update(promotion=promote_dmo(database, dmo)))
    meanwhile = threading.Thread(target=lambda: outcomes.update(other=other()))
    with database.connect() as blocker:
        blocker.execute("SELECT id FROM public.listing_info ORDER BY id LIMIT 1 FOR UPDATE")
        promotion.start()
        until(lambda: waiting_on_a_lock(database, 1))
        meanwhile.start()
        until(lambda: waiting_on_a_lock(database, 2) or not meanwhile.is_alive())
    promotion.join(30)
    meanwhile.join(30)
    assert not promotion.is_alive() and not meanwhile.is_alive()
    return outcomes["promotion"], outcomes["other"]


def test_thin_rows_are_promoted_with_their_job(tmp_path, database, local_object_store, instance):
    register(database, instance, "dmo-a", CONFIG)
    path = write_csv(tmp_path / "a.csv", [GRILL, INN])
    import_file(database, local_object_store, instance, "dmo-a", path)
    result, again = import_file(database, local_object_store, instance, "dmo-a", path)

    assert metadata(result, "listing_promotion")["promoted_unchanged"] == 2
    with database.connect() as conn:
        thin = conn.execute("""SELECT count(*) FILTER (WHERE promoted_at IS NULL), count(*) FROM staging.listings
                                WHERE job_id = %s AND reused_from IS NOT NULL""", (again["job_id"],)).fetchone()
        stage = conn.execute("SELECT stage FROM pipeline.jobs WHERE id = %s", (again["job_id"],)).fetchone()[0]
        seen = conn.execute("SELECT count(*) FROM public.listing_info WHERE last_job_id = %s",
                            (again["job_id"],)).fetchone()[0]
        results = conn.execute("SELECT records_unchanged FROM pipeline.job_results WHERE job_id = %s",
                               (again["job_id"],)).fetchone()[0]
    assert thin == (0, 2) and stage == "promoted" and seen == 2 and results == 2
    # Promoting again takes none of them.
    assert metadata(promote(database, local_object_store, instance, "dmo-a"), "listing_promotion")["promoted_total"] == 0


def test_a_concurrent_promotion_waits_and_takes_no_thin_row_twice(tmp_path, database, local_object_store, instance):
    """A second promotion of the DMO started meanwhile waits for the first (the DMO's lock), then
    finds the job promoted."""
    dmo = register(database, instance, "dmo-a", CONFIG)
    path = write_csv(tmp_path / "a.csv", [GRILL, INN])
    import_file(database, local_object_store, instance, "dmo-a", path)
    stage_only(database, local_object_store, instance, "dmo-a", path)
    first, second = _meanwhile(database, dmo, lambda: promote_dmo(database, dmo))
    assert first.promoted == {"unchanged": 2}
    assert second.promoted == {} and second.jobs == []


def test_staging_a_newer_job_meanwhile_leaves_the_promoted_thin_rows_alone(tmp_path, database, local_object_store,
                                                                           instance):
    """Staging supersedes what older jobs still wait with; a job being promoted meanwhile is not
    waiting: staging waits for its promotion (the DMO's lock), and its thin rows stay promoted."""
    dmo = register(database, instance, "dmo-a", CONFIG)
    path = write_csv(tmp_path / "a.csv", [GRILL, INN])
    import_file(database, local_object_store, instance, "dmo-a", path)
    job_id = stage_only(database, local_object_store, instance, "dmo-a", path)
    import_file(database, local_object_store, instance, "dmo-a", write_csv(tmp_path / "b.csv", [GRILL]),
                assets=[listing_raw_files])
    promoted, _ = _meanwhile(database, dmo, lambda: stage_dmo(database, local_object_store, dmo))
    assert promoted.promoted == {"unchanged": 2}
    with database.connect() as conn:
        thin = conn.execute("""SELECT count(*) FILTER (WHERE review_status IS NULL AND ok_to_promote), count(*)
                                 FROM staging.listings WHERE job_id = %s""", (job_id,)).fetchone()
        stage = conn.execute("SELECT stage FROM pipeline.jobs WHERE id = %s", (job_id,)).fetchone()[0]
    assert stage == "promoted" and thin == (2, 2)
