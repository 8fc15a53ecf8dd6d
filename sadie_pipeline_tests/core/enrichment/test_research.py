"""Unit tests for sadie_pipeline.core.enrichment.research: the Anthropic schema/tool/request and the
validation of answers (tool input, JSON text, whole Messages responses)."""

from __future__ import annotations

import json

import pytest

from sadie_pipeline.core.enrichment.research import (
    AMENITIES,
    PROPERTY_TYPES,
    RESEARCH_OUTPUT_FORMAT,
    RESEARCH_SCHEMA,
    RESEARCH_TOOL,
    RESEARCH_TOOL_NAME,
    Research,
    ResearchError,
    build_research_request,
    parse_research,
)

SITE_TEXT = (
    "Hampton Inn & Suites Charlottetown. A Hilton hotel. Managed by Aimbridge Hospitality. "
    "Enjoy our indoor heated pool, free hot breakfast daily and complimentary Wi-Fi. "
    "Pet-friendly rooms available. Fitness center open 24 hours."
)
GOOD = {
    "property_type": "hotel",
    "property_type_evidence": "Hampton Inn & Suites Charlottetown",
    "affiliation": "chain",
    "brand": "Hampton Inn & Suites",
    "parent_company": "Hilton",
    "affiliation_evidence": "A Hilton hotel.",
    "management_company": "Aimbridge Hospitality",
    "management_company_evidence": "Managed by Aimbridge Hospitality.",
    "amenities": [
        {"name": "indoor_pool", "evidence": "indoor heated pool"},
        {"name": "free_breakfast", "evidence": "free hot breakfast daily"},
        {"name": "free_wifi", "evidence": "complimentary Wi-Fi"},
        {"name": "pet_friendly", "evidence": "Pet-friendly rooms available."},
    ],
    "confidence": 0.9,
}


