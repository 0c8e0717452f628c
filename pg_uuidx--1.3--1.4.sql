/* pg_uuidx--1.3--1.4.sql: update from 1.3 to 1.4 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION pg_uuidx UPDATE TO '1.4'" to load this file. \quit

-- Adopting from pg_uuidv7: what uses its functions and the statement that
-- points each at pg_uuidx's function of the same result.  pg_uuidv7 reads
-- the top 48 bits as Unix ms whatever the version (ulid_extract_timestamp);
-- with zero => true it makes the smallest v7 id of the millisecond
-- (uuidv7_boundary of the instant cut to the ms), otherwise a random id of
-- that millisecond (uuidv7_at).

CREATE FUNCTION @extschema@.pg_uuidx_pg_uuidv7_dependents()
RETURNS TABLE (dependent text, kind text, uses regprocedure,
               pg_uuidx_function text, move text)
LANGUAGE sql STABLE PARALLEL SAFE
-- with only pg_catalog on the path, expressions print pg_uuidv7's
-- functions qualified, so each call can be found and rewritten textually
SET search_path = pg_catalog
AS $$
WITH theirs(fn, args, ours) AS (
    VALUES ('uuid_generate_v7', '', 'uuidv7()'),
           ('uuid_v7_to_timestamptz', 'uuid', 'ulid_extract_timestamp(uuid)'),
           ('uuid_v7_to_timestamp', 'uuid', 'ulid_extract_timestamp(uuid) AT TIME ZONE ''UTC'''),
           ('uuid_timestamptz_to_v7', 'timestamp with time zone,boolean',
            'zero: uuidv7_boundary(timestamptz) of the instant cut to the ms; otherwise uuidv7_at(timestamptz)'),
           ('uuid_timestamp_to_v7', 'timestamp without time zone,boolean',
            'zero: uuidv7_boundary(timestamptz) of the instant (UTC) cut to the ms; otherwise uuidv7_at(timestamp)')
),
fns AS (
    SELECT p.oid, t.ours
    FROM pg_proc p
    JOIN pg_depend e ON e.classid = 'pg_proc'::regclass AND e.objid = p.oid AND e.deptype = 'e'
    JOIN pg_extension x ON x.oid = e.refobjid AND x.extname = 'pg_uuidv7'
    JOIN theirs t ON t.fn = p.proname AND t.args = array_to_string(p.proargtypes::regtype[], ',')
),
-- "schema." of pg_uuidv7 as a pattern, and of pg_uuidx as text
names AS (
    SELECT '\m' || regexp_replace(quote_ident(n.nspname), '([.^$*+?()\[\]{}|\\])', '\\\1', 'g') || '\.' AS theirs,
           (SELECT quote_ident(m.nspname) || '.' FROM pg_extension y JOIN pg_namespace m ON m.oid = y.extnamespace
            WHERE y.extname = 'pg_uuidx') AS ours,
           -- one argument: no comma outside parentheses, nested up to two deep
           '((?:[^(),]|\((?:[^()]|\([^()]*\))*\))+)' AS arg
    FROM pg_extension x JOIN pg_namespace n ON n.oid = x.extnamespace
    WHERE x.extname = 'pg_uuidv7'
),
deps AS (
    SELECT DISTINCT d.classid, d.objid, d.objsubid, f.oid AS uses, f.ours
    FROM pg_depend d
    JOIN fns f ON d.refclassid = 'pg_proc'::regclass AND d.refobjid = f.oid
    WHERE d.deptype IN ('n', 'a')
),
described AS (
    SELECT d.*, k.kind, k.def
    FROM deps d
    CROSS JOIN LATERAL (
        SELECT CASE WHEN a.attgenerated = '' THEN 'column default' ELSE 'generated column' END,
               pg_get_expr(ad.adbin, ad.adrelid)
        FROM pg_attrdef ad JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
        WHERE d.classid = 'pg_attrdef'::regclass AND ad.oid = d.objid
        UNION ALL
        SELECT CASE WHEN c.relkind IN ('i', 'I') THEN 'index' ELSE 'relation' END,
               CASE WHEN c.relkind IN ('i', 'I') THEN pg_get_indexdef(c.oid) END
        FROM pg_class c WHERE d.classid = 'pg_class'::regclass AND c.oid = d.objid
        UNION ALL
        SELECT CASE c.relkind WHEN 'm' THEN 'materialized view' ELSE 'view' END, pg_get_viewdef(c.oid)
        FROM pg_rewrite r JOIN pg_class c ON c.oid = r.ev_class
        WHERE d.classid = 'pg_rewrite'::regclass AND r.oid = d.objid
        UNION ALL
        SELECT CASE WHEN c.contypid <> 0 THEN 'domain constraint' ELSE 'check constraint' END,
               pg_get_constraintdef(c.oid)
        FROM pg_constraint c WHERE d.classid = 'pg_constraint'::regclass AND c.oid = d.objid
        UNION ALL
        SELECT 'function', pg_get_functiondef(d.objid) WHERE d.classid = 'pg_proc'::regclass
        UNION ALL
        SELECT CASE d.classid WHEN 'pg_trigger'::regclass THEN 'trigger'
                              WHEN 'pg_policy'::regclass THEN 'policy' ELSE 'other' END, NULL
        WHERE d.classid NOT IN ('pg_attrdef'::regclass, 'pg_class'::regclass, 'pg_rewrite'::regclass,
                                'pg_constraint'::regclass, 'pg_proc'::regclass)
    ) AS k(kind, def)
),
rewritten AS (
    SELECT d.*,
           regexp_replace(regexp_replace(
           regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(
               d.def,
               s.theirs || 'uuid_generate_v7\(\)', s.ours || 'uuidv7()', 'g'),
               s.theirs || 'uuid_v7_to_timestamptz\(', s.ours || 'ulid_extract_timestamp(', 'g'),
               s.theirs || 'uuid_v7_to_timestamp\(' || s.arg || '\)',
               '(' || s.ours || 'ulid_extract_timestamp(\1) AT TIME ZONE ''UTC'')', 'g'),
               s.theirs || 'uuid_timestamptz_to_v7\(' || s.arg || ', true\)',
               s.ours || 'uuidv7_boundary(date_trunc(''milliseconds'', (\1) AT TIME ZONE ''UTC'') AT TIME ZONE ''UTC'')', 'g'),
               s.theirs || 'uuid_timestamptz_to_v7\(' || s.arg || ', false\)', s.ours || 'uuidv7_at(\1)', 'g'),
               s.theirs || 'uuid_timestamp_to_v7\(' || s.arg || ', true\)',
               s.ours || 'uuidv7_boundary(date_trunc(''milliseconds'', \1) AT TIME ZONE ''UTC'')', 'g'),
               s.theirs || 'uuid_timestamp_to_v7\(' || s.arg || ', false\)', s.ours || 'uuidv7_at(\1)', 'g'),
               -- zero left to its default (a SQL-standard body prints no default)
               s.theirs || 'uuid_timestamptz_to_v7\(' || s.arg || '\)', s.ours || 'uuidv7_at(\1)', 'g'),
               s.theirs || 'uuid_timestamp_to_v7\(' || s.arg || '\)', s.ours || 'uuidv7_at(\1)', 'g') AS new,
           s.theirs
    FROM described d CROSS JOIN names s
)
SELECT CASE WHEN r.classid = 'pg_rewrite'::regclass
            THEN (SELECT pg_describe_object('pg_class'::regclass, w.ev_class, 0)
                  FROM pg_rewrite w WHERE w.oid = r.objid)
            ELSE pg_describe_object(r.classid, r.objid, r.objsubid) END,
       r.kind, r.uses::regprocedure, r.ours,
       CASE
           -- a call left as it was (a zero flag that is not a constant, an
           -- argument nested too deep): the object is moved by hand
           WHEN r.new ~ (r.theirs || '(uuid_generate_v7|uuid_v7_to_timestamptz|uuid_v7_to_timestamp|uuid_timestamptz_to_v7|uuid_timestamp_to_v7)\(')
               THEN NULL
           WHEN r.kind = 'column default' THEN
               (SELECT format('ALTER TABLE %s ALTER COLUMN %I SET DEFAULT %s', ad.adrelid::regclass, a.attname, r.new)
                FROM pg_attrdef ad JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
                WHERE ad.oid = r.objid)
           WHEN r.kind = 'generated column' THEN
               (SELECT CASE WHEN current_setting('server_version_num')::int >= 170000
                            THEN format('ALTER TABLE %s ALTER COLUMN %I SET EXPRESSION AS (%s)',
                                        ad.adrelid::regclass, a.attname, r.new)
                            -- before 17 the column is made again, at the end of the table
                            ELSE format('ALTER TABLE %s DROP COLUMN %I, ADD COLUMN %I %s GENERATED ALWAYS AS (%s) STORED',
                                        ad.adrelid::regclass, a.attname, a.attname,
                                        format_type(a.atttypid, a.atttypmod), r.new) END
                FROM pg_attrdef ad JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
                WHERE ad.oid = r.objid)
           WHEN r.kind = 'index' THEN format('DROP INDEX %s; %s', r.objid::regclass, r.new)
           WHEN r.kind = 'view' THEN
               (SELECT format('CREATE OR REPLACE VIEW %s AS %s', w.ev_class::regclass, r.new)
                FROM pg_rewrite w WHERE w.oid = r.objid)
           WHEN r.kind = 'check constraint' THEN
               (SELECT format('ALTER TABLE %s DROP CONSTRAINT %I, ADD CONSTRAINT %I %s', c.conrelid::regclass,
                              c.conname, c.conname, r.new)
                FROM pg_constraint c WHERE c.oid = r.objid)
           WHEN r.kind = 'domain constraint' THEN
               (SELECT format('ALTER DOMAIN %s DROP CONSTRAINT %I; ALTER DOMAIN %s ADD CONSTRAINT %I %s',
                              c.contypid::regtype, c.conname, c.contypid::regtype, c.conname, r.new)
                FROM pg_constraint c WHERE c.oid = r.objid)
           WHEN r.kind = 'function' THEN r.new
       END
FROM rewritten r
ORDER BY 1, 3
$$;

COMMENT ON FUNCTION @extschema@.pg_uuidx_pg_uuidv7_dependents() IS
'objects that use pg_uuidv7''s functions (defaults, generated columns, indexes, views, constraints, functions), the pg_uuidx function of the same result, and the statement that moves each to it';
