-- The extension's scripts touch no object outside the extension.  On
-- PostgreSQL 17 and 18, pg_catalog has functions named like pg_uuidx's
-- (uuidv7(), uuidv4(), uuid_extract_timestamp(), ...): their comments stay
-- as they are through CREATE, ALTER ... UPDATE and DROP EXTENSION, in any
-- schema, and every function of pg_uuidx has its own comment.  1.0 and 1.1
-- as first released commented core's functions on 17 and 18; the update to
-- 1.2 repairs that in a database they were installed in.
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

-- from 1.1: the update to 1.2 gives core's functions their own comments
-- back where 1.1 as first released left its own on them (on 17 and 18; done
-- here by hand, as the scripts shipped now do not)
CREATE EXTENSION pg_uuidx VERSION '1.1';
CREATE TEMP TABLE twins AS
SELECT core.oid AS core, p.oid AS ours
FROM pg_proc p
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'pg_uuidx'
JOIN pg_proc core ON core.pronamespace = 'pg_catalog'::regnamespace
     AND core.proname = p.proname AND core.proargtypes = p.proargtypes;
DO $$
DECLARE
    t record;
BEGIN
    FOR t IN SELECT * FROM twins LOOP
        EXECUTE format('COMMENT ON FUNCTION %s IS %L', t.core::regprocedure, obj_description(t.ours, 'pg_proc'));
    END LOOP;
END
$$;
SELECT pg_temp.core_comments_changed() = (SELECT count(*) FROM twins)
       AND (SELECT count(*) FROM twins) = CASE WHEN current_setting('server_version_num')::int >= 180000 THEN 5
                                               WHEN current_setting('server_version_num')::int >= 170000 THEN 2
                                               ELSE 0 END AS as_1_1_left_them;
ALTER EXTENSION pg_uuidx UPDATE TO '1.2';
SELECT pg_temp.core_comments_changed() AS changed_after_update, pg_temp.uncommented() AS uncommented;
DROP EXTENSION pg_uuidx;
SELECT pg_temp.core_comments_changed() AS changed_after_drop;
