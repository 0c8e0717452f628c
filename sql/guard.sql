-- pg_uuidx_horizon_guard(): the trigger that holds the commit horizon at or
-- below ids made elsewhere.  Its arguments, what it accepts and refuses,
-- and its errors.  Concurrency (late commits, client-made ids, COPY, 2PC,
-- retries) is test/t/110_horizon_guard.pl's.
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
CREATE TRIGGER g7_guard BEFORE INSERT OR UPDATE OF id ON g7
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
CREATE TABLE g6 (event_id uuid, note text);
CREATE TRIGGER g6_guard BEFORE INSERT OR UPDATE OF event_id ON g6
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard('event_id', '6');

-- the allowance: a setting of milliseconds, 1 s unless set
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
CREATE TABLE g_bad (x int, label text);
CREATE TRIGGER g_after AFTER INSERT ON g_bad FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard('x');
INSERT INTO g_bad VALUES (1);
DROP TRIGGER g_after ON g_bad;
CREATE TRIGGER g_stmt BEFORE INSERT ON g_bad FOR EACH STATEMENT EXECUTE FUNCTION pg_uuidx_horizon_guard();
INSERT INTO g_bad VALUES (1);
DROP TRIGGER g_stmt ON g_bad;
CREATE TRIGGER g_none BEFORE INSERT ON g_bad FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
INSERT INTO g_bad VALUES (1);
DROP TRIGGER g_none ON g_bad;
CREATE TRIGGER g_type BEFORE INSERT ON g_bad FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard('label');
INSERT INTO g_bad VALUES (1, 'x');
DROP TRIGGER g_type ON g_bad;
CREATE TRIGGER g_ver BEFORE INSERT ON g7 FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard('id', '4');
INSERT INTO g7 VALUES (uuidv7());
DROP TRIGGER g_ver ON g7;
CREATE TRIGGER g_many BEFORE INSERT ON g7 FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard('id', '7', 'x');
INSERT INTO g7 VALUES (uuidv7());
DROP TRIGGER g_many ON g7;
-- only a superuser sets the allowance (a lower one refuses other sessions' ids)
CREATE ROLE guard_user;
SET ROLE guard_user;
SET pg_uuidx.horizon_allowance = 0;
RESET ROLE;
DROP ROLE guard_user;

DROP TABLE g7, g6, g_bad;
DROP FUNCTION refused(regclass, uuid), hand_out(int);
DROP EXTENSION pg_uuidx;
