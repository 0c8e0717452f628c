-- test/bench/outbox_report.sql: the outbox phase's section of the report,
-- run by test/bench/outbox.pl on the phase's primary (psql -At) with the
-- variables it passes: readers (comma-separated, in report order),
-- seconds, clients, poll, cost_seconds, cost_reps, allowance, guard,
-- tick, version, ext, writers1, writers2, writers3, writersdefaults,
-- writerssame (pgbench's figures); for the pass with every setting at its
-- default, default_readers, refusals, setup_xid8 and setup_pg_uuidx (the
-- setup statements, counted and listed); for the same settings with one
-- table written, same_readers, load_same_start and load_same_end (the load
-- average); load_start and load_end (the phase's); ran_costs, ran_passes,
-- ran_stalls, ran_defaults, ran_same (on or off: the parts that ran).
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
-- every committed row for every reader, with when that reader first read
-- it and how often (a hash join once, not a join per reader and pass)
CREATE TEMP TABLE ob_lag AS
SELECT r.reader, r.ord, c.pass, c.id, c.kind, c.committed_at, f.read_at, coalesce(f.n, 0) AS n,
       extract(epoch FROM f.read_at - c.committed_at) * 1000 AS ms
FROM committed c
CROSS JOIN (SELECT reader, min(ord) AS ord
            FROM unnest(string_to_array(:'readers' || ',' || :'default_readers' || ',' || :'same_readers', ','))
                 WITH ORDINALITY AS u(reader, ord)
            GROUP BY reader) r
LEFT JOIN (SELECT reader, pass, id, min(read_at) AS read_at, count(*) AS n FROM seen GROUP BY 1, 2, 3) f
       ON f.reader = r.reader AND f.pass = c.pass AND f.id = c.id;
ANALYZE ob_lag;
-- When each row of the passes at defaults could first be read by each
-- reader's rule, from the rows' own times, without polls: every
-- transaction there wrote one row.  A transaction holds from when its
-- statement began until it commits: xid8's readers with its xid,
-- pg_uuidx's at its id's time (pg_uuidx_add_guard()'s statement trigger
-- publishes the clock just before the default makes the id; the guard
-- trigger publishes the id of the client, made earlier).  xid8 reads a
-- row once no transaction of a smaller xid is open, pg_uuidx once none
-- held at most at the row's id's time is, and its table's allowance has
-- passed the id (1 s for the table of client ids).  The transactions of
-- the ticker and of the readers' records are left out.
CREATE TEMP TABLE ob_tx AS
SELECT CASE WHEN pass LIKE 'defaults%' THEN 'defaults' ELSE pass END AS run, pass, id, xid, at AS began,
       uuid_extract_timestamp_us(id) AS id_time,
       committed_at AS ended,
       CASE pass WHEN 'defaults: client ids' THEN interval '1 s' ELSE interval '0' END AS allowance
FROM committed WHERE pass LIKE 'defaults%' OR pass = 'same table, defaults';
CREATE TEMP TABLE ob_model AS
SELECT r.pass, m.rule,
       extract(epoch FROM (SELECT c.t
                           FROM (SELECT m.earliest AS t
                                 UNION ALL
                                 SELECT b.ended FROM ob_tx b
                                 WHERE b.run = r.run AND b.ended > m.earliest AND b.ended < m.earliest + interval '30 s'
                                 ORDER BY 1 OFFSET 0) c
                           WHERE NOT EXISTS (SELECT FROM ob_tx b
                                             WHERE b.run = r.run AND b.began <= c.t AND b.ended > c.t
                                               AND CASE m.rule WHEN 'xid8' THEN b.xid < r.xid
                                                               ELSE b.id_time <= r.id_time END)
                           LIMIT 1) - r.ended) * 1000 AS ms
FROM ob_tx r
CROSS JOIN LATERAL (VALUES ('xid8', r.ended), ('pg_uuidx', greatest(r.ended, r.id_time + r.allowance))) AS m(rule, earliest);
\echo '## Reading in order: the outbox patterns'
\echo
SELECT format('%s, pg_uuidx %s. Readers poll every %s ms side by side, each in the same loop (at most 5000 rows a '
              'poll), on one primary (wal_level=logical, track_commit_timestamp=on, fsync on), its streaming standby '
              'and (passes 1-3, stalls, defaults) a logical subscriber; ticks every 100 ms on the primary%s. Load '
              'average (1, 5, 15 min) %s at the start of the phase, %s at its end.', :'version', :'ext', :'poll',
              CASE :'tick' WHEN 'on' THEN ' (`pg_uuidx_tick()` in a loop, the built-in ticker in the passes at '
                                          'defaults)'
                   ELSE ' (not installed: no standby or subscriber reader)' END,
              :'load_start', :'load_end');
\echo
\echo 'Lag: read time minus commit time (`pg_xact_commit_timestamp(xmin)` on the primary, for readers on a standby or'
\echo 'a subscriber too), ms, over the rows read. Missed: committed rows the reader never returned, counted 3 s after'
\echo 'the writers were done.'
\echo
\if :ran_passes
SELECT format('Writers, %s s a pass: %s pgbench clients of short transactions (1-3 rows, 0-20 ms apart; weight 80) '
              'and two-phase ones (1-3 rows, COMMIT PREPARED 50-500 ms after PREPARE; weight 20), 2 clients of long '
              'ones (one row, open 2-5 s, after a pause of 1-10 s). Pass 1: ids made by the server in the inserting transaction '
              '(`DEFAULT uuidv7()`), the table guarded by `pg_uuidx_add_guard()` (allowance 0): %s. Pass 2: the '
              'same with ids made by the client 0-200 ms before the transaction (`SELECT uuidv7() ... \gset`), '
              'guard trigger %s (without arguments: `pg_uuidx.horizon_allowance`, 1 s), pgbench `--max-tries=20` '
              'retrying refusals (40001): %s. Pass 3: pass 2 with a guard trigger allowing %s ms (its third '
              'argument): %s.',
              :'seconds', :'clients'::int - 2, :'writers1', :'guard', :'writers2', :'allowance', :'writers3');
\echo
SELECT format('Committed: %s.', string_agg(format('%s %s rows (%s)', pass, n, kinds), '; ' ORDER BY pass))
FROM (SELECT pass, sum(n) AS n, string_agg(format('%s %s', n, kind), ', ' ORDER BY kind) AS kinds
      FROM (SELECT pass, kind, count(*) AS n FROM committed WHERE pass LIKE 'pass %' GROUP BY 1, 2) k GROUP BY pass) p;
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
\endif
\if :ran_defaults
\echo '### Every setting at its default'
\echo
SELECT format('The setup of docs/outbox.md and nothing else: `pg_uuidx.horizon_allowance` not set (1 s), the built-in '
              'ticker (`pg_uuidx.tick_interval` 100 ms). Writers for %s s: %s pgbench clients insert ids they made '
              '0-1.5 s before (`SELECT uuidv7() \gset`, then a pause) into a table with the guard trigger without '
              'arguments (1 s), pgbench `--max-tries=20` retrying refusals (40001); %s clients insert ids of the '
              'server (`DEFAULT uuidv7()`) into another, guarded by `pg_uuidx_add_guard()` (allowance 0); every '
              'transaction stays open 1-3 s after its insert: %s. The guard''s refusals (`pg_uuidx_stats`): %s.',
              :'seconds', :'clients', :'clients', :'writersdefaults', :'refusals');
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
\endif
\if :ran_same
\echo '### Every setting at its default, one table written'
\echo
SELECT format('The same settings; only the writers of server ids write, into a table of their own guarded by '
              '`pg_uuidx_add_guard()` (allowance 0): %s pgbench clients, each transaction one row (`DEFAULT uuidv7()`) '
              'and open 1-3 s after it, for %s s: %s. No writer of any other table, no ticker but the built-in one. '
              'Load average %s at the start of the pass, %s at its end. Polls: how many the reader made; query ms: '
              'its query''s time (before it to the read time), mean and most.',
              :'clients', :'seconds', :'writerssame', :'load_same_start', :'load_same_end');
\echo
\echo '| reader | rows committed | missed | read twice | lag median | lag p99 | lag max | polls | query ms a poll, mean / max |'
\echo '|---|---:|---:|---:|---:|---:|---:|---:|---|'
SELECT format('| %s | %s | %s | %s | %s | %s | %s | %s | %s / %s |', l.reader, count(*), count(*) FILTER (WHERE l.n = 0),
              sum(greatest(l.n - 1, 0)), round(percentile_cont(0.5) WITHIN GROUP (ORDER BY l.ms)::numeric),
              round(percentile_cont(0.99) WITHIN GROUP (ORDER BY l.ms)::numeric), round(max(l.ms)::numeric),
              min(p.polls), round(min(p.query_ms / nullif(p.polls, 0))::numeric, 2), round(min(p.max_query_ms)::numeric, 1))
FROM ob_lag l LEFT JOIN ob_polls p ON p.reader = l.reader AND p.pass = l.pass
WHERE l.pass = 'same table, defaults' AND l.reader = ANY (string_to_array(:'same_readers', ','))
GROUP BY l.ord, l.reader ORDER BY l.ord;
\echo
SELECT format('Paired: xid8 and pg_uuidx in one loop, their queries back to back, taking turns at going first, so '
              'that both see the writes at nearly the same moment. Each row both read, by when pg_uuidx read it: in '
              'an earlier poll than xid8 (more than %s ms before), in the same poll, or in a later one.', :'poll'::int / 2);
\echo
\echo '| pair | rows | pg_uuidx earlier | same poll | pg_uuidx later | pg_uuidx minus xid8, ms: mean / median |'
\echo '|---|---:|---:|---:|---:|---|'
SELECT format('| %s | %s | %s | %s | %s | %s / %s |', p.pair, count(*), count(*) FILTER (WHERE d < -:'poll'::int / 2.0),
              count(*) FILTER (WHERE abs(d) <= :'poll'::int / 2.0), count(*) FILTER (WHERE d > :'poll'::int / 2.0),
              round(avg(d)::numeric, 1), round(percentile_cont(0.5) WITHIN GROUP (ORDER BY d)::numeric, 1))
FROM (VALUES ('primary', 'xid8 (paired)', 'pg_uuidx primary (paired)', 1),
             ('standby', 'xid8 standby (paired)', 'pg_uuidx standby (paired)', 2)) AS p(pair, x, u, ord)
JOIN LATERAL (SELECT extract(epoch FROM lu.read_at - lx.read_at) * 1000 AS d
              FROM ob_lag lx JOIN ob_lag lu USING (pass, id)
              WHERE lx.pass = 'same table, defaults' AND lx.reader = p.x AND lu.reader = p.u
                AND lx.n > 0 AND lu.n > 0) r ON true
GROUP BY p.ord, p.pair ORDER BY p.ord;
\echo
\endif
SELECT :'ran_defaults' OR :'ran_same' AS ran_model \gset
\if :ran_model
\echo '### The lag each rule allows, modelled'
\echo
\echo 'The passes at defaults: when each rule lets a row be read, from the rows'' own times (the statement''s start,'
\echo 'the id''s time, the xid, the commit), without polls: xid8 once no transaction of a smaller xid is open; pg_uuidx'
\echo 'once none that holds the horizon at most at the row''s id''s time is (each transaction holds it at its id''s time'
\echo 'from its statement''s start: for ids made by the client, up to the allowance earlier), and the table''s allowance'
\echo 'has passed. Transactions of the ticker and of the readers'' records are left out. Against it, what the readers'
\echo 'on the primary measured (which adds their polls).'
\echo
\echo '| table | rule | modelled lag median | modelled p99 | measured median | measured p99 |'
\echo '|---|---|---:|---:|---:|---:|'
SELECT format('| %s | %s | %s | %s | %s | %s |', m.pass, m.rule, round(percentile_cont(0.5) WITHIN GROUP (ORDER BY m.ms)::numeric),
              round(percentile_cont(0.99) WITHIN GROUP (ORDER BY m.ms)::numeric),
              (SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY l.ms)::numeric) FROM ob_lag l
               WHERE l.pass = m.pass AND l.reader = CASE m.rule WHEN 'xid8' THEN 'xid8' ELSE 'pg_uuidx primary' END),
              (SELECT round(percentile_cont(0.99) WITHIN GROUP (ORDER BY l.ms)::numeric) FROM ob_lag l
               WHERE l.pass = m.pass AND l.reader = CASE m.rule WHEN 'xid8' THEN 'xid8' ELSE 'pg_uuidx primary' END))
FROM ob_model m
GROUP BY m.pass, m.rule ORDER BY m.pass DESC, m.rule DESC;
\echo
\endif
\if :ran_costs
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
\endif
\if :ran_stalls
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
\endif
