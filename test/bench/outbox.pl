# test/bench/outbox.pl - the outbox phase of "make bench" (bench.pl runs it
# with PostgreSQL's TAP modules on the include path; it writes
# $BENCH_OUT/outbox.md).  Reading a table in order while writers commit late,
# the patterns people use side by side on one workload, on clusters of its
# own that it stops when it ends: a primary (wal_level=logical,
# track_commit_timestamp=on, max_prepared_transactions, fsync on), a
# streaming standby of it and a logical subscriber of it.
# OUTBOX_PASSES names the parts to run (default: all of them, in this order:
# "costs 1 2 3 stalls defaults same"; the standby, the subscriber and the
# slot are made only for passes that read from them).
#   costs    single-row INSERTs by OUTBOX_CLIENTS pgbench clients for
#            OUTBOX_COST_SECONDS, OUTBOX_COST_REPS interleaved repetitions, into
#            a table with a plain uuidv7() key, the same with the xid8 column
#            and its index, with the guard trigger before the row, with
#            pg_uuidx_add_guard()'s guard, and with a tick every 100 ms:
#            insert tps, heap + index bytes a row, WAL bytes a row
#   1        writers for OUTBOX_SECONDS: short transactions (1-3 rows, up to
#            20 ms apart), two-phase ones (PREPARE, COMMIT PREPARED 50-500 ms
#            later), and two clients of long ones (2-5 s open, after a pause
#            of 1-10 s); ids made by the server in the inserting transaction
#            (DEFAULT uuidv7()), the table guarded by pg_uuidx_add_guard()
#            (allowance 0)
#   2        the same writers with ids made by the client 0-200 ms before
#            their transaction, the guard trigger without arguments on the
#            table (it allows pg_uuidx.horizon_allowance, 1 s), pgbench
#            --max-tries retrying its refusals (40001)
#   3        pass 2 again with a guard trigger that allows
#            OUTBOX_ALLOWANCE_MS (its third argument): a shorter lag, and
#            refusals of ids made longer than that before their insert
#   defaults every setting at its default (no allowance set, the built-in
#            ticker: pg_uuidx preloaded, pg_uuidx.tick_databases = bench),
#            for OUTBOX_SECONDS: OUTBOX_CLIENTS clients insert ids they made
#            0-1.5 s before into ob5, whose guard trigger has no arguments
#            (pgbench --max-tries retrying its refusals), and as many insert
#            ids of the server into ob6, guarded by pg_uuidx_add_guard();
#            each transaction stays open 1-3 s after its insert.  The
#            readers of each table, on the primary and the standby: id >
#            last, xid8, pg_uuidx; and pg_uuidx on the subscriber.  It
#            restarts the primary, so it runs after the passes above.
#   same     the same settings and the writers of ob6 alone, into ob7
#            (guarded by pg_uuidx_add_guard()), for OUTBOX_SECONDS, no
#            writer of any other table: id > last, xid8 and pg_uuidx on the
#            primary and the standby, each alone, and xid8 and pg_uuidx
#            paired in one loop (on the primary, on the standby); the load
#            average at its start and end
#   stalls   light writers (2 clients, 100 transactions a second) while
#            (a) a writing transaction stays open OUTBOX_OTHERDB_SECONDS in
#            another database, (b) OUTBOX_IDLE sessions sit idle in
#            transaction for OUTBOX_IDLE_SECONDS without writing, (c) one
#            transaction makes an id, inserts it and stays open
#            OUTBOX_IDMAKER_SECONDS; what each culprit looks like in
#            pg_uuidx_horizon_holders(), pg_stat_activity and
#            pg_replication_slots
# In every pass the readers poll every OUTBOX_POLL_MS side by side, each in
# a loop of the same procedure (ob_read in outbox.sql, which counts its
# polls and times its query in ob_polls): id > last, a fixed lag of 1 s,
# the xid8 pattern, logical decoding through a slot (test_decoding),
# pg_uuidx_read_after() on the primary, on the standby and on the
# subscriber (ticks from the primary every 100 ms).  Rows missed and read twice are counted against what
# committed; lag is the read time minus the commit time
# (pg_xact_commit_timestamp(xmin) on the primary).  Every table that
# pg_uuidx's readers read carries a guard, as 1.7's readers require: tables
# of ids made by the server pg_uuidx_add_guard()'s, of ids made by clients
# the guard trigger's.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use IPC::Run;
use Time::HiRes qw(sleep time);

# progress and errors to the terminal (FeedBench.pm), loaded before
# PostgreSQL::Test::Utils, which sends STDOUT and STDERR to its log file
use FeedBench;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
FeedBench::start('outbox');
my $stdout = $FeedBench::stdout;

