-- Hostile table shapes for the functions that take a user's table, row type
-- or column name (in the C build: pg_uuidx_read_after; the SQL build has no
-- reader).  For each shape the reader must return exactly the rows a plain
-- query of the same role returns, in id order, in one call and in pages
-- of two: column names like the words and aliases of the reader's own
-- query, of pass-by-value and varlena types, quoted and mixed-case names,
-- dropped and generated columns, a domain over uuid as the id, partitioned
-- and inherited tables, views, row-level security, a temporary table of a
-- non-superuser, and values stored out of line.  Then rows that share an
-- id, read in batches that never end inside a run of equal ids, and the
-- relations whose rows no commit horizon covers (materialized views,
-- foreign tables), refused also behind views, partitioned tables and
-- inheritance parents.
--
-- The reader needs the commit horizon, which PostgreSQL 15 and 16 have
-- only with pg_uuidx in shared_preload_libraries: test/run.sh preloads it
-- there.  On such a server without it (pg_buildext installcheck, say) each
-- comparison is true without reading: nothing else differs.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
CREATE EXTENSION pg_uuidx;
SET search_path = public, pg_catalog;

-- a fixed id of 2022, far below any horizon: the n-th in id order
CREATE FUNCTION pg_temp.id(n int) RETURNS uuid
LANGUAGE sql IMMUTABLE AS $$ SELECT ('01800000-0000-7000-8000-' || lpad(to_hex(n), 12, '0'))::uuid $$;

-- whether an error of message msg (55000) says that there is no horizon:
-- 15 or 16 without the preloaded library
CREATE FUNCTION pg_temp.no_horizon(msg text) RETURNS boolean
LANGUAGE sql AS $$
    SELECT current_setting('server_version_num')::int < 170000
           AND msg LIKE '% needs pg_uuidx in shared_preload_libraries %'
$$;

-- 'ok' when q runs (or cannot for want of a horizon: 15 or 16 without
-- the preloaded library), else its SQLSTATE and message
CREATE FUNCTION pg_temp.try(q text) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE q;
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    RETURN CASE WHEN pg_temp.no_horizon(SQLERRM) THEN 'ok' ELSE SQLSTATE || ': ' || SQLERRM END;
END $$;

-- true when pg_uuidx_read_after(NULL::<tbl>, ..., id_column) returns, in one
-- call and in pages of two, each after the last id of the page before,
-- the rows of SELECT * FROM <tbl> ORDER BY <id_column>, compared as text;
-- else a notice with the start of each and false.  gallery_ref and
-- gallery_out are no column of any table here.
CREATE FUNCTION pg_temp.same(tbl regclass, id_column name DEFAULT 'id') RETURNS boolean
LANGUAGE plpgsql AS $fn$
DECLARE
    rowtype text := (SELECT reltype::regtype::text FROM pg_class WHERE oid = tbl);
    want text := '';
    whole text := '';
    paged text := '';
    line text;
    last uuid;
    top uuid;
    n int;
    tries int := 0;
BEGIN
    FOR line IN EXECUTE format('SELECT gallery_ref::text FROM %s AS gallery_ref ORDER BY gallery_ref.%I',
                               tbl, id_column) LOOP
        want := want || line || E'\n';
    END LOOP;
    IF want = '' THEN
        RAISE EXCEPTION '% has no rows to read', tbl;
    END IF;
    BEGIN
        -- ids of uuidv7() made in the last tick can be above the horizon
        EXECUTE format('SELECT gallery_ref.%I::uuid FROM %s AS gallery_ref ORDER BY 1 DESC LIMIT 1',
                       id_column, tbl) INTO top;
        WHILE uuidv7_horizon() <= top LOOP
            tries := tries + 1;
            IF tries > 1000 THEN
                RAISE EXCEPTION 'the horizon did not pass the greatest id of %', tbl;
            END IF;
            PERFORM pg_sleep(0.01);
        END LOOP;
        FOR line IN EXECUTE format('SELECT pg_uuidx_read_after(NULL::%s, NULL, 1000, %L)::text',
                                   rowtype, id_column) LOOP
            whole := whole || line || E'\n';
        END LOOP;
        LOOP
            n := 0;
            FOR line, last IN EXECUTE format('SELECT gallery_out::text, (gallery_out).%I FROM '
                                             '(SELECT pg_uuidx_read_after(NULL::%s, $1, 2, %L) AS gallery_out) AS s',
                                             id_column, rowtype, id_column) USING last LOOP
                paged := paged || line || E'\n';
                n := n + 1;
            END LOOP;
            EXIT WHEN n < 2;
        END LOOP;
    EXCEPTION WHEN object_not_in_prerequisite_state THEN
        IF pg_temp.no_horizon(SQLERRM) THEN
            RETURN true;
        END IF;
        RAISE;
    END;
    IF whole = want AND paged = want THEN
        RETURN true;
    END IF;
    RAISE NOTICE E'%: want\n%\none call\n%\npaged\n%', tbl, left(want, 400), left(whole, 400), left(paged, 400);
    RETURN false;
