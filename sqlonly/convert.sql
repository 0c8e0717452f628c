-- sqlonly/convert.sql: uuidv1_to_v6() and uuidv6_to_v1(), lossless.
--
-- RFC 9562 5.6: v6 is v1 with its 60-bit timestamp reordered most significant
-- first; clock_seq and node stay where they are, so only octets 0-7 change.
-- In hex: v1 is time_low (8 digits), time_mid (4), version, time_high (3);
-- v6 is the timestamp's first 12 digits, version, its last 3.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)

CREATE FUNCTION @extschema@.uuidv1_to_v6(id uuid)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    h pg_catalog.text := pg_catalog.encode(pg_catalog.uuid_send(id), 'hex');
BEGIN
    IF pg_catalog.substr(h, 17, 1) OPERATOR(pg_catalog.<) '8' OR pg_catalog.substr(h, 17, 1) OPERATOR(pg_catalog.>) 'b' THEN
        RAISE EXCEPTION 'UUID must be of version 1'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'The UUID is not of the RFC 9562 variant (0b10), the only variant that has versions.',
                  HINT = 'To convert only version 1 values, use CASE WHEN uuid_extract_version(id) = 1 THEN uuidv1_to_v6(id) ELSE id END.';
    END IF;
    IF pg_catalog.substr(h, 13, 1) OPERATOR(pg_catalog.<>) '1' THEN
        RAISE EXCEPTION 'UUID must be of version 1'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = pg_catalog.format('The UUID is of version %s.',
                                             CAST(CAST('x' OPERATOR(pg_catalog.||) pg_catalog.substr(h, 13, 1)
                                                       AS pg_catalog.bit(4)) AS pg_catalog.int4)),
                  HINT = 'To convert only version 1 values, use CASE WHEN uuid_extract_version(id) = 1 THEN uuidv1_to_v6(id) ELSE id END.';
    END IF;
    -- the timestamp is time_high, time_mid, time_low
    RETURN CAST(pg_catalog.substr(h, 14, 3) OPERATOR(pg_catalog.||) pg_catalog.substr(h, 9, 4)
                OPERATOR(pg_catalog.||) pg_catalog.substr(h, 1, 5) OPERATOR(pg_catalog.||) '6'
                OPERATOR(pg_catalog.||) pg_catalog.substr(h, 6, 3) OPERATOR(pg_catalog.||) pg_catalog.substr(h, 17)
                AS pg_catalog.uuid);
END
$$;

COMMENT ON FUNCTION @extschema@.uuidv1_to_v6(uuid) IS
'the UUIDv6 with the same timestamp, clock_seq and node as a UUIDv1; lossless';

CREATE FUNCTION @extschema@.uuidv6_to_v1(id uuid)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    h pg_catalog.text := pg_catalog.encode(pg_catalog.uuid_send(id), 'hex');
BEGIN
    IF pg_catalog.substr(h, 17, 1) OPERATOR(pg_catalog.<) '8' OR pg_catalog.substr(h, 17, 1) OPERATOR(pg_catalog.>) 'b' THEN
        RAISE EXCEPTION 'UUID must be of version 6'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'The UUID is not of the RFC 9562 variant (0b10), the only variant that has versions.',
                  HINT = 'To convert only version 6 values, use CASE WHEN uuid_extract_version(id) = 6 THEN uuidv6_to_v1(id) ELSE id END.';
    END IF;
    IF pg_catalog.substr(h, 13, 1) OPERATOR(pg_catalog.<>) '6' THEN
        RAISE EXCEPTION 'UUID must be of version 6'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = pg_catalog.format('The UUID is of version %s.',
                                             CAST(CAST('x' OPERATOR(pg_catalog.||) pg_catalog.substr(h, 13, 1)
                                                       AS pg_catalog.bit(4)) AS pg_catalog.int4)),
                  HINT = 'To convert only version 6 values, use CASE WHEN uuid_extract_version(id) = 6 THEN uuidv6_to_v1(id) ELSE id END.';
    END IF;
    -- time_low is the timestamp's last 8 digits, time_mid the 4 before, time_high its first 3
    RETURN CAST(pg_catalog.substr(h, 8, 5) OPERATOR(pg_catalog.||) pg_catalog.substr(h, 14, 3)
                OPERATOR(pg_catalog.||) pg_catalog.substr(h, 4, 4) OPERATOR(pg_catalog.||) '1'
                OPERATOR(pg_catalog.||) pg_catalog.substr(h, 1, 3) OPERATOR(pg_catalog.||) pg_catalog.substr(h, 17)
                AS pg_catalog.uuid);
END
$$;

COMMENT ON FUNCTION @extschema@.uuidv6_to_v1(uuid) IS
'the UUIDv1 with the same timestamp, clock_seq and node as a UUIDv6; lossless';
