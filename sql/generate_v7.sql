-- uuidv7(): RFC 9562 5.7 layout, monotonic within a backend, close to the clock
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
CREATE EXTENSION pg_uuidx;
-- reach pg_uuidx before same-named core functions (PostgreSQL 17+)
SET search_path = public, pg_catalog;
SET TimeZone = 'UTC';

-- unix_ts_ms (first 48 bits) of a v7 id, independent of the functions tested
CREATE FUNCTION pg_temp.v7_ms(uuid) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT
AS $$ SELECT ('x' || substr(replace($1::text, '-', ''), 1, 12))::bit(48)::bigint $$;

CREATE FUNCTION pg_temp.clock_ms() RETURNS bigint
LANGUAGE sql VOLATILE
AS $$ SELECT floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint $$;

-- version nibble 7 and variant 0b10 on every id
WITH ids AS (SELECT uuidv7() AS id FROM generate_series(1, 10000))
SELECT bool_and(substr(id::text, 15, 1) = '7') AS version_7,
       bool_and(substr(id::text, 20, 1) IN ('8', '9', 'a', 'b')) AS variant_rfc
FROM ids;

-- 1M ids from one backend: all distinct, each greater than the one before
WITH ids AS MATERIALIZED (
    SELECT g, uuidv7() AS id FROM generate_series(1, 1000000) AS g
), pairs AS (
    SELECT id, lag(id) OVER (ORDER BY g) AS prev FROM ids
)
SELECT count(*) AS ids,
       count(DISTINCT id) AS distinct_ids,
       bool_and(prev IS NULL OR id > prev) AS strictly_increasing
FROM pairs;

-- the 44 random bits at the end of rand_b are never repeated
WITH ids AS (SELECT uuidv7() AS id FROM generate_series(1, 100000))
SELECT count(DISTINCT right(id::text, 11)) AS distinct_random_tails FROM ids;

-- the embedded millisecond lies between clock readings taken around the call
SELECT bool_and(before_ms <= id_ms AND id_ms <= after_ms) AS ms_matches_clock
FROM (SELECT pg_temp.clock_ms() AS before_ms,
             pg_temp.v7_ms(uuidv7()) AS id_ms,
             pg_temp.clock_ms() AS after_ms
      FROM generate_series(1, 1000)) AS s;

-- rand_a is the sub-millisecond fraction (RFC 9562 6.2 Method 3): ids made
-- 0.5 ms apart differ in it, and it is never beyond 4095/4096 of the ms
WITH ids AS MATERIALIZED (
    SELECT g, uuidv7() AS id, pg_sleep(0.0005)
    FROM generate_series(1, 40) AS g
)
SELECT count(DISTINCT substr(id::text, 16, 3)) > 20 AS fraction_moves
FROM ids;

-- after a burst of 2M ids in one statement, the newest id's time is at most
-- 1 ms ahead of the clock (the counter absorbs bursts, not the timestamp)
WITH burst AS MATERIALIZED (
    SELECT g, uuidv7() AS id FROM generate_series(1, 2000000) AS g
)
SELECT pg_temp.v7_ms(id) - pg_temp.clock_ms() <= 1 AS at_most_1ms_ahead
FROM burst
ORDER BY g DESC
LIMIT 1;

-- uuidv7(shift): the embedded time is moved by the interval
SELECT abs(pg_temp.v7_ms(uuidv7('1 day')) - pg_temp.clock_ms() - 86400000) <= 5 AS plus_one_day,
       abs(pg_temp.v7_ms(uuidv7('-30 years -2 hours')) - (extract(epoch FROM clock_timestamp() - interval '30 years 2 hours') * 1000)::bigint) <= 5 AS minus_30_years,
       abs(pg_temp.v7_ms(uuidv7('0.25 seconds')) - pg_temp.clock_ms() - 250) <= 5 AS plus_250ms;

-- a constant shift keeps the ids in generation order
WITH ids AS MATERIALIZED (
    SELECT g, uuidv7('-1 hour') AS id FROM generate_series(1, 100000) AS g
), pairs AS (
    SELECT id, lag(id) OVER (ORDER BY g) AS prev FROM ids
)
SELECT bool_and(prev IS NULL OR id > prev) AS shifted_strictly_increasing,
       bool_and(substr(id::text, 15, 1) = '7') AS version_7
FROM pairs;

-- NULL shift: NULL (the function is strict)
SELECT uuidv7(NULL) IS NULL AS null_shift_gives_null;

-- times outside 1970-01-01 .. 10889-08-02 are errors, not wrapped values
SELECT uuidv7('-60 years');
SELECT uuidv7('9000 years');
-- an interval that leaves timestamptz's own range fails in timestamptz + interval
SELECT uuidv7('200000000 days');
-- the last representable millisecond is the one the error detail names
SELECT timestamptz 'epoch' + ((2^48 - 1)::numeric / 1000 || ' s')::interval AS v7_last_instant;

DROP EXTENSION pg_uuidx;
