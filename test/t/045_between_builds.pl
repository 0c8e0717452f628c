# Moving a database between the C build and the SQL build of pg_uuidx (the
# checkout's sqlonly/generate.pl, as "make sql-only" writes it, or the files
# in PG_UUIDX_SQL_ONLY), with pg_dump -Fc / pg_restore between
# two servers: the private server with the C build, and a copy of it whose
# extension directory holds the SQL build's pg_uuidx files instead (what a
# server without a compiler or C extensions can install).  Schema app has
# every kind of dependent (PgUuidxBuilds' app_schema: defaults, generated
# column, domain, expression and partial indexes, views, a materialized
# view, rule, policy, trigger, functions, a table partitioned by id).
#   sql -> c    restored onto the C build: same catalog definitions, same
#               rows, the defaults then call the C functions
#   c -> sql    the reverse, onto the SQL build
#   in place    one server: its files switched from the SQL build to the C
#               build; the database on the SQL build keeps working, and a
#               dump restored beside it, renamed to its name, runs on C
# (pg_tle's route is test/lanes/pg_tle/, the plain script's
# 046_plain_script.pl.)
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use PgUuidxBuilds;
use PgUuidxTest;
use PostgreSQL::Test::Utils;
use Test::More;

plan skip_all => 'no SQL build: neither sqlonly/generate.pl nor PG_UUIDX_SQL_ONLY'
  unless sql_only_dir();
note('SQL build from ' . sql_only_dir());

my $sql_path = server_copy('sql');
my $sqlnode = node_on('sqlbuild', $sql_path);
my $cnode = node_on('cbuild');
is($sqlnode->safe_psql('postgres', 'CREATE EXTENSION pg_uuidx; ' . build_of() . '; DROP EXTENSION pg_uuidx'),
	'sql', 'the SQL build has no function in C');

# a database built on $node's pg_uuidx
my $build = sub {
	my ($node, $db) = @_;
	$node->safe_psql('postgres', "CREATE DATABASE $db");
	$node->safe_psql('postgres', 'CREATE ROLE app_reader') unless
	  $node->safe_psql('postgres', q{SELECT count(*) FROM pg_roles WHERE rolname = 'app_reader'});
	$node->safe_psql($db, 'CREATE EXTENSION pg_uuidx; ' . app_schema());
};
my $build_is = sub {
	my ($node, $db, $want, $name) = @_;
	is($node->safe_psql($db, 'SELECT pg_uuidx_build()'), $want, $name);
};

# SQL build -> C build
$build->($sqlnode, 'from_sql');
$build_is->($sqlnode, 'from_sql', 'sql', 'sql -> c: the source says pg_uuidx_build() = sql');
move_database(from => $sqlnode, to => $cnode, db => 'from_sql', label => 'sql -> c', lang => 'c');
$build_is->($cnode, 'from_sql', 'c', 'sql -> c: the restored database says pg_uuidx_build() = c');

# C build -> SQL build
$build->($cnode, 'from_c');
move_database(from => $cnode, to => $sqlnode, db => 'from_c', label => 'c -> sql', lang => 'sql');
$build_is->($sqlnode, 'from_c', 'sql', 'c -> sql: the restored database says pg_uuidx_build() = sql');

# In place: the server's files switched from the SQL build to the C build
# (stopped, files replaced, started); the database made on the SQL build
# keeps its SQL functions and works; a dump of it restored into a new
# database of the same server is on the C build, and takes its name.
$build->($sqlnode, 'inplace');
$sqlnode->stop;
set_build($sql_path, 'c');
$sqlnode->start;
is($sqlnode->safe_psql('inplace', build_of()), 'sql',
	'in place: after the switch of files the database still has the SQL functions');
sql_ok($sqlnode, 'inplace', q{INSERT INTO app.t (note) VALUES ('after the switch of files') RETURNING
	uuid_extract_version(id) = 7}, 'in place: ... and they still make ids');
$sqlnode->safe_psql('inplace', q{DELETE FROM app.t WHERE note = 'after the switch of files'});
move_database(from => $sqlnode, to => $sqlnode, db => 'inplace', label => 'in place', lang => 'c',
	prepare => sub {
		$sqlnode->safe_psql('postgres', 'ALTER DATABASE inplace RENAME TO inplace_sql; CREATE DATABASE inplace');
	},
	source_after => 'inplace_sql');
done_testing();
