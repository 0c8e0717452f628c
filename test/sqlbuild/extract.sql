-- The SQL build's extractors, conversions, boundaries and min/max (schema
-- sqlbuild) against the C build's (schema cbuild): 100k random inputs per
-- function (seeded: the seed is printed, PGOPTIONS='-c pg_uuidx_test.seed=S'
-- replays a run) and the edges (millisecond and microsecond boundaries,
-- 0x000 and 0xfff fractions, the first and last time of each version,
-- every version and variant, NULL), each the same value or the same error
-- (SQLSTATE, message and detail).
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
BEGIN;
SET LOCAL TimeZone = 'UTC';
SELECT plan(20);

SELECT diag('seed ' || s || ' (replay: PGOPTIONS=''-c pg_uuidx_test.seed=' || s || ''')')
FROM (SELECT coalesce(nullif(current_setting('pg_uuidx_test.seed', true), '')::float8,
                      round(random()::numeric, 6)::float8) AS s) AS seed, setseed(s);

-- the outcome of an expression: its value as text, or its error
CREATE FUNCTION pg_temp.outcome(expr text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
    st text;
    msg text;
    det text;
    hint text;
BEGIN
    EXECUTE 'SELECT (' || expr || ')::text' INTO r;
    RETURN coalesce(r, 'NULL');
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL, hint = PG_EXCEPTION_HINT;
    RETURN format('ERROR %s: %s (%s) (%s)', st, msg, det, hint);
END $$;

-- an id from 32 hex digits with version v (NULL: as it is) and the two
-- variant bits var (NULL: as they are)
CREATE FUNCTION pg_temp.id_of(hex text, v int, var int) RETURNS uuid LANGUAGE sql IMMUTABLE AS $$
    SELECT overlay(overlay(hex PLACING coalesce(to_hex(v), substr(hex, 13, 1)) FROM 13 FOR 1)
                   PLACING coalesce(to_hex((('x' || substr(hex, 17, 1))::bit(4)::int & 3) | (var << 2)), substr(hex, 17, 1))
                   FROM 17 FOR 1)::uuid
$$;

-- 100k ids: half of them v1, v6 or v7 of the RFC variant, the rest any
-- version and variant; then the edges
CREATE TEMP TABLE ids AS
SELECT g, CASE WHEN g % 2 = 0 THEN pg_temp.id_of(md5(random()::text), (ARRAY[1, 6, 7])[g % 3 + 1], 2)
               ELSE pg_temp.id_of(md5(random()::text), NULL, NULL) END AS id
FROM generate_series(1, 100000) AS g;
INSERT INTO ids
SELECT 100000 + row_number() OVER (), pg_temp.id_of(h, v, var)
FROM unnest(ARRAY['00000000000000000000000000000000', 'ffffffffffffffffffffffffffffffff',
                  '00000000000000000000000000000001', '000000000001' || '0fff' || '0000000000000000',
                  '000000000001' || '0000' || '0000000000000000', '0000000003e7' || '0fff' || 'ffffffffffffffff',
                  '0000000003e8' || '0000' || '0000000000000000', '01b21dd21381' || '0400' || '0000000000000000',
                  '13814000' || '1dd2' || '01b2' || '0000000000000000', '7fffffffffff' || '0fff' || 'ffffffffffffffff']) AS h,
     generate_series(0, 15) AS v, generate_series(0, 3) AS var;

SELECT is((SELECT count(*) FROM ids
           WHERE sqlbuild.uuid_extract_timestamp(id) IS DISTINCT FROM cbuild.uuid_extract_timestamp(id)), 0::bigint,
          'uuid_extract_timestamp: as the C build for ' || (SELECT count(*) FROM ids) || ' ids');
SELECT is((SELECT count(*) FROM ids
           WHERE sqlbuild.uuid_extract_timestamp_us(id) IS DISTINCT FROM cbuild.uuid_extract_timestamp_us(id)), 0::bigint,
          'uuid_extract_timestamp_us: as the C build');
SELECT is((SELECT count(*) FROM ids
           WHERE sqlbuild.uuid_extract_version(id) IS DISTINCT FROM cbuild.uuid_extract_version(id)), 0::bigint,
          'uuid_extract_version: as the C build');
SELECT ok((SELECT count(*) FROM ids WHERE cbuild.uuid_extract_timestamp(id) IS NOT NULL) > 50000
          AND (SELECT count(*) FROM ids WHERE cbuild.uuid_extract_timestamp(id) IS NULL) > 20000,
          'the ids have times and have none');

-- every 12-bit fraction of one millisecond, each read to the microsecond
SELECT is((SELECT count(*) FROM generate_series(0, 4095) AS f, LATERAL (
               SELECT pg_temp.id_of('0190000000000' || lpad(to_hex(f), 3, '0') || '8000000000000000', 7, 2) AS id) x
           WHERE sqlbuild.uuid_extract_timestamp_us(id) IS DISTINCT FROM cbuild.uuid_extract_timestamp_us(id)
              OR sqlbuild.uuid_extract_timestamp(id) IS DISTINCT FROM cbuild.uuid_extract_timestamp(id)), 0::bigint,
          'v7: each of the 4096 fractions of a millisecond read as the C build reads it');

-- conversions: 100k v1 and 100k v6 ids, there and back
CREATE TEMP TABLE v1v6 AS
SELECT pg_temp.id_of(md5(random()::text), 1, 2) AS v1, pg_temp.id_of(md5(random()::text), 6, 2) AS v6
FROM generate_series(1, 100000);
SELECT is((SELECT count(*) FROM v1v6 WHERE sqlbuild.uuidv1_to_v6(v1) <> cbuild.uuidv1_to_v6(v1)), 0::bigint,
          'uuidv1_to_v6: as the C build for 100k v1 ids');
SELECT is((SELECT count(*) FROM v1v6 WHERE sqlbuild.uuidv6_to_v1(v6) <> cbuild.uuidv6_to_v1(v6)), 0::bigint,
          'uuidv6_to_v1: as the C build for 100k v6 ids');
SELECT is((SELECT count(*) FROM v1v6 WHERE sqlbuild.uuidv6_to_v1(sqlbuild.uuidv1_to_v6(v1)) <> v1), 0::bigint,
          'v1 -> v6 -> v1 is the identity');
-- the errors: 2000 ids of other versions and variants, and the edges
SELECT is((SELECT count(*) FROM (SELECT id FROM ids WHERE g % 50 = 1 OR g > 100000) x, (VALUES ('uuidv1_to_v6'), ('uuidv6_to_v1')) AS f(fn)
           WHERE pg_temp.outcome(format('sqlbuild.%I(%L::uuid)', fn, id)) <> pg_temp.outcome(format('cbuild.%I(%L::uuid)', fn, id))),
          0::bigint, 'uuidv1_to_v6, uuidv6_to_v1: the same value or the same error (SQLSTATE, message, detail, hint) for 2640 ids');

-- boundaries: 100k random instants across each version's span, and edges
CREATE TEMP TABLE instants AS
SELECT to_timestamp(0) + (random() * 281474976710.655999) * interval '1 second' AS t7,
       timestamptz '1582-10-15 00:00:00+00' + (random() * 115292150460.684697) * interval '1 second' AS t6
FROM generate_series(1, 100000);
CREATE TEMP TABLE edges AS
SELECT t FROM unnest(ARRAY['1970-01-01 00:00:00+00', '1970-01-01 00:00:00.000001+00', '1969-12-31 23:59:59.999999+00',
                           '2026-01-01 00:00:00.000999+00', '2026-01-01 00:00:00.001+00', '2026-01-01 00:00:00.000244+00',
                           '2026-01-01 00:00:00.000245+00', '2026-01-01 00:00:00.000488+00', '2026-01-01 00:00:00.000489+00',
                           '10889-08-02 05:31:50.655999+00', '10889-08-02 05:31:50.656+00', '10889-08-02 05:31:50.655998+00',
                           '1582-10-15 00:00:00+00', '1582-10-14 23:59:59.999999+00', '1582-10-15 00:00:00.000001+00',
                           '5236-03-31 21:21:00.684697+00', '5236-03-31 21:21:00.684698+00', '5236-03-31 21:21:00.684696+00',
                           'infinity', '-infinity', '4713-01-01 00:00:00+00 BC', '294276-12-31 23:59:59.999999+00']::timestamptz[]) AS t;
SELECT is((SELECT count(*) FROM instants
           WHERE sqlbuild.uuidv7_boundary(t7) <> cbuild.uuidv7_boundary(t7)
              OR sqlbuild.uuidv7_boundary_upper(t7) <> cbuild.uuidv7_boundary_upper(t7)), 0::bigint,
          'uuidv7_boundary, uuidv7_boundary_upper: as the C build for 100k instants');
SELECT is((SELECT count(*) FROM instants
           WHERE sqlbuild.uuidv6_boundary(t6) <> cbuild.uuidv6_boundary(t6)
              OR sqlbuild.uuidv6_boundary_upper(t6) <> cbuild.uuidv6_boundary_upper(t6)), 0::bigint,
          'uuidv6_boundary, uuidv6_boundary_upper: as the C build for 100k instants');
SELECT is((SELECT string_agg(fn || '(' || t || ')', ', ') FROM edges,
               unnest(ARRAY['uuidv7_boundary', 'uuidv7_boundary_upper', 'uuidv6_boundary', 'uuidv6_boundary_upper']) AS fn
           WHERE pg_temp.outcome(format('sqlbuild.%I(%L::timestamptz)', fn, t))
                 <> pg_temp.outcome(format('cbuild.%I(%L::timestamptz)', fn, t))), NULL,
          'the boundaries at the edges: the same value or the same error');
SELECT ok((SELECT count(*) FROM edges WHERE pg_temp.outcome(format('sqlbuild.uuidv7_boundary(%L::timestamptz)', t)) LIKE 'ERROR 22008%') >= 6,
          'the edges include times out of range');

-- min and max, and their transition functions
CREATE TEMP TABLE pairs AS
SELECT a.id AS a, b.id AS b FROM ids a JOIN ids b ON b.g = 100611 - a.g WHERE a.g <= 100610;
SELECT is((SELECT count(*) FROM pairs
           WHERE sqlbuild.uuid_smaller(a, b) <> cbuild.uuid_smaller(a, b)
              OR sqlbuild.uuid_larger(a, b) <> cbuild.uuid_larger(a, b)), 0::bigint,
          'uuid_smaller, uuid_larger: as the C build for 100k pairs');
SELECT is((SELECT sqlbuild.min(id)::text || sqlbuild.max(id)::text FROM ids),
          (SELECT cbuild.min(id)::text || cbuild.max(id)::text FROM ids), 'min(uuid), max(uuid): as the C build');
SELECT is((SELECT sqlbuild.min(id) FROM ids WHERE false), NULL, 'min(uuid) of no rows is NULL');

-- NULL in, NULL out
SELECT is(concat_ws(',', sqlbuild.uuid_extract_timestamp(NULL), sqlbuild.uuid_extract_timestamp_us(NULL),
                    sqlbuild.uuid_extract_version(NULL), sqlbuild.uuidv1_to_v6(NULL), sqlbuild.uuidv6_to_v1(NULL),
                    sqlbuild.uuidv7_boundary(NULL), sqlbuild.uuidv7_boundary_upper(NULL), sqlbuild.uuidv6_boundary(NULL),
                    sqlbuild.uuidv6_boundary_upper(NULL), sqlbuild.uuid_smaller(NULL, '00000000-0000-0000-0000-000000000000'),
                    sqlbuild.uuid_larger('00000000-0000-0000-0000-000000000000', NULL)), '',
          'every reader, conversion and boundary: NULL for NULL');

-- uuid_extract_version is inlined: the plan shows its expression, no call
-- (the other readers are PL/pgSQL; make bench times them all)
CREATE FUNCTION pg_temp.plan_text(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    l text;
    r text := '';
BEGIN
    FOR l IN EXECUTE 'EXPLAIN (VERBOSE, COSTS OFF) ' || query LOOP
        r := r || l || E'\n';
    END LOOP;
    RETURN r;
END $$;
SELECT unalike(pg_temp.plan_text('SELECT sqlbuild.uuid_extract_version(id) FROM ids'), '%uuid_extract_version%',
               'uuid_extract_version() is inlined');
-- (the generators' error arms call uuidv7_boundary and uuidv6_boundary)
SELECT unalike(pg_temp.plan_text('SELECT sqlbuild.uuidv7() FROM ids'), '%sqlbuild.uuidv7()%',
               'uuidv7() is inlined');
SELECT unalike(pg_temp.plan_text('SELECT sqlbuild.uuidv6() FROM ids'), '%sqlbuild.uuidv6()%',
               'uuidv6() is inlined');

SELECT * FROM finish();
ROLLBACK;
