/* pg_uuidx--1.5--1.6.sql: update from 1.5 to 1.6 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION pg_uuidx UPDATE TO '1.6'" to load this file. \quit

-- Ids from any source under the commit horizon (docs/reading-in-order.md,
-- "Ids made elsewhere"): a BEFORE INSERT OR UPDATE OF <id> FOR EACH ROW
-- trigger; arguments: the id column (default id) and the version (7 or 6).
CREATE FUNCTION @extschema@.pg_uuidx_horizon_guard()
RETURNS trigger
AS 'MODULE_PATHNAME', 'pg_uuidx_horizon_guard'
LANGUAGE C VOLATILE;

COMMENT ON FUNCTION @extschema@.pg_uuidx_horizon_guard() IS
'trigger: holds the commit horizon at or below each inserted id, or refuses an id below a horizon already handed out (40001); arguments: id column, version';

-- Readers on standbys and logical subscribers (docs/reading-in-order.md,
-- "Readers on replicas"): the primary's horizon, recorded by
-- pg_uuidx_tick().  At most one row; none until the first tick, so that a
-- subscriber's initial copy of the table does not collide with a row of
-- its own.  Readers anywhere may read it; only pg_uuidx_tick() writes it.
CREATE TABLE @extschema@.pg_uuidx_last_tick (
    one pg_catalog.bool PRIMARY KEY DEFAULT true CHECK (one),
    horizon pg_catalog.timestamptz NOT NULL,
    ticked_at pg_catalog.timestamptz NOT NULL
);

COMMENT ON TABLE @extschema@.pg_uuidx_last_tick IS
'the newest tick: every id below horizon that will ever commit committed before this row; add it to the publication that carries the data for logical subscribers';

REVOKE ALL ON @extschema@.pg_uuidx_last_tick FROM PUBLIC;
GRANT SELECT ON @extschema@.pg_uuidx_last_tick TO PUBLIC;

-- SECURITY DEFINER: the tick is written by the extension's owner, so that
-- no reader's role needs to write the table, and none can write a false
-- horizon into it.  The function writes only the horizon it computed.
CREATE FUNCTION @extschema@.pg_uuidx_tick()
RETURNS pg_catalog.timestamptz
AS 'MODULE_PATHNAME', 'pg_uuidx_tick'
LANGUAGE C VOLATILE PARALLEL UNSAFE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION @extschema@.pg_uuidx_tick() IS
'records the commit horizon in pg_uuidx_last_tick for readers on standbys and subscribers; returns the horizon recorded';

-- The reader with a choice of horizon: the newest tick (from_tick true),
-- the live one (false), or as the five-argument form decides (NULL: the
-- tick on a standby or for a table a subscription writes into).  A second
-- form, so that the 1.5 function, its OID and what depends on it stay.
CREATE FUNCTION @extschema@.pg_uuidx_read_after(row_type anyelement, after_id uuid, max_rows integer,
                                                from_tick boolean,
                                                id_column name DEFAULT 'id', id_version integer DEFAULT 7)
RETURNS SETOF anyelement
AS 'MODULE_PATHNAME', 'pg_uuidx_read_after_from_tick'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION @extschema@.pg_uuidx_read_after(anyelement, uuid, integer, boolean, name, integer) IS
'the next rows of a table in id order after after_id and below the commit horizon, or below the newest tick when from_tick is true';

COMMENT ON FUNCTION @extschema@.pg_uuidx_read_after(anyelement, uuid, integer, name, integer) IS
'the next rows of a table in id order after after_id and below the commit horizon (on a standby or a subscribed table: the newest tick): pass NULL::table_name, the last id read and a row limit';