def _walk_objects(schema):
    if isinstance(schema, dict):
        if schema.get("type") == "object":
            yield schema
        for value in schema.values():
            yield from _walk_objects(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from _walk_objects(value)


def test_schema_is_strict_structured_output_compatible():
    objects = list(_walk_objects(RESEARCH_SCHEMA))
    assert len(objects) == 2  # the answer and an amenity
    for obj in objects:
        assert obj["additionalProperties"] is False
        assert set(obj["required"]) == set(obj["properties"])
    text = json.dumps(RESEARCH_SCHEMA)
    for unsupported in ("minimum", "maximum", "minLength", "pattern", "$ref"):
        assert unsupported not in text
    props = RESEARCH_SCHEMA["properties"]
    assert props["property_type"]["enum"] == list(PROPERTY_TYPES)
    assert props["affiliation"]["enum"] == ["chain", "independent", "unknown"]
    assert props["amenities"]["items"]["properties"]["name"]["enum"] == list(AMENITIES)
    assert RESEARCH_TOOL["input_schema"] is RESEARCH_SCHEMA
    assert RESEARCH_OUTPUT_FORMAT == {"type": "json_schema", "schema": RESEARCH_SCHEMA}


def test_request_forces_the_tool_or_asks_for_json_output():
    req = build_research_request("Hampton Inn  & Suites Charlottetown", model="claude-sonnet-4-5",
                                 city="Charlottetown", state="PE", website="https://hamptoninn.example",
                                 website_text=SITE_TEXT, extra_sources={"Search result": "Aimbridge portfolio"})
    assert req["tool_choice"] == {"type": "tool", "name": RESEARCH_TOOL_NAME}
    assert req["tools"][0]["strict"] is True and req["tools"][0]["name"] == RESEARCH_TOOL_NAME
    content = req["messages"][0]["content"]
    assert "Hotel: Hampton Inn & Suites Charlottetown" in content
    assert "Location: Charlottetown, PE" in content
    assert SITE_TEXT in content and "Aimbridge portfolio" in content
    js = build_research_request("X", model="m", mode="json", website_text="y" * 50_000, max_chars=1000)
    assert "tools" not in js and js["output_config"]["format"]["type"] == "json_schema"
    assert len(js["messages"][0]["content"]) < 1500
    with pytest.raises(ValueError):
        build_research_request("X", model="m", mode="xml")


def test_parse_a_good_answer_and_verify_its_evidence_against_the_page():
    r = parse_research(GOOD, source_text=SITE_TEXT)
    assert isinstance(r, Research)
    assert (r.property_type, r.affiliation, r.brand, r.parent_company) == ("hotel", "chain", "Hampton Inn & Suites",
                                                                           "Hilton")
    assert r.management_company == "Aimbridge Hospitality"
    assert r.amenity_names == ["indoor_pool", "free_breakfast", "free_wifi", "pet_friendly"]
    assert all(a.verified for a in r.amenities)
    assert r.unverified == () and r.warnings == ()
    assert r.confidence == 0.9
    row = r.as_row()
    assert row["amenities"] == r.amenity_names
    assert row["evidence"]["management_company"] == "Managed by Aimbridge Hospitality."


def test_evidence_not_on_the_page_lowers_confidence():
    answer = dict(GOOD, management_company="Marriott International",
                  management_company_evidence="Operated by Marriott International since 2010")
    r = parse_research(answer, source_text=SITE_TEXT)
    assert r.unverified == ("management_company",)
    assert r.confidence == 0.8


def test_claims_without_evidence_are_dropped():
    answer = dict(GOOD, management_company_evidence="", affiliation_evidence="  ",
                  amenities=[{"name": "spa", "evidence": ""}, {"name": "pool", "evidence": "outdoor pool"}])
    r = parse_research(answer)
    assert r.management_company is None
    assert (r.affiliation, r.brand, r.parent_company) == ("unknown", None, None)
    assert r.amenity_names == ["pool"]
    assert len(r.warnings) == 3


def test_synonyms_map_onto_the_enums():
    answer = {
        "property_type": "B&B", "property_type_evidence": "a charming bed & breakfast",
        "affiliation": "Independently owned", "brand": "N/A", "parent_company": None,
        "affiliation_evidence": "family owned since 1982", "management_company": "none",
        "management_company_evidence": "",
        "amenities": [{"name": "Swimming Pool", "evidence": "outdoor pool"}, {"name": "WiFi", "evidence": "free wifi"},
                      {"name": "Helipad", "evidence": "rooftop helipad"}, {"name": "pool", "evidence": "pool"}],
        "confidence": 85,
    }
    r = parse_research(answer)
    assert r.property_type == "bed_and_breakfast"
    assert (r.affiliation, r.brand, r.management_company) == ("independent", None, None)
    assert r.amenity_names == ["pool", "free_wifi"]  # helipad unknown, pool once
    assert r.confidence == 0.85
    assert any("Helipad" in w for w in r.warnings)


def test_unknown_values_and_brand_only_answers():
    r = parse_research({"property_type": "treehouse", "property_type_evidence": "our treehouses",
                        "affiliation": None, "brand": "Best Western Plus", "affiliation_evidence": "Best Western Plus",
                        "amenities": [], "confidence": None})
    assert r.property_type == "other"
    assert r.affiliation == "chain"  # a brand implies a chain
    assert r.confidence == 0.5  # seed: llm_extract base


def test_accepts_json_text_and_whole_messages_responses():
    as_text = "Here you go:\n```json\n" + json.dumps(GOOD) + "\n```"
    assert parse_research(as_text).brand == "Hampton Inn & Suites"
    message = {"id": "msg_1", "type": "message", "role": "assistant", "content": [
        {"type": "text", "text": "Recording."},
        {"type": "tool_use", "id": "toolu_1", "name": RESEARCH_TOOL_NAME, "input": GOOD},
    ], "stop_reason": "tool_use"}
    assert parse_research(message).management_company == "Aimbridge Hospitality"
    json_mode = {"content": [{"type": "text", "text": json.dumps(GOOD)}]}
    assert parse_research(json_mode).parent_company == "Hilton"


@pytest.mark.parametrize("bad", [
    [GOOD],
    "no json here",
    '{"property_type": ',
    {"affiliation": "chain"},
    {"property_type": 3},
    {"content": [{"type": "text", "text": ""}]},
    dict(GOOD, amenities="pool, spa"),
])
def test_structurally_invalid_answers_raise(bad):
    with pytest.raises(ResearchError):
        parse_research(bad)
