-- The SQL build's UUIDv47 facade and SipHash-2-4 against the C build's:
-- siphash24, uuidv47_encode, uuidv47_decode.  The C build is the extension
-- in schema cbuild, the SQL build the plain script in schema sqlbuild.  The
-- paper's 64 vectors and the reference's crafted ids; 100,000 random
-- messages of 0-100 bytes, 100,000 random v7 ids and 100,000 random v4
-- facades, each under its own random key (seeded: the seed is printed, and
-- PGOPTIONS='-c pg_uuidx_test.seed=S' replays a run); bad ids and keys compared by
-- SQLSTATE, message, detail and hint; a hostile search_path, and strings
-- read with standard_conforming_strings off.
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
BEGIN;
CREATE EXTENSION IF NOT EXISTS pgtap;
SELECT plan(12);

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
-- the functions first compiled in this session while strings are read the
-- old way (standard_conforming_strings off: a backslash escapes): the SQL
-- build writes no backslash in a string.  PostgreSQL 19 has only the
-- standard way.
SELECT set_config('standard_conforming_strings', 'off', true)
WHERE current_setting('server_version_num')::int < 190000;
CREATE TEMP TABLE old_strings AS
SELECT pg_temp.outcome('sqlbuild.siphash24(pg_catalog.decode(''0001020304050607'', ''hex''),
                                           pg_catalog.decode(''000102030405060708090a0b0c0d0e0f'', ''hex''))') AS hash,
       pg_temp.outcome('sqlbuild.uuidv47_encode(''01890a5d-ac96-774b-bcce-b302099a8057'',
                                                pg_catalog.decode(''000102030405060708090a0b0c0d0e0f'', ''hex''))') AS facade;
SET LOCAL standard_conforming_strings = on;
SELECT is((SELECT (hash, facade)::text FROM old_strings),
          (SELECT (cbuild.siphash24('\x0001020304050607', '\x000102030405060708090a0b0c0d0e0f')::text,
                   cbuild.uuidv47_encode('01890a5d-ac96-774b-bcce-b302099a8057', '\x000102030405060708090a0b0c0d0e0f')::text)::text),
          'compiled with standard_conforming_strings off, the same hash and facade');

-- SipHash-2-4: the paper's 64 vectors and the UUIDv47 reference's crafted
-- ids (tables sip_vectors and ref_vectors), as sql/facade.sql reads them
\ir ../vectors/facade.sql
SELECT is((SELECT count(*) FROM sip_vectors
           WHERE sqlbuild.siphash24(coalesce((SELECT string_agg(set_byte('\x00'::bytea, 0, b), ''::bytea ORDER BY b)
                                              FROM generate_series(0, len - 1) AS b), ''::bytea),
                                    '\x000102030405060708090a0b0c0d0e0f') = expected),
          64::bigint, 'siphash24: the paper''s 64 vectors');

-- the UUIDv47 reference's crafted ids
SELECT is((SELECT count(*) FROM ref_vectors
           WHERE sqlbuild.uuidv47_encode(v7, '\xefcdab89674523011032547698badcfe') = facade
             AND sqlbuild.uuidv47_decode(facade, '\xefcdab89674523011032547698badcfe') = v7),
          17::bigint, 'uuidv47_encode and uuidv47_decode: the reference''s 17 crafted ids');

-- 100,000 random messages of 0-100 bytes (every length mod 8), keys and ids
CREATE TEMP TABLE msgs AS
SELECT substr(decode(md5(random()::text) || md5(random()::text) || md5(random()::text) || md5(random()::text)
                     || md5(random()::text) || md5(random()::text) || md5(random()::text), 'hex'),
              1, (random() * 100)::int) AS data,
       decode(md5(random()::text), 'hex') AS key
FROM generate_series(1, 100000);
SELECT is((SELECT count(*) FROM msgs WHERE sqlbuild.siphash24(data, key) IS DISTINCT FROM cbuild.siphash24(data, key)),
          0::bigint, 'siphash24: 100,000 random messages and keys, same hash');
