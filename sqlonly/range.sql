-- sqlonly/range.sql: time ranges through the index: id <@ tstzrange for v7
-- ids, uuidv6_in_time_range() for v6, and their edges.
--
-- An id is in a range when it is of the range's version, has the RFC variant
-- and its time (uuid_extract_timestamp_us) lies in the range.  In uuid order
-- those ids lie between the smallest id of the first tick whose time is in
-- the range and the largest id of the last one (the range's edges): the
-- version and variant decide the rest.  The C build's planner support turns
-- the predicate into those two comparisons; the SQL build has no planner
-- support (C only) and writes the predicate as them instead, a SQL function
-- the planner inlines: with a constant range it folds the edges into
-- constants, so a btree on the id answers it (Index Cond) and partitions of
-- a table partitioned by the id are pruned.  PostgreSQL inlines a STRICT SQL
-- function only when its body is strict, which an AND is not: the two
-- predicates are not STRICT here but give NULL exactly when an argument is
-- NULL, as STRICT ones do.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)

-- The edges.  A bound becomes the first or last microsecond in the range
-- (an exclusive one the next or previous microsecond), clamped to the
-- times an id holds; the edge is the first tick of the lower one or the
-- last tick of the upper one (as the boundaries compute them), and the
-- range has no id when a bound lies beyond those times or the first tick
-- comes after the last.  An empty range has the largest uuid as lower edge
-- and the nil uuid as upper.  The planner evaluates them for every query
-- with a constant range: each is one PL/pgSQL function of plain
-- expressions, calling no other (PL/pgSQL compiles a function at its first
-- call in a session; a SQL function with a query would be planned at each).

CREATE FUNCTION @extschema@.uuidv7_range_lower(range tstzrange)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    lo pg_catalog.timestamptz := pg_catalog.lower(range);
    hi pg_catalog.timestamptz := pg_catalog.upper(range);
    lo_tick pg_catalog.int8;
    hi_tick pg_catalog.int8;
BEGIN
    IF pg_catalog.isempty(range)
       OR lo OPERATOR(pg_catalog.>) CAST('10889-08-02 05:31:50.655999+00' AS pg_catalog.timestamptz)
       OR (lo OPERATOR(pg_catalog.=) CAST('10889-08-02 05:31:50.655999+00' AS pg_catalog.timestamptz) AND NOT pg_catalog.lower_inc(range))
       OR hi OPERATOR(pg_catalog.<) CAST('1970-01-01 00:00:00+00' AS pg_catalog.timestamptz)
       OR (hi OPERATOR(pg_catalog.=) CAST('1970-01-01 00:00:00+00' AS pg_catalog.timestamptz) AND NOT pg_catalog.upper_inc(range)) THEN
        RETURN 'ffffffff-ffff-ffff-ffff-ffffffffffff';
    END IF;
    -- the first and last microsecond in the range, within the span
    IF NOT pg_catalog.lower_inc(range) THEN
        lo := lo OPERATOR(pg_catalog.+) CAST('1 microsecond' AS pg_catalog.interval);
    END IF;
    IF NOT pg_catalog.upper_inc(range) THEN
        hi := hi OPERATOR(pg_catalog.-) CAST('1 microsecond' AS pg_catalog.interval);
    END IF;
    lo_tick := CAST(pg_catalog.extract('epoch', GREATEST(lo, CAST('1970-01-01 00:00:00+00' AS pg_catalog.timestamptz)))
                    OPERATOR(pg_catalog.*) 1000000 AS pg_catalog.int8);
    hi_tick := CAST(pg_catalog.extract('epoch', LEAST(hi, CAST('10889-08-02 05:31:50.655999+00' AS pg_catalog.timestamptz)))
                    OPERATOR(pg_catalog.*) 1000000 AS pg_catalog.int8);
    -- their first and last ticks
    lo_tick := ((lo_tick OPERATOR(pg_catalog./) 1000) OPERATOR(pg_catalog.*) 4096)
            OPERATOR(pg_catalog.+) (((lo_tick OPERATOR(pg_catalog.%) 1000) OPERATOR(pg_catalog.*) 4096) OPERATOR(pg_catalog./) 1000);
    hi_tick := ((hi_tick OPERATOR(pg_catalog.+) 1) OPERATOR(pg_catalog./) 1000) OPERATOR(pg_catalog.*) 4096
            OPERATOR(pg_catalog.+) ((((hi_tick OPERATOR(pg_catalog.+) 1) OPERATOR(pg_catalog.%) 1000) OPERATOR(pg_catalog.*) 4096) OPERATOR(pg_catalog./) 1000)
            OPERATOR(pg_catalog.-) 1;
    IF lo_tick OPERATOR(pg_catalog.>) hi_tick THEN
        RETURN 'ffffffff-ffff-ffff-ffff-ffffffffffff';
    END IF;
    RETURN CAST(pg_catalog.substr(pg_catalog.overlay(pg_catalog.to_hex(lo_tick OPERATOR(pg_catalog.+) 1152921504606846976),
                                                     '7', 14, 0), 2)
                OPERATOR(pg_catalog.||) '8000000000000000' AS pg_catalog.uuid);
