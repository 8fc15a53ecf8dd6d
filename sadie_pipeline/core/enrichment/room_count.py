"""A hotel's room count from its website text (seed 000, "enrich-room-queue: Get room count
(Groq/regex)").

Two paths, both pure:

* ``regex_room_count(text)``: the fallback when no LLM is configured (DESIGN: "room count by regex
  when no LLM is configured"). Finds statements such as "our 120 guest rooms", "112 rooms and
  suites", "featuring 45 well-appointed rooms", "a 60-room boutique hotel", "Number of rooms: 80"
  and sums "3 suites and 27 rooms" (30). It ignores meeting/function rooms, "24-hour room
  service", phone numbers, years ("renovated in 2019 rooms ..."), booking widgets ("Rooms 1
  Adults 2"), "sleeps 4", and small counts that describe one room type ("the Family Suite has 2
  rooms"). Returns ``RoomCount(count, evidence, confidence)`` or None.
* The Groq path: ``build_room_count_prompt(text)`` gives the chat messages (JSON mode,
  ``ROOM_COUNT_RESPONSE_FORMAT``) and ``parse_room_count_answer(answer)`` reads the reply
  robustly (code fences, prose around the JSON, numbers as strings) and rejects implausible
  values (< 1 or > 5000).

Confidence of the regex path (then -0.10 for "over/about/nearly", -0.25 for a subset such as
"8 accessible rooms", +0.05 per further statement of the same count, -0.10 when another strong
statement disagrees; clamped to [0.05, 0.95]):

=====================================================  ==========
statement                                              confidence
=====================================================  ==========
"Number of rooms: 80" (explicit label)                 0.85
"our/featuring/offers/with/has ... N guest rooms",     0.85
"N rooms and suites" after such a cue
"a 60-room hotel", "3 suites and 27 rooms" (a sum)     0.80
"N rooms" after a cue                                  0.80
"N guest rooms" / "N rooms and suites" alone           0.70
"N suites" after a cue                                 0.70
"N rooms" alone, "Rooms: N"                            0.60
units / keys / cabins / villas / cottages after a cue  0.55
"N suites" alone                                       0.50
other nouns alone                                      0.45
=====================================================  ==========
"""

from __future__ import annotations

import json
import re
from typing import Any, NamedTuple

__all__ = [
    "MAX_ROOMS",
    "MIN_ROOMS",
    "ROOM_COUNT_RESPONSE_FORMAT",
    "RoomCount",
    "RoomCountAnswer",
    "build_room_count_prompt",
    "parse_room_count_answer",
    "regex_room_count",
]

MIN_ROOMS = 1
MAX_ROOMS = 5000

#: Groq (OpenAI-compatible) JSON mode for the prompt below.
ROOM_COUNT_RESPONSE_FORMAT = {"type": "json_object"}


class RoomCount(NamedTuple):
    count: int
    evidence: str
    confidence: float


class RoomCountAnswer(NamedTuple):
    count: int
    evidence: str


# --- numbers --------------------------------------------------------------------------------------

_UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
          "sixteen seventeen eighteen nineteen").split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_WORD_VALUES = {w: i for i, w in enumerate(_UNITS)} | {w: 20 + 10 * i for i, w in enumerate(_TENS)}
_NUM_WORD = (r"(?:(?:" + "|".join(_TENS) + r")(?:[\s-](?:" + "|".join(_UNITS[1:10]) + r"))?"
             r"|" + "|".join(sorted(_UNITS[1:], key=len, reverse=True)) + r")")
_NUM = rf"(?:\d{{1,3}}(?:,\d{{3}})+|\d{{1,4}}|{_NUM_WORD})"


def _number(raw: str) -> int | None:
    raw = raw.lower().replace(",", "").strip()
    if raw.isdigit():
        return int(raw)
    parts = re.split(r"[\s-]+", raw)
    total = 0
    for part in parts:
        if part not in _WORD_VALUES:
            return None
        total += _WORD_VALUES[part]
    return total


# --- statements -----------------------------------------------------------------------------------

# Words that may stand between the number and the noun ("45 spacious, well-appointed rooms").
_ADJ = r"[A-Za-z][A-Za-z'’]*(?:-[A-Za-z]+)*"
# Accommodation nouns: the kind decides the confidence; "rooms and suites" is one noun.
_NOUN = (r"(?P<noun>"
         r"(?:guest[\s-]?)?rooms?\s*(?:and|&|/|\+)\s*(?:(?:guest\s+)?suites|villas|cottages|cabins|apartments)"
         r"|guest[\s-]?rooms?|rooms?|suites?|keys|units|accommodations|cabins|cottages|villas|bungalows"
         r"|chalets|casitas|studios|apartments|lodges|yurts|tents|campsites|sleeping\s+rooms|bedrooms)")
