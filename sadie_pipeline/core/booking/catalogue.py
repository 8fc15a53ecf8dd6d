"""The booking-engine catalogue (`sadie_pipeline/data/booking_engines.json`) and its lookup tables.

The catalogue is data: every engine's vendor, tier, category, signals and booking-URL rule, plus
the hosts that are never an engine (OTAs, social sites). It is loaded once and compiled into
tables, so a URL costs a dictionary walk, never a loop over every engine:

* hosts: an exact table of vendor (marketing) hosts and a suffix table of booking hosts; a URL's
  host is looked up label by label (`a.hotels.cloudbeds.com` -> `hotels.cloudbeds.com` -> ...);
* patterns: every engine's `link_patterns`, `script_srcs`, `iframe_srcs` and `form_actions`,
  each guarded by its longest literal ("needle", a C-speed substring test) so a regex only runs
  on URLs that can match.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from re import _parser as _sre_parse
from re._constants import LITERAL as _SRE_LITERAL
from typing import Any

CATALOGUE_RESOURCE = "data/booking_engines.json"
LODGING_CATEGORIES = frozenset({"hotel_booking_engine", "crs", "vacation_rental"})
CATEGORIES = LODGING_CATEGORIES | {"activities"}
# where an engine is sold (its `regions`): the catalogue's coverage is counted per region
REGIONS = frozenset({"north_america", "latin_america", "europe", "asia", "oceania", "africa", "middle_east", "global"})
PATTERN_ONLY_FACTOR = 0.85  # matched by a pattern on a white-label host, not by a known host
_SIGNALS = ("domains", "script_srcs", "link_patterns", "iframe_srcs", "form_actions", "js_globals", "cookies")
_HOST_RE = re.compile(r"^(?:[a-z][a-z0-9+.\-]*:)?//([^/?#\\\s'\"<>]+)")


@dataclass(frozen=True, slots=True)
class BookingUrlRule:
    """How an engine's booking URL is extracted: from the evidence URL itself ("evidence"), or
    built from a widget/request URL that `match`es (named group `id`) into `template`."""

    source: str = "evidence"
    match: re.Pattern[str] | None = None
    template: str | None = None

    def build(self, url: str) -> str | None:
        if self.match is None or self.template is None:
            return None
        m = self.match.search(url)
        return self.template.format(**m.groupdict()) if m else None


@dataclass(frozen=True, slots=True)
class BookingEngine:
    """One catalogue entry (see the JSON's top-level comment for what each signal means)."""

    name: str
    tier: int
    category: str
    domains: tuple[str, ...]
    vendor_hosts: tuple[str, ...] = ()
    script_srcs: tuple[str, ...] = ()
    link_patterns: tuple[str, ...] = ()
    iframe_srcs: tuple[str, ...] = ()
    js_globals: tuple[str, ...] = ()
    cookies: tuple[str, ...] = ()
    comment: str = ""
    website: str | None = None
    vendor: str = ""
    form_actions: tuple[str, ...] = ()
    booking_url: BookingUrlRule = BookingUrlRule()
    source: str = ""  # where the entry's facts come from (a public page)
    # regexes with a (?P<id>...) group: the property's client id in one of the engine's booking URLs
    client_ids: tuple[re.Pattern[str], ...] = ()
    # (booking URL, the client id it names) pairs: each is read back by the entry's own client_ids
    client_id_examples: tuple[tuple[str, str], ...] = ()
    regions: tuple[str, ...] = ()

    @property
    def signal_count(self) -> int:
        return sum(len(getattr(self, s)) for s in _SIGNALS)


def _strings(raw: Mapping[str, Any], key: str, lower: bool = True) -> tuple[str, ...]:
    values = raw.get(key) or []
    if not isinstance(values, list) or not all(isinstance(v, str) and v for v in values):
        raise ValueError(f"booking engine {raw.get('name')!r}: {key} must be a list of non-empty strings")
    return tuple(v.strip().lower() if lower else v.strip() for v in values)


def _url_rule(raw: Mapping[str, Any]) -> BookingUrlRule:
    spec = raw.get("booking_url") or {"from": "evidence"}
    source = spec.get("from")
    if source == "evidence":
        return BookingUrlRule()
    if source != "template" or "{id}" not in str(spec.get("template")):
        raise ValueError(f"booking engine {raw.get('name')!r}: booking_url must be from evidence or a template")
    match = re.compile(spec["match"], re.I)
    if "id" not in match.groupindex:
        raise ValueError(f"booking engine {raw.get('name')!r}: booking_url.match needs a (?P<id>...) group")
    return BookingUrlRule("template", match, spec["template"])


def _client_id_rules(raw: Mapping[str, Any]) -> tuple[re.Pattern[str], ...]:
    rules = tuple(re.compile(p, re.I) for p in _strings(raw, "client_ids", lower=False))
    if any("id" not in r.groupindex for r in rules):
        raise ValueError(f"booking engine {raw.get('name')!r}: every client_ids regex needs a (?P<id>...) group")
    return rules


def _client_id_examples(raw: Mapping[str, Any], rules: tuple[re.Pattern[str], ...]) -> tuple[tuple[str, str], ...]:
    name, pairs = raw.get("name"), raw.get("client_id_examples") or []
    if not isinstance(pairs, list) or not all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) and x for x in p) for p in pairs):
        raise ValueError(f"booking engine {name!r}: client_id_examples must be [url, client id] pairs")
    if pairs and not rules:
        raise ValueError(f"booking engine {name!r}: client_id_examples without client_ids")
    for url, want in pairs:
        got = next((m.group("id") for r in rules if (m := r.search(url)) and m.group("id")), None)
        if (got or "").lower() != want.lower():
            raise ValueError(f"booking engine {name!r}: client_ids read {got!r} from {url!r}, not {want!r}")
    return tuple((url, want) for url, want in pairs)