END
$$;

COMMENT ON FUNCTION @extschema@.uuidv7_range_lower(tstzrange) IS
'the smallest v7 id whose time lies in the range (the largest uuid for an empty range)';

CREATE FUNCTION @extschema@.uuidv7_range_upper(range tstzrange)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    lo pg_catalog.timestamptz := pg_catalog.lower(range);
    hi pg_catalog.timestamptz := pg_catalog.upper(range);
    lo_tick pg_catalog.int8;
    hi_tick pg_catalog.int8;
BEGIN
    IF pg_catalog.isempty(range)
       OR lo OPERATOR(pg_catalog.>) CAST('10889-08-02 05:31:50.655999+00' AS pg_catalog.timestamptz)
       OR (lo OPERATOR(pg_catalog.=) CAST('10889-08-02 05:31:50.655999+00' AS pg_catalog.timestamptz) AND NOT pg_catalog.lower_inc(range))
       OR hi OPERATOR(pg_catalog.<) CAST('1970-01-01 00:00:00+00' AS pg_catalog.timestamptz)
       OR (hi OPERATOR(pg_catalog.=) CAST('1970-01-01 00:00:00+00' AS pg_catalog.timestamptz) AND NOT pg_catalog.upper_inc(range)) THEN
        RETURN '00000000-0000-0000-0000-000000000000';
    END IF;
    -- the first and last microsecond in the range, within the span
    IF NOT pg_catalog.lower_inc(range) THEN
        lo := lo OPERATOR(pg_catalog.+) CAST('1 microsecond' AS pg_catalog.interval);
    END IF;
    IF NOT pg_catalog.upper_inc(range) THEN
        hi := hi OPERATOR(pg_catalog.-) CAST('1 microsecond' AS pg_catalog.interval);
    END IF;
    lo_tick := CAST(pg_catalog.extract('epoch', GREATEST(lo, CAST('1970-01-01 00:00:00+00' AS pg_catalog.timestamptz)))
                    OPERATOR(pg_catalog.*) 1000000 AS pg_catalog.int8);
    hi_tick := CAST(pg_catalog.extract('epoch', LEAST(hi, CAST('10889-08-02 05:31:50.655999+00' AS pg_catalog.timestamptz)))
                    OPERATOR(pg_catalog.*) 1000000 AS pg_catalog.int8);
    -- their first and last ticks
    lo_tick := ((lo_tick OPERATOR(pg_catalog./) 1000) OPERATOR(pg_catalog.*) 4096)
            OPERATOR(pg_catalog.+) (((lo_tick OPERATOR(pg_catalog.%) 1000) OPERATOR(pg_catalog.*) 4096) OPERATOR(pg_catalog./) 1000);
    hi_tick := ((hi_tick OPERATOR(pg_catalog.+) 1) OPERATOR(pg_catalog./) 1000) OPERATOR(pg_catalog.*) 4096
            OPERATOR(pg_catalog.+) ((((hi_tick OPERATOR(pg_catalog.+) 1) OPERATOR(pg_catalog.%) 1000) OPERATOR(pg_catalog.*) 4096) OPERATOR(pg_catalog./) 1000)
            OPERATOR(pg_catalog.-) 1;
    IF lo_tick OPERATOR(pg_catalog.>) hi_tick THEN
        RETURN '00000000-0000-0000-0000-000000000000';
    END IF;
    RETURN CAST(pg_catalog.substr(pg_catalog.overlay(pg_catalog.to_hex(hi_tick OPERATOR(pg_catalog.+) 1152921504606846976),
                                                     '7', 14, 0), 2)
                OPERATOR(pg_catalog.||) 'bfffffffffffffff' AS pg_catalog.uuid);
