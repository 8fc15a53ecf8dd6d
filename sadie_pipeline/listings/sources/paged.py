"""Fetching a paginated JSON API page by page: the first page alone (if it fails, the source cannot
be pulled), then the rest with up to `concurrency` requests in flight, yielded in page order.

* pages announced (X-WP-TotalPages, a body path): pages 2..N at once;
* offsets confirmed by next links (Drupal: links.next.href carries page[offset]): the following
  offsets are asked for before their link is read, in a window that doubles while each page's
  link points where expected; a link elsewhere, and the pull follows links one by one;
* next links, cursors, or pages until a short one: one after another.

A page that fails (after the guard's retries) or is not JSON is one problem; the others go on."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import aclosing
from dataclasses import dataclass
from typing import Any

from sadie_pipeline.core.sources.config import Paging, PagingStyle
from sadie_pipeline.core.sources.paging import (
    announced_pages,
    next_cursor,
    next_link,
    offset_of,
    page_params,
)
from sadie_pipeline.core.sources.records import Item, Problem, Pulled
from sadie_pipeline.listings.sources.http import Page, PageError, SourceError, SourceHttp

Shape = Callable[[Page], list[Item]]


@dataclass
class PullState:
    """What a pull did; the connector's thread writes it, the writer reads it at the end."""
    since: str | None = None          # the high-water mark asked from (None: everything)
    pages_fetched: int = 0
    pages_failed: int = 0
    pages_total: int | None = None    # as announced by the source


@dataclass(frozen=True)
class Fetched:
    page: Page | None
    items: list[Item]


class Pager:
    """One source's pages: `url` with `base` parameters, paginated per `paging`, each page shaped."""

    def __init__(self, http: SourceHttp, url: str, base: dict[str, str], paging: Paging, shape: Shape,
                 state: PullState):
        self.http, self.url, self.base, self.paging, self.shape, self.state = http, url, base, paging, shape, state
        self.window = http.guard.policy.max_concurrency

    async def pages(self) -> AsyncIterator[list[Item]]:
        first = await self._first()
        yield first.items
        if self.paging.max_pages == 1 or self.paging.style == PagingStyle.NONE:
            return
        total = announced_pages(self.paging, first.page.headers, first.page.body)
        self.state.pages_total = total
        style = self.paging.style
        if style in (PagingStyle.PAGE, PagingStyle.OFFSET) and total is not None:
            fetches = (self._numbered(i) for i in range(1, self._capped(total)))
            async with aclosing(in_order(fetches, self.window)) as results:
                async for fetched in results:
                    yield fetched.items
        elif style == PagingStyle.OFFSET and self.paging.next_path:
            async for items in self._confirmed_offsets(first.page):
                yield items
        elif style in (PagingStyle.NEXT_URL, PagingStyle.CURSOR):
            async for items in self._chained(first.page):
                yield items
        else:
            async for items in self._until_short(first):
                yield items

    def _capped(self, total: int) -> int:
        return min(total, self.paging.max_pages) if self.paging.max_pages else total

    async def _first(self) -> Fetched:
        try:
            page = await self.http.get_json(self.url, {**self.base, **page_params(self.paging, 0)})
        except PageError as exc:
            raise SourceError(f"cannot pull {exc.message}") from None
        self.state.pages_fetched += 1
        return Fetched(page, self.shape(page))

    async def _fetch(self, url: str, params: dict[str, str] | None) -> Fetched:
        try:
            page = await self.http.get_json(url, params)
        except PageError as exc:
            self.state.pages_failed += 1
            return Fetched(None, [Problem(exc.kind, exc.message, self.http.redact(str(self.http.url(url, params))),
                                          {"start": exc.start} if exc.start else None)])
        self.state.pages_fetched += 1
        return Fetched(page, self.shape(page))

    def _numbered(self, index: int) -> Callable[[], Awaitable[Fetched]]:
        return lambda: self._fetch(self.url, {**self.base, **page_params(self.paging, index)})

    async def _confirmed_offsets(self, first: Page) -> AsyncIterator[list[Item]]:
        """The pages after the first by offset, asked for ahead of their links: the window of pages in
        flight doubles with each link that points where expected (few wasted requests when a source
        has few pages); a link elsewhere, and the rest is followed link by link."""
        link, param, size = next_link(self.paging, first.headers, first.body), self.paging.offset_param, \
            self.paging.page_size or 0
        pending: deque[asyncio.Task[Fetched]] = deque()
        index, ahead, window = 1, 1, 1
        try:
            while link and size and offset_of(link, param) == index * size:
                while len(pending) < window and self._allowed(ahead):
                    pending.append(asyncio.ensure_future(self._numbered(ahead)()))
                    ahead += 1
                if not pending:
                    return
                fetched = await pending.popleft()
                yield fetched.items
                index += 1
                # a failed page's link is unknown; the next offset is not
                link = self._offset_url(index) if fetched.page is None else \
                    next_link(self.paging, fetched.page.headers, fetched.page.body)
                window = min(window * 2, self.window)
        finally:
            for task in pending:
                task.cancel()
            if pending:
                await asyncio.gather(*pending, return_exceptions=True)
        if link:  # a link the offsets did not predict: followed as given
            async for items in self._chained_from(link, index):
                yield items

    def _allowed(self, index: int) -> bool:
        return not self.paging.max_pages or index < self.paging.max_pages

    def _offset_url(self, index: int) -> str:
        return str(self.http.client.build_request("GET", self.url, params={
            **self.base, **page_params(self.paging, index)}).url) if self._allowed(index) else ""

    async def _chained(self, first: Page) -> AsyncIterator[list[Item]]:
        if self.paging.style == PagingStyle.CURSOR:
            cursor, index = next_cursor(self.paging, first.body), 1
            while cursor and self._allowed(index):
                fetched = await self._fetch(self.url, {**self.base, **page_params(self.paging, 0),
                                                       self.paging.cursor_param: cursor})
                yield fetched.items
                cursor = next_cursor(self.paging, fetched.page.body) if fetched.page else None
                index += 1
            return
        link = next_link(self.paging, first.headers, first.body)
        if link:
            async for items in self._chained_from(link, 1):
                yield items

    async def _chained_from(self, link: str, index: int = 1) -> AsyncIterator[list[Item]]:
        seen = set()
        while link and link not in seen and self._allowed(index):
            seen.add(link)
            fetched = await self._fetch(link, None)
            yield fetched.items
            link = next_link(self.paging, fetched.page.headers, fetched.page.body) if fetched.page else None
            index += 1

    async def _until_short(self, first: Fetched) -> AsyncIterator[list[Item]]:
        """No total, no link: the next page while the last one was full."""
        size, index, last = self.paging.page_size, 1, first
        while size and sum(isinstance(i, Pulled) for i in last.items) >= size and self._allowed(index):
            last = await self._numbered(index)()
            yield last.items
            index += 1


async def in_order(fetches: Iterator[Callable[[], Awaitable[Any]]], window: int) -> AsyncIterator[Any]:
    """Runs the fetches with at most `window` in flight; yields their results in order."""
    pending: deque[asyncio.Task[Any]] = deque()
    try:
        for fetch in fetches:
            pending.append(asyncio.ensure_future(fetch()))
            if len(pending) >= window:
                yield await pending.popleft()
        while pending:
            yield await pending.popleft()
    finally:
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.gather(*pending, return_exceptions=True)
