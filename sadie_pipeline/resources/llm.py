"""LLM extraction and research: Groq (OpenAI-compatible chat, JSON mode) and Anthropic (tool use).

Both use the official async SDKs (`groq.AsyncGroq`, `anthropic.AsyncAnthropic`) built with
``max_retries=0`` so every attempt goes through the service's `ServiceGuard` (rate limit,
concurrency, retries on 429/5xx/timeouts with Retry-After, circuit breaker). API keys are the
``api_key`` fields (the definitions set them from the SDKs' own ``GROQ_API_KEY`` /
``ANTHROPIC_API_KEY``, and ``base_url`` from ``GROQ_BASE_URL`` / ``ANTHROPIC_BASE_URL``) and are
redacted from every error the guard produces. ``configured()`` tells an asset whether to run the
layer or to skip it (or fall back, e.g. room count by regex) with a metadata message.

    groq = GroqResource(api_key="gsk_...")
    answer = await groq.chat_json([{"role": "system", "content": "... Answer JSON ..."},
                                   {"role": "user", "content": page_text}])      # dict | None

    claude = AnthropicResource(api_key="sk-ant-...")
    facts = await claude.structured(prompt, {"name": "record_hotel", "input_schema": {...}})  # dict

Every answer is kept for audit as Serper's pages are (seed 000: raw Claude/Groq/Serper outputs, one
year): request and response, redacted, at ``api-responses/llm/{provider}/{YYYY-MM-DD}/{hash}.json``
in the object store the ``raw_*`` fields name (the definitions set them from the object store's
variables; with neither ``raw_bucket`` nor ``raw_home`` set nothing is archived). A failed write
is logged and never fails the call.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import json
import logging
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from dagster import ConfigurableResource
from pydantic import Field, PrivateAttr

from sadie_pipeline.core.errors import redact
from sadie_pipeline.resources.objects import PlainStore
from sadie_pipeline.resources.reliability import PerLoop, ServiceGuard, ServicePolicy, SkipItem

logger = logging.getLogger(__name__)

GROQ_API_KEY_ENV = "GROQ_API_KEY"
GROQ_BASE_URL_ENV = "GROQ_BASE_URL"
ANTHROPIC_API_KEY_ENV = "ANTHROPIC_API_KEY"
ANTHROPIC_BASE_URL_ENV = "ANTHROPIC_BASE_URL"

DEFAULT_GROQ_MODEL = "llama-3.3-70b-versatile"
DEFAULT_ANTHROPIC_MODEL = "claude-sonnet-4-5"
RAW_PREFIX = "api-responses/llm"
#: The raw-answer archive's fields and the object store's variables the definitions set them from.
RAW_STORE_ENV = {"raw_bucket": "SADIE_S3_BUCKET", "raw_endpoint_url": "SADIE_S3_ENDPOINT_URL",
                 "raw_region": "AWS_DEFAULT_REGION", "raw_home": "SADIE_HOME"}


def raw_answer_key(provider: str, day: dt.date, record: Mapping[str, Any]) -> str:
    """``api-responses/llm/{provider}/{YYYY-MM-DD}/{hash}.json``: the hash of the request and the
    answer, so the same exchange is stored once."""
    digest = hashlib.sha256(json.dumps(record, sort_keys=True, default=str).encode()).hexdigest()[:24]
    return f"{RAW_PREFIX}/{provider}/{day.isoformat()}/{digest}.json"



class _Session:
    def __init__(self, guard: ServiceGuard, client: Any) -> None:
        self.guard, self.client = guard, client


class _LlmResource(ConfigurableResource):
    """Settings shared by the LLM resources (limits default to a free/low tier)."""

    api_key: str | None = Field(default=None, description="None: not configured (the layer skips or falls back)")
    base_url: str | None = Field(default=None, description="None: the vendor's API")
    requests_per_minute: float = Field(default=30.0, gt=0)
    rate_headroom: float = Field(default=0.95, gt=0, le=1)
    max_concurrency: int = Field(default=4, ge=1)
    max_attempts: int = Field(default=3, ge=1)
    backoff_base_s: float = Field(default=1.0, ge=0)
    backoff_max_s: float = Field(default=30.0, ge=0)
    backoff_jitter_s: float = Field(default=0.25, ge=0)
    timeout_s: float = Field(default=60.0, gt=0)
    failure_threshold: int = Field(default=5, ge=1)
    reset_timeout_s: float = Field(default=60.0, gt=0)
    max_retry_after_s: float = Field(default=120.0, ge=0)
    raw_bucket: str | None = Field(default=None, description="raw answers' S3 bucket (SADIE_S3_BUCKET)")
    raw_endpoint_url: str | None = Field(default=None, description="its endpoint (SADIE_S3_ENDPOINT_URL)")
    raw_region: str | None = Field(default=None, description="its region (AWS_DEFAULT_REGION)")
    raw_home: str | None = Field(default=None, description="the local store's data folder (SADIE_HOME); "
                                 "neither bucket nor home: answers are not archived")

    _sessions: PerLoop[_Session] = PrivateAttr(default_factory=PerLoop)

    _service: ClassVar[str] = "llm"
    _key_env: ClassVar[str] = ""

    def resolved_api_key(self) -> str | None:
        return (self.api_key or "").strip() or None

    def resolved_base_url(self) -> str | None:
        return (self.base_url or "").strip() or None

    def configured(self) -> bool:
        return self.resolved_api_key() is not None

    def not_configured_message(self) -> str:
        return f"{self._service} skipped: no API key (set {self._key_env} or the resource's api_key)"

    def policy(self) -> ServicePolicy:
        return ServicePolicy(
            name=self._service, requests_per_minute=self.requests_per_minute * self.rate_headroom,
            max_concurrency=self.max_concurrency, max_attempts=self.max_attempts,
            backoff_base_s=self.backoff_base_s, backoff_max_s=self.backoff_max_s,
            backoff_jitter_s=self.backoff_jitter_s, timeout_s=self.timeout_s,
            failure_threshold=self.failure_threshold, reset_timeout_s=self.reset_timeout_s,
            max_retry_after_s=self.max_retry_after_s,
        )

    def _make_client(self, api_key: str, base_url: str | None) -> Any:
        raise NotImplementedError

    def _current(self) -> _Session:
        key, base = self.resolved_api_key(), self.resolved_base_url()
        return self._sessions.get((key, base), lambda: _Session(
            ServiceGuard(self.policy(), secrets=(key,)), self._make_client(key, base) if key else None))

    def _ready(self) -> _Session:
        s = self._current()
        if s.client is None:
            raise SkipItem(self.not_configured_message())
        return s

    def guard(self) -> ServiceGuard:
        """The guard of the current event loop (``guard().metadata()`` for asset metadata)."""
        return self._current().guard

    def redact(self, text: Any) -> str:
        return redact(text, (self.resolved_api_key(),))

    def raw_store(self) -> PlainStore | None:
        """The store raw answers go to, None when not configured."""
        bucket, home = (self.raw_bucket or "").strip() or None, (self.raw_home or "").strip() or None
        if bucket is None and home is None:
            return None
        return PlainStore(bucket, self.raw_endpoint_url, self.raw_region, None, home or ".sadie")

    async def _archive(self, request: Mapping[str, Any], answer: Any, item_key: str | None) -> str | None:
        """Stores one exchange (redacted); its key, or None when not stored."""
        store = self.raw_store()
        if store is None:
            return None
        now = dt.datetime.now(dt.UTC)
        body = answer.model_dump(mode="json") if hasattr(answer, "model_dump") else answer
        record = {"provider": self._service, "item_key": item_key, "request": dict(request), "response": body}
        record = json.loads(self.redact(json.dumps(record, ensure_ascii=False, default=str)))
        key = raw_answer_key(self._service, now.date(), record)
        data = json.dumps({**record, "fetched_at": now.isoformat()}, ensure_ascii=False).encode()
        try:
            await asyncio.to_thread(store.put_bytes, key, data, "application/json")
        except Exception as exc:  # the audit copy never costs the answer
            logger.warning("%s: raw answer not archived: %s", self._service, self.redact(str(exc))[:300])
            return None
        return key

    async def aclose(self) -> None:
        s = self._sessions.pop()
        if s is not None and s.client is not None:
            await s.client.close()


def _messages(messages: str | Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    if isinstance(messages, str):
        return [{"role": "user", "content": messages}]
    return [dict(m) for m in messages]


def parse_json_object(text: str | None) -> dict[str, Any] | None:
    """The JSON object in a model's answer (also inside a ```json fence), else None."""
    if not text:
        return None
    text = text.strip()
    if text.startswith("```"):
        text = text.strip("`")
        text = text[4:] if text.lower().startswith("json") else text
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        start, end = text.find("{"), text.rfind("}")
        if start < 0 or end <= start:
            return None
        try:
            value = json.loads(text[start:end + 1])
        except json.JSONDecodeError:
            return None
    return value if isinstance(value, dict) else None


