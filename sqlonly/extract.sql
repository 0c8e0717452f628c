-- sqlonly/extract.sql: the extractors of the SQL build (uuid_extract_timestamp,
-- uuid_extract_timestamp_us, uuid_extract_version), the v7 and v6
-- boundaries, and min/max.
--
-- An id's time, as in the C build, is the Unix microsecond u whose run of
-- ticks holds the id's tick (ticks are written as floor(u * 4096 / 1000) for
-- v7, u * 10 for the 100-ns Gregorian ticks of v1 and v6): for a v7 tick
-- t = ms * 4096 + f, u = ms * 1000 + floor((f * 1000 + 999) / 4096), at most
-- 999 past the millisecond; for a Gregorian tick g, u = floor(g / 10) less
-- the Gregorian count at the Unix epoch.  Times become timestamptz exactly:
-- whole seconds through to_timestamp (a whole second times 10^6 is exact in
-- float8 up to 10889) and the rest as microseconds.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)

-- uuid_extract_timestamp(id): v7 to the millisecond, v1 and v6 to the
-- microsecond (RFC 9562 5.1, 5.6, 5.7); NULL for other versions and variants.
CREATE FUNCTION @extschema@.uuid_extract_timestamp(id uuid)
RETURNS timestamptz
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    h pg_catalog.text := pg_catalog.encode(pg_catalog.uuid_send(id), 'hex');
    n pg_catalog.int8;
BEGIN
    -- the RFC variant: 0b10 in the top bits of octet 8 (RFC 9562 4.1)
    IF pg_catalog.substr(h, 17, 1) OPERATOR(pg_catalog.<) '8' OR pg_catalog.substr(h, 17, 1) OPERATOR(pg_catalog.>) 'b' THEN
        RETURN NULL;
    END IF;
    CASE
    WHEN pg_catalog.substr(h, 13, 1) OPERATOR(pg_catalog.=) '7' THEN
        -- unix_ts_ms: octets 0-5
        n := CAST(CAST('x' OPERATOR(pg_catalog.||) pg_catalog.left(h, 12) AS pg_catalog.bit(48)) AS pg_catalog.int8);
        RETURN pg_catalog.to_timestamp(CAST(n OPERATOR(pg_catalog./) 1000 AS pg_catalog.float8))
               OPERATOR(pg_catalog.+) ((n OPERATOR(pg_catalog.%) 1000) OPERATOR(pg_catalog.*) '1 millisecond'::pg_catalog.interval);
    WHEN pg_catalog.substr(h, 13, 1) OPERATOR(pg_catalog.=) '6' THEN
        -- time_high, time_mid, time_low (5.6)
        n := CAST(CAST('x' OPERATOR(pg_catalog.||) pg_catalog.left(h, 12) OPERATOR(pg_catalog.||) pg_catalog.substr(h, 14, 3)
                       AS pg_catalog.bit(60)) AS pg_catalog.int8);
    WHEN pg_catalog.substr(h, 13, 1) OPERATOR(pg_catalog.=) '1' THEN
        -- time_low, time_mid, time_high (5.1)
        n := CAST(CAST('x' OPERATOR(pg_catalog.||) pg_catalog.substr(h, 14, 3) OPERATOR(pg_catalog.||) pg_catalog.substr(h, 9, 4)
                       OPERATOR(pg_catalog.||) pg_catalog.left(h, 8) AS pg_catalog.bit(60)) AS pg_catalog.int8);
    ELSE
        RETURN NULL;
    END CASE;
    n := (n OPERATOR(pg_catalog./) 10) OPERATOR(pg_catalog.-) 12219292800000000;
    RETURN pg_catalog.to_timestamp(CAST(n OPERATOR(pg_catalog./) 1000000 AS pg_catalog.float8))
           OPERATOR(pg_catalog.+) ((n OPERATOR(pg_catalog.%) 1000000) OPERATOR(pg_catalog.*) '1 microsecond'::pg_catalog.interval);
END
$$;

COMMENT ON FUNCTION @extschema@.uuid_extract_timestamp(uuid) IS
'creation time of a v1, v6 (microseconds) or v7 (milliseconds) UUID; NULL for other versions and variants';

