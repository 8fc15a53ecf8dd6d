-- Issue 35 (hybrid: scrape here, enrich in the cloud): what `sadie sync pull` brought back, one row
-- per domain, in the local database. The cloud's results are objects (enriched/{region}/{domain}.json);
-- this table is their local copy for queries and exports, upserted on each pull (newest result wins).
-- depends: 0051_pending_enrichment

CREATE TABLE IF NOT EXISTS sadie_gtm.hybrid_results (
    domain       text PRIMARY KEY,
    region       text NOT NULL,
    name         text,
    city         text,
    website      text,
    state        text NOT NULL,          -- core/hybrid.IndexState: enriched | dead
    reason       text,                   -- why a dead site is dead
    engine       text,
    engine_tier  integer,
    booking_url  text,
    emails       text[] NOT NULL DEFAULT '{}',
    phones       text[] NOT NULL DEFAULT '{}',
    people       jsonb NOT NULL DEFAULT '[]',
    result_key   text NOT NULL,
    enriched_at  timestamptz NOT NULL,
    pulled_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS hybrid_results_region_idx ON sadie_gtm.hybrid_results (region);
