-- uuidv1_to_v6() / uuidv6_to_v1(): lossless permutation of the timestamp
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
CREATE EXTENSION pg_uuidx;
SET search_path = public, pg_catalog;
SET TimeZone = 'UTC';

-- RFC 9562 test vectors (spec README)
SELECT uuidv1_to_v6('C232AB00-9414-11EC-B3C8-9E6BDECED846') AS v6,
       uuidv6_to_v1('1EC9414C-232A-6B00-B3C8-9E6BDECED846') AS v1;

-- 200k varied v1 ids: random 60-bit timestamps, clock sequences and nodes,
-- plus the extremes of the timestamp
CREATE TEMP TABLE v1 AS
SELECT ts, seq, node,
       (lpad(to_hex(ts & 4294967295), 8, '0') || '-' ||
        lpad(to_hex((ts >> 32) & 65535), 4, '0') || '-1' ||
        lpad(to_hex(ts >> 48), 3, '0') || '-' ||
        lpad(to_hex(32768 | seq), 4, '0') || '-' ||
        lpad(to_hex(node), 12, '0'))::uuid AS id
FROM (SELECT (random() * 1152921504606846975)::bigint AS ts,
             (random() * 16383)::int AS seq,
             (random() * 281474976710655)::bigint AS node
      FROM generate_series(1, 199998)
      UNION ALL VALUES (0, 0, 0), (1152921504606846975, 16383, 281474976710655)) AS r;

-- round trip is the identity; the v6 id has version 6 and keeps seq and node
SELECT count(*) AS ids,
       bool_and(uuidv6_to_v1(uuidv1_to_v6(id)) = id) AS round_trip_identity,
       bool_and(substr(uuidv1_to_v6(id)::text, 15, 1) = '6') AS version_6,
       bool_and(right(uuidv1_to_v6(id)::text, 17) = right(id::text, 17)) AS seq_and_node_kept
FROM v1;

-- v6 ids sort bytewise exactly as their (timestamp, clock_seq, node) do
SELECT count(*) FILTER (WHERE by_id <> by_time) AS out_of_order
FROM (SELECT row_number() OVER (ORDER BY uuidv1_to_v6(id)) AS by_id,
             row_number() OVER (ORDER BY ts, seq, node) AS by_time
      FROM v1) AS s;

-- conversion errors name what they found and say how to convert only v1 rows
SELECT uuidv1_to_v6('1EC9414C-232A-6B00-B3C8-9E6BDECED846');
SELECT uuidv1_to_v6('c232ab00-9414-41ec-b3c8-9e6bdeced846');
SELECT uuidv1_to_v6('C232AB00-9414-11EC-D3C8-9E6BDECED846');
SELECT uuidv6_to_v1('C232AB00-9414-11EC-B3C8-9E6BDECED846');
SELECT uuidv1_to_v6(NULL) IS NULL AS null_in_null_out;

-- The README's migration recipe for a v1 primary key referenced by a foreign
-- key, run on a parent and a child table of 100k rows each: nothing may be lost.
CREATE TABLE parent (id uuid PRIMARY KEY, name text NOT NULL UNIQUE);
CREATE TABLE child (
    id uuid PRIMARY KEY,
    parent_id uuid NOT NULL REFERENCES parent (id),
    qty int CHECK (qty > 0)
);
INSERT INTO parent SELECT id, 'p' || ts FROM v1 ORDER BY ts LIMIT 100000;
INSERT INTO child SELECT v.id, p.id, 1 + (v.ts % 7)::int
FROM (SELECT id, ts, row_number() OVER (ORDER BY ts DESC) AS n FROM v1) AS v
JOIN (SELECT id, row_number() OVER (ORDER BY id) AS n FROM parent) AS p
  ON p.n = 1 + v.n % 100000
