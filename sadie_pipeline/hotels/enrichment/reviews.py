"""Layers from the hotel's Google Maps place (Serper, by the placeId or cid discovery stored in
``hotels.google_place_id``).

* `review_responses` (``LAYER_REVIEWS``): the owner / manager replies to the place's reviews;
  their signers ("Maria, General Manager") by rules, the LLM (Groq) only for replies the rules
  cannot read, become decision makers with source ``review_response`` (first name only: -0.30;
  no or a generic title: -0.10; signing several replies: corroborated, +0.10). The number of
  replies read goes to ``review_replies``.
* `gmaps_details` (``LAYER_GMAPS_ENRICH``): opening hours, price level, photos count, rating and
  review count of the place, source ``google_maps``.

A hotel without a place id completes both layers with nothing found.
"""


from typing import Any

import pandas as pd
import psycopg
from dagster import AssetExecutionContext, MaterializeResult, asset
from pydantic import Field

from sadie_pipeline.core.enrichment.confidence import contact_confidence
from sadie_pipeline.core.enrichment.layers import LAYER_GMAPS_ENRICH, LAYER_REVIEWS
from sadie_pipeline.core.enrichment.review_signers import (
    SignerReading,
    build_signer_prompt,
    hotel_signers,
    parse_signer_answer,
    read_signature,
    signer_rows,
)
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
from sadie_pipeline.resources.database import Database
from sadie_pipeline.resources.llm import GroqResource
from sadie_pipeline.resources.serper import SerperResource, place_ref

SOURCE = "review_response"


class ReviewsConfig(LayerConfig):
    max_pages: int = Field(default=3, ge=1, description="pages of reviews read per place (newest first)")


def maps_url(ref: dict[str, str]) -> str:
    """The place on Google Maps (where a salesperson can read the replies)."""
    if "cid" in ref:
        return f"https://www.google.com/maps?cid={ref['cid']}"
    return f"https://www.google.com/maps/search/?api=1&query=Google&query_place_id={next(iter(ref.values()))}"


def reply_text(review: dict[str, Any]) -> str | None:
    """The owner's reply of one Serper review (``response.snippet``, or ``text`` in older answers)."""
    response = review.get("response")
    if not isinstance(response, dict):
        return None
    text = response.get("snippet") or response.get("text")
    return text.strip() if isinstance(text, str) and text.strip() else None


def _person(signer: Any, url: str) -> dict[str, Any]:
    confidence = contact_confidence(SOURCE, first_name_only=signer.first_name_only,
                                    generic_title=signer.generic_title, multiple_sources=signer.replies >= 2)
    return {"full_name": signer.name, "title": signer.title, "email": None, "phone": None, "sources": [SOURCE],
            "confidence": confidence, "raw_source_url": url}


async def _closing(*closers: Any) -> None:
    for close in closers:
        await close()


@asset(**REGION_ASSET, **layer_asset("review_responses"), deps=[booking_engine_detection], kinds={"postgres"},
       pool="serper")
def review_responses(context: AssetExecutionContext, config: ReviewsConfig, database: Database,
                     serper: SerperResource, groq: GroqResource) -> MaterializeResult[pd.DataFrame]:
    """Who answers each tier-1 hotel's Google reviews: the replies' signers (rules, then the LLM
    for the replies rules cannot read) as decision makers, and how many replies were read."""
    use_llm = groq.configured()
    result = LayerResult("review_responses", skipped_reason=None if serper.configured() else serper.not_configured_message())

    async def read_replies(hotel: dict[str, Any], replies: list[str]) -> tuple[list[SignerReading], int]:
        readings = [read_signature(text) for text in replies]
        answers: dict[str, SignerReading] = {}  # one call per distinct reply text
        for i, (text, reading) in enumerate(zip(replies, readings)):
            if reading.status != "unreadable" or not use_llm:
                continue
            if text not in answers:
                answer = await groq.chat_json(build_signer_prompt(text, hotel["name"]),
                                              item_key=f"hotel:{hotel['id']}:reply:{len(answers)}")
                answers[text] = parse_signer_answer(answer, text)
            readings[i] = answers[text]
        return readings, len(answers)

    async def mine(hotel: dict[str, Any]) -> dict[str, Any]:
        ref = place_ref(hotel.get("google_place_id"))
        if not ref:
            return {"place": None, "replies": None, "signers": [], "people": [], "llm_calls": 0, "statuses": {}}
        reviews = await serper.all_reviews(**ref, max_pages=config.max_pages, item_key=f"hotel:{hotel['id']}")
        replies = [t for t in (reply_text(r) for r in reviews) if t]
        readings, llm_calls = await read_replies(hotel, replies)
        signers = hotel_signers(readings)
        statuses: dict[str, int] = {}
        for r in readings:
            key = f"{r.status}_{r.method}"
            statuses[key] = statuses.get(key, 0) + 1
        url = maps_url(ref)
        return {"place": next(iter(ref.values())), "reviews": len(reviews), "replies": len(replies),
                "signers": signer_rows(signers), "people": [_person(s, url) for s in signers],
                "llm_calls": llm_calls, "statuses": statuses}

    def save(conn: psycopg.Connection, hotel: dict[str, Any], value: dict[str, Any]) -> None:
        confidence = max((p["confidence"] for p in value["people"]), default=None)
        save_layer(conn, hotel["id"], LAYER_REVIEWS, "review_responses", {"review_replies": value["replies"]},
                   SOURCE, confidence, config.force_refresh)
        for person in value["people"]:
            upsert_decision_maker(conn, hotel["id"], person, config.force_refresh)

    closers = (serper.aclose, groq.aclose) if use_llm else (serper.aclose,)
    enrich_regions(context.partition_keys, database, result, LAYER_REVIEWS, config, lambda region, hotels: mine,
                   save, concurrency=serper.max_concurrency, close=lambda: _closing(*closers))
    return layer_output(context, database, result, _review_figures)


