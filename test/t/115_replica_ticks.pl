# Readers on replicas: pg_uuidx_tick() records the primary's commit horizon
# in pg_uuidx_last_tick, which reaches a streaming standby with the WAL and
# a logical subscriber with the publication that carries the data; there,
# pg_uuidx_read_after() reads up to the newest tick.  The table carries the
# guard of pg_uuidx_add_guard() (allowance 0) on the primary, replayed to
# the standby, and one of its own on the subscriber: readers read only
# guarded tables.
#
# First the refusals: no tick yet (from_tick => true: 55000), pg_uuidx_tick()
# on the standby (55000) and on the subscriber, whose pg_uuidx_last_tick a
# subscription writes (55000).  Then the stress run: pgbench writers on the
# primary with late commits, ids made long before their insert, two-phase
# commits and rollbacks; ticks every 50 ms on the primary; readers polling
# on the standby (pg_uuidx_read_after() as it is: the tick there on its
# own) and on the subscriber (from_tick => true, and as it is: the table
# is subscribed).  Each must read every row committed on the primary
# exactly once, in id order; "id > last" on both must miss rows, or the run
# did not test anything.  Last, with the ticks stopped: the standby's
# uuidv7_horizon() and uuidv6_horizon() are the tick's horizon as ids, and
# both replicas hold the primary's tick.
#
# PG_UUIDX_TEST_NO_TICK=1 removes the mechanism: the replicas' readers read
# up to their own clock less pg_uuidx.horizon_allowance instead of the
# tick, and the exactly-once checks fail.  The seed is printed
# (PG_UUIDX_SEED replays the writers' choices, not their timing);
# PG_UUIDX_STRESS_SECONDS sets the length of the run (default 8).
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

my $seconds = $ENV{PG_UUIDX_STRESS_SECONDS} || 8;
my $seed = $ENV{PG_UUIDX_SEED} || int(rand(2**31));
my $no_tick = $ENV{PG_UUIDX_TEST_NO_TICK} ? 1 : 0;
note("seed $seed (PG_UUIDX_SEED=$seed replays the writers' choices)");
note('PG_UUIDX_TEST_NO_TICK=1: the replicas read up to their own clock, the exactly-once checks must fail') if $no_tick;

my $allowance_ms = 200;
my @conf = ('max_connections = 40', 'max_prepared_transactions = 20', "pg_uuidx.horizon_allowance = '${allowance_ms}ms'");
my $primary = new_node('primary', conf => [ @conf, 'wal_level = logical', 'max_wal_senders = 10', 'max_replication_slots = 10' ]);
my $major = int($primary->safe_psql('postgres', 'SHOW server_version_num') / 10000);
# before 17 the shared state needs the preloaded library (the standby
# inherits the primary's configuration)
my @preload = $major < 17 ? ("shared_preload_libraries = 'pg_uuidx'") : ();
if (@preload)
{
	$primary->append_conf('postgresql.conf', "@preload\n");
	$primary->restart;
}
$primary->safe_psql('postgres', q{
CREATE EXTENSION pg_uuidx;
CREATE TABLE data (id uuid PRIMARY KEY DEFAULT uuidv7(), w int NOT NULL, kind text);
-- read in order only with a guard; the standby gets it with the WAL
SELECT pg_uuidx_add_guard('data');
CREATE TABLE stop_flag (at timestamptz NOT NULL);
-- ticks every 50 ms, each in a transaction of its own, until the stop flag
CREATE PROCEDURE tick_loop() LANGUAGE plpgsql AS $$
DECLARE give_up timestamptz := clock_timestamp() + interval '150 s';
BEGIN
    WHILE NOT EXISTS (SELECT FROM stop_flag) AND clock_timestamp() < give_up LOOP
        PERFORM pg_uuidx_tick();
        COMMIT;
        PERFORM pg_sleep(0.05);
    END LOOP;
END $$;
CREATE FUNCTION try(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN EXECUTE q; RETURN 'ok'; EXCEPTION WHEN OTHERS THEN RETURN SQLSTATE || ' ' || SQLERRM; END $$;
});
like($primary->safe_psql('postgres', q{SELECT try('SELECT pg_uuidx_read_after(NULL::data, NULL, 1, from_tick => true)')}),
	qr/^55000 .*has no tick/, 'read_after(from_tick => true) before any tick: 55000');
is($primary->safe_psql('postgres', 'SELECT count(*) FROM pg_uuidx_last_tick'), '0', 'no tick row at CREATE EXTENSION');

# the streaming standby
$primary->backup('b');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'b', has_streaming => 1);
start_with_env($standby);

