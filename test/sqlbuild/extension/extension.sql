-- The SQL build as the extension pg_uuidx (its control file and scripts of
-- "make sql-only" in the server's extension directory, no library): the
-- versions it offers, the update path from the previous version against a
-- fresh install (functions and tables), no C function, the consumers'
-- positions table marked for pg_dump and readable by the extension's owner
-- only, the trusted install by a database owner who is not a superuser,
-- and the checks its scripts start with.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
BEGIN;
CREATE EXTENSION IF NOT EXISTS pgtap;
SELECT plan(14);

SELECT is((SELECT string_agg(version, ',' ORDER BY string_to_array(version, '.')::int[])
           FROM pg_available_extension_versions WHERE name = 'pg_uuidx'),
          (SELECT source || ',' || target FROM pg_extension_update_paths('pg_uuidx')
           WHERE path = source || '--' || target
             AND target = (SELECT default_version FROM pg_available_extensions WHERE name = 'pg_uuidx')),
          'the previous version and the current one, with an update path between them');

-- the objects an extension owns, with the attributes that make up the API:
-- functions, and tables with their columns, constraints, privileges,
-- comment and the condition pg_dump dumps their rows by
CREATE FUNCTION pg_temp.api() RETURNS TABLE (obj text, attrs text) LANGUAGE sql AS $$
    SELECT regexp_replace(p.oid::regprocedure::text, '^[a-z0-9_]+\.', ''),
           concat_ws(' ', p.prokind, p.provolatile, p.proparallel, p.proisstrict, l.lanname,
                     p.prorettype::regtype, obj_description(p.oid, 'pg_proc'),
                     md5(regexp_replace(coalesce(pg_get_function_sqlbody(p.oid), p.prosrc), '\m(older|fresh)\.', '', 'g')))
    FROM pg_proc p
    JOIN pg_language l ON l.oid = p.prolang
    JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
    JOIN pg_extension e ON e.oid = d.refobjid
    WHERE e.extname = 'pg_uuidx'
    UNION ALL
    SELECT c.relname, concat_ws(' ', c.relkind,
           (SELECT string_agg(format('%s %s %s %s', a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull,
                                     a.attcollation::regcollation), ', ' ORDER BY a.attnum)
            FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped),
           (SELECT string_agg(k.conname || ' ' || pg_get_constraintdef(k.oid), ', ' ORDER BY k.conname)
            FROM pg_constraint k WHERE k.conrelid = c.oid),
           c.relacl::text, obj_description(c.oid, 'pg_class'),
           coalesce(e.extcondition[array_position(e.extconfig, c.oid)], 'not dumped'))
    FROM pg_class c
    JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e'
    JOIN pg_extension e ON e.oid = d.refobjid
    WHERE e.extname = 'pg_uuidx'
$$;

-- the previous version: the source of the one update path
SELECT source AS previous FROM pg_extension_update_paths('pg_uuidx')
WHERE path = source || '--' || target
  AND target = (SELECT default_version FROM pg_available_extensions WHERE name = 'pg_uuidx') \gset
CREATE SCHEMA older;
SELECT lives_ok(format('CREATE EXTENSION pg_uuidx SCHEMA older VERSION %L', :'previous'),
                format('CREATE EXTENSION pg_uuidx VERSION %L', :'previous'));
SELECT is((SELECT extversion FROM pg_extension WHERE extname = 'pg_uuidx'), :'previous',
          'the previous version is installed');
-- the generators whose bodies 1.6 changed ("Replaced in 1.6" in
-- sqlonly/generate.sql): where the update is the one from 1.5, the previous
-- version had other bodies, which the update must replace (the update from
-- 1.6 to 1.7 replaces none)
SELECT :'previous' = '1.5' AS bodies_replaced \gset
\if :bodies_replaced
CREATE OR REPLACE FUNCTION older.uuidv7() RETURNS uuid LANGUAGE sql VOLATILE PARALLEL UNSAFE RETURN NULL::uuid;
CREATE OR REPLACE FUNCTION older.uuidv6() RETURNS uuid LANGUAGE sql VOLATILE PARALLEL UNSAFE RETURN NULL::uuid;
CREATE OR REPLACE FUNCTION older.uuidv7(shift interval) RETURNS uuid LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
    AS 'BEGIN RETURN NULL; END';
\endif
SELECT lives_ok('ALTER EXTENSION pg_uuidx UPDATE', 'ALTER EXTENSION pg_uuidx UPDATE');
SELECT is(older.pg_uuidx_build(), 'sql', 'updated: pg_uuidx_build() is ''sql''');
CREATE TEMP TABLE updated AS SELECT * FROM pg_temp.api();
DROP EXTENSION pg_uuidx;

CREATE SCHEMA fresh;
CREATE EXTENSION pg_uuidx SCHEMA fresh;
SELECT set_eq('SELECT * FROM updated', 'SELECT * FROM pg_temp.api()',
              'the update gives what a fresh install gives: members, labels, languages, results, comments, bodies, tables');
-- the consumers' positions, kept as the C build keeps them: a restore of a
-- database of the C build writes them back (test/t/045_between_builds.pl)
SELECT is((SELECT extconfig::regclass[]::text FROM pg_extension WHERE extname = 'pg_uuidx'),
          '{fresh.pg_uuidx_consumer_positions}', 'pg_uuidx_consumer_positions is marked for pg_dump, as in the C build');
SELECT is((SELECT count(*) FROM pg_temp.api() WHERE attrs !~ '^[arv] ' AND attrs !~ ' (sql|plpgsql) '), 0::bigint,
          'every member but the aggregates and tables is SQL or PL/pgSQL');
SELECT ok(fresh.uuidv7() < fresh.uuidv7() AND fresh.uuid_extract_version(fresh.uuidv7()) = 7, 'it works');
DROP EXTENSION pg_uuidx;
DROP SCHEMA fresh, older;

-- trusted: a database owner who is not a superuser installs it
CREATE ROLE uuidx_sql_owner;
GRANT CREATE ON DATABASE sqlbuild_ext TO uuidx_sql_owner;
CREATE SCHEMA owned AUTHORIZATION uuidx_sql_owner;
CREATE SCHEMA not_owned;
SET LOCAL ROLE uuidx_sql_owner;
SELECT throws_ok('CREATE EXTENSION pg_uuidx SCHEMA not_owned', '42501', 'permission denied for schema not_owned',
                 'not into a schema the role may not create in');
SELECT lives_ok('CREATE EXTENSION pg_uuidx SCHEMA owned', 'a role that is not superuser installs it into its schema');
SELECT is(owned.pg_uuidx_build(), 'sql', '... and uses it');
RESET ROLE;
SELECT is(format('%s %s %s', has_table_privilege('uuidx_sql_owner', 'owned.pg_uuidx_consumer_positions', 'SELECT'),
                 has_table_privilege('uuidx_sql_owner', 'owned.pg_uuidx_consumer_positions', 'INSERT, UPDATE, DELETE, TRUNCATE'),
                 has_table_privilege('public', 'owned.pg_uuidx_consumer_positions', 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE')),
          't f f', 'the extension''s owner reads pg_uuidx_consumer_positions and writes nothing; PUBLIC neither');
DROP EXTENSION pg_uuidx;

-- a schema with a function of one of pg_uuidx's signatures
CREATE SCHEMA clash;
CREATE FUNCTION clash.uuidv7() RETURNS uuid LANGUAGE sql AS 'SELECT NULL::uuid';
SELECT throws_ok('CREATE EXTENSION pg_uuidx SCHEMA clash', '42723',
                 'schema clash already has functions named like pg_uuidx''s: uuidv7()',
                 'the clash check names the function in the way');

SELECT * FROM finish();
ROLLBACK;
