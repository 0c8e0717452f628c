/* pg_uuidx--1.0.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION pg_uuidx" to load this file. \quit

-- Every object this script creates or names is qualified with @extschema@:
-- extension scripts search pg_catalog first, and PostgreSQL 18 has
-- functions of the same names there.

-- pg_uuidx is trusted: for a role that is not a superuser this script runs
-- as the bootstrap superuser, and CREATE EXTENSION does not check that the
-- role may create objects in the target schema.  Check it here, so that
-- such a role cannot put pg_uuidx's functions into pg_catalog or into
-- another role's schema.
DO $target$
BEGIN
    IF NOT pg_catalog.has_schema_privilege('@extowner@'::pg_catalog.regrole::pg_catalog.oid,
                                           '@extschema@'::pg_catalog.regnamespace::pg_catalog.oid,
                                           'CREATE') THEN
        RAISE EXCEPTION 'permission denied for schema %', '@extschema@'
            USING ERRCODE = 'insufficient_privilege',
                  DETAIL = 'Role @extowner@ may not create objects in schema @extschema@.',
                  HINT = 'Install pg_uuidx into a schema that role may create objects in, or as a superuser.';
    END IF;
END
$target$;

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
