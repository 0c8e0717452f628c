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
-- (STABLE, reads the catalogs)
