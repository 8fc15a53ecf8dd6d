"""The sandbox's deterministic "model": answers come from the prompt text alone.

It reads what a real model would read (the page text inside the prompt) and extracts room
counts, property type, chain/brand, management company, amenities, contacts and evidence with
plain rules. The same prompt always gives the same answer. When the caller asks for a
structure (a tool's `input_schema`, OpenAI `response_format` json_schema, Anthropic
`output_config.format`), the answer is shaped to that schema by property names.
"""

from __future__ import annotations

import json
import re
from typing import Any

WORD_NUMBERS = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
}
_UNIT = r"(?:guest\s*rooms?|rooms?(?!\s+(?:types?|service|rates?))|suites|keys|units|accommodations|cottages|bungalows|villas|cabins)"
_ADJ = r"(?:(?!(?:of|in|from|or|to|per)\b)[a-z\-]+\s+){0,4}?"
ROOMS_RE = re.compile(rf"(?<![\d\-.(/$#])\b(\d{{1,4}}|{'|'.join(WORD_NUMBERS)})\s+{_ADJ}{_UNIT}\b", re.I)

BRANDS = [
    "Hampton Inn", "Hilton Garden Inn", "Embassy Suites", "DoubleTree", "Homewood Suites", "Hilton",
    "Courtyard by Marriott", "Residence Inn", "Fairfield Inn", "SpringHill Suites", "Marriott", "Sheraton",
    "Westin", "Ritz-Carlton", "Holiday Inn Express", "Holiday Inn", "Kimpton", "InterContinental", "Hyatt",
    "Best Western", "Comfort Inn", "Comfort Suites", "Quality Inn", "Sleep Inn", "Days Inn", "Super 8",
    "La Quinta", "Wyndham", "Ramada", "Radisson", "Motel 6", "Four Seasons", "Loews", "Omni",
]
PROPERTY_TYPES = [
    ("bed_and_breakfast", r"bed (?:and|&) breakfast|\bb&b\b|guest ?house|innkeeper"),
    ("hostel", r"\bhostel\b"),
    ("resort", r"\bresort\b"),
    ("motel", r"\bmotel\b|motor lodge|motor inn"),
    ("vacation_rental", r"vacation (?:rental|cottage|home)s?|\bcottages\b|\bcondo"),
    ("boutique_hotel", r"boutique hotel"),
    ("inn", r"\binn\b"),
    ("lodge", r"\blodge\b"),
    ("hotel", r"\bhotel\b"),
]
SELF_TYPE_RE = re.compile(
    r"\b(?:your|locally owned|family[- ]owned|independent)\s+(?:[\w-]+\s+){0,2}?"
    r"(bed and breakfast|boutique hotel|hotel|resort|motel|inn|hostel|lodge|collection of vacation cottages|guest ?house)\b")


def _phrase_type(phrase: str) -> str | None:
    for name, pat in PROPERTY_TYPES:
        if re.search(pat, phrase):
            return name
    return None


AMENITIES = [
    "outdoor pool", "indoor pool", "pool", "spa", "fitness center", "gym", "free wifi", "wifi", "restaurant", "bar",
    "valet parking", "free parking", "parking", "complimentary breakfast", "breakfast", "beach access",
    "pet friendly", "shuttle", "meeting rooms", "rooftop terrace", "marina", "water park", "garden",
    "kitchenette", "kitchen", "shared kitchen", "lockers", "bicycle rental", "surfboard rental", "adults only",
]
EMAIL_RE = re.compile(r"[A-Za-z0-9._%+-]+(?:@|\s*\[at\]\s*)[A-Za-z0-9-]+(?:(?:\.|\s*\[dot\]\s*)[A-Za-z0-9-]+)+")
PHONE_RE = re.compile(r"\(?\b\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}\b")
MGMT_RE = re.compile(r"\bmanaged by ([A-Z][\w&.,' -]+?)(?:[.;\n]|$)")
PERSON_RE = re.compile(
    r"\b([A-Z][a-z]+(?: [A-Z][a-z'\-]+){1,2}),\s+(General Manager|Owner|Innkeeper|Manager|Hotel Manager|"
    r"Director of [A-Z][a-z]+(?: (?:and|&) [A-Z][a-z]+)?|Revenue Manager|Front Office Manager)\b")
