-- Coexistence with core's UUID functions of the same names.
--
-- PostgreSQL 17 added pg_catalog.uuid_extract_timestamp(uuid) (v1 only; 18
-- reads v7 too) and uuid_extract_version(uuid); 18 added uuidv7(),
-- uuidv7(interval) and uuidv4().  pg_catalog is searched before every schema
-- of search_path unless it is listed explicitly, so unqualified calls reach
-- core.  Here pg_uuidx lives in schema uuidx and its functions are compared
-- with core's over ~100k inputs: they must agree wherever core answers,
-- except on v6 (core: NULL, pg_uuidx: the timestamp) and, on 17, v7 (core:
-- NULL).  The last tests show the two documented ways to reach pg_uuidx's
-- functions: schema-qualified names, or search_path = uuidx, pg_catalog, ...
--
-- Before 17 there is no core function to compare with: every test skips.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
BEGIN;
CREATE EXTENSION IF NOT EXISTS pgtap;
SET LOCAL TimeZone = 'UTC';
SELECT plan(25);

SELECT current_setting('server_version_num')::int >= 170000 AS core17,
       current_setting('server_version_num')::int >= 180000 AS core18,
       EXISTS (SELECT FROM pg_available_extensions WHERE name = 'uuid-ossp') AS have_ossp
\gset

\if :core17

CREATE SCHEMA uuidx;
CREATE EXTENSION pg_uuidx SCHEMA uuidx;

-- Building blocks, independent of both implementations: 64 random bits; a
-- uuid from its two big-endian halves; the four variants of RFC 9562 4.1
-- applied to octets 8-15; a version nibble set in octets 0-7.
CREATE FUNCTION pg_temp.r64() RETURNS bigint LANGUAGE sql VOLATILE
AS $$ SELECT (floor(random() * 4294967296)::bigint << 32) | floor(random() * 4294967296)::bigint $$;

CREATE FUNCTION pg_temp.mk(hi bigint, lo bigint) RETURNS uuid LANGUAGE sql IMMUTABLE STRICT
AS $$ SELECT (lpad(to_hex(hi), 16, '0') || lpad(to_hex(lo), 16, '0'))::uuid $$;

CREATE FUNCTION pg_temp.variant(lo bigint, v text) RETURNS bigint LANGUAGE sql IMMUTABLE STRICT
AS $$ SELECT CASE v
    WHEN 'ncs' THEN lo & x'7FFFFFFFFFFFFFFF'::bigint                                     -- 0b0
    WHEN 'rfc' THEN (lo & x'3FFFFFFFFFFFFFFF'::bigint) | x'8000000000000000'::bigint     -- 0b10
    WHEN 'microsoft' THEN (lo & x'1FFFFFFFFFFFFFFF'::bigint) | x'C000000000000000'::bigint -- 0b110
    WHEN 'future' THEN lo | x'E000000000000000'::bigint                                  -- 0b111
    END $$;

CREATE FUNCTION pg_temp.with_version(hi bigint, ver int) RETURNS bigint LANGUAGE sql IMMUTABLE STRICT
AS $$ SELECT (hi & ~x'000000000000F000'::bigint) | (ver::bigint << 12) $$;

-- v1 (RFC 9562 5.1): time_low, time_mid, version, time_high of a 60-bit tick
CREATE FUNCTION pg_temp.v1(tick bigint, lo bigint) RETURNS uuid LANGUAGE sql IMMUTABLE STRICT
AS $$ SELECT pg_temp.mk(((tick & x'FFFFFFFF'::bigint) << 32)
                        | (((tick >> 32) & x'FFFF'::bigint) << 16)
                        | (1::bigint << 12)
                        | ((tick >> 48) & x'FFF'::bigint),
                        pg_temp.variant(lo, 'rfc')) $$;

-- v6 (RFC 9562 5.6): the same tick, most significant bits first
CREATE FUNCTION pg_temp.v6(tick bigint, lo bigint) RETURNS uuid LANGUAGE sql IMMUTABLE STRICT
AS $$ SELECT pg_temp.mk(((tick >> 12) << 16) | (6::bigint << 12) | (tick & x'FFF'::bigint),
                        pg_temp.variant(lo, 'rfc')) $$;

-- v7 (RFC 9562 5.7): 48-bit Unix milliseconds, version, 12 random bits
CREATE FUNCTION pg_temp.v7(ms bigint, r bigint) RETURNS uuid LANGUAGE sql IMMUTABLE STRICT
AS $$ SELECT pg_temp.mk((ms << 16) | (7::bigint << 12) | (r & x'FFF'::bigint),
                        pg_temp.variant(r, 'rfc')) $$;

