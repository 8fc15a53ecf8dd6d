-- The WHOIS layers (hotels/enrichment/whois.py).

-- name: current_records
-- What RDAP and WHOIS found of each hotel's current registration: WHOIS history runs only where it
-- was privacy-masked or absent (no registrant organisation, nobody named by either).
SELECT e.hotel_id, e.whois_privacy, e.whois_registrant_org, e.registrant_org,
       EXISTS (SELECT 1 FROM sadie_gtm.hotel_decision_makers d
                WHERE d.hotel_id = e.hotel_id AND d.sources && ARRAY['rdap', 'whois']::text[]) AS registrant_named
  FROM sadie_gtm.hotel_owner_enrichment e
 WHERE e.hotel_id = ANY(%(hotel_ids)s);
