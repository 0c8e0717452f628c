# test/bench/throughput.pl - the throughput phase of "make bench" (bench.pl
# runs it with PostgreSQL's TAP modules on the include path; it writes
# $BENCH_OUT/throughput.md).  Writers at full speed, the same producers for
# each way of reading a table in order, on a primary of its own (fsync on,
# shared_buffers=1GB, max_wal_size=4GB, wal_level=logical,
# track_commit_timestamp=on for the lag) that it stops when it ends:
#   plain               a table keyed by DEFAULT uuidv7(), no reader: the
#                       baseline of every ratio
#   pg_uuidx            the same table guarded by pg_uuidx_add_guard(), read
#                       by pg_uuidx_consume() and pg_uuidx_consumer_ack()
#   pg_uuidx guard alone the guarded table, no reader: what the guard costs
#   pg_uuidx client ids ids made by the client (a SELECT uuidv7() before
#                       each transaction, one more round trip), the guard
#                       allowing 200 ms (pg_uuidx_add_guard(t, 'id', 7, '200ms')),
#                       read as pg_uuidx above; pgbench retries refusals
#   xid8                the recipe of outbox.pl: an xid8 column, its index,
#                       a reader below pg_snapshot_xmin()
#   logical             the plain table, read through a slot (test_decoding)
#   pgq                 PgQ 3.5's pgq.insert_event() (the id in ev_extra1, a
#                       gen_random_uuid()), its ticker pgqd at its default
#                       settings, a consumer of next_batch(),
#                       get_batch_events() and finish_batch(); left out, with
#                       a message, when PgQ or pgqd is not installed
#                       (test/run.sh installs them from Debian)
# Each producer transaction inserts 1 row or 10 rows (one statement) with a
# payload of 200 bytes, by THROUGHPUT_CLIENTS pgbench clients (prepared
# statements) for THROUGHPUT_SECONDS a cell; THROUGHPUT_REPS repetitions.
# Approaches are interleaved: for each client count and shape every
# approach runs in turn, the order rotated from one to the next, so drift
# hits them alike.  Readers are outbox.sql's ob_read() loops, polling every
# THROUGHPUT_POLL_MS; after the writers, each reads on until it has read
# what committed (at most 60 s: what it has not read by then is missed).
# Per cell: transactions and events a second committed, the ratio to the
# plain table's tps of the same clients, shape and repetition, WAL bytes an
# event (all the server wrote meanwhile, the reader's writes included),
# missed and read twice against what committed, lag from commit to read
# (median, p99), whether the reader keeps up (the median lag of the events
# committed in the last quarter of the writers' time at most twice that of
# the first quarter plus 100 ms), the reader's events a second.  Then the
# readers alone: THROUGHPUT_BACKLOG_SECONDS of writers (8 clients, 10 rows)
# with no reader, then the reader drains that backlog: its events a second.
# Last, what the writers pay, without the noise of one cell against
# another (a shared machine's tps moves by a tenth from one 15 s cell to
# the next): the writers alone (plain, pg_uuidx guard alone, xid8's table,
# PgQ's insert_event()), 1 row a transaction, at each client count, in
# THROUGHPUT_COST_SLICES turns; in each turn every approach writes for
# THROUGHPUT_COST_SECONDS, after a CHECKPOINT, in an order rotated from turn
# to turn; the ratio to the plain table is taken within each turn, and its
# median and quartiles over the turns are reported.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use IPC::Run;
use POSIX qw(strftime);
use Time::HiRes qw(sleep time);

# progress and errors to the terminal (FeedBench.pm), loaded before
# PostgreSQL::Test::Utils, which sends STDOUT and STDERR to its log file
use FeedBench;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
FeedBench::start('throughput');

my %o = map { $_ => $ENV{$_} }
  qw(THROUGHPUT_SECONDS THROUGHPUT_REPS THROUGHPUT_POLL_MS THROUGHPUT_BACKLOG_SECONDS THROUGHPUT_COST_SLICES
  THROUGHPUT_COST_SECONDS);
