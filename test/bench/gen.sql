-- gen.sql: time every generator and reader in one session.
-- psql variables: n (rows per query), reps (timed repetitions).
--
-- Each expression f is timed as  SELECT count(f) FROM <source>  and compared
-- with a floor: the same query with the function call taken out but its
-- arguments still computed, so the difference is the function alone.
--   generators        FROM generate_series(1, n) AS g, floor count(1)
--   name-based        FROM generate_series(1, n) AS g with a per-row name
--                     g::text, floor count(g::text)
--   readers and       FROM gen_src, n precomputed ids (varying values, as
--   conversions       in a real table; cached in shared buffers while the
--                     table is under a quarter of them, about 3M rows),
--                     floor count(<the same column>)
-- One function runs every query once per repetition, in an order that
-- rotates by one place each repetition, and reads clock_timestamp() around
-- each EXECUTE, so no client round trip is timed.  EXECUTE plans the literal
-- query text exactly as a top-level statement would (no parameters, no cached
-- generic plan); a single top-level run of three of them is kept as a
-- cross-check.  Repetition 0 is a warm-up and is not reported.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)

-- The series is materialized by the function scan; work_mem keeps it in
-- memory instead of a temp file.  JIT would add a compile time that depends
-- on n; parallel workers are not used by a function scan anyway.
SET work_mem = '1GB';
SET jit = off;
SET max_parallel_workers_per_gather = 0;

INSERT INTO gen_expr (ord, label, expr, src, floor, needs, target_ns) VALUES
    ( 1, 'floor',                        '1',                                           'series', NULL,         '{}', NULL),
    ( 2, 'gen_random_uuid()',            'gen_random_uuid()',                           'series', 'floor',      '{gen_random_uuid()}', NULL),
    ( 3, 'uuidv4()',                     'uuidv4()',                                    'series', 'floor',      '{uuidv4()}', NULL),
    ( 4, 'uuidv7()',                     'uuidv7()',                                    'series', 'floor',      '{uuidv7()}', NULL),
    ( 5, 'uuidv7(interval)',             'uuidv7(interval ''-1 hour'')',                'series', 'floor',      '{uuidv7(interval)}', NULL),
    ( 6, 'uuidv6()',                     'uuidv6()',                                    'series', 'floor',      '{uuidv6()}', NULL),
    ( 7, 'uuid_generate_v1() (uuid-ossp)', 'uuid_generate_v1()',                        'series', 'floor',      '{uuid_generate_v1()}', NULL),
    (10, 'floor_text',                   'g::text',                                     'series', NULL,         '{}', NULL),
    (11, 'uuid_v8_sha256(ns, text)',     'uuid_v8_sha256(uuid_namespace_dns(), g::text)', 'series', 'floor_text', '{"uuid_v8_sha256(uuid,text)",uuid_namespace_dns()}', NULL),
    (12, 'uuidv5(ns, text)',             'uuidv5(uuid_namespace_dns(), g::text)',       'series', 'floor_text', '{"uuidv5(uuid,text)",uuid_namespace_dns()}', NULL),
    (13, 'uuidv3(ns, text)',             'uuidv3(uuid_namespace_dns(), g::text)',       'series', 'floor_text', '{"uuidv3(uuid,text)",uuid_namespace_dns()}', NULL),
    (14, 'uuid_generate_v5(ns, text) (uuid-ossp)', 'uuid_generate_v5(uuid_ns_dns(), g::text)', 'series', 'floor_text', '{"uuid_generate_v5(uuid,text)",uuid_ns_dns()}', NULL),
    (20, 'floor_v7',                     'v7',                                          'table',  NULL,         '{}', NULL),
    (21, 'uuid_extract_timestamp(v7)',   'uuid_extract_timestamp(v7)',                  'table',  'floor_v7',   '{uuid_extract_timestamp(uuid)}', 30),
    (22, 'uuid_extract_version(v7)',     'uuid_extract_version(v7)',                    'table',  'floor_v7',   '{uuid_extract_version(uuid)}', 30),
    (30, 'floor_v1',                     'v1',                                          'table',  NULL,         '{}', NULL),
    (31, 'uuidv1_to_v6(v1)',             'uuidv1_to_v6(v1)',                            'table',  'floor_v1',   '{uuidv1_to_v6(uuid)}', 30),
    (40, 'floor_v6',                     'v6',                                          'table',  NULL,         '{}', NULL),
    (41, 'uuidv6_to_v1(v6)',             'uuidv6_to_v1(v6)',                            'table',  'floor_v6',   '{uuidv6_to_v1(uuid),uuidv6()}', 30),
    (50, 'floor_ts',                     'ts',                                          'table',  NULL,         '{}', NULL),
    (51, 'uuidv7_at(ts)',                'uuidv7_at(ts)',                               'table',  'floor_ts',   '{uuidv7_at(timestamptz)}', NULL),
    (52, 'uuidv7_boundary(ts)',          'uuidv7_boundary(ts)',                         'table',  'floor_ts',   '{uuidv7_boundary(timestamptz)}', NULL),
    (53, 'uuidv6_boundary(ts)',          'uuidv6_boundary(ts)',                         'table',  'floor_ts',   '{uuidv6_boundary(timestamptz)}', NULL);

