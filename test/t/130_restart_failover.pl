# Restarts, crashes, failover and two-phase commit: the commit horizon's
# promise, "no committed row below a reader's position goes unread", after
# the server lost its shared memory.
#
# - Restarts: an id refused (40001) before a restart is refused after it too:
#   a fast stop, an immediate stop and a backend killed with SIGKILL (crash
#   restart) each forget the floors, and each database's floor is made again
#   at the clock of the server's first use of its state.
# - Promotion: a standby whose clock is 5 s behind the primary's (the test
#   clock) is promoted: its new ids sort after everything its readers read
#   up to the primary's newest tick.
# - An in-doubt prepared transaction: a transaction prepared on the primary (its id from uuidv7())
#   is in doubt at the failover, and a session called uuidv7() on the
#   standby before: the promoted server holds its horizon at the lowest
#   until COMMIT PREPARED, and the reader then reads the row.
# - A worker's id: a transaction whose only id a parallel worker made (a PARALLEL
#   SAFE wrapper), in a session that never used pg_uuidx, holds the horizon
#   once prepared.  Without the preloaded library (17+) that is the case
#   that failed; on 15 and 16 the library is preloaded into every session.
#   Its row goes into a guarded table (readers read no other) where the
#   guard does not fire (session_replication_role = replica, as logical
#   replication's apply writes): the guard would hold the horizon itself.
# - Floors per database: each database has its own floor: a reader of
#   another database's table whose guard allows nothing does not make this
#   database's guard refuse an id within its own allowance (200 ms).
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

my @conf = ('max_prepared_transactions = 5', "pg_uuidx.horizon_allowance = '200ms'",
	'restart_after_crash = on', 'wal_level = replica', 'max_wal_senders = 5');
my $primary = new_node('primary', conf => \@conf);
my $major = int($primary->safe_psql('postgres', 'SHOW server_version_num') / 10000);
if ($major < 17)
{
	$primary->append_conf('postgresql.conf', "shared_preload_libraries = 'pg_uuidx'\n");
	$primary->restart;
}
my $schema = q{
CREATE EXTENSION pg_uuidx;
CREATE TABLE t (id uuid PRIMARY KEY DEFAULT uuidv7(), n int);
CREATE TRIGGER zz_guard BEFORE INSERT OR UPDATE ON t FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
CREATE TABLE plain (id uuid PRIMARY KEY, n int);
SELECT pg_uuidx_add_guard('plain');
CREATE FUNCTION wrapped_uuidv7() RETURNS uuid LANGUAGE sql PARALLEL SAFE AS 'SELECT uuidv7()';
CREATE FUNCTION try(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN EXECUTE q; RETURN 'ok'; EXCEPTION WHEN OTHERS THEN RETURN SQLSTATE; END $$;
};
$primary->safe_psql('postgres', $schema);

# Restarts: an id 10 s old, refused once a horizon has been handed out, stays
# refused after each way of losing shared memory
sub insert_old
{
	my ($node, $id) = @_;
	return $node->safe_psql('postgres', qq{SELECT try('INSERT INTO t (id, n) VALUES (''$id'', 1)')});
}
for my $how ('fast', 'immediate', 'kill9')
{
	my $old = $primary->safe_psql('postgres', q{SELECT uuidv7(interval '-10 s')});
	$primary->safe_psql('postgres', 'SELECT uuidv7_horizon()');
	is(insert_old($primary, $old), '40001', "$how: an id 10 s old is refused before");
	if ($how eq 'kill9')
	{
		my $bg = $primary->background_psql('postgres', on_error_stop => 0);
		my $pid = $bg->query_safe('SELECT pg_backend_pid()');
		my $offset = -s $primary->logfile;
		kill 'KILL', $pid;
		$primary->wait_for_log(qr/database system is ready to accept connections/, $offset);
		eval { $bg->quit };
	}
	else
	{
		$primary->stop($how);
		start_with_env($primary);
	}
	is(insert_old($primary, $old), '40001', "$how: the same id is refused right after the restart");
	is($primary->safe_psql('postgres', 'SELECT try($$INSERT INTO t (n) VALUES (2)$$)'), 'ok',
		"$how: a new id is taken");
}

# Floors per database: database other reads a table whose guard allows
# nothing (the id below is made after the floor that the restart above made)
sleep(3);
$primary->safe_psql('postgres', 'CREATE DATABASE other');
$primary->safe_psql('other', q{
CREATE EXTENSION pg_uuidx;
CREATE TABLE strict_t (id uuid PRIMARY KEY);
CREATE TRIGGER guard BEFORE INSERT OR UPDATE ON strict_t
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard('id', '7', '0');});
$primary->safe_psql('postgres', 'SELECT uuidv7_horizon()');
$primary->safe_psql('other', 'SELECT count(*) FROM pg_uuidx_read_after(NULL::strict_t, NULL, 1)');
is($primary->safe_psql('postgres', q{SELECT try($$INSERT INTO t (id, n) VALUES (uuidv7(interval '-150 ms'), 1)$$)}), 'ok',
	'an id 150 ms old is within this database\'s 200 ms allowance, whatever another database read');

# Promotion and an in-doubt prepared transaction: a standby whose clock is 5 s behind
$primary->backup('b');
my $clock = clock_shim();
set_clock($clock, 1, -5, 0);
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'b', has_streaming => 1);
start_with_env($standby, $clock->{env});
# a session of the standby makes an id before the transaction below is
# prepared on the primary
$standby->safe_psql('postgres', 'SELECT uuidv7()');
$primary->safe_psql('postgres', 'INSERT INTO t (n) SELECT 3 FROM generate_series(1, 20)');
# past the allowance, so that the tick is above the rows
sleep(1);
$primary->safe_psql('postgres', 'SELECT pg_uuidx_tick()');
$primary->wait_for_catchup($standby);
my $last = $standby->safe_psql('postgres', 'SELECT max(id) FROM pg_uuidx_read_after(NULL::t, NULL, 1000)');
ok($last ne '', "the standby's reader read up to the tick: $last");

