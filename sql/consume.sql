-- Consumers: pg_uuidx_consume() reads the next rows of a table for the
-- current role's consumer of a name, as pg_uuidx_read_after() after the
-- consumer's position; pg_uuidx_consumer_ack() moves the position, in the
-- same transaction, to the last id handled of the rows delivered;
-- pg_uuidx_consumer_reset() removes or sets a position.  In order, in
-- batches acknowledged in the statement that reads them (the docs' form);
-- the position stays where it was when the transaction rolls back and when
-- nothing is left; ties are never split; consumers of one table, or of one
-- name on two tables, are apart.  Only what is acknowledged moves the
-- position: rows cut off by a LIMIT come again, and an acknowledgement of
-- rows not delivered to the transaction is refused.  Then bad input, the
-- isolation levels it refuses, positions per role (a role cannot take,
-- move or reset another role's position by its name; SET ROLE and SECURITY
-- DEFINER use the current role's), what the view shows (the positions of
-- one's own roles of tables one may read, never an id row-level security
-- hides; pg_read_all_stats all), that a reset takes no lock on a table
-- before its checks, and positions of a dropped table and of a dropped
-- role (left out of a dump, removable).  Concurrent sessions, crashes,
-- standbys and locks held by others: test/t/140_consume.pl.
--
-- Reading needs the commit horizon, which PostgreSQL 15 and 16 have only
-- with pg_uuidx in shared_preload_libraries: test/run.sh preloads it there.
-- On such a server without it each check of what was read is true without
-- reading (pg_temp.reads(), pg_temp.run()), and each acknowledgement after
-- a read is refused because nothing was delivered (pg_temp.after_read());
-- nothing else differs.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
CREATE EXTENSION pg_uuidx;
SET search_path = public, pg_catalog;

-- a fixed id of 2022, far below any horizon: the n-th in id order
CREATE FUNCTION pg_temp.id(n int) RETURNS uuid
LANGUAGE sql IMMUTABLE AS $$ SELECT ('01800000-0000-7000-8000-' || lpad(to_hex(n), 12, '0'))::uuid $$;

-- whether this server has the commit horizon (15 and 16: preloaded)
CREATE FUNCTION pg_temp.has_horizon() RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM uuidv7_horizon();
    RETURN true;
EXCEPTION WHEN object_not_in_prerequisite_state THEN
    IF SQLERRM LIKE '% needs pg_uuidx in shared_preload_libraries %' THEN
        RETURN false;
    END IF;
    RAISE;
END $$;

-- whether q, a query of one column, returns want: its values in order,
-- comma-separated ('' for no row); else a notice of what it returned and
-- false.  True without the horizon, without running q.
CREATE FUNCTION pg_temp.reads(q text, want text) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
    got text := '';
    v text;
BEGIN
    IF NOT pg_temp.has_horizon() THEN
        RETURN true;
    END IF;
    FOR v IN EXECUTE q LOOP
        got := got || CASE WHEN got = '' THEN '' ELSE ',' END || coalesce(v, 'NULL');
    END LOOP;
    IF got IS DISTINCT FROM want THEN
        RAISE NOTICE 'got "%", want "%"', got, want;
        RETURN false;
    END IF;
    RETURN true;
END $$;

-- runs q (a statement that reads with the horizon): true; without the
-- horizon true, without running q
CREATE FUNCTION pg_temp.run(q text) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
    IF pg_temp.has_horizon() THEN
        EXECUTE q;
    END IF;
    RETURN true;
END $$;

-- q's error as SQLSTATE: message, or 'ok'
CREATE FUNCTION pg_temp.err(q text) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE q;
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

-- whether q, run after a read, fails as want says: its error as
-- pg_temp.err() has it, ids replaced by the n they are pg_temp.id() of
-- ('ok' if none); else a notice of what it gave and false.  Without the
-- horizon nothing was read or delivered: then q must give want or be
-- refused for that (55000: no rows delivered, or the library not
-- preloaded), so no acknowledgement of an id is taken.
CREATE FUNCTION pg_temp.after_read(q text, want text) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
    got text := regexp_replace(pg_temp.err(q), '01800000-0000-7000-8000-0*([0-9a-f]+)', 'id(\1)', 'g');
BEGIN
    IF got = want OR NOT pg_temp.has_horizon()
       AND (got LIKE '55000: no rows of % were delivered to consumer % in this transaction'
            OR got LIKE '55000: % needs pg_uuidx in shared_preload_libraries on this server') THEN
        RETURN true;
    END IF;
    RAISE NOTICE 'got "%", want "%"', got, want;
    RETURN false;
END $$;

-- the n that pg_temp.id() made id of
CREATE FUNCTION pg_temp.n_of(id uuid) RETURNS int
LANGUAGE sql IMMUTABLE AS $$ SELECT ('x' || right(id::text, 8))::bit(32)::int $$;

-- the table's guard, as every table read in order has one: created once its
-- fixed ids of 2022 are in
CREATE FUNCTION pg_temp.guard(tbl regclass, id_column text DEFAULT 'id') RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('CREATE TRIGGER zz_guard BEFORE INSERT OR UPDATE ON %s FOR EACH ROW '
                   'EXECUTE FUNCTION pg_uuidx_horizon_guard(%L, ''7'', ''0'')', tbl, id_column);
END $$;

-- the n of each row of tbl that the current role's consumer reads next, at
-- most max_rows and ties, all acknowledged in the same statement, as the
-- docs do it
CREATE FUNCTION pg_temp.take(tbl regclass, name text, max_rows int, id_column name DEFAULT 'id') RETURNS TABLE (n int)
LANGUAGE plpgsql AS $$
BEGIN
    RETURN QUERY EXECUTE format(
        'WITH batch AS (SELECT * FROM pg_uuidx_consume(NULL::%s, $1, $2, $3)),
              ack AS (SELECT pg_uuidx_consumer_ack(%L, $1, max(%I)) FROM batch)
         SELECT n FROM batch, ack ORDER BY %I, n', tbl, tbl, id_column, id_column)
        USING name, max_rows, id_column;
END $$;

CREATE TABLE outbox (id uuid PRIMARY KEY, n int NOT NULL);
INSERT INTO outbox SELECT pg_temp.id(n), n FROM generate_series(1, 10) n;
SELECT pg_temp.guard('outbox');

-- the n of the row of outbox with the id a consumer's position stands at
-- ('none': at no row yet), as the view shows it to the current role: its
-- own role's position, or with role, that role's
CREATE FUNCTION pg_temp.at(tbl regclass, name text, r regrole DEFAULT NULL) RETURNS text
LANGUAGE sql AS $$
    SELECT coalesce((SELECT o.n::text FROM outbox o WHERE o.id = c.last_id), c.last_id::text, 'none')
    FROM pg_uuidx_consumers c WHERE c.relid = tbl AND c.consumer = name AND c.role = coalesce(r, current_user::regrole)
$$;

-- the table is the extension's, the view readable by all, the table by
-- the extension's owner only, and it is kept by pg_dump
SELECT c.relname, c.relkind, d.deptype, c.relacl::text ~ '[{,]=r/' AS public_reads
FROM pg_class c JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = c.oid
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'pg_uuidx'
WHERE c.relname LIKE 'pg_uuidx_consumer%' ORDER BY 1;
SELECT has_table_privilege('public', 'pg_uuidx_consumers', 'SELECT') AS public_reads_view,
       has_table_privilege('public', 'pg_uuidx_consumer_positions', 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE')
           AS public_touches_table;
SELECT extconfig::regclass[] AS dumped FROM pg_extension WHERE extname = 'pg_uuidx';
-- a position is a relation's, a name's and a role's
SELECT pg_get_constraintdef(oid) AS key FROM pg_constraint
WHERE conrelid = 'pg_uuidx_consumer_positions'::regclass AND contype = 'p';

-- in id order, in batches, each acknowledged: the position at the last row
SELECT pg_temp.reads($$SELECT pg_temp.take('outbox', 'relay', 3)$$, '1,2,3') AS first_batch;
SELECT pg_temp.reads($$SELECT pg_temp.at('outbox', 'relay')$$, '3') AS at_3;
SELECT pg_temp.reads($$SELECT pg_temp.take('outbox', 'relay', 3)$$, '4,5,6') AS second_batch;
SELECT pg_temp.reads($$SELECT pg_temp.at('outbox', 'relay')$$, '6') AS at_6;
SELECT pg_temp.reads($$SELECT role::text || ' ' || (moved_at IS NOT NULL) FROM pg_uuidx_consumers
                       WHERE relid = 'outbox'::regclass$$, current_user || ' true') AS role_and_moved_at;

-- a rollback leaves the position where it was; the rows come again
BEGIN;
SELECT pg_temp.reads($$SELECT pg_temp.take('outbox', 'relay', 3)$$, '7,8,9') AS rolled_back_batch;
SELECT pg_temp.reads($$SELECT pg_temp.at('outbox', 'relay')$$, '9') AS at_9_inside;
ROLLBACK;
SELECT pg_temp.reads($$SELECT pg_temp.at('outbox', 'relay')$$, '6') AS still_at_6;
SELECT pg_temp.reads($$SELECT pg_temp.take('outbox', 'relay', 3)$$, '7,8,9') AS same_batch_again;

-- what the transaction writes commits with the position, or neither does:
-- the docs' statement, the work and the acknowledgement in one
CREATE TABLE relayed (n int);
BEGIN;
SELECT pg_temp.run($$
    WITH batch AS (SELECT * FROM pg_uuidx_consume(NULL::outbox, 'relay', 5)),
         handled AS (INSERT INTO relayed SELECT n FROM batch)
    SELECT pg_uuidx_consumer_ack('outbox', 'relay', max(id)) FROM batch$$) AS relayed;
COMMIT;
SELECT pg_temp.reads($$SELECT n FROM relayed ORDER BY n$$, '10') AS relayed_rest;
SELECT pg_temp.reads($$SELECT pg_temp.at('outbox', 'relay')$$, '10') AS at_10;

-- caught up: nothing read, nothing acknowledged, the position stays,
-- moved_at too
CREATE TEMP TABLE before AS
SELECT moved_at FROM pg_uuidx_consumer_positions WHERE relid = 'outbox'::regclass AND consumer = 'relay';
SELECT pg_temp.reads($$SELECT pg_temp.take('outbox', 'relay', 3)$$, '') AS nothing_left;
SELECT pg_temp.reads($$SELECT pg_temp.at('outbox', 'relay') || ' ' || (c.moved_at = b.moved_at)
                       FROM pg_uuidx_consumer_positions c, before b
                       WHERE c.relid = 'outbox'::regclass AND c.consumer = 'relay'$$, '10 true') AS unmoved;
ALTER TABLE outbox DISABLE TRIGGER zz_guard;  -- an id of 2022 is below the horizon handed out
INSERT INTO outbox VALUES (pg_temp.id(11), 11);
ALTER TABLE outbox ENABLE TRIGGER zz_guard;
SELECT pg_temp.reads($$SELECT pg_temp.take('outbox', 'relay', 3)$$, '11') AS new_row;

-- another consumer of the same table has its own position
SELECT pg_temp.reads($$SELECT pg_temp.take('outbox', 'audit', 4)$$, '1,2,3,4') AS audit_batch;
SELECT pg_temp.reads($$SELECT pg_temp.at('outbox', 'relay') || ' ' || pg_temp.at('outbox', 'audit')$$, '11 4')
    AS apart;

-- a view, and a table whose id column has another name: a consumer of
-- one name on each, apart
CREATE VIEW outbox_view AS SELECT n, id FROM outbox;
SELECT pg_temp.reads($$SELECT pg_temp.take('outbox_view', 'relay', 2)$$, '1,2') AS view_batch;
CREATE TABLE events (event_id uuid PRIMARY KEY, n int);
INSERT INTO events SELECT pg_temp.id(n), n FROM generate_series(1, 5) n;
SELECT pg_temp.guard('events', 'event_id');
SELECT pg_temp.reads($$SELECT pg_temp.take('events', 'relay', 2, 'event_id')$$, '1,2') AS events_batch;
SELECT pg_temp.reads($$SELECT n FROM pg_temp.take('events', 'relay', 9, id_column => 'event_id')$$, '3,4,5')
    AS events_rest;
SELECT pg_temp.reads($$SELECT relid::text || ':' || pg_temp.at(relid, consumer) FROM pg_uuidx_consumers
                       WHERE consumer = 'relay' ORDER BY relid::text$$, 'events:5,outbox:11,outbox_view:2')
    AS one_name_three_positions;

-- rows that share an id come in one batch: the position is past all of them
CREATE TABLE tied (id uuid, n int);
INSERT INTO tied VALUES (pg_temp.id(1), 1), (pg_temp.id(1), 2), (pg_temp.id(2), 3);
SELECT pg_temp.guard('tied');
SELECT pg_temp.reads($$SELECT count(*) FROM pg_temp.take('tied', 't', 1)$$, '2') AS both_tied;
SELECT pg_temp.reads($$SELECT n FROM pg_temp.take('tied', 't', 1)$$, '3') AS after_the_tie;

-- only what is acknowledged moves the position.  A LIMIT cuts the rows the
-- caller gets, not the batch: without an acknowledgement nothing moves;
-- with one of the last row received, the rest come again
SELECT pg_temp.reads($$SELECT n FROM pg_uuidx_consume(NULL::outbox, 'part', 5) LIMIT 2$$, '1,2') AS limit_2;
SELECT pg_temp.reads($$SELECT pg_temp.at('outbox', 'part')$$, 'none') AS unacknowledged_unmoved;
SELECT pg_temp.reads($$SELECT n FROM pg_uuidx_consume(NULL::outbox, 'part', 5)$$, '1,2,3,4,5') AS all_again;
BEGIN;
SELECT pg_temp.reads($$SELECT n FROM pg_uuidx_consume(NULL::outbox, 'part', 5) LIMIT 2$$, '1,2') AS limit_2;
SELECT pg_temp.after_read($$SELECT pg_uuidx_consumer_ack('outbox', 'part', pg_temp.id(2))$$, 'ok') AS ack_2;
COMMIT;
SELECT pg_temp.reads($$SELECT n FROM pg_uuidx_consume(NULL::outbox, 'part', 5)$$, '3,4,5,6,7') AS after_2;
-- acknowledged in parts within one transaction, and the last part rolled
-- back to a savepoint
BEGIN;
SELECT pg_temp.reads($$SELECT n FROM pg_uuidx_consume(NULL::outbox, 'part', 5)$$, '3,4,5,6,7') AS batch;
SELECT pg_temp.after_read($$SELECT pg_uuidx_consumer_ack('outbox', 'part', pg_temp.id(3))$$, 'ok') AS ack_3;
SAVEPOINT s;
SELECT pg_temp.after_read($$SELECT pg_uuidx_consumer_ack('outbox', 'part', pg_temp.id(5))$$, 'ok') AS ack_5;
ROLLBACK TO SAVEPOINT s;
SELECT pg_temp.reads($$SELECT pg_temp.at('outbox', 'part')$$, '3') AS at_3;
-- NULL: nothing handled, nothing moves
SELECT pg_temp.after_read($$SELECT pg_uuidx_consumer_ack('outbox', 'part', NULL)$$, 'ok') AS ack_null;
-- refused: an id after the batch delivered, one at or before the
-- position, another role's, another consumer's, another table's
SELECT pg_temp.after_read($$SELECT pg_uuidx_consumer_ack('outbox', 'part', pg_temp.id(8))$$, '22023: id id(8) was not delivered to consumer "part" of public.outbox') AS ack_undelivered;
SELECT pg_temp.after_read($$SELECT pg_uuidx_consumer_ack('outbox', 'part', pg_temp.id(3))$$, '22023: id id(3) is not after the position of consumer "part" of public.outbox') AS ack_at_position;
SELECT pg_temp.after_read($$SELECT pg_uuidx_consumer_ack('outbox', 'part', pg_temp.id(1))$$, '22023: id id(1) is not after the position of consumer "part" of public.outbox') AS ack_before;
SELECT pg_temp.after_read($$SELECT pg_uuidx_consumer_ack('outbox', 'other', pg_temp.id(4))$$, '55000: no rows of public.outbox were delivered to consumer "other" of role postgres in this transaction') AS ack_other_name;
SELECT pg_temp.after_read($$SELECT pg_uuidx_consumer_ack('events', 'part', pg_temp.id(4))$$, '55000: no rows of public.events were delivered to consumer "part" of role postgres in this transaction') AS ack_other_table;
COMMIT;
SELECT pg_temp.reads($$SELECT pg_temp.at('outbox', 'part')$$, '3') AS still_at_3;
-- refused: in a later transaction than the one the rows were delivered to
SELECT pg_temp.reads($$SELECT n FROM pg_uuidx_consume(NULL::outbox, 'part', 2)$$, '4,5') AS autocommit_batch;
SELECT pg_temp.after_read($$SELECT pg_uuidx_consumer_ack('outbox', 'part', pg_temp.id(4))$$, '55000: no rows of public.outbox were delivered to consumer "part" of role postgres in this transaction') AS ack_later;
-- refused: rows delivered in a subtransaction that rolled back (it took
-- the lock on the position with it)
BEGIN;
SAVEPOINT s;
SELECT pg_temp.reads($$SELECT n FROM pg_uuidx_consume(NULL::outbox, 'part', 2)$$, '4,5') AS in_savepoint;
ROLLBACK TO SAVEPOINT s;
SELECT pg_temp.after_read($$SELECT pg_uuidx_consumer_ack('outbox', 'part', pg_temp.id(4))$$, '55000: no rows of public.outbox were delivered to consumer "part" of role postgres in this transaction') AS ack_rolled_back;
ROLLBACK;
-- ... and taken from a subtransaction that committed
BEGIN;
SAVEPOINT s;
SELECT pg_temp.reads($$SELECT n FROM pg_uuidx_consume(NULL::outbox, 'part', 2)$$, '4,5') AS in_savepoint;
RELEASE SAVEPOINT s;
SELECT pg_temp.after_read($$SELECT pg_uuidx_consumer_ack('outbox', 'part', pg_temp.id(5))$$, 'ok') AS ack_released;
COMMIT;
SELECT pg_temp.reads($$SELECT pg_temp.at('outbox', 'part')$$, '5') AS at_5;
-- refused: a position reset back after the rows were delivered
BEGIN;
SELECT pg_temp.reads($$SELECT n FROM pg_uuidx_consume(NULL::outbox, 'part', 2)$$, '6,7') AS batch;
-- (a position only where rows were read and acknowledged: with the horizon)
SELECT pg_uuidx_consumer_reset('outbox', 'part', pg_temp.id(1)) = pg_temp.has_horizon() AS had_one;
SELECT pg_temp.after_read($$SELECT pg_uuidx_consumer_ack('outbox', 'part', pg_temp.id(7))$$, '55000: the position of consumer "part" of public.outbox was reset after its rows were delivered') AS ack_after_reset;
ROLLBACK;

-- reset: removed, the next call starts from the first row; set, the next
-- call reads after it; a consumer that has none
SELECT pg_temp.reads($$SELECT pg_uuidx_consumer_reset('outbox', 'audit')$$, 'true') AS had_one;
SELECT count(*) AS audit_rows FROM pg_uuidx_consumer_positions WHERE consumer = 'audit';
SELECT pg_temp.reads($$SELECT pg_temp.take('outbox', 'audit', 2)$$, '1,2') AS from_the_first;
SELECT pg_temp.reads($$SELECT pg_uuidx_consumer_reset('outbox', 'audit', pg_temp.id(8))$$, 'true') AS had_one;
SELECT pg_temp.reads($$SELECT pg_temp.take('outbox', 'audit', 2)$$, '9,10') AS after_8;
SELECT pg_uuidx_consumer_reset('outbox', 'nobody') AS had_one;
SELECT pg_uuidx_consumer_reset('outbox', 'fresh', pg_temp.id(10)) AS had_one;
SELECT pg_temp.at('outbox', 'fresh') AS fresh_at, role = current_user::regrole AS callers
FROM pg_uuidx_consumer_positions WHERE consumer = 'fresh';

-- bad input
SELECT pg_temp.err($$SELECT * FROM pg_uuidx_consume(NULL::outbox, NULL, 1)$$) AS null_consumer;
SELECT pg_temp.err($$SELECT * FROM pg_uuidx_consume(NULL::outbox, '', 1)$$) AS empty_consumer;
SELECT pg_temp.err($$SELECT * FROM pg_uuidx_consume(NULL::outbox, 'relay', NULL)$$) AS null_max_rows;
SELECT pg_temp.err($$SELECT * FROM pg_uuidx_consume(NULL::outbox, 'relay', 0)$$) AS zero_max_rows;
SELECT pg_temp.err($$SELECT * FROM pg_uuidx_consume(NULL::outbox, 'relay', -1)$$) AS negative_max_rows;
SELECT pg_temp.err($$SELECT * FROM pg_uuidx_consume(NULL::outbox, 'relay', 1, NULL)$$) AS null_id_column;
SELECT pg_temp.err($$SELECT * FROM pg_uuidx_consume(NULL::outbox, 'relay', 1, id_version => 5)$$) AS version_5;
CREATE TABLE no_id (k uuid);
SELECT pg_temp.err($$SELECT * FROM pg_uuidx_consume(NULL::no_id, 'relay', 1)$$) AS no_id_column;
CREATE TABLE text_id (id text);
SELECT pg_temp.err($$SELECT * FROM pg_uuidx_consume(NULL::text_id, 'relay', 1)$$) AS text_id;
CREATE TYPE id_pair AS (id uuid, n int);
SELECT pg_temp.err($$SELECT * FROM pg_uuidx_consume(NULL::id_pair, 'relay', 1)$$) AS composite_type;
SELECT pg_temp.err($$SELECT * FROM pg_uuidx_consume(NULL::int, 'relay', 1)$$) AS not_a_row;
CREATE MATERIALIZED VIEW outbox_mv AS SELECT * FROM outbox;
SELECT pg_temp.err($$SELECT * FROM pg_uuidx_consume(NULL::outbox_mv, 'relay', 1)$$) AS matview;
CREATE TEMP TABLE outbox_tmp (id uuid, n int);
SELECT pg_temp.guard('outbox_tmp');
SELECT pg_temp.err($$SELECT * FROM pg_uuidx_consume(NULL::outbox_tmp, 'relay', 1)$$) AS temporary;
SELECT pg_temp.err($$SELECT pg_uuidx_consumer_reset('outbox_tmp', 'relay', pg_temp.id(1))$$) AS reset_temporary;
SELECT pg_temp.err($$SELECT pg_uuidx_consumer_reset(NULL, 'relay')$$) AS reset_null_table;
SELECT pg_temp.err($$SELECT pg_uuidx_consumer_reset('outbox', NULL)$$) AS reset_null_consumer;
SELECT pg_temp.err($$SELECT pg_uuidx_consumer_ack(NULL, 'relay', pg_temp.id(1))$$) AS ack_null_table;
SELECT pg_temp.err($$SELECT pg_uuidx_consumer_ack('outbox', NULL, pg_temp.id(1))$$) AS ack_null_consumer;
SELECT count(*) AS no_position_of_refused FROM pg_uuidx_consumer_positions
WHERE relid IN ('no_id'::regclass, 'text_id'::regclass, 'outbox_mv'::regclass, 'outbox_tmp'::regclass);

-- READ COMMITTED only, as pg_uuidx_read_after(): refused before any lock
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT pg_temp.err($$SELECT * FROM pg_uuidx_consume(NULL::outbox, 'relay', 1)$$) AS repeatable_read;
ROLLBACK;
BEGIN ISOLATION LEVEL SERIALIZABLE;
SELECT pg_temp.err($$SELECT * FROM pg_uuidx_consume(NULL::outbox, 'relay', 1)$$) AS serializable;
ROLLBACK;

-- privileges: relay_role reads outbox and has a consumer; other_role reads
-- it too; no_role may not; owner_role owns a table relay_role reads
CREATE ROLE regress_consume_relay;
CREATE ROLE regress_consume_other;
CREATE ROLE regress_consume_none;
CREATE ROLE regress_consume_owner;
GRANT SELECT ON outbox TO regress_consume_relay, regress_consume_other;
CREATE TABLE owned (id uuid PRIMARY KEY, n int);
INSERT INTO owned SELECT pg_temp.id(n), n FROM generate_series(1, 3) n;
SELECT pg_temp.guard('owned');
ALTER TABLE owned OWNER TO regress_consume_owner;
GRANT SELECT ON owned TO regress_consume_relay;

SET ROLE regress_consume_relay;
SELECT pg_uuidx_consumer_reset('outbox', 'svc', pg_temp.id(2)) AS had_one;
SELECT pg_temp.reads($$SELECT pg_temp.take('outbox', 'svc', 2)$$, '3,4') AS svc_batch;
SELECT pg_uuidx_consumer_reset('owned', 'svc', pg_temp.id(1)) AS had_one;
SELECT pg_temp.reads($$SELECT n FROM pg_temp.take('owned', 'svc', 2)$$, '2,3') AS owned_batch;
SELECT pg_uuidx_consumer_reset('owned', 'svc2', pg_temp.id(1)) AS had_one;
-- the table itself is not to be written, nor read but through the view
SELECT pg_temp.err($$UPDATE pg_uuidx_consumer_positions SET last_id = NULL$$) AS update_table;
SELECT pg_temp.err($$INSERT INTO pg_uuidx_consumer_positions VALUES ('outbox', 'x', NULL, 'regress_consume_relay')$$)
    AS insert_table;
SELECT pg_temp.err($$SELECT * FROM pg_uuidx_consumer_positions$$) AS read_table;
SELECT relid, consumer, role FROM pg_uuidx_consumers WHERE consumer LIKE 'svc%' ORDER BY 1, 2;
RESET ROLE;

-- positions per role: a role that reads the table and uses the same name
-- has a consumer of its own, from the first row; it can neither see nor
-- move nor remove relay's
SET ROLE regress_consume_other;
SELECT pg_temp.reads($$SELECT pg_temp.take('outbox', 'svc', 2)$$, '1,2') AS others_own_svc;
SELECT pg_temp.reads($$SELECT pg_temp.at('outbox', 'svc')$$, '2') AS others_at_2;
SELECT pg_temp.err($$SELECT pg_uuidx_consumer_reset('outbox', 'svc', pg_temp.id(9), 'regress_consume_relay')$$)
    AS other_sets_relays;
SELECT pg_temp.err($$SELECT pg_uuidx_consumer_reset('outbox', 'svc', NULL, 'regress_consume_relay')$$)
    AS other_removes_relays;
SELECT relid, consumer, role FROM pg_uuidx_consumers WHERE consumer LIKE 'svc%' AND role <> current_user::regrole
ORDER BY 1, 2;
RESET ROLE;
SELECT pg_temp.reads($$SELECT pg_temp.at('outbox', 'svc', 'regress_consume_relay') || ' '
                              || pg_temp.at('outbox', 'svc', 'regress_consume_other')$$, '4 2') AS svc_apart;

-- a name taken first by another role takes nothing from anyone: other
-- sets its consumer claimed far ahead, at the greatest id there can be; a
-- superuser's consumer claimed and relay_role's read every row
SET ROLE regress_consume_other;
SELECT pg_uuidx_consumer_reset('outbox', 'claimed', 'ffffffff-ffff-7fff-bfff-ffffffffffff') AS had_one;
RESET ROLE;
SELECT pg_temp.reads($$SELECT count(*) FROM pg_uuidx_consume(NULL::outbox, 'claimed', 100)$$, '11')
    AS superuser_reads_all;
SET ROLE regress_consume_relay;
SELECT pg_temp.after_read($$SELECT count(*) FROM pg_uuidx_consume(NULL::outbox, 'claimed', 100)$$, 'ok')
    AS relay_not_refused;
SELECT pg_temp.reads($$SELECT count(*) FROM pg_uuidx_consume(NULL::outbox, 'claimed', 100)$$, '11')
    AS relay_reads_all;
RESET ROLE;
SELECT pg_temp.reads($$SELECT string_agg(r, ',' ORDER BY r)
                       FROM (SELECT CASE WHEN role::text = session_user THEN 'superuser' ELSE role::text END AS r
                             FROM pg_uuidx_consumer_positions WHERE consumer = 'claimed') p$$,
                     'regress_consume_other,regress_consume_relay,superuser') AS three_positions;

-- SET ROLE and SECURITY DEFINER: the position is the current role's
CREATE FUNCTION relay_take() RETURNS SETOF int LANGUAGE sql SECURITY DEFINER
SET search_path = public, pg_catalog AS $$
    WITH batch AS (SELECT * FROM pg_uuidx_consume(NULL::outbox, 'definer', 3)),
         ack AS (SELECT pg_uuidx_consumer_ack('outbox', 'definer', max(id)) FROM batch)
    SELECT n FROM batch, ack ORDER BY n
$$;
ALTER FUNCTION relay_take() OWNER TO regress_consume_relay;
SET ROLE regress_consume_none;
SELECT pg_temp.reads($$SELECT relay_take()$$, '1,2,3') AS definer_take;
RESET ROLE;
SELECT pg_temp.reads($$SELECT role || ' ' || pg_temp.at('outbox', 'definer', role) FROM pg_uuidx_consumer_positions
                       WHERE consumer = 'definer'$$, 'regress_consume_relay 3') AS definers_position;

-- a role that may not read the table: neither consumes nor sets, not even
-- its own position; it sees no position of the table
SET ROLE regress_consume_none;
SELECT pg_temp.err($$SELECT * FROM pg_uuidx_consume(NULL::outbox, 'svc', 2)$$) AS none_consumes;
SELECT pg_temp.err($$SELECT pg_uuidx_consumer_reset('outbox', 'svc', pg_temp.id(9))$$) AS none_sets;
SELECT pg_temp.err($$SELECT pg_uuidx_consumer_reset('outbox', 'svc', NULL, 'regress_consume_relay')$$)
    AS none_removes_relays;
SELECT count(*) AS none_sees FROM pg_uuidx_consumers WHERE relid = 'outbox'::regclass;
-- a reset of its own (absent) position takes no lock on the table, and
-- the positions table only as a reader's row lock takes it
BEGIN;
SELECT pg_uuidx_consumer_reset('outbox', 'nothing') AS had_one;
SELECT string_agg(mode, ',' ORDER BY mode) FILTER (WHERE relation = 'outbox'::regclass) AS outbox_locks,
       string_agg(mode, ',' ORDER BY mode) FILTER (WHERE relation = 'pg_uuidx_consumer_positions'::regclass)
           AS positions_locks
FROM pg_locks WHERE pid = pg_backend_pid() AND locktype = 'relation';
COMMIT;
RESET ROLE;
SELECT pg_temp.reads($$SELECT pg_temp.at('outbox', 'svc', 'regress_consume_relay')$$, '4') AS svc_still_at_4,
       (SELECT count(*) FROM pg_uuidx_consumer_positions WHERE role = 'regress_consume_none'::regrole) AS none_has;

-- the table's owner may remove a position of its table of another role,
-- not set one; its consumers are its own
SET ROLE regress_consume_owner;
SELECT pg_temp.err($$SELECT pg_uuidx_consumer_reset('owned', 'svc2', pg_temp.id(3), 'regress_consume_relay')$$)
    AS owner_sets;
SELECT pg_uuidx_consumer_reset('owned', 'svc2', NULL, 'regress_consume_relay') AS owner_removes;
SELECT pg_temp.reads($$SELECT pg_temp.take('owned', 'svc', 1)$$, '1') AS owners_own_svc;
RESET ROLE;
-- a member of the position's role may set it and remove it
GRANT regress_consume_relay TO regress_consume_other;
SET ROLE regress_consume_other;
SELECT pg_uuidx_consumer_reset('outbox', 'svc', pg_temp.id(6), 'regress_consume_relay') AS member_sets;
SELECT pg_temp.reads($$SELECT pg_temp.at('outbox', 'svc', 'regress_consume_relay')$$, '6') AS relays_at_6;
RESET ROLE;
REVOKE regress_consume_relay FROM regress_consume_other;

-- row-level security: the view shows a role only its own roles' positions
-- of tables it may read, so never the id of a row a policy hides from it;
-- pg_read_all_stats sees every position
CREATE TABLE secret (id uuid PRIMARY KEY, reader name NOT NULL);
INSERT INTO secret VALUES (pg_temp.id(1), 'regress_consume_relay'), (pg_temp.id(2), 'regress_consume_other');
SELECT pg_temp.guard('secret');
ALTER TABLE secret ENABLE ROW LEVEL SECURITY;
CREATE POLICY mine ON secret USING (reader = current_user);
GRANT SELECT ON secret TO regress_consume_relay, regress_consume_other;
CREATE FUNCTION pg_temp.take_secret() RETURNS SETOF uuid LANGUAGE sql AS $$
    WITH batch AS (SELECT * FROM pg_uuidx_consume(NULL::secret, 'x', 10)),
         ack AS (SELECT pg_uuidx_consumer_ack('secret', 'x', max(id)) FROM batch)
    SELECT id FROM batch, ack ORDER BY id
$$;
SELECT pg_temp.reads($$SELECT count(*) FROM pg_temp.take_secret()$$, '2') AS superuser_reads_both;
SET ROLE regress_consume_relay;
SELECT pg_temp.reads($$SELECT pg_temp.take_secret() = pg_temp.id(1)$$, 'true') AS relay_reads_its_row;
RESET ROLE;
-- positions set by reset at relay's row: the superuser's consumer y and
-- relay's consumer z
SELECT pg_uuidx_consumer_reset('secret', 'y', pg_temp.id(1)) AS had_one;
SET ROLE regress_consume_relay;
SELECT pg_uuidx_consumer_reset('secret', 'z', pg_temp.id(1)) AS had_one;
RESET ROLE;
SET ROLE regress_consume_other;
SELECT count(*) AS other_sees_secret_rows FROM secret WHERE id = pg_temp.id(1);
SELECT count(*) AS positions_shown, count(*) FILTER (WHERE last_id = pg_temp.id(1)) AS hidden_ids_shown
FROM pg_uuidx_consumers WHERE relid = 'secret'::regclass;
RESET ROLE;
GRANT pg_read_all_stats TO regress_consume_other;
SET ROLE regress_consume_other;
SELECT string_agg(r || ' ' || pg_temp.n_of(last_id), ', ' ORDER BY r) AS read_all_stats_sees_all
FROM (SELECT CASE WHEN role::text = session_user THEN 'superuser' ELSE role::text END AS r, last_id
      FROM pg_uuidx_consumers WHERE relid = 'secret'::regclass AND consumer IN ('y', 'z')) p;
RESET ROLE;
REVOKE pg_read_all_stats FROM regress_consume_other;

-- a dropped table: its position is no longer shown nor dumped, and stays
-- removable by OID
CREATE TABLE gone (id uuid PRIMARY KEY);
SELECT pg_uuidx_consumer_reset('gone', 'relay', pg_temp.id(1)) AS had_one;
SELECT 'gone'::regclass::oid AS gone_oid \gset
DROP TABLE gone;
SELECT count(*) AS shown FROM pg_uuidx_consumers WHERE relid = :gone_oid;
SELECT count(*) AS stored FROM pg_uuidx_consumer_positions WHERE relid = :gone_oid;
CREATE FUNCTION pg_temp.dumped() RETURNS SETOF pg_uuidx_consumer_positions
LANGUAGE plpgsql AS $$
BEGIN
    RETURN QUERY EXECUTE 'SELECT * FROM pg_uuidx_consumer_positions '
        || (SELECT extcondition[array_position(extconfig, 'pg_uuidx_consumer_positions'::regclass)]
            FROM pg_extension WHERE extname = 'pg_uuidx');
END $$;
SELECT count(*) FILTER (WHERE relid = :gone_oid) AS gone_dumped, count(*) = (SELECT count(*) - 1 FROM
    pg_uuidx_consumer_positions) AS the_rest_dumped FROM pg_temp.dumped();
SELECT pg_temp.err(format($$SELECT pg_uuidx_consumer_reset(%s, 'relay', pg_temp.id(1))$$, :gone_oid))
    ~ '^42P01: relation with OID \d+ does not exist$' AS set_refused;
SELECT pg_uuidx_consumer_reset(:gone_oid, 'relay') AS removed;
SELECT count(*) AS stored FROM pg_uuidx_consumer_positions WHERE relid = :gone_oid;

-- a dropped role: its positions are not dumped, nobody else's consumer of
-- the name reads from them, a position cannot be set for it, and the
-- table's owner (here a superuser) may remove them by the role's OID
CREATE ROLE regress_consume_gone;
GRANT SELECT ON outbox TO regress_consume_gone;
SET ROLE regress_consume_gone;
SELECT pg_uuidx_consumer_reset('outbox', 'orphan', pg_temp.id(3)) AS had_one;
RESET ROLE;
SELECT 'regress_consume_gone'::regrole::oid AS gone_role \gset
REVOKE SELECT ON outbox FROM regress_consume_gone;
DROP ROLE regress_consume_gone;
SELECT count(*) AS orphan_dumped FROM pg_temp.dumped() WHERE consumer = 'orphan';
SET ROLE regress_consume_other;
SELECT pg_temp.reads($$SELECT count(*) FROM pg_temp.take('outbox', 'orphan', 100)$$, '11') AS orphan_name_reads_all;
RESET ROLE;
SELECT pg_temp.err(format($$SELECT pg_uuidx_consumer_reset('outbox', 'orphan', pg_temp.id(1), %s::oid::regrole)$$, :gone_role))
    ~ '^42704: role with OID \d+ does not exist$' AS set_for_gone_role_refused;
SELECT pg_uuidx_consumer_reset('outbox', 'orphan', NULL, :gone_role::oid::regrole) AS removed;
SELECT count(*) AS orphan_left FROM pg_uuidx_consumer_positions WHERE role::oid = :gone_role;

DROP FUNCTION pg_temp.dumped(), relay_take();
DROP VIEW outbox_view;
DROP MATERIALIZED VIEW outbox_mv;
DROP TABLE outbox, relayed, events, tied, no_id, text_id, owned, secret, outbox_tmp;
DROP TYPE id_pair;
DROP ROLE regress_consume_relay, regress_consume_other, regress_consume_none, regress_consume_owner;
DROP EXTENSION pg_uuidx;
