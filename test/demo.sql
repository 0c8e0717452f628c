-- pg_uuidx demo ("make demo"): what the extension is for, one step a
-- heading and a small result.  Run by test/run.sh demo on a throwaway
-- cluster; pgbench (from the server's bindir, first in PATH) plays the
-- concurrent sessions.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
\set QUIET on
\pset footer off
SET TimeZone = 'UTC';
CREATE EXTENSION pg_uuidx;
SELECT extversion FROM pg_extension WHERE extname = 'pg_uuidx' \gset
\echo '== CREATE EXTENSION pg_uuidx: version' :extversion

\echo '== DEFAULT uuidv7(): 4 sessions insert at once (pgbench -c 4, 250 rows each)'
CREATE TABLE orders (
    id uuid PRIMARY KEY DEFAULT uuidv7(),
    session int NOT NULL,
    seq bigserial               -- the order in which each insert ran
);
\! echo 'INSERT INTO orders (session) VALUES (:client_id + 1);' | pgbench -n -c 4 -j 4 -t 250 -f /dev/stdin 2>&1 | grep -E 'actually processed|error'
\echo 'ids of all sessions interleave in time; within each session they follow its inserts:'
SELECT string_agg(session::text, '' ORDER BY id) AS "session of the first 60 ids, in id order"
FROM (SELECT id, session FROM orders ORDER BY id LIMIT 60) AS s;
SELECT session, count(*) AS rows,
       bool_and(id > prev) AS "each id > the session's previous"
FROM (SELECT session, id, lag(id) OVER (PARTITION BY session ORDER BY seq) AS prev FROM orders) AS s
GROUP BY session ORDER BY session;

\echo '== a day of history backfilled (uuidv7_at), then: the rows of the last 10 minutes'
INSERT INTO orders (id, session)
SELECT uuidv7_at(now() - interval '1 hour' - g * interval '1 second'), 0 FROM generate_series(1, 86400) AS g;
ANALYZE orders;
SELECT date_trunc('second', now() - interval '10 minutes') AS since \gset
EXPLAIN (COSTS OFF)
SELECT count(*) FROM orders WHERE id <@ tstzrange(:'since', NULL);
SELECT count(*) AS "rows in the last 10 minutes", (SELECT count(*) FROM orders) AS "rows in all"
FROM orders WHERE id <@ tstzrange(:'since', NULL);

\echo '== creation time to the microsecond (uuid_extract_timestamp_us; the core-style reader gives ms)'
SELECT uuidv7_at('2026-01-02 03:04:05.123456+00') AS id,
       uuid_extract_timestamp_us(uuidv7_at('2026-01-02 03:04:05.123456+00')) AS created_us,
       uuid_extract_timestamp(uuidv7_at('2026-01-02 03:04:05.123456+00')) AS created_ms;

\echo '== a legacy v1 id becomes a sortable v6 and back, losing nothing'
SELECT v1, uuidv1_to_v6(v1) AS v6, uuidv6_to_v1(uuidv1_to_v6(v1)) = v1 AS round_trip
FROM (VALUES ('c232ab00-9414-11ec-b3c8-9e6bdeced846'::uuid)) AS t(v1);

\echo '== text forms: ULID and TypeID, and back'
SELECT uuid_to_ulid(id) AS ulid, typeid('order', id) AS typeid,
       ulid_to_uuid(uuid_to_ulid(id)) = id AND typeid_to_uuid(typeid('order', id)) = id AS round_trip
FROM (SELECT min(id) AS id FROM orders WHERE session = 1) AS t;

\echo '== the UUIDv47 facade: a v7 id shown as a v4-looking one under a 16-byte key, and back'
SELECT id, uuidv47_encode(id, key) AS facade, uuid_extract_version(uuidv47_encode(id, key)) AS facade_version,
       uuidv47_decode(uuidv47_encode(id, key), key) = id AS round_trip
FROM (SELECT min(id) AS id FROM orders WHERE session = 1) AS t,
     (VALUES ('\x000102030405060708090a0b0c0d0e0f'::bytea)) AS k(key);

\echo '== reading a table in order (docs/outbox.md): the guard in one call, then 4 sessions insert for 3 s'
\echo '   (each transaction open 0-50 ms) while two readers poll: pg_uuidx_read_after() and "id > last"'
CREATE TABLE outbox (
    id uuid PRIMARY KEY DEFAULT uuidv7(),   -- on 18 and later core's uuidv7(): the guard covers it too
    topic text NOT NULL
);
SELECT pg_uuidx_add_guard('outbox') \g /dev/null
-- (the guard in one call: the reader refuses a table whose rows do not all pass one)
CREATE TABLE relayed (reader text, id uuid);
\! printf '\\set p random(0, 50)\nBEGIN;\nINSERT INTO outbox (topic) VALUES (:client_id);\nSELECT pg_sleep(:p / 1000.0);\nCOMMIT;\n' > "${TMPDIR:-/tmp}/pg_uuidx_demo_writer.sql" && (pgbench -n -c 4 -j 4 -T 3 -f "${TMPDIR:-/tmp}/pg_uuidx_demo_writer.sql" >/dev/null 2>&1 &)
DO $$
DECLARE
    last uuid;
    naive uuid;
    quiet int := 0;
BEGIN
    PERFORM pg_sleep(0.2);
    WHILE quiet < 20 LOOP          -- until 1 s without a new row
        INSERT INTO relayed SELECT 'pg_uuidx_read_after', id FROM pg_uuidx_read_after(NULL::outbox, last, 1000);
        INSERT INTO relayed SELECT 'id > last', id FROM outbox WHERE naive IS NULL OR id > naive;
        last := coalesce((SELECT max(id) FROM relayed WHERE reader = 'pg_uuidx_read_after'), last);
        naive := coalesce((SELECT max(id) FROM relayed WHERE reader = 'id > last'), naive);
        quiet := CASE WHEN EXISTS (SELECT FROM outbox WHERE id > last) THEN 0 ELSE quiet + 1 END;
        COMMIT;
        PERFORM pg_sleep(0.05);
    END LOOP;
END $$;
SELECT r.reader, (SELECT count(*) FROM outbox) AS committed,
       count(DISTINCT r.id) AS read, count(*) - count(DISTINCT r.id) AS "read twice",
       (SELECT count(*) FROM outbox o WHERE NOT EXISTS (SELECT FROM relayed x WHERE x.reader = r.reader AND x.id = o.id))
         AS missed
FROM relayed r GROUP BY r.reader ORDER BY r.reader DESC;
