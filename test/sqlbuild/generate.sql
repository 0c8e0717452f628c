-- The SQL build's generators (schema sqlbuild) against the C build's
-- (schema cbuild): layout, version and variant, order within a session, and
-- the time of each id within the clock readings around its call; ordering
-- through a clock step back (the session state set ahead of the clock);
-- uuidv7_at's time against the C build's for random instants, its order
-- for a repeated instant and its limit; the errors, same SQLSTATE, message
-- and detail; the session state at its ends and holding what the generators
-- never write.  Random instants are seeded: the seed is printed, and
-- PGOPTIONS='-c pg_uuidx_test.seed=S' replays a run.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
BEGIN;
SET LOCAL TimeZone = 'UTC';
SELECT plan(116);

SELECT diag('seed ' || s || ' (replay: PGOPTIONS=''-c pg_uuidx_test.seed=' || s || ''')')
FROM (SELECT coalesce(nullif(current_setting('pg_uuidx_test.seed', true), '')::float8,
                      round(random()::numeric, 6)::float8) AS s) AS seed, setseed(s);

-- the outcome of an expression: its value as text, or its error
CREATE FUNCTION pg_temp.outcome(expr text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
    st text;
    msg text;
    det text;
BEGIN
    EXECUTE 'SELECT (' || expr || ')::text' INTO r;
    RETURN coalesce(r, 'NULL');
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL;
    RETURN format('ERROR %s: %s (%s)', st, msg, det);
END $$;

-- 200k ids of each generator, each with the clock read before and after it
CREATE TEMP TABLE made AS
SELECT g, fn, clock_timestamp() AS t0,
       CASE fn WHEN 'uuidv7()' THEN sqlbuild.uuidv7() WHEN 'uuidv6()' THEN sqlbuild.uuidv6() ELSE sqlbuild.uuidv4() END AS id,
       clock_timestamp() AS t1
FROM generate_series(1, 200000) AS g, (VALUES ('uuidv7()'), ('uuidv6()'), ('uuidv4()')) AS v(fn);

SELECT is((SELECT string_agg(DISTINCT fn || ' ' || cbuild.uuid_extract_version(id) || '/' || (get_byte(uuid_send(id), 8) >> 6), ', ')
           FROM made), 'uuidv4() 4/2, uuidv6() 6/2, uuidv7() 7/2',
          'version and RFC variant of each generator');
SELECT is((SELECT count(*) FROM made WHERE fn = 'uuidv6()' AND get_byte(uuid_send(id), 10) & 1 = 0), 0::bigint,
          'uuidv6(): the node has its multicast bit set (RFC 9562 6.10)');
SELECT is((SELECT count(DISTINCT id) FROM made), 600000::bigint, '600k ids, all distinct');
SELECT is((SELECT count(*) FROM (SELECT fn, id, lag(id) OVER (PARTITION BY fn ORDER BY g) AS prev FROM made
                                 WHERE fn <> 'uuidv4()') s
           WHERE id <= prev), 0::bigint,
          'uuidv7(), uuidv6(): each id is greater than the one made before it in the session');
-- uuid_extract_timestamp_us of the C build: microseconds, as the clock
SELECT is((SELECT count(*) FROM made WHERE fn <> 'uuidv4()'
           AND NOT cbuild.uuid_extract_timestamp_us(id) BETWEEN t0 AND t1), 0::bigint,
          'uuidv7(), uuidv6(): the time of each id lies within the clock readings around its call');
SELECT ok((SELECT count(DISTINCT left(id::text, 13)) FROM made WHERE fn = 'uuidv7()') > 10,
          'uuidv7(): the milliseconds follow the clock');

-- random bits: each of the 62 bits after the variant of v7 ids is set in
-- about half of them (the C build's counter bits aside, both builds are
-- random there)
SELECT ok((SELECT bool_and(ones BETWEEN 9500 AND 10500) FROM (
               SELECT b, count(*) FILTER (WHERE get_bit(uuid_send(id), b) = 1) AS ones
               FROM made, generate_series(64, 127) AS b
               WHERE fn = 'uuidv7()' AND g <= 20000 AND b NOT IN (70, 71)
               GROUP BY b) s),
          'uuidv7(): the 62 bits after the variant are random');

-- a clock step back: the session's last tick one hour ahead of the clock
DO $$
BEGIN
    PERFORM set_config('pg_uuidx_sql.uuidv7_tick',
                       ((extract(epoch FROM clock_timestamp() + interval '1 hour') * 1000000)::int8 * 4096 / 1000)::text, false);
    PERFORM set_config('pg_uuidx_sql.uuidv6_tick',
                       ((extract(epoch FROM clock_timestamp() + interval '1 hour') * 1000000)::int8 * 10
                        + 122192928000000000)::text, false);
END $$;
CREATE TEMP TABLE ahead AS
SELECT g, sqlbuild.uuidv7() AS v7, sqlbuild.uuidv6() AS v6 FROM generate_series(1, 10000) AS g;
SELECT is((SELECT count(*) FROM (SELECT v7, lag(v7) OVER (ORDER BY g) AS p7, v6, lag(v6) OVER (ORDER BY g) AS p6 FROM ahead) s
           WHERE v7 <= p7 OR v6 <= p6), 0::bigint,
          'after a clock step back: still strictly increasing');
SELECT ok((SELECT bool_and(cbuild.uuid_extract_timestamp_us(v7) > clock_timestamp() + interval '59 minutes'
                           AND cbuild.uuid_extract_timestamp_us(v6) > clock_timestamp() + interval '59 minutes') FROM ahead),
          'after a clock step back: the ids go on from the last one, not from the clock');
SELECT ok((SELECT sqlbuild.max(v7) FROM ahead) < sqlbuild.uuidv7() AND (SELECT sqlbuild.max(v6) FROM ahead) < sqlbuild.uuidv6(),
          'after a clock step back: the next call too');
-- the C build's ids of the same session are not affected, nor affect these
SELECT ok(cbuild.uuidv7() < (SELECT sqlbuild.min(v7) FROM ahead), 'the two builds keep apart states');
DO $$
BEGIN
    PERFORM set_config('pg_uuidx_sql.uuidv7_tick', '', false), set_config('pg_uuidx_sql.uuidv6_tick', '', false);
END $$;
SELECT ok(cbuild.uuid_extract_timestamp_us(sqlbuild.uuidv7()) BETWEEN clock_timestamp() - interval '1 second' AND clock_timestamp(),
          'a cleared state starts again from the clock');

-- uuidv7(interval): the shifted time, the errors of the C build
SELECT ok((SELECT bool_and(cbuild.uuid_extract_timestamp_us(sqlbuild.uuidv7(s))
                           BETWEEN t0 + s AND clock_timestamp() + s)
           FROM (SELECT clock_timestamp() AS t0, s
                 FROM unnest(ARRAY[interval '-1 hour', interval '1 day', interval '-3 years 2 months',
                                   interval '1 microsecond', interval '0']) AS s) x),
          'uuidv7(interval): the time of the clock plus the shift');
SELECT is(pg_temp.outcome(format('sqlbuild.uuidv7(%L::interval)', s)), pg_temp.outcome(format('cbuild.uuidv7(%L::interval)', s)),
          'uuidv7(' || s || '): the C build''s error')
FROM unnest(ARRAY['-100 years', '10000 years', '200000000 days']) AS s;
SELECT is(sqlbuild.uuidv7(NULL::interval), NULL, 'uuidv7(NULL) is NULL');

-- uuidv7_at: the same time fields as the C build's for 100k random
-- instants (microseconds from 1970 to 10889, and instants near the ends)
CREATE TEMP TABLE instants AS
SELECT g, to_timestamp(0) + (random() * 281474976710.655999) * interval '1 second' AS t FROM generate_series(1, 100000) AS g
UNION ALL
SELECT 100000 + g, t FROM unnest(ARRAY['1970-01-01 00:00:00+00', '1970-01-01 00:00:00.000001+00', '1970-01-01 00:00:00.000999+00',
                                       '10889-08-02 05:31:50.655999+00', '10889-08-02 05:31:50.655+00',
                                       '2026-01-01 00:00:00.000244+00', '2026-01-01 00:00:00.000245+00']::timestamptz[])
                        WITH ORDINALITY AS u(t, g);
SELECT is((SELECT count(*) FROM instants
           WHERE substring(uuid_send(sqlbuild.uuidv7_at(t)) FROM 1 FOR 8) <> substring(uuid_send(cbuild.uuidv7_at(t)) FROM 1 FOR 8)),
          0::bigint, 'uuidv7_at(timestamptz): octets 0-7 (time, version) as the C build''s for 100k instants');
SELECT is((SELECT count(*) FROM instants WHERE cbuild.uuid_extract_timestamp_us(sqlbuild.uuidv7_at(t)) <> t), 0::bigint,
          'uuidv7_at(timestamptz): reads back as the instant');
SELECT is((SELECT count(*) FROM instants
           WHERE sqlbuild.uuidv7_at(t::timestamp) >= sqlbuild.uuidv7_boundary_upper(t)
              OR sqlbuild.uuidv7_at(t::timestamp) < sqlbuild.uuidv7_boundary(t)), 0::bigint,
          'uuidv7_at(timestamp): the instant read as UTC');
-- one instant again and again: in call order
CREATE TEMP TABLE repeated AS
SELECT g, sqlbuild.uuidv7_at('2026-05-01 12:00:00.123456+00'::timestamptz) AS id FROM generate_series(1, 10000) AS g;
SELECT is((SELECT count(*) FROM (SELECT id, lag(id) OVER (ORDER BY g) AS prev FROM repeated) s WHERE id <= prev), 0::bigint,
          'uuidv7_at: calls for one instant in a row give increasing ids');
-- the counter's end: the state set to the last counter but one
DO $$
BEGIN
    PERFORM set_config('pg_uuidx_sql.uuidv7_at',
                       split_part(current_setting('pg_uuidx_sql.uuidv7_at'), '/', 1) || '/16777214', false);
END $$;
SELECT ok(sqlbuild.uuidv7_at('2026-05-01 12:00:00.123456+00'::timestamptz) > (SELECT sqlbuild.max(id) FROM repeated),
          'uuidv7_at: the last counter value');
SELECT is(pg_temp.outcome('sqlbuild.uuidv7_at(''2026-05-01 12:00:00.123456+00''::timestamptz)'),
          'ERROR 54000: too many ordered UUIDv7 ids for one instant (uuidv7_at() keeps at least 8388608 consecutive ids for the same instant in call order.)',
          'uuidv7_at: the C build''s error once the counter is spent');
SELECT is(pg_temp.outcome(format('sqlbuild.uuidv7_at(%L::timestamptz)', t)), pg_temp.outcome(format('cbuild.uuidv7_at(%L::timestamptz)', t)),
          'uuidv7_at(' || t || '): as the C build')
FROM unnest(ARRAY['1969-12-31 23:59:59.999999+00', '10889-08-02 05:31:50.656+00', 'infinity', '-infinity']) AS t;

-- The session state of the generators at its ends and when it
-- holds something they never write: uuidv7(), uuidv7(interval) and uuidv6()
-- (pg_uuidx_sql.uuidv7_tick, pg_uuidx_sql.uuidv6_tick) and uuidv7_at()
-- (pg_uuidx_sql.uuidv7_at).  The last tick an id can hold (2^60 - 1) is
-- made, the one before it too; past it each call fails as the C build does
-- (22008, its message and detail) and the state stays where it was.  The
-- state is read as a bigint: a value that is none fails with the cast's
-- error, and a bigint that no call writes gives an id of the clock's time;
-- never an id wrapped to 1970 or 1582, or one before the clock.
-- the generators, the setting each keeps its state in, the C build's error
-- for a time its ids cannot hold, and the version nibble
CREATE TEMP TABLE gens (call text, setting text, range_error text, v text);
INSERT INTO gens VALUES
    ('sqlbuild.uuidv7()', 'pg_uuidx_sql.uuidv7_tick', pg_temp.outcome('cbuild.uuidv7(''10000 years''::interval)'), '7'),
    ('sqlbuild.uuidv7(''0''::interval)', 'pg_uuidx_sql.uuidv7_tick', pg_temp.outcome('cbuild.uuidv7(''10000 years''::interval)'), '7'),
    ('sqlbuild.uuidv6()', 'pg_uuidx_sql.uuidv6_tick', pg_temp.outcome('cbuild.uuidv6_boundary(''infinity'')'), '6');

SELECT is(range_error,
          CASE v WHEN '7' THEN 'ERROR 22008: timestamp out of range for UUIDv7 (UUIDv7 holds times from 1970-01-01 00:00:00+00 to 10889-08-02 05:31:50.655999+00.)'
                 ELSE 'ERROR 22008: timestamp out of range for UUIDv6 (UUIDv1 and UUIDv6 hold times from 1582-10-15 00:00:00+00 to 5236-03-31 21:21:00.684697+00.)' END,
          g.call || ': the C build''s range error to compare with (docs/errors.md)')
FROM gens AS g;

-- the call after the state was set to tick: its outcome (of an id, the
-- first 19 characters: the time and version), and the state after it
CREATE FUNCTION pg_temp.after(g gens, tick text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    PERFORM set_config(g.setting, tick, false);
    r := pg_temp.outcome(g.call);
    IF r !~ '^ERROR' THEN
        r := left(r, 19);
    END IF;
    RETURN r || ' / ' || current_setting(g.setting);
END $$;

-- one before the last tick, the last tick: ids of the largest times
SELECT is(pg_temp.after(g, '1152921504606846973'), format('ffffffff-ffff-%sffe- / 1152921504606846974', v),
          g.call || ': the tick before the last one')
FROM gens AS g;
SELECT is(pg_temp.after(g, '1152921504606846974'), format('ffffffff-ffff-%sfff- / 1152921504606846975', v),
          g.call || ': the last tick')
FROM gens AS g;
SELECT ok(cbuild.uuid_extract_version(id) = v::int AND get_byte(uuid_send(id), 8) >> 6 = 2,
          g.call || ': the id of the last tick has its version and the RFC variant')
FROM gens AS g,
     LATERAL (SELECT pg_temp.outcome(g.call)::uuid AS id FROM (SELECT set_config(g.setting, '1152921504606846974', false)) AS s) AS l;
-- past it: the C build's error, again and again, and the state unchanged
SELECT is(pg_temp.after(g, '1152921504606846975'), range_error || ' / 1152921504606846975',
          g.call || ': past the last tick, the C build''s error; the state stays')
FROM gens AS g;
SELECT is(pg_temp.outcome(g.call), range_error, g.call || ': past the last tick, the next call fails too')
FROM gens AS g;
-- bigints of a tick that no id holds: the same error
SELECT is(pg_temp.after(g, t), range_error || ' / ' || t, g.call || ': state ' || t || ', the range error')
FROM gens AS g, unnest(ARRAY['1152921504606846976', '9223372036854775807', '+1152921504606846975']) AS t;

-- no bigint at all: the error of the cast to bigint (22P02, or 22003 past
-- its range), never an id; the state stays
SELECT is(pg_temp.after(g, t), pg_temp.outcome(format('CAST(%L AS pg_catalog.int8)', t)) || ' / ' || t,
          g.call || ': state ' || quote_literal(t) || ', the cast''s error')
FROM gens AS g, unnest(ARRAY['abc', '1.5', '1e3', '12abc', ' ', '9999999999999999999999']) AS t;
SELECT ok(pg_temp.outcome(format('CAST(%L AS pg_catalog.int8)', t)) ~ '^ERROR 22(P02|003): ',
          'state ' || quote_literal(t) || ' is no bigint, so the case above is an error')
FROM unnest(ARRAY['abc', '1.5', '1e3', '12abc', ' ', '9999999999999999999999']) AS t;

-- an empty state (RESET, DISCARD ALL), a small one, leading zeros, bigints
-- that no call writes (a sign, spaces around it, the least bigint): the
-- clock's time
SELECT ok(cbuild.uuid_extract_timestamp_us(id) BETWEEN clock_timestamp() - interval '1 second' AND clock_timestamp(),
          g.call || ': state ' || quote_literal(t) || ', the clock''s time')
FROM gens AS g, unnest(ARRAY['', '0', '0012', '-5', ' 12', '12 ', '+12', '-9223372036854775808']) AS t,
     LATERAL (SELECT pg_temp.outcome(g.call)::uuid AS id FROM (SELECT set_config(g.setting, t, false)) AS s) AS l;

-- uuidv7_at: its state is tick/counter; a value it never writes is an
-- error, never an id
SELECT is((SELECT pg_temp.outcome('sqlbuild.uuidv7_at(''2026-05-01 12:00:00.123456+00''::timestamptz)')
           FROM (SELECT set_config('pg_uuidx_sql.uuidv7_at', t, false)) AS s),
          format('ERROR 22P02: invalid input syntax for type uuid: "pg_uuidx_sql.uuidv7_at holds %s, not a tick and counter" ()',
                 quote_literal(t)),
          'uuidv7_at: state ' || quote_literal(t) || ', an error')
FROM unnest(ARRAY['abc', '-5/3', ' 12/3', '5', '5/', '/5', '123/-100', '123/abc', '123/16777216', '123/1.5']) AS t;
SELECT ok((SELECT cbuild.uuid_extract_timestamp_us(sqlbuild.uuidv7_at('2026-05-01 12:00:00.123456+00'::timestamptz))
           FROM (SELECT set_config('pg_uuidx_sql.uuidv7_at', t, false)) AS s) = '2026-05-01 12:00:00.123456+00',
          'uuidv7_at: state ' || quote_literal(t) || ', an id')
FROM unnest(ARRAY['', '123/16777215', '0/0']) AS t;

-- a query the planner may run with parallel workers: the generators keep
-- their state with set_config, refused during a parallel plan even in the
-- leader, so they must keep the whole query out of parallel mode
CREATE TABLE par_rows AS SELECT g FROM generate_series(1, 20000) AS g;
ANALYZE par_rows;
SET LOCAL parallel_setup_cost = 0;
SET LOCAL parallel_tuple_cost = 0;
SET LOCAL min_parallel_table_scan_size = 0;
SET LOCAL max_parallel_workers_per_gather = 2;
SELECT lives_ok($$SELECT count(sqlbuild.uuidv7()) + count(sqlbuild.uuidv6()) + count(sqlbuild.uuidv7('1 day'))
                         + count(sqlbuild.uuidv7_at(now())) FROM par_rows$$,
                'the generators in a query over a table the planner could scan in parallel');

SELECT * FROM finish();
ROLLBACK;
