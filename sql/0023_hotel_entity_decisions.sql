-- People's decisions on hotel entity review pairs (issue 15, part 2): `sadie hotel review approve`
-- (merge: the same hotel) or `reject` (separate: two hotels), who decided and when. A decision is
-- keyed by its pair of hotel_sources rows, so hotel_entities applies it on every later run.
-- The values of `decision` are ReviewDecision's (hotels/entity_reviews.py); a test keeps them alike.
-- depends: 0020_listings_state_model

-- 0021 adds the explanation too; IF NOT EXISTS lets the two apply in either order.
ALTER TABLE sadie_gtm.hotel_entity_reviews
    ADD COLUMN IF NOT EXISTS explanation jsonb,
    ADD COLUMN IF NOT EXISTS decided_by  text,
    ADD COLUMN IF NOT EXISTS decided_at  timestamptz;

ALTER TABLE sadie_gtm.hotel_entity_reviews
    ADD CONSTRAINT hotel_entity_reviews_decision_check CHECK (decision IN ('merge', 'separate')),
    ADD CONSTRAINT hotel_entity_reviews_decided_check
        CHECK ((decision IS NULL) = (decided_at IS NULL) AND (decision IS NULL) = (decided_by IS NULL)),
    ADD CONSTRAINT hotel_entity_reviews_pair_order_check CHECK (source_id_a < source_id_b);

-- The queue (`review list`) and each run's look-up of decisions.
CREATE INDEX IF NOT EXISTS hotel_entity_reviews_pending_idx
    ON sadie_gtm.hotel_entity_reviews (source_id_a) WHERE decision IS NULL;
CREATE INDEX IF NOT EXISTS hotel_entity_reviews_decided_idx
    ON sadie_gtm.hotel_entity_reviews (source_id_a) WHERE decision IS NOT NULL;
