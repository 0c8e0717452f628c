-- the UUIDv47 facade, SipHash-2-4, the microsecond reader and ordered
-- backfill (uuidv7_at)
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
CREATE EXTENSION pg_uuidx;
SET search_path = public, pg_catalog;
SET TimeZone = 'UTC';

-- SipHash-2-4: the paper's 64 vectors (key 00..0f, message 00..len-1) and the
-- UUIDv47 reference's crafted ids: tables sip_vectors and ref_vectors
\i test/vectors/facade.sql

SELECT count(*) AS vectors,
       count(*) FILTER (WHERE siphash24(
           coalesce((SELECT string_agg(set_byte('\x00'::bytea, 0, b), ''::bytea ORDER BY b)
                     FROM generate_series(0, len - 1) AS b), ''::bytea),
           '\x000102030405060708090a0b0c0d0e0f') <> expected) AS mismatches
FROM sip_vectors;
SELECT siphash24('', '\x000102030405060708090a0b0c0d0e0f') AS len0,
       siphash24('\x000102030405060708090a0b0c0d0e', '\x000102030405060708090a0b0c0d0e0f') AS len15;

-- UUIDv47 reference (stateless-me/uuidv47, tests.c's crafted ids) under
-- k0 = 0x0123456789abcdef, k1 = 0xfedcba9876543210: as a 16-byte key, each
-- half little-endian
SELECT v7, uuidv47_encode(v7, '\xefcdab89674523011032547698badcfe') AS facade,
       uuidv47_encode(v7, '\xefcdab89674523011032547698badcfe') = facade AS encode_ok,
       uuidv47_decode(facade, '\xefcdab89674523011032547698badcfe') = v7 AS decode_ok
FROM ref_vectors;

-- round trip over 1M ids of this session and of random instants, each with
-- its own random key: no mismatch, every facade a v4 with the RFC variant,
-- the random bits kept, a wrong key never gives the id back
SELECT count(*) AS ids,
       count(*) FILTER (WHERE uuidv47_decode(f, key) <> id) AS round_trip_mismatches,
       count(*) FILTER (WHERE uuid_extract_version(f) IS DISTINCT FROM 4) AS not_v4,
       count(*) FILTER (WHERE substr(f::text, 16) <> substr(id::text, 16)) AS random_bits_changed,
       count(*) FILTER (WHERE uuidv47_decode(f, '\x00000000000000000000000000000001') = id) AS wrong_key_matches
FROM (SELECT id, key, uuidv47_encode(id, key) AS f
      FROM (SELECT CASE WHEN g % 2 = 0 THEN uuidv7()
                        ELSE uuidv7_at(timestamptz '1970-01-01 00:00:00+00' + random() * interval '8000 years') END AS id,
                   decode(md5(g::text), 'hex') AS key
            FROM generate_series(1, 1000000) AS g) AS ids) AS pairs;

-- errors: the key must be 16 bytes, encode takes a v7, decode a v4 facade,
-- both with the RFC variant
\set VERBOSITY default
SELECT uuidv47_encode(uuidv7(), '\x00');
SELECT uuidv47_decode('11111111-1111-4111-8111-111111111111', decode(repeat('00', 17), 'hex'));
SELECT uuidv47_encode('11111111-1111-4111-8111-111111111111', '\x000102030405060708090a0b0c0d0e0f');
SELECT uuidv47_encode('017f22e2-79b0-7cc3-18c4-dc0c0c07398f', '\x000102030405060708090a0b0c0d0e0f');
SELECT uuidv47_decode('017f22e2-79b0-7cc3-98c4-dc0c0c07398f', '\x000102030405060708090a0b0c0d0e0f');
SELECT uuidv47_decode('11111111-1111-4111-c111-111111111111', '\x000102030405060708090a0b0c0d0e0f');
SELECT siphash24('', '');
\set VERBOSITY terse
-- their SQLSTATE: 22023 (invalid_parameter_value), class 22 (data exception)
CREATE FUNCTION pg_temp.state_of(call text) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE 'SELECT (' || call || ')::text';
    RETURN '00000';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE;
END $$;
SELECT call, pg_temp.state_of(call) AS sqlstate
FROM (VALUES
    ($$uuidv47_encode(uuidv7(), '\x00')$$),
    ($$uuidv47_decode(uuidv4(), '')$$),
    ($$uuidv47_encode(uuidv4(), '\x000102030405060708090a0b0c0d0e0f')$$),
    ($$uuidv47_encode('017f22e2-79b0-7cc3-18c4-dc0c0c07398f', '\x000102030405060708090a0b0c0d0e0f')$$),
    ($$uuidv47_decode(uuidv7(), '\x000102030405060708090a0b0c0d0e0f')$$),
    ($$uuidv47_decode('11111111-1111-4111-c111-111111111111', '\x000102030405060708090a0b0c0d0e0f')$$),
    ($$siphash24('', '\x00')$$),
    ($$uuidv7_at(timestamp 'infinity')$$)) AS c(call);
SELECT uuidv47_encode(NULL, '\x00') IS NULL AS strict_id, uuidv47_decode(uuidv4(), NULL) IS NULL AS strict_key;

-- keeping the key out of query text (README "Threat model"): the key lives
-- in a table only its owner reads; applications call SECURITY DEFINER
-- wrappers that take the id alone, so no statement, log line or
-- pg_stat_statements entry ever holds the key
CREATE ROLE regress_uuidx_keeper NOLOGIN;
CREATE ROLE regress_uuidx_app NOLOGIN;
CREATE SCHEMA facade_keys AUTHORIZATION regress_uuidx_keeper;
GRANT USAGE ON SCHEMA facade_keys TO regress_uuidx_app;
SET ROLE regress_uuidx_keeper;
CREATE TABLE facade_keys.key (key_id int PRIMARY KEY, key bytea NOT NULL CHECK (length(key) = 16));
INSERT INTO facade_keys.key VALUES (1, '\xefcdab89674523011032547698badcfe');
CREATE FUNCTION facade_keys.to_public(v7 uuid) RETURNS uuid
LANGUAGE sql STABLE STRICT PARALLEL SAFE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$ SELECT public.uuidv47_encode(v7, k.key) FROM facade_keys.key AS k WHERE k.key_id = 1 $$;
CREATE FUNCTION facade_keys.from_public(facade uuid) RETURNS uuid
LANGUAGE sql STABLE STRICT PARALLEL SAFE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$ SELECT public.uuidv47_decode(facade, k.key) FROM facade_keys.key AS k WHERE k.key_id = 1 $$;
REVOKE ALL ON FUNCTION facade_keys.to_public(uuid), facade_keys.from_public(uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION facade_keys.to_public(uuid), facade_keys.from_public(uuid) TO regress_uuidx_app;
RESET ROLE;

SET ROLE regress_uuidx_app;
SELECT facade_keys.to_public('12345678-9abc-7abc-8123-456789abcdef') AS facade,
       facade_keys.from_public('386ef887-69df-4abc-8123-456789abcdef') AS id;
SELECT key FROM facade_keys.key;
RESET ROLE;
DROP SCHEMA facade_keys CASCADE;
DROP ROLE regress_uuidx_keeper, regress_uuidx_app;

-- microsecond reader: exact for every microsecond of a millisecond, as
-- uuidv7_at and uuidv7_boundary write it
SELECT count(*) AS microseconds,
       count(*) FILTER (WHERE uuid_extract_timestamp_us(uuidv7_at(t)) <> t) AS at_mismatches,
       count(*) FILTER (WHERE uuid_extract_timestamp_us(uuidv7_boundary(t)) <> t) AS boundary_mismatches
FROM (SELECT timestamptz '2024-02-29 12:34:56.789+00' + u * interval '1 microsecond' AS t
      FROM generate_series(0, 999) AS u) AS s;

-- ... and at 200k random instants from 1970 to 10889
SELECT count(*) FILTER (WHERE uuid_extract_timestamp_us(uuidv7_at(t)) <> t) AS random_mismatches,
       count(*) FILTER (WHERE uuid_extract_timestamp(uuidv7_at(t)) <> date_trunc('milliseconds', t)) AS ms_reader_changed
FROM (SELECT timestamptz '1970-01-01 00:00:00+00' + random() * interval '8900 years' AS t
      FROM generate_series(1, 200000)) AS s;

-- edges of the v7 range and the spec's vectors: v1 and v6 keep their
-- microseconds (the spec's v7 has random rand_a, read as a fraction all the
-- same), other versions and variants give NULL
SELECT uuid_extract_timestamp_us(uuidv7_at('1970-01-01 00:00:00+00')) AS v7_first,
       uuid_extract_timestamp_us(uuidv7_at('10889-08-02 05:31:50.655999+00')) AS v7_last,
       uuid_extract_timestamp_us('017F22E2-79B0-7CC3-98C4-DC0C0C07398F') AS v7_spec,
       uuid_extract_timestamp_us('C232AB00-9414-11EC-B3C8-9E6BDECED846') AS v1_spec,
       uuid_extract_timestamp_us('1EC9414C-232A-6B00-B3C8-9E6BDECED846') AS v6_spec,
       uuid_extract_timestamp_us(uuidv6_boundary('2001-02-03 04:05:06.789123+00')) AS v6_us,
       uuid_extract_timestamp_us('11111111-1111-4111-8111-111111111111') AS v4,
       uuid_extract_timestamp_us('017F22E2-79B0-7CC3-18C4-DC0C0C07398F') AS v7_ncs;

-- ids of uuidv7() (a nanosecond clock): the microsecond read back is within
-- 1 us of the time read around the call
SELECT count(*) FILTER (WHERE NOT (uuid_extract_timestamp_us(id) BETWEEN t0 - interval '1 microsecond'
                                                                     AND t1 + interval '1 microsecond')) AS outside
FROM (SELECT clock_timestamp() AS t0, uuidv7() AS id, clock_timestamp() AS t1
      FROM generate_series(1, 10000)) AS s;

-- uuid_extract_timestamp is unchanged: milliseconds
SELECT uuid_extract_timestamp(uuidv7_at('2024-02-29 12:34:56.789999+00')) AS ms,
       uuid_extract_timestamp_us(uuidv7_at('2024-02-29 12:34:56.789999+00')) AS us;

-- ordered backfill: 100k rows sharing one timestamp get ids in call order,
-- all of that exact instant
CREATE TEMP TABLE legacy (n int, created_at timestamptz);
INSERT INTO legacy SELECT g, '2021-06-01 08:00:00.123456+00' FROM generate_series(1, 100000) AS g;
CREATE TEMP TABLE backfilled AS
SELECT n, uuidv7_at(created_at) AS id FROM (SELECT * FROM legacy ORDER BY n) AS l;
SELECT count(*) AS rows,
       count(*) FILTER (WHERE uuid_extract_timestamp_us(id) <> '2021-06-01 08:00:00.123456+00') AS wrong_time,
       count(DISTINCT id) AS distinct_ids,
       bool_and(ordered) AS ids_follow_call_order
FROM (SELECT id, id > lag(id) OVER (ORDER BY n) OR n = 1 AS ordered FROM backfilled) AS b;

-- decreasing and repeated instants: each id encodes exactly its instant;
-- ids of one instant in a row are increasing, a change of instant starts a
-- fresh random counter (so later ids sort by instant first)
SELECT n, t, uuid_extract_timestamp_us(id) = t AS exact,
       CASE WHEN lag(t) OVER w = t THEN id > lag(id) OVER w END AS after_previous
FROM (SELECT n, t, uuidv7_at(t) AS id
      FROM (VALUES (1, timestamptz '2020-01-01 00:00:00.000002+00'),
                   (2, '2020-01-01 00:00:00.000002+00'),
                   (3, '2020-01-01 00:00:00.000001+00'),
                   (4, '2020-01-01 00:00:00.000001+00'),
                   (5, '2019-12-31 23:59:59+00'),
                   (6, '2020-01-01 00:00:00.000002+00'),
                   (7, '2020-01-01 00:00:00.000002+00')) AS v(n, t)
      ORDER BY n) AS s
WINDOW w AS (ORDER BY n)
ORDER BY n;

-- backfill does not disturb uuidv7(): live ids stay increasing around it
SELECT uuidv7() < uuidv7() AS live_before,
       (SELECT bool_and(ok) FROM (SELECT a < b AS ok FROM (SELECT uuidv7() AS a, uuidv7_at('2001-01-01+00') AS x, uuidv7() AS b) AS s) AS t) AS live_around_backfill;

-- timestamp without time zone is read as UTC, whatever the session TimeZone;
-- an untyped literal still picks the timestamptz overload
SET TimeZone = 'America/New_York';
SELECT uuid_extract_timestamp_us(uuidv7_at(timestamp '2022-02-22 19:22:22.123456')) = '2022-02-22 19:22:22.123456+00' AS new_york,
       uuid_extract_timestamp_us(uuidv7_at('2022-02-22 19:22:22.123456')) = '2022-02-22 19:22:22.123456-05' AS literal_is_timestamptz;
SET TimeZone = 'Asia/Kolkata';
SELECT uuid_extract_timestamp_us(uuidv7_at(timestamp '2022-02-22 19:22:22.123456')) = '2022-02-22 19:22:22.123456+00' AS kolkata;
SET TimeZone = 'Pacific/Chatham';
SELECT uuid_extract_timestamp_us(uuidv7_at(timestamp '2022-02-22 19:22:22.123456')) = '2022-02-22 19:22:22.123456+00' AS chatham,
       uuid_extract_timestamp_us(uuidv7_at(timestamp '2022-02-22 19:22:22.123456')) AS shown_in_chatham;
SET TimeZone = 'UTC';
SELECT uuidv7_at(timestamp 'infinity');
SELECT uuidv7_at(timestamp '1969-12-31 23:59:59.999999');
SELECT left(uuidv7_at(timestamp '2022-02-22 19:22:22.123456')::text, 19) = left(uuidv7_at(timestamptz '2022-02-22 19:22:22.123456+00')::text, 19) AS same_time_fields;

DROP EXTENSION pg_uuidx;
