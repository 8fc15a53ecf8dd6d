"""Decisions a person can trust, over real HTTP: a bulk decision happens only once its count is
confirmed (without JavaScript too); an in-place decision can be undone, and refreshes the page's
counts; undo is refused once promotion applied the decision; the job, queue, header and health
figures agree (a superseded row is not waiting, a decided one counts as decided)."""

from __future__ import annotations

import json
import re

from sadie_pipeline.listings.review import list_pending
from sadie_pipeline.web.queries import pending_count
from sadie_pipeline.web.users import add_user
from sadie_pipeline_tests.listings.helpers import import_file, promote, register, sample
from sadie_pipeline_tests.web.conftest import PASSWORD
from sadie_pipeline_tests.web.data import add_dmo, add_job, add_listing, add_pending
from sadie_pipeline_tests.web.server import logged_in, page_token

HTMX = {"HX-Request": "true"}


def _jobs(database) -> dict:
    """visit-pei: job 1's three rows superseded, job 2's two waiting, job 3's six to decide; one row of
    another DMO waiting."""
    with database.connect() as conn:
        pei, eats = add_dmo(conn, "visit-pei"), add_dmo(conn, "charlottetown-eats")
        listing, _ = add_listing(conn, pei, "Holman's Ice Cream Parlour")
        jobs = {n: add_job(conn, pei) for n in (1, 2, 3)}
        rows = {n: [add_pending(conn, jobs[n], pei, f"Place {n}.{i}", target=listing) for i in range(k)]
                for n, k in ((1, 3), (2, 2), (3, 6))}
        conn.execute("UPDATE staging.listings SET review_status = 'superseded' WHERE job_id = %s", (jobs[1],))
        conn.execute("UPDATE pipeline.jobs SET stage = 'superseded' WHERE id = %s", (jobs[1],))
        other = add_pending(conn, add_job(conn, eats), eats, "Elsewhere", target=listing)
        add_user(conn, "pat", PASSWORD, "reviewer", dmos=["visit-pei"])
    return {"jobs": jobs, "rows": rows, "other": other}


def _waiting_in(html: str) -> str:
    return re.search(r'id="pending-count"[^>]*>\s*([^<]*?)\s*</span>', html).group(1)


def test_a_bulk_decision_waits_for_its_count_to_be_confirmed(web, database):
    seeded = _jobs(database)
    third = seeded["rows"][3]
    with logged_in(web, "rita", PASSWORD) as rita:
        token = page_token(rita)
        nothing = rita.post("/review/bulk", data={"decision": "approve", "csrf_token": token}, follow_redirects=True)
        assert "Nothing to approve: no row was ticked." in nothing.text and "0 approved" not in nothing.text
        form = {"decision": "reject", "scope": "filtered", "dmo": "visit-pei", "job": seeded["jobs"][3],
                "csrf_token": token}
        asked = rita.post("/review/bulk", data=form)
        assert asked.status_code == 200 and "Reject 6 rows?" in asked.text
        assert 'name="confirm" value="6"' in asked.text and "Place 3.5" in asked.text
        wrong = rita.post("/review/bulk", data={**form, "confirm": 9})  # the count people saw elsewhere
        assert wrong.status_code == 200 and "The rows changed since you confirmed" in wrong.text
        with database.connect() as conn:
            assert len(list_pending(conn, "visit-pei")) == 8  # asking decided nothing
        upto = re.search(r'name="upto" value="(\d+)"', asked.text).group(1)
        done = rita.post("/review/bulk", data={**form, "confirm": 6, "upto": upto}, follow_redirects=True)
        assert "6 rejected by rita" in done.text
        with database.connect() as conn:
            conn.execute("UPDATE public.listings SET manually_modified = true")  # a person edited the listing
        ticked = rita.post("/review/bulk", data={"decision": "approve", "ids": seeded["rows"][2], "csrf_token": token})
        assert "Approve 2 rows?" in ticked.text
        assert "2 of these rows would change what a person edited by hand" in ticked.text
    with database.connect() as conn:
        statuses = dict(conn.execute("SELECT id, review_status FROM staging.listings WHERE id = ANY(%s)",
                                     (third + seeded["rows"][2],)).fetchall())
    assert [statuses[i] for i in third] == ["rejected"] * 6
    assert [statuses[i] for i in seeded["rows"][2]] == ["pending"] * 2


