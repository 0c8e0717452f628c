# The ticker's launcher and workers as core's background processes hold up:
# one worker per database, whatever happens to the launcher, the list or
# the databases.
#
# Checked: the launcher ended three times (pg_terminate_backend()): it comes
# back, the worker it started first still runs, and no other is started for
# its database; a reload that empties pg_uuidx.tick_databases ends that
# worker, whichever launcher started it, and it ticks no more; a database
# named three ways ('db3, DB3, "db3"') gets one worker, and "DB3" (quoted:
# another database) one of its own; a database that does not allow
# connections and an invalid one (datconnlimit -2, as an interrupted DROP
# DATABASE leaves it) are reported once each (WARNING) and never connected
# to (no FATAL in 4 s), and the first gets its worker once ALTER DATABASE
# allows connections; the launcher's memory after 100 reloads of a list of
# 41 names is what it was before them (pg_log_backend_memory_contexts(),
# "Grand total ... used"); the wait events of the launcher and the worker
# (named on 17 and later, "Extension" before).
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
	"pg_uuidx.tick_databases = 'postgres'", "pg_uuidx.tick_interval = '100ms'" ]);
$node->safe_psql('postgres', 'CREATE EXTENSION pg_uuidx');

# the ticker's workers: "datname pid" each, in order
sub workers
{
	return $node->safe_psql('postgres', q{SELECT coalesce(string_agg(datname || ' ' || pid, ', '
		ORDER BY datname COLLATE "C", pid), '')
		FROM pg_stat_activity WHERE backend_type = 'pg_uuidx ticker'});
}

sub launcher
{
	return $node->safe_psql('postgres', q{SELECT pid FROM pg_stat_activity WHERE backend_type = 'pg_uuidx ticker launcher'});
}

# whether query $sql returns $want ('t' if none) within $seconds
sub within
{
	my ($seconds, $sql, $want) = @_;
	my $t0 = time();
	$want //= 't';
	while (time() < $t0 + $seconds)
	{
		return 1 if $node->safe_psql('postgres', $sql) eq $want;
		sleep(0.1);
	}
	return 0;
}

sub set_list
{
	my ($list) = @_;
	$node->safe_psql('postgres', "ALTER SYSTEM SET pg_uuidx.tick_databases = '$list'");
	$node->reload;
	return;
}

# ---- the launcher ended: its worker is kept, no other started

$node->poll_query_until('postgres', q{SELECT count(*) = 1 FROM pg_stat_activity WHERE backend_type = 'pg_uuidx ticker'})
  or die 'no worker';
my $first = workers();
for my $n (1 .. 3)
{
	my $pid = launcher();
	$node->safe_psql('postgres', "SELECT pg_terminate_backend($pid)");
	$node->poll_query_until('postgres', qq{SELECT count(*) = 1 FROM pg_stat_activity
		WHERE backend_type = 'pg_uuidx ticker launcher' AND pid <> $pid}) or die 'no launcher';
}
# the launcher looks at its databases every second
sleep(3);
is(workers(), $first, "the launcher ended 3 times: the first worker runs on, no other ($first)");

set_list('');
ok(within(5, q{SELECT count(*) = 0 FROM pg_stat_activity WHERE backend_type = 'pg_uuidx ticker'}),
	'an empty list at a reload: no worker left after 5 s, whichever launcher started it') or diag(workers());
# rows written: a worker would tick for them
$node->safe_psql('postgres', 'CREATE TABLE t (id uuid DEFAULT uuidv7()); INSERT INTO t DEFAULT VALUES');
my $ticked = $node->safe_psql('postgres', 'SELECT ticked_at FROM pg_uuidx_last_tick');
sleep(1);
is($node->safe_psql('postgres', 'SELECT ticked_at FROM pg_uuidx_last_tick'), $ticked, 'and no tick after a write');

# ---- one worker per database, however the list names it

