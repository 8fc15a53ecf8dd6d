"""Common Crawl discovery (issue 32, items 2 and 3): a region's hotels from the newest crawl's index.

Each query of the region (core/crawl_queries.py: home pages of hosts with lodging words under the
region's TLDs, client pages under every catalogued engine domain with client ids) is read page by
page from the CDX API; per page, the candidates' WARC records are read and judged
(core/crawl_discovery.py), and the kept ones written as ``hotel_sources`` rows (``crawl``: external
id the registrable domain; ``engine_client``: ``{engine}:{client id}``) in the same transaction as
the query's progress (sql/0043_crawl_discovery.sql). A query finished in a crawl is not scanned
again, whichever region's run finished it (its answer is the same for every region); a killed
scan resumes at its first unread page.

A candidate's region is its address's state: a lodging business of another region is kept for
that region (the scan found it; it costs nothing), one without a readable state is dropped.
"""


import asyncio
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import psycopg
from dagster import AssetExecutionContext, Config, MaterializeResult, MetadataValue, asset
from pydantic import Field

from sadie_pipeline.core.booking.catalogue import LODGING_CATEGORIES, load_catalogue
from sadie_pipeline.core.booking.client_ids import client_id_of
from sadie_pipeline.core.booking.domains import is_non_engine_host
from sadie_pipeline.core.crawl_discovery import PageReading, read_engine_page, read_page
from sadie_pipeline.core.crawl_places import tld_country
from sadie_pipeline.core.crawl_queries import CrawlQuery, QueryKind, engine_query, home_candidates, word_queries
from sadie_pipeline.core.enrichment.common_crawl import Capture, Crawl
from sadie_pipeline.core.normalize import registrable_domain
from sadie_pipeline.hotels import discovery
from sadie_pipeline.hotels.assets import REGION_ASSET
from sadie_pipeline.hotels.queries import run, sql
from sadie_pipeline.metadata import markdown_table, report_partitions
from sadie_pipeline.resources.common_crawl import CommonCrawlResource, WarcPage
from sadie_pipeline.resources.database import Database

CRAWL_SOURCE, ENGINE_SOURCE = "crawl", "engine_client"
# labels an engine's host pattern can read as a client id (www.littlehotelier.com): never a property
_GENERIC_IDS = frozenset({"www", "app", "apps", "api", "book", "booking", "bookings", "secure", "help", "support", "blog",
                          "static", "cdn", "login", "admin", "docs", "status", "mail", "direct"})
_PREVIEW = 10


class PageIncomplete(Exception):
    """Some WARC records of an index page could not be read (after the guard's retries)."""


class CrawlDiscoveryConfig(Config):
    cities: list[str] = []
    """A run narrowed to cities (`sadie market run --city`) scans nothing: a scan covers the whole
    region and is recorded as done, so a part of it would hide the rest from the next full run."""
    tlds: list[str] = []
    """TLDs scanned beside the region's country code (au, ca, us) and the resource's discovery_tlds
    (SADIE_CC_DISCOVERY_TLDS), e.g. ["com"]."""
    engines: bool = True
    """Scan the booking engines' client pages (engine_client rows)."""
    engine_names: list[str] = []
    """Only these catalogue engines (default: every lodging engine with client ids)."""
    max_pages: int = Field(default=0, ge=0)
    """Read at most this many index pages of a query in one run (0: all); the rest on the next run."""


@dataclass
class ScanFigures:
    queries: dict[str, dict[str, Any]] = field(default_factory=dict)
    rejected: Counter = field(default_factory=Counter)
    preview: list[tuple[str, str, str, str]] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    result: discovery.DiscoveryResult = field(default_factory=discovery.DiscoveryResult)


def engine_queries(names: list[str] | None = None) -> list[CrawlQuery]:
    """One query per domain of each lodging engine of the catalogue that knows its client ids."""
    wanted = {n.lower() for n in names or []}
    out = []
    for engine in load_catalogue():
        if not engine.client_ids or engine.category not in LODGING_CATEGORIES:
            continue
        if wanted and engine.name.lower() not in wanted:
            continue
        out += [engine_query(engine.name, d.lstrip("*."), [r.pattern for r in engine.client_ids]) for d in engine.domains]
    return out


def _record(reading: PageReading, **extra: Any) -> dict[str, Any]:
    a = reading.address
    return {"name": reading.name, "address": a.street, "city": a.city, "state": a.state, "zip": a.zip,
            "phone": reading.phone, "lat": None, "lng": None, "google_place_id": None, "evidence": reading.reason,
            **extra}


