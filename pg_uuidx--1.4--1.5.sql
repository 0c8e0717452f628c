/* pg_uuidx--1.4--1.5.sql: update from 1.4 to 1.5 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION pg_uuidx UPDATE TO '1.5'" to load this file. \quit

-- Reading a table in id order without missing a row (docs/reading-in-order.md):
-- the commit horizon of uuidv7() and uuidv6() ids, who holds it back, and a
-- reader that reads up to it.  VOLATILE PARALLEL RESTRICTED: they read the
-- clock and the state of other sessions, and leave the calling transaction
-- out, which a parallel worker would not know to do.
CREATE FUNCTION @extschema@.uuidv7_horizon()
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv7_horizon'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION @extschema@.uuidv7_horizon() IS
'the smallest UUIDv7 such that every uuidv7() id below it that a transaction of this database will commit is visible to statements that start after the call';

CREATE FUNCTION @extschema@.uuidv6_horizon()
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv6_horizon'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION @extschema@.uuidv6_horizon() IS
'the smallest UUIDv6 such that every uuidv6() id below it that a transaction of this database will commit is visible to statements that start after the call';

CREATE FUNCTION @extschema@.pg_uuidx_horizon_holders()
RETURNS TABLE (pid integer, prepared_xid xid, holds_since timestamptz)
AS 'MODULE_PATHNAME', 'pg_uuidx_horizon_holders'
LANGUAGE C VOLATILE PARALLEL RESTRICTED ROWS 10;

COMMENT ON FUNCTION @extschema@.pg_uuidx_horizon_holders() IS
'the sessions and prepared transactions of this database whose ids hold the commit horizon back, with the time each holds it at';

CREATE FUNCTION @extschema@.pg_uuidx_read_after(row_type anyelement, after_id uuid, max_rows integer,
                                                id_column name DEFAULT 'id', id_version integer DEFAULT 7)
RETURNS SETOF anyelement
AS 'MODULE_PATHNAME', 'pg_uuidx_read_after'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION @extschema@.pg_uuidx_read_after(anyelement, uuid, integer, name, integer) IS
'the next rows of a table in id order after after_id and below the commit horizon: pass NULL::table_name, the last id read and a row limit';

-- The build: pg_uuidx also comes as a SQL build (sqlonly/, "make sql-only")
-- of the same name and version, for servers that take no C extensions; its
-- pg_uuidx_build() answers 'sql'.
CREATE FUNCTION @extschema@.pg_uuidx_build()
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN 'c';

COMMENT ON FUNCTION @extschema@.pg_uuidx_build() IS
'the build of pg_uuidx installed: ''c'' (the C library) or ''sql'' (the SQL build, for servers that take no C extensions)';
