/* pg_uuidv7--1.6.sql: a test fixture with pg_uuidv7 1.6's five functions */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION pg_uuidv7" to load this file. \quit

-- The names, arguments, defaults, results and labels of pg_uuidv7 1.6's
-- functions, with their results: C functions of pg_uuidx's library where
-- one returns the same (a v7 id; the top 48 bits as Unix ms, which as a
-- timestamp are the same 64-bit value as the UTC wall-clock time), SQL of
-- the same cost elsewhere (a test tool: its operators are not qualified).

CREATE FUNCTION uuid_generate_v7()
RETURNS uuid
AS '$libdir/pg_uuidx', 'pg_uuidx_uuidv7'
VOLATILE STRICT LANGUAGE C PARALLEL SAFE;

CREATE FUNCTION uuid_v7_to_timestamptz(uuid)
RETURNS timestamptz
AS '$libdir/pg_uuidx', 'pg_uuidx_ulid_extract_timestamp'
STABLE STRICT LANGUAGE C PARALLEL SAFE;

-- the millisecond of ts, then 7000-8000-000000000000 (zero) or random bits
-- under the version and variant
CREATE FUNCTION uuid_timestamptz_to_v7(timestamptz, zero bool = false)
RETURNS uuid
STABLE STRICT LANGUAGE sql PARALLEL SAFE COST 1
AS $$
SELECT CAST(pg_catalog.lpad(pg_catalog.to_hex(pg_catalog.floor(EXTRACT(epoch FROM $1) * 1000)::int8), 12, '0')
       || CASE WHEN $2 THEN '70008000000000000000'
               ELSE '7' || pg_catalog.substr(pg_catalog.md5(pg_catalog.random()::text), 1, 3)
                    || pg_catalog.to_hex(8 + pg_catalog.floor(pg_catalog.random() * 4)::int4)
                    || pg_catalog.substr(pg_catalog.md5(pg_catalog.random()::text), 1, 15) END AS uuid)
$$;

CREATE FUNCTION uuid_v7_to_timestamp(uuid)
RETURNS timestamp
AS '$libdir/pg_uuidx', 'pg_uuidx_ulid_extract_timestamp'
STABLE STRICT LANGUAGE C PARALLEL SAFE;

CREATE FUNCTION uuid_timestamp_to_v7(timestamp, zero bool = false)
RETURNS uuid
STABLE STRICT LANGUAGE sql PARALLEL SAFE COST 1
AS $$
SELECT CAST(pg_catalog.lpad(pg_catalog.to_hex(pg_catalog.floor(EXTRACT(epoch FROM $1) * 1000)::int8), 12, '0')
       || CASE WHEN $2 THEN '70008000000000000000'
               ELSE '7' || pg_catalog.substr(pg_catalog.md5(pg_catalog.random()::text), 1, 3)
                    || pg_catalog.to_hex(8 + pg_catalog.floor(pg_catalog.random() * 4)::int4)
                    || pg_catalog.substr(pg_catalog.md5(pg_catalog.random()::text), 1, 15) END AS uuid)
$$;
