-- Bad input, function by function: the SQLSTATE, message and detail each
-- gets, or the documented NULL.  Every error that pg_uuidx raises for bad
-- input is here at least once.  docs/errors.md lists this file's output.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
CREATE EXTENSION pg_uuidx;
SET search_path = public, pg_catalog;
SET TimeZone = 'UTC';

-- run one call; report its result, or the error's SQLSTATE, message and
-- detail
CREATE FUNCTION pg_temp.try(call text, OUT result text, OUT state text, OUT message text, OUT detail text)
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE 'SELECT coalesce((' || call || ')::text, ''NULL'')' INTO result;
    state := '00000';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL;
END $$;
-- result of a call that makes a random id: only whether it is NULL matters
CREATE FUNCTION pg_temp.shape(id uuid) RETURNS text
LANGUAGE sql AS $$ SELECT CASE WHEN id IS NULL THEN NULL ELSE 'v' || uuid_extract_version(id) END $$;

\pset null NULL
SELECT call, (pg_temp.try(call)).*
FROM (VALUES
    -- generators
    ($$pg_temp.shape(uuidv7(NULL))$$),
    ($$uuidv7('-60 years')$$),
    ($$uuidv7('9000 years')$$),
    ($$uuidv7('200000000 days')$$),
    ($$uuidv7('-178000000 years')$$),
    ($$pg_temp.shape(uuidv7('-1 day'))$$),
    ($$pg_temp.shape(uuidv7_at(NULL))$$),
    ($$uuidv7_at('infinity')$$),
    ($$uuidv7_at('-infinity')$$),
    ($$uuidv7_at('1969-12-31 23:59:59.999999+00')$$),
    ($$uuidv7_at('10889-08-02 05:31:50.656+00')$$),
    -- conversion
    ($$uuidv1_to_v6(NULL)$$),
    ($$uuidv1_to_v6('1ec9414c-232a-6b00-b3c8-9e6bdeced846')$$),
    ($$uuidv1_to_v6('11111111-1111-4111-8111-111111111111')$$),
    ($$uuidv1_to_v6('c232ab00-9414-11ec-d3c8-9e6bdeced846')$$),
    ($$uuidv1_to_v6('00000000-0000-0000-0000-000000000000')$$),
    ($$uuidv6_to_v1(NULL)$$),
    ($$uuidv6_to_v1('c232ab00-9414-11ec-b3c8-9e6bdeced846')$$),
    ($$uuidv6_to_v1('ffffffff-ffff-ffff-ffff-ffffffffffff')$$),
    -- UUIDv47 facade and its SipHash
    ($$uuidv47_encode('11111111-1111-4111-8111-111111111111', '\x000102030405060708090a0b0c0d0e0f')$$),
    ($$uuidv47_encode('00000000-0000-0000-0000-000000000000', '\x000102030405060708090a0b0c0d0e0f')$$),
    ($$uuidv47_decode('017f22e2-79b0-7cc3-98c4-dc0c0c07398f', '\x000102030405060708090a0b0c0d0e0f')$$),
    ($$uuidv47_decode('11111111-1111-4111-c111-111111111111', '\x000102030405060708090a0b0c0d0e0f')$$),
    ($$uuidv47_encode('017f22e2-79b0-7cc3-98c4-dc0c0c07398f', '\x00')$$),
    ($$uuidv47_decode('11111111-1111-4111-8111-111111111111', '')$$),
    ($$siphash24('', '\x000102030405060708090a0b0c0d0e0f10')$$),
    -- text forms (sql/textforms.sql has every rule; here each error once)
    ($$base32hex_to_uuid('C')$$),
    ($$base32hex_to_uuid('CPNMUOJ1CPNMUOJ1CPNMUOJ1CO==')$$),
    ($$base32hex_to_uuid('CPNMUOJ1CPNMUOJ1CPNMUOJ1C' || chr(233))$$),
    ($$base32hex_to_uuid('CPNMUOJ1CPNMUOJ1CPNMUOJ1CO=====A')$$),
    ($$base32hex_to_uuid('CPNMUOJ1CPNMUOJ1CPNMUOWJ1C')$$),
    ($$base32hex_to_uuid('CPNMUOJ1CPNMUOJ1CPNMUOJ1C' || chr(9))$$),
    ($$base32hex_to_uuid('CPNMUOJ1CPNMUOJ1CPNMUOJ1CP')$$),
    ($$base32hex_to_uuid(repeat('CPNMUOJ1', 100))$$),
    ($$ulid_to_uuid('01ARYZ6S41TSV4RRFFQ69G5FA')$$),
    ($$ulid_to_uuid('01ARYZ6S41TSV4RRFFQ69G5FAU')$$),
    ($$ulid_to_uuid('81ARYZ6S41TSV4RRFFQ69G5FAV')$$),
    ($$typeid_to_uuid('prefix_1')$$),
    ($$typeid_to_uuid('prefix_0123456789ABCDEFGHJKMNPQRS')$$),
    ($$typeid_to_uuid('_00000000000000000000000000')$$),
    ($$typeid_to_uuid('prefix__00000000000000000000000000')$$),
    ($$typeid_to_uuid('pre.fix_00000000000000000000000000')$$),
    ($$typeid_prefix('prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz')$$),
    ($$typeid('user_', '017f22e2-79b0-7cc3-98c4-dc0c0c07398f')$$),
    ($$typeid('User', '017f22e2-79b0-7cc3-98c4-dc0c0c07398f')$$),
    ($$typeid(repeat('a', 64), '017f22e2-79b0-7cc3-98c4-dc0c0c07398f')$$),
    -- name-based
    ($$uuid_v8_sha256(NULL, 'a')$$),
    ($$uuid_v8_sha256(uuid_namespace_dns(), NULL::text)$$),
    ($$uuidv5(NULL, 'a'::bytea)$$),
    ($$uuidv3(uuid_namespace_dns(), NULL::bytea)$$),
    ($$uuidv5(uuid_namespace_dns(), '')$$),
    -- readers
    ($$uuid_extract_timestamp(NULL)$$),
    ($$uuid_extract_timestamp('11111111-1111-4111-8111-111111111111')$$),
    ($$uuid_extract_timestamp('017f22e2-79b0-7cc3-18c4-dc0c0c07398f')$$),
    ($$uuid_extract_timestamp('00000000-0000-1000-8000-000000000000')$$),
    ($$uuid_extract_timestamp('ffffffff-ffff-7fff-bfff-ffffffffffff')$$),
    ($$uuid_extract_version(NULL)$$),
    ($$uuid_extract_version('11111111-1111-1111-1111-111111111111')$$),
    ($$uuid_extract_version('11111111-1111-f111-8111-111111111111')$$),
    ($$uuidv7_boundary(NULL)$$),
    ($$uuidv7_boundary('infinity')$$),
    ($$uuidv7_boundary('1969-12-31 23:59:59+00')$$),
    ($$uuidv6_boundary('-infinity')$$),
    ($$uuidv6_boundary('1582-10-14 23:59:59.999999+00')$$),
    ($$uuidv6_boundary('5236-03-31 21:21:00.684698+00')$$),
    ($$uuid_larger(NULL, uuid_namespace_dns())$$),
    -- uuidv7_at keeps at most 2^24 ids of one instant in call order (at least
    -- 2^23 from a random start): the call after the last one fails
    ($$(SELECT count(uuidv7_at(t)) FROM (SELECT '2001-02-03 04:05:06.789012+00'::timestamptz AS t, generate_series(1, 16777217)) s)$$),
    ($$pg_temp.shape(uuidv7_at('2001-02-03 04:05:06.789013+00'))$$)
) AS c(call);

