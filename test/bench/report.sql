-- report.sql: the Markdown body of report.md, from the result tables.
-- bench.pl runs it with psql -At (unaligned, no headers) and adds the header
-- before it, and the static-state table (which follows the memory section,
-- last here) and the charts after it.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)

SELECT count(*) > 0 AS has_gen FROM gen_time \gset
SELECT count(*) > 0 AS has_mem FROM mem_result \gset
SELECT count(*) > 0 AS has_conv FROM conv_result \gset
SELECT count(*) > 0 AS has_ins FROM ins_result \gset
SELECT count(*) > 0 AS has_pgb FROM pgb_result \gset

\if :has_gen
SELECT format(E'## Generation and reading\n\n'
              'Each query is `SELECT count(f) FROM generate_series(1, %s) AS g` for generators, '
              'or `SELECT count(f) FROM gen_src` for readers (%s precomputed ids, %s). '
              '%s timed repetitions after one warm-up; in each repetition every query runs once, '
              'the order rotating by one place; times are read with clock_timestamp() around a PL/pgSQL '
              'EXECUTE in one session (jit off, work_mem 1GB so the series stays in memory). '
              'The table shows the median, the fastest and slowest run, and '
              '**ns per call above the floor** = (median − floor median) / rows.',
              to_char(max(rows), 'FM999,999,999'), to_char(max(rows), 'FM999,999,999'),
              (SELECT format('%s MiB, %s', table_bytes / 1048576,
                             CASE WHEN cached THEN 'cached in shared buffers'
                                  ELSE 'over a quarter of shared_buffers, so scanned through a ring buffer from the OS cache' END)
               FROM gen_source),
              count(DISTINCT rep) FILTER (WHERE rep > 0))
FROM gen_time;
\echo
\echo 'Floors: the same query with the function call removed but its arguments kept.'
\echo '`floor` = `count(1)` for argument-less generators; `floor_text` = `count(g::text)` for name-based'
\echo 'functions fed a per-row name `g::text` (the namespace argument is an immutable call folded at plan time);'
\echo '`floor_<col>` = `count(<col>)` over the same table for readers and conversions, whose input is a'
\echo 'precomputed column of varying ids (a constant argument of an immutable function would be folded away).'
\echo
\echo '| expression | floor | median ms | min – max ms | ns/call above floor | × floor query |'
\echo '|---|---|---:|---:|---:|---:|'
SELECT format('| `count(%s)` | %s | %s | %s – %s | %s | %s |',
              expr, floor, median_ms, min_ms, max_ms,
              coalesce(ns_above_floor::text, ''), coalesce(vs_floor_query::text, ''))
FROM report_gen ORDER BY ord;

SELECT E'\npg_uuidx functions not timed here: '
       || string_agg(format('`%s`', p.oid::regprocedure), ', ' ORDER BY p.oid::regprocedure::text) || '.'
FROM pg_depend AS d JOIN pg_proc AS p ON p.oid = d.objid
WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_extension'::regclass
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'pg_uuidx')
  AND NOT EXISTS (SELECT FROM gen_expr, unnest(needs) AS f WHERE to_regprocedure(f) = p.oid)
HAVING count(*) > 0;