_ITEM = re.compile(
    rf"(?<![\w$#.,/+\-(:])(?P<num>{_NUM})(?![\d,]\d|\.\d)"
    rf"(?P<sep>[\s-]+)(?P<adjs>(?:{_ADJ}(?:,?\s+|-))){{0,4}}?{_NOUN}\b",
    re.IGNORECASE,
)
_JOIN = re.compile(r"^\s*(?:,\s*(?:and\s+|&\s*|plus\s+)?|and\s+|&\s*|plus\s+|\+\s*)$", re.IGNORECASE)
_LABEL = re.compile(
    rf"(?P<label>number\s+of\s+(?:guest\s*)?rooms(?:\s+and\s+suites)?|no\.?\s+of\s+rooms|total\s+(?:number\s+of\s+)?"
    rf"(?:guest\s*)?rooms|room\s+count|total\s+keys|guest\s*rooms|rooms(?:\s+and\s+suites)?|keys)"
    rf"(?P<sep>\s*(?::|-|–|—|=)\s*|\s+)(?P<num>{_NUM})\b(?![\d,]\d|\.\d|-)",
    re.IGNORECASE,
)
_PHONE = re.compile(r"(?:\+?\d{1,3}[\s.\-]?)?(?:\(\d{3}\)|\d{3})[\s.\-]?\d{3}[\s.\-]\d{4}\b")

_BAD_ADJ = frozenset("""
meeting meetings conference function functions event events banquet banquets breakout board boardroom
treatment treatments massage spa dining private ball class classroom hospitality game games storage
of the our your their its in at on to for from by per each every is are was were this that these
those which who when where all any some many most
break fitness living dressing bath bathroom bed show green rest powder changing locker media reading
family-style sample exhibit exhibition hour hours hr hrs minute minutes min day days night nights year
years yr yrs story stories storey storeys floor floors level levels acre acres mile miles km sq square
foot feet ft meter meters metre metres person persons people adult adults child children kid kids guest's
star stars percent bedroom bedrooms bathroom bathrooms king queen twin double single bunk sofa ada-compliant
connecting adjoining adjacent interconnecting interconnected connected additional extra more other
available remaining left free vacant booked selected
street st avenue ave road rd drive dr boulevard blvd lane ln way highway hwy route rte parkway pkwy court ct
place pl circle terrace trail
offers offer offering offered has have had features featuring include includes including are is was were be
been with from start starts starting begin begins priced rates at in on near by to per
""".split())
_SUBSET_ADJ = frozenset("""
accessible ada handicap handicapped wheelchair pet pet-friendly dog-friendly smoking kitchenette
jacuzzi whirlpool renovated newly-renovated ocean-view oceanview oceanfront lakeview lakefront
""".split())
_CUE = re.compile(
    r"\b(?:our|featuring|features?|featured|offers?|offering|boasts?|boasting|with|has|have|having|"
    r"total\s+of|all|comprising|comprises|consisting\s+of|home\s+to|houses|housing|provides?|providing|"
    r"there\s+are|contains?|includes\s+a\s+total\s+of|offers\s+a\s+total\s+of|each\s+of\s+(?:our|the)|"
    r"these|its|the\s+hotel'?s|the\s+property'?s|the\s+resort'?s)\s+(?:(?:a|an|over|nearly|more\s+than|"
    r"almost|about|approximately|around|roughly|some|just|only)\s+)*$",
    re.IGNORECASE,
)
_APPROX = re.compile(r"\b(?:over|nearly|more\s+than|almost|about|approximately|approx\.?|around|roughly|some|"
                     r"up\s+to|under|fewer\s+than|less\s+than|\+)\s*$", re.IGNORECASE)
_SUBSET_BEFORE = re.compile(r"\b(?:including|includes|include|of\s+which|among\s+them|plus|also|"
                            r"additional|another|with\s+an\s+additional)\s+(?:(?:an?|the)\s+)?$", re.IGNORECASE)
_REJECT_BEFORE = re.compile(
    r"\b(?:sleeps|sleep|sleeping|accommodates|accommodating|max|maximum|min|minimum|up\s+to|for|book|"
    r"reserve|select|add|per|x|qty|quantity|room|rooms|adults?|children|guests?)\s*:?\s*$",
    re.IGNORECASE,
)
_YEAR_BEFORE = re.compile(
    r"(?:\b(?:in|since|circa|c\.|built|renovated|remodeled|remodelled|refurbished|opened|established|est\.?|"
    r"founded|year|until|through|copyright)|©|&copy;)\s*$", re.IGNORECASE)
