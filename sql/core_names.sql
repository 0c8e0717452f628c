-- Installing beside functions that already have pg_uuidx's names: CREATE
-- EXTENSION names every one of them and the ways out (42723), for each
-- function the extension installs; and a polyfill public.uuidv7() is
-- replaced without touching the tables that use it.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
SET client_min_messages = warning;

-- the functions pg_uuidx installs, from an install into a schema of its own
CREATE SCHEMA ref;
CREATE EXTENSION pg_uuidx SCHEMA ref;
CREATE TEMP TABLE members AS
SELECT p.proname, pg_get_function_identity_arguments(p.oid) AS args,
       array_to_string(p.proargtypes::regtype[], ', ') AS types
FROM pg_proc p
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'pg_uuidx';
DROP EXTENSION pg_uuidx;
DROP SCHEMA ref;

-- one same-signature function at a time in schema clash: the install stops
-- with 42723 and names it
CREATE SCHEMA clash;
CREATE TEMP TABLE verdicts (fn text, outcome text);
DO $$
DECLARE
    m record;
    msg text;
BEGIN
    FOR m IN SELECT * FROM members LOOP
        -- a built-in C function takes any arguments, internal included
        EXECUTE format('CREATE FUNCTION clash.%I(%s) RETURNS int LANGUAGE internal AS %L',
                       m.proname, m.types, 'int4abs');
        BEGIN
            CREATE EXTENSION pg_uuidx SCHEMA clash;
            INSERT INTO verdicts VALUES (m.proname || '(' || m.types || ')', 'installed');
        EXCEPTION WHEN duplicate_function THEN
            GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT;
            INSERT INTO verdicts VALUES (m.proname || '(' || m.types || ')',
                CASE WHEN msg = format('schema clash already has functions named like pg_uuidx''s: %s(%s)',
                                       m.proname, m.types)
                     THEN 'named' ELSE msg END);
        END;
        EXECUTE format('DROP FUNCTION clash.%I(%s)', m.proname, m.types);
    END LOOP;
END
$$;
SELECT count(*) AS functions, count(*) FILTER (WHERE outcome = 'named') AS named_in_the_error
FROM verdicts;
SELECT fn, outcome FROM verdicts WHERE outcome <> 'named' ORDER BY fn;
DROP SCHEMA clash;

-- what a user sees, with a polyfill and a second function of the same names
CREATE FUNCTION public.uuidv7() RETURNS uuid LANGUAGE sql VOLATILE AS $$
    -- a v4 id with the Unix milliseconds in its first 48 bits, version 7
    SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
        PLACING substring(int8send((extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
        FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid
$$;
CREATE FUNCTION public.uuidv7_boundary(timestamptz) RETURNS uuid LANGUAGE sql IMMUTABLE AS $$
    SELECT encode(overlay('\x00000000000070008000000000000000'::bytea
        PLACING substring(int8send((extract(epoch FROM $1) * 1000)::bigint) FROM 3) FROM 1 FOR 6), 'hex')::uuid
$$;
\set VERBOSITY default
\set SHOW_CONTEXT never
CREATE EXTENSION pg_uuidx;
\set VERBOSITY terse

-- the recipe: pg_uuidx into its own schema, defaults repointed (a catalog
-- change, no table rewrite), the polyfills dropped
CREATE TABLE orders (id uuid PRIMARY KEY DEFAULT public.uuidv7(), n int);
INSERT INTO orders (n) SELECT g FROM generate_series(1, 1000) g;
SELECT pg_relation_filenode('orders') AS filenode_before \gset
CREATE SCHEMA uuidx;
CREATE EXTENSION pg_uuidx SCHEMA uuidx;
ALTER TABLE orders ALTER COLUMN id SET DEFAULT uuidx.uuidv7();
DROP FUNCTION public.uuidv7();
DROP FUNCTION public.uuidv7_boundary(timestamptz);
INSERT INTO orders (n) SELECT g FROM generate_series(1001, 2000) g;
SELECT pg_relation_filenode('orders') = :filenode_before AS not_rewritten,
       count(*) AS orders,
       count(*) FILTER (WHERE uuidx.uuid_extract_version(id) = 7) AS v7
FROM orders;
SELECT pg_get_expr(d.adbin, d.adrelid) AS id_default
FROM pg_attrdef d WHERE d.adrelid = 'orders'::regclass;
-- the new ids keep their order among themselves
SELECT bool_and(id > prev) AS new_ids_in_order
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM orders WHERE n > 1000) s
WHERE prev IS NOT NULL;
DROP TABLE orders;
DROP EXTENSION pg_uuidx;
DROP SCHEMA uuidx;