def test_the_figures_agree_on_every_page(web, database):
    seeded = _jobs(database)
    jobs, third = seeded["jobs"], seeded["rows"][3]
    with logged_in(web, "ada", PASSWORD) as ada:
        token = page_token(ada)
        for row in third[:4]:
            decided = ada.post(f"/review/{row}/approve", data={"csrf_token": token, "dmo": "visit-pei"}, headers=HTMX)
            assert "approved" in decided.text
        # the decision sent back the page's counts: all DMOs, and the filter the page had
        assert _waiting_in(decided.text) == "5 waiting · 4 with these filters"
        for row in third[4:]:
            ada.post(f"/review/{row}/reject", data={"csrf_token": token}, headers=HTMX)
        assert _waiting_in(ada.get("/review").text) == "3 waiting"
        assert _waiting_in(ada.get("/review", params={"dmo": "visit-pei"}).text) == "3 waiting · 2 with these filters"
        listed = ada.get("/jobs").text
        for job, figures in ((jobs[1], "3: decided 0, waiting 0, superseded 3"),
                             (jobs[2], "2: decided 0, waiting 2, superseded 0"),
                             (jobs[3], "6: decided 6, waiting 0, superseded 0")):
            assert f"sent to review {figures}" in listed
            page = ada.get(f"/jobs/{job}").text
            cells = re.search(r'class="review-figures">.*?<tbody><tr>(.*?)</tr>', page, re.S).group(1)
            sent, decided_n, waiting, superseded = re.findall(r">(\d+)</td>", cells)
            assert f"{sent}: decided {decided_n}, waiting {waiting}, superseded {superseded}" == figures
        health = ada.get("/health").text
        cards = dict(re.findall(r'data-figure="(\w+)">(\d+)<', health))
        assert cards == {"sent": "12", "decided": "6", "waiting": "3", "superseded": "3"}
        backlog = json.loads(re.search(r'id="chart-backlog">(.*?)</script>', health).group(1))
        assert dict(zip(backlog["labels"], backlog["series"][0]["values"])) == {"charlottetown-eats": 1, "visit-pei": 2}
        flow = json.loads(re.search(r'id="chart-review_flow">(.*?)</script>', health).group(1))
        assert [sum(s["values"]) for s in flow["series"]] == [12, 6]
    with logged_in(web, "pat", PASSWORD) as pat:  # a user of one DMO counts that DMO's rows
        assert _waiting_in(pat.get("/review").text) == "2 waiting"
        assert re.findall(r'data-figure="(\w+)">(\d+)<', pat.get("/health").text)[2] == ("waiting", "2")
    with database.connect() as conn:
        assert pending_count(conn, None) == 3 and pending_count(conn, ["visit-pei"]) == 2
        assert len(list_pending(conn)) == 3


def test_an_in_place_decision_is_undone_and_the_count_follows(web, database):
    seeded = _jobs(database)
    row = seeded["rows"][2][0]
    with logged_in(web, "rita", PASSWORD) as rita:
        token = page_token(rita)
        decided = rita.post(f"/review/{row}/reject", data={"csrf_token": token}, headers=HTMX).text
        assert "rejected" in decided and f'hx-post="/review/{row}/undo"' in decided
        assert _waiting_in(decided) == "8 waiting"
        back = rita.post(f"/review/{row}/undo", data={"csrf_token": token}, headers=HTMX).text
        assert f'id="item-{row}"' in back and f'hx-post="/review/{row}/approve"' in back
        assert _waiting_in(back) == "9 waiting"
        missing = rita.post("/review/987654/approve", data={"csrf_token": token}, headers=HTMX)
        assert missing.status_code == 200 and "no staged row with this id" in missing.text  # a mistake, not a 500
        again = rita.post(f"/review/{row}/undo", data={"csrf_token": token}, follow_redirects=True).text
        assert f"row #{row}: cannot undo, not decided: it is waiting for review" in again
    with database.connect() as conn:
        status = conn.execute("SELECT review_status FROM staging.listings WHERE id = %s", (row,)).fetchone()[0]
        log = conn.execute("SELECT decision, undone_by FROM pipeline.review_decisions WHERE stage_row_id = %s",
                           (row,)).fetchall()
    assert status == "pending" and log == [("rejected", "rita")]


def test_undo_is_refused_once_promotion_applied_the_decision(web, database, local_object_store, instance):
    register(database, instance, "visit-pei")
    import_file(database, local_object_store, instance, "visit-pei", sample("visit-pei.csv"))
    import_file(database, local_object_store, instance, "visit-pei", sample("visit-pei.revision.csv"))
    with database.connect() as conn:
        pending = list_pending(conn, "visit-pei")
    deletion = next(p for p in pending if p["action"] == "delete")
    with logged_in(web, "rita", PASSWORD) as rita:
        token = page_token(rita)
        page = rita.get("/review", params={"dmo": "visit-pei", "reason": "absent"}).text
        assert f"delete listing {deletion['target_listing_id']}" in page  # what approving does
        assert "latest full import no longer has it</p>" in page and 'warn">absent from' not in page
        rita.post(f"/review/{deletion['id']}/approve", data={"csrf_token": token}, headers=HTMX)
        assert f'action="/review/{deletion["id"]}/undo"' in rita.get("/review").text
        promote(database, local_object_store, instance, "visit-pei")
        refused = rita.post(f"/review/{deletion['id']}/undo", data={"csrf_token": token}, headers=HTMX)
        assert refused.status_code == 200 and "cannot undo: already promoted on " in refused.text
        assert f'action="/review/{deletion["id"]}/undo"' not in rita.get("/review").text
    with database.connect() as conn:
        visible = conn.execute("SELECT listing_visible FROM public.listings WHERE id = %s",
                               (deletion["target_listing_id"],)).fetchone()[0]
    assert visible is False
