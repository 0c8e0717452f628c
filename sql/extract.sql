-- taking ids apart: uuid_extract_timestamp, uuid_extract_version, uuidv7_at,
-- boundaries, and min/max(uuid)
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
CREATE EXTENSION pg_uuidx;
SET search_path = public, pg_catalog;
SET TimeZone = 'UTC';

-- test vectors (spec README): v1, v6 and v7 of 2022-02-22 19:22:22 UTC
SELECT uuid_extract_timestamp('C232AB00-9414-11EC-B3C8-9E6BDECED846') AS v1,
       uuid_extract_timestamp('1EC9414C-232A-6B00-B3C8-9E6BDECED846') AS v6,
       uuid_extract_timestamp('017F22E2-79B0-7CC3-98C4-DC0C0C07398F') AS v7;

-- v1/v6 keep microseconds (100-ns ticks truncated), v7 milliseconds
SELECT uuid_extract_timestamp(uuidv6_boundary('2001-02-03 04:05:06.789123+00')) AS v6_us,
       uuid_extract_timestamp(uuidv7_boundary('2001-02-03 04:05:06.789123+00')) AS v7_ms;

-- NULL for versions without a timestamp and for non-RFC variants
SELECT uuid_extract_timestamp('11111111-1111-4111-8111-111111111111') AS v4,
       uuid_extract_timestamp('11111111-1111-5111-8111-111111111111') AS v5,
       uuid_extract_timestamp('017F22E2-79B0-7CC3-18C4-DC0C0C07398F') AS v7_ncs_variant,
       uuid_extract_timestamp('017F22E2-79B0-7CC3-E8C4-DC0C0C07398F') AS v7_future_variant,
       uuid_extract_timestamp(NULL) AS null_input;

SELECT uuid_extract_version('11111111-1111-5111-8111-111111111111') AS v5,
       uuid_extract_version('11111111-1111-1111-1111-111111111111') AS ncs_variant,
       uuid_extract_version('00000000-0000-0000-0000-000000000000') AS nil,
       uuid_extract_version('ffffffff-ffff-ffff-ffff-ffffffffffff') AS max,
       uuid_extract_version(uuidv7()) AS v7, uuid_extract_version(uuidv6()) AS v6,
       uuid_extract_version(uuidv4()) AS v4, pg_typeof(uuid_extract_version(uuidv4())) AS type;

-- a freshly made id reads back as now
SELECT uuid_extract_timestamp(uuidv7()) BETWEEN date_trunc('milliseconds', clock_timestamp()) - interval '5 ms' AND clock_timestamp() AS v7_now,
       uuid_extract_timestamp(uuidv6()) BETWEEN clock_timestamp() - interval '5 ms' AND clock_timestamp() AS v6_now;

-- boundaries: the spec vector, and the smallest id of that instant
SELECT uuidv7_boundary('2023-01-02 04:26:40.637+00') AS v7_boundary,
       uuidv6_boundary('2022-02-22 19:22:22+00') AS v6_boundary;
SELECT uuidv7_boundary('2023-01-02 04:26:40.6375+00') AS half_ms_sets_fraction_0x800;

-- uuidv7_at: that instant's millisecond and fraction, random rest
SELECT left(uuidv7_at('2023-01-02 04:26:40.637+00')::text, 19) = left(uuidv7_boundary('2023-01-02 04:26:40.637+00')::text, 19) AS same_time_fields,
       uuidv7_at('2023-01-02 04:26:40.637+00') <> uuidv7_at('2023-01-02 04:26:40.637+00') AS random_rest,
       uuidv7_at('2023-01-02 04:26:40.637+00') > uuidv7_boundary('2023-01-02 04:26:40.637+00') AS above_boundary,
       uuid_extract_timestamp(uuidv7_at('1999-12-31 23:59:59.999+00')) AS round_trip;

-- range errors: before 1970 / after 10889 for v7, before 1582 / after 5236 for v6
SELECT uuidv7_at('1969-12-31 23:59:59.999999+00');
SELECT uuidv7_at('infinity');
SELECT uuidv7_boundary('-infinity');
SELECT uuidv7_boundary('10889-08-02 05:31:50.656+00');
SELECT uuidv7_boundary('10889-08-02 05:31:50.655999+00') AS last_v7_instant;
SELECT uuidv6_boundary('1582-10-14 23:59:59.999999+00');
SELECT uuidv6_boundary('5236-03-31 21:21:00.684698+00');
SELECT uuidv6_boundary('1582-10-15 00:00:00+00') AS first_v6_instant;

