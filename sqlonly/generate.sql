-- sqlonly/generate.sql: the generators of the SQL build: uuidv7(),
-- uuidv7(interval), uuidv6(), uuidv4(), and uuidv7_at() for backfilling.
--
-- Random bits come from gen_random_uuid() (PostgreSQL's CSPRNG), the time
-- from clock_timestamp() (microseconds).  A generator's per-session order
-- lives in a custom setting (set_config with is_local false), the one
-- session state a trusted language has: uuidv7() is one inlined expression
-- that reads the setting, writes the new tick with set_config and builds the
-- id from set_config's result, so each call reads the clock once and runs no
-- function call of its own.  A setting changed in a transaction that rolls
-- back returns to its value before it, as settings do: the ids made after a
-- rollback are later than those made before the transaction, and later than
-- those of the rolled-back transaction unless the clock stepped back.
--
-- RFC 9562 6.2 Method 3: a v7 tick is 1/4096 ms (rand_a holds the fraction),
-- a v6 tick 100 ns.  Each call takes the tick of the clock reading or, when
-- that is not later than the session's last one (same tick, or a clock that
-- stepped back), the last tick plus one: ticks, and so ids, strictly increase
-- within a session at any call rate.  Calls of the SQL build never come
-- faster than a tick (244 ns for v7, 100 ns for v6), so the ids' time is the
-- clock's but after a step back, where it runs on from the last id as in the
-- C build.  rand_b (v7) is the last 62 bits of a v4 id; the C build's counter
-- (6.2 Method 1) is not needed where the tick itself moves on.
--
-- PostgreSQL 18's own uuidv7() keeps the same order within a session, but it
-- is not used: it moves its time on by 245 ns per call whenever calls come
-- faster than that, which a C function in a tight loop does, so its ids run
-- ahead of the clock there, and this build's do not.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)

