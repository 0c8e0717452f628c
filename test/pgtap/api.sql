-- The SQL API: every function's signature, volatility, strictness and
-- parallel safety are part of the contract (generators VOLATILE, PARALLEL
-- RESTRICTED when they keep a per-session order, else PARALLEL SAFE; pure
-- functions IMMUTABLE STRICT PARALLEL SAFE).
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
BEGIN;
CREATE EXTENSION IF NOT EXISTS pgtap;
CREATE SCHEMA uuidx;
CREATE EXTENSION pg_uuidx SCHEMA uuidx;

CREATE TEMP TABLE api (fn text, args text[], volatility text, strict boolean);
INSERT INTO api VALUES
    -- generators: VOLATILE
    ('uuidv7', '{}', 'volatile', false),
    ('uuidv7', '{interval}', 'volatile', true),
    ('uuidv7_at', '{"timestamp with time zone"}', 'volatile', true),
    ('uuidv7_at', '{"timestamp without time zone"}', 'volatile', true),
    ('uuidv6', '{}', 'volatile', false),
    ('uuidv4', '{}', 'volatile', false),
    -- pure functions: IMMUTABLE STRICT
    ('uuidv1_to_v6', '{uuid}', 'immutable', true),
    ('uuidv6_to_v1', '{uuid}', 'immutable', true),
    ('uuid_v8_sha256', '{uuid,text}', 'immutable', true),
    ('uuid_v8_sha256', '{uuid,bytea}', 'immutable', true),
    ('uuidv5', '{uuid,text}', 'immutable', true),
    ('uuidv5', '{uuid,bytea}', 'immutable', true),
    ('uuidv3', '{uuid,text}', 'immutable', true),
    ('uuidv3', '{uuid,bytea}', 'immutable', true),
    ('uuid_extract_timestamp', '{uuid}', 'immutable', true),
    ('uuid_extract_version', '{uuid}', 'immutable', true),
    ('uuidv7_boundary', '{"timestamp with time zone"}', 'immutable', true),
    ('uuidv6_boundary', '{"timestamp with time zone"}', 'immutable', true),
    ('uuid_smaller', '{uuid,uuid}', 'immutable', true),
    ('uuid_larger', '{uuid,uuid}', 'immutable', true),
    ('uuid_to_base32hex', '{uuid}', 'immutable', true),
    ('base32hex_to_uuid', '{text}', 'immutable', true),
    ('uuid_to_ulid', '{uuid}', 'immutable', true),
    ('ulid_to_uuid', '{text}', 'immutable', true),
    ('ulid_extract_timestamp', '{uuid}', 'immutable', true),
    ('typeid', '{text,uuid}', 'immutable', true),
    ('typeid_to_uuid', '{text}', 'immutable', true),
    ('typeid_prefix', '{text}', 'immutable', true),
    ('uuidv47_encode', '{uuid,bytea}', 'immutable', true),
    ('uuidv47_decode', '{uuid,bytea}', 'immutable', true),
    ('siphash24', '{bytea,bytea}', 'immutable', true),
    ('uuid_extract_timestamp_us', '{uuid}', 'immutable', true),
    -- time ranges
    ('uuidv7_time_range_support', '{internal}', 'immutable', true),
    ('uuidv6_time_range_support', '{internal}', 'immutable', true),
    ('uuidv7_in_time_range', '{uuid,tstzrange}', 'immutable', true),
    ('uuidv6_in_time_range', '{uuid,tstzrange}', 'immutable', true),
    ('uuidv7_in_time_range_recheck', '{uuid,tstzrange}', 'immutable', true),
    ('uuidv6_in_time_range_recheck', '{uuid,tstzrange}', 'immutable', true),
    ('uuidv7_range_lower', '{tstzrange}', 'immutable', true),
    ('uuidv7_range_upper', '{tstzrange}', 'immutable', true),
    ('uuidv6_range_lower', '{tstzrange}', 'immutable', true),
    ('uuidv6_range_upper', '{tstzrange}', 'immutable', true),
    ('uuidv7_boundary_upper', '{"timestamp with time zone"}', 'immutable', true),
    ('uuidv6_boundary_upper', '{"timestamp with time zone"}', 'immutable', true),
    ('uuid_extract_timestamp_from_text', '{text}', 'immutable', true),
    -- catalog reader: STABLE
    ('pg_uuidx_dependents', '{}', 'stable', false),
    ('pg_uuidx_pg_uuidv7_dependents', '{}', 'stable', false),
    -- migrations: procedures (VOLATILE and PARALLEL UNSAFE, as every procedure)
    ('pg_uuidx_adopt_pg_uuidv7', '{}', 'volatile', false),
    ('pg_uuidx_hand_over_to_core', '{}', 'volatile', false),
    -- the commit horizon: VOLATILE (the clock, other sessions), not STRICT
    ('uuidv7_horizon', '{}', 'volatile', false),
    ('uuidv6_horizon', '{}', 'volatile', false),
    ('pg_uuidx_horizon_holders', '{}', 'volatile', false),
    ('pg_uuidx_read_after', '{anyelement,uuid,integer,name,integer,boolean}', 'volatile', false),
    ('pg_uuidx_node_horizon', '{"timestamp with time zone",integer}', 'volatile', true),
    -- the guard (a trigger) and its cover of one id (publishes it for this
    -- transaction, not a worker's), its check of DDL (an event trigger) and
    -- the tick (writes a table): PARALLEL UNSAFE
    ('pg_uuidx_horizon_guard', '{}', 'volatile', false),
    ('pg_uuidx_horizon_cover', '{uuid,integer,text}', 'volatile', false),
    ('pg_uuidx_guard_ddl', '{}', 'volatile', false),
    ('pg_uuidx_tick', '{}', 'volatile', false),
    -- the guard in one call: DDL, PARALLEL UNSAFE
    ('pg_uuidx_add_guard', '{regclass,name,integer,text}', 'volatile', false),
    -- consumers: they write their positions, PARALLEL UNSAFE
    ('pg_uuidx_consume', '{anyelement,text,integer,name,integer}', 'volatile', false),
    ('pg_uuidx_consumer_ack', '{regclass,text,uuid}', 'volatile', false),
    ('pg_uuidx_consumer_reset', '{regclass,text,uuid,regrole}', 'volatile', false),
    -- health: reads the shared state and computes the horizon; the tables'
    -- allowances, each in a subtransaction (PARALLEL UNSAFE)
    ('pg_uuidx_stats_state', '{}', 'volatile', false),
    ('pg_uuidx_guarded_tables', '{}', 'volatile', false),
    -- constants: IMMUTABLE (no arguments, so strictness is moot)
    ('uuid_namespace_dns', '{}', 'immutable', false),
    ('uuid_namespace_url', '{}', 'immutable', false),
    ('uuid_namespace_oid', '{}', 'immutable', false),
    ('uuid_namespace_x500', '{}', 'immutable', false),
    -- which build: 'c' here, 'sql' in the SQL build
    ('pg_uuidx_build', '{}', 'immutable', false);

-- generators that keep a per-session order: a parallel worker would start
-- from fresh state, so they run in the leader only; so does the horizon,
-- which leaves the calling transaction out
CREATE TEMP TABLE restricted (fn text, args text[]);
INSERT INTO restricted VALUES ('uuidv7', '{}'), ('uuidv7', '{interval}'), ('uuidv6', '{}'),
    ('uuidv7_at', '{"timestamp with time zone"}'), ('uuidv7_at', '{"timestamp without time zone"}'),
    ('uuidv7_horizon', '{}'), ('uuidv6_horizon', '{}'), ('pg_uuidx_horizon_holders', '{}'),
    ('pg_uuidx_read_after', '{anyelement,uuid,integer,name,integer,boolean}'), ('pg_uuidx_stats_state', '{}'),
    ('pg_uuidx_node_horizon', '{"timestamp with time zone",integer}');

-- PARALLEL UNSAFE functions that are not procedures
CREATE TEMP TABLE unsafe (fn text);
INSERT INTO unsafe VALUES ('pg_uuidx_horizon_guard'), ('pg_uuidx_horizon_cover'), ('pg_uuidx_guard_ddl'),
    ('pg_uuidx_tick'), ('pg_uuidx_consume'), ('pg_uuidx_consumer_ack'), ('pg_uuidx_consumer_reset'), ('pg_uuidx_add_guard'), ('pg_uuidx_guarded_tables');

-- procedures: called with CALL, in one transaction, by a superuser
CREATE TEMP TABLE procedures (fn text);
INSERT INTO procedures VALUES ('pg_uuidx_adopt_pg_uuidv7'), ('pg_uuidx_hand_over_to_core');

SELECT plan((SELECT count(*)::int * 4 + 1 + 4 FROM api) + (SELECT count(*)::int * 3 FROM procedures) + 9);

SELECT has_function('uuidx', fn, args, fn || '(' || array_to_string(args, ', ') || ') exists')
FROM api;
SELECT volatility_is('uuidx', fn, args, volatility, fn || '(' || array_to_string(args, ', ') || ') is ' || volatility)
FROM api;
SELECT is(p.proisstrict, a.strict, a.fn || '(' || array_to_string(a.args, ', ') || ') strictness')
FROM api AS a
JOIN pg_proc AS p ON p.oid = ('uuidx.' || a.fn || '(' || array_to_string(a.args, ', ') || ')')::regprocedure;
SELECT is(p.proparallel::text, CASE WHEN c.fn IS NOT NULL OR u.fn IS NOT NULL THEN 'u' WHEN r.fn IS NULL THEN 's' ELSE 'r' END,
          a.fn || '(' || array_to_string(a.args, ', ') || ') is PARALLEL ' ||
          CASE WHEN c.fn IS NOT NULL OR u.fn IS NOT NULL THEN 'UNSAFE' WHEN r.fn IS NULL THEN 'SAFE' ELSE 'RESTRICTED' END)
FROM api AS a
LEFT JOIN restricted AS r ON r.fn = a.fn AND r.args = a.args
LEFT JOIN procedures AS c ON c.fn = a.fn
LEFT JOIN unsafe AS u ON u.fn = a.fn
JOIN pg_proc AS p ON p.oid = ('uuidx.' || a.fn || '(' || array_to_string(a.args, ', ') || ')')::regprocedure;

SELECT is(p.prokind::text, 'p', c.fn || '() is a procedure')
FROM procedures AS c JOIN pg_proc AS p ON p.oid = ('uuidx.' || c.fn || '()')::regprocedure;
SELECT is(p.proconfig, '{"search_path=pg_catalog, pg_temp"}', c.fn || '() runs with search_path = pg_catalog, pg_temp')
FROM procedures AS c JOIN pg_proc AS p ON p.oid = ('uuidx.' || c.fn || '()')::regprocedure;
SELECT is(l.lanname::text, 'plpgsql', c.fn || '() is PL/pgSQL')
FROM procedures AS c JOIN pg_proc AS p ON p.oid = ('uuidx.' || c.fn || '()')::regprocedure
JOIN pg_language AS l ON l.oid = p.prolang;

-- the tick's table: everyone reads it, only its owner writes it; the
-- right to tick is EXECUTE on pg_uuidx_tick(), which the extension's owner
-- holds and may grant (test/pgtap/privileges.sql)
SELECT is(has_table_privilege('public', 'uuidx.pg_uuidx_last_tick', 'SELECT'), true,
          'everyone reads pg_uuidx_last_tick');
SELECT is(has_table_privilege('public', 'uuidx.pg_uuidx_last_tick', 'INSERT, UPDATE, DELETE, TRUNCATE'), false,
          'PUBLIC does not write pg_uuidx_last_tick');
SELECT is(has_function_privilege('public', 'uuidx.pg_uuidx_tick()', 'EXECUTE'), false,
          'PUBLIC may not call pg_uuidx_tick()');

-- the consumers' positions: a position is an id of a row of its table, so
-- PUBLIC reads them only through the view, which shows a role those of its
-- own roles of the tables it may read; only the table's owner writes it,
-- through pg_uuidx_consume(), pg_uuidx_consumer_ack() and
-- pg_uuidx_consumer_reset()
SELECT is(has_table_privilege('public', 'uuidx.pg_uuidx_consumers', 'SELECT'), true,
          'everyone reads the view pg_uuidx_consumers');
SELECT is(has_table_privilege('public', 'uuidx.pg_uuidx_stats', 'SELECT'), true,
          'everyone reads the view pg_uuidx_stats');
SELECT is(has_table_privilege('public', 'uuidx.pg_uuidx_table_stats', 'SELECT'), true,
          'everyone reads the view pg_uuidx_table_stats');
SELECT is(has_table_privilege('public', 'uuidx.pg_uuidx_consumer_positions', 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE'),
          false, 'PUBLIC neither reads nor writes pg_uuidx_consumer_positions');

-- nothing more and nothing less than the table above (and min/max) is installed
SELECT set_eq(
    $$ SELECT p.proname::text || '(' || array_to_string(p.proargtypes::regtype[]::text[], ',') || ')'
       FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.deptype = 'e'
       JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'pg_uuidx' $$,
    $$ SELECT fn || '(' || array_to_string(args, ',') || ')' FROM api
       UNION ALL VALUES ('min(uuid)'), ('max(uuid)') $$,
    'the extension installs exactly the documented functions and aggregates');

-- min and max are parallel-safe aggregates that can use a btree index
SELECT is(a.aggcombinefn::text, 'uuidx.uuid_smaller', 'min(uuid) has a combine function')
FROM pg_aggregate a WHERE a.aggfnoid = 'uuidx.min(uuid)'::regprocedure;
SELECT is(a.aggcombinefn::text, 'uuidx.uuid_larger', 'max(uuid) has a combine function')
FROM pg_aggregate a WHERE a.aggfnoid = 'uuidx.max(uuid)'::regprocedure;
SELECT is(a.aggsortop::regoperator::text, '<(uuid,uuid)', 'min(uuid) is answered by an index scan (sort operator <)')
FROM pg_aggregate a WHERE a.aggfnoid = 'uuidx.min(uuid)'::regprocedure;
SELECT is(p.proparallel, 's', 'max(uuid) is PARALLEL SAFE')
FROM pg_proc p WHERE p.oid = 'uuidx.max(uuid)'::regprocedure;

-- settings named pg_uuidx.* are the library's: once it is loaded, a
-- misspelt one is refused instead of kept as a placeholder
SELECT isnt(uuidx.uuidv7(), NULL, 'the library is loaded');
SELECT throws_ok('SET pg_uuidx.horizon_alowance = 5', '42602', NULL,
                 'SET of a misspelt pg_uuidx.* setting: 42602 (the prefix is reserved)');

SELECT * FROM finish();
ROLLBACK;
