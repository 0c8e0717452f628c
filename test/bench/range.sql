-- range.sql: a one-hour time range on a table of n DEFAULT uuidv7() rows
-- (ids spread over n/10000 hours), answered by the range predicate through
-- the primary key against the same filter on uuid_extract_timestamp(id)
-- without an expression index; reps timed repetitions of each, interleaved,
-- repetition 0 a warm-up, medians reported.  Goal: the predicate >= 100x
-- faster.  psql variables: n, reps.  Prints a Markdown table.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
SET jit = off;
SET max_parallel_workers_per_gather = 0;
SET TimeZone = 'UTC';
SELECT set_config('range.reps', :'reps', false) \g /dev/null

CREATE TABLE range_src (id uuid PRIMARY KEY DEFAULT uuidv7(), payload int);
INSERT INTO range_src (id, payload)
SELECT uuidv7_at('2026-01-01'::timestamptz + g * interval '360 ms'), g FROM generate_series(1, :n) g;
VACUUM (FREEZE, ANALYZE) range_src;

CREATE TEMP TABLE range_q (label text, query text);
INSERT INTO range_q VALUES
    ('id <@ tstzrange (primary key)',
     $$SELECT count(*) FROM range_src WHERE id <@ '[2026-01-01 05:00+00, 2026-01-01 06:00+00)'$$),
    ('uuid_extract_timestamp(id) filter (no expression index)',
     $$SELECT count(*) FROM range_src WHERE uuid_extract_timestamp(id) >= '2026-01-01 05:00+00'
                                        AND uuid_extract_timestamp(id) < '2026-01-01 06:00+00'$$);
CREATE TEMP TABLE range_t (label text, rep int, ms float8, rows bigint);

DO $$
DECLARE
    r int;
    q record;
    t0 timestamptz;
    n bigint;
BEGIN
    FOR r IN 0 .. current_setting('range.reps')::int LOOP
        FOR q IN SELECT * FROM range_q ORDER BY CASE WHEN r % 2 = 0 THEN label END, label DESC LOOP
            t0 := clock_timestamp();
            EXECUTE q.query INTO n;
            INSERT INTO range_t VALUES (q.label, r, extract(epoch FROM clock_timestamp() - t0) * 1000, n);
        END LOOP;
    END LOOP;
END $$;

\echo
\echo '| query | rows | median ms |'
\echo '|---|---:|---:|'
SELECT format('| %s | %s | %s |', label, max(rows),
              round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 2))
FROM range_t WHERE rep > 0 GROUP BY label ORDER BY 1 \g (tuples_only format=unaligned)
EXPLAIN (COSTS OFF) SELECT count(*) FROM range_src WHERE id <@ '[2026-01-01 05:00+00, 2026-01-01 06:00+00)';
SELECT format('Ratio: the predicate is %sx faster (goal >= 100x).',
              round((percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) FILTER (WHERE label LIKE 'uuid%'))::numeric /
                    (percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) FILTER (WHERE label LIKE 'id%'))::numeric))
FROM range_t WHERE rep > 0 \g (tuples_only format=unaligned)
DROP TABLE range_src;
