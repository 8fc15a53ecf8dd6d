"""lead_exports on live hotels: one workbook per city and one per state, written to the object
store, uploaded through Microsoft Graph and announced in Slack (both the sandbox's, through
the real clients); status 6 (EXPORTED); exporting the same data again changes nothing and sends nothing."""

from __future__ import annotations

import io

import pytest
from dagster import materialize
from openpyxl import load_workbook

from sadie_pipeline.core.hotel_status import HotelStatus
from sadie_pipeline.hotels.lead_assets import golden_hotels, launched_leads, lead_exports, lead_scores
from sadie_pipeline.io_managers import io_manager_resources
from sadie_pipeline.resource_defs import configured
from sadie_pipeline_tests.hotels.leads_data import add_hotel

LAUNCH_ALL = {"ops": {"launched_leads": {"config": {"min_score": 0}}}}


@pytest.fixture
def graph_and_slack(sb, monkeypatch):
    for name, value in sb.client_env().items():
        monkeypatch.setenv(name, value)
    return sb


def _resources(database, store):
    return {"database": database, "object_store": store, "onedrive": configured("onedrive"), "slack": configured("slack"),
            **io_manager_resources(database, store)}


def _export(database, store, instance, assets=(lead_exports,), run_config=None):
    """Runs the assets; lead_exports alone loads the launch's value (launched_leads stays a source)."""
    result = materialize(list(dict.fromkeys([*assets, launched_leads])), selection=list(assets), partition_key="US-FL",
                         instance=instance, resources=_resources(database, store), run_config=run_config)
    assert result.success
    [event] = result.asset_materializations_for_node("lead_exports")
    return event.metadata


def _live_hotels(database):
    with database.connect() as conn:
        miami = [add_hotel(conn, name, people=[{"full_name": "Maria Lopez", "title": "General Manager",
                                                "email": f"maria@{name.lower().replace(' ', '')}.com",
                                                "email_status": "valid_domain"}])
                 for name in ("Seabreeze Inn", "Palm Court", "Coral Suites")]
        orlando = add_hotel(conn, "Lakeside Lodge", city="Orlando")
    return miami, orlando


def test_files_per_city_and_state_uploaded_announced_and_exported(database, local_object_store, instance,
                                                                  graph_and_slack):
    miami, orlando = _live_hotels(database)
    meta = _export(database, local_object_store, instance,
                   (golden_hotels, lead_scores, launched_leads, lead_exports), LAUNCH_ALL)
    assert meta["files_written"].value == 3 and meta["hotels_exported"].value == 4
    assert sorted(local_object_store.list_keys("exports/")) == [
        "exports/Florida/Florida.xlsx", "exports/Florida/Miami.xlsx", "exports/Florida/Orlando.xlsx"]

    uploads = {f["path"]: f for f in graph_and_slack.inspect("graph")["files"]}
    assert set(uploads) == {"Sadie Leads/Florida/Miami.xlsx", "Sadie Leads/Florida/Orlando.xlsx",
                            "Sadie Leads/Florida/Florida.xlsx"}
    assert uploads["Sadie Leads/Florida/Miami.xlsx"]["size"] == len(
        local_object_store.get_bytes("exports/Florida/Miami.xlsx"))
    [message] = graph_and_slack.inspect("slack")["messages"]
    assert "Florida" in message["text"] and "4 hotels" in message["text"] and "Miami.xlsx" in message["text"]
    assert uploads["Sadie Leads/Florida/Miami.xlsx"]["web_url"] in message["text"]

    book = load_workbook(io.BytesIO(local_object_store.get_bytes("exports/Florida/Miami.xlsx")))
    leads = book["Leads"]
    assert leads.freeze_panes == "A2" and leads.auto_filter.ref
    header = [c.value for c in leads[1]]
    rows = [dict(zip(header, [c.value for c in row])) for row in leads.iter_rows(min_row=2)]
    assert sorted(r["Hotel ID"] for r in rows) == sorted(miami)
    assert {r["Booking engine"] for r in rows} == {"Cloudbeds"}
    assert all(r["Email"].startswith("maria@") for r in rows)
    people = list(book["Decision makers"].iter_rows(min_row=2, values_only=True))
    assert len(people) == 3
    state = load_workbook(io.BytesIO(local_object_store.get_bytes("exports/Florida/Florida.xlsx")))
    assert state["Leads"].max_row == 5   # header + 4 hotels

    with database.connect() as conn:
        statuses = dict(conn.execute("SELECT id, status FROM sadie_gtm.hotels").fetchall())
        recorded = conn.execute("""SELECT scope, city, hotels, upload_method, web_url IS NOT NULL, slack_ts IS NOT NULL
                                     FROM sadie_gtm.lead_exports ORDER BY scope, city""").fetchall()
    assert set(statuses.values()) == {HotelStatus.EXPORTED} and orlando in statuses
    assert recorded == [("city", "Miami", 3, "simple", True, True), ("city", "Orlando", 1, "simple", True, True),
                        ("state", "", 4, "simple", True, True)]


