/* pg_uuidx--1.1--1.2.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION pg_uuidx UPDATE TO '1.2'" to load this file. \quit

-- Every object this script names is qualified with @extschema@ (see
-- pg_uuidx--1.0.sql), and every function, operator and type the DO block
-- below uses with pg_catalog: the script runs as a superuser with the
-- target schema on its search_path, where the role that owns the extension
-- may have created objects, and an unqualified operator whose argument
-- types pg_catalog matches only through a cast (oid = regprocedure) would
-- be that role's if it had made one.

-- Generators that keep a per-session order run only in the leader: a
-- parallel worker starts from fresh state (uuidv7_at() keeps one since 1.2).
ALTER FUNCTION @extschema@.uuidv7() PARALLEL RESTRICTED;
ALTER FUNCTION @extschema@.uuidv7(interval) PARALLEL RESTRICTED;
ALTER FUNCTION @extschema@.uuidv6() PARALLEL RESTRICTED;
ALTER FUNCTION @extschema@.uuidv7_at(timestamptz) PARALLEL RESTRICTED;

-- 1.0 and 1.1 commented these functions without a schema.  On PostgreSQL 17
-- and 18, whose pg_catalog has functions of the same names, the comments
-- landed on core's functions and pg_uuidx's own got none.  Give core back
-- its descriptions (those of its pg_proc.dat, 17's and 18's) where a comment of ours is still
-- there, then comment ours.
DO $repair$
DECLARE
    f pg_catalog.record;
BEGIN
    FOR f IN
        SELECT p.proname, pg_catalog.pg_get_function_identity_arguments(p.oid) AS args, core.descr
        FROM (VALUES
            ('pg_catalog.uuidv7()', 'generate UUID version 7',
             'UUIDv7 (RFC 9562): Unix milliseconds, a 1/4096 ms fraction, a counter and random bits; strictly increasing within a session'),
            ('pg_catalog.uuidv7(interval)', 'generate UUID version 7 with a timestamp shifted by specified interval',
             'UUIDv7 whose embedded time is the current time plus shift'),
            ('pg_catalog.uuidv4()', 'generate UUID version 4',
             'UUIDv4 (RFC 9562): 122 random bits from a CSPRNG, fetched in blocks'),
            ('pg_catalog.uuid_extract_timestamp(uuid)', 'extract timestamp from UUID',
             'creation time of a v1, v6 (microseconds) or v7 (milliseconds) UUID; NULL for other versions and variants'),
            ('pg_catalog.uuid_extract_version(uuid)',
             CASE WHEN pg_catalog.current_setting('server_version_num')::pg_catalog.int4
                       OPERATOR(pg_catalog.>=) 180000
                  THEN 'extract version from RFC 9562 UUID'
                  ELSE 'extract version from RFC 4122 UUID' END,
             'version field of an RFC 9562 variant UUID; NULL for other variants')
        ) AS core(sig, descr, ours)
        JOIN pg_catalog.pg_proc p
          ON p.oid OPERATOR(pg_catalog.=) pg_catalog.to_regprocedure(core.sig)::pg_catalog.oid
        WHERE pg_catalog.obj_description(p.oid, 'pg_proc') OPERATOR(pg_catalog.=) core.ours
    LOOP
        EXECUTE pg_catalog.format('COMMENT ON FUNCTION pg_catalog.%I(%s) IS %L',
                                  f.proname, f.args, f.descr);
    END LOOP;
END
$repair$;

COMMENT ON FUNCTION @extschema@.uuidv7() IS
'UUIDv7 (RFC 9562): Unix milliseconds, a 1/4096 ms fraction, a counter and random bits; strictly increasing within a session';

COMMENT ON FUNCTION @extschema@.uuidv7(interval) IS
'UUIDv7 whose embedded time is the current time plus shift';

COMMENT ON FUNCTION @extschema@.uuidv4() IS
'UUIDv4 (RFC 9562): 122 random bits from a CSPRNG, fetched in blocks';

COMMENT ON FUNCTION @extschema@.uuid_extract_timestamp(uuid) IS
'creation time of a v1, v6 (microseconds) or v7 (milliseconds) UUID; NULL for other versions and variants';

COMMENT ON FUNCTION @extschema@.uuid_extract_version(uuid) IS
'version field of an RFC 9562 variant UUID; NULL for other variants';

COMMENT ON FUNCTION @extschema@.uuidv7_at(timestamptz) IS
'UUIDv7 for a given instant (millisecond and 1/4096 ms fraction); calls with the same instant in a row keep their order, for backfilling historical rows';


-- time ranges: a tstzrange predicate the planner answers from a btree on
-- the id, range edges, and a text decoder for pg_partman
-- (functions IMMUTABLE STRICT PARALLEL SAFE)

CREATE FUNCTION @extschema@.uuidv7_time_range_support(internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv7_time_range_support'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv7_time_range_support(internal) IS
'planner support of uuid <@ tstzrange: btree conditions on the id, and partition pruning';

CREATE FUNCTION @extschema@.uuidv6_time_range_support(internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv6_time_range_support'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv6_time_range_support(internal) IS
'planner support of uuidv6_in_time_range(): btree conditions on the id, and partition pruning';

CREATE FUNCTION @extschema@.uuidv7_in_time_range(id uuid, range tstzrange)
RETURNS boolean
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv7_in_time_range'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
SUPPORT @extschema@.uuidv7_time_range_support;

COMMENT ON FUNCTION @extschema@.uuidv7_in_time_range(uuid, tstzrange) IS
'true for a v7 id whose time (millisecond and 1/4096 ms fraction) lies in the range; the operator uuid <@ tstzrange';

CREATE OPERATOR @extschema@.<@ (
    LEFTARG = uuid,
    RIGHTARG = tstzrange,
    FUNCTION = @extschema@.uuidv7_in_time_range
);

COMMENT ON OPERATOR @extschema@.<@ (uuid, tstzrange) IS
'a v7 id whose time lies in the range; answered by a btree on the id';

CREATE FUNCTION @extschema@.uuidv6_in_time_range(id uuid, range tstzrange)
RETURNS boolean
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv6_in_time_range'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
SUPPORT @extschema@.uuidv6_time_range_support;

COMMENT ON FUNCTION @extschema@.uuidv6_in_time_range(uuid, tstzrange) IS
'true for a v6 id whose time (100-ns ticks) lies in the range; answered by a btree on the id';

CREATE FUNCTION @extschema@.uuidv7_range_lower(range tstzrange)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv7_range_lower'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv7_range_lower(tstzrange) IS
'the smallest v7 id whose time lies in the range (the largest uuid for an empty range)';

CREATE FUNCTION @extschema@.uuidv7_range_upper(range tstzrange)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv7_range_upper'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv7_range_upper(tstzrange) IS
'the largest v7 id whose time lies in the range (the nil uuid for an empty range)';

CREATE FUNCTION @extschema@.uuidv6_range_lower(range tstzrange)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv6_range_lower'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv6_range_lower(tstzrange) IS
'the smallest v6 id whose time lies in the range (the largest uuid for an empty range)';

CREATE FUNCTION @extschema@.uuidv6_range_upper(range tstzrange)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv6_range_upper'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv6_range_upper(tstzrange) IS
'the largest v6 id whose time lies in the range (the nil uuid for an empty range)';

CREATE FUNCTION @extschema@.uuidv7_boundary_upper(ts timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv7_boundary_upper'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv7_boundary_upper(timestamptz) IS
'largest UUIDv7 whose time is ts: id BETWEEN uuidv7_boundary(a) AND uuidv7_boundary_upper(b) selects ids made in [a, b]';

CREATE FUNCTION @extschema@.uuidv6_boundary_upper(ts timestamptz)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv6_boundary_upper'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv6_boundary_upper(timestamptz) IS
'largest UUIDv6 whose time is ts, the upper edge for BETWEEN';

CREATE FUNCTION @extschema@.uuid_extract_timestamp_from_text(id text)
RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN @extschema@.uuid_extract_timestamp(CAST(id AS pg_catalog.uuid));

COMMENT ON FUNCTION @extschema@.uuid_extract_timestamp_from_text(text) IS
'uuid_extract_timestamp() of an id given as text: the time decoder pg_partman''s create_parent() takes';

-- the v4 facade (UUIDv47), the microsecond reader and ordered backfill
-- (readers and facade IMMUTABLE STRICT PARALLEL SAFE)

CREATE FUNCTION @extschema@.uuidv47_encode(id uuid, key bytea)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv47_encode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv47_encode(uuid, bytea) IS
'UUIDv47 facade of a UUIDv7: its millisecond field XOR a SipHash-2-4 mask keyed by the 16-byte key, shown as version 4';

CREATE FUNCTION @extschema@.uuidv47_decode(facade uuid, key bytea)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv47_decode'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuidv47_decode(uuid, bytea) IS
'the UUIDv7 behind a UUIDv47 facade made with the same 16-byte key';

CREATE FUNCTION @extschema@.siphash24(data bytea, key bytea)
RETURNS bytea
AS 'MODULE_PATHNAME', 'pg_uuidx_siphash24'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.siphash24(bytea, bytea) IS
'SipHash-2-4 of data under a 16-byte key: 8 bytes, least significant first (the hash under uuidv47_encode)';

CREATE FUNCTION @extschema@.uuid_extract_timestamp_us(id uuid)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'pg_uuidx_uuid_extract_timestamp_us'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuid_extract_timestamp_us(uuid) IS
'creation time of a v1, v6 or v7 id to the microsecond (v7 from its 12-bit sub-millisecond fraction); NULL for other versions';

CREATE FUNCTION @extschema@.uuidv7_at(ts timestamp)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv7_at_utc'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;

COMMENT ON FUNCTION @extschema@.uuidv7_at(timestamp) IS
'UUIDv7 for a timestamp read as UTC whatever the session TimeZone; consecutive calls for one instant give increasing ids';

-- compact text forms: base32hex, ULID text, TypeID
-- (IMMUTABLE STRICT PARALLEL SAFE)
CREATE FUNCTION @extschema@.uuid_to_base32hex(uuid)
RETURNS text
AS 'MODULE_PATHNAME', 'pg_uuidx_uuid_to_base32hex'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuid_to_base32hex(uuid) IS
'26-character RFC 4648 base32hex text of a UUID, as PostgreSQL 19''s rtrim(encode(uuid_send(id), ''base32hex''), ''='')';

CREATE FUNCTION @extschema@.base32hex_to_uuid(text)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_base32hex_to_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.base32hex_to_uuid(text) IS
'the UUID of 26 base32hex characters (either case, optionally padded with ======)';

CREATE FUNCTION @extschema@.uuid_to_ulid(uuid)
RETURNS text
AS 'MODULE_PATHNAME', 'pg_uuidx_uuid_to_ulid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.uuid_to_ulid(uuid) IS
'26-character ULID text (Crockford base32, upper case) of a UUID';

CREATE FUNCTION @extschema@.ulid_to_uuid(text)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_ulid_to_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.ulid_to_uuid(text) IS
'the UUID of a ULID text (26 Crockford base32 characters, either case, first 0-7)';

CREATE FUNCTION @extschema@.ulid_extract_timestamp(uuid)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'pg_uuidx_ulid_extract_timestamp'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.ulid_extract_timestamp(uuid) IS
'the ULID timestamp of a UUID: its top 48 bits as Unix milliseconds, whatever its version';

CREATE FUNCTION @extschema@.typeid(text, uuid)
RETURNS text
AS 'MODULE_PATHNAME', 'pg_uuidx_typeid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.typeid(text, uuid) IS
'TypeID text (spec 0.3.0) of a prefix and a UUID: prefix_ and 26 lower-case Crockford characters';

CREATE FUNCTION @extschema@.typeid_to_uuid(text)
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_typeid_to_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.typeid_to_uuid(text) IS
'the UUID of a TypeID (prefix and suffix both checked)';

CREATE FUNCTION @extschema@.typeid_prefix(text)
RETURNS text
AS 'MODULE_PATHNAME', 'pg_uuidx_typeid_prefix'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.typeid_prefix(text) IS
'the prefix of a TypeID, empty when it has none (prefix and suffix both checked)';

-- living with core: what depends on this extension
-- (STABLE PARALLEL SAFE, reads the catalogs)

CREATE FUNCTION @extschema@.pg_uuidx_dependents()
RETURNS TABLE (dependent text, kind text, uses regprocedure,
               core_function regprocedure, handover text)
LANGUAGE sql STABLE PARALLEL SAFE
-- with only pg_catalog on the path, expressions print pg_uuidx's functions
-- qualified, so a name with a core equivalent can be swapped textually
SET search_path = pg_catalog
AS $$
WITH core(fn, args, since) AS (
    -- pg_catalog functions that return what pg_uuidx's return for the ids
    -- pg_uuidx makes (uuid_extract_timestamp: v1 and v7; core reads v6 as
    -- NULL), by the major that added them
    VALUES ('uuidv7', '', 180000), ('uuidv7', 'interval', 180000),
           ('uuidv4', '', 180000), ('uuid_extract_timestamp', 'uuid', 180000),
           ('uuid_extract_version', 'uuid', 170000)
),
ours AS (
    SELECT p.oid, p.proname,
           CASE WHEN c.since <= current_setting('server_version_num')::int
                THEN to_regprocedure(format('pg_catalog.%I(%s)', p.proname, c.args)) END AS core_oid
    FROM pg_proc p
    JOIN pg_depend e ON e.classid = 'pg_proc'::regclass AND e.objid = p.oid AND e.deptype = 'e'
    JOIN pg_extension x ON x.oid = e.refobjid AND x.extname = 'pg_uuidx'
    LEFT JOIN core c ON c.fn = p.proname AND c.args = array_to_string(p.proargtypes::regtype[], ',')
),
-- a dependent's text with every pg_uuidx function that has a core
-- equivalent named pg_catalog.fn( instead
swap AS (
    SELECT '\m' || quote_ident(n.nspname) || '\.(' ||
           coalesce(string_agg(DISTINCT o.proname, '|'), '$^') || ')\(' AS pattern
    FROM pg_extension x
    JOIN pg_namespace n ON n.oid = x.extnamespace
    LEFT JOIN ours o ON o.core_oid IS NOT NULL
    WHERE x.extname = 'pg_uuidx'
    GROUP BY n.nspname
),
deps AS (
    SELECT DISTINCT d.classid, d.objid, d.objsubid, o.oid AS uses, o.core_oid
    FROM pg_depend d
    JOIN ours o ON d.refclassid = 'pg_proc'::regclass AND d.refobjid = o.oid
    WHERE d.deptype IN ('n', 'a')
      -- the extension's own objects (min/max on their transition functions)
      AND NOT EXISTS (SELECT FROM pg_depend m
                      JOIN pg_extension x ON x.oid = m.refobjid AND x.extname = 'pg_uuidx'
                      WHERE m.classid = d.classid AND m.objid = d.objid AND m.deptype = 'e')
),
described AS (
    SELECT d.*,
           CASE
               WHEN d.classid = 'pg_attrdef'::regclass THEN
                   (SELECT CASE WHEN a.attgenerated = '' THEN 'column default' ELSE 'generated column' END
                    FROM pg_attrdef ad JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
                    WHERE ad.oid = d.objid)
               WHEN d.classid = 'pg_class'::regclass THEN
                   (SELECT CASE c.relkind WHEN 'i' THEN 'index' WHEN 'I' THEN 'index' ELSE 'relation' END
                    FROM pg_class c WHERE c.oid = d.objid)
               WHEN d.classid = 'pg_rewrite'::regclass THEN
                   (SELECT CASE c.relkind WHEN 'm' THEN 'materialized view' ELSE 'view' END
                    FROM pg_rewrite r JOIN pg_class c ON c.oid = r.ev_class WHERE r.oid = d.objid)
               WHEN d.classid = 'pg_constraint'::regclass THEN
                   (SELECT CASE WHEN c.contypid <> 0 THEN 'domain constraint' ELSE 'check constraint' END
                    FROM pg_constraint c WHERE c.oid = d.objid)
               WHEN d.classid = 'pg_proc'::regclass THEN 'function'
               WHEN d.classid = 'pg_trigger'::regclass THEN 'trigger'
               WHEN d.classid = 'pg_policy'::regclass THEN 'policy'
               ELSE 'other'
           END AS kind
    FROM deps d
)
SELECT CASE WHEN d.classid = 'pg_rewrite'::regclass
            THEN (SELECT pg_describe_object('pg_class'::regclass, r.ev_class, 0)
                  FROM pg_rewrite r WHERE r.oid = d.objid)
            ELSE pg_describe_object(d.classid, d.objid, d.objsubid) END,
       d.kind, d.uses::regprocedure, d.core_oid,
       CASE WHEN d.core_oid IS NULL THEN NULL
            WHEN d.kind = 'column default' THEN
                (SELECT format('ALTER TABLE %s ALTER COLUMN %I SET DEFAULT %s', ad.adrelid::regclass, a.attname,
                               regexp_replace(pg_get_expr(ad.adbin, ad.adrelid), s.pattern, 'pg_catalog.\1(', 'g'))
                 FROM pg_attrdef ad JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
                 WHERE ad.oid = d.objid)
            WHEN d.kind = 'generated column' THEN
                (SELECT format('ALTER TABLE %s ALTER COLUMN %I SET EXPRESSION AS (%s)', ad.adrelid::regclass, a.attname,
                               regexp_replace(pg_get_expr(ad.adbin, ad.adrelid), s.pattern, 'pg_catalog.\1(', 'g'))
                 FROM pg_attrdef ad JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
                 WHERE ad.oid = d.objid)
            WHEN d.kind = 'index' THEN
                format('DROP INDEX %s; %s', d.objid::regclass,
                       regexp_replace(pg_get_indexdef(d.objid), s.pattern, 'pg_catalog.\1(', 'g'))
            WHEN d.kind = 'view' THEN
                (SELECT format('CREATE OR REPLACE VIEW %s AS %s', r.ev_class::regclass,
                               regexp_replace(pg_get_viewdef(r.ev_class), s.pattern, 'pg_catalog.\1(', 'g'))
                 FROM pg_rewrite r WHERE r.oid = d.objid)
            WHEN d.kind = 'check constraint' THEN
                (SELECT format('ALTER TABLE %s DROP CONSTRAINT %I, ADD CONSTRAINT %I %s', c.conrelid::regclass,
                               c.conname, c.conname,
                               regexp_replace(pg_get_constraintdef(c.oid), s.pattern, 'pg_catalog.\1(', 'g'))
                 FROM pg_constraint c WHERE c.oid = d.objid)
            WHEN d.kind = 'function' THEN
                regexp_replace(pg_get_functiondef(d.objid), s.pattern, 'pg_catalog.\1(', 'g')
       END
FROM described d CROSS JOIN swap s
ORDER BY 1, 3
$$;

COMMENT ON FUNCTION @extschema@.pg_uuidx_dependents() IS
'objects that use pg_uuidx''s functions (defaults, generated columns, indexes, views, constraints, functions), the core function of the same result on this server, and the statement that hands each over to it';
