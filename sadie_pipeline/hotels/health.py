"""Seed 001's pipeline health query, per region: enrichment progress, layer coverage and contact
quality, plus hotels per pipeline stage (the `hotel_pipeline_status` view) and unresolved dead
letters. `pipeline_health` reports them as numeric metadata, which the UI plots over time."""

from __future__ import annotations

from typing import Any

import psycopg

from sadie_pipeline.core.enrichment.layers import (
    LAYER_DNS,
    LAYER_EMAIL_VERIFY,
    LAYER_PROXIMITY,
    LAYER_RDAP,
    LAYER_RESEARCH,
    LAYER_ROOM_COUNT,
    LAYER_WEBSITE,
)
from sadie_pipeline.core.hotel_status import ENRICHED_OR_LATER, HotelStatus

HEALTH = f"""
SELECT count(DISTINCT h.id) FILTER (WHERE h.status = ANY(%(complete)s)) AS complete,
       count(DISTINCT h.id) FILTER (WHERE hoe.hotel_id IS NOT NULL AND h.status = %(detected)s) AS in_progress,
       count(DISTINCT h.id) FILTER (WHERE hoe.hotel_id IS NULL) AS not_started,
       count(DISTINCT h.id) FILTER (WHERE hoe.hotel_id IS NOT NULL AND h.status = %(detected)s
                                      AND hoe.updated_at < now() - interval '1 hour') AS stale_claims,
       count(DISTINCT h.id) FILTER (WHERE hoe.layers_completed & {LAYER_RDAP} > 0) AS has_rdap,
       count(DISTINCT h.id) FILTER (WHERE hoe.layers_completed & {LAYER_DNS} > 0) AS has_dns,
       count(DISTINCT h.id) FILTER (WHERE hoe.layers_completed & {LAYER_WEBSITE} > 0) AS has_website,
       count(DISTINCT h.id) FILTER (WHERE hoe.layers_completed & {LAYER_EMAIL_VERIFY} > 0) AS has_email_verify,
       count(DISTINCT h.id) FILTER (WHERE hoe.layers_completed & {LAYER_ROOM_COUNT} > 0) AS has_room_count,
       count(DISTINCT h.id) FILTER (WHERE hoe.layers_completed & {LAYER_PROXIMITY} > 0) AS has_proximity,
       count(DISTINCT h.id) FILTER (WHERE hoe.layers_completed & {LAYER_RESEARCH} > 0) AS has_research,
       count(DISTINCT hdm.hotel_id) AS hotels_with_contacts,
       count(hdm.id) FILTER (WHERE hdm.email_verified) AS verified_emails,
       count(hdm.id) FILTER (WHERE hdm.email_status = 'valid_domain') AS deliverable_emails,
       round(avg(hdm.confidence)::numeric, 3) AS avg_confidence
  FROM sadie_gtm.hotels h
  LEFT JOIN sadie_gtm.hotel_owner_enrichment hoe ON h.id = hoe.hotel_id
  LEFT JOIN sadie_gtm.hotel_decision_makers hdm ON h.id = hdm.hotel_id AND hdm.merged_into IS NULL
 WHERE h.website IS NOT NULL AND h.region = ANY(%(regions)s)
"""

STAGES = """
SELECT pipeline_stage, count(*) FROM sadie_gtm.hotel_pipeline_status
 WHERE region = ANY(%(regions)s) GROUP BY pipeline_stage ORDER BY pipeline_stage
"""

DEAD_LETTERS = """
SELECT d.layer, count(*) FROM pipeline.dead_letters d
  JOIN sadie_gtm.hotels h ON d.item_key = 'hotel:' || h.id
 WHERE d.resolved_at IS NULL AND h.region = ANY(%(regions)s) GROUP BY d.layer ORDER BY d.layer
"""


def pipeline_health(conn: psycopg.Connection, regions: list[str]) -> dict[str, Any]:
    """{"health": {...seed figures}, "stages": {stage: n}, "dead_letters": {layer: n}}."""
    params = {"regions": regions}
    cur = conn.execute(HEALTH, {**params, "complete": list(ENRICHED_OR_LATER), "detected": HotelStatus.DETECTED})
    names = [d.name for d in cur.description]
    row = cur.fetchone()
    health = {n: (float(v) if v is not None and n == "avg_confidence" else (v or 0)) for n, v in zip(names, row)}
    stages = dict(conn.execute(STAGES, params).fetchall())
    dead = dict(conn.execute(DEAD_LETTERS, params).fetchall())
    return {"health": health, "stages": stages, "dead_letters": dead}
