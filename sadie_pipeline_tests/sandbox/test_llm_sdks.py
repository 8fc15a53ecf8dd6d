"""The official groq and anthropic SDKs against the sandbox."""

from __future__ import annotations

import json

import anthropic
import groq
import httpx
import pytest

from sadie_pipeline.sandbox import Sandbox

from .conftest import KEY

RESEARCH_TOOL = {
    "name": "record_hotel",
    "description": "Record what the website says about the hotel.",
    "input_schema": {
        "type": "object",
        "properties": {
            "property_type": {"type": "string", "enum": ["hotel", "motel", "resort", "inn", "bed_and_breakfast",
                                                         "boutique_hotel", "hostel", "vacation_rental", "other"]},
            "chain_or_independent": {"type": "string", "enum": ["chain", "independent"]},
            "brand": {"type": ["string", "null"]},
            "management_company": {"type": ["string", "null"]},
            "amenities": {"type": "array", "items": {"type": "string"}},
            "evidence": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["property_type", "chain_or_independent", "amenities", "evidence"],
    },
}


def site_text(web: httpx.Client, base: str, *pages: str) -> str:
    return "\n".join(web.get(base + p).text for p in pages)


@pytest.fixture
def groq_client(sb: Sandbox) -> groq.Groq:
    return groq.Groq(api_key=KEY, base_url=sb.base_url("groq"), max_retries=0)


@pytest.fixture
def claude(sb: Sandbox) -> anthropic.Anthropic:
    return anthropic.Anthropic(api_key=KEY, base_url=sb.base_url("anthropic"), max_retries=0)


def test_groq_chat_completion_reads_room_count(sb: Sandbox, web: httpx.Client, groq_client: groq.Groq) -> None:
    text = site_text(web, "http://www.biscaynebayinn.test/", "", "rooms")
    r = groq_client.chat.completions.create(
        model="llama-3.3-70b-versatile",
        messages=[{"role": "system", "content": 'How many rooms has the hotel? Answer JSON {"room_count": int, "evidence": str}.'},
                  {"role": "user", "content": text}],
        response_format={"type": "json_object"}, temperature=0)
    assert r.object == "chat.completion" and r.choices[0].finish_reason == "stop"
    assert r.usage.total_tokens == r.usage.prompt_tokens + r.usage.completion_tokens
    answer = json.loads(r.choices[0].message.content)
    assert answer["room_count"] == 120
    assert "120 guest rooms" in " ".join(answer["evidence"])
    # same prompt, same answer
    again = groq_client.chat.completions.create(model="llama-3.3-70b-versatile",
                                                messages=[{"role": "system", "content": 'How many rooms? Answer JSON.'},
                                                          {"role": "user", "content": text}])
    assert json.loads(again.choices[0].message.content)["room_count"] == 120


def test_groq_tools_stream_and_errors(sb: Sandbox, web: httpx.Client, groq_client: groq.Groq) -> None:
    text = site_text(web, "http://www.wynwoodarthouse.test/", "rooms", "about")
    fn = {"type": "function", "function": {"name": "rooms", "parameters": {
        "type": "object", "properties": {"room_count": {"type": ["integer", "null"]}}, "required": ["room_count"]}}}
    r = groq_client.chat.completions.create(model="llama-3.1-8b-instant", messages=[{"role": "user", "content": text}],
                                            tools=[fn], tool_choice="required")
    call = r.choices[0].message.tool_calls[0]
    assert r.choices[0].finish_reason == "tool_calls"
    assert call.function.name == "rooms" and json.loads(call.function.arguments) == {"room_count": 9}  # "nine rooms"

    schema = {"type": "object", "properties": {"room_count": {"type": "integer"}, "property_type": {"type": "string"},
                                               "evidence": {"type": "string"}}, "required": ["room_count"]}
    r = groq_client.chat.completions.create(
        model="openai/gpt-oss-20b", messages=[{"role": "user", "content": text}],
        response_format={"type": "json_schema", "json_schema": {"name": "rooms", "schema": schema}})
    shaped = json.loads(r.choices[0].message.content)
    assert shaped["room_count"] == 9 and shaped["property_type"] == "bed_and_breakfast"
    assert "nine rooms" in shaped["evidence"]

    chunks = list(groq_client.chat.completions.create(model="llama-3.1-8b-instant", stream=True,
                                                      messages=[{"role": "user", "content": text}]))
    assert "9 rooms" in "".join(c.choices[0].delta.content or "" for c in chunks)
    assert chunks[-1].choices[0].finish_reason == "stop"

    r = httpx.post(f"{sb.base_url('groq')}/openai/v1/chat/completions", json={})
    assert r.status_code == 401 and r.json()["error"]["code"] == "invalid_api_key"
    sb.expect_api_key("groq", "gsk_the_right_one")
    try:
        with pytest.raises(groq.AuthenticationError):
            groq_client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}])
    finally:
        sb.expect_api_key("groq", None)
    sb.configure("groq", rate_limit=(1, 60))
    groq_client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}])
    with pytest.raises(groq.RateLimitError) as exc:
        groq_client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}])
    assert int(exc.value.response.headers["retry-after"]) >= 1
    assert exc.value.response.json()["error"]["code"] == "rate_limit_exceeded"
    sb.configure("groq", error_rate=1.0)
    with pytest.raises(groq.InternalServerError):
        groq_client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}])


