-- pg_uuidx demo: ids that sort in insertion order, made by the database.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
\pset footer off
\echo
\echo '== CREATE EXTENSION pg_uuidx'
CREATE EXTENSION pg_uuidx;
SELECT extversion AS pg_uuidx_version FROM pg_extension WHERE extname = 'pg_uuidx';

\echo
\echo '== a table keyed by uuidv7(), five rows inserted one statement at a time'
CREATE TABLE orders (
    id uuid PRIMARY KEY DEFAULT uuidv7(),
    item text NOT NULL,
    inserted serial
);
INSERT INTO orders (item) VALUES ('apple');
INSERT INTO orders (item) VALUES ('pear');
INSERT INTO orders (item) VALUES ('plum');
INSERT INTO orders (item) VALUES ('fig');
INSERT INTO orders (item) VALUES ('quince');
\echo 'ordered by id, the rows come back in insertion order:'
SELECT id, item, inserted FROM orders ORDER BY id;

\echo
\echo '== 100000 more rows in one statement: ids still follow insertion order'
INSERT INTO orders (item) SELECT 'bulk ' || g FROM generate_series(1, 100000) AS g;
SELECT count(*) AS rows,
       bool_and(id > prev) AS every_id_greater_than_the_previous
FROM (SELECT id, lag(id) OVER (ORDER BY inserted) AS prev FROM orders) AS s
WHERE prev IS NOT NULL;

\echo
\echo '== uuidv7(shift): an id stamped one day back, and uuidv4()'
SELECT uuidv7('-1 day') AS yesterday_v7, uuidv4() AS random_v4;

\echo
\echo '== when was each row created? (uuid_extract_timestamp)'
SET TimeZone = 'UTC';
SELECT id, item, uuid_extract_timestamp(id) AS created FROM orders ORDER BY id LIMIT 3;

\echo
\echo '== rows created in a time range, through the primary-key index (uuidv7_boundary)'
EXPLAIN (COSTS OFF)
SELECT count(*) FROM orders
WHERE id >= uuidv7_boundary(now() - interval '1 hour') AND id < uuidv7_boundary(now() + interval '1 hour');
SELECT count(*) AS created_in_the_last_hour FROM orders
WHERE id >= uuidv7_boundary(now() - interval '1 hour') AND id < uuidv7_boundary(now() + interval '1 hour');

\echo
\echo '== a legacy UUIDv1 becomes a sortable UUIDv6, and back, losing nothing'
SELECT 'c232ab00-9414-11ec-b3c8-9e6bdeced846'::uuid AS v1,
       uuidv1_to_v6('c232ab00-9414-11ec-b3c8-9e6bdeced846') AS v6,
       uuidv6_to_v1(uuidv1_to_v6('c232ab00-9414-11ec-b3c8-9e6bdeced846')) AS back_to_v1,
       uuid_extract_timestamp(uuidv1_to_v6('c232ab00-9414-11ec-b3c8-9e6bdeced846')) AS created;

\echo
\echo '== name-based ids: the same name always gives the same id'
SELECT uuid_v8_sha256(uuid_namespace_dns(), 'www.example.com') AS v8_sha256,
       uuidv5(uuid_namespace_dns(), 'www.example.com') AS v5_sha1;

\echo
\echo '== uuidv6(), and an id for a historical instant (uuidv7_at)'
SELECT uuidv6() AS v6, uuidv7_at('2001-02-03 04:05:06.789+00') AS v7_for_2001,
       uuid_extract_version(uuidv6()) AS version;
