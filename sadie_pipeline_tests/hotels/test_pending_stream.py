"""The layers' pending hotels streamed through a bounded queue (issue 34 item 4, seed 001 Phase 2):
the queue never holds more than its chunks while slow workers work, every hotel is taken up exactly
once, the chunks add up to the whole pending set, and the pending query uses the partial index."""

from __future__ import annotations

import asyncio

import psycopg

from sadie_pipeline.core.enrichment.layers import LAYER_RDAP, LAYER_WHOIS
from sadie_pipeline.core.hotel_status import HotelStatus
from sadie_pipeline.hotels.enrichment import pending
from sadie_pipeline.hotels.enrichment.common import LayerConfig, explain_pending, hotels_needing
from sadie_pipeline.hotels.enrichment.pending import QueueStats, pending_chunk, pending_params, run_streamed
from sadie_pipeline.resources.outcomes import SkipItem


def _stream(n: int, chunk: int, queue_chunks: int, concurrency: int, delay_s: float = 0.0005):
    """Runs n fake hotels through run_streamed; what it held at most and what each hotel got."""
    read, finished, held = [0], [0], [0]
    calls: dict[int, int] = {}

    def read_chunk(after: int) -> list[dict]:
        rows = [{"id": i} for i in range(after + 1, min(after + chunk, n) + 1)]
        read[0] += len(rows)
        return rows

    async def work(hotel: dict) -> int:
        held[0] = max(held[0], read[0] - finished[0])  # hotels read and not yet done
        calls[hotel["id"]] = calls.get(hotel["id"], 0) + 1
        await asyncio.sleep(delay_s)  # a slow consumer: the producer is far faster
        finished[0] += 1
        if hotel["id"] % 97 == 0:
            raise SkipItem("not applicable")
        if hotel["id"] % 89 == 0:
            raise RuntimeError("boom")
        return hotel["id"] * 2

    stats = QueueStats()
    outcomes = asyncio.run(run_streamed(read_chunk, lambda rows: work, concurrency=concurrency,
                                        queue_chunks=queue_chunks, stats=stats))
    return stats, outcomes, calls, held[0]


def test_the_queue_bounds_what_is_held_and_each_hotel_runs_once():
    n, chunk, queue_chunks, concurrency = 3000, 50, 2, 8
    stats, outcomes, calls, held = _stream(n, chunk, queue_chunks, concurrency)
    assert stats.most_queued <= queue_chunks
    # queued chunks, the one the producer waits to put and the one the lanes work on, at most
    assert held <= (queue_chunks + 2) * chunk + concurrency, held
    assert stats.chunks == n // chunk and stats.hotels == n
    assert calls == {i: 1 for i in range(1, n + 1)}            # every hotel exactly once
    assert [o.item_key for o in outcomes] == [f"hotel:{i}" for i in range(1, n + 1)]  # in id order
    by_key = {o.item_key: o for o in outcomes}
    assert by_key["hotel:97"].status == "skipped" and by_key["hotel:89"].status == "dead_letter"
    assert by_key["hotel:10"].status == "ok" and by_key["hotel:10"].value == 20


def test_an_empty_region_and_one_chunk():
    stats, outcomes, calls, _ = _stream(0, 50, 2, 4)
    assert (stats.chunks, outcomes, calls) == (0, [], {})
    stats, outcomes, _, _ = _stream(7, 50, 1, 16)
    assert stats.chunks == 1 and len(outcomes) == 7


def _region(database, n: int) -> None:
    """n hotels over ten regions (a tenth in US-FL), most past enrichment or dead ends as in a
    deployment that has run a while, a fifth detected or enriched on an engine; a third with the
    RDAP layer done."""
    with database.connect() as conn:
        conn.execute("""INSERT INTO sadie_gtm.booking_engines (name, tier, signals) VALUES ('t1', 1, '{}'), ('t2', 2, '{}')
                        ON CONFLICT (name) DO NOTHING""")
        conn.execute("""INSERT INTO sadie_gtm.hotels (region, city, name, status)
                        SELECT (ARRAY['US-FL', 'US-GA', 'US-TX', 'US-CA', 'US-NY', 'US-NC', 'US-SC', 'US-AL',
                                      'US-TN', 'US-VA'])[1 + i %% 10], 'Miami', 'Hotel ' || i,
                               CASE WHEN i %% 5 = 1 THEN %s WHEN i %% 5 = 2 THEN %s WHEN i %% 5 = 3 THEN %s
                                    WHEN i %% 23 = 0 THEN %s ELSE %s END
                          FROM generate_series(1, %s) i""",
                     (HotelStatus.SCORED, HotelStatus.NO_BOOKING_ENGINE, HotelStatus.LIVE, HotelStatus.ENRICHED,
                      HotelStatus.DETECTED, n))
        conn.execute("""INSERT INTO sadie_gtm.hotel_booking_engines (hotel_id, booking_engine_id)
                        SELECT h.id, (SELECT id FROM sadie_gtm.booking_engines
                                       WHERE name = CASE WHEN h.id %% 13 = 0 THEN 't2' ELSE 't1' END)
                          FROM sadie_gtm.hotels h WHERE h.status IN (%s, %s, %s, %s)""",
                     (HotelStatus.DETECTED, HotelStatus.ENRICHED, HotelStatus.SCORED, HotelStatus.LIVE))
        conn.execute("""INSERT INTO sadie_gtm.hotel_owner_enrichment (hotel_id, layers_completed)
                        SELECT id, %s FROM sadie_gtm.hotels WHERE id %% 3 = 0""", (LAYER_RDAP,))
        for table in ("booking_engines", "hotel_booking_engines", "hotel_owner_enrichment"):
            conn.execute(f"ANALYZE sadie_gtm.{table}")
    with psycopg.connect(database.url, autocommit=True) as conn:  # as autovacuum keeps it: pages all-visible
        conn.execute("VACUUM ANALYZE sadie_gtm.hotels")


def test_chunks_add_up_to_the_pending_set_and_use_the_partial_index(database):
    _region(database, 50_000)
    config = LayerConfig()
    with database.connect() as conn:
        whole = hotels_needing(conn, "US-FL", LAYER_RDAP, config)
        chunks, after = [], 0
        while rows := pending_chunk(conn, pending_params("US-FL", LAYER_RDAP, "rdap_owner", config, after=after,
                                                         limit=333)):
            chunks += rows
            after = rows[-1]["id"]
        plan = explain_pending(conn, "US-FL", LAYER_RDAP, config)
        other_layer = hotels_needing(conn, "US-FL", LAYER_WHOIS, config)
    assert whole and chunks == whole
    assert all(h["layers_completed"] & LAYER_RDAP == 0 and h["region"] == "US-FL" for h in whole)
    assert len(other_layer) > len(whole)  # the RDAP-done third still needs WHOIS
    # the window is read from the partial index alone, in id order, stopping at the chunk's size
    window = "\n".join(plan[:plan.index("layer_pending:")])
    assert "Index Only Scan using hotels_pending_enrichment_idx" in window, plan
    assert pending.CHUNK_SIZE >= 100
