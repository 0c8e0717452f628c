-- test/t/helpers.sql: decoders the TAP tests check ids with (schema fault), written
-- from RFC 9562 alone so they don't share a bug with the C code.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
SET client_min_messages = warning;
CREATE SCHEMA IF NOT EXISTS fault;

-- version nibble (RFC 9562 4.2): the 13th hex digit
CREATE OR REPLACE FUNCTION fault.version(uuid) RETURNS int
LANGUAGE sql IMMUTABLE STRICT SET search_path = pg_catalog
AS $$ SELECT ('x' || substr(replace($1::text, '-', ''), 13, 1))::bit(4)::int $$;

-- variant 0b10 (RFC 9562 4.1): the 17th hex digit is 8, 9, a or b
CREATE OR REPLACE FUNCTION fault.variant_ok(uuid) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT SET search_path = pg_catalog
AS $$ SELECT substr(replace($1::text, '-', ''), 17, 1) IN ('8', '9', 'a', 'b') $$;

-- the 60 time bits shared by v6 and v7: octets 0-5, then the 12 bits after
-- the version nibble (v6: time_high, time_mid, time_low; v7: unix_ts_ms, rand_a)
CREATE OR REPLACE FUNCTION fault.time_field(uuid) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT SET search_path = pg_catalog
AS $$ SELECT ('x' || substr(replace($1::text, '-', ''), 1, 12)
                  || substr(replace($1::text, '-', ''), 14, 3))::bit(60)::bigint $$;

-- embedded Unix time in milliseconds (with fraction): v7 = unix_ts_ms plus
-- rand_a/4096 (RFC 9562 6.2 Method 3, as pg_uuidx fills it); v6 = 100 ns
-- since 1582-10-15 (RFC 9562 5.6)
CREATE OR REPLACE FUNCTION fault.unix_ms(uuid) RETURNS numeric
LANGUAGE sql IMMUTABLE STRICT SET search_path = pg_catalog
AS $$
    SELECT CASE fault.version($1)
        WHEN 7 THEN (fault.time_field($1) >> 12) + (fault.time_field($1) & 4095) / 4096.0
        WHEN 6 THEN (fault.time_field($1) - 122192928000000000) / 10000.0
    END
$$;

-- a timestamptz as Unix milliseconds
CREATE OR REPLACE FUNCTION fault.ts_ms(timestamptz) RETURNS numeric
LANGUAGE sql IMMUTABLE STRICT SET search_path = pg_catalog
AS $$ SELECT extract(epoch FROM $1) * 1000 $$;

-- the random tail of an id: the last 44 bits (11 hex digits), which pg_uuidx
-- fills from the entropy block in v7 after the counter
CREATE OR REPLACE FUNCTION fault.tail44(uuid) RETURNS text
LANGUAGE sql IMMUTABLE STRICT SET search_path = pg_catalog
AS $$ SELECT right(replace($1::text, '-', ''), 11) $$;
