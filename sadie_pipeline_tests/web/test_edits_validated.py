"""Listing edits held to the field rules (core/listing_fields.py) over real HTTP, on one app served for
the whole module: refused values come back as field errors on the form or in the admin API and are
never stored; a field is cleared only explicitly; the phone's international form follows the phone;
hostile values written by every path (the form, the admin API, an import, rows of an earlier release)
never reach a read path (the public API, the admin API, the listing page); arbitrary text never makes
a 500. The listing page: approved deletions, readable history, DMO scope, thumbnails."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from PIL import Image

from sadie_pipeline.core import listing_fields as rules
from sadie_pipeline.core.categories import VOCABULARY
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore
from sadie_pipeline.web.users import add_api_key, add_user
from sadie_pipeline_tests.conftest import _truncate_all
from sadie_pipeline_tests.listings.helpers import import_file, promote, register, write_csv
from sadie_pipeline_tests.web.conftest import PASSWORD
from sadie_pipeline_tests.web.data import add_dmo, add_job, add_listing
from sadie_pipeline_tests.web.server import logged_in, page_token, serving

HOSTILE = {"email": "not-an-email", "local_phone": "call us maybe", "website_url": "javascript:alert(4)"}
URL_KEYS = ("website_url", "facebook_url", "instagram_url", "twitter_url", "tripadvisor_url")


@dataclass(frozen=True)
class Site:
    base: str
    database: Database
    store: ObjectStore
    api_key: str


@pytest.fixture(scope="module")
def site(pg_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """One app for the module's tests (each makes its own listings): users, DMOs pei and halifax, a key."""
    _truncate_all(pg_url)
    database = Database(url=pg_url)
    store = ObjectStore(local_root=str(tmp_path_factory.mktemp("objects")))
    with database.connect() as conn:
        add_user(conn, "ada", PASSWORD, "admin")
        add_user(conn, "rita", PASSWORD, "reviewer")
        add_dmo(conn, "pei")
        add_dmo(conn, "halifax")
        add_user(conn, "pat", PASSWORD, "reviewer", ["pei"])
        key = add_api_key(conn, "website")
    with serving(database, store) as base:
        yield Site(base, database, store, key)


def _listing(site: Site, name: str = "Harbour Grill", dmo: str = "pei") -> tuple[int, int]:
    with site.database.connect() as conn:
        dmo_id = conn.execute("SELECT id FROM public.dmos WHERE slug = %s", (dmo,)).fetchone()[0]
        listing, info = add_listing(conn, dmo_id, name)
        conn.execute("UPDATE public.contact_info c SET local_phone = '(902) 555-0100', "
                     "international_phone = '+19025550100' FROM public.listing_info li "
                     "WHERE li.id = %s AND c.id = li.contact_info_id", (info,))  # as an import stores them
    return listing, info


def _stored(site: Site, listing: int) -> dict[str, Any]:
    with site.database.connect() as conn:
        cur = conn.execute(
            "SELECT l.name, l.category, loc.address1, loc.city, loc.state, loc.zip, loc.lat, loc.lng, li.description, "
            "c.email, c.local_phone, c.international_phone, c.website_url FROM public.listings l "
            "LEFT JOIN public.locations loc ON loc.id = l.location_id "
            "JOIN public.listing_info li ON li.listing_id = l.id "
            "LEFT JOIN public.contact_info c ON c.id = li.contact_info_id WHERE l.id = %s ORDER BY li.id LIMIT 1",
            (listing,))
        return dict(zip([d.name for d in cur.description], cur.fetchone()))


def _assert_valid(stored: dict[str, Any]) -> None:
    """Every stored field is one the rules accept as it is."""
    assert rules.name(stored["name"]) == stored["name"]
    assert stored["category"] is None or stored["category"] in VOCABULARY
    for axis in ("lat", "lng"):
        assert stored[axis] is None or rules.coordinate(stored[axis], axis) == stored[axis]
    assert (stored["lat"] is None) == (stored["lng"] is None)
    for f in ("address1", "city", "state", "zip", "description"):
        assert stored[f] is None or rules.text(stored[f], f) == stored[f]
    assert stored["email"] is None or rules.email(stored["email"]) == stored["email"]
    assert stored["website_url"] is None or rules.web_url(stored["website_url"]) == stored["website_url"]
    if stored["local_phone"] is not None:
        phone = rules.phone(stored["local_phone"])
        assert (phone.local, phone.international) == (stored["local_phone"], stored["international_phone"])
    else:
        assert stored["international_phone"] is None


