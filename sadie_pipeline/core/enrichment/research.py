"""The research layer's contract with Anthropic (seed 000, "enrich-research-queue: Additional
research (Claude)"): what kind of property a hotel is, chain or independent (brand, parent
company), who manages it, and its amenities, each claim with the evidence that supports it.

* ``RESEARCH_SCHEMA``: the JSON schema of the answer. It is written for Anthropic's strict
  structured outputs (every object closes with ``additionalProperties: false`` and lists all its
  properties as required; nullable values are ``["string", "null"]``; no numeric bounds, those are
  checked here), so it serves both as a forced tool (``RESEARCH_TOOL``) and as
  ``output_config.format`` (``RESEARCH_OUTPUT_FORMAT``).
* ``build_research_request(...)``: the keyword arguments for ``client.messages.create``.
* ``parse_research(obj, source_text=None)``: validates a tool input, a JSON string or a whole
  Messages API response into a ``Research``. Claims without evidence are dropped (the seed: LLM
  extraction "can hallucinate"); synonyms are mapped onto the enums; with `source_text`, evidence
  that cannot be found in it is flagged and lowers the confidence.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rapidfuzz import fuzz

__all__ = [
    "AFFILIATIONS",
    "AMENITIES",
    "DEFAULT_CONFIDENCE",
    "PROPERTY_TYPES",
    "RESEARCH_OUTPUT_FORMAT",
    "RESEARCH_SCHEMA",
    "RESEARCH_TOOL",
    "RESEARCH_TOOL_NAME",
    "Amenity",
    "Research",
    "ResearchError",
    "build_research_request",
    "parse_research",
]

PROPERTY_TYPES = (
    "hotel", "boutique_hotel", "resort", "motel", "inn", "bed_and_breakfast", "lodge", "hostel",
    "extended_stay", "aparthotel", "vacation_rental", "campground", "other", "unknown",
)
AFFILIATIONS = ("chain", "independent", "unknown")
AMENITIES = (
    "pool", "indoor_pool", "hot_tub", "spa", "fitness_center", "restaurant", "bar", "room_service",
    "free_breakfast", "free_wifi", "parking", "free_parking", "valet_parking", "ev_charging",
    "airport_shuttle", "meeting_rooms", "event_space", "business_center", "pet_friendly", "beach_access",
    "golf", "tennis", "kids_club", "casino", "kitchenette", "laundry", "concierge", "accessible_rooms",
    "air_conditioning", "non_smoking",
)
DEFAULT_CONFIDENCE = 0.5  # seed 001: llm_extract base confidence
RESEARCH_TOOL_NAME = "record_hotel_research"

_NULLABLE = {"type": ["string", "null"]}
RESEARCH_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "property_type": {
            "type": "string", "enum": list(PROPERTY_TYPES),
            "description": "What kind of lodging this is; 'unknown' when the sources do not say.",
        },
        "property_type_evidence": {"type": "string", "description": "Quote supporting property_type, or ''."},
        "affiliation": {
            "type": "string", "enum": list(AFFILIATIONS),
            "description": "'chain' when the hotel carries a brand of a hotel company (franchised or managed), "
                           "'independent' when it has no brand, 'unknown' when the sources do not say.",
        },
        "brand": {**_NULLABLE, "description": "The brand as written, e.g. 'Hampton Inn by Hilton', or null."},
        "parent_company": {**_NULLABLE, "description": "The brand's owner, e.g. 'Hilton', or null."},
        "affiliation_evidence": {"type": "string", "description": "Quote supporting affiliation/brand, or ''."},
        "management_company": {
            **_NULLABLE,
            "description": "The company that operates the hotel (e.g. 'Aimbridge Hospitality'), only when a "
                           "source names it; null otherwise.",
        },
        "management_company_evidence": {"type": "string", "description": "Quote naming it, or ''."},
        "amenities": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "name": {"type": "string", "enum": list(AMENITIES)},
                    "evidence": {"type": "string", "description": "Quote that mentions the amenity."},
                },
                "required": ["name", "evidence"],
                "additionalProperties": False,
            },
        },
        "confidence": {"type": "number", "description": "Overall confidence from 0 to 1."},
    },
    "required": [
        "property_type", "property_type_evidence", "affiliation", "brand", "parent_company",
        "affiliation_evidence", "management_company", "management_company_evidence", "amenities", "confidence",
    ],
    "additionalProperties": False,
}

RESEARCH_TOOL: dict[str, Any] = {
    "name": RESEARCH_TOOL_NAME,
    "description": (
        "Record what the sources say about one hotel: property type, chain or independent (brand and "
        "parent company), management company and amenities. Every non-empty value needs a short quote "
        "from the sources as evidence; use 'unknown', null or an empty list rather than guessing."
    ),
    "input_schema": RESEARCH_SCHEMA,
}
RESEARCH_OUTPUT_FORMAT: dict[str, Any] = {"type": "json_schema", "schema": RESEARCH_SCHEMA}

_SYSTEM = (
    "You are a hotel industry analyst. You research one hotel at a time from the material given and "
    "record only facts the material supports, each with a short verbatim quote as evidence. "
    "Never infer a management company or a brand that is not named."
)


class ResearchError(ValueError):
    """The answer is not a research object (wrong shape or type)."""


@dataclass(frozen=True)
class Amenity:
    name: str
    evidence: str
    verified: bool | None = None  # None: no source text to check against


@dataclass(frozen=True)
class Research:
    property_type: str
    property_type_evidence: str
    affiliation: str
    brand: str | None
    parent_company: str | None
    affiliation_evidence: str
    management_company: str | None
    management_company_evidence: str
    amenities: tuple[Amenity, ...]
    confidence: float
    warnings: tuple[str, ...] = field(default=())
    unverified: tuple[str, ...] = field(default=())

    @property
    def amenity_names(self) -> list[str]:
        return [a.name for a in self.amenities]

    def as_row(self) -> dict[str, Any]:
        """The columns of the research enrichment row (amenities as a list of names, every piece of
        evidence under ``evidence``)."""
        return {
            "property_type": self.property_type,
            "affiliation": self.affiliation,
            "brand": self.brand,
            "parent_company": self.parent_company,
            "management_company": self.management_company,
            "amenities": self.amenity_names,
            "research_confidence": self.confidence,
            "evidence": {
                "property_type": self.property_type_evidence,
                "affiliation": self.affiliation_evidence,
                "management_company": self.management_company_evidence,
                "amenities": {a.name: a.evidence for a in self.amenities},
            },
        }


def build_research_request(hotel_name: str, *, model: str, city: str | None = None, state: str | None = None,
                           website: str | None = None, website_text: str | None = None,
                           extra_sources: Mapping[str, str] | None = None, mode: str = "tool",
                           max_tokens: int = 1500, max_chars: int = 20_000) -> dict[str, Any]:
    """Keyword arguments for ``anthropic.Anthropic().messages.create(**kwargs)``.

    ``mode="tool"`` forces ``RESEARCH_TOOL`` (strict); ``mode="json"`` asks for the schema through
    ``output_config.format``. Sources are the website text (cut to `max_chars`) and any
    `extra_sources` (title -> text, e.g. a search result page)."""
    if mode not in ("tool", "json"):
        raise ValueError("mode must be 'tool' or 'json'")
    where = ", ".join(p for p in (city, state) if p)
    lines = [f"Hotel: {' '.join(hotel_name.split())}"]
    if where:
        lines.append(f"Location: {where}")
    if website:
        lines.append(f"Website: {website}")
    budget = max_chars
    sources = []
    for title, text in [("Website text", website_text or ""), *(extra_sources or {}).items()]:
        text = " ".join((text or "").split())[:max(0, budget)]
        budget -= len(text)
        if text:
            sources.append(f"<source title={json.dumps(title)}>\n{text}\n</source>")
    task = ("Research this hotel from the sources below: property type, chain or independent (brand, parent "
            "company), management company, amenities. Quote the sources as evidence.")
    content = "\n".join(lines) + "\n\n" + task + ("\n\n" + "\n\n".join(sources) if sources else "\n\n(no sources)")
    request: dict[str, Any] = {
        "model": model,
        "max_tokens": max_tokens,
        "system": _SYSTEM,
        "messages": [{"role": "user", "content": content}],
    }
    if mode == "tool":
        request["tools"] = [{**RESEARCH_TOOL, "strict": True}]
        request["tool_choice"] = {"type": "tool", "name": RESEARCH_TOOL_NAME}
    else:
        request["output_config"] = {"format": RESEARCH_OUTPUT_FORMAT}
    return request


# --- parsing ----------------------------------------------------------------------------------------

def _key(value: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", value.lower()).strip("_")


_PROPERTY_SYNONYMS = {
    "b_b": "bed_and_breakfast", "bnb": "bed_and_breakfast", "bed_breakfast": "bed_and_breakfast",
    "bed_and_breakfast_inn": "bed_and_breakfast", "guest_house": "bed_and_breakfast", "guesthouse": "bed_and_breakfast",
    "boutique": "boutique_hotel", "boutique_inn": "inn", "country_inn": "inn", "motor_inn": "motel",
    "motor_lodge": "motel", "extended_stay_hotel": "extended_stay", "suites_hotel": "hotel", "all_suite_hotel": "hotel",
    "apartment_hotel": "aparthotel", "serviced_apartments": "aparthotel", "vacation_home": "vacation_rental",
    "cottage": "vacation_rental", "cabin": "vacation_rental", "villa": "vacation_rental", "rv_park": "campground",
    "campsite": "campground", "glamping": "campground", "resort_hotel": "resort", "spa_resort": "resort",
    "beach_resort": "resort", "golf_resort": "resort", "casino_hotel": "hotel", "casino_resort": "resort",
    "ski_lodge": "lodge", "hotel_motel": "motel", "n_a": "unknown", "none": "unknown", "": "unknown",
}
_AFFILIATION_SYNONYMS = {
    "chain": "chain", "franchise": "chain", "franchised": "chain", "branded": "chain", "brand": "chain",
    "chain_affiliated": "chain", "soft_brand": "chain", "managed": "chain", "independent": "independent",
    "indie": "independent", "independently_owned": "independent", "unbranded": "independent",
    "unknown": "unknown", "": "unknown", "n_a": "unknown", "none": "unknown",
}
_AMENITY_SYNONYMS = {
    "swimming_pool": "pool", "outdoor_pool": "pool", "heated_pool": "pool", "rooftop_pool": "pool",
    "indoor_swimming_pool": "indoor_pool", "jacuzzi": "hot_tub", "whirlpool": "hot_tub", "spa_services": "spa",
    "gym": "fitness_center", "fitness_centre": "fitness_center", "fitness_room": "fitness_center",
    "fitness": "fitness_center", "on_site_restaurant": "restaurant", "dining": "restaurant", "lounge": "bar",
    "bar_lounge": "bar", "breakfast": "free_breakfast", "complimentary_breakfast": "free_breakfast",
    "breakfast_included": "free_breakfast", "wifi": "free_wifi", "wi_fi": "free_wifi", "free_wi_fi": "free_wifi",
    "complimentary_wifi": "free_wifi", "internet": "free_wifi", "self_parking": "parking",
    "complimentary_parking": "free_parking", "valet": "valet_parking", "ev_chargers": "ev_charging",
    "electric_vehicle_charging": "ev_charging", "shuttle": "airport_shuttle", "airport_transfer": "airport_shuttle",
    "meeting_space": "meeting_rooms", "conference_rooms": "meeting_rooms", "event_venue": "event_space",
    "banquet_hall": "event_space", "ballroom": "event_space", "weddings": "event_space", "pets_allowed": "pet_friendly",
    "pet_friendly_rooms": "pet_friendly", "dog_friendly": "pet_friendly", "private_beach": "beach_access",
    "beachfront": "beach_access", "golf_course": "golf", "tennis_courts": "tennis", "kids_club_": "kids_club",
    "kitchen": "kitchenette", "kitchenettes": "kitchenette", "guest_laundry": "laundry", "coin_laundry": "laundry",
    "ada_rooms": "accessible_rooms", "wheelchair_accessible": "accessible_rooms", "ac": "air_conditioning",
    "smoke_free": "non_smoking", "non_smoking_rooms": "non_smoking",
}
_EMPTY_NAMES = frozenset({"", "null", "none", "n/a", "na", "unknown", "independent", "not applicable", "not stated",
                          "not specified", "-"})


def _text(value: Any) -> str:
    return " ".join(value.split()) if isinstance(value, str) else ""


def _name(value: Any) -> str | None:
    text = _text(value)
    return None if text.lower() in _EMPTY_NAMES else text


def _unwrap(obj: Any) -> Any:
    """The research object inside whatever the client returned."""
    if hasattr(obj, "model_dump"):  # an anthropic Message or block object
        obj = obj.model_dump()
    if isinstance(obj, str):
        text = obj.strip()
        fence = re.search(r"```(?:json)?\s*(.*?)```", text, re.DOTALL)
        if fence:
            text = fence.group(1).strip()
        start = text.find("{")
        if start < 0:
            raise ResearchError("no JSON object in the answer")
        try:
            obj, _ = json.JSONDecoder().raw_decode(text, start)
        except json.JSONDecodeError as exc:
            raise ResearchError(f"invalid JSON: {exc}") from exc
    if isinstance(obj, Mapping) and isinstance(obj.get("content"), list):  # a Messages API response
        blocks = obj["content"]
        for block in blocks:
            if isinstance(block, Mapping) and block.get("type") == "tool_use" and (
                    block.get("name") in (None, RESEARCH_TOOL_NAME)):
                return block.get("input")
        for block in blocks:
            if isinstance(block, Mapping) and block.get("type") == "text" and block.get("text"):
                return _unwrap(block["text"])
        raise ResearchError("response has no research tool call nor text")
    return obj


def _found(evidence: str, source_norm: str) -> bool:
    ev = " ".join(evidence.lower().strip(" \"'“”‘’.…").split())
    if not ev:
        return False
    if ev in source_norm:
        return True
    return fuzz.partial_ratio(ev, source_norm, score_cutoff=90) >= 90 if len(ev) <= 400 else False


def parse_research(obj: Any, source_text: str | None = None) -> Research:
    """A validated ``Research`` from a tool input / JSON string / Messages API response.

    Raises ResearchError when it is not an object or has no property type. Values outside the
    enums are mapped through synonyms (``"B&B"`` -> ``bed_and_breakfast``, ``"swimming pool"`` ->
    ``pool``), else property type becomes ``other`` and unknown amenities are dropped. A claim
    without evidence is dropped (type/affiliation -> ``unknown``, names -> None, amenity removed).
    A brand implies ``chain`` when affiliation is unknown. Confidence: the model's, read as a
    percentage when above 1, clamped to [0, 1], ``DEFAULT_CONFIDENCE`` when missing; minus 0.1 per
    claim whose evidence is not in `source_text` (when given)."""
    data = _unwrap(obj)
    if not isinstance(data, Mapping):
        raise ResearchError(f"research must be an object, not {type(data).__name__}")
    warnings: list[str] = []
    raw_type = data.get("property_type")
    if not isinstance(raw_type, str):
        raise ResearchError("property_type is missing or not a string")

    ptype = _key(raw_type)
    if ptype not in PROPERTY_TYPES:
        mapped = _PROPERTY_SYNONYMS.get(ptype)
        if mapped is None:
            warnings.append(f"property_type {raw_type!r} not recognised: other")
            mapped = "other"
        ptype = mapped
    ptype_ev = _text(data.get("property_type_evidence"))
    if ptype != "unknown" and not ptype_ev:
        warnings.append("property_type without evidence: unknown")
        ptype = "unknown"

    raw_aff = data.get("affiliation")
    aff = _AFFILIATION_SYNONYMS.get(_key(raw_aff) if isinstance(raw_aff, str) else "", None)
    if aff is None:
        warnings.append(f"affiliation {raw_aff!r} not recognised: unknown")
        aff = "unknown"
    brand = _name(data.get("brand"))
    parent = _name(data.get("parent_company"))
    aff_ev = _text(data.get("affiliation_evidence"))
    if not aff_ev and (aff != "unknown" or brand or parent):
        warnings.append("affiliation without evidence: unknown")
        aff, brand, parent = "unknown", None, None
    if aff == "unknown" and (brand or parent):
        aff = "chain"
    if aff == "independent" and brand:
        warnings.append(f"independent but brand {brand!r} given")

    mgmt = _name(data.get("management_company"))
    mgmt_ev = _text(data.get("management_company_evidence"))
    if mgmt and not mgmt_ev:
        warnings.append("management_company without evidence: dropped")
        mgmt = None
    if not mgmt:
        mgmt_ev = ""

    amenities: list[Amenity] = []
    seen: set[str] = set()
    raw_amenities = data.get("amenities") or []
    if not isinstance(raw_amenities, list):
        raise ResearchError("amenities must be a list")
    for item in raw_amenities:
        if isinstance(item, str):
            name_raw, ev = item, ""
        elif isinstance(item, Mapping):
            name_raw, ev = item.get("name"), _text(item.get("evidence"))
        else:
            continue
        if not isinstance(name_raw, str):
            continue
        name = _key(name_raw)
        name = name if name in AMENITIES else _AMENITY_SYNONYMS.get(name, "")
        if not name:
            warnings.append(f"amenity {name_raw!r} not recognised: dropped")
            continue
        if not ev:
            warnings.append(f"amenity {name!r} without evidence: dropped")
            continue
        if name not in seen:
            seen.add(name)
            amenities.append(Amenity(name, ev))

    conf_raw = data.get("confidence")
    if isinstance(conf_raw, (int, float)) and not isinstance(conf_raw, bool):
        conf = float(conf_raw) / 100 if 1 < conf_raw <= 100 else float(conf_raw)
    else:
        conf = DEFAULT_CONFIDENCE
    conf = min(1.0, max(0.0, conf))

    unverified: list[str] = []
    if source_text is not None:
        norm = " ".join(source_text.lower().split())
        checks = [("property_type", ptype_ev if ptype != "unknown" else ""),
                  ("affiliation", aff_ev if aff != "unknown" else ""),
                  ("management_company", mgmt_ev)]
        for fname, ev in checks:
            if ev and not _found(ev, norm):
                unverified.append(fname)
        checked = []
        for a in amenities:
            ok = _found(a.evidence, norm)
            if not ok:
                unverified.append(f"amenity:{a.name}")
            checked.append(Amenity(a.name, a.evidence, ok))
        amenities = checked
        conf = max(0.05, conf - 0.1 * len(unverified)) if unverified else conf

    return Research(
        property_type=ptype, property_type_evidence=ptype_ev if ptype != "unknown" else "",
        affiliation=aff, brand=brand, parent_company=parent,
        affiliation_evidence=aff_ev if aff != "unknown" else "",
        management_company=mgmt, management_company_evidence=mgmt_ev,
        amenities=tuple(amenities), confidence=round(conf, 2),
        warnings=tuple(warnings), unverified=tuple(unverified),
    )