-- keep what this installation has, and the floors that something uses
DELETE FROM gen_expr
WHERE EXISTS (SELECT FROM unnest(needs) AS f WHERE to_regprocedure(f) IS NULL);
DELETE FROM gen_expr AS f
WHERE f.floor IS NULL AND f.label <> 'floor'
  AND NOT EXISTS (SELECT FROM gen_expr AS e WHERE e.floor = f.label);

-- the precomputed ids; v1 from uuid-ossp if there, else built in SQL
SELECT to_regprocedure('uuidv6()') IS NOT NULL AS has_v6,
       to_regprocedure('uuid_generate_v1()') IS NOT NULL AS has_ossp_v1 \gset
\if :has_v6
\set v6_expr 'uuidv6()'
\else
\set v6_expr 'NULL::uuid'
\endif
\if :has_ossp_v1
\set v1_expr 'uuid_generate_v1()'
\else
\set v1_expr 'bench_v1(g)'
\endif
CREATE TABLE gen_src AS
SELECT uuidv7() AS v7, :v1_expr AS v1, :v6_expr AS v6,
       timestamptz '2024-01-01 00:00:00+00' + g * interval '1 ms' AS ts
FROM generate_series(1, :n) AS g;
VACUUM (FREEZE, ANALYZE) gen_src;
-- Sequential scans of a table larger than a quarter of shared_buffers go
-- through a small ring of buffers, i.e. through the OS cache on every pass.
INSERT INTO gen_source
SELECT pg_relation_size('gen_src'),
       pg_relation_size('gen_src') < (SELECT setting::bigint * 8192 / 4 FROM pg_settings WHERE name = 'shared_buffers');

CREATE FUNCTION gen_query(e gen_expr, n bigint) RETURNS text LANGUAGE sql AS $$
    SELECT CASE e.src
        WHEN 'series' THEN format('SELECT count(%s) FROM generate_series(1, %s) AS g', e.expr, n)
        ELSE format('SELECT count(%s) FROM gen_src', e.expr)
    END
$$;

CREATE FUNCTION gen_run(n bigint, reps int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    exprs gen_expr[] := ARRAY(SELECT e FROM gen_expr AS e ORDER BY ord);
    k int := cardinality(exprs);
    e gen_expr;
    t0 timestamptz;
    ms float8;
    counted bigint;
BEGIN
    FOR r IN 0..reps LOOP
        FOR p IN 0..k - 1 LOOP
            e := exprs[(r + p) % k + 1];
            t0 := clock_timestamp();
            EXECUTE gen_query(e, n) INTO counted;
            ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
            IF counted <> n THEN
                RAISE EXCEPTION '% counted % rows, not %', e.label, counted, n;
            END IF;
            INSERT INTO gen_time VALUES (r, p, e.label, n, ms);
        END LOOP;
    END LOOP;
END
$$;

SELECT gen_run(:n, :reps) \g /dev/null

-- cross-check: the same query text sent by psql, one run each
SELECT gen_query(e, :n) AS q_floor FROM gen_expr AS e WHERE label = 'floor' \gset
SELECT gen_query(e, :n) AS q_v7 FROM gen_expr AS e WHERE label = 'uuidv7()' \gset
SELECT gen_query(e, :n) AS q_v4 FROM gen_expr AS e WHERE label = 'gen_random_uuid()' \gset
SELECT clock_timestamp() AS t0 \gset
:q_floor \g /dev/null
INSERT INTO gen_toplevel SELECT 'floor', extract(epoch FROM clock_timestamp() - :'t0') * 1000;
SELECT clock_timestamp() AS t0 \gset
:q_v7 \g /dev/null
INSERT INTO gen_toplevel SELECT 'uuidv7()', extract(epoch FROM clock_timestamp() - :'t0') * 1000;
SELECT clock_timestamp() AS t0 \gset
:q_v4 \g /dev/null
INSERT INTO gen_toplevel SELECT 'gen_random_uuid()', extract(epoch FROM clock_timestamp() - :'t0') * 1000;

DROP TABLE gen_src;
