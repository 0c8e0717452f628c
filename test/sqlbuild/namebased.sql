-- The SQL build's name-based ids against the C build's: uuidv3, uuidv5,
-- uuid_v8_sha256 (text and bytea names) and the four namespaces.  The C build
-- is the extension in schema cbuild, the SQL build the plain script in
-- schema sqlbuild.  Random namespaces and names (seeded: the seed is
-- printed, and PGOPTIONS='-c pg_uuidx_test.seed=S' replays a run), text names
-- with 1- to 4-byte UTF-8 characters, bytea names of every byte; then the
-- SHA-1 of uuidv5 from pgcrypto found by extension membership only (on a
-- server without pgcrypto: uuidv5 refused), and a hostile search_path.
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
BEGIN;
CREATE EXTENSION IF NOT EXISTS pgtap;
-- pgcrypto when the server has it (a server built without OpenSSL has not)
SELECT EXISTS (SELECT FROM pg_available_extensions WHERE name = 'pgcrypto') AS have_pgcrypto \gset
\if :have_pgcrypto
CREATE EXTENSION IF NOT EXISTS pgcrypto;
\endif
SET LOCAL TimeZone = 'UTC';
SELECT plan(22);

SELECT diag('seed ' || s || ' (replay: PGOPTIONS=''-c pg_uuidx_test.seed=' || s || ''')')
FROM (SELECT coalesce(nullif(current_setting('pg_uuidx_test.seed', true), '')::float8,
                      round(random()::numeric, 6)::float8) AS s) AS seed, setseed(s);

-- the outcome of a call as text: its result, or its error's SQLSTATE,
-- message, detail and hint
CREATE FUNCTION pg_temp.outcome(call text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    r text;
    st text; msg text; det text; hin text;
BEGIN
    EXECUTE 'SELECT (' || call || ')::text' INTO r;
    RETURN coalesce(r, 'NULL');
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL, hin = PG_EXCEPTION_HINT;
    RETURN format('ERROR %s: %s | %s | %s', st, msg, det, hin);
END $$;

-- the standard namespaces and the RFC 9562 vectors (Appendix A.2, A.4, B.2)
SELECT is(sqlbuild.uuid_namespace_dns(), cbuild.uuid_namespace_dns(), 'uuid_namespace_dns');
SELECT is(sqlbuild.uuid_namespace_url(), cbuild.uuid_namespace_url(), 'uuid_namespace_url');
SELECT is(sqlbuild.uuid_namespace_oid(), cbuild.uuid_namespace_oid(), 'uuid_namespace_oid');
SELECT is(sqlbuild.uuid_namespace_x500(), cbuild.uuid_namespace_x500(), 'uuid_namespace_x500');
-- (table dns_name_vectors, as sql/namebased.sql reads them; the bytea
-- names are the text's UTF-8 bytes)
\ir ../vectors/namebased.sql
SELECT is(ARRAY[sqlbuild.uuidv3(sqlbuild.uuid_namespace_dns(), v3.name),
                sqlbuild.uuid_v8_sha256(sqlbuild.uuid_namespace_dns(), v8.name),
                sqlbuild.uuidv3(sqlbuild.uuid_namespace_dns(), convert_to(v3.name, 'UTF8')),
                sqlbuild.uuid_v8_sha256(sqlbuild.uuid_namespace_dns(), convert_to(v8.name, 'UTF8'))],
          ARRAY[v3.id, v8.id, v3.id, v8.id],
          'the RFC 9562 vectors of v3 and v8, text and bytea names')
FROM dns_name_vectors AS v3, dns_name_vectors AS v8
WHERE v3.fn = 'uuidv3' AND v8.fn = 'uuid_v8_sha256';
\if :have_pgcrypto
SELECT is(ARRAY[sqlbuild.uuidv5(sqlbuild.uuid_namespace_dns(), name),
                sqlbuild.uuidv5(sqlbuild.uuid_namespace_dns(), convert_to(name, 'UTF8'))],
          ARRAY[id, id], 'the RFC 9562 vector of v5, text and bytea names')
FROM dns_name_vectors WHERE fn = 'uuidv5';
\else
SELECT skip('no pgcrypto on this server', 1);
\endif

-- 100,000 random namespaces (random, the standard ones, Nil, Max) and names:
-- text of 0-40 characters drawn from ASCII and 2-, 3- and 4-byte UTF-8
-- characters, bytea of 0-80 random bytes (the lengths refer to g so that
-- each row draws its own: a function scan is not re-run otherwise)
CREATE TEMP TABLE names AS
SELECT CASE g % 10 WHEN 0 THEN cbuild.uuid_namespace_dns() WHEN 1 THEN cbuild.uuid_namespace_url()
                   WHEN 2 THEN '00000000-0000-0000-0000-000000000000' WHEN 3 THEN 'ffffffff-ffff-ffff-ffff-ffffffffffff'
                   ELSE md5(random()::text)::uuid END AS ns,
       (SELECT coalesce(string_agg(substr('abcXYZ09 ._-/é€😀ßñ中' || chr(1 + (random() * 126)::int),
                                          1 + (random() * 20)::int, 1), ''), '')
        FROM generate_series(1, (random() * 40)::int + g * 0)) AS tname,
       (SELECT coalesce(string_agg(decode(lpad(to_hex((random() * 255)::int), 2, '0'), 'hex'), ''::bytea), ''::bytea)
        FROM generate_series(1, (random() * 80)::int + g * 0)) AS bname
FROM generate_series(1, 100000) AS g;
SELECT cmp_ok((SELECT count(DISTINCT tname) FROM names), '>', 90000::bigint, 'the random text names are distinct enough');

SELECT is((SELECT count(*) FROM names WHERE sqlbuild.uuidv3(ns, tname) IS DISTINCT FROM cbuild.uuidv3(ns, tname)),
          0::bigint, 'uuidv3(uuid, text): 100,000 random inputs, same ids');
SELECT is((SELECT count(*) FROM names WHERE sqlbuild.uuidv3(ns, bname) IS DISTINCT FROM cbuild.uuidv3(ns, bname)),
          0::bigint, 'uuidv3(uuid, bytea): 100,000 random inputs, same ids');
\if :have_pgcrypto
SELECT is((SELECT count(*) FROM names WHERE sqlbuild.uuidv5(ns, tname) IS DISTINCT FROM cbuild.uuidv5(ns, tname)),
          0::bigint, 'uuidv5(uuid, text): 100,000 random inputs, same ids');
SELECT is((SELECT count(*) FROM names WHERE sqlbuild.uuidv5(ns, bname) IS DISTINCT FROM cbuild.uuidv5(ns, bname)),
          0::bigint, 'uuidv5(uuid, bytea): 100,000 random inputs, same ids');
\else
SELECT is(pg_temp.outcome('sqlbuild.uuidv5(sqlbuild.uuid_namespace_dns(), ''www.example.com'')'),
          'ERROR 0A000: uuidv5() needs the extension pgcrypto in the SQL build of pg_uuidx | UUIDv5 hashes with SHA-1, which PostgreSQL has only in pgcrypto, and pgcrypto is not installed in this database. | CREATE EXTENSION pgcrypto;',
          'without pgcrypto on the server, uuidv5(uuid, text) is refused, naming pgcrypto');
SELECT is(pg_temp.outcome('sqlbuild.uuidv5(sqlbuild.uuid_namespace_dns(), ''\x00''::bytea)'),
          'ERROR 0A000: uuidv5() needs the extension pgcrypto in the SQL build of pg_uuidx | UUIDv5 hashes with SHA-1, which PostgreSQL has only in pgcrypto, and pgcrypto is not installed in this database. | CREATE EXTENSION pgcrypto;',
          'without pgcrypto on the server, uuidv5(uuid, bytea) is refused, naming pgcrypto');
\endif
SELECT is((SELECT count(*) FROM names WHERE sqlbuild.uuid_v8_sha256(ns, tname) IS DISTINCT FROM cbuild.uuid_v8_sha256(ns, tname)),
          0::bigint, 'uuid_v8_sha256(uuid, text): 100,000 random inputs, same ids');
SELECT is((SELECT count(*) FROM names WHERE sqlbuild.uuid_v8_sha256(ns, bname) IS DISTINCT FROM cbuild.uuid_v8_sha256(ns, bname)),
          0::bigint, 'uuid_v8_sha256(uuid, bytea): 100,000 random inputs, same ids');

-- STRICT: a NULL argument gives NULL in both
SELECT is(ARRAY[pg_temp.outcome('sqlbuild.uuidv3(NULL, ''a''::text)'), pg_temp.outcome('sqlbuild.uuidv5(sqlbuild.uuid_namespace_dns(), NULL::bytea)'),
                pg_temp.outcome('sqlbuild.uuid_v8_sha256(NULL::uuid, NULL::text)')],
          ARRAY['NULL', 'NULL', 'NULL'], 'NULL in, NULL out');

-- the labels of every function of this file: the C build's
SELECT is((SELECT count(*) FROM pg_proc s JOIN pg_proc c
             ON c.proname = s.proname AND c.proargtypes = s.proargtypes
            AND c.pronamespace = 'cbuild'::regnamespace
          WHERE s.pronamespace = 'sqlbuild'::regnamespace
            AND s.proname IN ('uuidv3', 'uuidv5', 'uuid_v8_sha256', 'uuid_namespace_dns', 'uuid_namespace_url',
                              'uuid_namespace_oid', 'uuid_namespace_x500')
            AND (s.provolatile, s.proisstrict, s.proparallel, s.prorettype, s.proargnames::text,
                 obj_description(s.oid, 'pg_proc'))
                IS NOT DISTINCT FROM (c.provolatile, c.proisstrict, c.proparallel, c.prorettype, c.proargnames::text,
                 obj_description(c.oid, 'pg_proc'))),
          10::bigint, 'volatility, strictness, parallel label, result, argument names and comment as in the C build');

\if :have_pgcrypto
-- SHA-1 for uuidv5 is pgcrypto's, wherever pgcrypto is installed, and only
-- pgcrypto's.  Each check drops or moves pgcrypto and undoes it by ending in
-- an error.
CREATE SCHEMA crypto_elsewhere;
CREATE FUNCTION pg_temp.in_changed_world(change text, call text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    BEGIN
        EXECUTE change;
        r := pg_temp.outcome(call);
        RAISE EXCEPTION 'undo';
    EXCEPTION WHEN raise_exception THEN
        RETURN r;
    END;
END $$;
SELECT is(pg_temp.in_changed_world('ALTER EXTENSION pgcrypto SET SCHEMA crypto_elsewhere',
                                   'sqlbuild.uuidv5(sqlbuild.uuid_namespace_dns(), ''www.example.com'')'),
          '2ed6657d-e927-568b-95e1-2665a8aea6a2', 'uuidv5 finds pgcrypto in another schema, off the search_path');
SELECT is(pg_temp.in_changed_world('DROP EXTENSION pgcrypto CASCADE',
                                   'sqlbuild.uuidv5(sqlbuild.uuid_namespace_dns(), ''www.example.com'')'),
          'ERROR 0A000: uuidv5() needs the extension pgcrypto in the SQL build of pg_uuidx | UUIDv5 hashes with SHA-1, which PostgreSQL has only in pgcrypto, and pgcrypto is not installed in this database. | CREATE EXTENSION pgcrypto;',
          'without pgcrypto, uuidv5(uuid, text) is refused, naming pgcrypto');
SELECT is(pg_temp.in_changed_world('DROP EXTENSION pgcrypto CASCADE',
                                   'sqlbuild.uuidv5(sqlbuild.uuid_namespace_dns(), ''\x00''::bytea)'),
          'ERROR 0A000: uuidv5() needs the extension pgcrypto in the SQL build of pg_uuidx | UUIDv5 hashes with SHA-1, which PostgreSQL has only in pgcrypto, and pgcrypto is not installed in this database. | CREATE EXTENSION pgcrypto;',
          'without pgcrypto, uuidv5(uuid, bytea) is refused, naming pgcrypto');
-- a digest(bytea, text) of someone else's, first on the search_path, is
-- never called: not with pgcrypto installed, not without it
CREATE FUNCTION crypto_elsewhere.digest(bytea, text) RETURNS bytea LANGUAGE sql
RETURN '\x00000000000000000000000000000000000000'::bytea;
SELECT is(pg_temp.in_changed_world('SET LOCAL search_path = crypto_elsewhere, public',
                                   'sqlbuild.uuidv5(sqlbuild.uuid_namespace_dns(), ''www.example.com'')'),
          '2ed6657d-e927-568b-95e1-2665a8aea6a2', 'a look-alike digest() on the search_path is not called');
SELECT is(pg_temp.in_changed_world('DROP EXTENSION pgcrypto CASCADE; SET LOCAL search_path = crypto_elsewhere, public',
                                   'sqlbuild.uuidv5(sqlbuild.uuid_namespace_dns(), ''www.example.com'')'),
          'ERROR 0A000: uuidv5() needs the extension pgcrypto in the SQL build of pg_uuidx | UUIDv5 hashes with SHA-1, which PostgreSQL has only in pgcrypto, and pgcrypto is not installed in this database. | CREATE EXTENSION pgcrypto;',
          'without pgcrypto, a look-alike digest() is not called either');

\else
SELECT skip('no pgcrypto on this server', 5);
\endif

-- a hostile search_path: before pg_catalog, an operator of every signature
-- pg_catalog has for the types the bodies use, each raising when called; every call in the SQL build is qualified, so the
-- ids do not change
CREATE SCHEMA hostile;
DO $$
DECLARE
    o record;
    n int := 0;
BEGIN
    FOR o IN SELECT DISTINCT p.oprname, p.oprleft, p.oprright
             FROM pg_operator p,
                  (SELECT ARRAY['text', 'bytea', 'name', 'oid', 'oidvector', '"char"', 'int4', 'int8', 'float8',
                                'timestamp', 'timestamptz', 'interval', 'bit', 'varbit', 'uuid', 'bool']::regtype[]::oid[]
                          AS types) AS t
             WHERE p.oprnamespace = 'pg_catalog'::regnamespace
               AND p.oprright = ANY (types) AND (p.oprleft = 0 OR p.oprleft = ANY (types))
    LOOP
        n := n + 1;
        EXECUTE format('CREATE FUNCTION hostile.boom%s(%s) RETURNS boolean LANGUAGE plpgsql AS '
                       '$b$ BEGIN RAISE EXCEPTION ''hostile operator called''; END $b$', n,
                       concat_ws(', ', nullif(o.oprleft, 0)::regtype, o.oprright::regtype));
        EXECUTE format('CREATE OPERATOR hostile.%s (FUNCTION = hostile.boom%s, %s RIGHTARG = %s)', o.oprname, n,
                       CASE WHEN o.oprleft <> 0 THEN format('LEFTARG = %s,', o.oprleft::regtype) END, o.oprright::regtype);
    END LOOP;
END $$;
CREATE TEMP TABLE hostile_ids AS SELECT ns, tname, bname FROM names LIMIT 2000;
SELECT set_config('pg_uuidx_test.have_pgcrypto', :'have_pgcrypto', true) AS have_pgcrypto_set \gset
SELECT current_setting('search_path') AS saved_path \gset
CREATE TEMP TABLE hostile_out (ns uuid, tname text, bname bytea, v3t uuid, v3b uuid, v5t uuid, v5b uuid, v8t uuid, v8b uuid);
CREATE TEMP TABLE hostile_error (error text);
SET LOCAL search_path = hostile, pg_catalog;
DO $$
DECLARE
    context text;
BEGIN
    INSERT INTO pg_temp.hostile_out
    SELECT ns, tname, bname, sqlbuild.uuidv3(ns, tname), sqlbuild.uuidv3(ns, bname),
           CASE WHEN pg_catalog.current_setting('pg_uuidx_test.have_pgcrypto')::boolean THEN sqlbuild.uuidv5(ns, tname) END,
           CASE WHEN pg_catalog.current_setting('pg_uuidx_test.have_pgcrypto')::boolean THEN sqlbuild.uuidv5(ns, bname) END,
           sqlbuild.uuid_v8_sha256(ns, tname), sqlbuild.uuid_v8_sha256(ns, bname)
    FROM pg_temp.hostile_ids;
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS context = PG_EXCEPTION_CONTEXT;
    INSERT INTO pg_temp.hostile_error
    VALUES (pg_catalog.format('%s (%s)', SQLERRM, pg_catalog.replace(context, pg_catalog.chr(10), '; ')));
END
$$;
SELECT set_config('search_path', :'saved_path', true) AS restored \gset
SELECT is((SELECT string_agg(error, '; ') FROM hostile_error), NULL, 'no error under a hostile search_path');
SELECT is((SELECT count(*) FILTER (WHERE (v3t, v3b, v8t, v8b)
                                         IS NOT DISTINCT FROM (cbuild.uuidv3(ns, tname), cbuild.uuidv3(ns, bname),
                                                               cbuild.uuid_v8_sha256(ns, tname), cbuild.uuid_v8_sha256(ns, bname))
                                     AND (NOT :'have_pgcrypto'::boolean
                                          OR (v5t, v5b) IS NOT DISTINCT FROM (cbuild.uuidv5(ns, tname), cbuild.uuidv5(ns, bname))))
           FROM hostile_out),
          2000::bigint, 'a hostile search_path changes nothing');

SELECT * FROM finish();
ROLLBACK;
