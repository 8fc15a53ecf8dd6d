-- Issue 33 (apps: clean data per DMO): an API key may belong to one DMO, whose listings and visibility
-- alone it reads (/v1/listings); a listing may be archived, hidden for every DMO, which no import
-- undoes (only unarchive does); and the scoped API's lookups are indexed.
-- depends: 0045_sales_role

-- NULL: every DMO (the company's own apps). A slug rather than a foreign key: users.py checks it
-- exists when the key is made, and the key's lookup ignores a key whose DMO is gone (so deleting a
-- DMO never widens a key to every DMO, nor needs its keys revoked first).
ALTER TABLE pipeline.api_keys ADD COLUMN IF NOT EXISTS dmo text;

-- listings/states.py ListingStatus: the values listing_status takes (none was checked before; NOT
-- VALID: rows written before are left as they are, every new value is checked).
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'listings_listing_status_check'
                      AND conrelid = 'public.listings'::regclass) THEN
        ALTER TABLE public.listings ADD CONSTRAINT listings_listing_status_check
            CHECK (listing_status IN ('active', 'hidden', 'missing_from_import', 'merged', 'archived')) NOT VALID;
    END IF;
END $$;

-- An archived listing stays archived whatever else writes its row: a promotion (update_listings
-- shows a listing again, soft_delete marks it missing), a restore or a visibility change. Those
-- writes keep their other columns; a person's hand change (it stamps manually_modified_at) is
-- skipped whole, so it reports nothing done. Only curation.unarchive (which sets sadie.unarchive
-- for its transaction) and a merge take a listing out of 'archived'.
CREATE OR REPLACE FUNCTION pipeline.keep_archived() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('sadie.unarchive', true) = 'on' THEN
        RETURN NEW;
    END IF;
    IF NEW.manually_modified_at IS DISTINCT FROM OLD.manually_modified_at THEN
        RETURN NULL;
    END IF;
    NEW.listing_status := 'archived';
    NEW.listing_visible := OLD.listing_visible;
    RETURN NEW;
END $$;

DROP TRIGGER IF EXISTS listings_keep_archived ON public.listings;
CREATE TRIGGER listings_keep_archived BEFORE UPDATE OF listing_status, listing_visible ON public.listings
    FOR EACH ROW WHEN (OLD.listing_status = 'archived' AND NEW.listing_status NOT IN ('archived', 'merged'))
    EXECUTE FUNCTION pipeline.keep_archived();

-- A DMO key's listings: that DMO's visible records by listing (the API pages by listing id).
CREATE INDEX IF NOT EXISTS listing_info_dmo_listing_visible_idx ON public.listing_info (dmo_id, listing_id)
    WHERE info_visible;
-- The images the API serves: a record's stored ones.
CREATE INDEX IF NOT EXISTS listing_images_served_idx ON public.listing_images (listing_info_id, rank, id)
    WHERE image_status = 'ok';
-- Records a pulled source has not shown for a while (listings/staleness.py), per DMO.
CREATE INDEX IF NOT EXISTS listing_info_dmo_last_seen_idx ON public.listing_info (dmo_id, last_seen_at)
    WHERE info_visible;
