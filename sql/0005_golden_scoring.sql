-- Hotel leads, the action tier (seeds 000 and 001): golden records with field provenance, scores,
-- launches, exports, the audit trail of every status change, and the pipeline status view.
-- depends: 0004_hotel_leads

ALTER TABLE sadie_gtm.hotels
    ADD COLUMN IF NOT EXISTS score             integer CHECK (score BETWEEN 0 AND 100),
    ADD COLUMN IF NOT EXISTS score_details     jsonb,
    ADD COLUMN IF NOT EXISTS scored_at         timestamptz,
    ADD COLUMN IF NOT EXISTS launched_at       timestamptz,
    ADD COLUMN IF NOT EXISTS launch_rejections text[],
    ADD COLUMN IF NOT EXISTS exported_at       timestamptz;
CREATE INDEX IF NOT EXISTS hotels_region_city_idx ON sadie_gtm.hotels (region, city);
-- Each stage moves 100k hotels' status at once: with no index on status and room left on each
-- page, those updates are HOT (no index entries rewritten). Region filters use the index above.
DROP INDEX IF EXISTS sadie_gtm.hotels_region_status_idx;
ALTER TABLE sadie_gtm.hotels SET (fillfactor = 70);

-- A decision maker found twice under different titles or as a first name only ("Maria") is
-- merged into the fuller row by the golden record; the absorbed row stays, pointing at it.
ALTER TABLE sadie_gtm.hotel_decision_makers
    ADD COLUMN IF NOT EXISTS merged_into integer REFERENCES sadie_gtm.hotel_decision_makers (id);