def _regions(raw: Mapping[str, Any]) -> tuple[str, ...]:
    regions = _strings(raw, "regions")
    if not set(regions) <= REGIONS:
        raise ValueError(f"booking engine {raw.get('name')!r}: unknown regions {sorted(set(regions) - REGIONS)}")
    return regions


def _source(raw: Mapping[str, Any]) -> str:
    source = str(raw.get("source") or "")
    if source and not source.startswith(("https://", "http://")):
        raise ValueError(f"booking engine {raw.get('name')!r}: source must be an http(s) URL")
    return source


def _parse_engine(raw: Mapping[str, Any]) -> BookingEngine:
    name = str(raw["name"])
    rules = _client_id_rules(raw)
    engine = BookingEngine(
        name=name, tier=int(raw["tier"]), category=str(raw.get("category", "hotel_booking_engine")),
        domains=_strings(raw, "domains"), vendor_hosts=_strings(raw, "vendor_hosts"),
        script_srcs=_strings(raw, "script_srcs"), link_patterns=_strings(raw, "link_patterns", lower=False),
        iframe_srcs=_strings(raw, "iframe_srcs"), js_globals=_strings(raw, "js_globals", lower=False),
        cookies=_strings(raw, "cookies"), comment=str(raw.get("comment", "")), website=raw.get("website"),
        vendor=str(raw.get("vendor") or name), form_actions=_strings(raw, "form_actions"),
        booking_url=_url_rule(raw), source=_source(raw), client_ids=rules,
        client_id_examples=_client_id_examples(raw, rules), regions=_regions(raw),
    )
    if engine.tier not in (1, 2):
        raise ValueError(f"booking engine {name!r}: tier must be 1 or 2")
    if engine.category not in CATEGORIES:
        raise ValueError(f"booking engine {name!r}: unknown category {engine.category!r}")
    if engine.signal_count == 0:
        raise ValueError(f"booking engine {name!r} has no signal")
    return engine


@cache
def _raw_catalogue() -> dict[str, Any]:
    text = resources.files("sadie_pipeline").joinpath(CATALOGUE_RESOURCE).read_text(encoding="utf-8")
    return json.loads(text)


@cache
def load_catalogue() -> tuple[BookingEngine, ...]:
    """The booking engines of the bundled catalogue, sorted by name (loaded once)."""
    engines = tuple(_parse_engine(raw) for raw in _raw_catalogue()["engines"])
    names = [e.name.lower() for e in engines]
    if len(set(names)) != len(names):
        raise ValueError("booking engine names must be unique")
    return engines


@cache
def non_engine_hosts() -> tuple[frozenset[str], frozenset[str]]:
    """(registrable domains, brand labels of 'brand.*' entries) that are never a hotel's engine."""
    groups = _raw_catalogue().get("non_engine_hosts") or {}
    entries = [h.strip().lower() for key, hosts in groups.items() if key != "comment" for h in hosts]
    exact = frozenset(h for h in entries if not h.endswith(".*"))
    brands = frozenset(h[:-2] for h in entries if h.endswith(".*"))
    return exact, brands


def engine_by_name(name: str) -> BookingEngine | None:
    """The catalogue entry called `name` (case-insensitive), or None."""
    return index().by_name.get(name.lower())