\echo
\echo '### Ratios and targets'
\echo
\echo 'Evaluated on the medians above; printed, never asserted.'
\echo
\echo '| check | value | target | result |'
\echo '|---|---:|---:|---|'
WITH g AS (SELECT label, median_ms, ns_above_floor AS ns, vs_floor_query, target_ns FROM report_gen),
v7 AS (SELECT * FROM g WHERE label = 'uuidv7()'),
v6 AS (SELECT * FROM g WHERE label = 'uuidv6()'),
v4 AS (SELECT * FROM g WHERE label = 'gen_random_uuid()'),
x4 AS (SELECT * FROM g WHERE label = 'uuidv4()'),
checks(ord, name, value, target, pass) AS (
    SELECT 1, 'uuidv7() ns/call above floor ÷ gen_random_uuid()''s',
           round(v7.ns / nullif(v4.ns, 0), 3), '≤ 0.1', v7.ns <= v4.ns / 10
    FROM v7, v4
    UNION ALL
    SELECT 2, 'uuidv7() query ÷ floor query', v7.vs_floor_query, '≤ 1.5', v7.vs_floor_query <= 1.5
    FROM v7
    UNION ALL
    SELECT 3, 'uuidv6() ns/call above floor ÷ uuidv7()''s',
           round(v6.ns / nullif(v7.ns, 0), 2), '≤ 1.2', v6.ns <= 1.2 * v7.ns
    FROM v6, v7
    UNION ALL
    SELECT 4, 'uuidv6() query ÷ uuidv7() query (for information)',
           round((v6.median_ms / v7.median_ms)::numeric, 2), '', NULL
    FROM v6, v7
    UNION ALL
    SELECT 5, 'uuidv4() ns/call above floor ÷ gen_random_uuid()''s (for information)',
           round(x4.ns / nullif(v4.ns, 0), 3), '', NULL
    FROM x4, v4
    UNION ALL
    SELECT 10 + row_number() OVER (ORDER BY label), label || ' ns/call above floor',
           ns, '≤ ' || target_ns, ns <= target_ns
    FROM g WHERE target_ns IS NOT NULL
)
SELECT format('| %s | %s | %s | %s |', name, coalesce(value::text, 'n/a'), target,
              CASE WHEN pass THEN 'PASS' WHEN NOT pass THEN 'MISS' ELSE '' END)
FROM checks ORDER BY ord;

\echo
\echo 'Cross-check: the same query text sent by psql as a top-level statement (one run each, client round trip included).'
\echo
\echo '| query | EXECUTE median ms | top-level ms |'
\echo '|---|---:|---:|'
SELECT format('| %s | %s | %s |', t.label, r.median_ms, round(t.ms::numeric, 1))
FROM gen_toplevel AS t JOIN report_gen AS r USING (label) ORDER BY r.ord;
\echo
\endif

\if :has_conv
\echo '## Conversion v1 → v6'
\echo
\echo 'A table of version 1 ids (uuid-ossp''s `uuid_generate_v1()` when installed), each statement after a checkpoint.'
\echo
\echo '| statement | rows | seconds | rows/s | all version 6 |'
\echo '|---|---:|---:|---:|---|'
SELECT format('| `%s` | %s | %s | %s | %s |', method, to_char(rows, 'FM999,999,999'),
              round(seconds::numeric, 2), to_char(rows / seconds, 'FM999,999,999'),
              CASE version6 WHEN true THEN 'yes' WHEN false THEN '**no**' ELSE '' END)
FROM conv_result ORDER BY ord;
\echo
\endif

\if :has_ins
\echo '## Inserts'
\echo
\echo 'A fresh table `(id <key> PRIMARY KEY, payload integer)` per key type, loaded with `INSERT ... SELECT`'
\echo 'statements of the batch size, each its own transaction, after a checkpoint. WAL is the LSN difference'
\echo 'over the load; leaf density and fragmentation of the primary key come from `pgstatindex`; checkpoints'
\echo 'counts those that happened during the load (timed or WAL-triggered).'
\echo
\echo '| key | rows | seconds | rows/s | index MiB | table MiB | leaf density % | leaf fragmentation % | WAL MiB | WAL bytes/row | checkpoints |'
\echo '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|'
SELECT format('| `%s` | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |', key, to_char(rows, 'FM999,999,999'),
              seconds, to_char(rows_per_s, 'FM999,999,999'), index_mib, table_mib,
              coalesce(leaf_density_pct::text, 'n/a'), coalesce(leaf_fragmentation_pct::text, 'n/a'),
              wal_mib, wal_bytes_per_row, checkpoints)
FROM report_insert ORDER BY ord;
\echo
\endif

