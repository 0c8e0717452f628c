-- Time ranges: id <@ tstzrange for v7 ids, uuidv6_in_time_range() for v6,
-- their edges, the upper boundary, and the btree conditions and partition
-- pruning the planner makes of them.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
CREATE EXTENSION pg_uuidx;
SET search_path = public, pg_catalog;
SET TimeZone = 'UTC';

-- the ticks of a microsecond u run from floor(u * 4096 / 1000) to the next
-- microsecond's first tick: 125 us owns ticks 0x200-0x203, 126 us starts
-- at 0x204, 1 us owns ticks 4-7, 0 us ticks 0-3
SELECT uuidv7_range_lower('[2026-01-01 00:00:00.000125+00, 2026-01-02)') AS on_tick_inclusive,
       uuidv7_range_lower('(2026-01-01 00:00:00.000125+00, 2026-01-02)') AS on_tick_exclusive,
       uuidv7_range_lower('[2026-01-01 00:00:00.000001+00, 2026-01-02)') AS between_ticks;
SELECT uuidv7_range_upper('[2026-01-01, 2026-01-01 00:00:00.000125+00]') AS on_tick_inclusive,
       uuidv7_range_upper('[2026-01-01, 2026-01-01 00:00:00.000125+00)') AS on_tick_exclusive,
       uuidv7_range_upper('[2026-01-01, 2026-01-01 00:00:00.000001+00)') AS between_ticks;
-- infinite ends, the ends of what v7 holds, empty ranges
SELECT uuidv7_range_lower('(,)') AS lower_all, uuidv7_range_upper('(,)') AS upper_all;
SELECT uuidv7_range_lower('[1960-01-01, 1970-01-01 00:00:00.000001+00)') AS before_1970_lower,
       uuidv7_range_upper('[1960-01-01, 1970-01-01 00:00:00.000001+00)') AS before_1970_upper;
SELECT uuidv7_range_lower('empty') AS empty_lower, uuidv7_range_upper('empty') AS empty_upper,
       uuidv7_range_lower('[1960-01-01, 1969-12-31)') AS outside_lower;
SELECT uuidv6_range_lower('[2022-02-22 19:22:22+00, 2022-02-22 19:22:23+00)') AS v6_lower,
       uuidv6_range_upper('[2022-02-22 19:22:22+00, 2022-02-22 19:22:23+00)') AS v6_upper;

-- the predicate at the edges, inclusive and exclusive
WITH t(id) AS (VALUES (uuidv7_boundary('2026-01-01 00:00:00.000125+00')))
SELECT id <@ '[2026-01-01 00:00:00.000125+00,)' AS incl_lower,
       id <@ '(2026-01-01 00:00:00.000125+00,)' AS excl_lower,
       id <@ '(,2026-01-01 00:00:00.000125+00]' AS incl_upper,
       id <@ '(,2026-01-01 00:00:00.000125+00)' AS excl_upper,
       id <@ 'empty' AS in_empty, id <@ '(,)' AS in_all
FROM t;
-- an id of another version or variant is never in a range
SELECT '017f22e2-79b0-8cc3-98c4-dc0c0c07398f'::uuid <@ '(,)' AS v8,
       '017f22e2-79b0-7cc3-08c4-dc0c0c07398f'::uuid <@ '(,)' AS ncs_variant,
       uuidv6_in_time_range('017f22e2-79b0-7cc3-98c4-dc0c0c07398f', '(,)') AS v7_as_v6,
       uuidv6_in_time_range('1ec9414c-232a-6b00-b3c8-9e6bdeced846',
                            '[2022-02-22 19:22:22+00, 2022-02-22 19:22:22.000001+00)') AS v6_vector;
SELECT uuidv7_boundary_upper('2026-01-01 00:00:00.000125+00') = uuidv7_range_upper('[2026-01-01, 2026-01-01 00:00:00.000125+00]') AS upper_boundary,
       uuidv6_boundary_upper('2022-02-22 19:22:22+00') AS v6_upper_boundary,
       uuid_extract_timestamp_from_text('017F22E2-79B0-7CC3-98C4-DC0C0C07398F') AS from_text;

