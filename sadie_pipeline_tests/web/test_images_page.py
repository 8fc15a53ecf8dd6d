"""The images page over real HTTP, on images the pipeline's own runs decided: three DMOs imported
through Dagster, their images fetched by the real image run (asset listing_images) from the
sandbox's image host into the app's object store. States per DMO, the queue, failures with their
reasons (filters), near duplicates beside the image kept with stored thumbnails; a re-fetch (one, or
all of a DMO's failure) puts failed images back in the queue, and the next image run fetches them;
a viewer may not re-fetch; every re-fetch has its audit row; a user of one DMO sees only its images."""

from __future__ import annotations

import re

import pytest

from sadie_pipeline.web.audit import trail
from sadie_pipeline.web.users import add_user
from sadie_pipeline_tests.listings.helpers import import_file, register
from sadie_pipeline_tests.listings.test_geocodes import CONFIG, write
from sadie_pipeline_tests.listings.test_images import run
from sadie_pipeline_tests.web.conftest import PASSWORD
from sadie_pipeline_tests.web.server import logged_in, page_token

pytestmark = pytest.mark.slow  # imports and image runs through Dagster


def _import(database, store, instance, tmp_path, slug: str, rows: list[dict[str, str]]) -> None:
    register(database, instance, slug, CONFIG)
    result, summary = import_file(database, store, instance, slug, write(tmp_path / f"{slug}.csv", rows))
    assert result.success and summary["inserted"] == len(rows)


def _place(name: str, *images: str) -> dict[str, str]:
    return {"Name": name, "Address": "12 Water St", "City": "Charlottetown", "Province": "PE", "Images": "|".join(images)}


def _image(database, slug: str, path: str) -> dict:
    with database.connect() as conn:
        row = conn.execute("""
            SELECT im.id, im.image_status, im.status_reason FROM public.listing_images im
              JOIN public.listing_info li ON li.id = im.listing_info_id JOIN public.dmos d ON d.id = li.dmo_id
             WHERE d.slug = %s AND im.image LIKE %s""", (slug, f"%/images/{path}")).fetchone()
    return {"id": row[0], "status": row[1], "reason": row[2]}


@pytest.fixture
def seeded(database, local_object_store, instance, sb, tmp_path, users):
    """img-a: fetched (ok, a near duplicate, two refused); img-b: its host down, tries spent (given up);
    img-c: imported, never fetched (queued)."""
    base = sb.base_url("images")
    _import(database, local_object_store, instance, tmp_path, "img-a", [
        _place("Harbour Grill", f"{base}/photo/1.jpg", f"{base}/near/1/2.jpg", f"{base}/broken/text.jpg"),
        _place("Blue Heron Inn", f"{base}/photo/3.jpg", f"{base}/broken/tiny.png")])
    run(database, local_object_store, instance, slug="img-a")
    _import(database, local_object_store, instance, tmp_path, "img-b", [_place("Olde Dublin Pub", f"{base}/photo/5.jpg")])
    sb.configure("images", error_rate=1.0)
    for _ in range(3):  # the runs' tries (the asset's default, which the page counts with)
        run(database, local_object_store, instance, slug="img-b")
    sb.reset()
    _import(database, local_object_store, instance, tmp_path, "img-c", [_place("Point Prim Lighthouse", f"{base}/photo/7.jpg")])
    with database.connect() as conn:
        add_user(conn, "olga", PASSWORD, "viewer", dmos=["img-a"])
    return base


def _states(html: str) -> dict[str, dict[str, str]]:
    """The states table: DMO -> state -> count."""
    table = html.split('id="image-states"')[1].split("</table>")[0]
    found = {}
    for dmo, cells in re.findall(r'<tr data-dmo="([^"]+)">(.*?)</tr>', table, re.S):
        found[dmo] = {s: re.sub(r"<[^>]+>", "", v).strip() for s, v in re.findall(r'data-state="(\w+)">(.*?)</td>', cells)}
    return found


