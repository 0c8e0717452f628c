# test/t/PgUuidxBuilds.pm - what the tests that move a database between the
# C build and the SQL build of pg_uuidx share: the SQL build's files ("make
# sql-only", dist/sql-only/) and servers whose extension directory holds
# the one build or the other.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
package PgUuidxBuilds;

use strict;
use warnings FATAL => 'all';
use Exporter 'import';
use File::Basename qw(dirname);
use File::Copy qw(copy);
use File::Path qw(make_path);
use PgUuidxSnapshot;
use PgUuidxTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

our @EXPORT = qw(sql_only_dir server_copy set_build node_on psql_file app_schema build_of move_database);

# The directory of the SQL build's files: PG_UUIDX_SQL_ONLY, else
# dist/sql-only/ of the checkout (PG_UUIDX_REPO, set by test/run.sh; else
# two levels above this file).  Undef when it holds no pg_uuidx_tle.sql.
sub sql_only_dir
{
	my $repo = $ENV{PG_UUIDX_REPO} || dirname(__FILE__) . '/../..';
	my $dir = $ENV{PG_UUIDX_SQL_ONLY} || "$repo/dist/sql-only";
	return -f "$dir/pg_uuidx_tle.sql" ? $dir : undef;
}

# The bindir, pkglibdir and sharedir of the server that pg_config on the
# PATH names (for test/run.sh: the run's private copy).
sub server_dirs
{
	my %dir;
	for my $k (qw(bindir pkglibdir sharedir))
	{
		chomp($dir{$k} = `pg_config --$k`);
		die "pg_config --$k failed" if $? || $dir{$k} eq '';
	}
	return %dir;
}

# A copy of that server, its directories at the same paths below a temp
# dir, hard links where the file system allows; the server finds its
# directories relative to its binary, so it runs on the copy's.  pg_uuidx's
# files in it are those of $build (set_build).  Returns the install_path for
# PostgreSQL::Test::Cluster->new.
my %root_of;

sub server_copy
{
	my ($build) = @_;
	my $root = PostgreSQL::Test::Utils::tempdir("server_$build");
	my %dir = server_dirs();
	for my $d (sort values %dir)
	{
		next if -d "$root$d";
		make_path(dirname("$root$d"));
		system('cp', '-al', $d, "$root$d") == 0
		  or system('rm', '-rf', "$root$d") == 0 && system('cp', '-a', $d, "$root$d") == 0
		  or die "cannot copy $d to $root$d";
	}
	my $install_path = $root . dirname($dir{bindir});
	$root_of{$install_path} = $root;
	set_build($install_path, $build);
	return $install_path;
}

# Replace pg_uuidx's files in the copy of server_copy: $build 'c' puts the C
# build's (control file, scripts, library: those of the server on the
# PATH), 'sql' the SQL build's control file and scripts (sql_only_dir),
# 'none' leaves pg_uuidx out.
sub set_build
{
	my ($install_path, $build) = @_;
	my $root = $root_of{$install_path} or die "$install_path is not a copy of server_copy";
	my %dir = server_dirs();
	my ($ext, $lib) = ("$root$dir{sharedir}/extension", "$root$dir{pkglibdir}");
	unlink glob("$ext/pg_uuidx.control $ext/pg_uuidx--*.sql $lib/pg_uuidx.so");
	my @files =
	    $build eq 'c' ? glob("$dir{sharedir}/extension/pg_uuidx.control $dir{sharedir}/extension/pg_uuidx--*.sql")
	  : $build eq 'sql' ? glob(sql_only_dir() . '/pg_uuidx.control ' . sql_only_dir() . '/pg_uuidx--*.sql')
	  : ();
	for my $f (@files)
	{
		copy($f, $ext) or die "cannot copy $f: $!";
	}
	copy("$dir{pkglibdir}/pg_uuidx.so", $lib) or die "cannot copy pg_uuidx.so: $!" if $build eq 'c';
	return;
}