# the logical subscriber: the extension and the table of its own, the data
# and the ticks in one publication and one subscription; its table carries
# a guard of its own, which the subscription's apply does not fire (it is
# read up to the publisher's tick) but without which it is not read
my $subscriber = new_node('subscriber', conf => [ @conf, @preload ]);
$subscriber->safe_psql('postgres', q{
CREATE EXTENSION pg_uuidx;
CREATE TABLE data (id uuid PRIMARY KEY DEFAULT uuidv7(), w int NOT NULL, kind text);
SELECT pg_uuidx_add_guard('data');
CREATE FUNCTION try(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN EXECUTE q; RETURN 'ok'; EXCEPTION WHEN OTHERS THEN RETURN SQLSTATE || ' ' || SQLERRM; END $$;
});
$primary->safe_psql('postgres', 'CREATE PUBLICATION p FOR TABLE data, pg_uuidx_last_tick');
$subscriber->safe_psql('postgres',
	'CREATE SUBSCRIPTION s CONNECTION ' . $primary->connstr('postgres') =~ s/'/''/gr =~ s/^|$/'/gr . ' PUBLICATION p');
$subscriber->wait_for_subscription_sync($primary, 's');
$primary->wait_for_catchup($standby);

like($subscriber->safe_psql('postgres',
	q{SELECT try('SELECT pg_uuidx_read_after(NULL::data, NULL, 1, from_tick => true)')}),
	qr/^55000 .*no tick/, 'on the subscriber, no tick yet: from_tick => true is refused (55000)');
like($subscriber->safe_psql('postgres', q{SELECT try('SELECT pg_uuidx_tick()')}), qr/^55000 /,
	'pg_uuidx_tick() on the subscriber, whose pg_uuidx_last_tick is subscribed: 55000');
my ($ret, $out, $err) = $standby->psql('postgres', 'SELECT pg_uuidx_tick()', extra_params => [ '-v', 'VERBOSITY=verbose' ]);
like($err, qr/ERROR:  55000: recovery is in progress/, 'pg_uuidx_tick() on the standby: 55000, as core refuses during recovery');
($ret, $out, $err) = $standby->psql('postgres', 'SELECT pg_uuidx_read_after(NULL::data, NULL, 1)',
	extra_params => [ '-v', 'VERBOSITY=verbose' ]);
like($err, qr/ERROR:  55000: .*has no tick/,
	'on the standby, no tick yet: the reader is refused (55000), not answered from its clock');

# ---- the stress run

my $dir = PostgreSQL::Test::Utils::tempdir();
my %scripts = writer_scripts();
my @weights = (short => 45, late => 20, early => 10, twophase => 15, rollback => 10);
my @files;
while (my ($name, $weight) = splice(@weights, 0, 2))
{
	PostgreSQL::Test::Utils::append_to_file("$dir/$name.sql", $scripts{$name});
	push @files, '-f', "$dir/$name.sql\@$weight";
}

# the readers: a session each, polled in turn from here
my $bound = "uuidv7_boundary(clock_timestamp() - interval '${allowance_ms} ms')";
my @readers = (
	[ 'standby: pg_uuidx_read_after()', $standby,
		$no_tick ? "SELECT id FROM data WHERE (\$1 IS NULL OR id > \$1) AND id < $bound ORDER BY id LIMIT 500"
		: 'SELECT id FROM pg_uuidx_read_after(NULL::data, $1, 500)' ],
	[ 'subscriber: from_tick => true', $subscriber,
		$no_tick ? "SELECT id FROM data WHERE (\$1 IS NULL OR id > \$1) AND id < $bound ORDER BY id LIMIT 500"
		: 'SELECT id FROM pg_uuidx_read_after(NULL::data, $1, 500, from_tick => true)' ],
	[ 'subscriber: pg_uuidx_read_after()', $subscriber, 'SELECT id FROM pg_uuidx_read_after(NULL::data, $1, 500)' ],
	[ 'standby: id > last', $standby, 'SELECT id FROM data WHERE $1 IS NULL OR id > $1 ORDER BY id LIMIT 500' ],
	[ 'subscriber: id > last', $subscriber, 'SELECT id FROM data WHERE $1 IS NULL OR id > $1 ORDER BY id LIMIT 500' ],
);
# with the mechanism removed, the subscriber's reader "as it is" reads up to the tick still
if ($no_tick)
{
	splice(@readers, 2, 1);
	$_->[0] =~ s/:.*/: up to its own clock less ${allowance_ms} ms (PG_UUIDX_TEST_NO_TICK)/ for @readers[ 0, 1 ];
}
my (%read, %session);
for my $r (@readers)
{
	my ($name, $node, $query) = @$r;
	$session{$name} = psql_session($node);
	session_query($session{$name}, "PREPARE next(uuid) AS $query");
	$read{$name} = [];
}
# one poll of each reader; whether each has read up to $upto
sub poll_all
{
	my ($upto) = @_;
	my $done = 1;
	for my $r (@readers)
	{
		my $name = $r->[0];
		my $last = @{ $read{$name} } ? "'$read{$name}[-1]'" : 'NULL';
		push @{ $read{$name} }, grep { $_ ne '' } split /\n/, session_query($session{$name}, "EXECUTE next($last)");
		$done = 0 unless defined $upto && @{ $read{$name} } && $read{$name}[-1] eq $upto;
	}
	return $done;
}

my @conn = ('-h', $primary->host, '-p', $primary->port, 'postgres');
my $ticks = IPC::Run::start([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-c', 'CALL tick_loop()', @conn ],
	'>', \my $to, '2>', \my $te);
# the first tick on both replicas before the readers start
for my $replica ($standby, $subscriber)
{
	$replica->poll_query_until('postgres', 'SELECT count(*) = 1 FROM pg_uuidx_last_tick')
	  or die 'no tick reached ' . $replica->name;
}
my ($wout, $werr) = ('', '');
my $writers = IPC::Run::start([ 'pgbench', '-n', '-M', 'simple', '-c', 8, '-j', 2, '-T', $seconds,
	"--random-seed=$seed", @files, @conn ], '>', \$wout, '2>', \$werr);
while ($writers->pumpable)
{
	$writers->pump_nb;
	poll_all();
	sleep(0.02);
}
$writers->finish;
note($wout);
like($wout, qr/processed: \d+/, 'the writers ran') or diag($werr);
# what pgbench left prepared when its time was up: committed, so it counts
$primary->safe_psql('postgres', q{
	SELECT format('COMMIT PREPARED %L', gid) FROM pg_prepared_xacts WHERE database = current_database() \gexec
});
my @all = grep { $_ ne '' } split /\n/, $primary->safe_psql('postgres', 'SELECT id FROM data ORDER BY id');
# the readers go on, with the ticks, until each has read up to the last row or 30 s have passed
my $until = time() + 30;
until (poll_all($all[-1]) || time() > $until)
{
	sleep(0.02);
}
$primary->safe_psql('postgres', 'INSERT INTO stop_flag VALUES (now())');
$ticks->finish or diag("the ticks failed: $te");
for my $s (values %session)
{
	$s->{in} .= "\\q\n";
	$s->{run}->finish;
}

my $stats = $primary->safe_psql('postgres', q{
	SELECT format('%s rows: %s; %s ticks', (SELECT count(*) FROM data),
	              (SELECT string_agg(format('%s %s', n, kind), ', ' ORDER BY kind)
	               FROM (SELECT kind, count(*) n FROM data GROUP BY kind) k),
	              (SELECT n_tup_ins + n_tup_upd FROM pg_stat_user_tables WHERE relname = 'pg_uuidx_last_tick'))});
note("committed on the primary: $stats");
cmp_ok(scalar(@all), '>', 100, 'the writers committed more than 100 rows');
my %committed = map { $_ => 1 } @all;
for my $r (@readers)
{
	my $name = $r->[0];
	my @got = @{ $read{$name} };
	my %seen;
	my $twice = grep { $seen{$_}++ } @got;
	my $missed = grep { !$seen{$_} } @all;
	my $else = grep { !$committed{$_} } keys %seen;
	my $disorder = grep { $got[$_] le $got[ $_ - 1 ] } 1 .. $#got;
	if ($name =~ /id > last/)
	{
		cmp_ok($missed, '>', 0, "$name misses rows: $missed of them");
		next;
	}
	is($missed + $else, 0, "$name: every committed row read, nothing else (" . scalar(@all)
		  . " rows, " . scalar(@got) . " read, $missed missed)");
	is($twice, 0, "$name: no row read twice");
	is($disorder, 0, "$name: read in id order");
}

# with the ticks stopped: one more tick, replayed and applied
my $tick = $primary->safe_psql('postgres', 'SELECT pg_uuidx_tick()');
$primary->wait_for_catchup($standby);
$primary->wait_for_catchup('s');
for my $replica ([ 'standby', $standby ], [ 'subscriber', $subscriber ])
{
	sql_ok($replica->[1], 'postgres', qq{SELECT horizon = '$tick', horizon::text FROM pg_uuidx_last_tick},
		"the $replica->[0] holds the primary's newest tick");
}
sql_ok($standby, 'postgres', q{
	SELECT uuidv7_horizon() = uuidv7_boundary(horizon) AND uuidv6_horizon() = uuidv6_boundary(horizon),
	       uuidv7_horizon()::text || ' ' || uuidv6_horizon()::text || ' ' || horizon FROM pg_uuidx_last_tick},
	'on the standby uuidv7_horizon() and uuidv6_horizon() are the tick\'s horizon as v7 and v6 ids');

$subscriber->stop;
$standby->stop;
$primary->stop;
done_testing();
