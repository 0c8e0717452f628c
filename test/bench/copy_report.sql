-- test/bench/copy_report.sql: the copy phase's section of the report
-- (bench.pl passes :n, the rows a COPY, :reps, the repetitions, and :goal,
-- the target of the guard after the row with its WHEN condition, which
-- docs/reading-in-order.md tells COPY users to declare, against the plain
-- table).
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
\pset tuples_only on
\pset format unaligned
\echo '## Bulk loads: COPY into a guarded table'
\echo
SELECT format('`COPY cp (id, n, note) FROM` a file of %s rows whose ids were made before it (by `uuidv7()` in '
              'another transaction, as a client''s are), into a fresh table with a uuid primary key, after a '
              'CHECKPOINT, every setting at its default; ms from the client (psql '
              'started, COPY, commit), median of %s interleaved repetitions, against the plain table of the same run.',
              :'n', :'reps');
\echo
\echo '| table | COPY ms | against plain | rows |'
\echo '|---|---:|---:|---:|'
WITH m AS (SELECT variant, min(ord) AS ord, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms, max(rows) AS rows
           FROM cp_time GROUP BY variant)
SELECT format('| %s | %s | %s | %s |', variant, round(ms::numeric),
              to_char(ms / (SELECT ms FROM m WHERE variant = 'plain'), 'FM0.00') || 'x', rows)
FROM m ORDER BY ord;
\echo
WITH m AS (SELECT variant, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms FROM cp_time GROUP BY variant)
SELECT format('The guard after the row with its WHEN condition, which COPY users are told to declare, costs %s x '
              'the plain table (target: at most %s; %s); as pg_uuidx_add_guard() declares it, without the condition, '
              '%s x; the guard before the row %s x.',
              to_char(a.ms / p.ms, 'FM0.00'), :'goal',
              CASE WHEN a.ms / p.ms <= :'goal'::float8 THEN 'PASS' ELSE 'MISS' END,
              to_char(n.ms / p.ms, 'FM0.00'), to_char(b.ms / p.ms, 'FM0.00'))
FROM m p, m a, m n, m b
WHERE p.variant = 'plain' AND a.variant = '+ guard after the row, WHEN' AND n.variant = '+ pg_uuidx_add_guard()'
  AND b.variant = '+ guard before the row';
\echo
