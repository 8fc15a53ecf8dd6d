"""Lead exports (seed 000, Stage 6): one workbook per city and one per state of the live hotels
(`LAUNCHED`: status 5 LIVE, and 6 EXPORTED once exported), written to the object store at
`exports/{state}/{city}.xlsx`, uploaded to OneDrive at `{folder}/{state}/{city}.xlsx` when Graph
is configured, announced in Slack, and the hotels marked exported (status 6, EXPORTED).

Idempotent: each file's data digest is compared with the latest export of that file; the same
data is neither written, uploaded nor announced again. A file whose announcement failed is
announced by the next run."""

from __future__ import annotations

import io
import re
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg.rows import dict_row

from sadie_pipeline.core.hotel_status import LAUNCHED, HotelStatus
from sadie_pipeline.hotels.exports.workbook import WorkbookStats, workbook_digest, write_leads_workbook
from sadie_pipeline.regions import REGION_NAMES

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

_LEAD_COLUMNS = """
SELECT h.id AS hotel_id, coalesce(g.name, h.name) AS name, coalesce(g.city, h.city) AS city,
       coalesce(g.state, h.state) AS state, coalesce(g.address, h.address) AS address, coalesce(g.zip, h.zip) AS zip,
       coalesce(g.phone, h.phone) AS phone, coalesce(g.website, h.website) AS website,
       be.name AS booking_engine, be.tier AS engine_tier, hbe.booking_url, g.room_count,
       coalesce(g.rating, h.rating) AS rating, coalesce(g.review_count, h.review_count) AS review_count,
       e.nearest_attraction, e.nearest_attraction_km, g.management_company, g.property_type,
       g.contact_name, g.contact_title, g.email, dm.email_status, h.score, h.launched_at
  FROM sadie_gtm.hotels h
  LEFT JOIN sadie_gtm.golden_hotels g ON g.hotel_id = h.id
  LEFT JOIN sadie_gtm.hotel_booking_engines hbe ON hbe.hotel_id = h.id
  LEFT JOIN sadie_gtm.booking_engines be ON be.id = hbe.booking_engine_id
  LEFT JOIN sadie_gtm.hotel_owner_enrichment e ON e.hotel_id = h.id
  LEFT JOIN sadie_gtm.hotel_decision_makers dm ON dm.id = g.contact_dm_id
"""
_PEOPLE_COLUMNS = """
SELECT d.hotel_id, coalesce(g.name, h.name) AS hotel_name, h.city, d.full_name, d.title, d.email,
       d.email_status, d.email_verified, d.phone, array_to_string(d.sources, ', ') AS sources, d.confidence
  FROM sadie_gtm.hotel_decision_makers d
  JOIN sadie_gtm.hotels h ON h.id = d.hotel_id
  LEFT JOIN sadie_gtm.golden_hotels g ON g.hotel_id = h.id
"""
_LEADS = _LEAD_COLUMNS + """ WHERE h.region = %(region)s AND h.status = ANY(%(launched)s)
 ORDER BY h.city NULLS LAST, h.score DESC NULLS LAST, h.id"""
_PEOPLE = _PEOPLE_COLUMNS + """ WHERE h.region = %(region)s AND h.status = ANY(%(launched)s) AND d.merged_into IS NULL
 ORDER BY h.city NULLS LAST, d.hotel_id, d.confidence DESC, d.id"""
# the leads page's export: these hotels, whatever their status, in the page's order
_LEADS_OF = _LEAD_COLUMNS + """ WHERE h.id = ANY(%(ids)s) ORDER BY array_position(%(ids)s::int[], h.id)"""
_PEOPLE_OF = _PEOPLE_COLUMNS + """ WHERE d.hotel_id = ANY(%(ids)s) AND d.merged_into IS NULL
 ORDER BY array_position(%(ids)s::int[], d.hotel_id), d.confidence DESC, d.id"""