-- uuid_extract_timestamp_us(id): the time of a v1, v6 or v7 id to the
-- microsecond (v7 from its 12-bit fraction); NULL where
-- uuid_extract_timestamp() is NULL.
CREATE FUNCTION @extschema@.uuid_extract_timestamp_us(id uuid)
RETURNS timestamptz
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    h pg_catalog.text := pg_catalog.encode(pg_catalog.uuid_send(id), 'hex');
    n pg_catalog.int8;
BEGIN
    IF pg_catalog.substr(h, 17, 1) OPERATOR(pg_catalog.<) '8' OR pg_catalog.substr(h, 17, 1) OPERATOR(pg_catalog.>) 'b' THEN
        RETURN NULL;
    END IF;
    CASE
    WHEN pg_catalog.substr(h, 13, 1) OPERATOR(pg_catalog.=) '7' THEN
        n := CAST(CAST('x' OPERATOR(pg_catalog.||) pg_catalog.left(h, 12) OPERATOR(pg_catalog.||) pg_catalog.substr(h, 14, 3)
                       AS pg_catalog.bit(60)) AS pg_catalog.int8);
        n := ((n OPERATOR(pg_catalog.>>) 12) OPERATOR(pg_catalog.*) 1000)
             OPERATOR(pg_catalog.+) ((((n OPERATOR(pg_catalog.&) 4095) OPERATOR(pg_catalog.*) 1000) OPERATOR(pg_catalog.+) 999)
                                     OPERATOR(pg_catalog.>>) 12);
    WHEN pg_catalog.substr(h, 13, 1) OPERATOR(pg_catalog.=) '6' THEN
        n := CAST(CAST('x' OPERATOR(pg_catalog.||) pg_catalog.left(h, 12) OPERATOR(pg_catalog.||) pg_catalog.substr(h, 14, 3)
                       AS pg_catalog.bit(60)) AS pg_catalog.int8);
        n := (n OPERATOR(pg_catalog./) 10) OPERATOR(pg_catalog.-) 12219292800000000;
    WHEN pg_catalog.substr(h, 13, 1) OPERATOR(pg_catalog.=) '1' THEN
        n := CAST(CAST('x' OPERATOR(pg_catalog.||) pg_catalog.substr(h, 14, 3) OPERATOR(pg_catalog.||) pg_catalog.substr(h, 9, 4)
                       OPERATOR(pg_catalog.||) pg_catalog.left(h, 8) AS pg_catalog.bit(60)) AS pg_catalog.int8);
        n := (n OPERATOR(pg_catalog./) 10) OPERATOR(pg_catalog.-) 12219292800000000;
    ELSE
        RETURN NULL;
    END CASE;
    RETURN pg_catalog.to_timestamp(CAST(n OPERATOR(pg_catalog./) 1000000 AS pg_catalog.float8))
           OPERATOR(pg_catalog.+) ((n OPERATOR(pg_catalog.%) 1000000) OPERATOR(pg_catalog.*) '1 microsecond'::pg_catalog.interval);
END
$$;

COMMENT ON FUNCTION @extschema@.uuid_extract_timestamp_us(uuid) IS
'creation time of a v1, v6 or v7 id to the microsecond, the time every range and boundary function uses (v7: the microsecond its 12-bit fraction falls in, never outside its millisecond); NULL for other versions';

-- uuid_extract_version(id): RFC 9562 4.2's version nibble (octet 6), NULL
-- unless the variant is 0b10 (4.1): the variant's two bits pick 0 or NULL
-- from a constant array, so that the body is strict and inlined.
CREATE FUNCTION @extschema@.uuid_extract_version(id uuid)
RETURNS smallint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CAST((pg_catalog.get_byte(pg_catalog.uuid_send(id), 6) OPERATOR(pg_catalog.>>) 4)
            OPERATOR(pg_catalog.+) (CAST('{NULL,NULL,0,NULL}' AS pg_catalog.int4[]))
                [(pg_catalog.get_byte(pg_catalog.uuid_send(id), 8) OPERATOR(pg_catalog.>>) 6) OPERATOR(pg_catalog.+) 1]
            AS pg_catalog.int2);

COMMENT ON FUNCTION @extschema@.uuid_extract_version(uuid) IS
'version field of an RFC 9562 variant UUID; NULL for other variants';

-- The boundaries: the smallest id of the first tick whose time is ts or
-- later, or the largest of the last tick whose time is ts or earlier; the
-- version and variant set, the rest zero or all ones.  Times an id cannot
-- hold are errors.

