-- pg_uuidx demo: ids that sort in insertion order, made by the database.
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
