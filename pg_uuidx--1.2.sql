/* pg_uuidx--1.2.sql: the whole extension at version 1.2 */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION pg_uuidx" to load this file. \quit

-- Every object this script creates or names is qualified with @extschema@:
-- extension scripts search pg_catalog first, and PostgreSQL 17 and 18 have
-- functions of the same names there.

-- generators: VOLATILE PARALLEL SAFE

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

-- time ranges: a tstzrange predicate the planner answers from a btree on
-- the id, range edges, and a text decoder for pg_partman
-- (functions IMMUTABLE STRICT PARALLEL SAFE)

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
'creation time of a v1, v6 or v7 id to the microsecond (v7 from its 12-bit sub-millisecond fraction); NULL for other versions';

CREATE FUNCTION @extschema@.uuidv7_at(ts timestamp)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv7_at_utc'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;

COMMENT ON FUNCTION @extschema@.uuidv7_at(timestamp) IS
'UUIDv7 for a timestamp read as UTC whatever the session TimeZone; consecutive calls for one instant give increasing ids';

-- compact text forms: base32hex, ULID text, TypeID
-- (IMMUTABLE STRICT PARALLEL SAFE)

-- living with core: what depends on this extension
-- (STABLE, reads the catalogs)
