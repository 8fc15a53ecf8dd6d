"""Spend: the guards' call counts (resources/usage.py) written to pipeline.service_usage with their
estimated cost, once per service at the end of each Dagster step.

Where: the `database` resource of the code location is `UsageRecordingDatabase`, whose
`teardown_after_execution` runs when a step that used it ends (failed or not); almost every
step writes to the database, and one that does not leaves its counts to the next step of the same
process. The calls of code outside Dagster (the CLI, the web app) are not counted.

Prices and quotas: core/spend.py's defaults, overridden by the YAML file SADIE_SPEND_CONFIG names:

    prices_usd: {serper: 0.001, anthropic: 0.015}   # per call; other services keep their defaults
    daily_quotas: {serper: 2500, groq: 1000}        # calls per UTC day; 0 removes a quota
    quota_alert_share: 0.8                          # the Slack alert's share of a quota
"""

from __future__ import annotations

import datetime as dt
import logging
import os
from pathlib import Path
from typing import Any

import psycopg
import yaml
from dagster import InitResourceContext

from sadie_pipeline.core.spend import SpendConfig
from sadie_pipeline.operations.queries import run, sql
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.usage import USAGE

logger = logging.getLogger(__name__)

SPEND_CONFIG_ENV = "SADIE_SPEND_CONFIG"


class SpendConfigError(ValueError):
    """The spend YAML cannot be read or does not validate (one line, naming the file)."""


def load_spend_config(path: str | os.PathLike[str] | None = None) -> SpendConfig:
    """The defaults, with the YAML at `path` (else SADIE_SPEND_CONFIG's) on top when given."""
    where = path or (os.environ.get(SPEND_CONFIG_ENV) or "").strip()
    if not where:
        return SpendConfig()
    try:
        data = yaml.safe_load(Path(where).read_text()) or {}
        if not isinstance(data, dict):
            raise ValueError("expected a mapping")
        return SpendConfig.with_overrides(data)
    except (OSError, ValueError, yaml.YAMLError) as exc:
        raise SpendConfigError(f"{where}: {str(exc).splitlines()[0]}") from None


def record_usage(conn: psycopg.Connection, totals: dict[tuple[dt.date, str], tuple[int, int]],
                 config: SpendConfig) -> int:
    """One upsert per (day, service) adding calls, failures and cost; the number written."""
    for (day, service), (calls, failures) in sorted(totals.items()):
        run(conn, "spend", "add_usage", {"day": day, "service": service, "calls": calls, "failures": failures,
                                         "cost_usd": config.cost(service, calls)})
    return len(totals)


def flush_usage(database: Database, config: SpendConfig | None = None) -> int:
    """Drains the process's ledger into the table; on a failed write the counts go back to it."""
    totals = USAGE.drain()
    if not totals:
        return 0
    try:
        with database.connect(actor="spend") as conn:
            return record_usage(conn, totals, config or load_spend_config())
    except Exception:
        USAGE.restore(totals)
        raise


class UsageRecordingDatabase(Database):
    """The database resource, which also writes the step's service usage when the step ends."""

    def teardown_after_execution(self, context: InitResourceContext) -> None:
        try:
            written = flush_usage(self)
        except Exception as exc:  # spend figures never fail the step that did the work
            logger.warning("service usage not recorded (kept for the next step): %s", str(exc)[:300])
            return
        if written:
            logger.debug("service usage recorded for %d service(s)", written)


def usage_on(conn: psycopg.Connection, day: dt.date) -> list[dict[str, Any]]:
    cur = conn.execute(sql("spend", "usage_on"), {"day": day})
    names = [d.name for d in cur.description]
    return [dict(zip(names, r)) for r in cur.fetchall()]