class GroqResource(_LlmResource):
    """Groq chat completions in JSON mode (``base_url`` unset: the SDK's https://api.groq.com)."""

    model: str = DEFAULT_GROQ_MODEL

    _service: ClassVar[str] = "groq"
    _key_env: ClassVar[str] = GROQ_API_KEY_ENV

    def _make_client(self, api_key: str, base_url: str | None) -> Any:
        from groq import AsyncGroq

        return AsyncGroq(api_key=api_key, base_url=base_url, max_retries=0, timeout=self.timeout_s)

    async def chat_json(self, messages: str | Sequence[Mapping[str, Any]], model: str | None = None, *,
                        schema: Mapping[str, Any] | None = None, schema_name: str = "answer",
                        temperature: float = 0.0, max_tokens: int | None = None,
                        item_key: str | None = None) -> dict[str, Any] | None:
        """The model's answer as a JSON object, or None when it did not answer one.

        Without ``schema`` the request uses ``response_format={"type": "json_object"}`` (the
        prompt must mention JSON, as Groq requires); with one, ``json_schema``. Raises
        `SkipItem` without a key and `ServiceCallFailed` when the guard gives up.
        """
        s = self._ready()
        if schema is not None:
            response_format: dict[str, Any] = {"type": "json_schema",
                                               "json_schema": {"name": schema_name, "schema": dict(schema)}}
        else:
            response_format = {"type": "json_object"}
        kwargs: dict[str, Any] = {"model": model or self.model, "messages": _messages(messages),
                                  "response_format": response_format, "temperature": temperature}
        if max_tokens is not None:
            kwargs["max_tokens"] = max_tokens

        async def attempt() -> Any:
            return await s.client.chat.completions.create(**kwargs)

        completion = await s.guard.call(attempt, item_key=item_key)
        await self._archive(kwargs, completion, item_key)
        if not completion.choices:
            return None
        return parse_json_object(completion.choices[0].message.content)


