"""`pull_source`: a DMO's configured source pulled now, into a job like an inbox file's import.

* API sources (wordpress, drupal, partner_api, scrape): the job (key `pull/{dmo}/{run or time}`)
  is claimed as an import's is, the connector runs on a thread of its own (asyncio, several pages
  in flight) while this thread writes its records with the CSV path's raw-file writer, raw keys and
  job rows, in one transaction; problems become job_errors rows (stage 'import'); what the pull
  asked and got is a `pipeline.source_pulls` row.
* File sources with a `url` (csv, xlsx, json, jsonl, poi): the file is downloaded into the object
  store under `pulls/{dmo}/...` and imported by the inbox path (import_inbox_file).

Incremental pulls ask for what changed since the high-water mark of the DMO's newest promoted pull
of the same source (`full=True` asks for everything, which also finds deletions). A pull that holds
part of the source (incremental, or pages that failed) marks its job's config `full_import: false`:
what it left out is not deleted. A source that cannot be reached fails the job with one line."""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import json
import queue
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import PurePath
from typing import Any
from urllib.parse import urlsplit

from sadie_pipeline.core.config import merge_config
from sadie_pipeline.core.sources.config import API_SOURCES, SourceType, pulled
from sadie_pipeline.core.sources.records import Item
from sadie_pipeline.listings.importer import ImportResult, import_inbox_file, run_import
from sadie_pipeline.listings.queries import run, sql
from sadie_pipeline.listings.repository import Dmo, get_dmo, snapshot_config
from sadie_pipeline.listings.sources.connectors import api_pages
from sadie_pipeline.listings.sources.http import PROXY_ENV, SourceError, SourceHttp
from sadie_pipeline.listings.sources.paged import PullState
from sadie_pipeline.listings.sources.raw_items import write_items, write_problems
from sadie_pipeline.listings.sources.scrape import scrape_pages
from sadie_pipeline.listings.trusted import rows_of_job
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore
from sadie_pipeline.settings import env

PULL_PREFIX = "pulls"
FILE_EXTENSIONS = {SourceType.CSV: ".csv", SourceType.XLSX: ".xlsx", SourceType.JSON: ".json",
                   SourceType.JSONL: ".jsonl", SourceType.POI: ".geojson"}
KNOWN_EXTENSIONS = (".csv", ".txt", ".tsv", ".xlsx", ".xls", ".xlsb", ".ods", ".json", ".jsonl", ".ndjson", ".geojson")
Log = Callable[[str], None]


def is_pulled(config: dict[str, Any]) -> bool:
    """Whether the DMO's source is pulled (an API, or a file at a URL) rather than dropped in the inbox."""
    return pulled(SourceType(config["import"]["source_type"]), config["import"].get("url"))


def current_config(database: Database, dmo: Dmo) -> dict[str, Any]:
    with database.connect() as conn:
        row = run(conn, "pulls", "current_config", {"dmo": dmo.id}).fetchone()
    return merge_config(row[0] if row else {}, stored=True)  # a config saved before a check existed still imports


def pull_source(database: Database, store: ObjectStore, slug: str, *, run_key: str | None = None,
                imported_by: str = "0", promote: bool = True, full: bool = False,
                log: Log = lambda m: None) -> ImportResult:
    """Pulls the DMO's configured source now into a new import job (the same job again for the same
    `run_key`, as a retried run takes over its own). Raises SourceError (the job failed, one line)."""
    with database.connect() as conn:
        dmo = get_dmo(conn, slug)
    config = current_config(database, dmo)
    section = config["import"]
    stamp = run_key or dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S%f")
    if section["source_type"] not in API_SOURCES:
        if not section["url"]:
            raise SourceError(f"{slug}: source_type {section['source_type']} has no url to pull; its files come "
                              "through the inbox")
        key = f"{PULL_PREFIX}/{slug}/{stamp}{_extension(section)}"
        return import_inbox_file(database, store, dmo, key, run_key=run_key, imported_by=imported_by,
                                 promote=promote, log=log, before_import=lambda: _download(store, key, section))
    key = f"{PULL_PREFIX}/{slug}/{stamp}"

    def work(job: dict[str, Any]) -> ImportResult:
        return _pull_into_job(database, store, dmo, job, imported_by, full, log)

    return run_import(database, dmo, key, work, run_key=run_key, promote=promote, log=log)


def _extension(section: dict[str, Any]) -> str:
    suffix = PurePath(urlsplit(section["url"]).path).suffix.lower()
    return suffix if suffix in KNOWN_EXTENSIONS else FILE_EXTENSIONS[SourceType(section["source_type"])]


def _download(store: ObjectStore, key: str, section: dict[str, Any]) -> None:
    async def fetch() -> bytes:
        async with SourceHttp(f"source {urlsplit(section['url']).netloc}", section, accept="*/*") as http:
            try:
                return (await http.get(section["url"])).content
            except Exception as exc:  # PageError: the only page of the source
                raise SourceError(f"cannot pull {exc}") from None

    store.put_bytes(key, asyncio.run(fetch()))


