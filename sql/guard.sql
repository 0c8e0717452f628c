-- pg_uuidx_horizon_guard(): the trigger that holds the commit horizon at or
-- below ids made elsewhere.  Its arguments, what it accepts and refuses,
-- and its errors; the shapes of table it refuses (a generated id, another
-- declaration, a trigger after it); a re-sent row; the rows that join a
-- guarded table by DDL (pg_uuidx_guard_ddl(): ATTACH PARTITION, INHERIT,
-- foreign tables).  Concurrency (late commits, client-made ids, COPY, 2PC,
-- retries) is test/t/110_horizon_guard.pl's; readers against each shape,
-- test/t/125_guard_shapes.pl's.
--
-- The refusal needs the commit horizon, which PostgreSQL 15 and 16 have
-- only with pg_uuidx in shared_preload_libraries (test/run.sh preloads it
-- there); without it no horizon is handed out (hand_out() does nothing),
-- the guard has nothing to hold, and each check of a refusal is true
-- without one: nothing else differs.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
CREATE EXTENSION pg_uuidx;
SET search_path = public, pg_catalog;
SELECT current_setting('server_version_num')::int >= 170000
    OR current_setting('shared_preload_libraries') ~ 'pg_uuidx' AS horizon \gset

-- whether an INSERT of id (the first column) into t is refused with 40001
-- (serialization_failure)
CREATE FUNCTION refused(t regclass, id uuid) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('INSERT INTO %s VALUES ($1)', t) USING id;
    RETURN false;
EXCEPTION WHEN serialization_failure THEN
    RETURN true;
END $$;