def _admin(client: httpx.Client) -> dict[str, str]:
    return {"X-CSRF-Token": client.get("/v1/admin/session").json()["csrf_token"]}


def _served_urls(payload: Any) -> Iterator[str]:
    """Every URL an API payload serves (contacts' URL fields and images)."""
    if isinstance(payload, dict):
        for k, v in payload.items():
            if k in URL_KEYS and v is not None:
                yield v
            elif k == "images" and isinstance(v, list):
                yield from (im if isinstance(im, str) else im["url"] for im in v if im and (
                    isinstance(im, str) or im["url"]))
            else:
                yield from _served_urls(v)
    elif isinstance(payload, list):
        for v in payload:
            yield from _served_urls(v)


def _assert_safe_reads(site: Site, client: httpx.Client, listing: int) -> None:
    """The public API, the admin API and the listing page serve nothing the rules refuse."""
    with httpx.Client(base_url=site.base, headers={"X-API-Key": site.api_key}) as api:
        public = api.get(f"/v1/listings/{listing}")
    admin = client.get(f"/v1/admin/listings/{listing}")
    html = client.get(f"/listings/{listing}").text.lower()
    assert admin.status_code == 200 and public.status_code in (200, 404)
    payloads = [admin.json()] + ([public.json()] if public.status_code == 200 else [])
    for payload in payloads:
        urls = list(_served_urls(payload["records"]))
        assert all(url.startswith(("http://", "https://")) and rules.served_url(url) for url in urls), urls
        for r in payload["records"]:
            contact = r.get("contact", r)
            for f, rule in (("email", rules.email), ("local_phone", rules.phone), ("international_phone", rules.phone)):
                assert contact[f] is None or rule(contact[f])
        served = json.dumps([[r.get("contact", r)[f] for f in ("email", "local_phone", "international_phone",
                                                               *URL_KEYS)] + r["images"] for r in payload["records"]])
        assert not any(bad in served.lower() for bad in ("call us maybe", "not-an-email", "javascript:")), served
    assert not re.search(r"(href|src)\s*=\s*[\"']?\s*(javascript|data|vbscript):", html)


def test_the_form_refuses_bad_values_beside_each_field_and_stores_nothing(site):
    listing, info = _listing(site)
    before = _stored(site, listing)
    with logged_in(site.base, "ada", PASSWORD) as ada:
        token = page_token(ada, f"/listings/{listing}")
        refused = ada.post(f"/listings/{listing}/edit", data={
            "name": "   ", "category": "resturant.bistro", "lat": "95", "lng": "-200", "csrf_token": token})
        assert refused.status_code == 422
        page = refused.text
        assert "a listing needs a name" in page and "did you mean restaurant?" in page
        assert "must be between -90 and 90" in page and "must be between -180 and 180" in page
        assert 'value="resturant.bistro"' in page and 'value="95"' in page  # what was typed, to correct
        assert ada.post(f"/listings/{listing}/edit", data={"lat": "999", "csrf_token": token}).status_code == 422
        record = ada.post(f"/listings/{listing}/records/{info}/edit", data={**HOSTILE, "csrf_token": token})
        assert record.status_code == 422
        assert "must have an @-sign" in record.text and "not a phone number" in record.text
        assert "only http:// and https:// addresses are allowed" in record.text
        assert 'value="javascript:alert(4)"' in record.text and 'href="javascript' not in record.text
    assert _stored(site, listing) == before