my %o = map { $_ => $ENV{$_} } qw(OUTBOX_SECONDS OUTBOX_CLIENTS OUTBOX_POLL_MS OUTBOX_COST_SECONDS OUTBOX_COST_REPS
  OUTBOX_OTHERDB_SECONDS OUTBOX_IDLE OUTBOX_IDLE_SECONDS OUTBOX_IDMAKER_SECONDS OUTBOX_ALLOWANCE_MS);
for (sort keys %o)
{
	die "$_ is not set: run make bench\n" unless defined $o{$_} && $o{$_} =~ /^[1-9]\d*$/;
}
my @all_passes = qw(costs 1 2 3 stalls defaults same);
my %run = map { $_ => 1 } split ' ', $ENV{OUTBOX_PASSES} // "@all_passes";
for my $p (sort keys %run)
{
	die "OUTBOX_PASSES: unknown pass '$p' (passes: @all_passes)\n" unless grep { $_ eq $p } @all_passes;
}
# what the passes read from: a standby (every pass that reads), a subscriber and a slot (all but the last)
my $need_sub = grep { $run{$_} } qw(1 2 3 stalls defaults);
my $need_standby = $need_sub || $run{same};
my %load = (start => loadavg());
die "OUTBOX_CLIENTS must be 3 or more (two of them run the long transactions)\n" if $o{OUTBOX_CLIENTS} < 3;
my $out = $ENV{BENCH_OUT} or die "BENCH_OUT is not set: run make bench\n";
my $here = $FindBin::RealBin;
my $poll = $o{OUTBOX_POLL_MS} / 1000;
# how long readers go on after the writers are done (pgbench returned, what
# it left prepared committed): 1 s of fixed lag or of allowance, a tick, a poll
my $tail = 3;
my $tick_every = 0.1;

my $primary = PostgreSQL::Test::Cluster->new('outbox_primary');
$primary->init(allows_streaming => 'logical');
my ($major) = `pg_config --version` =~ /PostgreSQL (\d+)/ or die "pg_config --version: no major\n";
# pg_uuidx's functions ahead of core's same-named ones (17/18: uuidv7())
my @common = ("search_path = 'public, pg_catalog'", 'log_statement = none', 'log_min_messages = warning',
	$major < 17 ? "shared_preload_libraries = 'pg_uuidx'" : ());
$primary->append_conf('postgresql.conf', join("\n", @common, 'fsync = on', 'shared_buffers = 1GB',
	'max_wal_size = 4GB', 'track_commit_timestamp = on', 'max_prepared_transactions = 50',
	'wal_retrieve_retry_interval = 100ms',
	'max_connections = ' . ($o{OUTBOX_IDLE} + 60), 'max_wal_senders = 10', 'max_replication_slots = 10') . "\n");
$primary->start;
my $pver = $primary->safe_psql('postgres', 'SELECT version()');
say "primary: $pver, socket " . $primary->host . ' port ' . $primary->port;
$primary->safe_psql('postgres', 'CREATE DATABASE bench');
$primary->safe_psql('postgres', 'CREATE DATABASE otherdb');
$primary->safe_psql('otherdb', 'CREATE TABLE t (n int)');
$primary->safe_psql('bench', 'CREATE EXTENSION pg_uuidx; CREATE EXTENSION dblink;');
$primary->safe_psql('bench', slurp_file("$here/outbox.sql"));
sub has_function { return $primary->safe_psql('bench', "SELECT to_regprocedure('$_[0]') IS NOT NULL") eq 't'; }
my $has_guard = has_function('pg_uuidx_horizon_guard()');
my $has_tick = has_function('pg_uuidx_tick()');
# 1.7: the guard in one call, a guard's own allowance, readers that refuse a table without a guard
my $has_add_guard = has_function('pg_uuidx_add_guard(regclass,name,integer,text)');
my $ext = $primary->safe_psql('bench', "SELECT extversion FROM pg_extension WHERE extname = 'pg_uuidx'");
say "pg_uuidx $ext: " . ($has_guard ? '' : 'no ') . 'pg_uuidx_horizon_guard(), ' . ($has_add_guard ? '' : 'no ')
  . 'pg_uuidx_add_guard(), ' . ($has_tick ? '' : 'no ')
  . 'pg_uuidx_tick()' . ($has_tick ? '' : ' (standby and subscriber readers left out)');
