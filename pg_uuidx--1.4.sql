/* pg_uuidx--1.4.sql: the whole extension at version 1.4 */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION pg_uuidx" to load this file. \quit

-- Every object this script creates or names is qualified with @extschema@:
-- extension scripts search pg_catalog first, and PostgreSQL 17 and 18 have
-- functions of the same names there.  Every function, operator and type the
-- DO block below uses is qualified with pg_catalog: the script runs as a
-- superuser with the target schema on its search_path, where the role that
-- owns the extension may have created objects, and an unqualified operator
-- whose argument types pg_catalog matches only through a cast (oid =
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
-- (polyfills, say) would stop this script at its first CREATE with an error
-- that does not say where; name them all and the ways out instead.
DO $clash$
DECLARE
    found pg_catalog.text;
BEGIN
    SELECT pg_catalog.string_agg(pg_catalog.format('%s(%s)', p.proname,
                                 pg_catalog.array_to_string(p.proargtypes::pg_catalog.regtype[], ', ')),
                                 ', ' ORDER BY p.proname, p.proargtypes::pg_catalog.text)
    INTO found
    FROM pg_catalog.pg_proc p
    JOIN (VALUES ('uuidv7', ''), ('uuidv7', 'interval'), ('uuidv4', ''), ('uuidv6', ''),
                 ('uuidv7_at', 'timestamp with time zone'), ('uuidv1_to_v6', 'uuid'),
                 ('uuidv6_to_v1', 'uuid'), ('uuid_v8_sha256', 'uuid,text'),
                 ('uuid_v8_sha256', 'uuid,bytea'), ('uuidv5', 'uuid,text'), ('uuidv5', 'uuid,bytea'),
                 ('uuidv3', 'uuid,text'), ('uuidv3', 'uuid,bytea'), ('uuid_namespace_dns', ''),
                 ('uuid_namespace_url', ''), ('uuid_namespace_oid', ''), ('uuid_namespace_x500', ''),
                 ('uuid_extract_timestamp', 'uuid'), ('uuid_extract_version', 'uuid'),
                 ('uuidv7_boundary', 'timestamp with time zone'),
                 ('uuidv6_boundary', 'timestamp with time zone'), ('uuid_smaller', 'uuid,uuid'),
                 ('uuid_larger', 'uuid,uuid'), ('min', 'uuid'), ('max', 'uuid'),
                 ('uuidv7_at', 'timestamp without time zone'), ('uuidv47_encode', 'uuid,bytea'),
                 ('uuidv47_decode', 'uuid,bytea'), ('siphash24', 'bytea,bytea'),
                 ('uuid_extract_timestamp_us', 'uuid'), ('uuid_to_base32hex', 'uuid'),
                 ('base32hex_to_uuid', 'text'), ('uuid_to_ulid', 'uuid'), ('ulid_to_uuid', 'text'),
                 ('ulid_extract_timestamp', 'uuid'), ('typeid', 'text,uuid'), ('typeid_to_uuid', 'text'),
                 ('typeid_prefix', 'text'), ('pg_uuidx_dependents', ''),
                 ('pg_uuidx_pg_uuidv7_dependents', ''),
                 ('uuidv7_time_range_support', 'internal'), ('uuidv6_time_range_support', 'internal'),
                 ('uuidv7_in_time_range', 'uuid,tstzrange'), ('uuidv6_in_time_range', 'uuid,tstzrange'),
                 ('uuidv7_range_lower', 'tstzrange'), ('uuidv7_range_upper', 'tstzrange'),
                 ('uuidv6_range_lower', 'tstzrange'), ('uuidv6_range_upper', 'tstzrange'),
                 ('uuidv7_in_time_range_recheck', 'uuid,tstzrange'),
                 ('uuidv6_in_time_range_recheck', 'uuid,tstzrange'),
                 ('uuidv7_boundary_upper', 'timestamp with time zone'),
                 ('uuidv6_boundary_upper', 'timestamp with time zone'),
                 ('uuid_extract_timestamp_from_text', 'text')) AS ours(name, args)
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

-- generators: VOLATILE.  Those that keep a per-session order (uuidv7(),
-- uuidv7(interval), uuidv6(), uuidv7_at()) are PARALLEL RESTRICTED: a parallel worker
-- would start from fresh state and could make ids below the session's last
-- one.  uuidv4() keeps no order and is PARALLEL SAFE.

CREATE FUNCTION @extschema@.uuidv7()
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv7'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION @extschema@.uuidv7() IS
'UUIDv7 (RFC 9562): Unix milliseconds, a 1/4096 ms fraction, a counter and random bits; strictly increasing within a session';

CREATE FUNCTION @extschema@.uuidv7(shift interval)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv7_shift'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;

COMMENT ON FUNCTION @extschema@.uuidv7(interval) IS
'UUIDv7 whose embedded time is the current time plus shift';

CREATE FUNCTION @extschema@.uuidv4()
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv4'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv4() IS
'UUIDv4 (RFC 9562): 122 random bits from a CSPRNG, fetched in blocks';

CREATE FUNCTION @extschema@.uuidv6()
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv6'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION @extschema@.uuidv6() IS
'UUIDv6 (RFC 9562): Gregorian 100-ns time, clock_seq counter and random multicast node; strictly increasing within a session';

CREATE FUNCTION @extschema@.uuidv7_at(ts timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv7_at'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;

COMMENT ON FUNCTION @extschema@.uuidv7_at(timestamptz) IS
'UUIDv7 whose time (uuid_extract_timestamp_us) is the given instant; calls with the same instant in a row keep their order, for backfilling historical rows';

-- conversion: IMMUTABLE STRICT PARALLEL SAFE

CREATE FUNCTION @extschema@.uuidv1_to_v6(id uuid)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv1_to_v6'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv1_to_v6(uuid) IS
'the UUIDv6 with the same timestamp, clock_seq and node as a UUIDv1; lossless';

CREATE FUNCTION @extschema@.uuidv6_to_v1(id uuid)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv6_to_v1'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv6_to_v1(uuid) IS
'the UUIDv1 with the same timestamp, clock_seq and node as a UUIDv6; lossless';

-- name-based: IMMUTABLE STRICT PARALLEL SAFE

CREATE FUNCTION @extschema@.uuid_v8_sha256(namespace uuid, name text)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuid_v8_sha256_text'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuid_v8_sha256(uuid, text) IS
'name-based UUIDv8 (RFC 9562 Appendix B.2): SHA-256 of the namespace and the name as UTF-8';

CREATE FUNCTION @extschema@.uuid_v8_sha256(namespace uuid, name bytea)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuid_v8_sha256_bytea'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuid_v8_sha256(uuid, bytea) IS
'name-based UUIDv8 (RFC 9562 Appendix B.2): SHA-256 of the namespace and the name bytes';

CREATE FUNCTION @extschema@.uuidv5(namespace uuid, name text)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv5_text'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv5(uuid, text) IS
'name-based UUIDv5 (RFC 9562 5.5): SHA-1 of the namespace and the name as UTF-8';

CREATE FUNCTION @extschema@.uuidv5(namespace uuid, name bytea)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv5_bytea'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv5(uuid, bytea) IS
'name-based UUIDv5 (RFC 9562 5.5): SHA-1 of the namespace and the name bytes';

CREATE FUNCTION @extschema@.uuidv3(namespace uuid, name text)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv3_text'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv3(uuid, text) IS
'name-based UUIDv3 (RFC 9562 5.3): MD5 of the namespace and the name as UTF-8';

CREATE FUNCTION @extschema@.uuidv3(namespace uuid, name bytea)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv3_bytea'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv3(uuid, bytea) IS
'name-based UUIDv3 (RFC 9562 5.3): MD5 of the namespace and the name bytes';

CREATE FUNCTION @extschema@.uuid_namespace_dns()
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuid_namespace_dns'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuid_namespace_dns() IS
'the DNS namespace 6ba7b810-9dad-11d1-80b4-00c04fd430c8 (RFC 9562 6.6)';

CREATE FUNCTION @extschema@.uuid_namespace_url()
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuid_namespace_url'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuid_namespace_url() IS
'the URL namespace 6ba7b811-9dad-11d1-80b4-00c04fd430c8 (RFC 9562 6.6)';

CREATE FUNCTION @extschema@.uuid_namespace_oid()
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuid_namespace_oid'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuid_namespace_oid() IS
'the ISO OID namespace 6ba7b812-9dad-11d1-80b4-00c04fd430c8 (RFC 9562 6.6)';

CREATE FUNCTION @extschema@.uuid_namespace_x500()
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuid_namespace_x500'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuid_namespace_x500() IS
'the X.500 DN namespace 6ba7b814-9dad-11d1-80b4-00c04fd430c8 (RFC 9562 6.6)';

-- readers: IMMUTABLE STRICT PARALLEL SAFE

CREATE FUNCTION @extschema@.uuid_extract_timestamp(id uuid)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'pg_uuidx_uuid_extract_timestamp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuid_extract_timestamp(uuid) IS
'creation time of a v1, v6 (microseconds) or v7 (milliseconds) UUID; NULL for other versions and variants';

CREATE FUNCTION @extschema@.uuid_extract_version(id uuid)
RETURNS smallint
AS 'MODULE_PATHNAME', 'pg_uuidx_uuid_extract_version'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuid_extract_version(uuid) IS
'version field of an RFC 9562 variant UUID; NULL for other variants';

CREATE FUNCTION @extschema@.uuidv7_boundary(ts timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv7_boundary'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv7_boundary(timestamptz) IS
'smallest UUIDv7 whose time is ts or later: id >= uuidv7_boundary(a) AND id < uuidv7_boundary(b) selects the v7 ids made in [a, b) through the index';

CREATE FUNCTION @extschema@.uuidv6_boundary(ts timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv6_boundary'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv6_boundary(timestamptz) IS
'smallest UUIDv6 whose time is ts or later, for index range scans';

-- min(uuid) and max(uuid): parallel aggregates that can use a btree index

CREATE FUNCTION @extschema@.uuid_smaller(uuid, uuid)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuid_smaller'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuid_smaller(uuid, uuid) IS
'the lesser of two UUIDs (transition function of min(uuid))';

CREATE FUNCTION @extschema@.uuid_larger(uuid, uuid)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuid_larger'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuid_larger(uuid, uuid) IS
'the greater of two UUIDs (transition function of max(uuid))';

CREATE AGGREGATE @extschema@.min(uuid) (
    SFUNC = @extschema@.uuid_smaller,
    STYPE = uuid,
    COMBINEFUNC = @extschema@.uuid_smaller,
    SORTOP = OPERATOR(pg_catalog.<),
    PARALLEL = SAFE
);

COMMENT ON AGGREGATE @extschema@.min(uuid) IS 'smallest UUID; answered from a btree index when there is one';

CREATE AGGREGATE @extschema@.max(uuid) (
    SFUNC = @extschema@.uuid_larger,
    STYPE = uuid,
    COMBINEFUNC = @extschema@.uuid_larger,
    SORTOP = OPERATOR(pg_catalog.>),
    PARALLEL = SAFE
);

COMMENT ON AGGREGATE @extschema@.max(uuid) IS 'largest UUID; answered from a btree index when there is one';

-- time ranges: a tstzrange predicate the planner answers from a btree on
-- the id, range edges, and a text decoder for pg_partman
-- (functions IMMUTABLE STRICT PARALLEL SAFE)

CREATE FUNCTION @extschema@.uuidv7_time_range_support(internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv7_time_range_support'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv7_time_range_support(internal) IS
'planner support of uuid <@ tstzrange: btree conditions on the id, and partition pruning';

CREATE FUNCTION @extschema@.uuidv6_time_range_support(internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv6_time_range_support'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv6_time_range_support(internal) IS
'planner support of uuidv6_in_time_range(): btree conditions on the id, and partition pruning';

CREATE FUNCTION @extschema@.uuidv7_in_time_range(id uuid, range tstzrange)
RETURNS boolean
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv7_in_time_range'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
SUPPORT @extschema@.uuidv7_time_range_support;

COMMENT ON FUNCTION @extschema@.uuidv7_in_time_range(uuid, tstzrange) IS
'true for a v7 id whose time (uuid_extract_timestamp_us) lies in the range; the operator uuid <@ tstzrange';

CREATE OPERATOR @extschema@.<@ (
    LEFTARG = uuid,
    RIGHTARG = tstzrange,
    FUNCTION = @extschema@.uuidv7_in_time_range
);

COMMENT ON OPERATOR @extschema@.<@ (uuid, tstzrange) IS
'a v7 id whose time lies in the range; answered by a btree on the id';

CREATE FUNCTION @extschema@.uuidv6_in_time_range(id uuid, range tstzrange)
RETURNS boolean
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv6_in_time_range'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
SUPPORT @extschema@.uuidv6_time_range_support;

COMMENT ON FUNCTION @extschema@.uuidv6_in_time_range(uuid, tstzrange) IS
'true for a v6 id whose time (uuid_extract_timestamp_us) lies in the range; answered by a btree on the id';

-- the row test the planner leaves beside the btree conditions it derives
-- for a partitioned table: the same test without planner support, so that
-- it is not expanded again
CREATE FUNCTION @extschema@.uuidv7_in_time_range_recheck(id uuid, range tstzrange)
RETURNS boolean
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv7_in_time_range'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv7_in_time_range_recheck(uuid, tstzrange) IS
'uuid <@ tstzrange without planner support: the row test kept beside the index conditions derived for a partitioned table';

CREATE FUNCTION @extschema@.uuidv6_in_time_range_recheck(id uuid, range tstzrange)
RETURNS boolean
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv6_in_time_range'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv6_in_time_range_recheck(uuid, tstzrange) IS
'uuidv6_in_time_range() without planner support: the row test kept beside the index conditions derived for a partitioned table';

CREATE FUNCTION @extschema@.uuidv7_range_lower(range tstzrange)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv7_range_lower'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv7_range_lower(tstzrange) IS
'the smallest v7 id whose time lies in the range (the largest uuid for an empty range)';

CREATE FUNCTION @extschema@.uuidv7_range_upper(range tstzrange)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv7_range_upper'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv7_range_upper(tstzrange) IS
'the largest v7 id whose time lies in the range (the nil uuid for an empty range)';

CREATE FUNCTION @extschema@.uuidv6_range_lower(range tstzrange)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv6_range_lower'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv6_range_lower(tstzrange) IS
'the smallest v6 id whose time lies in the range (the largest uuid for an empty range)';

CREATE FUNCTION @extschema@.uuidv6_range_upper(range tstzrange)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv6_range_upper'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv6_range_upper(tstzrange) IS
'the largest v6 id whose time lies in the range (the nil uuid for an empty range)';

CREATE FUNCTION @extschema@.uuidv7_boundary_upper(ts timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv7_boundary_upper'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv7_boundary_upper(timestamptz) IS
'largest UUIDv7 whose time is ts or earlier: id BETWEEN uuidv7_boundary(a) AND uuidv7_boundary_upper(b) selects the v7 ids made in [a, b]';

CREATE FUNCTION @extschema@.uuidv6_boundary_upper(ts timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv6_boundary_upper'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv6_boundary_upper(timestamptz) IS
'largest UUIDv6 whose time is ts or earlier, the upper edge for BETWEEN';

CREATE FUNCTION @extschema@.uuid_extract_timestamp_from_text(id text)
RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN @extschema@.uuid_extract_timestamp(CAST(id AS pg_catalog.uuid));

COMMENT ON FUNCTION @extschema@.uuid_extract_timestamp_from_text(text) IS
'uuid_extract_timestamp() of an id given as text: the time decoder pg_partman''s create_parent() takes';

-- the v4 facade (UUIDv47), the microsecond reader and ordered backfill
-- (readers and facade IMMUTABLE STRICT PARALLEL SAFE)

CREATE FUNCTION @extschema@.uuidv47_encode(id uuid, key bytea)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv47_encode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv47_encode(uuid, bytea) IS
'UUIDv47 facade of a UUIDv7: its millisecond field XOR a SipHash-2-4 mask keyed by the 16-byte key, shown as version 4';

CREATE FUNCTION @extschema@.uuidv47_decode(facade uuid, key bytea)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv47_decode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv47_decode(uuid, bytea) IS
'the UUIDv7 behind a UUIDv47 facade made with the same 16-byte key';

CREATE FUNCTION @extschema@.siphash24(data bytea, key bytea)
RETURNS bytea
AS 'MODULE_PATHNAME', 'pg_uuidx_siphash24'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.siphash24(bytea, bytea) IS
'SipHash-2-4 of data under a 16-byte key: 8 bytes, least significant first (the hash under uuidv47_encode)';

CREATE FUNCTION @extschema@.uuid_extract_timestamp_us(id uuid)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'pg_uuidx_uuid_extract_timestamp_us'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuid_extract_timestamp_us(uuid) IS
'creation time of a v1, v6 or v7 id to the microsecond, the time every range and boundary function uses (v7: the microsecond its 12-bit fraction falls in, never outside its millisecond); NULL for other versions';

CREATE FUNCTION @extschema@.uuidv7_at(ts timestamp)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv7_at_utc'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;

COMMENT ON FUNCTION @extschema@.uuidv7_at(timestamp) IS
'UUIDv7 for a timestamp read as UTC whatever the session TimeZone; consecutive calls for one instant give increasing ids';

-- compact text forms: base32hex, ULID text, TypeID
-- (IMMUTABLE STRICT PARALLEL SAFE)
CREATE FUNCTION @extschema@.uuid_to_base32hex(uuid)
RETURNS text
AS 'MODULE_PATHNAME', 'pg_uuidx_uuid_to_base32hex'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuid_to_base32hex(uuid) IS
'26-character RFC 4648 base32hex text of a UUID, as PostgreSQL 19''s rtrim(encode(uuid_send(id), ''base32hex''), ''='')';

CREATE FUNCTION @extschema@.base32hex_to_uuid(text)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_base32hex_to_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.base32hex_to_uuid(text) IS
'the UUID of 26 base32hex characters (either case, optionally padded with ======)';

CREATE FUNCTION @extschema@.uuid_to_ulid(uuid)
RETURNS text
AS 'MODULE_PATHNAME', 'pg_uuidx_uuid_to_ulid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuid_to_ulid(uuid) IS
'26-character ULID text (Crockford base32, upper case) of a UUID';

CREATE FUNCTION @extschema@.ulid_to_uuid(text)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_ulid_to_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.ulid_to_uuid(text) IS
'the UUID of a ULID text (26 Crockford base32 characters, either case, first 0-7)';

CREATE FUNCTION @extschema@.ulid_extract_timestamp(uuid)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'pg_uuidx_ulid_extract_timestamp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.ulid_extract_timestamp(uuid) IS
'the ULID timestamp of a UUID: its top 48 bits as Unix milliseconds, whatever its version';

CREATE FUNCTION @extschema@.typeid(text, uuid)
RETURNS text
AS 'MODULE_PATHNAME', 'pg_uuidx_typeid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.typeid(text, uuid) IS
'TypeID text (spec 0.3.0) of a prefix and a UUID: prefix_ and 26 lower-case Crockford characters';

CREATE FUNCTION @extschema@.typeid_to_uuid(text)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_typeid_to_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.typeid_to_uuid(text) IS
'the UUID of a TypeID (prefix and suffix both checked)';

CREATE FUNCTION @extschema@.typeid_prefix(text)
RETURNS text
AS 'MODULE_PATHNAME', 'pg_uuidx_typeid_prefix'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.typeid_prefix(text) IS
'the prefix of a TypeID, empty when it has none (prefix and suffix both checked)';

-- living with core: what depends on this extension
-- (STABLE PARALLEL SAFE, reads the catalogs)

CREATE FUNCTION @extschema@.pg_uuidx_dependents()
RETURNS TABLE (dependent text, kind text, uses regprocedure,
               core_function regprocedure, handover text)
LANGUAGE sql STABLE PARALLEL SAFE
-- with only pg_catalog on the path, expressions print pg_uuidx's functions
-- qualified, so a name with a core equivalent can be swapped textually
SET search_path = pg_catalog
AS $$
WITH core(fn, args, since) AS (
    -- pg_catalog functions that return what pg_uuidx's return for the ids
    -- pg_uuidx makes (uuid_extract_timestamp: v1 and v7; core reads v6 as
    -- NULL), by the major that added them
    VALUES ('uuidv7', '', 180000), ('uuidv7', 'interval', 180000),
           ('uuidv4', '', 180000), ('uuid_extract_timestamp', 'uuid', 180000),
           ('uuid_extract_version', 'uuid', 170000)
),
ours AS (
    SELECT p.oid, p.proname,
           CASE WHEN c.since <= current_setting('server_version_num')::int
                THEN to_regprocedure(format('pg_catalog.%I(%s)', p.proname, c.args)) END AS core_oid
    FROM pg_proc p
    JOIN pg_depend e ON e.classid = 'pg_proc'::regclass AND e.objid = p.oid AND e.deptype = 'e'
    JOIN pg_extension x ON x.oid = e.refobjid AND x.extname = 'pg_uuidx'
    LEFT JOIN core c ON c.fn = p.proname AND c.args = array_to_string(p.proargtypes::regtype[], ',')
),
-- a dependent's text with every pg_uuidx function that has a core
-- equivalent named pg_catalog.fn( instead
swap AS (
    SELECT '\m' || quote_ident(n.nspname) || '\.(' ||
           coalesce(string_agg(DISTINCT o.proname, '|'), '$^') || ')\(' AS pattern
    FROM pg_extension x
    JOIN pg_namespace n ON n.oid = x.extnamespace
    LEFT JOIN ours o ON o.core_oid IS NOT NULL
    WHERE x.extname = 'pg_uuidx'
    GROUP BY n.nspname
),
deps AS (
    SELECT DISTINCT d.classid, d.objid, d.objsubid, o.oid AS uses, o.core_oid
    FROM pg_depend d
    JOIN ours o ON d.refclassid = 'pg_proc'::regclass AND d.refobjid = o.oid
    WHERE d.deptype IN ('n', 'a')
      -- the extension's own objects (min/max on their transition functions)
      AND NOT EXISTS (SELECT FROM pg_depend m
                      JOIN pg_extension x ON x.oid = m.refobjid AND x.extname = 'pg_uuidx'
                      WHERE m.classid = d.classid AND m.objid = d.objid AND m.deptype = 'e')
),
described AS (
    SELECT d.*,
           CASE
               WHEN d.classid = 'pg_attrdef'::regclass THEN
                   (SELECT CASE WHEN a.attgenerated = '' THEN 'column default' ELSE 'generated column' END
                    FROM pg_attrdef ad JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
                    WHERE ad.oid = d.objid)
               WHEN d.classid = 'pg_class'::regclass THEN
                   (SELECT CASE c.relkind WHEN 'i' THEN 'index' WHEN 'I' THEN 'index' ELSE 'relation' END
                    FROM pg_class c WHERE c.oid = d.objid)
               WHEN d.classid = 'pg_rewrite'::regclass THEN
                   (SELECT CASE c.relkind WHEN 'm' THEN 'materialized view' ELSE 'view' END
                    FROM pg_rewrite r JOIN pg_class c ON c.oid = r.ev_class WHERE r.oid = d.objid)
               WHEN d.classid = 'pg_constraint'::regclass THEN
                   (SELECT CASE WHEN c.contypid <> 0 THEN 'domain constraint' ELSE 'check constraint' END
                    FROM pg_constraint c WHERE c.oid = d.objid)
               WHEN d.classid = 'pg_proc'::regclass THEN 'function'
               WHEN d.classid = 'pg_trigger'::regclass THEN 'trigger'
               WHEN d.classid = 'pg_policy'::regclass THEN 'policy'
               ELSE 'other'
           END AS kind
    FROM deps d
)
SELECT CASE WHEN d.classid = 'pg_rewrite'::regclass
            THEN (SELECT pg_describe_object('pg_class'::regclass, r.ev_class, 0)
                  FROM pg_rewrite r WHERE r.oid = d.objid)
            ELSE pg_describe_object(d.classid, d.objid, d.objsubid) END,
       d.kind, d.uses::regprocedure, d.core_oid,
       CASE WHEN d.core_oid IS NULL THEN NULL
            WHEN d.kind = 'column default' THEN
                (SELECT format('ALTER TABLE %s ALTER COLUMN %I SET DEFAULT %s', ad.adrelid::regclass, a.attname,
                               regexp_replace(pg_get_expr(ad.adbin, ad.adrelid), s.pattern, 'pg_catalog.\1(', 'g'))
                 FROM pg_attrdef ad JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
                 WHERE ad.oid = d.objid)
            WHEN d.kind = 'generated column' THEN
                (SELECT format('ALTER TABLE %s ALTER COLUMN %I SET EXPRESSION AS (%s)', ad.adrelid::regclass, a.attname,
                               regexp_replace(pg_get_expr(ad.adbin, ad.adrelid), s.pattern, 'pg_catalog.\1(', 'g'))
                 FROM pg_attrdef ad JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
                 WHERE ad.oid = d.objid)
            WHEN d.kind = 'index' THEN
                format('DROP INDEX %s; %s', d.objid::regclass,
                       regexp_replace(pg_get_indexdef(d.objid), s.pattern, 'pg_catalog.\1(', 'g'))
            WHEN d.kind = 'view' THEN
                (SELECT format('CREATE OR REPLACE VIEW %s AS %s', r.ev_class::regclass,
                               regexp_replace(pg_get_viewdef(r.ev_class), s.pattern, 'pg_catalog.\1(', 'g'))
                 FROM pg_rewrite r WHERE r.oid = d.objid)
            WHEN d.kind = 'check constraint' THEN
                (SELECT format('ALTER TABLE %s DROP CONSTRAINT %I, ADD CONSTRAINT %I %s', c.conrelid::regclass,
                               c.conname, c.conname,
                               regexp_replace(pg_get_constraintdef(c.oid), s.pattern, 'pg_catalog.\1(', 'g'))
                 FROM pg_constraint c WHERE c.oid = d.objid)
            WHEN d.kind = 'function' THEN
                regexp_replace(pg_get_functiondef(d.objid), s.pattern, 'pg_catalog.\1(', 'g')
       END
FROM described d CROSS JOIN swap s
ORDER BY 1, 3
$$;

COMMENT ON FUNCTION @extschema@.pg_uuidx_dependents() IS
'objects that use pg_uuidx''s functions (defaults, generated columns, indexes, views, constraints, functions), the core function of the same result on this server, and the statement that hands each over to it';

-- Adopting from pg_uuidv7: what uses its functions and the statement that
-- points each at pg_uuidx's function of the same result.  pg_uuidv7 reads
-- the top 48 bits as Unix ms whatever the version (ulid_extract_timestamp);
-- with zero => true it makes the smallest v7 id of the millisecond
-- (uuidv7_boundary of the instant cut to the ms), otherwise a random id of
-- that millisecond (uuidv7_at).

CREATE FUNCTION @extschema@.pg_uuidx_pg_uuidv7_dependents()
RETURNS TABLE (dependent text, kind text, uses regprocedure,
               pg_uuidx_function text, move text)
LANGUAGE sql STABLE PARALLEL SAFE
-- with only pg_catalog on the path, expressions print pg_uuidv7's
-- functions qualified, so each call can be found and rewritten textually
SET search_path = pg_catalog
AS $$
WITH theirs(fn, args, ours) AS (
    VALUES ('uuid_generate_v7', '', 'uuidv7()'),
           ('uuid_v7_to_timestamptz', 'uuid', 'ulid_extract_timestamp(uuid)'),
           ('uuid_v7_to_timestamp', 'uuid', 'ulid_extract_timestamp(uuid) AT TIME ZONE ''UTC'''),
           ('uuid_timestamptz_to_v7', 'timestamp with time zone,boolean',
            'zero: uuidv7_boundary(timestamptz) of the instant cut to the ms; otherwise uuidv7_at(timestamptz)'),
           ('uuid_timestamp_to_v7', 'timestamp without time zone,boolean',
            'zero: uuidv7_boundary(timestamptz) of the instant (UTC) cut to the ms; otherwise uuidv7_at(timestamp)')
),
fns AS (
    SELECT p.oid, t.ours
    FROM pg_proc p
    JOIN pg_depend e ON e.classid = 'pg_proc'::regclass AND e.objid = p.oid AND e.deptype = 'e'
    JOIN pg_extension x ON x.oid = e.refobjid AND x.extname = 'pg_uuidv7'
    JOIN theirs t ON t.fn = p.proname AND t.args = array_to_string(p.proargtypes::regtype[], ',')
),
-- "schema." of pg_uuidv7 as a pattern, and of pg_uuidx as text
names AS (
    SELECT '\m' || regexp_replace(quote_ident(n.nspname), '([.^$*+?()\[\]{}|\\])', '\\\1', 'g') || '\.' AS theirs,
           (SELECT quote_ident(m.nspname) || '.' FROM pg_extension y JOIN pg_namespace m ON m.oid = y.extnamespace
            WHERE y.extname = 'pg_uuidx') AS ours,
           -- one argument: no comma outside parentheses, nested up to two deep
           '((?:[^(),]|\((?:[^()]|\([^()]*\))*\))+)' AS arg
    FROM pg_extension x JOIN pg_namespace n ON n.oid = x.extnamespace
    WHERE x.extname = 'pg_uuidv7'
),
deps AS (
    SELECT DISTINCT d.classid, d.objid, d.objsubid, f.oid AS uses, f.ours
    FROM pg_depend d
    JOIN fns f ON d.refclassid = 'pg_proc'::regclass AND d.refobjid = f.oid
    WHERE d.deptype IN ('n', 'a')
),
described AS (
    SELECT d.*, k.kind, k.def
    FROM deps d
    CROSS JOIN LATERAL (
        SELECT CASE WHEN a.attgenerated = '' THEN 'column default' ELSE 'generated column' END,
               pg_get_expr(ad.adbin, ad.adrelid)
        FROM pg_attrdef ad JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
        WHERE d.classid = 'pg_attrdef'::regclass AND ad.oid = d.objid
        UNION ALL
        SELECT CASE WHEN c.relkind IN ('i', 'I') THEN 'index' ELSE 'relation' END,
               CASE WHEN c.relkind IN ('i', 'I') THEN pg_get_indexdef(c.oid) END
        FROM pg_class c WHERE d.classid = 'pg_class'::regclass AND c.oid = d.objid
        UNION ALL
        SELECT CASE c.relkind WHEN 'm' THEN 'materialized view' ELSE 'view' END, pg_get_viewdef(c.oid)
        FROM pg_rewrite r JOIN pg_class c ON c.oid = r.ev_class
        WHERE d.classid = 'pg_rewrite'::regclass AND r.oid = d.objid
        UNION ALL
        SELECT CASE WHEN c.contypid <> 0 THEN 'domain constraint' ELSE 'check constraint' END,
               pg_get_constraintdef(c.oid)
        FROM pg_constraint c WHERE d.classid = 'pg_constraint'::regclass AND c.oid = d.objid
        UNION ALL
        SELECT 'function', pg_get_functiondef(d.objid) WHERE d.classid = 'pg_proc'::regclass
        UNION ALL
        SELECT CASE d.classid WHEN 'pg_trigger'::regclass THEN 'trigger'
                              WHEN 'pg_policy'::regclass THEN 'policy' ELSE 'other' END, NULL
        WHERE d.classid NOT IN ('pg_attrdef'::regclass, 'pg_class'::regclass, 'pg_rewrite'::regclass,
                                'pg_constraint'::regclass, 'pg_proc'::regclass)
    ) AS k(kind, def)
),
rewritten AS (
    SELECT d.*,
           regexp_replace(regexp_replace(
           regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(
               d.def,
               s.theirs || 'uuid_generate_v7\(\)', s.ours || 'uuidv7()', 'g'),
               s.theirs || 'uuid_v7_to_timestamptz\(', s.ours || 'ulid_extract_timestamp(', 'g'),
               s.theirs || 'uuid_v7_to_timestamp\(' || s.arg || '\)',
               '(' || s.ours || 'ulid_extract_timestamp(\1) AT TIME ZONE ''UTC'')', 'g'),
               s.theirs || 'uuid_timestamptz_to_v7\(' || s.arg || ', true\)',
               s.ours || 'uuidv7_boundary(date_trunc(''milliseconds'', (\1) AT TIME ZONE ''UTC'') AT TIME ZONE ''UTC'')', 'g'),
               s.theirs || 'uuid_timestamptz_to_v7\(' || s.arg || ', false\)', s.ours || 'uuidv7_at(\1)', 'g'),
               s.theirs || 'uuid_timestamp_to_v7\(' || s.arg || ', true\)',
               s.ours || 'uuidv7_boundary(date_trunc(''milliseconds'', \1) AT TIME ZONE ''UTC'')', 'g'),
               s.theirs || 'uuid_timestamp_to_v7\(' || s.arg || ', false\)', s.ours || 'uuidv7_at(\1)', 'g'),
               -- zero left to its default (a SQL-standard body prints no default)
               s.theirs || 'uuid_timestamptz_to_v7\(' || s.arg || '\)', s.ours || 'uuidv7_at(\1)', 'g'),
               s.theirs || 'uuid_timestamp_to_v7\(' || s.arg || '\)', s.ours || 'uuidv7_at(\1)', 'g') AS new,
           s.theirs
    FROM described d CROSS JOIN names s
)
SELECT CASE WHEN r.classid = 'pg_rewrite'::regclass
            THEN (SELECT pg_describe_object('pg_class'::regclass, w.ev_class, 0)
                  FROM pg_rewrite w WHERE w.oid = r.objid)
            ELSE pg_describe_object(r.classid, r.objid, r.objsubid) END,
       r.kind, r.uses::regprocedure, r.ours,
       CASE
           -- a call left as it was (a zero flag that is not a constant, an
           -- argument nested too deep): the object is moved by hand
           WHEN r.new ~ (r.theirs || '(uuid_generate_v7|uuid_v7_to_timestamptz|uuid_v7_to_timestamp|uuid_timestamptz_to_v7|uuid_timestamp_to_v7)\(')
               THEN NULL
           WHEN r.kind = 'column default' THEN
               (SELECT format('ALTER TABLE %s ALTER COLUMN %I SET DEFAULT %s', ad.adrelid::regclass, a.attname, r.new)
                FROM pg_attrdef ad JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
                WHERE ad.oid = r.objid)
           WHEN r.kind = 'generated column' THEN
               (SELECT CASE WHEN current_setting('server_version_num')::int >= 170000
                            THEN format('ALTER TABLE %s ALTER COLUMN %I SET EXPRESSION AS (%s)',
                                        ad.adrelid::regclass, a.attname, r.new)
                            -- before 17 the column is made again, at the end of the table
                            ELSE format('ALTER TABLE %s DROP COLUMN %I, ADD COLUMN %I %s GENERATED ALWAYS AS (%s) STORED',
                                        ad.adrelid::regclass, a.attname, a.attname,
                                        format_type(a.atttypid, a.atttypmod), r.new) END
                FROM pg_attrdef ad JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
                WHERE ad.oid = r.objid)
           WHEN r.kind = 'index' THEN format('DROP INDEX %s; %s', r.objid::regclass, r.new)
           WHEN r.kind = 'view' THEN
               (SELECT format('CREATE OR REPLACE VIEW %s AS %s', w.ev_class::regclass, r.new)
                FROM pg_rewrite w WHERE w.oid = r.objid)
           WHEN r.kind = 'check constraint' THEN
               (SELECT format('ALTER TABLE %s DROP CONSTRAINT %I, ADD CONSTRAINT %I %s', c.conrelid::regclass,
                              c.conname, c.conname, r.new)
                FROM pg_constraint c WHERE c.oid = r.objid)
           WHEN r.kind = 'domain constraint' THEN
               (SELECT format('ALTER DOMAIN %s DROP CONSTRAINT %I; ALTER DOMAIN %s ADD CONSTRAINT %I %s',
                              c.contypid::regtype, c.conname, c.contypid::regtype, c.conname, r.new)
                FROM pg_constraint c WHERE c.oid = r.objid)
           WHEN r.kind = 'function' THEN r.new
       END
FROM rewritten r
ORDER BY 1, 3
$$;

COMMENT ON FUNCTION @extschema@.pg_uuidx_pg_uuidv7_dependents() IS
'objects that use pg_uuidv7''s functions (defaults, generated columns, indexes, views, constraints, functions), the pg_uuidx function of the same result, and the statement that moves each to it';