def test_a_field_is_cleared_only_when_asked_and_the_history_reads_plainly(site):
    listing, info = _listing(site)
    with logged_in(site.base, "rita", PASSWORD) as rita:
        token = page_token(rita, f"/listings/{listing}")
        kept = rita.post(f"/listings/{listing}/records/{info}/edit",
                         data={"email": "", "description": "Anne's café.", "csrf_token": token}, follow_redirects=True)
        assert "saved: description" in kept.text and _stored(site, listing)["email"] == "hi@example.com"
        cleared = rita.post(f"/listings/{listing}/records/{info}/edit",
                            data={"email": "", "clear": "email", "csrf_token": token}, follow_redirects=True)
        assert "saved: email (cleared)" in cleared.text
        rita.post(f"/listings/{listing}/edit", data={"name": "Anne's Grill", "clear": ["lat", "lng"],
                                                     "csrf_token": token})
        history = rita.get(f"/listings/{listing}").text
    stored = _stored(site, listing)
    assert (stored["email"], stored["description"], stored["lat"], stored["name"]) == \
        (None, "Anne's café.", None, "Anne's Grill")
    rows = re.findall(r"<tr><td>[^<]*</td><td>edit</td><td>([^<]*)</td><td>rita</td>\s*<td class=\"small\">(.*?)</td>",
                      history, re.S)
    lines = {line: dmo for dmo, cell in rows for line in cell.split("<br>")}
    assert lines["email: hi@example.com → (empty)"] == "pei"
    assert lines["description: A place. → Anne&#39;s café."] == "pei"
    assert lines["name: Harbour Grill → Anne&#39;s Grill"] == "whole listing"
    assert lines["lat: 46.23000000 → (empty)"] == "whole listing"
    assert "\\u0027" not in history


def test_a_new_phone_brings_its_international_form_to_the_api(site):
    listing, info = _listing(site)
    with logged_in(site.base, "rita", PASSWORD) as rita:
        token = page_token(rita, f"/listings/{listing}")
        rita.post(f"/listings/{listing}/records/{info}/edit", data={"local_phone": "902.555.0177", "csrf_token": token})
    with httpx.Client(base_url=site.base, headers={"X-API-Key": site.api_key}) as api:
        contact = api.get(f"/v1/listings/{listing}").json()["records"][0]["contact"]
    assert (contact["local_phone"], contact["international_phone"]) == ("(902) 555-0177", "+19025550177")


def test_the_admin_api_keeps_to_the_same_rules(site):
    listing, info = _listing(site)
    with logged_in(site.base, "rita", PASSWORD) as rita:
        headers = _admin(rita)
        bad = rita.post(f"/v1/admin/listings/{listing}/edit", headers=headers,
                        json={"name": "  ", "lat": 999, "category": "resturant.bistro"})
        assert bad.status_code == 422 and set(bad.json()["errors"]) == {"name", "lat", "category"}
        record = rita.post(f"/v1/admin/listings/{listing}/records/{info}/edit", headers=headers, json=HOSTILE)
        assert record.status_code == 422 and set(record.json()["errors"]) == set(HOSTILE)
        unknown = rita.post(f"/v1/admin/listings/{listing}/edit", headers=headers, json={"nmae": "x"})
        assert unknown.status_code == 422
        assert rita.post(f"/v1/admin/listings/{listing}/edit", headers=headers,
                         json={"clear": ["name"]}).status_code == 422
        cleared = rita.post(f"/v1/admin/listings/{listing}/records/{info}/edit", headers=headers,
                            json={"clear": ["website_url"], "local_phone": "(902) 555-0177"})
        assert cleared.status_code == 200
        assert cleared.json()["changed"] == {"website_url": ["https://example.com", None],
                                             "local_phone": ["(902) 555-0100", "(902) 555-0177"]}
    stored = _stored(site, listing)
    assert (stored["website_url"], stored["international_phone"]) == (None, "+19025550177")
    assert (stored["name"], stored["lat"]) == ("Harbour Grill", Decimal("46.23000000"))


