-- sqlbuild.sql: the SQL build (schema sqlbuild, its plain script loaded by
-- bench.pl) against the C build (the extension) in one session: uuidv7()
-- per call above a floor against gen_random_uuid(), the widely shared SQL
-- uuidv7 (a timestamp written over gen_random_uuid(), no order within a
-- millisecond) and the C build; the readers per call; id <@ tstzrange, one
-- hour of :n_range ids through the primary key, its plan and time against
-- the C build's.  reps interleaved repetitions (the order rotates), the
-- first a warm-up; medians.  Goals: uuidv7() <= 2x gen_random_uuid(),
-- readers <= 2 us, <@ the C build's plan and <= 2x its time.  psql
-- variables: n (rows per generator or reader query), n_range, reps.
-- Prints Markdown.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
SET jit = off;
SET max_parallel_workers_per_gather = 0;
SET work_mem = '1GB';
SET TimeZone = 'UTC';
SELECT set_config('sb.reps', :'reps', false) \g /dev/null

-- the widely shared SQL uuidv7: Unix milliseconds written over the first
-- six bytes of a v4 id and its version bits turned to 7
CREATE FUNCTION shared_uuidv7() RETURNS uuid LANGUAGE sql VOLATILE AS $$
    SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
                                          PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::int8) FROM 3)
                                          FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid
$$;

CREATE TABLE sb_src AS SELECT uuidv7() AS v7 FROM generate_series(1, :n);
VACUUM (FREEZE, ANALYZE) sb_src;

CREATE TABLE sb_expr (ord int, label text, query text, floor text, goal_us float8, goal_x text);
INSERT INTO sb_expr VALUES
    (1, 'floor (series)', format('SELECT count(1) FROM generate_series(1, %s)', :n), NULL, NULL, NULL),
    (2, 'gen_random_uuid()', format('SELECT count(gen_random_uuid()) FROM generate_series(1, %s)', :n), 'floor (series)', NULL, NULL),
    (3, 'uuidv7(), SQL build', format('SELECT count(sqlbuild.uuidv7()) FROM generate_series(1, %s)', :n), 'floor (series)', NULL, 'gen_random_uuid()'),
    (4, 'shared SQL uuidv7 (no order)', format('SELECT count(shared_uuidv7()) FROM generate_series(1, %s)', :n), 'floor (series)', NULL, NULL),
    (5, 'uuidv7(), C build', format('SELECT count(public.uuidv7()) FROM generate_series(1, %s)', :n), 'floor (series)', NULL, NULL),
    (6, 'uuidv6(), SQL build', format('SELECT count(sqlbuild.uuidv6()) FROM generate_series(1, %s)', :n), 'floor (series)', NULL, NULL),
    (7, 'uuidv7_at(ts), SQL build', format('SELECT count(sqlbuild.uuidv7_at(''2026-01-01''::timestamptz + g * interval ''1 ms'')) FROM generate_series(1, %s) AS g', :n), 'floor (ts series)', NULL, NULL),
    (8, 'floor (ts series)', format('SELECT count(''2026-01-01''::timestamptz + g * interval ''1 ms'') FROM generate_series(1, %s) AS g', :n), NULL, NULL, NULL),
    (10, 'floor (table)', 'SELECT count(v7) FROM sb_src', NULL, NULL, NULL),
    (11, 'uuid_extract_timestamp(id), SQL build', 'SELECT count(sqlbuild.uuid_extract_timestamp(v7)) FROM sb_src', 'floor (table)', 2, NULL),
    (12, 'uuid_extract_timestamp_us(id), SQL build', 'SELECT count(sqlbuild.uuid_extract_timestamp_us(v7)) FROM sb_src', 'floor (table)', 2, NULL),
    (13, 'uuid_extract_version(id), SQL build', 'SELECT count(sqlbuild.uuid_extract_version(v7)) FROM sb_src', 'floor (table)', 2, NULL),
    (14, 'uuid_extract_timestamp_us(id), C build', 'SELECT count(public.uuid_extract_timestamp_us(v7)) FROM sb_src', 'floor (table)', NULL, NULL);
CREATE TABLE sb_time (label text, rep int, ms float8);

DO $$
DECLARE
    reps int := current_setting('sb.reps')::int;
    k int := (SELECT count(*) FROM sb_expr);
    e record;
    t0 timestamptz;
BEGIN
    FOR r IN 0 .. reps LOOP
        FOR e IN SELECT * FROM sb_expr ORDER BY (ord + r) % k LOOP
            t0 := clock_timestamp();
            EXECUTE e.query;
            INSERT INTO sb_time VALUES (e.label, r, extract(epoch FROM clock_timestamp() - t0) * 1000);
        END LOOP;
    END LOOP;
