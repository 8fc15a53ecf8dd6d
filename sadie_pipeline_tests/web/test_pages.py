"""The pages over real HTTP on data the listings pipeline made: the review queue (filters, staged
beside live with differences marked, the match explanation, decisions one by one and in bulk,
force-match), sources and configs, jobs and downloads, listings and their hand changes."""

from __future__ import annotations

import gzip
import re

from sadie_pipeline.listings.review import list_pending
from sadie_pipeline_tests.listings.helpers import import_file, promote, register, sample
from sadie_pipeline_tests.web.conftest import PASSWORD
from sadie_pipeline_tests.web.server import launched_as, logged_in, page_token


def _two_dmos(database, store, instance) -> list[dict]:
    register(database, instance, "visit-pei")
    register(database, instance, "charlottetown-eats")
    import_file(database, store, instance, "visit-pei", sample("visit-pei.csv"))
    import_file(database, store, instance, "charlottetown-eats", sample("charlottetown-eats.csv"))
    with database.connect() as conn:
        return list_pending(conn)


def test_the_review_queue_shows_decides_and_force_matches(web, database, local_object_store, instance,
                                                         monkeypatch):
    pending = _two_dmos(database, local_object_store, instance)
    assert len(pending) >= 3
    with logged_in(web, "rita", PASSWORD) as rita:
        page = rita.get("/review").text
        assert f"#{pending[0]['id']}" in page and 'class="diff"' in page
        assert "match fuzzy" in page or "match match_hash" in page or "certainty" in page
        only = rita.get("/review", params={"dmo": "charlottetown-eats", "reason": "fuzzy"}).text
        assert all(f"#{p['id']}<" in only for p in pending if p["dmo"] == "charlottetown-eats"
                   and (p["review_reason"] or "").startswith("fuzzy"))
        token = page_token(rita)
        first, second, *rest = pending
        assert "approved" in rita.post(f"/review/{first['id']}/approve", data={"csrf_token": token}).text
        assert "rejected" in rita.post(f"/review/{second['id']}/reject", data={"csrf_token": token}).text
        # force-match: the search box finds a listing, the row is matched to it and approved
        target = rest[0]
        found = rita.get(f"/review/{target['id']}/candidates", params={"q": "hotel"}).text
        listing_id = int(re.search(r'"listing_id": "(\d+)"', found).group(1))
        matched = rita.post(f"/review/{target['id']}/match", data={"listing_id": listing_id, "csrf_token": token})
        assert "force_matched" in matched.text
        bulk = rita.post("/review/bulk", data={"decision": "approve", "scope": "filtered", "csrf_token": token},
                         follow_redirects=True)
        # every row was decided above: nothing is approved, and the message says so (in the session, not the URL)
        assert re.search(r'class="flash"[^>]*>Nothing to approve: no pending row matches the filters\.', bulk.text)
        monkeypatch.delenv("DAGSTER_HOME", raising=False)   # no webserver, and no instance to run on
        promoted = rita.post("/review/promote", data={"dmo": "visit-pei", "csrf_token": token}, follow_redirects=True)
        assert "no Dagster webserver answers" in promoted.text   # nothing runs inside the request
        monkeypatch.setattr("sadie_pipeline.web.routes.review.launch", launched_as("run-promote-1"))
        again = rita.post("/review/promote", data={"dmo": "visit-pei", "csrf_token": token}, follow_redirects=True)
        assert "promotion of visit-pei launched: run run-promote-1" in again.text
    with database.connect() as conn:
        assert list_pending(conn) == []
        trail = conn.execute("SELECT user_name, action, detail FROM pipeline.web_audit WHERE target = %s ORDER BY id",
                             ("dmo:visit-pei",)).fetchall()
        decisions = conn.execute("SELECT decision, decided_by FROM pipeline.review_decisions ORDER BY id").fetchall()
        row = conn.execute("SELECT target_listing_id, match_method, review_status FROM staging.listings WHERE id = %s",
                           (target["id"],)).fetchone()
    assert decisions[0] == ("approved", "rita") and decisions[1] == ("rejected", "rita")
    assert ("force_matched", "rita") in decisions
    assert row == (listing_id, "manual", "approved")
    # each promotion asked for has its audit row: the run it launched, or why none was
    assert [(who, action, detail["run"]) for who, action, detail in trail] == [
        ("rita", "promote", None), ("rita", "promote", "run-promote-1")]
    assert "no Dagster webserver answers" in trail[0][2]["problem"] and trail[1][2]["problem"] is None


def test_sources_show_each_dmo_and_admins_edit_configs_with_validation(web, database, local_object_store, instance):
    register(database, instance, "visit-pei")
    import_file(database, local_object_store, instance, "visit-pei", sample("visit-pei.csv"))
    with logged_in(web, "ada", PASSWORD) as ada:
        page = ada.get("/sources").text
        assert "visit-pei" in page and "csv" in page and "job 1" in page
        token = page_token(ada, "/sources/visit-pei")
        bad = ada.post("/sources/visit-pei/config", data={"csrf_token": token,
                                                          "config": '{"validate": {"max_error_rate": 2}}'})
        assert bad.status_code == 422 and "max_error_rate" in bad.text
        # a file source has nothing to pull on a schedule: given a url it has
        pulled = '{"import": {"url": "https://visit-pei.test/listings.csv", "schedule": "daily"}}'
        good = ada.post("/sources/visit-pei/config", data={"csrf_token": token, "config": pulled},
                        follow_redirects=True)
        assert "saved as config version 2" in good.text and "manual → daily" in good.text
        assert "next at" in good.text
        assert "daily" in ada.get("/sources").text