END
$$;

COMMENT ON FUNCTION @extschema@.uuidv7_range_upper(tstzrange) IS
'the largest v7 id whose time lies in the range (the nil uuid for an empty range)';

CREATE FUNCTION @extschema@.uuidv6_range_lower(range tstzrange)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    lo pg_catalog.timestamptz := pg_catalog.lower(range);
    hi pg_catalog.timestamptz := pg_catalog.upper(range);
    lo_tick pg_catalog.int8;
    hi_tick pg_catalog.int8;
BEGIN
    IF pg_catalog.isempty(range)
       OR lo OPERATOR(pg_catalog.>) CAST('5236-03-31 21:21:00.684697+00' AS pg_catalog.timestamptz)
       OR (lo OPERATOR(pg_catalog.=) CAST('5236-03-31 21:21:00.684697+00' AS pg_catalog.timestamptz) AND NOT pg_catalog.lower_inc(range))
       OR hi OPERATOR(pg_catalog.<) CAST('1582-10-15 00:00:00+00' AS pg_catalog.timestamptz)
       OR (hi OPERATOR(pg_catalog.=) CAST('1582-10-15 00:00:00+00' AS pg_catalog.timestamptz) AND NOT pg_catalog.upper_inc(range)) THEN
        RETURN 'ffffffff-ffff-ffff-ffff-ffffffffffff';
    END IF;
    -- the first and last microsecond in the range, within the span
    IF NOT pg_catalog.lower_inc(range) THEN
        lo := lo OPERATOR(pg_catalog.+) CAST('1 microsecond' AS pg_catalog.interval);
    END IF;
    IF NOT pg_catalog.upper_inc(range) THEN
        hi := hi OPERATOR(pg_catalog.-) CAST('1 microsecond' AS pg_catalog.interval);
    END IF;
    lo_tick := CAST(pg_catalog.extract('epoch', GREATEST(lo, CAST('1582-10-15 00:00:00+00' AS pg_catalog.timestamptz)))
                    OPERATOR(pg_catalog.*) 1000000 AS pg_catalog.int8);
    hi_tick := CAST(pg_catalog.extract('epoch', LEAST(hi, CAST('5236-03-31 21:21:00.684697+00' AS pg_catalog.timestamptz)))
                    OPERATOR(pg_catalog.*) 1000000 AS pg_catalog.int8);
    -- their first and last ticks
    lo_tick := (lo_tick OPERATOR(pg_catalog.*) 10) OPERATOR(pg_catalog.+) 122192928000000000;
    hi_tick := LEAST((hi_tick OPERATOR(pg_catalog.*) 10) OPERATOR(pg_catalog.+) 122192928000000009, 1152921504606846975);
    IF lo_tick OPERATOR(pg_catalog.>) hi_tick THEN
        RETURN 'ffffffff-ffff-ffff-ffff-ffffffffffff';
    END IF;
    RETURN CAST(pg_catalog.substr(pg_catalog.overlay(pg_catalog.to_hex(lo_tick OPERATOR(pg_catalog.+) 1152921504606846976),
                                                     '6', 14, 0), 2)
                OPERATOR(pg_catalog.||) '8000000000000000' AS pg_catalog.uuid);
END
$$;

COMMENT ON FUNCTION @extschema@.uuidv6_range_lower(tstzrange) IS
'the smallest v6 id whose time lies in the range (the largest uuid for an empty range)';

