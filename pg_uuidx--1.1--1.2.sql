/* pg_uuidx--1.1--1.2.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION pg_uuidx UPDATE TO '1.2'" to load this file. \quit

-- Every object this script names is qualified with @extschema@ (see
-- pg_uuidx--1.2.sql).

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
