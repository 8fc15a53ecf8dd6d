"""Accounts and messages over real HTTP (issue 30): the password policy, sessions ended by a password
reset or a change of access (and a role changed without a new password), one-time messages kept
in the session (a ?msg= link shows nothing), the menu by role, the hotel pages by grant, the
favicon, and an API that sets no cookie."""

from __future__ import annotations

import re

import httpx
import pytest

from sadie_pipeline.core.passwords import MIN_LENGTH, common_passwords, password_problem
from sadie_pipeline.web.users import UserError, add_api_key, add_user, authenticate
from sadie_pipeline_tests.web.conftest import PASSWORD
from sadie_pipeline_tests.web.data import add_dmo, add_listing
from sadie_pipeline_tests.web.server import logged_in, page_token

FLASH = re.compile(r'<p class="flash"[^>]*>([^<]*)')


def _flash(html: str) -> str | None:
    found = FLASH.search(html)
    return found.group(1).strip() if found else None


@pytest.mark.parametrize(("password", "why"), [
    ("x", "too short"), ("short pw", "too short"), ("password123", "most common"), ("Basketball", "most common"),
    ("1q2w3e4r5t", "most common"), ("aaaaaaaaaaaa", "too few"), ("abababababab", "too few")])
def test_weak_passwords_are_refused_with_the_reason(password, why):
    assert why in password_problem(password)


def test_good_passwords_pass_and_the_list_is_bundled():
    assert len(common_passwords()) == 10_000 and "123456" in common_passwords()
    assert password_problem(PASSWORD) is None and password_problem("Fjord-lantern 42") is None
    assert password_problem("x" * (MIN_LENGTH - 1)) is not None
    assert "user's name" in password_problem("ada.lovelace", "Ada.Lovelace")


def test_the_users_page_refuses_a_weak_password_and_keeps_the_old_one_on_a_role_change(web, database):
    with logged_in(web, "ada", PASSWORD) as admin:
        token = page_token(admin, "/users")
        weak = admin.post("/users", data={"name": "newbie", "password": "x", "role": "viewer", "csrf_token": token},
                          follow_redirects=True)
        assert "too short" in _flash(weak.text)
        common = admin.post("/users", data={"name": "newbie", "password": "password123", "role": "viewer",
                                            "csrf_token": token}, follow_redirects=True)
        assert "most common" in _flash(common.text)
        none = admin.post("/users", data={"name": "newbie", "role": "viewer", "csrf_token": token},
                          follow_redirects=True)
        assert "give a password" in _flash(none.text)
        # rita becomes an admin without a new password: her own still works
        promoted = admin.post("/users", data={"name": "rita", "role": "admin", "password": "", "csrf_token": token},
                              follow_redirects=True)
        assert _flash(promoted.text) == "user rita saved (password kept)"
    with database.connect() as conn:
        assert authenticate(conn, "newbie", "x") is None
        assert authenticate(conn, "rita", PASSWORD).role.label == "admin"
        # the saved change has its audit row, the refused ones none
        assert _audit(conn, "user:newbie") == []
        assert _audit(conn, "user:rita") == [("ada", "add user", {"role": "admin", "dmos": [], "grants": [],
                                                                   "password_set": False})]
        with pytest.raises(UserError, match="too short"):
            add_user(conn, "bob", "x", "viewer")


def test_a_password_reset_and_a_change_of_role_end_the_users_sessions(web, database):
    with logged_in(web, "rita", PASSWORD) as rita, logged_in(web, "ada", PASSWORD) as admin:
        assert rita.get("/review").status_code == 200
        token = page_token(admin, "/users")
        reset = admin.post("/users", data={"name": "rita", "password": "a new long passphrase", "role": "reviewer",
                                           "csrf_token": token})
        assert reset.status_code == 303
        assert rita.get("/review").status_code == 303          # the old cookie is over
        assert admin.get("/review").status_code == 200         # the admin's own session goes on
    with logged_in(web, "rita", "a new long passphrase") as rita, logged_in(web, "ada", PASSWORD) as admin:
        assert rita.get("/review").status_code == 200
        token = page_token(admin, "/users")
        # the same role and DMOs again ends nothing; a new role does
        admin.post("/users", data={"name": "rita", "role": "reviewer", "csrf_token": token})
        assert rita.get("/review").status_code == 200
        admin.post("/users", data={"name": "rita", "role": "viewer", "csrf_token": token})
        assert rita.get("/review").status_code == 303
        # an admin who changes their own role stays logged in, in this session only
        own = admin.post("/users", data={"name": "ada", "role": "admin", "password": "ada's fresh passphrase",
                                         "csrf_token": token}, follow_redirects=True)
        assert own.status_code == 200 and _flash(own.text) == "user ada saved"


def test_messages_travel_in_the_session_once_never_in_the_url(web, database):
    with logged_in(web, "ada", PASSWORD) as admin:
        lure = admin.get("/review", params={"msg": "Your session expired. Call IT and give them your password"})
        assert "Call IT" not in lure.text and _flash(lure.text) is None
        token = page_token(admin, "/users")
        saved = admin.post("/users", data={"name": "vera", "role": "viewer", "csrf_token": token})
        assert saved.status_code == 303 and "msg" not in saved.headers["location"]
        assert _flash(admin.get("/users").text) == "user vera saved (password kept)"
        assert _flash(admin.get("/users").text) is None         # a reload shows it no more


