-- test/bench/horizon.sql: the commit horizon's measures (bench.pl's horizon
-- phase): ns per call of uuidv7_horizon()/uuidv6_horizon() above a floor
-- query, and how far the horizon trails the clock, sampled every 10 ms.
-- bench.pl starts and stops the load around the calls of these functions.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
CREATE TABLE hz (id uuid PRIMARY KEY DEFAULT uuidv7(), pad int);
CREATE TABLE hz_cost (setting text, expr text, rep int, ns float8, at timestamptz DEFAULT clock_timestamp());
CREATE TABLE hz_lag (setting text, at timestamptz, lag_ms float8, holders int);

-- ns per call of expr above the floor query, :reps interleaved repetitions
CREATE PROCEDURE hz_measure(setting text, n int, reps int) LANGUAGE plpgsql AS $$
DECLARE
    e text;
    t0 timestamptz;
    floor_ms float8;
    ms float8;
BEGIN
    FOR rep IN 1 .. reps LOOP
        t0 := clock_timestamp();
        EXECUTE format('SELECT count(random()) FROM generate_series(1, %s)', n);
        floor_ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
        FOREACH e IN ARRAY ARRAY['uuidv7_horizon()', 'uuidv6_horizon()'] LOOP
            t0 := clock_timestamp();
            EXECUTE format('SELECT count(%s) FROM generate_series(1, %s)', e, n);
            ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
            INSERT INTO hz_cost (setting, expr, rep, ns) VALUES (setting, e, rep, (ms - floor_ms) * 1e6 / n);
        END LOOP;
    END LOOP;
END $$;

-- clock minus the horizon's time, every 10 ms for "seconds"
CREATE PROCEDURE hz_sample(setting text, seconds float8) LANGUAGE plpgsql AS $$
DECLARE
    stop timestamptz := clock_timestamp() + seconds * interval '1 s';
BEGIN
    WHILE clock_timestamp() < stop LOOP
        INSERT INTO hz_lag
        SELECT setting, c, extract(epoch FROM c - uuid_extract_timestamp_us(h)) * 1000,
               (SELECT count(*) FROM pg_uuidx_horizon_holders())
        FROM (SELECT uuidv7_horizon() AS h) s, LATERAL (SELECT clock_timestamp() AS c) t;
        PERFORM pg_sleep(0.01);
    END LOOP;
END $$;