-- the Unix milliseconds of a v7 id, read from its text form
CREATE FUNCTION pg_temp.v7_ms(uuid) RETURNS bigint LANGUAGE sql IMMUTABLE STRICT
AS $$ SELECT ('x' || substr(replace($1::text, '-', ''), 1, 12))::bit(48)::bigint $$;

-- a random 60-bit tick of random magnitude, so small and large ones occur
CREATE FUNCTION pg_temp.tick() RETURNS bigint LANGUAGE sql VOLATILE
AS $$ SELECT (pg_temp.r64() & x'0FFFFFFFFFFFFFFF'::bigint) >> floor(random() * 60)::int $$;

CREATE TEMP TABLE inputs (kind text NOT NULL, id uuid NOT NULL);

-- v1: random ticks, ticks near now, edge ticks (0, the Unix epoch, 2^60 - 1)
INSERT INTO inputs
SELECT 'v1', pg_temp.v1(pg_temp.tick(), pg_temp.r64()) FROM generate_series(1, 15000);
INSERT INTO inputs
SELECT 'v1', pg_temp.v1(x'01B21DD213814000'::bigint
                        + (extract(epoch FROM now()) * 10000000)::bigint
                        + (random() * 1e13)::bigint - 5000000000000, pg_temp.r64())
FROM generate_series(1, 5000);
INSERT INTO inputs
SELECT 'v1', pg_temp.v1(t, l)
FROM unnest(ARRAY[0, 1, 9, 10, 11, 99999999, x'01B21DD213814000'::bigint,
                  x'0FFFFFFFFFFFFFFE'::bigint, x'0FFFFFFFFFFFFFFF'::bigint]) AS t,
     unnest(ARRAY[0, -1]) AS l;

-- v6: random ticks and pg_uuidx's generator
INSERT INTO inputs
SELECT 'v6', pg_temp.v6(pg_temp.tick(), pg_temp.r64()) FROM generate_series(1, 5000);
INSERT INTO inputs SELECT 'v6', uuidx.uuidv6() FROM generate_series(1, 5000);

-- v7: pg_uuidx's generators, random milliseconds over the whole 48 bits
INSERT INTO inputs SELECT 'v7', uuidx.uuidv7() FROM generate_series(1, 10000);
INSERT INTO inputs
SELECT 'v7', uuidx.uuidv7(make_interval(secs => (random() - 0.5) * 3e9))
FROM generate_series(1, 5000);
INSERT INTO inputs
SELECT 'v7', uuidx.uuidv7_at(timestamptz '1970-01-01 00:00:00+00' + random() * interval '200 years')
FROM generate_series(1, 5000);
INSERT INTO inputs
SELECT 'v7', pg_temp.v7((pg_temp.r64() & x'FFFFFFFFFFFF'::bigint) >> floor(random() * 48)::int, pg_temp.r64())
FROM generate_series(1, 10000);

-- v4 from core's generator (PostgreSQL 13+)
INSERT INTO inputs SELECT 'v4', gen_random_uuid() FROM generate_series(1, 10000);

-- random bytes: every version nibble with the RFC variant, and every version
-- nibble with each of the three other variants
INSERT INTO inputs
SELECT 'rfc', pg_temp.mk(pg_temp.with_version(pg_temp.r64(), ver), pg_temp.variant(pg_temp.r64(), 'rfc'))
FROM generate_series(0, 15) AS ver, generate_series(1, 2000);
INSERT INTO inputs
SELECT 'non-rfc', pg_temp.mk(pg_temp.with_version(pg_temp.r64(), ver), pg_temp.variant(pg_temp.r64(), v))
FROM generate_series(0, 15) AS ver, unnest(ARRAY['ncs', 'microsoft', 'future']) AS v,
     generate_series(1, 500);

\if :have_ossp
CREATE SCHEMA ossp;
CREATE EXTENSION "uuid-ossp" SCHEMA ossp;
INSERT INTO inputs SELECT 'ossp-v1', ossp.uuid_generate_v1() FROM generate_series(1, 2000);
INSERT INTO inputs SELECT 'ossp-v1', ossp.uuid_generate_v1mc() FROM generate_series(1, 2000);
\endif

