# The ticker: with pg_uuidx preloaded and pg_uuidx.tick_databases set, a
# background worker records the commit horizon every pg_uuidx.tick_interval,
# so that a reader on a standby keeps up with nothing outside the server.
#
# Checked: the launcher and one worker per named database in
# pg_stat_activity, none on the standby; pgbench writers with late commits on
# the primary while pg_uuidx_read_after() polls on the standby: every
# committed row read once, in id order, and the last row read within a few
# ticks of the writers' end ("id > last" on the standby misses rows, or the
# run tested nothing); the worker started again after pg_terminate_backend()
# and after a crash (SIGKILL: the server restarts), ticking again each time;
# a database without the extension logged and ticked from CREATE EXTENSION
# on; a database taken off the list at a reload no longer ticked; CREATE
# DATABASE ... TEMPLATE and DROP DATABASE of a ticked database not blocked,
# and the launcher's warning for a listed database that does not exist.
#
# PG_UUIDX_TEST_NO_TICKER=1 leaves pg_uuidx.tick_databases empty: the standby
# never gets a tick and the test fails.  The seed is printed (PG_UUIDX_SEED
# replays the writers' choices, not their timing).
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use IPC::Run;
use PgUuidxTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time sleep);

my $seed = $ENV{PG_UUIDX_SEED} || int(rand(2**31));
note("seed $seed (PG_UUIDX_SEED=$seed replays the writers' choices)");
my $databases = $ENV{PG_UUIDX_TEST_NO_TICKER} ? '' : 'postgres';

my $primary = new_node('primary', conf => [ "shared_preload_libraries = 'pg_uuidx'",
	"pg_uuidx.tick_databases = '$databases'", "pg_uuidx.tick_interval = '50ms'",
	"pg_uuidx.horizon_allowance = '100ms'", 'max_connections = 40', 'wal_level = replica', 'max_wal_senders = 10',
	'restart_after_crash = on' ]);
$primary->safe_psql('postgres', q{
CREATE EXTENSION pg_uuidx;
CREATE TABLE data (id uuid PRIMARY KEY DEFAULT uuidv7(), w int NOT NULL, kind text);
SELECT pg_uuidx_add_guard('data');
});
$primary->backup('b');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'b', has_streaming => 1);
start_with_env($standby);

# the ticker's processes, as pg_stat_activity names them
my $processes = q{SELECT coalesce(string_agg(format('%s %s', backend_type, coalesce(datname, '-')), ', '
	ORDER BY backend_type, datname), 'none') FROM pg_stat_activity WHERE backend_type LIKE 'pg_uuidx ticker%'};
$primary->poll_query_until('postgres', "SELECT ($processes) LIKE '%ticker postgres,%'") or die 'no ticker';
is($primary->safe_psql('postgres', $processes), 'pg_uuidx ticker postgres, pg_uuidx ticker launcher -',
	'the launcher, connected to no database, and a worker for postgres');
ok(!$primary->log_contains('FATAL|ERROR'), 'nothing failed on the way');
is($standby->safe_psql('postgres', $processes), 'none', 'no ticker on the standby');
ok($standby->poll_query_until('postgres', 'SELECT count(*) = 1 FROM pg_uuidx_last_tick'),
	'a tick reaches the standby, though nobody called pg_uuidx_tick()');

# ---- a reader on the standby while writers commit late on the primary

my $dir = PostgreSQL::Test::Utils::tempdir();
my %scripts = writer_scripts();
PostgreSQL::Test::Utils::append_to_file("$dir/$_.sql", $scripts{$_}) for qw(short late);
my %reader = (horizon => 'SELECT id FROM pg_uuidx_read_after(NULL::data, $1, 500)',
	'id > last' => 'SELECT id FROM data WHERE $1 IS NULL OR id > $1 ORDER BY id LIMIT 500');