_WIDGET_AFTER = re.compile(r"^\s*(?:adults?|guests?|children|child|kids?|nights?|people|persons?|"
                           r"check[\s-]?in|check[\s-]?out|\d)", re.IGNORECASE)
_NOUN_AFTER_REJECT = re.compile(
    r"^\s*(?:service|services|rate|rates|type|types|only|key|keys|upgrade|upgrades|amenit|availability|"
    r"available|left|remaining|block|blocks|night|nights|per\b|x\b)", re.IGNORECASE)
_ROOM_TYPE_CONTEXT = re.compile(
    r"\b(?:suite|suites|bedroom|bedrooms|sleeps|sleeping|bed|beds|sofa|bunk|apartment|villa|cottage|cabin|"
    r"house|condo|unit|connecting|connected|adjoining|interconnecting|interconnected|configuration|"
    r"separate|divided|bathroom|bathrooms|family\s+room|per\s+night)\b", re.IGNORECASE)
_HOTEL_WORD = re.compile(
    r"^\s*(?:[A-Za-z-]+\s+){0,2}?(?:hotel|property|inn|resort|motel|lodge|b&b|bed\s+and\s+breakfast|"
    r"guesthouse|guest\s+house|retreat|establishment|building|tower|boutique|hostel|manor|mansion|"
    r"castle|chateau|ranch|estate)\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?\n;•|]")


class _Candidate(NamedTuple):
    count: int
    confidence: float
    start: int
    end: int
    strong: bool


def _noun_kind(noun: str) -> str:
    n = " ".join(noun.lower().replace("-", " ").split())
    if re.search(r"rooms?\s*(?:and|&|/|\+)", n) or n.startswith("guest") or n == "sleeping rooms":
        return "guest_rooms"
    if n in ("room", "rooms", "bedrooms"):
        return "rooms"
    if n.startswith("suite"):
        return "suites"
    return "other"


def _sentence(text: str, start: int, end: int, reach: int = 120) -> tuple[int, int]:
    lo = max(0, start - reach)
    hits = list(_SENTENCE_END.finditer(text, lo, start))
    s = hits[-1].end() if hits else lo
    m = _SENTENCE_END.search(text, end, min(len(text), end + reach))
    e = m.start() + (1 if m and m.group() in ".!?" else 0) if m else min(len(text), end + reach)
    return s, e


def _evidence(text: str, start: int, end: int) -> str:
    s, e = _sentence(text, start, end)
    return " ".join(text[s:e].split())


def _in_phone(phone_spans: list[tuple[int, int]], pos: int) -> bool:
    return any(a <= pos < b for a, b in phone_spans)


def _item_score(text: str, m: re.Match, count: int, before: str, phone_spans: list[tuple[int, int]],
                in_group: bool) -> tuple[float, bool, bool] | None:
    """(confidence, strong, subset) of one "N <adjectives> noun" statement, or None to ignore it."""
    if _in_phone(phone_spans, m.start("num")):
        return None
    raw_num = m.group("num")
    sep = m.group("sep")
    adjs = [a.lower() for a in re.findall(_ADJ, m.group("adjs") or "")]
    noun = m.group("noun")
    kind = _noun_kind(noun)
    if any(a in _BAD_ADJ for a in adjs):
        return None
    if "," in (m.group("adjs") or "") and not adjs:
        return None
    singular = not noun.lower().endswith("s")
    after = text[m.end():m.end() + 40]
    if _NOUN_AFTER_REJECT.match(after):
        return None
    if singular:
        # "a 60-room hotel" / "the 120 room property": the singular needs a lodging word after it
        if not _HOTEL_WORD.match(after):
            return None
        return (0.8, True, False) if count >= MIN_ROOMS else None
    if "-" in sep and not adjs:
        return None  # "24-rooms" is not English; "2-bedrooms" style widgets
    if _REJECT_BEFORE.search(before):
        return None
    if raw_num.isdigit() and len(raw_num) == 4 and 1800 <= count <= 2099 and _YEAR_BEFORE.search(before):
        return None
    cue = bool(_CUE.search(before))
    subset = bool(_SUBSET_BEFORE.search(before)) or any(a in _SUBSET_ADJ for a in adjs)
    if count < 10 and not in_group:
        s, e = _sentence(text, m.start(), m.end(), reach=80)
        context = text[s:m.start()] + " " + text[m.end():e]
        if _ROOM_TYPE_CONTEXT.search(context):
            return None
        if count < 5 and not cue:
            return None
    if kind == "guest_rooms":
        conf = 0.85 if cue else 0.7
    elif kind == "rooms":
        conf = 0.8 if cue else 0.6
    elif kind == "suites":
        conf = 0.7 if cue else 0.5
    else:
        conf = 0.55 if cue else 0.45
    if _APPROX.search(before):
        conf -= 0.1
    if subset:
        conf -= 0.25
    return conf, cue and not subset, subset


