"""Sales' leads before launch over real HTTP: a salesperson sees the scored hotels with what the next
launch would do, approves one the criteria would reject, rejects one they would take and holds a
third; the launch (launch_region, what the launch asset runs) honours each, and the held one is
back the next day. Roles, CSRF and a person's mistakes; the export as the launch's workbook; the
hotel page and its per-hotel re-run of a layer."""

from __future__ import annotations

import datetime as dt
import io
import re
import time

from dagster import DagsterInstance, DagsterRunStatus, materialize
from openpyxl import load_workbook

from sadie_pipeline.core.hotel_status import HotelStatus
from sadie_pipeline.core.launch import LaunchCriteria
from sadie_pipeline.hotels.launch import LaunchResult, launch_region
from sadie_pipeline.hotels.lead_assets import golden_hotels, lead_scores
from sadie_pipeline.io_managers import POSTGRES_IO_MANAGER, PostgresPandasIOManager
from sadie_pipeline.web.leads_view import PAGE
from sadie_pipeline.web.users import add_user
from sadie_pipeline_tests.hotels.leads_data import TIER2_ENGINE, add_hotel
from sadie_pipeline_tests.web.conftest import PASSWORD
from sadie_pipeline_tests.web.data import add_dmo
from sadie_pipeline_tests.web.server import logged_in, page_token

FLASH = re.compile(r'class="flash" role="status">(.*?)[<·]', re.S)


def person(slug: str, status: str = "verified_smtp", verified: bool = True) -> dict:
    return {"full_name": "Maria Lopez", "title": "General Manager", "email": f"maria@{slug}.com",
            "email_status": status, "email_verified": verified, "sources": ["website_scrape"]}


def seed_leads(database, instance) -> dict[str, int]:
    """Scored hotels as the pipeline leaves them: two the criteria take, two they reject, one in Tampa."""
    with database.connect() as conn:
        ids = {"good": add_hotel(conn, "Good Lead", people=[person("goodlead")]),
               "held": add_hotel(conn, "Held Inn", people=[person("heldinn")]),
               "no_site": add_hotel(conn, "No Site", website="", people=[person("nosite", "catch_all", False)]),
               "chain": add_hotel(conn, "Chain Tower", engine=TIER2_ENGINE, status=HotelStatus.DETECTED),
               "tampa": add_hotel(conn, "Bay Lodge", city="Tampa", people=[person("baylodge", "pattern_guess",
                                                                                     False)])}
    resources = {"database": database, POSTGRES_IO_MANAGER: PostgresPandasIOManager(database=database)}
    assert materialize([golden_hotels, lead_scores], partition_key="US-FL", instance=instance,
                       resources=resources).success
    return ids


def sales_users(database) -> None:
    with database.connect() as conn:
        add_dmo(conn, "coast")
        add_user(conn, "sam", PASSWORD, "sales")
        add_user(conn, "dora", PASSWORD, "viewer", dmos=["coast"])


def _decide(client, **data) -> str:
    token = page_token(client, "/leads")
    page = client.post("/leads/decide", data={"csrf_token": token, **data}, follow_redirects=True)
    assert page.status_code == 200, page.text[:300]
    return FLASH.search(page.text).group(1).strip()


def _state(database, hotel: int) -> tuple:
    with database.connect() as conn:
        return conn.execute("SELECT status, launch_rejections FROM sadie_gtm.hotels WHERE id = %s",
                            (hotel,)).fetchone()


