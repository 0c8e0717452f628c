-- Consumers: pg_uuidx_consume() reads the next rows of a table for a named
-- consumer, as pg_uuidx_read_after() after the consumer's position, and
-- moves the position in the same transaction; pg_uuidx_consumer_reset()
-- removes or sets a position.  In order, in batches; the position moves
-- with each batch, stays where it was when the transaction rolls back and
-- when nothing is left; ties are never split; consumers of one table, or
-- of one name on two tables, are apart.  Then bad input, the isolation
-- levels it refuses, who may move or reset a position (SELECT on the
-- table, the position's role, the table's owner), what other roles see,
-- and positions of a dropped table and of a dropped role (left out of a
-- dump, removable).  Concurrent sessions, crashes and standbys:
-- test/t/140_consume.pl.
--
-- Reading needs the commit horizon, which PostgreSQL 15 and 16 have only
-- with pg_uuidx in shared_preload_libraries: test/run.sh preloads it there.
-- On such a server without it each check of what was read is true without
-- reading (pg_temp.reads()); nothing else differs.
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

CREATE TABLE outbox (id uuid PRIMARY KEY, n int NOT NULL);
INSERT INTO outbox SELECT pg_temp.id(n), n FROM generate_series(1, 10) n;

-- the n of the row of outbox with the id a consumer's position stands at
-- ('none': at no row yet), as the view shows it to the current role
CREATE FUNCTION pg_temp.at(tbl regclass, name text) RETURNS text
LANGUAGE sql AS $$
    SELECT coalesce((SELECT o.n::text FROM outbox o WHERE o.id = c.last_id), c.last_id::text, 'none')
    FROM pg_uuidx_consumers c WHERE c.relid = tbl AND c.consumer = name
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

-- in id order, in batches, the position at the last row of each
SELECT pg_temp.reads($$SELECT n FROM pg_uuidx_consume(NULL::outbox, 'relay', 3)$$, '1,2,3') AS first_batch;
SELECT pg_temp.reads($$SELECT pg_temp.at('outbox', 'relay')$$, '3') AS at_3;
SELECT pg_temp.reads($$SELECT n FROM pg_uuidx_consume(NULL::outbox, 'relay', 3)$$, '4,5,6') AS second_batch;
SELECT pg_temp.reads($$SELECT pg_temp.at('outbox', 'relay')$$, '6') AS at_6;
SELECT pg_temp.reads($$SELECT role::text || ' ' || (moved_at IS NOT NULL) FROM pg_uuidx_consumers
                       WHERE relid = 'outbox'::regclass$$, current_user || ' true') AS role_and_moved_at;

-- a rollback leaves the position where it was; the rows come again
BEGIN;
SELECT pg_temp.reads($$SELECT n FROM pg_uuidx_consume(NULL::outbox, 'relay', 3)$$, '7,8,9') AS rolled_back_batch;
SELECT pg_temp.reads($$SELECT pg_temp.at('outbox', 'relay')$$, '9') AS at_9_inside;
ROLLBACK;
SELECT pg_temp.reads($$SELECT pg_temp.at('outbox', 'relay')$$, '6') AS still_at_6;
SELECT pg_temp.reads($$SELECT n FROM pg_uuidx_consume(NULL::outbox, 'relay', 3)$$, '7,8,9') AS same_batch_again;

-- what the transaction writes commits with the position, or neither does
CREATE TABLE relayed (n int);
BEGIN;
SELECT pg_temp.run($$INSERT INTO relayed SELECT n FROM pg_uuidx_consume(NULL::outbox, 'relay', 5)$$) AS relayed;
COMMIT;
SELECT pg_temp.reads($$SELECT n FROM relayed ORDER BY n$$, '10') AS relayed_rest;
SELECT pg_temp.reads($$SELECT pg_temp.at('outbox', 'relay')$$, '10') AS at_10;

-- caught up: nothing read, the position stays, moved_at too
CREATE TEMP TABLE before AS
SELECT moved_at FROM pg_uuidx_consumer_positions WHERE relid = 'outbox'::regclass AND consumer = 'relay';
SELECT pg_temp.reads($$SELECT n FROM pg_uuidx_consume(NULL::outbox, 'relay', 3)$$, '') AS nothing_left;
SELECT pg_temp.reads($$SELECT pg_temp.at('outbox', 'relay') || ' ' || (c.moved_at = b.moved_at)
                       FROM pg_uuidx_consumer_positions c, before b
                       WHERE c.relid = 'outbox'::regclass AND c.consumer = 'relay'$$, '10 true') AS unmoved;
