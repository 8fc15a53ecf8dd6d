"""Reading scraped pages with the config's CSS selectors (selectolax): the detail links and the
next-page link of a list page, a listing's fields. "a.website@href" reads an attribute (URLs made
absolute against the page); several matches give one value, a line each."""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urldefrag, urljoin

from selectolax.lexbor import LexborHTMLParser, LexborNode

from sadie_pipeline.core.sources.records import Record

URL_ATTRIBUTES = frozenset({"href", "src", "data-src", "srcset"})


def parse(html: str) -> LexborHTMLParser:
    return LexborHTMLParser(html)


def split_selector(spec: str) -> tuple[str, str | None]:
    """"img.photo@src" -> ("img.photo", "src"); "h1" -> ("h1", None)."""
    css, at, attribute = spec.rpartition("@")
    if at and css and attribute and "]" not in attribute and " " not in attribute:
        return css, attribute
    return spec, None


def fields_of(node: LexborHTMLParser | LexborNode, fields: Mapping[str, str], page_url: str) -> Record:
    """Each configured field's value within the node (a page, or one listing's element)."""
    record: Record = {}
    for name, spec in fields.items():
        css, attribute = split_selector(spec)
        values = [_value(found, attribute, page_url) for found in node.css(css)]
        record[name] = "\n".join(v for v in values if v)
    return record


def _value(node: LexborNode, attribute: str | None, page_url: str) -> str:
    if attribute is None:
        return " ".join(node.text(separator=" ").split())
    value = (node.attributes.get(attribute) or "").strip()
    return urljoin(page_url, value) if value and attribute in URL_ATTRIBUTES else value


def links(node: LexborHTMLParser | LexborNode, css: str, page_url: str) -> list[str]:
    """Absolute URLs (no fragment) of the matching elements' href (or of the <a> inside them), in
    page order, each once."""
    found: list[str] = []
    for match in node.css(css):
        anchor = match if match.attributes.get("href") is not None else match.css_first("a[href]")
        href = (anchor.attributes.get("href") or "").strip() if anchor is not None else ""
        if href and not href.startswith(("javascript:", "mailto:", "tel:")):
            url = urldefrag(urljoin(page_url, href)).url
            if url not in found:
                found.append(url)
    return found
