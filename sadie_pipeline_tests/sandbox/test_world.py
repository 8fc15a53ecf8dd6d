"""The fixtures, the synthetic generator and the deterministic model, without a server."""

from __future__ import annotations

import json
from collections import Counter
from html import escape as html_escape

from sadie_pipeline.sandbox import World, generate_hotels, llm, sitegen
from sadie_pipeline.sandbox.world import DEAD_KINDS


def test_demo_region() -> None:
    w = World.demo()
    hotels = w.hotels
    assert 30 <= len(hotels) <= 40
    assert {h.city for h in hotels} == {"Miami", "Miami Beach", "Orlando", "Key West"}
    assert {h.region for h in hotels} == {"US-FL"}
    kinds = Counter(h.site for h in hotels)
    assert kinds["js_only"] >= 3 and kinds["ok"] >= 15 and kinds["huge"] == 1
    assert all(kinds[k] >= 1 for k in DEAD_KINDS + ("redirect_www", "moved", "redirect_loop", "none"))
    engines = {h.engine.name for h in hotels if h.engine and not h.engine.ota}
    assert {"SynXis", "Cloudbeds", "TravelClick", "Mews", "SiteMinder", "WebRezPro", "ResNexus",
            "Little Hotelier", "ThinkReservations", "Guesty", "Lodgify"} <= engines
    assert len({h.cid for h in w.places}) == len(w.places)
    truth = w.hotel("biscaynebayinn.test").truth()
    assert truth["rooms"] == 120 and truth["engine"] == "SynXis" and not truth["is_chain"]


def test_synthetic_hotels_are_deterministic_and_shared_as_asked() -> None:
    a = generate_hotels(2000, seed=3, js_share=0.25, dead_share=0.1)
    assert a == generate_hotels(2000, seed=3, js_share=0.25, dead_share=0.1)
    assert a != generate_hotels(2000, seed=4, js_share=0.25, dead_share=0.1)
    kinds = Counter(h.site for h in a)
    assert kinds["js_only"] == 500
    assert sum(kinds[k] for k in DEAD_KINDS) == 200
    assert len({h.host for h in a}) == 2000
    w = World.demo().plus(World.synthetic(50, seed=1))
    assert len(w.hotels) == len(World.demo().hotels) + 50


def test_pages_render_for_every_synthetic_hotel() -> None:
    for h in generate_hotels(200, seed=1):
        for page in sitegen.PAGES:
            html = sitegen.render(h, page)
            assert html and html_escape(h.name) in html
        if h.site == "ok" and h.engine and h.engine.embed != "script":
            assert h.engine.url.split("?")[0].split("//")[1].split("/")[0] in sitegen.render(h, "")
        if h.site == "js_only":
            assert h.engine.url.split("/")[2] not in sitegen.render(h, "")


def test_model_answers_from_the_prompt() -> None:
    f = llm.extract("Welcome! Our boutique hotel has 36 guest rooms. The property is managed by Acme Hotels. "
                    "Free wifi and an outdoor pool. Jane Roe, General Manager - jane@x.test - (407) 555-0100")
    assert f["room_count"] == 36 and f["management_company"] == "Acme Hotels"
    assert f["property_type"] == "boutique_hotel" and not f["is_chain"]
    assert {"free wifi", "outdoor pool"} <= set(f["amenities"])
    assert f["contacts"] == [{"name": "Jane Roe", "title": "General Manager", "email": "jane@x.test",
                              "phone": "(407) 555-0100"}]
    assert llm.extract("Call (305) 555-0109 Rooms & suites")["room_count"] is None
    assert llm.extract("a member of the Best Western family")["brand"] == "Best Western"
    schema = {"type": "object", "properties": {"rooms": {"type": "integer"}, "is_independent": {"type": "boolean"}},
              "required": ["rooms", "is_independent"]}
    assert json.loads(llm.reply("We have twelve rooms.", schema)) == {"rooms": 12, "is_independent": True}
    assert json.loads(llm.reply("nothing here", schema)) == {"rooms": 0, "is_independent": True}
