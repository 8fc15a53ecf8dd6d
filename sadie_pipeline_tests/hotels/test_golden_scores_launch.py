"""golden_hotels, lead_scores and launched_leads on hotels as the enrichment layers leave them:
field-level merge with provenance, people merged, scores with their components, the launch
criteria and its dry run, the audit trail and the pipeline status view."""

from __future__ import annotations

from click.testing import CliRunner
from dagster import materialize

from sadie_pipeline.cli import main
from sadie_pipeline.core.hotel_status import HotelStatus
from sadie_pipeline.hotels.lead_assets import golden_hotels, launched_leads, lead_scores
from sadie_pipeline.io_managers import POSTGRES_IO_MANAGER, PostgresPandasIOManager
from sadie_pipeline_tests.hotels.leads_data import TIER2_ENGINE, add_hotel

MARIA = {"full_name": "Maria Lopez", "title": "General Manager", "email": "maria@seabreeze.com",
         "email_status": "valid_domain", "sources": ["website_scrape"]}


def _golden(database, hotel_id):
    with database.connect() as conn:
        cur = conn.execute("SELECT * FROM sadie_gtm.golden_hotels WHERE hotel_id = %s", (hotel_id,))
        return dict(zip([d.name for d in cur.description], cur.fetchone()))


def _run(assets, database, instance, run_config=None):
    resources = {"database": database, POSTGRES_IO_MANAGER: PostgresPandasIOManager(database=database)}
    result = materialize(assets, partition_key="US-FL", instance=instance, resources=resources, run_config=run_config)
    assert result.success
    return result


def test_golden_record_takes_each_field_from_its_best_source(database, instance):
    with database.connect() as conn:
        hotel = add_hotel(conn, "Seabreeze Inn", sources={
            "serper": {"name": "Seabreeze Inn", "phone": "(305) 555-0100", "address": "1 Ocean Dr", "rating": 4.6,
                       "review_count": 410},
            "dmo": {"name": "The Seabreeze Inn", "phone": "+1 305 555 0199", "address": "1 Ocean Drive"},
        }, enrichment={"management_company": "Coastal Hospitality LLC", "registrant_org": "Seabreeze Holdings"},
            people=[MARIA])
    result = _run([golden_hotels], database, instance)
    golden = _golden(database, hotel)
    assert golden["name"] == "The Seabreeze Inn"           # DMO listing outranks Google Maps for names
    assert golden["phone"] == "(305) 555-0100"             # Google Maps outranks the DMO for phones
    assert float(golden["rating"]) == 4.6 and golden["review_count"] == 410
    assert golden["management_company"] == "Coastal Hospitality LLC"   # research over the RDAP registrant
    assert golden["email"] == "maria@seabreeze.com" and golden["contact_name"] == "Maria Lopez"
    assert golden["contact_title"] == "General Manager"
    assert golden["field_sources"]["name"]["source"] == "dmo_listing"
    [event] = result.asset_materializations_for_node("golden_hotels")
    assert event.metadata["inserted"].value == 1
    assert event.metadata["winning_source_by_field"].value["phone"] == {"google_maps": 1}

    with database.connect() as conn:
        rows = conn.execute("""SELECT field_value, source, superseded_at IS NULL, superseded_by
                                 FROM sadie_gtm.field_provenance WHERE hotel_id = %s AND field_name = 'phone'
                                ORDER BY id""", (hotel,)).fetchall()
        winner_id = conn.execute("""SELECT id FROM sadie_gtm.field_provenance WHERE hotel_id = %s
                                     AND field_name = 'phone' AND superseded_at IS NULL""", (hotel,)).fetchone()[0]
    assert {(v, s, current) for v, s, current, _ in rows} == {
        ("(305) 555-0100", "google_maps", True), ("+1 305 555 0199", "dmo_listing", False)}
    assert [by for _, _, current, by in rows if not current] == [winner_id]