END
$fn$;

-- the shapes, in the order they are read
CREATE TABLE gallery (shape serial, tbl regclass, id_column name DEFAULT 'id');

-- a column named like the reader's alias, one table per type: with its
-- value read as a row, an int crashed the server, a bigint was taken for an
-- address, a bytea read as a forged row
CREATE TABLE rint (id uuid DEFAULT uuidv7(), r int);
CREATE TABLE rbigint (id uuid DEFAULT uuidv7(), r bigint);
CREATE TABLE rbytea (id uuid DEFAULT uuidv7(), r bytea);
CREATE TABLE rtext (id uuid DEFAULT uuidv7(), r text);
INSERT INTO rint (r) SELECT g FROM generate_series(1, 5) AS g;
INSERT INTO rbigint (r) SELECT 94000000000000 + g FROM generate_series(1, 5) AS g;
INSERT INTO rbytea (r) SELECT decode(repeat('ff', 40 + g), 'hex') FROM generate_series(1, 5) AS g;
INSERT INTO rtext (r) SELECT repeat('r', g) FROM generate_series(1, 5) AS g;
INSERT INTO gallery (tbl) VALUES ('rint'), ('rbigint'), ('rbytea'), ('rtext');

-- every type against every hostile name: the query's aliases and words,
-- $n, quotes, dots, spaces, mixed case, 63 bytes, the table's own name;
-- 12 rows inserted out of id order, a NULL in each column every 4 rows
CREATE TYPE gallery_pair AS (a int, b text);
DO $do$
DECLARE
    names text[] := ARRAY['r', 't', 'x', 's', 'row', 'select', 'from', 'where', 'order', 'limit', 'ORDER BY',
                          '$1', '$2', '$3', 'a"b', 'a.b', 'a b', 'Id', 'r.id', 'gallery_ref) r',
                          rpad('SELECT r FROM r ORDER BY r.id LIMIT $3 -- ', 63, 'y')];
    shape record;
    cols text;
    vals text;
BEGIN
    FOR shape IN SELECT * FROM (VALUES
        ('int', 'int', 'n'),
        ('bigint', 'bigint', 'n::bigint * 1000000007'),
        ('bool', 'bool', 'n % 2 = 0'),
        ('float8', 'float8', 'n / 3.0'),
        ('uuid', 'uuid', 'pg_temp.id(1000 + n)'),
        ('text', 'text', 'repeat(chr(97 + n), n)'),
        ('bytea', 'bytea', 'decode(md5(n::text), ''hex'')'),
        ('jsonb', 'jsonb', 'jsonb_build_object(''r'', n, ''x'', ''y'')'),
        ('numeric', 'numeric', 'n / 7.0'),
        ('int_array', 'int[]', 'ARRAY[n, -n]'),
        ('text_array', 'text[]', 'ARRAY[''a b'', n::text]'),
        ('pair', 'gallery_pair', 'ROW(n, ''p'' || n)::gallery_pair')) AS v(name, type, expr)
    LOOP
        SELECT string_agg(format('%I %s', c, shape.type), ', ' ORDER BY k),
               string_agg(format('CASE WHEN (n + %s) %% 4 = 0 THEN NULL ELSE %s END', k, shape.expr), ', ' ORDER BY k)
        INTO cols, vals
        FROM unnest(names || ('shape_' || shape.name)) WITH ORDINALITY AS u(c, k);
        EXECUTE format('CREATE TABLE %I (id uuid, %s)', 'shape_' || shape.name, cols);
        EXECUTE format('INSERT INTO %I SELECT pg_temp.id(n * 5 %% 13), %s FROM generate_series(1, 12) AS n',
                       'shape_' || shape.name, vals);
        INSERT INTO gallery (tbl) VALUES (('shape_' || shape.name)::regclass);
    END LOOP;