for (sort keys %o)
{
	die "$_ is not set: run make bench\n" unless defined $o{$_} && $o{$_} =~ /^[1-9]\d*$/;
}
my @clients = split ' ', $ENV{THROUGHPUT_CLIENTS} // '';
die "THROUGHPUT_CLIENTS must list positive integers\n" unless @clients && !grep { !/^[1-9]\d*$/ } @clients;
my @all = ('plain', 'pg_uuidx', 'pg_uuidx guard alone', 'pg_uuidx client ids', 'xid8', 'logical', 'pgq');
my @approaches = split /,\s*/, $ENV{THROUGHPUT_APPROACHES} // join(',', @all);
for my $a (@approaches)
{
	die "THROUGHPUT_APPROACHES: unknown approach '$a' (approaches: " . join(', ', @all) . ")\n"
	  unless grep { $_ eq $a } @all;
}
die "THROUGHPUT_APPROACHES must name plain, the baseline\n" unless grep { $_ eq 'plain' } @approaches;
my $out = $ENV{BENCH_OUT} or die "BENCH_OUT is not set: run make bench\n";
my $here = $FindBin::RealBin;
my %load = (start => loadavg());
my $max_clients = (sort { $b <=> $a } @clients)[0];

my $node = PostgreSQL::Test::Cluster->new('throughput');
$node->init(allows_streaming => 'logical');
my ($major) = `pg_config --version` =~ /PostgreSQL (\d+)/ or die "pg_config --version: no major\n";
$node->append_conf('postgresql.conf', join("\n", "search_path = 'public, pg_catalog'", 'log_statement = none',
	'log_min_messages = warning', $major < 17 ? "shared_preload_libraries = 'pg_uuidx'" : (), 'fsync = on',
	'shared_buffers = 1GB', 'max_wal_size = 4GB', 'track_commit_timestamp = on',
	'max_connections = ' . ($max_clients + 30)) . "\n");
$node->start;
my @conn = FeedBench::node($node);
my $pver = $node->safe_psql('postgres', 'SELECT version()');
say "$pver, socket " . $node->host . ' port ' . $node->port;
$node->safe_psql('postgres', 'CREATE DATABASE bench');
$node->safe_psql('bench', 'CREATE EXTENSION pg_uuidx');
$node->safe_psql('bench', slurp_file("$here/outbox.sql"));
$node->safe_psql('bench', slurp_file("$here/throughput.sql"));
my $ext = $node->safe_psql('bench', "SELECT extversion FROM pg_extension WHERE extname = 'pg_uuidx'");

