-- setup.sql: extensions, result tables and the views the report reads.
-- Run once by bench.pl in the fresh "bench" database; every phase script
-- writes its measurements into one of the *_result tables below.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)

CREATE EXTENSION pg_uuidx;

-- optional contrib modules: comparisons (uuid-ossp) and leaf density (pgstattuple)
SELECT count(*) FILTER (WHERE name = 'uuid-ossp') > 0 AS has_ossp,
       count(*) FILTER (WHERE name = 'pgstattuple') > 0 AS has_pgstattuple
FROM pg_available_extensions \gset
\if :has_ossp
CREATE EXTENSION "uuid-ossp";
\else
\echo 'uuid-ossp is not available: its functions are left out'
\endif
\if :has_pgstattuple
CREATE EXTENSION pgstattuple;
\else
\echo 'pgstattuple is not available: no leaf density'
\endif

-- A version 1 id built in SQL: the stand-in when uuid-ossp is missing.
-- Gregorian 100-ns time, random clock_seq, random node with the multicast bit.
CREATE FUNCTION bench_v1(i bigint) RETURNS uuid LANGUAGE sql VOLATILE AS $$
    SELECT (lpad(to_hex(t & 4294967295), 8, '0') ||
            lpad(to_hex((t >> 32) & 65535), 4, '0') ||
            lpad(to_hex(((t >> 48) & 4095) | 4096), 4, '0') ||
            lpad(to_hex(32768 | floor(random() * 16384)::int), 4, '0') ||
            lpad(to_hex(floor(random() * 281474976710656)::bigint | 1099511627776), 12, '0'))::uuid
    FROM (SELECT (extract(epoch FROM clock_timestamp()) * 10000000)::bigint
                 + 122192928000000000 + i AS t) AS s
$$;

-- CHECKPOINT, then wait until the statistics count it (the checkpointer
-- reports after waking the requester); returns the number of checkpoints.
CREATE FUNCTION bench_checkpoint() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    before bigint;
    after bigint;
BEGIN
    SELECT checkpoints_timed + checkpoints_req INTO before FROM pg_stat_bgwriter;
    CHECKPOINT;
    FOR i IN 1..100 LOOP
        PERFORM pg_stat_clear_snapshot();
        SELECT checkpoints_timed + checkpoints_req INTO after FROM pg_stat_bgwriter;
        EXIT WHEN after > before;
        PERFORM pg_sleep(0.05);
    END LOOP;
    RETURN after;
END
$$;

-- gen.sql: what is timed, and the timings
CREATE TABLE gen_expr (
    ord int PRIMARY KEY,     -- order of the first repetition
    label text UNIQUE NOT NULL,
    expr text NOT NULL,      -- the argument of count()
    src text NOT NULL CHECK (src IN ('series', 'table')),
    floor text,              -- label of the floor query; NULL: this is a floor
    needs text[] NOT NULL,   -- functions that must exist (to_regprocedure)
    target_ns numeric        -- target for ns per call above the floor, if any
);
CREATE TABLE gen_time (rep int, pos int, label text, rows bigint, ms float8);
CREATE TABLE gen_source (table_bytes bigint, cached bool);
CREATE TABLE gen_toplevel (label text, ms float8);

-- memory.sql
CREATE TABLE mem_result (ord int, stage text, calls bigint, context_bytes bigint,
                         rss_kb bigint, rss_anon_kb bigint, hwm_kb bigint);
CREATE TABLE mem_context (ord int, name text, ident text, level int, total_bytes bigint);

-- convert.sql
CREATE TABLE conv_result (ord int, method text, rows bigint, seconds float8, version6 bool);

-- insert.sql
CREATE TABLE ins_result (ord serial, key text, rows bigint, seconds float8,
                         table_bytes bigint, index_bytes bigint,
                         leaf_density float8, leaf_fragmentation float8,
                         wal_bytes numeric, checkpoints bigint);

-- bench.pl, pgbench phase
CREATE TABLE pgb_result (key text, clients int, threads int, seconds int, preload bigint,
                         tps float8, latency_ms float8, rows bigint, wal_bytes numeric);

-- Medians over the timed repetitions (rep 0 is the warm-up), and ns per call
-- above the floor: (median query time - median floor time) / rows.
CREATE VIEW report_gen AS
WITH med AS (
    SELECT label,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS median_ms,
           min(ms) AS min_ms, max(ms) AS max_ms, max(rows) AS rows
    FROM gen_time WHERE rep > 0 GROUP BY label
)
SELECT e.ord, e.label, e.expr, e.src, coalesce(e.floor, '') AS floor,
       round(m.median_ms::numeric, 1) AS median_ms,
       round(m.min_ms::numeric, 1) AS min_ms, round(m.max_ms::numeric, 1) AS max_ms,
       round(((m.median_ms - f.median_ms) * 1e6 / m.rows)::numeric, 1) AS ns_above_floor,
       round((m.median_ms / f.median_ms)::numeric, 2) AS vs_floor_query,
       e.target_ns
FROM gen_expr e
JOIN med m USING (label)
LEFT JOIN med f ON f.label = e.floor;

CREATE VIEW report_insert AS
SELECT ord, key, rows, round(seconds::numeric, 1) AS seconds,
       round(rows / seconds) AS rows_per_s,
       round(index_bytes / 1048576.0, 1) AS index_mib,
       round(table_bytes / 1048576.0, 1) AS table_mib,
       round(leaf_density::numeric, 1) AS leaf_density_pct,
       round(leaf_fragmentation::numeric, 1) AS leaf_fragmentation_pct,
       round(wal_bytes / 1048576.0, 1) AS wal_mib,
       round(wal_bytes / rows, 1) AS wal_bytes_per_row,
       checkpoints
FROM ins_result;

CREATE VIEW report_pgbench AS
SELECT clients,
       max(round(tps)) FILTER (WHERE key = 'gen_random_uuid()') AS v4_tps,
       max(round(tps)) FILTER (WHERE key = 'uuidv7()') AS v7_tps,
       max(round(latency_ms::numeric, 3)) FILTER (WHERE key = 'gen_random_uuid()') AS v4_latency_ms,
       max(round(latency_ms::numeric, 3)) FILTER (WHERE key = 'uuidv7()') AS v7_latency_ms,
       max(round(wal_bytes / nullif(rows, 0))) FILTER (WHERE key = 'gen_random_uuid()') AS v4_wal_bytes_per_tx,
       max(round(wal_bytes / nullif(rows, 0))) FILTER (WHERE key = 'uuidv7()') AS v7_wal_bytes_per_tx
FROM pgb_result GROUP BY clients;
