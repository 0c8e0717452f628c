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
FROM hz_cost GROUP BY setting ORDER BY min(rep), setting DESC;
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