def rows_of_hotels(conn: psycopg.Connection, hotel_ids: Sequence[int]
                   ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(lead rows, decision-maker rows) of these hotels, in their order: the workbook's columns."""
    with conn.cursor(row_factory=dict_row) as cur:
        leads = cur.execute(_LEADS_OF, {"ids": list(hotel_ids)}).fetchall()
        people = cur.execute(_PEOPLE_OF, {"ids": list(hotel_ids)}).fetchall()
    return leads, people


@dataclass(frozen=True)
class ExportFile:
    region: str
    scope: str          # city | state
    city: str           # '' for the state file
    hotels: int
    decision_makers: int
    object_uri: str
    remote_path: str
    web_url: str | None
    upload_method: str
    bytes: int


@dataclass
class ExportResult:
    written: list[ExportFile] = field(default_factory=list)
    unchanged: list[tuple[str, str, str]] = field(default_factory=list)   # (region, scope, city)
    hotels_exported: int = 0
    upload: str = ""
    slack: str = ""
    exported_by_region: Counter = field(default_factory=Counter)

    def manifest(self, region: str) -> dict[str, Any]:
        """What the run did for the region's files: the asset's value (JSON in the object store)."""
        return {"region": region, "hotels_exported": self.exported_by_region[region],
                "written": [{k: v for k, v in f.__dict__.items() if k != "region"}
                            for f in self.written if f.region == region],
                "unchanged": [{"scope": scope, "city": city} for r, scope, city in self.unchanged if r == region]}


def _safe_name(text: str) -> str:
    return re.sub(r"[\\/:*?\"<>|\x00-\x1f]+", "-", text).strip(" .") or "unknown"


def file_names(region: str, city: str | None) -> tuple[str, str]:
    """(object key, OneDrive path below the folder) of a region's state file or a city's file."""
    state = _safe_name(REGION_NAMES.get(region, region))
    name = _safe_name(city) if city else state
    return f"exports/{state}/{name}.xlsx", f"{state}/{name}.xlsx"


def region_rows(conn: psycopg.Connection, region: str, cities: Sequence[str] = (),
                hotel_ids: Collection[int] | None = None
                ) -> tuple[dict[str | None, list[dict[str, Any]]], dict[str | None, list[dict[str, Any]]]]:
    """The region's live hotels (only `hotel_ids` of them when given: the launch's) and their
    decision makers, by city, in file order: one query each for the whole region (a state of
    10,000 hotels is a few MB)."""
    wanted = {c.lower() for c in cities}
    grouped: list[dict[str | None, list[dict[str, Any]]]] = []
    for sql in (_LEADS, _PEOPLE):
        with conn.cursor(row_factory=dict_row) as cur:
            by_city: dict[str | None, list[dict[str, Any]]] = {}
            for row in cur.execute(sql, {"region": region, "launched": list(LAUNCHED)}):
                city = row["city"]
                if (wanted and (city or "").lower() not in wanted) or (
                        hotel_ids is not None and row["hotel_id"] not in hotel_ids):
                    continue
                by_city.setdefault(city, []).append(row)
        grouped.append(by_city)
    return grouped[0], grouped[1]


def build_workbook(region: str, city: str | None, leads: Sequence[dict[str, Any]],
                   people: Sequence[dict[str, Any]]) -> tuple[bytes, WorkbookStats]:
    title = f"Hotel leads: {city + ', ' if city else ''}{REGION_NAMES.get(region, region)}"
    buffer = io.BytesIO()
    stats = write_leads_workbook(buffer, leads, people, title=title)
    return buffer.getvalue(), stats


_LATEST = """
SELECT id, scope, city, hotels, decision_makers, object_key, web_url, digest, slack_ts, exported_at
  FROM sadie_gtm.lead_exports e
 WHERE region = %s AND id = (SELECT max(id) FROM sadie_gtm.lead_exports x
                              WHERE x.region = e.region AND x.scope = e.scope AND x.city = e.city)
 ORDER BY scope, city
"""


def latest_exports(conn: psycopg.Connection, region: str) -> dict[tuple[str, str], dict[str, Any]]:
    """The latest export of each of the region's files, by (scope, city; '' for the state)."""
    with conn.cursor(row_factory=dict_row) as cur:
        return {(r["scope"], r["city"]): r for r in cur.execute(_LATEST, (region,))}


def mark_exported(conn: psycopg.Connection, leads: Sequence[dict[str, Any]]) -> int:
    """The file's live hotels become exported (status 6); the count of those that were live."""
    return conn.execute("""UPDATE sadie_gtm.hotels SET status = %s, exported_at = now(), updated_at = now()
                            WHERE id = ANY(%s) AND status = %s""",
                        (HotelStatus.EXPORTED, [r["hotel_id"] for r in leads], HotelStatus.LIVE)).rowcount


def export_one(conn: psycopg.Connection, store: Any, onedrive: Any, region: str, city: str | None,
               leads: Sequence[dict[str, Any]], people: Sequence[dict[str, Any]], latest_digest: str | None,
               result: ExportResult) -> None:
    """One file: its data compared with its latest export and, if new, written, uploaded,
    recorded and its hotels marked exported (the caller commits)."""
    scope, city_key = ("city", city) if city else ("state", "")
    if latest_digest is not None and latest_digest == workbook_digest(leads, people):
        result.unchanged.append((region, scope, city_key))
        mark_exported(conn, leads)
        return
    key, remote = file_names(region, city)
    data, stats = build_workbook(region, city, leads, people)
    uri = store.put_bytes(key, data, content_type=XLSX)
    web_url, method, remote_path = None, "object_store", ""
    if onedrive.configured():
        uploaded = onedrive.upload(remote, data)
        web_url, method, remote_path = uploaded.web_url, uploaded.method, uploaded.path
    conn.execute(
        """INSERT INTO sadie_gtm.lead_exports (region, scope, city, object_key, remote_path, web_url, upload_method,
                                               digest, hotels, decision_makers, bytes)
           VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)""",
        (region, scope, city_key, key, remote_path or None, web_url, method, stats.digest, stats.hotels,
         stats.decision_makers, len(data)))
    exported = mark_exported(conn, leads)
    result.hotels_exported += exported
    result.exported_by_region[region] += exported
    result.written.append(ExportFile(region, scope, city_key, stats.hotels, stats.decision_makers, uri,
                                     remote_path, web_url, method, len(data)))


def counted(n: int, noun: str) -> str:
    """'1 hotel', '2 hotels'."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def slack_message(region: str, files: Sequence[tuple[str, str, int, int, str]]) -> str:
    """files: (scope, city, hotels, decision makers, link)."""
    state = REGION_NAMES.get(region, region)
    total = next((f[2] for f in files if f[0] == "state"), sum(f[2] for f in files if f[0] == "city"))
    lines = [f"*Hotel leads exported: {state}* ({counted(total, 'hotel')}, {counted(len(files), 'file')})"]
    for scope, city, hotels, people, link in files:
        label = city if scope == "city" else f"{state} (all cities)"
        lines.append(f"• <{link}|{label}.xlsx>: {counted(hotels, 'hotel')}, {counted(people, 'decision maker')}")
    return "\n".join(lines)


def announce(conn: psycopg.Connection, slack: Any, region: str, result: ExportResult) -> None:
    """One Slack message for the region's files not yet announced (this run's, and any whose
    message failed before); their rows get the message's ts."""
    if not slack.configured():
        result.slack = slack.not_configured_message()
        return
    pending = [e for e in latest_exports(conn, region).values() if e["slack_ts"] is None]
    if not pending:
        return
    ts = slack.post(slack_message(region, [(e["scope"], e["city"], e["hotels"], e["decision_makers"],
                                            e["web_url"] or e["object_key"]) for e in pending]))
    conn.execute("UPDATE sadie_gtm.lead_exports SET slack_ts = %s WHERE id = ANY(%s)", (ts, [e["id"] for e in pending]))
    result.slack = f"announced {counted(len(pending), 'file')}"