-- the same rows with and without the index, on ids of every kind
CREATE TABLE ids (id uuid PRIMARY KEY);
INSERT INTO ids
SELECT uuidv7_at('2026-01-01'::timestamptz + g * interval '37 ms') FROM generate_series(1, 20000) g
UNION ALL SELECT uuidv6() FROM generate_series(1, 2000)
UNION ALL SELECT uuidv4() FROM generate_series(1, 2000)
UNION ALL SELECT uuidv1_to_v6(uuidv6_to_v1(uuidv6())) FROM generate_series(1, 100)
UNION ALL SELECT uuidv7_boundary('2026-01-01 00:01:00+00')
UNION ALL SELECT uuidv7_boundary_upper('2026-01-01 00:02:00+00')
UNION ALL SELECT ('017f22e2-79b0-8cc3-98c4-' || lpad(to_hex(g), 12, '0'))::uuid FROM generate_series(1, 100) g
UNION ALL SELECT '00000000-0000-0000-0000-000000000000'
UNION ALL SELECT 'ffffffff-ffff-ffff-ffff-ffffffffffff'
ON CONFLICT DO NOTHING;
ANALYZE ids;
CREATE TEMP TABLE ranges (r tstzrange);
INSERT INTO ranges VALUES
    ('[2026-01-01 00:01:00+00, 2026-01-01 00:02:00+00)'), ('(2026-01-01 00:01:00+00, 2026-01-01 00:02:00+00]'),
    ('[2026-01-01 00:01:00+00, 2026-01-01 00:01:00+00]'), ('(,2026-01-01 00:00:10+00)'),
    ('[2026-01-01 00:12:00+00,)'), ('empty'), ('(,)'), ('[2027-01-01, 2028-01-01)');
CREATE FUNCTION pg_temp.matches(r tstzrange, use_index boolean) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE n bigint;
BEGIN
    PERFORM set_config('enable_seqscan', (NOT use_index)::text, true);
    PERFORM set_config('enable_indexscan', use_index::text, true);
    PERFORM set_config('enable_bitmapscan', use_index::text, true);
    EXECUTE format('SELECT count(*) FROM ids WHERE id <@ %L::tstzrange', r) INTO n;
    RETURN n;
END $$;
SELECT r, pg_temp.matches(r, true) AS with_index, pg_temp.matches(r, false) AS without_index,
       (SELECT count(*) FROM ids
        WHERE uuid_extract_version(id) = 7
          AND uuid_extract_timestamp_us(id) IS NOT NULL
          AND uuidv7_in_time_range(id, r)) AS by_function
FROM ranges
ORDER BY r;
SELECT count(*) FILTER (WHERE id <@ '[2026-01-01 00:01:00+00, 2026-01-01 00:02:00+00]') =
       count(*) FILTER (WHERE id BETWEEN uuidv7_boundary('2026-01-01 00:01:00+00')
                                    AND uuidv7_boundary_upper('2026-01-01 00:02:00+00')
                          AND uuid_extract_version(id) = 7) AS between_agrees
FROM ids;

-- the plan: btree conditions on the primary key, the predicate rechecked;
-- also for a range computed at run time
CREATE FUNCTION pg_temp.plan(q text, options text DEFAULT 'COSTS OFF') RETURNS text LANGUAGE plpgsql AS $$
DECLARE line text; plan text := '';
BEGIN
    FOR line IN EXECUTE format('EXPLAIN (%s) %s', options, q) LOOP
        plan := plan || line || E'\n';
    END LOOP;
    RETURN plan;
END $$;
SELECT pg_temp.plan($$SELECT * FROM ids WHERE id <@ '[2026-01-01 00:01:00+00, 2026-01-01 00:02:00+00)'$$)
       ~ 'Index Only Scan using ids_pkey[^\n]*\n *Index Cond: \(\(id >= ''[0-9a-f-]+''::uuid\) AND \(id <= ''[0-9a-f-]+''::uuid\)\)\n *Filter: \(id <@ ' AS index_conditions;
SELECT pg_temp.plan($$SELECT * FROM ids WHERE id <@ tstzrange(now() - interval '1 hour', now())$$)
       ~ 'Index Cond: \(\(id >= uuidv7_range_lower' AS runtime_range_uses_index;
SELECT pg_temp.plan($$SELECT * FROM ids WHERE uuidv6_in_time_range(id, '[2026-01-01, 2026-01-02)')$$)
       ~ 'Index Cond: \(\(id >= ''[0-9a-f-]+''::uuid\) AND \(id <= ' AS v6_index_conditions;

-- a generic plan keeps the range as a parameter: the edges are computed
-- when it runs, also for NULL (no rows, as the strict predicate gives)
PREPARE in_range(tstzrange) AS SELECT count(*) FROM ids WHERE id <@ $1;
SET plan_cache_mode = force_generic_plan;
EXECUTE in_range('[2026-01-01 00:01:00+00, 2026-01-01 00:02:00+00)');
EXECUTE in_range(NULL);
RESET plan_cache_mode;
DEALLOCATE in_range;

