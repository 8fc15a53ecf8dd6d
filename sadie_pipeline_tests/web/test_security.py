"""Permissions, CSRF, sessions and escaping over real HTTP (uvicorn on 127.0.0.1)."""

from __future__ import annotations

import time

import httpx
import pytest
from itsdangerous import TimestampSigner, URLSafeTimedSerializer

from sadie_pipeline.web.users import add_api_key, remove_user
from sadie_pipeline_tests.web.conftest import PASSWORD
from sadie_pipeline_tests.web.data import add_dmo, add_job, add_listing, add_pending
from sadie_pipeline_tests.web.server import csrf_of, logged_in, page_token, serving

PAGES = ["/", "/review", "/upload", "/sources", "/jobs", "/listings", "/listings/deleted", "/listings/1",
         "/duplicates", "/bridge", "/hotels/reviews", "/deadletters", "/health", "/users", "/docs", "/openapi.json",
         "/jobs/1", "/sources/x"]


def test_every_page_but_login_redirects_a_stranger_to_the_login_page(web):
    with httpx.Client(base_url=web) as client:
        for path in PAGES:
            response = client.get(path)
            assert response.status_code == 303, path
            assert response.headers["location"].startswith("/login?next="), path
        login = client.get("/login")
    assert login.status_code == 200 and 'name="username"' in login.text and 'name="password"' in login.text
    assert 'name="csrf_token"' in login.text


def test_the_api_answers_401_without_a_key_or_a_login(web, database):
    with database.connect() as conn:
        key = add_api_key(conn, "site")
    with httpx.Client(base_url=web) as client:
        assert client.get("/v1/listings").status_code == 401
        assert client.get("/v1/listings", headers={"X-API-Key": "sk_wrong"}).status_code == 401
        assert client.get("/v1/admin/listings").status_code == 401
        assert client.get("/v1/admin/session").status_code == 401
        assert client.post("/v1/admin/listings/1/unmerge").status_code in (401, 403)
        assert client.get("/v1/listings", headers={"X-API-Key": key}).status_code == 200


@pytest.mark.parametrize(("path", "data"), [
    ("/review/bulk", {"decision": "approve", "ids": "1"}),
    ("/review/1/approve", {}),
    ("/review/promote", {"dmo": "pei"}),
    ("/listings/1/edit", {"name": "Renamed"}),
    ("/listings/1/visibility", {"visible": "false"}),
    ("/hotels/reviews/1/merge", {}),
    ("/deadletters/requeue", {"ids": "1"}),
    ("/sources/pei/config", {"config": "{}"}),
    ("/users", {"name": "x", "password": "y", "role": "admin"}),
])
def test_a_viewer_post_gets_403_even_with_a_valid_csrf_token(web, database, path, data):
    with database.connect() as conn:
        dmo = add_dmo(conn, "pei")
        add_listing(conn, dmo, "Harbour Grill")
    with logged_in(web, "vera", PASSWORD) as viewer:
        token = page_token(viewer)
        response = viewer.post(path, data={**data, "csrf_token": token})
    assert response.status_code == 403, (path, response.text[:300])


def test_a_reviewer_may_not_edit_configs_or_users(web, database):
    with database.connect() as conn:
        add_dmo(conn, "pei")
    with logged_in(web, "rita", PASSWORD) as reviewer:
        token = page_token(reviewer)
        assert reviewer.post("/sources/pei/config", data={"config": "{}", "csrf_token": token}).status_code == 403
        assert reviewer.post("/users", data={"name": "x", "password": "y", "role": "admin",
                                             "csrf_token": token}).status_code == 403


def test_a_post_without_a_valid_csrf_token_gets_403(web, database):
    with database.connect() as conn:
        dmo = add_dmo(conn, "pei")
        job = add_job(conn, dmo)
        row = add_pending(conn, job, dmo, "Harbour Grill")
    with logged_in(web, "rita", PASSWORD) as reviewer, logged_in(web, "ada", PASSWORD) as other:
        others_token = page_token(other)
        assert reviewer.post(f"/review/{row}/approve").status_code == 403
        assert reviewer.post(f"/review/{row}/approve", data={"csrf_token": "forged"}).status_code == 403
        assert reviewer.post(f"/review/{row}/approve", data={"csrf_token": others_token}).status_code == 403
        assert reviewer.post(f"/review/{row}/approve", headers={"X-CSRF-Token": "forged"}).status_code == 403
        with database.connect() as conn:
            assert conn.execute("SELECT review_status FROM staging.listings WHERE id = %s", (row,)).fetchone()[0] == "pending"
        # the same request with the session's token goes through, and records who and when
        ok = reviewer.post(f"/review/{row}/approve", headers={"X-CSRF-Token": page_token(reviewer)})
        assert ok.status_code == 200 and "approved" in ok.text and "rita" in ok.text
    with database.connect() as conn:
        by, at = conn.execute("SELECT decided_by, decided_at FROM pipeline.review_decisions WHERE stage_row_id = %s",
                              (row,)).fetchone()
    assert by == "rita" and at is not None