def test_golden_is_idempotent_and_a_better_source_supersedes(database, instance):
    with database.connect() as conn:
        hotel = add_hotel(conn, "Palm Court", people=[{"full_name": "Ann Lee", "title": "Owner",
                                                       "email": "ann@gmail.com", "sources": ["rdap"],
                                                       "email_status": "valid_domain"}])
    _run([golden_hotels], database, instance)
    with database.connect() as conn:
        before = conn.execute("SELECT count(*) FROM sadie_gtm.field_provenance").fetchone()[0]
    again = _run([golden_hotels], database, instance)
    [event] = again.asset_materializations_for_node("golden_hotels")
    assert event.metadata["unchanged"].value == 1 and event.metadata["provenance_rows_written"].value == 0
    with database.connect() as conn:
        assert conn.execute("SELECT count(*) FROM sadie_gtm.field_provenance").fetchone()[0] == before
        # the website layer finds the owner's address on the hotel's own site: it outranks RDAP
        conn.execute("""INSERT INTO sadie_gtm.hotel_decision_makers (hotel_id, full_name, title, email, email_status,
                                                                    sources, confidence)
                        VALUES (%s, 'Ann Lee', 'Owner & General Manager', 'ann@palmcourt.com', 'valid_domain',
                                '{website_scrape}', 0.7)""", (hotel,))
    _run([golden_hotels], database, instance)
    assert _golden(database, hotel)["email"] == "ann@palmcourt.com"
    with database.connect() as conn:
        old = conn.execute("""SELECT superseded_at IS NOT NULL, superseded_by FROM sadie_gtm.field_provenance
                               WHERE hotel_id = %s AND field_name = 'email' AND field_value = 'ann@gmail.com'""",
                           (hotel,)).fetchone()
        new_id = conn.execute("""SELECT id FROM sadie_gtm.field_provenance WHERE hotel_id = %s
                                  AND field_name = 'email' AND field_value = 'ann@palmcourt.com'""", (hotel,)).fetchone()[0]
        people = conn.execute("""SELECT full_name, title, merged_into IS NULL, sources FROM sadie_gtm.hotel_decision_makers
                                  WHERE hotel_id = %s ORDER BY id""", (hotel,)).fetchall()
    assert old == (True, new_id)
    # the same person under two titles: merged into one row, sources united, the other row points at it
    active = [p for p in people if p[2]]
    assert len(active) == 1 and len(people) == 2
    assert sorted(active[0][3]) == ["rdap", "website_scrape"]


def test_scores_hold_every_component_and_move_hotels_to_status_4(database, instance):
    with database.connect() as conn:
        strong = add_hotel(conn, "Strong Lead", people=[{**MARIA, "email": "maria@stronglead.com"}])
        weak = add_hotel(conn, "Weak Lead", enrichment={"room_count": None, "nearest_attraction_km": 40.0},
                         rating=None, review_count=None)
        tier2 = add_hotel(conn, "Chain Tower", engine=TIER2_ENGINE, status=HotelStatus.DETECTED)
        waiting = add_hotel(conn, "Still Enriching", status=HotelStatus.DETECTED)   # tier 1, layers not complete
    result = _run([golden_hotels, lead_scores], database, instance)
    with database.connect() as conn:
        rows = {r[0]: r[1:] for r in conn.execute("SELECT id, status, score, score_details FROM sadie_gtm.hotels")}
    assert rows[strong][0] == rows[weak][0] == rows[tier2][0] == HotelStatus.SCORED
    assert rows[waiting][0] == HotelStatus.DETECTED and rows[waiting][1] is None
    assert rows[strong][1] > rows[weak][1] and rows[strong][1] > rows[tier2][1]
    details = rows[weak][2]
    for component in ("booking_engine_tier", "room_count", "rating_reviews", "location", "completeness",
                      "verified_contacts"):
        assert component in details
    assert details["room_count"]["points"] == 0 and details["room_count"]["input"] == "missing"
    [event] = result.asset_materializations_for_node("lead_scores")
    assert event.metadata["run_hotels_scored"].value == 3