def test_the_launch_honours_what_sales_decided(web, database, instance):
    ids = seed_leads(database, instance)
    sales_users(database)
    with logged_in(web, "sam", PASSWORD) as sam:
        page = sam.get("/leads?region=US-FL&city=Miami").text
        for name in ("Good Lead", "Held Inn", "No Site", "Chain Tower"):
            assert name in page
        assert "Bay Lodge" not in page  # Tampa is filtered out
        row = page[page.index(f'id="lead-{ids["no_site"]}"'):]
        assert "would reject" in row[:row.index("</tr>")] and "missing website" in row[:row.index("</tr>")]
        assert "catch-all" in row[:row.index("</tr>")]
        assert _decide(sam, one=f"{ids['no_site']}:approved", region="US-FL") == "No Site approved by sam."
        assert _decide(sam, one=f"{ids['good']}:rejected", **{f"reason_{ids['good']}": "owner said no"}) \
            == "Good Lead rejected by sam."
        assert _decide(sam, ids=[ids["held"]], decision="held", reason="call back Monday") == "Held Inn held by sam."
        page = sam.get("/leads?region=US-FL").text
        assert "approved over: missing website" in page and "rejected by sam: owner said no" in page
    with database.connect() as conn:
        held_for = conn.execute("SELECT held_for FROM sadie_gtm.lead_decisions WHERE hotel_id = %s",
                                (ids["held"],)).fetchone()[0]
    _launch(database, held_for)
    assert _state(database, ids["no_site"]) == (HotelStatus.LIVE, None)
    assert _state(database, ids["good"]) == (HotelStatus.SCORED, ["rejected by sam: owner said no"])
    status, reasons = _state(database, ids["held"])
    assert status == HotelStatus.SCORED and reasons[0].startswith(f"held by sam for the launch of {held_for}")
    assert _state(database, ids["chain"])[0] == HotelStatus.SCORED  # undecided: the criteria (tier 2)
    with database.connect() as conn:
        applied = conn.execute("SELECT applied_by, overrode FROM sadie_gtm.lead_decisions WHERE hotel_id = %s",
                               (ids["no_site"],)).fetchone()
        actor = conn.execute("SELECT changed_by FROM sadie_gtm.audit_log WHERE hotel_id = %s AND new_status = %s",
                             (ids["no_site"], HotelStatus.LIVE)).fetchone()[0]
    assert applied == ("run:test", ["missing website"]) and actor == "run:test approved by sales"
    _launch(database, held_for + dt.timedelta(days=1))  # the hold is over: the criteria take it
    assert _state(database, ids["held"]) == (HotelStatus.LIVE, None)
    assert _state(database, ids["good"])[0] == HotelStatus.SCORED  # a rejection stands until cleared


def _launch(database, day: dt.date) -> LaunchResult:
    result = LaunchResult()
    with database.connect(actor="run:test") as conn:
        launch_region(conn, "US-FL", LaunchCriteria(), result, day=day)
    return result


def test_roles_csrf_and_mistakes(web, database, instance):
    ids = seed_leads(database, instance)
    sales_users(database)
    with logged_in(web, "dora", PASSWORD) as dora:  # a viewer limited to a DMO, no hotels grant
        assert dora.get("/leads").status_code == 403
        assert dora.get(f"/hotels/{ids['good']}").status_code == 403
    with logged_in(web, "vera", PASSWORD) as vera:  # reads leads, decides nothing
        assert vera.get("/leads").status_code == 200
        token = page_token(vera, "/leads")
        assert vera.post("/leads/decide", data={"csrf_token": token, "one": f"{ids['good']}:approved"}).status_code \
            == 403
    with logged_in(web, "sam", PASSWORD) as sam:
        for path in ("/review", "/listings", "/sources"):
            assert sam.get(path).status_code == 403, path
        assert sam.post("/leads/decide", data={"one": f"{ids['good']}:approved"}).status_code == 403  # no CSRF
        assert _decide(sam, one=f"{ids['good']}:rejected") == "Nothing was decided: a lead rejected needs a reason."
        assert _decide(sam, ids=[ids["good"]], decision="maybe") == \
            "Nothing was decided: unknown decision &#39;maybe&#39;: approved, held, rejected or cleared."
        assert _decide(sam, decision="approved") == "No lead was ticked: nothing was decided."
        assert _decide(sam, one=f"{ids['good']}:held", reason="x" * 600) == \
            "Nothing was decided: the reason is longer than 500 characters."
        assert sam.get("/leads?min_score=abc&tier=9x&after=garbage").status_code == 200
        assert _decide(sam, one=f"{ids['good']}:approved") == "Good Lead approved by sam."
        assert _decide(sam, one=f"{ids['good']}:cleared") == "Good Lead cleared (undecided again) by sam."
    with database.connect() as conn:
        history = conn.execute("SELECT decision, decided_by FROM sadie_gtm.lead_decisions ORDER BY id").fetchall()
    assert history == [("approved", "sam"), ("cleared", "sam")]


