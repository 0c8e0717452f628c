# pg_dump -Fc / pg_restore of tables whose defaults call pg_uuidx, and
# ALTER EXTENSION ... UPDATE under a live DEFAULT uuidv7().  Layouts, each
# dumped from one database and restored into another:
#   public     CREATE EXTENSION pg_uuidx; t (id uuid PRIMARY KEY DEFAULT uuidv7(), v int)
#   schema     the extension in schema uuidx, plus defaults uuidx.uuidv4()
#              and uuidx.uuidv7('-1 hour')
#   from_V     CREATE EXTENSION pg_uuidx VERSION 'V' for every older version
#              V, the table and rows, then ALTER EXTENSION pg_uuidx UPDATE
#              while another session keeps inserting through the default
# Checked: the update reaches the default version and the default keeps
# working, in order; the dump re-creates the extension rather than its
# functions; the restore succeeds with the same rows and default; new rows
# in the restored database get valid v7 ids after every restored one.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use PgUuidxTest;
use PostgreSQL::Test::Utils;
use Test::More;

my $rows = 10000;
my $node = new_node('dump');
my $tmp = PostgreSQL::Test::Utils::tempdir();
my $default = $node->safe_psql('postgres',
	"SELECT default_version FROM pg_available_extensions WHERE name = 'pg_uuidx'");
my @old = split /\n/, $node->safe_psql('postgres', "SELECT version FROM pg_available_extension_versions
	WHERE name = 'pg_uuidx' AND version <> '$default' ORDER BY string_to_array(version, '.')::int[]");
my $ver = sub { $node->safe_psql($_[0], "SELECT extversion FROM pg_extension WHERE extname = 'pg_uuidx'") };

for my $layout ('public', 'schema', map { "from_$_" } @old)
{
	(my $db = $layout) =~ tr/./_/;
	my ($src, $dst, $s, $ext, $extra) = ("src_$db", "dst_$db", '', 'CREATE EXTENSION pg_uuidx', '');
	if ($layout eq 'schema')
	{
		($s, $ext) = ('uuidx.', 'CREATE SCHEMA uuidx; CREATE EXTENSION pg_uuidx SCHEMA uuidx');
		$extra = ", v4 uuid NOT NULL DEFAULT uuidx.uuidv4(), early uuid DEFAULT uuidx.uuidv7('-1 hour')";
	}
	$ext .= " VERSION '$1'" if $layout =~ /^from_(.*)/;
	$node->safe_psql('postgres', "CREATE DATABASE $src");
	helpers($node, $src);
	$node->safe_psql($src, "$ext;
		CREATE TABLE t (id uuid PRIMARY KEY DEFAULT ${s}uuidv7(), v int$extra);
		INSERT INTO t (v) SELECT g FROM generate_series(1, $rows) AS g;");
	if ($layout =~ /^from_/)
	{
		# a writer inserting through the default while the extension updates
		my $writer = $node->background_psql($src);
		$writer->query_safe('BEGIN');
		$writer->query_safe("INSERT INTO t (v) SELECT g FROM generate_series($rows + 1, $rows + 500) AS g");
		# an update that waited for the writer's table would hang: it fails instead
		my ($rc, $out, $err) = $node->psql($src, "SET lock_timeout = '20s'; ALTER EXTENSION pg_uuidx UPDATE");
		is($rc . ' ' . $ver->($src), "0 $default", "$layout: ALTER EXTENSION UPDATE under a live default reaches $default")
		  or diag($err);
		$writer->query_safe("INSERT INTO t (v) SELECT g FROM generate_series($rows + 501, $rows + 1000) AS g; COMMIT");
		$writer->quit;
		$node->safe_psql($src, "INSERT INTO t (v) SELECT g FROM generate_series($rows + 1001, $rows + 2000) AS g");
		sql_ok($node, $src, "SELECT count(*) = $rows + 2000 AND bool_and(fault.version(id) = 7), count(*) FROM t",
			"$layout: the default works before, during and after the update");
		sql_ok($node, $src, in_order('SELECT id, v AS ord FROM t'), "$layout: ids still in insertion order");
	}
	my $dump = "$tmp/$src.dump";
	$node->command_ok([ 'pg_dump', '-Fc', '-d', $src, '-f', $dump ], "$layout: pg_dump");
	my ($ddl) = run_command([ 'pg_restore', '--schema-only', '-f', '-', $dump ]);
	ok($ddl =~ /^CREATE EXTENSION IF NOT EXISTS pg_uuidx/m && $ddl !~ /CREATE FUNCTION.*uuidv/i,
		"$layout: the dump creates the extension, not its functions");
	$node->safe_psql('postgres', "CREATE DATABASE $dst");
	$node->command_ok([ 'pg_restore', '--exit-on-error', '-d', $dst, $dump ],
		"$layout: pg_restore into a new database");
	is($ver->($dst), $ver->($src), "$layout: the restored extension has the source's version");
	my $fp = "SELECT count(*) || ' ' || md5(string_agg(t::text, ',' ORDER BY id)) FROM t";
	is($node->safe_psql($dst, $fp), $node->safe_psql($src, $fp), "$layout: the restored rows are the source's");
	like($node->safe_psql($dst, "SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef
		WHERE adrelid = 't'::regclass AND adnum = 1"), qr/^(\Q$s\E|public\.)?uuidv7\(\)$/,
		"$layout: the restored default is still ${s}uuidv7()");
	helpers($node, $dst);
	$node->safe_psql($dst, 'CREATE TABLE restored AS SELECT id AS max_id FROM t ORDER BY id DESC LIMIT 1;
		INSERT INTO t (v) SELECT -g FROM generate_series(1, 1000) AS g;');
	sql_ok($node, $dst, 'SELECT count(*) = 1000 AND bool_and(fault.version(id) = 7 AND fault.variant_ok(id)
		AND id > (SELECT max_id FROM restored)) FROM t WHERE v < 0',
		"$layout: 1000 new rows: version 7, RFC variant, after every restored id");
	sql_ok($node, $dst, in_order('SELECT id, -v AS ord FROM t WHERE v < 0'),
		"$layout: the new ids follow insertion order");
	next unless $layout eq 'schema';
	sql_ok($node, $dst, "SELECT bool_and(fault.version(v4) = 4 AND fault.version(early) = 7
		AND fault.unix_ms(early) BETWEEN fault.ts_ms(now()) - 3605000 AND fault.ts_ms(now()) - 3595000)
		FROM t WHERE v < 0", "$layout: the other defaults work after restore (v4, v7 one hour back)");
}
done_testing();
