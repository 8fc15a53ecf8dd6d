"""The cloud side's work on one domain, and on a run's messages (the same function serves
`--target local`, the Dagster op and the plain worker process).

Per domain, in this order (each step's object exists before the next starts):
  1. index object fresh -> skip (another message, or an earlier send, did it);
  2. fetch the site and detect its booking engine (resources/web `fetch_and_detect`, as
     hotel_websites + booking_engine_detection do), contacts from the page text (core/enrichment
     `extract_contacts`);
  3. write enriched/{region}/{domain}.json and .md;
  4. write indexes/domains/{domain}.json;
  5. (the caller) delete the message: a worker killed before 4 leaves the message to come back.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sadie_pipeline.core.enrichment.contacts import extract_contacts
from sadie_pipeline.core.errors import first_line
from sadie_pipeline.core.hybrid import (
    DEFAULT_MAX_AGE,
    SQS_BATCH,
    IndexEntry,
    IndexState,
    Outcome,
    ProspectMessage,
    index_key,
    is_fresh,
    parse_body,
    parse_index,
    result_keys,
    result_markdown,
    to_json,
)
from sadie_pipeline.hybrid.queue import HybridQueue, Received
from sadie_pipeline.resources.object_store import ObjectStore
from sadie_pipeline.resources.web import WebsiteFetcher, engine_found, fetch_and_detect

MAX_PEOPLE = 10


@dataclass
class DomainResult:
    domain: str
    region: str
    outcome: Outcome
    engine: str | None = None
    state: str | None = None
    error: str | None = None
    receipt: str | None = None


@dataclass
class RunReport:
    results: list[DomainResult] = field(default_factory=list)
    deleted: int = 0

    def counts(self) -> dict[str, int]:
        out = {o.value: 0 for o in Outcome}
        for r in self.results:
            out[r.outcome.value] += 1
        return out


def read_index(store: ObjectStore, domain: str) -> IndexEntry | None:
    key = index_key(domain)
    return parse_index(store.get_bytes(key)) if store.exists(key) else None


def _engine(detections: list) -> dict[str, Any] | None:
    found = [d for d in detections if engine_found([d])]
    if not found:
        return None
    best = found[0]
    return {"name": best.name, "tier": best.tier, "booking_url": best.booking_url, "method": best.method,
            "confidence": best.confidence}


def enrichment_record(prospect: ProspectMessage, site: Any, now: dt.datetime) -> dict[str, Any]:
    """What the worker learnt about the domain: engine, e-mails, phones, people (from the page)."""
    fetched = site.result
    contacts = extract_contacts(site.text, prospect.region.split("-")[0], site_domain=prospect.domain)
    return {
        "domain": prospect.domain, "region": prospect.region, "message_id": prospect.message_id,
        "name": prospect.name, "city": prospect.city, "website": prospect.website, "phone": prospect.phone,
        "place_id": prospect.place_id, "metadata": prospect.metadata,
        "state": (IndexState.ENRICHED if fetched.ok else IndexState.DEAD).value,
        "reason": None if fetched.ok else fetched.reason, "final_url": fetched.final_url, "via": fetched.via,
        "engine": _engine(site.detections),
        "emails": [e.email for e in contacts.emails], "phones": list(contacts.phones),
        "people": [{"name": p.full_name, "title": p.title, "email": p.email, "phone": p.phone}
                   for p in contacts.people[:MAX_PEOPLE]],
        "enriched_at": now.isoformat(),
    }


def write_result(store: ObjectStore, prospect: ProspectMessage, record: dict[str, Any], now: dt.datetime) -> None:
    """Steps 3 and 4: the result, then its index object (the index says the result is there)."""
    json_key, md_key = result_keys(prospect.region, prospect.domain)
    store.put_bytes(json_key, to_json(record), "application/json")
    store.put_bytes(md_key, result_markdown(record).encode(), "text/markdown; charset=utf-8")
    entry = IndexEntry(domain=prospect.domain, region=prospect.region, state=IndexState(record["state"]),
                       enriched_at=now, result_key=json_key, message_id=prospect.message_id)
    store.put_bytes(index_key(prospect.domain), entry.model_dump_json().encode(), "application/json")


async def enrich_prospect(fetcher: WebsiteFetcher, store: ObjectStore, prospect: ProspectMessage, *,
                          max_age: dt.timedelta = DEFAULT_MAX_AGE) -> DomainResult:
    """Steps 1 to 4 above for one domain. The object store's calls are blocking (boto3): they run
    in threads, so the other lanes' fetches go on meanwhile."""
    index = await asyncio.to_thread(read_index, store, prospect.domain)
    if is_fresh(index, dt.datetime.now(dt.UTC), max_age):
        return DomainResult(prospect.domain, prospect.region, Outcome.SKIPPED_FRESH)
    url = prospect.website if "://" in prospect.website else f"http://{prospect.website}"
    site = await fetch_and_detect(fetcher, url)
    now = dt.datetime.now(dt.UTC)
    record = enrichment_record(prospect, site, now)
    await asyncio.to_thread(write_result, store, prospect, record, now)
    return DomainResult(prospect.domain, prospect.region, Outcome.ENRICHED,
                        (record["engine"] or {}).get("name"), record["state"])


