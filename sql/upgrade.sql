-- upgrade path: install 1.0, ALTER EXTENSION ... UPDATE, compare with a
-- fresh install of the default version (which runs the same scripts in one
-- command: pg_uuidx--1.0.sql is the only install script, and every later
-- version is reached through the update chain)
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
SET search_path = public, pg_catalog;

-- the chain every version is installed through
SELECT target, path FROM pg_extension_update_paths('pg_uuidx')
WHERE source = '1.0' AND path IS NOT NULL ORDER BY string_to_array(target, '.')::int[];

-- the objects an extension owns, with the attributes that make up the API
CREATE FUNCTION pg_temp.api(ext text) RETURNS TABLE (obj text, attrs text)
LANGUAGE sql AS $$
    SELECT p.oid::regprocedure::text,
           concat_ws(' ', p.prokind, p.provolatile, p.proparallel, p.proisstrict,
                     p.prorettype::regtype, obj_description(p.oid, 'pg_proc'))
    FROM pg_proc p
    JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
    JOIN pg_extension e ON e.oid = d.refobjid
    WHERE e.extname = ext
$$;

CREATE SCHEMA fresh;
CREATE EXTENSION pg_uuidx SCHEMA fresh;
CREATE TEMP TABLE fresh_api AS SELECT replace(obj, 'fresh.', '') AS obj, attrs FROM pg_temp.api('pg_uuidx');
SELECT extversion FROM pg_extension WHERE extname = 'pg_uuidx';
DROP EXTENSION pg_uuidx;

CREATE EXTENSION pg_uuidx VERSION '1.0';
SELECT extversion FROM pg_extension WHERE extname = 'pg_uuidx';
SELECT obj FROM pg_temp.api('pg_uuidx') ORDER BY obj;
SELECT uuid_send(uuidv7()) IS NOT NULL AS v1_0_generates;

ALTER EXTENSION pg_uuidx UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'pg_uuidx';

-- identical to a fresh install: same objects, same volatility, strictness,
-- parallel safety, return types and comments
SELECT count(*) AS objects FROM pg_temp.api('pg_uuidx');
(SELECT * FROM pg_temp.api('pg_uuidx') EXCEPT SELECT * FROM fresh_api)
UNION ALL
(SELECT * FROM fresh_api EXCEPT SELECT * FROM pg_temp.api('pg_uuidx'));

-- and it works
SELECT uuid_extract_timestamp(uuidv7_boundary('2020-01-01 00:00+00')) = '2020-01-01 00:00+00' AS v1_1_works;
SELECT pg_uuidx_build() AS build;

DROP EXTENSION pg_uuidx;
DROP SCHEMA fresh;

-- this library under a catalog of an older version that has the range
-- operator (files installed, ALTER EXTENSION ... UPDATE not run yet): id <@ r
-- works through an index and on a partitioned table, and the same after the
-- update
CREATE EXTENSION pg_uuidx VERSION '1.2';
CREATE TABLE older_ids (id uuid PRIMARY KEY);
INSERT INTO older_ids SELECT uuidv7_at('2026-01-01'::timestamptz + g * interval '1 minute') FROM generate_series(0, 2879) g;
CREATE TABLE older_parts (id uuid) PARTITION BY RANGE (id);
CREATE TABLE older_parts_1 PARTITION OF older_parts FOR VALUES FROM (MINVALUE) TO (uuidv7_boundary('2026-01-02'));
CREATE TABLE older_parts_2 PARTITION OF older_parts FOR VALUES FROM (uuidv7_boundary('2026-01-02')) TO (MAXVALUE);
INSERT INTO older_parts SELECT id FROM older_ids;
ANALYZE older_ids, older_parts;
SET enable_seqscan = off;
SELECT (SELECT count(*) FROM older_ids WHERE id <@ '[2026-01-01 10:00+00, 2026-01-01 11:00+00)') AS indexed,
       (SELECT count(*) FROM older_parts WHERE id <@ '[2026-01-01 10:00+00, 2026-01-01 11:00+00)') AS partitioned;
ALTER EXTENSION pg_uuidx UPDATE;
SELECT (SELECT count(*) FROM older_ids WHERE id <@ '[2026-01-01 10:00+00, 2026-01-01 11:00+00)') AS indexed,
       (SELECT count(*) FROM older_parts WHERE id <@ '[2026-01-01 10:00+00, 2026-01-01 11:00+00)') AS partitioned;
RESET enable_seqscan;
DROP TABLE older_ids, older_parts;
DROP EXTENSION pg_uuidx;
