"""Layer room_counts: the hotel's room count from its website text, by Groq when a key is set,
else (or when the model finds none) by the regex fallback; the evidence is kept."""


from typing import Any

import pandas as pd
from dagster import AssetExecutionContext, MaterializeResult, asset

from sadie_pipeline.core.enrichment.layers import LAYER_ROOM_COUNT
from sadie_pipeline.core.enrichment.room_count import build_room_count_prompt, parse_room_count_answer, regex_room_count
from sadie_pipeline.hotels.assets import REGION_ASSET, booking_engine_detection
from sadie_pipeline.hotels.enrichment.common import (
    LayerConfig,
    LayerResult,
    enrich_regions,
    layer_asset,
    layer_output,
    save_layer,
)
from sadie_pipeline.hotels.enrichment.text import website_text
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.llm import GroqResource
from sadie_pipeline.resources.object_store import ObjectStore


@asset(**REGION_ASSET, **layer_asset("room_counts"), deps=[booking_engine_detection], kinds={"postgres"}, pool="llm")
def room_counts(context: AssetExecutionContext, config: LayerConfig, database: Database, object_store: ObjectStore,
                groq: GroqResource) -> MaterializeResult[pd.DataFrame]:
    """Each detected hotel's room count from its website text: Groq when a key is set, else (or when
    the model finds none) a regex; the count, its source and its evidence per hotel."""
    use_llm = groq.configured()
    result = LayerResult("room_counts", skipped_reason=None if use_llm else "no Groq key: regex fallback")

    async def count(hotel: dict[str, Any]) -> dict[str, Any]:
        text = website_text(object_store, hotel)
        if use_llm and text:
            answer = parse_room_count_answer(await groq.chat_json(
                build_room_count_prompt(text, hotel["name"]), item_key=f"hotel:{hotel['id']}"))
            if answer:
                return {"room_count": answer.count, "room_count_evidence": answer.evidence, "room_count_source": "groq",
                        "confidence": 0.6}
        found = regex_room_count(text)
        if found:
            return {"room_count": found.count, "room_count_evidence": found.evidence, "room_count_source": "regex",
                    "confidence": found.confidence}
        return {"room_count": None, "room_count_source": None, "confidence": None}

    def save(conn, hotel: dict[str, Any], value: dict[str, Any]) -> None:
        confidence = value.pop("confidence")
        save_layer(conn, hotel["id"], LAYER_ROOM_COUNT, "room_counts", value, value.get("room_count_source") or "none",
                   confidence, config.force_refresh)

    enrich_regions(context.partition_keys, database, result, LAYER_ROOM_COUNT, config, lambda region, hotels: count,
                   save, concurrency=4, close=groq.aclose if use_llm else None)
    return layer_output(context, database, result,
                        lambda values: {"room_counts_found": sum(1 for v in values if v.get("room_count"))})
