# Reading Citus tables in id order from the coordinator while multi-shard
# transactions commit late.  pg_uuidx_read_after() on a
# coordinator reads a distributed table up to a cluster horizon, the least
# of the coordinator's horizon and those of the nodes that hold its shards:
# a transaction that writes several shards prepares on their nodes,
# commits on the coordinator, and only then makes its rows visible there
# (COMMIT PREPARED), later still when a node is unreachable and Citus's
# recovery commits it.  The coordinator's own horizon stops holding its ids
# at the commit on the coordinator.
#
# On one machine that window is a round trip, too short to see (the first
# draft of this test read every row with the coordinator's horizon alone);
# the workers here load slow_2pc (slow_2pc/slow_2pc.c, built with PGXS into
# this test's copy of the server), which delays each COMMIT PREPARED by a
# random 0-500 ms and fails one in ten, leaving the transaction prepared
# until Citus's recovery (citus.recover_2pc_interval = 1s) commits it (the
# setup's own two-phase commits go before it is turned on).
#
# Each run: a coordinator and two workers on this machine,
# pg_uuidx.horizon_allowance = 0, citus.enable_unsafe_triggers = on
# (without it Citus refuses CREATE TRIGGER on its tables; with it, it
# creates the trigger on every shard, named after the shard), and
# three tables with ids from DEFAULT uuidv7() and the guard
# pg_uuidx_horizon_guard() BEFORE INSERT OR UPDATE FOR EACH ROW: ev,
# hash-distributed by its id (8 shards); ref, a reference table (a
# placement on each worker and on the coordinator); rg, range-distributed
# by its id.  Citus 13 and 14 still make range tables:
# create_distributed_table(..., 'range') makes no shard, and each is made by
# master_create_empty_shard() and given its range by an UPDATE of
# pg_dist_shard, as Citus's own regression tests do; rg has one shard per
# second of the run, placed on the workers in turn (the first and last
# shards open-ended).  Writers on the coordinator, 4 into ev, 2 into ref
# and 2 into rg (psql scripts, which go on after an error, and are run
# again when their session ends): single-row transactions, multi-shard
# ones (three rows into ev by INSERT ... SELECT of a local source, which
# Citus sends by COPY, by COPY, by a repartitioned INSERT ... SELECT or by
# one routed to a shard; three rows in one INSERT into ref; into rg two rows 1.01 s
# apart, so in neighbouring shards on different workers: two-phase
# commit), and ids made by the client (uuidv7() in a statement of its own,
# inserted 0-300 ms later), each transaction held open 0-1.5 s and one in
# five rolled back.  The guard may refuse an id (40001): counted, and the
# writer goes on.  Halfway through, worker1 is restarted: the writers' and
# readers' errors are counted and they go on.  Readers on the coordinator,
# for each table: pg_uuidx_read_after() ("horizon") and "id > last", every
# 20 ms, a failed round undone and retried (read_loop_sql's on_error).  Two
# errors no PL/pgSQL handler catches: when a node's connection failed in
# the round, Citus may fail the COMMIT after it too ("failure on connection
# marked as essential"); and when the restarted worker ends its sessions,
# Citus may raise the worker's FATAL in the coordinator's session (its
# notice receiver keeps the worker's level), which ends that session.  The
# reader is then called again, in a new session, and resumes after the
# last id it recorded (the session of the reader of ev is ended once after
# the restart, to see that it does).  After the writers, the run waits for the workers'
# prepared transactions to end (recovery), and the readers read 3 s more.
#
# Three runs:
# - main: the installed build.  The horizon reader reads every committed
#   row of each table once, in id order; "id > last" misses rows of ev (or
#   the run tested nothing).
# - coordinator-only: the build with -DPG_UUIDX_TEST_CLUSTER_COORDINATOR_ONLY
#   (the reader reads up to the coordinator's horizon only), guards on:
#   the horizon reader misses rows of ev, which shows that the cluster
#   horizon is needed.
# - unguarded: the build with -DPG_UUIDX_TEST_CLUSTER_UNGUARDED (a Citus
#   table without the guard is read), the tables without the guard: the
#   horizon reader misses rows of ev.
# Each reverted run must also have read rows of ev with the horizon reader:
# a reader refused every round (55000: a table without a guard) misses every
# row and shows nothing.
# The reference table is read on the coordinator from its placement there,
# which commits with the coordinator's transaction: the reverted runs
# record its counts without asserting a miss.
#
# PG_UUIDX_STRESS_SECONDS sets the writers' time of each run (default 20),
# PG_UUIDX_CITUS_RUNS the runs (default "main coordinator-only unguarded"),
# PG_UUIDX_SLOW_2PC_MS and PG_UUIDX_SLOW_2PC_FAIL slow_2pc's longest delay
# (default 500; 0: none) and failure percentage (default 10).
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib "$FindBin::RealBin/../../t";
use File::Copy qw(copy);
use IPC::Run;
use PgUuidxBuilds;
use PgUuidxTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time sleep);

