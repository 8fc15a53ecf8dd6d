"""Common Crawl discovery's CDX queries and candidate choice (issue 32). No I/O.

A region is scanned with two kinds of query, each a CDX domain query with server-side filters
(pywb's syntax, which Common Crawl's index server runs: ``=field:v`` exact, ``field:regex``,
``~field:v`` substring, ``!`` negates):

* ``words:{tld}:{languages}``: home pages (``/``, ``/index.html``...) answering 200 ``text/html`` under the
  TLD (the region's country code: ``au`` for AU regions, ``ca``, ``us``; plus TLDs the run adds,
  e.g. ``com``) whose host carries a lodging word of the region's languages;
* ``engine:{domain}``: 200 ``text/html`` pages under a booking engine's domain (catalogue engines
  with `client_ids`) whose URL is one of the engine's client-id URLs.

`home_candidates` keeps one capture per site (its registrable domain, or its host on a site
builder's shared domain; the root page, https and www first);
`engine_candidates` one per (engine, client id).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import urlsplit

__all__ = ["LODGING_WORDS", "QueryKind", "CrawlQuery", "engine_query", "home_candidates", "host_regex",
           "name_has_lodging_word", "region_languages", "word_queries"]

# words a lodging business's host name carries, per language (host names have no spaces or "&")
LODGING_WORDS: dict[str, tuple[str, ...]] = {
    "en": ("hotel", "motel", "inn", "lodge", "resort", "suites", "bnb", "bandb", "bedandbreakfast", "guesthouse",
           "hostel", "cottage", "bungalow", "cabins", "villas", "backpackers", "holidaypark", "caravanpark"),
    "es": ("hotel", "hostal", "posada", "hospedaje", "alojamiento", "albergue", "casarural"),
    "fr": ("hotel", "auberge", "gite", "chambresdhotes", "motel"),
    "de": ("hotel", "pension", "gasthaus", "gasthof", "herberge", "ferienwohnung"),
    "pt": ("hotel", "pousada", "hospedaria", "albergue"),
    "it": ("hotel", "albergo", "locanda", "agriturismo", "pensione"),
}
_LANGUAGES = {"US": ("en", "es"), "CA": ("en", "fr"), "AU": ("en",)}
_REGION_LANGUAGES = {"CA-QC": ("fr", "en")}
_COUNTRY_TLDS = {"US": ("us",), "CA": ("ca",), "AU": ("au",)}
HOME_PATH = r"/?(?:index\.(?:html?|php|aspx?)|home|en/?|es/?|fr/?|de/?)?/?"
_NAME_WORDS = re.compile(
    r"\b(?:hotel|h[oô]tel|motel|inn|lodge|resort|suites?|b ?& ?b|bed (?:and|&) breakfast|guest ?house|hostel|"
    r"hostal|posada|hospedaje|auberge|g[iî]te|pension|gasthaus|gasthof|pousada|albergo|locanda|agriturismo|cottages?|"
    r"cabins?|villas?|chalets?|bungalows?|backpackers|holiday park|caravan park|residence|apartments?)\b", re.I)


class QueryKind(StrEnum):
    WORDS = "words"
    ENGINE = "engine"


@dataclass(frozen=True)
class CrawlQuery:
    key: str  # stable: the scan table's (crawl, region, key)
    kind: QueryKind
    url: str
    filters: tuple[str, ...]
    engine: str | None = None
    match_type: str = "domain"


def region_languages(region: str) -> tuple[str, ...]:
    return _REGION_LANGUAGES.get(region) or _LANGUAGES.get(region.split("-", 1)[0], ("en",))


def region_tlds(region: str, extra: Iterable[str] = ()) -> tuple[str, ...]:
    tlds = [*_COUNTRY_TLDS.get(region.split("-", 1)[0], ()), *(t.strip(".").lower() for t in extra if t.strip("."))]
    return tuple(dict.fromkeys(tlds))


def lodging_words(languages: Sequence[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(w for lang in languages for w in LODGING_WORDS.get(lang, ())))


def host_regex(words: Sequence[str]) -> str:
    """A URL regex: a home page whose host carries one of `words`."""
    return rf"^https?://[^/?#]*(?:{'|'.join(sorted(set(words)))})[^/?#]*{HOME_PATH}$"


_HOST_WORDS = re.compile("|".join(sorted({w for words in LODGING_WORDS.values() for w in words})))


def host_has_lodging_word(host: str | None) -> bool:
    """A lodging word of any language in the host's labels."""
    return bool(host and _HOST_WORDS.search(host.lower()))


