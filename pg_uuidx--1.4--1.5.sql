/* pg_uuidx--1.4--1.5.sql: update from 1.4 to 1.5 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION pg_uuidx UPDATE TO '1.5'" to load this file. \quit

-- The build: pg_uuidx also comes as a SQL build (sqlonly/, "make sql-only")
-- of the same name and version, for servers that take no C extensions; its
-- pg_uuidx_build() answers 'sql'.
CREATE FUNCTION @extschema@.pg_uuidx_build()
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN 'c';

COMMENT ON FUNCTION @extschema@.pg_uuidx_build() IS
'the build of pg_uuidx installed: ''c'' (the C library) or ''sql'' (the SQL build, for servers that take no C extensions)';
