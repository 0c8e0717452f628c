-- Privileges: pg_uuidx.control says trusted = true, so a role that is not a
-- superuser but has CREATE on the database may install it; the install
-- script then runs as the bootstrap superuser, who owns every member object,
-- while the role owns the extension.  A role without CREATE on the database
-- may not.  Functions not written in C pin their search_path.
--
-- The right to tick is EXECUTE on pg_uuidx_tick(), which the extension's
-- owner holds and may grant; nobody but the table's owner writes
-- pg_uuidx_last_tick, so the right to tick is not the right to store a
-- horizon of one's choosing (a day ahead, infinity), and no stored horizon
-- is infinity.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
BEGIN;
CREATE EXTENSION IF NOT EXISTS pgtap;
SELECT plan(29);

-- a clean slate for this transaction, whatever ran before in this database
SET LOCAL client_min_messages = warning;
DROP EXTENSION IF EXISTS pg_uuidx CASCADE;

CREATE ROLE uuidx_maker NOSUPERUSER NOCREATEDB NOCREATEROLE;
CREATE ROLE uuidx_nobody NOSUPERUSER NOCREATEDB NOCREATEROLE;
DO $$ BEGIN EXECUTE format('GRANT CREATE ON DATABASE %I TO uuidx_maker', current_database()); END $$;
-- uuidx_nobody may create in this schema, but not in the database
CREATE SCHEMA uuidx_nobody_s;
GRANT USAGE, CREATE ON SCHEMA uuidx_nobody_s TO uuidx_nobody;

-- what uuidx_maker's calls return (a temp table: any role of this session
-- may use it once granted)
CREATE TEMP TABLE made (v7 uuid, v7h uuid, v4 uuid);
GRANT INSERT ON made TO uuidx_maker;

