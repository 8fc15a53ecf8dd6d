-- Issue 32, items 2 and 3: Common Crawl discovery (hotels/discovery_crawl.py). One row per crawl
-- and CDX query (core/crawl_queries.py: words:{tld}:{languages}, engine:{domain}): the index's page
-- count and the next page to read, moved on in the same transaction as the hotel_sources rows of
-- the page, so that a killed scan resumes at its first unread page; finished_at set, the query is
-- not scanned again in that crawl (a newer crawl is a new row). A query's answer does not depend on
-- the region that asked (its rows are kept for the regions their addresses name), so the row is
-- shared: AU-VIC's run skips the *.au scan AU-NSW's run finished; scanned_for is who ran it.
-- depends: 0041_licence_records

CREATE TABLE IF NOT EXISTS sadie_gtm.crawl_discovery_scans (
    crawl_id    text NOT NULL,
    query_key   text NOT NULL,
    scanned_for text NOT NULL,              -- the region whose run started the scan
    pages       integer,                    -- showNumPages; NULL until asked
    next_page   integer NOT NULL DEFAULT 0,
    captures    integer NOT NULL DEFAULT 0, -- index lines answered (after the server's filters)
    candidates  integer NOT NULL DEFAULT 0, -- WARC records read
    kept        integer NOT NULL DEFAULT 0, -- hotel_sources rows written
    rejected    integer NOT NULL DEFAULT 0,
    started_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz,
    PRIMARY KEY (crawl_id, query_key)
);