def source_key(section: dict[str, Any]) -> str:
    """What decides which records a pull gets: a change starts the incremental pulls afresh."""
    chosen = {k: section.get(k) for k in ("source_type", "url", "paging", "records_path", "incremental", "selectors")}
    return hashlib.sha256(json.dumps(chosen, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _pull_into_job(database: Database, store: ObjectStore, dmo: Dmo, job: dict[str, Any], imported_by: str,
                   full: bool, log: Log) -> ImportResult:
    job_id, day = job["id"], job["created_at"].date()
    with database.connect() as conn:
        config = snapshot_config(conn, job_id, dmo)
        section = config["import"]
        params = {"dmo": dmo.id, "source_key": source_key(section)}
        row = None if full or not section["incremental"] else run(conn, "pulls", "last_mark", params).fetchone()
    state = PullState(since=row[0] if row else None)
    log(f"pulling {section['source_type']} {section['url']}" + (f" changed since {state.since}" if state.since else ""))
    http = SourceHttp(f"source {urlsplit(section['url']).netloc}", section,
                      proxy=env(PROXY_ENV) if section["source_type"] == SourceType.SCRAPE else None)
    with database.connect() as conn:
        with rows_of_job(conn, job_id, ["staging.raw_keys"]):
            with conn.cursor() as cur, cur.copy(sql("import", "copy_keys")) as keys:
                written = write_items(store, dmo.slug, dmo.id, job_id, day, config, _now(), imported_by,
                                      in_thread(lambda: _pages(http, section, state)), keys.write_row, dedupe=True)
        if written.records == 0 and state.since is None:
            # a full pull of nothing would delete every listing of the DMO: a source gone wrong
            raise SourceError(f"the source gave no records ({len(written.problems)} problem(s)"
                              + (f"; first: {written.problems[0].message})" if written.problems else ")"))
        _finish(conn, store, dmo, job_id, day, config, written, state, http.bytes)
    log(f"pulled {written.records} records from {state.pages_fetched} pages ({state.pages_failed} failed, "
        f"{len(written.problems)} problems)")
    return ImportResult(job_id, written.records, written.files, source_bytes=http.bytes, problems=written.problems)


async def _pages(http: SourceHttp, section: dict[str, Any], state: PullState) -> AsyncIterator[list[Item]]:
    async with http:
        pages = scrape_pages(http, section, state) if section["source_type"] == SourceType.SCRAPE \
            else api_pages(http, section, state)
        async for items in pages:
            yield items


def _finish(conn: Any, store: ObjectStore, dmo: Dmo, job_id: int, day: dt.date, config: dict[str, Any],
            written: Any, state: PullState, nbytes: int) -> None:
    """The job's files, problems, pull row and imported state, in the import's transaction."""
    section = config["import"]
    for f in written.files:
        run(conn, "import", "raw_file", {"job": job_id, "path": store.uri(f.key), "dmo": dmo.id, "day": day,
                                         "country": config["transform"]["default_country"], "seq": f.seq,
                                         "size": f.size, "records": f.record_count})
    write_problems(conn, job_id, written.problems)
    partial_pull = state.since is not None or state.pages_failed > 0
    if partial_pull:
        run(conn, "pulls", "partial_job", {"job": job_id})
    # pages that failed: the mark stays where it was, so the next pull asks for their records again
    mark = state.since if state.pages_failed else (written.mark or state.since)
    run(conn, "pulls", "record", {
        "job": job_id, "dmo": dmo.id, "source_type": section["source_type"].value, "source_key": source_key(section),
        "url": section["url"], "incremental": state.since is not None, "since": state.since, "mark": mark,
        "pages_fetched": state.pages_fetched, "pages_failed": state.pages_failed, "pages_total": state.pages_total,
        "records": written.records, "problems": len(written.problems), "bytes": nbytes})
    run(conn, "import", "imported", {"job": job_id, "records": written.records, "sha256": None, "bytes": nbytes})


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


_DONE = object()


def in_thread(make: Callable[[], AsyncIterator[list[Item]]], buffered: int = 16) -> Iterator[Item]:
    """The items of an async page iterator, run on a thread with its own event loop, so pages keep
    coming while this thread writes them. Closing the iterator stops the thread."""
    pages: queue.Queue[Any] = queue.Queue(buffered)
    stop = threading.Event()

    def put(value: Any) -> bool:
        while not stop.is_set():
            try:
                pages.put(value, timeout=0.2)
                return True
            except queue.Full:
                continue
        return False

    async def produce() -> None:
        try:
            async for page in make():
                if not put(page):
                    return
        except BaseException as exc:  # noqa: BLE001 - handed to the consumer, which raises it
            put(exc)
            return
        put(_DONE)

    thread = threading.Thread(target=lambda: asyncio.run(produce()), name="source-pull", daemon=True)
    thread.start()
    try:
        while (page := pages.get()) is not _DONE:
            if isinstance(page, BaseException):
                raise page
            yield from page
    finally:
        stop.set()
        thread.join()


def pull_summary(conn: Any, job_id: int) -> dict[str, Any]:
    """What the job's pull did (pages, the high-water mark, problems); {} for a file's import."""
    row = run(conn, "pulls", "of_job", {"job": job_id}).fetchone()
    names = ("source_type", "incremental", "since", "high_water_mark", "pages_fetched", "pages_failed", "pages_total",
             "records", "problems", "bytes_fetched")
    return dict(zip(names, row)) if row else {}