-- partition pruning on a table partitioned by the id
CREATE TABLE events (id uuid PRIMARY KEY, n int) PARTITION BY RANGE (id);
CREATE TABLE events_d1 PARTITION OF events FOR VALUES FROM (uuidv7_boundary('2026-01-01')) TO (uuidv7_boundary('2026-01-02'));
CREATE TABLE events_d2 PARTITION OF events FOR VALUES FROM (uuidv7_boundary('2026-01-02')) TO (uuidv7_boundary('2026-01-03'));
CREATE TABLE events_d3 PARTITION OF events FOR VALUES FROM (uuidv7_boundary('2026-01-03')) TO (uuidv7_boundary('2026-01-04'));
INSERT INTO events SELECT uuidv7_at('2026-01-01'::timestamptz + g * interval '1 minute'), g FROM generate_series(0, 4319) g;
ANALYZE events;
SELECT (SELECT count(*) FROM regexp_matches(pg_temp.plan(
            $$SELECT * FROM events WHERE id <@ '[2026-01-02 06:00+00, 2026-01-02 07:00+00)'$$), 'on events_d', 'g')) AS partitions_scanned,
       (SELECT count(*) FROM events WHERE id <@ '[2026-01-02 06:00+00, 2026-01-02 07:00+00)') AS rows_in_range,
       (SELECT count(*) FROM regexp_matches(pg_temp.plan(
            $$SELECT * FROM events WHERE id >= uuidv7_boundary('2026-01-02') AND id < uuidv7_boundary('2026-01-03')$$),
            'on events_d', 'g')) AS boundary_partitions;
-- a range known only at run time: pruned when the executor starts
SELECT substring(pg_temp.plan($$SELECT * FROM events
           WHERE id <@ tstzrange('2026-01-02 06:00+00'::timestamptz + interval '0 s', '2026-01-02 07:00+00')$$,
           'ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF') FROM 'Subplans Removed: [0-9]+') AS runtime_pruning,
       (SELECT count(*) FROM events
        WHERE id <@ tstzrange('2026-01-02 06:00+00'::timestamptz + interval '0 s', '2026-01-02 07:00+00')) AS rows_in_range;
-- on a partitioned table the row test beside the derived edges is the
-- predicate itself, expanded once, also inside an AND; the partition's
-- index gets the edges once.  v6's predicate too (its edges in 2026 lie
-- outside every partition of v7 ids: none is scanned)
SELECT pg_temp.plan($$SELECT * FROM events WHERE id <@ '[2026-01-02 06:00+00, 2026-01-02 07:00+00)'$$)
       ~ 'Index Cond: \(\(id >= ''[0-9a-f-]+''::uuid\) AND \(id <= ''[0-9a-f-]+''::uuid\)\)\n *Filter: \(id <@ ''' AS expanded_once,
       (SELECT count(*) FROM regexp_matches(pg_temp.plan(
            $$SELECT * FROM events WHERE id <@ '[2026-01-02 06:00+00, 2026-01-02 07:00+00)'$$), 'id >=', 'g')) AS lower_edges,
       (SELECT count(*) FROM regexp_matches(pg_temp.plan(
            $$SELECT * FROM events WHERE id <@ '[2026-01-02 06:00+00, 2026-01-02 07:00+00)' AND n > 0$$), 'id >=', 'g')) AS lower_edges_in_and,
       (SELECT count(*) FROM regexp_matches(pg_temp.plan(
            $$SELECT * FROM events WHERE uuidv6_in_time_range(id, '[2026-01-02 06:00+00, 2026-01-02 07:00+00)') AND n > 0$$),
            'on events_d', 'g')) AS v6_partitions_scanned;

-- a partial index "WHERE id <@ r" on the partitioned table: its partitions'
-- indexes answer a query with the same predicate, and pruning still works
CREATE INDEX events_morning ON events (n) WHERE id <@ '[2026-01-02 06:00+00, 2026-01-02 07:00+00)';
SELECT pg_temp.plan($$SELECT n FROM events WHERE id <@ '[2026-01-02 06:00+00, 2026-01-02 07:00+00)' AND n = 1810$$)
       ~ '^Index (Only )?Scan using events_d2_n_idx on events_d2 events\n *Index Cond: \(n = 1810\)\n' AS partial_index_used,
       (SELECT count(*) FROM regexp_matches(pg_temp.plan(
            $$SELECT n FROM events WHERE id <@ '[2026-01-02 06:00+00, 2026-01-02 07:00+00)' AND n = 1810$$), 'on events_d', 'g')) AS partitions_scanned,
       (SELECT array_agg(n) FROM events WHERE id <@ '[2026-01-02 06:00+00, 2026-01-02 07:00+00)' AND n = 1810) AS rows_found;
