# test/bench/citus.pl - the citus phase of "make bench" (bench.pl runs it
# with PostgreSQL's TAP modules on the include path; it writes
# $BENCH_OUT/citus.md and citus.tsv).  pg_uuidx_read_after() on a Citus
# coordinator, which reads a distributed table up to the cluster horizon
# (the least of the coordinator's horizon and each worker's, asked in one
# round trip per worker, in parallel, on connections the reading backend
# keeps), on clusters of its own that it stops when it ends: a coordinator
# and two workers on this machine (unix sockets; shared_preload_libraries =
# 'citus,pg_uuidx', citus.enable_unsafe_triggers = on so that Citus puts the
# guard on every shard, pg_uuidx.horizon_allowance = 0, fsync on,
# track_commit_timestamp on).  Citus must be installed in the server
# (test/run.sh builds it into its private copy with
# test/lanes/citus/build.sh when PHASES names citus and CITUS_SOURCE is
# set); else the phase says so in citus.md and skips.
#   readers  CITUS_WRITERS pgbench clients on the coordinator for
#            CITUS_SECONDS insert into ev (distributed by its DEFAULT
#            uuidv7() id, CITUS_SHARDS shards, the guard): single-row
#            transactions (weight 60) and 3-row multi-shard ones (weight
#            40: two-phase commit whenever the rows fall on both workers),
#            each held open 0-1.5 s; two readers on the coordinator poll
#            every CITUS_POLL_MS, pg_uuidx_read_after() and "id > last";
#            rows committed, missed, read twice, lag
#   poll     the cost of one poll: pgbench -c 1, CITUS_POLL_REPS interleaved
#            repetitions of CITUS_POLL_SECONDS each, of
#            pg_uuidx_read_after(NULL::t, <recent id>, 100) on a distributed
#            table of CITUS_POLL_ROWS rows and on a local table of the
#            coordinator with the same rows (both guarded), and "id > last
#            ORDER BY id LIMIT 100" on each; ms a poll (mean, p99, from
#            pgbench's log) and, on the workers, the horizon asks, the
#            transactions and the sessions a poll
#   insert   CITUS_INSERT_CLIENTS pgbench clients of INSERT ... DEFAULT
#            VALUES into a distributed table without the guard and into
#            one with it, CITUS_INSERT_REPS interleaved repetitions of
#            CITUS_INSERT_SECONDS each: tps (medians), the ratio
# About 2.5 minutes with the defaults.  Alone: PHASES=citus make bench.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use IPC::Run;
use POSIX qw(strftime);
use Time::HiRes qw(sleep time);

# PostgreSQL::Test::Utils sends STDOUT and STDERR to its log file
# (tmp_check/log/regress_log_citus): progress and errors go to the terminal's
my ($stdout, $stderr);
BEGIN { open($stdout, '>&', \*STDOUT) and open($stderr, '>&', \*STDERR) or die $!; }
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
$stdout->autoflush(1);
my @nodes;
# a crash or failed assertion in a node's log, for the messages of a failure
sub node_trouble
{
	return join '', map {
		my $n = $_;
		map { '  ' . $n->name . ": $_\n" } grep { /terminated by signal|TRAP:|PANIC:/ } split /\n/, slurp_file($n->logfile)
	} @nodes;
}
$SIG{__DIE__} = sub { print $stderr "citus: $_[0]" . (@nodes ? node_trouble() : '') unless $^S; };

my %o = map { $_ => $ENV{$_} } qw(CITUS_SECONDS CITUS_WRITERS CITUS_POLL_MS CITUS_SHARDS CITUS_POLL_SECONDS
  CITUS_POLL_REPS CITUS_POLL_ROWS CITUS_INSERT_SECONDS CITUS_INSERT_REPS CITUS_INSERT_CLIENTS);
for (sort keys %o)
{
	die "$_ is not set: run make bench\n" unless defined $o{$_} && $o{$_} =~ /^[1-9]\d*$/;
}
my $out = $ENV{BENCH_OUT} or die "BENCH_OUT is not set: run make bench\n";
my $here = $FindBin::RealBin;
sub say { print $stdout "== citus: @_\n"; return; }
sub slurp { open(my $fh, '<', $_[0]) or return ''; local $/; return <$fh>; }
sub loadavg { return join ' ', (split ' ', slurp('/proc/loadavg'))[ 0 .. 2 ]; }