CREATE TEMP TABLE cmp AS
SELECT kind, id,
       get_byte(uuid_send(id), 6) >> 4 AS nibble,
       uuidx.uuid_extract_timestamp(id) AS ours_ts,
       pg_catalog.uuid_extract_timestamp(id) AS core_ts,
       uuidx.uuid_extract_version(id) AS ours_ver,
       pg_catalog.uuid_extract_version(id) AS core_ver
FROM inputs;

SELECT is_empty($$
    SELECT kind, id, ours_ver, core_ver FROM cmp
    WHERE ours_ver IS DISTINCT FROM core_ver LIMIT 5 $$,
    format('uuid_extract_version: pg_uuidx = core on all %s inputs', (SELECT count(*) FROM cmp)));

SELECT is_empty($$
    SELECT id, ours_ts, core_ts FROM cmp
    WHERE kind = 'v1' AND (ours_ts IS DISTINCT FROM core_ts OR core_ts IS NULL) LIMIT 5 $$,
    'uuid_extract_timestamp on v1 ids from random ticks: pg_uuidx = core, never NULL');

\if :have_ossp
SELECT is_empty($$
    SELECT id, ours_ts, core_ts FROM cmp
    WHERE kind = 'ossp-v1' AND (ours_ts IS DISTINCT FROM core_ts OR core_ts IS NULL) LIMIT 5 $$,
    'uuid_extract_timestamp on uuid-ossp''s uuid_generate_v1()/v1mc() ids: pg_uuidx = core');
\else
SELECT skip('uuid-ossp is not available on this server', 1);
\endif

SELECT is_empty($$
    SELECT id, ours_ts, pg_temp.v7_ms(id) FROM cmp
    WHERE kind = 'v7' AND extract(epoch FROM ours_ts) * 1000 IS DISTINCT FROM pg_temp.v7_ms(id) LIMIT 5 $$,
    'uuid_extract_timestamp on v7 ids: pg_uuidx reads the 48-bit Unix milliseconds');

\if :core18
SELECT is_empty($$
    SELECT id, ours_ts, core_ts FROM cmp
    WHERE kind = 'v7' AND (ours_ts IS DISTINCT FROM core_ts OR core_ts IS NULL) LIMIT 5 $$,
    'uuid_extract_timestamp on v7 ids: pg_uuidx = core (18 reads v7)');
\else
SELECT is_empty($$
    SELECT id, core_ts FROM cmp WHERE kind = 'v7' AND core_ts IS NOT NULL LIMIT 5 $$,
    'uuid_extract_timestamp on v7 ids: core returns NULL on 17 (it reads v7 from 18 on), pg_uuidx does not');
\endif

SELECT is_empty($$
    SELECT id, ours_ts, core_ts, ours_ver FROM cmp
    WHERE kind = 'v4' AND (ours_ts IS NOT NULL OR core_ts IS NOT NULL OR ours_ver <> 4) LIMIT 5 $$,
    'v4 ids: no timestamp from either, version 4');

SELECT is_empty($$
    SELECT id, nibble, ours_ts, core_ts FROM cmp
    WHERE kind = 'rfc' AND nibble <> 6
      AND (nibble <> 7 OR current_setting('server_version_num')::int >= 180000)
      AND ours_ts IS DISTINCT FROM core_ts LIMIT 5 $$,
    'uuid_extract_timestamp on random RFC-variant bytes of every version but 6 (and 7 before 18): pg_uuidx = core');

SELECT is_empty($$
    SELECT id, ours_ts, core_ts, ours_ver, core_ver FROM cmp
    WHERE kind = 'non-rfc'
      AND (ours_ts IS NOT NULL OR core_ts IS NOT NULL OR ours_ver IS NOT NULL OR core_ver IS NOT NULL) LIMIT 5 $$,
    'NCS, Microsoft and future variants, every version nibble: NULL timestamp and version from both');

SELECT is_empty($$
    SELECT id, ours_ts, core_ts FROM cmp
    WHERE (kind = 'v6' OR (kind = 'rfc' AND nibble = 6)) AND (core_ts IS NOT NULL OR ours_ts IS NULL) LIMIT 5 $$,
    'v6 ids: core returns NULL, pg_uuidx a timestamp');

SELECT is_empty($$
    SELECT id, ours_ts, pg_catalog.uuid_extract_timestamp(uuidx.uuidv6_to_v1(id)) FROM cmp
    WHERE kind = 'v6'
      AND ours_ts IS DISTINCT FROM pg_catalog.uuid_extract_timestamp(uuidx.uuidv6_to_v1(id)) LIMIT 5 $$,
    'v6 ids: pg_uuidx''s timestamp = core''s timestamp of the id converted to v1');