# The guards of the tables pg_uuidx's readers read, on the primary and the
# subscriber (where the apply worker does not fire them: the reader only
# checks that every row passed one): ids made by the server,
# pg_uuidx_add_guard() (allowance 0); ids made by clients, the guard trigger
# (no arguments: pg_uuidx.horizon_allowance, 1 s; pass 3 its own allowance)
my @guards = (
	$has_add_guard ? (map { "SELECT pg_uuidx_add_guard('$_')" } qw(ob1 ob3 ob6 ob7)) : (),
	$has_guard ? (map { "CREATE TRIGGER ${_}_guard BEFORE INSERT OR UPDATE ON $_ FOR EACH ROW EXECUTE FUNCTION "
			  . 'pg_uuidx_horizon_guard()' } qw(ob2 ob5)) : (),
	$has_add_guard ? ('CREATE TRIGGER ob4_guard BEFORE INSERT OR UPDATE ON ob4 FOR EACH ROW EXECUTE FUNCTION '
		  . "pg_uuidx_horizon_guard('id', '7', '$o{OUTBOX_ALLOWANCE_MS}ms')") : ());
$primary->safe_psql('bench', join(";\n", @guards)) if @guards;

my @conn = FeedBench::node($primary);
# ---- costs: the table each approach needs, on the primary alone
my %cost_def = (
	'plain uuidv7() key' => '',
	'+ xid8 column and index' => "ALTER TABLE TBL ADD COLUMN xid xid8 NOT NULL DEFAULT pg_current_xact_id();\n"
	  . "CREATE INDEX ON TBL (xid, id);",
	$has_guard ? ('+ guard trigger' => 'CREATE TRIGGER TBL_guard BEFORE INSERT OR UPDATE ON TBL'
		  . ' FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();') : (),
	$has_add_guard ? ('+ pg_uuidx_add_guard()' => "SELECT pg_uuidx_add_guard('TBL');") : (),
	$has_tick ? ('+ a tick every 100 ms' => '') : ());
my @variants = grep { exists $cost_def{$_} } ('plain uuidv7() key', '+ xid8 column and index', '+ guard trigger',
	'+ pg_uuidx_add_guard()', '+ a tick every 100 ms');
$primary->safe_psql('bench', 'CREATE TABLE ob_cost (variant text, ord int, rep int, tps float8, rows bigint, bytes bigint,
	wal_bytes numeric)');
