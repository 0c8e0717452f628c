# test/t/PgUuidxSnapshot.pm - what the migration tests compare before and
# after: a schema with every kind of object that can use a function, the
# catalog definition of each object in it, and a digest of its rows.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
package PgUuidxSnapshot;

use strict;
use warnings FATAL => 'all';
use Exporter 'import';

our @EXPORT = qw(dependents_schema catalog_snapshot data_digest);

# SQL that makes schema app with every kind of dependent on the calls in
# %c: gen and gen_child (generators, the child's default differs from the
# parent's), ts (an IMMUTABLE reader of id to timestamptz, written with
# the placeholder ID), check (a boolean test of ID), literal (text that
# names the functions, kept in string literals) and attack (a statement
# that a string literal holds after a quote); extra is SQL run at the end.
# Role app_reader (made by the caller) gets a column grant; the rows are
# made by the defaults.
sub dependents_schema
{
	my (%c) = @_;
	my $ts = sub { (my $e = $c{ts}) =~ s/\bID\b/$_[0]/g; $e };
	my $check = sub { (my $e = $c{check}) =~ s/\bID\b/$_[0]/g; $e };
	(my $lit = $c{literal}) =~ s/'/''/g;
	return qq{
	CREATE SCHEMA app;
	CREATE DOMAIN app.v7id AS uuid CHECK (@{[ $check->('VALUE') ]});
	-- defaults of a parent and a child with its own
	CREATE TABLE app.parent (id uuid DEFAULT $c{gen}, note text DEFAULT '$lit');
	CREATE TABLE app.child (extra int DEFAULT 1) INHERITS (app.parent);
	ALTER TABLE ONLY app.child ALTER COLUMN id SET DEFAULT $c{gen_child};
	-- a generated column with an index, a grant, a comment, NOT NULL and a
	-- check; check constraints that hold the names in string literals
	CREATE TABLE app.t (
		id app.v7id PRIMARY KEY DEFAULT $c{gen},
		made timestamptz GENERATED ALWAYS AS (@{[ $ts->('id') ]}) STORED NOT NULL CHECK (made > '2000-01-01'),
		note text DEFAULT 'x',
		CONSTRAINT t_literal CHECK (note <> '$lit'),
		CONSTRAINT t_quoted CHECK (length('$lit" IS NULL))); $c{attack}; --') > 0 AND @{[ $check->('id') ]}));
	CREATE INDEX t_made ON app.t (made);
	CREATE INDEX t_expr ON app.t (@{[ $ts->('id') ]}) WHERE @{[ $ts->('id') ]} > '2000-01-01+00';
	COMMENT ON COLUMN app.t.made IS 'when the row was made: $lit';
	GRANT SELECT (id, made) ON app.t TO app_reader;
	-- a partitioned table: an inherited check, a unique expression index
	CREATE TABLE app.events (id uuid NOT NULL DEFAULT $c{gen}, at date NOT NULL,
		CONSTRAINT events_v7 CHECK (@{[ $check->('id') ]})) PARTITION BY RANGE (at);
	CREATE TABLE app.events_1 PARTITION OF app.events FOR VALUES FROM ('2000-01-01') TO ('2026-01-01');
	CREATE TABLE app.events_2 PARTITION OF app.events FOR VALUES FROM ('2026-01-01') TO ('2100-01-01');
	CREATE UNIQUE INDEX events_made ON app.events (@{[ $ts->('id') ]}, at, id);
	-- views: options and a check option; a materialized view
	CREATE VIEW app.recent WITH (security_invoker = true, security_barrier = true) AS
		SELECT id, note FROM app.t WHERE @{[ $ts->('id') ]} > '2000-01-01' AND @{[ $check->('id') ]}
		WITH CASCADED CHECK OPTION;
	CREATE MATERIALIZED VIEW app.made AS SELECT id, @{[ $ts->('id') ]} AS made FROM app.t;
	-- a rule, a policy, a trigger whose WHEN calls, PL/pgSQL calling by name
	CREATE TABLE app.log (id uuid DEFAULT $c{gen}, about uuid);
	CREATE RULE t_log AS ON UPDATE TO app.t WHERE @{[ $check->('NEW.id') ]} DO ALSO
		INSERT INTO app.log (about) VALUES (NEW.id);
	ALTER TABLE app.t ENABLE ROW LEVEL SECURITY;
	CREATE POLICY t_recent ON app.t TO app_reader USING (@{[ $ts->('id') ]} > '2000-01-01');
	CREATE FUNCTION app.stamp() RETURNS trigger LANGUAGE plpgsql AS \$\$
	BEGIN
		NEW.note := coalesce(NEW.note, 'by $lit');
		INSERT INTO app.log VALUES ($c{gen}, NEW.id);
		RETURN NEW;
	END \$\$;
	CREATE TRIGGER t_stamp BEFORE INSERT ON app.t FOR EACH ROW WHEN (@{[ $check->('NEW.id') ]})
		EXECUTE FUNCTION app.stamp();
	CREATE FUNCTION app.next_id() RETURNS uuid LANGUAGE sql BEGIN ATOMIC SELECT $c{gen}; END;
	COMMENT ON FUNCTION app.next_id() IS 'a new id: $lit';
	INSERT INTO app.parent (note) SELECT 'p' || i FROM generate_series(1, 100) i;
	INSERT INTO app.child (note) SELECT 'c' || i FROM generate_series(1, 100) i;
	INSERT INTO app.t (note) SELECT 't' || i FROM generate_series(1, 300) i;
	INSERT INTO app.events (at) SELECT date '2026-11-25' FROM generate_series(1, 200);
	INSERT INTO app.t VALUES (app.next_id());
	REFRESH MATERIALIZED VIEW app.made;
	@{[ $c{extra} || '' ]}
	};
}

