-- sqlonly/migrate.sql: what depends on pg_uuidx's and pg_uuidv7's functions,
-- and the procedures that move it (pg_uuidv7 to pg_uuidx, pg_uuidx to core's
-- functions on 18): SQL and PL/pgSQL in the C build already, the same here.
-- They find pg_uuidx's functions by extension membership, so they work where
-- the SQL build is an extension (CREATE EXTENSION, pg_tle), and find nothing
-- of pg_uuidx's in a plain install.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)

-- What depends on pg_uuidx's functions, and core's function of the same
-- result on this server (uuid_extract_timestamp: core reads v1 and v7
-- alike and v6 as NULL; pg_uuidx_hand_over_to_core() keeps the v6 reading).
-- Names and kinds come from the catalogs only (pg_describe_object), so no
-- object of another role can make the report fail.  The naming of a
-- dependent is written out again in pg_uuidx_pg_uuidv7_dependents(): a
-- text-bodied function cannot call a sibling safely (the schema's owner may
-- rename the schema its name is written with), and a SQL-standard body
-- would bind its operators when this script runs, where that owner's
-- operators can be found first.
CREATE FUNCTION @extschema@.pg_uuidx_dependents()
RETURNS TABLE (dependent text, kind text, uses regprocedure, core_function regprocedure)
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
WITH core(fn, args, since) AS (
    VALUES ('uuidv7', '', 180000), ('uuidv7', 'interval', 180000),
           ('uuidv4', '', 180000), ('uuid_extract_timestamp', 'uuid', 180000),
           ('uuid_extract_version', 'uuid', 170000)
),
ours AS (
    SELECT p.oid,
           (SELECT q.oid FROM pg_proc q
            WHERE c.since <= current_setting('server_version_num')::int
              AND q.pronamespace = 'pg_catalog'::regnamespace
              AND q.proname = p.proname AND q.proargtypes = p.proargtypes) AS core_oid
    FROM pg_proc p
    JOIN pg_depend e ON e.classid = 'pg_proc'::regclass AND e.objid = p.oid AND e.deptype = 'e'
    JOIN pg_extension x ON x.oid = e.refobjid AND x.extname = 'pg_uuidx'
    LEFT JOIN core c ON c.fn = p.proname AND c.args = array_to_string(p.proargtypes::regtype[], ',')
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
)
SELECT coalesce(r.dependent, pg_describe_object(d.classid, d.objid, d.objsubid)),
       coalesce(r.kind, a.kind, c.kind, (pg_identify_object(d.classid, d.objid, d.objsubid)).type),
       d.uses::regprocedure, d.core_oid::regprocedure
FROM deps d
LEFT JOIN LATERAL (
    -- a view's or materialized view's query is its rule _RETURN
    SELECT CASE WHEN w.rulename = '_RETURN' THEN pg_describe_object('pg_class'::regclass, w.ev_class, 0)
                ELSE pg_describe_object(d.classid, d.objid, d.objsubid) END,
           CASE WHEN w.rulename <> '_RETURN' THEN 'rule'
                WHEN k.relkind = 'm' THEN 'materialized view' ELSE 'view' END
    FROM pg_rewrite w JOIN pg_class k ON k.oid = w.ev_class
    WHERE d.classid = 'pg_rewrite'::regclass AND w.oid = d.objid
) AS r(dependent, kind) ON true
LEFT JOIN LATERAL (
    SELECT CASE WHEN t.attgenerated = '' THEN 'column default' ELSE 'generated column' END
    FROM pg_attrdef f JOIN pg_attribute t ON t.attrelid = f.adrelid AND t.attnum = f.adnum
    WHERE d.classid = 'pg_attrdef'::regclass AND f.oid = d.objid
) AS a(kind) ON true
LEFT JOIN LATERAL (
    SELECT CASE WHEN n.contypid <> 0 THEN 'domain constraint'
                WHEN n.contype = 'c' THEN 'check constraint' ELSE 'constraint' END
    FROM pg_constraint n
    WHERE d.classid = 'pg_constraint'::regclass AND n.oid = d.objid
) AS c(kind) ON true
ORDER BY 1, 3
$$;

COMMENT ON FUNCTION @extschema@.pg_uuidx_dependents() IS
'objects that use pg_uuidx''s functions (defaults, generated columns, indexes, views, rules, constraints, functions, triggers, policies) and the core function of the same result on this server; pg_uuidx_hand_over_to_core() hands them over in place';

