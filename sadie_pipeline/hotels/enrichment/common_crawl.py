"""Common Crawl layers (seed 001: "Common Crawl HTML", "CC contact extraction").

* `cc_harvest` (``LAYER_CC_HARVEST``, resource ``common_crawl``): the newest crawl's captures of
  each tier-1 hotel's domain (CDX API), of which the newest 200 HTML capture of its contact /
  team / about pages and home page (at most ``max_pages``) is fetched from its WARC file by byte
  range and stored gzipped beside the hotel's website content (``{id}.cc-{n}.html.gz``) with a
  manifest (``{id}.cc.json``). A site the crawl only saw redirecting elsewhere is followed once.
  A hotel without a domain, or whose domain is not in the crawl, completes with 0 pages.
* `cc_contacts` (``LAYER_CC_CONTACTS``, after ``cc_harvest``: hotels whose harvest has not
  completed are skipped and taken up later): people, titles, e-mails and phones of the stored
  pages, read by the website layer's extractor, as decision makers sourced ``cc_harvest``.
"""

import asyncio
import gzip
import json
from datetime import UTC, datetime
from functools import partial
from typing import Any

import pandas as pd
import psycopg
from dagster import AssetExecutionContext, MaterializeResult, asset
from pydantic import Field

from sadie_pipeline.core.enrichment.common_crawl import (
    CC_SOURCE,
    Capture,
    CcPage,
    people_from_pages,
    redirect_target,
    select_captures,
    site_scope,
)
from sadie_pipeline.core.enrichment.layers import LAYER_CC_CONTACTS, LAYER_CC_HARVEST, can_run
from sadie_pipeline.core.entity_resolution import website_parts
from sadie_pipeline.hotels.assets import REGION_ASSET, booking_engine_detection
from sadie_pipeline.hotels.enrichment.common import (
    LayerConfig,
    LayerResult,
    PerRun,
    enrich_regions,
    hotel_domain,
    layer_asset,
    layer_output,
    region_country,
    save_layer,
)
from sadie_pipeline.hotels.enrichment.owner import upsert_decision_maker
from sadie_pipeline.hotels.websites import content_key
from sadie_pipeline.resources.common_crawl import CommonCrawlResource
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore
from sadie_pipeline.resources.reliability import SkipItem

WAITING = "waiting for cc_harvest"
MANIFEST = "cc.json"
CONTACTS_CONCURRENCY = 8  # no service behind it: pages read from the object store


class CcHarvestConfig(LayerConfig):
    max_pages: int = Field(default=5, ge=1, le=20)
    """Captures fetched per hotel (contact / team / about pages first)."""


def manifest_key(hotel: dict[str, Any]) -> str:
    return content_key(hotel["state"], hotel["city"], hotel["id"], MANIFEST)


def _page_key(hotel: dict[str, Any], n: int) -> str:
    return content_key(hotel["state"], hotel["city"], hotel["id"], f"cc-{n}.html.gz")


async def _chosen(common_crawl: CommonCrawlResource, lookup: PerRun, hotel: dict[str, Any], domain: str,
                  max_pages: int) -> tuple[int, list[Capture]]:
    """(captures seen, captures to fetch) of the hotel's site; a site the crawl saw only as a
    redirect to another host is looked up there (one hop)."""
    scope = site_scope(hotel["website"])
    captures = await lookup(domain)
    chosen = select_captures(captures, scope, max_pages)
    target = None if chosen else redirect_target(captures, scope)
    parts = website_parts(target) if target else None
    if target and parts:
        moved = await lookup(parts[0])
        return len(captures) + len(moved), select_captures(moved, site_scope(target), max_pages)
    return len(captures), chosen


def _store_pages(store: ObjectStore, hotel: dict[str, Any], crawl: str, seen: int, chosen: list[Capture],
                 pages: list[Any]) -> list[dict[str, Any]]:
    """Each page gzipped beside the hotel's website content, and a manifest of what the crawl had
    (written with no pages too: the lookup happened and found nothing to keep)."""
    stored = []
    for n, (capture, page) in enumerate(zip(chosen, pages)):
        key = _page_key(hotel, n)
        store.put_bytes(key, gzip.compress(page.html.encode("utf-8"), mtime=0), content_type="application/gzip")
        stored.append({"url": capture.url, "timestamp": capture.timestamp, "digest": capture.digest,
                       "filename": capture.filename, "offset": capture.offset, "length": capture.length,
                       "key": key})
    manifest = {"crawl": crawl, "captures": seen, "pages": stored}
    store.put_bytes(manifest_key(hotel), json.dumps(manifest, sort_keys=True).encode(), content_type="application/json")
    return stored