def test_jobs_pages_list_files_errors_and_downloads(web, database, local_object_store, instance):
    register(database, instance, "visit-pei")
    _, summary = import_file(database, local_object_store, instance, "visit-pei", sample("visit-pei.csv"))
    job = summary["job_id"]
    with logged_in(web, "vera", PASSWORD) as vera:
        listing = vera.get("/jobs", params={"dmo": "visit-pei"}).text
        assert f'href="/jobs/{job}"' in listing and "promoted" in listing
        page = vera.get(f"/jobs/{job}").text
        assert "Files" in page and "raw" in page
        file_id = re.search(rf'/jobs/{job}/files/(\d+)', page).group(1)
        raw = vera.get(f"/jobs/{job}/files/{file_id}")
        assert raw.status_code == 200 and gzip.decompress(raw.content).startswith(b"{")
        source = vera.get(f"/jobs/{job}/source")
        assert source.status_code == 200 and b"Business Name" in source.content


def test_listing_search_edit_visibility_merge_and_restore(web, database, local_object_store, instance):
    register(database, instance, "visit-pei")
    import_file(database, local_object_store, instance, "visit-pei", sample("visit-pei.csv"))
    import_file(database, local_object_store, instance, "visit-pei", sample("visit-pei.revision.csv"))
    with database.connect() as conn:
        ids = [p["id"] for p in list_pending(conn, "visit-pei") if p["action"] == "delete"]
        from sadie_pipeline.listings.review import approve
        approve(conn, ids)
    promote(database, local_object_store, instance, "visit-pei")
    with logged_in(web, "rita", PASSWORD) as rita:
        found = rita.get("/listings", params={"q": "great george"}).text
        listing = int(re.search(r'href="/listings/(\d+)">The Great George Hotel', found).group(1))
        assert "Charlottetown" in rita.get("/listings", params={"city": "charlottetown", "dmo": "visit-pei"}).text
        token = page_token(rita, f"/listings/{listing}")
        edited = rita.post(f"/listings/{listing}/edit", data={"name": "The Great George", "csrf_token": token},
                           follow_redirects=True)
        assert "marked as edited by hand" in edited.text and "edited by hand" in edited.text
        rita.post(f"/listings/{listing}/visibility", data={"visible": "false", "csrf_token": token})
        other = int(re.search(r'href="/listings/(\d+)">Delta', rita.get("/listings", params={"q": "delta"}).text).group(1))
        merged = rita.post(f"/listings/{other}/merge", data={"into": listing, "csrf_token": token}, follow_redirects=True)
        assert f"merged into listing {listing}" in merged.text
        assert "Unmerge" in rita.get(f"/listings/{other}").text
        assert "unmerged" in rita.post(f"/listings/{other}/unmerge", data={"csrf_token": token}, follow_redirects=True).text
        deleted = rita.get("/listings/deleted").text
        info = int(re.search(r'/listings/records/(\d+)/restore', deleted).group(1))
        restored = rita.post(f"/listings/records/{info}/restore", data={"csrf_token": token}, follow_redirects=True)
        assert "restored" in restored.text
        history = rita.get(f"/listings/{listing}").text
        assert "visibility" in history and "edit" in history and "rita" in history
    with database.connect() as conn:
        row = conn.execute("SELECT name, manually_modified, manually_modified_by, listing_visible FROM public.listings "
                           "WHERE id = %s", (listing,)).fetchone()
        rita_id = conn.execute("SELECT id FROM pipeline.web_users WHERE name = 'rita'").fetchone()[0]
        status = conn.execute("SELECT info_visible, info_status FROM public.listing_info WHERE id = %s", (info,)).fetchone()
        merged_into = conn.execute("SELECT merged_into, listing_status FROM public.listings WHERE id = %s", (other,)).fetchone()
    assert row == ("The Great George", True, rita_id, False)
    assert status == (True, "active") and merged_into == (None, "active")


def test_health_dead_letters_hotel_pairs_bridge_and_duplicates_render(web, database, local_object_store, instance):
    _two_dmos(database, local_object_store, instance)
    with logged_in(web, "vera", PASSWORD) as vera:
        health = vera.get("/health").text
        for chart in ("imports", "error_rates", "backlog", "hotel_stages", "dead_letters"):
            assert f'id="chart-{chart}"' in health
        assert vera.get("/deadletters").status_code == 200
        assert vera.get("/hotels/reviews").status_code == 200
        assert "visit-pei" in vera.get("/bridge").text
        assert vera.get("/duplicates").status_code == 200
        assert "swagger-ui" in vera.get("/docs").text and "/v1/listings" in vera.get("/openapi.json").text