# an in-doubt prepared transaction, and uuidv7() called on the standby
$primary->safe_psql('postgres', q{BEGIN; INSERT INTO t (n) VALUES (4); PREPARE TRANSACTION 'in_doubt'});
$primary->safe_psql('postgres', 'SELECT pg_uuidx_tick()');
$primary->wait_for_catchup($standby);
$primary->stop('immediate');
$standby->promote;

sql_ok($standby, 'postgres', qq{SELECT uuidv7() > '$last', uuidv7()},
	'the promoted server, its clock 5 s behind, makes ids above what its readers read');
$standby->safe_psql('postgres', 'INSERT INTO t (n) VALUES (5)');
sql_ok($standby, 'postgres', qq{SELECT min(id) > '$last' FROM t WHERE n = 5},
	'a row inserted after the promotion sorts above the reader\'s position');
sql_ok($standby, 'postgres',
	q{SELECT count(*) = 1 AND bool_and(holds_since IS NULL) FROM pg_uuidx_horizon_holders() WHERE prepared_xid IS NOT NULL},
	'the in-doubt prepared transaction holds the horizon at its lowest');
my $read = $standby->safe_psql('postgres',
	qq{SELECT count(*) FILTER (WHERE n = 4) || ' ' || coalesce(max(id)::text, '$last')
	   FROM pg_uuidx_read_after(NULL::t, '$last', 1000, from_tick => false)});
my ($seen4, $pos) = split / /, $read;
is($seen4, '0', 'the reader does not pass the prepared row');
$standby->safe_psql('postgres', q{COMMIT PREPARED 'in_doubt'});
# the horizon reaches the row once this server's clock, 5 s behind, passes it
ok( $standby->poll_query_until('postgres',
		qq{SELECT count(*) = 1 FROM pg_uuidx_read_after(NULL::t, '$pos', 1000, from_tick => false) WHERE n = 4}),
	'after COMMIT PREPARED the reader reads its row');

# A prepared transaction whose only id a parallel worker made, in a session that never used pg_uuidx
my $node = $standby;
my $session = $node->background_psql('postgres', on_error_stop => 1);
$session->query_safe(q{SET max_parallel_workers_per_gather = 2});
$session->query_safe($major >= 16 ? 'SET debug_parallel_query = on' : 'SET force_parallel_mode = on');
$session->query_safe('BEGIN');
my $wid = $session->query_safe('SELECT wrapped_uuidv7()');
# the worker's id alone holds the horizon: the guard of plain does not fire
$session->query_safe('SET LOCAL session_replication_role = replica');
$session->query_safe(qq{INSERT INTO plain VALUES ('$wid', 6)});
$session->query_safe(q{PREPARE TRANSACTION 'worker_only'});
$session->quit;
# past the allowance: a horizon not held would be above the id by now
sleep(1);
sql_ok($node, 'postgres', qq{SELECT uuidv7_horizon() <= '$wid', uuidv7_horizon()},
	'a prepared transaction whose only id a worker made holds the horizon');
my $before = $node->safe_psql('postgres',
	q{SELECT count(*) FROM pg_uuidx_read_after(NULL::plain, NULL, 1000, from_tick => false)});
is($before, '0', 'the reader does not pass its row');
$node->safe_psql('postgres', q{COMMIT PREPARED 'worker_only'});
ok( $node->poll_query_until('postgres',
		q{SELECT count(*) = 1 FROM pg_uuidx_read_after(NULL::plain, NULL, 1000, from_tick => false)}),
	'after COMMIT PREPARED the reader reads it');
$node->stop;
done_testing();
