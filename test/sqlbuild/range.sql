-- The SQL build's time ranges (schema sqlbuild) against the C build's
-- (schema cbuild): the four range edges for 100k random ranges (every bound
-- kind, unbounded and infinite bounds, bounds outside what ids hold, empty
-- ranges), the predicates and their recheck functions for 100k (id, range)
-- pairs with ids at and a microsecond either side of the bounds, NULLs; and
-- the plans: the same index conditions on the primary key as the C build,
-- the same partitions pruned.  Seeded: the seed is printed, and
-- PGOPTIONS='-c pg_uuidx_test.seed=S' replays a run.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
BEGIN;
SET LOCAL TimeZone = 'UTC';
SELECT plan(15);

SELECT diag('seed ' || s || ' (replay: PGOPTIONS=''-c pg_uuidx_test.seed=' || s || ''')')
FROM (SELECT coalesce(nullif(current_setting('pg_uuidx_test.seed', true), '')::float8,
                      round(random()::numeric, 6)::float8) AS s) AS seed, setseed(s);

-- a random bound for version v: mostly within what its ids hold, some
-- outside, some infinite, some unbounded (NULL)
CREATE FUNCTION pg_temp.bound(v int) RETURNS timestamptz LANGUAGE sql VOLATILE AS $$
    SELECT CASE WHEN r < 0.05 THEN NULL
                WHEN r < 0.07 THEN 'infinity'
                WHEN r < 0.09 THEN '-infinity'
                WHEN r < 0.12 THEN (CASE v WHEN 7 THEN timestamptz '1970-01-01 00:00:00+00' ELSE '1582-10-15 00:00:00+00' END)
                                   + (floor(random() * 5) - 2) * interval '1 microsecond'
                WHEN r < 0.15 THEN (CASE v WHEN 7 THEN timestamptz '10889-08-02 05:31:50.655999+00' ELSE '5236-03-31 21:21:00.684697+00' END)
                                   + (floor(random() * 5) - 2) * interval '1 microsecond'
                WHEN r < 0.17 THEN timestamptz '1000-01-01 00:00:00+00' + random() * interval '1000 years'
                WHEN v = 7 THEN to_timestamp(0) + (random() * 281474976710.655999) * interval '1 second'
                ELSE timestamptz '1582-10-15 00:00:00+00' + (random() * 115292150460.684697) * interval '1 second'
           END
    FROM (SELECT random() AS r) AS x
$$;
-- a range of two bounds in order, of a random kind; some of them a few
-- microseconds wide, some empty
CREATE FUNCTION pg_temp.range_of(a timestamptz, b timestamptz) RETURNS tstzrange LANGUAGE sql VOLATILE AS $$
    SELECT CASE WHEN random() < 0.02 THEN 'empty'::tstzrange
                ELSE tstzrange(CASE WHEN a IS NULL OR b IS NULL OR a <= b THEN a ELSE b END,
                               CASE WHEN a IS NULL OR b IS NULL OR a <= b THEN b ELSE a END,
                               (ARRAY['[]', '[)', '(]', '()'])[floor(random() * 4)::int + 1]) END
$$;

CREATE TEMP TABLE ranges AS
SELECT g, v, r FROM generate_series(1, 100000) AS g, LATERAL (
    SELECT v, CASE WHEN g % 5 = 0 AND a IS NOT NULL AND isfinite(a)
                   THEN pg_temp.range_of(a, a + floor(random() * 4) * interval '1 microsecond')
                   ELSE pg_temp.range_of(a, pg_temp.bound(v)) END AS r
    FROM (SELECT CASE WHEN g % 2 = 0 THEN 7 ELSE 6 END AS v) AS vv, LATERAL (SELECT pg_temp.bound(v) AS a) AS aa
) AS x;

SELECT is((SELECT count(*) FROM ranges
           WHERE sqlbuild.uuidv7_range_lower(r) <> cbuild.uuidv7_range_lower(r)
              OR sqlbuild.uuidv7_range_upper(r) <> cbuild.uuidv7_range_upper(r)), 0::bigint,
          'uuidv7_range_lower, uuidv7_range_upper: as the C build for 100k ranges');
SELECT is((SELECT count(*) FROM ranges
           WHERE sqlbuild.uuidv6_range_lower(r) <> cbuild.uuidv6_range_lower(r)
              OR sqlbuild.uuidv6_range_upper(r) <> cbuild.uuidv6_range_upper(r)), 0::bigint,
          'uuidv6_range_lower, uuidv6_range_upper: as the C build for 100k ranges');
SELECT ok((SELECT count(*) FILTER (WHERE cbuild.uuidv7_range_lower(r) = 'ffffffff-ffff-ffff-ffff-ffffffffffff') FROM ranges) > 1000
          AND (SELECT count(*) FILTER (WHERE cbuild.uuidv7_range_lower(r) <> 'ffffffff-ffff-ffff-ffff-ffffffffffff') FROM ranges) > 50000,
          'the ranges hold ids and hold none');

-- ids at and either side of each range's bounds: the C build's v7 ids of
-- those instants (uuidv7_at, and the smallest and largest id of the
-- instant) and v6 ids (the smallest and largest), foreign ids, ids of other
-- versions and variants
CREATE TEMP TABLE pairs AS
SELECT r.g, r.v, r.r, x.id
FROM ranges r, LATERAL (
    SELECT t + (floor(random() * 3) - 1) * interval '1 microsecond' AS t
    FROM (SELECT CASE WHEN random() < 0.5 THEN lower(r.r) ELSE upper(r.r) END AS t) AS b
) AS near, LATERAL (
    SELECT CASE
        WHEN near.t IS NULL OR NOT isfinite(near.t) OR random() < 0.1 THEN md5(random()::text)::uuid
        WHEN r.v = 7 AND near.t BETWEEN '1970-01-01 00:00:00+00' AND '10889-08-02 05:31:50.655999+00' THEN
             (ARRAY[cbuild.uuidv7_at(near.t), cbuild.uuidv7_boundary(near.t), cbuild.uuidv7_boundary_upper(near.t)])[floor(random() * 3)::int + 1]
        WHEN r.v = 6 AND near.t BETWEEN '1582-10-15 00:00:00+00' AND '5236-03-31 21:21:00.684697+00' THEN
             (ARRAY[cbuild.uuidv6_boundary(near.t), cbuild.uuidv6_boundary_upper(near.t)])[floor(random() * 2)::int + 1]
        ELSE md5(random()::text)::uuid END AS id
) AS x;

SELECT is((SELECT count(*) FROM pairs
           WHERE sqlbuild.uuidv7_in_time_range(id, r) IS DISTINCT FROM cbuild.uuidv7_in_time_range(id, r)
              OR sqlbuild.uuidv7_in_time_range_recheck(id, r) IS DISTINCT FROM cbuild.uuidv7_in_time_range_recheck(id, r)
              OR (id OPERATOR(sqlbuild.<@) r) IS DISTINCT FROM (id OPERATOR(cbuild.<@) r)), 0::bigint,
          'uuidv7_in_time_range, its recheck and <@: as the C build for 100k (id, range) pairs');
SELECT is((SELECT count(*) FROM pairs
           WHERE sqlbuild.uuidv6_in_time_range(id, r) IS DISTINCT FROM cbuild.uuidv6_in_time_range(id, r)
              OR sqlbuild.uuidv6_in_time_range_recheck(id, r) IS DISTINCT FROM cbuild.uuidv6_in_time_range_recheck(id, r)), 0::bigint,
          'uuidv6_in_time_range and its recheck: as the C build for 100k (id, range) pairs');
SELECT ok((SELECT count(*) FILTER (WHERE cbuild.uuidv7_in_time_range(id, r)) FROM pairs WHERE v = 7) > 5000
          AND (SELECT count(*) FILTER (WHERE cbuild.uuidv6_in_time_range(id, r)) FROM pairs WHERE v = 6) > 5000
          AND (SELECT count(*) FILTER (WHERE NOT cbuild.uuidv7_in_time_range(id, r)) FROM pairs WHERE v = 7) > 5000,
          'the pairs are in their ranges and out of them');

-- NULL: NULL, the predicates too (not STRICT in the SQL build, see
-- sqlonly/range.sql), whatever the other argument
SELECT is(concat_ws(',', sqlbuild.uuidv7_range_lower(NULL), sqlbuild.uuidv7_range_upper(NULL),
                    sqlbuild.uuidv6_range_lower(NULL), sqlbuild.uuidv6_range_upper(NULL),
                    sqlbuild.uuidv7_in_time_range_recheck(NULL, '[2026-01-01, 2026-01-02)'),
                    sqlbuild.uuidv6_in_time_range_recheck('00000000-0000-4000-8000-000000000000', NULL)), '',
          'the edges and the rechecks: NULL for NULL');
SELECT is((SELECT count(*) FROM (VALUES (NULL::uuid, '[2026-01-01, 2026-01-02)'::tstzrange), ('00000000-0000-4000-8000-000000000000', NULL),
                                        (sqlbuild.uuidv7(), NULL), (NULL, NULL), (NULL, 'empty'), (sqlbuild.uuidv6(), NULL)) AS n(id, r)
           WHERE sqlbuild.uuidv7_in_time_range(id, r) IS NOT NULL OR sqlbuild.uuidv6_in_time_range(id, r) IS NOT NULL
              OR (id OPERATOR(sqlbuild.<@) r) IS NOT NULL), 0::bigint,
          'uuidv7_in_time_range, uuidv6_in_time_range, <@: NULL for a NULL argument, as STRICT functions');

-- the plans
CREATE TEMP TABLE events (id uuid PRIMARY KEY);
INSERT INTO events SELECT cbuild.uuidv7_at('2026-01-01'::timestamptz + g * interval '360 ms') FROM generate_series(1, 20000) AS g;
INSERT INTO events SELECT cbuild.uuidv6_boundary('2026-01-01'::timestamptz + g * interval '360 ms') FROM generate_series(1, 20000) AS g;
ANALYZE events;
CREATE FUNCTION pg_temp.plan_lines(query text, pattern text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    l text;
    r text[] := '{}';
BEGIN
    FOR l IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
        IF l ~ pattern THEN
            r := r || btrim(l);
        END IF;
    END LOOP;
    RETURN array_to_string(r, E'\n');
END $$;
SELECT is(pg_temp.plan_lines($$SELECT count(*) FROM events WHERE id OPERATOR(sqlbuild.<@) '[2026-01-01 01:00+00, 2026-01-01 01:30+00)'$$, 'Index Cond'),
          pg_temp.plan_lines($$SELECT count(*) FROM events WHERE id OPERATOR(cbuild.<@) '[2026-01-01 01:00+00, 2026-01-01 01:30+00)'$$, 'Index Cond'),
          'id <@ tstzrange: the C build''s index conditions on the primary key');
SELECT isnt(pg_temp.plan_lines($$SELECT count(*) FROM events WHERE id OPERATOR(sqlbuild.<@) '[2026-01-01 01:00+00, 2026-01-01 01:30+00)'$$, 'Index Cond'),
            '', 'id <@ tstzrange: there are index conditions');
SELECT is(pg_temp.plan_lines($$SELECT count(*) FROM events WHERE sqlbuild.uuidv6_in_time_range(id, '(2026-01-01 01:00+00, 2026-01-01 01:30+00]')$$, 'Index Cond'),
          pg_temp.plan_lines($$SELECT count(*) FROM events WHERE cbuild.uuidv6_in_time_range(id, '(2026-01-01 01:00+00, 2026-01-01 01:30+00]')$$, 'Index Cond'),
          'uuidv6_in_time_range: the C build''s index conditions');
SELECT is((SELECT count(*) FROM events WHERE id OPERATOR(sqlbuild.<@) '[2026-01-01 01:00+00, 2026-01-01 01:30+00)'),
          (SELECT count(*) FROM events WHERE id OPERATOR(cbuild.<@) '[2026-01-01 01:00+00, 2026-01-01 01:30+00)'),
          'id <@ tstzrange through the index: the C build''s rows');
SELECT is((SELECT count(*) FROM events WHERE id OPERATOR(sqlbuild.<@) '[2026-01-01 01:00+00, 2026-01-01 01:30+00)'), 5000::bigint,
          '... 5000 of them');

CREATE TEMP TABLE parted (id uuid) PARTITION BY RANGE (id);
CREATE TEMP TABLE parted_1 PARTITION OF parted FOR VALUES FROM (MINVALUE) TO (cbuild.uuidv7_boundary('2026-01-01 01:00+00'));
CREATE TEMP TABLE parted_2 PARTITION OF parted FOR VALUES FROM (cbuild.uuidv7_boundary('2026-01-01 01:00+00')) TO (cbuild.uuidv7_boundary('2026-01-01 02:00+00'));
CREATE TEMP TABLE parted_3 PARTITION OF parted FOR VALUES FROM (cbuild.uuidv7_boundary('2026-01-01 02:00+00')) TO (MAXVALUE);
SELECT is(pg_temp.plan_lines($$SELECT count(*) FROM parted WHERE id OPERATOR(sqlbuild.<@) '[2026-01-01 01:10+00, 2026-01-01 01:20+00)'$$, 'Scan on'),
          pg_temp.plan_lines($$SELECT count(*) FROM parted WHERE id OPERATOR(cbuild.<@) '[2026-01-01 01:10+00, 2026-01-01 01:20+00)'$$, 'Scan on'),
          'a table partitioned by the id: the C build''s partitions pruned');
SELECT is(pg_temp.plan_lines($$SELECT count(*) FROM parted WHERE id OPERATOR(sqlbuild.<@) '[2026-01-01 01:10+00, 2026-01-01 01:20+00)'$$, 'Scan on'),
          '->  Seq Scan on parted_2 parted', '... one partition of three');

SELECT * FROM finish();
ROLLBACK;
