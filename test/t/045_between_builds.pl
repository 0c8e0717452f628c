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
#   c -> sql    the reverse, onto the SQL build, with a consumer's
#               position stored (pg_uuidx_consumer_positions, a
#               configuration table whose rows pg_dump writes): the SQL
#               build has that table as the C build has it, and the
#               position is restored into it
#   c -> sql -> c  that database back onto the C build: the position is
#               there, and pg_uuidx_consume() goes on from it
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
# preloaded, so that pg_uuidx_consume() has the commit horizon on 15 and 16
my $cnode = node_on('cbuild', undef, "shared_preload_libraries = 'pg_uuidx'");
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

# C build -> SQL build, a consumer's position stored: relay has read
# app.t up to its 10th row
$build->($cnode, 'from_c');
my $positions = q{SELECT format('%s %s %s %s %s', relid, consumer, last_id, role, moved_at) FROM pg_uuidx_consumer_positions};
my $tenth = $cnode->safe_psql('from_c', 'SELECT id FROM app.t ORDER BY id OFFSET 9 LIMIT 1');
$cnode->safe_psql('from_c', qq{SELECT pg_uuidx_consumer_reset('app.t', 'relay', '$tenth')});
my $stored = $cnode->safe_psql('from_c', $positions);
like($stored, qr/^app\.t relay \Q$tenth\E \S+ \d{4}-/, "c -> sql: the source has relay's position at app.t's 10th row");
move_database(from => $cnode, to => $sqlnode, db => 'from_c', label => 'c -> sql', lang => 'sql');
$build_is->($sqlnode, 'from_c', 'sql', 'c -> sql: the restored database says pg_uuidx_build() = sql');
my $positions_table = table_definition(extension_relation('pg_uuidx_consumer_positions'), extension => 1);
is($sqlnode->safe_psql('from_c', $positions_table), $cnode->safe_psql('from_c', $positions_table),
	'c -> sql: pg_uuidx_consumer_positions as in the C build: columns, constraints, index, comment, owner, '
	  . 'privileges, dumped by the same condition');
is($sqlnode->safe_psql('from_c', $positions), $stored, "c -> sql: relay's position restored into the SQL build");

# ... and back onto the C build: the position, and the next row after it
# (the rows the check above added taken out again, its materialized view
# brought up to date, as a restore makes it)
$sqlnode->safe_psql('from_c', q{DELETE FROM app.t WHERE note LIKE 'after %'; DELETE FROM app.by_id WHERE v > 1000;
	REFRESH MATERIALIZED VIEW app.made});
move_database(from => $sqlnode, to => $cnode, db => 'from_c', to_db => 'from_c_back', label => 'c -> sql -> c',
	lang => 'c');
is($cnode->safe_psql('from_c_back', $positions), $stored, "c -> sql -> c: relay's position restored");
# (the guard, which the SQL build does not have, added on the C build: a
# reader reads only a guarded table)
$cnode->safe_psql('from_c_back', q{SELECT pg_uuidx_add_guard('app.t')});
is($cnode->safe_psql('from_c_back', q{SELECT id FROM pg_uuidx_consume(NULL::app.t, 'relay', 1)}),
	$cnode->safe_psql('from_c', qq{SELECT id FROM app.t WHERE id > '$tenth' ORDER BY id LIMIT 1}),
	"c -> sql -> c: pg_uuidx_consume() reads on after it: app.t's 11th row");

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
