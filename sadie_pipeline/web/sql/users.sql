-- Web users and API keys (users.py). Passwords are argon2 hashes; API keys sha256 digests.

-- name: add
INSERT INTO pipeline.web_users (name, password_hash, role, dmos)
VALUES (%(name)s, %(hash)s, %(role)s, %(dmos)s)
ON CONFLICT (name) DO UPDATE SET password_hash = EXCLUDED.password_hash, role = EXCLUDED.role, dmos = EXCLUDED.dmos
RETURNING id;

-- name: unknown_dmos
SELECT s FROM unnest(%(dmos)s::text[]) s WHERE NOT EXISTS (SELECT 1 FROM public.dmos d WHERE d.slug = s) ORDER BY s;

-- name: list
SELECT id, name, role, dmos, created_at FROM pipeline.web_users ORDER BY name;

-- name: remove
DELETE FROM pipeline.web_users WHERE name = %(name)s RETURNING id;

-- name: by_name
SELECT id, name, role, dmos, password_hash FROM pipeline.web_users WHERE name = %(name)s;

-- name: by_id
SELECT id, name, role, dmos, password_hash FROM pipeline.web_users WHERE id = %(id)s;

-- name: rehash
UPDATE pipeline.web_users SET password_hash = %(hash)s WHERE id = %(id)s;

-- name: add_key
INSERT INTO pipeline.api_keys (name, key_hash, requests_per_minute) VALUES (%(name)s, %(hash)s, %(rpm)s) RETURNING id;

-- name: list_keys
SELECT id, name, requests_per_minute, created_at, revoked_at FROM pipeline.api_keys ORDER BY name;

-- name: revoke_key
UPDATE pipeline.api_keys SET revoked_at = now() WHERE name = %(name)s AND revoked_at IS NULL RETURNING id;

-- name: key_by_hash
SELECT id, name, requests_per_minute FROM pipeline.api_keys WHERE key_hash = %(hash)s AND revoked_at IS NULL;