-- 100k rows of ids one minute apart: a one-day range through the boundaries
-- returns exactly the day's 1440 rows, from the primary key index
CREATE TABLE events (id uuid PRIMARY KEY, at timestamptz NOT NULL);
INSERT INTO events
SELECT uuidv7_at(t), t
FROM generate_series(timestamptz '2024-01-01 00:00+00', timestamptz '2024-01-01 00:00+00' + interval '99999 minutes', interval '1 minute') AS t;
ANALYZE events;
SELECT count(*) AS rows_in_day, min(at), max(at)
FROM events
WHERE id >= uuidv7_boundary('2024-02-01 00:00+00') AND id < uuidv7_boundary('2024-02-02 00:00+00');
SELECT count(*) AS same_as_extraction
FROM events
WHERE uuid_extract_timestamp(id) >= '2024-02-01 00:00+00' AND uuid_extract_timestamp(id) < '2024-02-02 00:00+00';
EXPLAIN (COSTS OFF)
SELECT * FROM events
WHERE id >= uuidv7_boundary('2024-02-01 00:00+00') AND id < uuidv7_boundary('2024-02-02 00:00+00');

-- max(id) is the last inserted id and comes from the index
INSERT INTO events VALUES (uuidv7(), now());
SELECT max(id) = (SELECT id FROM events ORDER BY at DESC LIMIT 1) AS max_is_last_inserted,
       min(id) = (SELECT id FROM events ORDER BY at LIMIT 1) AS min_is_first
FROM events;
-- (the plan's wording differs between majors; its use of the index does not)
CREATE FUNCTION pg_temp.plan_mentions(query text, fragment text) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
        IF line LIKE '%' || fragment || '%' THEN
            RETURN true;
        END IF;
    END LOOP;
    RETURN false;
END $$;
SELECT pg_temp.plan_mentions('SELECT max(id) FROM events', 'Index Only Scan Backward using events_pkey') AS max_from_index,
       pg_temp.plan_mentions('SELECT min(id) FROM events', 'Index Only Scan using events_pkey') AS min_from_index;
SELECT min(x) AS min_empty, max(x) AS max_empty FROM (SELECT NULL::uuid AS x WHERE false) AS s;

-- min/max run as parallel aggregates
CREATE TABLE big AS SELECT uuidv4() AS x FROM generate_series(1, 200000);
ANALYZE big;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT min(x), max(x) FROM big;
SELECT min(x) = (SELECT x FROM big ORDER BY x LIMIT 1) AS parallel_min,
       max(x) = (SELECT x FROM big ORDER BY x DESC LIMIT 1) AS parallel_max
FROM big;
RESET ALL;

-- a table range-partitioned by id boundaries prunes partitions
CREATE TABLE log (id uuid NOT NULL, msg text) PARTITION BY RANGE (id);
CREATE TABLE log_2024_01 PARTITION OF log
    FOR VALUES FROM ('018cc251-f400-7000-8000-000000000000') TO ('018d61f7-1800-7000-8000-000000000000');
CREATE TABLE log_2024_02 PARTITION OF log
    FOR VALUES FROM ('018d61f7-1800-7000-8000-000000000000') TO ('018df74f-8400-7000-8000-000000000000');
SELECT uuidv7_boundary('2024-01-01 00:00+00') = '018cc251-f400-7000-8000-000000000000'
       AND uuidv7_boundary('2024-02-01 00:00+00') = '018d61f7-1800-7000-8000-000000000000'
       AND uuidv7_boundary('2024-03-01 00:00+00') = '018df74f-8400-7000-8000-000000000000' AS bounds_are_month_starts;
INSERT INTO log SELECT id, 'm' FROM events WHERE at < '2024-03-01 00:00+00';
EXPLAIN (COSTS OFF)
SELECT count(*) FROM log
WHERE id >= uuidv7_boundary('2024-02-10 00:00+00') AND id < uuidv7_boundary('2024-02-11 00:00+00');
SELECT count(*) AS rows_feb_10 FROM log
WHERE id >= uuidv7_boundary('2024-02-10 00:00+00') AND id < uuidv7_boundary('2024-02-11 00:00+00');

DROP TABLE events, big, log;
DROP EXTENSION pg_uuidx;
