-- versions.sql: what the versions phase times, set up once in each of its
-- two databases (bench_base with pg_uuidx_base, the base version's library
-- under another name; bench_head with pg_uuidx).  bench.pl then calls
-- ver_run() in a new session of each database in turn, alternating which
-- goes first, so that each backend loads one of the two libraries only.
-- psql variable: n (rows or names per query, and rows of ver_ids).
--
-- To add a measure, add a row to ver_query:
--   kind 'select'  SELECT count(<expr>) FROM <src>
--        'where'   SELECT count(*) FROM <src> WHERE <expr>
--        'plan'    EXPLAIN (SUMMARY, FORMAT JSON) SELECT * FROM <src> WHERE
--                  <expr>, planned N_PLAN times; its summed planning time
--   src  'series'  generate_series(1, n) AS g (g: a different name per row)
--        'table'   ver_ids: n v7 ids (id), 360 ms apart from 2026-01-01 UTC
--                  (10000 an hour), made in plain SQL, the same in both, and
--                  their times (ts timestamptz)
--        'indexed' ver_idx: the first 100000 of them, primary key, analyzed
--   floor  the label of the same query with the call taken out but its
--          arguments still computed; the report gives ns per call above it
--          (NULL: no floor; for 'plan', ns per planning)
--   calls  calls per row (default 1): a call of a few ns is lost in the
--          noise of one per row, so such an expr makes several (greatest()
--          of 8) against a floor of the same shape on a precomputed column
-- Write the extension's objects qualified (public.), so that PostgreSQL
-- 17/18's same-named core functions are not measured instead.
SET jit = off;
SET max_parallel_workers_per_gather = 0;
SET work_mem = '1GB';