chomp(my $sharedir = `pg_config --sharedir`);
if (!-f "$sharedir/extension/citus.control")
{
	open(my $md, '>', "$out/citus.md") or die $!;
	print $md "## Citus: reading a distributed table in order\n\nSkipped: Citus is not installed in this server"
	  . " ($sharedir/extension has no citus.control). `PHASES=citus CITUS_SOURCE=<checkout or git URL>"
	  . " [CITUS_REF=<tag>] make bench` builds it into the run's private copy of the server"
	  . " (test/lanes/citus/build.sh).\n";
	close($md);
	say "skipped: Citus is not installed (CITUS_SOURCE=<checkout or git URL> [CITUS_REF=<tag>] builds it)";
	exit 0;
}
my $load_start = loadavg();
my $started = time;

# ---- the nodes
my $socketdir = $PostgreSQL::Test::Cluster::test_pghost;    # where every node listens
my $db = 'postgres';
my @conf = (
	"shared_preload_libraries = 'citus,pg_uuidx'",
	# listen_addresses is empty: the nodes reach each other through the sockets
	"citus.local_hostname = '$socketdir'",
	"citus.node_conninfo = 'sslmode=disable'",
	# Citus creates a distributed table's triggers on its shards only then
	'citus.enable_unsafe_triggers = on',
	'max_prepared_transactions = 100', 'max_connections = 200',
	'pg_uuidx.horizon_allowance = 0',
	# pg_uuidx's functions ahead of core's same-named ones (17/18: uuidv7())
	"search_path = 'public, pg_catalog'",
	'fsync = on', 'track_commit_timestamp = on', "track_functions = 'all'", "timezone = 'UTC'",
	'log_statement = none', 'log_min_messages = warning');
@nodes = map {
	my $n = PostgreSQL::Test::Cluster->new("citus_$_");
	$n->init;
	$n->append_conf('postgresql.conf', join("\n", @conf) . "\n");
	$n->start;
	$n
} qw(coordinator worker1 worker2);
my ($coord, @workers) = @nodes;
$_->safe_psql($db, 'CREATE EXTENSION citus') for @nodes;
$coord->safe_psql($db, sprintf(q{SELECT citus_set_coordinator_host('%s', %d)}, $socketdir, $coord->port));
$coord->safe_psql($db, sprintf(q{SELECT citus_add_node('%s', %d)}, $socketdir, $_->port)) for @workers;
$coord->safe_psql($db, 'CREATE EXTENSION pg_uuidx');
my %v = (
	pg => $coord->safe_psql($db, 'SELECT version()'),
	citus => $coord->safe_psql($db, 'SELECT citus_version()'),
	ext => $coord->safe_psql($db, q{SELECT extversion FROM pg_extension WHERE extname = 'pg_uuidx'}),
	ext_workers => join(', ', map { $_->safe_psql($db, q{SELECT extversion FROM pg_extension WHERE extname = 'pg_uuidx'}) }
		  @workers),
	cassert => $coord->safe_psql($db, 'SHOW debug_assertions'));
say "$v{citus}; $v{pg}; pg_uuidx $v{ext} (workers: $v{ext_workers}); assertions $v{cassert}";

my @conn = ('-h', $coord->host, '-p', $coord->port);
my $dir = PostgreSQL::Test::Utils::tempdir();
my $j = $o{CITUS_WRITERS} % 2 ? 1 : 2;