def _review_figures(values: list[dict[str, Any]]) -> dict[str, Any]:
    def total(status: str) -> int:
        return sum(v["statuses"].get(status, 0) for v in values)

    return {
        "hotels_without_place_id": sum(1 for v in values if v["place"] is None),
        "replies_read": sum(v["replies"] or 0 for v in values),
        "signed_by_rules": total("signed_rules"), "signed_by_llm": total("signed_llm"),
        "team_signatures": total("team_rules") + total("team_llm"),
        "unreadable_left": total("unreadable_rules") + total("unreadable_llm"),
        "llm_calls": sum(v["llm_calls"] for v in values),
        "decision_makers_found": sum(len(v["people"]) for v in values),
    }


def _number(value: Any, kind: type) -> Any:
    try:
        return kind(value) if value is not None and not isinstance(value, bool) else None
    except (TypeError, ValueError):
        return None


def details_values(place: dict[str, Any] | None) -> dict[str, Any]:
    """The enrichment columns of a Serper place (None for what it does not say)."""
    place = place or {}
    hours = place.get("openingHours")
    price = place.get("priceLevel")
    return {"opening_hours": hours if isinstance(hours, dict) and hours else None,
            "price_level": price if isinstance(price, str) and price else None,
            "photos_count": _number(place.get("photosCount"), int),
            "gmaps_rating": _number(place.get("rating"), float), "gmaps_reviews": _number(place.get("ratingCount"), int)}


@asset(**REGION_ASSET, **layer_asset("gmaps_details"), deps=[booking_engine_detection], kinds={"postgres"},
       pool="serper")
def gmaps_details(context: AssetExecutionContext, config: LayerConfig, database: Database,
                  serper: SerperResource) -> MaterializeResult[pd.DataFrame]:
    """Each tier-1 hotel's Google Maps details refreshed from its place id: opening hours, price
    level, photos count, rating and number of reviews."""
    result = LayerResult("gmaps_details", skipped_reason=None if serper.configured() else serper.not_configured_message())

    async def details(hotel: dict[str, Any]) -> dict[str, Any]:
        ref = place_ref(hotel.get("google_place_id"))
        if not ref:
            return {"place": None, "found": False, **details_values(None)}
        place = await serper.place_details(**ref, item_key=f"hotel:{hotel['id']}")
        return {"place": next(iter(ref.values())), "found": place is not None, **details_values(place)}

    def save(conn: psycopg.Connection, hotel: dict[str, Any], value: dict[str, Any]) -> None:
        values = {k: value[k] for k in ("opening_hours", "price_level", "photos_count", "gmaps_rating", "gmaps_reviews")}
        save_layer(conn, hotel["id"], LAYER_GMAPS_ENRICH, "gmaps_details", values, "google_maps", None,
                   config.force_refresh)

    enrich_regions(context.partition_keys, database, result, LAYER_GMAPS_ENRICH, config,
                   lambda region, hotels: details, save, concurrency=serper.max_concurrency, close=serper.aclose)
    return layer_output(context, database, result, lambda values: {
        "hotels_without_place_id": sum(1 for v in values if v["place"] is None),
        "places_found": sum(1 for v in values if v["found"]),
        "with_opening_hours": sum(1 for v in values if v["opening_hours"]),
        "with_price_level": sum(1 for v in values if v["price_level"]),
    })


reviews_assets = [review_responses, gmaps_details]