CREATE TABLE ver_query (
    ord int PRIMARY KEY,
    label text UNIQUE NOT NULL,
    kind text NOT NULL CHECK (kind IN ('select', 'where', 'plan')),
    expr text NOT NULL,
    src text NOT NULL CHECK (src IN ('series', 'table', 'indexed')),
    floor text,
    calls int NOT NULL DEFAULT 1
);
INSERT INTO ver_query (ord, label, kind, expr, src, floor) VALUES
    ( 1, 'floor',                         'select', '1', 'series', NULL),
    ( 2, 'uuidv7()',                      'select', 'public.uuidv7()', 'series', 'floor'),
    (10, 'floor_text',                    'select', '''name-'' || g', 'series', NULL),
    (11, 'uuidv5(ns, text)',              'select', 'public.uuidv5(public.uuid_namespace_dns(), ''name-'' || g)', 'series', 'floor_text'),
    (12, 'uuid_v8_sha256(ns, text)',      'select', 'public.uuid_v8_sha256(public.uuid_namespace_dns(), ''name-'' || g)', 'series', 'floor_text'),
    (20, 'floor_bytea',                   'select', 'convert_to(''name-'' || g, ''UTF8'')', 'series', NULL),
    (21, 'uuidv3(ns, bytea)',             'select', 'public.uuidv3(public.uuid_namespace_dns(), convert_to(''name-'' || g, ''UTF8''))', 'series', 'floor_bytea'),
    (30, 'floor_ts8',                     'select', 'greatest(ts, ts, ts, ts, ts, ts, ts, ts)', 'table', NULL),
    (40, 'floor_filter',                  'where',  'id IS NOT NULL', 'table', NULL),
    (41, 'id <@ tstzrange (seq scan, per row)', 'where', 'id OPERATOR(public.<@) tstzrange(''2026-01-01 05:00+00'', ''2026-01-01 06:00+00'')', 'table', 'floor_filter'),
    (50, 'id <@ tstzrange (planning, index)', 'plan', 'id OPERATOR(public.<@) tstzrange(''2026-01-01 05:00+00'', ''2026-01-01 06:00+00'')', 'indexed', NULL);
INSERT INTO ver_query (ord, label, kind, expr, src, floor, calls) VALUES
    (31, 'uuid_extract_timestamp_us(id)', 'select', 'greatest(' || repeat('public.uuid_extract_timestamp_us(id), ', 7)
                                                    || 'public.uuid_extract_timestamp_us(id))', 'table', 'floor_ts8', 8);

-- v7 ids in plain SQL: 48-bit ms, version 7, 12 bits, variant 10, 62 bits
CREATE TABLE ver_ids AS
SELECT (lpad(to_hex(ms), 12, '0') || '7' || substr(h, 1, 3)
        || to_hex(8 + (('x' || substr(h, 4, 1))::bit(4)::int & 3)) || substr(h, 5, 15))::uuid AS id,
       to_timestamp(ms / 1000.0) AS ts
FROM (SELECT 1767225600000 + g * 360 AS ms, md5(g::text) AS h FROM generate_series(1, :n) AS g) AS s;
VACUUM (FREEZE, ANALYZE) ver_ids;
CREATE TABLE ver_idx (id uuid PRIMARY KEY);
INSERT INTO ver_idx SELECT id FROM ver_ids LIMIT 100000;
VACUUM (FREEZE, ANALYZE) ver_idx;

-- the statement of a measure; warm: on 1000 rows only
CREATE FUNCTION ver_sql(q ver_query, n bigint, warm bool) RETURNS text LANGUAGE sql AS $$
    SELECT CASE q.kind WHEN 'select' THEN format('SELECT count(%s) FROM ', q.expr)
                       WHEN 'where' THEN 'SELECT count(*) FROM '
                       ELSE 'EXPLAIN (SUMMARY, FORMAT JSON) SELECT * FROM ' END
        || CASE q.src WHEN 'series' THEN format('generate_series(1, %s) AS g', CASE WHEN warm THEN 1000 ELSE n END)
                      WHEN 'table' THEN CASE WHEN warm THEN '(SELECT * FROM ver_ids LIMIT 1000) AS ver_ids' ELSE 'ver_ids' END
                      ELSE 'ver_idx' END
        || CASE WHEN q.kind = 'select' THEN '' ELSE ' WHERE ' || q.expr END
$$;

-- One pass over every measure in this session, first a warm-up pass on
-- 1000 rows (the library is loaded, the caches filled), then the timed
-- pass, in an order that rotates with rep.  Rows: (label, ms, units): the
-- query's time and its rows times calls, or for 'plan' the summed planning
-- time and the number of plannings; last ('library', 0, 0) if the session
-- mapped the library of its own version only, else an error.
CREATE FUNCTION ver_run(n bigint, plans int, rep int, mine text, other text)
RETURNS TABLE (label text, ms float8, units bigint) LANGUAGE plpgsql AS $$
DECLARE
    qs ver_query[] := ARRAY(SELECT q FROM ver_query AS q ORDER BY ord);
    k int := cardinality(qs);
    q ver_query;
    t0 timestamptz;
    counted bigint;
    plan json;
    maps text;
BEGIN
    FOREACH q IN ARRAY qs LOOP
        EXECUTE ver_sql(q, n, true);
    END LOOP;
    FOR p IN 0 .. k - 1 LOOP
        q := qs[(rep + p) % k + 1];
        label := q.label;
        IF q.kind = 'plan' THEN
            ms := 0;
            FOR i IN 1 .. plans LOOP
                EXECUTE ver_sql(q, n, false) INTO plan;
                ms := ms + (plan -> 0 ->> 'Planning Time')::float8;
            END LOOP;
            units := plans;
        ELSE
            t0 := clock_timestamp();
            EXECUTE ver_sql(q, n, false) INTO counted;
            ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
            units := n * q.calls;
        END IF;
        RETURN NEXT;
    END LOOP;
    maps := pg_read_file('/proc/' || pg_backend_pid() || '/maps');
    IF position('/' || mine || '.so' IN maps) = 0 OR position('/' || other || '.so' IN maps) > 0 THEN
        RAISE EXCEPTION 'this session should have mapped %.so and not %.so', mine, other;
    END IF;
    label := 'library';
    ms := 0;
    units := 0;
    RETURN NEXT;
END
$$;