def _hostile_import(site: Site, instance, tmp_path) -> int:
    """A DMO file with hostile values; returns the listing of the row that is imported."""
    columns = ["Name", "Address", "City", "Phone", "Email", "Website", "Facebook", "Images"]
    config = {"transform": {"map_fields": {
        "listings.name": "Name", "locations.address1": "Address", "locations.city": "City",
        "contact_info.local_phone": "Phone", "contact_info.email": "Email", "contact_info.website_url": "Website",
        "contact_info.facebook_url": "Facebook", "listing_images.image": "Images"}},
        "validate": {"data_types": {"contact_info.email": "text", "contact_info.local_phone": "text"},
                     "max_error_rate": 0.9}}
    register(site.database, instance, "hostile", config)
    path = write_csv(tmp_path / "hostile.csv", [
        {"Name": "Kept Cafe", "Address": "1 Queen St", "City": "Charlottetown", "Phone": "call us maybe",
         "Email": "not-an-email", "Website": "https://keptcafe.example.com",
         "Images": "javascript:alert(1)|https://img.example.com/ok.jpg"},
        {"Name": "Script Bar", "Address": "2 Queen St", "City": "Charlottetown", "Website": "javascript:alert(4)"},
        {"Name": "Scheme Pub", "Address": "3 Queen St", "City": "Charlottetown",
         "Facebook": "javascript://%0aalert(1)"}], columns)
    import_file(site.database, site.store, instance, "hostile", path)
    promote(site.database, site.store, instance, "hostile")
    with site.database.connect() as conn:
        names = [r[0] for r in conn.execute("SELECT name FROM public.listings WHERE name IN "
                                            "('Kept Cafe', 'Script Bar', 'Scheme Pub')")]
        assert names == ["Kept Cafe"], names  # the rows with a script for an address are refused
        return conn.execute("SELECT id FROM public.listings WHERE name = 'Kept Cafe'").fetchone()[0]


def test_hostile_values_through_every_write_path_never_reach_a_read_path(site, instance, tmp_path):
    by_form, form_info = _listing(site, "Form Cafe")
    by_api, api_info = _listing(site, "Api Cafe")
    legacy, legacy_info = _listing(site, "Old Cafe")
    with site.database.connect() as conn:  # as an earlier release saved them
        conn.execute("UPDATE public.contact_info c SET email = %s, local_phone = %s, website_url = %s, "
                     "facebook_url = 'data:text/html,x', international_phone = 'call us maybe' "
                     "FROM public.listing_info li WHERE li.id = %s AND c.id = li.contact_info_id",
                     (HOSTILE["email"], HOSTILE["local_phone"], HOSTILE["website_url"], legacy_info))
        conn.execute("INSERT INTO public.listing_images (listing_info_id, image, rank, variants) "
                     "VALUES (%s, 'javascript:alert(2)', 1, '{\"thumb\": \"javascript:alert(3)\"}')", (legacy_info,))
    imported = _hostile_import(site, instance, tmp_path)
    with logged_in(site.base, "ada", PASSWORD) as ada:
        token = page_token(ada, f"/listings/{by_form}")
        assert ada.post(f"/listings/{by_form}/records/{form_info}/edit",
                        data={**HOSTILE, "csrf_token": token}).status_code == 422
        assert ada.post(f"/v1/admin/listings/{by_api}/records/{api_info}/edit", headers=_admin(ada),
                        json=HOSTILE).status_code == 422
        for listing in (by_form, by_api, legacy, imported):
            _assert_safe_reads(site, ada, listing)
        page = ada.get(f"/listings/{legacy}").text
        assert "refused by the field rules: not served" in page  # a person sees what to correct
    with httpx.Client(base_url=site.base, headers={"X-API-Key": site.api_key}) as api:
        kept = api.get(f"/v1/listings/{imported}").json()["records"][0]
    # the API serves stored copies only (issue 33): none before the images step, a javascript: one never
    assert kept["images"] == [] and kept["contact"]["local_phone"] is None


TEXT = st.one_of(st.text(max_size=30), st.sampled_from(
    ["   ", "javascript:alert(4)", "JAVASCRIPT://%0a1", "95", "-200", "999", "1e400", "NaN", "a@b", "x\x00y",
     "(902) 555-0177", "lodging.hotel", "https://ok.example.com/p", "hi@example.com", "46.5", "-63.2"]))
LISTING_EDIT = st.fixed_dictionaries({}, optional={f: TEXT for f in rules.ListingField})
RECORD_EDIT = st.fixed_dictionaries({}, optional={f: TEXT for f in rules.RecordField})
CLEARS = st.lists(st.sampled_from([*rules.ListingField, *rules.RecordField]), max_size=3, unique=True)


@pytest.fixture(scope="module")
def fuzzed(site: Site) -> Iterator[tuple[int, int, httpx.Client]]:
    listing, info = _listing(site, "Fuzz Cafe")
    with logged_in(site.base, "ada", PASSWORD) as ada:
        yield listing, info, ada