def test_states_queue_failures_and_duplicates(web, database, local_object_store, seeded):
    with logged_in(web, "vera", PASSWORD) as vera:
        page = vera.get("/images")
        assert page.status_code == 200
        states = _states(page.text)
        assert states["img-a"] == {"queued": "0", "retrying": "2", "given_up": "0", "on_hold": "0", "duplicate": "1",
                                   "ok": "2"}
        assert states["img-b"]["given_up"] == "1" and states["img-c"]["queued"] == "1"
        queue = page.text.split('id="queue"')[1]
        queued = _image(database, "img-c", "photo/7.jpg")
        assert f'data-image="{queued["id"]}"' in queue and "photo/7.jpg" in queue
        assert "broken/text.jpg" in queue  # failed with tries left: the next run tries again
        assert "photo/5.jpg" not in queue   # tries spent

        failures = vera.get("/images/failures").text
        assert 'data-failure="not_an_image"' in failures and 'data-failure="too_small"' in failures
        assert "content type text/html" in failures and "16x16" in failures
        assert re.search(r'data-failure="unreachable">.*?photo/5\.jpg.*?given up', failures, re.S)
        only = vera.get("/images/failures", params={"dmo": "img-a", "failure": "too_small"}).text
        rows = re.findall(r'<tr data-image="(\d+)" data-failure="(\w+)"', only)
        assert rows == [(str(_image(database, "img-a", "broken/tiny.png")["id"]), "too_small")]
        assert "Re-fetch" not in only  # a viewer reads

        duplicates = vera.get("/images/duplicates").text
        near, kept = _image(database, "img-a", "near/1/2.jpg"), _image(database, "img-a", "photo/1.jpg")
        assert f'data-image="{near["id"]}" data-kept="{kept["id"]}"' in duplicates
        for image in (near, kept):
            assert f'src="/listings/images/{image["id"]}/thumb"' in duplicates
            thumb = vera.get(f"/listings/images/{image['id']}/thumb")
            assert thumb.status_code == 200 and thumb.headers["content-type"] == "image/jpeg"
            assert thumb.content[:2] == b"\xff\xd8"  # the stored copy, a JPEG


def test_a_refetch_puts_a_failed_image_back_and_the_next_run_fetches_it(web, database, local_object_store,
                                                                         instance, sb, seeded):
    down = _image(database, "img-b", "photo/5.jpg")
    assert down["status"] == "failed" and down["reason"].startswith("unreachable")
    with logged_in(web, "vera", PASSWORD) as vera:
        token = page_token(vera, "/images/failures")
        refused = vera.post(f"/images/{down['id']}/refetch", data={"csrf_token": token})
        assert refused.status_code == 403
        assert vera.post("/images/refetch", data={"dmo": "img-b", "csrf_token": token}).status_code == 403
    assert _image(database, "img-b", "photo/5.jpg")["status"] == "failed"

    sb.reset_stats()
    run(database, local_object_store, instance, slug="img-b")
    assert sb.stats("images")["requests"] == 0  # given up: no run tries it again by itself

    with logged_in(web, "rita", PASSWORD) as rita:
        token = page_token(rita, "/images/failures")
        done = rita.post(f"/images/{down['id']}/refetch", data={"csrf_token": token}, follow_redirects=True)
        assert done.status_code == 200 and "back in the queue" in done.text
        assert f'data-image="{down["id"]}"' in rita.get("/images", params={"dmo": "img-b"}).text.split('id="queue"')[1]
    assert _image(database, "img-b", "photo/5.jpg")["status"] is None
    with database.connect() as conn:
        [row] = trail(conn, f"image:{down['id']}")
    assert (row["user_name"], row["action"], row["detail"]["images"]) == ("rita", "image_refetch", 1)

    meta = run(database, local_object_store, instance, slug="img-b")
    assert meta["downloaded"] == 1 and sb.stats("images")["requests"] >= 1
    assert _image(database, "img-b", "photo/5.jpg")["status"] == "ok"


def test_a_bulk_refetch_of_a_dmo_and_reason(web, database, seeded):
    text, tiny = _image(database, "img-a", "broken/text.jpg"), _image(database, "img-a", "broken/tiny.png")
    with logged_in(web, "rita", PASSWORD) as rita:
        token = page_token(rita, "/images/failures?dmo=img-a&failure=not_an_image")
        page = rita.get("/images/failures", params={"dmo": "img-a", "failure": "not_an_image"}).text
        assert 'id="refetch-many"' in page
        done = rita.post("/images/refetch", data={"dmo": "img-a", "failure": "not_an_image", "csrf_token": token},
                         follow_redirects=True)
        assert "1 not_an_image failures of img-a back in the queue" in done.text
        assert rita.post("/images/refetch", data={"dmo": "img-a", "failure": "bogus", "csrf_token": token},
                         follow_redirects=True).status_code == 200  # a one-line message, no 500
    assert _image(database, "img-a", "broken/text.jpg")["status"] is None
    assert _image(database, "img-a", "broken/tiny.png")["status"] == "failed"
    with database.connect() as conn:
        [row] = trail(conn, "dmo:img-a")
    assert row["detail"]["failure"] == "not_an_image" and row["detail"]["ids"] == [text["id"]]
    assert tiny["id"] not in row["detail"]["ids"]


def test_a_user_of_one_dmo_sees_only_its_images(web, database, seeded):
    with logged_in(web, "olga", PASSWORD) as olga:
        assert set(_states(olga.get("/images").text)) == {"img-a"}
        assert "photo/5.jpg" not in olga.get("/images/failures").text
        assert olga.get("/images/failures", params={"dmo": "img-b"}).status_code == 403
        other = _image(database, "img-b", "photo/5.jpg")
        assert f'data-image="{other["id"]}"' not in olga.get("/images").text