END $$;

CREATE VIEW sb_us AS
SELECT e.ord, e.label, e.goal_us, e.goal_x,
       (percentile_cont(0.5) WITHIN GROUP (ORDER BY t.ms) - (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY f.ms)
                                                             FROM sb_time f WHERE f.label = e.floor AND f.rep > 0))
       * 1000 / :n AS us
FROM sb_expr e JOIN sb_time t ON t.label = e.label AND t.rep > 0
WHERE e.floor IS NOT NULL
GROUP BY e.ord, e.label, e.goal_us, e.goal_x, e.floor;

\echo
\echo '### The SQL build'
\echo
\echo '| call | us per call above the floor | goal |'
\echo '|---|---:|---|'
SELECT format('| %s | %s | %s |', u.label, round(u.us::numeric, 3),
              CASE WHEN u.goal_us IS NOT NULL
                   THEN format('<= %s us: %s', u.goal_us, CASE WHEN u.us <= u.goal_us THEN 'PASS' ELSE 'MISS' END)
                   WHEN u.goal_x IS NOT NULL
                   THEN format('<= 2x %s (%sx): %s', u.goal_x, round((u.us / x.us)::numeric, 2),
                               CASE WHEN u.us <= 2 * x.us THEN 'PASS' ELSE 'MISS' END)
                   ELSE '' END)
FROM sb_us u LEFT JOIN sb_us x ON x.label = u.goal_x
ORDER BY u.ord \g (tuples_only format=unaligned)

-- id <@ tstzrange: :n_range ids 360 ms apart, one hour of them
CREATE TABLE sb_range (id uuid PRIMARY KEY);
INSERT INTO sb_range SELECT uuidv7_at('2026-01-01'::timestamptz + g * interval '360 ms') FROM generate_series(1, :n_range) AS g;
VACUUM (FREEZE, ANALYZE) sb_range;
CREATE TABLE sb_range_q (label text, query text);
INSERT INTO sb_range_q VALUES
    ('C build', $$SELECT count(*) FROM sb_range WHERE id OPERATOR(public.<@) '[2026-01-01 05:00+00, 2026-01-01 06:00+00)'$$),
    ('SQL build', $$SELECT count(*) FROM sb_range WHERE id OPERATOR(sqlbuild.<@) '[2026-01-01 05:00+00, 2026-01-01 06:00+00)'$$);
CREATE TABLE sb_range_t (label text, rep int, ms float8, rows bigint);
DO $$
DECLARE
    q record;
    t0 timestamptz;
    n bigint;
BEGIN
    FOR r IN 0 .. current_setting('sb.reps')::int LOOP
        FOR q IN SELECT * FROM sb_range_q ORDER BY CASE WHEN r % 2 = 0 THEN label END, label DESC LOOP
            t0 := clock_timestamp();
            EXECUTE q.query INTO n;
            INSERT INTO sb_range_t VALUES (q.label, r, extract(epoch FROM clock_timestamp() - t0) * 1000, n);
        END LOOP;
    END LOOP;
END $$;
CREATE FUNCTION sb_index_cond(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    l text;
    r text := '';
BEGIN
    FOR l IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
        IF l ~ 'Index Cond|Scan' THEN
            r := r || btrim(l) || ' ';
        END IF;
    END LOOP;
    RETURN r;
END $$;

\echo
\echo '| id <@ tstzrange, one hour of' :n_range 'rows | rows | median ms |'
\echo '|---|---:|---:|'
SELECT format('| %s | %s | %s |', label, max(rows), round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 2))
FROM sb_range_t WHERE rep > 0 GROUP BY label ORDER BY label \g (tuples_only format=unaligned)
\echo
SELECT format('The SQL build''s plan is %s the C build''s (%s); its time is %sx the C build''s (goal <= 2x): %s.',
              CASE WHEN sb_index_cond(s.query) = sb_index_cond(c.query) THEN 'the same scan and index conditions as' ELSE 'NOT' END,
              btrim(sb_index_cond(s.query)),
              round((ts.ms / tc.ms)::numeric, 2),
              CASE WHEN sb_index_cond(s.query) = sb_index_cond(c.query) AND ts.ms <= 2 * tc.ms THEN 'PASS' ELSE 'MISS' END)
FROM sb_range_q s, sb_range_q c,
     (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms FROM sb_range_t WHERE rep > 0 AND label = 'SQL build') ts,
     (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms FROM sb_range_t WHERE rep > 0 AND label = 'C build') tc
WHERE s.label = 'SQL build' AND c.label = 'C build' \g (tuples_only format=unaligned)
\echo

DROP TABLE sb_range, sb_src;
