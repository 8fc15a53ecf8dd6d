"""ABN / ASIC layer for Australian regions (seed 001: ``abn_lookup`` 0.85, ``asic_director`` 0.90).

`abn_asic` (``LAYER_ABN_ASIC``, resource ``abn_lookup``): each tier-1 hotel of an ``AU-*`` region
is looked up in the Australian Business Register by name (ABN Lookup's MatchingNames), the
register's name that is the hotel picked by name score and state (`best_match`: no guess when
two ABNs tie), then its ABN details read (AbnDetails): ABN, entity name, business names, state,
status. A sole trader's entity is a person, the hotel's owner: a decision maker with source
``abn_lookup``. Hotels of every other region complete with "not applicable" (the bit is set, no
call is made).

ASIC's officeholders (``asic_director``) are not read: ABN Lookup does not publish them and ASIC
offers no free public API for them (company extracts are paid), so the layer names no directors.
"""

from collections import Counter
from functools import partial
from typing import Any

import pandas as pd
import psycopg
from dagster import AssetExecutionContext, MaterializeResult, MetadataValue, asset

from sadie_pipeline.core.enrichment.abn import best_match, read_details, sole_trader_name
from sadie_pipeline.core.enrichment.confidence import contact_confidence
from sadie_pipeline.core.enrichment.layers import LAYER_ABN_ASIC
from sadie_pipeline.hotels.assets import REGION_ASSET, booking_engine_detection
from sadie_pipeline.hotels.enrichment.common import (
    LayerConfig,
    LayerResult,
    enrich_regions,
    layer_asset,
    layer_output,
    save_layer,
)
from sadie_pipeline.hotels.enrichment.owner import upsert_decision_maker
from sadie_pipeline.resources.abn import AbnLookupResource
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.reliability import SkipItem

SOURCE = "abn_lookup"
NOT_APPLICABLE = "not applicable: not an Australian region"


def _country(region: str) -> str:
    return region.split("-", 1)[0].upper()


def _figures(values: list[dict[str, Any]]) -> dict[str, Any]:
    statuses = Counter(v["abn_status"] for v in values if v.get("abn"))
    return {
        "not_applicable": sum(1 for v in values if not v["applicable"]),
        "abns_found": sum(1 for v in values if v.get("abn")),
        "no_register_match": sum(1 for v in values if v["applicable"] and not v.get("abn")),
        "abn_statuses": MetadataValue.json(dict(sorted(statuses.items()))),
        "decision_makers_found": sum(len(v["people"]) for v in values),
    }


async def _look_up(hotel: dict[str, Any], abr: AbnLookupResource) -> dict[str, Any]:
    """One AU hotel: the register's name that is it, then that ABN's details."""
    nothing = {"applicable": True, "abn": None, "people": []}
    match = best_match(await abr.matching_names(hotel["name"]), hotel["name"], hotel.get("state"))
    if match is None:
        return nothing
    details = read_details(await abr.details(match["Abn"]) or {})
    if details is None:
        return nothing
    people = []
    if (name := sole_trader_name(details)) is not None:
        people.append({"full_name": name, "title": "Owner", "email": None, "phone": None, "sources": [SOURCE],
                       "confidence": contact_confidence(SOURCE),
                       "raw_source_url": f"{abr.resolved_base_url()}/ABN/View?abn={details.abn}"})
    return {"applicable": True, "abn": details.abn, "abn_entity_name": details.entity_name or None,
            "abn_trading_names": list(details.trading_names), "abn_state": details.state,
            "abn_status": details.status, "entity_type": details.entity_type,
            "match_name": match.get("Name"), "match_score": match.get("match_score"), "people": people}


@asset(**REGION_ASSET, **layer_asset("abn_asic"), deps=[booking_engine_detection], kinds={"postgres"},
       pool="abn_lookup")
def abn_asic(context: AssetExecutionContext, config: LayerConfig, database: Database,
             abn_lookup: AbnLookupResource) -> MaterializeResult[pd.DataFrame]:
    """Each Australian tier-1 hotel's ABN, registered entity, business names, state and status
    (ABN Lookup); a sole trader as the owner. Hotels elsewhere complete as not applicable."""
    australian = [r for r in context.partition_keys if _country(r) == "AU"]
    skipped = None if abn_lookup.configured() or not australian else abn_lookup.not_configured_message()
    result = LayerResult("abn_asic", skipped_reason=skipped)

    def save(conn: psycopg.Connection, hotel: dict[str, Any], value: dict[str, Any]) -> None:
        keys = ("abn", "abn_entity_name", "abn_trading_names", "abn_state", "abn_status")
        values = {k: value.get(k) or None for k in keys}
        save_layer(conn, hotel["id"], LAYER_ABN_ASIC, "abn_asic", values, SOURCE,
                   contact_confidence(SOURCE) if value.get("abn") else None, config.force_refresh)
        for person in value["people"]:
            upsert_decision_maker(conn, hotel["id"], person, config.force_refresh)

    async def look_up(hotel: dict[str, Any], applicable: bool) -> dict[str, Any]:
        if not applicable:
            return {"applicable": False, "reason": NOT_APPLICABLE, "abn": None, "people": []}
        if not abn_lookup.configured():
            raise SkipItem(abn_lookup.not_configured_message())
        return await _look_up(hotel, abn_lookup)

    enrich_regions(context.partition_keys, database, result, LAYER_ABN_ASIC, config,
                   lambda region, hotels: partial(look_up, applicable=_country(region) == "AU"), save,
                   concurrency=abn_lookup.max_concurrency, close=abn_lookup.aclose)
    return layer_output(context, database, result, _figures)


abn_assets = [abn_asic]