def test_the_same_data_again_writes_and_sends_nothing(database, local_object_store, instance, graph_and_slack):
    _live_hotels(database)
    _export(database, local_object_store, instance, (golden_hotels, lead_scores, launched_leads, lead_exports),
            LAUNCH_ALL)
    uploads = graph_and_slack.inspect("graph")["files"]
    again = _export(database, local_object_store, instance)
    assert again["files_written"].value == 0 and again["files_unchanged"].value == 3
    assert len(graph_and_slack.inspect("slack")["messages"]) == 1
    assert graph_and_slack.inspect("graph")["files"] == uploads
    with database.connect() as conn:
        assert conn.execute("SELECT count(*) FROM sadie_gtm.lead_exports").fetchone()[0] == 3
        # a new hotel in Orlando: the Orlando file and the state file change, Miami's does not
        add_hotel(conn, "Orange Grove Inn", city="Orlando", status=HotelStatus.LIVE)
    # launched: the launch's value (what lead_exports exports) now holds it
    third = _export(database, local_object_store, instance, (golden_hotels, launched_leads, lead_exports))
    assert third["files_written"].value == 2 and third["files_unchanged"].value == 1
    messages = graph_and_slack.inspect("slack")["messages"]
    assert len(messages) == 2 and "Orlando.xlsx" in messages[1]["text"] and "Miami.xlsx" not in messages[1]["text"]


def test_a_failed_announcement_is_sent_by_the_next_run(database, local_object_store, instance, graph_and_slack):
    _live_hotels(database)
    graph_and_slack.configure("slack", fail_next=10)   # past the client's retries
    result = materialize([golden_hotels, lead_scores, launched_leads, lead_exports], partition_key="US-FL",
                         instance=instance, resources=_resources(database, local_object_store),
                         run_config=LAUNCH_ALL, raise_on_error=False)
    assert not result.success
    assert graph_and_slack.inspect("slack")["messages"] == []
    graph_and_slack.configure("slack", fail_next=0)
    again = _export(database, local_object_store, instance)
    assert again["files_written"].value == 0            # the files were written; only the message was missing
    [message] = graph_and_slack.inspect("slack")["messages"]
    assert "Miami.xlsx" in message["text"] and "Orlando.xlsx" in message["text"]


def test_cells_that_look_like_formulas_stay_text(database, local_object_store, instance, monkeypatch):
    for name in ("SADIE_GRAPH_TENANT_ID", "SADIE_SLACK_BOT_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    with database.connect() as conn:
        add_hotel(conn, '=HYPERLINK("http://evil.test","click")', status=HotelStatus.LIVE, people=[
            {"full_name": "+Bob Ray", "title": "-1+1", "email": "@sum@evil.test", "email_status": "valid_domain"}])
    meta = _export(database, local_object_store, instance, (golden_hotels, launched_leads, lead_exports))
    assert meta["upload"].value.startswith("object store only")
    book = load_workbook(io.BytesIO(local_object_store.get_bytes("exports/Florida/Miami.xlsx")))
    name_cell = book["Leads"]["B2"]
    assert name_cell.value == '=HYPERLINK("http://evil.test","click")' and name_cell.data_type == "s"
    person = book["Decision makers"][2]
    assert [c.data_type for c in person if c.value in ("+Bob Ray", "-1+1")] == ["s", "s"]
