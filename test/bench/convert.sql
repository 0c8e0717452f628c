-- convert.sql: throughput of rewriting a column of version 1 ids as version 6.
-- psql variable: n.  Skipped when uuidv1_to_v6(uuid) is not installed.
-- Three statements on a table of n v1 ids (uuid-ossp's uuid_generate_v1()
-- if installed, else built in SQL), each after a checkpoint:
--   CREATE TABLE AS SELECT id          the floor: copying without converting
--   CREATE TABLE AS SELECT uuidv1_to_v6(id)
--   UPDATE ... SET id = uuidv1_to_v6(id)   (writes new row versions, WAL)
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)

SELECT to_regprocedure('uuidv1_to_v6(uuid)') IS NOT NULL AS has_convert,
       to_regprocedure('uuid_generate_v1()') IS NOT NULL AS has_ossp_v1 \gset
\if :has_convert
\if :has_ossp_v1
\set v1_expr 'uuid_generate_v1()'
\else
\set v1_expr 'bench_v1(g)'
\endif

CREATE TABLE conv_src AS SELECT :v1_expr AS id FROM generate_series(1, :n) AS g;
VACUUM (FREEZE, ANALYZE) conv_src;

CHECKPOINT;
SELECT clock_timestamp() AS t0 \gset
CREATE TABLE conv_copy AS SELECT id FROM conv_src;
SELECT extract(epoch FROM clock_timestamp() - :'t0') AS s \gset
INSERT INTO conv_result VALUES (1, 'CREATE TABLE AS SELECT id (floor)', :n, :s, NULL);

CHECKPOINT;
SELECT clock_timestamp() AS t0 \gset
CREATE TABLE conv_v6 AS SELECT uuidv1_to_v6(id) AS id FROM conv_src;
SELECT extract(epoch FROM clock_timestamp() - :'t0') AS s \gset
INSERT INTO conv_result
SELECT 2, 'CREATE TABLE AS SELECT uuidv1_to_v6(id)', :n, :s, bool_and(substr(id::text, 15, 1) = '6')
FROM conv_v6;

CHECKPOINT;
SELECT clock_timestamp() AS t0 \gset
UPDATE conv_src SET id = uuidv1_to_v6(id);
SELECT extract(epoch FROM clock_timestamp() - :'t0') AS s \gset
INSERT INTO conv_result
SELECT 3, 'UPDATE SET id = uuidv1_to_v6(id)', :n, :s, bool_and(substr(id::text, 15, 1) = '6')
FROM conv_src;

DROP TABLE conv_src, conv_copy, conv_v6;
\else
\echo 'uuidv1_to_v6(uuid) is not installed: conversion skipped'
\endif
