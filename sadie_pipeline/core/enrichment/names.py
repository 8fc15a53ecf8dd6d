"""Person names and job titles for contact extraction: generic titles, title patterns and ranks,
name patterns, and the name helpers (``split_name``, ``name_key``, ``is_first_name_only``)."""

from __future__ import annotations

import re
import unicodedata

from sadie_pipeline.core.normalize import match_key

__all__ = [
    "GENERIC_TITLES",
    "is_first_name_only",
    "is_generic_title",
    "name_key",
    "split_name",
    "title_rank",
]

# --- generic titles -------------------------------------------------------------------------------

GENERIC_TITLES = frozenset({
    "manager", "management", "host", "hostess", "hosts", "staff", "team", "team member", "employee", "associate",
    "concierge", "front desk", "reception", "receptionist", "reservations", "sales", "contact", "agent",
})


def is_generic_title(title: str | None) -> bool:
    """True when the title says little about the person's role (seed: "Manager" vs "General
    Manager"); a missing title is generic too."""
    if not title:
        return True
    return " ".join(title.lower().replace(".", "").split()) in GENERIC_TITLES


# --- titles -----------------------------------------------------------------------------------------

_AREAS = (r"(?:sales\s*(?:and|&)\s*marketing|sales|marketing|operations|revenue(?:\s+management)?|finance|rooms|"
          r"food\s*(?:and|&)\s*beverage|f\s*&\s*b|events|catering|human\s+resources|engineering|housekeeping|"
          r"guest\s+services|group\s+sales|e-?commerce|distribution|hospitality|hotel\s+operations|business\s+development)")
_MANAGER_AREAS = (r"(?:sales\s*(?:and|&)\s*marketing|sales|marketing|revenue|front\s+office|front\s+desk|reservations|"
                  r"operations|property|events?|catering|office|guest\s+services|guest\s+relations|rooms\s+division|"
                  r"night|spa|food\s*(?:and|&)\s*beverage|f\s*&\s*b|banquets?|group\s+sales|housekeeping|"
                  r"hotel|resort|inn|lodge|general|assistant\s+general|business\s+development|accounts?|"
                  r"human\s+resources|hr|maintenance|facilities)")
_TITLE = (
    r"(?:(?:assistant|associate|executive|senior|regional|area|corporate|deputy)\s+)?"
    r"(?:director\s+of\s+" + _AREAS + r"|" + _MANAGER_AREAS + r"\s+manager|"
    r"(?:vice\s+president|vp)\s+(?:of\s+)?" + _AREAS + r"|"
    r"managing\s+director|managing\s+partner|owner\s*/\s*operator|owner\s*(?:and|&)\s*operator|owner\s*/\s*"
    r"(?:general\s+manager|innkeeper)|co-?owners?|owners?|proprietors?|innkeepers?|co-?founders?|founders?|"
    r"(?:chief\s+(?:executive|operating|financial|commercial|marketing)\s+officer)|ceo|coo|cfo|president|"
    r"partner|executive\s+chef|executive\s+housekeeper|chief\s+engineer|hosts?|hostess|concierge|"
    r"manager)"
)
_TITLE_RE = re.compile(_TITLE, re.IGNORECASE)
_ABBREV = {"ceo": "CEO", "coo": "COO", "cfo": "CFO", "vp": "VP", "hr": "HR", "f&b": "F&B", "f & b": "F&B"}
_SMALL = frozenset({"of", "and", "the"})


def _canon_title(raw: str) -> str:
    t = " ".join(raw.replace("&", " & ").split())
    t = re.sub(r"\s*/\s*", "/", t)
    words = []
    for w in t.split(" "):
        lw = w.lower()
        if lw in _ABBREV:
            words.append(_ABBREV[lw])
        elif lw in _SMALL and words:
            words.append(lw)
        else:
            words.append("/".join("-".join(p[:1].upper() + p[1:].lower() for p in part.split("-"))
                                  for part in w.split("/")))
    title = " ".join(words)
    # plural heading words ("Owners", "Innkeepers") describe one person each
    return re.sub(r"(Owner|Proprietor|Innkeeper|Founder|Partner|Host)s$", r"\1", title)