CREATE FUNCTION @extschema@.uuidv6_range_upper(range tstzrange)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    lo pg_catalog.timestamptz := pg_catalog.lower(range);
    hi pg_catalog.timestamptz := pg_catalog.upper(range);
    lo_tick pg_catalog.int8;
    hi_tick pg_catalog.int8;
BEGIN
    IF pg_catalog.isempty(range)
       OR lo OPERATOR(pg_catalog.>) CAST('5236-03-31 21:21:00.684697+00' AS pg_catalog.timestamptz)
       OR (lo OPERATOR(pg_catalog.=) CAST('5236-03-31 21:21:00.684697+00' AS pg_catalog.timestamptz) AND NOT pg_catalog.lower_inc(range))
       OR hi OPERATOR(pg_catalog.<) CAST('1582-10-15 00:00:00+00' AS pg_catalog.timestamptz)
       OR (hi OPERATOR(pg_catalog.=) CAST('1582-10-15 00:00:00+00' AS pg_catalog.timestamptz) AND NOT pg_catalog.upper_inc(range)) THEN
        RETURN '00000000-0000-0000-0000-000000000000';
    END IF;
    -- the first and last microsecond in the range, within the span
    IF NOT pg_catalog.lower_inc(range) THEN
        lo := lo OPERATOR(pg_catalog.+) CAST('1 microsecond' AS pg_catalog.interval);
    END IF;
    IF NOT pg_catalog.upper_inc(range) THEN
        hi := hi OPERATOR(pg_catalog.-) CAST('1 microsecond' AS pg_catalog.interval);
    END IF;
    lo_tick := CAST(pg_catalog.extract('epoch', GREATEST(lo, CAST('1582-10-15 00:00:00+00' AS pg_catalog.timestamptz)))
                    OPERATOR(pg_catalog.*) 1000000 AS pg_catalog.int8);
    hi_tick := CAST(pg_catalog.extract('epoch', LEAST(hi, CAST('5236-03-31 21:21:00.684697+00' AS pg_catalog.timestamptz)))
                    OPERATOR(pg_catalog.*) 1000000 AS pg_catalog.int8);
    -- their first and last ticks
    lo_tick := (lo_tick OPERATOR(pg_catalog.*) 10) OPERATOR(pg_catalog.+) 122192928000000000;
    hi_tick := LEAST((hi_tick OPERATOR(pg_catalog.*) 10) OPERATOR(pg_catalog.+) 122192928000000009, 1152921504606846975);
    IF lo_tick OPERATOR(pg_catalog.>) hi_tick THEN
        RETURN '00000000-0000-0000-0000-000000000000';
    END IF;
    RETURN CAST(pg_catalog.substr(pg_catalog.overlay(pg_catalog.to_hex(hi_tick OPERATOR(pg_catalog.+) 1152921504606846976),
                                                     '6', 14, 0), 2)
                OPERATOR(pg_catalog.||) 'bfffffffffffffff' AS pg_catalog.uuid);
END
$$;

COMMENT ON FUNCTION @extschema@.uuidv6_range_upper(tstzrange) IS
'the largest v6 id whose time lies in the range (the nil uuid for an empty range)';

