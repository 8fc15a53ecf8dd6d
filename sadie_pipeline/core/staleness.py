"""Time-based soft delete, without I/O: a pulled source's record that the source has not shown for N
days (the DMO config's import.stale_after_days) is proposed for deletion through review, like a record
a full import left out. Only pulled sources (wordpress, drupal, partner_api, scrape, and files at a
URL: csv, json, poi...): a file a person drops in the inbox is a delivery, not a source that stops
showing records. "Shown" is a pull that sent the record (listing_info.last_seen_at): an incremental
pull sends only what changed, so such a source needs a full pull more often than N days.

    days = stale_after_days(config)              # None: the rule is off for this source
    is_stale(last_seen, now, days)               # strictly more than N days ago
    stale_reason(last_seen, now, days)           # "absent from the source for 31 days (...)"
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from sadie_pipeline.core.sources.config import SourceType, pulled

# Starts as a full import's deletion does ("absent from a full import"): the review page's "absent"
# filter finds both.
REASON_PREFIX = "absent from the source"


def stale_after_days(config: Mapping[str, Any]) -> int | None:
    """The days after which the job's records are stale, when its source is pulled and sets them."""
    section = config.get("import") or {}
    days = section.get("stale_after_days")
    if not days:
        return None
    try:
        source = SourceType(section.get("source_type"))
    except ValueError:
        return None
    return int(days) if pulled(source, section.get("url")) else None


def cutoff(now: dt.datetime, days: int) -> dt.datetime:
    """Records last shown before this are stale."""
    return now - dt.timedelta(days=days)


def is_stale(last_seen: dt.datetime | None, now: dt.datetime, days: int) -> bool:
    """Whether a record last shown at `last_seen` has gone unseen for more than `days` days (never
    seen: not stale, there is nothing to measure from)."""
    return last_seen is not None and last_seen < cutoff(now, days)


def stale_reason(last_seen: dt.datetime, now: dt.datetime, days: int) -> str:
    """The review reason of a stale record's deletion."""
    unseen = (now - last_seen).days
    return f"{REASON_PREFIX} for {unseen} days (last seen {last_seen:%Y-%m-%d}; stale after {days} days)"