-- uuidv7(): RFC 9562 5.7.  The tick of the clock reading: floor(us * 4096 /
-- 1000) of its Unix microsecond us (date_part's epoch, exact to the
-- microsecond once the cast to int8 rounds it).  The id is 16 octets in hex:
-- the tick's 60 bits with the version nibble put in after the 48 bits of
-- milliseconds (a bit string overlay, as int8send's big-endian octets), then
-- the last 8 octets of a v4 id.  The tick comes back from set_config as
-- text and is cast with a '0' in front: a negative tick (a clock before
-- 1970) is then no int8, so it makes no uuid.
--
-- The state is read once, as a bigint: an empty state (no id yet, RESET,
-- DISCARD ALL) is NULL, a value that is no bigint raises its cast's error
-- (22P02, or 22003 past bigint's range), never an id.  The next tick is
-- the later of the clock's and the state's plus one; a bigint no call wrote
-- (a sign, spaces around it) is read all the same, and can only put the id
-- later.  A state at the last tick (2^60 - 1) or past it is NULL after
-- NULLIF(LEAST(...)), and so is the next tick (int8larger is strict, where
-- GREATEST would skip the NULL); COALESCE then takes the
-- second arm, which reads the setting again: empty, the clock's next tick;
-- anything else, the C build's range error (uuidv7_boundary of infinity: its
-- argument depends on the state, so that the planner never evaluates it
-- ahead).  Both arms are evaluated before set_config is called, and an error
-- leaves the setting as it was.  So no state gives an id past the last tick
-- (wrapped to 1970) or before the clock, and the usual call reads the
-- setting once: each reading is a lookup of the setting by name, the larger
-- part of the call's cost after gen_random_uuid() (docs/sql-build.md).
-- Replaced in 1.6.
CREATE FUNCTION @extschema@.uuidv7()
RETURNS uuid
LANGUAGE sql VOLATILE PARALLEL UNSAFE
RETURN CAST(pg_catalog.encode(pg_catalog.int8send(CAST(pg_catalog.overlay(CAST(CAST('0' OPERATOR(pg_catalog.||)
           pg_catalog.set_config('pg_uuidx_sql.uuidv7_tick', COALESCE(
               -- the state read as a bigint below the last tick: the next tick
               CAST(pg_catalog.int8larger((CAST(pg_catalog.date_part('epoch', pg_catalog.clock_timestamp()) OPERATOR(pg_catalog.*) 1000000
                              AS pg_catalog.int8) OPERATOR(pg_catalog.*) 512) OPERATOR(pg_catalog./) 125,
                        NULLIF(LEAST(CAST(NULLIF(pg_catalog.current_setting('pg_uuidx_sql.uuidv7_tick', true), '') AS pg_catalog.int8),
                                     1152921504606846975), 1152921504606846975))
                    OPERATOR(pg_catalog.+) 1 AS pg_catalog.text),
               -- no state: the clock's next tick; the last tick or past it: the C build's range error
               CAST(COALESCE(CAST(CAST(@extschema@.uuidv7_boundary(
                        CASE WHEN pg_catalog.current_setting('pg_uuidx_sql.uuidv7_tick', true) OPERATOR(pg_catalog.<>) ''
                             THEN CAST('infinity' AS pg_catalog.timestamptz) END) AS pg_catalog.text) AS pg_catalog.int8),
                        (CAST(pg_catalog.date_part('epoch', pg_catalog.clock_timestamp()) OPERATOR(pg_catalog.*) 1000000
                              AS pg_catalog.int8) OPERATOR(pg_catalog.*) 512) OPERATOR(pg_catalog./) 125)
                    OPERATOR(pg_catalog.+) 1 AS pg_catalog.text)), false)
           AS pg_catalog.int8) AS pg_catalog.bit(60)), B'0111', 49, 0) AS pg_catalog.int8))
       OPERATOR(pg_catalog.||) pg_catalog.substring(pg_catalog.uuid_send(pg_catalog.gen_random_uuid()), 9), 'hex')
       AS pg_catalog.uuid);

COMMENT ON FUNCTION @extschema@.uuidv7() IS
'UUIDv7 (RFC 9562): Unix milliseconds, a 1/4096 ms fraction, a counter and random bits; strictly increasing within a session';

-- uuidv7(shift): as uuidv7(), the embedded time moved by shift the way
-- timestamptz + interval moves it (the session's TimeZone for months and
-- days); the order is kept on the unshifted clock, in uuidv7()'s state, and
-- the id lies as far from the state's tick as the shifted instant from the
-- clock's.
-- Replaced in 1.6.
CREATE FUNCTION @extschema@.uuidv7(shift interval)
RETURNS uuid
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
AS $$
DECLARE
    now pg_catalog.timestamptz := pg_catalog.clock_timestamp();
    shifted pg_catalog.timestamptz := now OPERATOR(pg_catalog.+) shift;
    now_us pg_catalog.int8;
    shifted_us pg_catalog.int8;
    now_unit pg_catalog.int8;
    tick pg_catalog.int8;
    last pg_catalog.text := COALESCE(pg_catalog.current_setting('pg_uuidx_sql.uuidv7_tick', true), '');
BEGIN
    IF shifted OPERATOR(pg_catalog.<) '1970-01-01 00:00:00+00'::pg_catalog.timestamptz
       OR shifted OPERATOR(pg_catalog.>) '10889-08-02 05:31:50.655999+00'::pg_catalog.timestamptz
       OR now OPERATOR(pg_catalog.<) '1970-01-01 00:00:00+00'::pg_catalog.timestamptz THEN
        RAISE EXCEPTION 'timestamp out of range for UUIDv7'
            USING ERRCODE = 'datetime_field_overflow',
                  DETAIL = 'UUIDv7 holds times from 1970-01-01 00:00:00+00 to 10889-08-02 05:31:50.655999+00.';
    END IF;
    now_us := CAST(pg_catalog.extract('epoch', now) OPERATOR(pg_catalog.*) 1000000 AS pg_catalog.int8);
    shifted_us := CAST(pg_catalog.extract('epoch', shifted) OPERATOR(pg_catalog.*) 1000000 AS pg_catalog.int8);
    now_unit := ((now_us OPERATOR(pg_catalog./) 1000) OPERATOR(pg_catalog.*) 4096)
                OPERATOR(pg_catalog.+) (((now_us OPERATOR(pg_catalog.%) 1000) OPERATOR(pg_catalog.*) 4096)
                                        OPERATOR(pg_catalog./) 1000);
    -- the state as uuidv7() reads it: empty, or a bigint (else the cast's
    -- error), below the last tick (else the range error)
    tick := now_unit;
    IF last OPERATOR(pg_catalog.<>) '' THEN
        IF CAST(last AS pg_catalog.int8) OPERATOR(pg_catalog.>=) 1152921504606846975 THEN
            RAISE EXCEPTION 'timestamp out of range for UUIDv7'
                USING ERRCODE = 'datetime_field_overflow',
                      DETAIL = 'UUIDv7 holds times from 1970-01-01 00:00:00+00 to 10889-08-02 05:31:50.655999+00.';
        END IF;
        tick := GREATEST(tick, CAST(last AS pg_catalog.int8) OPERATOR(pg_catalog.+) 1);
    END IF;
    PERFORM pg_catalog.set_config('pg_uuidx_sql.uuidv7_tick', CAST(tick AS pg_catalog.text), false);
    tick := (tick OPERATOR(pg_catalog.-) now_unit)
            OPERATOR(pg_catalog.+) ((shifted_us OPERATOR(pg_catalog./) 1000) OPERATOR(pg_catalog.*) 4096)
            OPERATOR(pg_catalog.+) (((shifted_us OPERATOR(pg_catalog.%) 1000) OPERATOR(pg_catalog.*) 4096)
                                    OPERATOR(pg_catalog./) 1000);
    IF tick OPERATOR(pg_catalog.>=) 1152921504606846976 THEN
        RAISE EXCEPTION 'timestamp out of range for UUIDv7'
            USING ERRCODE = 'datetime_field_overflow',
                  DETAIL = 'UUIDv7 holds times from 1970-01-01 00:00:00+00 to 10889-08-02 05:31:50.655999+00.';
    END IF;
    RETURN CAST(pg_catalog.substr(pg_catalog.overlay(pg_catalog.to_hex(tick OPERATOR(pg_catalog.+) 1152921504606846976),
                                                     '7', 14, 0), 2)
                OPERATOR(pg_catalog.||) pg_catalog.right(CAST(pg_catalog.gen_random_uuid() AS pg_catalog.text), 17)
                AS pg_catalog.uuid);
END
$$;

COMMENT ON FUNCTION @extschema@.uuidv7(interval) IS
'UUIDv7 whose embedded time is the current time plus shift';

-- uuidv6(): RFC 9562 5.6.  The Gregorian tick of the clock reading (100-ns
-- intervals since 1582-10-15: ten a microsecond plus the Unix epoch's count)
-- in time_high, time_mid, version and time_low order, which is v7's shape
-- and built as uuidv7()'s; clock_seq and node from a v4 id (62 random bits
-- after the variant), the node's multicast bit set (6.10: bit 80 of the id,
-- the lowest of octet 10) so that it is never a real IEEE 802 address.  The
-- state is read as uuidv7()'s, with the UUIDv6 range error (uuidv6_boundary
-- of infinity).
-- Replaced in 1.6.
CREATE FUNCTION @extschema@.uuidv6()
RETURNS uuid
LANGUAGE sql VOLATILE PARALLEL UNSAFE
RETURN CAST(pg_catalog.encode(pg_catalog.int8send(CAST(pg_catalog.overlay(CAST(CAST('0' OPERATOR(pg_catalog.||)
           pg_catalog.set_config('pg_uuidx_sql.uuidv6_tick', COALESCE(
               -- the state read as a bigint below the last tick: the next tick
               CAST(pg_catalog.int8larger((CAST(pg_catalog.date_part('epoch', pg_catalog.clock_timestamp()) OPERATOR(pg_catalog.*) 1000000
                              AS pg_catalog.int8) OPERATOR(pg_catalog.*) 10) OPERATOR(pg_catalog.+) 122192928000000000,
                        NULLIF(LEAST(CAST(NULLIF(pg_catalog.current_setting('pg_uuidx_sql.uuidv6_tick', true), '') AS pg_catalog.int8),
                                     1152921504606846975), 1152921504606846975))
                    OPERATOR(pg_catalog.+) 1 AS pg_catalog.text),
               -- no state: the clock's next tick; the last tick or past it: the C build's range error
               CAST(COALESCE(CAST(CAST(@extschema@.uuidv6_boundary(
                        CASE WHEN pg_catalog.current_setting('pg_uuidx_sql.uuidv6_tick', true) OPERATOR(pg_catalog.<>) ''
                             THEN CAST('infinity' AS pg_catalog.timestamptz) END) AS pg_catalog.text) AS pg_catalog.int8),
                        (CAST(pg_catalog.date_part('epoch', pg_catalog.clock_timestamp()) OPERATOR(pg_catalog.*) 1000000
                              AS pg_catalog.int8) OPERATOR(pg_catalog.*) 10) OPERATOR(pg_catalog.+) 122192928000000000)
                    OPERATOR(pg_catalog.+) 1 AS pg_catalog.text)), false)
           -- a clock past 5236 (tick 2^60 and on) overflows here: an error, not an id of 1582
           AS pg_catalog.int8) OPERATOR(pg_catalog.*) 8 OPERATOR(pg_catalog./) 8
           AS pg_catalog.bit(60)), B'0110', 49, 0) AS pg_catalog.int8))
       OPERATOR(pg_catalog.||) pg_catalog.substring(
           pg_catalog.set_bit(pg_catalog.uuid_send(pg_catalog.gen_random_uuid()), 80, 1), 9), 'hex')
       AS pg_catalog.uuid);

