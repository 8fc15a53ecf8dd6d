"""Listing images of a DMO (asset `listing_images`, after promotion): each new image URL is
downloaded, checked and stored with its resized variants under `images/{dmo}/{listing_id}/`, and
near duplicates among one listing's images are dropped (status `duplicate`, never shown).

* A promotion inserts a listing's images with no status (and replaces them all when the DMO's set
  changes). Each URL's download is kept per listing_info in `pipeline.image_fetches`, so a URL sent
  again is never downloaded again: only new URLs, and failed ones with tries left
  (`max_attempts` runs), are.
* The unit of work is a listing_info: its images are decided together (ok / duplicate / failed
  with the reason), since duplicates are judged among them; units are written in batches, with
  their downloads, in one transaction. Objects have keys made from their URL, so a run killed
  halfway and run again writes the same objects and ends where a clean run ends.
* Decoding, resizing and hashing run in a thread pool (Pillow releases the GIL), downloads in the
  event loop; at most `in_flight` images are held in memory at once.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

from sadie_pipeline.core.errors import ErrorClass
from sadie_pipeline.core.images import (
    DEFAULT_RULES,
    Candidate,
    ImageFailure,
    ImageRejected,
    ImageRules,
    ImageStatus,
    ProcessedImage,
    image_key,
    image_stem,
    near_duplicates,
    original_file,
    process_image,
    variant_file,
)
from sadie_pipeline.listings.image_fetcher import ImageFetcher
from sadie_pipeline.listings.queries import sql
from sadie_pipeline.listings.repository import Dmo
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore
from sadie_pipeline.resources.reliability import ServiceCallFailed

PREVIEW_ROWS = 10
STORED_LINKS = 20


@dataclass(frozen=True)
class ImageSettings:
    rules: ImageRules = DEFAULT_RULES
    max_distance: int = 8            # perceptual-hash bits within which two images of a listing are one
    max_attempts: int = 3            # runs that try a failing URL
    max_images: int | None = None    # downloads per run; the rest wait for the next run
    cpu_workers: int = os.cpu_count() or 2
    io_workers: int = 8              # object-store writes at once (a local folder syncs each file)
    in_flight: int = 24              # images downloaded and not yet stored, at most
    units_at_once: int = 8
    units_per_query: int = 500
    batch_units: int = 50


@dataclass(frozen=True)
class Fetch:
    """A URL's download for one listing_info (a pipeline.image_fetches row)."""
    status: str                        # ok / failed
    failure: str | None = None
    reason: str | None = None
    canonical_url: str | None = None
    variants: dict[str, str] | None = None
    width: int | None = None
    height: int | None = None
    phash: str | None = None
    attempts: int = 0
    storage_key: str | None = None
    content_type: str | None = None
    byte_size: int | None = None


@dataclass(frozen=True)
class _Row:
    unit: int
    listing_id: int
    id: int
    url: str | None
    rank: int
    fetch: Fetch | None


@dataclass
class ImagesResult:
    units: int = 0                   # listing_info rows whose images were decided
    tried: int = 0                   # URLs whose download was tried now
    downloaded: int = 0              # of those, downloaded, checked and stored (the rest failed)
    reused: int = 0                  # images decided from an earlier download of their URL
    bytes_downloaded: int = 0
    statuses: Counter[str] = field(default_factory=Counter)   # the decided images by status
    failures: Counter[str] = field(default_factory=Counter)   # failed downloads by failure
    given_up: int = 0                # failed images whose tries are spent, after this run
    left_for_next_run: int = 0       # units over max_images
    preview: list[tuple[Any, ...]] = field(default_factory=list)
    stored: list[str] = field(default_factory=list)


async def process_dmo_images(db: Database, store: ObjectStore, fetcher: ImageFetcher, dmo: Dmo,
                             settings: ImageSettings, log: Callable[[str], None] = lambda m: None) -> ImagesResult:
    """Downloads, stores and decides the DMO's images that need it; see the module's docstring."""
    params = {"dmo": dmo.id, "max_attempts": settings.max_attempts}
    with db.connect() as conn:
        units = [r[0] for r in conn.execute(sql("images", "pending_units"), params)]
    result = ImagesResult()
    with ThreadPoolExecutor(settings.cpu_workers, thread_name_prefix="sadie-images") as cpu, \
            ThreadPoolExecutor(settings.io_workers, thread_name_prefix="sadie-images-io") as io:
        work = _Work(db, store, fetcher, dmo, settings, (cpu, io), result)
        for start in range(0, len(units), settings.units_per_query):
            await work.run(units[start:start + settings.units_per_query])
            log(f"images: {result.units} of {len(units)} listings done, {result.downloaded} downloaded, "
                f"{result.tried - result.downloaded} failed")
    with db.connect() as conn:  # counted after the run: the tries it spent count
        result.given_up = conn.execute(sql("images", "given_up"), params).fetchone()[0]
    return result


