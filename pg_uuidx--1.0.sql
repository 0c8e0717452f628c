/* pg_uuidx--1.0.sql: version 1.0, the base every version is installed from */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION pg_uuidx" to load this file. \quit

-- There is no full script of a later version: CREATE EXTENSION pg_uuidx
-- (VERSION 'X.Y') runs this script and then the update scripts up to X.Y,
-- as contrib's extensions do.  So the checks below run for every version.
--
-- Every object this script creates or names is qualified with @extschema@,
-- and every function, operator and type the DO blocks use with pg_catalog:
-- extension scripts search pg_catalog first (PostgreSQL 17 and 18 have
-- functions of pg_uuidx's names there), and the script runs as a superuser
-- with the target schema on its search_path, where the role that owns the
-- extension may have created objects; an unqualified operator whose
-- argument types pg_catalog matches only through a cast (oid =
-- regnamespace) would be that role's if it had made one.

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

-- Functions of the same names and arguments already in the target schema
-- (polyfills, say) would stop this script or a later update script at a
-- CREATE with an error that does not say where; name them all and the ways
-- out instead, before anything is created.  The list holds what every
-- version creates (functions, aggregates and procedures: pg_proc holds all
-- three, and one signature is one object whatever its kind), so installing
-- an older version refuses the names of later ones too: its updates would
-- need them.
DO $clash$
DECLARE
    found pg_catalog.text;
BEGIN
    SELECT pg_catalog.string_agg(pg_catalog.format('%s(%s)', p.proname,
                                 pg_catalog.array_to_string(p.proargtypes::pg_catalog.regtype[], ', ')),
                                 ', ' ORDER BY p.proname, p.proargtypes::pg_catalog.text)
    INTO found
    FROM pg_catalog.pg_proc p
    JOIN (VALUES -- 1.0
                 ('uuidv7', ''), ('uuidv7', 'interval'), ('uuidv4', ''),
                 -- 1.1
                 ('uuidv6', ''), ('uuidv7_at', 'timestamp with time zone'), ('uuidv1_to_v6', 'uuid'),
                 ('uuidv6_to_v1', 'uuid'), ('uuid_v8_sha256', 'uuid,text'), ('uuid_v8_sha256', 'uuid,bytea'),
                 ('uuidv5', 'uuid,text'), ('uuidv5', 'uuid,bytea'), ('uuidv3', 'uuid,text'),
                 ('uuidv3', 'uuid,bytea'), ('uuid_namespace_dns', ''), ('uuid_namespace_url', ''),
                 ('uuid_namespace_oid', ''), ('uuid_namespace_x500', ''), ('uuid_extract_timestamp', 'uuid'),
                 ('uuid_extract_version', 'uuid'), ('uuidv7_boundary', 'timestamp with time zone'),
                 ('uuidv6_boundary', 'timestamp with time zone'), ('uuid_smaller', 'uuid,uuid'),
                 ('uuid_larger', 'uuid,uuid'), ('min', 'uuid'), ('max', 'uuid'),
                 -- 1.2
                 ('uuidv7_time_range_support', 'internal'), ('uuidv6_time_range_support', 'internal'),
                 ('uuidv7_in_time_range', 'uuid,tstzrange'), ('uuidv6_in_time_range', 'uuid,tstzrange'),
                 ('uuidv7_range_lower', 'tstzrange'), ('uuidv7_range_upper', 'tstzrange'),
                 ('uuidv6_range_lower', 'tstzrange'), ('uuidv6_range_upper', 'tstzrange'),
                 ('uuidv7_boundary_upper', 'timestamp with time zone'),
                 ('uuidv6_boundary_upper', 'timestamp with time zone'),
                 ('uuid_extract_timestamp_from_text', 'text'), ('uuidv47_encode', 'uuid,bytea'),
                 ('uuidv47_decode', 'uuid,bytea'), ('siphash24', 'bytea,bytea'),
                 ('uuid_extract_timestamp_us', 'uuid'), ('uuidv7_at', 'timestamp without time zone'),
                 ('uuid_to_base32hex', 'uuid'), ('base32hex_to_uuid', 'text'), ('uuid_to_ulid', 'uuid'),
                 ('ulid_to_uuid', 'text'), ('ulid_extract_timestamp', 'uuid'), ('typeid', 'text,uuid'),
                 ('typeid_to_uuid', 'text'), ('typeid_prefix', 'text'), ('pg_uuidx_dependents', ''),
                 -- 1.3
                 ('uuidv7_in_time_range_recheck', 'uuid,tstzrange'),
                 ('uuidv6_in_time_range_recheck', 'uuid,tstzrange'),
                 -- 1.4
                 ('pg_uuidx_pg_uuidv7_dependents', ''), ('pg_uuidx_adopt_pg_uuidv7', ''),
                 ('pg_uuidx_hand_over_to_core', ''),
                 -- 1.5
                 ('uuidv7_horizon', ''), ('uuidv6_horizon', ''), ('pg_uuidx_horizon_holders', ''),
                 ('pg_uuidx_read_after', 'anyelement,uuid,integer,name,integer'), ('pg_uuidx_build', ''),
                 -- 1.6
                 ('pg_uuidx_horizon_guard', ''), ('pg_uuidx_guard_ddl', ''), ('pg_uuidx_tick', ''),
                 ('pg_uuidx_read_after', 'anyelement,uuid,integer,name,integer,boolean'),
                 -- 1.7
                 ('pg_uuidx_consume', 'anyelement,text,integer,name,integer'),
                 ('pg_uuidx_consumer_ack', 'regclass,text,uuid'), ('pg_uuidx_consumer_reset', 'regclass,text,uuid,regrole'),
                 ('pg_uuidx_stats_state', ''), ('pg_uuidx_guarded_tables', ''), ('pg_uuidx_horizon_cover', 'uuid,integer,text'),
                 ('pg_uuidx_node_horizon', 'timestamp with time zone,integer'),
                 ('pg_uuidx_add_guard', 'regclass,name,integer,text')) AS ours(name, args)
      ON p.proname OPERATOR(pg_catalog.=) ours.name
     AND pg_catalog.array_to_string(p.proargtypes::pg_catalog.regtype[], ',') OPERATOR(pg_catalog.=) ours.args
    WHERE p.pronamespace OPERATOR(pg_catalog.=) '@extschema@'::pg_catalog.regnamespace::pg_catalog.oid;
    IF found IS NOT NULL THEN
        RAISE EXCEPTION 'schema % already has functions named like pg_uuidx''s: %',
            '@extschema@', found
            USING ERRCODE = 'duplicate_function',
                  HINT = 'Install pg_uuidx into a schema of its own (CREATE EXTENSION pg_uuidx SCHEMA uuidx), '
                         'or repoint what uses these functions and drop them first (see the README, "Installing beside existing functions").';
    END IF;
END
$clash$;

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
