"""The listings API per DMO over real HTTP (issue 33, apps: clean data per DMO): a DMO's key reads the
listings that DMO shows, with its visibility and its records only; a key of every DMO reads them all;
an archived listing is read by no key; images are the stored copies (downloaded from the sandbox's
image host by the images step), with their sizes, served with the key; failed and duplicate ones never."""

from __future__ import annotations

import io

import httpx
import pytest
from click.testing import CliRunner
from PIL import Image

from sadie_pipeline.web.queries import rows
from sadie_pipeline.web.routes.listings import _stored_key
from sadie_pipeline.web.users import UserError, add_api_key, api_key
from sadie_pipeline_tests.web.api_world import build_world
from sadie_pipeline_tests.web.conftest import PASSWORD
from sadie_pipeline_tests.web.data import add_dmo
from sadie_pipeline_tests.web.server import logged_in, page_token


@pytest.fixture
def world(database, local_object_store, sb) -> dict:
    return build_world(database, local_object_store, sb)


def _read(web: str, key: str, path: str = "/v1/listings") -> httpx.Response:
    return httpx.get(web + path, headers={"X-API-Key": key}, timeout=30)


def _live(database) -> dict[str, int]:
    with database.connect() as conn:
        return {r["slug"]: r["live_listings"] for r in rows(conn, "sources", "sources", {"dmos": None, "slug": None})}


def _names(web: str, key: str) -> list[str]:
    return [d["name"] for d in _read(web, key).json()["data"]]


def test_a_dmo_key_reads_what_its_dmo_shows_and_only_its_records(web, world):
    keys = world["keys"]
    assert _names(web, keys["alpha"]) == ["Shared Inn", "Alpha Grill"]
    assert _names(web, keys["beta"]) == ["Shared Inn", "Beta Cafe", "Quiet Pub", "Dune Lodge"]
    assert _names(web, keys["all"]) == ["Shared Inn", "Alpha Grill", "Beta Cafe", "Quiet Pub", "Dune Lodge"]
    shared = {k: _read(web, keys[k], f"/v1/listings/{world['shared']}").json() for k in keys}
    assert [r["dmo"] for r in shared["alpha"]["records"]] == ["alpha"]
    assert [r["dmo"] for r in shared["beta"]["records"]] == ["beta"]
    assert [r["dmo"] for r in shared["all"]["records"]] == ["alpha", "beta"]
    pub = world["hidden_for_alpha"]
    assert _read(web, keys["alpha"], f"/v1/listings/{pub}").status_code == 404   # hidden for alpha only
    assert [r["dmo"] for r in _read(web, keys["beta"], f"/v1/listings/{pub}").json()["records"]] == ["beta"]
    assert [r["dmo"] for r in _read(web, keys["all"], f"/v1/listings/{pub}").json()["records"]] == ["beta"]
    for key in keys.values():   # archived: hidden for every DMO
        assert _read(web, key, f"/v1/listings/{world['archived']}").status_code == 404
    assert _read(web, keys["alpha"], f"/v1/listings/{world['deleted_for_alpha']}").status_code == 404


def test_images_are_the_stored_copies_with_their_sizes_served_with_the_key(web, world, database, local_object_store):
    keys = world["keys"]
    [record] = _read(web, keys["alpha"], f"/v1/listings/{world['shared']}").json()["records"]
    [image] = record["images"]   # the near duplicate and the text file are not served
    with database.connect() as conn:
        stored = conn.execute("SELECT id, width, height, canonical_url, image_status FROM public.listing_images "
                              "ORDER BY id").fetchall()
    ok = [s for s in stored if s[4] == "ok"]
    assert {s[4] for s in stored} == {"ok", "duplicate", "failed"}
    assert (image["id"], image["width"], image["height"]) == ok[0][:3]
    assert image["url"] == f"{web}/v1/images/{image['id']}/original"
    assert [v["name"] for v in image["variants"]] == ["medium", "thumb"]

    original = _read(web, keys["alpha"], f"/v1/images/{image['id']}/original")
    assert original.status_code == 200 and original.headers["content-type"].startswith("image/")
    assert "max-age" in original.headers["cache-control"]
    assert original.content == local_object_store.get_bytes(_stored_key(local_object_store, ok[0][3]))
    for variant in image["variants"]:
        got = _read(web, keys["alpha"], variant["url"].removeprefix(web))
        assert got.status_code == 200 and got.headers["content-type"] == "image/jpeg"
        assert Image.open(io.BytesIO(got.content)).size == (variant["width"], variant["height"])
    again = httpx.get(image["url"], headers={"X-API-Key": keys["alpha"], "If-None-Match": original.headers["etag"]})
    assert again.status_code == 304

    assert httpx.get(image["url"]).status_code == 401                                   # the key is required
    assert _read(web, keys["beta"], f"/v1/images/{image['id']}/original").status_code == 404  # not beta's record
    assert _read(web, keys["all"], f"/v1/images/{image['id']}/thumb").status_code == 200
    for never in (s for s in stored if s[4] != "ok"):
        assert _read(web, keys["all"], f"/v1/images/{never[0]}/original").status_code == 404
    assert _read(web, keys["alpha"], f"/v1/images/{image['id']}/..%2Fsecret").status_code == 404


