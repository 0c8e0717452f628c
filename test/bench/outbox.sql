-- test/bench/outbox.sql: the outbox phase's objects (test/bench/outbox.pl),
-- run in database bench of the phase's primary and of its logical
-- subscriber: the readers' record, one reader loop for every approach, the
-- ticker and the outbox tables.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)

-- what each reader read: unlogged, so that recording it writes no WAL
CREATE UNLOGGED TABLE seen (reader text NOT NULL, pass text NOT NULL, seq bigint NOT NULL, id uuid NOT NULL,
                            read_at timestamptz NOT NULL);

-- The outbox tables: ob1 (first pass, ids made by the server in the
-- inserting transaction), ob2 (second pass, ids made by the client before
-- the transaction), ob4 (third pass, the same with a guard that allows
-- less than pg_uuidx.horizon_allowance), ob3 (the stall scenarios).  Every
-- reader reads the same table, so each carries what the xid8 pattern needs
-- (its costs are measured apart, on tables of their own); outbox.pl adds the
-- guards that pg_uuidx's readers need.
-- at: when the statement that wrote the row began (outbox_report.sql's
-- model of when each reader can read it).
CREATE TABLE ob1 (id uuid PRIMARY KEY DEFAULT uuidv7(), xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
                  w int NOT NULL, kind text NOT NULL, at timestamptz NOT NULL DEFAULT statement_timestamp());
CREATE INDEX ob1_xid_id ON ob1 (xid, id);
CREATE TABLE ob2 (LIKE ob1 INCLUDING ALL);
CREATE TABLE ob3 (LIKE ob1 INCLUDING ALL);
CREATE TABLE ob4 (LIKE ob1 INCLUDING ALL);
-- the pass with every setting at its default: ob5 takes ids made by the
-- client, ob6 ids made by the server; ob7 the pass of the same settings in
-- which only its own writers write
CREATE TABLE ob5 (LIKE ob1 INCLUDING ALL);
CREATE TABLE ob6 (LIKE ob1 INCLUDING ALL);
CREATE TABLE ob7 (LIKE ob1 INCLUDING ALL);

-- the end of a pass: outbox.pl adds the pass here (on the primary and on
-- the subscriber) once its writers are done and every reader has had time
-- to read their last rows
CREATE TABLE ob_stop (pass text PRIMARY KEY);

-- what each reader's polls took: the count, and the time of the query that
-- reads (from before it to the read time of its rows), summed and at most;
-- one row a reader and pass, written when the reader stops (a row a poll
-- would give every poll an xid, which holds the xid8 readers)
CREATE UNLOGGED TABLE ob_polls (reader text NOT NULL, pass text NOT NULL, polls bigint NOT NULL,
                                query_ms float8 NOT NULL, max_query_ms float8 NOT NULL,
                                since timestamptz NOT NULL, until timestamptz NOT NULL);

-- One poll of one reader: the ids it reads after last (and, for the xid8
-- readers, last_xid), at most 5000, in its order, with their xids (xid8).
--   id > last            the naive cursor
--   lag 1 s              id > last AND id < the smallest id of (now - 1 s)
--   xid8                 (xid, id) > (last_xid, last_id) AND xid < pg_snapshot_xmin(pg_current_snapshot())
--   xid8 standby         the same on the streaming standby (through dblink connection ob_standby)
--   logical slot         pg_logical_slot_get_changes() of slot ob_slot (test_decoding), the INSERTs into tbl
--   pg_uuidx primary     pg_uuidx_read_after() on the primary
--   pg_uuidx standby     pg_uuidx_read_after() on the streaming standby (through dblink connection ob_standby)
--   pg_uuidx subscriber  pg_uuidx_read_after(..., from_tick => true) on the logical subscriber
--   pg_uuidx consume     pg_uuidx_consume() of consumer relay, then pg_uuidx_consumer_ack() of the last id read
--   pgq                  the next batch of PgQ's queue named tbl for consumer relay, its events' ev_extra1 (an
--                        id), the batch finished (test/bench/throughput.pl)
CREATE FUNCTION ob_poll(reader text, tbl text, last uuid, last_xid xid8, OUT ids uuid[], OUT xids xid8[])
LANGUAGE plpgsql AS $$
DECLARE
    batch bigint;
