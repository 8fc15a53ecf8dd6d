"""SerperResource's reviews and place details over real HTTP against the sandbox's Serper, and the
sandbox model reading a prose signature through GroqResource."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from sadie_pipeline.core.enrichment.review_signers import build_signer_prompt, parse_signer_answer
from sadie_pipeline.resources.llm import GroqResource
from sadie_pipeline.resources.reliability import ServiceCallFailed, SkipItem
from sadie_pipeline.resources.serper import SerperResource, place_ref
from sadie_pipeline.sandbox import Sandbox
from sadie_pipeline.sandbox.owners import owner_truth
from sadie_pipeline_tests.fixtures.sandbox import KEY


def _serper(sb: Sandbox, **kw: Any) -> SerperResource:
    return SerperResource(**({"api_key": KEY, "base_url": sb.base_url("serper"), "requests_per_minute": 60_000,
                              "backoff_base_s": 0.01, "backoff_max_s": 0.05} | kw))


def _run(resource: Any, call: Callable[[], Awaitable[Any]]) -> Any:
    async def main() -> Any:
        try:
            return await call()
        finally:
            await resource.aclose()
    return asyncio.run(main())


def _hotel_with_replies(sb: Sandbox, min_reviews: int = 4) -> Any:
    return next(p for p in sb.hotels if len(owner_truth(p).reviews) >= min_reviews
                and sum(1 for r in owner_truth(p).reviews if r.response) >= 2)


def test_place_ref_picks_the_identifier() -> None:
    assert place_ref("1901135644046305255") == {"cid": "1901135644046305255"}
    assert place_ref("ChIJhHpBg8bsxpyEKTFpjko5sm2") == {"place_id": "ChIJhHpBg8bsxpyEKTFpjko5sm2"}
    assert place_ref("0xad84ee24e9a034b0:0x5e64c371479373ae") == {"fid": "0xad84ee24e9a034b0:0x5e64c371479373ae"}
    assert place_ref(None) == {} and place_ref("  ") == {}


def test_reviews_by_cid_and_place_id_page_through_the_owner_replies(sb: Sandbox) -> None:
    hotel = _hotel_with_replies(sb)
    truth = owner_truth(hotel).reviews
    serper = _serper(sb)
    first, by_cid, by_place = _run(serper, lambda: asyncio.gather(
        serper.reviews(cid=hotel.cid), serper.all_reviews(cid=hotel.cid, max_pages=5),
        serper.all_reviews(place_id=hotel.place_id, max_pages=5)))
    # Serper's shape: a page of reviews and a token for the next one
    assert len(first["reviews"]) == 3 and first["nextPageToken"]
    review = first["reviews"][0]
    assert {"rating", "date", "isoDate", "snippet", "user", "id"} <= set(review) and review["user"]["name"]
    assert by_cid == by_place and len(by_cid) == len(truth)
    replies = [r["response"]["snippet"] if "response" in r else None for r in by_cid]
    assert replies == [r.response for r in truth]
    assert [r["isoDate"][:10] for r in by_cid] == [r.date for r in truth]
    # one page only: the first three
    assert _run(serper, lambda: serper.all_reviews(fid=hotel.fid, max_pages=1)) == by_cid[:3]


def test_reviews_sort_and_refuse_bad_requests(sb: Sandbox) -> None:
    hotel = _hotel_with_replies(sb)
    serper = _serper(sb)
    lowest = _run(serper, lambda: serper.all_reviews(cid=hotel.cid, sort_by="lowestRating", max_pages=5))
    assert [r["rating"] for r in lowest] == sorted(r.rating for r in owner_truth(hotel).reviews)
    with pytest.raises(ServiceCallFailed) as bad_sort:
        _run(serper, lambda: serper.reviews(cid=hotel.cid, sort_by="best"))
    assert bad_sort.value.status_code == 400 and bad_sort.value.attempts == 1
    unknown = _run(serper, lambda: serper.reviews(cid="1234567890123456789"))
    assert unknown["reviews"] == [] and "nextPageToken" not in unknown
    with pytest.raises(ValueError):
        _run(serper, lambda: serper.reviews())
    with pytest.raises(SkipItem):
        keyless = _serper(sb, api_key=None)
        _run(keyless, lambda: keyless.reviews(cid=hotel.cid))


def test_place_details_by_id_are_deterministic(sb: Sandbox) -> None:
    hotel = _hotel_with_replies(sb)
    serper = _serper(sb)
    by_cid, by_place, again, unknown = _run(serper, lambda: asyncio.gather(
        serper.place_details(cid=hotel.cid), serper.place_details(place_id=hotel.place_id),
        serper.place_details(cid=hotel.cid), serper.place_details(cid="1234567890123456789")))
    assert by_cid == by_place == again and unknown is None
    assert (by_cid["title"], by_cid["rating"], by_cid["ratingCount"]) == (hotel.name, hotel.rating, hotel.reviews)
    assert by_cid["priceLevel"] in ("$", "$$", "$$$", "$$$$")
    assert set(by_cid["openingHours"]) == {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
                                           "Sunday"}
    assert isinstance(by_cid["photosCount"], int) and by_cid["photosCount"] > 0
    # details differ between places (derived from each place's id)
    others = [p for p in sb.hotels if p.id != hotel.id][:8]
    details = _run(serper, lambda: asyncio.gather(*(serper.place_details(cid=p.cid) for p in others)))
    assert len({(d["priceLevel"], d["photosCount"]) for d in details}) > 1


def test_sandbox_model_reads_a_prose_signature(sb: Sandbox) -> None:
    groq = GroqResource(api_key=KEY, base_url=sb.base_url("groq"), requests_per_minute=6000)
    reply = "Thank you for your kind words!\nWarm regards from all of us - Nadia, who runs the place for the family"
    answer = _run(groq, lambda: groq.chat_json(build_signer_prompt(reply, "Coral Inn")))
    reading = parse_signer_answer(answer, reply)
    assert (reading.status, reading.name, reading.title, reading.method) == ("signed", "Nadia", "Manager", "llm")
    # it reads the text it is given: another name in the same words gives that name
    other = reply.replace("Nadia", "Oscar")
    assert _run(groq, lambda: groq.chat_json(build_signer_prompt(other)))["name"] == "Oscar"