-- What depends on pg_uuidv7's functions, and the pg_uuidx function of the
-- same result (the table of docs/from-pg_uuidv7.md).  pg_uuidv7's functions
-- are found by extension membership, exact name and argument types.
CREATE FUNCTION @extschema@.pg_uuidx_pg_uuidv7_dependents()
RETURNS TABLE (dependent text, kind text, uses regprocedure, pg_uuidx_function text)
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
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
deps AS (
    SELECT DISTINCT d.classid, d.objid, d.objsubid, f.oid AS uses, f.ours
    FROM pg_depend d
    JOIN fns f ON d.refclassid = 'pg_proc'::regclass AND d.refobjid = f.oid
    WHERE d.deptype IN ('n', 'a')
)
SELECT coalesce(r.dependent, pg_describe_object(d.classid, d.objid, d.objsubid)),
       coalesce(r.kind, a.kind, c.kind, (pg_identify_object(d.classid, d.objid, d.objsubid)).type),
       d.uses::regprocedure, d.ours
FROM deps d
LEFT JOIN LATERAL (
    SELECT CASE WHEN w.rulename = '_RETURN' THEN pg_describe_object('pg_class'::regclass, w.ev_class, 0)
                ELSE pg_describe_object(d.classid, d.objid, d.objsubid) END,
           CASE WHEN w.rulename <> '_RETURN' THEN 'rule'
                WHEN k.relkind = 'm' THEN 'materialized view' ELSE 'view' END
    FROM pg_rewrite w JOIN pg_class k ON k.oid = w.ev_class
    WHERE d.classid = 'pg_rewrite'::regclass AND w.oid = d.objid
) AS r(dependent, kind) ON true
LEFT JOIN LATERAL (
    SELECT CASE WHEN t.attgenerated = '' THEN 'column default' ELSE 'generated column' END
    FROM pg_attrdef f JOIN pg_attribute t ON t.attrelid = f.adrelid AND t.attnum = f.adnum
    WHERE d.classid = 'pg_attrdef'::regclass AND f.oid = d.objid
) AS a(kind) ON true
LEFT JOIN LATERAL (
    SELECT CASE WHEN n.contypid <> 0 THEN 'domain constraint'
                WHEN n.contype = 'c' THEN 'check constraint' ELSE 'constraint' END
    FROM pg_constraint n
    WHERE d.classid = 'pg_constraint'::regclass AND n.oid = d.objid
) AS c(kind) ON true
ORDER BY 1, 3
$$;

COMMENT ON FUNCTION @extschema@.pg_uuidx_pg_uuidv7_dependents() IS
'objects that use pg_uuidv7''s functions (defaults, generated columns, indexes, views, rules, constraints, functions, triggers, policies) and the pg_uuidx function of the same result; pg_uuidx_adopt_pg_uuidv7() moves them in place';

-- Adopting pg_uuidv7: each of its functions is detached from extension
-- pg_uuidv7 and its body replaced, in place, by a SQL-standard body over
-- pg_uuidx's function of the same result.  Its OID, name, arguments,
-- defaults, owner, privileges, comment and labels stay; what uses it (by
-- OID or by name) now reaches pg_uuidx, and DROP EXTENSION pg_uuidv7
-- needs no CASCADE.  pg_uuidv7 reads the top 48 bits as Unix ms whatever
-- the version (ulid_extract_timestamp); with zero => true it makes the
-- smallest v7 id of the millisecond (uuidv7_boundary of the instant cut to
-- the ms), otherwise a random id of that millisecond (uuidv7_at).
CREATE PROCEDURE @extschema@.pg_uuidx_adopt_pg_uuidv7()
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $proc$
DECLARE
    theirs oid;
    ours oid;
    oursnsp text;
    plan jsonb;
    f record;
    bad text;
