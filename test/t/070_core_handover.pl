# Living with core's functions of the same names: pg_uuidx_dependents() on
# every major, the handover to pg_catalog's functions on 17/18 (defaults,
# generated columns, indexes, views, constraints, functions keep working and
# DROP EXTENSION needs no CASCADE), and what unqualified DROP/COMMENT
# statements hit once both exist.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use PgUuidxTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = new_node('core_handover');
my $major = int($node->safe_psql('postgres', 'SHOW server_version_num') / 10000);

# every kind of dependent, on functions that core covers from 17 or 18 on
# (covered) and on functions only pg_uuidx has (kept)
my $schema = q{
	CREATE EXTENSION pg_uuidx;
	CREATE TABLE t (
		id uuid PRIMARY KEY DEFAULT public.uuidv7(),
		made timestamptz GENERATED ALWAYS AS (public.uuid_extract_timestamp(id)) STORED,
		CONSTRAINT t_v7 CHECK (public.uuid_extract_version(id) = 7));
	CREATE INDEX t_made ON t (public.uuid_extract_timestamp(id));
	CREATE VIEW tv AS SELECT id, public.uuid_extract_version(id) AS version FROM t;
	CREATE FUNCTION next_id() RETURNS uuid LANGUAGE sql BEGIN ATOMIC SELECT public.uuidv7(); END;
	INSERT INTO t SELECT FROM generate_series(1, 1000);
};
my $kept = q{
	CREATE TABLE legacy (id uuid PRIMARY KEY DEFAULT public.uuidv6());
	CREATE VIEW recent AS SELECT id FROM t WHERE id >= public.uuidv7_boundary('2026-01-01');
};
my $report = q{
	SELECT string_agg(kind || ' ' || uses || ' -> ' || coalesce(core_function::text, '-'), E'\n'
	                  ORDER BY kind, uses::text)
	FROM pg_uuidx_dependents()};

# The report on this major: what each dependent uses and core's equivalent.
# uuid_extract_version is core's from 17 on; uuidv7 and
# uuid_extract_timestamp (which core reads v1 and v7 with) from 18 on.
my %core = (
	'uuidv7()' => $major >= 18,
	'uuid_extract_timestamp(uuid)' => $major >= 18,
	'uuid_extract_version(uuid)' => $major >= 17);
my @expected = (
	[ 'check constraint', 'uuid_extract_version(uuid)' ],
	[ 'column default', 'uuidv6()' ],
	[ 'column default', 'uuidv7()' ],
	[ 'function', 'uuidv7()' ],
	[ 'generated column', 'uuid_extract_timestamp(uuid)' ],
	[ 'index', 'uuid_extract_timestamp(uuid)' ],
	[ 'view', 'uuid_extract_version(uuid)' ],
	[ 'view', 'uuidv7_boundary(timestamp with time zone)' ]);
my $want = join "\n", map {
	my ($kind, $fn) = @$_;
	"$kind $fn -> " . ($core{$fn} ? "pg_catalog.$fn" : '-')
} @expected;
$node->safe_psql('postgres', $schema . $kept);
is($node->safe_psql('postgres', $report), $want, "pg_uuidx_dependents() on $major: every dependent and core's equivalent");
is($node->safe_psql('postgres', 'SELECT count(*) FROM pg_uuidx_pg_uuidv7_dependents()'), '0',
	'pg_uuidx_pg_uuidv7_dependents() lists nothing without pg_uuidv7, not pg_uuidx\'s own dependents');

# The handover: run every statement the report offers, in one transaction.
my $handover = q{
	DO $$
	DECLARE
		s text;
	BEGIN
		FOR s IN SELECT handover FROM pg_uuidx_dependents() WHERE handover IS NOT NULL LOOP
			EXECUTE s;
		END LOOP;
	END
	$$;
};
$node->safe_psql('postgres', $handover);
my @left = grep { !$core{ $_->[1] } } @expected;
is( $node->safe_psql('postgres', $report),
	join("\n", map { "$_->[0] $_->[1] -> -" } @left),
	'after the handover only what core lacks is left');
sql_ok($node, 'postgres', q{
	INSERT INTO t SELECT FROM generate_series(1, 1000);
	SELECT count(*) = 2000 AND bool_and(uuid_extract_version(id) = 7) AND bool_and(made IS NOT NULL),
	       count(*) || ' rows' FROM t},
	'the default still makes v7 ids, the generated column and the check still work');
