-- The planner settings of the listings' bulk transactions (staging, promotion), the one place
-- they are set. SET LOCAL: they end with the transaction.

-- name: bulk
SET LOCAL work_mem = '64MB';
-- plain row processing: compiling costs more than it saves
SET LOCAL jit = off;
-- what staging and promotion read was just written or read: cached, so an index probe costs about
-- a page read in sequence (with the default 4, ten thousand probes lose to scanning every row)
SET LOCAL random_page_cost = 1.1;
-- the working tables (work, promo) are read by most statements: kept in memory (8 MB would spill a
-- 100k-row batch to a file every statement reads back); only takes effect before the first
-- temporary table of the session, which is why every bulk transaction has its own connection
SET LOCAL temp_buffers = '128MB';
-- the working tables are ANALYZEd for row counts and rough distributions: a small sample will do
SET LOCAL default_statistics_target = 10;
-- a promotion's new listing names go to the trigram index's pending list, which vacuum merges
-- later, off the import's path (PostgreSQL's knob for bulk loads into a GIN index; with the
-- default 4 MB, 90,000 names took 0.6 s, with 64 MB 0.36 s)
SET LOCAL gin_pending_list_limit = '64MB';

-- name: hash_joins
-- For queries over whole jobs: their rows were written after the last statistics and nothing indexes
-- a staged row's rec_num, so as nested loops the joins would read a job's rows once per record.
-- Such a query compares the DMO and the job with the parameters, never with another table's column:
-- every row shares them, and a merge join on one compares each row with every other.
SET LOCAL enable_nestloop = off;

-- name: any_joins
RESET enable_nestloop;
