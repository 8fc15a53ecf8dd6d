"""Slack Web API (slack.com/api): chat.postMessage and chat.getPermalink.

Mounted at ``/slack``; a client's base URL is ``{sb.base_url('slack')}/api/`` (slack_sdk:
``WebClient(token=..., base_url=...)``). Like Slack, methods take a form-encoded, multipart or
JSON body (or query parameters) and the token as ``Authorization: Bearer xoxb-...`` (or a
``token`` parameter), and answer HTTP 200 with ``{"ok": false, "error": ...}`` for API errors:

* no token: ``not_authed``; a token that is not ``xox?-...`` or not the one the sandbox expects
  (`Sandbox.expect_api_key("slack", token)`; otherwise any ``xoxb-``/``xoxp-`` token): ``invalid_auth``
* unknown channel: ``channel_not_found``; neither ``text`` nor ``blocks``: ``no_text``;
  malformed ``blocks``: ``invalid_blocks``; text over 40,000 characters: ``msg_too_long``
* the rate-limit knob: HTTP 429 ``{"ok": false, "error": "ratelimited"}`` with ``Retry-After``
  (seconds), as Slack answers; injected 5xx: 503 ``{"ok": false, "error": "service_unavailable"}``
* unknown method: HTTP 404 ``{"ok": false, "error": "unknown_method", "req_method": ...}``

``chat.postMessage`` returns ``{"ok": true, "channel": "C0...", "ts": "1700000000.000100",
"message": {...}}`` with increasing ``ts``. Channels: `CHANNELS` (by id, ``name`` or ``#name``);
`add_channel()` adds one. `Sandbox.inspect("slack")` lists the posted messages (channel, ts,
text, blocks); `Sandbox.reset()` forgets them.
"""

from __future__ import annotations

import json
import re
import zlib
from typing import Any

from aiohttp import web

from .base import Service, json_response

TEAM_ID = "T0SADIE0001"
BOT_USER_ID = "U0SADIEBOT1"
BOT_ID = "B0SADIEBOT1"
APP_ID = "A0SADIEAPP1"
CHANNELS = {"C0SADIELEADS": "sadie-leads", "C0SADIEGENRL": "general"}
WORKSPACE_URL = "https://sadie-sandbox.slack.com"
MAX_TEXT = 40_000
MAX_BLOCKS = 50
_TOKEN = re.compile(r"^xox[abpe]-[A-Za-z0-9-]+$")


