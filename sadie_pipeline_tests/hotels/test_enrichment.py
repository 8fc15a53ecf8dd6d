"""Enrichment layers for tier-1 hotels of the demo region, on the sandbox: room counts (Groq, or
the regex fallback without a key), proximity to DMO attractions, research (Anthropic), status 3 (ENRICHED);
and under injected faults no hotel is lost."""

from __future__ import annotations

import json

import pytest
from dagster import materialize

from sadie_pipeline.core.hotel_status import HotelStatus
from sadie_pipeline.hotels.enrichment.layer_assets import OWNER_LAYER_ASSETS
from sadie_pipeline.hotels.enrichment.proximity import attraction_proximity
from sadie_pipeline.hotels.enrichment.research import hotel_research
from sadie_pipeline.hotels.enrichment.room_counts import room_counts
from sadie_pipeline_tests.fixtures.sandbox import KEY
from sadie_pipeline_tests.hotels.conftest import DEMO, sandbox_resources

pytestmark = [pytest.mark.slow, pytest.mark.browser]
LAYERS = [room_counts, attraction_proximity, hotel_research]






def test_layers_complete_tier_one_hotels(detected, database, local_object_store, instance, sb, monkeypatch):
    for name in ("GROQ_API_KEY", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    result = materialize(LAYERS, partition_key="US-FL", instance=instance,
                         resources=sandbox_resources(database, local_object_store, sb))
    assert result.success
    with database.connect() as conn:
        rows = conn.execute(
            """SELECT h.name, h.status, e.room_count, e.room_count_source, e.property_type, e.layers_completed
                 FROM sadie_gtm.hotels h JOIN sadie_gtm.hotel_owner_enrichment e ON e.hotel_id = h.id""").fetchall()
    truth = {h["name"]: h for h in DEMO["hotels"]}
    homepages = " ".join(local_object_store.get_bytes(k).decode() for k in local_object_store.list_keys("website-content/")
                         if k.endswith(".txt"))
    assert rows
    # the seed's scoring needs contacts and e-mails too: the hotels wait until those layers ran
    assert {status for _, status, *_ in rows} == {HotelStatus.DETECTED}
    assert materialize(OWNER_LAYER_ASSETS, partition_key="US-FL", instance=instance,
                       resources=sandbox_resources(database, local_object_store, sb)).success
    with database.connect() as conn:
        statuses = dict(conn.execute("""SELECT h.name, h.status FROM sadie_gtm.hotels h
                                          JOIN sadie_gtm.hotel_owner_enrichment e ON e.hotel_id = h.id""").fetchall())
    for name, _status, rooms, source, property_type, _layers in rows:
        assert statuses[name] == HotelStatus.ENRICHED, name
        if truth[name].get("rooms_text") and truth[name]["rooms_text"] in homepages:
            assert rooms == truth[name]["rooms"] and source == "groq", (name, rooms, source)
        else:
            assert rooms is None, (name, rooms)     # never a guess when the page does not say
        assert property_type, name


def test_without_keys_room_count_falls_back_to_regex(detected, database, local_object_store, instance, sb,
                                                      monkeypatch):
    for name in ("GROQ_API_KEY", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    result = materialize(LAYERS, partition_key="US-FL", instance=instance,
                         resources=sandbox_resources(database, local_object_store, sb, keys=False))
    [research] = result.asset_materializations_for_node("hotel_research")
    assert "no API key" in research.metadata["skipped_reason"].value or "ANTHROPIC" in research.metadata["skipped_reason"].value
    with database.connect() as conn:
        sources = {r[0] for r in conn.execute("SELECT room_count_source FROM sadie_gtm.hotel_owner_enrichment")}
        statuses = {r[0] for r in conn.execute(
            "SELECT h.status FROM sadie_gtm.hotels h JOIN sadie_gtm.hotel_owner_enrichment e ON e.hotel_id = h.id")}
    assert "regex" in sources and "groq" not in sources
    assert statuses == {HotelStatus.DETECTED}  # enriched once their contacts are checked too


def _room_counts(database, store, instance, sb, force=False):
    config = {"ops": {"room_counts": {"config": {"force_refresh": force}}}}
    result = materialize([room_counts], partition_key="US-FL", instance=instance, run_config=config,
                         resources=sandbox_resources(database, store, sb))
    [mat] = result.asset_materializations_for_node("room_counts")
    return {k: v.value for k, v in mat.metadata.items()}


def test_faults_lose_no_hotel(detected, database, local_object_store, instance, sb):
    with database.connect() as conn:
        tier1 = conn.execute(
            """SELECT count(*) FROM sadie_gtm.hotels h JOIN sadie_gtm.hotel_booking_engines hbe ON hbe.hotel_id = h.id
                 JOIN sadie_gtm.booking_engines be ON be.id = hbe.booking_engine_id
                WHERE be.tier = 1 AND h.website_content_s3_path IS NOT NULL""").fetchone()[0]
    assert tier1 >= 2

    sb.configure("groq", error_rate=1.0)                 # every call a 5xx: retried, then dead-lettered
    meta = _room_counts(database, local_object_store, instance, sb)
    # Each hotel is dead-lettered after 3 attempts, or skipped once the breaker opened: none is lost.
    assert meta["hotels"] == tier1 and meta["ok"] == 0
    assert meta["dead_lettered"] + meta["skipped"] == tier1 and meta["dead_lettered"] >= 1
    assert set(meta["skipped_by_reason"]) <= {r for r in meta["skipped_by_reason"] if "breaker" in r}
    with database.connect() as conn:
        dead = conn.execute("SELECT count(*), min(attempts), min(error_class) "
                            "FROM pipeline.dead_letters WHERE layer = 'room_counts'").fetchone()
    assert dead == (meta["dead_lettered"], 3, "transient")
    assert KEY not in json.dumps({k: v for k, v in meta.items() if k != "dagster/column_schema"}, default=str)

    sb.configure("groq", error_rate=0.0, rate_limit=(1, 1))   # 429 + Retry-After: waited out, all succeed
    meta = _room_counts(database, local_object_store, instance, sb)
    assert (meta["hotels"], meta["ok"]) == (tier1, tier1)
    assert sb.stats("groq")["rate_limited"] > 0
    with database.connect() as conn:
        assert conn.execute("SELECT count(*) FROM pipeline.dead_letters WHERE layer = 'room_counts' "
                            "AND resolved_at IS NULL").fetchone()[0] == 0
