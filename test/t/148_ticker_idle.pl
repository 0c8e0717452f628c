# The ticker on an idle server: a tick only when a row could be read on a
# replica that the newest tick does not let through, so that an idle
# database costs no transaction id and no WAL, while a reader on a standby
# still gets every row within a tick of its commit.
#
# Checked: a minute of an idle primary with the ticker on spends at most one
# transaction id and writes no WAL record on the tick table, and no commit
# record (pg_waldump over the minute's WAL); then, the ticker idle before
# each, a reader on the standby reads within 2 s of its commit: a row
# inserted and committed at once; a row of a transaction that made its id
# before ticks that it held back, and committed after them (a ticker that
# ticks only when something was published since its last tick misses it); a
# row whose id the client made 2 s ahead of the clock (read once the
# horizon passes it, within 2 s of that time); a prepared transaction's row,
# committed a second after its PREPARE; every row once, in order; and the
# ticker idle again afterwards (5 s without a tick); the health query of
# docs/reading-in-order.md quiet on the standby, and firing for a row
# written 5.5 s after the ticker was turned off.
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

# autovacuum off and checkpoints an hour apart: no other process needs a
# transaction id, and little else writes WAL, while the server is idle
my $primary = new_node('primary', conf => [ "shared_preload_libraries = 'pg_uuidx'",
	"pg_uuidx.tick_databases = 'postgres'", "pg_uuidx.tick_interval = '100ms'",
	"pg_uuidx.horizon_allowance = '100ms'", 'autovacuum = off', "checkpoint_timeout = '1h'",
	'wal_level = replica', 'max_wal_senders = 4', 'max_prepared_transactions = 2' ]);
$primary->safe_psql('postgres', q{
CREATE EXTENSION pg_uuidx;
CREATE TABLE t (id uuid PRIMARY KEY DEFAULT uuidv7(), note text);
CREATE TRIGGER zz_guard BEFORE INSERT OR UPDATE ON t FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard('id', '7', '0');
});
$primary->backup('b');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'b', has_streaming => 1);
start_with_env($standby);
$primary->poll_query_until('postgres', 'SELECT count(*) = 1 FROM pg_uuidx_last_tick') or die 'no first tick';

# the next transaction id and the WAL's end, without taking an id
my $now_q = 'SELECT pg_snapshot_xmax(pg_current_snapshot()), pg_current_wal_lsn()';
my $tick_file = $primary->safe_psql('postgres', q{SELECT format('%s/%s', d.oid, pg_relation_filenode('pg_uuidx_last_tick'))
	FROM pg_database d WHERE datname = current_database()});
my $bindir = $primary->config_data('--bindir');

# WAL records from $from to $to: (all, on the tick table, commits)
sub wal_records
{
	my ($from, $to) = @_;
	return (0, 0, 0) if $from eq $to;
	my ($stdout, $stderr);
	IPC::Run::run([ "$bindir/pg_waldump", '-p', $primary->data_dir . '/pg_wal', '-s', $from, '-e', $to ],
		'>', \$stdout, '2>', \$stderr);
	my @records = grep { /^rmgr:/ } split /\n/, $stdout;
	return (scalar(@records), scalar(grep { m{ rel \d+/\Q$tick_file\E\b} } @records),
		scalar(grep { /^rmgr: Transaction .*COMMIT/ } @records));
}

# what the ticker spent over $seconds of an idle server: (xids, WAL bytes,
# WAL records, on the tick table, commits)
sub idle_cost
{
	my ($seconds) = @_;
	my ($xid0, $lsn0) = split /\|/, $primary->safe_psql('postgres', $now_q);
	sleep($seconds);
	my ($xid1, $lsn1) = split /\|/, $primary->safe_psql('postgres', $now_q);
	my $bytes = $primary->safe_psql('postgres', "SELECT pg_wal_lsn_diff('$lsn1', '$lsn0')");
	return ($xid1 - $xid0, $bytes, wal_records($lsn0, $lsn1));
}

# the ticker idle: the last row's ticks are over (allowance and interval)
sleep(2);
my ($xids, $bytes, $records, $on_tick, $commits) = idle_cost(60);
note("a minute idle: $xids transaction ids, $bytes bytes of WAL in $records records, $on_tick on the tick table, "
	  . "$commits commits");
cmp_ok($xids, '<=', 1, "a minute of an idle server with the ticker on: at most one transaction id ($xids)");
is($on_tick, 0, 'no WAL record on the tick table');
is($commits, 0, 'no commit record');

# ---- readers on the standby lose nothing: every row within 2 s of its commit

