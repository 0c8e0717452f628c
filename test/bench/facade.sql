-- facade.sql: ns per call of the UUIDv47 facade and the microsecond reader,
-- each against a floor and a baseline measured in the same session.
-- psql variables: n (rows per query), reps (timed repetitions).
--
--   uuidv7()                        floor: count(1) over generate_series
--   uuidv47_encode(v7, key)         floor: count(v7) over n stored v7 ids
--   uuidv47_decode(f, key)          floor: count(f) over their n facades
--   uuid_extract_timestamp(v7)      floor: count(v7)
--   uuid_extract_timestamp_us(v7)   floor: count(v7)
-- Goals: encode and decode within 2x of uuidv7()'s own cost, the microsecond
-- reader like uuid_extract_timestamp (1.25x, plus 2 ns for timer noise).  Queries run in a rotating order, the
-- clock is read around each EXECUTE, repetition 0 is a warm-up, and the
-- median of the others is reported.  Prints a Markdown table.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
SET work_mem = '1GB';
SET jit = off;
SET max_parallel_workers_per_gather = 0;
SELECT set_config('facade.reps', :'reps', false) \g /dev/null

CREATE TABLE facade_src AS
SELECT v7, uuidv47_encode(v7, '\x000102030405060708090a0b0c0d0e0f') AS f
FROM (SELECT uuidv7() AS v7 FROM generate_series(1, :n)) AS s;
VACUUM (FREEZE, ANALYZE) facade_src;

CREATE TEMP TABLE facade_expr (label text, query text, floor text);
INSERT INTO facade_expr VALUES
    ('floor_series', format('SELECT count(1) FROM generate_series(1, %s)', :n), NULL),
    ('uuidv7()', format('SELECT count(uuidv7()) FROM generate_series(1, %s)', :n), 'floor_series'),
    ('floor_v7', 'SELECT count(v7) FROM facade_src', NULL),
    ('floor_f', 'SELECT count(f) FROM facade_src', NULL),
    ('uuidv47_encode(v7, key)', $$SELECT count(uuidv47_encode(v7, '\x000102030405060708090a0b0c0d0e0f')) FROM facade_src$$, 'floor_v7'),
    ('uuidv47_decode(f, key)', $$SELECT count(uuidv47_decode(f, '\x000102030405060708090a0b0c0d0e0f')) FROM facade_src$$, 'floor_f'),
    ('uuid_extract_timestamp(v7)', 'SELECT count(uuid_extract_timestamp(v7)) FROM facade_src', 'floor_v7'),
    ('uuid_extract_timestamp_us(v7)', 'SELECT count(uuid_extract_timestamp_us(v7)) FROM facade_src', 'floor_v7');

CREATE TEMP TABLE facade_time (rep int, label text, ms float8);

DO $$
DECLARE
    exprs facade_expr[] := ARRAY(SELECT e FROM facade_expr AS e);
    k int := cardinality(exprs);
    e facade_expr;
    t0 timestamptz;
BEGIN
    FOR r IN 0..current_setting('facade.reps')::int LOOP
        FOR p IN 0..k - 1 LOOP
            e := exprs[(r + p) % k + 1];
            t0 := clock_timestamp();
            EXECUTE e.query;
            INSERT INTO facade_time VALUES (r, e.label, extract(epoch FROM clock_timestamp() - t0) * 1000);
        END LOOP;
    END LOOP;
END
$$;

CREATE TEMP VIEW facade_ns AS
SELECT e.label, e.floor,
       (m.ms - coalesce(fl.ms, 0)) * 1e6 / :n AS ns
FROM facade_expr AS e
JOIN (SELECT label, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms
      FROM facade_time WHERE rep > 0 GROUP BY label) AS m USING (label)
LEFT JOIN (SELECT label, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms
           FROM facade_time WHERE rep > 0 GROUP BY label) AS fl ON fl.label = e.floor
WHERE e.floor IS NOT NULL;

\pset format unaligned
\pset tuples_only on
SELECT '| expression | ns per call above its floor | baseline | difference (ns) | ratio | goal |';
SELECT '|---|---:|---|---:|---:|---|';
SELECT format('| `%s` | %s | %s | %s | %s | %s |', x.label, round(x.ns::numeric, 1),
              coalesce(b.label, ''), coalesce(round((x.ns - b.ns)::numeric, 1)::text, ''),
              CASE WHEN b.ns > 5 THEN round((x.ns / b.ns)::numeric, 2)::text ELSE '' END,
              CASE WHEN b.label IS NULL THEN ''
                   WHEN x.ns <= greatest(b.ns, 0) * g.factor + g.slack THEN format('PASS (<= %sx + %s ns)', g.factor, g.slack)
                   ELSE format('MISS (> %sx + %s ns)', g.factor, g.slack) END)
FROM facade_ns AS x
LEFT JOIN (VALUES ('uuidv47_encode(v7, key)', 'uuidv7()', 2.0, 0),
                  ('uuidv47_decode(f, key)', 'uuidv7()', 2.0, 0),
                  ('uuid_extract_timestamp_us(v7)', 'uuid_extract_timestamp(v7)', 1.25, 2)) AS g(label, base, factor, slack)
       USING (label)
LEFT JOIN facade_ns AS b ON b.label = g.base
ORDER BY x.label;

DROP TABLE facade_src;
