"""WHOIS layers (seed 001: "WHOIS (fallback if RDAP privacy)", "WHOIS History").

* `whois_owner` (``LAYER_WHOIS``, resource ``whois``): each tier-1 hotel's domain asked over port
  43, the registry's referral followed to the registrar's server: the server that answered, the
  registrant organisation, whether the record is privacy-masked, and the registrant person (not
  a role, not masked, not a web agency's) as a decision maker with source ``whois`` and RDAP's
  confidence (the same registry data). This is what finds the owners of TLDs without useful RDAP.
  A domain WHOIS does not know completes with nothing found.
* `whois_history` (``LAYER_WHOIS_HISTORY``, resource ``wayback``): for hotels whose current record
  is privacy-masked or absent, the archived WHOIS lookups of the domain in the Wayback Machine
  (CDX API, then the snapshots, newest first): the newest unmasked record's date, organisation
  and registrant (source ``whois_history``; stale when older than 3 years). It needs RDAP and
  WHOIS to have completed (``can_run``: others are skipped and taken up by a later run); a hotel
  whose current record names its registrant completes with nothing to do.
"""

import re
from datetime import date
from functools import partial
from typing import Any

import pandas as pd
import psycopg
from dagster import AssetExecutionContext, MaterializeResult, asset

from sadie_pipeline.core.enrichment.confidence import contact_confidence
from sadie_pipeline.core.enrichment.layers import LAYER_WHOIS, LAYER_WHOIS_HISTORY, can_run
from sadie_pipeline.core.enrichment.whois import (
    WhoisRecord,
    newest_unmasked,
    parse_whois,
    registrant_belongs,
    whois_text_from_html,
)
from sadie_pipeline.hotels.assets import REGION_ASSET, booking_engine_detection
from sadie_pipeline.hotels.enrichment.common import (
    LayerConfig,
    LayerResult,
    PerRun,
    enrich_regions,
    hotel_domain,
    layer_asset,
    layer_output,
    save_layer,
)
from sadie_pipeline.hotels.enrichment.owner import _ROLE_NAME, rdap_owner, upsert_decision_maker
from sadie_pipeline.hotels.queries import run
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.reliability import SkipItem
from sadie_pipeline.resources.wayback import WaybackResource
from sadie_pipeline.resources.whois import WhoisResource

TITLE = "Domain Registrant"
WAITING = "waiting for RDAP and WHOIS"
STALE_YEARS = 3
MAX_SNAPSHOTS = 4  # archived pages read per domain, newest first, before giving up
# "Sea Palm Hospitality LLC" is an organisation, not a person
_ORG_NAME = re.compile(r"\b(?:llc|inc|ltd|corp|company|hotels?|resorts?|inn|hospitality|group|holdings?|partners|"
                       r"management)\b", re.IGNORECASE)


def _person(record: WhoisRecord, domain: str, hotel: dict[str, Any], source: str, confidence: float,
            url: str) -> list[dict[str, Any]]:
    """The registrant as a decision maker, when the record names a person who is the hotel's."""
    name = record.registrant_name
    if record.privacy or not name or _ROLE_NAME.search(name) or _ORG_NAME.search(name):
        return []
    if not registrant_belongs(record.registrant_email, record.registrant_org, domain, hotel.get("name")):
        return []  # a web agency or reseller registered the domain: not the hotel's owner
    return [{"full_name": name, "title": TITLE, "email": record.registrant_email, "phone": None,
             "sources": [source], "confidence": confidence, "raw_source_url": url}]


# --- WHOIS over port 43 ----------------------------------------------------------------------------

def _whois_figures(values: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "records_found": sum(1 for v in values if v.get("found")),
        "not_in_whois": sum(1 for v in values if v.get("domain") and not v.get("found")),
        "privacy_masked": sum(1 for v in values if v.get("privacy")),
        "registrant_orgs_found": sum(1 for v in values if v.get("registrant_org")),
        "decision_makers_found": sum(len(v.get("people", [])) for v in values),
        "referrals_followed": sum(max(0, len(v.get("servers", [])) - 1) for v in values),
    }


@asset(**REGION_ASSET, **layer_asset("whois_owner"), deps=[booking_engine_detection], kinds={"postgres"},
       pool="whois")
def whois_owner(context: AssetExecutionContext, config: LayerConfig, database: Database,
                whois: WhoisResource) -> MaterializeResult[pd.DataFrame]:
    """Who registered each tier-1 hotel's domain, by WHOIS over port 43 (registry -> registrar)."""
    result = LayerResult("whois_owner")

    def save(conn: psycopg.Connection, hotel: dict[str, Any], value: dict[str, Any]) -> None:
        org = value.get("registrant_org")
        values = {"whois_server": value.get("server"), "whois_registrant_org": org,
                  "whois_privacy": value.get("privacy") if value.get("found") else None}
        save_layer(conn, hotel["id"], LAYER_WHOIS, "whois_owner", values, "whois",
                   contact_confidence("rdap") if org else None, config.force_refresh)
        for person in value.get("people", []):
            upsert_decision_maker(conn, hotel["id"], person, config.force_refresh)

    lookup = PerRun(whois.lookup)

    async def ask(hotel: dict[str, Any]) -> dict[str, Any]:
        domain = hotel_domain(hotel)
        if not domain:
            return {"domain": None, "found": False, "people": []}
        answer = await lookup(domain)
        if answer is None:  # "No match for": nothing registered under that name
            return {"domain": domain, "found": False, "people": []}
        record = answer.record
        people = _person(record, domain, hotel, "whois", contact_confidence("rdap"), f"whois://{answer.server}/{domain}")
        return {"domain": domain, "found": True, "server": answer.server, "servers": [s for s, _ in answer.answers],
                "registrar": record.registrar, "registrant_org": record.registrant_org, "privacy": record.privacy,
                "people": people}

    # hotels in flight; each query waits for its own server's guard (rate and concurrency per server)
    enrich_regions(context.partition_keys, database, result, LAYER_WHOIS, config, lambda region, hotels: ask, save,
                   concurrency=whois.max_concurrency * 4, close=whois.aclose)
    return layer_output(context, database, result, _whois_figures)