def test_a_login_without_the_form_token_is_refused(web):
    with httpx.Client(base_url=web) as client:
        response = client.post("/login", data={"username": "ada", "password": PASSWORD})
    assert response.status_code == 403


def test_names_such_as_a_script_tag_render_as_text(web, database):
    evil = "<script>alert(1)</script>"
    with database.connect() as conn:
        dmo = add_dmo(conn, "pei", name=evil)
        listing, _ = add_listing(conn, dmo, evil, city=evil)
        job = add_job(conn, dmo)
        add_pending(conn, job, dmo, evil, target=listing)
    with logged_in(web, "vera", PASSWORD) as viewer:
        for path in ("/sources", "/sources/pei", f"/listings/{listing}", "/listings?q=script", "/review", f"/jobs/{job}"):
            html = viewer.get(path).text
            assert "<script>alert(1)</script>" not in html, path
            assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html, path


def test_the_session_cookie_is_signed_httponly_samesite_and_expires(web, database):
    with logged_in(web, "vera", PASSWORD) as viewer:
        assert viewer.get("/review").status_code == 200
        cookie = viewer.cookies.get("sadie_session")
        tampered = cookie[:-2] + ("AA" if not cookie.endswith("AA") else "BB")
    with httpx.Client(base_url=web) as client:
        response = client.get("/login")
        header = response.headers["set-cookie"].lower()
        assert "httponly" in header and "samesite=lax" in header and "max-age=" in header
        client.cookies.set("sadie_session", tampered)
        assert client.get("/review").status_code == 303


def test_an_expired_or_removed_users_session_is_over(database, local_object_store, users):
    secret = "expiry-secret-" + "y" * 32

    class LongAgo(TimestampSigner):
        def get_timestamp(self) -> int:
            return int(time.time()) - 2 * 60 * 60

    with serving(database, local_object_store, secret_key=secret, session_minutes=60) as base:
        with database.connect() as conn:
            user_id = conn.execute("SELECT id FROM pipeline.web_users WHERE name = 'ada'").fetchone()[0]
        old = URLSafeTimedSerializer(secret, salt="sadie-web-session", signer=LongAgo).dumps(
            {"u": user_id, "c": "token", "i": 0})
        with httpx.Client(base_url=base, cookies={"sadie_session": old}) as client:
            assert client.get("/review").status_code == 303   # two hours old, sessions last one
        with logged_in(base, "ada", PASSWORD) as admin:
            assert admin.get("/review").status_code == 200
            with database.connect() as conn:
                remove_user(conn, "ada")
            assert admin.get("/review").status_code == 303


def test_failed_logins_are_throttled(web):
    with httpx.Client(base_url=web) as client:
        token = csrf_of(client.get("/login").text)
        for _ in range(5):
            bad = client.post("/login", data={"username": "ada", "password": "nope", "csrf_token": token})
            assert bad.status_code == 401
        blocked = client.post("/login", data={"username": "ada", "password": PASSWORD, "csrf_token": token})
    assert blocked.status_code == 429 and "too many failed logins" in blocked.text


def test_login_only_sends_back_to_this_site(web):
    with httpx.Client(base_url=web) as client:
        token = csrf_of(client.get("/login").text)
        response = client.post("/login", data={"username": "ada", "password": PASSWORD, "csrf_token": token,
                                               "next": "//evil.example/x"})
    assert response.status_code == 303 and response.headers["location"] == "/"


def test_trusted_header_mode_takes_the_proxys_user(database, local_object_store, users):
    with serving(database, local_object_store, auth_header="X-Forwarded-User") as base:
        with httpx.Client(base_url=base) as client:
            assert client.get("/review", headers={"X-Forwarded-User": "rita"}).status_code == 200
            assert client.get("/review", headers={"X-Forwarded-User": "mallory"}).status_code == 303
            assert client.get("/review").status_code == 303


def test_a_user_limited_to_a_dmo_sees_and_decides_only_its_rows(web, database):
    from sadie_pipeline.web.users import add_user

    with database.connect() as conn:
        pei, other = add_dmo(conn, "pei"), add_dmo(conn, "halifax")
        mine = add_pending(conn, add_job(conn, pei), pei, "Island Grill")
        theirs = add_pending(conn, add_job(conn, other), other, "Harbour Pub")
        add_user(conn, "pat", PASSWORD, "reviewer", ["pei"])
    with logged_in(web, "pat", PASSWORD) as pat:
        page = pat.get("/review").text
        assert "Island Grill" in page and "Harbour Pub" not in page
        assert pat.get("/review?dmo=halifax").status_code == 403
        token = page_token(pat)
        assert pat.post(f"/review/{theirs}/approve", data={"csrf_token": token}).status_code == 403
        assert pat.post(f"/review/{mine}/approve", data={"csrf_token": token}).status_code == 200