\if :has_pgb
SELECT format(E'## Concurrency (pgbench)\n\n'
              '`INSERT INTO pb DEFAULT VALUES` (one row a transaction, `-M prepared`), %s s per run. '
              'Each run starts from a fresh table preloaded with %s rows and a checkpoint; '
              'v4 and v7 alternate which goes first. WAL per transaction includes the full-page images '
              'written for the first change to each index page after the checkpoint.',
              max(seconds), to_char(max(preload), 'FM999,999,999,990'))
FROM pgb_result;
\echo
\echo '| clients | gen_random_uuid() tps | uuidv7() tps | v7 ÷ v4 | v4 latency ms | v7 latency ms | v4 WAL bytes/tx | v7 WAL bytes/tx |'
\echo '|---:|---:|---:|---:|---:|---:|---:|---:|'
SELECT format('| %s | %s | %s | %s | %s | %s | %s | %s |', clients, v4_tps, v7_tps,
              round((v7_tps / nullif(v4_tps, 0))::numeric, 2), v4_latency_ms, v7_latency_ms,
              v4_wal_bytes_per_tx, v7_wal_bytes_per_tx)
FROM report_pgbench ORDER BY clients;
\echo
\endif

\if :has_mem
\echo '## Per-backend memory'
\echo
\echo 'One session reads its own memory: `pg_backend_memory_contexts` (palloc) and `/proc/self/status`'
\echo '(RssAnon: private memory, including the library''s static block; VmRSS adds shared buffers and files).'
\echo 'A `count(1)` query of the same size runs twice before the 1k reading, so memory that the executor and malloc'
\echo 'keep after any large query (about 1 MB of RssAnon here, with or without pg_uuidx) is already counted there.'
\echo
\echo '| stage | uuidv7() calls | memory contexts, bytes | RssAnon kB | VmRSS kB | VmHWM kB |'
\echo '|---|---:|---:|---:|---:|---:|'
SELECT format('| %s | %s | %s | %s | %s | %s |', stage, to_char(calls, 'FM999,999,999,990'),
              to_char(context_bytes, 'FM999,999,999,990'), rss_anon_kb, rss_kb, hwm_kb)
FROM mem_result ORDER BY ord;
WITH r AS (SELECT ord, context_bytes AS ctx, rss_anon_kb AS anon FROM mem_result)
SELECT format(E'\nGrowth over the first n calls after the 1k reading: memory contexts %s bytes, RssAnon %s kB; '
              'over the second n calls: %s bytes, %s kB. Memory that grew with calls would grow by the same '
              'amount in both.',
              to_char(r2.ctx - r1.ctx, 'FMS999,999,990'), to_char(r2.anon - r1.anon, 'FMS999,999,990'),
              to_char(r3.ctx - r2.ctx, 'FMS999,999,990'), to_char(r3.anon - r2.anon, 'FMS999,999,990'))
FROM r AS r1, r AS r2, r AS r3
WHERE r1.ord = 1 AND r2.ord = 2 AND r3.ord = 3;
\echo
WITH c AS (
    SELECT ord, name || coalesce(' (' || left(regexp_replace(ident, '[|\s]+', ' ', 'g'), 40) || ')', '') AS context,
           level, sum(total_bytes) AS bytes
    FROM mem_context WHERE ord IN (1, 3) GROUP BY 1, 2, 3
)
SELECT format(E'Memory contexts whose size differs between the 1k reading and the last one:\n\n'
              || E'| context | level | bytes after 1k | bytes at the end |\n|---|---:|---:|---:|\n%s',
              string_agg(format('| %s | %s | %s | %s |', context, level,
                                coalesce(a.bytes::text, 'absent'), coalesce(b.bytes::text, 'absent')),
                         E'\n' ORDER BY level, context))
FROM (SELECT * FROM c WHERE ord = 1) AS a
FULL JOIN (SELECT * FROM c WHERE ord = 3) AS b USING (context, level)
WHERE a.bytes IS DISTINCT FROM b.bytes
HAVING count(*) > 0;
\echo
\endif
