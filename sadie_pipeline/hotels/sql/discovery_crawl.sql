-- Common Crawl discovery's scan progress (discovery_crawl.py; table in sql/0043_crawl_discovery.sql).

-- name: start_scan
INSERT INTO sadie_gtm.crawl_discovery_scans (crawl_id, query_key, scanned_for)
VALUES (%(crawl_id)s, %(query_key)s, %(region)s)
ON CONFLICT (crawl_id, query_key) DO NOTHING;

-- name: scan_state
SELECT pages, next_page, finished_at IS NOT NULL
  FROM sadie_gtm.crawl_discovery_scans
 WHERE crawl_id = %(crawl_id)s AND query_key = %(query_key)s;

-- name: set_pages
UPDATE sadie_gtm.crawl_discovery_scans SET pages = %(pages)s, updated_at = now()
 WHERE crawl_id = %(crawl_id)s AND query_key = %(query_key)s;

-- name: page_done
UPDATE sadie_gtm.crawl_discovery_scans
   SET next_page = %(next_page)s, captures = captures + %(captures)s, candidates = candidates + %(candidates)s,
       kept = kept + %(kept)s, rejected = rejected + %(rejected)s, updated_at = now(),
       finished_at = CASE WHEN %(next_page)s >= pages THEN now() END
 WHERE crawl_id = %(crawl_id)s AND query_key = %(query_key)s;
