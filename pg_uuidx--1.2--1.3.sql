/* pg_uuidx--1.2--1.3.sql: update from 1.2 to 1.3 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION pg_uuidx UPDATE TO '1.3'" to load this file. \quit

-- Every time an id is compared with is now the one uuid_extract_timestamp_us()
-- returns (the C library); the comments say so.

COMMENT ON FUNCTION @extschema@.uuidv7_at(timestamptz) IS
'UUIDv7 whose time (uuid_extract_timestamp_us) is the given instant; calls with the same instant in a row keep their order, for backfilling historical rows';

COMMENT ON FUNCTION @extschema@.uuidv7_boundary(timestamptz) IS
'smallest UUIDv7 whose time is ts or later: id >= uuidv7_boundary(a) AND id < uuidv7_boundary(b) selects the v7 ids made in [a, b) through the index';

COMMENT ON FUNCTION @extschema@.uuidv6_boundary(timestamptz) IS
'smallest UUIDv6 whose time is ts or later, for index range scans';

COMMENT ON FUNCTION @extschema@.uuidv7_in_time_range(uuid, tstzrange) IS
'true for a v7 id whose time (uuid_extract_timestamp_us) lies in the range; the operator uuid <@ tstzrange';

COMMENT ON FUNCTION @extschema@.uuidv6_in_time_range(uuid, tstzrange) IS
'true for a v6 id whose time (uuid_extract_timestamp_us) lies in the range; answered by a btree on the id';

COMMENT ON FUNCTION @extschema@.uuidv7_boundary_upper(timestamptz) IS
'largest UUIDv7 whose time is ts or earlier: id BETWEEN uuidv7_boundary(a) AND uuidv7_boundary_upper(b) selects the v7 ids made in [a, b]';

COMMENT ON FUNCTION @extschema@.uuidv6_boundary_upper(timestamptz) IS
'largest UUIDv6 whose time is ts or earlier, the upper edge for BETWEEN';

COMMENT ON FUNCTION @extschema@.uuid_extract_timestamp_us(uuid) IS
'creation time of a v1, v6 or v7 id to the microsecond, the time every range and boundary function uses (v7: the microsecond its 12-bit fraction falls in, never outside its millisecond); NULL for other versions';

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