my $sharedir = `pg_config --sharedir`;
chomp $sharedir;
plan skip_all => "Citus is not installed in $sharedir (CITUS_SOURCE=<path or git URL> make citus builds it)"
  unless -f "$sharedir/extension/citus.control";

my $seconds = $ENV{PG_UUIDX_STRESS_SECONDS} || 20;
my %runs = map { $_ => 1 } split ' ', $ENV{PG_UUIDX_CITUS_RUNS} || 'main coordinator-only unguarded';
my $slow_ms = $ENV{PG_UUIDX_SLOW_2PC_MS} // 500;
my $slow_fail = $ENV{PG_UUIDX_SLOW_2PC_FAIL} // 10;
my $socketdir = $PostgreSQL::Test::Cluster::test_pghost;    # where every node listens
my $db = 'postgres';
my @tables = qw(ev ref rg);
my %writers = (ev => 4, ref => 2, rg => 2);

# slow_2pc, built with PGXS for the server of the pg_config on the PATH in a
# temp dir (bitcode for the JIT left out: a compiler less)
my $slow_2pc = do
{
	my $tmp = PostgreSQL::Test::Utils::tempdir('slow_2pc');
	copy("$FindBin::RealBin/slow_2pc/$_", $tmp) or die "cannot copy slow_2pc/$_: $!" for qw(slow_2pc.c Makefile);
	my $out;
	IPC::Run::run([ 'make', '-s', '-C', $tmp, 'PG_CONFIG=pg_config', 'with_llvm=no' ], '>', \$out, '2>&1')
	  or BAIL_OUT("building slow_2pc failed:\n$out");
	"$tmp/slow_2pc.so";
};

# A copy of the server (PgUuidxBuilds' server_copy) with slow_2pc, and with
# pg_uuidx.so of $variant (a variant_build directory) when given
sub server_for
{
	my ($variant) = @_;
	my $path = server_copy('c');
	my $lib = server_dir($path, 'pkglibdir');
	if ($variant)
	{
		# unlinked first: the copy's files may be hard links to the run's
		unlink "$lib/pg_uuidx.so";
		copy("$variant/pg_uuidx.so", "$lib/pg_uuidx.so") or die "cannot copy the variant: $!";
	}
	copy($slow_2pc, "$lib/slow_2pc.so") or die "cannot copy slow_2pc.so: $!";
	return $path;
}