my $reader = psql_session($standby);
session_query($reader, 'PREPARE next(uuid) AS SELECT id FROM pg_uuidx_read_after(NULL::t, $1, 100)');
my @read;

# seconds until the standby's reader has read the row of id $id (undef: 10 s passed)
sub standby_reads
{
	my ($id) = @_;
	my $t0 = time();
	while (time() < $t0 + 10)
	{
		my $last = @read ? "'$read[-1]'" : 'NULL';
		push @read, grep { $_ ne '' } split /\n/, session_query($reader, "EXECUTE next($last)");
		return time() - $t0 if grep { $_ eq $id } @read;
		sleep(0.02);
	}
	return undef;
}

# the ticker idle before each: the last commit's ticks over
sub idle
{
	sleep(1);
	return;
}

idle();
my $id = $primary->safe_psql('postgres', q{INSERT INTO t (note) VALUES ('at once') RETURNING id});
my $took = standby_reads($id);
ok(defined $took && $took < 2, sprintf('a row committed at once: read on the standby after %s s',
	defined $took ? sprintf('%.2f', $took) : 'more than 10'));

# published before ticks it holds back, committed after them
idle();
my $open = $primary->background_psql('postgres');
$open->query_safe('BEGIN');
$id = $open->query_safe(q{INSERT INTO t (note) VALUES ('held') RETURNING id});
sleep(1.5);
$open->query_safe('COMMIT');
$took = standby_reads($id);
ok(defined $took && $took < 2, sprintf('a row of a transaction open across ticks (1.5 s): read %s s after its commit',
	defined $took ? sprintf('%.2f', $took) : 'more than 10'));

# a client's clock 2 s ahead: read once the horizon passes the id
idle();
$id = $primary->safe_psql('postgres', q{INSERT INTO t (id, note) VALUES (uuidv7(interval '2 s'), 'ahead') RETURNING id});
$took = standby_reads($id);
ok(defined $took && $took > 1.5 && $took < 4, sprintf('a row whose id is 2 s ahead of the clock: read after %s s',
	defined $took ? sprintf('%.2f', $took) : 'more than 10'));

idle();
$open->query_safe('BEGIN');
$id = $open->query_safe(q{INSERT INTO t (note) VALUES ('prepared') RETURNING id});
$open->query_safe(q{PREPARE TRANSACTION 'p'});
sleep(1);
$open->query_safe(q{COMMIT PREPARED 'p'});
$took = standby_reads($id);
ok(defined $took && $took < 2, sprintf('a prepared transaction committed 1 s after its PREPARE: read after %s s',
	defined $took ? sprintf('%.2f', $took) : 'more than 10'));
$open->quit;

my @all = split /\n/, $primary->safe_psql('postgres', 'SELECT id FROM t ORDER BY id');
is(join(',', @read), join(',', @all), 'the standby read every row once, in id order (' . scalar(@all) . ' rows)');
$reader->{in} .= "\\q\n";
$reader->{run}->finish;

# and idle again
sleep(2);
($xids, $bytes, $records, $on_tick, $commits) = idle_cost(5);
ok($xids <= 1 && $on_tick == 0, "idle again afterwards: 5 s, $xids transaction ids, $on_tick WAL records on the tick table");

# the health query of docs/reading-in-order.md, on the standby: quiet while
# the ticker ticks for each row, and it fires for a row written with the
# ticker off
my $stopped = q{SELECT uuid_extract_timestamp_us(o.id) < clock_timestamp() - interval '5 s'
       AND uuid_extract_timestamp_us(o.id) >= coalesce(s.tick_horizon, '-infinity') AS ticks_stopped
FROM (SELECT id FROM t ORDER BY id DESC LIMIT 1) o, pg_uuidx_stats s};
is($standby->safe_psql('postgres', $stopped), 'f', 'the health query on the standby: ticks not stopped');
$primary->safe_psql('postgres', q{ALTER SYSTEM SET pg_uuidx.tick_databases = ''});
$primary->reload;
$primary->poll_query_until('postgres', q{SELECT count(*) = 0 FROM pg_stat_activity WHERE backend_type = 'pg_uuidx ticker'})
  or die 'the worker is still there';
$id = $primary->safe_psql('postgres', q{INSERT INTO t (note) VALUES ('no ticker') RETURNING id});
$primary->wait_for_catchup($standby);
sleep(5.5);
is($standby->safe_psql('postgres', $stopped), 't', 'and with the ticker off, a row written 5.5 s ago: ticks stopped');

$standby->stop;
$primary->stop;
done_testing();
