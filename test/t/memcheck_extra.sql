-- test/t/memcheck_extra.sql: work for the sanitized build beyond the
-- suite (run by test/t/099_sanitizer.pl): many entropy-block refills, every
-- error path, extreme shifts, NULLs, parallel workers.  Each statement's
-- outcome is checked only loosely here; the point is what the sanitizers see.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
CREATE EXTENSION pg_uuidx;
\set VERBOSITY terse

-- 600k v4 (2 words each) and 600k v7 (1 word): ~3500 block refills
SELECT count(DISTINCT uuidv4()) = 600000 AS v4_ok FROM generate_series(1, 600000);
SELECT count(DISTINCT uuidv7()) = 600000 AS v7_ok FROM generate_series(1, 600000);

-- shifts: whole and fractional ms, negative, the edges of the v7 range
SELECT count(DISTINCT uuidv7(make_interval(secs => g / 7.0))) FROM generate_series(-5000, 5000) AS g;
SELECT uuidv7(('-' || (extract(epoch FROM clock_timestamp()) - 0.001) || ' s')::interval) IS NOT NULL AS near_epoch;
SELECT uuidv7(((timestamptz '10889-08-02 05:31:50.6+00' - clock_timestamp()))) IS NOT NULL AS near_end;

-- error paths, each caught
DO $$
DECLARE
    shifts interval[] := ARRAY['-60 years', '9000 years', '200000000 days', '-200000000 days',
                               '-1 ms', '178000000 years']::interval[];
    s interval;
    errors int := 0;
BEGIN
    FOREACH s IN ARRAY shifts LOOP
        BEGIN
            PERFORM uuidv7(s);
        EXCEPTION WHEN OTHERS THEN
            errors := errors + 1;
        END;
    END LOOP;
    RAISE NOTICE 'shift errors: % of %', errors, array_length(shifts, 1);
END $$;
SELECT uuidv7(NULL) IS NULL AS null_shift;
SELECT uuidv7(-(clock_timestamp() - timestamptz 'epoch')) IS NOT NULL AS at_epoch;

-- parallel workers call the generators
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
CREATE TABLE big AS SELECT g FROM generate_series(1, 100000) AS g;
ANALYZE big;
SELECT count(DISTINCT v4) = 100000 AND count(DISTINCT v7) = 100000 AS parallel_ok
FROM (SELECT uuidv4() AS v4, uuidv7() AS v7 FROM big) AS s;
RESET ALL;

-- the calls from other versions, when installed (uuidv6() and the rest)
DO $$
DECLARE f regprocedure;
BEGIN
    FOR f IN SELECT p.oid::regprocedure FROM pg_proc p
             JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass AND d.deptype = 'e'
             JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'pg_uuidx'
             WHERE p.pronargs = 0 AND p.prokind = 'f' AND p.prorettype = 'uuid'::regtype
    LOOP
        EXECUTE format('SELECT count(DISTINCT %s) FROM generate_series(1, 100000)', f::text);
    END LOOP;
END $$;

-- the commit horizon: the shared state, a prepared transaction, the reader
CREATE TABLE hz (id uuid PRIMARY KEY DEFAULT uuidv7(), n int);
SELECT pg_uuidx_add_guard('hz');
INSERT INTO hz (n) SELECT g FROM generate_series(1, 1000) g;
CREATE TABLE hz6 (id uuid PRIMARY KEY DEFAULT uuidv6(), n int);
SELECT pg_uuidx_add_guard('hz6', id_version => 6);
INSERT INTO hz6 (n) VALUES (1);
BEGIN;
INSERT INTO hz (n) VALUES (0);
PREPARE TRANSACTION 'hz';
SELECT count(*) = 1 AS held FROM pg_uuidx_horizon_holders() WHERE prepared_xid IS NOT NULL;
SELECT count(*) = 1000 AS read_up_to_it FROM pg_uuidx_read_after(NULL::hz, NULL, 5000);
COMMIT PREPARED 'hz';
SELECT count(*) = 1001 AS read_all FROM pg_uuidx_read_after(NULL::hz, NULL, 5000);
SELECT count(*) = 1 AS v6 FROM pg_uuidx_read_after(NULL::hz6, NULL, 1, 'id', 6);