WHERE v.n <= 100000;
-- one row in each table that is not v1 and must be left as it is
INSERT INTO parent VALUES ('0189b7e2-0000-7000-8000-000000000001', 'not v1');
INSERT INTO child VALUES ('0189b7e2-0000-7000-8000-000000000002', '0189b7e2-0000-7000-8000-000000000001', 3);

CREATE TEMP TABLE before_join AS
SELECT CASE WHEN uuid_extract_version(p.id) = 1 THEN uuidv1_to_v6(p.id) ELSE p.id END AS pid,
       CASE WHEN uuid_extract_version(c.id) = 1 THEN uuidv1_to_v6(c.id) ELSE c.id END AS cid,
       p.name, c.qty
FROM parent p JOIN child c ON c.parent_id = p.id;
CREATE TEMP TABLE before_constraints AS
SELECT conrelid::regclass::text AS tbl, conname, pg_get_constraintdef(oid) AS def
FROM pg_constraint WHERE conrelid IN ('parent'::regclass, 'child'::regclass)
  AND contype IN ('p', 'f', 'u', 'c');  -- PostgreSQL 18 also lists NOT NULL here

-- recipe (README "Migrating a UUIDv1 column"): one transaction
BEGIN;
ALTER TABLE child DROP CONSTRAINT child_parent_id_fkey;
UPDATE parent SET id = uuidv1_to_v6(id) WHERE uuid_extract_version(id) = 1;
UPDATE child SET id = uuidv1_to_v6(id) WHERE uuid_extract_version(id) = 1;
UPDATE child SET parent_id = uuidv1_to_v6(parent_id) WHERE uuid_extract_version(parent_id) = 1;
ALTER TABLE child ADD CONSTRAINT child_parent_id_fkey
    FOREIGN KEY (parent_id) REFERENCES parent (id);
COMMIT;

SELECT (SELECT count(*) FROM parent) AS parents,
       (SELECT count(*) FROM child) AS children,
       (SELECT count(*) FROM parent WHERE uuid_extract_version(id) = 1) AS v1_left,
       (SELECT count(*) FROM (SELECT p.id, c.id, p.name, c.qty FROM parent p JOIN child c ON c.parent_id = p.id
                              EXCEPT ALL SELECT * FROM before_join) AS d) AS joins_gained,
       (SELECT count(*) FROM (SELECT * FROM before_join
                              EXCEPT ALL SELECT p.id, c.id, p.name, c.qty FROM parent p JOIN child c ON c.parent_id = p.id) AS d) AS joins_lost,
       (SELECT count(*) FROM (SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid)
                              FROM pg_constraint WHERE conrelid IN ('parent'::regclass, 'child'::regclass)
                                AND contype IN ('p', 'f', 'u', 'c')
                              EXCEPT SELECT * FROM before_constraints) AS d) AS constraints_changed,
       (SELECT count(*) FROM before_constraints) AS constraints;

-- the foreign key is enforced again
INSERT INTO child VALUES ('1f000000-0000-6000-8000-000000000001', '1f000000-0000-6000-8000-000000000002', 1);

-- a plain v1 column converts in place the same way
CREATE TABLE events (id uuid, payload int);
INSERT INTO events SELECT id, ts % 1000 FROM v1;
INSERT INTO events VALUES (NULL, -1), ('11111111-1111-4111-8111-111111111111', -2);
UPDATE events SET id = uuidv1_to_v6(id) WHERE uuid_extract_version(id) = 1;
SELECT count(*) AS rows,
       count(*) FILTER (WHERE uuid_extract_version(id) = 6) AS v6,
       count(*) FILTER (WHERE id IS NULL) AS nulls,
       count(*) FILTER (WHERE uuid_extract_version(id) = 4) AS v4_untouched,
       (SELECT count(*) FROM events e JOIN v1 ON uuidv6_to_v1(e.id) = v1.id
        WHERE uuid_extract_version(e.id) = 6 AND e.payload = v1.ts % 1000) AS payloads_kept
FROM events;

DROP TABLE child, parent, events;
DROP EXTENSION pg_uuidx;
