"""The hybrid scenario's pure rules (seed 003, issue 35): prospects scraped on a person's machine go
through a queue to cloud workers, which enrich each website once and write per-domain index objects.

* `ProspectMessage`: the queue message (pydantic, extra="forbid": a message another version of the
  code wrote with fields this one does not know is refused, not half-read).
* `message_id(domain, region)`: the idempotency key. Standard SQS queues have no deduplication id,
  so a domain sent twice is two messages; the worker's index check makes the second a no-op.
* `bounded_body`: a message body at most `MAX_BODY_BYTES` (SQS allows 256 KiB; ours stay small so
  ten fit a batch request comfortably), metadata truncated first.
* `batches`: groups of `SQS_BATCH` (the most one SendMessageBatch / DeleteMessageBatch takes).
* `IndexEntry` and `is_fresh`: a domain indexed within `max_age` is not enriched again.
* `domain_of`, `result_keys`, `index_key`: where things live in the object store.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from collections.abc import Iterable, Iterator
from enum import StrEnum
from typing import Annotated, Any, TypeVar
from urllib.parse import urlsplit

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

T = TypeVar("T")

SQS_BATCH = 10                  # SendMessageBatch / DeleteMessageBatch / ReceiveMessage maximum
MAX_BODY_BYTES = 8 * 1024       # our bound; SQS's own is 256 KiB
MAX_FIELD_CHARS = 500           # a metadata value longer than this is cut
INDEX_PREFIX = "indexes/domains/"
ENRICHED_PREFIX = "enriched/"
DEFAULT_MAX_AGE = dt.timedelta(days=30)
LAYER = "hybrid_enrichment"     # pipeline.dead_letters.layer of the queue's dead letters
_HOST = re.compile(r"^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$")
_REGION = re.compile(r"^[A-Z]{2}(-[A-Z0-9]{1,3})?$")   # ISO 3166-1 or -2: US, US-FL, GB-ENG


def _matching(pattern: re.Pattern[str], what: str) -> AfterValidator:
    """Domains and regions name objects and local files (enriched/{region}/{domain}.json): a message
    or an index object with any other text is refused, never a path."""
    def check(value: str) -> str:
        if not pattern.match(value):
            raise ValueError(f"not a {what}: {value[:60]!r}")
        return value
    return AfterValidator(check)


Domain = Annotated[str, _matching(_HOST, "domain")]
Region = Annotated[str, _matching(_REGION, "region code")]


class Target(StrEnum):
    """Where `sadie scrape-prospects` sends what it found."""
    CLOUD = "cloud"   # the queue: cloud workers enrich
    LOCAL = "local"   # enriched in this process


class IndexState(StrEnum):
    """What the worker found at a domain (the index object says it is done either way: a dead
    site is an answer too, and asking again every time it comes up would never end)."""
    ENRICHED = "enriched"   # the site answered
    DEAD = "dead"           # it did not (reason in the result)


class Outcome(StrEnum):
    """What one message came to in a run."""
    ENRICHED = "enriched"
    SKIPPED_FRESH = "skipped_fresh"   # its index object was fresh: done by an earlier message
    DUPLICATE = "duplicate"           # the same domain twice in one run: done once, both deleted
    FAILED = "failed"                 # left in the queue: it comes back after the visibility timeout


class ProspectMessage(BaseModel):
    """One prospect on the queue: its domain and what the scrape knew about it."""
    model_config = ConfigDict(extra="forbid")

    v: int = 1
    message_id: str
    domain: Domain
    region: Region
    website: str
    name: str | None = None
    city: str | None = None
    phone: str | None = None
    place_id: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)


class IndexEntry(BaseModel):
    """indexes/domains/{domain}.json: the domain is done, when and where its result is."""
    model_config = ConfigDict(extra="forbid")

    domain: Domain
    region: Region
    state: IndexState
    enriched_at: dt.datetime
    result_key: str
    message_id: str


def domain_of(website: str | None) -> str | None:
    """The site's host, lower case, `www.` folded (www.inn.com and inn.com are one site); None
    when there is no usable host (a bare word, an IP-less garbage string)."""
    if not website or not website.strip():
        return None
    text = website.strip()
    host = (urlsplit(text if "://" in text else f"http://{text}").hostname or "").lower().rstrip(".")
    host = host.removeprefix("www.")
    return host if _HOST.match(host) else None


def message_id(domain: str, region: str) -> str:
    """Stable id of (domain, region): the same prospect sent twice has the same id."""
    return hashlib.sha256(f"{region.upper()}|{domain.lower()}".encode()).hexdigest()[:32]


def prospect_message(record: dict[str, Any], region: str) -> ProspectMessage | None:
    """A discovery record (hotels/discovery.serper_record) as a message; None without a domain."""
    domain = domain_of(record.get("website"))
    if domain is None:
        return None
    known = {"name", "city", "phone", "website", "google_place_id"}
    metadata = {k: v for k, v in record.items() if k not in known and v is not None}
    return ProspectMessage(message_id=message_id(domain, region), domain=domain, region=region.upper(),
                           website=record["website"], name=record.get("name"), city=record.get("city"),
                           phone=record.get("phone"), place_id=record.get("google_place_id"), metadata=metadata)


def bounded_body(message: ProspectMessage, max_bytes: int = MAX_BODY_BYTES) -> str:
    """The message as JSON of at most max_bytes: long metadata values cut, then metadata dropped
    key by key (last first), then the optional text fields cut. The domain and ids are never cut."""
    body = message.model_dump_json()
    if len(body.encode()) <= max_bytes:
        return body
    metadata = {k: (v[:MAX_FIELD_CHARS] if isinstance(v, str) else v) for k, v in message.metadata.items()}
    metadata["truncated"] = True
    trimmed = message.model_copy(update={"metadata": metadata})
    while len(body := trimmed.model_dump_json()) > max_bytes and len(trimmed.metadata) > 1:
        keys = [k for k in trimmed.metadata if k != "truncated"]
        trimmed.metadata.pop(keys[-1])
    if len(body.encode()) > max_bytes:
        short = {f: (getattr(trimmed, f) or "")[:MAX_FIELD_CHARS] or None for f in ("name", "city", "phone")}
        body = trimmed.model_copy(update={**short, "website": trimmed.website[:MAX_FIELD_CHARS]}).model_dump_json()
    if len(body.encode()) > max_bytes:
        raise ValueError(f"{message.domain}: message of {len(body.encode())} bytes even when trimmed")
    return body


def parse_body(body: str) -> ProspectMessage:
    """A received body as a message; ValueError (pydantic's) when it is not one of ours."""
    return ProspectMessage.model_validate_json(body)


def batches(items: Iterable[T], size: int = SQS_BATCH) -> Iterator[list[T]]:
    batch: list[T] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def unique_by_id(messages: Iterable[ProspectMessage]) -> Iterator[ProspectMessage]:
    """Each message id once (one scrape finds a hotel under several cities' queries; and entry ids
    must be distinct within a batch request)."""
    seen: set[str] = set()
    for m in messages:
        if m.message_id not in seen:
            seen.add(m.message_id)
            yield m


def index_key(domain: str) -> str:
    return f"{INDEX_PREFIX}{domain}.json"


def result_keys(region: str, domain: str) -> tuple[str, str]:
    """(JSON, Markdown) keys of a domain's enriched result."""
    return f"{ENRICHED_PREFIX}{region.upper()}/{domain}.json", f"{ENRICHED_PREFIX}{region.upper()}/{domain}.md"


def is_fresh(entry: IndexEntry | None, now: dt.datetime, max_age: dt.timedelta = DEFAULT_MAX_AGE) -> bool:
    """Indexed within max_age: nothing to do. An entry from the future (clocks apart) is fresh."""
    return entry is not None and now - entry.enriched_at < max_age


def parse_index(data: bytes | None) -> IndexEntry | None:
    """An index object's content; None when absent or unreadable (a broken object is redone)."""
    if not data:
        return None
    try:
        return IndexEntry.model_validate_json(data)
    except ValueError:
        return None


def newer_than_pulled(entry: IndexEntry, pulled: dict[str, str]) -> bool:
    """The sync rule: an index entry is new when this folder has no pull of its domain at its
    timestamp (per domain, not one watermark: a worker that finished after the last pull with an
    earlier clock would be skipped by a watermark forever)."""
    return pulled.get(entry.domain) != entry.enriched_at.isoformat()


def result_markdown(result: dict[str, Any]) -> str:
    """The enriched result as a short Markdown page (what a person opens first)."""
    lines = [f"# {result.get('name') or result['domain']}", "",
             f"- domain: {result['domain']}", f"- region: {result['region']}",
             f"- city: {result.get('city') or '-'}", f"- website: {result.get('website') or '-'}",
             f"- state: {result['state']}"]
    if result.get("reason"):
        lines.append(f"- reason: {result['reason']}")
    engine = result.get("engine") or {}
    lines.append(f"- booking engine: {engine.get('name') or 'none found'}"
                 + (f" (tier {engine['tier']}, {engine.get('booking_url') or 'no booking url'})" if engine else ""))
    lines.append(f"- e-mails: {', '.join(result.get('emails') or []) or '-'}")
    lines.append(f"- phones: {', '.join(result.get('phones') or []) or '-'}")
    people = result.get("people") or []
    if people:
        lines += ["", "## People", ""] + [f"- {p['name']}{', ' + p['title'] if p.get('title') else ''}"
                                          f"{' <' + p['email'] + '>' if p.get('email') else ''}" for p in people]
    lines += ["", f"_enriched {result['enriched_at']}_", ""]
    return "\n".join(lines)


def to_json(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, default=str, indent=1).encode()
