-- sqlonly/build.sql: which build of pg_uuidx is installed.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)

CREATE FUNCTION @extschema@.pg_uuidx_build()
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN 'sql';

COMMENT ON FUNCTION @extschema@.pg_uuidx_build() IS
'the build of pg_uuidx installed: ''c'' (the C library) or ''sql'' (the SQL build, for servers that take no C extensions)';
