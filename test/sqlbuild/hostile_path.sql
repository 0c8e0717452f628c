-- The SQL build's generators, readers, conversions, boundaries and ranges
-- called with a search_path that puts, before pg_catalog, an operator of
-- every signature pg_catalog has for the types they use, each raising when
-- called: PL/pgSQL bodies resolve their operators when they run, so every
-- one must be qualified (OPERATOR(pg_catalog.=), no simple CASE or NULLIF
-- there); SQL-standard bodies bound theirs when created.  The answers must
-- be those of the usual path.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
BEGIN;
SET LOCAL TimeZone = 'UTC';
SELECT plan(4);

CREATE SCHEMA hostile;
DO $$
DECLARE
    o record;
    n int := 0;
BEGIN
    FOR o IN SELECT DISTINCT p.oprname, p.oprleft, p.oprright
             FROM pg_operator p
             WHERE p.oprnamespace = 'pg_catalog'::regnamespace
               AND p.oprright IN ('text'::regtype, 'bytea'::regtype, 'int2'::regtype, 'int4'::regtype, 'int8'::regtype,
                                  'numeric'::regtype, 'float8'::regtype, 'timestamptz'::regtype, 'interval'::regtype,
                                  'uuid'::regtype, 'bool'::regtype, 'tstzrange'::regtype, 'bit'::regtype)
               AND (p.oprleft = 0 OR p.oprleft IN ('text'::regtype, 'bytea'::regtype, 'int2'::regtype, 'int4'::regtype,
                                                  'int8'::regtype, 'numeric'::regtype, 'float8'::regtype,
                                                  'timestamptz'::regtype, 'interval'::regtype, 'uuid'::regtype,
                                                  'bool'::regtype, 'tstzrange'::regtype, 'bit'::regtype))
    LOOP
        n := n + 1;
        IF o.oprleft = 0 THEN
            EXECUTE format('CREATE FUNCTION hostile.boom%s(%s) RETURNS boolean LANGUAGE plpgsql AS '
                           '$b$ BEGIN RAISE EXCEPTION ''hostile operator called''; END $b$',
                           n, o.oprright::regtype);
            EXECUTE format('CREATE OPERATOR hostile.%s (FUNCTION = hostile.boom%s, RIGHTARG = %s)',
                           o.oprname, n, o.oprright::regtype);
        ELSE
            EXECUTE format('CREATE FUNCTION hostile.boom%s(%s, %s) RETURNS boolean LANGUAGE plpgsql AS '
                           '$b$ BEGIN RAISE EXCEPTION ''hostile operator called''; END $b$',
                           n, o.oprleft::regtype, o.oprright::regtype);
            EXECUTE format('CREATE OPERATOR hostile.%s (FUNCTION = hostile.boom%s, LEFTARG = %s, RIGHTARG = %s)',
                           o.oprname, n, o.oprleft::regtype, o.oprright::regtype);
        END IF;
    END LOOP;
END $$;
SELECT ok((SELECT count(*) FROM pg_operator WHERE oprnamespace = 'hostile'::regnamespace) > 200,
          'operators planted: ' || (SELECT count(*) FROM pg_operator WHERE oprnamespace = 'hostile'::regnamespace));

-- the inputs, and what each function answers with the usual path
CREATE TEMP TABLE inputs AS
SELECT g, id, t, r
FROM generate_series(1, 300) AS g,
     LATERAL (SELECT (ARRAY[cbuild.uuidv7(), cbuild.uuidv6(), cbuild.uuidv6_to_v1(cbuild.uuidv6()), cbuild.uuidv4(),
                            '00000000-0000-7000-0000-000000000000'::uuid])[g % 5 + 1] AS id,
                     timestamptz '2026-01-01 00:00:00+00' + g * interval '1 day 1.000245 seconds' AS t) AS x,
     LATERAL (SELECT tstzrange(t - interval '1 hour', t + interval '1 hour', (ARRAY['[]', '()', '[)', '(]'])[g % 4 + 1]) AS r) AS y;