-- Run one command as a role; 'ok', or the SQLSTATE and message it raised.
-- (pgTAP's own bookkeeping tables belong to the session user, so the
-- assertions themselves are made back in that role.)
CREATE FUNCTION pg_temp.as_role(r name, cmd text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    outcome text := 'ok';
BEGIN
    EXECUTE format('SET ROLE %I', r);
    BEGIN
        EXECUTE cmd;
    EXCEPTION WHEN OTHERS THEN
        outcome := SQLSTATE || ': ' || SQLERRM;
    END;
    RESET ROLE;
    RETURN outcome;
END $$;

-- the extension's member objects of the catalogs that can hold them
CREATE TEMP VIEW members AS
SELECT d.classid::regclass AS catalog, d.objid,
       pg_describe_object(d.classid, d.objid, 0) AS object,
       CASE d.classid
           WHEN 'pg_proc'::regclass THEN (SELECT proowner FROM pg_proc WHERE oid = d.objid)
           WHEN 'pg_type'::regclass THEN (SELECT typowner FROM pg_type WHERE oid = d.objid)
           WHEN 'pg_class'::regclass THEN (SELECT relowner FROM pg_class WHERE oid = d.objid)
           WHEN 'pg_operator'::regclass THEN (SELECT oprowner FROM pg_operator WHERE oid = d.objid)
           WHEN 'pg_opclass'::regclass THEN (SELECT opcowner FROM pg_opclass WHERE oid = d.objid)
           WHEN 'pg_opfamily'::regclass THEN (SELECT opfowner FROM pg_opfamily WHERE oid = d.objid)
           WHEN 'pg_event_trigger'::regclass THEN (SELECT evtowner FROM pg_event_trigger WHERE oid = d.objid)
       END AS owner
FROM pg_depend AS d
JOIN pg_extension AS e ON e.oid = d.refobjid AND d.refclassid = 'pg_extension'::regclass
WHERE e.extname = 'pg_uuidx' AND d.deptype = 'e';

SELECT ok((SELECT trusted FROM pg_available_extension_versions v JOIN pg_available_extensions a USING (name)
           WHERE name = 'pg_uuidx' AND v.version = a.default_version),
          'the default version is marked trusted');

SELECT matches(pg_temp.as_role('uuidx_nobody', 'CREATE EXTENSION pg_uuidx SCHEMA uuidx_nobody_s'),
               '^42501: permission denied to create extension',
               'a role without CREATE on the database cannot create pg_uuidx');
SELECT is(pg_temp.as_role('uuidx_maker', 'CREATE SCHEMA uuidx_priv'), 'ok',
          'a role with CREATE on the database creates a schema of its own');
SELECT is(pg_temp.as_role('uuidx_maker', 'CREATE EXTENSION pg_uuidx SCHEMA uuidx_priv'), 'ok',
          'that role (not a superuser) can CREATE EXTENSION pg_uuidx');
SELECT is((SELECT extowner::regrole::text FROM pg_extension WHERE extname = 'pg_uuidx'), 'uuidx_maker',
          'the extension is owned by the role that created it');
SELECT cmp_ok((SELECT count(*) FROM members WHERE catalog = 'pg_proc'::regclass), '>=', 3::bigint,
              'the extension has its functions');
SELECT is_empty($$ SELECT object || ' owned by ' || owner::regrole FROM members WHERE owner IS DISTINCT FROM 10 $$,
                'every member object is owned by the bootstrap superuser (trusted-extension rules)');
SELECT is(pg_temp.as_role('uuidx_maker',
              'INSERT INTO pg_temp.made SELECT uuidx_priv.uuidv7(), uuidx_priv.uuidv7(''1 hour''), uuidx_priv.uuidv4()'),
          'ok', 'that role can call the functions');
SELECT is((SELECT substr(v7::text, 15, 1) || substr(v7h::text, 15, 1) || substr(v4::text, 15, 1) FROM made),
          '774', 'and gets ids of the right versions');
SELECT matches(pg_temp.as_role('uuidx_maker',
                   'CREATE OR REPLACE FUNCTION uuidx_priv.uuidv4() RETURNS uuid LANGUAGE sql AS ''SELECT NULL::uuid'''),
               '^42501: must be owner of function',
               'the extension''s owner cannot replace its functions');
SELECT matches(pg_temp.as_role('uuidx_nobody', 'SELECT uuidx_nobody_s.uuidv7()'),
               '^42883', 'uuidx_nobody got no functions');
SELECT is_empty(
    $$ SELECT p.oid::regprocedure::text FROM members m JOIN pg_proc p ON p.oid = m.objid
       JOIN pg_language l ON l.oid = p.prolang
       WHERE m.catalog = 'pg_proc'::regclass AND l.lanname NOT IN ('c', 'internal')
         AND p.prosqlbody IS NULL
         AND NOT EXISTS (SELECT FROM unnest(p.proconfig) AS c WHERE c LIKE 'search_path=%') $$,
    'no SQL or PL function of the extension runs without a pinned search_path');
SELECT is_empty($$ SELECT p.oid::regprocedure::text FROM members m JOIN pg_proc p ON p.oid = m.objid
                   WHERE m.catalog = 'pg_proc'::regclass AND p.prosecdef $$,
                'no function of the extension is SECURITY DEFINER');
SELECT is_empty($$ SELECT p.oid::regprocedure::text FROM members m JOIN pg_proc p ON p.oid = m.objid
                   WHERE m.catalog = 'pg_proc'::regclass AND NOT has_function_privilege('public', p.oid, 'EXECUTE')
                     AND p.oid <> 'uuidx_priv.pg_uuidx_tick()'::regprocedure $$,
                'every function of the extension but pg_uuidx_tick() is executable by PUBLIC');

-- ticks
SELECT ok(NOT has_function_privilege('public', 'uuidx_priv.pg_uuidx_tick()', 'EXECUTE'),
          'PUBLIC may not tick');
SELECT ok(has_function_privilege('uuidx_maker', 'uuidx_priv.pg_uuidx_tick()', 'EXECUTE WITH GRANT OPTION'),
          'the extension''s owner may tick and grant it');
SELECT is(pg_temp.as_role('uuidx_maker', 'SELECT uuidx_priv.pg_uuidx_tick()'), 'ok',
          'the extension''s owner ticks');
SELECT matches(pg_temp.as_role('uuidx_maker',
                   $$INSERT INTO uuidx_priv.pg_uuidx_last_tick VALUES (true, now() + interval '1 day', now(), 0)
                     ON CONFLICT (one) DO UPDATE SET horizon = EXCLUDED.horizon$$),
               '^42501: permission denied for table pg_uuidx_last_tick',
               'the extension''s owner may not store a horizon of its own (a day ahead)');
SELECT matches(pg_temp.as_role('uuidx_maker', $$UPDATE uuidx_priv.pg_uuidx_last_tick SET horizon = 'infinity'$$),
               '^42501: permission denied for table pg_uuidx_last_tick',
               'nor update the stored one');
SELECT is(pg_temp.as_role('uuidx_maker', 'GRANT USAGE ON SCHEMA uuidx_priv TO uuidx_nobody'), 'ok',
          'uuidx_nobody may use the extension''s schema');
SELECT matches(pg_temp.as_role('uuidx_nobody', 'SELECT uuidx_priv.pg_uuidx_tick()'),
               '^42501: permission denied for function pg_uuidx_tick',
               'a role not granted the tick may not tick');
SELECT is(pg_temp.as_role('uuidx_maker', 'GRANT EXECUTE ON FUNCTION uuidx_priv.pg_uuidx_tick() TO uuidx_nobody'),
          'ok', 'the extension''s owner grants the tick');
SELECT is(pg_temp.as_role('uuidx_nobody', $q$DO $do$ BEGIN
              PERFORM uuidx_priv.pg_uuidx_tick();
              IF current_user <> 'uuidx_nobody' THEN RAISE 'after the tick, current_user is %', current_user; END IF;
          END $do$$q$), 'ok', 'a role granted the tick ticks, and is itself again after it');
SELECT matches(pg_temp.as_role('uuidx_nobody',
                   $$UPDATE uuidx_priv.pg_uuidx_last_tick SET horizon = now() + interval '1 day'$$),
               '^42501: permission denied for table pg_uuidx_last_tick',
               'a role granted the tick may not store a horizon of its own');
SELECT ok((SELECT count(*) = 1 AND bool_and(horizon <= clock_timestamp() AND ticked_at <= clock_timestamp())
           FROM uuidx_priv.pg_uuidx_last_tick),
          'the stored tick is the server''s horizon, not ahead of the clock');
SELECT throws_ok($$UPDATE uuidx_priv.pg_uuidx_last_tick SET horizon = 'infinity'$$, '23514', NULL,
                 'not even the table''s owner stores a horizon of infinity');
SELECT is(pg_temp.as_role('uuidx_maker', 'REVOKE EXECUTE ON FUNCTION uuidx_priv.pg_uuidx_tick() FROM uuidx_nobody'),
          'ok', 'the extension''s owner revokes the tick');
SELECT matches(pg_temp.as_role('uuidx_nobody', 'SELECT uuidx_priv.pg_uuidx_tick()'),
               '^42501: permission denied for function pg_uuidx_tick',
               'a role whose tick was revoked may not tick');
SELECT is(pg_temp.as_role('uuidx_maker', 'REVOKE USAGE ON SCHEMA uuidx_priv FROM uuidx_nobody; '
                                          'DROP EXTENSION pg_uuidx CASCADE'), 'ok',
          'the extension''s owner can drop it');

SELECT * FROM finish();
ROLLBACK;
