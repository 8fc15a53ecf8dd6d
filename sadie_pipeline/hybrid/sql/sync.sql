-- name: upsert_result
-- A pulled result (sync.py); an older result never replaces a newer one.
INSERT INTO sadie_gtm.hybrid_results AS r (domain, region, name, city, website, state, reason, engine, engine_tier,
                                           booking_url, emails, phones, people, result_key, enriched_at, pulled_at)
VALUES (%(domain)s, %(region)s, %(name)s, %(city)s, %(website)s, %(state)s, %(reason)s, %(engine)s, %(engine_tier)s,
        %(booking_url)s, %(emails)s, %(phones)s, %(people)s, %(result_key)s, %(enriched_at)s, now())
ON CONFLICT (domain) DO UPDATE
   SET region = EXCLUDED.region, name = EXCLUDED.name, city = EXCLUDED.city, website = EXCLUDED.website,
       state = EXCLUDED.state, reason = EXCLUDED.reason, engine = EXCLUDED.engine,
       engine_tier = EXCLUDED.engine_tier, booking_url = EXCLUDED.booking_url, emails = EXCLUDED.emails,
       phones = EXCLUDED.phones, people = EXCLUDED.people, result_key = EXCLUDED.result_key,
       enriched_at = EXCLUDED.enriched_at, pulled_at = now()
 WHERE r.enriched_at <= EXCLUDED.enriched_at;
