-- test/bench/outbox_report.sql: the outbox phase's section of the report,
-- run by test/bench/outbox.pl on the phase's primary (psql -At) with the
-- variables it passes: readers (comma-separated, in report order),
-- seconds, clients, poll, cost_seconds, cost_reps, allowance, guard,
-- tick, version, ext, writers1, writers2, writers3, writersdefaults
-- (pgbench's figures); for the pass with every setting at its default,
-- default_readers, refusals, setup_xid8 and setup_pg_uuidx (the setup
-- statements, counted and listed).
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
-- every committed row for every reader, with when that reader first read
-- it and how often (a hash join once, not a join per reader and pass)
CREATE TEMP TABLE ob_lag AS
SELECT r.reader, r.ord, c.pass, c.id, c.kind, c.committed_at, f.read_at, coalesce(f.n, 0) AS n,
       extract(epoch FROM f.read_at - c.committed_at) * 1000 AS ms
FROM committed c
CROSS JOIN (SELECT reader, min(ord) AS ord
            FROM unnest(string_to_array(:'readers' || ',' || :'default_readers', ',')) WITH ORDINALITY AS u(reader, ord)
            GROUP BY reader) r
LEFT JOIN (SELECT reader, pass, id, min(read_at) AS read_at, count(*) AS n FROM seen GROUP BY 1, 2, 3) f
       ON f.reader = r.reader AND f.pass = c.pass AND f.id = c.id;
ANALYZE ob_lag;
\echo '## Reading in order: the outbox patterns'
\echo
SELECT format('%s, pg_uuidx %s. Readers poll every %s ms side by side on one primary (wal_level=logical, '
              'track_commit_timestamp=on, fsync on), its streaming standby and a logical subscriber; ticks '
              '(`pg_uuidx_tick()`) every 100 ms on the primary%s.', :'version', :'ext', :'poll',
              CASE :'tick' WHEN 'on' THEN '' ELSE ' (not installed: no standby or subscriber reader)' END);
\echo
SELECT format('Writers, %s s a pass: %s pgbench clients of short transactions (1-3 rows, 0-20 ms apart; weight 80) '
              'and two-phase ones (1-3 rows, COMMIT PREPARED 50-500 ms after PREPARE; weight 20), 2 clients of long '
              'ones (one row, open 2-5 s, after a pause of 1-10 s). Pass 1: ids made by the server in the inserting transaction '
              '(`DEFAULT uuidv7()`): %s. Pass 2: the same with ids made by the client 0-200 ms before the '
              'transaction (`SELECT uuidv7() ... \gset`), guard trigger %s, pgbench `--max-tries=20` retrying '
              'refusals (40001): %s. Pass 3: pass 2 with `pg_uuidx.horizon_allowance = %sms` (default 1 s): %s.',
              :'seconds', :'clients'::int - 2, :'writers1', :'guard', :'writers2', :'allowance', :'writers3');
\echo
SELECT format('Committed: %s.', string_agg(format('%s %s rows (%s)', pass, n, kinds), '; ' ORDER BY pass))
FROM (SELECT pass, sum(n) AS n, string_agg(format('%s %s', n, kind), ', ' ORDER BY kind) AS kinds
      FROM (SELECT pass, kind, count(*) AS n FROM committed WHERE pass LIKE 'pass %' GROUP BY 1, 2) k GROUP BY pass) p;
\echo
\echo 'Lag: read time minus commit time (`pg_xact_commit_timestamp(xmin)` on the primary), ms, over the rows read.'
\echo
\echo '| reader | pass | rows committed | missed | of them long, 2pc | read twice | lag median | lag p99 | lag max |'
\echo '|---|---|---:|---:|---:|---:|---:|---:|---:|'
SELECT format('| %s | %s | %s | %s | %s, %s | %s | %s | %s | %s |', reader, pass, count(*), count(*) FILTER (WHERE n = 0),
              count(*) FILTER (WHERE n = 0 AND kind = 'long'), count(*) FILTER (WHERE n = 0 AND kind = '2pc'),
              sum(greatest(n - 1, 0)), round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric),
              round(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms)::numeric), round(max(ms)::numeric))
FROM ob_lag WHERE pass LIKE 'pass %' AND reader = ANY (string_to_array(:'readers', ','))
GROUP BY pass, ord, reader ORDER BY pass, ord;
\echo
\echo '### Every setting at its default'
\echo
SELECT format('The setup of docs/outbox.md and nothing else: `pg_uuidx.horizon_allowance` not set (1 s), the guard '
              'without arguments, the built-in ticker (`pg_uuidx.tick_interval` 100 ms). Writers for %s s: %s pgbench '
              'clients insert ids they made 0-1.5 s before (`SELECT uuidv7() \gset`, then a pause) into a guarded '
              'table, pgbench `--max-tries=20` retrying refusals (40001); %s clients insert ids of the server '
              '(`DEFAULT uuidv7()`) into another; every transaction stays open 1-3 s after its insert: %s. The '
              'guard''s refusals (`pg_uuidx_stats`): %s. Lag as above; on the standby too, against the commit time '
              'on the primary.', :'seconds', :'clients', :'clients', :'writersdefaults', :'refusals');
