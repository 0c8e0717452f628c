# The ticker in a database whose owner is not a superuser and may be
# hostile, and whose extension is dropped and created again while it ticks.
#
# Checked: the owner of database app (not a superuser) sets
# default_transaction_read_only = on, lock_timeout = 1ms,
# default_transaction_isolation = serializable and a search_path of its own
# for the database (ALTER DATABASE ... SET): the worker ticks there all the
# same, waits for a tick that pg_uuidx_tick() holds for 0.5 s and then
# ticks, without an error and without being started again; DROP EXTENSION
# pg_uuidx CASCADE and CREATE EXTENSION 20 times while the worker ticks
# every 10 ms: no error ("could not open relation with OID"), the same
# worker all along, the wait logged, and ticks in the table created last.
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
use Time::HiRes qw(time sleep);

my $node = new_node('primary', conf => [ "shared_preload_libraries = 'pg_uuidx'",
	"pg_uuidx.tick_interval = '10ms'", "pg_uuidx.horizon_allowance = '100ms'" ]);

# whether query $sql in database $db returns 't' within $seconds
sub within
{
	my ($seconds, $db, $sql) = @_;
	my $t0 = time();
	while (time() < $t0 + $seconds)
	{
		return 1 if $node->safe_psql($db, $sql) eq 't';
		sleep(0.05);
	}
	return 0;
}

sub worker
{
	my ($db) = @_;
	return $node->safe_psql('postgres', qq{SELECT pid FROM pg_stat_activity
		WHERE backend_type = 'pg_uuidx ticker' AND datname = '$db'});
}

# the lines of the log from $offset that name the ticker or say ERROR/FATAL
sub errors_since
{
	my ($offset) = @_;
	return grep { /ERROR|FATAL/ } split /\n/, substr(slurp_file($node->logfile), $offset);
}

# ---- an owner's settings for the database

$node->safe_psql('postgres', q{CREATE ROLE app_owner LOGIN; CREATE DATABASE app OWNER app_owner});
$node->safe_psql('app', q{
CREATE EXTENSION pg_uuidx;
CREATE TABLE t (id uuid PRIMARY KEY DEFAULT uuidv7());
CREATE SCHEMA mine;
ALTER DATABASE app SET default_transaction_read_only = on;
ALTER DATABASE app SET lock_timeout = '1ms';
ALTER DATABASE app SET default_transaction_isolation = serializable;
ALTER DATABASE app SET search_path = mine, public;
}, extra_params => [ '-U', 'app_owner' ]);
is($node->safe_psql('postgres', q{SELECT rolsuper FROM pg_roles WHERE rolname = 'app_owner'}), 'f',
	'the owner of app is not a superuser');

my $offset = -s $node->logfile;
$node->safe_psql('postgres', q{ALTER SYSTEM SET pg_uuidx.tick_databases = 'app'});
$node->reload;
ok(within(10, 'app', 'SELECT count(*) = 1 FROM pg_uuidx_last_tick'), 'the worker ticks in app');
my $pid = worker('app');

# a row written, then a tick of pg_uuidx_tick() held for 0.5 s: the
# worker's tick for the row waits for it (READ WRITE: the database's default
# is read only for every session)
$node->safe_psql('app', q{
BEGIN ISOLATION LEVEL READ COMMITTED READ WRITE;
INSERT INTO t DEFAULT VALUES;
COMMIT;
BEGIN ISOLATION LEVEL READ COMMITTED READ WRITE;
SELECT pg_uuidx_tick();
SELECT pg_sleep(0.5);
COMMIT;
});
my $since = $node->safe_psql('app', 'SELECT now()');
$node->safe_psql('app', 'BEGIN ISOLATION LEVEL READ COMMITTED READ WRITE; INSERT INTO t DEFAULT VALUES; COMMIT');
ok(within(10, 'app', "SELECT ticked_at > '$since' FROM pg_uuidx_last_tick"), 'and ticks after a tick held 0.5 s');
my @errors = errors_since($offset);
is(scalar(@errors), 0, 'with no error') or diag(join("\n", @errors[ 0 .. ($#errors < 4 ? $#errors : 4) ]));
is(worker('app'), $pid, 'the same worker');

# ---- the extension dropped and created again while the worker ticks

$node->safe_psql('postgres', q{CREATE DATABASE dx});
$node->safe_psql('dx', 'CREATE EXTENSION pg_uuidx');
$node->safe_psql('postgres', q{ALTER SYSTEM SET pg_uuidx.tick_databases = 'dx'});
$node->reload;
ok(within(10, 'dx', 'SELECT count(*) = 1 FROM pg_uuidx_last_tick'), 'the worker ticks in dx');
$pid = worker('dx');
$offset = -s $node->logfile;
$node->safe_psql('dx', join('', map {
	"DROP EXTENSION pg_uuidx CASCADE;\nSELECT pg_sleep(0.03);\nCREATE EXTENSION pg_uuidx;\nSELECT pg_sleep(0.03);\n"
} 1 .. 20));
ok(within(10, 'dx', 'SELECT count(*) = 1 FROM pg_uuidx_last_tick'), 'DROP and CREATE EXTENSION 20 times: ticks in the table made last');
@errors = errors_since($offset);
is(scalar(@errors), 0, 'no error while the extension came and went')
  or diag(join("\n", @errors[ 0 .. ($#errors < 4 ? $#errors : 4) ]));
is(worker('dx'), $pid, 'the same worker all along');
like(substr(slurp_file($node->logfile), $offset), qr/the pg_uuidx ticker of database "dx" waits for the extension pg_uuidx/,
	'which logged its wait for the extension');

$node->stop;
done_testing();