-- the SQLSTATE of q's error, or 'ok'
CREATE FUNCTION state(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE q;
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE;
END $$;

-- the SQLSTATE and message of q's error, or 'ok'
CREATE FUNCTION outcome(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE q;
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

-- the hint of q's serialization failure, or 'taken'
CREATE FUNCTION refusal_hint(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    h text;
BEGIN
    EXECUTE q;
    RETURN 'taken';
EXCEPTION WHEN serialization_failure THEN
    GET STACKED DIAGNOSTICS h = PG_EXCEPTION_HINT;
    RETURN h;
END $$;

-- hand out a horizon of the version, where there is one
CREATE FUNCTION hand_out(version int) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('server_version_num')::int >= 170000
       OR current_setting('shared_preload_libraries') ~ 'pg_uuidx' THEN
        PERFORM CASE version WHEN 7 THEN uuidv7_horizon() ELSE uuidv6_horizon() END;
    END IF;
    RETURN true;
END $$;

CREATE TABLE g7 (id uuid PRIMARY KEY, note text);
CREATE TRIGGER g7_guard BEFORE INSERT OR UPDATE ON g7
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
CREATE TABLE g6 (event_id uuid, note text);
CREATE TRIGGER g6_guard BEFORE INSERT OR UPDATE ON g6
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard('event_id', '6');

-- the allowance: a guard's third argument, at most and by default the
-- server's setting of milliseconds, 1 s unless set
SHOW pg_uuidx.horizon_allowance;
SELECT setting, unit, context FROM pg_settings WHERE name = 'pg_uuidx.horizon_allowance';

-- a horizon handed out: an id made an hour before is refused; one made
-- within the allowance, now or later is taken
SELECT hand_out(7) AS handed_out \gset
SELECT NOT :'horizon'::boolean OR refused('g7', uuidv7(interval '-1 hour')) AS hour_old_refused;
SELECT refused('g7', uuidv7()) AS now_refused;
SELECT refused('g7', uuidv7(interval '-300 ms')) AS within_allowance_refused;
SELECT refused('g7', uuidv7(interval '1 hour')) AS future_refused;
SELECT hand_out(6) AS handed_out \gset
SELECT NOT :'horizon'::boolean OR refused('g6', uuidv6_boundary(now() - interval '1 hour')) AS v6_hour_old_refused;

-- the edge: with no other transaction holding it, the horizon just handed
-- out is the floor; its own id is taken, the first id of the microsecond
-- before it is refused
SELECT CASE WHEN :'horizon'::boolean THEN uuidv7_horizon() ELSE uuidv7_boundary(clock_timestamp()) END AS h7 \gset
SELECT NOT :'horizon'::boolean
       OR refused('g7', uuidv7_boundary(uuid_extract_timestamp_us(:'h7') - interval '1 microsecond'))
       AS below_horizon_refused;
SELECT refused('g7', :'h7') AS at_horizon_refused;
SELECT CASE WHEN :'horizon'::boolean THEN uuidv6_horizon() ELSE uuidv6_boundary(clock_timestamp()) END AS h6 \gset
SELECT NOT :'horizon'::boolean
       OR refused('g6', uuidv6_boundary(uuid_extract_timestamp_us(:'h6') - interval '1 microsecond'))
       AS v6_below_horizon_refused;
SELECT refused('g6', :'h6') AS v6_at_horizon_refused;
SELECT count(*) FROM g7;

-- an id at or above the transaction's own first id is never refused, and
-- an id below a horizon is refused with a message naming the setting
BEGIN;
SELECT uuidv7() AS first \gset
SELECT hand_out(7) AS handed_out;
SELECT refused('g7', :'first') AS own_id_refused;
COMMIT;
\set VERBOSITY default
DO $$
BEGIN
    IF current_setting('server_version_num')::int < 170000
       AND current_setting('shared_preload_libraries') !~ 'pg_uuidx' THEN
        RAISE NOTICE 'refused: id X was made at X, below the commit horizon already handed out (X)';
        RETURN;
    END IF;
    PERFORM hand_out(7);
    INSERT INTO g7 VALUES (uuidv7(interval '-1 hour'));
EXCEPTION
    WHEN serialization_failure THEN
        RAISE NOTICE 'refused: %', regexp_replace(SQLERRM, '[0-9a-f-]{36}|[0-9]{4}-[0-9:. +-]+', 'X', 'g');
END $$;

-- an UPDATE that keeps the id passes; one to an id below the horizon does not
UPDATE g7 SET note = 'kept' WHERE id = :'first';
SELECT hand_out(7) AS handed_out;
DO $$
BEGIN
    UPDATE g7 SET id = uuidv7(interval '-1 hour') WHERE note = 'kept';
    -- taken only where there is no horizon to hold
    RAISE NOTICE 'update refused: %', CASE WHEN current_setting('server_version_num')::int < 170000
        AND current_setting('shared_preload_libraries') !~ 'pg_uuidx' THEN 'true' ELSE 'false' END;
EXCEPTION WHEN serialization_failure THEN
    RAISE NOTICE 'update refused: true';
END $$;

-- a NULL id passes the guard (and is the table's business)
INSERT INTO g6 VALUES (NULL, 'no id');
SELECT count(*) FROM g6 WHERE event_id IS NULL;

-- logical replication's apply runs as session_replication_role = replica:
-- an ordinary trigger does not fire there, one ENABLE ALWAYS does
SET session_replication_role = replica;
SELECT hand_out(7) AS handed_out;
SELECT refused('g7', uuidv7(interval '-1 hour')) AS refused_in_apply;
ALTER TABLE g7 ENABLE ALWAYS TRIGGER g7_guard;
SELECT NOT :'horizon'::boolean OR refused('g7', uuidv7(interval '-1 hour')) AS refused_always;
RESET session_replication_role;
ALTER TABLE g7 ENABLE TRIGGER g7_guard;

-- errors
\set VERBOSITY default
INSERT INTO g7 VALUES ('3a6291b7-d231-4b8e-ae1b-bfd76233bb86'::uuid);  -- version 4
INSERT INTO g7 VALUES ('01890a5d-ac96-774b-0cce-b302099a8057'::uuid);  -- not the RFC variant
INSERT INTO g6 VALUES ('01890a5d-ac96-774b-bcce-b302099a8057'::uuid);  -- version 7
SELECT pg_uuidx_horizon_guard();
-- a guard that its firings would refuse is refused by CREATE TRIGGER
-- already (pg_uuidx_guard_ddl()): the declaration, the arguments, the column
CREATE TABLE g_bad (x int, label text);
CREATE TRIGGER g_after AFTER INSERT ON g_bad FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard('x');
CREATE TRIGGER g_stmt BEFORE INSERT ON g_bad FOR EACH STATEMENT EXECUTE FUNCTION pg_uuidx_horizon_guard();
CREATE TRIGGER g_none BEFORE INSERT OR UPDATE ON g_bad FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
CREATE TRIGGER g_type BEFORE INSERT OR UPDATE ON g_bad FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard('label');
CREATE TRIGGER g_ver BEFORE INSERT OR UPDATE ON g7 FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard('id', '4');
CREATE TRIGGER g_many BEFORE INSERT OR UPDATE ON g7 FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard('id', '7', '1s', 'x');
CREATE TRIGGER g_word BEFORE INSERT OR UPDATE ON g7 FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard('id', '7', 'x');
CREATE TRIGGER g_unit BEFORE INSERT OR UPDATE ON g7 FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard('id', '7', '5 parsecs');
CREATE TRIGGER g_neg BEFORE INSERT OR UPDATE ON g7 FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard('id', '7', '-1');
CREATE TRIGGER g_hours BEFORE INSERT OR UPDATE ON g7 FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard('id', '7', '2h');
SELECT count(*) AS guards FROM pg_trigger WHERE tgfoid = 'pg_uuidx_horizon_guard()'::regprocedure;
-- no session sets the allowance, not even a superuser's: a guard's readers
-- in other sessions must read with the allowance it lets ids in with
SET pg_uuidx.horizon_allowance = 0;

-- a guard's own allowance: below the setting it refuses what the setting
-- would let in; above it, the setting is the most
CREATE TABLE g_quick (id uuid PRIMARY KEY);
CREATE TRIGGER g_quick_guard BEFORE INSERT OR UPDATE ON g_quick
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard('id', '7', '100ms');
CREATE TABLE g_slow (id uuid PRIMARY KEY);
CREATE TRIGGER g_slow_guard BEFORE INSERT OR UPDATE ON g_slow
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard('id', '7', '1h');
SELECT hand_out(7) AS handed_out;
SELECT NOT :'horizon'::boolean OR refused('g_quick', uuidv7(interval '-500 ms')) AS quick_refuses_half_second;
SELECT refused('g_quick', uuidv7()) AS quick_refuses_now;
SELECT refused('g7', uuidv7(interval '-500 ms')) AS default_refuses_half_second;
SELECT NOT :'horizon'::boolean OR refused('g_slow', uuidv7(interval '-2 s')) AS slow_refuses_2s;
SELECT NOT :'horizon'::boolean
       OR refusal_hint($$INSERT INTO g_quick VALUES (uuidv7(interval '-1 s'))$$)
          LIKE '%raise the guard''s allowance (its third argument, at most pg_uuidx.horizon_allowance)%' AS hint_names_argument;
DROP TABLE g_quick, g_slow;

DROP TABLE g7, g6, g_bad;

-- Where the guard cannot see the id a row is stored with, it is refused
-- with 42P17 (invalid_object_definition, core's code for a BEFORE trigger's
-- WHEN condition on a generated column): the table's definition must
-- change, and retrying the statement cannot help.  CREATE TRIGGER refuses
-- it, and so does each firing of a guard that exists all the same.

-- a generated id is computed after BEFORE triggers run: the guard would
-- see NULL and let any id in
CREATE TABLE g_gen (ulid text, id uuid GENERATED ALWAYS AS (ulid_to_uuid(ulid)) STORED);
CREATE TRIGGER g_gen_guard BEFORE INSERT OR UPDATE ON g_gen
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
\echo :SQLSTATE

-- the guard must fire for every row that an INSERT or an UPDATE stores:
-- not for INSERT alone, not for UPDATE OF a column list, not under a WHEN
-- condition, and for nothing else
CREATE TABLE g_decl (id uuid PRIMARY KEY, note text);
CREATE TRIGGER g_decl_guard BEFORE INSERT ON g_decl
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
\echo :SQLSTATE
CREATE TRIGGER g_decl_guard BEFORE INSERT OR UPDATE OF id ON g_decl
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
CREATE TRIGGER g_decl_guard BEFORE INSERT OR UPDATE ON g_decl
    FOR EACH ROW WHEN (NEW.note IS NULL) EXECUTE FUNCTION pg_uuidx_horizon_guard();
CREATE TRIGGER g_decl_guard BEFORE INSERT OR UPDATE OR DELETE ON g_decl
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();

-- made while the event trigger was disabled (a superuser can), each firing
-- refuses them
ALTER EVENT TRIGGER pg_uuidx_guard_ddl DISABLE;
CREATE TRIGGER g_gen_guard BEFORE INSERT OR UPDATE ON g_gen
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
CREATE TRIGGER g_decl_guard BEFORE INSERT ON g_decl
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
ALTER EVENT TRIGGER pg_uuidx_guard_ddl ENABLE;
INSERT INTO g_gen VALUES (uuid_to_ulid(uuidv7()));
\echo :SQLSTATE
INSERT INTO g_gen VALUES (NULL);
INSERT INTO g_decl VALUES (uuidv7());
\echo :SQLSTATE
DROP TRIGGER g_decl_guard ON g_decl;

-- BEFORE triggers fire in the order of their names: one that fires after
-- the guard could change the id it checked, so it is refused, named, even
-- on an INSERT when it fires on UPDATE only
CREATE FUNCTION an_hour_back() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.id := uuidv7(interval '-1 hour');
    RETURN NEW;
END $$;
CREATE TRIGGER g_decl_guard BEFORE INSERT OR UPDATE ON g_decl
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
CREATE TRIGGER h_back BEFORE UPDATE ON g_decl
    FOR EACH ROW WHEN (NEW.note = 'back') EXECUTE FUNCTION an_hour_back();
INSERT INTO g_decl VALUES (uuidv7(), 'first');
\echo :SQLSTATE
-- disabled, it does not fire
ALTER TABLE g_decl DISABLE TRIGGER h_back;
INSERT INTO g_decl VALUES (uuidv7(), 'first');
ALTER TABLE g_decl ENABLE TRIGGER h_back;
-- renamed to sort last, the guard sees the id the other trigger set
ALTER TRIGGER g_decl_guard ON g_decl RENAME TO zz_g_decl_guard;
SELECT hand_out(7) AS handed_out;
SELECT NOT :'horizon'::boolean OR state($$UPDATE g_decl SET note = 'back'$$) = '40001' AS moved_back_refused;
-- a second guard after it changes no id
CREATE TRIGGER zzz_second_guard BEFORE INSERT OR UPDATE ON g_decl
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
INSERT INTO g_decl VALUES (uuidv7(), 'two guards');
SELECT count(*) FROM g_decl;

-- A re-send of a stored row (an idempotent INSERT ... ON CONFLICT) adds no
-- id below the horizon when a unique index holds its id in a committed
-- row: the guard locks that row (FOR KEY SHARE) and lets the insert meet
-- it.  An id that no row holds, or a table without such an index, is
-- refused as before, with a hint that fits.
CREATE TABLE g_resend (id uuid PRIMARY KEY, note text);
CREATE TRIGGER g_resend_guard BEFORE INSERT OR UPDATE ON g_resend
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
CREATE TABLE g_nokey (id uuid, note text);
CREATE TRIGGER g_nokey_guard BEFORE INSERT OR UPDATE ON g_nokey
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
ALTER TABLE g_resend DISABLE TRIGGER g_resend_guard;
ALTER TABLE g_nokey DISABLE TRIGGER g_nokey_guard;
INSERT INTO g_resend VALUES (uuidv7(interval '-1 hour'), 'stored an hour ago') RETURNING id AS stored \gset
INSERT INTO g_nokey VALUES (:'stored', 'stored an hour ago');
ALTER TABLE g_resend ENABLE TRIGGER g_resend_guard;
ALTER TABLE g_nokey ENABLE TRIGGER g_nokey_guard;
SELECT hand_out(7) AS handed_out;
INSERT INTO g_resend VALUES (:'stored', 're-sent') ON CONFLICT (id) DO NOTHING;
INSERT INTO g_resend VALUES (:'stored', 're-sent') ON CONFLICT (id) DO UPDATE SET note = 'updated by a re-send';
SELECT note FROM g_resend;
SELECT state(format('INSERT INTO g_resend VALUES (%L)', :'stored')) AS plain_insert;
SELECT NOT :'horizon'::boolean
       OR state(format($$INSERT INTO g_resend VALUES (%L) ON CONFLICT (id) DO NOTHING$$, uuidv7(interval '-1 hour')))
          = '40001' AS no_row_refused;
SELECT NOT :'horizon'::boolean
       OR state(format($$INSERT INTO g_nokey VALUES (%L)$$, :'stored')) = '40001' AS no_unique_index_refused;
SELECT NOT :'horizon'::boolean
       OR refusal_hint(format('INSERT INTO g_resend VALUES (%L)', uuidv7(interval '-1 hour')))
          LIKE 'No committed row holds this id%: retry the transaction with a new id%' AS hint_new_id;
SELECT NOT :'horizon'::boolean
       OR refusal_hint(format('INSERT INTO g_nokey VALUES (%L)', :'stored'))
          LIKE '%if the row may be stored already (a re-send), look for it first%' AS hint_look_first;
SELECT count(*) FROM g_resend;

-- Rows that join a guarded table by DDL: pg_uuidx_guard_ddl(), an event
-- trigger of the extension.
SELECT evtname, evtevent, evttags FROM pg_event_trigger WHERE evtfoid = 'pg_uuidx_guard_ddl()'::regprocedure;
CREATE TABLE g_parts (id uuid NOT NULL, region text NOT NULL) PARTITION BY LIST (region);
CREATE TRIGGER zz_guard BEFORE INSERT OR UPDATE ON g_parts
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
-- a new partition is empty, and gets the guard
CREATE TABLE g_parts_a PARTITION OF g_parts FOR VALUES IN ('a');
-- a filled table attached: its rows are covered as if inserted now; one
-- below the floor refuses the ATTACH
CREATE TABLE g_filled (id uuid NOT NULL, region text NOT NULL);
INSERT INTO g_filled VALUES (uuidv7(interval '-1 hour'), 'b'), (uuidv7(), 'b');
SELECT hand_out(7) AS handed_out;
SELECT NOT :'horizon'::boolean
       OR state($$ALTER TABLE g_parts ATTACH PARTITION g_filled FOR VALUES IN ('b')$$) = '40001' AS old_rows_refused;
DELETE FROM g_filled WHERE id < uuidv7(interval '-1 minute');
ALTER TABLE g_parts ATTACH PARTITION g_filled FOR VALUES IN ('b');
SELECT tgrelid::regclass AS relation, tgname, tgenabled FROM pg_trigger
WHERE tgname = 'zz_guard' AND tgrelid::regclass::text LIKE 'g_parts%' OR tgrelid = 'g_filled'::regclass ORDER BY 1;
-- detached, then attached again once a horizon passed its rows: refused;
-- with the guard disabled in the transaction, the rows join uncovered
ALTER TABLE g_parts DETACH PARTITION g_filled;
DROP TRIGGER zz_guard ON g_parts;
CREATE TRIGGER zz_guard BEFORE INSERT OR UPDATE ON g_parts
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard('id', '7', '0');
SELECT pg_sleep(0.01);
SELECT hand_out(7) AS handed_out;
SELECT NOT :'horizon'::boolean
       OR state($$ALTER TABLE g_parts ATTACH PARTITION g_filled FOR VALUES IN ('b')$$) = '40001' AS reattach_refused;
BEGIN;
ALTER TABLE g_parts DISABLE TRIGGER zz_guard;
ALTER TABLE g_parts ATTACH PARTITION g_filled FOR VALUES IN ('b');
ALTER TABLE g_parts ENABLE TRIGGER zz_guard;
COMMIT;
SELECT count(*) FROM g_parts;
-- ids of another version than the guard's
CREATE TABLE g_v4 (id uuid NOT NULL, region text NOT NULL);
INSERT INTO g_v4 VALUES ('3a6291b7-d231-4b8e-ae1b-bfd76233bb86', 'c');
ALTER TABLE g_parts ATTACH PARTITION g_v4 FOR VALUES IN ('c');
-- an unguarded parent covers nothing, and refuses nothing
CREATE TABLE u_parts (id uuid NOT NULL, region text NOT NULL) PARTITION BY LIST (region);
ALTER TABLE u_parts ATTACH PARTITION g_v4 FOR VALUES IN ('c');

-- the table attached is the one the statement found, by its OID: its name
-- looked up again once the statement is done could find another table, here
-- after a partition key that moves search_path while the ATTACH checks the
-- rows (an empty table of the same name comes first then)
CREATE SCHEMA g_decoy;
CREATE TABLE g_decoy.g_moved (id uuid NOT NULL);
CREATE FUNCTION g_moving_key(id uuid) RETURNS uuid LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    PERFORM pg_catalog.set_config('search_path', 'g_decoy, public, pg_catalog', false);
    RETURN id;
END $$;
CREATE TABLE g_keyed (id uuid NOT NULL) PARTITION BY RANGE (g_moving_key(id));
CREATE TRIGGER zz_guard BEFORE INSERT OR UPDATE ON g_keyed
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard('id', '7', '0');
CREATE TABLE g_moved (id uuid NOT NULL);
INSERT INTO g_moved VALUES (uuidv7(interval '-1 hour'));
SELECT hand_out(7) AS handed_out;
SELECT NOT :'horizon'::boolean
       OR state($$ALTER TABLE g_keyed ATTACH PARTITION g_moved FOR VALUES FROM (MINVALUE) TO (MAXVALUE)$$) = '40001'
       AS moved_path_refused;
SET search_path = public, pg_catalog;
SELECT count(*) FROM g_keyed;

-- a table that inherits from a guarded one gets none of its triggers: it
-- must carry the same guard itself, and its rows are covered when it joins
CREATE TABLE g_inh (id uuid, note text);
CREATE TRIGGER zz_guard BEFORE INSERT OR UPDATE ON g_inh
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
CREATE TABLE g_inh_child () INHERITS (g_inh);
\echo :SQLSTATE
CREATE TABLE g_inh_child (id uuid, note text);
ALTER TABLE g_inh_child INHERIT g_inh;
CREATE TRIGGER zz_guard BEFORE INSERT OR UPDATE ON g_inh_child
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
ALTER TABLE g_inh_child INHERIT g_inh;
CREATE TABLE g_inh_grandchild () INHERITS (g_inh_child);
CREATE TABLE g_inh_old (id uuid, note text);
CREATE TRIGGER zz_guard BEFORE INSERT OR UPDATE ON g_inh_old
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
ALTER TABLE g_inh_old DISABLE TRIGGER zz_guard;
INSERT INTO g_inh_old VALUES (uuidv7(interval '-1 hour'), 'an hour old');
ALTER TABLE g_inh_old ENABLE TRIGGER zz_guard;
SELECT hand_out(7) AS handed_out;
SELECT NOT :'horizon'::boolean OR state('ALTER TABLE g_inh_old INHERIT g_inh') = '40001' AS old_rows_refused;
SELECT inhrelid::regclass AS child FROM pg_inherits WHERE inhparent = 'g_inh'::regclass ORDER BY 1;

-- a foreign table holds rows written elsewhere: it joins no guarded table
CREATE FOREIGN DATA WRAPPER g_fdw;
CREATE SERVER g_server FOREIGN DATA WRAPPER g_fdw;
CREATE FOREIGN TABLE g_parts_f PARTITION OF g_parts FOR VALUES IN ('f') SERVER g_server;
CREATE FOREIGN TABLE g_f (id uuid NOT NULL, region text NOT NULL) SERVER g_server;
ALTER TABLE g_parts ATTACH PARTITION g_f FOR VALUES IN ('f');
CREATE FOREIGN TABLE g_inh_f () INHERITS (g_inh) SERVER g_server;
ALTER TABLE u_parts ATTACH PARTITION g_f FOR VALUES IN ('f');

-- a guard made on a parent after its inheritance child: the child has no
-- guard, and the reader refuses the tree (a restore makes triggers last)
CREATE TABLE g_late (id uuid, note text);
CREATE TABLE g_late_child () INHERITS (g_late);
CREATE TRIGGER zz_guard BEFORE INSERT OR UPDATE ON g_late
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
SELECT state('SELECT pg_uuidx_read_after(NULL::g_late, NULL, 10)') = '42P17' AS unguarded_child_refused;
CREATE TRIGGER zz_guard BEFORE INSERT OR UPDATE ON g_late_child
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
SELECT NOT :'horizon'::boolean OR state('SELECT pg_uuidx_read_after(NULL::g_late, NULL, 10)') = 'ok' AS guarded_child_read;

DROP TABLE g_gen, g_decl, g_resend, g_nokey, g_parts, u_parts, g_inh, g_inh_child, g_inh_old, g_late CASCADE;
DROP TABLE g_keyed, g_moved;
DROP FUNCTION g_moving_key(uuid);
DROP SCHEMA g_decoy CASCADE;
DROP SERVER g_server CASCADE;
DROP FOREIGN DATA WRAPPER g_fdw;
-- The guard after the row: AFTER INSERT OR UPDATE FOR EACH ROW, which
-- leaves COPY its batches, with WHEN (NOT pg_uuidx_horizon_cover(...)),
-- which covers each row's id just after it is stored, and the statement
-- trigger that publishes the clock less the allowance before each
-- statement.  The same promise as before the row.
CREATE TABLE s7 (id uuid PRIMARY KEY, note text);
CREATE TRIGGER s7_guard AFTER INSERT OR UPDATE ON s7 FOR EACH ROW
    WHEN (NOT pg_uuidx_horizon_cover(NEW.id, 7)) EXECUTE FUNCTION pg_uuidx_horizon_guard('id', '7');
CREATE TRIGGER s7_start BEFORE INSERT OR UPDATE ON s7
    FOR EACH STATEMENT EXECUTE FUNCTION pg_uuidx_horizon_guard('id', '7');
-- the same two on t, named t_guard and t_start, for column col, version v
-- and allowance a (NULL: none given)
CREATE FUNCTION guard_after(t regclass, col name DEFAULT 'id', v int DEFAULT 7, a text DEFAULT NULL)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    args text := format('%L, %L', col, v) || CASE WHEN a IS NOT NULL THEN format(', %L', a) ELSE '' END;
BEGIN
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE ON %s FOR EACH ROW '
                   'WHEN (NOT pg_uuidx_horizon_cover(NEW.%I, %s%s)) EXECUTE FUNCTION pg_uuidx_horizon_guard(%s)',
                   t || '_guard', t, col, v, CASE WHEN a IS NOT NULL THEN format(', %L', a) ELSE '' END, args);
    EXECUTE format('CREATE TRIGGER %I BEFORE INSERT OR UPDATE ON %s FOR EACH STATEMENT '
                   'EXECUTE FUNCTION pg_uuidx_horizon_guard(%s)', t || '_start', t, args);
END $$;
CREATE TABLE s6 (event_id uuid, note text);
SELECT guard_after('s6', 'event_id', 6);

-- COPY of ids into the first column of t (a program on the server prints
-- them): its SQLSTATE or 'ok'
CREATE FUNCTION copy_in(t regclass, ids uuid[]) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('COPY %s (%I) FROM PROGRAM %L', t,
                   (SELECT attname FROM pg_attribute WHERE attrelid = t AND attnum = 1),
                   format('printf ''%s\n''', array_to_string(ids, '\n')));
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE;
END $$;

-- a horizon handed out: an id made an hour before is refused, by INSERT,
-- multi-row INSERT and COPY, and none of the statement's rows is stored;
-- ids made within the allowance, now or later are taken (once the floor
-- that the allowance of 0 above raised to its clock is 300 ms behind)
SELECT pg_sleep(0.4);
SELECT hand_out(7) AS handed_out \gset
SELECT NOT :'horizon'::boolean OR refused('s7', uuidv7(interval '-1 hour')) AS hour_old_refused;
SELECT NOT :'horizon'::boolean
       OR state(format('INSERT INTO s7 VALUES (%L), (%L)', uuidv7(), uuidv7(interval '-1 hour'))) = '40001'
       AS multirow_refused;
SELECT NOT :'horizon'::boolean
       OR copy_in('s7', ARRAY[uuidv7(), uuidv7(interval '-1 hour'), uuidv7()]) = '40001' AS copy_refused;
SELECT count(*) AS stored FROM s7;
SELECT refused('s7', uuidv7()) AS now_refused;
SELECT refused('s7', uuidv7(interval '-300 ms')) AS within_allowance_refused;
SELECT refused('s7', uuidv7(interval '1 hour')) AS future_refused;
SELECT state(format('INSERT INTO s7 VALUES (%L), (%L)', uuidv7(interval '-300 ms'), uuidv7())) AS multirow;
SELECT copy_in('s7', ARRAY(SELECT uuidv7() FROM generate_series(1, 1000))) AS copy;
SELECT hand_out(6) AS handed_out \gset
SELECT NOT :'horizon'::boolean OR refused('s6', uuidv6_boundary(now() - interval '1 hour')) AS v6_hour_old_refused;
SELECT refused('s6', uuidv6()) AS v6_now_refused;
INSERT INTO s6 VALUES (NULL, 'no id');
SELECT count(*) AS stored FROM s7;

-- pg_uuidx_horizon_cover() itself: true for an id it covers and for NULL,
-- false for one below the floor less the allowance or of another version
SELECT hand_out(7) AS handed_out;
BEGIN;
SELECT pg_uuidx_horizon_cover(uuidv7()) AS now_covered,
       pg_uuidx_horizon_cover(NULL) AS null_covered,
       pg_uuidx_horizon_cover(uuidv7(), 6) AS v7_as_v6,
       pg_uuidx_horizon_cover('3a6291b7-d231-4b8e-ae1b-bfd76233bb86') AS v4,
       NOT :'horizon'::boolean OR NOT pg_uuidx_horizon_cover(uuidv7(interval '-1 hour'), 7, '1h') AS hour_old_not;
ROLLBACK;
SELECT pg_uuidx_horizon_cover(uuidv7(), 5);
SELECT pg_uuidx_horizon_cover(uuidv7(), NULL);
SELECT pg_uuidx_horizon_cover(uuidv7(), 7, 'soon');
SELECT pg_uuidx_horizon_cover(uuidv7(), 7, '2h');

-- The start: ids made just before a statement are taken however long it
-- runs, even when a horizon is handed out while it runs; an id older than
-- the allowance at its start is refused when it is stored after a horizon
-- passed it (an allowance of 500 ms, the statement 1 s long; its first
-- row's id, made at its start, covers the ids after it, not the older one)
CREATE TABLE s7l (id uuid PRIMARY KEY, note text);
SELECT guard_after('s7l', 'id', 7, '500ms');
SELECT uuidv7() AS a, uuidv7() AS b \gset
SELECT state(format($$INSERT INTO s7l SELECT id, 'long' FROM (VALUES (1, %L::uuid), (2, %L::uuid)) v(n, id)
                      WHERE n = 1 OR (pg_sleep(1) IS NOT NULL AND hand_out(7))$$, :'a', :'b')) AS long_statement;
SELECT count(*) AS long_rows FROM s7l WHERE note = 'long';
SELECT uuidv7() AS b \gset
SELECT pg_sleep(0.7);
SELECT uuidv7() AS a \gset
SELECT NOT :'horizon'::boolean
       OR state(format($$INSERT INTO s7l SELECT id, 'old' FROM (VALUES (1, %L::uuid), (2, %L::uuid)) v(n, id)
                         WHERE n = 1 OR (pg_sleep(1) IS NOT NULL AND hand_out(7))$$, :'a', :'b')) = '40001'
       AS passed_during_it_refused;
-- (its rows, the later cases' too, put into s7 past the guard)
ALTER TABLE s7 DISABLE TRIGGER USER;
INSERT INTO s7 SELECT * FROM s7l WHERE note = 'long';
ALTER TABLE s7 ENABLE TRIGGER USER;
DROP TABLE s7l;

-- An UPDATE that keeps the id passes, an hour old as it is; one that moves
-- an id back is refused; one that moves it to now is taken
ALTER TABLE s7 DISABLE TRIGGER USER;
INSERT INTO s7 VALUES (uuidv7(interval '-1 hour'), 'an hour old');
ALTER TABLE s7 ENABLE TRIGGER USER;
SELECT hand_out(7) AS handed_out;
SELECT state($$UPDATE s7 SET note = 'kept' WHERE note = 'an hour old'$$) AS kept;
SELECT state($$UPDATE s7 SET id = id, note = 'kept' WHERE note = 'kept'$$) AS kept_set;
SELECT NOT :'horizon'::boolean
       OR state($$UPDATE s7 SET id = uuidv7(interval '-1 hour') WHERE note = 'long'$$) = '40001' AS moved_back_refused;
SELECT state($$UPDATE s7 SET id = uuidv7() WHERE note = 'kept'$$) AS moved_to_now;

-- A re-send never reaches the check: a row that meets a committed row of
-- its id is not stored (ON CONFLICT skips or updates it, a plain INSERT
-- gets 23505); a refusal's hint says whether a unique index could tell
SELECT id AS stored FROM s7 WHERE note = 'long' LIMIT 1 \gset
SELECT state(format('INSERT INTO s7 VALUES (%L) ON CONFLICT (id) DO NOTHING', :'stored')) AS resent;
SELECT state(format($$INSERT INTO s7 VALUES (%L) ON CONFLICT (id) DO UPDATE SET note = 're-sent'$$, :'stored'))
       AS resent_update;
SELECT state(format('INSERT INTO s7 VALUES (%L)', :'stored')) AS plain_insert;
-- the UPDATE of ON CONFLICT and MERGE's actions fire it too
SELECT NOT :'horizon'::boolean
       OR state(format('INSERT INTO s7 VALUES (%L) ON CONFLICT (id) DO UPDATE SET id = uuidv7(interval ''-1 hour'')',
                       :'stored')) = '40001' AS conflict_moved_back_refused;
SELECT NOT :'horizon'::boolean
       OR state(format('MERGE INTO s7 USING (VALUES (%L::uuid)) v(id) ON s7.id = v.id WHEN NOT MATCHED THEN INSERT VALUES (v.id)',
                       uuidv7(interval '-1 hour'))) = '40001' AS merge_insert_refused;
SELECT NOT :'horizon'::boolean
       OR state(format('MERGE INTO s7 USING (VALUES (%L::uuid)) v(id) ON s7.id = v.id WHEN MATCHED THEN UPDATE SET id = %L',
                       :'stored', uuidv7(interval '-1 hour'))) = '40001' AS merge_update_refused;
SELECT NOT :'horizon'::boolean
       OR refusal_hint(format('INSERT INTO s7 VALUES (%L)', uuidv7(interval '-1 hour')))
          LIKE 'No committed row holds this id%' AS hint_new_id;
SELECT NOT :'horizon'::boolean
       OR refusal_hint(format('INSERT INTO s6 VALUES (%L)', uuidv6_boundary(now() - interval '1 hour')))
          LIKE '%look for it first%' AS hint_look_first;

-- without the WHEN condition and the start, the trigger covers each row
-- itself at the statement's end: the same refusals
CREATE TABLE s_plain (id uuid PRIMARY KEY);
CREATE TRIGGER s_plain_guard AFTER INSERT OR UPDATE ON s_plain
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
SELECT hand_out(7) AS handed_out;
SELECT NOT :'horizon'::boolean OR refused('s_plain', uuidv7(interval '-1 hour')) AS no_when_hour_old_refused;
SELECT copy_in('s_plain', ARRAY(SELECT uuidv7() FROM generate_series(1, 100))) AS no_when_copy;

-- a stored generated id is the stored row's: it can be guarded after the
-- row (before it, the generated column is not computed yet)
CREATE TABLE s_gen (ulid text, id uuid GENERATED ALWAYS AS (ulid_to_uuid(ulid)) STORED);
SELECT guard_after('s_gen');
SELECT hand_out(7) AS handed_out;
SELECT NOT :'horizon'::boolean
       OR state(format('INSERT INTO s_gen VALUES (%L)', uuid_to_ulid(uuidv7(interval '-1 hour')))) = '40001'
       AS generated_hour_old_refused;
SELECT state(format('INSERT INTO s_gen VALUES (%L)', uuid_to_ulid(uuidv7()))) AS generated_now;

-- a domain over uuid: NEW.id is relabeled to uuid in the WHEN condition
CREATE DOMAIN s_uuid AS uuid;
CREATE TABLE s_dom (id s_uuid PRIMARY KEY);
SELECT guard_after('s_dom');
SELECT hand_out(7) AS handed_out;
SELECT NOT :'horizon'::boolean OR refused('s_dom', uuidv7(interval '-1 hour')) AS domain_hour_old_refused;
SELECT refused('s_dom', uuidv7()) AS domain_now_refused;

-- errors
INSERT INTO s7 VALUES ('3a6291b7-d231-4b8e-ae1b-bfd76233bb86'::uuid);  -- version 4
-- the declarations and WHEN conditions that would let rows skip the guard,
-- or cover them with another allowance, refused by CREATE TRIGGER
CREATE TABLE s_bad (id uuid, other uuid, x int);
CREATE TRIGGER s_bad_g AFTER INSERT ON s_bad
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
CREATE TRIGGER s_bad_g AFTER INSERT OR UPDATE OF id ON s_bad
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
CREATE TRIGGER s_bad_g BEFORE INSERT ON s_bad
    FOR EACH STATEMENT EXECUTE FUNCTION pg_uuidx_horizon_guard();
CREATE TRIGGER s_bad_g BEFORE INSERT OR UPDATE ON s_bad
    FOR EACH STATEMENT WHEN (current_user IS NOT NULL) EXECUTE FUNCTION pg_uuidx_horizon_guard();
CREATE TRIGGER s_bad_g AFTER INSERT OR UPDATE ON s_bad
    FOR EACH ROW WHEN (false) EXECUTE FUNCTION pg_uuidx_horizon_guard();
CREATE TRIGGER s_bad_g AFTER INSERT OR UPDATE ON s_bad
    FOR EACH ROW WHEN (pg_uuidx_horizon_cover(NEW.id)) EXECUTE FUNCTION pg_uuidx_horizon_guard();
CREATE TRIGGER s_bad_g AFTER INSERT OR UPDATE ON s_bad
    FOR EACH ROW WHEN (NOT pg_uuidx_horizon_cover(NEW.other)) EXECUTE FUNCTION pg_uuidx_horizon_guard();
CREATE TRIGGER s_bad_g AFTER INSERT OR UPDATE ON s_bad
    FOR EACH ROW WHEN (NOT pg_uuidx_horizon_cover(NEW.id, 6)) EXECUTE FUNCTION pg_uuidx_horizon_guard();
CREATE TRIGGER s_bad_g AFTER INSERT OR UPDATE ON s_bad
    FOR EACH ROW WHEN (NOT pg_uuidx_horizon_cover(NEW.id, 7, '1s'))
    EXECUTE FUNCTION pg_uuidx_horizon_guard('id', '7', '200ms');
CREATE TRIGGER s_bad_g AFTER INSERT OR UPDATE ON s_bad
    FOR EACH ROW WHEN (NOT pg_uuidx_horizon_cover(NEW.id, 7, '200ms')) EXECUTE FUNCTION pg_uuidx_horizon_guard();
CREATE TRIGGER s_bad_g AFTER INSERT OR UPDATE ON s_bad
    FOR EACH ROW WHEN (NOT pg_uuidx_horizon_cover(NEW.id) AND NEW.x > 0) EXECUTE FUNCTION pg_uuidx_horizon_guard();
SELECT count(*) AS guards FROM pg_trigger WHERE tgrelid = 's_bad'::regclass;
-- the same cover, written otherwise, is taken: the allowance in other
-- units, by name
CREATE TRIGGER s_bad_g1 AFTER INSERT OR UPDATE ON s_bad
    FOR EACH ROW WHEN (NOT pg_uuidx_horizon_cover(NEW.id, 7, '0.2s'))
    EXECUTE FUNCTION pg_uuidx_horizon_guard('id', '7', '200ms');
CREATE TRIGGER s_bad_g2 AFTER INSERT OR UPDATE ON s_bad
    FOR EACH ROW WHEN (NOT pg_uuidx_horizon_cover(allowance => '200', id => NEW.other))
    EXECUTE FUNCTION pg_uuidx_horizon_guard('other', '7', '200ms');
SELECT count(*) AS guards FROM pg_trigger WHERE tgrelid = 's_bad'::regclass;

-- Tables that join: both row declarations are cloned to partitions, as
-- the statement trigger is not; an inheritance child carries a guard of
-- its own
CREATE TABLE s_parts (id uuid NOT NULL, region text NOT NULL) PARTITION BY LIST (region);
SELECT guard_after('s_parts');
CREATE TABLE s_parts_a PARTITION OF s_parts FOR VALUES IN ('a');
CREATE TABLE s_parts_b (id uuid NOT NULL, region text NOT NULL);
ALTER TABLE s_parts ATTACH PARTITION s_parts_b FOR VALUES IN ('b');
SELECT tgrelid::regclass AS rel, tgname FROM pg_trigger
WHERE tgrelid IN ('s_parts_a'::regclass, 's_parts_b'::regclass) ORDER BY 1, 2;
SELECT hand_out(7) AS handed_out;
SELECT NOT :'horizon'::boolean
       OR state(format($$INSERT INTO s_parts VALUES (%L, 'a')$$, uuidv7(interval '-1 hour'))) = '40001'
       AS routed_refused;
SELECT NOT :'horizon'::boolean
       OR state(format($$INSERT INTO s_parts_a VALUES (%L, 'a')$$, uuidv7(interval '-1 hour'))) = '40001'
       AS partition_refused;
SELECT state(format($$INSERT INTO s_parts VALUES (%L, 'a'), (%L, 'b')$$, uuidv7(), uuidv7())) AS routed_now;
SELECT NOT :'horizon'::boolean
       OR state(format($$UPDATE s_parts_b SET id = %L$$, uuidv7(interval '-1 hour'))) = '40001'
       AS partition_update_refused;
-- the reader reads the tree; without a horizon it passes the guards' check
-- and stops only for want of the preloaded library
SELECT outcome('SELECT pg_uuidx_read_after(NULL::s_parts, NULL, 10)')
       = CASE WHEN :'horizon'::boolean THEN 'ok'
              ELSE '55000: pg_uuidx_read_after() needs pg_uuidx in shared_preload_libraries on this server' END
       AS tree_read;
CREATE TABLE s_parent (id uuid, note text);
SELECT guard_after('s_parent');
CREATE TABLE s_child () INHERITS (s_parent);
CREATE TABLE s_child (id uuid, note text);
ALTER TABLE s_child INHERIT s_parent;
SELECT guard_after('s_child');
ALTER TABLE s_child INHERIT s_parent;
SELECT inhrelid::regclass AS child FROM pg_inherits WHERE inhparent = 's_parent'::regclass;
-- both forms on one table: each does its part
CREATE TRIGGER zz_guard BEFORE INSERT OR UPDATE ON s6
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard('event_id', '6');
SELECT refused('s6', uuidv6()) AS both_forms_now_refused;
SELECT NOT :'horizon'::boolean OR refused('s6', uuidv6_boundary(now() - interval '1 hour')) AS both_forms_hour_old_refused;

-- An UPDATE that moves a row to another partition deletes it from one and
-- inserts it into the other, with its id: that INSERT replaces a committed
-- row of its id that the same transaction removed from the same
-- partitioned table, and passes the guard of either form whatever the
-- id's age; an INSERT that adds a row of an old id is refused as before.
-- m_before and m_after hold rows made an hour before, stored before their
-- guards; a table whose partitions have no index that finds a row by its
-- id cannot be told: refused, the hint says which index.
CREATE TABLE m_before (id uuid NOT NULL, region text NOT NULL, PRIMARY KEY (id, region)) PARTITION BY LIST (region);
CREATE TABLE m_before_a PARTITION OF m_before FOR VALUES IN ('a');
CREATE TABLE m_before_b PARTITION OF m_before FOR VALUES IN ('b');
CREATE TABLE m_before_c PARTITION OF m_before FOR VALUES IN ('c');
CREATE TABLE m_after (id uuid NOT NULL, region text NOT NULL, PRIMARY KEY (id, region)) PARTITION BY LIST (region);
CREATE TABLE m_after_a PARTITION OF m_after FOR VALUES IN ('a');
CREATE TABLE m_after_b PARTITION OF m_after FOR VALUES IN ('b');
CREATE TABLE m_after_c PARTITION OF m_after FOR VALUES IN ('c');
CREATE TABLE m_noindex (id uuid NOT NULL, region text NOT NULL, PRIMARY KEY (region, id)) PARTITION BY LIST (region);
CREATE TABLE m_noindex_a PARTITION OF m_noindex FOR VALUES IN ('a');
CREATE TABLE m_noindex_b PARTITION OF m_noindex FOR VALUES IN ('b');
CREATE TEMP TABLE m_ids AS SELECT n, uuidv7(interval '-1 hour') AS id FROM generate_series(1, 5) n;
INSERT INTO m_before SELECT id, 'a' FROM m_ids;
INSERT INTO m_after SELECT id, 'a' FROM m_ids;
INSERT INTO m_noindex SELECT id, 'a' FROM m_ids;
CREATE TRIGGER zz_guard BEFORE INSERT OR UPDATE ON m_before
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
SELECT guard_after('m_after');
CREATE TRIGGER zz_guard BEFORE INSERT OR UPDATE ON m_noindex
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
SELECT hand_out(7) AS handed_out;

-- each step on table t, in a transaction of its own: its expected outcome
-- ('ok' or a SQLSTATE), and whether it had it; without a horizon, where
-- nothing is refused, a step to be refused must be taken, and is undone
-- as its refusal would leave it; then where the rows of each id are, the
-- same either way
CREATE FUNCTION moves(t regclass, horizon boolean)
RETURNS TABLE (step text, expected text, as_expected boolean) LANGUAGE plpgsql AS $$
DECLARE
    i uuid[] := ARRAY(SELECT id FROM m_ids ORDER BY n);
    steps text[] := ARRAY[
        -- the row of id 1 moves to b
        'move', 'ok', format($q$UPDATE %s SET region = 'b' WHERE id = %L$q$, t, i[1]),
        -- id 2 moves to c and back to a in one transaction
        'move twice', 'ok',
        format($q$UPDATE %1$s SET region = 'c' WHERE id = %2$L; UPDATE %1$s SET region = 'a' WHERE id = %2$L$q$, t, i[2]),
        -- id 3 is updated in its partition, then moved, in one transaction
        'update, then move', 'ok',
        format($q$UPDATE %1$s SET region = region WHERE id = %2$L; UPDATE %1$s SET region = 'b' WHERE id = %2$L$q$, t, i[3]),
        -- id 4 moves to b and a second row of it goes to c: refused, nothing moves
        'move and add a row', '40001',
        format($q$UPDATE %1$s SET region = 'b' WHERE id = %2$L; INSERT INTO %1$s VALUES (%2$L, 'c')$q$, t, i[4]),
        -- the same move alone, after that rollback
        'move after a rollback', 'ok', format($q$UPDATE %s SET region = 'b' WHERE id = %L$q$, t, i[4]),
        -- id 5 deleted and inserted again elsewhere, a move in two
        -- statements; with a second row: refused
        'delete, insert two', '40001',
        format($q$DELETE FROM %1$s WHERE id = %2$L; INSERT INTO %1$s VALUES (%2$L, 'b'), (%2$L, 'c')$q$, t, i[5]),
        'delete, insert one', 'ok',
        format($q$DELETE FROM %1$s WHERE id = %2$L; INSERT INTO %1$s VALUES (%2$L, 'c')$q$, t, i[5]),
        -- an old id that no row had: refused
        'new row, old id', '40001', format($q$INSERT INTO %s VALUES (%L, 'b')$q$, t, uuidv7(interval '-1 hour'))];
    outcome text;
BEGIN
    FOR k IN 0 .. array_length(steps, 1) / 3 - 1 LOOP
        step := steps[3 * k + 1];
        expected := steps[3 * k + 2];
        IF horizon OR expected <> '40001' THEN
            outcome := state(steps[3 * k + 3]);
        ELSE
            BEGIN
                outcome := state(steps[3 * k + 3]);
                RAISE SQLSTATE 'UX001';
            EXCEPTION WHEN SQLSTATE 'UX001' THEN
                NULL;
            END;
        END IF;
        as_expected := outcome = expected OR (NOT horizon AND expected = '40001' AND outcome = 'ok');
        RETURN NEXT;
    END LOOP;
    step := 'rows of ids 1 to 5';
    expected := '1:b 2:a 3:b 4:b 5:c';
    EXECUTE format($q$SELECT string_agg(format('%%s:%%s', m.n, r.region), ' ' ORDER BY m.n, r.region)
                      FROM m_ids m JOIN %s r USING (id)$q$, t) INTO outcome;
    as_expected := outcome = expected;
    RETURN NEXT;
END $$;
SELECT * FROM moves('m_before', :'horizon');
SELECT * FROM moves('m_after', :'horizon');
SELECT NOT :'horizon'::boolean
       OR refusal_hint(format($$UPDATE m_noindex SET region = 'b' WHERE id = %L$$, (SELECT id FROM m_ids WHERE n = 1)))
          LIKE '%give the partitioned table m_noindex an index whose first column is "id"%' AS no_index_hint;

-- a guard declared before the row names its column by name: retyped since,
-- the rows a partition brings are not read as uuids (42804, not a crash)
CREATE TABLE g_retyped (id uuid, x uuid) PARTITION BY RANGE (id);
CREATE TRIGGER zz_guard BEFORE INSERT OR UPDATE ON g_retyped
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard('x');
ALTER TABLE g_retyped ALTER COLUMN x TYPE int USING 1;
CREATE TABLE g_retyped_q (id uuid, x int);
INSERT INTO g_retyped_q VALUES (uuidv7(), 12345);
SELECT state('ALTER TABLE g_retyped ATTACH PARTITION g_retyped_q FOR VALUES FROM (MINVALUE) TO (MAXVALUE)') AS attach_retyped;
DROP TABLE g_retyped, g_retyped_q;

-- The guard pg_uuidx_add_guard() declares covers each row at its
-- statement's end, where the ids made as the statement ran by a source that
-- publishes nothing (core's uuidv7() on 18; uuidv7_at() here) are covered
-- from the statement's start: a reader that passes them meanwhile (a
-- horizon handed out as each row is stored) gets none refused.  A statement
-- that names a partition starts with the partition's statement trigger,
-- which pg_uuidx_add_guard() declares on each partition there is; a
-- statement that a trigger runs in between, into another guarded table,
-- leaves the cover of the rows stored before it where it was.
CREATE TABLE a_parts (id uuid DEFAULT uuidv7_at(clock_timestamp()), k int) PARTITION BY LIST (k);
CREATE TABLE a_parts_1 PARTITION OF a_parts FOR VALUES IN (1);
SELECT pg_uuidx_add_guard('a_parts');
SELECT tgrelid::regclass AS tbl, tgname FROM pg_trigger
WHERE tgname LIKE 'pg_uuidx_guard%' AND tgrelid IN ('a_parts'::regclass, 'a_parts_1'::regclass) ORDER BY 1, 2;
SELECT state('INSERT INTO a_parts_1 (k) SELECT 1 FROM generate_series(1, 3) RETURNING hand_out(7)') AS into_a_partition,
       state('INSERT INTO a_parts (k) SELECT 1 FROM generate_series(1, 3) RETURNING hand_out(7)') AS into_the_parent;
CREATE TABLE a_outer (id uuid DEFAULT uuidv7_at(clock_timestamp()), n int);
CREATE TABLE a_inner (id uuid DEFAULT uuidv7_at(clock_timestamp()), n int);
SELECT pg_uuidx_add_guard('a_outer'), pg_uuidx_add_guard('a_inner');
CREATE FUNCTION a_nested() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO a_inner (n) VALUES (NEW.n);
    PERFORM hand_out(7);
    RETURN NULL;
END $$;
-- it fires before the guard of each row: triggers fire in the order of their names
CREATE TRIGGER a_nested AFTER INSERT ON a_outer FOR EACH ROW EXECUTE FUNCTION a_nested();
SELECT state('INSERT INTO a_outer (n) SELECT g FROM generate_series(1, 3) AS g') AS nested_statement;
SELECT (SELECT count(*) FROM a_outer) AS outer_rows, (SELECT count(*) FROM a_inner) AS inner_rows;
-- the same after statements into tables of three other allowances in the
-- transaction, the trigger's statement into a table of a fourth: each
-- allowance keeps its own cover
CREATE TABLE a_200 (id uuid DEFAULT uuidv7_at(clock_timestamp()));
CREATE TABLE a_300 (LIKE a_200 INCLUDING DEFAULTS);
CREATE TABLE a_400 (LIKE a_200 INCLUDING DEFAULTS);
CREATE TABLE a_100 (LIKE a_200 INCLUDING DEFAULTS);
CREATE TABLE a_outer2 (LIKE a_200 INCLUDING DEFAULTS);
SELECT pg_uuidx_add_guard('a_200', allowance => '200ms'), pg_uuidx_add_guard('a_300', allowance => '300ms'),
       pg_uuidx_add_guard('a_400', allowance => '400ms'), pg_uuidx_add_guard('a_100', allowance => '100ms'),
       pg_uuidx_add_guard('a_outer2');
CREATE FUNCTION a_nested2() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO a_100 DEFAULT VALUES;
    PERFORM hand_out(7);
    RETURN NULL;
END $$;
CREATE TRIGGER a_nested AFTER INSERT ON a_outer2 FOR EACH ROW EXECUTE FUNCTION a_nested2();
CREATE FUNCTION a_many() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO a_200 DEFAULT VALUES;
    INSERT INTO a_300 DEFAULT VALUES;
    INSERT INTO a_400 DEFAULT VALUES;
    INSERT INTO a_outer2 SELECT FROM generate_series(1, 3);
END $$;
SELECT state('SELECT a_many()') AS five_allowances;
SELECT (SELECT count(*) FROM a_outer2) AS outer_rows, (SELECT count(*) FROM a_100) AS inner_rows;
DROP TABLE a_parts, a_outer, a_inner, a_200, a_300, a_400, a_100, a_outer2;
DROP FUNCTION a_nested(), a_nested2(), a_many();

DROP TABLE s7, s6, s_plain, s_gen, s_dom, s_bad, s_parts, s_parent, s_child, m_before, m_after, m_noindex CASCADE;
DROP DOMAIN s_uuid;
DROP FUNCTION copy_in(regclass, uuid[]), guard_after(regclass, name, int, text), moves(regclass, boolean);
DROP FUNCTION refused(regclass, uuid), hand_out(int), state(text), outcome(text), refusal_hint(text), an_hour_back();

DROP EXTENSION pg_uuidx;

