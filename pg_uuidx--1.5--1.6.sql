/* pg_uuidx--1.5--1.6.sql: update from 1.5 to 1.6 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION pg_uuidx UPDATE TO '1.6'" to load this file. \quit

-- Ids from any source under the commit horizon (docs/reading-in-order.md,
-- "Ids from any source: the guard"): a BEFORE INSERT OR UPDATE FOR EACH
-- ROW trigger; arguments: the id column (default id) and the version (7 or
-- 6).
CREATE FUNCTION @extschema@.pg_uuidx_horizon_guard()
RETURNS trigger
AS 'MODULE_PATHNAME', 'pg_uuidx_horizon_guard'
LANGUAGE C VOLATILE;

COMMENT ON FUNCTION @extschema@.pg_uuidx_horizon_guard() IS
'trigger: holds the commit horizon at or below each inserted id, or refuses an id below a horizon already handed out (40001); arguments: id column, version';

-- Rows that join a guarded table by DDL (docs/reading-in-order.md, "What
-- the guard covers"): ATTACH PARTITION and INHERIT cover the joining rows
-- as if inserted now, or refuse them (40001); a table that inherits from a
-- guarded one must carry the same guards, and a foreign table cannot join
-- one; CREATE TRIGGER refuses a guard declared so that rows skip it.  An
-- event trigger of the extension (the script of a trusted
-- extension runs as a superuser, which CREATE EVENT TRIGGER needs).
CREATE FUNCTION @extschema@.pg_uuidx_guard_ddl()
RETURNS event_trigger
AS 'MODULE_PATHNAME', 'pg_uuidx_guard_ddl'
LANGUAGE C VOLATILE;

COMMENT ON FUNCTION @extschema@.pg_uuidx_guard_ddl() IS
'event trigger: covers the rows that join a table guarded by pg_uuidx_horizon_guard() by ATTACH PARTITION or INHERIT, or refuses them (40001); refuses a table that would join it unguarded, and a guard declared so that rows skip it';

CREATE EVENT TRIGGER pg_uuidx_guard_ddl ON ddl_command_end
    WHEN TAG IN ('CREATE TABLE', 'CREATE FOREIGN TABLE', 'ALTER TABLE', 'ALTER FOREIGN TABLE', 'CREATE TRIGGER')
    EXECUTE FUNCTION @extschema@.pg_uuidx_guard_ddl();

COMMENT ON EVENT TRIGGER pg_uuidx_guard_ddl IS
'pg_uuidx: covers or refuses the rows that join a guarded table by DDL (see pg_uuidx_guard_ddl())';

-- Readers on standbys and logical subscribers (docs/reading-in-order.md,
-- "Readers on replicas"): the primary's horizon, recorded by
-- pg_uuidx_tick().  At most one row; none until the first tick, so that a
-- subscriber's initial copy of the table does not collide with a row of
-- its own.  A horizon of infinity would stall every reader for good: the
-- horizon is a time or -infinity (held at its lowest).
CREATE TABLE @extschema@.pg_uuidx_last_tick (
    one pg_catalog.bool PRIMARY KEY DEFAULT true CHECK (one),
    horizon pg_catalog.timestamptz NOT NULL
        CHECK (horizon OPERATOR(pg_catalog.<>) 'infinity'::pg_catalog.timestamptz),
    ticked_at pg_catalog.timestamptz NOT NULL,
    system_identifier pg_catalog.int8 NOT NULL
);

COMMENT ON TABLE @extschema@.pg_uuidx_last_tick IS
'the newest tick: every id below horizon that will ever commit committed before this row, on the server of system_identifier; add it to the publication that carries the data for logical subscribers';

-- Readers anywhere may read it; only its owner writes it.  The right to
-- tick is EXECUTE on pg_uuidx_tick(), which computes the horizon and
-- writes it as the table's owner (no function of pg_uuidx is SECURITY
-- DEFINER): a role that could write a value could store any horizon and
-- make readers on replicas skip rows.  The extension's owner may grant it.
REVOKE ALL ON @extschema@.pg_uuidx_last_tick FROM PUBLIC;
GRANT SELECT ON @extschema@.pg_uuidx_last_tick TO PUBLIC;

CREATE FUNCTION @extschema@.pg_uuidx_tick()
RETURNS pg_catalog.timestamptz
AS 'MODULE_PATHNAME', 'pg_uuidx_tick'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION @extschema@.pg_uuidx_tick() IS
'records the commit horizon in pg_uuidx_last_tick for readers on standbys and subscribers; returns the horizon recorded';

REVOKE EXECUTE ON FUNCTION @extschema@.pg_uuidx_tick() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION @extschema@.pg_uuidx_tick() TO @extowner@ WITH GRANT OPTION;

-- The reader with a choice of horizon: from_tick true reads up to the
-- newest tick, false up to the live horizon, NULL (the default, and what
-- 1.5's five arguments did) up to the tick on a standby or for a table
-- that a subscription writes into, else the live one.  A parameter more is
-- a new signature: the five-argument function goes (an object of the
-- user's that depends on it stops the update, naming it).  Its C function
-- is not 1.5's: a session that still has 1.5's library loaded (an update
-- without a restart, 17+) fails to find it there rather than read with
-- 1.5's, which ignores ticks.
DROP FUNCTION @extschema@.pg_uuidx_read_after(anyelement, uuid, integer, name, integer);

CREATE FUNCTION @extschema@.pg_uuidx_read_after(row_type anyelement, after_id uuid, max_rows integer,
                                                id_column name DEFAULT 'id', id_version integer DEFAULT 7,
                                                from_tick boolean DEFAULT NULL)
RETURNS SETOF anyelement
AS 'MODULE_PATHNAME', 'pg_uuidx_read_after_with_ticks'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION @extschema@.pg_uuidx_read_after(anyelement, uuid, integer, name, integer, boolean) IS
'the next rows of a table in id order after after_id and below the commit horizon (or the newest tick: from_tick, and by default on a standby or a subscribed table): pass NULL::table_name, the last id read and a row limit';