class _Work:
    """One run's state: the budget, the decided units waiting to be written."""

    def __init__(self, db: Database, store: ObjectStore, fetcher: ImageFetcher, dmo: Dmo, settings: ImageSettings,
                 pools: tuple[ThreadPoolExecutor, ThreadPoolExecutor], result: ImagesResult) -> None:
        self.db, self.store, self.fetcher, self.dmo, self.settings = db, store, fetcher, dmo, settings
        (self.cpu, self.io), self.result = pools, result
        self.in_flight = asyncio.Semaphore(settings.in_flight)
        self.budget = settings.max_images
        self.done: list[tuple[list[tuple[Any, ...]], dict[str, Fetch], int]] = []

    async def run(self, units: list[int]) -> None:
        rows = self._rows(units)
        queue = list(units)

        async def lane() -> None:
            while queue:
                unit = queue.pop(0)
                await self._unit(unit, rows.get(unit, []))
                if len(self.done) >= self.settings.batch_units:
                    self._flush()

        async with asyncio.TaskGroup() as group:
            for _ in range(min(self.settings.units_at_once, len(queue))):
                group.create_task(lane())
        self._flush()

    def _rows(self, units: list[int]) -> dict[int, list[_Row]]:
        by_unit: dict[int, list[_Row]] = {}
        with self.db.connect() as conn:
            for (unit, listing_id, row_id, url, rank, status, attempts, failure, reason, canonical, variants, width,
                 height, phash) in conn.execute(sql("images", "unit_rows"), {"units": units}):
                fetch = Fetch(status, failure, reason, canonical, variants, width, height, phash, attempts) \
                    if status else None
                by_unit.setdefault(unit, []).append(_Row(unit, listing_id, row_id, url, rank, fetch))
        return by_unit

    async def _unit(self, unit: int, rows: list[_Row]) -> None:
        urls = sorted({r.url for r in rows if r.url and self._needs_download(r)})
        if self.budget is not None:
            if len(urls) > self.budget:
                self.result.left_for_next_run += 1
                return
            self.budget -= len(urls)
        fetched = await asyncio.gather(*(self._download(url, rows[0].listing_id) for url in urls))
        new = dict(zip(urls, fetched, strict=True))
        self.done.append((_decide(rows, new, self.settings), new, unit))

    def _needs_download(self, row: _Row) -> bool:
        return row.fetch is None or (row.fetch.status == "failed" and row.fetch.attempts < self.settings.max_attempts)

    async def _download(self, url: str, listing_id: int) -> Fetch:
        async with self.in_flight:
            try:
                got = await self.fetcher.fetch(url, self.settings.rules)
            except ServiceCallFailed as failed:
                return _failed_call(failed)
            if isinstance(got, ImageRejected):
                return Fetch("failed", got.failure, got.detail)
            self.result.bytes_downloaded += len(got)
            loop = asyncio.get_running_loop()
            done = await loop.run_in_executor(self.cpu, _process, got, self.settings.rules)
            if isinstance(done, Fetch):
                return done
            prefix = image_key(self.dmo.slug, listing_id, "")
            return await loop.run_in_executor(self.io, _store, self.store, got, done, url, prefix)

    def _flush(self) -> None:
        if not self.done:
            return
        fetches, states = [], []
        for decided, new, unit in self.done:
            fetches += [(unit, url, f) for url, f in new.items()]
            states += decided
            self._count(decided, new)
        with self.db.connect() as conn:
            if fetches:
                conn.execute(sql("images", "save_fetches"), _fetch_columns(fetches))
            conn.execute(sql("images", "set_states"), _state_columns(states))
        self.done = []

    def _count(self, decided: list[tuple[Any, ...]], new: dict[str, Fetch]) -> None:
        r = self.result
        r.units += 1
        r.tried += len(new)
        r.downloaded += sum(f.status == "ok" for f in new.values())
        r.reused += sum(1 for d in decided if d[1] not in new)
        r.failures.update(str(f.failure) for f in new.values() if f.status == "failed" and f.failure)
        for row_id, url, status, reason, _, _, width, height, phash, _ in decided:
            r.statuses[str(status)] += 1
            if len(r.preview) < PREVIEW_ROWS:
                r.preview.append((row_id, url, str(status), width, height, phash, reason))
        r.stored += [f.canonical_url for f in new.values() if f.canonical_url][:STORED_LINKS - len(r.stored)]


