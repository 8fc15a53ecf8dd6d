-- Web users and API keys (users.py). Passwords are argon2 hashes; API keys sha256 digests.

-- name: add
-- A new user, or an existing one with a new password: a new password ends its sessions, as does a
-- change of role, DMOs or grants (session_version).
INSERT INTO pipeline.web_users AS u (name, password_hash, role, dmos, grants)
VALUES (%(name)s, %(hash)s, %(role)s, %(dmos)s, %(grants)s)
ON CONFLICT (name) DO UPDATE
   SET password_hash = EXCLUDED.password_hash, role = EXCLUDED.role, dmos = EXCLUDED.dmos, grants = EXCLUDED.grants,
       session_version = u.session_version + 1
RETURNING id, session_version;

-- name: change
-- An existing user's role, DMOs and grants, its password kept; its sessions end only when they change.
UPDATE pipeline.web_users u
   SET role = %(role)s, dmos = %(dmos)s, grants = %(grants)s,
       session_version = u.session_version
           + CASE WHEN (u.role, u.dmos, u.grants) IS DISTINCT FROM (%(role)s::text, %(dmos)s::text[], %(grants)s::text[])
                  THEN 1 ELSE 0 END
 WHERE u.name = %(name)s
RETURNING id, session_version;

-- name: unknown_dmos
SELECT s FROM unnest(%(dmos)s::text[]) s WHERE NOT EXISTS (SELECT 1 FROM public.dmos d WHERE d.slug = s) ORDER BY s;

-- name: list
SELECT id, name, role, dmos, grants, created_at FROM pipeline.web_users ORDER BY name;

-- name: remove
DELETE FROM pipeline.web_users WHERE name = %(name)s RETURNING id;

-- name: by_name
SELECT id, name, role, dmos, grants, session_version, password_hash FROM pipeline.web_users WHERE name = %(name)s;

-- name: by_id
SELECT id, name, role, dmos, grants, session_version, password_hash FROM pipeline.web_users WHERE id = %(id)s;

-- name: rehash
UPDATE pipeline.web_users SET password_hash = %(hash)s WHERE id = %(id)s;

-- name: add_key
INSERT INTO pipeline.api_keys (name, key_hash, requests_per_minute, dmo) VALUES (%(name)s, %(hash)s, %(rpm)s, %(dmo)s)
RETURNING id;

-- name: list_keys
SELECT id, name, requests_per_minute, dmo, created_at, revoked_at FROM pipeline.api_keys ORDER BY name;

-- name: revoke_key
UPDATE pipeline.api_keys SET revoked_at = now() WHERE name = %(name)s AND revoked_at IS NULL RETURNING id;

-- name: key_by_hash
-- A DMO's key whose DMO is gone reads nothing: it is no key (never a key of every DMO).
SELECT k.id, k.name, k.requests_per_minute, k.dmo, d.id AS dmo_id
  FROM pipeline.api_keys k LEFT JOIN public.dmos d ON d.slug = k.dmo
 WHERE k.key_hash = %(hash)s AND k.revoked_at IS NULL AND (k.dmo IS NULL OR d.id IS NOT NULL);

-- name: forget_key
-- The demo's key, replaced on every demo run (a revoked key keeps its name otherwise).
DELETE FROM pipeline.api_keys WHERE name = %(name)s;
