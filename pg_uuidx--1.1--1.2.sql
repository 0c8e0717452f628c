/* pg_uuidx--1.1--1.2.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION pg_uuidx UPDATE TO '1.2'" to load this file. \quit

-- Every object this script names is qualified with @extschema@ (see
-- pg_uuidx--1.2.sql).

-- time ranges: a tstzrange predicate the planner answers from a btree on
-- the id, range edges, and a text decoder for pg_partman
-- (functions IMMUTABLE STRICT PARALLEL SAFE)

-- the v4 facade (UUIDv47), the microsecond reader and ordered backfill
-- (readers and facade IMMUTABLE STRICT PARALLEL SAFE)

-- compact text forms: base32hex, ULID text, TypeID
-- (IMMUTABLE STRICT PARALLEL SAFE)

-- living with core: what depends on this extension
-- (STABLE, reads the catalogs)
