"""Anthropic Messages API: POST /v1/messages (x-api-key or Authorization: Bearer, + anthropic-version).

Point the official SDK at it with `Anthropic(api_key=..., base_url=sb.base_url("anthropic"))`.
Supports `system`, `tools` + `tool_choice` (auto/any/tool/none: answers with a `tool_use` block
whose input fills the tool's input_schema), structured outputs (`output_config.format` /
`output_format` json_schema), `stream=True` (the SSE event sequence), and
POST /v1/messages/count_tokens. Errors use Anthropic's shape
{"type": "error", "error": {"type": "rate_limit_error", "message": ...}}; injected 5xx are 529
overloaded_error by default.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from aiohttp import web

from .. import llm
from .base import BadRequest, Service, json_response

_ERROR_TYPES = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
                404: "not_found_error", 413: "request_too_large", 429: "rate_limit_error", 500: "api_error",
                529: "overloaded_error"}


def _id(prefix: str, *parts: Any) -> str:
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    digest = hashlib.sha256(json.dumps(parts, default=str, sort_keys=True).encode()).digest()
    return prefix + "".join(alphabet[b % len(alphabet)] for b in digest[:24])


class AnthropicService(Service):
    name = "anthropic"
    prefix = "/anthropic"
    real_base_url = "https://api.anthropic.com"
    description = "Anthropic Messages: POST /v1/messages (x-api-key, anthropic-version)"
    injected_error_status = 529

    def routes(self) -> list[web.RouteDef]:
        return [web.post("/v1/messages", self.messages), web.post("/v1/messages/count_tokens", self.count_tokens)]

    def error_body(self, status: int, message: str, code: str | None) -> Any:
        return {"type": "error", "error": {"type": _ERROR_TYPES.get(status, "api_error"), "message": message}}

    def rate_limit_headers(self, limit: int, remaining: int, reset_s: float) -> dict[str, str]:
        return {"anthropic-ratelimit-requests-limit": str(limit),
                "anthropic-ratelimit-requests-remaining": str(remaining)}

    def injected_error(self, status: int) -> web.Response:
        msg = "Overloaded" if status == 529 else "Internal server error"
        return self.error(status, msg)

    def _check(self, request: web.Request) -> web.Response | None:
        # The API takes the key as x-api-key; recent SDKs (2.x) send it as Authorization: Bearer.
        if self.check_key(request, "x-api-key") is None and \
                self.check_key(request, "Authorization", bearer=True) is None:
            return self.error(401, "invalid x-api-key")
        if not request.headers.get("anthropic-version"):
            return self.error(400, "anthropic-version: header is required")
        return None

    async def _body(self, request: web.Request) -> tuple[dict[str, Any], str]:
        body = await self.read_json(request)
        if not isinstance(body, dict):
            raise BadRequest("body: Input should be an object")
        for field in ("model", "messages"):
            if field not in body:
                raise BadRequest(f"{field}: Field required")
        if not isinstance(body["messages"], list) or not body["messages"]:
            raise BadRequest("messages: at least one message is required")
        system = body.get("system")
        parts = [llm.message_text(system)] if system else []
        parts += [llm.message_text(m.get("content")) for m in body["messages"] if isinstance(m, dict)]
        return body, "\n".join(parts)

    async def count_tokens(self, request: web.Request) -> web.Response:
        denied = self._check(request)
        if denied:
            return denied
        _, prompt = await self._body(request)
        return json_response({"input_tokens": llm.count_tokens(prompt)})

    async def messages(self, request: web.Request) -> web.StreamResponse:
        denied = self._check(request)
        if denied:
            return denied
        body, prompt = await self._body(request)
        if "max_tokens" not in body:
            raise BadRequest("max_tokens: Field required")
        model = body["model"]
        msgs = body["messages"]
        last = msgs[-1] if isinstance(msgs[-1], dict) else {}
        last_is_tool_result = isinstance(last.get("content"), list) and any(
            isinstance(b, dict) and b.get("type") == "tool_result" for b in last["content"])

        fmt = (body.get("output_config") or {}).get("format") or body.get("output_format")
        schema = fmt.get("schema") if isinstance(fmt, dict) and fmt.get("type") == "json_schema" else None

        tools = [t for t in body.get("tools") or [] if isinstance(t, dict) and "input_schema" in t]
        choice = body.get("tool_choice") or {"type": "auto"}
        content: list[dict[str, Any]]
        if tools and choice.get("type") != "none" and not last_is_tool_result:
            tool = tools[0]
            if choice.get("type") == "tool":
                tool = next((t for t in tools if t.get("name") == choice.get("name")), None)
                if tool is None:
                    raise BadRequest(f"tool_choice.name: tool '{choice.get('name')}' not found in tools")
            content = [{"type": "tool_use", "id": _id("toolu_01", prompt, tool["name"]), "name": tool["name"],
                        "input": llm.answer(prompt, tool.get("input_schema") or {})}]
            stop = "tool_use"
        else:
            content = [{"type": "text", "text": llm.reply(prompt, schema)}]
            stop = "end_turn"

        out_text = json.dumps(content)
        usage = {"input_tokens": llm.count_tokens(prompt), "output_tokens": llm.count_tokens(out_text),
                 "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "service_tier": "standard"}
        msg = {"id": _id("msg_01", model, prompt), "type": "message", "role": "assistant", "model": model,
               "content": content, "stop_reason": stop, "stop_sequence": None, "usage": usage}
        headers = {"request-id": _id("req_01", msg["id"])}
        if body.get("stream"):
            return await self._stream(request, msg, headers)
        return json_response(msg, headers=headers)

    async def _stream(self, request: web.Request, msg: dict[str, Any], headers: dict[str, str]) -> web.StreamResponse:
        resp = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache", **headers})
        await resp.prepare(request)

        async def event(name: str, data: dict[str, Any]) -> None:
            await resp.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())

        start = {**msg, "content": [], "stop_reason": None,
                 "usage": {**msg["usage"], "output_tokens": 1}}
        await event("message_start", {"type": "message_start", "message": start})
        for i, block in enumerate(msg["content"]):
            if block["type"] == "text":
                await event("content_block_start", {"type": "content_block_start", "index": i,
                                                    "content_block": {"type": "text", "text": ""}})
                text = block["text"]
                for j in range(0, len(text), 64):
                    await event("content_block_delta", {"type": "content_block_delta", "index": i,
                                                        "delta": {"type": "text_delta", "text": text[j:j + 64]}})
            else:
                await event("content_block_start", {"type": "content_block_start", "index": i,
                                                    "content_block": {**block, "input": {}}})
                await event("content_block_delta", {"type": "content_block_delta", "index": i,
                                                    "delta": {"type": "input_json_delta",
                                                              "partial_json": json.dumps(block["input"])}})
            await event("content_block_stop", {"type": "content_block_stop", "index": i})
        await event("message_delta", {"type": "message_delta",
                                      "delta": {"stop_reason": msg["stop_reason"], "stop_sequence": None},
                                      "usage": {"output_tokens": msg["usage"]["output_tokens"]}})
        await event("message_stop", {"type": "message_stop"})
        await resp.write_eof()
        return resp
