"""The leads page's data (routes/leads.py): its filters from a query string or a form, a page of the
scored hotels with what the next launch would do with each (the launch's own decision functions
run on them, nothing written), people and e-mail states, the decisions a salesperson records, and
the export of the filtered view as the launch's workbook."""

from __future__ import annotations

import base64
import datetime as dt
import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import psycopg

from sadie_pipeline.core.hotel_status import HotelStatus
from sadie_pipeline.core.launch import LaunchCriteria, launch_decision
from sadie_pipeline.core.lead_decisions import LeadDecision, check_decision, next_launch_day, standing, verdict
from sadie_pipeline.core.scoring import COMPONENTS
from sadie_pipeline.hotels.exports.delivery import rows_of_hotels
from sadie_pipeline.hotels.exports.workbook import email_verification_label, write_leads_workbook
from sadie_pipeline.web.queries import rows, sql

PAGE = 30  # leads per page: each row carries its people, components and decision form
EXPORT_MAX = 20_000  # rows an export holds at most (a region's scored hotels)
FILTERS = ("region", "city", "tier", "engine", "min_score", "verified", "q")
CRITERIA = LaunchCriteria()  # the criteria the daily launch runs with (LaunchConfig's defaults)


def _int(value: Any, low: int, high: int) -> int | None:
    text = str(value or "").strip()
    return int(text) if text.isdigit() and low <= int(text) <= high else None


def _text(value: Any, limit: int = 100) -> str | None:
    text = " ".join(str(value or "").split())[:limit]
    return text or None


def filters(values: Mapping[str, Any]) -> dict[str, Any]:
    """The page's filters from request values; a value that makes no sense is no filter."""
    q = _text(values.get("q"), 80)
    return {"region": _text(values.get("region"), 20), "city": _text(values.get("city")),
            "tier": _int(values.get("tier"), 0, 9), "engine": _text(values.get("engine")),
            "min_score": _int(values.get("min_score"), 0, 100),
            "verified": str(values.get("verified") or "").lower() in ("1", "true", "on", "yes"),
            "q": q, "like": f"%{q.lower()}%" if q else None}


def shown_filters(found: Mapping[str, Any]) -> dict[str, str]:
    """The filters as a query string keeps them (for links, forms and the redirect after a decision)."""
    return {k: ("true" if found[k] is True else str(found[k])) for k in FILTERS if found.get(k) not in (None, False)}


def encode_key(row: Mapping[str, Any]) -> str:
    key = [row["region"], row["city_key"], row["score_key"], row["id"]]
    return base64.urlsafe_b64encode(json.dumps(key).encode()).decode().rstrip("=")


def decode_key(after: str | None) -> dict[str, Any]:
    """The keyset position a page starts after (none, or a key that is not one of ours: the start)."""
    none = {"after_region": None, "after_city": None, "after_score": None, "after_id": None}
    if not after:
        return none
    try:
        region, city, score, hotel = json.loads(base64.urlsafe_b64decode(after + "=" * (-len(after) % 4)))
        if not (isinstance(region, str) and isinstance(city, str) and isinstance(score, int)
                and isinstance(hotel, int)):
            return none
    except (ValueError, TypeError):
        return none
    return {"after_region": region, "after_city": city, "after_score": score, "after_id": hotel}


def pick(conn: psycopg.Connection, found: Mapping[str, Any], after: str | None, limit: int | None) -> list[dict]:
    return rows(conn, "leads", "pick", {**found, **decode_key(after), "scored": HotelStatus.SCORED, "limit": limit})


@dataclass(frozen=True)
class Outlook:
    """What the next launch would do with a lead, and why."""
    verdict: str           # launch | reject | hold
    reasons: list[str]     # recorded on the hotel when it is not launched
    overrides: list[str]   # the criteria's reasons an approval overrides


