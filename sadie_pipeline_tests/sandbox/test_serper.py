"""Serper places through httpx: shape, paging, auth, rate limit, injected 5xx."""

from __future__ import annotations

import httpx
import pytest

from sadie_pipeline.sandbox import Sandbox

from .conftest import KEY

_client = httpx.Client(timeout=5)  # one client: creating one per call costs ~50 ms (TLS context)


def places(sb: Sandbox, body: object, key: str | None = KEY, path: str = "/places") -> httpx.Response:
    headers = {"X-API-KEY": key} if key else {}
    return _client.post(f"{sb.base_url('serper')}{path}", headers=headers, json=body)


def test_places_shape_matches_serper(sb: Sandbox) -> None:
    r = places(sb, {"q": "hotels in Key West, Florida", "gl": "us"})
    assert r.status_code == 200
    data = r.json()
    assert data["searchParameters"] == {"q": "hotels in Key West, Florida", "gl": "us", "hl": "en",
                                        "type": "places", "page": 1, "engine": "google"}
    assert data["credits"] == 1
    first = data["places"][0]
    assert first["position"] == 1
    for key in ("title", "address", "latitude", "longitude", "category", "cid"):
        assert key in first
    titles = {p["title"] for p in data["places"]}
    assert "Mallory Square Resort" in titles
    assert "Mallory Square" not in titles  # an attraction is not in a hotel search
    hotel = next(p for p in data["places"] if p["title"] == "Mallory Square Resort")
    assert hotel["website"] == "http://www.mallorysquareresort.test/"
    assert hotel["phoneNumber"] == "(305) 555-0202" and hotel["rating"] == 4.4 and hotel["ratingCount"] == 2301


def test_paging_until_empty(sb: Sandbox) -> None:
    seen, page = [], 1
    while True:
        data = places(sb, {"q": "hotels in Miami", "gl": "us", "num": 4, "page": page}).json()
        if not data["places"]:
            break
        assert data["searchParameters"]["page"] == page and len(data["places"]) <= 4
        seen += data["places"]
        page += 1
    # the 8 Miami hotels and one vacation-rental agency, over 3 pages; page 4 is empty
    assert page == 4 and len(seen) == 9
    assert [p["position"] for p in seen] == list(range(1, 10))
    assert len({p["cid"] for p in seen}) == 9
    assert sb.stats("serper")["requests"] == 4
    again = [p["cid"] for n in (1, 2, 3)
             for p in places(sb, {"q": "hotels in Miami", "num": 4, "page": n}).json()["places"]]
    assert again == [p["cid"] for p in seen]  # stable order


def test_also_in_and_batch(sb: Sandbox) -> None:
    out = places(sb, [{"q": "hotels in Miami Beach"}, {"q": "hotels in Miami Beach", "page": 2}]).json()
    assert isinstance(out, list) and len(out) == 2
    titles = [p["title"] for p in out[0]["places"] + out[1]["places"]]
    assert "Biscayne Bay Inn" in titles  # a Miami hotel that Google also shows for Miami Beach
    assert "South Beach Condo Rentals" in titles  # noise a pipeline must filter out


def test_maps_endpoint_with_ll(sb: Sandbox) -> None:
    data = places(sb, {"q": "hotels", "ll": "@28.5384,-81.3789,12z"}, path="/maps").json()
    assert data["ll"] == "@28.5384,-81.3789,12z"
    p = data["places"][0]
    assert {"placeId", "cid", "fid", "type", "types"} <= set(p)
    assert all("Orlando" in x["address"] for x in data["places"])


def test_missing_or_wrong_key_is_rejected(sb: Sandbox) -> None:
    r = places(sb, {"q": "hotels in Miami"}, key=None)
    assert r.status_code == 403
    assert r.json() == {"message": "Unauthorized.", "statusCode": 403}
    sb.expect_api_key("serper", "the-right-key")
    try:
        assert places(sb, {"q": "hotels in Miami"}, key="wrong").status_code == 403
        assert places(sb, {"q": "hotels in Miami"}, key="the-right-key").status_code == 200
    finally:
        sb.expect_api_key("serper", None)
    assert all(h.get("X-Api-Key", h.get("X-API-KEY", "<redacted>")) == "<redacted>" for h in
               (e["headers"] for e in sb.requests("serper")))


def test_bad_request(sb: Sandbox) -> None:
    r = places(sb, {"gl": "us"})
    assert r.status_code == 400 and r.json()["statusCode"] == 400


def test_rate_limit_429_with_retry_after(sb: Sandbox) -> None:
    sb.configure("serper", rate_limit=(5, 30))
    codes = [places(sb, {"q": "hotels in Orlando"}) for _ in range(8)]
    assert [r.status_code for r in codes] == [200] * 5 + [429] * 3
    retry_after = int(codes[-1].headers["Retry-After"])
    assert 1 <= retry_after <= 30
    assert codes[-1].json() == {"message": "Too many requests", "statusCode": 429}
    st = sb.stats("serper")
    assert st["requests"] == 8 and st["rate_limited"] == 3 and st["statuses"] == {"200": 5, "429": 3}


def test_rate_limit_window_slides(sb: Sandbox) -> None:
    import time
    sb.configure("serper", rate_limit=(2, 0.3))
    assert [places(sb, {"q": "hotels in Orlando"}).status_code for _ in range(3)] == [200, 200, 429]
    time.sleep(0.35)
    assert places(sb, {"q": "hotels in Orlando"}).status_code == 200


def test_injected_5xx_are_deterministic(sb: Sandbox) -> None:
    def run() -> list[int]:
        sb.configure("serper", error_rate=0.3)
        return [places(sb, {"q": "hotels in Orlando"}).status_code for _ in range(30)]

    first = run()
    assert 3 <= first.count(500) <= 18 and first.count(200) + first.count(500) == 30
    assert run() == first  # configure() reseeds: same sequence again
    st = sb.stats("serper")
    assert st["server_errors"] == st["injected_errors"] == 2 * first.count(500)


def test_latency_and_timeouts(sb: Sandbox) -> None:
    import time
    sb.configure("serper", latency_ms=120)
    t = time.perf_counter()
    assert places(sb, {"q": "hotels in Orlando"}).status_code == 200
    assert time.perf_counter() - t >= 0.12
    sb.configure("serper", latency_ms=0, timeout_rate=1.0, hang_s=5)
    with pytest.raises(httpx.ReadTimeout):
        _client.post(f"{sb.base_url('serper')}/places", headers={"X-API-KEY": KEY},
                     json={"q": "hotels in Orlando"}, timeout=0.3)
    assert sb.stats("serper")["timeouts"] == 1


def test_http_control_endpoints(sb: Sandbox) -> None:
    r = httpx.post(f"{sb.url}/_sandbox/configure", json={"service": "serper", "latency_ms": 1, "rate_limit": [50, 1]})
    assert r.status_code == 200
    assert sb.knobs("serper").rate_limit == (50, 1.0)
    assert httpx.get(f"{sb.url}/_sandbox/stats").json()["serper"]["requests"] == 0
    assert httpx.post(f"{sb.url}/_sandbox/configure", json={"service": "serper", "nope": 1}).status_code == 400
    info = httpx.get(sb.url + "/").json()
    assert info["services"]["groq"]["base_url"] == sb.base_url("groq")
