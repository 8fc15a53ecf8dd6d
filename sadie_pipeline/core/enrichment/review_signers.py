"""Who signed a hotel's replies to its Google reviews (seed 001, "Review Mining": owner and
manager responses name the people running the hotel).

Rules first (`read_signature`): the signature is the reply's last line (or the tail of a one-line
reply), read as one of

* ``Maria, General Manager`` / ``Maria Lopez, General Manager`` / ``Maria Lopez | Owner``
* ``- Maria (General Manager)`` / ``~ Maria Lopez - Innkeeper``
* ``Best regards,`` then ``Maria Lopez`` (and optionally ``General Manager`` on the next line)
* ``The Front Desk Team`` / ``Management`` / ``The Staff``: a team signs, nobody is named.

A reply the rules cannot read but that looks signed in prose ("Warm regards from all of us -
Maria, who runs the place for the family") is ``unreadable``: only those go to the LLM
(`build_signer_prompt`, `parse_signer_answer`; the answer's name must occur in the reply, so a
model cannot invent one). `hotel_signers` folds one hotel's readings into people: a name signing
several replies is corroborated, a first name alone is kept as a first name (golden records
merge it with a full name from another source later) unless a full name with the same first
name signed other replies of the hotel.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["SIGNER_RESPONSE_FORMAT", "Signer", "SignerReading", "build_signer_prompt", "hotel_signers",
           "parse_signer_answer", "read_signature"]

Status = Literal["signed", "team", "unsigned", "unreadable"]

# Titles a hotel's replies are signed with; "Manager" alone and desk roles say little (generic).
_TITLE_WORDS = (
    r"(?:(?:assistant|acting|deputy|interim|co-?)\s*)?"
    r"(?:general\s+manager|hotel\s+manager|resort\s+manager|property\s+manager|managing\s+director|"
    r"front\s+(?:office|desk)\s+manager|guest\s+(?:relations|services|experience)(?:\s+manager)?|"
    r"director\s+of\s+[a-z]+(?:\s+(?:and|&)\s+[a-z]+)?|[a-z]+\s+manager|owner(?:\s*/\s*operator)?|"
    r"proprietor|innkeeper|operator|manager|gm|host|founder|president|ceo|reservations(?:\s+manager)?|"
    r"front\s+desk|reception)"
)
_TITLE = re.compile(rf"(?i)(?P<title>{_TITLE_WORDS})(?:\s+(?:at|of)\s+(?:the\s+)?[A-Z][\w'&. -]*)?\.?")
GENERIC_TITLES = frozenset({"manager", "host", "front desk", "reception", "reservations", "guest relations",
                            "guest services", "guest experience", ""})
_TEAM = re.compile(r"(?i)\b(?:team|staff|management|family|crew|all of us|everyone|front\s+desk|reception|"
                   r"reservations|guest\s+(?:relations|services)|hotel|inn|resort|motel|lodge|suites)\b")
_VALEDICTION = re.compile(
    r"(?i)^(?:(?:with\s+)?(?:best|kind|warm|warmest|many|sincere)?\s*(?:regards|wishes|thanks)|sincerely|"
    r"cheers|warmly|best|thank\s+you|thanks(?:\s+again)?|yours(?:\s+truly)?|respectfully|cordially|"
    r"all\s+the\s+best|take\s+care|see\s+you\s+soon)\b[,!.]?\s*")
_NAME_WORD = r"[A-Z][a-z'\u2019]+(?:-[A-Z][a-z'\u2019]+)?"
_NAME = rf"(?P<name>{_NAME_WORD}(?:\s+(?:[A-Z]\.|{_NAME_WORD})){{0,2}})"
_NOT_NAMES = frozenset({"The", "Thank", "Thanks", "Regards", "Best", "Warm", "Kind", "Sincerely", "Cheers",
                        "Warmly", "Hotel", "Inn", "Team", "Staff", "Management", "Manager", "General", "Owner",
                        "Dear", "Hope", "We", "Our", "You", "Your", "See", "Guest", "Front", "Desk", "Yours",
                        "All", "Everyone", "Again", "Happy", "Welcome", "Please", "Looking"})
_SIGNED_FORMS = (
    re.compile(rf"{_NAME}\s*\((?P<rest>[^()]+)\)"),              # Maria (General Manager)
    re.compile(rf"{_NAME}\s*(?:,|\||/|\s[-\u2013\u2014]\s)\s*(?P<rest>.+)"),  # Maria, GM / Maria - GM
    re.compile(rf"{_NAME}"),                                      # Maria Lopez
)
_PLACE_WORDS = re.compile(r"\b(?:Hotel|Inn|Resort|Motel|Lodge|Suites|House|Hostel|B&B)\b")
_DASH = re.compile(r"^[-\u2013\u2014~*]+\s*")
_SIGN_OFF_CUE = re.compile(rf"(?:\b(?:[Rr]egards|[Ww]ishes|[Ss]incerely|[Cc]heers|[Ww]armly|[Yy]ours|[Ll]ove|[Ff]rom)\b|"
                           rf"(?:^|\s)[-\u2013\u2014])\W+(?:[a-z]+\W+){{0,4}}?(?P<name>{_NAME_WORD})")


@dataclass(frozen=True)
class SignerReading:
    """What one reply says about its signer. ``name`` is set only when ``status`` is signed."""

    status: Status
    name: str | None = None
    title: str = ""
    method: str = "rules"  # rules | llm

    @property
    def first_name_only(self) -> bool:
        return bool(self.name) and len(self.name.split()) == 1

    @property
    def generic_title(self) -> bool:
        return self.title.lower() in GENERIC_TITLES


@dataclass(frozen=True)
class Signer:
    """One person signing a hotel's replies: how many replies, whether only a first name is known."""

    name: str
    title: str
    replies: int
    first_name_only: bool
    generic_title: bool
    methods: tuple[str, ...]


