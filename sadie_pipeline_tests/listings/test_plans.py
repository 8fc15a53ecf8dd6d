"""The listings' statements over whole jobs stay linear in a job's size while its rows are not in the
planner's statistics yet: a DMO that sends its file again right after the first import (before
autovacuum has analysed anything) waits seconds, not minutes. (The thin-row lookup once joined on
the DMO there: 20,000 records sent again took 43 s instead of 2, and the time grew with the square.)"""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest

from sadie_pipeline.listings.review import approve, list_pending, reject
from sadie_pipeline.resources.database import Database
from sadie_pipeline_tests.listings.helpers import import_file, promote, register
from sadie_pipeline_tests.listings.processes import scratch_database

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import listings_data  # noqa: E402

pytestmark = pytest.mark.slow  # a database of its own and six imports through Dagster

RECORDS = 3000
_EXPLAINED = ("SELECT", "INSERT", "UPDATE", "DELETE", "WITH", "CREATE TEMP TABLE")
_PLANS: list[tuple[str, dict[str, Any]]] = []  # (statement, its plan) as the test's imports ran them


@pytest.fixture
def unanalysed_database() -> Iterator[str]:
    """The URL of a database of the test's own whose tables the planner has no statistics of
    (autovacuum kept off them), as a server's are right after an import."""
    with scratch_database() as url:
        with psycopg.connect(url) as conn:
            tables = conn.execute("""SELECT format('%I.%I', schemaname, tablename) FROM pg_tables
                                      WHERE schemaname IN ('public', 'pipeline', 'staging')""").fetchall()
            for (table,) in tables:
                conn.execute(f"ALTER TABLE {table} SET (autovacuum_enabled = false)")
        yield url


class _ExplainingCursor(psycopg.Cursor):
    """Runs each statement on the listings' tables twice: under EXPLAIN ANALYZE in a savepoint rolled
    back (its plan kept in _PLANS), then for real. Lock functions are left alone: a session lock
    taken twice would stay held once too often."""

    def execute(self, query, params=None, **kwargs):
        text = query if isinstance(query, str) else ""
        upper = text.lstrip().upper()
        if (upper.startswith(_EXPLAINED) and ("staging." in text or "public." in text)
                and "pg_advisory" not in text and "pg_try" not in text
                and (not upper.startswith("CREATE") or " AS\n" in text)):
            with psycopg.Cursor(self.connection) as explain:
                explain.execute("SAVEPOINT explained")
                try:
                    [plan] = explain.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + text, params).fetchone()[0]
                    _PLANS.append((text, plan))
                except psycopg.Error:
                    pass  # the statement fails for real next, as the code expects
                finally:
                    explain.execute("ROLLBACK TO SAVEPOINT explained")
        return super().execute(query, params, **kwargs)


class _ExplainingDatabase(Database):
    @contextmanager
    def connect(self, actor: str | None = None) -> Iterator[psycopg.Connection]:
        with super().connect(actor) as conn:
            conn.cursor_factory = _ExplainingCursor
            yield conn


def _nodes(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield node
    for child in node.get("Plans", []):
        yield from _nodes(child)


def _rows_compared(plan: dict[str, Any]) -> int:
    """What a plan went through beyond its output: the rows its joins discarded, or the most rows one
    of its nodes gave over all its loops (a nested loop's inner side, scanned once per outer row)."""
    nodes = list(_nodes(plan["Plan"]))
    discarded = sum(n.get("Rows Removed by Join Filter", 0) for n in nodes)
    return max(discarded, *(n.get("Actual Rows", 0) * n.get("Actual Loops", 1) for n in nodes))


def test_no_statement_of_imports_reviews_and_promotions_compares_every_pair_of_a_jobs_rows(
        tmp_path, unanalysed_database, local_object_store, instance):
    """Every statement the stage's and the promotion's transactions run on the listings' tables,
    explained as it runs, through a first import (duplicates in it), the same file again, the same
    records in other bytes, a revision (updates, deletions), the first file once more, the revision
    from another DMO (matched against the first DMO's listings), and the review queue decided and
    promoted."""
    database = _ExplainingDatabase(url=unanalysed_database)
    config = json.loads((BENCHMARKS / "listings_bench.config.json").read_text())
    register(database, instance, "dmo-plans", config)
    register(database, instance, "other-dmo", config)
    rows = listings_data.generate(RECORDS, seed=11)
    first, quoted, revision = tmp_path / "first.csv", tmp_path / "quoted.csv", tmp_path / "revision.csv"
    listings_data.write_csv(rows, first)
    listings_data.write_csv(listings_data.revise(rows), revision)
    with first.open(newline="", encoding="utf-8") as src, quoted.open("w", newline="", encoding="utf-8") as dst:
        csv.writer(dst, quoting=csv.QUOTE_ALL).writerows(csv.reader(src))  # parsed, not the same file

    _PLANS.clear()
    for slug, path in (("dmo-plans", first), ("dmo-plans", first), ("dmo-plans", quoted), ("dmo-plans", revision),
                       ("dmo-plans", first), ("other-dmo", revision)):  # another DMO's guide of the same places
        result, summary = import_file(database, local_object_store, instance, slug, path)
        assert result.success and summary["stage"] == "promoted", summary
    with database.connect() as conn:  # a reviewer decides the whole queue, and it is promoted
        pending = [row["id"] for row in list_pending(conn)]
        approve(conn, pending[::2])
        reject(conn, pending[1::2])
    assert promote(database, local_object_store, instance, "dmo-plans").success
    assert promote(database, local_object_store, instance, "other-dmo").success
    assert len(pending) > RECORDS // 20 and len(_PLANS) > 100  # the statements were explained

    worst, statement = max((_rows_compared(plan), text) for text, plan in _PLANS)
    # linear: a few rows per record (its keys, its opening hours); every pair would be RECORDS ** 2
    assert worst <= 20 * RECORDS, statement[:400]