-- keys with the sign bit of either half set and clear, and all-ones words
SELECT is((SELECT count(*) FROM msgs,
                  LATERAL (VALUES ('\xffffffffffffffffffffffffffffffff'::bytea), ('\x00000000000000800000000000000080'),
                                  ('\xffffffffffffff7fffffffffffffff7f')) AS k(key2)
           WHERE length(data) % 9 = 0
             AND sqlbuild.siphash24(data, key2) IS DISTINCT FROM cbuild.siphash24(data, key2)),
          0::bigint, 'siphash24: keys of extreme words, same hash');

-- 100,000 random v7 ids (every bit after the version and variant random,
-- the time fields included) and v4 facades
CREATE TEMP TABLE ids AS
SELECT overlay(overlay(h PLACING v || substr(h, 14, 3) FROM 13 FOR 4)
               PLACING to_hex((('x' || substr(h, 17, 1))::bit(4)::int & 3) | 8) FROM 17 FOR 1)::uuid AS id, key
FROM (SELECT md5(random()::text) AS h, decode(md5(random()::text), 'hex') AS key,
             CASE WHEN g % 2 = 0 THEN '7' ELSE '4' END AS v
      FROM generate_series(1, 200000) AS g) AS r;
SELECT is((SELECT count(*) FROM ids WHERE cbuild.uuid_extract_version(id) = 7
             AND sqlbuild.uuidv47_encode(id, key) IS DISTINCT FROM cbuild.uuidv47_encode(id, key)),
          0::bigint, 'uuidv47_encode: 100,000 random v7 ids and keys, same facade');
SELECT is((SELECT count(*) FROM ids WHERE cbuild.uuid_extract_version(id) = 4
             AND sqlbuild.uuidv47_decode(id, key) IS DISTINCT FROM cbuild.uuidv47_decode(id, key)),
          0::bigint, 'uuidv47_decode: 100,000 random v4 facades and keys, same id');
SELECT is((SELECT count(*) FROM (SELECT * FROM ids LIMIT 20000) AS s WHERE cbuild.uuid_extract_version(id) = 7
             AND sqlbuild.uuidv47_decode(sqlbuild.uuidv47_encode(id, key), key) IS DISTINCT FROM id),
          0::bigint, 'uuidv47_decode(uuidv47_encode(id)) = id in the SQL build (10,000 ids)');

-- bad ids (every version, Nil, Max, the other variants) and keys (0, 1,
-- 15, 17, 32 bytes), alone and together, and NULLs
CREATE TEMP TABLE calls AS
SELECT format('%s(%L::uuid, %L::bytea)', fn, id, key) AS call
FROM unnest('{uuidv47_encode,uuidv47_decode}'::text[]) AS fn,
     unnest('{00000000-0000-0000-0000-000000000000,ffffffff-ffff-ffff-ffff-ffffffffffff,
              017f22e2-79b0-1cc3-98c4-dc0c0c07398f,017f22e2-79b0-2cc3-98c4-dc0c0c07398f,017f22e2-79b0-3cc3-98c4-dc0c0c07398f,
              017f22e2-79b0-4cc3-98c4-dc0c0c07398f,017f22e2-79b0-5cc3-98c4-dc0c0c07398f,017f22e2-79b0-6cc3-98c4-dc0c0c07398f,
              017f22e2-79b0-7cc3-98c4-dc0c0c07398f,017f22e2-79b0-8cc3-98c4-dc0c0c07398f,017f22e2-79b0-fcc3-98c4-dc0c0c07398f,
              017f22e2-79b0-7cc3-18c4-dc0c0c07398f,017f22e2-79b0-4cc3-c8c4-dc0c0c07398f,017f22e2-79b0-7cc3-e8c4-dc0c0c07398f,
              017f22e2-79b0-4cc3-68c4-dc0c0c07398f}'::text[]) AS id,
     unnest(ARRAY['\x'::bytea, '\x00', decode(repeat('ab', 15), 'hex'), decode(repeat('ab', 16), 'hex'),
                  decode(repeat('ab', 17), 'hex'), decode(repeat('ab', 32), 'hex')]) AS key
