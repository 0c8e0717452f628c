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
-- (an exclusive one the next or previous microsecond); bounds beyond what an
-- id can hold are clamped to its first or last time, or leave no id at all.
-- An empty range has the largest uuid as lower edge and the nil uuid as upper.

CREATE FUNCTION @extschema@.uuidv7_range_lower(range tstzrange)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    lo pg_catalog.timestamptz := pg_catalog.lower(range);
    hi pg_catalog.timestamptz := pg_catalog.upper(range);
    first pg_catalog.uuid;
BEGIN
    IF pg_catalog.isempty(range)
       OR lo OPERATOR(pg_catalog.>) '10889-08-02 05:31:50.655999+00'::pg_catalog.timestamptz
       OR (lo OPERATOR(pg_catalog.=) '10889-08-02 05:31:50.655999+00'::pg_catalog.timestamptz AND NOT pg_catalog.lower_inc(range))
       OR hi OPERATOR(pg_catalog.<) '1970-01-01 00:00:00+00'::pg_catalog.timestamptz
       OR (hi OPERATOR(pg_catalog.=) '1970-01-01 00:00:00+00'::pg_catalog.timestamptz AND NOT pg_catalog.upper_inc(range)) THEN
        RETURN 'ffffffff-ffff-ffff-ffff-ffffffffffff';
    END IF;
    IF NOT pg_catalog.lower_inc(range) THEN
        lo := lo OPERATOR(pg_catalog.+) '1 microsecond'::pg_catalog.interval;
    END IF;
    IF NOT pg_catalog.upper_inc(range) THEN
        hi := hi OPERATOR(pg_catalog.-) '1 microsecond'::pg_catalog.interval;
    END IF;
    first := @extschema@.uuidv7_boundary(GREATEST(lo, '1970-01-01 00:00:00+00'::pg_catalog.timestamptz));
    IF first OPERATOR(pg_catalog.>) @extschema@.uuidv7_boundary_upper(
           LEAST(hi, '10889-08-02 05:31:50.655999+00'::pg_catalog.timestamptz)) THEN
        RETURN 'ffffffff-ffff-ffff-ffff-ffffffffffff';
    END IF;
    RETURN first;
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
    last pg_catalog.uuid;
BEGIN
    IF pg_catalog.isempty(range)
       OR lo OPERATOR(pg_catalog.>) '10889-08-02 05:31:50.655999+00'::pg_catalog.timestamptz
       OR (lo OPERATOR(pg_catalog.=) '10889-08-02 05:31:50.655999+00'::pg_catalog.timestamptz AND NOT pg_catalog.lower_inc(range))
       OR hi OPERATOR(pg_catalog.<) '1970-01-01 00:00:00+00'::pg_catalog.timestamptz
       OR (hi OPERATOR(pg_catalog.=) '1970-01-01 00:00:00+00'::pg_catalog.timestamptz AND NOT pg_catalog.upper_inc(range)) THEN
        RETURN '00000000-0000-0000-0000-000000000000';
    END IF;
    IF NOT pg_catalog.lower_inc(range) THEN
        lo := lo OPERATOR(pg_catalog.+) '1 microsecond'::pg_catalog.interval;
    END IF;
    IF NOT pg_catalog.upper_inc(range) THEN
        hi := hi OPERATOR(pg_catalog.-) '1 microsecond'::pg_catalog.interval;
    END IF;
    last := @extschema@.uuidv7_boundary_upper(LEAST(hi, '10889-08-02 05:31:50.655999+00'::pg_catalog.timestamptz));
    IF @extschema@.uuidv7_boundary(GREATEST(lo, '1970-01-01 00:00:00+00'::pg_catalog.timestamptz))
           OPERATOR(pg_catalog.>) last THEN
        RETURN '00000000-0000-0000-0000-000000000000';
    END IF;
    RETURN last;
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
    first pg_catalog.uuid;
