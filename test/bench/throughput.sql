-- test/bench/throughput.sql: the throughput phase's record (test/bench/throughput.pl),
-- in database bench of its primary beside outbox.sql's readers (ob_read,
-- ob_poll, seen, ob_stop).  Each cell (approach, clients, rows a
-- transaction, repetition) is a pass of ob_read's: what committed is copied
-- into tp_committed when the writers are done, the cell's figures go to
-- tp_result, and both the cell's rows in seen and in tp_committed are
-- deleted then, so that the next cell joins small tables.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)

-- what committed in the cell being recorded, with its commit time:
-- unlogged, so that recording it writes no WAL
CREATE UNLOGGED TABLE tp_committed (pass text NOT NULL, id uuid NOT NULL, committed_at timestamptz NOT NULL);

-- one row a cell; the reader's columns are NULL for the approach without one
CREATE TABLE tp_result (approach text NOT NULL, ord int NOT NULL, clients int NOT NULL, rows_per_xact int NOT NULL,
                        rep int NOT NULL, kind text NOT NULL, seconds float8 NOT NULL, tps float8 NOT NULL,
                        retried bigint NOT NULL, committed bigint NOT NULL, wal_bytes numeric NOT NULL,
                        read bigint, missed bigint, twice bigint, lag_median_ms float8, lag_p99_ms float8,
                        lag_first_ms float8, lag_last_ms float8, drain_s float8, reader_eps float8);

-- what the writers pay (throughput.pl's writers alone): the tps of each
-- slice, the approaches of a turn run one after the other
CREATE TABLE tp_cost (approach text NOT NULL, ord int NOT NULL, clients int NOT NULL, turn int NOT NULL,
                      tps float8 NOT NULL);

-- The figures of the cell read by pass from what committed (tp_committed)
-- and what the reader read (seen): missed and read twice, lag from commit to
-- read (median, p99, and the medians of the events committed in the first
-- and the last quarter of the writers' time: a reader that falls behind
-- lags more and more), how long after the writers' end the reader read
-- its last event (drain_s), and its events a second from reader_start (the
-- writers' start, or its own when it ran after them) to its last read.
CREATE FUNCTION tp_record(pass text, approach text, ord int, clients int, rows_per_xact int, rep int, kind text,
                          seconds float8, tps float8, retried bigint, wal_bytes numeric, has_reader bool,
                          writers_end timestamptz, reader_start timestamptz)
RETURNS void LANGUAGE sql AS $$
WITH c AS (SELECT id, committed_at FROM tp_committed WHERE tp_committed.pass = tp_record.pass),
     s AS (SELECT id, min(read_at) AS read_at, count(*) AS n FROM seen WHERE seen.pass = tp_record.pass GROUP BY id),
     span AS (SELECT min(committed_at) AS t0, max(committed_at) AS t1 FROM c),
     j AS (SELECT c.committed_at, s.read_at, coalesce(s.n, 0) AS n,
                  extract(epoch FROM s.read_at - c.committed_at) * 1000 AS lag_ms,
                  (extract(epoch FROM c.committed_at - span.t0) / nullif(extract(epoch FROM span.t1 - span.t0), 0))
                    AS at
           FROM c CROSS JOIN span LEFT JOIN s USING (id))
INSERT INTO tp_result
SELECT approach, ord, clients, rows_per_xact, rep, kind, seconds, tps, retried, (SELECT count(*) FROM c), wal_bytes,
       r.*
FROM (SELECT (SELECT count(*) FROM seen WHERE seen.pass = tp_record.pass),
             count(*) FILTER (WHERE n = 0), count(*) FILTER (WHERE n > 1),
             percentile_cont(0.5) WITHIN GROUP (ORDER BY lag_ms), percentile_cont(0.99) WITHIN GROUP (ORDER BY lag_ms),
             percentile_cont(0.5) WITHIN GROUP (ORDER BY lag_ms) FILTER (WHERE at <= 0.25),
             percentile_cont(0.5) WITHIN GROUP (ORDER BY lag_ms) FILTER (WHERE at >= 0.75),
             greatest(extract(epoch FROM max(read_at) - writers_end), 0),
             (SELECT count(*) FROM seen WHERE seen.pass = tp_record.pass)
               / nullif(extract(epoch FROM max(read_at) - reader_start), 0)
      FROM j) r
WHERE has_reader
UNION ALL
SELECT approach, ord, clients, rows_per_xact, rep, kind, seconds, tps, retried, (SELECT count(*) FROM c), wal_bytes,
       NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
WHERE NOT has_reader;
DELETE FROM seen WHERE seen.pass = tp_record.pass;
DELETE FROM tp_committed WHERE tp_committed.pass = tp_record.pass;
$$;