my $j = $o{OUTBOX_CLIENTS} % 2 ? 1 : 2;
for my $rep ($run{costs} ? 1 .. $o{OUTBOX_COST_REPS} : ())
{
	my @order = $rep % 2 ? @variants : reverse @variants;
	for my $v (@order)
	{
		say "costs: $v, $o{OUTBOX_CLIENTS} clients, $o{OUTBOX_COST_SECONDS} s (repetition $rep)";
		$primary->safe_psql('bench', "DROP TABLE IF EXISTS obc;
			CREATE TABLE obc (id uuid PRIMARY KEY DEFAULT uuidv7(), w int NOT NULL, kind text NOT NULL);
			" . ($cost_def{$v} =~ s/TBL/obc/gr) . "
			CHECKPOINT");
		my $f = script('cost', 'obc', "INSERT INTO TBL (w, kind) VALUES (:client_id, 'cost');\n");
		my $lsn0 = $primary->safe_psql('bench', 'SELECT pg_current_wal_lsn()');
		my $ticker;
		$ticker = IPC::Run::start([ 'psql', '-X', '-q', @conn, '-d', 'bench', '-c',
			"CALL ob_ticker('cost $rep', $tick_every)" ], '>', \my $to, '2>&1')
		  if $v =~ /tick/;
		my $res = pgbench_finish(pgbench_start('bench', '-c', $o{OUTBOX_CLIENTS}, '-j', $j, '-T', $o{OUTBOX_COST_SECONDS},
			'-f', $f));
		if ($ticker)
		{
			$primary->safe_psql('bench', "INSERT INTO ob_stop VALUES ('cost $rep')");
			$ticker->finish or die "ticker failed: $to\n";
		}
		my ($ord) = grep { $variants[$_] eq $v } 0 .. $#variants;
		$primary->safe_psql('bench', "INSERT INTO ob_cost SELECT '$v', $ord, $rep, " . tps($res) . ", count(*),
			pg_table_size('obc') + pg_indexes_size('obc'),
			pg_wal_lsn_diff(pg_current_wal_lsn(), '$lsn0') FROM obc");
	}
}
$primary->safe_psql('bench', 'DROP TABLE IF EXISTS obc');

# ---- the standby, the subscriber, the slot
my ($standby, $sub);
$primary->safe_psql('bench', q{SELECT pg_create_logical_replication_slot('ob_slot', 'test_decoding')}) if $need_sub;
if ($need_standby)
{
	$primary->backup('b');
	$standby = PostgreSQL::Test::Cluster->new('outbox_standby');
	$standby->init_from_backup($primary, 'b', has_streaming => 1);
	$standby->start;
}
if ($need_sub)
{
	$sub = PostgreSQL::Test::Cluster->new('outbox_subscriber');
	$sub->init;
	$sub->append_conf('postgresql.conf', join("\n", @common, 'max_connections = 40') . "\n");
	$sub->start;
	$sub->safe_psql('postgres', 'CREATE DATABASE bench');
	$sub->safe_psql('bench', 'CREATE EXTENSION pg_uuidx');
	$sub->safe_psql('bench', slurp_file("$here/outbox.sql"));
	$sub->safe_psql('bench', join(";\n", @guards)) if @guards;
	my $pconn = conninfo($primary);
	$primary->safe_psql('bench', 'CREATE PUBLICATION ob_pub FOR TABLE ob1, ob2, ob3, ob4, ob5, ob6'
		  . ($has_tick ? ', pg_uuidx_last_tick' : ''));
	$sub->safe_psql('bench', "CREATE SUBSCRIPTION ob_sub CONNECTION '$pconn' PUBLICATION ob_pub");
	$sub->wait_for_subscription_sync($primary, 'ob_sub', 'bench');
}
say join(' and ', $standby ? 'standby' : (), $sub ? 'subscriber' : ()) . ' ready' if $standby;

my @readers = ('id > last', 'lag 1 s', 'xid8', 'logical slot', 'pg_uuidx primary',
	$has_tick ? ('pg_uuidx standby', 'pg_uuidx subscriber') : ());

# start every reader of @$list (default @readers) and, unless $no_ticker, the
# ticker on $table, until stop_readers($pass)
sub start_readers
{
	my ($pass, $table, $list, $no_ticker) = @_;
	my @h;
	if ($has_tick && !$no_ticker)
	{
		push @h, IPC::Run::start([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', @conn, '-d', 'bench', '-c',
			"CALL ob_ticker('$pass', $tick_every)" ], '>', \my $o, '2>&1');
		# a tick on the standby and the subscriber before their readers start
		$_->poll_query_until('bench', 'SELECT count(*) = 1 FROM pg_uuidx_last_tick') for grep { defined } $primary,
		  $standby, $sub;
	}
	my $sconn = conninfo($standby);
	for my $r (@{ $list || \@readers })
	{
		my $node = $r eq 'pg_uuidx subscriber' ? $sub : $primary;
		push @h, IPC::Run::start([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-h', $node->host, '-p', $node->port,
			'-d', 'bench', '-c', "CALL ob_read('$r', '$pass', '$table', $poll, '$sconn')" ],
			'>', \my $o, '2>', \my $e);
		push @h, [ $r, \$e ];
	}
	return \@h;
}
# $tail seconds after the writers of $pass are done: the readers stop
sub stop_readers
{
	my ($pass, $h) = @_;
	sleep $tail;
	$_->safe_psql('bench', "INSERT INTO ob_stop VALUES ('$pass')") for grep { defined } $primary, $sub;
	my @h = @$h;
	while (my $x = shift @h)
	{
		my $info = ref $h[0] eq 'ARRAY' ? shift @h : [ 'ticker', \'' ];
		next if ref $x eq 'ARRAY';
		$x->finish or die "reader $info->[0] failed: ${ $info->[1] }\n";
	}
	return;
}
# every transaction pgbench left prepared when its time was up: committed
sub commit_prepared
{
	$primary->safe_psql('bench', q{SELECT format('COMMIT PREPARED %L', gid) FROM pg_prepared_xacts
		WHERE database = current_database() \gexec});
	return;
}

# ---- passes 1, 2 and 3
my %pgb;    # pass => pgbench outputs
my %table = (1 => 'ob1', 2 => 'ob2', 3 => 'ob4');
for my $pass (grep { $run{$_} } 1, 2, $has_add_guard ? 3 : ())
{
	my $table = $table{$pass};
	my $client_ids = $pass >= 2;
	# ids made by the client: in a transaction of their own, 0-200 ms before the one that inserts them
	# (the delay from SQL's random(): pgbench replays its own random numbers when it retries)
	my $ids = $client_ids ? "SELECT uuidv7() AS a, uuidv7() AS b, uuidv7() AS c, (random() * 200)::int AS d \\gset\n"
	  . "\\sleep :d ms\n" : '';
	my ($col, $first, $rest) = $client_ids
	  ? ('id, ', "':a', ", "SELECT u, :client_id, KIND FROM unnest((ARRAY[':b', ':c']::uuid[])[1:(:n - 1)]) u")
	  : ('', '', 'SELECT :client_id, KIND FROM generate_series(2, :n)');
	my $short = script("short$pass", $table, "\\set n random(1, 3)\n\\set s random(0, 20)\n$ids" . "BEGIN;\n"
		  . "INSERT INTO TBL (${col}w, kind) VALUES ($first:client_id, 'short');\n\\sleep :s ms\n"
		  . "INSERT INTO TBL (${col}w, kind) " . ($rest =~ s/KIND/'short'/r) . ";\nCOMMIT;\n");
	my $twophase = script("twophase$pass", $table, "\\set n random(1, 3)\n\\set g random(1, 2000000000)\n"
		  . "\\set s random(50, 500)\n$ids" . "BEGIN;\n"
		  . "INSERT INTO TBL (${col}w, kind) VALUES ($first:client_id, '2pc');\n"
		  . "INSERT INTO TBL (${col}w, kind) " . ($rest =~ s/KIND/'2pc'/r) . ";\n"
		  . "PREPARE TRANSACTION 'ob:client_id-:g';\n\\sleep :s ms\nCOMMIT PREPARED 'ob:client_id-:g';\n");
	my $long = script("long$pass", $table, "\\set p random(1000, 10000)\n\\sleep :p ms\n\\set s random(2000, 5000)\n$ids"
		  . "BEGIN;\n"
		  . "INSERT INTO TBL (${col}w, kind) VALUES ($first:client_id, 'long');\n\\sleep :s ms\nCOMMIT;\n");
	my @retry = $client_ids ? ('--max-tries=20') : ();
	say "pass $pass: writers for $o{OUTBOX_SECONDS} s (" . ($client_ids ? 'ids made by the client 0-200 ms before'
		  . ($has_guard ? ', guard trigger' : ', NO guard trigger (not installed)') : 'ids made by the server')
	  . ($pass == 3 ? " allowing $o{OUTBOX_ALLOWANCE_MS} ms" : '') . '), readers: ' . join(', ', @readers);
	my $r = start_readers("pass $pass", $table);
	my $main = pgbench_start('bench', '-c', $o{OUTBOX_CLIENTS} - 2, '-j', 1, '-T', $o{OUTBOX_SECONDS}, @retry,
		'-f', "$short\@80", '-f', "$twophase\@20");
	my $longs = pgbench_start('bench', '-c', 2, '-j', 1, '-T', $o{OUTBOX_SECONDS}, @retry, '-f', $long);
	$pgb{$pass} = { main => pgbench_finish($main), long => pgbench_finish($longs) };
	commit_prepared();
	stop_readers("pass $pass", $r);
	print $stdout "pass $pass writers:\n", map { /^(tps|number of|total number|maximum number)/ ? "  $_\n" : () }
	  split /\n/, "$pgb{$pass}{main}\n$pgb{$pass}{long}";
}

# ---- stalls
my @scen = (
	[ 'otherdb', "a writing transaction open $o{OUTBOX_OTHERDB_SECONDS} s in another database", $o{OUTBOX_OTHERDB_SECONDS} ],
	[ 'idle', "$o{OUTBOX_IDLE} sessions idle in transaction for $o{OUTBOX_IDLE_SECONDS} s, no writes",
		$o{OUTBOX_IDLE_SECONDS} ],
	[ 'idmaker', "one transaction that made an id and inserted it, open $o{OUTBOX_IDMAKER_SECONDS} s",
		$o{OUTBOX_IDMAKER_SECONDS} ]);
my $gap = 4;
my $stall_seconds = $gap;
$stall_seconds += $_->[2] + $gap for @scen;
$primary->safe_psql('bench', 'CREATE TABLE ob_window (scenario text, label text, ord int, since timestamptz,
	until timestamptz, holders text, xid_holders text, idle_in_xact int, slot_behind text)');
if ($run{stalls})
{
	say "stalls: light writers for $stall_seconds s, scenarios: " . join('; ', map { $_->[1] } @scen);
	my $sr = start_readers('stalls', 'ob3');
	my $light = script('light', 'ob3', "\\set n random(1, 3)\nBEGIN;\nINSERT INTO TBL (w, kind) "
		  . "SELECT :client_id, 'light' FROM generate_series(1, :n);\nCOMMIT;\n");
	my $lw = pgbench_start('bench', '-c', 2, '-j', 1, '-R', 100, '-T', $stall_seconds, '-f', $light);
	sleep $gap;
	my $ord = 0;
	for my $s (@scen)
	{
		my ($name, $label, $secs) = @$s;
		$ord++;
		say "stall: $label";
		my $since = $primary->safe_psql('bench', 'SELECT clock_timestamp()');
		my @h;
		if ($name eq 'otherdb')
		{
			push @h, IPC::Run::start([ 'psql', '-X', '-q', @conn, '-d', 'otherdb', '-c',
				"BEGIN; INSERT INTO t VALUES (1); SELECT pg_sleep($secs); COMMIT;" ], '>', \my $o, '2>&1');
		}
		elsif ($name eq 'idle')
		{
			# psql runs a shell command while its session sits idle in transaction
			my $f = script('idle', 'ob3', "BEGIN;\nSELECT 1;\n\\! sleep $secs\nCOMMIT;\n");
			push @h, IPC::Run::start([ 'psql', '-X', '-q', @conn, '-d', 'bench', '-f', $f ], '>', \my $o, '2>&1')
			  for 1 .. $o{OUTBOX_IDLE};
			$primary->poll_query_until('bench', "SELECT count(*) >= $o{OUTBOX_IDLE} FROM pg_stat_activity
				WHERE state = 'idle in transaction'") or die "the idle sessions did not start\n";
		}
		else
		{
			push @h, IPC::Run::start([ 'psql', '-X', '-q', @conn, '-d', 'bench', '-c',
				"BEGIN; INSERT INTO ob3 (w, kind) VALUES (0, 'culprit'); SELECT pg_sleep($secs); COMMIT;" ],
				'>', \my $o, '2>&1');
		}
		# two thirds in: what the user would look at
		sleep $secs * 2 / 3;
		$primary->safe_psql('bench', qq{INSERT INTO ob_window (scenario, label, ord, since, holders, xid_holders,
				idle_in_xact, slot_behind)
			SELECT '$name', '$label', $ord, '$since',
			  (SELECT coalesce(string_agg(format('pid %s (%s), since %s s', h.pid, coalesce(a.state, 'prepared'),
			                                     round(extract(epoch FROM clock_timestamp() - h.holds_since)::numeric, 1)),
			                              '; '), 'none')
			   FROM pg_uuidx_horizon_holders() h LEFT JOIN pg_stat_activity a USING (pid)),
			  (SELECT coalesce(string_agg(format('%s pid %s xid %s (%s, %s s)', datname, pid, backend_xid, state,
			                     round(extract(epoch FROM clock_timestamp() - xact_start)::numeric, 1)), '; '), 'none')
			   FROM pg_stat_activity WHERE backend_xid IS NOT NULL AND xact_start < clock_timestamp() - interval '2 s'),
			  (SELECT count(*) FROM pg_stat_activity WHERE state = 'idle in transaction'),
			  (SELECT string_agg(format('%s %s', slot_name, pg_size_pretty(pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn))),
			                     ', ' ORDER BY slot_name) FROM pg_replication_slots)});
		sleep $secs / 3;
		$_->finish or die "stall $name: a culprit failed\n" for @h;
		$primary->safe_psql('bench', "UPDATE ob_window SET until = clock_timestamp() WHERE scenario = '$name'");
		sleep $gap;
	}
	pgbench_finish($lw);
	stop_readers('stalls', $sr);
}

# ---- every setting at its default, the built-in ticker: the setup a newcomer
# follows (docs/outbox.md), each statement counted for its approach
my @default_readers = ('id > last', 'xid8', 'xid8 standby', 'pg_uuidx primary', 'pg_uuidx standby',
	'pg_uuidx subscriber');
# and in the last pass, besides: xid8 and pg_uuidx in one loop, on the primary and on the standby
my @same_readers = ('id > last', 'xid8', 'xid8 standby', 'pg_uuidx primary', 'pg_uuidx standby',
	'xid8+pg_uuidx primary', 'xid8 standby+pg_uuidx standby');
my %setup = (
	xid8 => [ map { ("ALTER TABLE $_ ADD COLUMN xid xid8 NOT NULL DEFAULT pg_current_xact_id()",
				"CREATE INDEX ON $_ (xid, id)") } qw(ob5 ob6) ],
	pg_uuidx => [ "ALTER SYSTEM SET shared_preload_libraries = 'pg_uuidx'",
		"ALTER SYSTEM SET pg_uuidx.tick_databases = 'bench'", '(a restart)', 'CREATE EXTENSION pg_uuidx',
		'CREATE TRIGGER ob5_guard BEFORE INSERT OR UPDATE ON ob5 FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard()',
		"SELECT pg_uuidx_add_guard('ob6')" ]);
my $has_ticker = $has_add_guard && $has_tick
  && $primary->safe_psql('bench', q{SELECT uuidv7() IS NOT NULL;
	SELECT count(*) FROM pg_settings WHERE name = 'pg_uuidx.tick_databases'}) =~ /1$/;
# the writers of ob6 in the pass below, and alone in the last one
my $server_writer = "\\set s random(1000, 3000)\nBEGIN;\n"
  . "INSERT INTO TBL (w, kind) VALUES (:client_id, 'server');\n\\sleep :s ms\nCOMMIT;\n";
my %defaults;
if ($has_ticker && ($run{defaults} || $run{same}))
{
	# the tables carry the xid8 column and its index already (outbox.sql), and their guards (above)
	$primary->safe_psql('bench', $_) for grep { /^ALTER SYSTEM/ } @{ $setup{pg_uuidx} };
	$primary->restart;
	$primary->poll_query_until('bench', "SELECT count(*) = 1 FROM pg_stat_activity WHERE backend_type = 'pg_uuidx ticker'")
	  or die "the ticker did not start\n";
	$primary->wait_for_catchup('ob_sub') if $sub;
	$primary->wait_for_catchup($standby);
	# a tick of the built-in ticker on every node before its readers start
	$_->poll_query_until('bench', 'SELECT count(*) = 1 FROM pg_uuidx_last_tick WHERE exact_horizon IS NOT NULL')
	  for grep { defined } $primary, $standby, $sub;
}
if ($has_ticker && $run{defaults})
{
	my $refusals0 = $primary->safe_psql('bench', 'SELECT refusals FROM pg_uuidx_stats');
	# the delay from SQL's random(), as in passes 2 and 3: a retry makes a new id, with a new delay
	my $client = script('dclient', 'ob5', "\\set s random(1000, 3000)\n"
		  . "SELECT uuidv7() AS a, (random() * 1500)::int AS d \\gset\n\\sleep :d ms\nBEGIN;\n"
		  . "INSERT INTO TBL (id, w, kind) VALUES (':a', :client_id, 'client');\n\\sleep :s ms\nCOMMIT;\n");
	my $server = script('dserver', 'ob6', $server_writer);
	say "defaults: writers for $o{OUTBOX_SECONDS} s ($o{OUTBOX_CLIENTS} clients of ids made 0-1.5 s early, guarded, "
	  . "$o{OUTBOX_CLIENTS} of server ids; open 1-3 s), the built-in ticker, readers: " . join(', ', @default_readers);
	my @r = (start_readers('defaults: client ids', 'ob5', \@default_readers, 1),
		start_readers('defaults: server ids', 'ob6', \@default_readers, 1));
	my $cw = pgbench_start('bench', '-c', $o{OUTBOX_CLIENTS}, '-j', 1, '-T', $o{OUTBOX_SECONDS}, '--max-tries=20',
		'-f', $client);
	my $sw = pgbench_start('bench', '-c', $o{OUTBOX_CLIENTS}, '-j', 1, '-T', $o{OUTBOX_SECONDS}, '-f', $server);
	$pgb{defaults} = { client => pgbench_finish($cw), server => pgbench_finish($sw) };
	stop_readers('defaults: client ids', $r[0]);
	stop_readers('defaults: server ids', $r[1]);
	%defaults = (refusals => $primary->safe_psql('bench', 'SELECT refusals FROM pg_uuidx_stats') - $refusals0);
}

# ---- the same settings, the writers of server ids alone: nothing else writes
# (no other table, no ticker but the built-in one), so the lag of each reader
# is what this one table's writers cause
if ($has_ticker && $run{same})
{
	my $server = script('sserver', 'ob7', $server_writer);
	$load{same_start} = loadavg();
	say "same table, defaults: writers for $o{OUTBOX_SECONDS} s ($o{OUTBOX_CLIENTS} clients of server ids, open 1-3 s, "
	  . "nothing else writing), the built-in ticker, load $load{same_start}, readers: " . join(', ', @same_readers);
	my $r = start_readers('same table, defaults', 'ob7', \@same_readers, 1);
	$pgb{same} = { server => pgbench_finish(pgbench_start('bench', '-c', $o{OUTBOX_CLIENTS}, '-j', 1, '-T',
		$o{OUTBOX_SECONDS}, '-f', $server)) };
	stop_readers('same table, defaults', $r);
	$load{same_end} = loadavg();
}
$load{end} = loadavg();

# ---- the record: what committed (with its commit time), what the subscriber read
$primary->safe_psql('bench', q{
CREATE TABLE committed AS
SELECT 'pass 1' AS pass, id, kind, pg_xact_commit_timestamp(xmin) AS committed_at, xid, at FROM ob1
UNION ALL SELECT 'pass 2', id, kind, pg_xact_commit_timestamp(xmin), xid, at FROM ob2
UNION ALL SELECT 'pass 3', id, kind, pg_xact_commit_timestamp(xmin), xid, at FROM ob4
UNION ALL SELECT 'stalls', id, kind, pg_xact_commit_timestamp(xmin), xid, at FROM ob3
UNION ALL SELECT 'defaults: client ids', id, kind, pg_xact_commit_timestamp(xmin), xid, at FROM ob5
UNION ALL SELECT 'defaults: server ids', id, kind, pg_xact_commit_timestamp(xmin), xid, at FROM ob6
UNION ALL SELECT 'same table, defaults', id, kind, pg_xact_commit_timestamp(xmin), xid, at FROM ob7;
CREATE INDEX ON committed (pass, id);
});
if ($sub && $has_tick)
{
	$primary->safe_psql('bench', "INSERT INTO seen SELECT * FROM dblink('" . conninfo($sub) . "',
		'SELECT reader, pass, seq, id, read_at FROM seen') AS d(reader text, pass text, seq bigint, id uuid,
		read_at timestamptz)");
	$primary->safe_psql('bench', "INSERT INTO ob_polls SELECT * FROM dblink('" . conninfo($sub) . "',
		'SELECT * FROM ob_polls') AS d(reader text, pass text, polls bigint, query_ms float8, max_query_ms float8,
		since timestamptz, until timestamptz)");
}
# per pass: transactions a second, transactions retried, retries, failures
my %v;
for my $pass (sort keys %pgb)
{
	my ($tps, $retried, $retries, $failed) = (0, 0, 0, 0);
	for (values %{ $pgb{$pass} })
	{
		$tps += tps($_);
		$retried += ($_ =~ /^number of transactions retried: (\d+)/m)[0] // 0;
		$retries += ($_ =~ /^total number of retries: (\d+)/m)[0] // 0;
		$failed += ($_ =~ /^number of failed transactions: (\d+)/m)[0] // 0;
	}
	$v{"writers$pass"} = sprintf('%.0f tps, %d retried (%d retries), %d failed', $tps, $retried, $retries, $failed);
}
open(my $fh, '>', "$out/outbox.md") or die $!;
%v = (%v, readers => join(',', @readers), seconds => $o{OUTBOX_SECONDS}, clients => $o{OUTBOX_CLIENTS},
	poll => $o{OUTBOX_POLL_MS}, cost_seconds => $o{OUTBOX_COST_SECONDS}, cost_reps => $o{OUTBOX_COST_REPS},
	allowance => $o{OUTBOX_ALLOWANCE_MS}, guard => $has_guard ? 'on' : 'off', tick => $has_tick ? 'on' : 'off',
	version => $pver, ext => $ext);
$v{"writers$_"} //= 'not run' for 1, 2, 3, 'defaults', 'same';
$v{default_readers} = join(',', @default_readers);
# the names the readers are recorded under: "<reader> (paired)" for those in one loop
$v{same_readers} = join(',', map { my $r = $_; $r =~ /\+/ ? map { "$_ (paired)" } split /\+/, $r : $r } @same_readers);
# which sections the report has: the parts that ran
$v{ran_costs} = $run{costs} ? 'on' : 'off';
$v{ran_passes} = (grep { $pgb{$_} } 1, 2, 3) ? 'on' : 'off';
$v{ran_stalls} = $run{stalls} ? 'on' : 'off';
$v{ran_defaults} = $pgb{defaults} ? 'on' : 'off';
$v{ran_same} = $pgb{same} ? 'on' : 'off';
$v{"load_$_"} = $load{$_} // '' for qw(start end same_start same_end);
$v{refusals} = $defaults{refusals} // 0;
$v{"setup_$_"} = scalar(@{ $setup{$_} }) . ': ' . join('; ', map { "`$_`" } @{ $setup{$_} }) for keys %setup;
print $fh $primary->safe_psql('bench', slurp_file("$here/outbox_report.sql"),
	extra_params => [ map { ('-v', "$_=$v{$_}") } sort keys %v ]) . "\n";
close($fh);

$sub->safe_psql('bench', 'DROP SUBSCRIPTION ob_sub') if $sub;
$primary->safe_psql('bench', q{SELECT pg_drop_replication_slot('ob_slot')}) if $need_sub;
$_->stop('fast') for grep { defined } $sub, $standby, $primary;
say "done: $out/outbox.md";