my (%read, %session);
for my $name (keys %reader)
{
	$session{$name} = psql_session($standby);
	session_query($session{$name}, "PREPARE next(uuid) AS $reader{$name}");
	$read{$name} = [];
}
# one poll of each reader; whether the horizon's has read up to $upto
sub poll_all
{
	my ($upto) = @_;
	for my $name (keys %reader)
	{
		my $last = @{ $read{$name} } ? "'$read{$name}[-1]'" : 'NULL';
		push @{ $read{$name} }, grep { $_ ne '' } split /\n/, session_query($session{$name}, "EXECUTE next($last)");
	}
	return defined $upto && @{ $read{horizon} } && $read{horizon}[-1] eq $upto;
}
my ($wout, $werr) = ('', '');
my $writers = IPC::Run::start([ 'pgbench', '-n', '-c', 6, '-j', 2, '-T', 6, "--random-seed=$seed",
	'-f', "$dir/short.sql\@70", '-f', "$dir/late.sql\@30", '-h', $primary->host, '-p', $primary->port, 'postgres' ],
	'>', \$wout, '2>', \$werr);
while ($writers->pumpable)
{
	$writers->pump_nb;
	poll_all();
	sleep(0.02);
}
$writers->finish;
like($wout, qr/processed: \d+/, 'the writers ran') or diag($werr);
my @all = grep { $_ ne '' } split /\n/, $primary->safe_psql('postgres', 'SELECT id FROM data ORDER BY id');
my $ended = time();
my $caught_up;
until (($caught_up = poll_all($all[-1])) || time() > $ended + 30)
{
	sleep(0.02);
}
my $after = time() - $ended;
ok($caught_up, sprintf('the standby reader read the last row %.2f s after the writers ended', $after));
cmp_ok($after, '<', 5, 'within 5 s (allowance 100 ms, ticks every 50 ms)');
my %committed = map { $_ => 1 } @all;
my @got = @{ $read{horizon} };
my %seen;
my $twice = grep { $seen{$_}++ } @got;
my $missed = grep { !$seen{$_} } @all;
my $else = grep { !$committed{$_} } keys %seen;
my $disorder = grep { $got[$_] le $got[ $_ - 1 ] } 1 .. $#got;
cmp_ok(scalar(@all), '>', 100, 'the writers committed more than 100 rows');
is($missed + $else, 0, 'standby: every committed row read, nothing else (' . scalar(@all) . " rows, $missed missed)");
is($twice, 0, 'standby: no row read twice');
is($disorder, 0, 'standby: read in id order');
my %naive = map { $_ => 1 } @{ $read{'id > last'} };
my $naive_missed = grep { !$naive{$_} } @all;
cmp_ok($naive_missed, '>', 0, "standby: id > last misses rows ($naive_missed)");
for my $s (values %session)
{
	$s->{in} .= "\\q\n";
	$s->{run}->finish;
}

# ---- the worker stops: started again, ticking again