def export_region(database: Any, store: Any, onedrive: Any, slack: Any, region: str, result: ExportResult,
                  cities: Sequence[str] = (), actor: str = "lead_exports", hotel_ids: Collection[int] | None = None
                  ) -> None:
    """Every city file of the region (of `hotel_ids` when given), then its state file, each
    committed on its own; then the announcement. A failed file fails the run after the others
    are done, so a re-run redoes only it."""
    failures = []
    with database.connect(actor=actor) as conn:
        leads, people = region_rows(conn, region, cities, hotel_ids)
        digests = {key: e["digest"] for key, e in latest_exports(conn, region).items()}
        conn.commit()
        files = [(city, leads[city], people.get(city, [])) for city in sorted(c for c in leads if c)]
        if files and not cities:  # the state file is the whole state: not written for a few cities
            files.append((None, [r for rows in leads.values() for r in rows],
                          [r for rows in people.values() for r in rows]))
        for city, city_leads, city_people in files:
            try:
                latest = digests.get(("city", city) if city else ("state", ""))
                export_one(conn, store, onedrive, region, city, city_leads, city_people, latest, result)
                conn.commit()
            except Exception as exc:  # the other files go on; the error is raised after them
                conn.rollback()
                failures.append(f"{city or region}: {type(exc).__name__}: {exc}")
        announce(conn, slack, region, result)
    if failures:
        raise ExportFailed(failures)


class ExportFailed(RuntimeError):
    def __init__(self, failures: Sequence[str]) -> None:
        super().__init__(f"{len(failures)} export file(s) failed: " + "; ".join(failures))
        self.failures = list(failures)
