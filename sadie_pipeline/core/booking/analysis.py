"""The detect stage's entry points: `detect` (engines on a page), `analyze` (engines, the
JavaScript decision, the visible text, same-site booking links and uncatalogued booking hosts,
from one parse) and `needs_javascript`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sadie_pipeline.core.booking.catalogue import index
from sadie_pipeline.core.booking.javascript import TEXT_MAX_BYTES, judge, structure, truncate_utf8, visible_text
from sadie_pipeline.core.booking.page import CONF_FINAL_URL, RANK_FINAL, Page
from sadie_pipeline.core.booking.scan import Collector, Detection, booking_links, scan, scan_browser
from sadie_pipeline.core.booking.unknown import UnknownEngine, find_unknown_engines


@dataclass(frozen=True, slots=True)
class PageAnalysis:
    """Everything the detect stage needs from one page, from a single parse."""

    detections: tuple[Detection, ...]
    needs_javascript: bool
    text: str
    #: same-site links whose text says "book"/"reserve" (the fetcher may follow one hop)
    booking_links: tuple[str, ...] = ()
    #: third-party booking hosts the catalogue does not know (used when no engine is found)
    unknown_engines: tuple[UnknownEngine, ...] = ()

    @property
    def primary(self) -> Detection | None:
        return self.detections[0] if self.detections else None


def detect(
    html: str | bytes | None,
    final_url: str | None = None,
    *,
    request_urls: Iterable[str] = (),
    cookies: Iterable[Any] = (),
    js_globals: Iterable[str] = (),
    min_confidence: float = 0.0,
) -> list[Detection]:
    """The booking engines a page reveals, best first (empty list: no engine, status 99 NO_BOOKING_ENGINE).

    `final_url` is the URL after redirects (relative links resolve against it, or against the
    page's <base href>); `request_urls`, `cookies` (names, (name, domain) pairs or Playwright
    cookie dicts) and `js_globals` (window property names) are what a browser observed, when
    one was used. Ordering: lodging engines before activity tools, then confidence, then the
    amount of evidence, then first appearance in the page."""
    collector = Collector(index())
    page = Page(html, final_url) if html or final_url else None
    if page is not None:
        _scan_final_url(page, collector)
        if html:
            scan(page, collector)
    scan_browser(collector, request_urls, cookies, js_globals)
    return [d for d in collector.results() if d.confidence >= min_confidence]


def _scan_final_url(page: Page, collector: Collector) -> None:
    if page.final_url:
        collector.url(page.final_url, "link", CONF_FINAL_URL, RANK_FINAL)


def analyze(
    html: str | bytes | None,
    final_url: str | None = None,
    *,
    request_urls: Iterable[str] = (),
    cookies: Iterable[Any] = (),
    js_globals: Iterable[str] = (),
    max_text_bytes: int = TEXT_MAX_BYTES,
) -> PageAnalysis:
    """detect() + needs_javascript() + strip_to_text() + unknown engines from one parse."""
    collector = Collector(index())
    page = Page(html, final_url)
    _scan_final_url(page, collector)
    if html:
        scan(page, collector)
    links = booking_links(page) if html else []
    unknown = find_unknown_engines(page, request_urls) if html else ()
    scan_browser(collector, request_urls, cookies, js_globals)
    detections = tuple(collector.results())
    signals = structure(page, html)  # before visible_text strips the scripts
    text = visible_text(page.tree)
    return PageAnalysis(detections=detections, needs_javascript=judge(signals, text, detections, bool(links)),
                        text=truncate_utf8(text, max_text_bytes), booking_links=tuple(links),
                        unknown_engines=unknown)


def needs_javascript(html: str | bytes | None) -> bool:
    """True when the page must be rendered by a browser to be judged: a near-empty body, an
    empty SPA root (<div id="root"></div> + bundles), an "enable JavaScript" noscript on a thin
    page, a bot challenge, a booking widget only loaded by a script loader, an empty booking
    container a script fills, or "Book now" buttons that lead nowhere without JavaScript."""
    if not html or len(html.strip() if isinstance(html, str) else bytes(html).strip()) < 200:
        return True
    page = Page(html, None)
    collector = Collector(index())
    scan(page, collector)
    links = booking_links(page)
    detections = tuple(collector.results())
    signals = structure(page, html)  # before visible_text strips the scripts
    return judge(signals, visible_text(page.tree), detections, bool(links))