# A started cluster of the server at $install_path (undef: the one on the
# PATH), with extra postgresql.conf lines in @conf; pg_uuidx's functions
# come before core's same-named ones, as in PgUuidxTest's new_node.
sub node_on
{
	my ($name, $install_path, @conf) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name, $install_path ? (install_path => $install_path) : ());
	$node->init;
	$node->append_conf('postgresql.conf', join('', map { "$_\n" } "search_path = 'public, pg_catalog'", @conf));
	$node->start;
	return $node;
}

# The psql script $file (its text on psql's standard input) on $node's
# database $db as role $user (undef: the bootstrap superuser), with psql
# variables %$vars, stopping at the first error: (exit code, stdout, stderr).
sub psql_file
{
	my ($node, $db, $user, $file, $vars) = @_;
	my ($out, $err);
	my $rc = $node->psql($db, slurp_file($file), stdout => \$out, stderr => \$err,
		extra_params => [ ($user ? ('-U', $user) : ()), map { ('-v', "$_=$vars->{$_}") } sort keys %{ $vars || {} } ]);
	return ($rc, $out, $err);
}

# SQL for schema app on pg_uuidx (in schema public): every kind of
# dependent of PgUuidxSnapshot's dependents_schema on uuidv7(),
# uuidv7(interval), uuid_extract_timestamp and uuid_extract_version, and a
# table partitioned by id (a partition before 2024 holding one old id, one
# after) with an expression index and a view.  Role app_reader must exist.
sub app_schema
{
	return dependents_schema(
		gen => 'uuidv7()',
		gen_child => q{uuidv7('-1 hour')},
		ts => 'uuid_extract_timestamp(ID)',
		check => 'uuid_extract_version(ID) = 7',
		literal => 'made by pg_uuidx',
		attack => 'SELECT 1',
		extra => q{
	CREATE TABLE app.by_id (id uuid DEFAULT uuidv7() PRIMARY KEY, v int) PARTITION BY RANGE (id);
	CREATE TABLE app.by_id_before PARTITION OF app.by_id
		FOR VALUES FROM (MINVALUE) TO ('018cc251-f400-7000-8000-000000000000');
	CREATE TABLE app.by_id_after PARTITION OF app.by_id
		FOR VALUES FROM ('018cc251-f400-7000-8000-000000000000') TO (MAXVALUE);
	CREATE INDEX by_id_made ON app.by_id (uuid_extract_timestamp(id));
	CREATE VIEW app.by_id_v7 AS SELECT id, v, uuid_extract_timestamp(id) AS made FROM app.by_id
		WHERE uuid_extract_version(id) = 7;
	INSERT INTO app.by_id VALUES ('017e12ef-9c00-7000-8000-000000000001', 0);
	INSERT INTO app.by_id (v) SELECT g FROM generate_series(1, 300) g;
	});
}

# SQL: which build of pg_uuidx the database has, by its functions'
# languages: 'c' when its uuidv7() is in C, 'sql' when none of its functions
# is (the C build has procedures in PL/pgSQL), else 'mixed'.
sub build_of
{
	return q{SELECT CASE WHEN bool_or(l.lanname = 'c' AND p.proname = 'uuidv7' AND p.pronargs = 0) THEN 'c'
		WHEN NOT bool_or(l.lanname = 'c') THEN 'sql' ELSE 'mixed' END
		FROM pg_depend d
		JOIN pg_extension e ON e.oid = d.refobjid AND d.refclassid = 'pg_extension'::regclass
		JOIN pg_proc p ON p.oid = d.objid AND d.classid = 'pg_proc'::regclass
		JOIN pg_language l ON l.oid = p.prolang
		WHERE e.extname = 'pg_uuidx' AND d.deptype = 'e'};
}

