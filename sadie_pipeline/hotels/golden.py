"""Golden records (seed 001, "Golden Record Merge"): every value the sources and layers gave for a
hotel's fields becomes a candidate; `core.golden` picks each field's winner by source priority
and confidence; the winners go to `golden_hotels`, every candidate to `field_provenance`.

Where candidates come from:

=====================  ==================================================  =====================
table                  fields                                              source
=====================  ==================================================  =====================
hotel_sources          name, address, city, state, zip, phone, website,    google_maps (Serper),
                       rating, review_count                                dmo_listing, csv_import
hotel_owner_enrichment room_count                                          llm_extract (Groq) or
                                                                           regex
hotel_owner_enrichment management_company, property_type,                  llm_extract (research)
                       chain_or_independent
hotel_owner_enrichment management_company (the domain's registrant org)    rdap
hotel_decision_makers  email, contact_name (one per active person)         the person's best source
=====================  ==================================================  =====================

Decision makers are merged first (`merge_decision_makers`): the same person found twice (another
title, a first name only, the same address) collapses into one row by the seed's ON CONFLICT
rules, and each person's confidence is recomputed by the seed's confidence model.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import psycopg

from sadie_pipeline.core.golden import GOLDEN_FIELDS, FieldCandidate, golden_record
from sadie_pipeline.core.golden_hotel import (
    STALE_AFTER_DAYS,
    DmCandidate,
    dm_source,
    golden_row,
    plan_decision_maker_merge,
    provenance_rows,
)
from sadie_pipeline.core.hotel_status import DETECTED_OR_LATER

DISCOVERY_SOURCES = {"serper": "google_maps", "dmo": "dmo_listing", "csv": "csv_import"}
DISCOVERY_FIELDS = ("name", "address", "city", "state", "zip", "phone", "website", "rating", "review_count")


@dataclass
class GoldenResult:
    hotels: int = 0
    inserted: int = 0
    updated: int = 0
    unchanged: int = 0
    provenance_rows: int = 0
    people_merged: int = 0
    winners_by_source: dict[str, dict[str, int]] = field(default_factory=dict)
    preview: list[tuple[Any, ...]] = field(default_factory=list)


# --- decision makers -------------------------------------------------------------------------------

def merge_decision_makers(conn: psycopg.Connection, hotel_ids: Sequence[int], now: datetime) -> int:
    """Merges each hotel's duplicate people; returns how many rows were absorbed."""
    cur = conn.execute(
        """SELECT id, hotel_id, full_name, title, email, email_verified, email_status, phone, sources,
                  confidence, raw_source_url, updated_at
             FROM sadie_gtm.hotel_decision_makers
            WHERE hotel_id = ANY(%s) AND merged_into IS NULL ORDER BY hotel_id, id""", (list(hotel_ids),))
    names = [d.name for d in cur.description]
    by_hotel: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for r in cur.fetchall():
        row = dict(zip(names, r))
        by_hotel[row["hotel_id"]].append(row)
    absorbed_total = 0
    for people in by_hotel.values():
        keep, absorbed = plan_decision_maker_merge(people, now)
        originals = {p["id"]: p for p in people}
        for old_id, new_id in absorbed.items():
            conn.execute("UPDATE sadie_gtm.hotel_decision_makers SET merged_into = %s, updated_at = now() WHERE id = %s",
                         (new_id, old_id))
        for row in keep:
            before = originals[row["id"]]
            cols = ("full_name", "title", "email", "email_status", "email_verified", "phone", "sources", "confidence")
            if all(before.get(c) == row.get(c) for c in cols):
                continue
            conn.execute(
                """UPDATE sadie_gtm.hotel_decision_makers
                      SET full_name = %s, title = %s, email = %s, email_status = %s, email_verified = %s, phone = %s,
                          sources = %s, confidence = %s, updated_at = now()
                    WHERE id = %s""",
                (row["full_name"], row["title"], row["email"], row.get("email_status"), bool(row["email_verified"]),
                 row["phone"], sorted(set(row["sources"] or [])), row["confidence"], row["id"]))
        absorbed_total += len(absorbed)
    return absorbed_total


# --- candidates ------------------------------------------------------------------------------------

_WITH_ENGINE = """
SELECT h.id FROM sadie_gtm.hotels h
  JOIN sadie_gtm.hotel_booking_engines hbe ON hbe.hotel_id = h.id AND hbe.booking_engine_id IS NOT NULL
 WHERE h.region = %(region)s AND h.status = ANY(%(statuses)s)
   AND (cardinality(%(cities)s::text[]) = 0 OR lower(h.city) = ANY(%(cities)s))
 ORDER BY h.id
"""


def golden_hotel_ids(conn: psycopg.Connection, region: str, cities: Sequence[str] = ()) -> list[int]:
    """Hotels of the region with a booking engine (DETECTED_OR_LATER)."""
    params = {"region": region, "statuses": list(DETECTED_OR_LATER), "cities": [c.lower() for c in cities]}
    return [r[0] for r in conn.execute(_WITH_ENGINE, params)]


