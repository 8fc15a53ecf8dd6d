"""The JSON API over real HTTP: API keys and their rate limit, filters, cursor pages, ETags, only
visible canonical listings; the admin API behind the login and CSRF token."""

from __future__ import annotations

import httpx

from sadie_pipeline.web.users import add_api_key
from sadie_pipeline_tests.web.conftest import PASSWORD
from sadie_pipeline_tests.web.data import add_dmo, add_listing
from sadie_pipeline_tests.web.server import logged_in


def _listings(database) -> dict[str, int]:
    with database.connect() as conn:
        dmo = add_dmo(conn, "pei")
        ids = {name: add_listing(conn, dmo, name, city=city)[0] for name, city in [
            ("Harbour Grill", "Charlottetown"), ("Island Inn", "Souris"), ("Red Sands Cafe", "Charlottetown")]}
        ids["Gone Pub"] = add_listing(conn, dmo, "Gone Pub", visible=False)[0]
        conn.execute("INSERT INTO public.listing_images (listing_info_id, image, rank) "
                     "SELECT id, 'https://img.example.com/a.jpg', 1 FROM public.listing_info")
        conn.execute("UPDATE public.locations SET lat = 46.35, lng = -62.25 WHERE city = 'Souris'")
    return ids


def test_listings_api_filters_pages_and_etags(web, database):
    ids = _listings(database)
    with database.connect() as conn:
        key = add_api_key(conn, "website")
    with httpx.Client(base_url=web, headers={"X-API-Key": key}) as api:
        everything = api.get("/v1/listings").json()
        names = [d["name"] for d in everything["data"]]
        assert names == ["Harbour Grill", "Island Inn", "Red Sands Cafe"]   # hidden ones never appear
        first = everything["data"][0]
        assert first["records"][0]["contact"]["email"] == "hi@example.com"
        # an image is served once the images step stored it (test_api_scoped.py): not before
        assert first["records"][0]["images"] == []
        assert [d["name"] for d in api.get("/v1/listings", params={"q": "sands"}).json()["data"]] == ["Red Sands Cafe"]
        assert len(api.get("/v1/listings", params={"city": "charlottetown"}).json()["data"]) == 2
        assert [d["name"] for d in api.get("/v1/listings", params={"bbox": "-62.5,46.3,-62.0,46.5"}).json()["data"]] \
            == ["Island Inn"]
        assert api.get("/v1/listings", params={"category": "hotel"}).json()["data"] == []
        assert api.get("/v1/listings", params={"updated_since": "2999-01-01T00:00:00Z"}).json()["data"] == []
        page1 = api.get("/v1/listings", params={"limit": 2}).json()
        page2 = api.get("/v1/listings", params={"limit": 2, "cursor": page1["next_cursor"]}).json()
        assert [d["id"] for d in page1["data"] + page2["data"]] == sorted(ids[n] for n in names)
        assert page2["next_cursor"] is None
        response = api.get("/v1/listings")
        again = api.get("/v1/listings", headers={"If-None-Match": response.headers["etag"]})
        assert again.status_code == 304
        assert api.get(f"/v1/listings/{ids['Gone Pub']}").status_code == 404
        assert api.get(f"/v1/listings/{ids['Island Inn']}").json()["location"]["city"] == "Souris"
        assert api.get("/v1/listings", params={"cursor": "not-a-cursor"}).status_code == 400


def test_each_key_has_its_rate_limit(web, database):
    with database.connect() as conn:
        slow, fast = add_api_key(conn, "slow", requests_per_minute=3), add_api_key(conn, "fast")
    with httpx.Client(base_url=web) as api:
        codes = [api.get("/v1/listings", headers={"X-API-Key": slow}).status_code for _ in range(4)]
        assert codes == [200, 200, 200, 429]
        assert int(api.get("/v1/listings", headers={"X-API-Key": slow}).headers["retry-after"]) > 0
        assert api.get("/v1/listings", headers={"X-API-Key": fast}).status_code == 200


def test_the_admin_api_takes_a_login_and_the_csrf_token(web, database):
    ids = _listings(database)
    listing = ids["Harbour Grill"]
    with logged_in(web, "rita", PASSWORD) as rita:
        session = rita.get("/v1/admin/session").json()
        assert session["user"] == "rita" and session["role"] == "reviewer"
        assert rita.post(f"/v1/admin/listings/{listing}/edit", json={"name": "Harbour Grille"}).status_code == 403
        edited = rita.post(f"/v1/admin/listings/{listing}/edit", json={"name": "Harbour Grille"},
                           headers={"X-CSRF-Token": session["csrf_token"]})
        assert edited.status_code == 200 and edited.json()["changed"] == {"name": ["Harbour Grill", "Harbour Grille"]}
        hidden = rita.post(f"/v1/admin/listings/{listing}/visibility", json={"visible": False},
                           headers={"X-CSRF-Token": session["csrf_token"]})
        assert hidden.json()["ok"]
        found = rita.get("/v1/admin/listings", params={"q": "grille"}).json()["data"]
        assert found[0]["listing_visible"] is False
        detail = rita.get(f"/v1/admin/listings/{listing}").json()
        assert detail["listing"]["manually_modified"] is True and detail["history"][0]["who"] == "rita"
    with logged_in(web, "vera", PASSWORD) as vera:
        token = vera.get("/v1/admin/session").json()["csrf_token"]
        assert vera.post(f"/v1/admin/listings/{listing}/edit", json={"name": "x"},
                         headers={"X-CSRF-Token": token}).status_code == 403
