"""`sadie scrape-prospects`: discovery on this machine (hotel_discovery's Serper search, city by
city), each prospect with a website either sent to the queue (`--target cloud`) or enriched here
(`--target local`, the cloud worker's own function)."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from sadie_pipeline.core.hybrid import Outcome, ProspectMessage, Target, prospect_message
from sadie_pipeline.hotels import discovery
from sadie_pipeline.hybrid.enrich import DomainResult, enrich_all
from sadie_pipeline.hybrid.queue import HybridQueue
from sadie_pipeline.resources.object_store import ObjectStore
from sadie_pipeline.resources.serper import SerperResource
from sadie_pipeline.resources.web import WebsiteFetcher


@dataclass
class ScrapeReport:
    places: int = 0                  # lodging places discovery kept
    prospects: int = 0               # with a website domain, each (domain, region) once
    without_website: int = 0
    duplicates: int = 0              # found again under another city's query
    sent: int = 0
    send_failed: int = 0
    send_requests: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)   # --target local
    failures: list[str] = field(default_factory=list)


def city_prospects(serper: SerperResource, store: ObjectStore, region: str, city: str,
                   report: ScrapeReport, seen: set[str]) -> list[ProspectMessage]:
    """One city's places (raw pages kept under api-responses/serper/ as hotel_discovery keeps
    them) as messages, each message id once per scrape."""
    found = discovery.DiscoveryResult()
    rows = asyncio.run(discovery.discover_serper(serper, store, region, [city], dt.date.today(), found))
    report.failures += found.failures
    report.places += len(rows)
    out = []
    for _, record, _ in rows:
        message = prospect_message(record, region)
        if message is None:
            report.without_website += 1
        elif message.message_id in seen:
            report.duplicates += 1
        else:
            seen.add(message.message_id)
            out.append(message)
    report.prospects += len(out)
    return out


def scrape_prospects(serper: SerperResource, store: ObjectStore, region: str, cities: Sequence[str],
                     target: Target, *, queue: HybridQueue | None = None, fetcher: WebsiteFetcher | None = None,
                     on_city: Callable[[str], None] = lambda city: None,
                     on_domain: Callable[[DomainResult], None] = lambda result: None) -> ScrapeReport:
    """Discovery city by city (the search is rate-limited per key and per IP: one city at a time
    keeps this machine's pace), each city's prospects sent (or enriched) before the next city."""
    report, seen = ScrapeReport(), set()
    for city in cities:
        messages = city_prospects(serper, store, region, city, report, seen)
        if target is Target.CLOUD:
            assert queue is not None
            sent = queue.send(messages)
            report.sent += sent.sent
            report.send_failed += sent.failed
            report.send_requests += sent.requests
            report.failures += sent.errors or []
        else:
            assert fetcher is not None
            results = asyncio.run(enrich_all(fetcher, store, [(m, None) for m in messages], on_done=on_domain))
            for r in results:
                report.outcomes[r.outcome.value] = report.outcomes.get(r.outcome.value, 0) + 1
                if r.outcome is Outcome.FAILED:
                    report.failures.append(f"{r.domain}: {r.error}")
        on_city(city)
    return report