def test_a_row_decided_through_htmx_comes_back_alone(web, database, instance):
    ids = seed_leads(database, instance)
    sales_users(database)
    hx = {"hx-request": "true"}
    with logged_in(web, "sam", PASSWORD) as sam:
        token = page_token(sam, "/leads")
        row = sam.post("/leads/decide", headers=hx, data={"csrf_token": token, "one": f"{ids['no_site']}:approved",
                                                           "region": "US-FL"})
        assert row.status_code == 200 and "HX-Redirect" not in row.headers
        html = row.text.strip()
        assert html.startswith(f'<tr id="lead-{ids["no_site"]}"') and html.endswith("</tr>")
        assert "<html" not in html and "<nav" not in html and html.count('<tr id="lead-') == 1
        assert '<span class="badge">approved</span>' in html and "approved over: missing website" in html
        assert 'hx-post="/leads/decide"' in html and 'name="region" value="US-FL"' in html  # the filters stay
        # a mistake comes back in the row, and nothing is recorded
        wrong = sam.post("/leads/decide", headers=hx, data={"csrf_token": token, "one": f"{ids['good']}:rejected"})
        assert wrong.status_code == 200 and wrong.text.strip().startswith(f'<tr id="lead-{ids["good"]}"')
        assert "Nothing was decided: a lead rejected needs a reason." in wrong.text and "undecided" in wrong.text
        gone = sam.post("/leads/decide", headers=hx, data={"csrf_token": token, "one": "999999:approved"})
        assert '<tr id="lead-999999"' in gone.text and "no longer waits for the launch" in gone.text
        # the bulk form stays a post and a redirect, through htmx too
        bulk = sam.post("/leads/decide", headers=hx, data={"csrf_token": token, "ids": [ids["held"]],
                                                            "decision": "approved"})
        assert bulk.status_code == 303 and bulk.headers["HX-Redirect"] == "/leads"
    with database.connect() as conn:
        decided = conn.execute("SELECT hotel_id, decision FROM sadie_gtm.lead_decisions ORDER BY id").fetchall()
    assert decided == [(ids["no_site"], "approved"), (ids["held"], "approved")]