@asset(**REGION_ASSET, **layer_asset("cc_harvest"), deps=[booking_engine_detection], kinds={"postgres", "s3"},
       pool="common_crawl")
def cc_harvest(context: AssetExecutionContext, config: CcHarvestConfig, database: Database,
               object_store: ObjectStore, common_crawl: CommonCrawlResource) -> MaterializeResult[pd.DataFrame]:
    """Each tier-1 hotel's contact, team and about pages as the newest Common Crawl captured them
    (CDX index, then the WARC records by byte range), stored beside its website content."""
    result = LayerResult("cc_harvest")

    def save(conn: psycopg.Connection, hotel: dict[str, Any], value: dict[str, Any]) -> None:
        save_layer(conn, hotel["id"], LAYER_CC_HARVEST, "cc_harvest",
                   {"cc_crawl": value["crawl"], "cc_pages": len(value["pages"])}, CC_SOURCE, None,
                   config.force_refresh)

    lookup = PerRun(common_crawl.captures)

    async def harvest(hotel: dict[str, Any]) -> dict[str, Any]:
        domain = hotel_domain(hotel)
        if not domain:
            return {"domain": None, "crawl": None, "captures": 0, "pages": []}
        crawl = (await common_crawl.newest_crawl()).id
        seen, chosen = await _chosen(common_crawl, lookup, hotel, domain, config.max_pages)
        pages = await asyncio.gather(*(common_crawl.page(capture) for capture in chosen))
        ok = [(c, p) for c, p in zip(chosen, pages) if p.status == 200]
        stored = _store_pages(object_store, hotel, crawl, seen, [c for c, _ in ok], [p for _, p in ok])
        return {"domain": domain, "crawl": crawl, "captures": seen, "pages": stored}

    enrich_regions(context.partition_keys, database, result, LAYER_CC_HARVEST, config,
                   lambda region, hotels: harvest, save, concurrency=common_crawl.max_concurrency,
                   close=common_crawl.aclose)
    return layer_output(context, database, result, lambda values: {
        "domains_in_crawl": sum(1 for v in values if v["captures"]),
        "captures_seen": sum(v["captures"] for v in values),
        "pages_stored": sum(len(v["pages"]) for v in values),
        "hotels_with_pages": sum(1 for v in values if v["pages"]),
    })


def _stored_pages(store: ObjectStore, hotel: dict[str, Any]) -> list[CcPage]:
    """The pages cc_harvest stored for the hotel ([] when it stored none)."""
    key = manifest_key(hotel)
    if not store.exists(key):
        return []
    pages = []
    for row in json.loads(store.get_bytes(key)).get("pages", []):
        if store.exists(row["key"]):
            html = gzip.decompress(store.get_bytes(row["key"])).decode("utf-8", "replace")
            pages.append(CcPage(row["url"], row["timestamp"], html))
    return pages


@asset(**REGION_ASSET, **layer_asset("cc_contacts"), deps=[cc_harvest], kinds={"postgres"})
def cc_contacts(context: AssetExecutionContext, config: LayerConfig, database: Database,
                object_store: ObjectStore) -> MaterializeResult[pd.DataFrame]:
    """People named on each tier-1 hotel's crawled contact, team and about pages (the website
    layer's extractor), as decision makers sourced ``cc_harvest``."""
    result = LayerResult("cc_contacts")

    def save(conn: psycopg.Connection, hotel: dict[str, Any], value: dict[str, Any]) -> None:
        people = value["people"]
        confidence = max((p["confidence"] for p in people), default=None)
        save_layer(conn, hotel["id"], LAYER_CC_CONTACTS, "cc_contacts", {}, CC_SOURCE, confidence,
                   config.force_refresh)
        for person in people:
            upsert_decision_maker(conn, hotel["id"], person, config.force_refresh)

    async def contacts(hotel: dict[str, Any], country: str) -> dict[str, Any]:
        if not can_run(LAYER_CC_CONTACTS, hotel["layers_completed"]):
            raise SkipItem(WAITING)
        pages = _stored_pages(object_store, hotel)
        people = people_from_pages(pages, country, datetime.now(UTC))
        return {"pages": len(pages), "people": people}

    enrich_regions(context.partition_keys, database, result, LAYER_CC_CONTACTS, config,
                   lambda region, hotels: partial(contacts, country=region_country(region)), save,
                   concurrency=CONTACTS_CONCURRENCY)
    return layer_output(context, database, result, lambda values: {
        "pages_read": sum(v["pages"] for v in values),
        "decision_makers_found": sum(len(v["people"]) for v in values),
        "hotels_with_people": sum(1 for v in values if v["people"]),
        "with_email": sum(1 for v in values for p in v["people"] if p["email"]),
    })


common_crawl_assets = [cc_harvest, cc_contacts]