BEGIN
    IF NOT coalesce((SELECT r.rolsuper FROM pg_roles r WHERE r.rolname = current_user), false) THEN
        RAISE EXCEPTION 'permission denied to adopt pg_uuidv7''s functions'
            USING ERRCODE = 'insufficient_privilege',
                  DETAIL = 'Only a superuser may replace the functions of another extension.',
                  HINT = 'Call pg_uuidx_adopt_pg_uuidv7() as a superuser.';
    END IF;
    SELECT x.oid INTO theirs FROM pg_extension x WHERE x.extname = 'pg_uuidv7';
    IF theirs IS NULL THEN
        RAISE EXCEPTION 'extension "pg_uuidv7" is not installed'
            USING ERRCODE = 'undefined_object',
                  HINT = 'There is nothing to adopt in this database.';
    END IF;
    SELECT x.oid, quote_ident(n.nspname) INTO ours, oursnsp
    FROM pg_extension x JOIN pg_namespace n ON n.oid = x.extnamespace
    WHERE x.extname = 'pg_uuidx';

    -- every member of pg_uuidv7, with what it becomes
    -- arglist: the arguments as they are; newargs: as they are declared
    -- again, pg_uuidv7's unnamed first argument named ts where the second
    -- one has a name (PostgreSQL prints an unnamed argument of a function
    -- with named ones as "" in a SQL-standard body, which a dump could not
    -- restore)
    WITH want(fn, args, arglist, newargs, result, body, needs) AS (
        VALUES ('uuid_generate_v7', '', '', '', 'uuid'::regtype,
                'SELECT %1$s.uuidv7()', '{uuidv7()}'::text[]),
               ('uuid_v7_to_timestamptz', 'uuid', 'uuid', 'uuid', 'timestamptz'::regtype,
                'SELECT %1$s.ulid_extract_timestamp($1)', '{ulid_extract_timestamp(uuid)}'),
               ('uuid_v7_to_timestamp', 'uuid', 'uuid', 'uuid', 'timestamp'::regtype,
                'SELECT %1$s.ulid_extract_timestamp($1) AT TIME ZONE ''UTC''', '{ulid_extract_timestamp(uuid)}'),
               ('uuid_timestamptz_to_v7', 'timestamp with time zone,boolean',
                'timestamp with time zone, zero boolean DEFAULT false',
                'ts timestamp with time zone, zero boolean DEFAULT false', 'uuid'::regtype,
                'SELECT CASE WHEN zero THEN %1$s.uuidv7_boundary(date_trunc(''milliseconds'', ts AT TIME ZONE ''UTC'')'
                '                                               AT TIME ZONE ''UTC'') '
                '            ELSE %1$s.uuidv7_at(ts) END',
                '{uuidv7_boundary(timestamp with time zone),uuidv7_at(timestamp with time zone)}'),
               ('uuid_timestamp_to_v7', 'timestamp without time zone,boolean',
                'timestamp without time zone, zero boolean DEFAULT false',
                'ts timestamp without time zone, zero boolean DEFAULT false', 'uuid'::regtype,
                'SELECT CASE WHEN zero THEN %1$s.uuidv7_boundary(date_trunc(''milliseconds'', ts) AT TIME ZONE ''UTC'') '
                '            ELSE %1$s.uuidv7_at(ts) END',
                '{uuidv7_boundary(timestamp with time zone),uuidv7_at(timestamp without time zone)}')
    ),
    -- pg_uuidx's functions, found by OID through extension membership
    mine AS (
        SELECT p.oid, format('%s(%s)', p.proname, array_to_string(p.proargtypes::regtype[], ',')) AS sig
        FROM pg_depend e JOIN pg_proc p ON p.oid = e.objid
        WHERE e.classid = 'pg_proc'::regclass AND e.refclassid = 'pg_extension'::regclass
          AND e.refobjid = ours AND e.deptype = 'e'
    ),
    adopt AS (
        SELECT e.classid, e.objid, pg_describe_object(e.classid, e.objid, e.objsubid) AS member,
               p.oid AS fn, p.proname, n.nspname, w.arglist, w.newargs, w.body,
               (SELECT array_agg(m.oid ORDER BY m.oid) FROM mine m WHERE m.sig = ANY (w.needs)) AS needs,
               cardinality(w.needs) AS nneeds,
               concat_ws(', ',
                   CASE WHEN p.prokind <> 'f' OR p.proretset OR p.prorettype <> w.result THEN 'its kind or result' END,
                   CASE WHEN pg_get_function_arguments(p.oid) <> w.arglist THEN 'its arguments or defaults' END,
                   CASE WHEN p.prosecdef THEN 'SECURITY DEFINER' END,
                   CASE WHEN p.proleakproof THEN 'LEAKPROOF' END,
                   CASE WHEN p.proconfig IS NOT NULL THEN 'its SET clauses' END,
                   CASE WHEN p.prosupport <> 0 THEN 'its planner support function' END) AS differs,
               CASE p.provolatile WHEN 'i' THEN 'IMMUTABLE' WHEN 's' THEN 'STABLE' ELSE 'VOLATILE' END
               || CASE WHEN p.proisstrict THEN ' STRICT' ELSE ' CALLED ON NULL INPUT' END
               || CASE p.proparallel WHEN 's' THEN ' PARALLEL SAFE' WHEN 'r' THEN ' PARALLEL RESTRICTED'
                                     ELSE ' PARALLEL UNSAFE' END
               || format(' COST %s', p.procost) AS labels,
               format_type(p.prorettype, NULL) AS result
        FROM pg_depend e
        LEFT JOIN pg_proc p ON e.classid = 'pg_proc'::regclass AND p.oid = e.objid
        LEFT JOIN pg_namespace n ON n.oid = p.pronamespace
        LEFT JOIN want w ON w.fn = p.proname AND w.args = array_to_string(p.proargtypes::regtype[], ',')
        WHERE e.refclassid = 'pg_extension'::regclass AND e.refobjid = theirs AND e.deptype = 'e'
    )
    SELECT coalesce(jsonb_agg(to_jsonb(a) ORDER BY a.member), '[]') INTO plan FROM adopt a;

    SELECT string_agg(a.member, ', ' ORDER BY a.member) INTO bad
    FROM jsonb_to_recordset(plan) AS a(member text, arglist text)
    WHERE a.arglist IS NULL;
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION 'extension "pg_uuidv7" has members pg_uuidx does not know: %', bad
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  DETAIL = 'pg_uuidx adopts only the five functions of pg_uuidv7 1.6 and earlier.',
                  HINT = 'Move the other members out of pg_uuidv7 first; nothing was changed.';
    END IF;
    SELECT string_agg(format('%s (%s)', a.fn::regprocedure, a.differs), ', ' ORDER BY a.member) INTO bad
    FROM jsonb_to_recordset(plan) AS a(member text, fn oid, differs text)
    WHERE a.differs <> '';
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION 'pg_uuidv7''s functions differ from pg_uuidv7 1.6''s: %', bad
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  DETAIL = 'Their replacements could not keep every property; nothing was changed.',
                  HINT = 'Restore the property with ALTER FUNCTION, or move what uses the function by hand.';
    END IF;
    IF ours IS NULL OR EXISTS (SELECT FROM jsonb_to_recordset(plan) AS a(needs oid[], nneeds int)
                               WHERE cardinality(a.needs) IS DISTINCT FROM a.nneeds) THEN
        RAISE EXCEPTION 'pg_uuidx''s functions are not where expected'
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  DETAIL = 'uuidv7(), ulid_extract_timestamp(uuid), uuidv7_boundary(timestamptz) and uuidv7_at() '
                           'must be members of extension pg_uuidx; nothing was changed.',
                  HINT = 'Update pg_uuidx with ALTER EXTENSION pg_uuidx UPDATE.';
    END IF;

    IF plan = '[]' THEN
        RAISE NOTICE 'extension "pg_uuidv7" has no functions left to adopt';
        RETURN;
    END IF;
    FOR f IN SELECT * FROM jsonb_to_recordset(plan)
             AS a(fn oid, proname text, nspname text, newargs text, result text, labels text, body text, needs oid[])
    LOOP
        EXECUTE format('ALTER EXTENSION pg_uuidv7 DROP FUNCTION %s', f.fn::regprocedure);
        EXECUTE format('CREATE OR REPLACE FUNCTION %I.%I(%s) RETURNS %s LANGUAGE sql %s BEGIN ATOMIC %s; END',
                       f.nspname, f.proname, f.newargs, f.result,
                       f.labels, format(f.body, oursnsp));
        -- the same function, now over exactly the pg_uuidx functions meant
        IF NOT EXISTS (SELECT FROM pg_proc p
                       JOIN pg_language l ON l.oid = p.prolang
                       WHERE p.oid = f.fn AND l.lanname = 'sql' AND p.prosqlbody IS NOT NULL)
           OR (SELECT array_agg(d.refobjid ORDER BY d.refobjid) FROM pg_depend d
               WHERE d.classid = 'pg_proc'::regclass AND d.objid = f.fn
                 AND d.refclassid = 'pg_proc'::regclass AND d.deptype = 'n') IS DISTINCT FROM f.needs THEN
            RAISE EXCEPTION 'the new body of % does not call the pg_uuidx functions meant', f.fn::regprocedure
                USING ERRCODE = 'internal_error';
        END IF;
    END LOOP;
    RAISE NOTICE 'pg_uuidv7''s % functions now call pg_uuidx''s; DROP EXTENSION pg_uuidv7 needs no CASCADE',
        jsonb_array_length(plan);