def _layer_time(layer_updated_at: dict[str, Any] | None, layer: str) -> datetime | None:
    value = (layer_updated_at or {}).get(layer)
    return datetime.fromisoformat(value) if isinstance(value, str) else None


def _enrichment_candidates(room_count: Any, room_source: Any, mgmt: Any, ptype: Any, chain: Any, org: Any,
                           stamps: Any, whois_org: Any, history_org: Any, licensee: Any, abn_name: Any,
                           cert_orgs: Any, rating: Any, reviews: Any) -> list[FieldCandidate]:
    """One hotel's candidates from its enrichment row, each credited to the layer that found it."""
    out: list[FieldCandidate] = []
    if room_count is not None:
        out.append(FieldCandidate("room_count", room_count, "llm_extract" if room_source == "groq" else "regex",
                                  extracted_at=_layer_time(stamps, "room_counts")))
    research_at = _layer_time(stamps, "hotel_research")
    for name, value in (("management_company", mgmt), ("property_type", ptype), ("chain_or_independent", chain)):
        if value:
            out.append(FieldCandidate(name, value, "llm_extract", extracted_at=research_at))
    # the owning entity as registers, registrars and certificates name it
    owners = (("rdap", org, "rdap_owner"), ("whois", whois_org, "whois_owner"),
              ("whois_history", history_org, "whois_history"), ("gov_registry", licensee, "licence_owners"),
              ("abn_lookup", abn_name, "abn_asic"), ("ct_certs", (cert_orgs or [None])[0], "certificate_orgs"))
    for source, value, layer in owners:
        if value:
            out.append(FieldCandidate("management_company", value, source, extracted_at=_layer_time(stamps, layer)))
    gmaps_at = _layer_time(stamps, "gmaps_details")
    # numeric(3, 2) reads back as Decimal("4.60"): as a float, the same value discovery gives (4.6)
    for name, value in (("rating", None if rating is None else float(rating)), ("review_count", reviews)):
        if value is not None:
            out.append(FieldCandidate(name, value, "google_maps", extracted_at=gmaps_at))
    return out


def load_candidates(conn: psycopg.Connection, hotel_ids: Sequence[int]) -> dict[int, list[FieldCandidate]]:
    """Every candidate value of the hotels' golden fields, by hotel."""
    out: dict[int, list[FieldCandidate]] = defaultdict(list)
    ids = list(hotel_ids)
    for hotel_id, source, record, raw_path, seen in conn.execute(
            """SELECT hotel_id, source, record, raw_s3_path, last_seen_at FROM sadie_gtm.hotel_sources
                WHERE hotel_id = ANY(%s) ORDER BY id""", (ids,)):
        src = DISCOVERY_SOURCES.get(source, source)
        for name in DISCOVERY_FIELDS:
            value = record.get(name)
            if value not in (None, ""):
                out[hotel_id].append(FieldCandidate(name, value, src, source_url=raw_path, extracted_at=seen))
    for row in conn.execute(
            """SELECT hotel_id, room_count, room_count_source, management_company, property_type,
                      chain_or_independent, registrant_org, layer_updated_at, whois_registrant_org, whois_history_org,
                      licensee_name, abn_entity_name, cert_orgs, gmaps_rating, gmaps_reviews
                 FROM sadie_gtm.hotel_owner_enrichment WHERE hotel_id = ANY(%s)""", (ids,)):
        out[row[0]].extend(_enrichment_candidates(*row[1:]))
    # absorbed rows are evidence too (another address for the same person), credited to the survivor
    for (dm_id, hotel_id, full_name, title, email, status, verified, sources, url, updated) in conn.execute(
            """SELECT coalesce(merged_into, id), hotel_id, full_name, title, email, email_status, email_verified,
                      sources, raw_source_url, updated_at
                 FROM sadie_gtm.hotel_decision_makers
                WHERE hotel_id = ANY(%s) ORDER BY id""", (ids,)):
        # no confidence: the person's stored one already has the model's modifiers, which the
        # golden choice applies again (base by source + modifiers)
        common = {"source_url": url, "extracted_at": updated, "person_name": full_name, "person_title": title}
        out[hotel_id].append(DmCandidate("contact_name", full_name, dm_source(sources, None, "contact_name"),
                                          dm_id=dm_id, **common))
        if email:
            out[hotel_id].append(DmCandidate("email", email, dm_source(sources, status), email_status=status,
                                              email_verified=verified, dm_id=dm_id, **common))
    return out


# --- golden rows -----------------------------------------------------------------------------------

_GOLDEN_COLUMNS = ("hotel_id", "region", *GOLDEN_FIELDS, "contact_dm_id", "field_sources", "filled_fields",
                   "total_fields", "record_hash")


