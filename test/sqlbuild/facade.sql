-- The SQL build's UUIDv47 facade and SipHash-2-4 against the C build's:
-- siphash24, uuidv47_encode, uuidv47_decode.  The C build is the extension
-- in schema cbuild, the SQL build the plain script in schema sqlbuild.  The
-- paper's 64 vectors and the reference's crafted ids; 100,000 random
-- messages of 0-100 bytes, 100,000 random v7 ids and 100,000 random v4
-- facades, each under its own random key (seeded: the seed is printed, and
-- PGOPTIONS='-c pg_uuidx.seed=S' replays a run); bad ids and keys compared by
-- SQLSTATE, message, detail and hint; a hostile search_path, and strings
-- read with standard_conforming_strings off.
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
BEGIN;
CREATE EXTENSION IF NOT EXISTS pgtap;
SELECT plan(12);

SELECT diag('seed ' || s || ' (replay: PGOPTIONS=''-c pg_uuidx.seed=' || s || ''')')
FROM (SELECT coalesce(nullif(current_setting('pg_uuidx.seed', true), '')::float8,
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

-- SipHash-2-4: the paper's 64 vectors (key 00..0f, message 00..len-1)
CREATE TEMP TABLE sip_vectors (len int, expected bytea);
INSERT INTO sip_vectors VALUES
    (0, '\x310e0edd47db6f72'::bytea),
    (1, '\xfd67dc93c539f874'::bytea),
    (2, '\x5a4fa9d909806c0d'::bytea),
    (3, '\x2d7efbd796666785'::bytea),
    (4, '\xb7877127e09427cf'::bytea),
    (5, '\x8da699cd64557618'::bytea),
    (6, '\xcee3fe586e46c9cb'::bytea),
    (7, '\x37d1018bf50002ab'::bytea),
    (8, '\x6224939a79f5f593'::bytea),
    (9, '\xb0e4a90bdf82009e'::bytea),
    (10, '\xf3b9dd94c5bb5d7a'::bytea),
    (11, '\xa7ad6b22462fb3f4'::bytea),
    (12, '\xfbe50e86bc8f1e75'::bytea),
    (13, '\x903d84c02756ea14'::bytea),
    (14, '\xeef27a8e90ca23f7'::bytea),
    (15, '\xe545be4961ca29a1'::bytea),
    (16, '\xdb9bc2577fcc2a3f'::bytea),
    (17, '\x9447be2cf5e99a69'::bytea),
    (18, '\x9cd38d96f0b3c14b'::bytea),
    (19, '\xbd6179a71dc96dbb'::bytea),
    (20, '\x98eea21af25cd6be'::bytea),
    (21, '\xc7673b2eb0cbf2d0'::bytea),
    (22, '\x883ea3e395675393'::bytea),
    (23, '\xc8ce5ccd8c030ca8'::bytea),
    (24, '\x94af49f6c650adb8'::bytea),
    (25, '\xeab8858ade92e1bc'::bytea),
    (26, '\xf315bb5bb835d817'::bytea),
    (27, '\xadcf6b0763612e2f'::bytea),
    (28, '\xa5c91da7acaa4dde'::bytea),
    (29, '\x716595876650a2a6'::bytea),
    (30, '\x28ef495c53a387ad'::bytea),
    (31, '\x42c341d8fa92d832'::bytea),
    (32, '\xce7cf2722f512771'::bytea),
    (33, '\xe37859f94623f3a7'::bytea),
    (34, '\x381205bb1ab0e012'::bytea),
    (35, '\xae97a10fd434e015'::bytea),
    (36, '\xb4a31508beff4d31'::bytea),
    (37, '\x81396229f0907902'::bytea),
    (38, '\x4d0cf49ee5d4dcca'::bytea),
    (39, '\x5c73336a76d8bf9a'::bytea),
    (40, '\xd0a704536ba93e0e'::bytea),
    (41, '\x925958fcd6420cad'::bytea),
    (42, '\xa915c29bc8067318'::bytea),
    (43, '\x952b79f3bc0aa6d4'::bytea),
    (44, '\xf21df2e41d4535f9'::bytea),
    (45, '\x87577519048f53a9'::bytea),
    (46, '\x10a56cf5dfcd9adb'::bytea),
    (47, '\xeb75095ccd986cd0'::bytea),
    (48, '\x51a9cb9ecba312e6'::bytea),
    (49, '\x96afadfc2ce666c7'::bytea),
    (50, '\x72fe52975a4364ee'::bytea),
    (51, '\x5a1645b276d592a1'::bytea),
    (52, '\xb274cb8ebf87870a'::bytea),
    (53, '\x6f9bb4203de7b381'::bytea),
    (54, '\xeaecb2a30b22a87f'::bytea),
    (55, '\x9924a43cc1315724'::bytea),
    (56, '\xbd838d3aafbf8db7'::bytea),
    (57, '\x0b1a2a3265d51aea'::bytea),
    (58, '\x135079a3231ce660'::bytea),
    (59, '\x932b2846e4d70666'::bytea),
    (60, '\xe1915f5cb1eca46c'::bytea),
    (61, '\xf325965ca16d629f'::bytea),
    (62, '\x575ff28e60381be5'::bytea),
    (63, '\x724506eb4c328a95'::bytea);
SELECT is((SELECT count(*) FROM sip_vectors
           WHERE sqlbuild.siphash24(coalesce((SELECT string_agg(set_byte('\x00'::bytea, 0, b), ''::bytea ORDER BY b)
                                              FROM generate_series(0, len - 1) AS b), ''::bytea),
                                    '\x000102030405060708090a0b0c0d0e0f') = expected),
          64::bigint, 'siphash24: the paper''s 64 vectors');

-- the UUIDv47 reference's crafted ids (as in sql/facade.sql)
CREATE TEMP TABLE ref_vectors (v7 uuid, facade uuid);
INSERT INTO ref_vectors VALUES
    ('00000000-007b-7aaa-8123-456789abcdef'::uuid, 'b108050e-46b6-4aaa-8123-456789abcdef'::uuid),
    ('00000010-007b-7aad-9032-547698badcfe'::uuid, 'bc75bd50-97ef-4aad-9032-547698badcfe'::uuid),
    ('00000020-007b-7aa4-a301-6745ab89efcd'::uuid, 'a3e09c87-bf85-4aa4-a301-6745ab89efcd'::uuid),
    ('00000030-007b-7abf-b210-7654ba98fedc'::uuid, '4a643a79-6975-4abf-b210-7654ba98fedc'::uuid),
    ('00000040-007b-7ab6-8567-0123cdef89ab'::uuid, 'ba071f02-23bd-4ab6-8567-0123cdef89ab'::uuid),
    ('00000050-007b-7a89-9476-1032dcfe98ba'::uuid, 'b215242c-6fb1-4a89-9476-1032dcfe98ba'::uuid),
    ('00000060-007b-7a80-a745-2301efcdab89'::uuid, 'e8e788cf-ded6-4a80-a745-2301efcdab89'::uuid),
    ('00000070-007b-7a9b-b654-3210fedcba98'::uuid, '3d4b88de-ece3-4a9b-b654-3210fedcba98'::uuid),
    ('00000080-007b-7a92-89ab-cdef01234567'::uuid, '9d9bd354-51fe-4a92-89ab-cdef01234567'::uuid),
    ('00000090-007b-7a95-98ba-dcfe10325476'::uuid, 'f261fb3c-8b2e-4a95-98ba-dcfe10325476'::uuid),
    ('000000a0-007b-7aec-ab89-efcd23016745'::uuid, '31c34e74-1771-4aec-ab89-efcd23016745'::uuid),
    ('000000b0-007b-7ae7-ba98-fedc32107654'::uuid, '928f4297-9c9b-4ae7-ba98-fedc32107654'::uuid),
    ('000000c0-007b-7afe-8def-89ab45670123'::uuid, 'b8c1b1f0-8831-4afe-8def-89ab45670123'::uuid),
    ('000000d0-007b-7af1-9cfe-98ba54761032'::uuid, '3994c161-2a72-4af1-9cfe-98ba54761032'::uuid),
    ('000000e0-007b-7ac8-afcd-ab8967452301'::uuid, 'fae6e510-f8b5-4ac8-afcd-ab8967452301'::uuid),
    ('000000f0-007b-7ac3-bedc-ba9876543210'::uuid, 'ce171cbd-d0f1-4ac3-bedc-ba9876543210'::uuid),
    ('12345678-9abc-7abc-8123-456789abcdef'::uuid, '386ef887-69df-4abc-8123-456789abcdef'::uuid);
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