END
$proc$;

COMMENT ON PROCEDURE @extschema@.pg_uuidx_adopt_pg_uuidv7() IS
'superuser only: detaches pg_uuidv7''s functions from pg_uuidv7 and replaces each in place (same OID, name, arguments, owner, privileges, labels) by a body over pg_uuidx''s function of the same result, so that DROP EXTENSION pg_uuidv7 needs no CASCADE';

-- Handing over to core on 18: each pg_uuidx function whose pg_catalog
-- counterpart gives the same result is replaced in place by a SQL-standard
-- body over core's function and detached from pg_uuidx, so that what uses
-- it keeps its definition and DROP EXTENSION pg_uuidx needs no CASCADE once
-- nothing else of pg_uuidx is used.  Core's uuid_extract_timestamp reads v1
-- and v7 as pg_uuidx's does and v6 as NULL: a v6 id is read as the v1 id of
-- the same time (RFC 9562 5.6: the timestamp's three fields in v1's order).
CREATE PROCEDURE @extschema@.pg_uuidx_hand_over_to_core()
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $proc$
DECLARE
    ours oid;
    plan jsonb;
    f record;
    bad text;
BEGIN
    IF NOT coalesce((SELECT r.rolsuper FROM pg_roles r WHERE r.rolname = current_user), false) THEN
        RAISE EXCEPTION 'permission denied to hand pg_uuidx''s functions over to core'
            USING ERRCODE = 'insufficient_privilege',
                  DETAIL = 'Only a superuser may replace an extension''s functions.',
                  HINT = 'Call pg_uuidx_hand_over_to_core() as a superuser.';
    END IF;
    IF current_setting('server_version_num')::int < 180000 THEN
        RAISE EXCEPTION 'PostgreSQL % has no core functions to hand pg_uuidx''s over to', current_setting('server_version')
            USING ERRCODE = 'feature_not_supported',
                  DETAIL = 'Core''s uuidv7(), uuidv4() and v7 reading of uuid_extract_timestamp() came with PostgreSQL 18.',
                  HINT = 'Keep pg_uuidx, or call this procedure after upgrading to PostgreSQL 18.';
    END IF;
    SELECT x.oid INTO ours FROM pg_extension x WHERE x.extname = 'pg_uuidx';

    WITH want(fn, args, arglist, body) AS (
        VALUES ('uuidv7', '', '', 'SELECT pg_catalog.uuidv7()'),
               ('uuidv7', 'interval', 'shift interval', 'SELECT pg_catalog.uuidv7($1)'),
               ('uuidv4', '', '', 'SELECT pg_catalog.uuidv4()'),
               ('uuid_extract_version', 'uuid', 'id uuid', 'SELECT pg_catalog.uuid_extract_version($1)'),
               ('uuid_extract_timestamp', 'uuid', 'id uuid',
                'SELECT CASE WHEN pg_catalog.uuid_extract_version($1) = 6 '
                '  THEN (SELECT pg_catalog.uuid_extract_timestamp(CAST(substr(t, 8, 8) || substr(t, 4, 4) || ''1'' '
                '                                                      || substr(t, 1, 3) || substr(h, 17, 16) AS uuid))'
                '        FROM (SELECT h, substr(h, 1, 8) || substr(h, 9, 4) || substr(h, 14, 3) AS t'
                '              FROM (SELECT replace(CAST($1 AS text), ''-'', '''') AS h) AS v6) AS v6t)'
                '  ELSE pg_catalog.uuid_extract_timestamp($1) END')
    ),
    handover AS (
        SELECT p.oid AS fn, p.proname, n.nspname, w.arglist, w.body, format_type(p.prorettype, NULL) AS result,
               (SELECT q.oid FROM pg_proc q
                WHERE q.pronamespace = 'pg_catalog'::regnamespace AND q.proname = p.proname
                  AND q.proargtypes = p.proargtypes AND q.prorettype = p.prorettype) AS core,
               concat_ws(', ',
                   CASE WHEN p.prokind <> 'f' OR p.proretset THEN 'its kind' END,
                   CASE WHEN pg_get_function_arguments(p.oid) <> w.arglist THEN 'its arguments or defaults' END,
                   CASE WHEN p.prosecdef THEN 'SECURITY DEFINER' END,
                   CASE WHEN p.proleakproof THEN 'LEAKPROOF' END,
                   CASE WHEN p.proconfig IS NOT NULL THEN 'its SET clauses' END,
                   CASE WHEN p.prosupport <> 0 THEN 'its planner support function' END) AS differs,
               CASE p.provolatile WHEN 'i' THEN 'IMMUTABLE' WHEN 's' THEN 'STABLE' ELSE 'VOLATILE' END
               || CASE WHEN p.proisstrict THEN ' STRICT' ELSE ' CALLED ON NULL INPUT' END
               || CASE p.proparallel WHEN 's' THEN ' PARALLEL SAFE' WHEN 'r' THEN ' PARALLEL RESTRICTED'
                                     ELSE ' PARALLEL UNSAFE' END
               || format(' COST %s', p.procost) AS labels
        FROM pg_depend e
        JOIN pg_proc p ON p.oid = e.objid
        JOIN pg_namespace n ON n.oid = p.pronamespace
        JOIN want w ON w.fn = p.proname AND w.args = array_to_string(p.proargtypes::regtype[], ',')
        WHERE e.classid = 'pg_proc'::regclass AND e.refclassid = 'pg_extension'::regclass
          AND e.refobjid = ours AND e.deptype = 'e'
    )
    SELECT coalesce(jsonb_agg(to_jsonb(h) ORDER BY h.proname, h.arglist), '[]') INTO plan FROM handover h;

    SELECT string_agg(format('%s (%s)', a.fn::regprocedure,
                             CASE WHEN a.core IS NULL THEN 'no core function of that signature' ELSE a.differs END),
                      ', ' ORDER BY a.fn)
    INTO bad
    FROM jsonb_to_recordset(plan) AS a(fn oid, core oid, differs text)
    WHERE a.differs <> '' OR a.core IS NULL;
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION 'pg_uuidx''s functions differ from what pg_uuidx installed: %', bad
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  DETAIL = 'Their replacements could not keep every property; nothing was changed.',
                  HINT = 'Restore the property with ALTER FUNCTION, or move what uses the function by hand.';
    END IF;
    IF plan = '[]' THEN
        RAISE NOTICE 'pg_uuidx has no functions left to hand over to core';
        RETURN;
    END IF;

    FOR f IN SELECT * FROM jsonb_to_recordset(plan)
             AS a(fn oid, proname text, nspname text, arglist text, result text, labels text, body text)
    LOOP
        EXECUTE format('CREATE OR REPLACE FUNCTION %I.%I(%s) RETURNS %s LANGUAGE sql %s BEGIN ATOMIC %s; END',
                       f.nspname, f.proname, f.arglist, f.result, f.labels, f.body);
        EXECUTE format('ALTER EXTENSION pg_uuidx DROP FUNCTION %s', f.fn::regprocedure);
        -- the same function, now over core's functions only
        IF NOT EXISTS (SELECT FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
                       WHERE p.oid = f.fn AND l.lanname = 'sql' AND p.prosqlbody IS NOT NULL)
           OR EXISTS (SELECT FROM pg_depend d JOIN pg_proc q ON q.oid = d.refobjid
                      WHERE d.classid = 'pg_proc'::regclass AND d.objid = f.fn
                        AND d.refclassid = 'pg_proc'::regclass AND q.pronamespace <> 'pg_catalog'::regnamespace) THEN
            RAISE EXCEPTION 'the new body of % calls more than core''s functions', f.fn::regprocedure
                USING ERRCODE = 'internal_error';
        END IF;
    END LOOP;
    RAISE NOTICE 'pg_uuidx''s % functions that core covers now call core''s', jsonb_array_length(plan);
END
$proc$;

COMMENT ON PROCEDURE @extschema@.pg_uuidx_hand_over_to_core() IS
'superuser only, PostgreSQL 18 and later: replaces pg_uuidx''s functions that core covers in place (same OID, name, arguments, owner, privileges, labels) by bodies over core''s function of the same result and detaches them from pg_uuidx';