# PgQ and its ticker, when installed
my ($pgq, $pgqd, $pgq_skip) = ('', undef, '');
if (grep { $_ eq 'pgq' } @approaches)
{
	my ($pgqd_bin) = grep { -x } map { "$_/pgqd" } split /:/, $ENV{PATH};
	if ($node->safe_psql('bench', q{SELECT count(*) FROM pg_available_extensions WHERE name = 'pgq'}) eq '0')
	{
		$pgq_skip = 'the extension pgq is not installed (Debian: postgresql-' . $major . '-pgq3)';
	}
	elsif (!$pgqd_bin)
	{
		$pgq_skip = 'pgqd is not installed (Debian: pgqd)';
	}
	else
	{
		$node->safe_psql('bench', 'CREATE EXTENSION pgq');
		$pgq = $node->safe_psql('bench', q{SELECT extversion FROM pg_extension WHERE extname = 'pgq'});
		my $dir = PostgreSQL::Test::Utils::tempdir();
		open(my $fh, '>', "$dir/pgqd.ini") or die $!;
		# every setting but where to connect and log at its default
		print $fh "[pgqd]\nlogfile = $dir/pgqd.log\npidfile = $dir/pgqd.pid\nbase_connstr = host="
		  . $node->host . ' port=' . $node->port . "\ninitial_database = bench\ndatabase_list = bench\n";
		close($fh);
		$pgqd = IPC::Run::start([ $pgqd_bin, "$dir/pgqd.ini" ], '>', \my $po, '2>&1');
		$pgq .= ', pgqd ' . ((`$pgqd_bin -V 2>&1` =~ /(\d+\.\d+(?:\.\d+)?)/)[0] // '?');
	}
	if ($pgq_skip)
	{
		say "PgQ skipped: $pgq_skip";
		@approaches = grep { $_ ne 'pgq' } @approaches;
	}
}
say "pg_uuidx $ext" . ($pgq ? ", PgQ $pgq" : '') . '; approaches: ' . join(', ', @approaches);

my $payload = 'x' x 200;
my %reader = ('pg_uuidx' => 'pg_uuidx consume', 'pg_uuidx client ids' => 'pg_uuidx consume', xid8 => 'xid8',
	logical => 'logical slot', pgq => 'pgq');
my $key = "CREATE TABLE TBL (id uuid PRIMARY KEY DEFAULT uuidv7(), payload text NOT NULL)";
my %setup = (
	plain => $key,
	'pg_uuidx' => "$key; SELECT pg_uuidx_add_guard('TBL')",
	'pg_uuidx guard alone' => "$key; SELECT pg_uuidx_add_guard('TBL')",
	'pg_uuidx client ids' => "$key; SELECT pg_uuidx_add_guard('TBL', 'id', 7, '200ms')",
	xid8 => "$key; ALTER TABLE TBL ADD COLUMN xid xid8 NOT NULL DEFAULT pg_current_xact_id();"
	  . ' CREATE INDEX ON TBL (xid, id)',
	logical => "$key; SELECT pg_create_logical_replication_slot('ob_slot', 'test_decoding')",
	pgq => "SELECT pgq.create_queue('TBL'); SELECT pgq.register_consumer('TBL', 'relay')");
my %teardown = (
	map({ $_ => "SELECT pg_uuidx_consumer_reset('TBL', 'relay'); DROP TABLE TBL" } 'pg_uuidx', 'pg_uuidx client ids'),
	logical => "SELECT pg_drop_replication_slot('ob_slot'); DROP TABLE TBL",
	pgq => "SELECT pgq.unregister_consumer('TBL', 'relay'); SELECT pgq.drop_queue('TBL')");
# what committed: the id and the commit time of each event
my %committed = (pgq => sub {
		my $t = $node->safe_psql('bench', q{SELECT queue_data_pfx FROM pgq.queue WHERE queue_name = 'tp'});
		return "SELECT ev_extra1::uuid, pg_xact_commit_timestamp(xmin) FROM $t";
	});

# the producer of approach for n rows a transaction
sub producer
{
	my ($a, $n) = @_;
	my $rows = $n == 1 ? '' : " FROM generate_series(1, $n)";
	return "SELECT pgq.insert_event('TBL', 'e', '$payload', gen_random_uuid()::text, NULL, NULL, NULL)$rows;\n"
	  if $a eq 'pgq';
	return ($n == 1 ? "SELECT uuidv7() AS a \\gset\nINSERT INTO TBL (id, payload) VALUES (:a, '$payload');\n"
		  : "SELECT array_agg(uuidv7())::text AS a FROM generate_series(1, $n) \\gset\n"
		  . "INSERT INTO TBL (id, payload) SELECT unnest(:a::uuid[]), '$payload';\n")
	  if $a eq 'pg_uuidx client ids';
	return "INSERT INTO TBL (payload) SELECT '$payload'$rows;\n";
}

sub j_for { my ($c) = @_; return $c % 2 ? 1 : 2; }

# one cell: approach a, c clients, n rows a transaction, for seconds; kind
# 'run' (the reader beside the writers) or 'backlog' (the reader after them)
sub cell
{
	my ($a, $ord, $c, $n, $rep, $seconds, $kind) = @_;
	my $pass = "$a c$c r$n $kind $rep";
	my $r = $reader{$a};
	$node->safe_psql('bench', 'DROP TABLE IF EXISTS tp; ' . ($setup{$a} =~ s/TBL/tp/gr) . '; CHECKPOINT');
	my $f = script("p$n", 'tp', producer($a, $n));
	my $start_reader = sub {
		return IPC::Run::start([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', @conn, '-d', 'bench', '-c',
			"CALL ob_read('$r', '$pass', 'tp', $o{THROUGHPUT_POLL_MS} / 1000.0)" ], '>', \my $ro, '2>', \my $re);
	};
	my $reader = $r && $kind eq 'run' ? $start_reader->() : undef;
	my ($lsn0, $t0) = split /\|/, $node->safe_psql('bench', 'SELECT pg_current_wal_lsn(), clock_timestamp()');
	my $res = pgbench_finish(pgbench_start('bench', '-M', 'prepared', '-c', $c, '-j', j_for($c), '-T', $seconds,
		$a eq 'pg_uuidx client ids' ? '--max-tries=10' : (), '-f', $f));
	my ($wal, $t1) = split /\|/,
	  $node->safe_psql('bench', "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '$lsn0'), clock_timestamp()");
	my $t_read = $t0;
	$node->safe_psql('bench', "SELECT pgq.force_tick('tp')") if $a eq 'pgq' && $kind eq 'backlog';
	$node->safe_psql('bench', "INSERT INTO tp_committed SELECT '$pass', c.* FROM ("
		  . ($committed{$a} ? $committed{$a}->() : 'SELECT id, pg_xact_commit_timestamp(xmin) FROM tp') . ') c');
	if ($r)
	{
		if (!$reader)
		{
			$t_read = $node->safe_psql('bench', 'SELECT clock_timestamp()');
			$reader = $start_reader->();
		}
		my $total = $node->safe_psql('bench', "SELECT count(*) FROM tp_committed WHERE pass = '$pass'");
		my $until = time + 60;
		sleep 0.2 until time > $until
		  || $node->safe_psql('bench', "SELECT count(*) >= $total FROM seen WHERE pass = '$pass'") eq 't';
		$node->safe_psql('bench', "INSERT INTO ob_stop VALUES ('$pass')");
		$reader->finish or die "reader $r failed\n";
	}
	my $retried = ($res =~ /^number of transactions retried: (\d+)/m)[0] // 0;
	$node->safe_psql('bench', "SELECT tp_record('$pass', '$a', $ord, $c, $n, $rep, '$kind', $seconds, " . tps($res)
		  . ", $retried, $wal, " . ($r ? 'true' : 'false') . ", '$t1', '$t_read')");
	$node->safe_psql('bench', ($teardown{$a} // 'DROP TABLE tp') =~ s/TBL/tp/gr);
	print $FeedBench::stdout '   ' . $node->safe_psql('bench', "SELECT format('%s: %s tps, %s events/s, read %s,"
		  . " missed %s, twice %s, lag median %s ms, drain %s s', approach, round(tps::numeric), "
		  . "round((committed / seconds)::numeric), read, missed, twice, round(lag_median_ms::numeric, 1), "
		  . "round(drain_s::numeric, 2)) FROM tp_result WHERE approach = '$a' AND clients = $c AND rows_per_xact = $n "
		  . "AND rep = $rep AND kind = '$kind'") . "\n";
	return;
}

my %ord = map { $approaches[$_] => $_ } 0 .. $#approaches;
my $turn = 0;
for my $rep (1 .. $o{THROUGHPUT_REPS})
{
	for my $c (@clients)
	{
		for my $n (1, 10)
		{
			my @order = @approaches[ map { ($_ + $turn) % @approaches } 0 .. $#approaches ];
			$turn++;
			say "$c clients, $n row(s) a transaction, $o{THROUGHPUT_SECONDS} s each (repetition $rep): "
			  . join(', ', @order);
			cell($_, $ord{$_}, $c, $n, $rep, $o{THROUGHPUT_SECONDS}, 'run') for @order;
		}
	}
}
say "readers alone: $o{THROUGHPUT_BACKLOG_SECONDS} s of writers (8 clients, 10 rows), then the reader";
cell($_, $ord{$_}, 8, 10, 1, $o{THROUGHPUT_BACKLOG_SECONDS}, 'backlog') for grep { $reader{$_} } @approaches;

# what the writers pay: each approach's table (PgQ's queue) made once a
# client count, then the turns
my @writers = grep { my $a = $_; grep { $_ eq $a } @approaches } ('plain', 'pg_uuidx guard alone', 'xid8', 'pgq');
for my $c (@clients)
{
	say "what the writers pay: $c clients, 1 row a transaction, $o{THROUGHPUT_COST_SLICES} turns of "
	  . "$o{THROUGHPUT_COST_SECONDS} s each: " . join(', ', @writers);
	my %file;
	for my $i (0 .. $#writers)
	{
		$node->safe_psql('bench', "DROP TABLE IF EXISTS tc$i; " . ($setup{ $writers[$i] } =~ s/TBL/tc$i/gr));
		$file{ $writers[$i] } = script("c$i", "tc$i", producer($writers[$i], 1));
	}
	for my $turn (1 .. $o{THROUGHPUT_COST_SLICES})
	{
		for my $a (@writers[ map { ($_ + $turn) % @writers } 0 .. $#writers ])
		{
			$node->safe_psql('bench', 'CHECKPOINT');
			my $t = tps(pgbench_finish(pgbench_start('bench', '-M', 'prepared', '-c', $c, '-j', j_for($c),
				'-T', $o{THROUGHPUT_COST_SECONDS}, '-f', $file{$a})));
			$node->safe_psql('bench', "INSERT INTO tp_cost VALUES ('$a', $ord{$a}, $c, $turn, $t)");
		}
	}
	for my $i (0 .. $#writers)
	{
		$node->safe_psql('bench', ($teardown{ $writers[$i] } // 'DROP TABLE TBL') =~ s/TBL/tc$i/gr);
	}
	print $FeedBench::stdout '   ' . $node->safe_psql('bench', "SELECT string_agg(format('%s x%s', approach, "
		  . "round(r::numeric, 2)), ', ' ORDER BY ord) FROM (SELECT t.approach, t.ord, percentile_cont(0.5) WITHIN "
		  . "GROUP (ORDER BY t.tps / p.tps) AS r FROM tp_cost t JOIN tp_cost p ON p.approach = 'plain' AND "
		  . "(p.clients, p.turn) = (t.clients, t.turn) WHERE t.clients = $c AND t.approach <> 'plain' "
		  . "GROUP BY t.approach, t.ord) m") . "\n";
}
$load{end} = loadavg();
$pgqd->kill_kill if $pgqd;

# ---- the report
my $date = strftime('%Y-%m-%d %H:%M UTC', gmtime);
my $report = $node->safe_psql('bench', <<"EOF");
SELECT format(E'## Throughput: writers at full speed and their reader\\n\\n'
  || 'On one primary (fsync on, shared_buffers=1GB, max_wal_size=4GB, wal_level=logical, track_commit_timestamp=on): '
  || 'pgbench clients (prepared statements) commit transactions of 1 row or of 10 rows (one INSERT, a payload of 200 bytes) '
  || 'for %s s a cell, %s repetition(s); for each client count and shape the approaches run in turn, their order rotated. '
  || 'Readers poll every %s ms (outbox.sql''s ob_read()). %s; %s. %s; load average %s at the start, %s at the end.',
  $o{THROUGHPUT_SECONDS}, $o{THROUGHPUT_REPS}, $o{THROUGHPUT_POLL_MS}, '$pver', 'pg_uuidx $ext',
  '@{[ $pgq ? "PgQ $pgq (default settings: ticker_period 1 s, queue_ticker_max_count 500, queue_ticker_max_lag 3 s)" : "PgQ not run: $pgq_skip" ]}',
  '$load{start}', '$load{end}');
\\echo
\\echo 'Events/s: committed events a second. x plain: tps over the plain table''s (no reader) in the same clients, shape and repetition (median over repetitions). WAL: bytes the server wrote a committed event. Reader events/s: events read a second from the writers'' start to the last read. Keeps up: the median lag of the events committed in the writers'' last quarter is at most twice that of their first quarter plus 100 ms. Drain: seconds after the writers stopped until the last event was read. Missed and twice: against what committed.'
\\echo
\\echo '| clients | rows/xact | approach | tps | events/s | x plain | WAL B/event | reader events/s | keeps up | lag median ms | lag p99 ms | drain s | missed | twice |'
\\echo '|---:|---:|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|'
WITH r AS (SELECT t.*, t.tps / p.tps AS ratio FROM tp_result t
           JOIN tp_result p ON p.approach = 'plain' AND p.kind = 'run' AND (p.clients, p.rows_per_xact, p.rep)
                = (t.clients, t.rows_per_xact, t.rep)
           WHERE t.kind = 'run')
SELECT format('| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |', clients, rows_per_xact, approach,
              round(percentile_cont(0.5) WITHIN GROUP (ORDER BY tps)::numeric),
              round(percentile_cont(0.5) WITHIN GROUP (ORDER BY committed / seconds)::numeric),
              round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ratio)::numeric, 2),
              round(percentile_cont(0.5) WITHIN GROUP (ORDER BY wal_bytes / nullif(committed, 0))::numeric),
              coalesce(round(percentile_cont(0.5) WITHIN GROUP (ORDER BY reader_eps)::numeric)::text, '-'),
              CASE WHEN bool_and(read IS NULL) THEN '-'
                   WHEN bool_and(lag_last_ms <= 2 * lag_first_ms + 100) THEN 'yes' ELSE 'NO' END,
              coalesce(round(percentile_cont(0.5) WITHIN GROUP (ORDER BY lag_median_ms)::numeric, 1)::text, '-'),
              coalesce(round(percentile_cont(0.5) WITHIN GROUP (ORDER BY lag_p99_ms)::numeric, 1)::text, '-'),
              coalesce(round(max(drain_s)::numeric, 2)::text, '-'),
              coalesce(sum(missed)::text, '-'), coalesce(sum(twice)::text, '-'))
FROM r GROUP BY clients, rows_per_xact, approach, ord ORDER BY clients, rows_per_xact, ord;
\\echo
\\echo 'Readers alone: $o{THROUGHPUT_BACKLOG_SECONDS} s of writers (8 clients, 10 rows a transaction) with no reader, then the reader starts (PgQ: after pgq.force_tick(), so that its ticker cuts the last batch within a tick period); events a second from its start until it has read the backlog.'
\\echo
\\echo '| approach | backlog events | reader events/s | missed | twice |'
\\echo '|---|---:|---:|---:|---:|'
SELECT format('| %s | %s | %s | %s | %s |', approach, committed, round(reader_eps::numeric), missed, twice)
FROM tp_result WHERE kind = 'backlog' ORDER BY ord;
\\echo
\\echo 'What the writers pay: the writers alone, 1 row a transaction, $o{THROUGHPUT_COST_SLICES} turns; in each turn every approach writes for $o{THROUGHPUT_COST_SECONDS} s after a CHECKPOINT, in an order rotated from turn to turn. x plain: the median over the turns of tps over the plain table''s in the same turn, and its quartiles (the middle half of the turns).'
\\echo
\\echo '| clients | approach | turns | tps | x plain | quartiles |'
\\echo '|---:|---|---:|---:|---:|---|'
WITH r AS (SELECT t.*, t.tps / p.tps AS ratio FROM tp_cost t
           JOIN tp_cost p ON p.approach = 'plain' AND (p.clients, p.turn) = (t.clients, t.turn))
SELECT format('| %s | %s | %s | %s | %s | %s - %s |', clients, approach, count(*),
              round(percentile_cont(0.5) WITHIN GROUP (ORDER BY tps)::numeric),
              round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ratio)::numeric, 2),
              round(percentile_cont(0.25) WITHIN GROUP (ORDER BY ratio)::numeric, 2),
              round(percentile_cont(0.75) WITHIN GROUP (ORDER BY ratio)::numeric, 2))
FROM r GROUP BY clients, approach, ord ORDER BY clients, ord;
EOF
open(my $fh, '>', "$out/throughput.md") or die $!;
print $fh "$report\n";
close($fh);
print $FeedBench::stdout "$report\n";
$node->stop('fast');
say "done: $out/throughput.md ($date)";