class RegionScan:
    """One region's scan of one crawl (one event loop, one connection)."""

    def __init__(self, cc: CommonCrawlResource, conn: psycopg.Connection, region: str, crawl: Crawl,
                 config: CrawlDiscoveryConfig, figures: ScanFigures) -> None:
        self.cc, self.conn, self.region, self.crawl, self.config, self.figures = cc, conn, region, crawl, config, figures
        self.country = region.split("-", 1)[0]
        self.seen_domains: set[str] = set()
        self.seen_clients: set[str] = set()

    def _params(self, q: CrawlQuery, **more: Any) -> dict[str, Any]:
        return {"crawl_id": self.crawl.id, "region": self.region, "query_key": q.key, **more}

    async def query(self, q: CrawlQuery) -> None:
        run(self.conn, "discovery_crawl", "start_scan", self._params(q))
        pages, next_page, finished = self.conn.execute(sql("discovery_crawl", "scan_state"), self._params(q)).fetchone()
        self.conn.commit()
        stats = self.figures.queries.setdefault(q.key, {"pages": pages, "read": 0, "captures": 0, "candidates": 0,
                                                        "kept": 0, "rejected": 0, "state": "done before"})
        if finished:
            return
        try:
            if pages is None:
                pages = await self.cc.num_pages(q.url, q.filters, self.crawl)
                run(self.conn, "discovery_crawl", "set_pages", self._params(q, pages=pages))
                self.conn.commit()
            stats.update(pages=pages, state="scanning")
            last = pages if not self.config.max_pages else min(pages, next_page + self.config.max_pages)
            await self._pages(q, next_page, last, stats)
            if pages == 0:
                self._progress(q, 0, {}, stats)
            stats["state"] = "finished" if last >= pages else "partial"
        except Exception as exc:  # recorded; progress so far is kept and the next run resumes
            stats["state"] = "failed"
            self.figures.failures.append(f"{q.key}: {type(exc).__name__}: {exc}"[:300])

    async def _pages(self, q: CrawlQuery, first: int, last: int, stats: dict[str, Any]) -> None:
        """Pages first..last-1 in order, each page's rows and progress written before the next is read."""
        for page in range(first, last):
            rows, counts = await self._read(q, page)
            self._write(q, page, rows, counts, stats)

    async def _read(self, q: CrawlQuery, page: int) -> tuple[dict[str, list], Counter]:
        captures = [c for c in await self.cc.query_page(q.url, q.filters, page, self.crawl) if c.status == 200]
        if q.kind is QueryKind.WORDS:
            rows, counts = await self._homes(captures)
        else:
            rows, counts = await self._clients(q, captures)
        counts["captures"] = len(captures)
        return rows, counts

    def _write(self, q: CrawlQuery, page: int, rows: dict[str, list], counts: Counter, stats: dict[str, Any]) -> None:
        source = CRAWL_SOURCE if q.kind is QueryKind.WORDS else ENGINE_SOURCE
        for region, region_rows in rows.items():
            discovery.save_sources(self.conn, region, source, region_rows, self.figures.result)
        if counts.pop("lost", 0):  # the rows read are kept; the page is read again next run
            self.conn.commit()
            raise PageIncomplete(f"page {page}: WARC records could not be read")
        self._progress(q, page + 1, counts, stats)

    def _progress(self, q: CrawlQuery, next_page: int, counts: dict[str, int], stats: dict[str, Any]) -> None:
        figures = {k: counts.get(k, 0) for k in ("captures", "candidates", "kept", "rejected")}
        run(self.conn, "discovery_crawl", "page_done", self._params(q, next_page=next_page, **figures))
        self.conn.commit()  # the page's rows and its progress together
        stats["read"] += 1 if counts else 0
        for k, v in figures.items():
            stats[k] += v

    async def _fetch(self, capture: Capture, counts: Counter) -> WarcPage | None:
        try:
            return await self.cc.page(capture)
        except Exception as exc:  # the page's other records go on; the page is read again next run
            counts["lost"] += 1
            if len(self.figures.failures) < 20:
                self.figures.failures.append(f"{capture.url}: {type(exc).__name__}: {exc}"[:300])
            return None

    def _keep(self, rows: dict[str, list], reading: PageReading, tld: str | None, external_id: str,
              record: dict[str, Any], counts: Counter) -> None:
        region = reading.region(tld, self.country)
        if region is None:
            self.figures.rejected["no_region"] += 1
            counts["rejected"] += 1
            return
        rows.setdefault(region, []).append((external_id, record, None))
        counts["kept"] += 1
        if len(self.figures.preview) < _PREVIEW:
            self.figures.preview.append((external_id, record.get("name") or "", region, reading.reason))

    async def _homes(self, captures: list[Capture]) -> tuple[dict[str, list], Counter]:
        counts: Counter = Counter()
        rows: dict[str, list] = {}
        picked = home_candidates(((c.url, c) for c in captures), registrable_domain, self.seen_domains)
        ota = [d for d, _ in picked if is_non_engine_host(d)]  # an OTA's or a social site's page is never a hotel
        self.figures.rejected["ota_host"] += len(ota)
        picked = [(d, c) for d, c in picked if d not in ota]
        pages = await asyncio.gather(*(self._fetch(c, counts) for _, c in picked))
        for (domain, capture), page in zip(picked, pages):
            if page is None:
                continue
            counts["candidates"] += 1
            reading = read_page(page.html, urlsplit(capture.url).hostname)
            if not reading.lodging:
                self.figures.rejected[reading.reason.split(":", 1)[0]] += 1
                counts["rejected"] += 1
                continue
            host = urlsplit(capture.url).hostname or ""
            record = _record(reading, website=f"{urlsplit(capture.url).scheme}://{host}/", crawl_id=self.crawl.id,
                             crawl_timestamp=capture.timestamp, lodging_type=reading.lodging_type)
            self._keep(rows, reading, tld_country(host), domain, record, counts)
        return rows, counts

    async def _clients(self, q: CrawlQuery, captures: list[Capture]) -> tuple[dict[str, list], Counter]:
        counts: Counter = Counter()
        rows: dict[str, list] = {}
        chosen: dict[str, tuple[Any, Capture]] = {}
        for c in sorted(captures, key=lambda c: (len(c.url), c.url)):  # the plainest URL of a client
            cid = client_id_of(c.url, q.engine)
            if cid is None or cid.client_id in _GENERIC_IDS:
                continue
            key = f"{cid.engine.lower()}:{cid.client_id}"
            if key not in self.seen_clients and key not in chosen:
                chosen[key] = (cid, c)
        self.seen_clients.update(chosen)
        pages = await asyncio.gather(*(self._fetch(c, counts) for _, c in chosen.values()))
        for (key, (cid, capture)), page in zip(chosen.items(), pages):
            if page is None:
                continue
            counts["candidates"] += 1
            reading = read_engine_page(page.html, [cid.engine, q.engine or ""])
            if not reading.lodging:
                self.figures.rejected["engine_page_without_name"] += 1
                counts["rejected"] += 1
                continue
            record = _record(reading, website=None, booking_engine=cid.engine, client_id=cid.client_id,
                             booking_url=capture.url, crawl_id=self.crawl.id, crawl_timestamp=capture.timestamp)
            self._keep(rows, reading, None, key, record, counts)
        return rows, counts