DROP INDEX events_morning;

-- a partition that is partitioned itself, and a UNION ALL of partitioned
-- tables: pruned at every level, one pair of edges
CREATE TABLE nested (id uuid NOT NULL, n int) PARTITION BY RANGE (id);
CREATE TABLE nested_12 PARTITION OF nested FOR VALUES FROM (uuidv7_boundary('2026-01-01')) TO (uuidv7_boundary('2026-01-03'))
    PARTITION BY RANGE (id);
CREATE TABLE nested_1 PARTITION OF nested_12 FOR VALUES FROM (uuidv7_boundary('2026-01-01')) TO (uuidv7_boundary('2026-01-02'));
CREATE TABLE nested_2 PARTITION OF nested_12 FOR VALUES FROM (uuidv7_boundary('2026-01-02')) TO (uuidv7_boundary('2026-01-03'));
CREATE TABLE nested_3 PARTITION OF nested FOR VALUES FROM (uuidv7_boundary('2026-01-03')) TO (uuidv7_boundary('2026-01-04'));
INSERT INTO nested SELECT id, n FROM events;
ANALYZE nested;
SELECT regexp_replace(pg_temp.plan($$SELECT n FROM nested WHERE id <@ '[2026-01-02 06:00+00, 2026-01-02 07:00+00)' AND n > 0$$),
                      '''[^'']*''', '''...''', 'g') AS nested_plan,
       (SELECT count(*) FROM nested WHERE id <@ '[2026-01-02 06:00+00, 2026-01-02 07:00+00)' AND n > 0) AS rows_in_range;
SELECT regexp_replace(pg_temp.plan($$SELECT n FROM (SELECT id, n FROM nested UNION ALL SELECT id, n FROM events) u
                                     WHERE id <@ '[2026-01-02 06:00+00, 2026-01-02 07:00+00)'$$),
                      '''[^'']*''', '''...''', 'g') AS union_plan;
DROP TABLE nested;

-- a range from a sub-select (here one that may answer differently each
-- time it runs) is not copied into the edges: it runs once, as an
-- InitPlan (whatever EXPLAIN names it: a number up to 18, a word on 19),
-- and each count is that of one range (0: no row sampled).
-- Edges and row test from different ranges would give another count in
-- about 45% of the runs
CREATE TEMP TABLE sampled (r tstzrange);
INSERT INTO sampled VALUES ('[2026-01-01 00:00+00, 2026-01-01 20:00+00)'), ('[2026-01-01 10:00+00, 2026-01-02 10:00+00)'),
                           ('[2026-01-01 05:00+00, 2026-01-03 00:00+00)'), ('[2026-01-01 15:00+00, 2026-01-01 16:00+00)');
ANALYZE sampled;
SELECT (SELECT count(DISTINCT m) FROM regexp_matches(pg_temp.plan(
            $$SELECT count(*) FROM events WHERE id <@ (SELECT r FROM sampled TABLESAMPLE BERNOULLI (50) LIMIT 1)$$),
            '(?:InitPlan|SubPlan) ([A-Za-z_0-9]+)', 'g') m) AS subplans;
CREATE FUNCTION pg_temp.sampled_counts(runs int, OUT runs_with_one_range_count bigint, OUT other_runs bigint)
LANGUAGE plpgsql AS $$
DECLARE one_range bigint[]; n bigint;
BEGIN
    SELECT array_agg(c) || 0::bigint INTO one_range
    FROM (SELECT (SELECT count(*) FROM events WHERE id <@ s.r) AS c FROM sampled s) t;
    runs_with_one_range_count := 0;
    other_runs := 0;
    FOR i IN 1..runs LOOP
        SELECT count(*) INTO n FROM events WHERE id <@ (SELECT r FROM sampled TABLESAMPLE BERNOULLI (50) LIMIT 1);
        IF n = ANY (one_range) THEN
            runs_with_one_range_count := runs_with_one_range_count + 1;
        ELSE
            other_runs := other_runs + 1;
        END IF;
    END LOOP;
