/* pg_uuidx--1.1--1.2.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION pg_uuidx UPDATE TO '1.2'" to load this file. \quit

-- Every object this script names is qualified with @extschema@ (see
-- pg_uuidx--1.2.sql).

-- Generators that keep a per-session order run only in the leader: a
-- parallel worker starts from fresh state.
ALTER FUNCTION @extschema@.uuidv7() PARALLEL RESTRICTED;
ALTER FUNCTION @extschema@.uuidv7(interval) PARALLEL RESTRICTED;
ALTER FUNCTION @extschema@.uuidv6() PARALLEL RESTRICTED;

-- 1.0 and 1.1 commented these functions without a schema.  On PostgreSQL 17
-- and 18, whose pg_catalog has functions of the same names, the comments
-- landed on core's functions and pg_uuidx's own got none.  Give core back
-- its descriptions (those of its pg_proc.dat, 17's and 18's) where a comment of ours is still
-- there, then comment ours.
DO $repair$
DECLARE
    f record;
BEGIN
    FOR f IN
        SELECT p.proname, pg_catalog.pg_get_function_identity_arguments(p.oid) AS args, core.descr
        FROM (VALUES
            ('pg_catalog.uuidv7()', 'generate UUID version 7',
             'UUIDv7 (RFC 9562): Unix milliseconds, a 1/4096 ms fraction, a counter and random bits; strictly increasing within a session'),
            ('pg_catalog.uuidv7(interval)', 'generate UUID version 7 with a timestamp shifted by specified interval',
             'UUIDv7 whose embedded time is the current time plus shift'),
            ('pg_catalog.uuidv4()', 'generate UUID version 4',
             'UUIDv4 (RFC 9562): 122 random bits from a CSPRNG, fetched in blocks'),
            ('pg_catalog.uuid_extract_timestamp(uuid)', 'extract timestamp from UUID',
             'creation time of a v1, v6 (microseconds) or v7 (milliseconds) UUID; NULL for other versions and variants'),
            ('pg_catalog.uuid_extract_version(uuid)',
             CASE WHEN pg_catalog.current_setting('server_version_num')::int >= 180000
                  THEN 'extract version from RFC 9562 UUID'
                  ELSE 'extract version from RFC 4122 UUID' END,
             'version field of an RFC 9562 variant UUID; NULL for other variants')
        ) AS core(sig, descr, ours)
        JOIN pg_catalog.pg_proc p ON p.oid = pg_catalog.to_regprocedure(core.sig)
        WHERE pg_catalog.obj_description(p.oid, 'pg_proc') = core.ours
    LOOP
        EXECUTE pg_catalog.format('COMMENT ON FUNCTION pg_catalog.%I(%s) IS %L',
                                  f.proname, f.args, f.descr);
    END LOOP;
END
$repair$;

COMMENT ON FUNCTION @extschema@.uuidv7() IS
'UUIDv7 (RFC 9562): Unix milliseconds, a 1/4096 ms fraction, a counter and random bits; strictly increasing within a session';

COMMENT ON FUNCTION @extschema@.uuidv7(interval) IS
'UUIDv7 whose embedded time is the current time plus shift';

COMMENT ON FUNCTION @extschema@.uuidv4() IS
'UUIDv4 (RFC 9562): 122 random bits from a CSPRNG, fetched in blocks';

COMMENT ON FUNCTION @extschema@.uuid_extract_timestamp(uuid) IS
'creation time of a v1, v6 (microseconds) or v7 (milliseconds) UUID; NULL for other versions and variants';

COMMENT ON FUNCTION @extschema@.uuid_extract_version(uuid) IS
'version field of an RFC 9562 variant UUID; NULL for other variants';


-- time ranges: a tstzrange predicate the planner answers from a btree on
-- the id, range edges, and a text decoder for pg_partman
-- (functions IMMUTABLE STRICT PARALLEL SAFE)

-- the v4 facade (UUIDv47), the microsecond reader and ordered backfill
-- (readers and facade IMMUTABLE STRICT PARALLEL SAFE)

-- compact text forms: base32hex, ULID text, TypeID
-- (IMMUTABLE STRICT PARALLEL SAFE)

-- living with core: what depends on this extension
-- (STABLE, reads the catalogs)