# queries must name the function the index was built on: core's after the
# handover (what an unqualified call reaches with the default search_path)
my $reader = ($core{'uuid_extract_timestamp(uuid)'} ? 'pg_catalog' : 'public') . '.uuid_extract_timestamp';
like( $node->safe_psql('postgres', qq{
		SET enable_seqscan = off;
		EXPLAIN (COSTS OFF) SELECT * FROM t WHERE $reader(id) > '2026-01-01'}),
	qr/Index Scan using t_made|Bitmap Index Scan on t_made/,
	"the expression index still serves $reader(id)");
is($node->safe_psql('postgres', 'SELECT count(*) FROM tv WHERE version = 7'), '2000', 'the view still reads');

# Keeping pg_uuidx for the rest, or, with nothing left, dropping it.
my ($rc, $out, $err) = $node->psql('postgres', 'DROP EXTENSION pg_uuidx');
isnt($rc, 0, 'DROP EXTENSION refuses while v6 defaults and boundaries still use it');
$node->safe_psql('postgres', 'DROP VIEW recent; DROP TABLE legacy');
SKIP:
{
	skip "core $major lacks uuidv7() and a v7 uuid_extract_timestamp(): the extension stays", 3 if $major < 18;
	is($node->safe_psql('postgres', 'SELECT count(*) FROM pg_uuidx_dependents()'), '0', 'on 18 nothing is left');
	($rc, $out, $err) = $node->psql('postgres', 'DROP EXTENSION pg_uuidx');
	is($rc, 0, 'DROP EXTENSION without CASCADE succeeds') or diag($err);
	sql_ok($node, 'postgres', q{
		INSERT INTO t SELECT FROM generate_series(1, 1000);
		SELECT count(*) = 3000 AND bool_and(uuid_extract_version(id) = 7) AND bool_and(made IS NOT NULL)
		       AND (SELECT count(*) FROM tv) = 3000 AND next_id() IS NOT NULL,
		       count(*) || ' rows' FROM t},
		'without the extension: defaults, generated column, check, view and function on core');
}

# Unqualified DROP FUNCTION / COMMENT ON FUNCTION with pg_uuidx in public:
# pg_catalog comes first in the search path, so on 17/18 they reach core's
# function of that name; qualified names reach pg_uuidx's.
my $fresh = PostgreSQL::Test::Cluster->new('core_names');
$fresh->init;
start_with_env($fresh);
$fresh->safe_psql('postgres', 'CREATE EXTENSION pg_uuidx');
my $comments = q{
	SELECT coalesce(obj_description(to_regprocedure('pg_catalog.uuid_extract_version(uuid)'), 'pg_proc'), '-'),
	       obj_description('public.uuid_extract_version(uuid)'::regprocedure, 'pg_proc')};
my $before = $fresh->safe_psql('postgres', $comments);
$fresh->safe_psql('postgres', q{COMMENT ON FUNCTION uuid_extract_version(uuid) IS 'unqualified'});
my $after = $fresh->safe_psql('postgres', $comments);
if ($major >= 17)
{
	like($after, qr/^unqualified\|/, "on $major an unqualified COMMENT ON FUNCTION lands on core's function");
	($rc, $out, $err) = $fresh->psql('postgres', 'DROP FUNCTION uuid_extract_version(uuid)');
	like($err, qr/required by the database system/, "on $major an unqualified DROP FUNCTION targets core's function");
}
else
{
	like($after, qr/\|unqualified$/, "on $major (no core function) an unqualified COMMENT ON FUNCTION lands on pg_uuidx's");
	($rc, $out, $err) = $fresh->psql('postgres', 'DROP FUNCTION uuid_extract_version(uuid)');
	like($err, qr/extension pg_uuidx requires it/, "on $major an unqualified DROP FUNCTION targets pg_uuidx's");
}
$fresh->safe_psql('postgres', q{COMMENT ON FUNCTION public.uuid_extract_version(uuid) IS 'qualified'});
like($fresh->safe_psql('postgres', $comments), qr/\|qualified$/, 'a schema-qualified statement reaches pg_uuidx\'s function on every major');

done_testing();