UNION ALL
SELECT format('siphash24(%L::bytea, %L::bytea)', data, key)
FROM unnest(ARRAY['\x'::bytea, '\x01020304050607', '\x0102030405060708']) AS data,
     unnest(ARRAY['\x'::bytea, '\x00', decode(repeat('cd', 15), 'hex'), decode(repeat('cd', 16), 'hex'),
                  decode(repeat('cd', 17), 'hex')]) AS key
UNION ALL
VALUES ('uuidv47_encode(NULL, ''\x00''::bytea)'), ('uuidv47_decode(''017f22e2-79b0-4cc3-98c4-dc0c0c07398f'', NULL)'),
       ('siphash24(NULL, NULL)'), ('siphash24(''\x00'', NULL)');
SELECT is((SELECT count(*) FROM calls
           WHERE pg_temp.outcome('sqlbuild.' || call) IS DISTINCT FROM pg_temp.outcome('cbuild.' || call)),
          0::bigint, 'bad ids, bad keys and NULLs: same result, or same SQLSTATE, message, detail and hint');
SELECT is((SELECT count(*) FROM calls WHERE pg_temp.outcome('cbuild.' || call) LIKE 'ERROR 22023: %'),
          (SELECT count(*) FROM calls) - 2 - 3 - 4, 'all but the valid and NULL calls of that list fail with 22023');

-- the labels of every function of this file: the C build's
SELECT is((SELECT count(*) FROM pg_proc s JOIN pg_proc c
             ON c.proname = s.proname AND c.proargtypes = s.proargtypes
            AND c.pronamespace = 'cbuild'::regnamespace
          WHERE s.pronamespace = 'sqlbuild'::regnamespace
            AND s.proname IN ('siphash24', 'uuidv47_encode', 'uuidv47_decode')
            AND (s.provolatile, s.proisstrict, s.proparallel, s.prorettype, s.proargnames::text,
                 obj_description(s.oid, 'pg_proc'))
                IS NOT DISTINCT FROM (c.provolatile, c.proisstrict, c.proparallel, c.prorettype, c.proargnames::text,
                 obj_description(c.oid, 'pg_proc'))),
          3::bigint, 'volatility, strictness, parallel label, result, argument names and comment as in the C build');

-- a hostile search_path: before pg_catalog, an operator of every signature
-- pg_catalog has for the types the bodies use, each raising when called; every call in the SQL build is qualified, so
-- nothing changes
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
CREATE TEMP TABLE hostile_in AS SELECT * FROM ids LIMIT 2000;
CREATE TEMP TABLE hostile_msgs AS SELECT * FROM msgs LIMIT 2000;
SELECT current_setting('search_path') AS saved_path \gset
SET LOCAL search_path = hostile, pg_catalog;
CREATE TEMP TABLE hostile_out AS
SELECT id, key, CASE WHEN cbuild.uuid_extract_version(id) OPERATOR(pg_catalog.=) 7 THEN sqlbuild.uuidv47_encode(id, key)
                     ELSE sqlbuild.uuidv47_decode(id, key) END AS swapped
FROM pg_temp.hostile_in;
CREATE TEMP TABLE hostile_hashes AS SELECT data, key, sqlbuild.siphash24(data, key) AS h FROM pg_temp.hostile_msgs;
SELECT set_config('search_path', :'saved_path', true) AS restored \gset
SELECT is((SELECT count(*) FROM hostile_out
           WHERE swapped IS DISTINCT FROM CASE WHEN cbuild.uuid_extract_version(id) = 7 THEN cbuild.uuidv47_encode(id, key)
                                               ELSE cbuild.uuidv47_decode(id, key) END)
          + (SELECT count(*) FROM hostile_hashes WHERE h IS DISTINCT FROM cbuild.siphash24(data, key)),
          0::bigint, 'a hostile search_path changes nothing');

SELECT * FROM finish();
ROLLBACK;
