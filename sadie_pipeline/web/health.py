"""The health page's figures as chart series: imports per day, error rate per DMO, review backlog
and flow (the review figures of every page, web/queries.py), hotels per pipeline stage over time
(the `pipeline_health` asset's materializations in Dagster's event log; its current figures when it
has none) and open dead letters per layer. Line charts are per day (static/health.js labels each
date once)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import psycopg

from sadie_pipeline.hotels.health import pipeline_health
from sadie_pipeline.operations.dead_letters import open_by_layer
from sadie_pipeline.web.queries import ReviewFigures, figures_by_dmo, rows


def _epoch(day: dt.date | dt.datetime) -> int:
    if isinstance(day, dt.datetime):
        return int(day.timestamp())
    return int(dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC).timestamp())


def _bars(labels: list[str], series: dict[str, list[float]]) -> dict[str, Any]:
    return {"kind": "bars", "labels": labels, "series": [{"label": k, "values": v} for k, v in series.items()]}


def _lines(x: list[int], series: dict[str, list[float]]) -> dict[str, Any]:
    return {"kind": "lines", "x": x, "series": [{"label": k, "values": v} for k, v in series.items()]}


def listing_charts(conn: psycopg.Connection, dmos: list[str] | None) -> dict[str, dict[str, Any]]:
    imports = rows(conn, "operations", "imports_per_day", {"dmos": dmos})
    rates = rows(conn, "operations", "error_rates", {"dmos": dmos})
    backlog = figures_by_dmo(conn, dmos)
    flow = rows(conn, "review", "review_per_day", {"dmos": dmos})
    slugs = [r["dmo"] for r in rates]  # every DMO of the user's, with a backlog or not
    return {
        "imports": _lines([_epoch(r["day"]) for r in imports], {
            "jobs": [r["jobs"] for r in imports], "failed": [r["failed"] for r in imports]}),
        "error_rates": _bars([r["dmo"] for r in rates], {"error rate %": [round(float(r["error_rate"]) * 100, 2)
                                                                         for r in rates]}),
        "backlog": _bars(slugs, {"waiting for review": [backlog.get(s, ReviewFigures()).waiting for s in slugs]}),
        "review_flow": _lines([_epoch(r["day"]) for r in flow], {
            "sent to review": [int(r["sent"]) for r in flow], "decided": [int(r["decided"]) for r in flow]}),
    }


def hotel_stage_history(limit: int = 500) -> list[tuple[dt.datetime, dict[str, float]]]:
    """(time, {stage: hotels}) of each pipeline_health materialization, oldest first."""
    from dagster import AssetKey, DagsterInstance

    try:
        instance = DagsterInstance.get()
    except Exception:  # no DAGSTER_HOME: a history only Dagster keeps is not there to show
        return []
    records = instance.fetch_materializations(AssetKey("pipeline_health"), limit=limit).records
    out = []
    for record in reversed(records):
        meta = record.asset_materialization.metadata if record.asset_materialization else {}
        stages = {k.removeprefix("stage_"): float(v.value) for k, v in meta.items() if k.startswith("stage_")}
        out.append((dt.datetime.fromtimestamp(record.timestamp, dt.UTC), stages))
    return out


def hotel_charts(conn: psycopg.Connection) -> dict[str, dict[str, Any]]:
    history = hotel_stage_history()
    if not history:  # never materialised: today's figures as one point
        regions = [r["region"] for r in rows(conn, "operations", "hotel_regions")]
        stages = pipeline_health(conn, regions)["stages"] if regions else {}
        history = [(dt.datetime.now(dt.UTC), {k: float(v) for k, v in stages.items()})] if stages else []
    names = sorted({k for _, stages in history for k in stages})
    dead = open_by_layer(conn)
    return {
        "hotel_stages": _lines([_epoch(t) for t, _ in history],
                               {n: [stages.get(n, 0) for _, stages in history] for n in names}),
        "dead_letters": _bars(list(dead), {"open dead letters": list(dead.values())}),
    }