def _candidates(text: str) -> list[_Candidate]:
    phone_spans = [(p.start(), p.end()) for p in _PHONE.finditer(text)]
    out: list[_Candidate] = []
    items = []
    for m in _ITEM.finditer(text):
        count = _number(m.group("num"))
        if count is None or not (MIN_ROOMS <= count <= MAX_ROOMS):
            continue
        items.append((m, count))
    # Chain "3 suites and 27 rooms", "85 guest rooms, 12 suites and 3 villas" into one sum.
    groups: list[list[tuple[re.Match, int]]] = []
    for m, count in items:
        if groups:
            prev = groups[-1][-1][0]
            gap = text[prev.end():m.start()]
            if _JOIN.match(gap) and not _SUBSET_BEFORE.search(gap):
                groups[-1].append((m, count))
                continue
        groups.append([(m, count)])
    for group in groups:
        first = group[0][0]
        before = text[max(0, first.start() - 60):first.start()]
        if len(group) == 1:
            m, count = group[0]
            scored = _item_score(text, m, count, before, phone_spans, in_group=False)
            if scored:
                out.append(_Candidate(count, scored[0], m.start(), m.end(), scored[1]))
            continue
        scores = []
        for i, (m, count) in enumerate(group):
            b = before if i == 0 else ""
            scores.append(_item_score(text, m, count, b, phone_spans, in_group=True))
        nouns = {" ".join(m.group("noun").lower().replace("-", " ").split()).removesuffix("s") for m, _ in group}
        if all(scores) and len(nouns) == len(group):
            total = sum(c for _, c in group)
            if total <= MAX_ROOMS:
                conf = 0.85 if _CUE.search(before) else 0.8
                out.append(_Candidate(total, conf, first.start(), group[-1][0].end(), True))
                continue
        for (m, count), scored in zip(group, scores):  # not a clean sum: judge each statement alone
            b = text[max(0, m.start() - 60):m.start()]
            alone = _item_score(text, m, count, b, phone_spans, in_group=False) if scored else None
            if alone:
                out.append(_Candidate(count, alone[0], m.start(), m.end(), alone[1]))
    for m in _LABEL.finditer(text):
        count = _number(m.group("num"))
        if count is None or not (MIN_ROOMS <= count <= MAX_ROOMS) or _in_phone(phone_spans, m.start("num")):
            continue
        if _WIDGET_AFTER.match(text[m.end():m.end() + 30]) or re.search(r"\d[\s,]*$", text[max(0, m.start() - 4):m.start()]):
            continue
        label = " ".join(m.group("label").lower().split())
        explicit = label not in ("rooms", "guest rooms", "guestrooms", "rooms and suites", "keys")
        if not explicit and (count < 5 or not m.group("sep").strip()):
            continue
        out.append(_Candidate(count, 0.85 if explicit else 0.6, m.start(), m.end(), explicit))
    return out


def regex_room_count(text: str | None) -> RoomCount | None:
    """The room count a page states, with the sentence that states it and a confidence, or None."""
    if not text:
        return None
    text = text.replace("\u00a0", " ")
    cands = _candidates(text)
    if not cands:
        return None
    by_count: dict[int, list[_Candidate]] = {}
    for c in cands:
        by_count.setdefault(c.count, []).append(c)

    def rank(count: int) -> tuple[float, int, int]:
        cs = by_count[count]
        return max(c.confidence for c in cs), len(cs), -min(c.start for c in cs)

    best = max(by_count, key=rank)
    top = max(by_count[best], key=lambda c: (c.confidence, -c.start))
    conf = top.confidence + 0.05 * (len(by_count[best]) - 1)
    rivals = [c for k, cs in by_count.items() if k != best for c in cs]
    if any(c.strong and c.confidence >= top.confidence - 0.05 for c in rivals):
        conf -= 0.1
    conf = round(min(0.95, max(0.05, conf)), 2)
    return RoomCount(best, _evidence(text, top.start, top.end), conf)


# --- the LLM path (Groq) --------------------------------------------------------------------------

