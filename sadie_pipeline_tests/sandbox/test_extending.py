"""A new service plugs into the sandbox with its own routes and error shape; knobs come free."""

from __future__ import annotations

from typing import Any

import httpx
from aiohttp import web

from sadie_pipeline.sandbox import Sandbox
from sadie_pipeline.sandbox.services import Service, json_response


class SlackLike(Service):
    name = "slack"
    prefix = "/slack"
    real_base_url = "https://slack.com"

    def routes(self) -> list[web.RouteDef]:
        return [web.post("/api/chat.postMessage", self.post_message)]

    def error_body(self, status: int, message: str, code: str | None) -> Any:
        return {"ok": False, "error": "ratelimited" if status == 429 else (code or "internal_error")}

    async def post_message(self, request: web.Request) -> web.Response:
        if self.check_key(request, "Authorization", bearer=True) is None:
            return json_response({"ok": False, "error": "not_authed"})
        body = await self.read_json(request)
        return json_response({"ok": True, "channel": body["channel"], "ts": "1700000000.000100",
                              "message": {"type": "message", "text": body["text"]}})


def test_custom_service_with_knobs() -> None:
    with Sandbox(services=(SlackLike,), knobs={"slack": {"rate_limit": (1, 60)}}, dns_port=None) as sb:
        url = f"{sb.base_url('slack')}/api/chat.postMessage"
        ok = httpx.post(url, headers={"Authorization": "Bearer xoxb-test"}, json={"channel": "C1", "text": "hi"})
        assert ok.json()["ok"] is True and ok.json()["message"]["text"] == "hi"
        limited = httpx.post(url, headers={"Authorization": "Bearer xoxb-test"}, json={"channel": "C1", "text": "hi"})
        assert limited.status_code == 429 and limited.json() == {"ok": False, "error": "ratelimited"}
        assert int(limited.headers["Retry-After"]) >= 1
        assert sb.stats("slack")["requests"] == 2
        sb.configure("slack", rate_limit=None)
        nope = httpx.get(f"{sb.base_url('slack')}/api/nope")
        assert nope.status_code == 404 and nope.json() == {"ok": False, "error": "internal_error"}