def test_anthropic_message_and_structured_tool_use(sb: Sandbox, web: httpx.Client, claude: anthropic.Anthropic) -> None:
    base = "http://www.southbeachoceanresort.test/"
    text = site_text(web, base, "", "rooms", "about", "amenities", "contact")
    m = claude.messages.create(model="claude-sonnet-4-5", max_tokens=1024, system="You research hotels.",
                               messages=[{"role": "user", "content": text}],
                               tools=[RESEARCH_TOOL], tool_choice={"type": "tool", "name": "record_hotel"})
    assert m.type == "message" and m.role == "assistant" and m.stop_reason == "tool_use"
    block = m.content[0]
    assert block.type == "tool_use" and block.name == "record_hotel" and block.id.startswith("toolu_")
    facts = block.input
    assert facts["property_type"] == "resort"
    assert facts["chain_or_independent"] == "independent" and facts["brand"] is None
    assert facts["management_company"] == "Coastal Hospitality Group"
    assert {"spa", "outdoor pool", "beach access"} <= set(facts["amenities"])
    assert any("managed by Coastal Hospitality Group" in e for e in facts["evidence"])
    assert m.usage.input_tokens > 0 and m.usage.output_tokens > 0

    chain = site_text(web, "http://www.hilton.test/en/hotels/mcodthx-hampton-orlando-downtown/", "", "about")
    m = claude.messages.create(model="claude-haiku-4-5", max_tokens=512, messages=[{"role": "user", "content": chain}],
                               tools=[RESEARCH_TOOL], tool_choice={"type": "any"})
    assert m.content[0].input["chain_or_independent"] == "chain"
    assert m.content[0].input["brand"] == "Hampton Inn"


def test_anthropic_text_stream_structured_output_and_errors(sb: Sandbox, web: httpx.Client,
                                                           claude: anthropic.Anthropic) -> None:
    text = site_text(web, "http://www.lakeeolainn.test/", "rooms", "about")
    m = claude.messages.create(model="claude-haiku-4-5", max_tokens=256, messages=[{"role": "user", "content": text}])
    assert m.stop_reason == "end_turn" and "22 rooms" in m.content[0].text
    with claude.messages.stream(model="claude-haiku-4-5", max_tokens=256,
                                messages=[{"role": "user", "content": text}]) as stream:
        assert stream.get_final_message().content[0].text == m.content[0].text
    schema = {"type": "object", "properties": {"room_count": {"type": "integer"}, "property_type": {"type": "string"}},
              "required": ["room_count", "property_type"], "additionalProperties": False}
    m = claude.messages.create(model="claude-haiku-4-5", max_tokens=256, messages=[{"role": "user", "content": text}],
                               output_config={"format": {"type": "json_schema", "schema": schema}})
    assert json.loads(m.content[0].text) == {"room_count": 22, "property_type": "inn"}

    r = httpx.post(f"{sb.base_url('anthropic')}/v1/messages", headers={"x-api-key": KEY},
                   json={"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]})
    assert r.status_code == 400 and r.json()["error"]["type"] == "invalid_request_error"  # no anthropic-version
    sb.expect_api_key("anthropic", "sk-ant-the-right-one")
    try:
        with pytest.raises(anthropic.AuthenticationError):
            claude.messages.create(model="m", max_tokens=5, messages=[{"role": "user", "content": "hi"}])
    finally:
        sb.expect_api_key("anthropic", None)
    sb.configure("anthropic", error_rate=1.0)
    with pytest.raises(anthropic.APIStatusError) as exc:
        claude.messages.create(model="m", max_tokens=5, messages=[{"role": "user", "content": "hi"}])
    assert exc.value.status_code == 529 and exc.value.response.json()["error"]["type"] == "overloaded_error"
    sb.configure("anthropic", error_rate=0.0, rate_limit=(1, 60))
    claude.messages.create(model="m", max_tokens=5, messages=[{"role": "user", "content": "hi"}])
    with pytest.raises(anthropic.RateLimitError) as rl:
        claude.messages.create(model="m", max_tokens=5, messages=[{"role": "user", "content": "hi"}])
    assert int(rl.value.response.headers["retry-after"]) >= 1
    assert sb.stats("anthropic")["rate_limited"] == 1
