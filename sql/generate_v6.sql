-- uuidv6(): RFC 9562 5.6 layout, random multicast node, monotonic in a backend
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
CREATE EXTENSION pg_uuidx;
-- reach pg_uuidx before same-named core functions (PostgreSQL 17+)
SET search_path = public, pg_catalog;
SET TimeZone = 'UTC';

-- the 60-bit Gregorian timestamp of a v6 id, independent of the functions tested
CREATE FUNCTION pg_temp.v6_ticks(uuid) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT
AS $$ SELECT ('x' || substr(replace($1::text, '-', ''), 1, 12)
                  || substr(replace($1::text, '-', ''), 14, 3))::bit(60)::bigint $$;

-- clock_timestamp() in the same 100-ns units
CREATE FUNCTION pg_temp.clock_ticks() RETURNS bigint
LANGUAGE sql VOLATILE
AS $$ SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint * 10 + 122192928000000000 $$;

-- version 6, variant 0b10, and the node's multicast bit (octet 10, RFC 9562 6.10)
WITH ids AS (SELECT uuid_send(uuidv6()) AS b FROM generate_series(1, 10000))
SELECT bool_and(get_byte(b, 6) >> 4 = 6) AS version_6,
       bool_and(get_byte(b, 8) >> 6 = 2) AS variant_rfc,
       bool_and(get_byte(b, 10) & 1 = 1) AS multicast_node
FROM ids;

-- the node is random per id, not a MAC address
WITH ids AS (SELECT uuidv6() AS id FROM generate_series(1, 100000))
SELECT count(DISTINCT right(id::text, 12)) AS distinct_nodes FROM ids;

-- 1M ids from one backend: all distinct, each greater than the one before
WITH ids AS MATERIALIZED (
    SELECT g, uuidv6() AS id FROM generate_series(1, 1000000) AS g
), pairs AS (
    SELECT id, lag(id) OVER (ORDER BY g) AS prev FROM ids
)
SELECT count(*) AS ids,
       count(DISTINCT id) AS distinct_ids,
       bool_and(prev IS NULL OR id > prev) AS strictly_increasing
FROM pairs;

-- the timestamp lies between clock readings taken around the call (the
-- clock has microseconds, the id 100-ns ticks)
SELECT bool_and(before_t - 10 <= id_t AND id_t <= after_t + 10) AS ticks_match_clock
FROM (SELECT pg_temp.clock_ticks() AS before_t,
             pg_temp.v6_ticks(uuidv6()) AS id_t,
             pg_temp.clock_ticks() AS after_t
      FROM generate_series(1, 1000)) AS s;

-- after a burst of 2M ids in one statement, the newest id's time is at most
-- 1 ms (10000 ticks) ahead of the clock
WITH burst AS MATERIALIZED (
    SELECT g, uuidv6() AS id FROM generate_series(1, 2000000) AS g
)
SELECT pg_temp.v6_ticks(id) - pg_temp.clock_ticks() <= 10000 AS at_most_1ms_ahead
FROM burst
ORDER BY g DESC
LIMIT 1;

DROP EXTENSION pg_uuidx;
