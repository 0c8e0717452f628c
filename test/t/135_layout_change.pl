# A library whose shared state has another layout, installed over a running
# server (PostgreSQL 17 and later, where nothing is preloaded and each
# session loads the file installed when it first needs the library): ids
# keep coming in every session, and no reader misses a row.
#
# The variant is this checkout built with -DPG_UUIDX_TEST_LAYOUT=99 (a field
# more in the shared struct, layout 99, its state under the name
# pg_uuidx_horizon_99).  An old session, with this build's library loaded,
# holds a transaction open with a row in it; the variant is installed with
# install(1) (a new inode: the old session keeps its library mapped) and
# ALTER EXTENSION pg_uuidx UPDATE runs.  Checked: a new session inserts with
# DEFAULT uuidv7() and its guard lets a fresh id in; its horizon stays below
# the old session's open row (held at its lowest: the old library publishes
# to a state the new one does not see); the old session still makes ids and
# inserts them where no guard fires (t's guard, without which t is not
# read, does not fire under session_replication_role = replica), but its
# horizon and its guard are refused (55000: the new library's sessions are
# invisible to it); a reader in a new session reads
# every row once, in order, the old open one after its commit.  Then this
# build's file is installed again: the variant's session is refused in turn
# once a session of it has used the library, and a new session holds the
# horizon below the variant session's open row.
#
# PG_UUIDX_TEST_LAYOUT_SAME_NAME=1 builds the variant with the name of this
# build's state, as 1.5 named it whatever the layout: new sessions then fail
# to insert (the registry of named shared memory refuses another size), and
# this test fails.
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

chomp(my $version = `pg_config --version`);
my ($major) = $version =~ /(\d+)/;
plan skip_all => "PostgreSQL $major: before 17 the shared state needs the library preloaded, "
  . 'and every session runs the postmaster\'s copy of it'
  if $major < 17;

my $same_name = $ENV{PG_UUIDX_TEST_LAYOUT_SAME_NAME} ? 1 : 0;
note('PG_UUIDX_TEST_LAYOUT_SAME_NAME=1: the variant keeps the name of this build\'s state; new sessions must fail')
  if $same_name;
my $variant = variant_build($same_name ? 'layout-99-same-name' : 'layout-99',
	'-DPG_UUIDX_TEST_LAYOUT=99', $same_name ? '-DPG_UUIDX_TEST_LAYOUT_SAME_NAME' : ());
plan skip_all => 'not a git checkout: the variant cannot be built' unless $variant;
chomp(my $pkglibdir = `pg_config --pkglibdir`);

my $path = server_copy('c');
my $node = node_on('layout', $path);
$node->safe_psql('postgres', q{
CREATE EXTENSION pg_uuidx;
CREATE TABLE t (id uuid PRIMARY KEY DEFAULT uuidv7(), who text);
SELECT pg_uuidx_add_guard('t');
CREATE TABLE g (id uuid PRIMARY KEY, who text);
CREATE TRIGGER g_guard BEFORE INSERT OR UPDATE ON g
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard('id', '7');
CREATE FUNCTION try(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN EXECUTE q; RETURN 'ok'; EXCEPTION WHEN OTHERS THEN RETURN SQLSTATE || ' ' || SQLERRM; END $$;
INSERT INTO t (who) VALUES ('before');
});

# install(1): a new inode, so that sessions that loaded the old file keep it
sub install_library
{
	my ($lib) = @_;
	system('install', '-m', '755', $lib, server_dir($path, 'pkglibdir') . '/pg_uuidx.so') == 0
	  or die "install of $lib failed";
	return;
}

# a session that loads the installed library and holds a transaction open
# with a row of t in it: (the session, the row's id)
sub open_session
{
	my ($who) = @_;
	my $s = $node->background_psql('postgres');
	is($s->query_safe(qq{SELECT try('INSERT INTO g VALUES (uuidv7(), ''$who'')')}), 'ok',
		"$who: its guard lets a fresh id in");
	$s->query_safe('BEGIN');
	my $id = $s->query_safe(qq{INSERT INTO t (who) VALUES ('$who, open') RETURNING id});
	return ($s, $id);
}

my ($old, $old_open) = open_session('old');

install_library("$variant/pg_uuidx.so");
$node->safe_psql('postgres', 'ALTER EXTENSION pg_uuidx UPDATE');

my ($rc, $out, $err) = $node->psql('postgres', q{INSERT INTO t (who) VALUES ('new') RETURNING id});
is($rc, 0, 'a new session, with the library of the other layout, inserts with DEFAULT uuidv7()')
  or diag($err);
my ($new, $new_open) = open_session('new');
is($node->safe_psql('postgres', qq{SELECT uuidv7_horizon() < '$old_open'::uuid}), 't',
	'a new session\'s horizon is held below the old session\'s open row');
# a reader in a new session: all it reads now is below that row
my $cursor = $node->safe_psql('postgres', q{SELECT max(id) FROM pg_uuidx_read_after(NULL::t, NULL, 100)});
ok($cursor eq '' || $cursor lt $old_open, 'the reader\'s position stays below the old open row');

like($old->query_safe(q{SELECT try('SELECT uuidv7_horizon()')}),
	qr/^55000 uuidv7_horizon\(\) cannot be used in this session: a newer pg_uuidx library is in use/,
	'the old session\'s horizon is refused (55000)');
like($old->query_safe(q{SELECT try('INSERT INTO g VALUES (uuidv7(), ''old, late'')')}),
	qr/^55000 pg_uuidx_horizon_guard\(\) cannot be used in this session/,
	'the old session\'s guard is refused (55000)');
# t's guard would be refused as g's is: the row is written where it does not
# fire, so that only the old session's uuidv7() holds the new sessions'
# horizon for it
is($old->query_safe(q{SET session_replication_role = replica;
	SELECT try('INSERT INTO t (who) VALUES (''old, after'')')}), 'ok',
	'the old session still inserts with DEFAULT uuidv7()');
$old->query_safe('COMMIT');
$old->quit;

# back to this build's library: the variant's session is the old one now
install_library("$pkglibdir/pg_uuidx.so");
is($node->safe_psql('postgres', qq{SELECT try('INSERT INTO t (who) VALUES (''newest'')')}), 'ok',
	'after this build is installed again, a new session of it inserts');
like($new->query_safe(q{SELECT try('SELECT uuidv7_horizon()')}), qr/^55000 uuidv7_horizon\(\) cannot be used/,
	'... and the variant\'s session is refused in turn');
is($node->safe_psql('postgres', qq{SELECT uuidv7_horizon() < '$new_open'::uuid}), 't',
	'... and holds its horizon below the variant session\'s open row');
$new->query_safe('COMMIT');
$new->quit;

# every row once, in order, the late ones included
ok($node->poll_query_until('postgres', qq{SELECT count(*) = 6 FROM pg_uuidx_read_after(NULL::t, NULL, 100)}),
	'a reader reads all 6 rows of t once the sessions have committed');
is($node->safe_psql('postgres', q{SELECT count(*) FROM pg_uuidx_read_after(NULL::t, NULL, 100)}),
	$node->safe_psql('postgres', 'SELECT count(DISTINCT id) FROM t'), 'none twice');
ok($node->poll_query_until('postgres', ($cursor eq '' ? q{SELECT count(*) = 6 FROM pg_uuidx_read_after(NULL::t, NULL, 100)}
	: qq{SELECT count(*) = 5 FROM pg_uuidx_read_after(NULL::t, '$cursor', 100)})),
	'the reader at its earlier position reads the rows committed since, the old open one included');

$node->stop;
done_testing();