END $$;
SELECT * FROM pg_temp.sampled_counts(30);
-- nor is a correlated sub-select in a join condition copied into index
-- conditions (each copy would run it again, with its own answer)
CREATE TEMP TABLE wanted (r tstzrange);
INSERT INTO wanted VALUES ('[2026-01-01 06:00+00, 2026-01-01 07:00+00)');
ANALYZE wanted;
SET enable_seqscan = off;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SELECT pg_temp.plan($$SELECT count(*) FROM wanted w
              JOIN ids ON ids.id <@ (SELECT s.r FROM sampled s TABLESAMPLE BERNOULLI (50) WHERE s.r && w.r LIMIT 1)$$)
       !~ 'Index Cond: [^\n]*SubPlan' AS no_index_condition_runs_the_sub_select,
       (SELECT count(*) FROM wanted w
        JOIN ids ON ids.id <@ (SELECT s.r FROM sampled s WHERE s.r && w.r ORDER BY lower(s.r) LIMIT 1)) AS rows_in_range;
RESET enable_seqscan;
RESET enable_hashjoin;
RESET enable_mergejoin;

-- constraint exclusion on a table with inheritance children (the chunks of
-- a TimescaleDB hypertable are such children): CHECK constraints on id
-- ranges read the same derived edges
CREATE TABLE logs (id uuid NOT NULL, n int);
CREATE TABLE logs_d1 (CHECK (id >= uuidv7_boundary('2026-01-01') AND id < uuidv7_boundary('2026-01-02'))) INHERITS (logs);
CREATE TABLE logs_d2 (CHECK (id >= uuidv7_boundary('2026-01-02') AND id < uuidv7_boundary('2026-01-03'))) INHERITS (logs);
CREATE TABLE logs_d3 (CHECK (id >= uuidv7_boundary('2026-01-03') AND id < uuidv7_boundary('2026-01-04'))) INHERITS (logs);
INSERT INTO logs_d1 SELECT uuidv7_at('2026-01-01'::timestamptz + g * interval '1 minute'), g FROM generate_series(0, 1439) g;
INSERT INTO logs_d2 SELECT uuidv7_at('2026-01-02'::timestamptz + g * interval '1 minute'), g FROM generate_series(0, 1439) g;
INSERT INTO logs_d3 SELECT uuidv7_at('2026-01-03'::timestamptz + g * interval '1 minute'), g FROM generate_series(0, 1439) g;
-- ids that are not v7, with the bits of a time in the range: never matched
INSERT INTO logs_d2 SELECT overlay(uuidv7_at('2026-01-02 06:30+00')::text placing '4' from 15 for 1)::uuid, -1;
INSERT INTO logs (id, n) VALUES (uuidv7_at('2026-01-02 06:10+00'), 0);
ANALYZE logs, logs_d1, logs_d2, logs_d3;
SELECT r AS range,
       (SELECT count(*) FROM regexp_matches(pg_temp.plan(format('SELECT * FROM logs WHERE id <@ %L::tstzrange', r)),
            'on logs_d', 'g')) AS children_scanned,
       (SELECT count(*) FROM logs WHERE id <@ r) AS rows_in_range,
       (SELECT count(*) FROM logs WHERE uuidv7_in_time_range_recheck(id, r)) AS rows_by_the_row_test
  FROM unnest(ARRAY['[2026-01-02 06:00+00, 2026-01-02 07:00+00)', '(2026-01-02 06:00+00, 2026-01-02 07:00+00]',
                    '[2026-01-01 23:59+00, 2026-01-02 00:00+00]', '(2026-01-02 23:59+00,)', '(,2026-01-01 00:01+00)',
                    'empty']::tstzrange[]) r;
DROP TABLE logs CASCADE;