END
$do$;
SELECT count(*) AS columns, min(length(attname)) AS shortest_name, max(octet_length(attname)) AS longest_name
FROM pg_attribute WHERE attrelid = 'shape_int'::regclass AND attnum > 0;

-- quoted, mixed-case schema and table names; a table and schema named r;
-- a uuid id named "Id" beside an int column named id
CREATE SCHEMA "Gallery ""S"".x";
CREATE TABLE "Gallery ""S"".x"."Out box.R" (r text, "Id" uuid, id int, "Out box.R" int);
INSERT INTO "Gallery ""S"".x"."Out box.R" SELECT 'r' || n, pg_temp.id(n * 5 % 13), n, -n FROM generate_series(1, 12) AS n;
CREATE SCHEMA r;
CREATE TABLE r.r (r int, id uuid DEFAULT uuidv7());
INSERT INTO r.r (r) SELECT n FROM generate_series(1, 12) AS n;
INSERT INTO gallery (tbl, id_column) VALUES ('"Gallery ""S"".x"."Out box.R"', 'Id'), ('r.r', 'id');

-- dropped columns before and after the id, rows written before and after
-- the drops; a stored generated column
CREATE TABLE dropped (a int, b text, id uuid, r bigint, c bytea, d text);
INSERT INTO dropped SELECT n, 'b', pg_temp.id(n * 5 % 13), n, '\xff', 'd' FROM generate_series(1, 6) AS n;
ALTER TABLE dropped DROP COLUMN a, DROP COLUMN b, DROP COLUMN d, ADD COLUMN e text;
INSERT INTO dropped SELECT pg_temp.id(n * 5 % 13), n, '\xee', 'e' || n FROM generate_series(7, 12) AS n;
CREATE TABLE generated (id uuid, r int, g text GENERATED ALWAYS AS ('g' || r) STORED);
INSERT INTO generated (id, r) SELECT pg_temp.id(n * 5 % 13), n FROM generate_series(1, 12) AS n;
INSERT INTO gallery (tbl) VALUES ('dropped'), ('generated');

-- the id a domain over a domain over uuid
CREATE DOMAIN gallery_id AS uuid NOT NULL;
CREATE DOMAIN gallery_id2 AS gallery_id;
CREATE TABLE domained (r int, id gallery_id2 DEFAULT uuidv7());
INSERT INTO domained (r) SELECT n FROM generate_series(1, 12) AS n;
INSERT INTO gallery (tbl) VALUES ('domained');

-- a partitioned table whose second partition has its columns in another
-- order and a dropped one; an inheritance parent whose child has more
-- columns (read through the parent: the child's rows with the parent's
-- columns), and the child itself
CREATE TABLE parted (id uuid, r text, k int) PARTITION BY LIST (k);
CREATE TABLE parted_1 PARTITION OF parted FOR VALUES IN (1);
CREATE TABLE parted_2 (k int, junk text, r text, id uuid);
ALTER TABLE parted_2 DROP COLUMN junk;
ALTER TABLE parted ATTACH PARTITION parted_2 FOR VALUES IN (2);
INSERT INTO parted SELECT pg_temp.id(n * 5 % 13), 'r' || n, n % 2 + 1 FROM generate_series(1, 12) AS n;
CREATE TABLE inh_parent (id uuid, r int);
CREATE TABLE inh_child (x text, t bytea) INHERITS (inh_parent);
INSERT INTO inh_parent SELECT pg_temp.id(n * 5 % 13), n FROM generate_series(1, 6) AS n;
INSERT INTO inh_child SELECT pg_temp.id(n * 5 % 13), n, 'x', '\x00' FROM generate_series(7, 12) AS n;
INSERT INTO gallery (tbl) VALUES ('parted'), ('inh_parent'), ('inh_child');

-- a view whose uuid column is named r and whose text column is named id;
-- a view of it; a view of the parent alone (ONLY) of a child that no
-- horizon covers (a foreign table)
CREATE VIEW gallery_view AS SELECT id AS r, t AS id, x, "select" AS "order" FROM shape_text;
CREATE VIEW gallery_view_view AS SELECT * FROM gallery_view;
CREATE FOREIGN DATA WRAPPER gallery_fdw;
CREATE SERVER gallery_server FOREIGN DATA WRAPPER gallery_fdw;
CREATE TABLE inh_foreign (id uuid, r int);
CREATE FOREIGN TABLE inh_foreign_child () INHERITS (inh_foreign) SERVER gallery_server;
INSERT INTO inh_foreign SELECT pg_temp.id(n * 5 % 13), n FROM generate_series(1, 12) AS n;
CREATE VIEW gallery_only AS SELECT * FROM ONLY inh_foreign;
INSERT INTO gallery (tbl, id_column) VALUES ('gallery_view', 'r'), ('gallery_view_view', 'r'), ('gallery_only', 'id');

