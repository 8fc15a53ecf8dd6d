-- Issue 32, item 4: exact matching stages before the place engine (seed 001, section 3).
-- * hotel_booking_engines.client_id: the property's id at its engine, read from the detected
--   booking URL (core/booking/client_ids.py); client_id_matched_at: when client_id_matches last
--   matched the row (NULL: detected since, to be matched; detection resets it when the engine or the
--   client id changes).
-- * hotel_merges: every merge with the stage that made it (core/entity_stages.py MergeStage), the
--   two hotel_sources rows it joined (source_id_a < source_id_b), one row per pair.
-- depends: 0041_licence_records

ALTER TABLE sadie_gtm.hotel_booking_engines
    ADD COLUMN IF NOT EXISTS client_id text,
    ADD COLUMN IF NOT EXISTS client_id_matched_at timestamptz;

CREATE INDEX IF NOT EXISTS hotel_booking_engines_client_idx
    ON sadie_gtm.hotel_booking_engines (booking_engine_id, client_id) WHERE client_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS hotel_booking_engines_unmatched_idx
    ON sadie_gtm.hotel_booking_engines (hotel_id)
    WHERE booking_engine_id IS NOT NULL AND client_id_matched_at IS NULL;

-- engine_client rows (and any record that knows them) carry booking_engine and client_id
CREATE INDEX IF NOT EXISTS hotel_sources_client_idx
    ON sadie_gtm.hotel_sources (lower(record ->> 'booking_engine'), lower(record ->> 'client_id'))
    WHERE record ? 'client_id';

CREATE TABLE IF NOT EXISTS sadie_gtm.hotel_merges (
    id              bigserial PRIMARY KEY,
    region          text NOT NULL,
    hotel_id        integer REFERENCES sadie_gtm.hotels (id),   -- the hotel both rows are on
    merged_hotel_id integer REFERENCES sadie_gtm.hotels (id),   -- the hotel marked DUPLICATE, if any
    source_id_a     bigint NOT NULL REFERENCES sadie_gtm.hotel_sources (id),
    source_id_b     bigint NOT NULL REFERENCES sadie_gtm.hotel_sources (id),
    stage           text NOT NULL CHECK (stage IN ('decision', 'place_id', 'source_id', 'client_id',
                                                   'name_city_engine', 'place_engine')),
    booking_engine  text,
    client_id       text,
    merged_at       timestamptz NOT NULL DEFAULT now(),
    CHECK (source_id_a < source_id_b),
    UNIQUE (source_id_a, source_id_b)
);
CREATE INDEX IF NOT EXISTS hotel_merges_region_stage_idx ON sadie_gtm.hotel_merges (region, stage);
CREATE INDEX IF NOT EXISTS hotel_merges_hotel_idx ON sadie_gtm.hotel_merges (hotel_id);