def _process(data: bytes, rules: ImageRules) -> ProcessedImage | Fetch:
    """In a CPU thread: the checks, the variants and the hash (a failed Fetch when refused)."""
    try:
        return process_image(data, rules)
    except ImageRejected as rejected:
        return Fetch("failed", rejected.failure, rejected.detail)
    except Exception as exc:  # a decoder's own bug on odd bytes fails this image, not the batch
        return Fetch("failed", ImageFailure.UNDECODABLE, f"{type(exc).__name__}: {exc}"[:500])


def _store(store: ObjectStore, data: bytes, done: ProcessedImage, url: str, prefix: str) -> Fetch:
    """In an I/O thread: the original and its variants stored under keys made from the URL."""
    stem = image_stem(url)
    key = prefix + original_file(stem, done.extension)
    store.put_bytes(key, data, content_type=done.content_type)
    variants = {}
    for variant in done.variants:
        variant_key = prefix + variant_file(stem, variant.name)
        store.put_bytes(variant_key, variant.data, content_type="image/jpeg")
        variants[variant.name] = store.uri(variant_key)
    return Fetch("ok", canonical_url=store.uri(key), variants=variants, width=done.width, height=done.height,
                 phash=done.phash, storage_key=key, content_type=done.content_type, byte_size=len(data))


def _failed_call(failed: ServiceCallFailed) -> Fetch:
    if failed.status_code is not None and failed.error_class in (ErrorClass.NOT_FOUND, ErrorClass.PERMANENT,
                                                                 ErrorClass.AUTH):
        return Fetch("failed", ImageFailure.HTTP_ERROR, f"HTTP {failed.status_code}")
    return Fetch("failed", ImageFailure.UNREACHABLE, f"{failed.error_class}: {failed.last_error}"[:500])


def _decide(rows: list[_Row], new: dict[str, Fetch], settings: ImageSettings) -> list[tuple[Any, ...]]:
    """Each image's state from its URL's download: failed, a near duplicate of a kept one, or ok."""
    fetch_of = {r.id: new.get(r.url or "") or r.fetch for r in rows}
    kept = [Candidate(r.id, r.rank, f.phash, f.width or 0, f.height or 0) for r in rows
            if (f := fetch_of[r.id]) is not None and f.status == "ok" and f.phash]
    dropped = near_duplicates(kept, settings.max_distance)
    decided = []
    for row in rows:
        f = fetch_of[row.id] or Fetch("failed", ImageFailure.HTTP_ERROR, "no image URL")
        if f.status != "ok":
            f = replace(f, canonical_url=None, variants=None)
            status, reason, duplicate_of = ImageStatus.FAILED, f"{f.failure}: {f.reason}", None
        elif row.id in dropped:
            status, reason, duplicate_of = ImageStatus.DUPLICATE, f"near duplicate of image {dropped[row.id]}", \
                dropped[row.id]
        else:
            status, reason, duplicate_of = ImageStatus.OK, None, None
        decided.append((row.id, row.url, status, reason, f.canonical_url, f.variants, f.width, f.height, f.phash,
                        duplicate_of))
    return decided


def _fetch_columns(fetches: list[tuple[int, str, Fetch]]) -> dict[str, list[Any]]:
    return {"lis": [u for u, _, _ in fetches], "urls": [url for _, url, _ in fetches],
            "statuses": [f.status for *_, f in fetches], "failures": [f.failure for *_, f in fetches],
            "reasons": [f.reason for *_, f in fetches], "storage_keys": [f.storage_key for *_, f in fetches],
            "canonical_urls": [f.canonical_url for *_, f in fetches],
            "variants": [json.dumps(f.variants) if f.variants else None for *_, f in fetches],
            "content_types": [f.content_type for *_, f in fetches], "byte_sizes": [f.byte_size for *_, f in fetches],
            "widths": [f.width for *_, f in fetches], "heights": [f.height for *_, f in fetches],
            "phashes": [f.phash for *_, f in fetches]}


def _state_columns(states: list[tuple[Any, ...]]) -> dict[str, list[Any]]:
    names = ("ids", "urls", "statuses", "reasons", "canonical_urls", "variants", "widths", "heights", "phashes",
             "duplicates")
    columns = dict(zip(names, map(list, zip(*states, strict=True)), strict=True))
    columns["variants"] = [json.dumps(v) if v else None for v in columns["variants"]]
    del columns["urls"]
    return columns


def status_counts(db: Database, dmo: Dmo) -> dict[str, int]:
    """The DMO's images by status ('pending': not processed yet)."""
    with db.connect() as conn:
        return dict(conn.execute(sql("images", "status_counts"), {"dmo": dmo.id}).fetchall())
