# A session that still runs 1.5's library after the update to 1.6 without
# a restart must not read with 1.5's pg_uuidx_read_after().
#
# 1.5's reader reads up to the live horizon, also where a subscription
# writes the table, and ignores from_tick; 1.6's reads such a table up to
# the publisher's tick.  From PostgreSQL 17 on nothing needs preloading, so
# sessions that loaded 1.5's library keep it after "make install" and ALTER
# EXTENSION pg_uuidx UPDATE; had 1.6's SQL function the C name of 1.5's, such
# a session would call 1.5's code and read past the tick, silently.  1.6's
# SQL function names a C function that 1.5's library lacks, so such a
# session gets an error (42883, the function is not in the library it has
# loaded) until it reconnects.
#
# 1.5's library is built from git (PgUuidxBuilds' release_build: the tag
# v1.5.0, or its commit; outside a git checkout the test skips) and installed
# into a copy of the server, CREATE EXTENSION pg_uuidx VERSION '1.5', a
# session loads its library; then this build's files are installed over it
# with install(1) (new inodes: the session keeps 1.5's library mapped) and
# the extension is updated in another session.  Checked: the old session's
# call of pg_uuidx_read_after() fails to find its C function in the library
# it has, and a new session reads.  On 15 and 16 the library is preloaded in
# practice (the horizon needs it), and then every backend has the
# postmaster's library: the update to 1.6 cannot even be made before a
# restart (its new C functions are missing there: test/t/105_upgrade_no_restart.pl).
# The same old session is made there without preloading, which is the only
# way to have it; its reads of the horizon fail with 55000 either way.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use PgUuidxBuilds;
use PgUuidxTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# the last commit of 1.5, for clones that have no tags
my ($old_dir, $old_from) = release_build('1.5', 'v1.5.0', '37502307d37cf7a8d7d16ae588b88a12ffb56b43');
plan skip_all => "1.5 cannot be built from git: $old_from" unless $old_dir;

chomp(my $version = `pg_config --version`);
my ($major) = $version =~ /(\d+)/;
chomp(my $pkglibdir = `pg_config --pkglibdir`);
chomp(my $sharedir = `pg_config --sharedir`);

# the library and the control file and scripts of a build into the server
# copy at $path, as "make install" puts them: install(1), a new inode each
sub install_build
{
	my ($path, $lib, @share) = @_;
	system('install', '-m', '644', @share, server_dir($path, 'sharedir') . '/extension/') == 0
	  or die 'install of the control file and scripts failed';
	system('install', '-m', '755', $lib, server_dir($path, 'pkglibdir') . '/pg_uuidx.so') == 0
	  or die "install of $lib failed";
	return;
}

my $path = server_copy('none');
install_build($path, "$old_dir/pg_uuidx.so", glob("$old_dir/pg_uuidx.control $old_dir/pg_uuidx--*.sql"));
my $node = node_on('old_library', $path);
$node->safe_psql('postgres', q{
CREATE EXTENSION pg_uuidx VERSION '1.5';
CREATE TABLE ob (id uuid PRIMARY KEY DEFAULT uuidv7());
INSERT INTO ob SELECT FROM generate_series(1, 3);
CREATE FUNCTION try(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN EXECUTE q; RETURN 'ok'; EXCEPTION WHEN OTHERS THEN RETURN SQLSTATE || ' ' || SQLERRM; END $$;
});
my $old = $node->background_psql('postgres');
like($old->query_safe('SELECT uuidv7()'), qr/^[0-9a-f-]{36}$/, 'a session loads 1.5\'s library');

install_build($path, "$pkglibdir/pg_uuidx.so",
	glob("$sharedir/extension/pg_uuidx.control $sharedir/extension/pg_uuidx--*.sql"));
$node->safe_psql('postgres', 'ALTER EXTENSION pg_uuidx UPDATE');
is($node->safe_psql('postgres', q{SELECT extversion = default_version FROM pg_extension
	JOIN pg_available_extensions ON name = extname WHERE extname = 'pg_uuidx'}), 't',
	'ALTER EXTENSION pg_uuidx UPDATE in another session, without a restart');
# the guard without which the updated reader reads no table
$node->safe_psql('postgres', q{SELECT pg_uuidx_add_guard('ob')});
my $symbol = $node->safe_psql('postgres', q{SELECT prosrc FROM pg_proc
	WHERE oid = 'pg_uuidx_read_after(anyelement, uuid, integer, name, integer, boolean)'::regprocedure});
note("1.6's pg_uuidx_read_after() is the C function $symbol");

like($old->query_safe(q{SELECT try('SELECT count(*) FROM pg_uuidx_read_after(NULL::ob, NULL, 10)')}),
	qr/^42883 could not find function "\Q$symbol\E" in file /,
	'the session with 1.5\'s library gets 42883 from pg_uuidx_read_after(), its C function is not in that library');
like($old->query_safe(q{SELECT try('SELECT count(*) FROM pg_uuidx_read_after(NULL::ob, NULL, 10, from_tick => false)')}),
	qr/^42883 /, 'with from_tick too');
$old->quit;

if ($major >= 17)
{
	# the horizon trails the clock by pg_uuidx.horizon_allowance (1 s)
	ok($node->poll_query_until('postgres', 'SELECT count(*) = 3 FROM pg_uuidx_read_after(NULL::ob, NULL, 10)'),
		'a new session reads with 1.6\'s');
}
else
{
	like($node->safe_psql('postgres', q{SELECT try('SELECT count(*) FROM pg_uuidx_read_after(NULL::ob, NULL, 10)')}),
		qr/^55000 .* needs pg_uuidx in shared_preload_libraries/,
		"$major: a new session finds 1.6's reader, which needs the preloaded library");
}

done_testing();
