/* pg_uuidx--1.0.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION pg_uuidx" to load this file. \quit

-- Every object this script creates or names is qualified with @extschema@:
-- extension scripts search pg_catalog first, and PostgreSQL 18 has
-- functions of the same names there.

CREATE FUNCTION @extschema@.uuidv7()
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv7'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv7() IS
'UUIDv7 (RFC 9562): Unix milliseconds, a 1/4096 ms fraction, a counter and random bits; strictly increasing within a session';

CREATE FUNCTION @extschema@.uuidv7(shift interval)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv7_shift'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv7(interval) IS
'UUIDv7 whose embedded time is the current time plus shift';

CREATE FUNCTION @extschema@.uuidv4()
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv4'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv4() IS
'UUIDv4 (RFC 9562): 122 random bits from a CSPRNG, fetched in blocks';