# --- WHOIS history (the Wayback Machine) -----------------------------------------------------------

def whois_page_url(domain: str) -> str:
    """The lookup page whose archived copies hold the domain's past WHOIS records."""
    return f"https://www.whois.com/whois/{domain}"


def _needs_history(row: tuple[Any, ...] | None) -> bool:
    """Masked (WHOIS says so) or absent (no organisation, nobody named, WHOIS found nothing)."""
    if row is None:
        return True
    privacy, whois_org, rdap_org, named = row
    if named:
        return False
    return privacy is True or (privacy is None and not whois_org and not rdap_org)


def _history_figures(values: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "hotels_needing_history": sum(1 for v in values if v.get("needed")),
        "archived_records_found": sum(1 for v in values if v.get("date")),
        "snapshots_read": sum(v.get("snapshots_read", 0) for v in values),
        "decision_makers_found": sum(len(v.get("people", [])) for v in values),
    }


async def _archived(wayback: WaybackResource, domain: str) -> dict[str, Any]:
    """The domain's archived WHOIS lookups read newest first, up to the first unmasked one."""
    captures = await wayback.captures(whois_page_url(domain))
    read: list[tuple[date, WhoisRecord, str]] = []
    for capture in sorted(captures, key=lambda c: c.timestamp, reverse=True)[:MAX_SNAPSHOTS]:
        page = await wayback.snapshot(capture)
        if page is None:
            continue
        read.append((capture.day, parse_whois(whois_text_from_html(page)),
                     f"{wayback.resolved_base_url()}/web/{capture.timestamp}/{capture.original}"))
        if newest_unmasked([(d, r) for d, r, _ in read[-1:]]):
            break  # newest first: the first unmasked one is the newest
    best = newest_unmasked([(d, r) for d, r, _ in read])
    url = next((u for d, r, u in read if best and (d, r) == best), None)
    return {"captures": len(captures), "snapshots_read": len(read), "best": best, "url": url}


@asset(**REGION_ASSET, **layer_asset("whois_history"), deps=[rdap_owner, whois_owner], kinds={"postgres"},
       pool="wayback")
def whois_history(context: AssetExecutionContext, config: LayerConfig, database: Database,
                  wayback: WaybackResource) -> MaterializeResult[pd.DataFrame]:
    """The newest unmasked archived WHOIS record of each tier-1 hotel whose current one is masked."""
    result = LayerResult("whois_history")

    def save(conn: psycopg.Connection, hotel: dict[str, Any], value: dict[str, Any]) -> None:
        day, org = value.get("date"), value.get("org")
        values = {"whois_history_date": date.fromisoformat(day) if day else None, "whois_history_org": org}
        confidence = contact_confidence("whois_history", stale_data=value.get("stale", False)) if day else None
        save_layer(conn, hotel["id"], LAYER_WHOIS_HISTORY, "whois_history", values, "whois_history", confidence,
                   config.force_refresh)
        for person in value.get("people", []):
            upsert_decision_maker(conn, hotel["id"], person, config.force_refresh)

    lookup = PerRun(partial(_archived, wayback))

    async def history(hotel: dict[str, Any], current: dict[int, tuple[Any, ...]]) -> dict[str, Any]:
        if not can_run(LAYER_WHOIS_HISTORY, hotel["layers_completed"]):
            raise SkipItem(WAITING)
        domain = hotel_domain(hotel)
        if not domain or not _needs_history(current.get(hotel["id"])):
            return {"domain": domain, "needed": False, "people": []}
        found = await lookup(domain)
        out = {"domain": domain, "needed": True, "captures": found["captures"],
               "snapshots_read": found["snapshots_read"], "people": []}
        if found["best"] is None:
            return out
        day, record = found["best"]
        stale = (date.today() - day).days > 365 * STALE_YEARS
        people = _person(record, domain, hotel, "whois_history",
                         contact_confidence("whois_history", stale_data=stale), found["url"])
        return {**out, "date": day.isoformat(), "org": record.registrant_org, "stale": stale, "people": people}

    def worker(region: str, hotels: list[dict[str, Any]]) -> Any:
        with database.connect() as conn:
            rows = run(conn, "whois", "current_records", {"hotel_ids": [h["id"] for h in hotels]}).fetchall()
        return partial(history, current={r[0]: tuple(r[1:]) for r in rows})

    enrich_regions(context.partition_keys, database, result, LAYER_WHOIS_HISTORY, config, worker, save,
                   concurrency=wayback.max_concurrency, close=wayback.aclose)
    return layer_output(context, database, result, _history_figures)


whois_assets = [whois_owner, whois_history]
