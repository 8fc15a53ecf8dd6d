"""Common Crawl layers' decisions (seed 001: ``cc_harvest``, ``cc_contacts``): which crawl, which
captures of a hotel's site to fetch, and the people its crawled pages name. No I/O.

* `newest_crawl(collinfo)`: the newest crawl of the index server's ``collinfo.json``.
* `parse_cdx(text)`: the CDX API's JSON lines as `Capture`s (bad lines skipped).
* `select_captures(captures, scope, max_pages)`: per URL the newest 200 ``text/html`` capture
  within the hotel's site (its host without ``www.`` and its path, so a brand domain's other
  hotels stay out), contact / team / staff / about / impressum pages first, then the home page,
  at most ``max_pages``.
* `redirect_target(captures, scope)`: where the site moved when the crawl only saw a redirect of it.
* `people_from_pages(pages, region, now)`: people with the same extractor as the website layer
  (``contacts.extract_contacts``), sourced ``cc_harvest`` with its confidence (the seed's 0.45,
  minus ``generic_title`` and ``stale_data`` for captures over a year old). Owner precision is
  measured, so a bare first name ("Coastal, Manager") and a company read as a person ("managed by
  Orange Blossom Hospitality") are dropped.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from .confidence import contact_confidence
from .contacts import extract_contacts
from .merge import upsert_decision_makers

__all__ = ["CC_SOURCE", "Capture", "CcPage", "Crawl", "Scope", "capture_priority", "is_stale", "newest_crawl",
           "parse_cdx", "people_from_pages", "redirect_target", "select_captures", "site_scope"]

CC_SOURCE = "cc_harvest"
STALE_AFTER = timedelta(days=365)  # the seed's "stale_data": older than 12 months
_KINDS = [
    (3.0, re.compile(r"contact|kontakt|impressum|get-in-touch|reach-us|nous-joindre|contacto", re.IGNORECASE)),
    (2.5, re.compile(r"team|staff|management|leadership|people|owners?\b|innkeeper|our-hosts|meet-", re.IGNORECASE)),
    (2.0, re.compile(r"about|our-story|who-we-are|a-propos|ueber-uns|uber-uns", re.IGNORECASE)),
]
_CRAWL_ID = re.compile(r"CC-MAIN-(\d{4})-(\d{2})")
_COMPANY_WORDS = (r"(?:hospitality|group|management|lodging|hotels?|resorts?|properties|partners|holdings|company|"
                  r"collection|co|llc|inc|ltd|corp|corporation|enterprises|ventures|investments)")
_COMPANY_WORD = re.compile(rf"\b{_COMPANY_WORDS}\b\.?$", re.IGNORECASE)


@dataclass(frozen=True)
class Crawl:
    id: str
    cdx_api: str


@dataclass(frozen=True)
class Capture:
    """One line of the CDX API: where a capture's response record sits in which WARC file."""

    urlkey: str
    timestamp: str  # YYYYMMDDhhmmss
    url: str
    mime: str
    status: int | None
    digest: str
    length: int
    offset: int
    filename: str
    redirect: str | None = None

    @classmethod
    def from_cdx(cls, row: Mapping[str, Any]) -> Capture:
        status = str(row.get("status", ""))
        return cls(urlkey=str(row["urlkey"]), timestamp=str(row["timestamp"]), url=str(row["url"]),
                   mime=str(row.get("mime-detected") or row.get("mime") or ""),
                   status=int(status) if status.isdigit() else None, digest=str(row.get("digest", "")),
                   length=int(row["length"]), offset=int(row["offset"]), filename=str(row["filename"]),
                   redirect=row.get("redirect") or None)


@dataclass(frozen=True)
class CcPage:
    """A fetched capture's page: the URL crawled, when, and its HTML."""

    url: str
    timestamp: str
    html: str


@dataclass(frozen=True)
class Scope:
    """A hotel's part of the web: its host without ``www.`` and the path its site lives under."""

    host: str
    path: str = "/"


def _host(url: str) -> str:
    host = (urlsplit(url if "://" in url[:12] else f"http://{url}").hostname or "").lower().strip(".")
    return re.sub(r"^www\d*\.", "", host)


def site_scope(website: str) -> Scope:
    """The scope of a website URL: its host and the folder of its path (a brand's hotel page)."""
    parts = urlsplit(website if "://" in website[:12] else f"http://{website}")
    path = (parts.path or "/").lower()
    return Scope(_host(website), path if path.endswith("/") else path.rsplit("/", 1)[0] + "/")


