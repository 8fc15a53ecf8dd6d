"""benchmarks/web.py's hotels: 20,000 scored hotels as the enrichment layers leave them (engine,
owner enrichment, decision makers with e-mail states), written with SQL, then merged into golden
records and scored by the pipeline's own functions (hotels/golden.py, hotels/scoring.py), so that
the leads page reads what a real region holds."""

from __future__ import annotations

from typing import Any

REGIONS = ("US-FL", "US-GA")
CITIES = ("Miami", "Orlando", "Tampa", "Naples", "Destin", "Savannah", "Atlanta", "Macon", "Athens", "Augusta")

HOTELS = """
INSERT INTO sadie_gtm.hotels (region, city, name, state, website, rating, review_count, status)
SELECT (%(regions)s::text[])[1 + (g %% 10) / 5], (%(cities)s::text[])[1 + g %% 10],
       'Bench Hotel ' || g, split_part((%(regions)s::text[])[1 + (g %% 10) / 5], '-', 2),
       'https://www.benchhotel' || g || '.com/', 3.0 + (g %% 20) / 10.0, 10 + g %% 900, %(enriched)s
  FROM generate_series(1, %(n)s) g;
INSERT INTO sadie_gtm.hotel_booking_engines (hotel_id, booking_engine_id, booking_url, detection_method, confidence)
SELECT h.id, (%(engines)s::int[])[1 + h.id %% cardinality(%(engines)s::int[])],
       'https://book.example.com/' || h.id, 'script_src', 0.9
  FROM sadie_gtm.hotels h;
INSERT INTO sadie_gtm.hotel_owner_enrichment (hotel_id, layers_completed, room_count, room_count_source,
       property_type, chain_or_independent, management_company, layer_updated_at)
SELECT h.id, %(layers)s, 10 + h.id %% 190, 'groq', 'boutique hotel',
       CASE WHEN h.id %% 7 = 0 THEN 'chain' ELSE 'independent' END,
       CASE WHEN h.id %% 3 = 0 THEN 'Coastal Hospitality ' || h.id %% 50 END,
       '{"room_counts": "2026-11-20T10:00:00+00:00", "rdap_owner": "2026-11-20T10:00:00+00:00"}'
  FROM sadie_gtm.hotels h;
INSERT INTO sadie_gtm.hotel_decision_makers (hotel_id, full_name, title, email, email_status, email_verified,
       sources, confidence, raw_source_url)
SELECT h.id, 'Owner ' || h.id, CASE WHEN h.id %% 2 = 0 THEN 'Owner' ELSE 'General Manager' END,
       'gm' || h.id || '@benchhotel' || h.id || '.com',
       (ARRAY['verified', 'catch_all', 'guessed'])[1 + h.id %% 3], h.id %% 3 = 0, ARRAY['website_scrape'], 0.7,
       h.website || 'team'
  FROM sadie_gtm.hotels h WHERE h.id %% 5 <> 0
"""


def generate_hotels(database: Any, n: int) -> None:
    """n hotels in REGIONS, merged and scored; leaves them SCORED (what the next launch decides)."""
    from sadie_pipeline.core.enrichment.layers import ENRICHED_REQUIRED, OWNER_LAYERS
    from sadie_pipeline.core.hotel_status import HotelStatus
    from sadie_pipeline.core.scoring import ScoreWeights
    from sadie_pipeline.hotels.golden import GoldenResult, build_golden, golden_hotel_ids
    from sadie_pipeline.hotels.scoring import ScoreResult, score_regions
    from sadie_pipeline.hotels.websites import seed_booking_engines

    with database.connect() as conn:
        engines = sorted(set(seed_booking_engines(conn).values()))[:40]
        for statement in HOTELS.split(";\n"):
            conn.execute(statement, {"n": n, "regions": list(REGIONS), "cities": list(CITIES), "engines": engines,
                                     "enriched": HotelStatus.ENRICHED, "layers": ENRICHED_REQUIRED | OWNER_LAYERS})
    for region in REGIONS:  # one transaction per region, as the golden asset runs
        with database.connect() as conn:
            build_golden(conn, region, golden_hotel_ids(conn, region), GoldenResult())
    score_regions(database, list(REGIONS), ScoreWeights(), ScoreResult())