# A writer's psql script: up to $n transactions into $t until the epoch
# $stop, each drawn as it starts.  psql goes on after an error (the
# transaction's next statements fail, its COMMIT rolls back); VERBOSITY
# verbose puts the SQLSTATE in each message.
sub writer_script
{
	my ($t, $w, $stop, $n) = @_;
	my $multi = $t eq 'rg'
	  # neighbouring shards of rg, one second each, are on different workers
	  ? "INSERT INTO rg (w) VALUES ($w);\nSELECT pg_sleep(1.01);\nINSERT INTO rg (w) VALUES ($w);"
	  : $t eq 'ref' ? "INSERT INTO ref (w) SELECT $w FROM generate_series(1, 3);"
	  # into ev, each of the ways Citus stores rows: INSERT ... SELECT of a
	  # local source (pulled to the coordinator and sent by COPY), COPY,
	  # INSERT ... SELECT repartitioned (from evsrc, distributed by another
	  # column; the DEFAULT is volatile), and routed to one shard (from evs,
	  # co-located, its row made in this transaction)
	  : qq{SELECT floor(random() * 4)::int AS kind \\gset
SELECT :kind = 0 AS k0, :kind = 1 AS k1, :kind = 2 AS k2 \\gset
\\if :k0
INSERT INTO ev (w) SELECT $w FROM generate_series(1, 3);
\\elif :k1
\\copy ev (w) FROM PROGRAM 'seq 3 | sed s/.*/$w/'
\\elif :k2
INSERT INTO ev (w) SELECT $w FROM evsrc;
\\else
INSERT INTO evs (w) VALUES ($w) RETURNING id AS sid \\gset
INSERT INTO ev (id, w) SELECT id, w FROM evs WHERE id = :'sid';
\\endif};
	my $one = qq{SELECT extract(epoch FROM clock_timestamp()) > $stop AS done, random() < 0.4 AS multi,
    random() < 0.25 AS client, random() * 0.3 AS early_by, random() * 1.5 AS hold, random() < 0.2 AS back \\gset
\\if :done
\\q
\\endif
\\if :client
SELECT uuidv7() AS early \\gset
SELECT pg_sleep(:early_by);
BEGIN;
INSERT INTO $t (id, w) VALUES (:'early', $w);
\\elif :multi
BEGIN;
$multi
\\else
BEGIN;
INSERT INTO $t (w) VALUES ($w);
\\endif
SELECT pg_sleep(:hold);
\\if :back
ROLLBACK;
\\else
COMMIT;
\\endif
};
	return "\\set VERBOSITY verbose\n" . ($one x $n);
}

# A command started in the background and run again (after 0.1 s, 100
# times at most) until it succeeds; its standard error goes to the scalar
# that $err refers to
sub again
{
	my ($err, @cmd) = @_;
	return IPC::Run::start(
		[ 'bash', '-c', 'for i in $(seq 100); do "$@" && exit 0; sleep 0.1; done; exit 1', 'again', @cmd ],
		'>', \my $out, '2>', $err, IPC::Run::timeout($seconds + 300));
}

