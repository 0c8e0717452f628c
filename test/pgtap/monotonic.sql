-- Monotonicity and layout properties of the time-ordered generators.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
BEGIN;
CREATE EXTENSION IF NOT EXISTS pgtap;
CREATE EXTENSION IF NOT EXISTS pg_uuidx;
-- reach pg_uuidx before same-named core functions (PostgreSQL 17+)
SET LOCAL search_path = public, pg_catalog;
SELECT plan(5);

CREATE TEMP TABLE v7 AS
SELECT g, id, uuid_send(id) AS b
FROM (SELECT g, uuidv7() AS id FROM generate_series(1, 200000) AS g) AS s;

CREATE TEMP VIEW same_tick AS
SELECT id, prev FROM (SELECT id, lag(id) OVER (ORDER BY g) AS prev FROM v7) s
WHERE left(id::text, 18) = left(prev::text, 18);

SELECT is((SELECT count(*) FROM (SELECT id, lag(id) OVER (ORDER BY g) AS prev FROM v7) s
           WHERE prev IS NOT NULL AND id <= prev), 0::bigint,
          'uuidv7(): no id is <= the id made before it');

-- Two ids in the same 1/4096 ms tick differ by exactly one in the counter
-- (the 18 bits after the variant) - RFC 9562 6.2 Method 1.
SELECT CASE WHEN NOT EXISTS (SELECT FROM same_tick)
    THEN skip('no two ids shared a tick on this machine', 1)
    ELSE ok((SELECT bool_and(
                 (('x' || substr(replace(id::text, '-', ''), 17, 5))::bit(20)::int & 262143)
               = (('x' || substr(replace(prev::text, '-', ''), 17, 5))::bit(20)::int & 262143) + 1)
             FROM same_tick),
            'uuidv7(): within one tick the counter steps by exactly one')
    END;

-- a fresh tick seeds the counter with its guard bit clear
SELECT ok((SELECT bool_and(get_byte(b, 8) & 32 = 0)
           FROM (SELECT b, lag(b) OVER (ORDER BY g) AS prev FROM v7) s
           WHERE substring(b FROM 1 FOR 8) <> substring(prev FROM 1 FOR 8)),
          'uuidv7(): a counter seeded at a new tick has its rollover guard bit clear');

-- the clock advances while ids are made, so most ticks hold a single id
SELECT cmp_ok((SELECT count(DISTINCT left(id::text, 18)) FROM v7), '>', 1000::bigint,
              'uuidv7(): the timestamp and fraction follow the clock');

SELECT is((SELECT count(DISTINCT id) FROM v7), 200000::bigint, 'uuidv7(): 200k ids, all distinct');

SELECT * FROM finish();
ROLLBACK;