def _title_case(title: str) -> str:
    t = re.sub(r"\s*/\s*", "/", re.sub(r"\s+", " ", title.strip().rstrip(".")))
    if t.lower() == "gm":
        return "General Manager"
    words = re.split(r"([ /])", t)
    return "".join(w.lower() if w.lower() in ("of", "and", "at", "the") and i else
                   w if w.isupper() and len(w) > 1 else w.capitalize() for i, w in enumerate(words))


def _named_in_prose(sig: str) -> bool:
    """A personal name right after a sign-off cue ("regards from all of us - Maria, who ...")."""
    return any(m.group("name") not in _NOT_NAMES and not _PLACE_WORDS.fullmatch(m.group("name"))
               for m in _SIGN_OFF_CUE.finditer(sig))


def _clean_name(name: str) -> str | None:
    words = name.split()
    while words and words[-1].endswith(".") and len(words[-1]) == 2:  # "Maria L." -> "Maria"
        words.pop()
    if not words or words[0] in _NOT_NAMES or any(w.rstrip(".") in _NOT_NAMES for w in words):
        return None
    return " ".join(words)


def _signature(reply: str) -> str:
    """The signature part of a reply: its last line (joined with a name line above a bare title),
    or the tail of a one-line reply after its last sentence."""
    lines = [ln.strip() for ln in reply.strip().splitlines() if ln.strip()]
    if not lines:
        return ""
    above = _DASH.sub("", lines[-2]).rstrip(",") if len(lines) >= 2 else ""
    if above and _TITLE.fullmatch(lines[-1]) and re.fullmatch(_NAME, above):
        return f"{lines[-2]}, {lines[-1]}"
    if len(lines) == 1:
        parts = re.split(r"(?<=[.!?])\s+", lines[0])
        return parts[-1] if len(parts) > 1 else lines[0]
    return lines[-1]


def _parse_signed(sig: str) -> SignerReading | None:
    for form in _SIGNED_FORMS:
        m = form.fullmatch(sig)
        if not m:
            continue
        name = _clean_name(m.group("name"))
        if name is None:
            return None
        rest = (m.groupdict().get("rest") or "").strip()
        if not rest:
            return SignerReading("signed", name, "")
        t = _TITLE.fullmatch(rest)
        if t:
            return SignerReading("signed", name, _title_case(t.group("title")))
        if _PLACE_WORDS.search(rest) and not re.search(r"\b[a-z]{3,}\b", rest):
            return SignerReading("signed", name, "")  # "Maria Lopez, Biscayne Bay Inn"
        return None
    return None


