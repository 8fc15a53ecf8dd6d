-- Issue 31: government lodging licence registers (FL DBPR public lodging extracts, TX hotel
-- occupancy tax receipts, any state configured in sadie_pipeline/data/licence_registers.json).
-- Records are kept as the register gives them, whatever reads them: the licence_owners layer
-- matches them to hotels; discovery may read them as a lodging source (issue 32).
-- depends: 0040_owner_layers

CREATE TABLE IF NOT EXISTS sadie_gtm.licence_records (
    registry         text NOT NULL,          -- the config's id, e.g. fl_dbpr_lodging
    licence_number   text NOT NULL,
    region           text NOT NULL,          -- e.g. US-FL
    licence_type     text,                   -- the register's rank / type code
    status           text,
    business_name    text,                   -- the establishment (DBA, location name)
    licensee_name    text,                   -- the licensed business (usually a company)
    owner_name       text,                   -- a person named as owner / principal / officer
    address          text,                   -- the establishment's street address as written
    city             text,
    state            text,
    zip              text,
    county           text,
    phone            text,
    mailing_address  text,
    rooms            integer,
    source_url       text NOT NULL,          -- the file the record came from
    file_hash        text NOT NULL,          -- sha256 of that file as loaded
    loaded_at        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (registry, licence_number)
);
CREATE INDEX IF NOT EXISTS licence_records_region_idx ON sadie_gtm.licence_records (region);
CREATE INDEX IF NOT EXISTS licence_records_source_idx ON sadie_gtm.licence_records (registry, source_url);

-- One row per register file: what was loaded from it and when, so an unchanged file (same hash)
-- is not loaded again and a fresh one is not even downloaded.
CREATE TABLE IF NOT EXISTS sadie_gtm.licence_files (
    registry    text NOT NULL,
    url         text NOT NULL,
    file_hash   text NOT NULL,
    bytes       bigint NOT NULL,
    rows_read   integer NOT NULL,
    records     integer NOT NULL,
    filtered    integer NOT NULL,
    loaded_at   timestamptz NOT NULL DEFAULT now(),   -- when its records were (re)written
    checked_at  timestamptz NOT NULL DEFAULT now(),   -- when it was last downloaded
    PRIMARY KEY (registry, url)
);