def test_a_key_of_an_unknown_dmo_is_refused(database):
    with database.connect() as conn:
        add_dmo(conn, "alpha")
        with pytest.raises(UserError, match="no DMO 'nowhere'"):
            add_api_key(conn, "app", dmo="nowhere")
        key = add_api_key(conn, "app", dmo="alpha")
        assert api_key(conn, key).dmo == "alpha"
        conn.execute("DELETE FROM pipeline.configs")
        conn.execute("DELETE FROM public.dmos WHERE slug = 'alpha'")
        assert api_key(conn, key) is None   # its DMO gone, the key reads nothing (never every DMO)


def test_the_command_line_makes_a_dmo_key(sadie_env, database):
    with database.connect() as conn:
        add_dmo(conn, "alpha")
    runner = CliRunner()
    from sadie_pipeline.cli import main

    made = runner.invoke(main, ["apikey", "add", "alpha-app", "--dmo", "alpha"])
    assert made.exit_code == 0, made.output
    with database.connect() as conn:
        assert api_key(conn, made.output.strip()).dmo == "alpha"
    assert "alpha" in runner.invoke(main, ["apikey", "list"]).output
    refused = runner.invoke(main, ["apikey", "add", "other", "--dmo", "nowhere"])
    assert refused.exit_code == 1 and "no DMO 'nowhere'" in refused.output


def test_archive_from_the_listing_page_hides_it_for_every_key_until_unarchived(web, world, database):
    listing, keys = world["shared"], world["keys"]
    with logged_in(web, "rita", PASSWORD) as rita:
        token = page_token(rita, f"/listings/{listing}")
        assert rita.post(f"/listings/{listing}/archive", data={"csrf_token": token, "reason": "closed"}).status_code == 303
        page = rita.get(f"/listings/{listing}").text
        assert 'id="archived"' in page and 'id="unarchive-form"' in page
        assert all(_read(web, k, f"/v1/listings/{listing}").status_code == 404 for k in keys.values())
        assert _live(database) == {"alpha": 1, "beta": 3}   # the sources page's live counts leave it out
        # Show does nothing to an archived listing: only unarchive takes it out
        rita.post(f"/listings/{listing}/visibility", data={"csrf_token": token, "visible": "true"})
        assert _read(web, keys["all"], f"/v1/listings/{listing}").status_code == 404
        assert rita.post(f"/listings/{listing}/unarchive", data={"csrf_token": token}).status_code == 303
    assert _read(web, keys["alpha"], f"/v1/listings/{listing}").status_code == 200
    assert _live(database) == {"alpha": 2, "beta": 4}
    with database.connect() as conn:
        changes = conn.execute("SELECT change, changed_by, detail ->> 'reason' FROM pipeline.listing_changes "
                               "WHERE listing_id = %s ORDER BY id", (listing,)).fetchall()
    assert changes == [("archive", "rita", "closed"), ("unarchive", "rita", None)]
    with logged_in(web, "vera", PASSWORD) as vera:   # a viewer may not
        token = page_token(vera, f"/listings/{listing}")
        assert vera.post(f"/listings/{listing}/archive", data={"csrf_token": token}).status_code == 403