-- the reader: its arguments are checked before it reads the commit horizon
-- (which before PostgreSQL 17 needs the preloaded library:
-- test/t/100_reading_in_order.pl)
CREATE TABLE err_rows (id text, ref uuid);
CREATE TYPE err_pair AS (id uuid);
SELECT call, (pg_temp.try(call)).*
FROM (VALUES
    ($$(SELECT count(*) FROM pg_uuidx_read_after(NULL::err_rows, NULL, -1, 'ref'))$$),
    ($$(SELECT count(*) FROM pg_uuidx_read_after(NULL::err_rows, NULL, NULL, 'ref'))$$),
    ($$(SELECT count(*) FROM pg_uuidx_read_after(NULL::err_rows, NULL, 1, NULL))$$),
    ($$(SELECT count(*) FROM pg_uuidx_read_after(NULL::err_rows, NULL, 1, 'ref', 5))$$),
    ($$(SELECT count(*) FROM pg_uuidx_read_after(NULL::err_rows, NULL, 1, 'ref', NULL))$$),
    ($$(SELECT count(*) FROM pg_uuidx_read_after(NULL::err_rows, NULL, 1, 'nope'))$$),
    ($$(SELECT count(*) FROM pg_uuidx_read_after(NULL::err_rows, NULL, 1))$$),
    -- no guard of the column read: its rows could commit below the horizon
    ($$(SELECT count(*) FROM pg_uuidx_read_after(NULL::err_rows, NULL, 1, 'ref'))$$),
    ($$(SELECT count(*) FROM pg_uuidx_read_after(NULL::int, NULL, 1))$$),
    ($$(SELECT count(*) FROM pg_uuidx_read_after(NULL::uuid, NULL, 1))$$),
    -- a standalone composite type: a relation with no rows to read
    ($$(SELECT count(*) FROM pg_uuidx_read_after(NULL::err_pair, NULL, 1))$$)
) AS c(call);
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT (pg_temp.try($$(SELECT count(*) FROM pg_uuidx_read_after(NULL::err_rows, NULL, 1, 'ref'))$$)).*;
ROLLBACK;
-- reading up to the newest tick where none has been made (the table of
-- ticks is empty until pg_uuidx_tick() is first called)
SELECT pg_uuidx_add_guard('err_rows', 'ref');
SELECT (pg_temp.try($$(SELECT count(*) FROM pg_uuidx_read_after(NULL::err_rows, NULL, 1, 'ref', from_tick => true))$$)).*;
-- the guard in one call: its arguments
CREATE TABLE err_guarded (id uuid);
SELECT call, (pg_temp.try(call)).*
FROM (VALUES
    ($$pg_uuidx_add_guard(NULL)$$),
    ($$pg_uuidx_add_guard('err_rows', 'ref', 5)$$),
    ($$pg_uuidx_add_guard('err_rows', 'ref', NULL)$$),
    ($$pg_uuidx_add_guard('err_rows', 'nope')$$),
    ($$pg_uuidx_add_guard('err_rows', 'id')$$),
    ($$pg_uuidx_add_guard('err_pair', 'id')$$),
    ($$pg_uuidx_add_guard('err_guarded', 'id', 7, 'soon')$$),
    ($$pg_uuidx_add_guard('err_guarded', 'id', 7, '2h')$$),
    ($$pg_uuidx_add_guard('err_rows', 'ref')$$)
) AS c(call);
DROP TABLE err_guarded;
DROP TABLE err_rows;
DROP TYPE err_pair;
-- a node's part of a Citus coordinator's cluster horizon: its arguments are
-- checked before it reads the horizon; NULL in, NULL out
SELECT call, (pg_temp.try(call)).*
FROM (VALUES
    ($$pg_uuidx_node_horizon(now(), -1)$$),
    ($$pg_uuidx_node_horizon(NULL, 0)$$),
    ($$pg_uuidx_node_horizon(now(), NULL)$$)
) AS c(call);

