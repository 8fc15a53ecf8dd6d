-- Issue 33: a salesperson approves, holds or rejects a lead before the 06:00 launch, and the launch
-- honours it; every decision is a row (the newest per hotel counts, 'cleared' takes one back).
-- depends: 0045_sales_role

CREATE TABLE IF NOT EXISTS sadie_gtm.lead_decisions (
    id         bigserial PRIMARY KEY,
    hotel_id   integer NOT NULL REFERENCES sadie_gtm.hotels (id) ON DELETE CASCADE,
    decision   text NOT NULL CHECK (decision IN ('approved', 'held', 'rejected', 'cleared')),
    reason     text CHECK (reason IS NULL OR length(reason) <= 500),
    decided_by text NOT NULL,
    decided_at timestamptz NOT NULL DEFAULT now(),
    held_for   date,                    -- the launch date a hold skips; undecided again after it
    applied_at timestamptz,             -- when a launch acted on it, which run, over which reasons
    applied_by text,
    overrode   text[],
    CONSTRAINT lead_decisions_reason_needed
        CHECK (decision NOT IN ('held', 'rejected') OR coalesce(btrim(reason), '') <> ''),
    CONSTRAINT lead_decisions_hold_date CHECK ((decision = 'held') = (held_for IS NOT NULL))
);
-- The newest decision of a hotel (launch and leads page), and its history (hotel page).
CREATE INDEX IF NOT EXISTS lead_decisions_hotel_idx ON sadie_gtm.lead_decisions (hotel_id, decided_at DESC, id DESC);

-- The leads page: a page of a region's (or a city's) leads in page order, best score first, read
-- off this index and stopped at the page's end (keyset), whatever the region's size. Status stays
-- unindexed: the launch and the export move statuses alone, and those updates stay HOT (0005).
CREATE INDEX IF NOT EXISTS hotels_leads_order_idx
    ON sadie_gtm.hotels (region, (coalesce(city, '')), (-coalesce(score, -1)), id);
-- The filters: engine, verified e-mail and the name/domain search.
CREATE INDEX IF NOT EXISTS hotel_booking_engines_engine_idx ON sadie_gtm.hotel_booking_engines (booking_engine_id);
CREATE INDEX IF NOT EXISTS hotel_decision_makers_verified_idx ON sadie_gtm.hotel_decision_makers (hotel_id)
    WHERE email_verified AND merged_into IS NULL;
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
        CREATE EXTENSION IF NOT EXISTS pg_trgm;
        CREATE INDEX IF NOT EXISTS hotels_name_trgm_idx ON sadie_gtm.hotels USING gin (lower(name) gin_trgm_ops);
        CREATE INDEX IF NOT EXISTS hotels_website_trgm_idx ON sadie_gtm.hotels USING gin (lower(website) gin_trgm_ops);
    END IF;
END $$;
