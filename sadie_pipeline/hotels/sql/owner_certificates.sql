-- Certificate transparency (hotels/enrichment/certificates.py): what the layer compares with.

-- name: registered_orgs
-- The organisations RDAP, WHOIS and archived WHOIS registered each hotel's domain to, for the
-- cross-reference with the organisation on its OV/EV certificates.
SELECT hotel_id, registrant_org, whois_registrant_org, whois_history_org
  FROM sadie_gtm.hotel_owner_enrichment
 WHERE hotel_id = ANY(%(hotel_ids)s);