# pg_dump -Fc of database $o{db} (schema app of app_schema) on $o{from},
# then pg_restore into a new database of that name on $o{to} (after
# $o{prepare}->(), which may create the database and what the restore
# needs; else the database and role app_reader are made here; the source
# database is then $o{source_after}, if it names one), with
# pg_restore's options @{$o{restore}} (default --exit-on-error); $o{label}
# names the checks.  Checked: the restore's exit code ($o{restore_fails}:
# it fails), pg_uuidx's functions on $o{to} are of language $o{lang}, the
# version is the source's, every object of schema app has the same catalog
# definition and every relation the same rows, and the defaults then make
# version 7 ids through the target's functions, after every restored id,
# into the partition after 2024.  Returns pg_restore's standard error.
sub move_database
{
	my (%o) = @_;
	my ($from, $to, $db, $l) = @o{qw(from to db label)};
	my $dump = PostgreSQL::Test::Utils::tempdir() . "/$db.dump";
	$from->command_ok([ 'pg_dump', '-Fc', '-d', $from->connstr($db), '-f', $dump ], "$l: pg_dump");
	if ($o{prepare}) { $o{prepare}->() }
	else
	{
		$to->safe_psql('postgres', q{DO $$BEGIN
			IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'app_reader') THEN CREATE ROLE app_reader; END IF;
			END$$});
		$to->safe_psql('postgres', "CREATE DATABASE $db");
	}
	my $src = $o{source_after} || $db;
	my ($out, $err) = ('', '');
	my $ok = IPC::Run::run([ $to->installed_command('pg_restore'), @{ $o{restore} || ['--exit-on-error'] },
		'-d', $to->connstr($db), $dump ], '>', \$out, '2>', \$err);
	ok($o{restore_fails} ? !$ok : $ok, "$l: pg_restore " . ($o{restore_fails} ? 'reports errors' : 'succeeds'))
	  or diag($err);
	is($to->safe_psql($db, build_of()), $o{lang}, "$l: pg_uuidx's functions on the target are $o{lang}");
	my $ver = "SELECT extversion FROM pg_extension WHERE extname = 'pg_uuidx'";
	is($to->safe_psql($db, $ver), $from->safe_psql($src, $ver), "$l: the same version of pg_uuidx");
	is(catalog_snapshot($to, $db, q{'{app}'}), catalog_snapshot($from, $src, q{'{app}'}),
		"$l: every dependent in schema app has the source's catalog definition");
	is(data_digest($to, $db, q{'{app}'}), data_digest($from, $src, q{'{app}'}), "$l: the same rows in every relation");
	sql_ok($to, $db, q{
		CREATE TEMP TABLE restored AS SELECT id FROM (SELECT id FROM app.t UNION ALL SELECT id FROM app.by_id) s
			ORDER BY id DESC LIMIT 1;
		INSERT INTO app.t (note) SELECT 'after ' || g FROM generate_series(1, 50) g;
		INSERT INTO app.by_id (v) SELECT 1000 + g FROM generate_series(1, 50) g;
		SELECT count(*) = 100 AND bool_and(uuid_extract_version(id) = 7 AND id > (SELECT id FROM restored)),
		       count(*) || ' new ids'
		FROM (SELECT id FROM app.t WHERE note LIKE 'after %' UNION ALL
		      SELECT id FROM app.by_id_after WHERE v > 1000) s},
		"$l: the restored defaults make new v7 ids after the restored ones, routed to the partition after 2024");
	sql_ok($to, $db, q{
		SELECT count(*) FILTER (WHERE NOT EXISTS (SELECT FROM pg_depend x
		       WHERE x.classid = 'pg_proc'::regclass AND x.objid = d.refobjid AND x.deptype = 'e'
		         AND x.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'pg_uuidx'))) = 0,
		       count(*) || ' default/function links'
		FROM pg_attrdef a JOIN pg_depend d ON d.classid = 'pg_attrdef'::regclass AND d.objid = a.oid
		     AND d.refclassid = 'pg_proc'::regclass
		WHERE a.adrelid IN (SELECT oid FROM pg_class WHERE relnamespace = 'app'::regnamespace)},
		"$l: every function a default of schema app calls is a member of the target's pg_uuidx");
	return $err;
}

1;