class Index:
    """The catalogue compiled into lookup tables (built once, see `index`)."""

    def __init__(self, engines: tuple[BookingEngine, ...]):
        self.engines = engines
        self.by_name = {e.name.lower(): e for e in engines}
        self.domains: dict[str, int] = {}
        self.vendors: dict[str, int] = {}
        self.engine_patterns: list[re.Pattern[str] | None] = []
        self.globals: list[tuple[str, int, re.Pattern[str]]] = []
        self.global_names: dict[str, int] = {}
        self.cookie_prefixes: list[tuple[str, int]] = []
        self.patterns: list[tuple[str | None, int, re.Pattern[str]]] = []
        for i, e in enumerate(engines):
            for d in e.domains:
                if self.domains.setdefault(d.lstrip("*.").strip("."), i) != i:
                    raise ValueError(f"domain {d!r} is claimed by two booking engines")
            for h in e.vendor_hosts:
                if self.vendors.setdefault(h, i) != i:
                    raise ValueError(f"vendor host {h!r} is claimed by two booking engines")
            parts = [*e.link_patterns,
                     *(re.escape(s) for s in (*e.script_srcs, *e.iframe_srcs, *e.form_actions))]
            for p in parts:
                try:
                    re.compile(p)
                except re.error as exc:
                    raise ValueError(f"booking engine {e.name!r}: bad pattern {p!r}: {exc}") from None
            self.engine_patterns.append(re.compile("|".join(f"(?:{p})" for p in parts), re.I) if parts else None)
            self.patterns.extend((_needle(p), i, re.compile(p, re.I)) for p in parts)
            for g in e.js_globals:
                boundary = re.compile(rf"(?<![\w$]){re.escape(g)}(?![\w$])")
                self.globals.append((g, i, boundary))
                self.global_names.setdefault(g, i)
                root = g.split(".", 1)[0]
                if len(root) >= 4:
                    self.global_names.setdefault(root, i)
            self.cookie_prefixes.extend((c, i) for c in e.cookies)

    def host_engine(self, host: str) -> int | None:
        """The engine whose booking domain is `host` or one of its parents."""
        domains = self.domains
        while True:
            idx = domains.get(host)
            if idx is not None:
                return idx
            dot = host.find(".")
            if dot < 0:
                return None
            host = host[dot + 1:]
            if "." not in host:  # never match a bare TLD
                return None

    def classify(self, url_lower: str, check_patterns: bool = True,
                 host: str | None = None) -> tuple[int, float] | None:
        """(engine index, strength) for a lower-cased absolute URL: strength 1.0 for a known
        booking host, PATTERN_ONLY_FACTOR for a white-label pattern hit, 0.0 (weak evidence)
        for a vendor marketing host."""
        if host is None:
            host = host_of(url_lower)
        if host:
            idx = self.vendors.get(host)
            if idx is not None:
                pattern = self.engine_patterns[idx]
                return (idx, 1.0) if pattern is not None and pattern.search(url_lower) else (idx, 0.0)
            idx = self.host_engine(host)
            if idx is not None:
                return idx, 1.0
        if check_patterns:
            # white-label: patterns may only match after the host (a path, a query, or an engine
            # URL embedded in a redirect parameter), never inside a look-alike host
            start = url_lower.find(host) + len(host) if host else 0
            for needle, idx, pattern in self.patterns:
                if needle is not None and url_lower.find(needle, start) < 0:
                    continue
                for m in pattern.finditer(url_lower, start):
                    at = m.start()
                    if at == 0 or not url_lower[at].isalnum() or not (
                        url_lower[at - 1].isalnum() or url_lower[at - 1] == "-"
                    ):
                        return idx, PATTERN_ONLY_FACTOR
        return None


def _needle(pattern: str) -> str | None:
    """The longest run of literal characters a regex needs (lower-cased), None if < 3 chars."""
    best = current = ""
    try:
        items = list(_sre_parse.parse(pattern))
    except Exception:  # noqa: BLE001 - private API: fall back to always running the regex
        return None
    for op, arg in items:
        if op is _SRE_LITERAL:
            current += chr(arg)
        else:
            best, current = max(best, current, key=len), ""
    best = max(best, current, key=len)
    return best.lower() if len(best) >= 3 else None


@cache
def index() -> Index:
    return Index(load_catalogue())


def host_of(url_lower: str) -> str | None:
    """The host of an absolute or protocol-relative URL (already lower-cased), else None."""
    i = url_lower.find("//")
    if i < 0 or (i and (url_lower[i - 1] != ":" or not url_lower[: i - 1].isalnum())):
        if i <= 0 or _HOST_RE.match(url_lower) is None:  # schemes such as "git+ssh:"
            return None
    start = i + 2
    end = len(url_lower)
    for sep in ("/", "?", "#", "\\"):
        k = url_lower.find(sep, start, end)
        if k >= 0:
            end = k
    host = url_lower[start:end]
    if "@" in host:
        host = host.rsplit("@", 1)[1]
    if ":" in host:
        if host.startswith("["):
            return None
        host = host.split(":", 1)[0]
    host = host.strip().rstrip(".")
    return host or None


# --- results --------------------------------------------------------------------------------
