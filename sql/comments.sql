-- The extension's scripts touch no object outside the extension.  On
-- PostgreSQL 17 and 18, pg_catalog has functions named like pg_uuidx's
-- (uuidv7(), uuidv4(), uuid_extract_timestamp(), ...): their comments stay
-- as they are through CREATE, ALTER ... UPDATE and DROP EXTENSION, in any
-- schema, and every function of pg_uuidx has its own comment.  1.0 and 1.1
-- commented core's functions on 17 and 18; the update to 1.2 repairs that.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
SET search_path = public, pg_catalog;

CREATE TEMP TABLE core_comments AS
SELECT p.oid, obj_description(p.oid, 'pg_proc') AS descr
FROM pg_proc p
WHERE p.pronamespace = 'pg_catalog'::regnamespace;

CREATE FUNCTION pg_temp.core_comments_changed() RETURNS bigint
LANGUAGE sql AS $$
    SELECT count(*) FROM core_comments c
    WHERE obj_description(c.oid, 'pg_proc') IS DISTINCT FROM c.descr
$$;

CREATE FUNCTION pg_temp.uncommented() RETURNS text
LANGUAGE sql AS $$
    SELECT coalesce(string_agg(d.objid::regprocedure::text, ', '), 'none')
    FROM pg_depend d
    JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'pg_uuidx'
    WHERE d.classid = 'pg_proc'::regclass AND d.deptype = 'e'
      AND obj_description(d.objid, 'pg_proc') IS NULL
$$;

CREATE EXTENSION pg_uuidx;
SELECT pg_temp.core_comments_changed() AS changed, pg_temp.uncommented() AS uncommented;
DROP EXTENSION pg_uuidx;
SELECT pg_temp.core_comments_changed() AS changed_after_drop;

CREATE SCHEMA uuidx;
CREATE EXTENSION pg_uuidx SCHEMA uuidx;
SELECT pg_temp.core_comments_changed() AS changed, pg_temp.uncommented() AS uncommented;
DROP EXTENSION pg_uuidx;
DROP SCHEMA uuidx;

-- from 1.1: whatever 1.1 did to core's comments is undone by the update
CREATE EXTENSION pg_uuidx VERSION '1.1';
ALTER EXTENSION pg_uuidx UPDATE TO '1.2';
SELECT pg_temp.core_comments_changed() AS changed_after_update, pg_temp.uncommented() AS uncommented;
DROP EXTENSION pg_uuidx;
SELECT pg_temp.core_comments_changed() AS changed_after_drop;
