"""Groq's OpenAI-compatible API: POST /openai/v1/chat/completions, GET /openai/v1/models.

Point the official SDK at it with `Groq(api_key=..., base_url=sb.base_url("groq"))`
(the SDK appends /openai/v1/...). Supports `response_format` (json_object and json_schema),
`tools` with `tool_choice` (auto/required/named function) and `stream=True` (SSE chunks).
Answers come from `sandbox.llm`, deterministically from the prompt.
"""

from __future__ import annotations

import hashlib
import json
import time
from typing import Any

from aiohttp import web

from .. import llm
from .base import BadRequest, Service, json_response

MODELS = ["llama-3.3-70b-versatile", "llama-3.1-8b-instant", "openai/gpt-oss-120b", "openai/gpt-oss-20b",
          "meta-llama/llama-4-scout-17b-16e-instruct"]


def _id(prefix: str, *parts: Any) -> str:
    return prefix + hashlib.sha256(json.dumps(parts, default=str, sort_keys=True).encode()).hexdigest()[:26]


class GroqService(Service):
    name = "groq"
    prefix = "/groq"
    real_base_url = "https://api.groq.com"
    description = "Groq OpenAI-compatible chat completions: POST /openai/v1/chat/completions (Bearer key)"
    injected_error_status = 503

    def routes(self) -> list[web.RouteDef]:
        return [web.post("/openai/v1/chat/completions", self.chat), web.get("/openai/v1/models", self.models)]

    def error_body(self, status: int, message: str, code: str | None) -> Any:
        types = {400: "invalid_request_error", 401: "invalid_request_error", 404: "invalid_request_error",
                 429: "requests"}
        return {"error": {"message": message, "type": types.get(status, "internal_server_error"),
                          "code": code}}

    def rate_limit_headers(self, limit: int, remaining: int, reset_s: float) -> dict[str, str]:
        return {"x-ratelimit-limit-requests": str(limit), "x-ratelimit-remaining-requests": str(remaining),
                "x-ratelimit-reset-requests": f"{reset_s:.2f}s"}

    def _auth(self, request: web.Request) -> web.Response | None:
        if self.check_key(request, "Authorization", bearer=True) is None:
            return self.error(401, "Invalid API Key", code="invalid_api_key")
        return None

    async def models(self, request: web.Request) -> web.Response:
        denied = self._auth(request)
        if denied:
            return denied
        return json_response({"object": "list", "data": [
            {"id": m, "object": "model", "created": 1700000000, "owned_by": "Sandbox", "active": True,
             "context_window": 131072} for m in MODELS]})

    async def chat(self, request: web.Request) -> web.StreamResponse:
        denied = self._auth(request)
        if denied:
            return denied
        body = await self.read_json(request)
        if not isinstance(body, dict):
            raise BadRequest("body must be a JSON object")
        model = body.get("model")
        messages = body.get("messages")
        if not model:
            raise BadRequest("'model' : property 'model' is missing", code=None)
        if not isinstance(messages, list) or not messages:
            raise BadRequest("'messages' : minimum number of items is 1")
        prompt = "\n".join(llm.message_text(m.get("content")) for m in messages if isinstance(m, dict))

        schema = None
        force_json = False
        rf = body.get("response_format") or {}
        if rf.get("type") == "json_object":
            force_json = True
        elif rf.get("type") == "json_schema":
            schema = (rf.get("json_schema") or {}).get("schema") or {}

        tool_calls = None
        tools = [t for t in body.get("tools") or [] if t.get("type") == "function"]
        choice = body.get("tool_choice", "auto")
        last_is_tool_result = isinstance(messages[-1], dict) and messages[-1].get("role") == "tool"
        if tools and choice != "none" and not last_is_tool_result:
            fn = tools[0]["function"]
            if isinstance(choice, dict):
                wanted = (choice.get("function") or {}).get("name")
                fn = next((t["function"] for t in tools if t["function"].get("name") == wanted), fn)
            args = llm.answer(prompt, fn.get("parameters") or {})
            tool_calls = [{"id": _id("call_", prompt, fn.get("name"))[:29], "type": "function",
                           "function": {"name": fn.get("name"), "arguments": json.dumps(args)}}]
            content = None
        else:
            content = llm.reply(prompt, schema, force_json)

        created = int(time.time())
        cid = _id("chatcmpl-", model, prompt)
        prompt_tokens = llm.count_tokens(prompt)
        completion_tokens = llm.count_tokens(content or json.dumps(tool_calls))
        usage = {"queue_time": 0.01, "prompt_tokens": prompt_tokens, "prompt_time": 0.002,
                 "completion_tokens": completion_tokens, "completion_time": 0.01,
                 "total_tokens": prompt_tokens + completion_tokens, "total_time": 0.012}
        finish = "tool_calls" if tool_calls else "stop"
        message: dict[str, Any] = {"role": "assistant", "content": content}
        if tool_calls:
            message["tool_calls"] = tool_calls
        if body.get("stream"):
            return await self._stream(request, cid, created, model, message, finish, usage)
        return json_response({
            "id": cid, "object": "chat.completion", "created": created, "model": model,
            "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish}],
            "usage": usage, "usage_breakdown": None, "system_fingerprint": "fp_sandbox0001",
            "x_groq": {"id": _id("req_", cid)}, "service_tier": "on_demand",
        }, headers={"x-request-id": _id("req_", cid)})

    async def _stream(self, request: web.Request, cid: str, created: int, model: str,
                      message: dict[str, Any], finish: str, usage: dict[str, Any]) -> web.StreamResponse:
        resp = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"})
        await resp.prepare(request)

        def chunk(delta: dict[str, Any], finish_reason: str | None = None, extra: dict[str, Any] | None = None) -> bytes:
            d = {"id": cid, "object": "chat.completion.chunk", "created": created, "model": model,
                 "system_fingerprint": "fp_sandbox0001",
                 "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}]}
            if extra:
                d.update(extra)
            return f"data: {json.dumps(d)}\n\n".encode()

        await resp.write(chunk({"role": "assistant", "content": ""}, extra={"x_groq": {"id": _id("req_", cid)}}))
        if message.get("tool_calls"):
            calls = [{"index": i, **c} for i, c in enumerate(message["tool_calls"])]
            await resp.write(chunk({"tool_calls": calls}))
        else:
            text = message["content"] or ""
            for i in range(0, len(text), 64):
                await resp.write(chunk({"content": text[i:i + 64]}))
        await resp.write(chunk({}, finish, extra={"x_groq": {"id": _id("req_", cid), "usage": usage}}))
        await resp.write(b"data: [DONE]\n\n")
        await resp.write_eof()
        return resp