OWNER_RE = re.compile(r"\b[Oo]wned and operated by ([A-Z][a-z]+(?: [A-Z][a-z'\-]+){1,2})")


def message_text(content: Any) -> str:
    """Text of an OpenAI/Anthropic message content (string or list of blocks)."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    out = []
    for block in content:
        if isinstance(block, str):
            out.append(block)
        elif isinstance(block, dict):
            if block.get("type") in ("text", "input_text"):
                out.append(str(block.get("text", "")))
            elif block.get("type") == "tool_result":
                out.append(message_text(block.get("content")))
            elif block.get("type") == "document":
                src = block.get("source") or {}
                out.append(str(src.get("data", "")) if src.get("type") == "text" else "")
    return "\n".join(out)


def _strip_html(text: str) -> str:
    if "<" in text and ">" in text:
        text = re.sub(r"(?is)<(script|style)\b.*?</\1>", " ", text)
        text = re.sub(r"(?s)<[^>]+>", " ", text)
        text = re.sub(r"&nbsp;|&middot;|&ndash;|&amp;", " ", text)
    return text


def _snippet(text: str, start: int, end: int, pad: int = 40) -> str:
    a, b = max(0, start - pad), min(len(text), end + pad)
    return re.sub(r"\s+", " ", text[a:b]).strip()


_QUOTED = re.compile(r"(?s)<<<(.*?)(?:>>>|$)|<source\b[^>]*>(.*?)</source>")


def _material(prompt: str) -> str:
    """What a real model would read facts from: the quoted source material when the prompt
    quotes some (<<< ... >>> or <source> blocks), not the instructions and their examples."""
    quoted = [a or b for a, b in _QUOTED.findall(prompt)]
    return "\n".join(quoted) if quoted else prompt


def extract(prompt: str) -> dict[str, Any]:
    """Every fact the sandbox model can read from `prompt`."""
    text = _strip_html(_material(prompt))
    low = text.lower()
    evidence: list[str] = []

    room_count = None
    for m in ROOMS_RE.finditer(text):
        raw = m.group(1).lower()
        n = int(raw) if raw.isdigit() else WORD_NUMBERS[raw]
        if 1 <= n <= 5000:
            room_count = n
            evidence.append(_snippet(text, m.start(), m.end()))
            break

    brand = None
    for b in BRANDS:
        m = re.search(rf"\b{re.escape(b)}\b", text)
        if m:
            brand = b
            evidence.append(_snippet(text, m.start(), m.end()))
            break
    independent = bool(re.search(r"\bindependent(ly)?\b|locally owned|family[- ]owned", low))
    is_chain = brand is not None and not independent

    property_type = None
    m = SELF_TYPE_RE.search(low)  # "your boutique hotel in ...", "an independent, locally owned inn"
    if m:
        property_type = _phrase_type(m.group(1))
    if property_type is None:
        for name, pat in PROPERTY_TYPES:
            if re.search(pat, low):
                property_type = name
                break

    management = None
    m = MGMT_RE.search(text)
    if m:
        management = m.group(1).strip().rstrip(",")
        evidence.append(_snippet(text, m.start(), m.end()))

    amenities: list[str] = []
    for a in AMENITIES:
        if re.search(rf"\b{re.escape(a)}\b", low) and not any(a in x for x in amenities):
            amenities.append(a)

    emails = []
    for m in EMAIL_RE.finditer(text):
        e = re.sub(r"\s*\[dot\]\s*", ".", re.sub(r"\s*\[at\]\s*", "@", m.group(0))).lower()
        if e not in emails:
            emails.append(e)
    phones = list(dict.fromkeys(m.group(0) for m in PHONE_RE.finditer(text)))

    contacts = []
    for m in PERSON_RE.finditer(text):
        tail = text[m.end():m.end() + 200]
        em = EMAIL_RE.search(tail)
        ph = PHONE_RE.search(tail)
        email = None
        if em:
            email = re.sub(r"\s*\[dot\]\s*", ".", re.sub(r"\s*\[at\]\s*", "@", em.group(0))).lower()
        contacts.append({"name": m.group(1), "title": m.group(2), "email": email, "phone": ph.group(0) if ph else None})
    owner = None
    m = OWNER_RE.search(text)
    if m:
        owner = m.group(1)
    elif any(c["title"] == "Owner" for c in contacts):
        owner = next(c["name"] for c in contacts if c["title"] == "Owner")

    return {
        "room_count": room_count,
        "property_type": property_type,
        "is_chain": is_chain,
        "is_independent": not is_chain,
        "brand": brand if is_chain else None,
        "management_company": management,
        "owner": owner,
        "amenities": amenities,
        "contacts": contacts,
        "emails": emails,
        "phones": phones,
        "evidence": evidence,
        "confidence": 0.9 if (room_count or brand or management or property_type) else 0.2,
    }


# ---- shaping to a schema ---------------------------------------------------------------------

def _pick(name: str, facts: dict[str, Any], schema: dict[str, Any] | None = None) -> tuple[bool, Any]:
    n = name.lower()
    if re.search(r"chain|independent|affiliat", n) and not re.search(r"name|brand", n):
        types = (schema or {}).get("type")
        types = types if isinstance(types, list) else [types]
        if "boolean" in types:
            return True, facts["is_independent"] if "independent" in n and "chain" not in n else facts["is_chain"]
        if "string" in types or "enum" in (schema or {}):
            return True, "chain" if facts["is_chain"] else "independent"
    rules: list[tuple[str, str]] = [
        (r"room", "room_count"), (r"independent", "is_independent"), (r"is_chain|^chain$|chain_or|affiliat", "is_chain"),
        (r"brand|chain_name|franchise|flag", "brand"), (r"manage|operator", "management_company"),
        (r"owner", "owner"), (r"property_type|type|category", "property_type"), (r"amenit", "amenities"),
        (r"evidence|quote|source|reason", "evidence"), (r"confidence|score|certainty", "confidence"),
        (r"contact|people|person|staff|decision|team", "contacts"), (r"email", "emails"), (r"phone", "phones"),
    ]
    for pat, key in rules:
        if re.search(pat, n):
            return True, facts.get(key)
    return False, None


def _default(schema: dict[str, Any]) -> Any:
    t = schema.get("type")
    if isinstance(t, list):
        if "null" in t:
            return None
        t = t[0]
    if "enum" in schema:
        return schema["enum"][0]
    return {"string": "", "integer": 0, "number": 0, "boolean": False, "array": [], "object": {}}.get(t)


def _coerce(value: Any, schema: dict[str, Any], facts: dict[str, Any]) -> Any:
    t = schema.get("type")
    types = t if isinstance(t, list) else [t] if t else []
    if value is None:
        return None if (not types or "null" in types or "anyOf" in schema) else _default(schema)
    if "enum" in schema:
        enum = schema["enum"]
        if value in enum:
            return value
        if isinstance(value, bool):
            for cand in (("chain", "branded") if value else ("independent",)):
                if cand in enum:
                    return cand
        sval = str(value).lower().replace(" ", "_")
        for e in enum:
            if str(e).lower().replace(" ", "_") in (sval, sval.split("_")[-1]):
                return e
        return enum[-1] if "other" in [str(e).lower() for e in enum] else enum[0]
    if "array" in types:
        items = schema.get("items") or {}
        seq = value if isinstance(value, list) else [value]
        return [_coerce(v, items, facts) if isinstance(v, (dict, list)) or items.get("type") != "object"
                else _shape(items, v if isinstance(v, dict) else {}) for v in seq]
    if "object" in types:
        return _shape(schema, value if isinstance(value, dict) else facts)
    if "boolean" in types:
        return bool(value)
    if "integer" in types:
        try:
            return int(value)
        except (TypeError, ValueError):
            return None if "null" in types else 0
    if "number" in types:
        try:
            return float(value)
        except (TypeError, ValueError):
            return None if "null" in types else 0.0
    if "string" in types:
        if isinstance(value, list):
            return "; ".join(str(v) for v in value)
        return str(value)
    return value


def _shape(schema: dict[str, Any], facts: dict[str, Any]) -> dict[str, Any]:
    props: dict[str, Any] = schema.get("properties") or {}
    required = set(schema.get("required") or [])
    out: dict[str, Any] = {}
    for name, sub in props.items():
        sub = sub or {}
        if "anyOf" in sub:
            nonnull = [s for s in sub["anyOf"] if s.get("type") != "null"]
            sub = {**(nonnull[0] if nonnull else {}), "type": [(nonnull[0].get("type") if nonnull else "string"), "null"]}
        if name in facts:
            found, value = True, facts[name]
        else:
            found, value = _pick(name, facts, sub)
        value = _coerce(value, sub, facts)
        if value is None and name in required and not (isinstance(sub.get("type"), list) and "null" in sub["type"]):
            value = _default(sub)
        if found or name in required or value is not None:
            out[name] = value
    return out


def answer(prompt: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    """The structured answer: facts shaped to `schema` if given, else the useful facts."""
    facts = extract(prompt)
    if schema and schema.get("properties"):
        return _shape(schema, facts)
    keys = [k for k in facts if re.search(rf"\b{k}\b", prompt)]
    base = {k: facts[k] for k in ("room_count", "property_type", "is_chain", "brand", "management_company",
                                  "amenities", "evidence", "confidence")}
    for k in keys:
        base[k] = facts[k]
    return base


def wants_json(prompt: str) -> bool:
    return bool(re.search(r"\bjson\b", prompt, re.I))


def text_reply(prompt: str) -> str:
    """A plain-text reply when no JSON was asked for."""
    f = extract(prompt)
    bits = []
    if f["room_count"] is not None:
        bits.append(f"The property has {f['room_count']} rooms.")
    if f["property_type"]:
        bits.append(f"It is a {f['property_type'].replace('_', ' ')}.")
    bits.append(f"It is part of {f['brand']}." if f["is_chain"] else "It appears to be independent.")
    if f["management_company"]:
        bits.append(f"It is managed by {f['management_company']}.")
    return " ".join(bits)


# ---- review reply signers (prompts of core.enrichment.review_signers) ----------------------------

SIGNER_TASK_RE = re.compile(r"\bTask: review reply signer\b")
_SIGNER_PROSE = re.compile(r"(?:[-\u2013\u2014]|\b(?:regards|wishes|love|from|yours|cheers)\b)\W+(?:[a-z]+\W+){0,4}?"
                           r"([A-Z][a-z'\-]+(?: [A-Z][a-z'\-]+)?)(?:,?\s+who\s+(\w+))?")
_SIGNER_ROLES = {"runs": "Manager", "manages": "Manager", "operates": "Manager", "owns": "Owner", "own": "Owner"}


def signer_answer(prompt: str) -> dict[str, Any]:
    """Who signed the quoted reply, read from its text: "Name, Title" lines, else a name after a
    sign-off ("... from all of us - Maria, who runs the place": Maria, Manager), else a team."""
    text = _material(prompt).strip()
    people = list(PERSON_RE.finditer(text))
    if people:
        return {"name": people[-1].group(1), "title": people[-1].group(2), "team": False}
    for m in reversed(list(_SIGNER_PROSE.finditer(text))):
        if m.group(1).split()[0] not in ("The", "Thank", "Thanks", "We", "Our", "Hotel", "Team"):
            return {"name": m.group(1), "title": _SIGNER_ROLES.get((m.group(2) or "").lower()), "team": False}
    return {"name": None, "title": None, "team": bool(re.search(r"(?i)\b(team|staff|management)\b", text))}


def reply(prompt: str, schema: dict[str, Any] | None = None, force_json: bool = False) -> str:
    if SIGNER_TASK_RE.search(prompt):
        return json.dumps(signer_answer(prompt))
    if schema is not None or force_json or wants_json(prompt):
        return json.dumps(answer(prompt, schema))
    return text_reply(prompt)


def count_tokens(text: str) -> int:
    return max(1, len(text) // 4)