def name_has_lodging_word(text: str | None) -> bool:
    return bool(text and _NAME_WORDS.search(text))


def word_queries(region: str, extra_tlds: Iterable[str] = ()) -> list[CrawlQuery]:
    """A query per TLD; its key names the TLD and the languages (the same for every region that
    shares them: the scan is made once per crawl)."""
    languages = region_languages(region)
    words = lodging_words(languages)
    langs = "+".join(sorted(languages))
    return [CrawlQuery(f"words:{tld}:{langs}", QueryKind.WORDS, f"*.{tld}",
                       ("=status:200", "mime:text/html", f"url:{host_regex(words)}"))
            for tld in region_tlds(region, extra_tlds)]


def _plain(pattern: str) -> str:
    """A client-id regex without its named group (the index server needs no group names)."""
    return re.sub(r"\(\?P<[a-z_]+>", "(?:", pattern)


def engine_query(engine: str, domain: str, client_id_patterns: Sequence[str]) -> CrawlQuery:
    filters = ["=status:200", "mime:text/html"]
    if client_id_patterns:
        # (?i): the catalogue's patterns are matched case-insensitively, the index server's are not
        filters.append("url:(?i)" + "|".join(f"(?:{_plain(p)})" for p in client_id_patterns))
    return CrawlQuery(f"engine:{domain}", QueryKind.ENGINE, f"*.{domain}", tuple(filters), engine)


# site builders whose customers live on subdomains: there the host, not the registrable domain, is the site
SITE_PLATFORMS = frozenset({
    "wixsite.com", "business.site", "square.site", "squarespace.com", "wordpress.com", "blogspot.com", "weebly.com",
    "godaddysites.com", "webnode.com", "jimdosite.com", "site123.me", "github.io", "netlify.app", "vercel.app",
    "webflow.io", "strikingly.com", "carrd.co", "ueniweb.com", "myshopify.com", "wixstudio.io", "mystrikingly.com"})


def site_key(host: str, domain_of: Callable[[str], str | None]) -> str | None:
    """The site a host belongs to: its registrable domain, or the host itself (without www.) on a
    site builder's shared domain (`seaviewinn.wixsite.com`)."""
    domain = domain_of(host)
    if domain in SITE_PLATFORMS:
        host = host.lower().rstrip(".")
        return host[4:] if host.startswith("www.") else host
    return domain


def _home_rank(url: str) -> tuple[int, int, int, str]:
    parts = urlsplit(url)
    return ((parts.path or "/") not in ("", "/"), parts.scheme != "https", not (parts.hostname or "").startswith("www."),
            url)


def home_candidates(urls: Iterable[tuple[str, object]], domain_of: Callable[[str], str | None],
                    seen: set[str]) -> list[tuple[str, object]]:
    """(registrable domain, capture) per domain not in `seen`: its root page, https and www first.
    `seen` gains the domains chosen."""
    best: dict[str, tuple[tuple[int, int, int, str], object]] = {}
    for url, capture in urls:
        domain = site_key(urlsplit(url).hostname or "", domain_of)
        if not domain or domain in seen:
            continue
        rank = _home_rank(url)
        if domain not in best or rank < best[domain][0]:
            best[domain] = (rank, capture)
    seen.update(best)
    return [(d, c) for d, (_, c) in sorted(best.items())]