BEGIN
    IF pg_catalog.isempty(range)
       OR lo OPERATOR(pg_catalog.>) '5236-03-31 21:21:00.684697+00'::pg_catalog.timestamptz
       OR (lo OPERATOR(pg_catalog.=) '5236-03-31 21:21:00.684697+00'::pg_catalog.timestamptz AND NOT pg_catalog.lower_inc(range))
       OR hi OPERATOR(pg_catalog.<) '1582-10-15 00:00:00+00'::pg_catalog.timestamptz
       OR (hi OPERATOR(pg_catalog.=) '1582-10-15 00:00:00+00'::pg_catalog.timestamptz AND NOT pg_catalog.upper_inc(range)) THEN
        RETURN 'ffffffff-ffff-ffff-ffff-ffffffffffff';
    END IF;
    IF NOT pg_catalog.lower_inc(range) THEN
        lo := lo OPERATOR(pg_catalog.+) '1 microsecond'::pg_catalog.interval;
    END IF;
    IF NOT pg_catalog.upper_inc(range) THEN
        hi := hi OPERATOR(pg_catalog.-) '1 microsecond'::pg_catalog.interval;
    END IF;
    first := @extschema@.uuidv6_boundary(GREATEST(lo, '1582-10-15 00:00:00+00'::pg_catalog.timestamptz));
    IF first OPERATOR(pg_catalog.>) @extschema@.uuidv6_boundary_upper(
           LEAST(hi, '5236-03-31 21:21:00.684697+00'::pg_catalog.timestamptz)) THEN
        RETURN 'ffffffff-ffff-ffff-ffff-ffffffffffff';
    END IF;
    RETURN first;
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
    last pg_catalog.uuid;
BEGIN
    IF pg_catalog.isempty(range)
       OR lo OPERATOR(pg_catalog.>) '5236-03-31 21:21:00.684697+00'::pg_catalog.timestamptz
       OR (lo OPERATOR(pg_catalog.=) '5236-03-31 21:21:00.684697+00'::pg_catalog.timestamptz AND NOT pg_catalog.lower_inc(range))
       OR hi OPERATOR(pg_catalog.<) '1582-10-15 00:00:00+00'::pg_catalog.timestamptz
       OR (hi OPERATOR(pg_catalog.=) '1582-10-15 00:00:00+00'::pg_catalog.timestamptz AND NOT pg_catalog.upper_inc(range)) THEN
        RETURN '00000000-0000-0000-0000-000000000000';
    END IF;
    IF NOT pg_catalog.lower_inc(range) THEN
        lo := lo OPERATOR(pg_catalog.+) '1 microsecond'::pg_catalog.interval;
    END IF;
    IF NOT pg_catalog.upper_inc(range) THEN
        hi := hi OPERATOR(pg_catalog.-) '1 microsecond'::pg_catalog.interval;
    END IF;
    last := @extschema@.uuidv6_boundary_upper(LEAST(hi, '5236-03-31 21:21:00.684697+00'::pg_catalog.timestamptz));
    IF @extschema@.uuidv6_boundary(GREATEST(lo, '1582-10-15 00:00:00+00'::pg_catalog.timestamptz))
           OPERATOR(pg_catalog.>) last THEN
        RETURN '00000000-0000-0000-0000-000000000000';
    END IF;
    RETURN last;
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
-- on the id and to partition bounds, then the version and variant (compared
-- with 1 for a range that is not empty, so that a NULL range gives NULL, not
-- false, as STRICT would; an empty one fails the edges).
CREATE FUNCTION @extschema@.uuidv7_in_time_range(id uuid, range tstzrange)
RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN id OPERATOR(pg_catalog.>=) @extschema@.uuidv7_range_lower(range)
   AND id OPERATOR(pg_catalog.<=) @extschema@.uuidv7_range_upper(range)
   AND pg_catalog.int4(((pg_catalog.get_byte(pg_catalog.uuid_send(id), 6) OPERATOR(pg_catalog.&) 240)
                        OPERATOR(pg_catalog.|) (pg_catalog.get_byte(pg_catalog.uuid_send(id), 8) OPERATOR(pg_catalog.>>) 6))
                       OPERATOR(pg_catalog.=) 114)
       OPERATOR(pg_catalog.=) pg_catalog.int4(NOT pg_catalog.isempty(range));

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
   AND pg_catalog.int4(((pg_catalog.get_byte(pg_catalog.uuid_send(id), 6) OPERATOR(pg_catalog.&) 240)
                        OPERATOR(pg_catalog.|) (pg_catalog.get_byte(pg_catalog.uuid_send(id), 8) OPERATOR(pg_catalog.>>) 6))
                       OPERATOR(pg_catalog.=) 98)
       OPERATOR(pg_catalog.=) pg_catalog.int4(NOT pg_catalog.isempty(range));

COMMENT ON FUNCTION @extschema@.uuidv6_in_time_range(uuid, tstzrange) IS
'true for a v6 id whose time (uuid_extract_timestamp_us) lies in the range; answered by a btree on the id';