\echo
\echo '| table | reader | rows committed | missed | read twice | lag median | lag p99 |'
\echo '|---|---|---:|---:|---:|---:|---:|'
SELECT format('| %s | %s | %s | %s | %s | %s | %s |', substring(pass FROM 11), reader, count(*), count(*) FILTER (WHERE n = 0),
              sum(greatest(n - 1, 0)), round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric),
              round(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms)::numeric))
FROM ob_lag WHERE pass LIKE 'defaults%' AND reader = ANY (string_to_array(:'default_readers', ','))
GROUP BY pass, ord, reader ORDER BY pass DESC, ord;
\echo
SELECT format('Setup statements, beyond the table: the xid8 pattern %s. pg_uuidx %s.', :'setup_xid8', :'setup_pg_uuidx');
\echo
SELECT format('What each needs, measured apart: %s pgbench clients of single-row INSERTs for %s s into a fresh '
              'table, %s interleaved repetitions (medians), after a CHECKPOINT (so WAL includes full-page images); '
              'bytes a row: heap + indexes; WAL a row: all WAL of the run (the ticker''s included) over the rows.',
              :'clients', :'cost_seconds', :'cost_reps');
\echo
\echo '| table | insert tps | against plain | bytes a row | WAL bytes a row |'
\echo '|---|---:|---:|---:|---:|'
WITH m AS (SELECT variant, min(ord) AS first,
                  percentile_cont(0.5) WITHIN GROUP (ORDER BY tps) AS tps,
                  percentile_cont(0.5) WITHIN GROUP (ORDER BY bytes::float8 / rows) AS bpr,
                  percentile_cont(0.5) WITHIN GROUP (ORDER BY wal_bytes::float8 / rows) AS wpr
           FROM ob_cost GROUP BY variant)
SELECT format('| %s | %s | %s | %s | %s |', variant, round(tps::numeric), to_char(tps / (SELECT tps FROM m WHERE
              variant = 'plain uuidv7() key'), 'FM0.000') || 'x', round(bpr::numeric, 1), round(wpr::numeric, 1))
FROM m ORDER BY first;
\echo
\echo '### Stalls'
\echo
\echo 'Light writers (2 clients, 100 transactions a second, 1-3 rows each, ids by the server) while each culprit holds;'
\echo 'rows committed during the scenario (the culprit''s own row aside), their lag in ms, and the culprit''s row.'
\echo
\echo '| scenario | reader | rows committed | missed | lag median | lag max | the culprit''s row |'
\echo '|---|---|---:|---:|---:|---:|---|'
SELECT format('| %s | %s | %s | %s | %s | %s | %s |', w.label, l.reader,
              count(*) FILTER (WHERE l.kind <> 'culprit'), count(*) FILTER (WHERE l.kind <> 'culprit' AND l.n = 0),
              round((percentile_cont(0.5) WITHIN GROUP (ORDER BY l.ms) FILTER (WHERE l.kind <> 'culprit'))::numeric),
              round((max(l.ms) FILTER (WHERE l.kind <> 'culprit'))::numeric),
              CASE WHEN w.scenario <> 'idmaker' THEN ''
                   WHEN count(*) FILTER (WHERE l.kind = 'culprit') = 0 THEN 'not committed'
                   WHEN bool_and(l.n = 0) FILTER (WHERE l.kind = 'culprit') THEN 'missed'
                   ELSE format('read %s ms after its commit', round((max(l.ms) FILTER (WHERE l.kind = 'culprit'))::numeric)) END)
FROM ob_window w JOIN ob_lag l ON l.pass = 'stalls' AND l.reader = ANY (string_to_array(:'readers', ','))
     AND (l.committed_at BETWEEN w.since AND w.until OR (w.scenario = 'idmaker' AND l.kind = 'culprit'))
GROUP BY w.ord, w.label, w.scenario, l.ord, l.reader ORDER BY w.ord, l.ord;
\echo
\echo 'What the user sees two thirds into each scenario, on the primary''s database of the outbox: `pg_uuidx_horizon_holders()`;'
\echo '`pg_stat_activity` rows with `backend_xid` set and `xact_start` more than 2 s ago (what holds `pg_snapshot_xmin`);'
\echo 'sessions idle in transaction; `pg_replication_slots`: WAL kept behind each slot''s `restart_lsn`.'
\echo
\echo '| scenario | pg_uuidx_horizon_holders() | transactions with an xid, open > 2 s | idle in transaction | WAL kept by slots |'
\echo '|---|---|---|---:|---|'
SELECT format('| %s | %s | %s | %s | %s |', label, holders, xid_holders, idle_in_xact, coalesce(slot_behind, 'none'))
FROM ob_window ORDER BY ord;
\echo