async def enrich_all(fetcher: WebsiteFetcher, store: ObjectStore, items: Sequence[tuple[ProspectMessage, str | None]],
                     *, max_age: dt.timedelta = DEFAULT_MAX_AGE,
                     on_done: Callable[[DomainResult], None] | None = None) -> list[DomainResult]:
    """Every (prospect, receipt) through `enrich_prospect`, lanes as hotel_websites runs them (twice
    the fetcher's concurrency); a domain that raises is FAILED with its error, the others go on.
    `on_done` sees each result as it comes (a progress bar, the deletes)."""
    results: list[DomainResult | None] = [None] * len(items)
    taken = iter(range(len(items)))

    async def lane() -> None:
        for i in taken:
            prospect, receipt = items[i]
            try:
                done = await enrich_prospect(fetcher, store, prospect, max_age=max_age)
            except Exception as exc:  # noqa: BLE001 - the message stays queued and comes back
                done = DomainResult(prospect.domain, prospect.region, Outcome.FAILED, error=first_line(exc))
            done.receipt = receipt
            results[i] = done
            if on_done is not None:
                on_done(done)

    if items:  # the store's client made here, once: boto3 does not make clients safely from several threads
        read_index(store, items[0][0].domain)
    try:
        await asyncio.gather(*(lane() for _ in range(max(1, min(2 * fetcher.max_concurrency, len(items))))))
    finally:
        await fetcher.aclose()
    return [r for r in results if r is not None]


class Deleter:
    """Deletes the messages of done domains, SQS_BATCH at a time as they finish (a run killed
    halfway keeps what it deleted; what it did not comes back and is skipped as fresh)."""

    def __init__(self, queue: HybridQueue) -> None:
        self.queue, self.pending, self.deleted = queue, [], 0

    def __call__(self, result: DomainResult) -> None:
        if result.outcome is not Outcome.FAILED and result.receipt:
            self.pending.append(result.receipt)
            if len(self.pending) >= SQS_BATCH:
                self.flush()

    def flush(self) -> None:
        if self.pending:
            batch, self.pending = self.pending, []
            self.deleted += self.queue.delete(batch)


def process_messages(queue: HybridQueue, fetcher: WebsiteFetcher, store: ObjectStore,
                     messages: Sequence[Received], *, max_age: dt.timedelta = DEFAULT_MAX_AGE) -> RunReport:
    """A run's received messages enriched and deleted. A domain twice in the run is enriched once
    (both lanes would find no index and fetch it twice): its other messages wait for the first
    and are deleted with it. A body that is not a prospect is FAILED (left to come back, and after
    max_receive_count to reach the dead-letter queue)."""
    report, items, extra = RunReport(), [], {}
    for m in messages:
        try:
            prospect = parse_body(m.body)
        except ValueError as exc:
            report.results.append(DomainResult("?", "?", Outcome.FAILED, error=f"not a prospect: {first_line(exc)}"))
            continue
        if prospect.domain in extra:
            extra[prospect.domain].append(DomainResult(prospect.domain, prospect.region, Outcome.DUPLICATE,
                                                       receipt=m.receipt))
        else:
            extra[prospect.domain] = []
            items.append((prospect, m.receipt))
    deleter = Deleter(queue)

    def done(result: DomainResult) -> None:
        deleter(result)
        for duplicate in extra[result.domain]:
            duplicate.outcome = Outcome.FAILED if result.outcome is Outcome.FAILED else Outcome.DUPLICATE
            duplicate.error = result.error
            deleter(duplicate)

    report.results += asyncio.run(enrich_all(fetcher, store, items, max_age=max_age, on_done=done))
    report.results += [d for duplicates in extra.values() for d in duplicates]
    deleter.flush()
    report.deleted = deleter.deleted
    return report
