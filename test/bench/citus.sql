-- test/bench/citus.sql: the citus phase's objects (test/bench/citus.pl), run
-- on the phase's coordinator once pg_uuidx is there: the table the readers
-- read under writers, the readers' record and their loop.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)

-- read under writers: distributed by its id, ids made by the coordinator
-- (DEFAULT uuidv7()), the guard on every shard
CREATE TABLE ev (id uuid PRIMARY KEY DEFAULT uuidv7(), w int NOT NULL, tx bigint NOT NULL, kind text NOT NULL);
SELECT create_distributed_table('ev', 'id', shard_count => :shards);
CREATE TRIGGER ev_guard BEFORE INSERT OR UPDATE ON ev FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();

-- what each reader read, and when (local tables of the coordinator;
-- unlogged: recording writes no WAL)
CREATE UNLOGGED TABLE seen (reader text NOT NULL, seq bigint NOT NULL, id uuid NOT NULL, read_at timestamptz NOT NULL);
CREATE TABLE reader_errors (reader text, state text, message text, at timestamptz);
CREATE TABLE stop_flag (at timestamptz NOT NULL);

-- One reader of table tbl: polls every "poll" seconds until stop_flag has a
-- row (or an hour has passed), at most "batch" rows a poll, and records what
-- it read with the time it read it (clock_timestamp() after the query);
-- each poll is its own transaction.  A poll that fails is recorded in
-- reader_errors and the reader goes on from where it was.
--   pg_uuidx_read_after()  pg_uuidx_read_after(NULL::tbl, last, batch)
--   id > last              SELECT id FROM tbl WHERE id > last ORDER BY id LIMIT batch
CREATE PROCEDURE cb_read(reader text, tbl regclass, poll float8, batch int) LANGUAGE plpgsql AS $$
DECLARE
    last uuid;
    n bigint := 0;
    ids uuid[];
    r record;
    t timestamptz;
    q text := CASE reader
        WHEN 'pg_uuidx_read_after()' THEN format('SELECT id FROM pg_uuidx_read_after(NULL::%s, $1, %s)', tbl, batch)
        WHEN 'id > last' THEN format('SELECT id FROM %s WHERE $1 IS NULL OR id > $1 ORDER BY id LIMIT %s', tbl, batch)
        END;
    stop timestamptz := clock_timestamp() + interval '1 h';
BEGIN
    IF q IS NULL THEN
        RAISE EXCEPTION 'cb_read: no reader %', reader;
    END IF;
    WHILE clock_timestamp() < stop AND NOT EXISTS (SELECT FROM stop_flag) LOOP
        BEGIN
            ids := '{}';
            FOR r IN EXECUTE q USING last LOOP
                ids := ids || r.id;
            END LOOP;
            t := clock_timestamp();
            IF cardinality(ids) > 0 THEN
                INSERT INTO seen SELECT reader, n + u.o, u.i, t FROM unnest(ids) WITH ORDINALITY AS u(i, o);
                n := n + cardinality(ids);
                last := ids[cardinality(ids)];
            END IF;
        EXCEPTION WHEN OTHERS THEN
            INSERT INTO reader_errors VALUES (reader, SQLSTATE, SQLERRM, clock_timestamp());
        END;
        COMMIT;
        PERFORM pg_sleep(poll);
    END LOOP;
END $$;