# a pgbench script file in $dir
sub script
{
	my ($name, $text) = @_;
	my $f = "$dir/$name.sql";
	open(my $fh, '>', $f) or die "$f: $!";
	print $fh $text;
	close($fh);
	return $f;
}
# pgbench on the coordinator in the background (IPC::Run harness, output ref)
sub pgbench_start
{
	my (@args) = @_;
	my $o = '';
	my $h = IPC::Run::start([ 'pgbench', '-n', @args, @conn, $db ], '>', \$o, '2>&1');
	return [ $h, \$o ];
}
# its output, and whether it exited with 0
sub pgbench_finish
{
	my ($p) = @_;
	my $ok = $p->[0]->finish;
	return (${ $p->[1] }, $ok);
}
sub tps { return ($_[0] =~ /^tps = ([\d.]+)/m)[0] // 0; }
sub pgb_count { my ($res, $what) = @_; return ($res =~ /^\Q$what\E: (\d+)/m)[0] // 0; }
# the guard's refusals since start, on every node
sub refusals
{
	my $n = 0;
	$n += $_->safe_psql($db, 'SELECT refusals FROM pg_uuidx_stats') for @nodes;
	return $n;
}
my @tsv;    # part, item, measure, value
sub tsv { push @tsv, join("\t", @_); return; }

# ---- readers under writers
$coord->safe_psql($db, slurp_file("$here/citus.sql"), extra_params => [ '-v', "shards=$o{CITUS_SHARDS}" ]);
$v{guarded} = $coord->safe_psql($db, q{
	SELECT count(*) FILTER (WHERE result = '1') || ' of ' || count(*)
	FROM run_command_on_placements('ev', $$SELECT count(*) FROM pg_trigger
	                                       WHERE tgrelid = '%s'::regclass AND left(tgname, 9) = 'ev_guard_'$$)});
my @readers = ('pg_uuidx_read_after()', 'id > last');
my $poll = $o{CITUS_POLL_MS} / 1000;
say "readers: $o{CITUS_WRITERS} writers for $o{CITUS_SECONDS} s (single-row and 3-row transactions open 0-1.5 s),"
  . " readers every $o{CITUS_POLL_MS} ms: " . join(', ', @readers) . "; the guard on $v{guarded} shards of ev";
my @rh;
for my $r (@readers)
{
	my ($o, $e) = ('', '');
	push @rh, [ $r, IPC::Run::start([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', @conn, '-d', $db,
		'-c', "CALL cb_read('$r', 'ev', $poll, 500)" ], '>', \$o, '2>', \$e), \$e ];
}
eval { $coord->poll_query_until($db, q{SELECT count(*) = 2 FROM pg_stat_activity WHERE query LIKE 'CALL cb_read%'}) }
  or die "the readers did not start\n" . join('', map { eval { $_->[1]->pump_nb }; ${ $_->[2] } ne '' ? "  $_->[0]: ${ $_->[2] }" : () } @rh);
my $ref0 = refusals();
# tx tells a transaction's rows apart (with w, the client)
my $single = script('single', "\\set s random(0, 1500)\n\\set g random(1, 2000000000)\nBEGIN;\n"
	  . "INSERT INTO ev (w, tx, kind) VALUES (:client_id, :g, 'single');\n\\sleep :s ms\nCOMMIT;\n");
my $multi = script('multi', "\\set s random(0, 1500)\n\\set g random(1, 2000000000)\nBEGIN;\n"
	  . "INSERT INTO ev (w, tx, kind) VALUES (:client_id, :g, 'multi'), (:client_id, :g, 'multi'),"
	  . " (:client_id, :g, 'multi');\n"
	  . "\\sleep :s ms\nCOMMIT;\n");
my ($wres, $wok) = pgbench_finish(pgbench_start('-c', $o{CITUS_WRITERS}, '-j', $j, '-T', $o{CITUS_SECONDS},
	'--max-tries=20', '-f', "$single\@60", '-f', "$multi\@40"));
my $t_end = time;
$_->poll_query_until($db, 'SELECT count(*) = 0 FROM pg_prepared_xacts')
  or say 'prepared transactions left on ' . $_->name for @workers;
$v{recovery} = sprintf('%.1f', time - $t_end);
# the readers go on 2 s more: a poll past the last commit
sleep 2;
$coord->safe_psql($db, 'INSERT INTO stop_flag VALUES (now())');
for (@rh)
{
	my ($r, $h, $e) = @$_;
	$h->finish or die "reader $r failed: $$e\n";
}
$v{refusals} = refusals() - $ref0;
$v{writers} = sprintf('%.1f tps, %d transactions, %d retried (%d retries), %d failed%s', tps($wres),
	pgb_count($wres, 'number of transactions actually processed'), pgb_count($wres, 'number of transactions retried'),
	pgb_count($wres, 'total number of retries'), pgb_count($wres, 'number of failed transactions'),
	$wok ? '' : '; pgbench exited with an error: ' . join(' / ', grep { /error|abort/i } split /\n/, $wres));
print $stdout "writers:\n", map { /^(tps|number of|total number|maximum number)|error|abort/i ? "  $_\n" : () }
  split /\n/, $wres;

# what committed, with the commit time on the worker that holds the row
# (pg_xact_commit_timestamp(xmin) in its shard: COMMIT PREPARED there for
# a multi-shard transaction)
$coord->safe_psql($db, 'CREATE TABLE committed AS SELECT id, w, tx, kind FROM ev; CREATE TABLE commit_ts (id uuid, at timestamptz)');
for my $w (@workers)
{
	my $shards = $coord->safe_psql($db, sprintf(q{SELECT string_agg(shard_name::text, ' ') FROM citus_shards
		WHERE table_name = 'ev'::regclass AND nodeport = %d}, $w->port));
	next unless $shards;
	my $file = "$dir/commit_ts_" . $w->port . '.tsv';
	$w->safe_psql($db, "\\copy (" . join(' UNION ALL ', map { "SELECT id, pg_xact_commit_timestamp(xmin) FROM $_" }
		split ' ', $shards) . ") TO '$file'");
	$coord->safe_psql($db, "\\copy commit_ts FROM '$file'");
}
my $lag = q{
	SELECT r.reader, r.ord, c.id, c.kind, coalesce(f.n, 0) AS n,
	       extract(epoch FROM f.read_at - t.at) * 1000 AS ms,
	       extract(epoch FROM f.read_at - uuid_extract_timestamp(c.id)) * 1000 AS ms_id
	FROM committed c LEFT JOIN commit_ts t USING (id)
	CROSS JOIN (SELECT * FROM unnest(ARRAY['pg_uuidx_read_after()', 'id > last']) WITH ORDINALITY AS u(reader, ord)) r
	LEFT JOIN (SELECT reader, id, min(read_at) AS read_at, count(*) AS n FROM seen GROUP BY 1, 2) f
	       ON f.reader = r.reader AND f.id = c.id};
my $p = sub { "round(percentile_cont($_[0]) WITHIN GROUP (ORDER BY $_[1])::numeric)" };
my @reader_rows = split /\n/, $coord->safe_psql($db, qq{
	SELECT reader, count(*), count(*) FILTER (WHERE n = 0), count(*) FILTER (WHERE n = 0 AND kind = 'multi'),
	       sum(greatest(n - 1, 0)), @{[ $p->(0.5, 'ms') ]}, @{[ $p->(0.99, 'ms') ]}, round(max(ms)::numeric),
	       @{[ $p->(0.5, 'ms_id') ]}, @{[ $p->(0.99, 'ms_id') ]},
	       (SELECT count(*) FROM seen s WHERE s.reader = l.reader AND s.id NOT IN (SELECT id FROM committed))
	FROM ($lag) l GROUP BY reader, ord ORDER BY ord});
$v{committed} = $coord->safe_psql($db, q{SELECT format('%s rows: %s single-row transactions, %s rows of 3-row ones',
	count(*), count(*) FILTER (WHERE kind = 'single'), count(*) FILTER (WHERE kind = 'multi')) FROM committed});
$v{no_ts} = $coord->safe_psql($db, 'SELECT count(*) FROM committed LEFT JOIN commit_ts USING (id) WHERE at IS NULL');
$v{reader_errors} = $coord->safe_psql($db, q{
	SELECT coalesce(string_agg(format('%s: %s x %s %s', reader, n, state, left(message, 120)), '; ' ORDER BY n DESC),
	                'none')
	FROM (SELECT reader, state, message, count(*) AS n FROM reader_errors GROUP BY 1, 2, 3 ORDER BY 4 DESC LIMIT 5) s});
$v{reader_error_count} = $coord->safe_psql($db, 'SELECT count(*) FROM reader_errors');
# the 3-row transactions whose rows fell on both workers: two-phase commit
$v{multi_2pc} = $coord->safe_psql($db, q{
	SELECT format('%s of %s', count(*) FILTER (WHERE nodes > 1), count(*))
	FROM (SELECT count(DISTINCT s.nodeport) AS nodes
	      FROM committed c
	      JOIN citus_shards s ON s.table_name = 'ev'::regclass
	                         AND s.shardid = get_shard_id_for_distribution_column('ev', c.id)
	      WHERE c.kind = 'multi' GROUP BY c.w, c.tx) x});

# ---- the cost of one poll
say "poll: $o{CITUS_POLL_ROWS} rows, distributed ($o{CITUS_SHARDS} shards) and local, $o{CITUS_POLL_REPS} interleaved"
  . " repetitions of $o{CITUS_POLL_SECONDS} s each";
$coord->safe_psql($db, qq{
	CREATE TABLE pc_dist (id uuid PRIMARY KEY DEFAULT uuidv7(), w int NOT NULL, kind text NOT NULL);
	SELECT create_distributed_table('pc_dist', 'id', shard_count => $o{CITUS_SHARDS});
	INSERT INTO pc_dist (w, kind) SELECT g, 'poll' FROM generate_series(1, $o{CITUS_POLL_ROWS}) g;
	CREATE TABLE pc_local (id uuid PRIMARY KEY, w int NOT NULL, kind text NOT NULL);
	INSERT INTO pc_local SELECT * FROM pc_dist;
	-- the guards after the rows: at allowance 0 they would refuse ids made before
	CREATE TRIGGER pc_dist_guard BEFORE INSERT OR UPDATE ON pc_dist FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
	CREATE TRIGGER pc_local_guard BEFORE INSERT OR UPDATE ON pc_local FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();});
$coord->safe_psql($db, $_) for 'VACUUM ANALYZE pc_dist', 'VACUUM ANALYZE pc_local';
my $recent = $coord->safe_psql($db, 'SELECT id FROM pc_local ORDER BY id DESC OFFSET 1000 LIMIT 1');
my @polls = (
	[ 'pg_uuidx_read_after(), distributed', "SELECT * FROM pg_uuidx_read_after(NULL::pc_dist, '$recent', 100);" ],
	[ 'pg_uuidx_read_after(), local table', "SELECT * FROM pg_uuidx_read_after(NULL::pc_local, '$recent', 100);" ],
	[ 'id > last, distributed', "SELECT * FROM pc_dist WHERE id > '$recent' ORDER BY id LIMIT 100;" ],
	[ 'id > last, local table', "SELECT * FROM pc_local WHERE id > '$recent' ORDER BY id LIMIT 100;" ]);
# rows a poll returns, checked once
$_->[2] = $coord->safe_psql($db, "SELECT count(*) FROM (" . ($_->[1] =~ s/;$//r) . ") s") for @polls;
# the workers' counters: horizon asks (pg_stat_user_functions), transactions
# and sessions (pg_stat_database), flushed when their backends end
my $counters = sub {
	my %c;
	for my $w (@workers)
	{
		my @f = split /\|/, $w->safe_psql($db, q{
			SELECT (SELECT coalesce(sum(calls), 0) FROM pg_stat_user_functions WHERE funcname = 'pg_uuidx_node_horizon'),
			       xact_commit + xact_rollback, sessions
			FROM pg_stat_database WHERE datname = current_database()});
		$c{ $w->name } = \@f;
	}
	return \%c;
};
my $horizon_conns = sub {
	return join ',', map { $_->safe_psql($db, q{SELECT coalesce(string_agg(pid::text, ' ' ORDER BY pid), 'none')
		FROM pg_stat_activity WHERE application_name = 'pg_uuidx cluster horizon'}) } @workers;
};
# per poll: latencies (us), horizon asks, transactions and sessions on each
# worker, what became of the horizon's connections
my %pr = map { $_->[0] => { us => [], kept => {} } } @polls;
for my $rep (1 .. $o{CITUS_POLL_REPS})
{
	# the order rotated from one repetition to the next
	for my $k (0 .. $#polls)
	{
		my $i = ($k + $rep - 1) % @polls;
		my ($label, $sql) = @{ $polls[$i] };
		my $r = $pr{$label};
		my $f = script("poll$i", "$sql\n");
		my $c0 = $counters->();
		my $prefix = "$dir/log_poll${i}_$rep";
		my $pg = pgbench_start('-c', 1, '-j', 1, '-T', $o{CITUS_POLL_SECONDS}, '-l', "--log-prefix=$prefix", '-f', $f);
		# the horizon's connections on the workers (their application_name), 1 s
		# into the run and 1 s before its end: kept across polls when the same
		sleep 1;
		my $hc0 = $horizon_conns->();
		sleep $o{CITUS_POLL_SECONDS} - 2 if $o{CITUS_POLL_SECONDS} > 2;
		my $hc1 = $horizon_conns->();
		$r->{kept}{ $hc0 eq 'none,none' && $hc1 eq 'none,none' ? 'none'
			  : $hc0 eq $hc1 && $hc0 !~ /none/ ? 'kept: the same backend on each worker through each run'
			  : "changed within a run ($hc0 / $hc1)" } = 1;
		my ($res, $ok) = pgbench_finish($pg);
		die "pgbench of $label failed:\n$res" unless $ok;
		# the backends of that session end, and flush their statistics
		sleep 1;
		my $c1 = $counters->();
		my @us = map { (split ' ')[2] } map { split /\n/, slurp($_) } glob("$prefix.*");
		die "pgbench of $label: no log\n" unless @us;
		push @{ $r->{us} }, @us;
		for my $w (@workers)
		{
			my ($a0, $x0, $s0) = @{ $c0->{ $w->name } };
			my ($a1, $x1, $s1) = @{ $c1->{ $w->name } };
			# this script's own queries on the worker (the first counters and the
			# two looks at the horizon's connections): a transaction and a session each
			$r->{asks}{ $w->name } += $a1 - $a0;
			$r->{xacts}{ $w->name } += $x1 - $x0 - 3;
			$r->{sessions} += $s1 - $s0 - 3;
		}
	}
}
my @poll_rows;
for (@polls)
{
	my ($label, $sql, $rows) = @$_;
	my $r = $pr{$label};
	my @us = sort { $a <=> $b } @{ $r->{us} };
	my $n = @us;
	my $mean = 0;
	$mean += $_ for @us;
	$mean /= $n * 1000;
	my $p99 = $us[ int(0.99 * ($n - 1)) ] / 1000;
	my $p50 = $us[ int(0.5 * ($n - 1)) ] / 1000;
	my @asks = map { sprintf('%.2f', $r->{asks}{ $_->name } / $n) } @workers;
	my @xacts = map { sprintf('%.1f', $r->{xacts}{ $_->name } / $n) } @workers;
	my $kept = join '; ', sort keys %{ $r->{kept} };
	push @poll_rows, [ $label, $rows, $n, $mean, $p50, $p99, join(' + ', @asks), join(' + ', @xacts), $r->{sessions},
		sprintf('%.2f', $r->{sessions} / $n), $kept ];
	tsv('poll', $label, 'polls', $n);
	tsv('poll', $label, 'ms mean', sprintf('%.3f', $mean));
	tsv('poll', $label, 'ms median', sprintf('%.3f', $p50));
	tsv('poll', $label, 'ms p99', sprintf('%.3f', $p99));
	tsv('poll', $label, 'horizon asks a poll per worker', join(' ', @asks));
	tsv('poll', $label, 'worker transactions a poll per worker', join(' ', @xacts));
	tsv('poll', $label, 'worker sessions opened', $r->{sessions});
	tsv('poll', $label, 'horizon connections', $kept);
	say sprintf('poll: %s: %d polls, %.3f ms mean, %.3f ms median, %.3f ms p99, %d worker sessions', $label, $n, $mean,
		$p50, $p99, $r->{sessions});
}

# ---- insert throughput, with and without the guard: fresh tables each
# run, the two in turn, the order swapped from one repetition to the next
my @ins = ([ 'distributed, no guard', 'ins_plain', '' ],
	[ 'distributed, guard', 'ins_guard',
		'CREATE TRIGGER ins_guard_guard BEFORE INSERT OR UPDATE ON ins_guard FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();' ]);
my $ij = $o{CITUS_INSERT_CLIENTS} % 2 ? 1 : 2;
my %ir;
say "insert: $o{CITUS_INSERT_CLIENTS} clients, $o{CITUS_INSERT_REPS} repetitions of $o{CITUS_INSERT_SECONDS} s: "
  . join(', ', map { $_->[0] } @ins);
for my $rep (1 .. $o{CITUS_INSERT_REPS})
{
	for ($rep % 2 ? @ins : reverse @ins)
	{
		my ($label, $t, $guard) = @$_;
		$coord->safe_psql($db, qq{
			DROP TABLE IF EXISTS $t;
			CREATE TABLE $t (id uuid PRIMARY KEY DEFAULT uuidv7());
			SELECT create_distributed_table('$t', 'id', shard_count => $o{CITUS_SHARDS});
			$guard});
		$_->safe_psql($db, 'CHECKPOINT') for @nodes;
		my $r0 = refusals();
		my $f = script("insert_$t", "INSERT INTO $t DEFAULT VALUES;\n");
		my ($res, $ok) = pgbench_finish(pgbench_start('-c', $o{CITUS_INSERT_CLIENTS}, '-j', $ij, '-T',
			$o{CITUS_INSERT_SECONDS}, '--max-tries=20', '-f', $f));
		die "pgbench of $label failed:\n$res" unless $ok;
		my $r = $ir{$label} //= {};
		push @{ $r->{tps} }, tps($res);
		push @{ $r->{lat} }, ($res =~ /^latency average = ([\d.]+) ms/m)[0] // 0;
		$r->{rows} += $coord->safe_psql($db, "SELECT count(*) FROM $t");
		$r->{retried} += pgb_count($res, 'number of transactions retried');
		$r->{refusals} += refusals() - $r0;
		tsv('insert', $label, "tps, repetition $rep", tps($res));
	}
}
sub median { my @v = sort { $a <=> $b } @_; return @v % 2 ? $v[ $#v / 2 ] : ($v[ @v / 2 - 1 ] + $v[ @v / 2 ]) / 2; }
my @ins_rows;
for (@ins)
{
	my $r = $ir{ $_->[0] };
	$r->{median} = median(@{ $r->{tps} });
	push @ins_rows, [ $_->[0], sprintf('%.0f', $r->{median}), join(', ', map { sprintf('%.0f', $_) } @{ $r->{tps} }),
		sprintf('%.3f', median(@{ $r->{lat} })), @$r{qw(rows retried refusals)} ];
	tsv('insert', $_->[0], 'tps median', sprintf('%.1f', $r->{median}));
}
my $ratio = $ir{ $ins[0][0] }{median} > 0 ? $ir{ $ins[1][0] }{median} / $ir{ $ins[0][0] }{median} : 0;
tsv('insert', 'guard / no guard', 'tps ratio (medians)', sprintf('%.3f', $ratio));

# ---- the report
my ($cpu) = slurp('/proc/cpuinfo') =~ /^model name\s*: (.*)$/m;
my ($mem) = slurp('/proc/meminfo') =~ /^MemTotal:\s*(\d+)/m;
my $row = sub { return '| ' . join(' | ', @_) . " |\n"; };
my $cassert = $v{cassert} eq 'on'
  ? ' **assertions enabled (a cassert build): these are cassert figures, slower than a production build.**' : '';
my $md = "## Citus: reading a distributed table in order\n\n"
  . "A coordinator and two workers on this machine (unix sockets), `shared_preload_libraries = 'citus,pg_uuidx'`, "
  . "`citus.enable_unsafe_triggers = on` (the guard on every shard), `pg_uuidx.horizon_allowance = 0`, fsync on, "
  . "`track_commit_timestamp = on`, Citus's other settings at their defaults; tables distributed by their "
  . "`DEFAULT uuidv7()` id (made on the coordinator), $o{CITUS_SHARDS} shards.$cassert\n\n"
  . "| | |\n|---|---|\n"
  . $row->('date', strftime('%Y-%m-%d %H:%M UTC', gmtime($started)))
  . $row->('machine', ($cpu // '?') . ', ' . (`nproc` + 0) . ' cores, ' . sprintf('%.1f GiB', $mem / 1048576)
	  . '; load average (1, 5, 15 min) ' . $load_start . ' at start, ' . loadavg() . ' at end')
  . $row->('PostgreSQL', $v{pg} . ($v{cassert} eq 'on' ? ' (assertions enabled)' : ''))
  . $row->('Citus', $v{citus} . ($ENV{CITUS_REF} ? " (CITUS_REF=$ENV{CITUS_REF})" : ''))
  . $row->('pg_uuidx', "$v{ext} (workers $v{ext_workers}), commit " . ($ENV{BENCH_COMMIT} // '?'))
  . "\n### Readers under writers\n\n"
  . "$o{CITUS_WRITERS} pgbench clients on the coordinator for $o{CITUS_SECONDS} s insert into `ev` (the guard on "
  . "$v{guarded} shards): single-row transactions (weight 60) and 3-row ones (one multi-row INSERT, weight 40), each "
  . "held open 0-1.5 s after its INSERT: $v{writers}; $v{multi_2pc} of the 3-row transactions wrote both workers "
  . "(two-phase commit). The guard's refusals on all nodes: $v{refusals}. Committed: $v{committed}. After the "
  . "writers the workers' prepared transactions were gone in $v{recovery} s; the readers read 2 s more.\n\n"
  . "Two readers on the coordinator poll every $o{CITUS_POLL_MS} ms (at most 500 rows a poll, each poll a "
  . "transaction): `pg_uuidx_read_after(NULL::ev, last, 500)` and `SELECT id FROM ev WHERE id > last ORDER BY id "
  . "LIMIT 500`. Lag, ms: the time the reader got the row (`clock_timestamp()` after its poll) minus the commit time "
  . "of the row on the worker that holds it (`pg_xact_commit_timestamp(xmin)` in its shard: for a two-phase "
  . "transaction its COMMIT PREPARED there); and minus the id's time (`uuid_extract_timestamp(id)`, made at the "
  . "INSERT, so it includes the 0-1.5 s the transaction was held open). Reader errors: $v{reader_error_count} "
  . "($v{reader_errors}).\n\n"
  . "| reader | rows committed | missed | of them 3-row | read twice | read, not committed | lag median | lag p99 "
  . "| lag max | from the id's time: median | p99 |\n"
  . "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
for (@reader_rows)
{
	my ($r, $rows, $missed, $missed_multi, $twice, $med, $p99, $max, $med_id, $p99_id, $phantom) = split /\|/;
	$md .= $row->("`$r`", $rows, $missed, $missed_multi, $twice, $phantom, $med // '', $p99 // '', $max // '',
		$med_id // '', $p99_id // '');
	tsv('readers', $r, 'rows committed', $rows);
	tsv('readers', $r, 'missed', $missed);
	tsv('readers', $r, 'read twice', $twice);
	tsv('readers', $r, 'lag ms median', $med);
	tsv('readers', $r, 'lag ms p99', $p99);
	tsv('readers', $r, 'lag from id time ms median', $med_id);
	tsv('readers', $r, 'lag from id time ms p99', $p99_id);
}
$md .= "\nRows without a commit time on their worker (left out of the lag): $v{no_ts}.\n" if $v{no_ts};
$md .= "\n### The cost of one poll\n\n"
  . "One pgbench client (`-c 1`, back to back, no pause) for $o{CITUS_POLL_SECONDS} s of each query in turn, "
  . "$o{CITUS_POLL_REPS} repetitions, the order rotated from one to the next; the tables hold $o{CITUS_POLL_ROWS} rows, "
  . "the same in each, both guarded; `last` is the 1001st id from the end, so each poll returns 100 rows. ms over "
  . "every poll of the repetitions, from pgbench's per-transaction log (`-l`). On the workers, from their statistics: "
  . "`pg_uuidx_node_horizon()` calls a poll (the cluster horizon's round trip, on each worker), transactions a poll "
  . "(each query outside a transaction block is one: the horizon's, and each of Citus's shard queries - one a shard, "
  . "$o{CITUS_SHARDS} here), the sessions opened on the workers (Citus's connections and the horizon's), and the "
  . "horizon's connections (`application_name` 'pg_uuidx cluster horizon' in the workers' `pg_stat_activity`, 1 s "
  . "into each run and 1 s before its end). Citus opens a connection beyond the one it keeps when a shard query "
  . "waits longer than `citus.executor_slow_start_interval` (10 ms) and closes it at the end of the transaction "
  . "(`citus.max_cached_conns_per_worker` = 1): on a busy machine a poll of a distributed table may pay for new "
  . "connections, as the sessions column shows.\n\n"
  . "| poll | rows | polls | ms mean | ms median | ms p99 | horizon asks a poll (worker1 + worker2) "
  . "| worker transactions a poll (worker1 + worker2) | worker sessions opened | a poll | the horizon's connections |\n"
  . "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n";
$md .= $row->("`$_->[0]`", @$_[ 1, 2 ], sprintf('%.3f', $_->[3]), sprintf('%.3f', $_->[4]), sprintf('%.3f', $_->[5]),
	@$_[ 6 .. 10 ]) for @poll_rows;
$md .= "\n### Insert throughput\n\n"
  . "$o{CITUS_INSERT_CLIENTS} pgbench clients on the coordinator, `INSERT INTO t DEFAULT VALUES` (the id from the "
  . "coordinator's `uuidv7()`), $o{CITUS_INSERT_REPS} repetitions of $o{CITUS_INSERT_SECONDS} s for each table, "
  . "the two in turn and the order swapped from one repetition to the next, each run into a fresh distributed table "
  . "after a CHECKPOINT on every node; `--max-tries=20` retries the guard's refusals (40001). tps and latency: "
  . "medians of the repetitions.\n\n"
  . "| table | tps | tps of each repetition | latency average, ms | rows | transactions retried | the guard's refusals |\n"
  . "|---|---:|---|---:|---:|---:|---:|\n";
$md .= $row->(@$_) for @ins_rows;
$md .= sprintf("\nWith the guard: %.3fx the tps without it (medians).\n", $ratio);
open(my $fh, '>', "$out/citus.md") or die $!;
print $fh $md;
close($fh);
open($fh, '>', "$out/citus.tsv") or die $!;
print $fh join("\n", "part\titem\tmeasure\tvalue", @tsv), "\n";
close($fh);

$_->stop('fast') for reverse @nodes;
say sprintf('done in %.0f s: %s/citus.md', time - $started, $out);
