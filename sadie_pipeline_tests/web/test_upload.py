"""Two-phase upload over real HTTP, without a Dagster webserver: files refused by type and size with
a one-line reason, nothing kept when no run can be launched; phase one's page (summary, preview,
deletions, errors) for a staged upload; phase two's discard (nothing reaches public)."""

from __future__ import annotations

import httpx

from sadie_pipeline.listings.assets import listing_raw_files, listing_stage
from sadie_pipeline_tests.listings.helpers import import_file, promote, register, run_assets, sample
from sadie_pipeline_tests.web.conftest import PASSWORD
from sadie_pipeline_tests.web.server import launched_as, logged_in, page_token, serving


def _audit(database, target: str) -> list[tuple]:
    with database.connect() as conn:
        return conn.execute("SELECT user_name, action, detail FROM pipeline.web_audit WHERE target = %s ORDER BY id",
                            (target,)).fetchall()


def test_bad_files_get_a_one_line_reason_and_nothing_is_kept(web, database, local_object_store, instance,
                                                             monkeypatch):
    register(database, instance, "visit-pei")
    monkeypatch.delenv("DAGSTER_HOME", raising=False)   # no webserver, and no instance to run on
    with logged_in(web, "rita", PASSWORD) as rita:
        token = page_token(rita, "/upload")
        wrong_type = rita.post("/upload", data={"dmo": "visit-pei", "csrf_token": token},
                               files={"file": ("listings.pdf", b"%PDF-1.4", "application/pdf")})
        assert wrong_type.status_code == 422 and "unsupported file type .pdf" in wrong_type.text
        binary = rita.post("/upload", data={"dmo": "visit-pei", "csrf_token": token},
                           files={"file": ("listings.csv", b"\x00\x01\x02binary", "text/csv")})
        assert binary.status_code == 422 and "binary content" in binary.text
        fake_xlsx = rita.post("/upload", data={"dmo": "visit-pei", "csrf_token": token},
                              files={"file": ("listings.xlsx", b"Name,City\n", "application/octet-stream")})
        assert fake_xlsx.status_code == 422 and "not an XLSX workbook" in fake_xlsx.text
        no_dagster = rita.post("/upload", data={"dmo": "visit-pei", "csrf_token": token},
                               files={"file": ("visit-pei.csv", sample("visit-pei.csv").read_bytes(), "text/csv")})
        assert no_dagster.status_code == 503 and "no Dagster webserver answers" in no_dagster.text
    assert local_object_store.list_keys("uploads/") == []
    # the refused files left no audit row; the upload no run took has one, with the problem
    [(who, action, detail)] = _audit(database, "dmo:visit-pei")
    assert (who, action, detail["run"]) == ("rita", "upload", None) and detail["file"].endswith("-visit-pei.csv")
    assert "no Dagster webserver answers" in detail["problem"]


def test_an_upload_over_the_size_limit_is_refused_before_it_is_read(database, local_object_store, users):
    with serving(database, local_object_store, upload_max_bytes=1024) as base, logged_in(base, "rita", PASSWORD) as rita:
        token = page_token(rita, "/upload")
        response = rita.post("/upload", data={"dmo": "x", "csrf_token": token},
                             files={"file": ("big.csv", b"a,b\n" * 100_000, "text/csv")})
    assert response.status_code == 413 and "larger than the limit" in response.text


def test_phase_one_shows_what_the_upload_would_do_and_discard_keeps_it_out(web, database, local_object_store,
                                                                         instance, monkeypatch):
    register(database, instance, "visit-pei")
    import_file(database, local_object_store, instance, "visit-pei", sample("visit-pei.csv"))
    name = "20260101T000000-visit-pei.revision.csv"
    key = f"uploads/visit-pei/{name}"
    local_object_store.put_file(key, sample("visit-pei.revision.csv"))
    run_assets(database, local_object_store, instance, "visit-pei", key, assets=[listing_raw_files, listing_stage])
    with database.connect() as conn:
        before = conn.execute("SELECT count(*) FROM public.listing_info WHERE info_visible").fetchone()[0]
    with logged_in(web, "rita", PASSWORD) as rita:
        page = rita.get(f"/upload/visit-pei/{name}").text
        assert "Confirm: promote" in page and "Discard" in page
        assert "Receiver Coffee Co." in page          # a deletion it would cause
        assert "Georgetown Historic Inn" in page      # a new record in the preview
        token = page_token(rita, f"/upload/visit-pei/{name}")
        # a confirmation that launched a run (a stand-in: nothing is promoted), then the discard
        monkeypatch.setattr("sadie_pipeline.web.routes.upload.launch", launched_as("run-confirm-1"))
        confirmed = rita.post(f"/upload/visit-pei/{name}/confirm", data={"csrf_token": token})
        assert confirmed.status_code == 303 and "run=run-confirm-1" in confirmed.headers["location"]
        done = rita.post(f"/upload/visit-pei/{name}/discard", data={"csrf_token": token}, follow_redirects=True)
        assert "discarded" in done.text and "Confirm: promote" not in done.text
        assert rita.get("/upload/visit-pei/..%2F..%2Fetc").status_code == 404
        sent = rita.post("/upload", data={"dmo": "visit-pei", "csrf_token": token},
                         files={"file": ("more.csv", sample("visit-pei.csv").read_bytes(), "text/csv")})
        assert sent.status_code == 303
    uploaded = sent.headers["location"].split("/")[-1].split("?")[0]
    with database.connect() as conn:
        job_id = conn.execute("SELECT id FROM pipeline.jobs WHERE source_key = %s", (key,)).fetchone()[0]
    assert _audit(database, f"job:{job_id}") == [
        ("rita", "confirm upload", {"dmo": "visit-pei", "file": name, "run": "run-confirm-1", "problem": None,
                                    "accept_errors": False}),
        ("rita", "discard upload", {"dmo": "visit-pei", "file": name})]
    assert _audit(database, "dmo:visit-pei") == [
        ("rita", "upload", {"file": uploaded, "run": "run-confirm-1", "problem": None})]
    promote(database, local_object_store, instance, "visit-pei")
    with database.connect() as conn:
        after = conn.execute("SELECT count(*) FROM public.listing_info WHERE info_visible").fetchone()[0]
        job = conn.execute("SELECT stage, discarded_by FROM pipeline.jobs WHERE source_key = %s", (key,)).fetchone()
        staged = conn.execute("SELECT count(*) FROM staging.listings s JOIN pipeline.jobs j ON j.id = s.job_id "
                              "WHERE j.source_key = %s", (key,)).fetchone()[0]
        names = {r[0] for r in conn.execute("SELECT name FROM public.listings")}
    assert job == ("discarded", "rita") and staged == 0 and after == before
    assert "Georgetown Historic Inn" not in names


def test_a_stranger_cannot_reach_an_upload(web):
    with httpx.Client(base_url=web) as client:
        assert client.get("/upload/visit-pei/20260101T000000-x.csv").status_code == 303
