-- The SQL build's text forms against the C build's: uuid_to_base32hex,
-- base32hex_to_uuid, uuid_to_ulid, ulid_to_uuid, ulid_extract_timestamp,
-- typeid, typeid_to_uuid, typeid_prefix, uuid_extract_timestamp_from_text.
-- The C build is the extension in schema cbuild, the SQL build the plain
-- script in schema sqlbuild.  100,000 random ids (every bit pattern, v7 ids,
-- the edges) through every function, the texts in either case and padded;
-- then bad text, the edge list of sql/textforms.sql and random mutations of
-- valid texts, compared by SQLSTATE, message, detail and hint (seeded: the
-- seed is printed, and PGOPTIONS='-c pg_uuidx_test.seed=S' replays a run); a
-- nondeterministic collation and a hostile search_path.
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
BEGIN;
CREATE EXTENSION IF NOT EXISTS pgtap;
SET LOCAL TimeZone = 'UTC';
SELECT plan(20);

SELECT diag('seed ' || s || ' (replay: PGOPTIONS=''-c pg_uuidx_test.seed=' || s || ''')')
FROM (SELECT coalesce(nullif(current_setting('pg_uuidx_test.seed', true), '')::float8,
                      round(random()::numeric, 6)::float8) AS s) AS seed, setseed(s);

-- 100,000 ids: random bits, v7 ids, the edges; a TypeID prefix for each
CREATE TEMP TABLE ids AS
SELECT CASE WHEN g % 3 = 0 THEN cbuild.uuidv7() ELSE md5(random()::text)::uuid END AS id,
       (ARRAY['', 'a', 'user', 'order_line', 'a_b_c', 'z', repeat('x', 63), 'abcdefghijklmnopqrstuvwxyz'])[1 + g % 8] AS prefix
FROM generate_series(1, 100000) AS g
UNION ALL
SELECT id::uuid, 'edge' FROM unnest('{00000000-0000-0000-0000-000000000000,ffffffff-ffff-ffff-ffff-ffffffffffff,
    80000000-0000-0000-0000-000000000000,00000000-0000-0000-0000-000000000001,7fffffff-ffff-ffff-ffff-ffffffffffff,
    ffffffff-ffff-7fff-bfff-ffffffffffff,00000000-0000-7000-8000-000000000000}'::text[]) AS id;
CREATE TEMP TABLE texts AS
SELECT id, prefix, cbuild.uuid_to_base32hex(id) AS b32, cbuild.uuid_to_ulid(id) AS ulid,
       cbuild.typeid(prefix, id) AS tid, random() AS r
FROM ids;

SELECT is((SELECT count(*) FROM texts WHERE sqlbuild.uuid_to_base32hex(id) IS DISTINCT FROM b32),
          0::bigint, 'uuid_to_base32hex: 100,007 ids, same text');
SELECT is((SELECT count(*) FROM texts WHERE sqlbuild.uuid_to_ulid(id) IS DISTINCT FROM ulid),
          0::bigint, 'uuid_to_ulid: 100,007 ids, same text');
SELECT is((SELECT count(*) FROM texts WHERE sqlbuild.typeid(prefix, id) IS DISTINCT FROM tid),
          0::bigint, 'typeid: 100,007 ids and prefixes, same text');
-- decoding: upper, lower or mixed case (and base32hex padded or not)
SELECT is((SELECT count(*) FROM texts,
                  LATERAL (SELECT CASE WHEN r < 0.3 THEN lower(b32) WHEN r < 0.6 THEN b32
                                       ELSE translate(b32, 'ACEGIKMOQSU', 'acegikmoqsu') END
                                  || CASE WHEN (r * 10)::numeric % 1 < 0.3 THEN '======' ELSE '' END AS t) AS v
           WHERE sqlbuild.base32hex_to_uuid(t) IS DISTINCT FROM cbuild.base32hex_to_uuid(t)),
          0::bigint, 'base32hex_to_uuid: 100,007 texts, either case, padded or not, same ids');
SELECT is((SELECT count(*) FROM texts,
                  LATERAL (SELECT CASE WHEN r < 0.3 THEN lower(ulid) WHEN r < 0.6 THEN ulid
                                       ELSE translate(ulid, 'ACEGJMPRTWY', 'acegjmprtwy') END AS t) AS v
           WHERE sqlbuild.ulid_to_uuid(t) IS DISTINCT FROM cbuild.ulid_to_uuid(t)),
          0::bigint, 'ulid_to_uuid: 100,007 texts, either case, same ids');
SELECT is((SELECT count(*) FROM texts WHERE sqlbuild.typeid_to_uuid(tid) IS DISTINCT FROM cbuild.typeid_to_uuid(tid)),
          0::bigint, 'typeid_to_uuid: 100,007 TypeIDs, same ids');
SELECT is((SELECT count(*) FROM texts WHERE sqlbuild.typeid_prefix(tid) IS DISTINCT FROM cbuild.typeid_prefix(tid)),
          0::bigint, 'typeid_prefix: 100,007 TypeIDs, same prefixes');
SELECT is((SELECT count(*) FROM texts WHERE sqlbuild.ulid_extract_timestamp(id) IS DISTINCT FROM cbuild.ulid_extract_timestamp(id)),
          0::bigint, 'ulid_extract_timestamp: 100,007 ids, same time');
-- the uuid's text as uuid_in takes it: canonical, upper case, braces, no hyphens
SELECT is((SELECT count(*) FROM texts,
                  LATERAL (SELECT CASE WHEN r < 0.4 THEN id::text WHEN r < 0.6 THEN upper(id::text)
                                       WHEN r < 0.8 THEN '{' || id || '}' ELSE replace(id::text, '-', '') END AS t) AS v
           WHERE sqlbuild.uuid_extract_timestamp_from_text(t) IS DISTINCT FROM cbuild.uuid_extract_timestamp_from_text(t)),
          0::bigint, 'uuid_extract_timestamp_from_text: 100,007 texts, same time');

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
-- the same for one function of one build, by static calls (no parsing per
-- call; qualified operators: it also runs under the hostile search_path
-- below): f is 1 base32hex_to_uuid, 2 ulid_to_uuid, 3 typeid_to_uuid,
-- 4 typeid_prefix, 5 typeid(t, a fixed id)
CREATE FUNCTION pg_temp.decoded(sql boolean, f int, t text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    st text; msg text; det text; hin text;
BEGIN
    IF sql THEN
        RETURN CASE WHEN f OPERATOR(pg_catalog.=) 1 THEN sqlbuild.base32hex_to_uuid(t)::text
                    WHEN f OPERATOR(pg_catalog.=) 2 THEN sqlbuild.ulid_to_uuid(t)::text
                    WHEN f OPERATOR(pg_catalog.=) 3 THEN sqlbuild.typeid_to_uuid(t)::text
                    WHEN f OPERATOR(pg_catalog.=) 4 THEN sqlbuild.typeid_prefix(t)
                    ELSE sqlbuild.typeid(t, '01890a5d-ac96-774b-bcce-b302099a8057') END;
    END IF;
    RETURN CASE f WHEN 1 THEN cbuild.base32hex_to_uuid(t)::text WHEN 2 THEN cbuild.ulid_to_uuid(t)::text
                  WHEN 3 THEN cbuild.typeid_to_uuid(t)::text WHEN 4 THEN cbuild.typeid_prefix(t)
                  ELSE cbuild.typeid(t, '01890a5d-ac96-774b-bcce-b302099a8057') END;
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL, hin = PG_EXCEPTION_HINT;
    RETURN format('ERROR %s: %s | %s | %s', st, msg, det, hin);
END $$;

-- the vectors of test/vectors/textforms.sql, which sql/textforms.sql reads
-- too: the TypeID spec's valid.yml, and bad text for every rule
\ir ../vectors/textforms.sql
SELECT is((SELECT count(*) FROM typeid_valid
           WHERE sqlbuild.typeid(prefix, id) = tid AND sqlbuild.typeid_to_uuid(tid) = id
             AND sqlbuild.typeid_prefix(tid) = prefix),
          (SELECT count(*) FROM typeid_valid), 'the TypeID spec''s valid.yml, both directions');
SELECT is((SELECT count(*) FROM textform_bad_calls
           WHERE pg_temp.outcome(replace(replace(replace(replace(replace(replace(call, 'base32hex_to_uuid(', 'sqlbuild.base32hex_to_uuid('),
                    'ulid_to_uuid(', 'sqlbuild.ulid_to_uuid('), 'typeid_to_uuid(', 'sqlbuild.typeid_to_uuid('),
                    'typeid_prefix(', 'sqlbuild.typeid_prefix('), 'typeid(', 'sqlbuild.typeid('), 'uuid_to_ulid(', 'sqlbuild.uuid_to_ulid('))
                 IS DISTINCT FROM
                 pg_temp.outcome(replace(replace(replace(replace(replace(replace(call, 'base32hex_to_uuid(', 'cbuild.base32hex_to_uuid('),
                    'ulid_to_uuid(', 'cbuild.ulid_to_uuid('), 'typeid_to_uuid(', 'cbuild.typeid_to_uuid('),
                    'typeid_prefix(', 'cbuild.typeid_prefix('), 'typeid(', 'cbuild.typeid('), 'uuid_to_ulid(', 'cbuild.uuid_to_ulid('))),
          0::bigint, 'the bad text of sql/textforms.sql: same SQLSTATE, message, detail and hint');
SELECT is((SELECT count(*) FROM textform_bad_calls
           WHERE pg_temp.outcome(replace(replace(replace(replace(replace(replace(call, 'base32hex_to_uuid(', 'cbuild.base32hex_to_uuid('),
                    'ulid_to_uuid(', 'cbuild.ulid_to_uuid('), 'typeid_to_uuid(', 'cbuild.typeid_to_uuid('),
                    'typeid_prefix(', 'cbuild.typeid_prefix('), 'typeid(', 'cbuild.typeid('), 'uuid_to_ulid(', 'cbuild.uuid_to_ulid('))
                 LIKE 'ERROR 22P02%'),
          (SELECT count(*) - 4 FROM textform_bad_calls), 'all but the valid and NULL calls of that list fail');

-- random mutations of valid texts: a character replaced (by one of the
-- alphabet's neighbours, an alias, a separator, padding, a control or
-- non-ASCII character), deleted or inserted, the text cut or extended,
-- the case of letters swapped, or (TypeID) the prefix replaced; some stay
-- valid
CREATE FUNCTION pg_temp.mutated(t text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    pool text := '0178ABIiLlOoUuVvWwZz_=-. é€😀' || chr(9) || chr(1) || chr(127);
    c text := substr(pool, 1 + floor(random() * length(pool))::int, 1);
    p int := 1 + floor(random() * greatest(length(t), 1))::int;
BEGIN
    RETURN CASE floor(random() * 9)::int
        WHEN 0 THEN overlay(t PLACING c FROM p FOR 1)
        WHEN 1 THEN overlay(t PLACING '' FROM p FOR 1)
        WHEN 2 THEN overlay(t PLACING c FROM p FOR 0)
        WHEN 3 THEN left(t, p - 1)
        WHEN 4 THEN t || repeat(c, 1 + floor(random() * 80)::int)
        WHEN 5 THEN overlay(t PLACING c FROM 1 FOR 1)
        WHEN 6 THEN translate(t, 'abcdefghjkmnpqrstvwxyzABCDEFGHJKMNPQRSTVWXYZ', 'ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyz')
        WHEN 7 THEN overlay(t PLACING repeat(c, floor(random() * 3)::int) || substr('ab_z', 1 + floor(random() * 4)::int)
                            FROM 1 FOR greatest(strpos(t, '_'), 1))
        ELSE t END;
END $$;
CREATE TEMP TABLE bad AS
SELECT f, pg_temp.mutated(CASE f WHEN 1 THEN b32 WHEN 2 THEN ulid WHEN 3 THEN tid WHEN 4 THEN tid ELSE prefix END) AS t
FROM (SELECT * FROM texts ORDER BY r LIMIT 10000) AS s, generate_series(1, 5) AS f;
SELECT cmp_ok((SELECT count(*) FROM bad WHERE pg_temp.decoded(false, f, t) LIKE 'ERROR%'), '>', 20000::bigint,
              'most of the 50,000 mutated texts are bad');
SELECT is((SELECT count(*) FROM bad WHERE pg_temp.decoded(true, f, t) IS DISTINCT FROM pg_temp.decoded(false, f, t)),
          0::bigint, '50,000 mutated texts (10,000 for each decoder and typeid''s prefix): same result or error');
SELECT is((SELECT array_agg(t ORDER BY t) FROM (SELECT t FROM bad WHERE pg_temp.decoded(true, f, t) IS DISTINCT FROM pg_temp.decoded(false, f, t)
                                                LIMIT 5) AS d),
          NULL, 'the first mutated texts that differ (none)');

-- text under a nondeterministic collation is read as bytes, as in the C build
-- (ICU's case-insensitive one; a server built without ICU gets a plain one)
DO $$
BEGIN
    CREATE COLLATION pg_temp_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
EXCEPTION WHEN feature_not_supported THEN
    CREATE COLLATION pg_temp_ci (locale = 'C');
END $$;
SELECT diag('collation pg_temp_ci: ' || CASE WHEN collisdeterministic THEN 'deterministic (no ICU)' ELSE 'ICU, nondeterministic' END)
FROM pg_collation WHERE collname = 'pg_temp_ci';
SELECT is((SELECT count(*) FROM (SELECT * FROM bad ORDER BY t LIMIT 5000) AS s
           WHERE pg_temp.decoded(true, f, t COLLATE pg_temp_ci) IS DISTINCT FROM pg_temp.decoded(false, f, t COLLATE pg_temp_ci)),
          0::bigint, 'under a nondeterministic collation: same result or error');

-- NULL in, NULL out
SELECT is(ARRAY[sqlbuild.uuid_to_base32hex(NULL), sqlbuild.base32hex_to_uuid(NULL)::text, sqlbuild.uuid_to_ulid(NULL),
                sqlbuild.ulid_to_uuid(NULL)::text, sqlbuild.ulid_extract_timestamp(NULL)::text, sqlbuild.typeid(NULL, NULL),
                sqlbuild.typeid('a', NULL), sqlbuild.typeid(NULL, '01890a5d-ac96-774b-bcce-b302099a8057'),
                sqlbuild.typeid_to_uuid(NULL)::text, sqlbuild.typeid_prefix(NULL), sqlbuild.uuid_extract_timestamp_from_text(NULL)::text],
          array_fill(NULL::text, ARRAY[11]), 'STRICT: NULL in, NULL out');

-- the labels of every function of this file: the C build's
SELECT is((SELECT count(*) FROM pg_proc s JOIN pg_proc c
             ON c.proname = s.proname AND c.proargtypes = s.proargtypes
            AND c.pronamespace = 'cbuild'::regnamespace
          WHERE s.pronamespace = 'sqlbuild'::regnamespace
            AND s.proname IN ('uuid_to_base32hex', 'base32hex_to_uuid', 'uuid_to_ulid', 'ulid_to_uuid', 'ulid_extract_timestamp',
                              'typeid', 'typeid_to_uuid', 'typeid_prefix', 'uuid_extract_timestamp_from_text')
            AND (s.provolatile, s.proisstrict, s.proparallel, s.prorettype, s.proargnames::text,
                 obj_description(s.oid, 'pg_proc'))
                IS NOT DISTINCT FROM (c.provolatile, c.proisstrict, c.proparallel, c.prorettype, c.proargnames::text,
                 obj_description(c.oid, 'pg_proc'))),
          9::bigint, 'volatility, strictness, parallel label, result, argument names and comment as in the C build');

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
CREATE TEMP TABLE hostile_in AS SELECT * FROM texts ORDER BY r LIMIT 2000;
CREATE TEMP TABLE hostile_bad AS SELECT * FROM bad ORDER BY t LIMIT 2000;
SELECT current_setting('search_path') AS saved_path \gset
-- (an error there is caught and reported, the rest of the file runs on)
CREATE TEMP TABLE hostile_out AS
SELECT id, b32, ulid, tid, id AS from_b32, id AS from_ulid, id AS from_tid, prefix,
       cbuild.ulid_extract_timestamp(id) AS ts, cbuild.uuid_extract_timestamp_from_text(id::text) AS ts_text
FROM hostile_in WHERE false;
CREATE TEMP TABLE hostile_bad_out AS SELECT f, t, ''::text AS outcome FROM hostile_bad WHERE false;
CREATE TEMP TABLE hostile_error (error text);
SET LOCAL search_path = hostile, pg_catalog;
DO $$
DECLARE
    context text;
BEGIN
    INSERT INTO pg_temp.hostile_out
    SELECT id, sqlbuild.uuid_to_base32hex(id), sqlbuild.uuid_to_ulid(id), sqlbuild.typeid(prefix, id),
           sqlbuild.base32hex_to_uuid(b32), sqlbuild.ulid_to_uuid(ulid), sqlbuild.typeid_to_uuid(tid),
           sqlbuild.typeid_prefix(tid), sqlbuild.ulid_extract_timestamp(id),
           sqlbuild.uuid_extract_timestamp_from_text(id::text)
    FROM pg_temp.hostile_in;
    INSERT INTO pg_temp.hostile_bad_out SELECT f, t, pg_temp.decoded(true, f, t) FROM pg_temp.hostile_bad;
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS context = PG_EXCEPTION_CONTEXT;
    INSERT INTO pg_temp.hostile_error
    VALUES (pg_catalog.format('%s (%s)', SQLERRM, pg_catalog.replace(context, pg_catalog.chr(10), '; ')));
END
$$;
SELECT set_config('search_path', :'saved_path', true) AS restored \gset
SELECT is((SELECT string_agg(error, '; ') FROM hostile_error), NULL, 'no error under a hostile search_path');
SELECT is((SELECT count(*) FROM hostile_out h JOIN hostile_in i USING (id)
           WHERE (h.b32, h.ulid, h.tid, h.from_b32, h.from_ulid, h.from_tid, h.prefix, h.ts, h.ts_text)
                 IS DISTINCT FROM (i.b32, i.ulid, i.tid, i.id, i.id, i.id, i.prefix, cbuild.ulid_extract_timestamp(i.id),
                                   cbuild.uuid_extract_timestamp_from_text(i.id::text)))
          + (SELECT count(*) FROM hostile_bad_out WHERE outcome IS DISTINCT FROM pg_temp.decoded(false, f, t))
          + (SELECT 4000 - count(*) FROM (SELECT 1 FROM hostile_out UNION ALL SELECT 1 FROM hostile_bad_out) AS rows),
          0::bigint, 'a hostile search_path changes nothing');

SELECT * FROM finish();
ROLLBACK;
