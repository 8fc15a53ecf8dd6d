"""Layer hotel_research: property type, chain or independent, management company and amenities,
with evidence, from Anthropic's structured output over the website text."""


from typing import Any

import pandas as pd
from dagster import AssetExecutionContext, MaterializeResult, asset

from sadie_pipeline.core.enrichment.layers import LAYER_RESEARCH
from sadie_pipeline.core.enrichment.research import RESEARCH_TOOL, build_research_request, parse_research
from sadie_pipeline.hotels.assets import REGION_ASSET, booking_engine_detection
from sadie_pipeline.hotels.enrichment.common import (
    LayerConfig,
    LayerResult,
    enrich_regions,
    hotels_needing,
    layer_asset,
    layer_output,
    mark_enriched,
    save_layer,
)
from sadie_pipeline.hotels.enrichment.text import website_text
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.llm import AnthropicResource
from sadie_pipeline.resources.object_store import ObjectStore
from sadie_pipeline.resources.reliability import ItemOutcome, SkipItem


@asset(**REGION_ASSET, **layer_asset("hotel_research"), deps=[booking_engine_detection], kinds={"postgres"},
       pool="llm")
def hotel_research(context: AssetExecutionContext, config: LayerConfig, database: Database,
                   object_store: ObjectStore, anthropic: AnthropicResource) -> MaterializeResult[pd.DataFrame]:
    """Each detected hotel's property type, chain or independent, management company and amenities,
    with evidence, from Anthropic's structured output over its website text (skipped without a key)."""
    result = LayerResult("hotel_research")
    if not anthropic.configured():
        # The layer counts as run (with nothing found) so hotels are not held back; a later
        # force_refresh run with a key fills it in.
        result.skipped_reason = anthropic.not_configured_message()
        for region in context.partition_keys:
            with database.connect() as conn:
                hotels = hotels_needing(conn, region, LAYER_RESEARCH, config)
                for hotel in hotels:
                    save_layer(conn, hotel["id"], LAYER_RESEARCH, "hotel_research", {}, "not_configured", None,
                               config.force_refresh)
                result.enriched[region] += mark_enriched(conn, region)
            result.add(region, [ItemOutcome(f"hotel:{h['id']}", "skipped", reason=result.skipped_reason)
                                for h in hotels])
        return layer_output(context, database, result)

    async def research(hotel: dict[str, Any]) -> dict[str, Any]:
        text = website_text(object_store, hotel)
        if not text:
            raise SkipItem("no website text")
        request = build_research_request(hotel["name"], model=anthropic.model, city=hotel["city"],
                                         state=hotel["state"], website=hotel["website"], website_text=text)
        answer = await anthropic.structured(request["messages"], RESEARCH_TOOL, system=request.get("system"),
                                            item_key=f"hotel:{hotel['id']}")
        return parse_research(answer, source_text=text).as_row()

    def save(conn, hotel: dict[str, Any], row: dict[str, Any]) -> None:
        values = {"property_type": row["property_type"], "chain_or_independent": row["affiliation"],
                  "management_company": row["management_company"], "amenities": row["amenities"],
                  "research_evidence": row["evidence"]}
        save_layer(conn, hotel["id"], LAYER_RESEARCH, "hotel_research", values, "llm_extract",
                   row["research_confidence"], config.force_refresh)

    enrich_regions(context.partition_keys, database, result, LAYER_RESEARCH, config, lambda region, hotels: research,
                   save, concurrency=4, close=anthropic.aclose)
    return layer_output(context, database, result)