# no shrinking: each example is a few requests to the app, and the example as found says enough
@settings(max_examples=60, deadline=None, database=None, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow])
@given(listing_edit=LISTING_EDIT, record_edit=RECORD_EDIT, clear=CLEARS, through_api=st.booleans())
def test_arbitrary_text_never_fails_nor_stores_a_refused_value(site, fuzzed, listing_edit, record_edit, clear,
                                                               through_api):
    listing, info, ada = fuzzed
    if through_api:
        headers = _admin(ada)
        one = ada.post(f"/v1/admin/listings/{listing}/edit", headers=headers,
                       json={**listing_edit, "clear": [c for c in clear if c in rules.ListingField]})
        two = ada.post(f"/v1/admin/listings/{listing}/records/{info}/edit", headers=headers,
                       json={**record_edit, "clear": [c for c in clear if c in rules.RecordField]})
        assert one.status_code in (200, 422) and two.status_code in (200, 422), (one.text, two.text)
    else:
        token = page_token(ada, f"/listings/{listing}")
        one = ada.post(f"/listings/{listing}/edit", data={**listing_edit, "clear": clear, "csrf_token": token})
        two = ada.post(f"/listings/{listing}/records/{info}/edit",
                       data={**record_edit, "clear": clear, "csrf_token": token})
        assert one.status_code in (303, 422) and two.status_code in (303, 422), (one.text[:300], two.text[:300])
    _assert_valid(_stored(site, listing))
    _assert_safe_reads(site, ada, listing)


def test_a_dmo_limited_reviewer_keeps_to_its_dmo_on_a_shared_listing(site):
    listing, mine = _listing(site, "Shared Inn", "pei")
    with site.database.connect() as conn:
        halifax = conn.execute("SELECT id FROM public.dmos WHERE slug = 'halifax'").fetchone()[0]
        theirs = conn.execute("INSERT INTO public.listing_info (listing_id, dmo_id, description, info_visible, "
                              "info_status) VALUES (%s, %s, 'Theirs.', true, 'active') RETURNING id",
                              (listing, halifax)).fetchone()[0]
    with logged_in(site.base, "ada", PASSWORD) as ada:
        token = page_token(ada, f"/listings/{listing}")
        ada.post(f"/listings/{listing}/records/{theirs}/edit", data={"description": "Halifax's own words.",
                                                                      "csrf_token": token})
    with logged_in(site.base, "pat", PASSWORD) as pat:
        token = page_token(pat, f"/listings/{listing}")
        page = pat.get(f"/listings/{listing}").text
        assert "Halifax&#39;s own words" not in page and "halifax" not in page.split('id="history"')[1]
        assert "Edit the listing" not in page and "Hide for pei" in page
        assert pat.post(f"/listings/{listing}/edit", data={"name": "Mine Now", "csrf_token": token}).status_code == 403
        assert pat.post(f"/listings/{listing}/records/{theirs}/edit",
                        data={"description": "x", "csrf_token": token}).status_code == 403
        assert pat.post(f"/listings/{listing}/merge", data={"into": listing, "csrf_token": token}).status_code == 403
        assert pat.post(f"/v1/admin/listings/{listing}/edit", headers=_admin(pat), json={"name": "x"}).status_code == 403
        history = pat.get(f"/v1/admin/listings/{listing}").json()["history"]
        assert all(h["dmo"] in (None, "pei") for h in history)
        hidden = pat.post(f"/listings/{listing}/visibility", data={"visible": "false", "csrf_token": token},
                          follow_redirects=True)
        assert "hidden for pei only" in hidden.text
        assert pat.post(f"/listings/{listing}/records/{mine}/edit",
                        data={"description": "Ours.", "csrf_token": token}).status_code == 303
    with site.database.connect() as conn:
        listing_visible = conn.execute("SELECT listing_visible FROM public.listings WHERE id = %s",
                                       (listing,)).fetchone()[0]
        records = dict(conn.execute("SELECT id, info_visible FROM public.listing_info WHERE listing_id = %s",
                                    (listing,)).fetchall())
    assert listing_visible and records == {mine: False, theirs: True}


