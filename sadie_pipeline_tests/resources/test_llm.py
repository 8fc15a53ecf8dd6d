"""GroqResource and AnthropicResource: the official SDKs against the sandbox, through the guard."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from sadie_pipeline.core.errors import ErrorClass
from sadie_pipeline.resource_defs import configured, resolved
from sadie_pipeline.resources.llm import AnthropicResource, GroqResource, parse_json_object
from sadie_pipeline.resources.reliability import ServiceCallFailed, SkipItem
from sadie_pipeline.sandbox import Sandbox
from sadie_pipeline_tests.resources.helpers import run

KEY = "gsk-llm-test-0b7c1d2e3f"  # fake; must never show up in errors
PAGE = ("Welcome to Biscayne Bay Inn, an independent, locally owned hotel in Miami. Relax in one of our "
        "120 guest rooms. Enjoy the outdoor pool and free wifi. The property is managed by Coastal Hospitality Group.")
TOOL = {
    "name": "record_hotel",
    "description": "Record what the website says about the hotel.",
    "input_schema": {
        "type": "object",
        "properties": {
            "room_count": {"type": ["integer", "null"]},
            "management_company": {"type": ["string", "null"]},
            "amenities": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["room_count", "amenities"],
    },
}
FAST = {"backoff_base_s": 0.01, "backoff_max_s": 0.05, "backoff_jitter_s": 0.0, "requests_per_minute": 60_000}


def test_groq_chat_json_returns_the_parsed_object(sb: Sandbox) -> None:
    groq = GroqResource(api_key=KEY, base_url=sb.base_url("groq"), **FAST)
    messages = [{"role": "system", "content": 'How many rooms has the hotel? Answer JSON {"room_count": int}.'},
                {"role": "user", "content": PAGE}]
    answer = run(groq, lambda: groq.chat_json(messages))
    assert isinstance(answer, dict) and answer["room_count"] == 120
    schema = {"type": "object", "properties": {"room_count": {"type": "integer"},
                                               "management_company": {"type": ["string", "null"]}}}
    shaped = run(groq, lambda: groq.chat_json([{"role": "user", "content": PAGE}], schema=schema))
    assert shaped == {"room_count": 120, "management_company": "Coastal Hospitality Group"}
    request = sb.requests("groq")[-1]
    assert request["path"] == "/groq/openai/v1/chat/completions"
    assert request["headers"]["Authorization"] == "<redacted>"


def test_anthropic_structured_returns_the_tool_input(sb: Sandbox) -> None:
    claude = AnthropicResource(api_key=KEY, base_url=sb.base_url("anthropic"), **FAST)
    facts = run(claude, lambda: claude.structured(PAGE, TOOL, system="Extract facts about the hotel."))
    assert facts["room_count"] == 120
    assert facts["management_company"] == "Coastal Hospitality Group"
    assert "outdoor pool" in facts["amenities"]
    bare = run(claude, lambda: claude.structured(PAGE, TOOL["input_schema"]))  # a bare JSON schema
    assert bare["room_count"] == 120


def test_keys_come_from_the_vendors_variables_through_the_definitions(sb: Sandbox,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GROQ_API_KEY", KEY)  # a resource never reads it: without the definitions, no key
    groq = GroqResource(base_url=sb.base_url("groq"))
    claude = AnthropicResource(base_url=sb.base_url("anthropic"))
    assert not groq.configured() and not claude.configured()
    with pytest.raises(SkipItem, match="GROQ_API_KEY"):
        run(groq, lambda: groq.chat_json("Answer JSON"))
    with pytest.raises(SkipItem, match="ANTHROPIC_API_KEY"):
        run(claude, lambda: claude.structured(PAGE, TOOL))
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    groq = resolved(configured("groq", base_url=sb.base_url("groq")))
    claude = resolved(configured("anthropic", base_url=sb.base_url("anthropic")))
    assert groq.configured() and claude.configured()
    assert run(groq, lambda: groq.chat_json([{"role": "user", "content": PAGE + " Answer JSON."}]))["room_count"] == 120
    assert run(claude, lambda: claude.structured(PAGE, TOOL))["room_count"] == 120


def test_429_is_retried_after_retry_after(sb: Sandbox) -> None:
    sb.configure("groq", rate_limit=(1, 0.5))
    groq = GroqResource(api_key=KEY, base_url=sb.base_url("groq"), max_concurrency=2, **FAST)

    async def both() -> Any:
        calls = [groq.chat_json([{"role": "user", "content": f"{PAGE} Answer JSON. #{i}"}]) for i in range(2)]
        return await asyncio.gather(*calls), groq.guard().metadata()

    answers, guard = run(groq, both)
    assert [a["room_count"] for a in answers] == [120, 120]
    assert sb.stats("groq")["rate_limited"] >= 1
    assert guard["responses_429"] == sb.stats("groq")["rate_limited"] and guard["retries"] >= 1


def test_overloaded_529_gives_up_after_three_attempts(sb: Sandbox) -> None:
    sb.configure("anthropic", error_rate=1.0)  # Anthropic's 529 overloaded_error
    claude = AnthropicResource(api_key=KEY, base_url=sb.base_url("anthropic"), max_attempts=3, **FAST)
    with pytest.raises(ServiceCallFailed) as info:
        run(claude, lambda: claude.structured(PAGE, TOOL, item_key="biscaynebayinn.test"))
    assert info.value.error_class is ErrorClass.TRANSIENT and info.value.attempts == 3
    assert info.value.status_code == 529 and info.value.item_key == "biscaynebayinn.test"
    assert KEY not in str(info.value)
    assert sb.stats("anthropic")["requests"] == 3


def test_bad_key_is_an_auth_error_without_retries(sb: Sandbox) -> None:
    sb.expect_api_key("groq", "the-only-good-key")
    groq = GroqResource(api_key=KEY, base_url=sb.base_url("groq"), **FAST)
    with pytest.raises(ServiceCallFailed) as info:
        run(groq, lambda: groq.chat_json("Answer JSON"))
    assert info.value.error_class is ErrorClass.AUTH and info.value.attempts == 1
    assert KEY not in str(info.value)
    assert sb.stats("groq")["requests"] == 1


def test_parse_json_object() -> None:
    assert parse_json_object('{"a": 1}') == {"a": 1}
    assert parse_json_object('```json\n{"a": 2}\n```') == {"a": 2}
    assert parse_json_object('Sure! {"a": 3} Hope that helps.') == {"a": 3}
    assert parse_json_object("[1, 2]") is None
    assert parse_json_object("no json here") is None
    assert parse_json_object(None) is None
