-- insert.sql: load n rows into a fresh table keyed by one key type.
-- psql variables: key (name in the report), keydef (column definition of
-- the key, e.g. "uuid DEFAULT uuidv7()"), n (rows), batch (rows a statement).
-- Each batch is its own INSERT ... SELECT statement and transaction, sent by
-- psql (\gexec), as an application loading data would.  A checkpoint comes
-- first, so every key type starts from the same state; WAL is the LSN
-- difference over the batches; the table is dropped afterwards.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)

CREATE TABLE ins_t (id :keydef PRIMARY KEY, payload integer NOT NULL);
SELECT bench_checkpoint() AS ckpt0, pg_current_wal_lsn() AS lsn0 \gset
SELECT clock_timestamp() AS t0 \gset

SELECT format('INSERT INTO ins_t (payload) SELECT g FROM generate_series(%s, %s) AS g',
              s, least(s + :batch - 1, :n))
FROM generate_series(1, :n, :batch) AS s \gexec

SELECT extract(epoch FROM clock_timestamp() - :'t0') AS seconds,
       pg_wal_lsn_diff(pg_current_wal_lsn(), :'lsn0') AS wal_bytes \gset
SELECT checkpoints_timed + checkpoints_req - :ckpt0 AS checkpoints FROM pg_stat_bgwriter \gset

SELECT to_regprocedure('pgstatindex(regclass)') IS NOT NULL AS has_pgstatindex \gset
\if :has_pgstatindex
SELECT avg_leaf_density AS density, leaf_fragmentation AS fragmentation
FROM pgstatindex('ins_t_pkey') \gset
\else
\set density NULL
\set fragmentation NULL
\endif

INSERT INTO ins_result (key, rows, seconds, table_bytes, index_bytes,
                        leaf_density, leaf_fragmentation, wal_bytes, checkpoints)
SELECT :'key', count(*), :seconds, pg_relation_size('ins_t'), pg_relation_size('ins_t_pkey'),
       :density, :fragmentation, :wal_bytes, :checkpoints
FROM ins_t;

DROP TABLE ins_t;
