"""When the platform's health is worth a Slack message (operations/health_alerts.py posts them):

* a service past a share of its daily quota (core/spend.py's config),
* a DMO whose latest import has an unusual share of duplicates or deletions: above
  max(2 x the median share of its earlier imports, that median + 0.2), with at least three
  earlier imports to compare (a new DMO has no "usual" yet),
* a region whose enrichment error rate today jumps over the trailing seven days' by the same rule,
  with at least ten items today (two failures of three say little),

and the daily health digest's text (seed 001's health query per region). Pure: figures in, alerts out.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from statistics import median
from typing import Any

from sadie_pipeline.core.spend import SpendConfig

MIN_HISTORY = 3  # earlier imports of a DMO before its latest can be unusual
MIN_ITEMS_TODAY = 10  # enrichment items of a region today before its error rate can jump
JUMP_FLOOR = 0.2  # a share must also exceed the usual one by this much (0 usual: 20 %)


class AlertKind(StrEnum):
    QUOTA = "quota"
    IMPORT_DUPLICATES = "import_duplicates"
    IMPORT_DELETIONS = "import_deletions"
    ENRICHMENT_ERRORS = "enrichment_errors"
    DIGEST = "health_digest"


@dataclass(frozen=True)
class Alert:
    """One message; posted at most once per (kind, subject, day)."""

    kind: AlertKind
    subject: str
    message: str


def unusual(latest: float, usual: float, floor: float = JUMP_FLOOR) -> bool:
    """The jump rule: above twice the usual share and above the usual share plus the floor."""
    return latest > max(2 * usual, usual + floor)


def quota_alerts(calls_today: Mapping[str, int], config: SpendConfig) -> list[Alert]:
    """Services whose calls today reached the configured share of their daily quota."""
    out = []
    for service, calls in sorted(calls_today.items()):
        share = config.quota_share(service, calls)
        if share is not None and share >= config.quota_alert_share:
            out.append(Alert(AlertKind.QUOTA, service,
                             f":money_with_wings: *{service}* used {calls:,} of its {config.quota(service):,} daily "
                             f"calls ({share:.0%}, alert at {config.quota_alert_share:.0%})."))
    return out


def _share(part: int | None, total: int | None) -> float:
    return (part or 0) / total if total else 0.0


def import_alerts(dmo: str, jobs: Sequence[Mapping[str, Any]]) -> list[Alert]:
    """`jobs`: the DMO's imports, newest first, each with job_id, records_total, records_duplicates
    and records_deleted. Alerts on the newest when its share is unusual for the DMO."""
    if len(jobs) <= MIN_HISTORY:
        return []
    latest, history = jobs[0], jobs[1:]
    out = []
    for kind, column, word in ((AlertKind.IMPORT_DUPLICATES, "records_duplicates", "duplicates"),
                               (AlertKind.IMPORT_DELETIONS, "records_deleted", "deletions")):
        share = _share(latest[column], latest["records_total"])
        usual = median(_share(j[column], j["records_total"]) for j in history)
        if unusual(share, usual):
            out.append(Alert(kind, dmo, f":warning: DMO *{dmo}*: import job {latest['job_id']} has {share:.0%} "
                                        f"{word} ({latest[column] or 0} of {latest['records_total']} records); "
                                        f"its imports usually have {usual:.0%}."))
    return out


def enrichment_alert(region: str, today_errors: int, today_total: int, trailing_errors: int,
                     trailing_total: int) -> Alert | None:
    """An alert when today's error rate of the region's enrichment jumps over the trailing week's."""
    if today_total < MIN_ITEMS_TODAY:
        return None
    rate, usual = _share(today_errors, today_total), _share(trailing_errors, trailing_total)
    if not unusual(rate, usual):
        return None
    return Alert(AlertKind.ENRICHMENT_ERRORS, region,
                 f":rotating_light: Region *{region}*: enrichment error rate {rate:.0%} today "
                 f"({today_errors} of {today_total}) against {usual:.0%} over the last 7 days.")


def digest_message(day: dt.date, by_region: Mapping[str, Mapping[str, Any]],
                   usage: Sequence[Mapping[str, Any]]) -> str:
    """The daily digest: seed 001's health figures per region, and yesterday's spend."""
    lines = [f":bar_chart: *Pipeline health, {day.isoformat()}*"]
    for region, figures in sorted(by_region.items()):
        h, dead = figures["health"], sum(figures.get("dead_letters", {}).values())
        lines.append(f"• *{region}*: {h['complete']} complete, {h['in_progress']} in progress, "
                     f"{h['not_started']} not started, {h['stale_claims']} stale; "
                     f"contacts for {h['hotels_with_contacts']} hotels, {h['verified_emails']} verified e-mails; "
                     f"{dead} open dead letters")
    if not by_region:
        lines.append("• no hotels yet")
    if usage:
        cost = sum(float(u["cost_usd"]) for u in usage)
        calls = ", ".join(f"{u['service']} {u['calls']}" for u in usage)
        lines.append(f"Spend {(day - dt.timedelta(days=1)).isoformat()}: ${cost:,.2f} ({calls})")
    return "\n".join(lines)
