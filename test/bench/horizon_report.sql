-- test/bench/horizon_report.sql: the horizon phase's section of the report
-- (bench.pl passes :tps, the busy writers' transactions a second, and
-- :holders, what pg_uuidx_horizon_holders() said during the long transaction).
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
\pset tuples_only on
\pset format unaligned
\echo '## Commit horizon'
\echo
\echo 'ns per call above a floor query (`count(random())`), median of the repetitions:'
\echo
\echo '| setting | uuidv7_horizon() | uuidv6_horizon() |'
\echo '|---|---:|---:|'
SELECT format('| %s | %s | %s |', setting,
              round((percentile_cont(0.5) WITHIN GROUP (ORDER BY ns) FILTER (WHERE expr = 'uuidv7_horizon()'))::numeric),
              round((percentile_cont(0.5) WITHIN GROUP (ORDER BY ns) FILTER (WHERE expr = 'uuidv6_horizon()'))::numeric))
FROM hz_cost GROUP BY setting ORDER BY min(at);
\echo
-- 17+: bench.pl measured after an install in place
WITH m AS (SELECT setting, percentile_cont(0.5) WITHIN GROUP (ORDER BY ns) ns
           FROM hz_cost WHERE expr = 'uuidv7_horizon()' GROUP BY setting)
SELECT format('After an install in place, `uuidv7_horizon()` costs %s x a fresh start while a session from before it '
              'is connected, and %s x once it has ended (target: at most 1.10, %s).',
              round((b.ns / f.ns)::numeric, 2), round((a.ns / f.ns)::numeric, 2),
              CASE WHEN a.ns / f.ns <= 1.10 THEN 'PASS' ELSE 'MISS' END)
FROM m f, m b, m a
WHERE f.setting = 'idle server' AND b.setting LIKE 'installed in place, a session%'
  AND a.setting LIKE 'installed in place, that session%';
\echo
SELECT format('How far the horizon trails the clock (ms, sampled every 10 ms; the busy writers ran %s transactions a second, two rows each, 0-20 ms apart):', :'tps');
\echo
\echo '| while | samples | median | p99 | max | holders (median) |'
\echo '|---|---:|---:|---:|---:|---:|'
SELECT format('| %s | %s | %s | %s | %s | %s |', setting, count(*),
              round(percentile_cont(0.5) WITHIN GROUP (ORDER BY lag_ms)::numeric, 2),
              round(percentile_cont(0.99) WITHIN GROUP (ORDER BY lag_ms)::numeric, 2),
              round(max(lag_ms)::numeric, 2),
              percentile_disc(0.5) WITHIN GROUP (ORDER BY holders))
FROM hz_lag GROUP BY setting ORDER BY min(at);
\echo
SELECT format('`pg_uuidx_horizon_holders()` during the long transaction (holding for more than 2 s): %s.', :'holders');
\echo