_SYSTEM = (
    "You extract facts about one hotel from the text of its own website. "
    "Reply with a single JSON object and nothing else."
)
_INSTRUCTIONS = (
    "How many guest rooms does this property have?\n"
    "- Count every bookable room, suite, villa or cottage of this one property; when rooms and suites "
    "are listed separately, add them (\"3 suites and 27 rooms\" is 30).\n"
    "- Do not count meeting or event rooms, the rooms inside one suite or room type, rooms of other "
    "hotels of the same brand, phone numbers, years or occupancy (\"sleeps 4\").\n"
    "- If the text does not state the number, answer null; never estimate.\n"
    'Answer exactly: {"room_count": <integer or null>, "evidence": "<the sentence from the text that '
    'states it, or an empty string>"}'
)
_FOCUS = re.compile(r"\d[\d,]*[\s-]+(?:[A-Za-z'-]+[\s,]+){0,3}?(?:rooms?|suites?|guestrooms|keys|units|villas|"
                    r"cottages|cabins)\b|(?:number\s+of|total)\s+(?:guest\s*)?rooms", re.IGNORECASE)


def _focus_text(text: str, max_chars: int) -> str:
    """`text` if it fits; else its beginning plus windows around every room statement."""
    text = " ".join(text.split())
    if len(text) <= max_chars:
        return text
    head = max_chars // 4
    spans: list[list[int]] = [[0, head]]
    for m in _FOCUS.finditer(text, head):
        lo, hi = max(0, m.start() - 300), min(len(text), m.end() + 300)
        if lo <= spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], hi)
        else:
            spans.append([lo, hi])
    parts, used = [], 0
    for lo, hi in spans:
        piece = text[lo:hi]
        if used + len(piece) > max_chars:
            piece = piece[:max(0, max_chars - used)]
        if piece:
            parts.append(piece)
            used += len(piece)
        if used >= max_chars:
            break
    return " … ".join(parts)


def build_room_count_prompt(text: str, hotel_name: str | None = None, max_chars: int = 12_000) -> list[dict[str, str]]:
    """Chat messages asking for ``{"room_count": int|null, "evidence": str}``; long pages are cut
    to `max_chars`, keeping the beginning and every passage that mentions rooms."""
    body = _focus_text(text or "", max_chars)
    name = f"Hotel: {' '.join(hotel_name.split())}\n" if hotel_name else ""
    user = f"{name}{_INSTRUCTIONS}\n\nWebsite text:\n<<<\n{body}\n>>>"
    return [{"role": "system", "content": _SYSTEM}, {"role": "user", "content": user}]


def _json_objects(answer: str) -> list[Any]:
    """Every top-level JSON object in `answer` (code fences and prose around them ignored)."""
    objs = []
    decoder = json.JSONDecoder()
    i = answer.find("{")
    while i >= 0:
        try:
            obj, end = decoder.raw_decode(answer, i)
        except json.JSONDecodeError:
            i = answer.find("{", i + 1)
            continue
        objs.append(obj)
        i = answer.find("{", end)
    return objs


def _count_value(value: Any) -> int | None:
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else None
    if isinstance(value, str):
        m = re.fullmatch(r"\s*(?:about|approximately|~)?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.0+)?\s*(?:rooms?|keys)?\s*",
                         value, re.IGNORECASE)
        return int(m.group(1).replace(",", "")) if m else None
    return None


def parse_room_count_answer(answer: str | dict | None) -> RoomCountAnswer | None:
    """``(count, evidence)`` from the model's reply, or None when it has no plausible count
    (null, missing, not a whole number, < 1 or > 5000, unparseable)."""
    if answer is None:
        return None
    objs: list[Any] = [answer] if isinstance(answer, dict) else _json_objects(answer)
    for obj in objs:
        if not isinstance(obj, dict):
            continue
        key = next((k for k in ("room_count", "rooms", "roomCount", "count") if k in obj), None)
        if key is None:
            continue
        count = _count_value(obj[key])
        if count is None or not (MIN_ROOMS <= count <= MAX_ROOMS):
            return None
        evidence = obj.get("evidence")
        return RoomCountAnswer(count, " ".join(evidence.split()) if isinstance(evidence, str) else "")
    if isinstance(answer, str):
        m = re.search(r'"?room_count"?\s*[:=]\s*"?(\d{1,3}(?:,\d{3})+|\d+)', answer)
        if m is None:
            m = re.fullmatch(r"\s*(\d{1,4})\s*\.?\s*", answer)
        if m:
            count = int(m.group(1).replace(",", ""))
            if MIN_ROOMS <= count <= MAX_ROOMS:
                ev = re.search(r'"evidence"\s*:\s*"((?:[^"\\]|\\.)*)"', answer)
                return RoomCountAnswer(count, " ".join(ev.group(1).split()) if ev else "")
    return None