INSERT INTO outbox VALUES (pg_temp.id(11), 11);
SELECT pg_temp.reads($$SELECT n FROM pg_uuidx_consume(NULL::outbox, 'relay', 3)$$, '11') AS new_row;

-- another consumer of the same table has its own position
SELECT pg_temp.reads($$SELECT n FROM pg_uuidx_consume(NULL::outbox, 'audit', 4)$$, '1,2,3,4') AS audit_batch;
SELECT pg_temp.reads($$SELECT pg_temp.at('outbox', 'relay') || ' ' || pg_temp.at('outbox', 'audit')$$, '11 4')
    AS apart;

-- a view, and a table whose id column has another name: a consumer of
-- one name on each, apart
CREATE VIEW outbox_view AS SELECT * FROM outbox WHERE n % 2 = 0;
SELECT pg_temp.reads($$SELECT n FROM pg_uuidx_consume(NULL::outbox_view, 'relay', 2)$$, '2,4') AS view_batch;
CREATE TABLE events (event_id uuid PRIMARY KEY, n int);
INSERT INTO events SELECT pg_temp.id(n), n FROM generate_series(1, 5) n;
SELECT pg_temp.reads($$SELECT n FROM pg_uuidx_consume(NULL::events, 'relay', 2, 'event_id')$$, '1,2') AS events_batch;
SELECT pg_temp.reads($$SELECT n FROM pg_uuidx_consume(NULL::events, 'relay', 9, id_column => 'event_id')$$, '3,4,5')
    AS events_rest;
SELECT pg_temp.reads($$SELECT relid::text || ':' || pg_temp.at(relid, consumer) FROM pg_uuidx_consumers
                       WHERE consumer = 'relay' ORDER BY relid::text$$, 'events:5,outbox:11,outbox_view:4')
    AS one_name_three_positions;

-- rows that share an id come in one batch: the position is past all of them
CREATE TABLE tied (id uuid, n int);
INSERT INTO tied VALUES (pg_temp.id(1), 1), (pg_temp.id(1), 2), (pg_temp.id(2), 3);
SELECT pg_temp.reads($$SELECT count(*) FROM pg_uuidx_consume(NULL::tied, 't', 1)$$, '2') AS both_tied;
SELECT pg_temp.reads($$SELECT n FROM pg_uuidx_consume(NULL::tied, 't', 1)$$, '3') AS after_the_tie;

-- reset: removed, the next call starts from the first row; set, the next
-- call reads after it; a consumer that has none
SELECT pg_temp.reads($$SELECT pg_uuidx_consumer_reset('outbox', 'audit')$$, 'true') AS had_one;
SELECT count(*) AS audit_rows FROM pg_uuidx_consumer_positions WHERE consumer = 'audit';
SELECT pg_temp.reads($$SELECT n FROM pg_uuidx_consume(NULL::outbox, 'audit', 2)$$, '1,2') AS from_the_first;
SELECT pg_temp.reads($$SELECT pg_uuidx_consumer_reset('outbox', 'audit', pg_temp.id(8))$$, 'true') AS had_one;
SELECT pg_temp.reads($$SELECT n FROM pg_uuidx_consume(NULL::outbox, 'audit', 2)$$, '9,10') AS after_8;
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
SELECT pg_temp.err($$SELECT * FROM pg_uuidx_consume(NULL::outbox_tmp, 'relay', 1)$$) AS temporary;
SELECT pg_temp.err($$SELECT pg_uuidx_consumer_reset('outbox_tmp', 'relay', pg_temp.id(1))$$) AS reset_temporary;
SELECT pg_temp.err($$SELECT pg_uuidx_consumer_reset(NULL, 'relay')$$) AS reset_null_table;
SELECT pg_temp.err($$SELECT pg_uuidx_consumer_reset('outbox', NULL)$$) AS reset_null_consumer;
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
ALTER TABLE owned OWNER TO regress_consume_owner;
GRANT SELECT ON owned TO regress_consume_relay;

SET ROLE regress_consume_relay;
SELECT pg_uuidx_consumer_reset('outbox', 'svc', pg_temp.id(2)) AS had_one;
SELECT pg_temp.reads($$SELECT n FROM pg_uuidx_consume(NULL::outbox, 'svc', 2)$$, '3,4') AS svc_batch;
SELECT pg_uuidx_consumer_reset('owned', 'svc', pg_temp.id(1)) AS had_one;
SELECT pg_temp.reads($$SELECT n FROM pg_uuidx_consume(NULL::owned, 'svc', 2)$$, '2,3') AS owned_batch;
SELECT pg_uuidx_consumer_reset('owned', 'svc2', pg_temp.id(1)) AS had_one;
-- the table itself is not to be written, nor read but through the view
SELECT pg_temp.err($$UPDATE pg_uuidx_consumer_positions SET last_id = NULL$$) AS update_table;
SELECT pg_temp.err($$INSERT INTO pg_uuidx_consumer_positions VALUES ('outbox', 'x', NULL, 'regress_consume_relay')$$)
    AS insert_table;