COMMENT ON FUNCTION @extschema@.uuidv6() IS
'UUIDv6 (RFC 9562): Gregorian 100-ns time, clock_seq counter and random multicast node; strictly increasing within a session';

-- uuidv4(): RFC 9562 5.4, 122 random bits from PostgreSQL's CSPRNG.
CREATE FUNCTION @extschema@.uuidv4()
RETURNS uuid
LANGUAGE sql VOLATILE PARALLEL SAFE
RETURN pg_catalog.gen_random_uuid();

COMMENT ON FUNCTION @extschema@.uuidv4() IS
'UUIDv4 (RFC 9562): 122 random bits from a CSPRNG, fetched in blocks';

-- uuidv7_at(ts): a v7 id whose time (uuid_extract_timestamp_us) is ts: the
-- first tick of its microsecond, floor(us * 4096 / 1000).  Its own session
-- state, apart from uuidv7()'s: a call for the same tick as the previous one
-- increments the counter, any other tick seeds it afresh (RFC 9562 6.2
-- Method 1 after Method 3): 24 counter bits at the top of rand_b, seeded
-- with 23 random bits under a zero guard bit, 38 random bits after them.
CREATE FUNCTION @extschema@.uuidv7_at(ts timestamptz)
RETURNS uuid
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
AS $$
DECLARE
    us pg_catalog.int8;
    tick pg_catalog.int8;
    last pg_catalog.text := COALESCE(pg_catalog.current_setting('pg_uuidx_sql.uuidv7_at', true), '');
    rand pg_catalog.int8;
    counter pg_catalog.int8;
