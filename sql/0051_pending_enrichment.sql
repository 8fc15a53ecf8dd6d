-- Issue 34 (the hotel side at volume, seed 001 Phase 2): the enrichment layers read their pending
-- hotels in keyset chunks (hotels/sql/pending.sql: region, status DETECTED or ENRICHED, id after the
-- last chunk, in id order). This partial index holds only those hotels, in that order, so a chunk
-- reads its rows and no more, however many hotels the region has past or before enrichment. The
-- statuses are HotelStatus.DETECTED (1) and ENRICHED (3) (core/hotel_status.py DETECTED_OR_ENRICHED).
-- depends: 0004_hotel_leads

CREATE INDEX IF NOT EXISTS hotels_pending_enrichment_idx ON sadie_gtm.hotels (region, id)
    WHERE status IN (1, 3);
