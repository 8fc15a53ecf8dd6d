"""Asset checks of the hotel-lead action tier, one per asset, each over every region of the run.

The golden, score and launch checks are blocking: a failure stops the downstream assets of the
same run, so a broken golden record is not scored, a broken score is not launched and a hotel
launched against its criteria is not exported. The export check is blocking too; the export is
the last asset, so its failure marks the run failed rather than stopping anything.

Each check's SQL is in sql/checks.sql. The launch check does not restate the launch criteria: it
reads the criteria the launch recorded in its materialization and runs `core.launch.launch_decision`
over the hotels that launch moved to LIVE (found by the run in the audit trail).

No `from __future__ import annotations` here: Dagster reads the checks' `context` annotation."""

import enum
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import psycopg
from dagster import (
    AssetCheckExecutionContext,
    AssetCheckResult,
    AssetKey,
    AssetRecordsFilter,
    MetadataValue,
    asset_check,
)
from openpyxl import load_workbook
from psycopg.rows import dict_row

from sadie_pipeline.core.hotel_status import DETECTED_OR_LATER, HotelStatus
from sadie_pipeline.core.launch import LaunchCriteria, launch_decision
from sadie_pipeline.core.scoring import COMPONENTS
from sadie_pipeline.hotels.exports.workbook import DECISION_MAKERS_SHEET, LEADS_SHEET
from sadie_pipeline.hotels.lead_assets import golden_hotels, launched_leads, lead_exports, lead_scores, run_actor
from sadie_pipeline.hotels.queries import run
from sadie_pipeline.metadata import table_preview, table_schema
from sadie_pipeline.partitions import region_partitions
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.object_store import ObjectStore

PROBLEM_ROWS = 50
# The score is its unrounded components' sum rounded half up (up to 0.5 away); each component's
# points are stored rounded to 2 decimals (up to 0.005 away each).
SCORE_TOLERANCE = 0.5 + 0.005 * len(COMPONENTS)


class HotelCheck(enum.StrEnum):
    ONE_GOLDEN_ROW_PER_HOTEL = "one_golden_row_per_hotel"
    SCORES_ARE_THEIR_COMPONENTS = "scores_are_their_components"
    LAUNCHED_MEET_CRITERIA = "launched_hotels_meet_criteria"
    EXPORT_FILES_MATCH_DATABASE = "export_files_match_database"


@dataclass(frozen=True)
class Problem:
    region: str
    item: str       # the hotel id, or the file's object key
    city: str
    problem: str


PROBLEM_SCHEMA = table_schema(("region", "string"), ("item", "string"), ("city", "string"), ("problem", "string"))


def check_result(problems: Sequence[Problem], checked: int, what: str, metadata: dict[str, Any] | None = None
                 ) -> AssetCheckResult:
    """Passed when there is no problem; the description names the first ones, the metadata
    holds them as a table."""
    if problems:
        first = "; ".join(f"{p.item} ({p.region} {p.city}): {p.problem}".replace(" )", ")") for p in problems[:3])
        more = f"; and {len(problems) - 3} more" if len(problems) > 3 else ""
        description = f"{len(problems)} of {checked} {what} fail: {first}{more}"
    else:
        description = f"all {checked} {what} pass"
    return AssetCheckResult(
        passed=not problems, description=description,
        metadata={"checked": checked, "problems": len(problems), **(metadata or {}),
                  "problem_rows": table_preview(PROBLEM_SCHEMA, (
                      (p.region, p.item, p.city, p.problem) for p in problems[:PROBLEM_ROWS]))})


def _rows(conn: psycopg.Connection, name: str, params: dict[str, Any]) -> list[dict[str, Any]]:
    conn.row_factory = dict_row
    return run(conn, "checks", name, params).fetchall()


# --- golden records ------------------------------------------------------------------------------

def golden_problems(conn: psycopg.Connection, region: str) -> list[Problem]:
    rows = _rows(conn, "golden_rows_per_hotel", {"region": region, "statuses": list(DETECTED_OR_LATER)})
    return [Problem(region, str(r["hotel_id"]), r["city"] or "", r["problem"]) for r in rows]


def _golden_count(conn: psycopg.Connection, region: str) -> int:
    return _rows(conn, "golden_row_count", {"regions": [region]})[0]["count"]


@asset_check(asset=golden_hotels, name=HotelCheck.ONE_GOLDEN_ROW_PER_HOTEL.value, blocking=True,
             partitions_def=region_partitions,
             description="Every hotel of the region past detection with a booking engine has exactly one "
                         "golden row, and no golden row of the region belongs to any other hotel.")
def one_golden_row_per_hotel(context: AssetCheckExecutionContext, database: Database) -> AssetCheckResult:
    problems, checked = [], 0
    for region in context.partition_keys:
        with database.connect() as conn:
            problems += golden_problems(conn, region)
            checked += _golden_count(conn, region)
    return check_result(problems, checked, "golden rows")


# --- scores --------------------------------------------------------------------------------------

def score_problems(conn: psycopg.Connection, region: str) -> list[Problem]:
    rows = _rows(conn, "score_problems", {"region": region, "components": list(COMPONENTS),
                                          "tolerance": SCORE_TOLERANCE})
    return [Problem(region, str(r["id"]), r["city"] or "",
                    f"{r['problem']} (score {r['score']}, components {r['points']})") for r in rows]