BEGIN
    IF ts OPERATOR(pg_catalog.<) '1970-01-01 00:00:00+00'::pg_catalog.timestamptz
       OR ts OPERATOR(pg_catalog.>) '10889-08-02 05:31:50.655999+00'::pg_catalog.timestamptz THEN
        RAISE EXCEPTION 'timestamp out of range for UUIDv7'
            USING ERRCODE = 'datetime_field_overflow',
                  DETAIL = 'UUIDv7 holds times from 1970-01-01 00:00:00+00 to 10889-08-02 05:31:50.655999+00.';
    END IF;
    -- the state: empty, or what the call before wrote (a tick and a counter
    -- of 24 bits); anything else is an error that names it, never an id
    IF last OPERATOR(pg_catalog.<>) '' THEN
        IF NOT last OPERATOR(pg_catalog.~) '^[0-9]+/[0-9]+$' THEN
            last := NULL;
        ELSIF pg_catalog.length(pg_catalog.split_part(last, '/', 1)) OPERATOR(pg_catalog.>) 19
              OR pg_catalog.lpad(pg_catalog.split_part(last, '/', 1), 19, '0') OPERATOR(pg_catalog.~>~) '1152921504606846975'
              OR pg_catalog.length(pg_catalog.split_part(last, '/', 2)) OPERATOR(pg_catalog.>) 8 THEN
            last := NULL;
        ELSIF CAST(pg_catalog.split_part(last, '/', 2) AS pg_catalog.int8) OPERATOR(pg_catalog.>) 16777215 THEN
            last := NULL;
        END IF;
        IF last IS NULL THEN
            PERFORM CAST(pg_catalog.concat('pg_uuidx_sql.uuidv7_at holds ',
                                           pg_catalog.quote_literal(pg_catalog.current_setting('pg_uuidx_sql.uuidv7_at')),
                                           ', not a tick and counter') AS pg_catalog.uuid);
        END IF;
    END IF;
    us := CAST(pg_catalog.extract('epoch', ts) OPERATOR(pg_catalog.*) 1000000 AS pg_catalog.int8);
    tick := ((us OPERATOR(pg_catalog./) 1000) OPERATOR(pg_catalog.*) 4096)
            OPERATOR(pg_catalog.+) (((us OPERATOR(pg_catalog.%) 1000) OPERATOR(pg_catalog.*) 4096)
                                    OPERATOR(pg_catalog./) 1000);
    -- octets 8-15 of a v4 id: the variant and 62 random bits
    rand := CAST(CAST('x' OPERATOR(pg_catalog.||) pg_catalog.right(
                     pg_catalog.replace(CAST(pg_catalog.gen_random_uuid() AS pg_catalog.text), '-', ''), 16)
                 AS pg_catalog.bit(64)) AS pg_catalog.int8);
    IF last OPERATOR(pg_catalog.<>) ''
       AND CAST(pg_catalog.split_part(last, '/', 1) AS pg_catalog.int8) OPERATOR(pg_catalog.=) tick THEN
        counter := CAST(pg_catalog.split_part(last, '/', 2) AS pg_catalog.int8);
        IF counter OPERATOR(pg_catalog.>=) 16777215 THEN
            RAISE EXCEPTION 'too many ordered UUIDv7 ids for one instant'
                USING ERRCODE = 'program_limit_exceeded',
                      DETAIL = 'uuidv7_at() keeps at least 8388608 consecutive ids for the same instant in call order.',
                      HINT = 'Spread the rows over distinct microseconds, or continue in another session.';
        END IF;
        counter := counter OPERATOR(pg_catalog.+) 1;
    ELSE
        counter := (rand OPERATOR(pg_catalog.>>) 39) OPERATOR(pg_catalog.&) 8388607;
    END IF;
    PERFORM pg_catalog.set_config('pg_uuidx_sql.uuidv7_at',
                                  pg_catalog.concat(tick, '/', counter), false);
    -- variant 0b10, the counter in bits 61-38, 38 random bits
    RETURN CAST(pg_catalog.substr(pg_catalog.overlay(pg_catalog.to_hex(tick OPERATOR(pg_catalog.+) 1152921504606846976),
                                                     '7', 14, 0), 2)
                OPERATOR(pg_catalog.||) pg_catalog.to_hex(
                    (rand OPERATOR(pg_catalog.&) 274877906943)
                    OPERATOR(pg_catalog.|) (counter OPERATOR(pg_catalog.<<) 38)
                    OPERATOR(pg_catalog.|) (-9223372036854775807 OPERATOR(pg_catalog.-) 1))
                AS pg_catalog.uuid);
END
$$;

COMMENT ON FUNCTION @extschema@.uuidv7_at(timestamptz) IS
'UUIDv7 whose time (uuid_extract_timestamp_us) is the given instant; calls with the same instant in a row keep their order, for backfilling historical rows';

-- uuidv7_at(ts timestamp): ts read as UTC whatever the session's TimeZone.
CREATE FUNCTION @extschema@.uuidv7_at(ts timestamp)
RETURNS uuid
LANGUAGE sql VOLATILE STRICT PARALLEL UNSAFE
RETURN @extschema@.uuidv7_at(pg_catalog.timezone('UTC', ts));

COMMENT ON FUNCTION @extschema@.uuidv7_at(timestamp) IS
'UUIDv7 for a timestamp read as UTC whatever the session TimeZone; consecutive calls for one instant give increasing ids';
