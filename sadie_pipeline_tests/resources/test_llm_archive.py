"""The LLMs' raw answers kept for audit as Serper's pages are (seed 000): Groq and Anthropic on the
sandbox, each exchange stored redacted under api-responses/llm/{provider}/{date}/{hash}.json."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from sadie_pipeline.resource_defs import configured, resolved
from sadie_pipeline.resources.llm import AnthropicResource, GroqResource
from sadie_pipeline.resources.objects import PlainStore
from sadie_pipeline.sandbox import Sandbox
from sadie_pipeline_tests.resources.helpers import run
from sadie_pipeline_tests.resources.test_llm import FAST, KEY, PAGE, TOOL


def _archived(home, provider: str) -> list[dict]:
    store = PlainStore(home=str(home))
    day = dt.datetime.now(dt.UTC).date().isoformat()
    keys = store.list_keys(f"api-responses/llm/{provider}/{day}/")
    return [json.loads(store.get_bytes(k)) for k in keys]


def test_groq_and_anthropic_answers_are_archived_redacted(sb: Sandbox, tmp_path) -> None:
    groq = GroqResource(api_key=KEY, base_url=sb.base_url("groq"), raw_home=str(tmp_path), **FAST)
    messages = [{"role": "system", "content": 'How many rooms has the hotel? Answer JSON {"room_count": int}.'},
                {"role": "user", "content": PAGE + f" Our booking key is {KEY}."}]
    assert run(groq, lambda: groq.chat_json(messages, item_key="hotel:7"))["room_count"] == 120
    [record] = _archived(tmp_path, "groq")
    assert record["provider"] == "groq" and record["item_key"] == "hotel:7"
    assert record["request"]["messages"][1]["content"].startswith("Welcome to Biscayne Bay Inn")
    assert '"room_count"' in record["response"]["choices"][0]["message"]["content"]
    assert KEY not in json.dumps(record) and record["fetched_at"]

    claude = AnthropicResource(api_key=KEY, base_url=sb.base_url("anthropic"), raw_home=str(tmp_path), **FAST)
    facts = run(claude, lambda: claude.structured(PAGE, TOOL))
    [record] = _archived(tmp_path, "anthropic")
    [tool_use] = [b for b in record["response"]["content"] if b["type"] == "tool_use"]
    assert tool_use["input"] == facts and record["request"]["tools"][0]["name"] == "record_hotel"

    run(claude, lambda: claude.structured(PAGE, TOOL))  # the same exchange again: one copy (keyed by its hash)
    assert len(_archived(tmp_path, "anthropic")) == 1


def test_the_definitions_archive_where_the_object_store_is(sb: Sandbox, tmp_path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SADIE_HOME", str(tmp_path))
    monkeypatch.delenv("SADIE_S3_BUCKET", raising=False)
    groq = resolved(configured("groq", api_key=KEY, base_url=sb.base_url("groq"), **FAST))
    assert groq.raw_home == str(tmp_path)
    run(groq, lambda: groq.chat_json('Answer JSON {"room_count": int}. ' + PAGE))
    assert len(_archived(tmp_path, "groq")) == 1
    unset = GroqResource(api_key=KEY, base_url=sb.base_url("groq"), **FAST)
    assert unset.raw_store() is None  # no store named: nothing archived


def test_an_archive_that_cannot_be_written_never_costs_the_answer(sb: Sandbox, tmp_path) -> None:
    blocker = tmp_path / "objects"
    blocker.write_text("a file where the store's folder should be")
    groq = GroqResource(api_key=KEY, base_url=sb.base_url("groq"), raw_home=str(tmp_path), **FAST)
    answer = run(groq, lambda: groq.chat_json('Answer JSON {"room_count": int}. ' + PAGE))
    assert answer["room_count"] == 120
