/* pg_uuidx--1.4--1.5.sql: update from 1.4 to 1.5 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION pg_uuidx UPDATE TO '1.5'" to load this file. \quit

-- Reading a table in id order without missing a row (docs/reading-in-order.md):
-- the commit horizon of uuidv7() and uuidv6() ids, who holds it back, and a
-- reader that reads up to it.  VOLATILE PARALLEL RESTRICTED: they read the
-- clock and the state of other sessions, and leave the calling transaction
-- out, which a parallel worker would not know to do.
CREATE FUNCTION @extschema@.uuidv7_horizon()
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv7_horizon'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION @extschema@.uuidv7_horizon() IS
'the smallest UUIDv7 such that every uuidv7() id below it that a transaction of this database will commit is visible to statements that start after the call';

CREATE FUNCTION @extschema@.uuidv6_horizon()
RETURNS uuid
AS 'MODULE_PATHNAME', 'pg_uuidx_uuidv6_horizon'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION @extschema@.uuidv6_horizon() IS
'the smallest UUIDv6 such that every uuidv6() id below it that a transaction of this database will commit is visible to statements that start after the call';

CREATE FUNCTION @extschema@.pg_uuidx_horizon_holders()
RETURNS TABLE (pid integer, prepared_xid xid, holds_since timestamptz)
AS 'MODULE_PATHNAME', 'pg_uuidx_horizon_holders'
LANGUAGE C VOLATILE PARALLEL RESTRICTED ROWS 10;

COMMENT ON FUNCTION @extschema@.pg_uuidx_horizon_holders() IS
'the sessions and prepared transactions of this database whose ids hold the commit horizon back, with the time each holds it at';

CREATE FUNCTION @extschema@.pg_uuidx_read_after(row_type anyelement, after_id uuid, max_rows integer,
                                                id_column name DEFAULT 'id', id_version integer DEFAULT 7)
RETURNS SETOF anyelement
AS 'MODULE_PATHNAME', 'pg_uuidx_read_after'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION @extschema@.pg_uuidx_read_after(anyelement, uuid, integer, name, integer) IS
'the next rows of a table in id order after after_id and below the commit horizon: pass NULL::table_name, the last id read and a row limit';

-- The build: pg_uuidx also comes as a SQL build (sqlonly/, "make sql-only")
-- of the same name and version, for servers that take no C extensions; its
-- pg_uuidx_build() answers 'sql'.
CREATE FUNCTION @extschema@.pg_uuidx_build()
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN 'c';

COMMENT ON FUNCTION @extschema@.pg_uuidx_build() IS
'the build of pg_uuidx installed: ''c'' (the C library) or ''sql'' (the SQL build, for servers that take no C extensions)';

-- Adopting pg_uuidv7, hardened.  A role that owns one of pg_uuidv7's
-- functions, its schema, or the schema of the pg_uuidx functions that the
-- new bodies call could drop or replace them afterwards and so choose what
-- every caller runs: the procedure now refuses while any of them is owned
-- by a role that is not a superuser.  And a new body gets the stricter of
-- the function's own parallel label and those of the functions it calls:
-- pg_uuidv7's uuid_generate_v7() is PARALLEL SAFE, and over uuidv7() it
-- would otherwise run in parallel workers, which do not keep the
-- session's order.
CREATE OR REPLACE PROCEDURE @extschema@.pg_uuidx_adopt_pg_uuidv7()
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
        SELECT p.oid, format('%s(%s)', p.proname, array_to_string(p.proargtypes::regtype[], ',')) AS sig,
               p.proparallel, p.pronamespace
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
               -- the stricter of its own parallel label and those of the functions it will call
               || CASE (SELECT max(CASE l.proparallel WHEN 's' THEN 0 WHEN 'r' THEN 1 ELSE 2 END)
                        FROM (SELECT p.proparallel UNION ALL
                              SELECT m.proparallel FROM mine m WHERE m.sig = ANY (w.needs)) AS l)
                       WHEN 0 THEN ' PARALLEL SAFE' WHEN 1 THEN ' PARALLEL RESTRICTED' ELSE ' PARALLEL UNSAFE' END
               || format(' COST %s', p.procost) AS labels,
               format_type(p.prorettype, NULL) AS result,
               -- the roles that could drop or replace it once it calls pg_uuidx: its owner, the owner of
               -- its schema and of the schema of each pg_uuidx function it will call (a schema owned by
               -- pg_database_owner is the database owner's)
               (SELECT string_agg(DISTINCT format('%s owned by %s', o.what,
                                   CASE WHEN o.owner = o.acting THEN o.owner::regrole::text
                                        ELSE format('%s (%s)', o.owner::regrole, o.acting::regrole) END), ', ')
                FROM (SELECT x.what, x.owner,
                             CASE WHEN x.owner = 'pg_database_owner'::regrole
                                  THEN (SELECT d.datdba FROM pg_database d WHERE d.datname = current_database())
                                  ELSE x.owner END AS acting
                      FROM (SELECT format('function %s', p.oid::regprocedure) AS what, p.proowner AS owner
                            UNION ALL
                            SELECT format('schema %s', quote_ident(s.nspname)), s.nspowner
                            FROM pg_namespace s
                            WHERE s.oid = p.pronamespace
                               OR s.oid IN (SELECT m.pronamespace FROM mine m WHERE m.sig = ANY (w.needs))) AS x) AS o
                WHERE NOT coalesce((SELECT r.rolsuper FROM pg_roles r WHERE r.oid = o.acting), false)) AS unsafe
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
    SELECT string_agg(DISTINCT a.unsafe, ', ') INTO bad
    FROM jsonb_to_recordset(plan) AS a(unsafe text)
    WHERE a.unsafe IS NOT NULL;
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION 'pg_uuidv7''s functions or the schemas they would call into are owned by roles that are not superusers: %', bad
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  DETAIL = 'Once adopted, each function calls pg_uuidx; a role that owns it or one of those schemas could drop or replace what every caller runs; nothing was changed.',
                  HINT = 'Make a superuser the owner (ALTER SCHEMA ... OWNER TO, ALTER FUNCTION ... OWNER TO), or move what uses these functions by hand.';
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
'superuser only: detaches pg_uuidv7''s functions from pg_uuidv7 and replaces each in place (same OID, name, arguments, owner, privileges, labels; no laxer parallel label than the pg_uuidx functions it calls) by a body over pg_uuidx''s function of the same result, so that DROP EXTENSION pg_uuidv7 needs no CASCADE; refused while a role that is not a superuser owns one of them, their schema or pg_uuidx''s';