$node->safe_psql('postgres', q{CREATE DATABASE db3; CREATE DATABASE "DB3"});
set_list('db3, DB3, "db3", "DB3"');
within(5, q{SELECT count(*) >= 2 FROM pg_stat_activity WHERE backend_type = 'pg_uuidx ticker' AND datname ILIKE 'db3'});
sleep(3);
is(workers() =~ s/ \d+//gr, 'DB3, db3', q{'db3, DB3, "db3", "DB3"': one worker for db3, one for "DB3"});

# ---- databases no one may connect to

$node->safe_psql('postgres', q{CREATE DATABASE noconn ALLOW_CONNECTIONS false; CREATE DATABASE inval;
	UPDATE pg_database SET datconnlimit = -2 WHERE datname = 'inval'});
my $offset = -s $node->logfile;
set_list('noconn, inval');
sleep(4);
my $log = substr(slurp_file($node->logfile), $offset);
my @fatal = $log =~ /^.*FATAL:.*$/mg;
is(scalar(@fatal), 0, 'a database that does not allow connections, and an invalid one: no FATAL in 4 s')
  or diag(join("\n", @fatal[ 0 .. ($#fatal < 3 ? $#fatal : 3) ]));
my @said = $log =~ /^.*WARNING:  database "(noconn|inval)" named in pg_uuidx.tick_databases.*$/mg;
is(join(',', sort @said), 'inval,noconn', 'each reported once') or diag($log);
$node->safe_psql('postgres', 'ALTER DATABASE noconn ALLOW_CONNECTIONS true');
my $t0 = time();
ok(within(15, q{SELECT count(*) = 1 FROM pg_stat_activity WHERE backend_type = 'pg_uuidx ticker' AND datname = 'noconn'}),
	sprintf('connections allowed: its worker starts (after %.1f s)', time() - $t0));

# ---- the launcher's memory across reloads

# "Grand total ... used" of process $pid's memory contexts
sub memory_used
{
	my ($pid) = @_;
	my $offset = -s $node->logfile;
	$node->safe_psql('postgres', "SELECT pg_log_backend_memory_contexts($pid)");
	$node->wait_for_log(qr/\[$pid\] LOG:  Grand total: .* (\d+) used/, $offset);
	return (substr(slurp_file($node->logfile), $offset) =~ /\[$pid\] LOG:  Grand total: .* (\d+) used/)[0];
}

my @names = map { "x$_" } 1 .. 40;
set_list(join(', ', 'postgres', @names));
$node->wait_for_log(qr/database "x40" named in pg_uuidx.tick_databases does not exist/, $offset);
my $pid = launcher();
my $before = memory_used($pid);
# the same names, quoted or not: the launcher reads the list again each time
my %list = (0 => join(', ', 'postgres', @names), 1 => join(', ', 'postgres', map { qq{"$_"} } @names));
my $reloads = join('', map {
	"ALTER SYSTEM SET pg_uuidx.tick_databases = '$list{$_ % 2}';\nSELECT pg_reload_conf();\nSELECT pg_sleep(0.05);\n"
} 1 .. 100);
$node->safe_psql('postgres', $reloads);
sleep(1);
my $after = memory_used($pid);
cmp_ok($after - $before, '<', 8192, "the launcher's memory after 100 reloads: $before bytes used, then $after");

# ---- wait events

my $named = $node->safe_psql('postgres', 'SHOW server_version_num') >= 170000;
my $want = $named ? 'pg_uuidx ticker launcher:Extension:PgUuidxTickerLauncherMain, pg_uuidx ticker:Extension:PgUuidxTickerMain'
  : 'pg_uuidx ticker launcher:Extension:Extension, pg_uuidx ticker:Extension:Extension';
ok(within(10, q{SELECT string_agg(e, ', ' ORDER BY e COLLATE "C") FROM (SELECT DISTINCT
	backend_type || ':' || wait_event_type || ':' || wait_event e FROM pg_stat_activity WHERE backend_type LIKE 'pg_uuidx ticker%') s},
	$want),
	"the launcher's and the worker's wait events: $want");

$node->stop;
done_testing();