CREATE FUNCTION @extschema@.uuidv7_boundary(ts timestamptz)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    us pg_catalog.int8;
BEGIN
    IF ts OPERATOR(pg_catalog.<) '1970-01-01 00:00:00+00'::pg_catalog.timestamptz
       OR ts OPERATOR(pg_catalog.>) '10889-08-02 05:31:50.655999+00'::pg_catalog.timestamptz THEN
        RAISE EXCEPTION 'timestamp out of range for UUIDv7'
            USING ERRCODE = 'datetime_field_overflow',
                  DETAIL = 'UUIDv7 holds times from 1970-01-01 00:00:00+00 to 10889-08-02 05:31:50.655999+00.';
    END IF;
    us := CAST(pg_catalog.extract('epoch', ts) OPERATOR(pg_catalog.*) 1000000 AS pg_catalog.int8);
    -- the tick floor(us * 4096 / 1000), its 15 hex digits around the version
    RETURN CAST(pg_catalog.substr(pg_catalog.overlay(pg_catalog.to_hex(
                    ((us OPERATOR(pg_catalog./) 1000) OPERATOR(pg_catalog.*) 4096)
                    OPERATOR(pg_catalog.+) (((us OPERATOR(pg_catalog.%) 1000) OPERATOR(pg_catalog.*) 4096)
                                            OPERATOR(pg_catalog./) 1000)
                    OPERATOR(pg_catalog.+) 1152921504606846976), '7', 14, 0), 2)
                OPERATOR(pg_catalog.||) '8000000000000000' AS pg_catalog.uuid);
END
$$;

COMMENT ON FUNCTION @extschema@.uuidv7_boundary(timestamptz) IS
'smallest UUIDv7 whose time is ts or later: id >= uuidv7_boundary(a) AND id < uuidv7_boundary(b) selects the v7 ids made in [a, b) through the index';

CREATE FUNCTION @extschema@.uuidv7_boundary_upper(ts timestamptz)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    us pg_catalog.int8;
    tick pg_catalog.int8;
BEGIN
    IF ts OPERATOR(pg_catalog.<) '1970-01-01 00:00:00+00'::pg_catalog.timestamptz
       OR ts OPERATOR(pg_catalog.>) '10889-08-02 05:31:50.655999+00'::pg_catalog.timestamptz THEN
        RAISE EXCEPTION 'timestamp out of range for UUIDv7'
            USING ERRCODE = 'datetime_field_overflow',
                  DETAIL = 'UUIDv7 holds times from 1970-01-01 00:00:00+00 to 10889-08-02 05:31:50.655999+00.';
    END IF;
    -- the last tick of us: the one before the first tick of us + 1, or the
    -- last tick of all for the last microsecond
    us := CAST(pg_catalog.extract('epoch', ts) OPERATOR(pg_catalog.*) 1000000 AS pg_catalog.int8) OPERATOR(pg_catalog.+) 1;
    tick := ((us OPERATOR(pg_catalog./) 1000) OPERATOR(pg_catalog.*) 4096)
            OPERATOR(pg_catalog.+) (((us OPERATOR(pg_catalog.%) 1000) OPERATOR(pg_catalog.*) 4096) OPERATOR(pg_catalog./) 1000)
            OPERATOR(pg_catalog.-) 1;
    RETURN CAST(pg_catalog.substr(pg_catalog.overlay(pg_catalog.to_hex(
                    LEAST(tick, 1152921504606846975) OPERATOR(pg_catalog.+) 1152921504606846976), '7', 14, 0), 2)
                OPERATOR(pg_catalog.||) 'bfffffffffffffff' AS pg_catalog.uuid);
END
$$;

COMMENT ON FUNCTION @extschema@.uuidv7_boundary_upper(timestamptz) IS
'largest UUIDv7 whose time is ts or earlier: id BETWEEN uuidv7_boundary(a) AND uuidv7_boundary_upper(b) selects the v7 ids made in [a, b]';

