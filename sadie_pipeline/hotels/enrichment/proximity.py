"""Layer attraction_proximity: distance to the nearest DMO attraction and how many lie within
1, 5 and 10 km, from the listings tables (no external API)."""


from typing import Any

import pandas as pd
import psycopg
from dagster import AssetExecutionContext, MaterializeResult, asset

from sadie_pipeline.core.categories import CategoryGroup
from sadie_pipeline.core.enrichment.layers import LAYER_PROXIMITY
from sadie_pipeline.core.enrichment.proximity import Attraction, AttractionIndex, proximity_many
from sadie_pipeline.hotels.assets import REGION_ASSET, booking_engine_detection
from sadie_pipeline.hotels.enrichment.common import (
    LayerConfig,
    LayerResult,
    layer_asset,
    layer_output,
    mark_enriched,
    save_layer,
)
from sadie_pipeline.hotels.enrichment.pending import pending_chunks, pending_params
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.reliability import ItemOutcome

# the vocabulary's groups of places a visitor goes to see or do (core/categories.py)
ATTRACTION_GROUPS = [CategoryGroup.ATTRACTION.value, CategoryGroup.ACTIVITY.value]


def attractions(conn: psycopg.Connection) -> list[Attraction]:
    """Visible DMO listings that are points of interest (not lodging, not restaurants)."""
    rows = conn.execute(
        """SELECT l.name, loc.lat, loc.lng FROM public.listings l JOIN public.locations loc ON loc.id = l.location_id
            WHERE l.listing_visible AND loc.lat IS NOT NULL AND loc.lng IS NOT NULL
              AND split_part(l.category, '.', 1) = ANY(%s)""", (ATTRACTION_GROUPS,)).fetchall()
    return [Attraction(name, float(lat), float(lng)) for name, lat, lng in rows]


# Beyond this an attraction says nothing about a hotel's location (a hotel in Florida is not
# "near" a museum on Prince Edward Island): no nearest attraction, counts of zero.
NEAREST_WITHIN_KM = 100.0


@asset(**REGION_ASSET, **layer_asset("attraction_proximity"), deps=[booking_engine_detection], kinds={"postgres"})
def attraction_proximity(context: AssetExecutionContext, config: LayerConfig,
                         database: Database) -> MaterializeResult[pd.DataFrame]:
    """Each detected hotel's distance to the nearest DMO attraction and the attractions within 1, 5
    and 10 km, from the promoted listings (no external API)."""
    result = LayerResult("attraction_proximity")
    with database.connect() as conn:
        index = AttractionIndex(attractions(conn))
    for region in context.partition_keys:
        outcomes: list[ItemOutcome[dict[str, Any]]] = []
        params = pending_params(region, LAYER_PROXIMITY, "attraction_proximity", config)
        # chunk by chunk, each saved in its own transaction: memory stays at a chunk, a kill keeps the chunks done
        for hotels in pending_chunks(database, params):
            with database.connect() as conn:
                found = proximity_many(((h["id"], h["lat"], h["lng"]) for h in hotels if h["lat"] is not None),
                                       index, max_nearest_km=NEAREST_WITHIN_KM)
                for hotel in hotels:
                    near: dict[str, Any] | None = found.get(hotel["id"])
                    values = {} if not near else {
                        "nearest_attraction": near["nearest_name"], "nearest_attraction_km": near["nearest_km"],
                        "attractions_by_radius": near["counts_by_radius"]}
                    save_layer(conn, hotel["id"], LAYER_PROXIMITY, "attraction_proximity", values, "dmo_listings",
                               None, config.force_refresh)
                    outcomes.append(ItemOutcome(f"hotel:{hotel['id']}", "ok", value=values, attempts=1))
        with database.connect() as conn:
            result.enriched[region] += mark_enriched(conn, region)
        result.add(region, outcomes)
        result.skipped_reason = None if len(index) else "no DMO attractions with coordinates yet"
    return layer_output(context, database, result,
                        lambda values: {"attractions": len(index), "hotels_measured": len(values)})
