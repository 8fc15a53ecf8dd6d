"""`python -m sadie_pipeline.sandbox` in a child process, driven through SandboxProcess."""

from __future__ import annotations

import httpx

from sadie_pipeline.sandbox import SandboxProcess


def test_served_sandbox_in_a_child_process() -> None:
    with SandboxProcess(synthetic=20, seed=2, js_share=0.5, dead_share=0.0, demo=False) as sb:
        assert len(sb.hotels) == 20
        hotel = next(h for h in sb.hotels if h.site == "ok")
        with httpx.Client(proxy=sb.proxy_url, timeout=5) as web:
            assert hotel.name.split(" ")[0] in web.get(hotel.website).text
        r = httpx.post(f"{sb.base_url('serper')}/places", headers={"X-API-KEY": "k"},
                       json={"q": f"hotels in {hotel.city}"})
        assert hotel.name in [p["title"] for p in r.json()["places"]]
        assert sb.resolver().resolve(hotel.domain, "A")[0].address == "127.0.0.1"
        sb.configure("serper", rate_limit=(1, 60))
        codes = [httpx.post(f"{sb.base_url('serper')}/places", headers={"X-API-KEY": "k"},
                            json={"q": "hotels"}).status_code for _ in range(2)]
        assert codes == [200, 429]
        assert sb.stats("serper")["rate_limited"] == 1
        sb.reset()
        assert sb.stats("serper")["requests"] == 0
