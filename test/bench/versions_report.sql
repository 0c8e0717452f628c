-- versions_report.sql: the versions phase's table, from ver_time (bench.pl
-- fills it from both databases' ver_run rows; rep 0 is not reported, as
-- elsewhere).  Per measure and version the median over the repetitions;
-- ns per call above the floor's median, or for 'plan' µs per planning;
-- head/base of those, PASS at most the goal; a head time not above its
-- floor is "below floor" (a PASS), a base time not above it '?' (too few
-- rows for this machine's noise).  psql
-- variables: base, goal.
\echo
\echo '| measure | base ns | head ns | head/base | goal | |'
\echo '|---|---:|---:|---:|---:|---|'
WITH med AS (
    SELECT version, label, max(kind) AS kind, max(floor) AS floor, max(ord) AS ord, max(units) AS units,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms
    FROM ver_time WHERE rep > 0 GROUP BY version, label
), per_call AS (
    SELECT m.version, m.label, m.ord, m.kind,
           CASE WHEN m.kind = 'plan' THEN m.ms * 1e6 / m.units
                ELSE (m.ms - coalesce(f.ms, 0)) * 1e6 / m.units END AS ns
    FROM med AS m LEFT JOIN med AS f ON f.version = m.version AND f.label = m.floor
    WHERE m.floor IS NOT NULL OR m.kind = 'plan'
)
SELECT format('| %s%s | %s | %s | %s | %s | %s |',
              b.label, CASE WHEN b.kind = 'plan' THEN ' (ns per planning)' ELSE '' END,
              round(b.ns::numeric, 1), round(h.ns::numeric, 1),
              CASE WHEN b.ns <= 0 THEN '?' WHEN h.ns <= 0 THEN 'below floor'
                   ELSE round((h.ns / b.ns)::numeric, 3)::text END, :'goal',
              CASE WHEN b.ns <= 0 THEN '?' WHEN h.ns <= 0 OR h.ns / b.ns <= :goal THEN 'PASS' ELSE 'MISS' END)
FROM per_call AS b
JOIN per_call AS h ON h.label = b.label AND h.version = 'head'
WHERE b.version = 'base'
ORDER BY b.ord \g (format=unaligned tuples_only)
\echo
SELECT format('base: %s; ns per call above a floor query (the same query with the call taken out), '
              'medians of %s interleaved repetitions, each a new session per version; PASS: head/base at most %s.',
              :'base', max(rep), :'goal')
FROM ver_time \g (format=unaligned tuples_only)