-- v6: ten Gregorian ticks a microsecond, counted from 1582-10-15
CREATE FUNCTION @extschema@.uuidv6_boundary(ts timestamptz)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
BEGIN
    IF ts OPERATOR(pg_catalog.<) '1582-10-15 00:00:00+00'::pg_catalog.timestamptz
       OR ts OPERATOR(pg_catalog.>) '5236-03-31 21:21:00.684697+00'::pg_catalog.timestamptz THEN
        RAISE EXCEPTION 'timestamp out of range for UUIDv6'
            USING ERRCODE = 'datetime_field_overflow',
                  DETAIL = 'UUIDv1 and UUIDv6 hold times from 1582-10-15 00:00:00+00 to 5236-03-31 21:21:00.684697+00.';
    END IF;
    RETURN CAST(pg_catalog.substr(pg_catalog.overlay(pg_catalog.to_hex(
                    (CAST(pg_catalog.extract('epoch', ts) OPERATOR(pg_catalog.*) 10000000 AS pg_catalog.int8)
                     OPERATOR(pg_catalog.+) 122192928000000000)
                    OPERATOR(pg_catalog.+) 1152921504606846976), '6', 14, 0), 2)
                OPERATOR(pg_catalog.||) '8000000000000000' AS pg_catalog.uuid);
END
$$;

COMMENT ON FUNCTION @extschema@.uuidv6_boundary(timestamptz) IS
'smallest UUIDv6 whose time is ts or later, for index range scans';

CREATE FUNCTION @extschema@.uuidv6_boundary_upper(ts timestamptz)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
BEGIN
    IF ts OPERATOR(pg_catalog.<) '1582-10-15 00:00:00+00'::pg_catalog.timestamptz
       OR ts OPERATOR(pg_catalog.>) '5236-03-31 21:21:00.684697+00'::pg_catalog.timestamptz THEN
        RAISE EXCEPTION 'timestamp out of range for UUIDv6'
            USING ERRCODE = 'datetime_field_overflow',
                  DETAIL = 'UUIDv1 and UUIDv6 hold times from 1582-10-15 00:00:00+00 to 5236-03-31 21:21:00.684697+00.';
    END IF;
    -- the tenth tick of the microsecond, or the last tick of all
    RETURN CAST(pg_catalog.substr(pg_catalog.overlay(pg_catalog.to_hex(
                    LEAST(CAST(pg_catalog.extract('epoch', ts) OPERATOR(pg_catalog.*) 10000000 AS pg_catalog.int8)
                          OPERATOR(pg_catalog.+) 122192928000000009, 1152921504606846975)
                    OPERATOR(pg_catalog.+) 1152921504606846976), '6', 14, 0), 2)
                OPERATOR(pg_catalog.||) 'bfffffffffffffff' AS pg_catalog.uuid);
END
$$;

COMMENT ON FUNCTION @extschema@.uuidv6_boundary_upper(timestamptz) IS
'largest UUIDv6 whose time is ts or earlier, the upper edge for BETWEEN';

-- min(uuid) and max(uuid): parallel aggregates that can use a btree index

CREATE FUNCTION @extschema@.uuid_smaller(uuid, uuid)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
BEGIN
    IF $1 OPERATOR(pg_catalog.<=) $2 THEN
        RETURN $1;
    END IF;
    RETURN $2;
END
$$;

COMMENT ON FUNCTION @extschema@.uuid_smaller(uuid, uuid) IS
'the lesser of two UUIDs (transition function of min(uuid))';

CREATE FUNCTION @extschema@.uuid_larger(uuid, uuid)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
BEGIN
    IF $1 OPERATOR(pg_catalog.>=) $2 THEN
        RETURN $1;
    END IF;
    RETURN $2;
END
$$;

COMMENT ON FUNCTION @extschema@.uuid_larger(uuid, uuid) IS
'the greater of two UUIDs (transition function of max(uuid))';

CREATE AGGREGATE @extschema@.min(uuid) (
    SFUNC = @extschema@.uuid_smaller,
    STYPE = uuid,
    COMBINEFUNC = @extschema@.uuid_smaller,
    SORTOP = OPERATOR(pg_catalog.<),
    PARALLEL = SAFE
);

COMMENT ON AGGREGATE @extschema@.min(uuid) IS 'smallest UUID; answered from a btree index when there is one';

CREATE AGGREGATE @extschema@.max(uuid) (
    SFUNC = @extschema@.uuid_larger,
    STYPE = uuid,
    COMBINEFUNC = @extschema@.uuid_larger,
    SORTOP = OPERATOR(pg_catalog.>),
    PARALLEL = SAFE
);

COMMENT ON AGGREGATE @extschema@.max(uuid) IS 'largest UUID; answered from a btree index when there is one';