# One run: nodes of the server at $o{path}, the tables (with the guard when
# $o{guard}), readers and writers as the header says.  Returns the
# coordinator, the workers, and what the run counted.
sub run_once
{
	my (%o) = @_;
	my $l = $o{label};
	my @conf = (
		"citus.local_hostname = '$socketdir'",
		"citus.node_conninfo = 'sslmode=disable'",
		'citus.enable_unsafe_triggers = on',
		"citus.recover_2pc_interval = '1s'",
		# at most 2 connections of a session to a node
		'citus.max_adaptive_executor_pool_size = 2',
		'max_connections = 100', 'max_prepared_transactions = 100',
		'pg_uuidx.horizon_allowance = 0');
	my $coord = node_on("coordinator_$l", $o{path}, @conf, "shared_preload_libraries = 'citus,pg_uuidx'");
	my @workers = map {
		node_on("${_}_$l", $o{path}, @conf, "shared_preload_libraries = 'citus,pg_uuidx,slow_2pc'")
	} qw(worker1 worker2);
	$_->safe_psql($db, 'CREATE EXTENSION citus') for ($coord, @workers);
	$coord->safe_psql($db, sprintf(q{SELECT citus_set_coordinator_host('%s', %d)}, $socketdir, $coord->port));
	$coord->safe_psql($db, sprintf(q{SELECT citus_add_node('%s', %d)}, $socketdir, $_->port)) for @workers;

	my $guards = join '', map {
		"CREATE TRIGGER ${_}_guard BEFORE INSERT OR UPDATE ON $_ FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();\n"
	} $o{guard} ? @tables : ();
	my $readers = read_loop_sql(
		resume => 1,
		declare => q{
stop_at timestamptz;
give_up timestamptz := clock_timestamp() + interval '1 s' * } . ($seconds + 240) . ';',
		after => q{
stop_at := coalesce(stop_at, (SELECT max(at) FROM stop_flag));
EXIT WHEN clock_timestamp() > least(stop_at + interval '3 s', give_up);},
		on_error => q{
INSERT INTO reader_errors VALUES (reader, SQLSTATE, SQLERRM);
PERFORM pg_sleep(0.1);},
		readers => [
			map {
				("horizon $_" => "SELECT id FROM pg_uuidx_read_after(NULL::$_, \$1, 500)",
					"id > last $_" => "SELECT id FROM $_ WHERE \$1 IS NULL OR id > \$1 ORDER BY id LIMIT 500")
			} @tables
		]);
	$coord->safe_psql($db, qq{
CREATE EXTENSION pg_uuidx;
CREATE TABLE ev (id uuid PRIMARY KEY DEFAULT uuidv7(), w int NOT NULL);
SELECT create_distributed_table('ev', 'id', shard_count => 8);
CREATE TABLE ref (id uuid PRIMARY KEY DEFAULT uuidv7(), w int NOT NULL);
SELECT create_reference_table('ref');
CREATE TABLE evsrc (k int PRIMARY KEY);
SELECT create_distributed_table('evsrc', 'k', shard_count => 8);
INSERT INTO evsrc SELECT generate_series(1, 3);
CREATE TABLE evs (id uuid PRIMARY KEY DEFAULT uuidv7(), w int NOT NULL);
SELECT create_distributed_table('evs', 'id', colocate_with => 'ev');
CREATE TABLE rg (id uuid PRIMARY KEY DEFAULT uuidv7(), w int NOT NULL);
SELECT create_distributed_table('rg', 'id', 'range');
$guards
CREATE UNLOGGED TABLE seen (reader text NOT NULL, seq bigint NOT NULL, id uuid NOT NULL);
CREATE TABLE reader_errors (reader text, state text, message text);
CREATE TABLE stop_flag (at timestamptz NOT NULL);
$readers});
	# rg's shards: one a second from now on, for the run and 30 s more, each
	# from the first id of its second to the last; the first open below, the
	# last above
	$coord->safe_psql($db, q{
DO $$
DECLARE
    t0 bigint := floor(extract(epoch FROM clock_timestamp()) * 1000);
    k int := } . ($seconds + 30) . q{;
    s bigint;
    lo text := '00000000-0000-0000-0000-000000000000';
    hi text;
    h text;
BEGIN
    FOR i IN 1 .. k LOOP
        -- the last id of millisecond t0 + 1000 i - 1
        h := lpad(to_hex(t0 + 1000 * i - 1), 12, '0');
        hi := CASE WHEN i < k THEN substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-ffff-ffff-ffffffffffff'
                   ELSE 'ffffffff-ffff-ffff-ffff-ffffffffffff' END;
        s := master_create_empty_shard('rg');
        UPDATE pg_dist_shard SET shardminvalue = lo, shardmaxvalue = hi WHERE shardid = s;
        -- the first id of the next millisecond
        h := lpad(to_hex(t0 + 1000 * i), 12, '0');
        lo := substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-0000-0000-000000000000';
    END LOOP;
END $$});

	my %r = (coord => $coord, workers => \@workers);
	# the guard on the placements of each table (the coordinator's of ref
	# too; Citus names a shard's trigger after the shard)
	for my $t (@tables)
	{
		$r{"placements $t"} = $coord->safe_psql($db, qq{
			SELECT count(*) FILTER (WHERE result = '1') || '/' || count(*)
			FROM run_command_on_placements('$t', \$\$SELECT count(*) FROM pg_trigger
			                                        WHERE tgrelid = '%s'::regclass
			                                          AND tgfoid = 'pg_uuidx_horizon_guard'::regproc\$\$)});
	}
	# rg's neighbouring shards: on different workers
	$r{'rg workers'} = $coord->safe_psql($db, q{
		SELECT count(*) FILTER (WHERE port <> prev) || ' of ' || count(prev)
		FROM (SELECT p.nodeport AS port, lag(p.nodeport) OVER (ORDER BY s.shardminvalue::uuid) AS prev
		      FROM pg_dist_shard s JOIN pg_dist_shard_placement p USING (shardid)
		      WHERE s.logicalrelid = 'rg'::regclass) n});

	# slow_2pc from now on (the setup's own two-phase commits went at once)
	$_->safe_psql($db, "ALTER SYSTEM SET slow_2pc.max_ms = $slow_ms; ALTER SYSTEM SET slow_2pc.fail_percent = $slow_fail;")
	  for @workers;
	$_->reload for @workers;

	# the readers: a round's error is caught in the procedure (on_error);
	# one that Citus raises at the COMMIT after it ("failure on connection
	# marked as essential") ends the CALL, and a worker's FATAL that Citus
	# passes on as the coordinator session's own ends the session: then the
	# reader is called again, in a new session, and resumes after what it
	# recorded in seen
	my $dir = PostgreSQL::Test::Utils::tempdir("clients_$l");
	my (@readers, @reader_errs);
	for my $t (@tables)
	{
		for my $reader ("horizon $t", "id > last $t")
		{
			my $e = '';
			push @reader_errs, \$e;
			push @readers, again(\$e, 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-v', 'VERBOSITY=verbose', '-c',
				"CALL read_loop('$reader')", '-d', $coord->connstr($db));
		}
	}
	$coord->poll_query_until($db, q{SELECT count(*) = 6 FROM pg_stat_activity WHERE query LIKE 'CALL read_loop%'})
	  or die 'the readers did not start';

	# the writers: a script goes on after an error, and is run again when
	# its session ends
	my $started = time;
	my $stop = $started + $seconds;
	my (@writers, @errs);
	for my $t (@tables)
	{
		for my $i (1 .. $writers{$t})
		{
			my $w = 10 * $i + (grep { $tables[$_] eq $t } 0 .. $#tables)[0];
			my $file = "$dir/$t-$i.sql";
			open my $fh, '>', $file or die $!;
			print $fh writer_script($t, $w, $stop, int($seconds * 20) + 50);
			close $fh or die $!;
			my $e = '';
			push @errs, [ $t, \$e ];
			push @writers, again(\$e, 'psql', '-X', '-q', '-o', '/dev/null', '-f', $file, '-d', $coord->connstr($db));
		}
	}
	# worker1 restarted halfway: Citus's connections to it break
	sleep($seconds / 2);
	$workers[0]->restart;
	$r{restart} = sprintf('worker1 restarted %.1f s into the run', time - $started);
	# and the session of one reader ended, as Citus may end it: it goes on
	# in a new one
	$r{'reader sessions ended'} = $coord->safe_psql($db, q{
		SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE query = 'CALL read_loop(''horizon ev'')'});
	$_->finish or diag("$l: a writer gave up: $?") for @writers;

	# the prepared transactions that slow_2pc failed, or that the restart
	# cut off, are committed (or rolled back) by Citus's recovery
	my $t_end = time;
	$_->poll_query_until($db, 'SELECT count(*) = 0 FROM pg_prepared_xacts')
	  or diag("$l: prepared transactions left on " . $_->name)
	  for @workers;
	$r{recovery} = sprintf('%.1f s', time - $t_end);
	$coord->safe_psql($db, 'INSERT INTO stop_flag VALUES (now())');
	$_->finish or diag("$l: a reader gave up: $?") for @readers;
	$r{seconds} = sprintf('%.0f', time - $started);

	# the writers' errors: refusals of the guard (40001; XX000 with the
	# guard's message when Citus sent the rows by COPY, as for INSERT ...
	# SELECT: its COPY path passes on a node's message, not its SQLSTATE),
	# the others (but those of a statement after a failed one in its
	# transaction), and Citus's warnings of a COMMIT PREPARED that failed
	my %kinds;
	for my $e (@errs)
	{
		my ($t, $stderr) = ($e->[0], ${ $e->[1] });
		while ($stderr =~ /\b(ERROR|WARNING):  (\w{5}): (.{0,70})/g)
		{
			my ($level, $state, $message) = ($1, $2, $3);
			if ($level eq 'WARNING') { $r{'commit prepared failures'}++ if $message =~ /^failed to commit transaction/ }
			elsif ($state eq '40001' || $message =~ /^id \S+ was made at /)
			{
				$r{refusals}++;
				$r{"refusals $t"}++;
				$r{'refusals as XX000'}++ if $state ne '40001';
			}
			elsif ($state ne '25P02') { $r{'writer errors'}++; $kinds{"$state $message"}++ }
		}
	}
	$r{"refusals $_"} //= 0 for @tables;
	$r{'writer sessions lost'} = () = join('', map { ${ $_->[1] } } @errs) =~ /connection to server was lost/g;
	$r{$_} //= 0 for ('commit prepared failures', 'refusals', 'refusals as XX000', 'writer errors');
	$r{'writer error kinds'} = join '; ',
	  map { "$kinds{$_} x $_" } grep { defined } (sort { $kinds{$b} <=> $kinds{$a} } keys %kinds)[ 0 .. 2 ];
	my %calls;
	my $reader_stderr = join '', map { $$_ } @reader_errs;
	$calls{"$1 $2"}++ while $reader_stderr =~ /\b(?:ERROR|FATAL):  (\w{5}): (.{0,70})/g;
	$r{'reader sessions lost'} = () = $reader_stderr =~ /connection to server was lost/g;
	$r{'reader calls again'} = 0;
	$r{'reader calls again'} += $_ for values %calls;
	$r{'reader calls again, why'} = join '; ', map { "$calls{$_} x $_" } sort keys %calls;
	$r{'reader errors'} = $coord->safe_psql($db, q{SELECT count(*) FROM reader_errors});
	$r{'reader error kinds'} = $coord->safe_psql($db, q{
		SELECT string_agg(format('%s x %s %s', n, state, left(message, 90)), '; ' ORDER BY n DESC)
		FROM (SELECT state, message, count(*) AS n FROM reader_errors GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 3) s});
	for my $t (@tables)
	{
		$r{"rows $t"} = $coord->safe_psql($db, "SELECT count(*) FROM $t");
		$r{"missed $_ $t"} = missed_count($coord, $db, $t, "$_ $t") for ('horizon', 'id > last');
		$r{"read $_ $t"} = $coord->safe_psql($db, "SELECT count(*) FROM seen WHERE reader = '$_ $t'")
		  for ('horizon', 'id > last');
	}
	note("$l: $_: $r{$_}") for grep { !ref $r{$_} } sort keys %r;
	diag(sprintf('%s: %s s; rows %s; horizon reader missed %s; "id > last" missed %s; '
		  . 'refusals %d (%s; %d as XX000), writer errors %d (sessions lost %d), failed COMMIT PREPARED %d, '
		  . 'reader errors %s (CALLs again %d, sessions lost %d)',
		$l, $r{seconds}, join('/', map { $r{"rows $_"} } @tables), join('/', map { $r{"missed horizon $_"} } @tables),
		join('/', map { $r{"missed id > last $_"} } @tables), $r{refusals}, join('/', map { $r{"refusals $_"} } @tables),
		$r{'refusals as XX000'},
		@r{ 'writer errors', 'writer sessions lost', 'commit prepared failures' },
		@r{ 'reader errors', 'reader calls again', 'reader sessions lost' }));
	return %r;
}

if ($runs{main})
{
	my %r = run_once(label => 'main', path => server_for(), guard => 1);
	like($r{"placements $_"}, qr{^([1-9]\d*)/\1$}, "the guard on every placement of $_ (" . $r{"placements $_"} . ')')
	  for @tables;
	like($r{'rg workers'}, qr/^(\d+) of \1$/, "rg's neighbouring shards on different workers ($r{'rg workers'})");
	read_once_ok($r{coord}, $db, 'ev', 'horizon ev', 'pg_uuidx_read_after() of the hash-distributed table',
		more_than => 50);
	read_once_ok($r{coord}, $db, 'ref', 'horizon ref', 'pg_uuidx_read_after() of the reference table', more_than => 10);
	read_once_ok($r{coord}, $db, 'rg', 'horizon rg', 'pg_uuidx_read_after() of the range-distributed table',
		more_than => 10);
	cmp_ok($r{'missed id > last ev'}, '>', 0, '"id > last" misses rows of the hash-distributed table');

	# a run of equal ids (no unique index on them), read in batches of one:
	# Citus sends FETCH FIRST ... WITH TIES to each shard, so the batch
	# takes the whole run; the run's shard is on a worker.  Its commit may be
	# two-phase, and slow_2pc may fail a COMMIT PREPARED (a warning: the
	# recovery commits it), so warnings are let through
	my $c = $r{coord};
	my ($rc, $out, $err) = $c->psql($db, q{
CREATE TABLE ties (id uuid NOT NULL, k int);
CREATE TRIGGER ties_guard BEFORE INSERT OR UPDATE ON ties FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
SELECT create_distributed_table('ties', 'id', shard_count => 4);}, on_error_stop => 1);
	# a shard whose COMMIT PREPARED slow_2pc failed exists once the
	# recovery commits it: the writes are tried again until then
	for my $try (1 .. 20)
	{
		($rc, $out, $err) = $c->psql($db, q{
BEGIN;
INSERT INTO ties SELECT i.id, g FROM (SELECT uuidv7() AS id) i, generate_series(1, 5) g;
INSERT INTO ties SELECT uuidv7(), 6;
COMMIT;}, on_error_stop => 1);
		last if $rc == 0 && $err !~ /ERROR/;
		sleep(0.5);
	}
	is($rc, 0, 'rows of equal ids written into a distributed table') or diag($err);
	$c->poll_query_until($db, 'SELECT count(*) = 6 FROM pg_uuidx_read_after(NULL::ties, NULL, 6)');
	is($c->safe_psql($db, 'SELECT count(*) FROM pg_uuidx_read_after(NULL::ties, NULL, 1)'), '5',
		'a batch of one takes every row of a run of equal ids on a distributed table');
	# a Citus table without the guard, and a tick: refused
	($rc, $out, $err) = $c->psql($db, 'SELECT count(*) FROM pg_uuidx_read_after(NULL::evs, NULL, 1)');
	like($err, qr/pg_uuidx_read_after\(\) cannot read table public\.evs: column "id" has no guard/,
		'a distributed table without the guard is refused');
	($rc, $out, $err) = $c->psql($db, 'SELECT count(*) FROM pg_uuidx_read_after(NULL::ev, NULL, 1, from_tick => true)');
	like($err, qr/cannot read Citus table "ev" up to a tick/, 'reading a distributed table up to a tick is refused');
	$_->stop for ($r{coord}, @{ $r{workers} });
}

# the reverted runs: $label, the define of the variant, guards or not
for my $v ([ 'coordinator-only', 'PG_UUIDX_TEST_CLUSTER_COORDINATOR_ONLY', 1 ],
	[ 'unguarded', 'PG_UUIDX_TEST_CLUSTER_UNGUARDED', 0 ])
{
	my ($label, $define, $guard) = @$v;
	next unless $runs{$label};
	VARIANT:
	{
		my $variant = eval { variant_build("cluster-$label", "-D$define") };
		if (!$variant)
		{
			fail("building the variant $label (-D$define)");
			diag($@ || 'not a git checkout: the variant cannot be built');
			last VARIANT;
		}
		my %r = run_once(label => $label, path => server_for($variant), guard => $guard);
		cmp_ok($r{'read horizon ev'}, '>', 0,
			"-D$define" . ($guard ? '' : ', no guard') . ': the horizon reader of the hash-distributed table read rows '
			  . "($r{'read horizon ev'}; reader errors: $r{'reader error kinds'})");
		cmp_ok($r{'missed horizon ev'}, '>', 0,
			"-D$define" . ($guard ? '' : ', no guard') . ': pg_uuidx_read_after() misses rows of the hash-distributed table');
		$_->stop for ($r{coord}, @{ $r{workers} });
	}
}

done_testing();
