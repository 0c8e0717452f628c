-- What PARALLEL RESTRICTED costs the ordered generators: a
-- CREATE TABLE AS of 2M ids from a table scan that runs with 2 workers,
-- the generator labelled SAFE (evaluated in the workers, ordering broken)
-- and RESTRICTED (evaluated in the leader, as shipped), alternated 3 times.
-- psql -X -f test/bench/parallel_ctas.sql (superuser; changes the labels
-- and puts RESTRICTED back)
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
\set QUIET on
\pset footer off
CREATE EXTENSION IF NOT EXISTS pg_uuidx;
DROP TABLE IF EXISTS bench_src;
CREATE TABLE bench_src AS SELECT g, repeat('x', 40) AS pad FROM generate_series(1, 2000000) g;
ANALYZE bench_src;
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
CREATE TEMP TABLE timings (label text, ms numeric);

CREATE FUNCTION pg_temp.ctas(label text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    t0 timestamptz;
BEGIN
    EXECUTE format('ALTER FUNCTION uuidv7() PARALLEL %s', label);
    DROP TABLE IF EXISTS bench_ids;
    t0 := clock_timestamp();
    CREATE TABLE bench_ids AS SELECT uuidv7() AS id, g FROM bench_src WHERE pad <> '';
    INSERT INTO timings VALUES (label, extract(epoch FROM clock_timestamp() - t0) * 1000);
END $$;

SELECT pg_temp.ctas('SAFE'), pg_temp.ctas('RESTRICTED') FROM generate_series(1, 3) \g /dev/null
ALTER FUNCTION uuidv7() PARALLEL RESTRICTED;
SELECT label, round(min(ms)) AS best_ms, round(avg(ms)) AS mean_ms FROM timings GROUP BY label ORDER BY label;
SELECT round((SELECT min(ms) FROM timings WHERE label = 'RESTRICTED') /
             (SELECT min(ms) FROM timings WHERE label = 'SAFE'), 2) AS restricted_over_safe;
DROP TABLE bench_src, bench_ids;