# The catalog definition of every object in the schemas named (an SQL
# array of names), one line each, printed with only pg_catalog on the path
# so that every name is qualified.
sub catalog_snapshot
{
	my ($node, $db, $schemas) = @_;
	return $node->safe_psql($db, qq{
	SET search_path = pg_catalog;
	WITH s AS (SELECT oid FROM pg_namespace WHERE nspname = ANY ($schemas)),
	rels AS (SELECT c.* FROM pg_class c WHERE c.relnamespace IN (SELECT oid FROM s))
	SELECT string_agg(line, E'\\n' ORDER BY line) FROM (
		SELECT format('relation %s %s options=%s acl=%s populated=%s rls=%s comment=%s', c.oid::regclass, c.relkind,
		              c.reloptions, c.relacl, c.relispopulated, c.relrowsecurity, obj_description(c.oid, 'pg_class'))
		FROM rels c
		UNION ALL
		SELECT format('view %s: %s', c.oid::regclass, pg_get_viewdef(c.oid)) FROM rels c WHERE c.relkind IN ('v', 'm')
		UNION ALL
		SELECT format('column %s %s %s %s notnull=%s generated=%s default=%s local=%s inherited=%s acl=%s comment=%s',
		              a.attrelid::regclass, a.attnum, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull,
		              a.attgenerated, pg_get_expr(d.adbin, d.adrelid), a.attislocal, a.attinhcount, a.attacl,
		              col_description(a.attrelid, a.attnum))
		FROM pg_attribute a JOIN rels c ON c.oid = a.attrelid
		LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
		WHERE a.attnum > 0 AND NOT a.attisdropped
		UNION ALL
		SELECT format('constraint %s %s %s local=%s inherited=%s valid=%s', coalesce(n.conrelid::regclass::text,
		              n.contypid::regtype::text), n.conname, pg_get_constraintdef(n.oid), n.conislocal,
		              n.coninhcount, n.convalidated)
		FROM pg_constraint n WHERE n.connamespace IN (SELECT oid FROM s)
		UNION ALL
		SELECT format('index %s on %s: %s valid=%s ready=%s live=%s', i.indexrelid::regclass, i.indrelid::regclass,
		              pg_get_indexdef(i.indexrelid), i.indisvalid, i.indisready, i.indislive)
		FROM pg_index i JOIN rels c ON c.oid = i.indrelid
		UNION ALL
		SELECT format('index %s attached to %s', h.inhrelid::regclass, h.inhparent::regclass)
		FROM pg_inherits h JOIN rels c ON c.oid = h.inhrelid WHERE c.relkind IN ('i', 'I')
		UNION ALL
		SELECT format('inherits %s %s %s', h.inhrelid::regclass, h.inhparent::regclass, h.inhseqno)
		FROM pg_inherits h JOIN rels c ON c.oid = h.inhrelid WHERE c.relkind NOT IN ('i', 'I')
		UNION ALL
		SELECT format('partition %s: %s', c.oid::regclass, pg_get_expr(c.relpartbound, c.oid))
		FROM rels c WHERE c.relispartition
		UNION ALL
		SELECT format('rule %s %s: %s', r.ev_class::regclass, r.rulename, pg_get_ruledef(r.oid))
		FROM pg_rewrite r JOIN rels c ON c.oid = r.ev_class
		UNION ALL
		SELECT format('policy %s %s %s %s using=%s check=%s', p.polrelid::regclass, p.polname, p.polcmd,
		              p.polroles::regrole[], pg_get_expr(p.polqual, p.polrelid), pg_get_expr(p.polwithcheck, p.polrelid))
		FROM pg_policy p JOIN rels c ON c.oid = p.polrelid
		UNION ALL
		SELECT format('trigger %s enabled=%s: %s', t.tgrelid::regclass, t.tgenabled, pg_get_triggerdef(t.oid))
		FROM pg_trigger t JOIN rels c ON c.oid = t.tgrelid WHERE NOT t.tgisinternal
		UNION ALL
		SELECT format('function %s owner=%s acl=%s comment=%s: %s', p.oid::regprocedure, p.proowner::regrole,
		              p.proacl, obj_description(p.oid, 'pg_proc'), pg_get_functiondef(p.oid))
		FROM pg_proc p WHERE p.pronamespace IN (SELECT oid FROM s) AND p.prokind IN ('f', 'p')
	) AS o(line)});
}

# A digest of the rows of every table, materialized view and view in the
# schemas named, one line a relation.
sub data_digest
{
	my ($node, $db, $schemas) = @_;
	return $node->safe_psql($db, qq{
	SET search_path = pg_catalog;
	CREATE FUNCTION pg_temp.digest(rel regclass) RETURNS text LANGUAGE plpgsql AS \$\$
	DECLARE
		d text;
	BEGIN
		EXECUTE format('SELECT count(*) || '' '' || md5(coalesce(string_agg(r::text, '','' ORDER BY r::text), ''''))'
		               ' FROM %s r', rel) INTO d;
		RETURN d;
	END \$\$;
	SELECT string_agg(format('%s %s', c.oid::regclass, pg_temp.digest(c.oid::regclass)), E'\\n' ORDER BY c.oid::regclass::text)
	FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
	WHERE n.nspname = ANY ($schemas) AND c.relkind IN ('r', 'p', 'm', 'v');
	});
}

1;