def test_filters_paging_and_export(web, database, instance):
    ids = seed_leads(database, instance)
    sales_users(database)
    with database.connect() as conn:
        scores = dict(conn.execute("SELECT id, score FROM sadie_gtm.hotels WHERE id = ANY(%s)",
                                   (list(ids.values()),)).fetchall())
    low, high = min(scores, key=scores.get), max(scores, key=scores.get)
    assert scores[low] < scores[high], scores  # the seeds score apart: a minimum can fall between them
    with logged_in(web, "sam", PASSWORD) as sam:
        above = sam.get(f"/leads?min_score={scores[high]}").text
        assert f'id="lead-{high}"' in above and f'id="lead-{low}"' not in above
        assert f'id="lead-{low}"' in sam.get(f"/leads?min_score={scores[low]}").text
        verified = sam.get("/leads?verified=true").text
        assert "Good Lead" in verified and "No Site" not in verified and "Bay Lodge" not in verified
        assert "Chain Tower" in sam.get(f"/leads?engine={TIER2_ENGINE}").text
        assert "Good Lead" not in sam.get("/leads?tier=2").text
        assert "Bay Lodge" in sam.get("/leads?q=baylodge").text and "Good Lead" not in sam.get("/leads?q=bay").text
        response = sam.get("/leads/export?region=US-FL&city=Miami")
    assert response.status_code == 200 and response.headers["content-type"].startswith(
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    book = load_workbook(io.BytesIO(response.content), read_only=True)
    leads = list(book["Leads"].iter_rows(values_only=True))
    assert leads[0][:2] == ("Hotel ID", "Hotel")
    assert {r[0] for r in leads[1:]} == {ids["good"], ids["held"], ids["no_site"], ids["chain"]}
    people = list(book["Decision makers"].iter_rows(values_only=True))
    assert {r[0] for r in people[1:]} == {ids["good"], ids["held"], ids["no_site"]}


def test_paging_is_keyset_and_bounded(web, database, instance):
    with database.connect() as conn:
        for n in range(55):
            add_hotel(conn, f"Paged Inn {n:02d}", status=HotelStatus.SCORED)
    sales_users(database)
    with logged_in(web, "sam", PASSWORD) as sam:
        first = sam.get("/leads").text
        after = re.search(r'href="\?after=([^"&]+)"', first).group(1)
        second = sam.get(f"/leads?after={after}").text
    shown = [set(re.findall(r"Paged Inn \d\d", page)) for page in (first, second)]
    assert len(shown[0]) == PAGE and len(shown[1]) == 55 - PAGE and not shown[0] & shown[1]


def test_hotel_page_and_a_layer_rerun_for_that_hotel(sadie_env, web, database, instance, sb, monkeypatch):
    for name, value in sb.client_env().items():
        monkeypatch.setenv(name, value)
    home = sadie_env / "dagster"
    home.mkdir()
    ids = seed_leads(database, instance)
    sales_users(database)
    with logged_in(web, "sam", PASSWORD) as sam:
        page = sam.get(f"/hotels/{ids['good']}").text
        assert "name = &#39;Good Lead&#39;" in page and "rdap_owner" in page and "2026-11-20 10:00" in page
        _decide(sam, one=f"{ids['good']}:approved")
        assert "approved" in sam.get(f"/hotels/{ids['good']}").text
        assert sam.get("/hotels/999999").status_code == 404
        token = page_token(sam, f"/hotels/{ids['good']}")
        done = sam.post(f"/hotels/{ids['good']}/rerun/rdap_owner", data={"csrf_token": token}, follow_redirects=True)
        message = FLASH.search(done.text).group(1)
        assert message.startswith("rdap_owner runs again for Good Lead (US-FL): run "), message
        bad = sam.post(f"/hotels/{ids['good']}/rerun/nope", data={"csrf_token": token}, follow_redirects=True)
        assert FLASH.search(bad.text).group(1).startswith("No layer &#39;nope&#39; to run.")
    assert _rdap_ran(database, ids["good"]), "the re-run did not refresh the hotel's RDAP layer"
    assert not _rdap_ran(database, ids["held"], timeout_s=0)  # the other hotels of the region are left alone
    with DagsterInstance.from_config(str(home)) as dagster:
        [run] = dagster.get_runs()
        deadline = time.monotonic() + 60
        while not run.is_finished and time.monotonic() < deadline:
            time.sleep(0.5)
            run = dagster.get_run_by_id(run.run_id)
        assert run.status == DagsterRunStatus.SUCCESS
        assert run.run_config["ops"]["rdap_owner"]["config"]["hotel_ids"] == [ids["good"]]
        assert run.tags["dagster/user"] == "sam" and run.job_name == "reenrichment_job"
    with database.connect() as conn:
        trail = conn.execute("SELECT user_name, action FROM pipeline.web_audit WHERE target = %s",
                             (f"hotel:{ids['good']}",)).fetchall()
    assert trail == [("sam", "rerun layer")]


def _rdap_ran(database, hotel: int, timeout_s: float = 120) -> bool:
    """The hotel's RDAP layer ran after add_hotel's stamp (2026-11-20)."""
    deadline = time.monotonic() + timeout_s
    while True:
        with database.connect() as conn:
            at = conn.execute("""SELECT (layer_updated_at ->> 'rdap_owner')::timestamptz FROM
                                 sadie_gtm.hotel_owner_enrichment WHERE hotel_id = %s""", (hotel,)).fetchone()[0]
        if at > dt.datetime(2026, 11, 21, tzinfo=dt.UTC):
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.5)


def test_strangers_go_to_login_and_names_render_as_text(web, database):
    import httpx

    evil = "<script>alert(1)</script>"
    with database.connect() as conn:
        hotel = add_hotel(conn, evil, website="javascript:alert(1)", status=HotelStatus.SCORED)
    sales_users(database)
    with httpx.Client(base_url=web) as stranger:
        for path in ("/leads", f"/hotels/{hotel}", "/leads/export"):
            response = stranger.get(path)
            assert response.status_code == 303 and response.headers["location"].startswith("/login?next="), path
    with logged_in(web, "sam", PASSWORD) as sam:
        for path in ("/leads", f"/hotels/{hotel}"):
            html = sam.get(path).text
            assert evil not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html, path
            assert 'href="javascript:' not in html, path