SELECT is_empty($$
    SELECT id, core_ts, uuidx.uuid_extract_timestamp(uuidx.uuidv1_to_v6(id)) FROM cmp
    WHERE kind IN ('v1', 'ossp-v1')
      AND core_ts IS DISTINCT FROM uuidx.uuid_extract_timestamp(uuidx.uuidv1_to_v6(id)) LIMIT 5 $$,
    'v1 ids: core''s timestamp = pg_uuidx''s timestamp of the id converted to v6');

-- RFC 9562 Appendix A test vectors: all three made at 2022-02-22 19:22:22 UTC
SELECT results_eq(
    $$ SELECT uuidx.uuid_extract_timestamp(id), pg_catalog.uuid_extract_timestamp(id)
       FROM (VALUES ('C232AB00-9414-11EC-B3C8-9E6BDECED846'::uuid)) AS v(id) $$,
    $$ VALUES ('2022-02-22 19:22:22+00'::timestamptz, '2022-02-22 19:22:22+00'::timestamptz) $$,
    'RFC 9562 A.1 v1 vector: both read 2022-02-22 19:22:22+00');

SELECT results_eq(
    $$ SELECT uuidx.uuid_extract_timestamp(id), pg_catalog.uuid_extract_timestamp(id)
       FROM (VALUES ('1EC9414C-232A-6B00-B3C8-9E6BDECED846'::uuid)) AS v(id) $$,
    $$ VALUES ('2022-02-22 19:22:22+00'::timestamptz, NULL::timestamptz) $$,
    'RFC 9562 A.5 v6 vector: pg_uuidx reads 2022-02-22 19:22:22+00, core NULL');

SELECT results_eq(
    $$ SELECT uuidx.uuid_extract_timestamp(id), pg_catalog.uuid_extract_timestamp(id)
       FROM (VALUES ('017F22E2-79B0-7CC3-98C4-DC0C0C07398F'::uuid)) AS v(id) $$,
    format($$ VALUES ('2022-02-22 19:22:22+00'::timestamptz, %L::timestamptz) $$,
           CASE WHEN current_setting('server_version_num')::int >= 180000 THEN '2022-02-22 19:22:22+00' END),
    'RFC 9562 A.6 v7 vector: pg_uuidx reads 2022-02-22 19:22:22+00, core too from 18 on (NULL on 17)');

\if :core18

-- core's and pg_uuidx's generators side by side
-- core_before, ours_id and core_id are made in that order, so ours lies
-- between two core readings of the same clock (no timing tolerance)
CREATE TEMP TABLE pairs AS
SELECT g, pg_catalog.uuidv7() AS core_before, uuidx.uuidv7() AS ours_id, pg_catalog.uuidv7() AS core_id
FROM generate_series(1, 2000) AS g;

SELECT is_empty($$
    SELECT core_id, ours_id FROM pairs
    WHERE NOT (pg_catalog.uuid_extract_version(core_id) = 7 AND pg_catalog.uuid_extract_version(ours_id) = 7
               AND get_byte(uuid_send(core_id), 8) & 192 = 128 AND get_byte(uuid_send(ours_id), 8) & 192 = 128)
    LIMIT 5 $$,
    'uuidv7(): core''s and pg_uuidx''s ids are both version 7, variant 0b10');

SELECT is_empty($$
    SELECT core_id, ours_id FROM pairs
    WHERE NOT pg_temp.v7_ms(ours_id) BETWEEN pg_temp.v7_ms(core_before) AND pg_temp.v7_ms(core_id)
       OR pg_catalog.uuid_extract_timestamp(ours_id) IS DISTINCT FROM uuidx.uuid_extract_timestamp(ours_id)
    LIMIT 5 $$,
    'uuidv7(): an id made between two of core''s carries a millisecond between theirs, and core reads pg_uuidx''s as pg_uuidx does');