class SlackService(Service):
    name = "slack"
    prefix = "/slack"
    real_base_url = "https://slack.com/api/"
    description = "Slack Web API: POST /api/chat.postMessage, /api/chat.getPermalink (Bearer xoxb- token)"
    injected_error_status = 503

    def __init__(self, ctx: Any) -> None:
        super().__init__(ctx)
        self.channels: dict[str, str] = dict(CHANNELS)
        self.messages: list[dict[str, Any]] = []

    def routes(self) -> list[web.RouteDef]:
        return [web.route("*", "/api/chat.postMessage", self.post_message),
                web.route("*", "/api/chat.getPermalink", self.get_permalink),
                web.route("*", "/api/{method}", self.unknown_method)]

    # ---- state for tests ---------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        return {"channels": dict(self.channels), "messages": [dict(m) for m in self.messages]}

    def reset_state(self) -> None:
        self.channels = dict(CHANNELS)
        self.messages.clear()

    def add_channel(self, name: str, channel_id: str | None = None) -> str:
        channel_id = channel_id or f"C0{zlib.crc32(name.encode()):010d}"
        self.channels[channel_id] = name.lstrip("#")
        return channel_id

    # ---- Slack's error format ----------------------------------------------------------------
    def error_body(self, status: int, message: str, code: str | None) -> Any:
        if status == 429:
            return {"ok": False, "error": "ratelimited"}
        if status >= 500:
            return {"ok": False, "error": "service_unavailable" if status == 503 else "internal_error"}
        if status == 404:
            return {"ok": False, "error": "unknown_method"}
        return {"ok": False, "error": code or "invalid_request"}

    def rate_limit_headers(self, limit: int, remaining: int, reset_s: float) -> dict[str, str]:
        return {}  # Slack sends Retry-After only

    @staticmethod
    def fail(error: str, **extra: Any) -> web.Response:
        return json_response({"ok": False, "error": error, **extra})  # HTTP 200, as Slack does

    # ---- request parsing ------------------------------------------------------------------------
    async def _params(self, request: web.Request) -> dict[str, Any]:
        params: dict[str, Any] = dict(request.query)
        if request.method == "POST" and request.can_read_body:
            ctype = request.content_type
            if ctype == "application/json":
                try:
                    body = json.loads(await request.read() or b"{}")
                except (json.JSONDecodeError, UnicodeDecodeError):
                    return {"__error__": "invalid_json"}
                if not isinstance(body, dict):
                    return {"__error__": "invalid_json"}
                params.update(body)
            else:
                form = await request.post()
                params.update({k: v for k, v in form.items() if isinstance(v, str)})
        return params

    def _auth(self, request: web.Request, params: dict[str, Any]) -> str | None:
        """None if the token is acceptable, else the Slack error."""
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        token = token.strip() if scheme.lower() == "bearer" else ""
        token = token or str(params.get("token") or "").strip()
        if not token:
            return "not_authed"
        expected = self.ctx.api_keys.get(self.name)
        if not _TOKEN.match(token) or (expected is not None and token != expected):
            return "invalid_auth"
        return None

    def _channel(self, value: Any) -> str | None:
        text = str(value or "").strip()
        if text in self.channels:
            return text
        name = text.lstrip("#")
        for cid, cname in self.channels.items():
            if cname == name:
                return cid
        return None

    @staticmethod
    def _blocks(value: Any) -> list[Any] | None | str:
        """The blocks as a list, None when absent, or an error string."""
        if value is None or value == "":
            return None
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except json.JSONDecodeError:
                return "invalid_blocks_format"
        if not isinstance(value, list) or not all(isinstance(b, dict) and b.get("type") for b in value):
            return "invalid_blocks"
        if len(value) > MAX_BLOCKS:
            return "invalid_blocks"
        return value

    def _ts(self) -> str:
        n = len(self.messages) + 1
        micros = n * 100
        return f"{1_700_000_000 + micros // 1_000_000}.{micros % 1_000_000:06d}"

    # ---- methods ----------------------------------------------------------------------------------
    async def _checked(self, request: web.Request) -> tuple[dict[str, Any], str] | web.Response:
        """The request's parameters and channel id, or Slack's error for a bad body, token or channel."""
        params = await self._params(request)
        if "__error__" in params:
            return self.fail(params["__error__"])
        denied = self._auth(request, params)
        if denied:
            return self.fail(denied)
        channel = self._channel(params.get("channel"))
        if channel is None:
            return self.fail("channel_not_found")
        return params, channel

    async def post_message(self, request: web.Request) -> web.Response:
        checked = await self._checked(request)
        if isinstance(checked, web.Response):
            return checked
        params, channel = checked
        blocks = self._blocks(params.get("blocks"))
        if isinstance(blocks, str):
            return self.fail(blocks)
        text = params.get("text")
        text = "" if text is None else str(text)
        if not text.strip() and not blocks:
            return self.fail("no_text")
        if len(text) > MAX_TEXT:
            return self.fail("msg_too_long")
        ts = self._ts()
        message: dict[str, Any] = {"user": BOT_USER_ID, "type": "message", "ts": ts, "bot_id": BOT_ID,
                                   "app_id": APP_ID, "text": text, "team": TEAM_ID,
                                   "bot_profile": {"id": BOT_ID, "app_id": APP_ID, "name": "Sadie", "deleted": False,
                                                   "team_id": TEAM_ID}}
        if blocks:
            message["blocks"] = blocks
        if params.get("thread_ts"):
            message["thread_ts"] = str(params["thread_ts"])
        self.messages.append({"channel": channel, "channel_name": self.channels[channel], "ts": ts, "text": text,
                              "blocks": blocks, "thread_ts": message.get("thread_ts")})
        out: dict[str, Any] = {"ok": True, "channel": channel, "ts": ts, "message": message}
        if not text.strip():
            out["warning"] = "missing_text"
            out["response_metadata"] = {"warnings": ["missing_text"]}
        return json_response(out)

    async def get_permalink(self, request: web.Request) -> web.Response:
        checked = await self._checked(request)
        if isinstance(checked, web.Response):
            return checked
        params, channel = checked
        ts = str(params.get("message_ts") or "")
        if not any(m["channel"] == channel and m["ts"] == ts for m in self.messages):
            return self.fail("message_not_found")
        return json_response({"ok": True, "channel": channel,
                              "permalink": f"{WORKSPACE_URL}/archives/{channel}/p{ts.replace('.', '')}"})

    async def unknown_method(self, request: web.Request) -> web.Response:
        return json_response({"ok": False, "error": "unknown_method", "req_method": request.match_info["method"]}, 404)