def test_the_menu_shows_what_the_role_may_open(web):
    with logged_in(web, "vera", PASSWORD) as viewer:
        page = viewer.get("/review").text
        assert 'href="/upload"' not in page and 'href="/users"' not in page and 'href="/listings"' in page
    with logged_in(web, "rita", PASSWORD) as reviewer:
        page = reviewer.get("/review").text
        assert 'href="/upload"' in page and 'href="/users"' not in page
    with logged_in(web, "ada", PASSWORD) as admin:
        assert 'href="/users"' in admin.get("/review").text


def test_hotel_pages_need_a_grant_for_a_user_limited_to_a_dmo(web, database):
    with database.connect() as conn:
        add_dmo(conn, "pei")
        add_user(conn, "pat", PASSWORD, "reviewer", ["pei"])
    with logged_in(web, "pat", PASSWORD) as pat:
        assert 'href="/hotels/reviews"' not in pat.get("/review").text
        assert pat.get("/hotels/reviews").status_code == 403
        assert pat.post("/hotels/reviews/1/merge", data={"csrf_token": page_token(pat)}).status_code == 403
    with database.connect() as conn:
        add_user(conn, "pat", None, "reviewer", ["pei"], grants=["hotels"])
    with logged_in(web, "pat", PASSWORD) as pat:
        assert 'href="/hotels/reviews"' in pat.get("/review").text
        assert pat.get("/hotels/reviews").status_code == 200
    with logged_in(web, "vera", PASSWORD) as viewer:   # a user of every DMO needs no grant
        assert viewer.get("/hotels/reviews").status_code == 200


def test_the_api_sets_no_cookie_and_pages_have_a_favicon(web, database):
    with database.connect() as conn:
        add_listing(conn, add_dmo(conn, "pei"), "Harbour Grill")
        key = add_api_key(conn, "site")
    with httpx.Client(base_url=web) as client:
        for response in (client.get("/v1/listings", headers={"X-API-Key": key}), client.get("/v1/listings"),
                         client.get("/v1/admin/session")):
            assert "set-cookie" not in response.headers, response.request.url
        assert client.get("/v1/listings", headers={"X-API-Key": key}).status_code == 200
        icon = client.get("/favicon.ico")
        assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
        assert "set-cookie" not in icon.headers
        assert '<link rel="icon" href="/static/favicon.svg"' in client.get("/login").text
    with logged_in(web, "vera", PASSWORD) as viewer:   # a logged-in API call keeps its session, unchanged
        session = viewer.get("/v1/admin/session")
        assert session.status_code == 200 and session.json()["user"] == "vera" and "set-cookie" not in session.headers


def test_removing_a_user_needs_their_name_typed(web, users, database):
    with logged_in(web, "ada", PASSWORD) as ada:
        token = page_token(ada, "/users")
        kept = ada.post("/users/vera/remove", data={"csrf_token": token}, follow_redirects=True)
        assert "not removed: type the name vera" in _flash(kept.text)
        assert authenticate_ok(database, "vera")
        gone = ada.post("/users/vera/remove", data={"csrf_token": token, "confirm": "vera"}, follow_redirects=True)
        assert _flash(gone.text) == "user vera removed"
        assert not authenticate_ok(database, "vera")
        with database.connect() as conn:
            add_dmo(conn, "pei")
        ada.post("/users", data={"name": "pia", "role": "viewer", "dmos": "pei", "grants": "hotels",
                                 "password": "a long enough passphrase", "csrf_token": token})
    with database.connect() as conn:
        assert _audit(conn, "user:vera") == [("ada", "remove user", {})]  # the refused removal left none
        assert _audit(conn, "user:pia") == [("ada", "add user", {"role": "viewer", "dmos": ["pei"],
                                                                  "grants": ["hotels"], "password_set": True})]


def _audit(conn, target: str) -> list[tuple]:
    return conn.execute("SELECT user_name, action, detail FROM pipeline.web_audit WHERE target = %s ORDER BY id",
                        (target,)).fetchall()


def authenticate_ok(database, name: str) -> bool:
    with database.connect() as conn:
        return conn.execute("SELECT count(*) FROM pipeline.web_users WHERE name = %s", (name,)).fetchone()[0] == 1


def test_a_sales_user_sees_leads_and_nothing_of_the_listings_side(web, database):
    with database.connect() as conn:
        add_dmo(conn, "pei")
        add_user(conn, "sam", PASSWORD, "sales")
        with pytest.raises(UserError, match="sales user"):
            add_user(conn, "sid", PASSWORD, "sales", ["pei"])
    with logged_in(web, "sam", PASSWORD) as sam:
        home = sam.get("/", follow_redirects=False)
        assert home.status_code in (302, 303) and home.headers["location"].endswith("/leads")
        menu = sam.get("/leads").text
        assert 'href="/leads"' in menu and 'href="/spend"' in menu
        assert not any(f'href="{p}"' in menu for p in ("/review", "/listings", "/sources", "/upload", "/jobs"))
        for path in ("/review", "/listings", "/sources", "/jobs", "/upload", "/duplicates", "/hotels/reviews",
                     "/users", "/v1/admin/listings"):
            assert sam.get(path).status_code == 403, path
        assert sam.post("/review/1/approve", data={"csrf_token": page_token(sam, "/leads")}).status_code == 403
    with logged_in(web, "vera", PASSWORD) as viewer:  # a listings user of every DMO reads leads, sales acts
        assert 'href="/leads"' in viewer.get("/review").text
