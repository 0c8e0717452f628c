-- Bad input, function by function: the SQLSTATE and message each gets, or
-- the documented NULL.  README's "Bad input" table is this file's output.
CREATE EXTENSION pg_uuidx;
SET search_path = public, pg_catalog;
SET TimeZone = 'UTC';

-- run one call; report its result, or the error's SQLSTATE and message
CREATE FUNCTION pg_temp.try(call text, OUT result text, OUT state text, OUT message text)
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE 'SELECT coalesce((' || call || ')::text, ''NULL'')' INTO result;
    state := '00000';
EXCEPTION WHEN OTHERS THEN
    state := SQLSTATE;
    message := SQLERRM;
END $$;
-- result of a call that makes a random id: only whether it is NULL matters
CREATE FUNCTION pg_temp.shape(id uuid) RETURNS text
LANGUAGE sql AS $$ SELECT CASE WHEN id IS NULL THEN NULL ELSE 'v' || uuid_extract_version(id) END $$;

\pset null NULL
SELECT call, (pg_temp.try(call)).*
FROM (VALUES
    -- generators
    ($$pg_temp.shape(uuidv7(NULL))$$),
    ($$uuidv7('-60 years')$$),
    ($$uuidv7('9000 years')$$),
    ($$uuidv7('200000000 days')$$),
    ($$uuidv7('-178000000 years')$$),
    ($$pg_temp.shape(uuidv7('-1 day'))$$),
    ($$pg_temp.shape(uuidv7_at(NULL))$$),
    ($$uuidv7_at('infinity')$$),
    ($$uuidv7_at('-infinity')$$),
    ($$uuidv7_at('1969-12-31 23:59:59.999999+00')$$),
    ($$uuidv7_at('10889-08-02 05:31:50.656+00')$$),
    -- conversion
    ($$uuidv1_to_v6(NULL)$$),
    ($$uuidv1_to_v6('1ec9414c-232a-6b00-b3c8-9e6bdeced846')$$),
    ($$uuidv1_to_v6('11111111-1111-4111-8111-111111111111')$$),
    ($$uuidv1_to_v6('c232ab00-9414-11ec-d3c8-9e6bdeced846')$$),
    ($$uuidv1_to_v6('00000000-0000-0000-0000-000000000000')$$),
    ($$uuidv6_to_v1(NULL)$$),
    ($$uuidv6_to_v1('c232ab00-9414-11ec-b3c8-9e6bdeced846')$$),
    ($$uuidv6_to_v1('ffffffff-ffff-ffff-ffff-ffffffffffff')$$),
    -- name-based
    ($$uuid_v8_sha256(NULL, 'a')$$),
    ($$uuid_v8_sha256(uuid_namespace_dns(), NULL::text)$$),
    ($$uuidv5(NULL, 'a'::bytea)$$),
    ($$uuidv3(uuid_namespace_dns(), NULL::bytea)$$),
    ($$uuidv5(uuid_namespace_dns(), '')$$),
    -- readers
    ($$uuid_extract_timestamp(NULL)$$),
    ($$uuid_extract_timestamp('11111111-1111-4111-8111-111111111111')$$),
    ($$uuid_extract_timestamp('017f22e2-79b0-7cc3-18c4-dc0c0c07398f')$$),
    ($$uuid_extract_timestamp('00000000-0000-1000-8000-000000000000')$$),
    ($$uuid_extract_timestamp('ffffffff-ffff-7fff-bfff-ffffffffffff')$$),
    ($$uuid_extract_version(NULL)$$),
    ($$uuid_extract_version('11111111-1111-1111-1111-111111111111')$$),
    ($$uuid_extract_version('11111111-1111-f111-8111-111111111111')$$),
    ($$uuidv7_boundary(NULL)$$),
    ($$uuidv7_boundary('infinity')$$),
    ($$uuidv7_boundary('1969-12-31 23:59:59+00')$$),
    ($$uuidv6_boundary('-infinity')$$),
    ($$uuidv6_boundary('1582-10-14 23:59:59.999999+00')$$),
    ($$uuidv6_boundary('5236-03-31 21:21:00.684698+00')$$),
    ($$uuid_larger(NULL, uuid_namespace_dns())$$)
) AS c(call);

DROP EXTENSION pg_uuidx;