def test_the_page_shows_a_deletion_approved_and_awaiting_promotion(site):
    listing, info = _listing(site, "Closing Cafe")
    with site.database.connect() as conn:
        pei = conn.execute("SELECT id FROM public.dmos WHERE slug = 'pei'").fetchone()[0]
        job = add_job(conn, pei)
        row = conn.execute(
            "INSERT INTO staging.listings (job_id, dmo_id, source_id, name, target_listing_id, target_listing_info_id, "
            "action, l_action, li_action, row_kind, review_status, ok_to_promote) VALUES (%s, %s, 'src-x', "
            "'Closing Cafe', %s, %s, 'delete', 'delete', 'delete', 'deletion', 'approved', true) RETURNING id",
            (job, pei, listing, info)).fetchone()[0]
        conn.execute("INSERT INTO pipeline.review_decisions (stage_row_id, job_id, dmo_id, action, decision, "
                     "decided_by) VALUES (%s, %s, %s, 'delete', 'approved', 'ada')", (row, job, pei))
    with logged_in(site.base, "rita", PASSWORD) as rita:
        page = rita.get(f"/listings/{listing}").text
        assert f'id="approved-deletion-{row}"' in page and "Deletion approved by ada" in page
        assert "will be hidden by the next promotion of pei" in page
        with site.database.connect() as conn:
            conn.execute("UPDATE staging.listings SET promoted_at = now() WHERE id = %s", (row,))
        assert "Deletion approved" not in rita.get(f"/listings/{listing}").text


def _jpeg() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (20, 10), (200, 30, 30)).save(out, "JPEG")
    return out.getvalue()


def test_images_show_as_their_stored_thumbnails(site):
    listing, info = _listing(site, "Pictured Cafe")
    theirs, their_info = _listing(site, "Halifax Cafe", "halifax")
    thumb = site.store.put_bytes("images/pei/thumb-1.jpg", _jpeg(), content_type="image/jpeg")
    with site.database.connect() as conn:
        image = conn.execute("INSERT INTO public.listing_images (listing_info_id, image, rank, variants) VALUES "
                             "(%s, 'https://img.example.com/a.jpg', 1, %s) RETURNING id",
                             (info, json.dumps({"thumb": thumb, "medium": thumb}))).fetchone()[0]
        plain = conn.execute("INSERT INTO public.listing_images (listing_info_id, image, rank) VALUES "
                             "(%s, 'https://img.example.com/b.jpg', 2) RETURNING id", (info,)).fetchone()[0]
        other = conn.execute("INSERT INTO public.listing_images (listing_info_id, image, rank, variants) VALUES "
                             "(%s, 'https://img.example.com/c.jpg', 1, %s) RETURNING id",
                             (their_info, json.dumps({"thumb": thumb}))).fetchone()[0]
    with logged_in(site.base, "pat", PASSWORD) as pat:
        page = pat.get(f"/listings/{listing}").text
        assert f'<img src="/listings/images/{image}/thumb"' in page
        assert '<img src="https://img.example.com/b.jpg"' in page and plain
        served = pat.get(f"/listings/images/{image}/thumb")
        assert served.status_code == 200 and served.headers["content-type"] == "image/jpeg"
        assert served.content == _jpeg()
        assert pat.get(f"/listings/images/{other}/thumb").status_code == 403  # another DMO's
        assert pat.get("/listings/images/999999/thumb").status_code == 404


def test_a_nameless_listing_opens_from_the_list_and_soft_deletes_name_their_columns(site):
    with site.database.connect() as conn:
        pei = conn.execute("SELECT id FROM public.dmos WHERE slug = 'pei'").fetchone()[0]
        listing, _ = add_listing(conn, pei, "Gone Nameless", visible=False)
        conn.execute("UPDATE public.listings SET name = '   ' WHERE id = %s", (listing,))  # an earlier release's
    with logged_in(site.base, "rita", PASSWORD) as rita:
        found = rita.get("/listings", params={"dmo": "pei"}).text
        assert f'<a href="/listings/{listing}">(no name)</a>' in found
        deleted = rita.get("/listings/deleted").text
        head = re.search(r"<thead>(.*?)</thead>", deleted, re.S).group(1)
        assert re.findall(r"<th>([^<]*)</th>", head) == ["name", "city", "DMO", "since (UTC)", "last seen",
                                                         "listing now", ""]
        assert f'<a href="/listings/{listing}">(no name)</a>' in deleted