def _in_scope(url: str, scope: Scope) -> bool:
    path = (urlsplit(url).path or "/").lower()
    return _host(url) == scope.host and (path + "/").startswith(scope.path)


def newest_crawl(collinfo: Iterable[Mapping[str, Any]]) -> Crawl | None:
    """The newest crawl with a CDX API (by its CC-MAIN-YYYY-WW id; the list's first on a tie)."""
    best: tuple[tuple[int, int], int, Crawl] | None = None
    for i, entry in enumerate(collinfo):
        if not entry.get("id") or not entry.get("cdx-api"):
            continue
        m = _CRAWL_ID.search(str(entry["id"]))
        rank = (int(m.group(1)), int(m.group(2))) if m else (0, 0)
        if best is None or (rank, -i) > (best[0], best[1]):
            best = (rank, -i, Crawl(str(entry["id"]), str(entry["cdx-api"])))
    return best[2] if best else None


def parse_cdx(text: str) -> list[Capture]:
    """The captures of a CDX API answer (``output=json``: one JSON object per line)."""
    out = []
    for line in text.splitlines():
        try:
            out.append(Capture.from_cdx(json.loads(line)))
        except (ValueError, KeyError, TypeError, AttributeError):
            continue  # a truncated or foreign line: the others still count
    return out


def capture_priority(url: str, scope: Scope) -> float:
    """Contact pages 3, team / staff 2.5, about 2, the home page 1, other pages 0."""
    path = (urlsplit(url).path or "/").lower()
    rest = path[len(scope.path):] if path.startswith(scope.path) else path
    for weight, pattern in _KINDS:
        if pattern.search(rest):
            return weight
    return 1.0 if rest.strip("/") in ("", "index.html", "index.php", "home") else 0.0


def select_captures(captures: Iterable[Capture], scope: Scope, max_pages: int) -> list[Capture]:
    """Per URL the newest 200 text/html capture within `scope`, best pages first, at most `max_pages`."""
    newest: dict[str, Capture] = {}
    for c in captures:
        if c.status != 200 or not c.mime.startswith("text/html") or not _in_scope(c.url, scope):
            continue
        if c.urlkey not in newest or c.timestamp > newest[c.urlkey].timestamp:
            newest[c.urlkey] = c
    ranked = sorted(newest.values(), key=lambda c: (-capture_priority(c.url, scope), len(c.url), c.url))
    return ranked[:max(0, max_pages)]


def redirect_target(captures: Iterable[Capture], scope: Scope) -> str | None:
    """The newest redirect of the site's own home page to another host (the site moved), or None."""
    moves = [c for c in captures if c.status is not None and 300 <= c.status < 400 and c.redirect
             and _in_scope(c.url, scope) and capture_priority(c.url, scope) == 1.0 and _host(c.redirect) != scope.host]
    return max(moves, key=lambda c: c.timestamp).redirect if moves else None


def is_stale(timestamp: str, now: datetime) -> bool:
    """True for a capture older than a year (the seed's ``stale_data``); unreadable stamps are stale."""
    try:
        when = datetime.strptime(timestamp[:14], "%Y%m%d%H%M%S").replace(tzinfo=UTC)
    except ValueError:
        return True
    return now - when > STALE_AFTER


def _company_like(name: str, evidence: str) -> bool:
    """True for a "person" that is a company ("managed by Orange Blossom Hospitality" reads as a
    manager named Orange Blossom): its last word is a company word, or one follows it."""
    if _COMPANY_WORD.search(name):
        return True
    follows = re.compile(rf"{re.escape(name)}\.?,?\s+{_COMPANY_WORDS}\b", re.IGNORECASE)
    return follows.search(evidence) is not None


def people_from_pages(pages: Sequence[CcPage], region: str, now: datetime) -> list[dict[str, Any]]:
    """The people the pages name (one row per person, the better title, blanks filled)."""
    found = []
    for page in pages:
        stale = is_stale(page.timestamp, now)
        for person in extract_contacts(page.html, region, site_domain=page.url).people:
            if person.first_name_only or _company_like(person.full_name, person.evidence):
                continue
            found.append({"full_name": person.full_name, "title": person.title or "", "email": person.email,
                          "phone": person.phone, "sources": [CC_SOURCE],
                          "confidence": contact_confidence(CC_SOURCE, generic_title=person.generic_title,
                                                           stale_data=stale),
                          "raw_source_url": page.url})
    return [{k: v for k, v in row.items() if k not in ("created_at", "updated_at")}
            for row in upsert_decision_makers([], found)]