async def scan_region(cc: CommonCrawlResource, conn: psycopg.Connection, region: str,
                      config: CrawlDiscoveryConfig) -> ScanFigures:
    """Every query of the region over the newest crawl (queries concurrently, pages in order)."""
    figures = ScanFigures()
    try:
        crawl = await cc.newest_crawl()
        figures.queries["_crawl"] = {"id": crawl.id}
        queries = word_queries(region, [*config.tlds, *cc.extra_tlds()])
        if config.engines:
            queries += engine_queries(config.engine_names)
        scan = RegionScan(cc, conn, region, crawl, config, figures)
        await asyncio.gather(*(scan.query(q) for q in queries))
    finally:
        await cc.aclose()
    return figures


def _figures(figures: ScanFigures) -> dict[str, Any]:
    crawl = figures.queries.pop("_crawl", {}).get("id")
    rows = sorted(figures.queries.items())
    scanned = [k for k, s in rows if s["state"] != "done before"]
    return {
        "crawl": crawl or "unknown", "queries": len(rows), "queries_scanned": len(scanned),
        "queries_done_before": len(rows) - len(scanned),
        "source_records": sum(figures.result.by_source.values()),
        "skipped_invalid": figures.result.skipped_invalid,
        "by_source": MetadataValue.json(figures.result.by_source),
        "candidates": sum(s["candidates"] for _, s in rows), "rejected": MetadataValue.json(dict(figures.rejected)),
        "by_query": markdown_table(("query", "pages", "read", "captures", "candidates", "kept", "rejected", "state"), (
            (k, s["pages"], s["read"], s["captures"], s["candidates"], s["kept"], s["rejected"], s["state"])
            for k, s in rows if s["state"] != "done before" or s["kept"])),
        "preview": markdown_table(("external id", "name", "region", "evidence"), figures.preview),
        "failures": MetadataValue.json(figures.failures),
    }


@asset(**REGION_ASSET, kinds={"postgres"}, pool="common_crawl")
def crawl_discovery(context: AssetExecutionContext, config: CrawlDiscoveryConfig, database: Database,
                    common_crawl: CommonCrawlResource) -> MaterializeResult:
    """Hotels from the newest Common Crawl: home pages of hosts with lodging words under the region's
    TLDs, confirmed lodging from their WARC records (schema.org JSON-LD first), as `crawl` source
    records; booking engines' client pages as `engine_client` records (engine, client id, booking
    URL). Incremental: a query finished in a crawl is not scanned again; a killed scan resumes."""
    figures, did_work = {}, {}
    if config.cities:
        context.log.info("narrowed to cities: the crawl is scanned whole by the region's next full run")
        report_partitions(context, {r: {"queries_scanned": 0, "skipped": "narrowed to cities"}
                                    for r in context.partition_keys}, {r: False for r in context.partition_keys})
        return MaterializeResult()
    for region in context.partition_keys:
        with database.connect() as conn:
            found = asyncio.run(scan_region(common_crawl, conn, region, config))
        figures[region] = _figures(found)
        did_work[region] = bool(figures[region]["queries_scanned"])
        for failure in found.failures[:5]:
            context.log.warning(f"{region}: {failure}")
    report_partitions(context, figures, did_work)
    return MaterializeResult()