def test_weights_come_from_run_config(database, instance):
    with database.connect() as conn:
        hotel = add_hotel(conn, "Config Hotel")
    weights = {"booking_engine_tier": 100, "room_count": 0, "rating_reviews": 0, "location": 0, "completeness": 0,
               "verified_contacts": 0}
    _run([golden_hotels, lead_scores], database, instance,
         run_config={"ops": {"lead_scores": {"config": {"weights": weights}}}})
    with database.connect() as conn:
        assert conn.execute("SELECT score FROM sadie_gtm.hotels WHERE id = %s", (hotel,)).fetchone()[0] == 100


def test_launch_passes_the_criteria_and_records_rejections(database, instance):
    with database.connect() as conn:
        good = add_hotel(conn, "Good Lead", people=[{**MARIA, "email": "maria@goodlead.com"}])
        no_site = add_hotel(conn, "No Site", website="", people=[{**MARIA, "email": "m@nosite.com"}])
        tier2 = add_hotel(conn, "Chain Tower", engine=TIER2_ENGINE, status=HotelStatus.DETECTED)
    _run([golden_hotels, lead_scores], database, instance)

    dry = _run([launched_leads], database, instance,
               run_config={"ops": {"launched_leads": {"config": {"dry_run": True, "min_score": 50}}}})
    [event] = dry.asset_materializations_for_node("launched_leads")
    assert event.metadata["dry_run"].value is True and event.metadata["run_launched"].value == 1
    with database.connect() as conn:
        statuses = {r[0] for r in conn.execute("SELECT status FROM sadie_gtm.hotels")}
    assert statuses == {HotelStatus.SCORED}   # nothing changed

    real = _run([launched_leads], database, instance,
                run_config={"ops": {"launched_leads": {"config": {"min_score": 50}}}})
    [event] = real.asset_materializations_for_node("launched_leads")
    assert event.metadata["run_rejected"].value == 2
    assert any("missing website" in r.data["reasons"] for r in event.metadata["rejected_hotels"].records)
    with database.connect() as conn:
        rows = {r[0]: r[1:] for r in conn.execute("SELECT id, status, launch_rejections, launched_at FROM sadie_gtm.hotels")}
        audit = conn.execute("""SELECT old_status, new_status, changed_by FROM sadie_gtm.audit_log
                                 WHERE hotel_id = %s ORDER BY id""", (good,)).fetchall()
        stage = dict(conn.execute("SELECT id, pipeline_stage FROM sadie_gtm.hotel_pipeline_status").fetchall())
    assert rows[good][0] == HotelStatus.LIVE and rows[good][2] is not None and rows[good][1] is None
    assert rows[no_site][0] == HotelStatus.SCORED and "missing website" in rows[no_site][1]
    assert rows[tier2][0] == HotelStatus.SCORED and any(r.startswith("tier 2") for r in rows[tier2][1])
    enriched, scored, live = HotelStatus.ENRICHED, HotelStatus.SCORED, HotelStatus.LIVE
    assert [(o, n) for o, n, _ in audit] == [(None, enriched), (enriched, scored), (scored, live)]
    assert audit[-1][2].startswith("run:")
    assert stage == {good: "launched", no_site: "scored", tier2: "scored"}


def test_explain_tells_where_the_email_comes_from(database, instance, sadie_env):
    with database.connect() as conn:
        hotel = add_hotel(conn, "Explained Inn", people=[
            {**MARIA, "email": "maria@explainedinn.com", "raw_source_url": "https://www.explainedinn.com/team"},
            {"full_name": "Bob Ray", "title": "Owner", "email": "bob@gmail.com", "sources": ["rdap"],
             "email_status": "valid_domain", "raw_source_url": "https://rdap.org/domain/explainedinn.com"}])
    _run([golden_hotels], database, instance)
    out = CliRunner().invoke(main, ["hotel", "explain", str(hotel), "--field", "email"])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[1] == "email = 'maria@explainedinn.com'"
    assert lines[2].startswith("  * #") and "website_scrape" in lines[2] and "explainedinn.com/team" in lines[2]
    assert "'bob@gmail.com' by rdap" in lines[3] and "superseded" in lines[3]
    missing = CliRunner().invoke(main, ["hotel", "explain", "99999"])
    assert missing.exit_code != 0 and "no hotel 99999" in missing.output
