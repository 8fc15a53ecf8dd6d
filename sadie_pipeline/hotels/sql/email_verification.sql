-- E-mail verification (hotels/enrichment/email_verify.py): what the layer reads and writes.

-- name: stored_mx
SELECT hotel_id, mx_hosts FROM sadie_gtm.hotel_owner_enrichment WHERE hotel_id = ANY(%(hotel_ids)s);

-- name: decision_makers
SELECT id, hotel_id, full_name, email, email_status, email_reply
  FROM sadie_gtm.hotel_decision_makers WHERE hotel_id = ANY(%(hotel_ids)s) ORDER BY id;

-- name: set_status
-- A found address's status (and, when checked, the server's reply); skipped if the address
-- changed since it was read (another layer found a better one).
UPDATE sadie_gtm.hotel_decision_makers
   SET email_status = %(status)s, email_verified = %(verified)s,
       email_reply = CASE WHEN %(checked)s THEN %(reply)s ELSE email_reply END,
       email_checked_at = CASE WHEN %(checked)s THEN now() ELSE email_checked_at END, updated_at = now()
 WHERE id = %(id)s AND email IS NOT DISTINCT FROM %(email)s;

-- name: set_guess
-- A pattern guess for a person without a found address: verified (no longer a guess), kept as a
-- guess (not checked, catch-all, unknown) or removed when the mail server rejected it (email NULL,
-- status rejected, the reply naming the address).
UPDATE sadie_gtm.hotel_decision_makers
   SET email = %(email)s, email_status = %(status)s, email_verified = %(verified)s,
       email_reply = CASE WHEN %(checked)s THEN %(reply)s ELSE email_reply END,
       email_checked_at = CASE WHEN %(checked)s THEN now() ELSE email_checked_at END, updated_at = now()
 WHERE id = %(id)s AND (email IS NULL OR email_status = 'pattern_guess');
