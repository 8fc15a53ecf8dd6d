"""Pagination and high-water marks, without I/O: which parameters ask for page N, how many pages
a first answer announces, where the next page is, and which of two modification times is later."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from sadie_pipeline.core.sources.config import Paging, PagingStyle
from sadie_pipeline.core.sources.records import get_path, text_of


def page_params(paging: Paging, index: int) -> dict[str, str]:
    """Query parameters of the index-th page (0 = the first) for page and offset styles."""
    size = paging.page_size
    if paging.style == PagingStyle.PAGE:
        params = {paging.page_param or "page": str(paging.first_page + index)}
    elif paging.style == PagingStyle.OFFSET:
        params = {paging.offset_param or "offset": str(index * (size or 0))}
    else:
        params = {}
    if size and paging.size_param and paging.style != PagingStyle.NONE:
        params[paging.size_param] = str(size)
    return params


def announced_pages(paging: Paging, headers: Mapping[str, str], body: Any) -> int | None:
    """The number of pages a first answer says there are (a header, or a body path), if any."""
    value: Any = None
    if paging.total_pages_header:
        value = headers.get(paging.total_pages_header)
    if value is None and paging.total_pages_path:
        value = get_path(body, paging.total_pages_path)
    text = text_of(value).strip() if value is not None else ""
    return int(text) if text.isdigit() else None


def next_link(paging: Paging, headers: Mapping[str, str], body: Any) -> str | None:
    """The next page's URL: the body's next_path, else an RFC 8288 Link header's rel="next"."""
    if paging.next_path:
        found = get_path(body, paging.next_path)
        if isinstance(found, str) and found:
            return found
    link = headers.get("link") or headers.get("Link")
    match = re.search(r'<([^>]+)>\s*;[^,]*rel="?next"?', link or "")
    return match.group(1) if match else None


def next_cursor(paging: Paging, body: Any) -> str | None:
    found = get_path(body, paging.cursor_path) if paging.cursor_path else None
    return text_of(found) if found not in (None, "", False) else None


def offset_of(url: str, param: str) -> int | None:
    """The offset a next link asks for (Drupal's page[offset]), to fetch the pages after it at once."""
    value = dict(parse_qsl(urlsplit(url).query)).get(param)
    return int(value) if value is not None and value.isdigit() else None


def later(a: str | None, b: str | None) -> str | None:
    """The later of two modification times (ISO 8601 or Unix time; None is earliest)."""
    if a is None or b is None:
        return a if b is None else b
    return a if _moment(a) >= _moment(b) else b


def _moment(mark: str) -> dt.datetime:
    text = mark.strip()
    if text.lstrip("-").replace(".", "", 1).isdigit():
        return dt.datetime.fromtimestamp(float(text), dt.UTC)
    try:
        moment = dt.datetime.fromisoformat(text)
    except ValueError:
        return dt.datetime.min.replace(tzinfo=dt.UTC)  # unreadable: never the mark
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)
