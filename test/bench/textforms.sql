-- textforms.sql: ns per call of the compact text forms against uuid_out and
-- uuid_in, in one session.  psql variables: n (rows), reps (repetitions).
-- Skipped when uuid_to_ulid(uuid) is not installed.
--
-- n v7 ids are precomputed with each text form in its own column.  Every
-- expression f is timed as  SELECT count(f) FROM tf_src  and compared with
-- the floor  SELECT count(<its input column>) FROM tf_src , so that
-- (median - floor median) / n is the call alone.  The baselines are the
-- casts a user writes: id::text (uuid_out, then a text copy) and t::uuid
-- (a text to cstring copy, then uuid_in).  The ratio is the function's ns
-- over its baseline's ns, both from this run.  Repetition 0 is a warm-up;
-- the order of the queries rotates by one place each repetition.
-- Writes Markdown to stdout (bench.pl appends it to report.md).
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
SET work_mem = '1GB';
SET jit = off;
SET max_parallel_workers_per_gather = 0;
SELECT set_config('tf.reps', :'reps', false) \g /dev/null

SELECT to_regprocedure('uuid_to_ulid(uuid)') IS NOT NULL AS has_textforms \gset
\if :has_textforms
CREATE TABLE tf_src AS
SELECT id, id::text AS t, uuid_to_base32hex(id) AS b32, uuid_to_ulid(id) AS ulid, typeid('user', id) AS tid
FROM (SELECT uuidv7() AS id FROM generate_series(1, :n)) AS s;
VACUUM (FREEZE, ANALYZE) tf_src;

-- expression, its floor, its baseline (NULL: it is a floor or a baseline)
CREATE TABLE tf_expr (ord int, expr text, floor text, baseline text);
INSERT INTO tf_expr VALUES
    (1, 'id', NULL, NULL),
    (2, 'id::text', 'id', NULL),
    (3, 'uuid_to_base32hex(id)', 'id', 'id::text'),
    (4, 'uuid_to_ulid(id)', 'id', 'id::text'),
    (5, 'typeid(''user'', id)', 'id', 'id::text'),
    (10, 't', NULL, NULL),
    (11, 't::uuid', 't', NULL),
    (20, 'b32', NULL, NULL),
    (21, 'base32hex_to_uuid(b32)', 'b32', 't::uuid'),
    (30, 'ulid', NULL, NULL),
    (31, 'ulid_to_uuid(ulid)', 'ulid', 't::uuid'),
    (40, 'tid', NULL, NULL),
    (41, 'typeid_to_uuid(tid)', 'tid', 't::uuid');
CREATE TABLE tf_time (rep int, expr text, ms float8);

DO $$
DECLARE
    exprs text[] := ARRAY(SELECT expr FROM tf_expr ORDER BY ord);
    k int := cardinality(exprs);
    e text;
    t0 timestamptz;
BEGIN
    FOR r IN 0..current_setting('tf.reps')::int LOOP
        FOR p IN 0..k - 1 LOOP
            e := exprs[(r + p) % k + 1];
            t0 := clock_timestamp();
            EXECUTE format('SELECT count(%s) FROM tf_src', e);
            INSERT INTO tf_time VALUES (r, e, extract(epoch FROM clock_timestamp() - t0) * 1000);
        END LOOP;
    END LOOP;
END $$;

CREATE TEMP VIEW tf_ns AS
WITH med AS (
    SELECT expr, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms
    FROM tf_time WHERE rep > 0 GROUP BY expr
)
SELECT e.ord, e.expr, e.baseline, round(m.ms::numeric, 1) AS median_ms,
       ((m.ms - f.ms) * 1e6 / :n)::numeric AS ns
FROM tf_expr AS e JOIN med AS m USING (expr) JOIN med AS f ON f.expr = e.floor;

\pset format unaligned
\pset tuples_only on
SELECT format(E'## Compact text forms\n\n'
              '`SELECT count(f) FROM tf_src` over %s precomputed v7 ids and their texts, median of %s '
              'repetitions after a warm-up, minus the floor `count(<input column>)`. Baselines are the casts '
              '`id::text` (uuid_out) and `t::uuid` (uuid_in); target: within 1.5× of them.\n\n'
              '| expression | median ms | ns/call above floor | × baseline | target ≤ 1.5× |\n|---|---:|---:|---:|---|',
              to_char(:n, 'FM999,999,999'), max(rep))
FROM tf_time;
SELECT format('| `%s` | %s | %s | %s | %s |', a.expr, a.median_ms, round(a.ns, 1),
              coalesce(round(a.ns / nullif(b.ns, 0), 2)::text, 'baseline'),
              CASE WHEN b.ns IS NULL THEN '' WHEN a.ns <= 1.5 * b.ns THEN 'PASS' ELSE 'MISS' END)
FROM tf_ns AS a LEFT JOIN tf_ns AS b ON b.expr = a.baseline
ORDER BY a.ord;
\echo
DROP TABLE tf_src, tf_expr, tf_time CASCADE;
\else
\echo 'uuid_to_ulid(uuid) is not installed: text forms skipped'
\endif
