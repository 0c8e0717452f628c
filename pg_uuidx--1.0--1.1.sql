/* pg_uuidx--1.0--1.1.sql: v6, v1 <-> v6 conversion, name-based ids, readers */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION pg_uuidx UPDATE TO '1.1'" to load this file. \quit

-- Every object this script creates or names is qualified with @extschema@
-- (core's with pg_catalog): extension scripts search pg_catalog first, and
-- PostgreSQL 17 and 18 have functions of the same names there.

-- generators: VOLATILE PARALLEL SAFE

CREATE FUNCTION @extschema@.uuidv6()
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv6'
LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv6() IS
'UUIDv6 (RFC 9562): Gregorian 100-ns time, clock_seq counter and random multicast node; strictly increasing within a session';

CREATE FUNCTION @extschema@.uuidv7_at(ts timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv7_at'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv7_at(timestamptz) IS
'UUIDv7 for a given instant (millisecond and 1/4096 ms fraction) with random bits, for backfilling historical rows';

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
'smallest UUIDv7 that can be made at ts: id >= uuidv7_boundary(a) AND id < uuidv7_boundary(b) selects ids made in [a, b) through the index';

CREATE FUNCTION @extschema@.uuidv6_boundary(ts timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv6_boundary'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv6_boundary(timestamptz) IS
'smallest UUIDv6 that can be made at ts, for index range scans';

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
