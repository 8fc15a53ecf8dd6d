-- Licence discovery (discovery_licences.py): the region's loaded register files whose content is
-- not yet written as hotel_sources rows, their licences, and the mark that they were written.

-- name: files_to_discover
-- With rewrite, every loaded file of the region's registers (written again).
SELECT registry, url, file_hash FROM sadie_gtm.licence_files
 WHERE registry = ANY(%(registries)s) AND url = ANY(%(urls)s)
   AND (%(rewrite)s OR discovered_hash IS DISTINCT FROM file_hash)
 ORDER BY registry, url;

-- name: file_records
-- A file's licences as loaded (licence_records: shared with the licence_owners layer), cities
-- narrowed when %(cities)s (lower case) is given.
SELECT registry, licence_number, licence_type, status, business_name, licensee_name, address, city, state, zip,
       phone, source_url
  FROM sadie_gtm.licence_records
 WHERE registry = %(registry)s AND source_url = %(url)s
   AND (%(cities)s::text[] IS NULL OR lower(city) = ANY(%(cities)s))
 ORDER BY licence_number;

-- name: file_discovered
-- Only the content that was read: a file loaded again meanwhile is written by the next run.
UPDATE sadie_gtm.licence_files SET discovered_hash = file_hash, discovered_at = now()
 WHERE registry = %(registry)s AND url = %(url)s AND file_hash = %(file_hash)s;
