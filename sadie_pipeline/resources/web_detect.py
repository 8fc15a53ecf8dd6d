"""The per-site detection recipe of the detection stage: fetch -> analyze -> render when the page
needs JavaScript -> analyze -> follow one same-site booking link when no engine was found.

The recipe also renders a page that `needs_javascript` does not flag when httpx found no engine
and the page has an empty booking/reservation/widget container plus a script
(`has_script_placeholder`): widgets injected after load, as on the sandbox's js_only sites."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, NamedTuple

from selectolax.lexbor import LexborHTMLParser

from sadie_pipeline.core.booking_engines import Detection, analyze
from sadie_pipeline.resources.web_pages import FetchResult, domain_key

if TYPE_CHECKING:
    from sadie_pipeline.resources.web import WebsiteFetcher

_LODGING = frozenset({"hotel_booking_engine", "crs", "vacation_rental"})


class SiteDetection(NamedTuple):
    """`fetch_and_detect`'s answer: unpack as ``result, detections, text``."""

    result: FetchResult
    detections: list[Detection]
    text: str


_PLACEHOLDER_SELECTOR = ", ".join(
    f"{tag}[{attr}*={word!r} i]" for tag in ("div", "section", "aside", "span")
    for attr in ("id", "class") for word in ("book", "reserv", "availab", "widget")
) + ", [data-loading]"


def has_script_placeholder(html: str) -> bool:
    """A page that loads scripts and has an (almost) empty booking/reservation/availability/widget
    container: the booking engine is probably injected by JavaScript after load."""
    if not html or "<script" not in html.lower():
        return False
    tree = LexborHTMLParser(html)
    # inline scripts count too: they inject widgets as well as loaders do
    if not any(n.attrs.get("src") or (n.text(deep=False) or "").strip() for n in tree.css("script")):
        return False
    for node in tree.css(_PLACEHOLDER_SELECTOR):
        if node.css_first("a[href], iframe, form") is None and len(node.text(deep=True, strip=True)) < 40:
            return True
    return False


def engine_found(detections: Sequence[Detection]) -> bool:
    """A lodging booking engine seen with more than a vendor link's weak evidence."""
    return any(d.category in _LODGING and d.confidence > 0.4 for d in detections)


async def fetch_and_detect(fetcher: WebsiteFetcher, hotel_url: str, *, render: bool = True,
                           follow_booking_link: bool = True) -> SiteDetection:
    """Fetch a hotel's site and detect its booking engine: ``(result, detections, text)``.

    httpx fetch -> analyze; if the page needs JavaScript (`needs_javascript`, or no engine and an
    empty booking/widget container filled by a script, see `has_script_placeholder`): render ->
    analyze with what the browser saw; if still no engine: follow one same-site "Book now" link
    (httpx) and take its detections (``result.followed_url`` and ``followed_html`` keep that page,
    also when it shows only an uncatalogued booking host and the home page none). ``text`` is the
    page's visible text (<= 50 KB), empty when the site is dead. ``result.via == "browser"`` when
    the rendered page was used.
    """
    result = await fetcher.fetch(hotel_url)
    if not result.ok:
        return SiteDetection(result, [], "")
    page = analyze(result.html, result.final_url)
    wants_browser = page.needs_javascript or (
        not engine_found(page.detections) and has_script_placeholder(result.html))
    if wants_browser and render and fetcher.browser_enabled:
        rendered = await fetcher.render(result.final_url)
        if rendered.ok and rendered.html:
            page = analyze(rendered.html, rendered.final_url, request_urls=rendered.request_urls,
                           cookies=rendered.cookies, js_globals=rendered.js_globals)
            result = replace(rendered, url=result.url, redirects=result.redirects, rendered_from=result.final_url)
        else:
            result = replace(result, render_error=rendered.reason or "render_failed")
    detections = list(page.detections)
    if follow_booking_link and not engine_found(detections):
        site = domain_key(result.final_url)
        link = next((u for u in page.booking_links if domain_key(u) == site and u != result.final_url), None)
        if link is not None:
            hop = await fetcher.fetch(link)
            if hop.ok and hop.html:
                hop_page = analyze(hop.html, hop.final_url)
                if engine_found(hop_page.detections):
                    detections = list(hop_page.detections)
                if engine_found(hop_page.detections) or (hop_page.unknown_engines and not page.unknown_engines):
                    result = replace(result, followed_url=hop.final_url, followed_html=hop.html)
    return SiteDetection(result, detections, page.text)