-- One golden record per hotel: each field's best value by source priority and confidence.
CREATE TABLE IF NOT EXISTS sadie_gtm.golden_hotels (
    hotel_id             integer PRIMARY KEY REFERENCES sadie_gtm.hotels (id),
    region               text NOT NULL,
    name                 text,
    address              text,
    city                 text,
    state                text,
    zip                  text,
    phone                text,
    website              text,
    email                text,
    contact_name         text,
    contact_title        text,
    contact_dm_id        integer REFERENCES sadie_gtm.hotel_decision_makers (id),
    room_count           integer,
    management_company   text,
    property_type        text,
    chain_or_independent text,
    rating               numeric(3, 2),
    review_count         integer,
    field_sources        jsonb NOT NULL DEFAULT '{}',   -- field -> {source, confidence, sources}
    filled_fields        integer NOT NULL DEFAULT 0,
    total_fields         integer NOT NULL DEFAULT 0,
    record_hash          text NOT NULL,
    updated_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS golden_hotels_region_city_idx ON sadie_gtm.golden_hotels (region, city);

-- Seed 001's field-level provenance: every value a source gave for a field. The golden value's
-- row has superseded_at NULL; a value that lost (or later lost) to another points at the winner.
CREATE TABLE IF NOT EXISTS sadie_gtm.field_provenance (
    id            bigserial PRIMARY KEY,
    hotel_id      integer NOT NULL REFERENCES sadie_gtm.hotels (id),
    dm_id         integer REFERENCES sadie_gtm.hotel_decision_makers (id),
    field_name    text NOT NULL,
    field_value   text,
    source        text NOT NULL,
    confidence    double precision NOT NULL,
    source_url    text,
    extracted_at  timestamptz DEFAULT now(),
    superseded_at timestamptz,
    superseded_by bigint REFERENCES sadie_gtm.field_provenance (id)
);
CREATE INDEX IF NOT EXISTS idx_provenance_hotel ON sadie_gtm.field_provenance (hotel_id, field_name);
CREATE INDEX IF NOT EXISTS idx_provenance_dm ON sadie_gtm.field_provenance (dm_id, field_name);
CREATE UNIQUE INDEX IF NOT EXISTS field_provenance_value_uq
    ON sadie_gtm.field_provenance (hotel_id, field_name, source, md5(coalesce(field_value, '')));

-- One row per file written; an export whose data digest equals the latest one is skipped.
CREATE TABLE IF NOT EXISTS sadie_gtm.lead_exports (
    id              bigserial PRIMARY KEY,
    region          text NOT NULL,
    scope           text NOT NULL CHECK (scope IN ('city', 'state')),
    city            text NOT NULL DEFAULT '',
    object_key      text NOT NULL,
    remote_path     text,
    web_url         text,
    upload_method   text,
    digest          text NOT NULL,
    hotels          integer NOT NULL,
    decision_makers integer NOT NULL,
    bytes           bigint NOT NULL,
    slack_ts        text,
    exported_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS lead_exports_file_idx ON sadie_gtm.lead_exports (region, scope, city, exported_at DESC);

-- Seed 000's audit trail: a row for every hotel status change, written by triggers. Statement
-- triggers with transition tables keep set-based updates of 100k hotels set-based.
CREATE TABLE IF NOT EXISTS sadie_gtm.audit_log (
    id          bigserial PRIMARY KEY,
    hotel_id    integer NOT NULL,
    old_status  integer,
    new_status  integer NOT NULL,
    changed_at  timestamptz NOT NULL DEFAULT now(),
    changed_by  text      -- the Dagster run (SET LOCAL sadie.actor) or the database role
);
CREATE INDEX IF NOT EXISTS audit_log_hotel_idx ON sadie_gtm.audit_log (hotel_id, changed_at);

CREATE OR REPLACE FUNCTION sadie_gtm.audit_actor() RETURNS text LANGUAGE sql STABLE AS $$
    SELECT coalesce(nullif(current_setting('sadie.actor', true), ''), current_user::text)
$$;

CREATE OR REPLACE FUNCTION sadie_gtm.audit_hotel_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO sadie_gtm.audit_log (hotel_id, old_status, new_status, changed_by)
    SELECT n.id, NULL, n.status, sadie_gtm.audit_actor() FROM new_rows n;
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION sadie_gtm.audit_hotel_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO sadie_gtm.audit_log (hotel_id, old_status, new_status, changed_by)
    SELECT n.id, o.status, n.status, sadie_gtm.audit_actor()
      FROM new_rows n JOIN old_rows o ON o.id = n.id
     WHERE o.status IS DISTINCT FROM n.status;
    RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS hotels_audit_insert ON sadie_gtm.hotels;
CREATE TRIGGER hotels_audit_insert AFTER INSERT ON sadie_gtm.hotels
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sadie_gtm.audit_hotel_insert();
DROP TRIGGER IF EXISTS hotels_audit_update ON sadie_gtm.hotels;
CREATE TRIGGER hotels_audit_update AFTER UPDATE ON sadie_gtm.hotels
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION sadie_gtm.audit_hotel_update();

-- Seed 001's pipeline_stage per hotel, on this platform's statuses (seed 000: 0 scraped,
-- 1 detected, 3 enriched, 4 scored, 5 live, 6 exported, 99 no booking engine).
CREATE OR REPLACE VIEW sadie_gtm.hotel_pipeline_status AS
SELECT h.id,
       h.name,
       h.region,
       h.city,
       h.status,
       CASE
           WHEN h.status = 99 THEN 'no_booking_engine'
           WHEN h.status = 6 THEN 'exported'
           WHEN h.status = 5 THEN 'launched'
           WHEN h.status = 4 THEN 'scored'
           WHEN h.status = 0 THEN 'scraped'
           WHEN be.tier = 2 THEN 'awaiting_score'
           WHEN hoe.hotel_id IS NULL THEN 'pending_enrichment'
           WHEN h.status = 1 THEN 'enriching'
           WHEN coalesce(hdm.dm_count, 0) = 0 THEN 'enriched_no_contacts'
           WHEN hdm.verified_count = 0 THEN 'enriched_unverified'
           ELSE 'enriched_verified'
       END AS pipeline_stage,
       be.tier,
       hoe.layers_completed,
       coalesce(hdm.dm_count, 0) AS dm_count,
       coalesce(hdm.verified_count, 0) AS verified_count,
       h.score,
       h.updated_at
  FROM sadie_gtm.hotels h
  LEFT JOIN sadie_gtm.hotel_owner_enrichment hoe ON hoe.hotel_id = h.id
  LEFT JOIN sadie_gtm.hotel_booking_engines hbe ON hbe.hotel_id = h.id
  LEFT JOIN sadie_gtm.booking_engines be ON be.id = hbe.booking_engine_id
  LEFT JOIN LATERAL (
      SELECT count(*) AS dm_count,
             count(*) FILTER (WHERE d.email_verified) AS verified_count
        FROM sadie_gtm.hotel_decision_makers d
       WHERE d.hotel_id = h.id AND d.merged_into IS NULL
  ) hdm ON true;
