"""The spend page: calls, failures and estimated cost of each external service per day (from the
guards' counts, operations/spend.py), as server-drawn SVG bars, with totals for a date range and
the share of each service's daily quota used. Every signed-in role reads it."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from sadie_pipeline.core.spend import SpendConfig, bars
from sadie_pipeline.operations.spend import SpendConfigError, load_spend_config
from sadie_pipeline.web.auth import SignedIn
from sadie_pipeline.web.db import connection
from sadie_pipeline.web.pages import render
from sadie_pipeline.web.queries import rows

router = APIRouter(include_in_schema=False)

DEFAULT_DAYS = 30
MAX_DAYS = 366


class RangeError(ValueError):
    pass


def date_range(start: str | None, end: str | None, today: dt.date) -> tuple[dt.date, dt.date]:
    """The range asked for (YYYY-MM-DD), by default the last 30 days up to today."""
    try:
        last = dt.date.fromisoformat(end) if end else today
        first = dt.date.fromisoformat(start) if start else last - dt.timedelta(days=DEFAULT_DAYS - 1)
    except ValueError:
        raise RangeError("dates are YYYY-MM-DD, e.g. 2026-01-31") from None
    if first > last:
        raise RangeError("the start date is after the end date")
    if (last - first).days >= MAX_DAYS:
        raise RangeError(f"at most {MAX_DAYS} days at a time")
    return first, last


def _services(found: list[dict], days: list[dt.date], config: SpendConfig, today: dt.date) -> list[dict[str, Any]]:
    by_service: dict[str, dict[dt.date, dict]] = {}
    for r in found:
        by_service.setdefault(r["service"], {})[r["day"]] = r
    out = []
    for service, per_day in sorted(by_service.items()):
        calls = [int(per_day[d]["calls"]) if d in per_day else 0 for d in days]
        failed = [int(per_day[d]["failures"]) if d in per_day else 0 for d in days]
        cost = sum((per_day[d]["cost_usd"] for d in per_day), Decimal("0"))
        quota = config.quota(service)
        peak = max(calls) if calls else 0
        out.append({"service": service, "calls": sum(calls), "failures": sum(failed), "cost": cost,
                    "price": config.price(service), "quota": quota,
                    "today_share": config.quota_share(service, int(per_day[today]["calls"]) if today in per_day else 0),
                    "peak_share": config.quota_share(service, peak), "peak": peak,
                    "bars": bars([d.isoformat() for d in days], calls, failed)})
    return out


def spend_view(conn: Any, first: dt.date, last: dt.date, config: SpendConfig, today: dt.date) -> dict[str, Any]:
    found = rows(conn, "spend", "usage_range", {"start": first, "end": last})
    days = [first + dt.timedelta(days=i) for i in range((last - first).days + 1)]
    services = _services(found, days, config, today)
    cost_by_day = {d: Decimal("0") for d in days}
    for r in found:
        cost_by_day[r["day"]] += r["cost_usd"]
    return {"services": services, "days": days,
            "cost_bars": bars([d.isoformat() for d in days], [float(cost_by_day[d]) for d in days]),
            "totals": {"calls": sum(s["calls"] for s in services), "failures": sum(s["failures"] for s in services),
                       "cost": sum((s["cost"] for s in services), Decimal("0"))}}


@router.get("/spend", response_class=HTMLResponse)
def spend(request: Request, user: SignedIn, start: str | None = None, end: str | None = None) -> Response:
    today = dt.datetime.now(dt.UTC).date()
    try:
        first, last = date_range(start, end, today)
        config = load_spend_config()
    except (RangeError, SpendConfigError) as exc:
        first, last = date_range(None, None, today)
        return _page(request, first, last, SpendConfig(), today, error=str(exc), status_code=400)
    return _page(request, first, last, config, today)


def _page(request: Request, first: dt.date, last: dt.date, config: SpendConfig, today: dt.date, *,
          error: str | None = None, status_code: int = 200) -> Response:
    with connection(request) as conn:
        view = spend_view(conn, first, last, config, today)
    return render(request, "spend.html", status_code=status_code, start=first, end=last, error=error,
                  alert_share=config.quota_alert_share, chart_width=600, chart_height=120, **view)