# the worker's pid, once ticks newer than $since have been stored; each
# poll makes an id in a transaction with an xid (one that could write it),
# which the ticker ticks for (it does not tick an idle database)
sub ticking
{
	my ($node, $db, $since) = @_;
	$node->poll_query_until($db, qq{SELECT uuidv7() IS NOT NULL AND pg_current_xact_id() IS NOT NULL
		AND ticked_at > '$since' FROM pg_uuidx_last_tick})
	  or return undef;
	return $node->safe_psql($db, qq{SELECT pid FROM pg_stat_activity
		WHERE backend_type = 'pg_uuidx ticker' AND datname = '$db'});
}
my $pid = ticking($primary, 'postgres', $primary->safe_psql('postgres', 'SELECT now()'));
my $at = $primary->safe_psql('postgres', "SELECT now() FROM pg_terminate_backend($pid)");
my $new = ticking($primary, 'postgres', $at);
ok($new && $new ne $pid, "after pg_terminate_backend(): a new worker (pid $pid, then " . ($new // 'none') . '), ticking');

$at = $primary->safe_psql('postgres', 'SELECT now()');
my $offset = -s $primary->logfile;
kill 'KILL', $new;
ok($primary->wait_for_log(qr/all server processes terminated; reinitializing/, $offset),
	'SIGKILL of the worker: the server restarts its processes');
$pid = ticking($primary, 'postgres', $at);
ok($pid && $pid ne $new, "after the worker was killed (SIGKILL) the server restarted and a new worker ticks (pid "
	  . ($pid // 'none') . ')');

# ---- the ticked databases: added, without the extension, dropped

$primary->safe_psql('postgres', q{CREATE DATABASE tdrop; CREATE DATABASE "No Ext"});
$primary->safe_psql('tdrop', 'CREATE EXTENSION pg_uuidx');
$primary->safe_psql('postgres', q{ALTER SYSTEM SET pg_uuidx.tick_databases = 'postgres, tdrop, "No Ext"'});
$primary->reload;
ok(ticking($primary, 'tdrop', '-infinity'), 'a database added to the list at a reload is ticked');
ok($primary->poll_query_until('postgres', q{SELECT count(*) = 1 FROM pg_stat_activity
	WHERE backend_type = 'pg_uuidx ticker' AND datname = 'No Ext'}), 'a worker for a database without the extension');
ok($primary->wait_for_log(qr/the pg_uuidx ticker of database "No Ext" waits for the extension pg_uuidx/),
	'which says that it waits for the extension');
$primary->safe_psql('No Ext', 'CREATE EXTENSION pg_uuidx');
ok(ticking($primary, 'No Ext', '-infinity'), 'and ticks once it is created');

$primary->safe_psql('postgres', q{ALTER SYSTEM SET pg_uuidx.tick_databases = 'postgres, tdrop'});
$primary->reload;
ok($primary->poll_query_until('postgres', q{SELECT count(*) = 0 FROM pg_stat_activity
	WHERE backend_type = 'pg_uuidx ticker' AND datname = 'No Ext'}),
	'a database taken off the list at a reload: its worker stops');
my $stopped = $primary->safe_psql('No Ext', 'SELECT ticked_at FROM pg_uuidx_last_tick');
sleep(0.5);
is($primary->safe_psql('No Ext', 'SELECT ticked_at FROM pg_uuidx_last_tick'), $stopped, 'and it is ticked no more');

# each of these waits 5 s for the other sessions to leave the database, then
# fails; ALTER DATABASE ... RENAME and SET TABLESPACE take DROP's lock
for my $ddl ('CREATE DATABASE tcopy TEMPLATE tdrop', 'DROP DATABASE tdrop')
{
	$primary->poll_query_until('postgres', q{SELECT count(*) = 1 FROM pg_stat_activity
		WHERE backend_type = 'pg_uuidx ticker' AND datname = 'tdrop'}) or die 'no worker in tdrop';
	my $t0 = time();
	my ($rc, $out, $err) = $primary->psql('postgres', $ddl);
	my $took = time() - $t0;
	ok($rc == 0 && $took < 4, sprintf('%s with its worker connected: %s in %.2f s', $ddl,
		$rc == 0 ? 'done' : "failed ($err)", $took));
}
ok($primary->poll_query_until('postgres', q{SELECT count(*) = 1 FROM pg_stat_activity
	WHERE backend_type = 'pg_uuidx ticker'}), 'the dropped database has no worker, postgres has');
ok($primary->wait_for_log(qr/database "tdrop" named in pg_uuidx.tick_databases does not exist/),
	'the launcher says that a database of the list does not exist');
is($primary->safe_psql('tcopy', 'SELECT count(*) FROM pg_extension WHERE extname = \'pg_uuidx\''), '1',
	'the copy has the extension (the template was copied whole)');

$standby->stop;
$primary->stop;
done_testing();
