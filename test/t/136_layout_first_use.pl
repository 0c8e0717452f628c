# A session that loaded the library before a library of another layout was
# installed over the running server (PostgreSQL 17 and later), and makes its
# first id only after that library's sessions have used their state: its
# library is the older one, and it must count as such.
#
# The variant is the one of 135_layout_change.pl (-DPG_UUIDX_TEST_LAYOUT=99).
# Nothing uses the shared state before the install.  The old session loads
# this build's library with uuidv4(), which uses no state; the variant is
# installed; a session of it holds a transaction open with a row in t.
# Checked while that session's transaction is open: a pg_stat_activity
# snapshot it took stays as it was across its uuidv7_horizon() (the horizon
# reads the backends' status for the sessions that may run another
# library).  Then the old session makes its first id, in a transaction it
# keeps open.  Checked: a new session of the variant, and the variant's
# session from before, still get their horizon (not 55000), held below both
# open ids; the variant's guard still lets ids in; the old session is
# refused the horizon and the guard (55000), as in 135; a reader reads every
# row of t once, in order.
#
# A library that registered its layout at its first use instead of at its
# load appended the older layout after the variant's here: every session of
# the variant was refused until a new one registered again, and the old
# session computed a horizon from a state that sees none of the variant's
# sessions, above the open row.
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

my $variant = variant_build('layout-99', '-DPG_UUIDX_TEST_LAYOUT=99');
plan skip_all => 'not a git checkout: the variant cannot be built' unless $variant;

my $path = server_copy('c');
# allowance 0: a horizon not held is the clock, above every id made before
my $node = node_on('first_use', $path, 'pg_uuidx.horizon_allowance = 0');
# nothing here makes an id: the state is first used after the install
$node->safe_psql('postgres', q{
CREATE EXTENSION pg_uuidx;
CREATE TABLE t (id uuid PRIMARY KEY DEFAULT uuidv7(), who text);
CREATE TRIGGER zz_guard BEFORE INSERT OR UPDATE ON t
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard('id', '7', '0');
CREATE TABLE u (id uuid, who text);
CREATE FUNCTION try(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN EXECUTE q; RETURN 'ok'; EXCEPTION WHEN OTHERS THEN RETURN SQLSTATE || ' ' || SQLERRM; END $$;
});

# the old session: this build's library, loaded by a function that uses no state
my $old = $node->background_psql('postgres');
is($old->query_safe('SELECT uuid_extract_version(uuidv4())'), '4', 'the old session loads the library');
my $old_pid = $old->query_safe('SELECT pg_backend_pid()');
is($node->safe_psql('postgres', "SELECT query LIKE 'SELECT pg_backend_pid()%' FROM pg_stat_activity WHERE pid = $old_pid"),
	't', 'pg_stat_activity shows the old session\'s last query');

# install(1): a new inode, so that the old session keeps its library mapped
system('install', '-m', '755', "$variant/pg_uuidx.so", server_dir($path, 'pkglibdir') . '/pg_uuidx.so') == 0
  or die "install of the variant failed";
# the variant's sessions start after its file counts as installed (its
# change time, rounded up to the next second), as they would some time after
# a real install
sleep(2);

my $new = $node->background_psql('postgres');
is($new->query_safe(q{SELECT try('INSERT INTO t (who) VALUES (''new'')')}), 'ok',
	'a session of the variant inserts through the guard');
$new->query_safe('BEGIN');
my $new_open = $new->query_safe(q{INSERT INTO t (who) VALUES ('new, open') RETURNING id});

# the horizon reads the old session's status (it may run another library)
# without throwing away the snapshot of the caller's transaction
$new->query_safe('SET LOCAL stats_fetch_consistency = snapshot');
my $seen = $new->query_safe("SELECT query FROM pg_stat_activity WHERE pid = $old_pid");
$old->query_safe(q{SELECT 'the old session moved on'});
is($node->safe_psql('postgres', "SELECT query LIKE '%moved on%' FROM pg_stat_activity WHERE pid = $old_pid"),
	't', 'a new transaction sees the old session\'s newer query');
like($seen, qr/pg_backend_pid/, 'the variant\'s session took its snapshot before');
is($new->query_safe(q{SELECT try('SELECT uuidv7_horizon()')}), 'ok', 'the variant\'s session gets a horizon');
is($new->query_safe("SELECT query FROM pg_stat_activity WHERE pid = $old_pid"), $seen,
	'... and its transaction\'s pg_stat_activity snapshot is the one it took before');

# the old session's first id, after the variant's sessions used their state
$old->query_safe('BEGIN');
my $old_open = $old->query_safe(q{INSERT INTO u VALUES (uuidv7(), 'old, open') RETURNING id});

# before any new session loads a library: the variant's session, then the old one
is($new->query_safe(q{SELECT try('SELECT uuidv7_horizon()')}), 'ok',
	'after the old session\'s first id, the variant\'s session still gets a horizon');
is($new->query_safe(q{SELECT try('INSERT INTO t (who) VALUES (''new, late'')')}), 'ok',
	'... and its guard still lets fresh ids in');
like($old->query_safe(q{SELECT try('SELECT uuidv7_horizon()')}),
	qr/^55000 uuidv7_horizon\(\) cannot be used in this session: a newer pg_uuidx library is in use/,
	'the old session is refused the horizon (55000)')
  or diag('the old session\'s horizon above the open row of the variant\'s session: '
	  . $old->query_safe(qq{SELECT uuidv7_horizon() > '$new_open'::uuid}));
like($old->query_safe(q{SELECT try('INSERT INTO t (who) VALUES (''old, late'')')}),
	qr/^55000 pg_uuidx_horizon_guard\(\) cannot be used in this session/, 'the old session\'s guard is refused (55000)');

my ($rc, $out, $err) = $node->psql('postgres',
	qq{SELECT uuidv7_horizon() < '$new_open'::uuid AND uuidv7_horizon() < '$old_open'::uuid});
is($rc, 0, 'a new session of the variant gets a horizon') or diag($err);
is($out, 't', '... held below the open rows of both sessions');

$new->query_safe('COMMIT');
$new->quit;
$old->query_safe('COMMIT');
$old->quit;

is($node->safe_psql('postgres', q{SELECT count(*) FROM pg_uuidx_read_after(NULL::t, NULL, 100)}), '3',
	'a reader reads the 3 rows of t once the sessions have committed');
is($node->safe_psql('postgres', q{SELECT count(DISTINCT id) = 3 AND bool_and(who LIKE 'new%') FROM t}), 't',
	'... each once, all the variant\'s');

$node->stop;
done_testing();