-- text names in a database whose encoding has no conversion to UTF-8: LATIN2
-- with its default one switched off in this database (MULE_INTERNAL had
-- none, and PostgreSQL 19 removed it; sql/encodings.sql)
SELECT current_database() AS regress_db \gset
CREATE DATABASE pg_uuidx_errors_noconv ENCODING 'LATIN2' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;
\c pg_uuidx_errors_noconv
CREATE EXTENSION pg_uuidx;
UPDATE pg_catalog.pg_conversion SET condefault = false
WHERE conforencoding = pg_catalog.pg_char_to_encoding('LATIN2')
  AND contoencoding = pg_catalog.pg_char_to_encoding('UTF8') AND condefault;
CREATE FUNCTION pg_temp.try(call text, OUT result text, OUT state text, OUT message text, OUT detail text)
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE 'SELECT coalesce((' || call || ')::text, ''NULL'')' INTO result;
    state := '00000';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL;
END $$;
SELECT call, (pg_temp.try(call)).*
FROM (VALUES
    ($$uuidv5(uuid_namespace_dns(), 'a')$$),
    ($$uuidv5(uuid_namespace_dns(), 'a'::bytea)$$)
) AS c(call);
\c :regress_db
DROP DATABASE pg_uuidx_errors_noconv;
SET search_path = public, pg_catalog;

DROP EXTENSION pg_uuidx;
