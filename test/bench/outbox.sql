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
-- the transaction), ob4 (third pass, the same with a shorter
-- pg_uuidx.horizon_allowance), ob3 (the stall scenarios).  Every reader reads the same
-- table, so each carries what the xid8 pattern needs (its costs are measured
-- apart, on tables of their own).
CREATE TABLE ob1 (id uuid PRIMARY KEY DEFAULT uuidv7(), xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
                  w int NOT NULL, kind text NOT NULL);
CREATE INDEX ob1_xid_id ON ob1 (xid, id);
CREATE TABLE ob2 (LIKE ob1 INCLUDING ALL);
CREATE TABLE ob3 (LIKE ob1 INCLUDING ALL);
CREATE TABLE ob4 (LIKE ob1 INCLUDING ALL);
-- the pass with every setting at its default: ob5 takes ids made by the
-- client (with the guard), ob6 ids made by the server
CREATE TABLE ob5 (LIKE ob1 INCLUDING ALL);
CREATE TABLE ob6 (LIKE ob1 INCLUDING ALL);

-- the end of a pass: outbox.pl adds the pass here (on the primary and on
-- the subscriber) once its writers are done and every reader has had time
-- to read their last rows
CREATE TABLE ob_stop (pass text PRIMARY KEY);

-- One reader: polls every "poll" seconds until its pass is in ob_stop (or
-- an hour has passed), at most 5000 rows a poll, and records what it read,
-- with the time it read it (clock_timestamp() after the query).  Each poll
-- is its own transaction.
--   id > last            the naive cursor
--   lag 1 s              id > last AND id < the smallest id of (now - 1 s)
--   xid8                 (xid, id) > (last_xid, last_id) AND xid < pg_snapshot_xmin(pg_current_snapshot())
--   xid8 standby         the same on the streaming standby (through dblink to "conn")
--   logical slot         pg_logical_slot_get_changes() of slot ob_slot (test_decoding), the INSERTs into tbl
--   pg_uuidx primary     pg_uuidx_read_after() on the primary
--   pg_uuidx standby     pg_uuidx_read_after() on the streaming standby (through dblink to "conn")
--   pg_uuidx subscriber  pg_uuidx_read_after(..., from_tick => true) on the logical subscriber
CREATE PROCEDURE ob_read(reader text, pass text, tbl text, poll float8, conn text DEFAULT NULL)
LANGUAGE plpgsql AS $$
DECLARE
    last uuid;
    last_xid xid8;
    n bigint := 0;
    ids uuid[];
    xids xid8[];
    t timestamptz;
    stop timestamptz := clock_timestamp() + interval '1 h';
BEGIN
    IF reader IN ('pg_uuidx standby', 'xid8 standby') THEN
        PERFORM dblink_connect('ob_standby', conn);
    END IF;
    WHILE clock_timestamp() < stop AND NOT EXISTS (SELECT FROM ob_stop s WHERE s.pass = ob_read.pass) LOOP
        ids := NULL;
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
        END CASE;
        t := clock_timestamp();
        IF ids IS NOT NULL THEN
            INSERT INTO seen SELECT reader, pass, n + u.o, u.i, t FROM unnest(ids) WITH ORDINALITY AS u(i, o);
            n := n + cardinality(ids);
            last := ids[cardinality(ids)];
            IF reader IN ('xid8', 'xid8 standby') THEN
                last_xid := xids[cardinality(xids)];
            END IF;
        END IF;
        COMMIT;
        PERFORM pg_sleep(poll);
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