-- (a SQL-standard body: its own operators are bound here, before the path changes)
CREATE FUNCTION pg_temp.answers() RETURNS TABLE (g int, answer text) LANGUAGE sql
BEGIN ATOMIC
    SELECT g, concat_ws(' ', sqlbuild.uuid_extract_timestamp(id), sqlbuild.uuid_extract_timestamp_us(id),
                        sqlbuild.uuid_extract_version(id),
                        CASE WHEN cbuild.uuid_extract_version(id) = 1 THEN sqlbuild.uuidv1_to_v6(id) END,
                        CASE WHEN cbuild.uuid_extract_version(id) = 6 THEN sqlbuild.uuidv6_to_v1(id) END,
                        sqlbuild.uuidv7_boundary(t), sqlbuild.uuidv7_boundary_upper(t),
                        sqlbuild.uuidv6_boundary(t), sqlbuild.uuidv6_boundary_upper(t),
                        sqlbuild.uuidv7_range_lower(r), sqlbuild.uuidv7_range_upper(r),
                        sqlbuild.uuidv6_range_lower(r), sqlbuild.uuidv6_range_upper(r),
                        sqlbuild.uuidv7_in_time_range(id, r), sqlbuild.uuidv6_in_time_range(id, r),
                        sqlbuild.uuidv7_in_time_range_recheck(id, r), sqlbuild.uuidv6_in_time_range_recheck(id, r),
                        sqlbuild.uuid_smaller(id, cbuild.uuidv7_boundary(t)), sqlbuild.uuid_larger(id, cbuild.uuidv7_boundary(t)),
                        substring(uuid_send(sqlbuild.uuidv7_at(t)) FROM 1 FOR 8),
                        substring(uuid_send(sqlbuild.uuidv7_at(t::timestamp)) FROM 1 FOR 8))
    FROM inputs;
END;
-- an expression's error, as SQLSTATE and message ('' when none)
CREATE FUNCTION pg_temp.error_of(expr text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    st text;
    msg text;
BEGIN
    EXECUTE pg_catalog.concat('SELECT ', expr);
    RETURN '';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
    RETURN pg_catalog.format('%s %s', st, msg);
END $$;
CREATE TEMP TABLE usual AS SELECT * FROM pg_temp.answers();

SELECT current_setting('search_path') AS saved_path \gset
SET LOCAL search_path = hostile, pg_catalog;
CREATE TEMP TABLE planted AS SELECT * FROM pg_temp.answers();
CREATE TEMP TABLE made AS
SELECT g, sqlbuild.uuidv7() AS v7, sqlbuild.uuidv7(interval '-1 minute') AS v7s, sqlbuild.uuidv6() AS v6, sqlbuild.uuidv4() AS v4
FROM generate_series(1, 1000) AS g;
CREATE TEMP TABLE failed AS
SELECT expr, pg_temp.error_of(expr) AS error
FROM (VALUES ('sqlbuild.uuidv7(interval ''-100 years'')'), ('sqlbuild.uuidv1_to_v6(sqlbuild.uuidv4())'),
             ('sqlbuild.uuidv6_boundary(''infinity'')'), ('sqlbuild.uuidv7_at(''1969-01-01''::timestamptz)')) AS e(expr);
SELECT set_config('search_path', :'saved_path', true) AS restored \gset

SELECT is((SELECT count(*) FROM usual u JOIN planted p USING (g) WHERE u.answer IS DISTINCT FROM p.answer)
          + (SELECT count(*) FROM usual) - (SELECT count(*) FROM planted), 0::bigint,
          'readers, conversions, boundaries, edges, predicates, min/max parts, uuidv7_at: the usual answers');
SELECT is((SELECT count(*) FROM (SELECT v7, lag(v7) OVER (ORDER BY g) AS p7, v6, lag(v6) OVER (ORDER BY g) AS p6,
                                        v7s, v4 FROM made) s
           WHERE v7 <= p7 OR v6 <= p6 OR cbuild.uuid_extract_version(v7s) <> 7 OR cbuild.uuid_extract_version(v4) <> 4), 0::bigint,
          'the generators: in order, of their versions');
SELECT is((SELECT string_agg(error, '; ' ORDER BY expr COLLATE "C") FROM failed),
          '22023 UUID must be of version 1; 22008 timestamp out of range for UUIDv6; '
          || '22008 timestamp out of range for UUIDv7; 22008 timestamp out of range for UUIDv7',
          'the errors: raised as such, no planted operator called');

SELECT * FROM finish();
ROLLBACK;