_RANK = [
    (re.compile(r"\b(?:owner|proprietor|innkeeper|founder|president|ceo|chief executive|managing director|"
                r"managing partner|principal)\b", re.I), 100),
    (re.compile(r"^general manager|/general manager", re.I), 90),
    (re.compile(r"\b(?:assistant general manager|hotel manager|resort manager|inn manager|lodge manager|coo|cfo|"
                r"chief|director of operations|partner)\b", re.I), 80),
    (re.compile(r"\bdirector of (?:sales|marketing|revenue)|\bvp\b|vice president", re.I), 70),
    (re.compile(r"\bdirector\b", re.I), 60),
    (re.compile(r"\bmanager\b", re.I), 50),
]


def title_rank(title: str | None) -> int:
    """How much of a decision maker a title makes someone: owner 100, GM 90, AGM/hotel manager 80,
    director of sales/marketing/revenue 70, other directors 60, other managers 50, generic 20."""
    if is_generic_title(title):
        return 20
    for pattern, rank in _RANK:
        if pattern.search(title or ""):
            return rank
    return 30


# --- names ------------------------------------------------------------------------------------------

_UP = "A-ZÀ-ÖØ-Þ"
_LO = "a-zß-öø-ÿ"
_TITLE_START = (r"(?:General|Assistant|Associate|Director|Manager|Owners?|Co-Owners?|Proprietors?|Innkeepers?|"
                r"Founders?|Co-Founders?|President|Vice|Chief|Executive|Senior|Regional|Area|Corporate|Deputy|Sales|"
                r"Marketing|Revenue|Front|Reservations|Operations|Property|Events?|Catering|Office|Guest|Managing|"
                r"Partner|Hosts?|Hostess|Concierge|Night|Spa|Rooms|Banquets?|Group|Housekeeping|Business|Accounts?|"
                r"Maintenance|Facilities|Hotel|Resort|Inn|Lodge|Human)\b")
_TOKEN = (rf"(?!{_TITLE_START})(?:(?:Mc|Mac|O['’]|D['’])[{_UP}][{_LO}]+|[{_UP}][{_LO}]+(?:[-'’][{_UP}]?[{_LO}]+)*"
          rf"|[{_UP}]\.)")
_PARTICLE = r"(?:de|da|del|della|di|du|van|von|der|den|la|le|st\.|bin|al)"
_NAME = rf"(?:{_TOKEN}(?:\s+(?:{_PARTICLE}\s+)?{_TOKEN}){{0,3}}(?:,?\s+(?:Jr\.?|Sr\.?|II|III|IV))?)"
_HONORIFIC = re.compile(r"^(?:mr|mrs|ms|miss|mx|dr|prof|sir|madam|chef)\.?\s+", re.IGNORECASE)
_SUFFIX = re.compile(r",?\s+(?:jr|sr|ii|iii|iv|phd|md|cpa|cha|chia|chdm|mba)\.?$", re.IGNORECASE)

_NAME_STOP = frozenset("""
hotel hotels inn inns suite suites resort resorts motel lodge lodges beach beaches contact contacts us about our
your their his her its team meet meeting the a an welcome welcomes general manager managers management director
directors sales marketing owner owners operator operated operating owned front desk reservations reservation
email e-mail mail phone tel telephone call fax address street st avenue ave road rd drive dr boulevard blvd lane
ln way suite home rooms room book booking now privacy policy terms gallery news blog careers jobs events event
dining spa amenities amenity location locations directions map check in out guest guests services service office
operations family staff group company llc inc ltd corp hospitality property properties and of for with by at on
to from since est established new old north south east west downtown airport city town county state park
monday tuesday wednesday thursday friday saturday sunday january february march july
september october november december today tonight special specials offer offers package packages deals
president founder chef host hosts hostess innkeeper innkeepers proprietor partner partners principal ceo coo cfo
director chief executive assistant senior vice revenue finance housekeeping engineering concierge catering
restaurant bar lounge pool fitness wifi parking breakfast free click here more read learn view see visit
follow like share copyright rights reserved all site website web page home menu search login sign up subscribe
thank thanks you we i me my is are was be been can will would should please hello hi dear best regards
sincerely cheers warm greetings questions question info information sent message send submit name first last
florida miami california texas canada usa america united states ocean sea bay harbour harbor island lake
mountain river valley grand royal plaza court village garden gardens house manor cottage villa historic
ask meet email call write text reach join say greet message visit contact speak talk chat dial phone
western plus express premier select signature collection sheraton westin wyndham ramada radisson doubletree
courtyard fairfield springhill towneplace homewood embassy clarion econo travelodge days super red roof aloft
moxy kimpton staybridge candlewood sonesta ascend tapestry curio autograph tribute canopy cambria hyatt
suites comfort quality choice accor novotel ibis sofitel fairmont omni loews
""".split())

