/* pg_uuidx--1.6--1.7.sql: update from 1.6 to 1.7 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION pg_uuidx UPDATE TO '1.7'" to load this file. \quit

-- Consumers (docs/reading-in-order.md, "Consumers"): the position of each
-- named consumer of a relation of each role, written only by
-- pg_uuidx_consume(), pg_uuidx_consumer_ack() and pg_uuidx_consumer_reset()
-- as the table's owner.  The role is part of the key: each role's consumer
-- of a name is its own, and a call acts on the current role's.  The
-- relation and the role are kept as regclass and regrole, which pg_dump
-- writes as names and pg_upgrade keeps.  A position of a relation or a role
-- that no longer exists stays until reset, and is not dumped.
CREATE TABLE @extschema@.pg_uuidx_consumer_positions (
    relid pg_catalog.regclass NOT NULL,
    consumer pg_catalog.text COLLATE pg_catalog."C" NOT NULL
        CHECK (consumer OPERATOR(pg_catalog.<>) ''),
    last_id pg_catalog.uuid,
    role pg_catalog.regrole NOT NULL,
    moved_at pg_catalog.timestamptz,
    PRIMARY KEY (relid, consumer, role)
);

COMMENT ON TABLE @extschema@.pg_uuidx_consumer_positions IS
'the position of each consumer of pg_uuidx_consume(), per relation, name and role: last_id the greatest id acknowledged of relid (NULL: none yet); written by pg_uuidx_consume(), pg_uuidx_consumer_ack() and pg_uuidx_consumer_reset() only; read it through the view pg_uuidx_consumers';

SELECT pg_catalog.pg_extension_config_dump('@extschema@.pg_uuidx_consumer_positions',
    'WHERE EXISTS (SELECT FROM pg_catalog.pg_class c '
    'WHERE c.oid OPERATOR(pg_catalog.=) pg_uuidx_consumer_positions.relid::pg_catalog.oid) '
    'AND EXISTS (SELECT FROM pg_catalog.pg_roles r '
    'WHERE r.oid OPERATOR(pg_catalog.=) pg_uuidx_consumer_positions.role::pg_catalog.oid)');

-- A position is an id of a row of its relation, which row-level security
-- may hide from other roles: the view shows a role the positions of the
-- roles whose privileges it has, of the relations it may read, and
-- pg_read_all_stats every position of an existing relation.  The
-- extension's owner reads the table itself, which pg_dump needs; nobody
-- writes it but its owner (no function of pg_uuidx is SECURITY DEFINER).
REVOKE ALL ON @extschema@.pg_uuidx_consumer_positions FROM PUBLIC;
GRANT SELECT ON @extschema@.pg_uuidx_consumer_positions TO @extowner@;

CREATE VIEW @extschema@.pg_uuidx_consumers WITH (security_barrier = true) AS
SELECT p.relid, p.consumer, p.last_id, p.role, p.moved_at,
       pg_catalog.clock_timestamp() OPERATOR(pg_catalog.-) @extschema@.uuid_extract_timestamp_us(p.last_id) AS lag
FROM @extschema@.pg_uuidx_consumer_positions p
WHERE EXISTS (SELECT FROM pg_catalog.pg_class c WHERE c.oid OPERATOR(pg_catalog.=) p.relid::pg_catalog.oid)
  AND (pg_catalog.pg_has_role('pg_read_all_stats', 'USAGE')
       OR (pg_catalog.pg_has_role(p.role::pg_catalog.oid, 'USAGE')
           AND pg_catalog.has_table_privilege(p.relid::pg_catalog.oid, 'SELECT')));

COMMENT ON VIEW @extschema@.pg_uuidx_consumers IS
'the consumers of pg_uuidx_consume() of the roles whose privileges the current role has, of the relations it may read (members of pg_read_all_stats: all): relation, name, last_id (the greatest id acknowledged), role, when it last moved, lag (how long ago the id of its position was made)';

REVOKE ALL ON @extschema@.pg_uuidx_consumers FROM PUBLIC;
GRANT SELECT ON @extschema@.pg_uuidx_consumers TO PUBLIC;

CREATE FUNCTION @extschema@.pg_uuidx_consume(row_type anyelement, consumer text, max_rows integer,
                                             id_column name DEFAULT 'id', id_version integer DEFAULT 7)
RETURNS SETOF anyelement
AS 'MODULE_PATHNAME', 'pg_uuidx_consume'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION @extschema@.pg_uuidx_consume(anyelement, text, integer, name, integer) IS
'the next rows of a table for the current role''s consumer of that name, as pg_uuidx_read_after() after its position, which stays locked until the transaction ends and moves only by pg_uuidx_consumer_ack() in the same transaction';

CREATE FUNCTION @extschema@.pg_uuidx_consumer_ack(tbl regclass, consumer text, last_id uuid)
RETURNS void
AS 'MODULE_PATHNAME', 'pg_uuidx_consumer_ack'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION @extschema@.pg_uuidx_consumer_ack(regclass, text, uuid) IS
'moves the current role''s consumer''s position to last_id, the last id handled of the rows pg_uuidx_consume() delivered in this transaction (after the position, at most the greatest delivered); NULL: nothing';

CREATE FUNCTION @extschema@.pg_uuidx_consumer_reset(tbl regclass, consumer text, after_id uuid DEFAULT NULL,
                                                    role regrole DEFAULT NULL)
RETURNS boolean
AS 'MODULE_PATHNAME', 'pg_uuidx_consumer_reset'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION @extschema@.pg_uuidx_consumer_reset(regclass, text, uuid, regrole) IS
'removes the position of role''s consumer (NULL: the current role''s; after_id NULL: it starts again from the first row) or sets it to after_id; true if it had one; setting for a role whose privileges the caller has, removing also for the table''s owner';

-- Health (docs/reading-in-order.md, "Health"): what the shared state says of
-- this database, and the view that adds the newest tick and the holders.
-- A lag is measured from the clock the horizon was computed at (the floor;
-- on a standby the clock now).  The horizon held at its lowest is
-- -infinity, whose distance from a time 15 and 16 cannot compute: no lag is
-- shown then, and the view says who holds it there.
CREATE FUNCTION @extschema@.pg_uuidx_stats_state(OUT horizon pg_catalog.timestamptz,
                                                 OUT floor pg_catalog.timestamptz,
                                                 OUT refusals pg_catalog.int8,
                                                 OUT lowest_pids pg_catalog.int4[],
                                                 OUT lowest_xids pg_catalog.xid[])
RETURNS record
AS 'MODULE_PATHNAME', 'pg_uuidx_stats_state'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION @extschema@.pg_uuidx_stats_state() IS
'the live commit horizon of this database before any allowance (-infinity: held at its lowest), the floor it was computed from, the ids the guard refused in it since the server started, and the sessions and prepared transactions that hold the horizon at its lowest; NULLs on a standby and where there is no shared state';

-- Each table is read with the allowance of its own guards, and only when
-- every row of it passes one (docs/reading-in-order.md, "The allowance"):
-- a tick also records the horizon at no allowance, with the floor it
-- started from (a table whose guards allow A is read up to the lesser of
-- exact_horizon and horizon_floor less A).  NULL where a library of 1.6
-- ticked: readers then read up to horizon.
ALTER TABLE @extschema@.pg_uuidx_last_tick
    ADD COLUMN exact_horizon pg_catalog.timestamptz
        CHECK (exact_horizon OPERATOR(pg_catalog.<>) 'infinity'::pg_catalog.timestamptz),
    ADD COLUMN horizon_floor pg_catalog.timestamptz
        CHECK (horizon_floor OPERATOR(pg_catalog.<>) 'infinity'::pg_catalog.timestamptz);

COMMENT ON COLUMN @extschema@.pg_uuidx_last_tick.exact_horizon IS
'the horizon of tables whose guards allow nothing; with horizon_floor, that of any allowance A: the lesser of exact_horizon and horizon_floor less A';

COMMENT ON COLUMN @extschema@.pg_uuidx_last_tick.horizon_floor IS
'the floor exact_horizon was computed from: the clock, or higher after it stepped back';

CREATE VIEW @extschema@.pg_uuidx_stats AS
SELECT pg_catalog.current_database() AS database,
       h.horizon,
       CASE WHEN pg_catalog.isfinite(h.horizon)
            THEN COALESCE(s.floor, pg_catalog.clock_timestamp()) OPERATOR(pg_catalog.-) h.horizon
       END AS horizon_lag,
       NOT pg_catalog.isfinite(h.horizon) AS held_at_lowest,
       CASE WHEN s.horizon IS NOT NULL
            THEN ARRAY(SELECT pg_catalog.format('prepared transaction %L', p.gid)
                       FROM pg_catalog.unnest(s.lowest_xids) x(xid)
                       JOIN pg_catalog.pg_prepared_xacts p ON p.transaction OPERATOR(pg_catalog.=) x.xid
                       UNION ALL
                       SELECT pg_catalog.format('process %s', x.pid)
                       FROM pg_catalog.unnest(s.lowest_pids) x(pid))
       END AS lowest_holders,
       s.floor,
       s.refusals,
       t.horizon AS tick_horizon,
       t.ticked_at,
       CASE WHEN pg_catalog.isfinite(t.ticked_at)
            THEN pg_catalog.clock_timestamp() OPERATOR(pg_catalog.-) t.ticked_at
       END AS tick_age,
       CASE WHEN s.horizon IS NOT NULL
            THEN (SELECT pg_catalog.count(*) FROM @extschema@.pg_uuidx_horizon_holders())::pg_catalog.int4
       END AS holders
FROM @extschema@.pg_uuidx_stats_state() s
LEFT JOIN @extschema@.pg_uuidx_last_tick t ON true
CROSS JOIN LATERAL (SELECT CASE WHEN pg_catalog.pg_is_in_recovery() THEN t.horizon ELSE s.horizon END) h(horizon);

COMMENT ON VIEW @extschema@.pg_uuidx_stats IS
'the health of reading in order in this database: the horizon before any allowance (on a standby the newest tick) and how far it trails the clock, whether it is held at its lowest and by whom, the floor, the guard''s refusals since the server started, the newest tick and its age, the sessions and prepared transactions holding the horizon; each table''s readers: pg_uuidx_table_stats';

REVOKE ALL ON @extschema@.pg_uuidx_stats FROM PUBLIC;
GRANT SELECT ON @extschema@.pg_uuidx_stats TO PUBLIC;

-- Each table that can be read, with the allowance its readers read it with
-- (docs/reading-in-order.md, "Health").  Its tables are looked at one by
-- one in a subtransaction each (PARALLEL UNSAFE), whose locks end with it.
CREATE FUNCTION @extschema@.pg_uuidx_guarded_tables(OUT relid pg_catalog.regclass,
                                                    OUT allowance pg_catalog.interval,
                                                    OUT problem pg_catalog.text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'pg_uuidx_guarded_tables'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION @extschema@.pg_uuidx_guarded_tables() IS
'each table with an enabled guard, partitions left out, and the allowance its readers read it with (the greatest of its guards'' and of those of the tables under it), or NULL and why they refuse to read it';

-- A reader of a table whose guards allow a reads up to the least of the
-- horizon before any allowance and the floor less a, both from one
-- computation; on a standby the same from the newest tick, and never below
-- the tick's own horizon (at the setting's allowance), as the reader does.
CREATE VIEW @extschema@.pg_uuidx_table_stats AS
SELECT g.relid,
       g.allowance,
       h.horizon,
       CASE WHEN pg_catalog.isfinite(h.horizon)
            THEN COALESCE(s.floor, pg_catalog.clock_timestamp()) OPERATOR(pg_catalog.-) h.horizon
       END AS horizon_lag,
       g.problem
FROM @extschema@.pg_uuidx_guarded_tables() g
CROSS JOIN @extschema@.pg_uuidx_stats_state() s
LEFT JOIN @extschema@.pg_uuidx_last_tick t ON true
CROSS JOIN LATERAL (SELECT CASE WHEN g.allowance IS NULL THEN NULL
                                WHEN pg_catalog.pg_is_in_recovery()
                                THEN GREATEST(t.horizon,
                                              CASE WHEN t.exact_horizon IS NOT NULL AND t.horizon_floor IS NOT NULL
                                                   THEN LEAST(t.exact_horizon,
                                                              t.horizon_floor OPERATOR(pg_catalog.-) g.allowance)
                                              END)
                                ELSE LEAST(s.horizon, s.floor OPERATOR(pg_catalog.-) g.allowance)
                           END) h(horizon)
ORDER BY g.relid::pg_catalog.text;

COMMENT ON VIEW @extschema@.pg_uuidx_table_stats IS
'each table that can be read in order in this database (an enabled guard; partitions left out): the allowance its readers read it with, the horizon they read up to now (on a standby from the newest tick) and how far it trails the clock, or why they refuse to read it';

REVOKE ALL ON @extschema@.pg_uuidx_table_stats FROM PUBLIC;
GRANT SELECT ON @extschema@.pg_uuidx_table_stats TO PUBLIC;

-- pg_uuidx_dependents() passed over the extension's own objects by their
-- membership, which a view has on itself, not on the rule that holds its
-- query: from 1.7, with the view pg_uuidx_stats, it listed that view.
-- Replaced in place (its OID kept).
CREATE OR REPLACE FUNCTION @extschema@.pg_uuidx_dependents()
RETURNS TABLE (dependent text, kind text, uses regprocedure, core_function regprocedure)
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
WITH core(fn, args, since) AS (
    VALUES ('uuidv7', '', 180000), ('uuidv7', 'interval', 180000),
           ('uuidv4', '', 180000), ('uuid_extract_timestamp', 'uuid', 180000),
           ('uuid_extract_version', 'uuid', 170000)
),
ours AS (
    SELECT p.oid,
           (SELECT q.oid FROM pg_proc q
            WHERE c.since <= current_setting('server_version_num')::int
              AND q.pronamespace = 'pg_catalog'::regnamespace
              AND q.proname = p.proname AND q.proargtypes = p.proargtypes) AS core_oid
    FROM pg_proc p
    JOIN pg_depend e ON e.classid = 'pg_proc'::regclass AND e.objid = p.oid AND e.deptype = 'e'
    JOIN pg_extension x ON x.oid = e.refobjid AND x.extname = 'pg_uuidx'
    LEFT JOIN core c ON c.fn = p.proname AND c.args = array_to_string(p.proargtypes::regtype[], ',')
),
deps AS (
    SELECT DISTINCT d.classid, d.objid, d.objsubid, o.oid AS uses, o.core_oid
    FROM pg_depend d
    JOIN ours o ON d.refclassid = 'pg_proc'::regclass AND d.refobjid = o.oid
    WHERE d.deptype IN ('n', 'a')
      -- the extension's own objects (min/max on their transition functions,
      -- and the query rules of its views, whose membership is their view's)
      AND NOT EXISTS (SELECT FROM pg_depend m
                      JOIN pg_extension x ON x.oid = m.refobjid AND x.extname = 'pg_uuidx'
                      WHERE m.deptype = 'e'
                        AND ((m.classid = d.classid AND m.objid = d.objid)
                             OR (d.classid = 'pg_rewrite'::regclass AND m.classid = 'pg_class'::regclass
                                 AND m.objid = (SELECT w.ev_class FROM pg_rewrite w WHERE w.oid = d.objid))))
)
SELECT coalesce(r.dependent, pg_describe_object(d.classid, d.objid, d.objsubid)),
       coalesce(r.kind, a.kind, c.kind, (pg_identify_object(d.classid, d.objid, d.objsubid)).type),
       d.uses::regprocedure, d.core_oid::regprocedure
FROM deps d
LEFT JOIN LATERAL (
    -- a view's or materialized view's query is its rule _RETURN
    SELECT CASE WHEN w.rulename = '_RETURN' THEN pg_describe_object('pg_class'::regclass, w.ev_class, 0)
                ELSE pg_describe_object(d.classid, d.objid, d.objsubid) END,
           CASE WHEN w.rulename <> '_RETURN' THEN 'rule'
                WHEN k.relkind = 'm' THEN 'materialized view' ELSE 'view' END
    FROM pg_rewrite w JOIN pg_class k ON k.oid = w.ev_class
    WHERE d.classid = 'pg_rewrite'::regclass AND w.oid = d.objid
) AS r(dependent, kind) ON true
LEFT JOIN LATERAL (
    SELECT CASE WHEN t.attgenerated = '' THEN 'column default' ELSE 'generated column' END
    FROM pg_attrdef f JOIN pg_attribute t ON t.attrelid = f.adrelid AND t.attnum = f.adnum
    WHERE d.classid = 'pg_attrdef'::regclass AND f.oid = d.objid
) AS a(kind) ON true
LEFT JOIN LATERAL (
    SELECT CASE WHEN n.contypid <> 0 THEN 'domain constraint'
                WHEN n.contype = 'c' THEN 'check constraint' ELSE 'constraint' END
    FROM pg_constraint n
    WHERE d.classid = 'pg_constraint'::regclass AND n.oid = d.objid
) AS c(kind) ON true
ORDER BY 1, 3
$$;

COMMENT ON FUNCTION @extschema@.pg_uuidx_dependents() IS
'objects that use pg_uuidx''s functions (defaults, generated columns, indexes, views, rules, constraints, functions, triggers, policies) and the core function of the same result on this server; pg_uuidx_hand_over_to_core() hands them over in place';

-- The guard's cover of one id, for the WHEN condition of the guard declared
-- AFTER INSERT OR UPDATE FOR EACH ROW, which leaves COPY its batches
-- (docs/reading-in-order.md, "Bulk loads"): true when the id is covered
-- for this transaction, as the guard covers it.
CREATE FUNCTION @extschema@.pg_uuidx_horizon_cover(id pg_catalog.uuid, version pg_catalog.int4 DEFAULT 7,
                                                    allowance pg_catalog.text DEFAULT NULL)
RETURNS pg_catalog.bool
AS 'MODULE_PATHNAME', 'pg_uuidx_horizon_cover'
LANGUAGE C VOLATILE;

COMMENT ON FUNCTION @extschema@.pg_uuidx_horizon_cover(pg_catalog.uuid, pg_catalog.int4, pg_catalog.text) IS
'holds the commit horizon at or below id for this transaction, as pg_uuidx_horizon_guard() does: true when covered (or NULL), false when id is not of the version or below a horizon already handed out; for WHEN (NOT pg_uuidx_horizon_cover(NEW.id, 7, ''200ms'')) of the guard declared AFTER INSERT OR UPDATE FOR EACH ROW';

COMMENT ON FUNCTION @extschema@.pg_uuidx_horizon_guard() IS
'trigger, BEFORE or AFTER INSERT OR UPDATE FOR EACH ROW: holds the commit horizon at or below each id stored, or refuses an id below a horizon already handed out (40001); as BEFORE INSERT OR UPDATE FOR EACH STATEMENT beside the AFTER form, covers the ids of a long statement from its start; arguments: id column, version, allowance';

-- A node's part of a Citus coordinator's cluster horizon: the coordinator's
-- reader of a distributed table asks every node that holds one of its
-- shards (docs/reading-in-order.md, "Citus").
CREATE FUNCTION @extschema@.pg_uuidx_node_horizon(below pg_catalog.timestamptz, allowance_ms pg_catalog.int4)
RETURNS pg_catalog.timestamptz
AS 'MODULE_PATHNAME', 'pg_uuidx_node_horizon'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION @extschema@.pg_uuidx_node_horizon(pg_catalog.timestamptz, pg_catalog.int4) IS
'this server''s commit horizon for readers of tables whose guards allow allowance_ms, its floor raised to the clock but not above below plus allowance_ms (-infinity: held at its lowest); a Citus coordinator''s pg_uuidx_read_after() asks each node that holds a shard of the table, below its own horizon';

-- The guard in one call (docs/reading-in-order.md, "The guard"): a table is
-- read in order only when every row it stores passes a guard.  Declares the
-- guard after the row and its statement trigger, which covers the ids made
-- while the statement runs (core's uuidv7() as a default too) from its
-- start: at the default allowance of 0 only ids made before their statement
-- can be refused.  No WHEN condition: PostgreSQL reads and plans a trigger's
-- WHEN condition again for every statement, a cost that an INSERT of one
-- row pays in full (docs/benchmarks.md); the guard then covers each row at
-- the statement's end from an event queued for it.  Runs with the caller's
-- rights (CREATE TRIGGER needs the table's owner or TRIGGER); names the
-- table by its OID's schema and name, and pg_uuidx's functions by the
-- extension's schema.
CREATE FUNCTION @extschema@.pg_uuidx_add_guard(tbl pg_catalog.regclass, id_column pg_catalog.name DEFAULT 'id',
                                               id_version pg_catalog.int4 DEFAULT 7,
                                               allowance pg_catalog.text DEFAULT '0')
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    target text;
    part text;
    ext text;
    typ oid;
    -- the triggers' names, within the 63 bytes of a name: a long column's by its hash
    guard text := 'pg_uuidx_guard_' ||
        CASE WHEN octet_length(id_column) <= 40 THEN id_column ELSE 'h' || left(md5(id_column), 16) END;
BEGIN
    IF tbl IS NULL OR id_column IS NULL OR id_version IS NULL OR allowance IS NULL THEN
        RAISE EXCEPTION 'the arguments of pg_uuidx_add_guard() must not be NULL' USING ERRCODE = '22004';
    END IF;
    IF id_version NOT IN (6, 7) THEN
        RAISE EXCEPTION 'id_version must be 6 or 7' USING ERRCODE = '22023';
    END IF;
    SELECT format('%I.%I', n.nspname, c.relname) INTO target
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = tbl;
    -- the same message on every major (core's for CREATE TRIGGER differs)
    IF (SELECT c.relkind FROM pg_class c WHERE c.oid = tbl) NOT IN ('r', 'p') THEN
        RAISE EXCEPTION 'relation % is not a table', target USING ERRCODE = '42809',
            DETAIL = 'pg_uuidx_add_guard() guards tables and partitioned tables; readers of a view read the tables it reads.';
    END IF;
    SELECT a.atttypid INTO typ FROM pg_attribute a
    WHERE a.attrelid = tbl AND a.attname = id_column AND a.attnum > 0 AND NOT a.attisdropped;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'column "%" of relation % does not exist', id_column, target USING ERRCODE = '42703';
    END IF;
    WHILE (SELECT t.typtype FROM pg_type t WHERE t.oid = typ) = 'd' LOOP
        typ := (SELECT t.typbasetype FROM pg_type t WHERE t.oid = typ);
    END LOOP;
    IF typ <> 'pg_catalog.uuid'::regtype THEN
        RAISE EXCEPTION 'column "%" of relation % is not of type uuid', id_column, target USING ERRCODE = '42804';
    END IF;
    SELECT format('%I', n.nspname) INTO ext
    FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_uuidx';
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE ON %s FOR EACH ROW '
                   'EXECUTE FUNCTION %s.pg_uuidx_horizon_guard(%L, %L, %L)',
                   guard, target, ext, id_column, id_version, allowance);
    -- PostgreSQL fires the statement triggers of the table a statement names,
    -- not of its partitions, and clones row triggers only: each partition
    -- there is now gets the statement trigger too (one made later does not;
    -- pg_partition_tree() of a table in no partition tree is empty)
    FOR part IN
        SELECT target
        UNION ALL
        (SELECT format('%I.%I', n.nspname, c.relname)
         FROM pg_partition_tree(tbl) AS p
         JOIN pg_class c ON c.oid = p.relid JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE p.relid <> tbl AND c.relkind IN ('r', 'p')
         ORDER BY p.level, c.oid)
    LOOP
        EXECUTE format('CREATE TRIGGER %I BEFORE INSERT OR UPDATE ON %s FOR EACH STATEMENT '
                       'EXECUTE FUNCTION %s.pg_uuidx_horizon_guard(%L, %L, %L)',
                       guard || '_start', part, ext, id_column, id_version, allowance);
    END LOOP;
END
$fn$;

COMMENT ON FUNCTION @extschema@.pg_uuidx_add_guard(pg_catalog.regclass, pg_catalog.name, pg_catalog.int4, pg_catalog.text) IS
'declares pg_uuidx_horizon_guard() on a table (after the row, and its statement trigger), so that pg_uuidx_read_after() and pg_uuidx_consume() may read it; allowance: how long before their statement ids may be made (default 0: ids made by the server as the rows are written)';