SELECT is_empty($$
    SELECT shift, core_id, ours_id
    FROM (SELECT shift, pg_catalog.uuidv7(shift) AS core_before, uuidx.uuidv7(shift) AS ours_id,
                 pg_catalog.uuidv7(shift) AS core_id
          FROM unnest(ARRAY['-1 day', '1 hour', '-90 minutes 30 seconds', '-5000 days',
                            '12 days 4 hours', '-1 year', '3 months']::interval[]) AS shift,
               generate_series(1, 100)) AS s
    WHERE NOT pg_temp.v7_ms(ours_id) BETWEEN pg_temp.v7_ms(core_before) AND pg_temp.v7_ms(core_id)
       OR get_byte(uuid_send(ours_id), 6) >> 4 <> 7
    LIMIT 5 $$,
    'uuidv7(interval): core and pg_uuidx shift the clock alike (ours lies between two of core''s made around it)');

SELECT is_empty($$
    SELECT core_id, ours_id
    FROM (SELECT pg_catalog.uuidv4() AS core_id, uuidx.uuidv4() AS ours_id FROM generate_series(1, 2000)) AS s
    WHERE NOT (pg_catalog.uuid_extract_version(core_id) = 4 AND pg_catalog.uuid_extract_version(ours_id) = 4
               AND get_byte(uuid_send(core_id), 8) & 192 = 128 AND get_byte(uuid_send(ours_id), 8) & 192 = 128)
    LIMIT 5 $$,
    'uuidv4(): core''s and pg_uuidx''s ids are both version 4, variant 0b10');

-- a shift past what v7 holds: an error in both (core 18 was written to wrap
-- such shifts; 18.6 refuses them), never a wrapped id
SELECT throws_ok($$SELECT uuidx.uuidv7('-60 years')$$, '22008', 'timestamp out of range for UUIDv7',
    'uuidv7(interval): pg_uuidx refuses a shift before 1970 (22008)');
SELECT throws_ok($$SELECT pg_catalog.uuidv7('-60 years')$$, '22008', NULL,
    'uuidv7(interval): core refuses a shift before 1970 too (22008)');

-- core's ids (a nanosecond clock, moved ahead within a backend) read as the
-- microsecond of the call, at most 1 us later, never outside their millisecond
SELECT is_empty($$
    SELECT id FROM (SELECT clock_timestamp() AS before, pg_catalog.uuidv7() AS id, clock_timestamp() AS after
                    FROM generate_series(1, 20000)) AS s
    WHERE NOT uuidx.uuid_extract_timestamp_us(id) BETWEEN before AND after + interval '1 microsecond'
       OR date_trunc('milliseconds', uuidx.uuid_extract_timestamp_us(id)) <> pg_catalog.uuid_extract_timestamp(id)
    LIMIT 5 $$,
    'uuid_extract_timestamp_us() of core''s uuidv7(): between the clock before and after the call (+1 us), in its millisecond');

\else
SELECT skip('core has no uuidv7()/uuidv4() before PostgreSQL 18', 7);
\endif

-- Reaching pg_uuidx's functions.  pg_catalog not named in search_path is
-- searched first, so with the usual path the unqualified names are core's:
SET LOCAL search_path = uuidx, public;

SELECT ok('uuid_extract_timestamp(uuid)'::regprocedure = 'pg_catalog.uuid_extract_timestamp(uuid)'::regprocedure
          AND uuid_extract_timestamp('1EC9414C-232A-6B00-B3C8-9E6BDECED846') IS NULL,
          'search_path = uuidx, public: unqualified uuid_extract_timestamp() is core''s (NULL for v6)');

SELECT is('uuidv7()'::regprocedure::oid,
          coalesce(to_regprocedure('pg_catalog.uuidv7()'), 'uuidx.uuidv7()'::regprocedure)::oid,
          'search_path = uuidx, public: unqualified uuidv7() is core''s from 18 on (pg_uuidx''s on 17)');

-- ... and naming pg_catalog after pg_uuidx's schema puts pg_uuidx first.
SET LOCAL search_path = uuidx, pg_catalog, public;

SELECT is(uuid_extract_timestamp('1EC9414C-232A-6B00-B3C8-9E6BDECED846'),
          '2022-02-22 19:22:22+00'::timestamptz,
          'search_path = uuidx, pg_catalog, public: unqualified uuid_extract_timestamp() reads v6 (pg_uuidx''s)');

SELECT is('uuidv7()'::regprocedure::oid, 'uuidx.uuidv7()'::regprocedure::oid,
          'search_path = uuidx, pg_catalog, public: unqualified uuidv7() is uuidx.uuidv7()');

\else
SELECT skip('PostgreSQL ' || current_setting('server_version') || ' has no core UUID functions to compare with (17+)', 25);
\endif

SELECT * FROM finish();
ROLLBACK;