-- a reader reads a table only when every row of it passes a guard of the
-- column read: each table above gets one once its rows are in (ids of
-- 2022, which a guard would refuse now), and so do the tables the views
-- read (shape_text is in the gallery; the ONLY view's parent)
SELECT count(*) AS guarded
FROM gallery JOIN pg_class AS c ON c.oid = gallery.tbl AND c.relkind IN ('r', 'p'),
     LATERAL pg_uuidx_add_guard(tbl, id_column);
SELECT pg_uuidx_add_guard('inh_foreign');

SELECT shape, tbl, pg_temp.same(tbl, id_column) AS same FROM gallery ORDER BY shape;

-- what a reader cannot vouch for: a table without a guard, with its guard
-- disabled or enabled for replication only (it never fires in a writing
-- session), guarded on another column or for the other version, a child
-- of a guarded table without one; a view whose id is not a table's column
-- (computed, or a join's, a grouping's, through a condition, a sublink, a
-- LIMIT, FOR UPDATE SKIP LOCKED or TABLESAMPLE), views that read each other.
-- What it reads through: a view of UNION ALL over guarded tables.
CREATE TABLE u_none (id uuid, r int);
CREATE TABLE u_off (id uuid, r int);
CREATE TABLE u_replica (id uuid, r int);
CREATE TABLE u_other (id uuid, other uuid, r int);
CREATE TABLE u_v6 (id uuid, r int);
CREATE TABLE u_parent (id uuid, r int);
CREATE TABLE u_child () INHERITS (u_parent);
SELECT pg_uuidx_add_guard('u_parent');
SELECT pg_uuidx_add_guard('u_off'), pg_uuidx_add_guard('u_replica'), pg_uuidx_add_guard('u_other', 'other'),
       pg_uuidx_add_guard('u_v6', id_version => 6);
ALTER TABLE u_off DISABLE TRIGGER pg_uuidx_guard_id;
ALTER TABLE u_replica ENABLE REPLICA TRIGGER pg_uuidx_guard_id;
CREATE VIEW u_computed AS SELECT uuidv7_at(now()) AS id FROM rint;
CREATE VIEW u_join AS SELECT a.id FROM rint AS a JOIN rbigint AS b ON a.r = b.r;
CREATE VIEW u_grouped AS SELECT id FROM rint GROUP BY id;
CREATE VIEW u_sublink AS SELECT id FROM rint WHERE r IN (SELECT r FROM rbigint);
CREATE VIEW u_limited AS SELECT id FROM rint LIMIT 3;
CREATE VIEW u_over_none AS SELECT id FROM rint UNION ALL SELECT id FROM u_none;
CREATE VIEW u_union AS SELECT id, r::text FROM rint UNION ALL SELECT id, r::text FROM rtext;
CREATE VIEW u_locked AS SELECT id FROM rint FOR UPDATE SKIP LOCKED;
CREATE VIEW u_due AS SELECT id FROM rint WHERE r::numeric <= extract(epoch FROM now());
CREATE VIEW u_sampled AS SELECT id FROM rint TABLESAMPLE BERNOULLI (50);
CREATE DOMAIN u_id AS uuid;
CREATE VIEW u_domain AS SELECT id::u_id AS id, r FROM rint;
CREATE VIEW u_filtered AS SELECT id FROM rint WHERE r > 0;
-- views that read each other: refused as the rewriter refuses them
CREATE VIEW u_loop1 AS SELECT NULL::uuid AS id;
CREATE VIEW u_loop2 AS SELECT id FROM u_loop1;
CREATE OR REPLACE VIEW u_loop1 AS SELECT id FROM u_loop2;
-- a partitioned table stores no rows: its partitions' guards are the ones
CREATE TABLE u_parted (id uuid, k int) PARTITION BY LIST (k);
CREATE TABLE u_parted_1 PARTITION OF u_parted FOR VALUES IN (1);
INSERT INTO u_parted SELECT pg_temp.id(n), 1 FROM generate_series(1, 4) AS n;
SELECT pg_uuidx_add_guard('u_parted_1');
-- a column whose name is too long for the triggers' names
CREATE TABLE u_long ("the identifier of the event as the client made it" uuid, r int);
INSERT INTO u_long SELECT pg_temp.id(n), n FROM generate_series(1, 4) AS n;
SELECT pg_uuidx_add_guard('u_long', 'the identifier of the event as the client made it');
SELECT tgname FROM pg_trigger WHERE tgrelid = 'u_long'::regclass ORDER BY tgname;
-- what it declares: the guard after the row without a WHEN condition (which
-- PostgreSQL would read and plan again for every statement), and the
-- statement trigger
SELECT tgname, pg_get_triggerdef(oid) FROM pg_trigger WHERE tgrelid = 'u_other'::regclass ORDER BY tgname;
SELECT tbl, pg_temp.try(format('SELECT count(*) FROM pg_uuidx_read_after(NULL::%s, NULL, 10)', tbl)) AS refused
FROM unnest(ARRAY['u_none', 'u_off', 'u_replica', 'u_other', 'u_v6', 'u_parent', 'u_computed', 'u_join', 'u_grouped',
                  'u_sublink', 'u_limited', 'u_over_none', 'u_locked', 'u_due', 'u_sampled', 'u_filtered',
                  'u_loop1']) AS tbl;
SELECT pg_temp.try($$SELECT count(*) FROM pg_uuidx_read_after(NULL::u_v6, NULL, 10, id_version => 6)$$) AS v6_read_as_v6;
SELECT pg_temp.same('u_union') AS union_all_of_guarded, pg_temp.same('u_domain') AS through_a_domain,
       pg_temp.same('u_parted') AS partitions_guarded,
       pg_temp.same('u_long', 'the identifier of the event as the client made it') AS long_column;

-- rows sharing an id (a table keyed (tenant, id)): a batch ends after
-- max_rows rows and every further row equal to the last id, so the next
-- one, after that id, misses none of them.  Ids 1 to 5, in 3, 2, 1, 3 and
-- 1 tenants.  batches() describes each batch, until an empty one, as
-- "<id>x<rows>" per id, read by pg_uuidx_read_after() or (reference) by
-- that rule in a plain query; same_batches() compares the two, and is true
-- without reading where there is no horizon (15 or 16 without the
-- preloaded library).
CREATE TABLE tenanted (tenant int, id uuid, PRIMARY KEY (tenant, id)) PARTITION BY LIST (tenant);
CREATE TABLE tenanted_1 PARTITION OF tenanted FOR VALUES IN (1);
CREATE TABLE tenanted_2 PARTITION OF tenanted FOR VALUES IN (2);
CREATE TABLE tenanted_3 PARTITION OF tenanted FOR VALUES IN (3);
INSERT INTO tenanted
SELECT t, pg_temp.id(n) FROM (VALUES (1, 3), (2, 2), (3, 1), (4, 3), (5, 1)) AS v(n, k), generate_series(1, k) AS t;
SELECT pg_uuidx_add_guard('tenanted');
CREATE FUNCTION pg_temp.batches(max_rows int, reference boolean) RETURNS text
LANGUAGE plpgsql AS $fn$
DECLARE
    last uuid;
    batch text;
    batch_last uuid;
    got text := '';
BEGIN
    FOR i IN 1 .. 20 LOOP
        WITH read AS (
            SELECT r.id FROM pg_uuidx_read_after(NULL::tenanted, last, max_rows) AS r WHERE NOT reference
            UNION ALL
            SELECT t.id FROM tenanted AS t
            WHERE reference AND max_rows > 0 AND (last IS NULL OR t.id > last)
              AND t.id <= coalesce((SELECT b.id FROM tenanted AS b WHERE last IS NULL OR b.id > last
                                    ORDER BY b.id OFFSET greatest(max_rows - 1, 0) LIMIT 1),
                                   'ffffffff-ffff-ffff-ffff-ffffffffffff'))
        SELECT string_agg(right(g.id::text, 1) || 'x' || g.k, ' ' ORDER BY g.id), max(g.id)
        INTO batch, batch_last
        FROM (SELECT read.id, count(*) AS k FROM read GROUP BY read.id) AS g;
        EXIT WHEN batch IS NULL;
        got := got || CASE WHEN got = '' THEN '' ELSE ' | ' END || batch;
        last := batch_last;
    END LOOP;
    RETURN got;
END
$fn$;
CREATE FUNCTION pg_temp.same_batches(max_rows int) RETURNS boolean
LANGUAGE plpgsql AS $fn$
DECLARE
    want text := pg_temp.batches(max_rows, true);
    got text;
BEGIN
    BEGIN
        got := pg_temp.batches(max_rows, false);
    EXCEPTION WHEN object_not_in_prerequisite_state THEN
        IF pg_temp.no_horizon(SQLERRM) THEN
            RETURN true;
        END IF;
        RAISE;
    END;
    IF got = want THEN
        RETURN true;
    END IF;
    RAISE NOTICE 'max_rows %: want %, got %', max_rows, want, got;
    RETURN false;
END
$fn$;
SELECT max_rows, pg_temp.batches(max_rows, true) AS batches, pg_temp.same_batches(max_rows) AS same
FROM unnest(ARRAY[0, 1, 2, 3, 4, 100]) AS max_rows;

-- relations whose rows no commit horizon covers (a materialized view's
-- appear when it is refreshed, a foreign table's commit on another
-- server): refused, read directly or through a view, a view of a view, a
-- subquery, a common table expression, a sublink, or as a partition or an
-- inheritance child; refused before the horizon is read
CREATE MATERIALIZED VIEW gallery_matview AS SELECT * FROM shape_bytea;
CREATE FOREIGN TABLE gallery_foreign (id uuid, r int) SERVER gallery_server;
CREATE VIEW over_matview AS SELECT id FROM gallery_matview;
CREATE VIEW over_foreign AS SELECT id, r FROM gallery_foreign;
CREATE VIEW over_over_foreign AS SELECT * FROM over_foreign;
CREATE VIEW over_subquery AS SELECT id FROM (SELECT id FROM gallery_foreign) AS s;
CREATE VIEW over_cte AS WITH m AS (SELECT id FROM gallery_matview) SELECT id FROM m;
CREATE VIEW over_sublink AS SELECT id, r FROM rint WHERE EXISTS (SELECT FROM gallery_matview AS m WHERE m.id = rint.id);
CREATE TABLE parted_foreign (id uuid, k int) PARTITION BY LIST (k);
CREATE TABLE parted_foreign_1 PARTITION OF parted_foreign FOR VALUES IN (1);
CREATE FOREIGN TABLE parted_foreign_2 PARTITION OF parted_foreign FOR VALUES IN (2) SERVER gallery_server;
CREATE FUNCTION pg_temp.refused(tbl regclass) RETURNS TABLE (code text, message text, detail text)
LANGUAGE plpgsql AS $fn$
BEGIN
    EXECUTE format('SELECT count(*) FROM pg_uuidx_read_after(NULL::%s, NULL, 10)',
                   (SELECT reltype::regtype::text FROM pg_class WHERE oid = tbl));
    RETURN QUERY SELECT 'read'::text, NULL::text, NULL::text;
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS code = RETURNED_SQLSTATE, message = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL;
    RETURN NEXT;
END
$fn$;
SELECT tbl, r.code, r.message, CASE WHEN r.detail LIKE 'It is read through %' THEN split_part(r.detail, '. ', 1) END AS through
FROM unnest(ARRAY['gallery_matview', 'gallery_foreign', 'over_matview', 'over_foreign', 'over_over_foreign',
                  'over_subquery', 'over_cte', 'over_sublink', 'parted_foreign', 'inh_foreign']::regclass[]) AS tbl,
     LATERAL pg_temp.refused(tbl) AS r;
-- the whole error, hint included
SELECT count(*) FROM pg_uuidx_read_after(NULL::over_over_foreign, NULL, 10);

-- values stored out of line, read back byte for byte
CREATE TABLE wide (id uuid, r text, t bytea, x jsonb);
ALTER TABLE wide ALTER COLUMN r SET STORAGE EXTERNAL, ALTER COLUMN t SET STORAGE EXTERNAL;
INSERT INTO wide
SELECT pg_temp.id(n), s, convert_to(s, 'UTF8'), jsonb_build_object('s', s)
FROM generate_series(1, 3) AS n,
     LATERAL (SELECT string_agg(md5((n * 100000 + i)::text), '') AS s FROM generate_series(1, 10000) AS i) AS v;
SELECT pg_relation_size(reltoastrelid) > 0 AS toasted FROM pg_class WHERE oid = 'wide'::regclass;
SELECT pg_uuidx_add_guard('wide');
SELECT pg_temp.same('wide') AS same;

-- row-level security: a policy hides half the rows from a reader; FORCE
-- applies it to the owner too
CREATE ROLE regress_uuidx_reader NOLOGIN;
CREATE ROLE regress_uuidx_owner NOLOGIN;
CREATE TABLE rls (id uuid, r int, shown bool);
INSERT INTO rls SELECT pg_temp.id(n * 5 % 13), n, n % 2 = 0 FROM generate_series(1, 12) AS n;
ALTER TABLE rls ENABLE ROW LEVEL SECURITY;
CREATE POLICY shown ON rls FOR SELECT USING (shown);
GRANT SELECT ON rls TO regress_uuidx_reader;
CREATE TABLE rls_forced (id uuid, r int, shown bool);
INSERT INTO rls_forced SELECT pg_temp.id(n * 5 % 13), n, n % 3 = 0 FROM generate_series(1, 12) AS n;
ALTER TABLE rls_forced OWNER TO regress_uuidx_owner;
ALTER TABLE rls_forced ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
CREATE POLICY shown ON rls_forced FOR SELECT USING (shown);
SELECT pg_uuidx_add_guard('rls'), pg_uuidx_add_guard('rls_forced');
SET ROLE regress_uuidx_reader;
SELECT pg_temp.same('rls') AS same, (SELECT count(*) FROM rls) AS visible;
RESET ROLE;
SET ROLE regress_uuidx_owner;
SELECT pg_temp.same('rls_forced') AS same, (SELECT count(*) FROM rls_forced) AS visible;
RESET ROLE;

-- A session keeps the plan of each reader query it ran; each later call
-- reads the table as it is then: columns added, retyped and dropped, the
-- table renamed and another made under its name, a schema of the same
-- name first on the search_path, and more tables than plans are kept
-- whether the reader reads want rows of tbl meeting cond (true without a
-- horizon, as pg_temp.same())
CREATE FUNCTION pg_temp.reads(tbl regclass, want bigint, cond text DEFAULT 'true') RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
    n bigint;
BEGIN
    EXECUTE format('SELECT count(*) FROM pg_uuidx_read_after(NULL::%s, NULL, 100) AS r WHERE %s',
                   (SELECT reltype::regtype FROM pg_class WHERE oid = tbl), cond) INTO n;
    RETURN n = want;
EXCEPTION WHEN object_not_in_prerequisite_state THEN
    IF pg_temp.no_horizon(SQLERRM) THEN
        RETURN true;
    END IF;
    RAISE;
END $$;
CREATE TABLE kept (id uuid PRIMARY KEY, n int);
INSERT INTO kept SELECT pg_temp.id(n), n FROM generate_series(1, 5) AS n;
SELECT pg_uuidx_add_guard('kept');
SELECT pg_temp.same('kept') AS same;
ALTER TABLE kept ADD COLUMN note text DEFAULT 'added';
SELECT pg_temp.same('kept') AS same;
ALTER TABLE kept ALTER COLUMN n TYPE numeric;
SELECT pg_temp.same('kept') AS same;
ALTER TABLE kept DROP COLUMN note;
SELECT pg_temp.same('kept') AS same;
ALTER TABLE kept RENAME TO kept_before;
CREATE TABLE kept (id uuid PRIMARY KEY, label text);
INSERT INTO kept SELECT pg_temp.id(n), 'new ' || n FROM generate_series(11, 13) AS n;
SELECT pg_uuidx_add_guard('kept');
SELECT pg_temp.same('kept') AS same, pg_temp.same('kept_before') AS same_before;
SELECT pg_temp.reads('kept', 3, $$label LIKE 'new %'$$) AS reads_the_new_rows;
CREATE SCHEMA kept_shadow;
CREATE TABLE kept_shadow.kept (id uuid PRIMARY KEY, label text);
SELECT pg_uuidx_add_guard('kept_shadow.kept');
SET search_path = kept_shadow, public, pg_catalog;
SELECT pg_temp.same('public.kept') AS same;
SELECT pg_temp.reads('kept_shadow.kept', 0) AS reads_the_empty_shadow;
SET search_path = public, pg_catalog;
DO $$
BEGIN
    FOR i IN 1 .. 70 LOOP
        EXECUTE format('CREATE TABLE kept_%s (id uuid PRIMARY KEY, n int)', i);
        EXECUTE format('INSERT INTO kept_%s SELECT pg_temp.id(n), n * %s FROM generate_series(1, 3) AS n', i, i);
        PERFORM pg_uuidx_add_guard(format('kept_%s', i)::regclass);
    END LOOP;
END $$;
SELECT count(*) FILTER (WHERE pg_temp.same(format('kept_%s', i)::regclass)) AS same_of_70
FROM generate_series(1, 70) AS i;
SELECT count(*) FILTER (WHERE pg_temp.same(format('kept_%s', i)::regclass)) AS same_of_70_again
FROM generate_series(1, 70) AS i;
DO $$
BEGIN
    FOR i IN 1 .. 70 LOOP
        EXECUTE format('DROP TABLE kept_%s', i);
    END LOOP;
END $$;
DROP TABLE kept, kept_before, kept_shadow.kept;
DROP SCHEMA kept_shadow;

-- Each call of the rows query is planned for its caller, as it was when
-- nothing was kept: a policy's function labelled IMMUTABLE though it reads
-- a setting is evaluated again (a plan kept for many calls would hand the
-- next tenant the rows of the one it was made for)
CREATE TABLE tenants (id uuid PRIMARY KEY, tenant int, secret text);
INSERT INTO tenants SELECT pg_temp.id(n), n % 2 + 1, 'secret of ' || (n % 2 + 1) FROM generate_series(1, 6) AS n;
SELECT pg_uuidx_add_guard('tenants');
CREATE FUNCTION tenant_now() RETURNS int LANGUAGE sql IMMUTABLE AS $$ SELECT current_setting('regress.tenant')::int $$;
ALTER TABLE tenants ENABLE ROW LEVEL SECURITY;
CREATE POLICY by_tenant ON tenants TO regress_uuidx_reader USING (tenant = tenant_now());
GRANT SELECT ON tenants TO regress_uuidx_reader;
CREATE FUNCTION pg_temp.secrets() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    SELECT string_agg(DISTINCT secret, ',') INTO r FROM pg_uuidx_read_after(NULL::tenants, NULL, 100);
    RETURN r;
EXCEPTION WHEN object_not_in_prerequisite_state THEN
    IF pg_temp.no_horizon(SQLERRM) THEN
        RETURN 'secret of ' || current_setting('regress.tenant');
    END IF;
    RAISE;
END $$;
SET ROLE regress_uuidx_reader;
SET regress.tenant = 1;
SELECT count(*) FILTER (WHERE pg_temp.secrets() = 'secret of 1') AS tenant_1_of_8 FROM generate_series(1, 8);
SET regress.tenant = 2;
SELECT pg_temp.secrets() AS tenant_2;
RESET ROLE;
RESET regress.tenant;
DROP TABLE tenants;
DROP FUNCTION tenant_now();

-- a temporary table of a non-superuser with the crashing shapes
SET ROLE regress_uuidx_reader;
CREATE TEMP TABLE tmp_r (id uuid DEFAULT uuidv7(), r int, t bigint, x bytea, s text);
INSERT INTO tmp_r (r, t, x, s) SELECT n, n, '\x01', 's' FROM generate_series(1, 12) AS n;
SELECT pg_uuidx_add_guard('tmp_r');
SELECT pg_temp.same('tmp_r') AS same;
DROP TABLE tmp_r;
RESET ROLE;

DROP VIEW gallery_view_view, gallery_view, gallery_only, over_matview, over_over_foreign, over_foreign, over_subquery,
    over_cte, over_sublink;
DROP MATERIALIZED VIEW gallery_matview;
DROP FOREIGN TABLE gallery_foreign, inh_foreign_child;
DROP TABLE tenanted, parted_foreign, inh_foreign;
DROP SERVER gallery_server;
DROP FOREIGN DATA WRAPPER gallery_fdw;
DROP VIEW u_computed, u_join, u_grouped, u_sublink, u_limited, u_over_none, u_union, u_locked, u_due, u_sampled,
    u_domain, u_filtered;
DROP VIEW u_loop1 CASCADE;
DROP DOMAIN u_id;
DROP TABLE u_none, u_off, u_replica, u_other, u_v6, u_child, u_parent, u_parted, u_long;
DROP TABLE rls, rls_forced, wide, gallery, rint, rbigint, rbytea, rtext, dropped, generated, domained, parted,
    inh_child, inh_parent, "Gallery ""S"".x"."Out box.R", r.r, shape_int, shape_bigint, shape_bool, shape_float8,
    shape_uuid, shape_text, shape_bytea, shape_jsonb, shape_numeric, shape_int_array, shape_text_array, shape_pair;
DROP SCHEMA "Gallery ""S"".x", r;
DROP DOMAIN gallery_id2, gallery_id;
DROP TYPE gallery_pair;
DROP ROLE regress_uuidx_reader, regress_uuidx_owner;
DROP EXTENSION pg_uuidx;