_TITLE_WORDS = frozenset("manager director owner president founder chef host innkeeper proprietor partner "
                         "principal operator concierge".split())


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


def split_name(full_name: str | None) -> tuple[str, str]:
    """(first, last) in lower-case ASCII letters only (honorifics, suffixes, middle names, initials,
    apostrophes and hyphens removed: "Dr. Mary-Jane O'Brien Jr." -> ("maryjane", "obrien")); last
    is "" for a single name."""
    if not full_name:
        return "", ""
    name = _SUFFIX.sub("", _HONORIFIC.sub("", " ".join(full_name.split())))
    tokens = [re.sub(r"[^a-z]", "", _fold(t).lower()) for t in name.split()]
    tokens = [t for t in tokens if len(t) > 1 or (t and len(tokens) == 1)]
    if not tokens:
        return "", ""
    return tokens[0], (tokens[-1] if len(tokens) > 1 else "")


def name_key(full_name: str | None) -> str:
    """The normalised name decision makers are merged on: ``match_key`` of the name without
    honorific or suffix, accents folded ("Mr. José  Pérez, Jr." -> "jose perez")."""
    if not full_name:
        return ""
    name = _SUFFIX.sub("", _HONORIFIC.sub("", " ".join(full_name.split())))
    return match_key(_fold(name))


def is_first_name_only(full_name: str | None) -> bool:
    """True when the name has no surname ("Maria", "Chef Tony", "J.")."""
    first, last = split_name(full_name)
    return bool(first) and not last


def _name_tokens_ok(tokens: list[str]) -> bool:
    words = [t for t in tokens if not re.fullmatch(r"[A-Z]\.", t)]
    if not words:
        return False
    for t in words:
        low = t.lower().strip(".,")
        if low in _NAME_STOP or low in _TITLE_WORDS or len(low) < 2:
            return False
    return True


def _clean_name(raw: str, keep: str, min_tokens: int = 1) -> str | None:
    """A valid person name from `raw`, trimmed from the left (``keep="suffix"``, the name sits just
    before what follows) or from the right (``keep="prefix"``); None when nothing valid is left."""
    raw = _HONORIFIC.sub("", raw.strip())
    suffix_m = re.search(r",?\s+(?:Jr\.?|Sr\.?|II|III|IV)$", raw)
    suffix = suffix_m.group(0) if suffix_m else ""
    core = raw[: len(raw) - len(suffix)] if suffix else raw
    tokens = core.split()
    candidates = ([tokens[i:] for i in range(len(tokens))] if keep == "suffix"
                  else [tokens[:j] for j in range(len(tokens), 0, -1)])
    for toks in candidates:
        toks_wo_particles = [t for t in toks if not re.fullmatch(_PARTICLE, t)]
        if len(toks_wo_particles) < min_tokens or re.fullmatch(_PARTICLE, toks[0]) or re.fullmatch(_PARTICLE, toks[-1]):
            continue
        if toks_wo_particles and _name_tokens_ok(toks_wo_particles):
            return " ".join(toks) + (suffix if keep == "suffix" or len(toks) == len(tokens) else "")
    return None