def outlook(row: Mapping[str, Any], day: dt.date) -> Outlook:
    """The launch's decision functions on the lead as it stands (core/launch, core/lead_decisions)."""
    hotel = {**(row.get("golden") or {}), "score": row["score"], "tier": row["tier"]}
    reasons = launch_decision(hotel, CRITERIA)
    stands = standing(row.get("decision"), row.get("reason"), row.get("decided_by"), _date(row.get("held_for")), day)
    chosen, recorded = verdict(reasons, stands)
    overrides = reasons if stands is not None and stands.decision is LeadDecision.APPROVED else []
    return Outlook(chosen.value, recorded, overrides)


def _date(value: Any) -> dt.date | None:
    return dt.date.fromisoformat(value) if isinstance(value, str) else value


_SHORT = {"booking_engine_tier": "engine", "room_count": "rooms", "rating_reviews": "rating", "location": "location",
          "completeness": "complete", "verified_contacts": "contacts"}


def components(details: Mapping[str, Any] | None) -> list[tuple[str, str]]:
    """(short label with points of max, the component's name) of a score's details, in the scoring's order."""
    details = details or {}
    return [(f"{_SHORT.get(c, c)} {round(details[c].get('points') or 0, 1):g}/{details[c].get('max') or 0:g}",
             c.replace("_", " ")) for c in COMPONENTS if isinstance(details.get(c), Mapping)]


def owners(row: Mapping[str, Any]) -> list[str]:
    """The owner and manager names the layers found, each once."""
    names = [(row.get("golden") or {}).get("management_company"), row.get("registrant_org"),
             row.get("whois_registrant_org"), row.get("licensee_name"), row.get("abn_entity_name")]
    return list(dict.fromkeys(n for n in names if n))


def lead_rows(conn: psycopg.Connection, picked: Sequence[Mapping[str, Any]], day: dt.date) -> list[dict]:
    """The picked leads, in page order, with details, people, e-mail state and the launch's outlook."""
    ids = [r["id"] for r in picked]
    if not ids:
        return []
    details = {r["id"]: r for r in rows(conn, "leads", "details", {"ids": ids})}
    people: dict[int, list[dict]] = {}
    for p in rows(conn, "leads", "people", {"ids": ids}):
        people.setdefault(p["hotel_id"], []).append({**p, "state": email_verification_label(p)})
    out = []
    for hotel_id in ids:
        row = details[hotel_id]
        email = {"email": row["contact_email"], "email_status": row["contact_email_status"],
                 "email_verified": row["contact_email_verified"]}
        out.append({**row, "people": people.get(hotel_id, []), "owners": owners(row),
                    "email_state": email_verification_label(email) if row["contact_email"] else None,
                    "components": components(row["score_details"]), "outlook": outlook(row, day)})
    return out


def record(conn: psycopg.Connection, ids: Sequence[int], decision: str, reason: str | None, by: str,
           now: dt.datetime, timezone: str) -> tuple[LeadDecision, list[dict]]:
    """One decision row per scored hotel among `ids` (DecisionError for a bad decision or reason);
    (the decision, the hotels decided: id and name). A hold names the launch it skips."""
    chosen, reason = check_decision(decision, reason)
    found = rows(conn, "leads", "scored_ids", {"ids": list(ids), "scored": HotelStatus.SCORED})
    held_for = next_launch_day(now, timezone) if chosen is LeadDecision.HELD else None
    if found:
        conn.execute(sql("leads", "decide"), {"ids": [h["id"] for h in found], "decision": chosen.value,
                                              "reason": reason, "by": by, "held_for": held_for})
    return chosen, found


def export_workbook(conn: psycopg.Connection, found: Mapping[str, Any]) -> tuple[bytes, int]:
    """The filtered leads as the launch's workbook (its writer, its columns): (bytes, hotels)."""
    ids = [r["id"] for r in pick(conn, found, None, EXPORT_MAX)]
    leads, people = rows_of_hotels(conn, ids)
    where = ", ".join(v for v in (found.get("city"), found.get("region")) if v) or "every region"
    buffer = io.BytesIO()
    stats = write_leads_workbook(buffer, leads, people, title=f"Hotel leads before launch: {where}")
    return buffer.getvalue(), stats.hotels