@asset_check(asset=lead_scores, name=HotelCheck.SCORES_ARE_THEIR_COMPONENTS.value, blocking=True,
             partitions_def=region_partitions,
             description="Every scored hotel of the region has a score within 0..100 equal to its details' "
                         f"total and to the sum of its components' points ({', '.join(COMPONENTS)}), "
                         f"within rounding ({SCORE_TOLERANCE:g}).")
def scores_are_their_components(context: AssetCheckExecutionContext, database: Database) -> AssetCheckResult:
    problems, checked = [], 0
    for region in context.partition_keys:
        with database.connect() as conn:
            problems += score_problems(conn, region)
            checked += _rows(conn, "scored_row_count", {"regions": [region]})[0]["count"]
    return check_result(problems, checked, "scored hotels")


# --- the launch ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class RecordedLaunch:
    run_id: str
    criteria: LaunchCriteria


def recorded_launch(context: AssetCheckExecutionContext, region: str) -> RecordedLaunch | None:
    """The region's latest launch: its run and the criteria it recorded in its metadata."""
    records = context.instance.fetch_materializations(
        AssetRecordsFilter(asset_key=AssetKey("launched_leads"), asset_partitions=[region]), limit=1).records
    if not records:
        return None
    criteria = records[0].asset_materialization.metadata["criteria"].value
    return RecordedLaunch(records[0].run_id, LaunchCriteria.from_mapping(criteria))


def launch_problems(conn: psycopg.Connection, region: str, launch: RecordedLaunch) -> tuple[list[Problem], int]:
    """(hotels the launch run moved to LIVE that its criteria reject, how many it moved)."""
    rows = _rows(conn, "launched_by_run", {"region": region, "live": HotelStatus.LIVE,
                                           "actor": run_actor(launch.run_id)})
    problems = [Problem(region, str(r["id"]), r["hotel_city"] or "", "; ".join(reasons))
                for r in rows if (reasons := launch_decision(r, launch.criteria))]
    return problems, len(rows)


@asset_check(asset=launched_leads, name=HotelCheck.LAUNCHED_MEET_CRITERIA.value, blocking=True,
             partitions_def=region_partitions,
             description="Every hotel the region's latest launch moved to LIVE meets the criteria that launch "
                         "recorded (core.launch.launch_decision run again over the hotels as they are now).")
def launched_hotels_meet_criteria(context: AssetCheckExecutionContext, database: Database) -> AssetCheckResult:
    problems, checked, criteria = [], 0, {}
    for region in context.partition_keys:
        launch = recorded_launch(context, region)
        if launch is None:
            continue
        criteria[region] = launch.criteria.__dict__ | {"tiers": list(launch.criteria.tiers),
                                                        "required_fields": list(launch.criteria.required_fields)}
        with database.connect() as conn:
            found, launched = launch_problems(conn, region, launch)
        problems += found
        checked += launched
    return check_result(problems, checked, "launched hotels", {"criteria": MetadataValue.json(criteria)})


# --- exports -------------------------------------------------------------------------------------

def workbook_rows(data: bytes) -> tuple[int, int]:
    """(hotels, decision makers): the body rows of the workbook's two sheets."""
    book = load_workbook(io.BytesIO(data), read_only=True)
    try:
        return tuple(sum(1 for row in book[sheet].iter_rows(min_row=2, values_only=True)
                         if any(v is not None for v in row))
                     for sheet in (LEADS_SHEET, DECISION_MAKERS_SHEET))
    finally:
        book.close()


def export_problems(conn: psycopg.Connection, store: Any, region: str) -> tuple[list[Problem], int]:
    """(files of the region whose rows differ from their latest lead_exports record, files checked)."""
    problems = []
    files = _rows(conn, "latest_export_files", {"region": region})
    for f in files:
        where = f["city"] or "(state)"
        try:
            hotels, people = workbook_rows(store.get_bytes(f["object_key"]))
        except Exception as exc:  # a missing or unreadable file is a failed check, not a crashed one
            problems.append(Problem(region, f["object_key"], where, f"unreadable: {type(exc).__name__}: {exc}"))
            continue
        if (hotels, people) != (f["hotels"], f["decision_makers"]):
            problems.append(Problem(region, f["object_key"], where,
                                    f"file has {hotels} hotels and {people} decision makers, the database "
                                    f"{f['hotels']} and {f['decision_makers']}"))
    return problems, len(files)


@asset_check(asset=lead_exports, name=HotelCheck.EXPORT_FILES_MATCH_DATABASE.value, blocking=True,
             partitions_def=region_partitions,
             description="Each of the region's export workbooks (the latest of each city and of the state) "
                         "holds as many hotel and decision-maker rows as the database recorded for it.")
def export_files_match_database(context: AssetCheckExecutionContext, database: Database,
                                object_store: ObjectStore) -> AssetCheckResult:
    problems, checked = [], 0
    for region in context.partition_keys:
        with database.connect() as conn:
            found, files = export_problems(conn, object_store, region)
        problems += found
        checked += files
    return check_result(problems, checked, "export files")


hotel_checks = [one_golden_row_per_hotel, scores_are_their_components, launched_hotels_meet_criteria,
                export_files_match_database]