def read_signature(reply: str | None) -> SignerReading:
    """The signer of one reply by rules: signed (name, title), team (nobody), unsigned (no
    signature), or unreadable (signed in prose: for the LLM)."""
    if not reply or not reply.strip():
        return SignerReading("unsigned")
    sig = _DASH.sub("", _signature(reply)).strip().rstrip("!")
    sig = sig if re.search(r"\b[A-Z]\.$", sig) else sig.rstrip(".")
    sig = _VALEDICTION.sub("", sig).strip().lstrip(",").strip() if _VALEDICTION.match(sig) else sig
    sig = _DASH.sub("", sig).strip()
    if not sig:
        return SignerReading("unsigned")
    reading = _parse_signed(sig)
    if reading is not None:
        return reading
    if _TITLE.fullmatch(sig) or (_TEAM.search(sig) and len(sig.split()) <= 6 and not _named_in_prose(sig)):
        return SignerReading("team")  # "The Front Desk Team", "General Manager" alone: nobody named
    if _named_in_prose(sig):
        return SignerReading("unreadable")
    return SignerReading("unsigned")


# --- the LLM for what the rules cannot read ------------------------------------------------------

#: Groq JSON mode (the prompt names the fields).
SIGNER_RESPONSE_FORMAT = {"type": "json_object"}
SIGNER_TASK = "review reply signer"
_SYSTEM = (f"Task: {SIGNER_TASK}. You read a hotel's reply to a guest review and say who signed it. "
           "Answer JSON only.")
_INSTRUCTIONS = ('Return {"name": string|null, "title": string|null, "team": boolean}: the personal name of '
                 "the person who signed the reply exactly as written (first name alone if that is all it "
                 "says), their job title if the reply states or clearly implies one, and team=true when a "
                 "team or department signs instead of a person. null when nobody is named.")


def build_signer_prompt(reply: str, hotel_name: str | None = None) -> list[dict[str, str]]:
    """Chat messages asking who signed `reply` (quoted between <<< and >>>)."""
    hotel = f"Hotel: {' '.join(hotel_name.split())}\n" if hotel_name else ""
    user = f"{hotel}{_INSTRUCTIONS}\n\nReply:\n<<<\n{reply.strip()}\n>>>"
    return [{"role": "system", "content": _SYSTEM}, {"role": "user", "content": user}]


def parse_signer_answer(answer: Mapping[str, Any] | str | None, reply: str) -> SignerReading:
    """The model's answer as a reading; a name that is not in the reply, or not a name, is
    dropped (the model may not invent people)."""
    if isinstance(answer, str):
        try:
            answer = json.loads(answer)
        except ValueError:
            answer = None
    if not isinstance(answer, Mapping):
        return SignerReading("unreadable", method="llm")
    raw = answer.get("name")
    name = _clean_name(" ".join(str(raw).split())) if isinstance(raw, str) and raw.strip() else None
    if name and re.fullmatch(_NAME, name) and re.search(rf"\b{re.escape(name)}\b", reply):
        title = answer.get("title")
        title = _title_case(title) if isinstance(title, str) and len(title) <= 60 else ""
        return SignerReading("signed", name, title, method="llm")
    return SignerReading("team" if answer.get("team") else "unsigned", method="llm")


# --- one hotel's signers -------------------------------------------------------------------------

def hotel_signers(readings: Iterable[SignerReading]) -> list[Signer]:
    """The people signing a hotel's replies, most replies first. A first name that is also the
    first name of a full name signing this hotel's replies is that person."""
    signed = [r for r in readings if r.status == "signed" and r.name]
    full = {r.name.split()[0]: r.name for r in signed if not r.first_name_only}
    counts: Counter[str] = Counter()
    titles: dict[str, Counter[str]] = {}
    methods: dict[str, set[str]] = {}
    for r in signed:
        name = full.get(r.name, r.name) if r.first_name_only else r.name
        counts[name] += 1
        titles.setdefault(name, Counter())[r.title] += 1
        methods.setdefault(name, set()).add(r.method)
    out = []
    for name, n in counts.most_common():
        title = _best_title(titles[name])
        out.append(Signer(name, title, n, len(name.split()) == 1, title.lower() in GENERIC_TITLES,
                          tuple(sorted(methods[name]))))
    return out


def _best_title(titles: Counter[str]) -> str:
    """The most specific title used most often (a stated title beats none)."""
    ranked = sorted(titles.items(), key=lambda kv: (kv[0].lower() in GENERIC_TITLES, -kv[1], kv[0]))
    return ranked[0][0] if ranked else ""


def signer_rows(signers: Sequence[Signer]) -> list[dict[str, Any]]:
    """Plain dicts of signers (for an asset's value)."""
    return [{"name": s.name, "title": s.title, "replies": s.replies, "first_name_only": s.first_name_only,
             "generic_title": s.generic_title, "methods": list(s.methods)} for s in signers]
