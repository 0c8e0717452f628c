-- One definition of an id's time: uuid_extract_timestamp_us().  Every
-- function that compares an id with a time must agree with it, for every v7
-- and v6 id, ours and foreign, every range and instant, with and without an
-- index.  The laws are checked on random ids (seeded: the seed is printed,
-- and PGOPTIONS='-c pg_uuidx_test.seed=S' replays a run) with range edges placed
-- a few microseconds either side of each id's time, in all four bound kinds.
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
BEGIN;
CREATE EXTENSION IF NOT EXISTS pgtap;
CREATE EXTENSION IF NOT EXISTS pg_uuidx;
-- reach pg_uuidx before same-named core functions (PostgreSQL 17+)
SET LOCAL search_path = public, pg_catalog;
SET LOCAL TimeZone = 'UTC';
SELECT plan(22);

SELECT diag('seed ' || s || ' (replay: PGOPTIONS=''-c pg_uuidx_test.seed=' || s || ''')')
FROM (SELECT coalesce(nullif(current_setting('pg_uuidx_test.seed', true), '')::float8,
                      round(random()::numeric, 6)::float8) AS s) AS seed, setseed(s);

-- an id of version v with the RFC variant from 32 hex digits; fraction, when
-- given, replaces the 12 bits after the version (v7's sub-millisecond field)
CREATE FUNCTION pg_temp.id_of(hex text, v int, fraction int DEFAULT NULL) RETURNS uuid
LANGUAGE sql IMMUTABLE AS $$
    SELECT overlay(overlay(hex PLACING to_hex(v) || coalesce(lpad(to_hex(fraction), 3, '0'), substr(hex, 14, 3))
                           FROM 13 FOR 4)
                   PLACING to_hex((('x' || substr(hex, 17, 1))::bit(4)::int & 3) | 8) FROM 17 FOR 1)::uuid
$$;

-- the microsecond of a v7 tick's fraction that writers start at: floor(u * 4096 / 1000)
CREATE FUNCTION pg_temp.first_fraction(u int) RETURNS int
LANGUAGE sql IMMUTABLE AS $$ SELECT (u * 4096) / 1000 $$;

-- ids: foreign v7 (random bits; fractions random, 0x000, 0xfff and either
-- side of a microsecond's first tick), ours (uuidv7_at, uuidv7), foreign v6
-- (random 60-bit ticks), ours (uuidv6, converted v1)
CREATE TEMP TABLE ids (id uuid, kind text);
INSERT INTO ids
SELECT pg_temp.id_of(md5(random()::text), 7,
           CASE g % 5 WHEN 0 THEN 0 WHEN 1 THEN 4095
                      WHEN 2 THEN pg_temp.first_fraction((random() * 999)::int + 1)
                      WHEN 3 THEN pg_temp.first_fraction((random() * 999)::int + 1) - 1 END),
       'foreign v7'
FROM generate_series(1, 8000) AS g;
INSERT INTO ids
SELECT uuidv7_at('2000-01-01 00:00+00'::timestamptz + random() * interval '100 years'), 'uuidv7_at'
FROM generate_series(1, 3000);
INSERT INTO ids SELECT uuidv7(), 'uuidv7' FROM generate_series(1, 1000);
INSERT INTO ids SELECT pg_temp.id_of(md5(random()::text), 6), 'foreign v6' FROM generate_series(1, 6000);
INSERT INTO ids SELECT uuidv6(), 'uuidv6' FROM generate_series(1, 1000);
INSERT INTO ids SELECT uuidv1_to_v6(pg_temp.id_of(md5(random()::text), 1)), 'v1 as v6' FROM generate_series(1, 1000);
-- the first and last ids of both spans
INSERT INTO ids VALUES ('00000000-0000-7000-8000-000000000000', 'v7 edge'),
    ('ffffffff-ffff-7fff-bfff-ffffffffffff', 'v7 edge'),
    ('00000000-0000-6000-8000-000000000000', 'v6 edge'),
    ('ffffffff-ffff-6fff-bfff-ffffffffffff', 'v6 edge');
CREATE TEMP TABLE timed AS
SELECT id, kind, uuid_extract_version(id) AS v, uuid_extract_timestamp_us(id) AS t FROM ids;
ANALYZE timed;

-- the reading itself
SELECT is((SELECT count(*) FROM timed WHERE v = 7
           AND date_trunc('milliseconds', t) IS DISTINCT FROM uuid_extract_timestamp(id)), 0::bigint,
          'v7: the microsecond reading never leaves the id''s millisecond (uuid_extract_timestamp)');

-- every fraction of one millisecond: readings non-decreasing, within the
-- millisecond, and each microsecond's run starts where writers start it
SELECT is((SELECT count(*) FROM (
               SELECT f, extract(microseconds FROM t)::int % 1000 AS us,
                      lag(extract(microseconds FROM t)::int % 1000) OVER (ORDER BY f) AS prev
               FROM (SELECT f, uuid_extract_timestamp_us(pg_temp.id_of('0190000000007000' || '8000000000000000', 7, f)) AS t
                     FROM generate_series(0, 4095) AS f) s) r
           WHERE us < 0 OR us > 999 OR us < prev
              OR (us <> coalesce(prev, -1)) <> (f = pg_temp.first_fraction(us))), 0::bigint,
          'v7: each of the 4096 fractions reads within its millisecond, in order, runs starting at floor(u * 4096 / 1000)');

SELECT is((SELECT count(*) FROM timed WHERE kind = 'v1 as v6'
           AND t IS DISTINCT FROM uuid_extract_timestamp_us(uuidv6_to_v1(id))), 0::bigint,
          'v1 and v6: an id and its conversion read the same microsecond');

-- uuidv7_at(t): its id reads back as t, and lies in [t, t + 1 h), not in [t - 1 h, t)
CREATE TEMP TABLE instants AS
SELECT t, uuidv7_at(t) AS id
FROM (SELECT '1970-01-01 00:00+00'::timestamptz + (random() * 300 * 365 * 86400 * 1000000)::bigint * interval '1 microsecond' AS t
      FROM generate_series(1, 20000)) s
UNION ALL
SELECT t, uuidv7_at(t)
FROM (SELECT '2026-01-01 00:00+00'::timestamptz + u * interval '1 microsecond' AS t FROM generate_series(0, 1999) AS u) s;
SELECT is((SELECT count(*) FROM instants WHERE uuid_extract_timestamp_us(id) IS DISTINCT FROM t), 0::bigint,
          'uuid_extract_timestamp_us(uuidv7_at(t)) = t (20,000 random instants and 2,000 consecutive microseconds)');
SELECT is((SELECT count(*) FROM instants
           WHERE NOT (id <@ tstzrange(t, t + interval '1 hour')) OR id <@ tstzrange(t - interval '1 hour', t)), 0::bigint,
          'uuidv7_at(t) <@ [t, t + 1 h) and not <@ [t - 1 h, t)');
SELECT is((SELECT count(*) FROM instants
           WHERE NOT (id >= uuidv7_boundary(t) AND id < uuidv7_boundary(t + interval '1 microsecond')
                      AND id <= uuidv7_boundary_upper(t) AND id > uuidv7_boundary_upper(t - interval '1 microsecond'))),
          0::bigint,
          'uuidv7_at(t) lies between the boundaries of t and not beyond those of its neighbours');

-- instants a few microseconds either side of each id's time (within the span)
CREATE TEMP TABLE near AS
SELECT id, v, t, t + d * interval '1 microsecond' AS x
FROM timed, generate_series(-3, 3) AS d
WHERE kind NOT LIKE '% edge';

SELECT is((SELECT count(*) FROM near WHERE v = 7
           AND ((id >= uuidv7_boundary(x)) <> (t >= x) OR (id <= uuidv7_boundary_upper(x)) <> (t <= x))), 0::bigint,
          'v7: id >= uuidv7_boundary(x) exactly when its time >= x, id <= uuidv7_boundary_upper(x) exactly when <= x');
SELECT is((SELECT count(*) FROM near WHERE v = 6
           AND ((id >= uuidv6_boundary(x)) <> (t >= x) OR (id <= uuidv6_boundary_upper(x)) <> (t <= x))), 0::bigint,
          'v6: id >= uuidv6_boundary(x) exactly when its time >= x, id <= uuidv6_boundary_upper(x) exactly when <= x');

-- ranges with both edges near each id's time, every bound kind; and
-- ranges with one side open, infinite, or empty
CREATE TEMP TABLE near_ranges AS
SELECT id, v, t, tstzrange(least(a, b), greatest(a, b), k) AS r
FROM (SELECT id, v, t,
             t + ((random() * 6)::int - 3) * interval '1 microsecond' AS a,
             t + ((random() * 6)::int - 3) * interval '1 microsecond' AS b
      FROM timed, generate_series(1, 3)) s,
     unnest('{"[]","[)","(]","()"}'::text[]) AS k
UNION ALL
SELECT id, v, t, r
FROM timed, unnest(ARRAY[tstzrange(t, NULL, '[)'), tstzrange(t, NULL, '()'), tstzrange(NULL, t, '(]'),
                         tstzrange(NULL, t, '()'), tstzrange('-infinity', t, '[]'), tstzrange(t, 'infinity', '[]'),
                         tstzrange(NULL, NULL), 'empty'::tstzrange]) AS r;

SELECT is((SELECT count(*) FROM near_ranges WHERE v = 7 AND (id <@ r) <> (t <@ r)), 0::bigint,
          'v7: id <@ r exactly when uuid_extract_timestamp_us(id) <@ r');
SELECT is((SELECT count(*) FROM near_ranges WHERE v = 6 AND uuidv6_in_time_range(id, r) <> (t <@ r)), 0::bigint,
          'v6: uuidv6_in_time_range(id, r) exactly when uuid_extract_timestamp_us(id) <@ r');
SELECT is((SELECT count(*) FROM near_ranges WHERE v = 7
           AND (id BETWEEN uuidv7_range_lower(r) AND uuidv7_range_upper(r)) <> (id <@ r)), 0::bigint,
          'v7: id BETWEEN uuidv7_range_lower(r) AND uuidv7_range_upper(r) exactly when id <@ r');
SELECT is((SELECT count(*) FROM near_ranges WHERE v = 6
           AND (id BETWEEN uuidv6_range_lower(r) AND uuidv6_range_upper(r)) <> uuidv6_in_time_range(id, r)), 0::bigint,
          'v6: id BETWEEN uuidv6_range_lower(r) AND uuidv6_range_upper(r) exactly when uuidv6_in_time_range(id, r)');
SELECT is((SELECT count(*) FROM near_ranges WHERE v = 6 AND id <@ r), 0::bigint,
          'v6 ids are never <@ a range (the operator is v7''s)');
-- the filters the planner's support functions leave behind an index
-- condition read the time as the predicates do
SELECT is((SELECT count(*) FROM near_ranges WHERE v = 7 AND uuidv7_in_time_range_recheck(id, r) <> (t <@ r)),
          0::bigint, 'v7: uuidv7_in_time_range_recheck(id, r) exactly when uuid_extract_timestamp_us(id) <@ r');
SELECT is((SELECT count(*) FROM near_ranges WHERE v = 6 AND uuidv6_in_time_range_recheck(id, r) <> (t <@ r)),
          0::bigint, 'v6: uuidv6_in_time_range_recheck(id, r) exactly when uuid_extract_timestamp_us(id) <@ r');

-- the same laws answered through a btree and a partitioned table: counts
-- per range with the index, without it, and from the reading, for ranges
-- given as constants and as values of another table
CREATE TEMP TABLE indexed AS SELECT id FROM timed;
CREATE INDEX ON indexed (id);
CREATE TEMP TABLE parted (id uuid) PARTITION BY RANGE (id);
CREATE TEMP TABLE parted_old PARTITION OF parted FOR VALUES FROM (MINVALUE) TO (uuidv7_boundary('2000-01-01 00:00+00'));
CREATE TEMP TABLE parted_mid PARTITION OF parted FOR VALUES FROM (uuidv7_boundary('2000-01-01 00:00+00'))
    TO (uuidv7_boundary('2100-01-01 00:00+00'));
CREATE TEMP TABLE parted_new PARTITION OF parted FOR VALUES FROM (uuidv7_boundary('2100-01-01 00:00+00')) TO (MAXVALUE);
INSERT INTO parted SELECT id FROM timed;
ANALYZE indexed, parted;
CREATE TEMP TABLE probe AS
SELECT row_number() OVER () AS k, v, r FROM (SELECT v, r FROM near_ranges ORDER BY random() LIMIT 300) s;

CREATE FUNCTION pg_temp.counts(how text) RETURNS TABLE (k bigint, n bigint)
LANGUAGE plpgsql AS $$
DECLARE
    p record;
    pred text;
BEGIN
    FOR p IN SELECT * FROM probe LOOP
        pred := format(CASE WHEN p.v = 7 THEN 'id <@ %L::tstzrange' ELSE 'uuidv6_in_time_range(id, %L::tstzrange)' END, p.r);
        k := p.k;
        EXECUTE format('SELECT count(*) FROM %s WHERE %s', CASE how WHEN 'parted' THEN 'parted' ELSE 'indexed' END, pred) INTO n;
        RETURN NEXT;
    END LOOP;
END $$;

CREATE FUNCTION pg_temp.explain_lines(q text) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
    l text;
BEGIN
    FOR l IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        RETURN NEXT l;
    END LOOP;
END $$;

CREATE TEMP TABLE truth AS
SELECT p.k, count(t.id) AS n FROM probe p LEFT JOIN timed t ON t.v = p.v AND t.t <@ p.r GROUP BY p.k;

SET LOCAL enable_seqscan = off;
SET LOCAL enable_bitmapscan = off;
SELECT ok((SELECT position('Index Cond' IN string_agg(l, E'\n')) > 0
           FROM pg_temp.explain_lines('SELECT count(*) FROM indexed WHERE id <@ tstzrange(''2026-01-01'', ''2026-01-02'')') AS l),
          'the btree answers id <@ r (an Index Cond)');
CREATE TEMP TABLE by_index AS SELECT * FROM pg_temp.counts('index');
SELECT ok((SELECT position('uuidv7_range_lower' IN string_agg(l, E'\n')) > 0
           FROM pg_temp.explain_lines('SELECT count(i.id) FROM probe p JOIN indexed i ON i.id <@ p.r') AS l),
          'a range from another table becomes an Index Cond on the edge functions');
CREATE TEMP TABLE by_join AS
SELECT p.k, count(i.id) AS n FROM probe p LEFT JOIN indexed i ON i.id <@ p.r WHERE p.v = 7 GROUP BY p.k
UNION ALL
SELECT p.k, count(i.id) FROM probe p LEFT JOIN indexed i ON uuidv6_in_time_range(i.id, p.r) WHERE p.v = 6 GROUP BY p.k;
RESET enable_seqscan;
RESET enable_bitmapscan;
SET LOCAL enable_indexscan = off;
SET LOCAL enable_bitmapscan = off;
CREATE TEMP TABLE by_scan AS SELECT * FROM pg_temp.counts('scan');
RESET enable_indexscan;
RESET enable_bitmapscan;
CREATE TEMP TABLE by_parted AS SELECT * FROM pg_temp.counts('parted');

SELECT is((SELECT count(*) FROM truth JOIN by_index USING (k) WHERE truth.n <> by_index.n), 0::bigint,
          'index scan: the count of every probe range equals the reading''s (300 ranges)');
SELECT is((SELECT count(*) FROM truth JOIN by_scan USING (k) WHERE truth.n <> by_scan.n), 0::bigint,
          'sequential scan: the count of every probe range equals the reading''s');
SELECT is((SELECT count(*) FROM truth JOIN by_join USING (k) WHERE truth.n <> by_join.n), 0::bigint,
          'ranges from another table (edge functions on the index): counts equal the reading''s');
SELECT is((SELECT count(*) FROM truth JOIN by_parted USING (k) WHERE truth.n <> by_parted.n), 0::bigint,
          'partitioned table (pruning on the derived edges): counts equal the reading''s');
SELECT ok((SELECT sum(n) FROM truth) > 0 AND (SELECT count(*) FROM truth WHERE n = 0) > 0,
          'the probe ranges include some that hold ids and some that hold none');

SELECT * FROM finish();
ROLLBACK;