def save_golden(conn: psycopg.Connection, rows: Sequence[dict[str, Any]], prov: Sequence[tuple[Any, ...]],
                result: GoldenResult) -> None:
    """Upserts the golden rows (untouched when their hash is the same) and the provenance rows;
    winners are current (superseded_at NULL), every other value of the field points at its winner."""
    cols = ", ".join(_GOLDEN_COLUMNS)
    conn.execute("CREATE TEMP TABLE tmp_golden (LIKE sadie_gtm.golden_hotels INCLUDING DEFAULTS) ON COMMIT DROP")
    with conn.cursor().copy(f"COPY tmp_golden ({cols}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row([json.dumps(row[c]) if c == "field_sources" else row.get(c) for c in _GOLDEN_COLUMNS])
    before = dict(conn.execute(
        "SELECT g.hotel_id, g.record_hash FROM sadie_gtm.golden_hotels g JOIN tmp_golden t USING (hotel_id)").fetchall())
    sets = ", ".join(f"{c} = EXCLUDED.{c}" for c in _GOLDEN_COLUMNS if c != "hotel_id")
    conn.execute(f"""INSERT INTO sadie_gtm.golden_hotels ({cols}) SELECT {cols} FROM tmp_golden
                     ON CONFLICT (hotel_id) DO UPDATE SET {sets}, updated_at = now()
                     WHERE golden_hotels.record_hash IS DISTINCT FROM EXCLUDED.record_hash""")
    for row in rows:
        old = before.get(row["hotel_id"])
        if old is None:
            result.inserted += 1
        elif old == row["record_hash"]:
            result.unchanged += 1
        else:
            result.updated += 1

    conn.execute("""CREATE TEMP TABLE tmp_prov (hotel_id integer, dm_id integer, field_name text, field_value text,
                    source text, confidence double precision, source_url text, extracted_at timestamptz,
                    is_winner boolean) ON COMMIT DROP""")
    with conn.cursor().copy("COPY tmp_prov FROM STDIN") as copy:
        for p in prov:
            copy.write_row(p)
    result.provenance_rows += conn.execute(
        """INSERT INTO sadie_gtm.field_provenance AS p
                  (hotel_id, dm_id, field_name, field_value, source, confidence, source_url, extracted_at)
           SELECT hotel_id, dm_id, field_name, field_value, source, confidence, source_url,
                  coalesce(extracted_at, now())
             FROM tmp_prov
           ON CONFLICT (hotel_id, field_name, source, md5(coalesce(field_value, ''))) DO UPDATE
              SET confidence = EXCLUDED.confidence, dm_id = EXCLUDED.dm_id, source_url = EXCLUDED.source_url,
                  extracted_at = EXCLUDED.extracted_at
            WHERE (p.confidence, p.dm_id, p.source_url, p.extracted_at)
                  IS DISTINCT FROM (EXCLUDED.confidence, EXCLUDED.dm_id, EXCLUDED.source_url, EXCLUDED.extracted_at)"""
    ).rowcount
    conn.execute(
        """WITH winner AS (
               SELECT p.id, p.hotel_id, p.field_name
                 FROM tmp_prov t JOIN sadie_gtm.field_provenance p
                   ON p.hotel_id = t.hotel_id AND p.field_name = t.field_name AND p.source = t.source
                  AND md5(coalesce(p.field_value, '')) = md5(coalesce(t.field_value, ''))
                WHERE t.is_winner)
           UPDATE sadie_gtm.field_provenance p
              SET superseded_by = CASE WHEN p.id = w.id THEN NULL ELSE w.id END,
                  superseded_at = CASE WHEN p.id = w.id THEN NULL ELSE coalesce(p.superseded_at, now()) END
             FROM winner w
            WHERE p.hotel_id = w.hotel_id AND p.field_name = w.field_name
              AND p.superseded_by IS DISTINCT FROM (CASE WHEN p.id = w.id THEN NULL ELSE w.id END)""")


def build_golden(conn: psycopg.Connection, region: str, hotel_ids: Sequence[int], result: GoldenResult,
                 now: datetime | None = None) -> None:
    """Merges people, then builds and saves the golden record of each hotel."""
    now = now or datetime.now(UTC)
    if not hotel_ids:
        return
    result.people_merged += merge_decision_makers(conn, hotel_ids, now)
    candidates = load_candidates(conn, hotel_ids)
    titles = dict(conn.execute("SELECT id, title FROM sadie_gtm.hotel_decision_makers WHERE hotel_id = ANY(%s)",
                               (list(hotel_ids),)).fetchall())
    rows, prov = [], []
    for hotel_id in hotel_ids:
        choices = golden_record(candidates.get(hotel_id, []), now=now, stale_after_days=STALE_AFTER_DAYS)
        row = golden_row(hotel_id, region, choices, titles)
        rows.append(row)
        prov.extend(provenance_rows(hotel_id, choices))
        for name, choice in choices.items():
            by_source = result.winners_by_source.setdefault(name, {})
            by_source[choice.source] = by_source.get(choice.source, 0) + 1
        if len(result.preview) < 10:
            result.preview.append((hotel_id, row["name"], row["city"], row["email"], row["contact_name"],
                                   row["room_count"], f"{row['filled_fields']}/{row['total_fields']}"))
    save_golden(conn, rows, prov, result)
    result.hotels += len(rows)