-- The row tests: between the edges, of the version (octet 6's high nibble)
-- and of the RFC variant (octet 8's top bits): 0x70 | 0b10 = 114 for v7,
-- 0x60 | 0b10 = 98 for v6.  Strict and inlined: the three conditions are
-- multiplied as integers instead of joined by AND.

CREATE FUNCTION @extschema@.uuidv7_in_time_range_recheck(id uuid, range tstzrange)
RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ((pg_catalog.int4(id OPERATOR(pg_catalog.>=) @extschema@.uuidv7_range_lower(range))
         OPERATOR(pg_catalog.*) pg_catalog.int4(id OPERATOR(pg_catalog.<=) @extschema@.uuidv7_range_upper(range)))
        OPERATOR(pg_catalog.*) pg_catalog.int4(
            ((pg_catalog.get_byte(pg_catalog.uuid_send(id), 6) OPERATOR(pg_catalog.&) 240)
             OPERATOR(pg_catalog.|) (pg_catalog.get_byte(pg_catalog.uuid_send(id), 8) OPERATOR(pg_catalog.>>) 6))
            OPERATOR(pg_catalog.=) 114))
       OPERATOR(pg_catalog.=) 1;

COMMENT ON FUNCTION @extschema@.uuidv7_in_time_range_recheck(uuid, tstzrange) IS
'uuid <@ tstzrange without planner support (the same test, never expanded into index conditions)';

CREATE FUNCTION @extschema@.uuidv6_in_time_range_recheck(id uuid, range tstzrange)
RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ((pg_catalog.int4(id OPERATOR(pg_catalog.>=) @extschema@.uuidv6_range_lower(range))
         OPERATOR(pg_catalog.*) pg_catalog.int4(id OPERATOR(pg_catalog.<=) @extschema@.uuidv6_range_upper(range)))
        OPERATOR(pg_catalog.*) pg_catalog.int4(
            ((pg_catalog.get_byte(pg_catalog.uuid_send(id), 6) OPERATOR(pg_catalog.&) 240)
             OPERATOR(pg_catalog.|) (pg_catalog.get_byte(pg_catalog.uuid_send(id), 8) OPERATOR(pg_catalog.>>) 6))
            OPERATOR(pg_catalog.=) 98))
       OPERATOR(pg_catalog.=) 1;

COMMENT ON FUNCTION @extschema@.uuidv6_in_time_range_recheck(uuid, tstzrange) IS
'uuidv6_in_time_range() without planner support (the same test, never expanded into index conditions)';

-- The predicates: the edges as comparisons the planner can take to a btree
-- on the id and to partition bounds, then the version and variant (or a
-- NULL range, so that it gives NULL, not false, as STRICT would; with a
-- constant range the planner drops that test).  An empty range fails the
-- edges.
CREATE FUNCTION @extschema@.uuidv7_in_time_range(id uuid, range tstzrange)
RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN id OPERATOR(pg_catalog.>=) @extschema@.uuidv7_range_lower(range)
   AND id OPERATOR(pg_catalog.<=) @extschema@.uuidv7_range_upper(range)
   AND ((pg_catalog.get_byte(pg_catalog.uuid_send(id), 6) OPERATOR(pg_catalog.>>) 4 OPERATOR(pg_catalog.=) 7
         AND pg_catalog.get_byte(pg_catalog.uuid_send(id), 8) OPERATOR(pg_catalog.>>) 6 OPERATOR(pg_catalog.=) 2)
        OR range IS NULL);

COMMENT ON FUNCTION @extschema@.uuidv7_in_time_range(uuid, tstzrange) IS
'true for a v7 id whose time (uuid_extract_timestamp_us) lies in the range; the operator uuid <@ tstzrange';

CREATE OPERATOR @extschema@.<@ (
    LEFTARG = uuid,
    RIGHTARG = tstzrange,
    FUNCTION = @extschema@.uuidv7_in_time_range
);

COMMENT ON OPERATOR @extschema@.<@ (uuid, tstzrange) IS
'a v7 id whose time lies in the range; answered by a btree on the id';

CREATE FUNCTION @extschema@.uuidv6_in_time_range(id uuid, range tstzrange)
RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN id OPERATOR(pg_catalog.>=) @extschema@.uuidv6_range_lower(range)
   AND id OPERATOR(pg_catalog.<=) @extschema@.uuidv6_range_upper(range)
   AND ((pg_catalog.get_byte(pg_catalog.uuid_send(id), 6) OPERATOR(pg_catalog.>>) 4 OPERATOR(pg_catalog.=) 6
         AND pg_catalog.get_byte(pg_catalog.uuid_send(id), 8) OPERATOR(pg_catalog.>>) 6 OPERATOR(pg_catalog.=) 2)
        OR range IS NULL);

COMMENT ON FUNCTION @extschema@.uuidv6_in_time_range(uuid, tstzrange) IS
'true for a v6 id whose time (uuid_extract_timestamp_us) lies in the range; answered by a btree on the id';