-- an index of another btree operator family on uuid: the derived edges use
-- that family's operators, so the index can answer them
CREATE SCHEMA alt;
CREATE FUNCTION alt.lt(uuid, uuid) RETURNS boolean LANGUAGE internal IMMUTABLE STRICT AS 'uuid_lt';
CREATE FUNCTION alt.le(uuid, uuid) RETURNS boolean LANGUAGE internal IMMUTABLE STRICT AS 'uuid_le';
CREATE FUNCTION alt.eq(uuid, uuid) RETURNS boolean LANGUAGE internal IMMUTABLE STRICT AS 'uuid_eq';
CREATE FUNCTION alt.ge(uuid, uuid) RETURNS boolean LANGUAGE internal IMMUTABLE STRICT AS 'uuid_ge';
CREATE FUNCTION alt.gt(uuid, uuid) RETURNS boolean LANGUAGE internal IMMUTABLE STRICT AS 'uuid_gt';
CREATE OPERATOR alt.< (LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = alt.lt);
CREATE OPERATOR alt.<= (LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = alt.le);
CREATE OPERATOR alt.= (LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = alt.eq);
CREATE OPERATOR alt.>= (LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = alt.ge);
CREATE OPERATOR alt.> (LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = alt.gt);
CREATE OPERATOR CLASS alt.uuid_alt_ops FOR TYPE uuid USING btree AS
    OPERATOR 1 alt.<, OPERATOR 2 alt.<=, OPERATOR 3 alt.=, OPERATOR 4 alt.>=, OPERATOR 5 alt.>,
    FUNCTION 1 uuid_cmp(uuid, uuid);
CREATE TABLE alt_ids (id uuid);
CREATE INDEX alt_ids_id ON alt_ids (id alt.uuid_alt_ops);
INSERT INTO alt_ids SELECT id FROM ids;
ANALYZE alt_ids;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT pg_temp.plan($$SELECT * FROM alt_ids WHERE id <@ '[2026-01-01 00:01:00+00, 2026-01-01 00:02:00+00)'$$)
       ~ 'Index Cond: \(\(id OPERATOR\(alt.>=\) ''[0-9a-f-]+''::uuid\) AND \(id OPERATOR\(alt.<=\) ' AS other_family_edges,
       (SELECT count(*) FROM alt_ids WHERE id <@ '[2026-01-01 00:01:00+00, 2026-01-01 00:02:00+00)') =
       (SELECT count(*) FROM ids WHERE id <@ '[2026-01-01 00:01:00+00, 2026-01-01 00:02:00+00)') AS same_rows;
-- a family that sorts the other way round (its >= is uuid's <=): no
-- edges, the predicate alone, the same rows
CREATE FUNCTION alt.reverse_cmp(uuid, uuid) RETURNS integer LANGUAGE sql IMMUTABLE STRICT
    AS 'SELECT pg_catalog.uuid_cmp($2, $1)';
CREATE OPERATOR CLASS alt.uuid_reverse_ops FOR TYPE uuid USING btree AS
    OPERATOR 1 pg_catalog.>, OPERATOR 2 pg_catalog.>=, OPERATOR 3 pg_catalog.=, OPERATOR 4 pg_catalog.<=,
    OPERATOR 5 pg_catalog.<, FUNCTION 1 alt.reverse_cmp(uuid, uuid);
DROP INDEX alt_ids_id;
CREATE INDEX alt_ids_reverse ON alt_ids (id alt.uuid_reverse_ops);
SELECT pg_temp.plan($$SELECT * FROM alt_ids WHERE id <@ '[2026-01-01 00:01:00+00, 2026-01-01 00:02:00+00)'$$)
       !~ 'Index Cond' AS reverse_family_no_edges,
       (SELECT count(*) FROM alt_ids WHERE id <@ '[2026-01-01 00:01:00+00, 2026-01-01 00:02:00+00)') AS rows_in_range,
       (SELECT count(*) FROM ids WHERE id <@ '[2026-01-01 00:01:00+00, 2026-01-01 00:02:00+00)') AS rows_by_the_primary_key;
RESET enable_seqscan;
RESET enable_bitmapscan;
DROP TABLE alt_ids;
SET client_min_messages = warning;
DROP SCHEMA alt CASCADE;
RESET client_min_messages;

-- what the planner support looked up is forgotten when the functions
-- change: the extension made again in this session plans as before
DROP TABLE events, ids;
DROP EXTENSION pg_uuidx;
CREATE EXTENSION pg_uuidx;
CREATE TABLE ids (id uuid PRIMARY KEY);
INSERT INTO ids SELECT uuidv7_at('2026-01-01'::timestamptz + g * interval '37 ms') FROM generate_series(1, 2000) g;
ANALYZE ids;
SELECT pg_temp.plan($$SELECT * FROM ids WHERE id <@ tstzrange(now() - interval '1 hour', now())$$)
       ~ 'Index Cond: \(\(id >= uuidv7_range_lower' AS runtime_range_after_recreate,
       (SELECT count(*) FROM ids WHERE id <@ tstzrange('2026-01-01'::timestamptz + interval '0 s', '2026-01-01 00:00:10+00')) AS rows_in_range;
DROP TABLE ids;
DROP EXTENSION pg_uuidx;