SELECT pg_temp.err($$SELECT * FROM pg_uuidx_consumer_positions$$) AS read_table;
SELECT relid, consumer, role FROM pg_uuidx_consumers WHERE consumer LIKE 'svc%' ORDER BY 1, 2;
RESET ROLE;

-- a role that reads the table but has not the position's role's privileges
SET ROLE regress_consume_other;
SELECT pg_temp.err($$SELECT * FROM pg_uuidx_consume(NULL::outbox, 'svc', 2)$$) AS other_consumes;
SELECT pg_temp.err($$SELECT pg_uuidx_consumer_reset('outbox', 'svc', pg_temp.id(9))$$) AS other_sets;
SELECT pg_temp.err($$SELECT pg_uuidx_consumer_reset('outbox', 'svc')$$) AS other_removes;
SELECT pg_temp.reads($$SELECT n FROM pg_uuidx_consume(NULL::outbox, 'other', 2)$$, '1,2') AS own_consumer;
SELECT relid, consumer, role FROM pg_uuidx_consumers WHERE consumer LIKE 'svc%' ORDER BY 1, 2;
RESET ROLE;

-- a role that may not read the table: not even through the view
SET ROLE regress_consume_none;
SELECT pg_temp.err($$SELECT * FROM pg_uuidx_consume(NULL::outbox, 'svc', 2)$$) AS none_consumes;
SELECT pg_temp.err($$SELECT * FROM pg_uuidx_consume(NULL::outbox, 'mine', 2)$$) AS none_new_consumer;
SELECT pg_temp.err($$SELECT pg_uuidx_consumer_reset('outbox', 'svc', pg_temp.id(9))$$) AS none_sets;
SELECT pg_temp.err($$SELECT pg_uuidx_consumer_reset('outbox', 'svc')$$) AS none_removes;
SELECT count(*) AS none_sees FROM pg_uuidx_consumers;
RESET ROLE;
SELECT pg_temp.reads($$SELECT pg_temp.at('outbox', 'svc')$$, '4') AS svc_still_at_4,
       (SELECT count(*) FROM pg_uuidx_consumer_positions WHERE consumer = 'mine') AS mine;

-- the table's owner may reset a position of its table, of another role
SET ROLE regress_consume_owner;
SELECT pg_uuidx_consumer_reset('owned', 'svc2') AS owner_removes;
SELECT pg_temp.err($$SELECT * FROM pg_uuidx_consume(NULL::owned, 'svc', 1)$$) AS owner_consumes_svc;
RESET ROLE;
-- a member of the position's role may
GRANT regress_consume_relay TO regress_consume_other;
SET ROLE regress_consume_other;
SELECT pg_temp.reads($$SELECT n FROM pg_uuidx_consume(NULL::outbox, 'svc', 2)$$, '5,6') AS member_consumes;
RESET ROLE;
REVOKE regress_consume_relay FROM regress_consume_other;

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

-- a dropped role: its positions are not dumped, others may not move them,
-- the table's owner (here a superuser) may remove them
CREATE ROLE regress_consume_gone;
GRANT SELECT ON outbox TO regress_consume_gone;
SET ROLE regress_consume_gone;
SELECT pg_uuidx_consumer_reset('outbox', 'orphan', pg_temp.id(3)) AS had_one;
RESET ROLE;
REVOKE SELECT ON outbox FROM regress_consume_gone;
DROP ROLE regress_consume_gone;
SELECT count(*) AS orphan_dumped FROM pg_temp.dumped() WHERE consumer = 'orphan';
SET ROLE regress_consume_other;
SELECT left(pg_temp.err($$SELECT * FROM pg_uuidx_consume(NULL::outbox, 'orphan', 1)$$), 5) AS orphan_consumed;
RESET ROLE;
SELECT pg_uuidx_consumer_reset('outbox', 'orphan') AS removed;

DROP FUNCTION pg_temp.dumped();
DROP VIEW outbox_view;
DROP MATERIALIZED VIEW outbox_mv;
DROP TABLE outbox, relayed, events, tied, no_id, text_id, owned;
DROP TYPE id_pair;
DROP ROLE regress_consume_relay, regress_consume_other, regress_consume_none, regress_consume_owner;
DROP EXTENSION pg_uuidx;