BEGIN
    CASE reader
    WHEN 'id > last' THEN
        EXECUTE format('SELECT array_agg(id ORDER BY id) FROM (SELECT id FROM %I WHERE $1 IS NULL OR id > $1
                        ORDER BY id LIMIT 5000) s', tbl) INTO ids USING last;
    WHEN 'lag 1 s' THEN
        EXECUTE format('SELECT array_agg(id ORDER BY id) FROM (SELECT id FROM %I WHERE ($1 IS NULL OR id > $1)
                        AND id < $2 ORDER BY id LIMIT 5000) s', tbl)
          INTO ids USING last, uuidv7_boundary(clock_timestamp() - interval '1 s');
    WHEN 'xid8' THEN
        EXECUTE format('SELECT array_agg(id ORDER BY xid, id), array_agg(xid ORDER BY xid, id)
                        FROM (SELECT id, xid FROM %I
                              WHERE ($1 IS NULL OR (xid, id) > ($1, $2))
                                AND xid < pg_snapshot_xmin(pg_current_snapshot())
                              ORDER BY xid, id LIMIT 5000) s', tbl) INTO ids, xids USING last_xid, last;
    WHEN 'xid8 standby' THEN
        SELECT array_agg(d.id ORDER BY d.xid, d.id), array_agg(d.xid ORDER BY d.xid, d.id) INTO ids, xids
        FROM dblink('ob_standby', format('SELECT id, xid FROM %I
                                          WHERE (%L::xid8 IS NULL OR (xid, id) > (%L::xid8, %L::uuid))
                                            AND xid < pg_snapshot_xmin(pg_current_snapshot())
                                          ORDER BY xid, id LIMIT 5000', tbl, last_xid, last_xid, last))
             AS d(id uuid, xid xid8);
    WHEN 'logical slot' THEN
        SELECT array_agg(substring(c.data FROM 'id\[uuid\]:''([0-9a-f-]+)''')::uuid ORDER BY c.o) INTO ids
        FROM pg_logical_slot_get_changes('ob_slot', NULL, NULL, 'skip-empty-xacts', '1')
             WITH ORDINALITY AS c(lsn, xid, data, o)
        WHERE c.data LIKE format('table public.%s: INSERT:%%', tbl);
    WHEN 'pg_uuidx primary' THEN
        EXECUTE format('SELECT array_agg(id ORDER BY id) FROM pg_uuidx_read_after(NULL::%I, $1, 5000)', tbl)
          INTO ids USING last;
    WHEN 'pg_uuidx standby' THEN
        SELECT array_agg(d.id ORDER BY d.id) INTO ids
        FROM dblink('ob_standby', format('SELECT id FROM pg_uuidx_read_after(NULL::%I, %L, 5000)', tbl, last))
             AS d(id uuid);
    WHEN 'pg_uuidx subscriber' THEN
        EXECUTE format('SELECT array_agg(id ORDER BY id)
                        FROM pg_uuidx_read_after(NULL::%I, $1, 5000, from_tick => true)', tbl)
          INTO ids USING last;
    WHEN 'pg_uuidx consume' THEN
        EXECUTE format('SELECT array_agg(id ORDER BY id) FROM pg_uuidx_consume(NULL::%I, ''relay'', 5000)', tbl)
          INTO ids;
        IF ids IS NOT NULL THEN
            PERFORM pg_uuidx_consumer_ack(tbl::regclass, 'relay', ids[cardinality(ids)]);
        END IF;
    WHEN 'pgq' THEN
        batch := pgq.next_batch(tbl, 'relay');
        IF batch IS NOT NULL THEN
            SELECT array_agg(e.ev_extra1::uuid ORDER BY e.ev_id) INTO ids FROM pgq.get_batch_events(batch) e;
            PERFORM pgq.finish_batch(batch);
        END IF;
    END CASE;
END $$;

-- One reader, or readers paired in one loop ("xid8+pg_uuidx primary"):
-- polls at every multiple of "poll" seconds on the clock, as every other
-- loop does, until its pass is in ob_stop (or an hour has passed), and records what it read, with the time it read it
-- (clock_timestamp() after the query).  Each query is its own transaction;
-- every reader's loop is this one, so readers differ only in their query.
-- Paired readers take turns at going first and are recorded as "<reader>
-- (paired)": both see the same writes at nearly the same moment, so their
-- lags differ by what their queries wait for, not by when they poll.
CREATE PROCEDURE ob_read(reader text, pass text, tbl text, poll float8, conn text DEFAULT NULL)
LANGUAGE plpgsql AS $$
DECLARE
    readers text[] := string_to_array(reader, '+');
    k int := cardinality(string_to_array(reader, '+'));
    r text;
    name text;
    last uuid[] := array_fill(NULL::uuid, ARRAY[k]);
    last_xid xid8[] := array_fill(NULL::xid8, ARRAY[k]);
    n bigint[] := array_fill(0::bigint, ARRAY[k]);
    polls bigint[] := array_fill(0::bigint, ARRAY[k]);
    query_ms float8[] := array_fill(0::float8, ARRAY[k]);
    max_query_ms float8[] := array_fill(0::float8, ARRAY[k]);
    ids uuid[];
    xids xid8[];
    i int;
    turn int := 0;
    t0 timestamptz;
    t timestamptz;
    since timestamptz := clock_timestamp();
    stop timestamptz := clock_timestamp() + interval '1 h';
BEGIN
    IF reader LIKE '%standby%' THEN
        PERFORM dblink_connect('ob_standby', conn);
    END IF;
    WHILE clock_timestamp() < stop AND NOT EXISTS (SELECT FROM ob_stop s WHERE s.pass = ob_read.pass) LOOP
        FOR j IN 0 .. k - 1 LOOP
            i := (turn + j) % k + 1;
            r := readers[i];
            name := CASE WHEN k > 1 THEN r || ' (paired)' ELSE r END;
            t0 := clock_timestamp();
            SELECT p.ids, p.xids INTO ids, xids FROM ob_poll(r, tbl, last[i], last_xid[i]) p;
            t := clock_timestamp();
            polls[i] := polls[i] + 1;
            query_ms[i] := query_ms[i] + extract(epoch FROM t - t0) * 1000;
            max_query_ms[i] := greatest(max_query_ms[i], extract(epoch FROM t - t0) * 1000);
            IF ids IS NOT NULL THEN
                INSERT INTO seen SELECT name, pass, n[i] + u.o, u.id, t FROM unnest(ids) WITH ORDINALITY AS u(id, o);
                n[i] := n[i] + cardinality(ids);
                last[i] := ids[cardinality(ids)];
                last_xid[i] := xids[cardinality(xids)];
            END IF;
            COMMIT;
        END LOOP;
        turn := turn + 1;
        -- to the next multiple of poll on the clock: every loop polls at the
        -- same instants, so no reader's lag depends on its loop's phase
        PERFORM pg_sleep(poll - mod(extract(epoch FROM clock_timestamp()), poll::numeric)::float8);
    END LOOP;
    FOR i IN 1 .. k LOOP
        INSERT INTO ob_polls VALUES (CASE WHEN k > 1 THEN readers[i] || ' (paired)' ELSE reader END, pass, polls[i],
                                     query_ms[i], max_query_ms[i], since, clock_timestamp());
    END LOOP;
END $$;

-- the ticker: pg_uuidx_tick() every "every" seconds, each in its own
-- transaction, until "pass" is in ob_stop
CREATE PROCEDURE ob_ticker(pass text, every float8) LANGUAGE plpgsql AS $$
DECLARE
    stop timestamptz := clock_timestamp() + interval '1 h';
BEGIN
    WHILE clock_timestamp() < stop AND NOT EXISTS (SELECT FROM ob_stop s WHERE s.pass = ob_ticker.pass) LOOP
        PERFORM pg_uuidx_tick();
        COMMIT;
        PERFORM pg_sleep(every);
    END LOOP;
END $$;
