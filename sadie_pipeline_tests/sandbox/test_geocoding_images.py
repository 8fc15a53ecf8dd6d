"""The geocoding services (Google's protocol and Nominatim's) and the image host, over HTTP."""

from __future__ import annotations

import io

import httpx
import pytest
from PIL import Image

from sadie_pipeline.core.images import hamming, process_image
from sadie_pipeline.sandbox import Sandbox, imagegen
from sadie_pipeline.sandbox.services.geocoding import locate

ADDRESS = "12 Water St, Charlottetown, PE C1A 4K3, CA"
AGENT = {"User-Agent": "sadie-pipeline-tests/1 (sandbox)"}


def google(sb: Sandbox, **params: str) -> httpx.Response:
    return httpx.get(f"{sb.base_url('google_geocoding')}/maps/api/geocode/json", params=params)


def test_google_answers_from_the_deterministic_world(sb: Sandbox) -> None:
    body = google(sb, address=ADDRESS, key="k").json()
    assert body["status"] == "OK"
    [first] = body["results"]
    expected = locate(ADDRESS)
    assert first["geometry"]["location"] == {"lat": expected.lat, "lng": expected.lng}
    assert first["geometry"]["location_type"] == "ROOFTOP" and abs(expected.lat - 46.2382) < 0.03
    assert google(sb, address=ADDRESS, key="k").json() == body  # the same address, the same answer
    town = google(sb, address="Charlottetown, PE, CA", key="k").json()["results"][0]
    assert town["geometry"]["location_type"] == "APPROXIMATE" and "locality" in town["types"]


def test_google_statuses(sb: Sandbox) -> None:
    assert google(sb, address="1 Nowhere Rd, Souris, PE, CA", key="k").json()["status"] == "ZERO_RESULTS"
    assert google(sb, address=ADDRESS).json()["status"] == "REQUEST_DENIED"
    assert google(sb, key="k").json()["status"] == "INVALID_REQUEST"
    sb.expect_api_key("google_geocoding", "right")
    denied = google(sb, address=ADDRESS, key="wrong").json()
    assert denied["status"] == "REQUEST_DENIED" and "invalid" in denied["error_message"]
    sb.configure("google_geocoding", rate_limit=(1, 60))
    over = [google(sb, address=ADDRESS, key="right") for _ in range(2)]
    assert [r.status_code for r in over] == [200, 200]  # Google's over-limit answer is an HTTP 200
    assert [r.json()["status"] for r in over] == ["OK", "OVER_QUERY_LIMIT"]
    sb.configure("google_geocoding", rate_limit=None, fail_next=1)
    failed = google(sb, address=ADDRESS, key="right")
    assert failed.status_code == 500 and failed.json()["status"] == "UNKNOWN_ERROR"
    assert sb.stats("google_geocoding")["rate_limited"] == 1


def test_nominatim_search(sb: Sandbox) -> None:
    base = sb.base_url("nominatim")
    places = httpx.get(f"{base}/search", params={"q": ADDRESS, "format": "jsonv2"}, headers=AGENT).json()
    expected = locate(ADDRESS)
    assert (float(places[0]["lat"]), float(places[0]["lon"]), places[0]["place_rank"]) == \
        (expected.lat, expected.lng, 30)
    nothing = httpx.get(f"{base}/search", params={"q": "1 Nowhere Rd, Souris", "format": "jsonv2"}, headers=AGENT)
    assert nothing.json() == []
    stock = httpx.get(f"{base}/search", params={"q": ADDRESS, "format": "jsonv2"})  # httpx's own User-Agent
    assert stock.status_code == 403 and "User-Agent" in stock.json()["error"]["message"]
    sb.configure("nominatim", rate_limit=(1, 60))
    codes = [httpx.get(f"{base}/search", params={"q": ADDRESS, "format": "jsonv2"}, headers=AGENT).status_code
             for _ in range(2)]
    assert codes == [200, 429]


def test_photos_weigh_what_photos_weigh_and_near_duplicates_look_alike(sb: Sandbox) -> None:
    base = sb.base_url("images")
    photo = httpx.get(f"{base}/photo/5.jpg")
    assert photo.headers["content-type"] == "image/jpeg"
    assert imagegen.MIN_BYTES <= len(photo.content) <= imagegen.MAX_BYTES
    assert photo.content == httpx.get(f"{base}/photo/{5 + imagegen.POOL}.jpg").content  # the pool
    near = httpx.get(f"{base}/near/5/2.jpg").content
    other = httpx.get(f"{base}/photo/6.jpg").content
    png = httpx.get(f"{base}/photo/5.png")
    assert png.headers["content-type"] == "image/png" and Image.open(io.BytesIO(png.content)).format == "PNG"
    hashes = [process_image(d).phash for d in (photo.content, near, other)]
    assert hamming(hashes[0], hashes[1]) <= 4 < 16 < hamming(hashes[0], hashes[2])


@pytest.mark.slow  # makes the whole pool of pictures
def test_every_photo_of_the_pool_is_in_range_and_distinct() -> None:
    hashes = [process_image(imagegen.photo_jpeg(n)).phash for n in range(imagegen.POOL)]
    assert all(imagegen.MIN_BYTES <= len(imagegen.photo_jpeg(n)) <= imagegen.MAX_BYTES for n in range(imagegen.POOL))
    assert min(hamming(a, b) for i, a in enumerate(hashes) for b in hashes[i + 1:]) > 8
    assert max(hamming(hashes[n], process_image(imagegen.near_duplicate(n, v)).phash)
               for n in range(0, imagegen.POOL, 4) for v in (1, 2, 3)) <= 4


def test_broken_images(sb: Sandbox) -> None:
    base = sb.base_url("images")
    text = httpx.get(f"{base}/broken/text.jpg")
    assert text.headers["content-type"].startswith("text/html") and b"<html>" in text.content
    assert httpx.get(f"{base}/broken/mislabelled.jpg").headers["content-type"] == "image/jpeg"
    whole = httpx.get(f"{base}/photo/3.jpg").content
    assert httpx.get(f"{base}/broken/truncated/3.jpg").content == whole[: len(whole) // 2]
    assert Image.open(io.BytesIO(httpx.get(f"{base}/broken/tiny.png").content)).size == (16, 16)
    with httpx.stream("GET", f"{base}/broken/huge.jpg") as huge:
        assert int(huge.headers["content-length"]) == 50 * 1024 * 1024
    with httpx.stream("GET", f"{base}/broken/huge-chunked.jpg") as chunked:
        assert "content-length" not in chunked.headers
        first = next(chunked.iter_bytes())
        assert first.startswith(b"\xff\xd8")
    assert httpx.get(f"{base}/photo/x.jpg").status_code == 404


def test_knobs_apply_to_the_image_host(sb: Sandbox) -> None:
    sb.configure("images", fail_next=1)
    assert httpx.get(f"{sb.base_url('images')}/photo/1.jpg").status_code == 500
    assert httpx.get(f"{sb.base_url('images')}/photo/1.jpg").status_code == 200
    sb.configure("images", rate_limit=(1, 60))
    limited = [httpx.get(f"{sb.base_url('images')}/photo/1.jpg") for _ in range(2)]
    assert limited[1].status_code == 429 and int(limited[1].headers["retry-after"]) >= 1