class AnthropicResource(_LlmResource):
    """Anthropic Messages with a forced tool call for structured output (``base_url`` unset: the
    SDK's https://api.anthropic.com)."""

    model: str = DEFAULT_ANTHROPIC_MODEL
    max_tokens: int = Field(default=2048, ge=1)
    requests_per_minute: float = Field(default=50.0, gt=0)

    _service: ClassVar[str] = "anthropic"
    _key_env: ClassVar[str] = ANTHROPIC_API_KEY_ENV

    def _make_client(self, api_key: str, base_url: str | None) -> Any:
        from anthropic import AsyncAnthropic

        return AsyncAnthropic(api_key=api_key, base_url=base_url, max_retries=0, timeout=self.timeout_s)

    @staticmethod
    def tool_from_schema(tool_schema: Mapping[str, Any]) -> dict[str, Any]:
        """A tool definition: given as is ({"name", "input_schema", ...}) or wrapped around a
        bare JSON schema as a ``record`` tool."""
        if "input_schema" in tool_schema:
            tool = dict(tool_schema)
            tool.setdefault("name", "record")
            return tool
        return {"name": "record", "description": "Record the requested information.", "input_schema": dict(tool_schema)}

    async def structured(self, prompt: str | Sequence[Mapping[str, Any]], tool_schema: Mapping[str, Any], *,
                         model: str | None = None, system: str | None = None, max_tokens: int | None = None,
                         item_key: str | None = None) -> dict[str, Any]:
        """The input of the tool call the model is forced to make (``tool_choice`` = the tool).

        Raises `ValueError` (permanent) if the answer has no such tool call, `SkipItem` without
        a key and `ServiceCallFailed` when the guard gives up.
        """
        s = self._ready()
        tool = self.tool_from_schema(tool_schema)
        kwargs: dict[str, Any] = {
            "model": model or self.model, "max_tokens": max_tokens or self.max_tokens,
            "messages": _messages(prompt), "tools": [tool],
            "tool_choice": {"type": "tool", "name": tool["name"]},
        }
        if system:
            kwargs["system"] = system

        async def attempt() -> Any:
            return await s.client.messages.create(**kwargs)

        message = await s.guard.call(attempt, item_key=item_key)
        await self._archive(kwargs, message, item_key)
        for block in message.content:
            if getattr(block, "type", None) == "tool_use" and block.name == tool["name"]:
                value = block.input
                if isinstance(value, dict):
                    return value
        raise ValueError(f"the model did not call the {tool['name']} tool (stop_reason={message.stop_reason})")
