# test/bench/bench.pl - the benchmark.  "make bench" (test/run.sh bench)
# builds and installs pg_uuidx and runs this inside a throwaway cluster
# (test/cluster.pl: unprivileged OS user, unix socket only, fsync on,
# shared_buffers=1GB, max_wal_size=4GB); the report and charts are copied
# to OUT (default test/bench/out).  Phases, in order:
#   gen        ns per call of every generator and reader, against a floor
#              query (gen.sql; interleaved repetitions, medians)
#   facade     uuidv47_encode/decode against uuidv7(), uuid_extract_timestamp_us
#              against uuid_extract_timestamp (facade.sql), if installed
#   memory     per-backend memory before and after N_MEM uuidv7() calls
#   convert    UPDATE / CREATE TABLE AS with uuidv1_to_v6()
#   range      one hour of N_RANGE DEFAULT uuidv7() rows: id <@ tstzrange
#              against a uuid_extract_timestamp(id) filter (range.sql)
#   textforms  base32hex, ULID and TypeID against uuid_out and uuid_in
#   insert     N_INSERT rows keyed by identity, uuidv7(), uuidv6(),
#              gen_random_uuid(), BATCH rows a statement
#   pgbench    single-row INSERTs, v4 against v7, for each client count
#   copy       COPY of N_COPY rows with ids made before it into a plain
#              table, one with the guard before the row, one with the guard
#              pg_uuidx_add_guard() declares (after the row, with its
#              statement trigger), the same with the WHEN condition, and one
#              with the xid8 column and its index,
#              COPY_REPS interleaved repetitions, medians against the plain
#              table (copy.sql); before 17 the server is restarted with
#              pg_uuidx preloaded (the guards' shared state), and again after
#   sqlbuild   the SQL build (its plain script, made by test/run.sh, in
#              schema sqlbuild) against the C build, gen_random_uuid() and
#              the widely shared SQL uuidv7: uuidv7() and the readers per
#              call (N_SQL rows a query), id <@ tstzrange on N_SQL_RANGE
#              rows (sqlbuild.sql)
#   horizon    uuidv7_horizon(): ns per call on an idle server and with
#              HZ_IDLE idle and HZ_BUSY busy connections, how far it trails
#              the clock under that write load (median, p99), and what one
#              long transaction does to it (horizon.sql), and on 17+ after
#              an install in place (the library file renewed over a running
#              server) while a session from before it is connected and once
#              it has ended, against a fresh start; the server is
#              restarted for it with max_connections raised and, before 17,
#              pg_uuidx in shared_preload_libraries, and again after it
#   ticker     the built-in ticker of one database on an idle server, at
#              pg_uuidx.tick_interval 10 ms, 100 ms (the default) and 1 s,
#              TICK_SECONDS each with nothing written and with a row
#              committed every 100 ms: ticks a second, WAL kB a second, the
#              worker's CPU time (ticker.md); the server is restarted with
#              pg_uuidx preloaded, and again after it
#   outbox     reading a table in order while writers commit late: id > last,
#              a fixed lag of 1 s, the xid8 pattern, logical decoding through
#              a slot, pg_uuidx_read_after() on the primary, a streaming
#              standby and a logical subscriber, side by side on one workload
#              (OUTBOX_SECONDS a pass, OUTBOX_CLIENTS writers), what each
#              approach's table costs (OUTBOX_COST_SECONDS, OUTBOX_COST_REPS),
#              and three stalls (OUTBOX_OTHERDB_SECONDS, OUTBOX_IDLE sessions
#              for OUTBOX_IDLE_SECONDS, OUTBOX_IDMAKER_SECONDS), a pass with
#              a guard allowing OUTBOX_ALLOWANCE_MS, and two with every
#              setting at its default (the second with the writers of one
#              table alone); on clusters of its own (test/bench/outbox.pl
#              says what it does), about 9 minutes (11 with
#              OUTBOX_SECONDS=60).  Alone: PHASES=outbox make bench; some
#              of its parts: OUTBOX_PASSES (default "costs 1 2 3 stalls
#              defaults same"), e.g. PHASES=outbox OUTBOX_PASSES=same
#              OUTBOX_SECONDS=60 make bench (2.5 minutes)
# and, only when PHASES names it:
#   versions   this build against a base version built from git in the same
#              run: "make bench PHASES=versions [BASE=<git ref>]" (default
#              BASE=b1b4130, the 1.2 release).  test/run.sh builds the base
#              from "git archive" in its temp dir and installs it into the
#              private server copy as the extension pg_uuidx_base (its
#              library renamed, module_pathname naming it); this phase makes
#              a database for each version (bench_base, bench_head) and
#              times every measure of versions.sql (name-based ids,
#              uuidv7(), the microsecond reader, id <@ tstzrange per row on
#              a seq scan and its planning) in a new session of each database
#              in turn, REPS interleaved repetitions, N_VER rows a query,
#              N_PLAN plannings; medians, ns per call, head/base against a
#              1.10 goal.  Measures are rows of versions.sql's ver_query.
#   citus      pg_uuidx_read_after() on a Citus coordinator (the cluster
#              horizon), on a coordinator and two workers of its own
#              (test/bench/citus.pl says what it does): readers under
#              CITUS_WRITERS writers of single-row and multi-shard
#              transactions for CITUS_SECONDS, polling every CITUS_POLL_MS
#              (missed, read twice, lag); the cost of one poll
#              (CITUS_POLL_REPS interleaved repetitions of CITUS_POLL_SECONDS,
#              tables of CITUS_POLL_ROWS rows); insert tps with and without
#              the guard (CITUS_INSERT_CLIENTS clients, CITUS_INSERT_REPS
#              interleaved repetitions of CITUS_INSERT_SECONDS);
#              CITUS_SHARDS shards a table; about 2.5 minutes.
#              test/run.sh builds Citus into its
#              private server copy first (test/lanes/citus/build.sh):
#              "PHASES=citus CITUS_SOURCE=<checkout or git URL>
#              [CITUS_REF=<tag>] make bench"; without CITUS_SOURCE the phase
#              says in its section that it skipped.
#   throughput writers at full speed and their reader, for each way of
#              reading a table in order side by side with PgQ: a plain
#              table (the baseline), pg_uuidx_add_guard() and
#              pg_uuidx_consume() (ids of the server, of the client; the
#              guard without a reader), the xid8 recipe, logical decoding
#              and PgQ with pgqd, at THROUGHPUT_CLIENTS pgbench clients,
#              1 and 10 rows a transaction, THROUGHPUT_SECONDS a cell,
#              THROUGHPUT_REPS repetitions, readers polling every
#              THROUGHPUT_POLL_MS, then each reader alone on a backlog of
#              THROUGHPUT_BACKLOG_SECONDS of writes; and what the writers
#              pay: the writers alone (the plain table, the guard, xid8,
#              PgQ), 1 row a transaction, in THROUGHPUT_COST_SLICES turns
#              of THROUGHPUT_COST_SECONDS each; THROUGHPUT_APPROACHES
#              (comma-separated) runs some (test/bench/throughput.pl says
#              what it does); on a cluster of its own, about 27 minutes.
#              test/run.sh installs PgQ and pgqd from Debian first
#              (postgresql-<major>-pgq3, pgqd); without them PgQ is left out
#              with a message: "PHASES=throughput make bench".
# Settings are environment variables (defaults below; N_GEN is also the row
# count of the readers' table); BUILD=0 benchmarks the pg_uuidx already
# installed.  The defaults take about 20 minutes on 2 cores, and the outbox
# phase about 9 more; a smoke run:
#   N_GEN=200000 N_INSERT=200000 N_CONV=100000 N_MEM=200000 N_RANGE=200000 \
#   REPS=3 SECONDS_PER_RUN=2 CLIENTS="1 2" PGBENCH_PRELOAD=100000 \
#   OUTBOX_SECONDS=6 OUTBOX_COST_SECONDS=2 OUTBOX_COST_REPS=1 OUTBOX_OTHERDB_SECONDS=4 \
#   OUTBOX_IDLE=20 OUTBOX_IDLE_SECONDS=3 OUTBOX_IDMAKER_SECONDS=3 make bench
# Nothing here asserts timings: targets are printed as PASS or MISS.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use File::Compare;
use FindBin;
use POSIX qw(strftime);
use Time::HiRes ();

my %default = (
	N_GEN => 2000000, N_INSERT => 10000000, BATCH => 100000, N_CONV => 1000000,
	N_MEM => 10000000, N_RANGE => 10000000, REPS => 7, SECONDS_PER_RUN => 15,
	PGBENCH_PRELOAD => 1000000, CLIENTS => '1 2 4 8', N_VER => 1000000, N_PLAN => 2000,
	N_SQL => 200000, N_SQL_RANGE => 1000000, HZ_IDLE => 100, HZ_BUSY => 10, N_HZ => 20000,
	OUTBOX_SECONDS => 30, OUTBOX_CLIENTS => 6, OUTBOX_POLL_MS => 50, OUTBOX_COST_SECONDS => 10, OUTBOX_COST_REPS => 3,
	OUTBOX_OTHERDB_SECONDS => 30, OUTBOX_IDLE => 50, OUTBOX_IDLE_SECONDS => 10, OUTBOX_IDMAKER_SECONDS => 10,
	OUTBOX_ALLOWANCE_MS => 100, OUTBOX_PASSES => 'costs 1 2 3 stalls defaults same',
	N_COPY => 500000, COPY_REPS => 3,
	TICK_SECONDS => 20,
	CITUS_SECONDS => 30, CITUS_WRITERS => 6, CITUS_POLL_MS => 10, CITUS_SHARDS => 32, CITUS_POLL_SECONDS => 3,
	CITUS_POLL_REPS => 3, CITUS_POLL_ROWS => 100000, CITUS_INSERT_SECONDS => 5, CITUS_INSERT_REPS => 3,
	CITUS_INSERT_CLIENTS => 4,
	THROUGHPUT_SECONDS => 15, THROUGHPUT_CLIENTS => '8 32 64', THROUGHPUT_REPS => 1, THROUGHPUT_POLL_MS => 10,
	THROUGHPUT_BACKLOG_SECONDS => 5, THROUGHPUT_COST_SLICES => 12, THROUGHPUT_COST_SECONDS => 3,
	THROUGHPUT_APPROACHES => 'plain,pg_uuidx,pg_uuidx guard alone,pg_uuidx client ids,xid8,logical,pgq',
	PHASES => 'gen facade memory convert range textforms insert pgbench copy sqlbuild horizon ticker outbox');
# phases run only when PHASES names them
my @optional_phases = ('versions', 'citus', 'throughput');
my %o = map { $_ => $ENV{$_} // $default{$_} } keys %default;
for (grep { $default{$_} =~ /^\d+$/ } sort keys %default)
{
	my $min = $_ eq 'PGBENCH_PRELOAD' ? 0 : 1;
	die "$_ must be an integer of at least $min, not '$o{$_}'\n" unless $o{$_} =~ /^\d+$/ && $o{$_} >= $min;
}
die "OUTBOX_CLIENTS must be 3 or more\n" if $o{OUTBOX_CLIENTS} < 3;
for my $p (split ' ', $o{OUTBOX_PASSES})
{
	die "OUTBOX_PASSES: unknown part '$p' (parts: $default{OUTBOX_PASSES})\n"
	  unless grep { $_ eq $p } split ' ', $default{OUTBOX_PASSES};
}
die "CLIENTS must list positive integers, not '$o{CLIENTS}'\n" unless $o{CLIENTS} =~ /^[1-9]\d*( [1-9]\d*)*$/;
my %phase = map { $_ => 1 } split ' ', $o{PHASES};
for my $p (keys %phase)
{
	die "unknown phase: $p\n" unless grep { $_ eq $p } split(' ', $default{PHASES}), @optional_phases;
}
my $here = $FindBin::RealBin;
my $out = $ENV{BENCH_OUT} or die "BENCH_OUT is not set: run make bench\n";
my $command = join(' ', ($ENV{BUILD} // 1) eq '0' ? 'BUILD=0' : (),
	map { $o{$_} =~ / / ? "$_=\"$o{$_}\"" : "$_=$o{$_}" } sort keys %o) . ($phase{versions} ? " BASE=$ENV{BASE}" : '')
  . ($phase{citus} && $ENV{CITUS_SOURCE} ? " CITUS_SOURCE=$ENV{CITUS_SOURCE}"
	  . ($ENV{CITUS_REF} ? " CITUS_REF=$ENV{CITUS_REF}" : '') : '')
  . ' make bench';
mkdir $out;
$ENV{PGDATABASE} = 'bench';
$ENV{PGOPTIONS} = '-c client_min_messages=warning';

sub say { print "== @_\n"; return; }
sub run { system(@_) == 0 or die "failed: @_\n"; return; }

# psql with ON_ERROR_STOP; its output to $to when given, else to the terminal
sub psql
{
	my ($to, @args) = @_;
	open(my $save, '>&', \*STDOUT) or die $!;
	open(STDOUT, '>', $to) or die "$to: $!" if $to;
	my $rc = system('psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', @args);
	open(STDOUT, '>&', $save) or die $!;
	die "psql @args failed\n" if $rc;
	return;
}

# psql -At's output, chomped
sub psql_out
{
	open(my $fh, '-|', 'psql', '-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1', @_) or die $!;
	my $r = do { local $/; <$fh> } // '';
	close($fh) or die "psql @_ failed\n";
	chomp $r;
	return $r;
}
sub query { return psql_out('-c', $_[0]); }
sub has_function { return query("SELECT to_regprocedure('$_[0]') IS NOT NULL") eq 't'; }
sub first_line { my ($cmd) = @_; my ($l) = split /\n/, `$cmd`; return $l // 'unknown'; }
# a file's text, '' when it cannot be read
sub slurp { open(my $fh, '<', $_[0]) or return ''; local $/; return <$fh>; }
sub loadavg { return join ' ', (split ' ', slurp('/proc/loadavg'))[ 0 .. 2 ]; }

my $so_built = "$ENV{PWD}/pg_uuidx.so";
chomp(my $pkglibdir = `pg_config --pkglibdir`);
my $clock = ((slurp('/sys/devices/system/clocksource/clocksource0/current_clocksource') =~ /(\S+)/)[0] // 'unknown') . ' clock source, '
  . ((`pg_test_timing -d 1` =~ /^Per loop time including overhead: (.*)$/m)[0] // '?') . ' per clock read (pg_test_timing)';
run('createdb', 'bench');
psql(undef, '-f', "$here/setup.sql");
my $load_start = loadavg();
my @nr = ('-v', "n=$o{N_GEN}", '-v', "reps=$o{REPS}");

if ($phase{gen})
{
	say "generation: $o{REPS} interleaved repetitions of $o{N_GEN} rows per expression";
	psql(undef, @nr, '-f', "$here/gen.sql");
}
if ($phase{memory})
{
	say "memory: one backend, 1k then $o{N_MEM} then $o{N_MEM} more uuidv7() calls";
	psql(undef, '-v', "n=$o{N_MEM}", '-f', "$here/memory.sql");
}
if ($phase{facade} && has_function('uuidv47_encode(uuid,bytea)'))
{
	say "facade: $o{REPS} interleaved repetitions of $o{N_GEN} rows per expression";
	psql("$out/facade.md", @nr, '-f', "$here/facade.sql");
}
if ($phase{convert})
{
	say "conversion: $o{N_CONV} v1 ids to v6";
	psql(undef, '-v', "n=$o{N_CONV}", '-f', "$here/convert.sql");
}
if ($phase{range})
{
	say "range: one hour of $o{N_RANGE} rows, $o{REPS} repetitions";
	psql("$out/range.md", '-v', "n=$o{N_RANGE}", '-v', "reps=$o{REPS}", '-f', "$here/range.sql");
}
if ($phase{sqlbuild})
{
	my $plain = $ENV{BENCH_SQLONLY} or die "the sqlbuild phase needs the SQL build made by make bench\n";
	say "sqlbuild: the SQL build against the C build, $o{REPS} interleaved repetitions of $o{N_SQL} rows,"
	  . " id <@ tstzrange on $o{N_SQL_RANGE} rows";
	psql('/dev/null', '-v', 'schema=sqlbuild', '-f', $plain);
	psql("$out/sqlbuild.md", '-v', "n=$o{N_SQL}", '-v', "n_range=$o{N_SQL_RANGE}", '-v', "reps=$o{REPS}",
		'-f', "$here/sqlbuild.sql");
}
if ($phase{textforms})
{
	say "text forms: $o{REPS} interleaved repetitions over $o{N_GEN} ids";
	psql("$out/textforms.md", @nr, '-f', "$here/textforms.sql");
}
if ($phase{versions})
{
	my $base = $ENV{BENCH_BASE} or die "the versions phase needs the base version installed by make bench\n";
	say "versions: $base against this build, $o{REPS} interleaved repetitions, $o{N_VER} rows a query,"
	  . " $o{N_PLAN} plannings";
	my %ext = (base => 'pg_uuidx_base', head => 'pg_uuidx');
	for my $v (qw(base head))
	{
		run('createdb', "bench_$v");
		psql(undef, '-d', "bench_$v", '-c', "CREATE EXTENSION $ext{$v}", '-v', "n=$o{N_VER}", '-f', "$here/versions.sql");
	}
	query('CREATE TABLE ver_time (version text, rep int, ord int, label text, kind text, floor text, ms float8, units bigint)');
	my @order = qw(base head);
	for my $r (0 .. $o{REPS})
	{
		for my $v (@order)
		{
			my $other = $ext{ $v eq 'base' ? 'head' : 'base' };
			my @rows = split /\n/, psql_out('-d', "bench_$v", '-F', "\t",
				'-c', "SET jit = off; SET max_parallel_workers_per_gather = 0; SET work_mem = '1GB'",
				'-c', "SELECT r.label, q.ord, q.kind, q.floor, r.ms, r.units
					FROM ver_run($o{N_VER}, $o{N_PLAN}, $r, '$ext{$v}', '$other') AS r LEFT JOIN ver_query AS q USING (label)");
			die "versions: no library check from bench_$v\n" unless @rows && $rows[-1] =~ /^library\t/;
			pop @rows;
			query('INSERT INTO ver_time VALUES ' . join(', ', map {
				my ($label, $ord, $kind, $floor, $ms, $units) = map { s/'/''/gr } split /\t/, $_, -1;
				"('$v', $r, $ord, '$label', '$kind', " . ($floor eq '' ? 'NULL' : "'$floor'") . ", $ms, $units)"
			} @rows));
		}
		@order = reverse @order;
	}
	psql("$out/versions.md", '-v', "base=$base", '-v', 'goal=1.10', '-f', "$here/versions_report.sql");
}

# name, column definition of the key, function it needs (empty: none)
my @insert_keys = (
	[ 'identity', 'bigint GENERATED ALWAYS AS IDENTITY', '' ],
	[ 'uuidv7()', 'uuid DEFAULT uuidv7()', 'uuidv7()' ],
	[ 'uuidv6()', 'uuid DEFAULT uuidv6()', 'uuidv6()' ],
	[ 'gen_random_uuid()', 'uuid DEFAULT gen_random_uuid()', 'gen_random_uuid()' ]);
for my $k ($phase{insert} ? @insert_keys : ())
{
	my ($name, $keydef, $needs) = @$k;
	if ($needs && !has_function($needs)) { say "insert: $name not installed, skipped"; next; }
	say "insert: $o{N_INSERT} rows keyed by $name, $o{BATCH} rows a statement";
	psql(undef, '-v', "key=$name", '-v', "keydef=$keydef", '-v', "n=$o{N_INSERT}", '-v', "batch=$o{BATCH}",
		'-f', "$here/insert.sql");
}

# pgbench: a fresh table per run, preloaded with PGBENCH_PRELOAD rows so the
# index is more than a few pages, then a checkpoint: the first change to each
# leaf page after it writes a full-page image to WAL, as on a live server.
sub pgbench_run
{
	my ($def, $c) = @_;
	my $j = `nproc` + 0;
	$j-- while $c % $j;
	say "pgbench: $c client(s), $j thread(s), $o{SECONDS_PER_RUN}s, INSERT keyed by $def";
	psql(undef, '-c', 'DROP TABLE IF EXISTS pb', '-c', "CREATE TABLE pb (id uuid PRIMARY KEY DEFAULT $def)",
		'-c', "INSERT INTO pb SELECT FROM generate_series(1, $o{PGBENCH_PRELOAD})", '-c', 'VACUUM ANALYZE pb',
		'-c', 'CHECKPOINT');
	my $lsn0 = query('SELECT pg_current_wal_lsn()');
	my $log = "$out/pgbench_" . ($def =~ s/\(.*//r) . "_c$c.log";
	system("pgbench -n -M prepared -c $c -j $j -T $o{SECONDS_PER_RUN} -f $here/pgbench_insert.sql >$log 2>&1") == 0
	  or die "pgbench failed:\n" . slurp($log);
	my $res = slurp($log);
	my ($tps) = $res =~ /^tps = ([\d.]+) /m;
	my ($lat) = $res =~ /^latency average = ([\d.]+) ms/m;
	psql(undef, '-c', "INSERT INTO pgb_result SELECT '$def', $c, $j, $o{SECONDS_PER_RUN}, $o{PGBENCH_PRELOAD},
		$tps, " . ($lat // 'NULL') . ", count(*) - $o{PGBENCH_PRELOAD},
		pg_wal_lsn_diff(pg_current_wal_lsn(), '$lsn0') FROM pb");
	return;
}

# v4 and v7 alternate which goes first from one client count to the next
if ($phase{pgbench})
{
	my @pair = ('gen_random_uuid()', 'uuidv7()');
	for my $c (split ' ', $o{CLIENTS})
	{
		pgbench_run($_, $c) for @pair;
		@pair = reverse @pair;
	}
	psql(undef, '-c', 'DROP TABLE pb');
}
if ($phase{copy})
{
	copy_phase();
}
if ($phase{horizon})
{
	horizon_phase();
}
if ($phase{ticker})
{
	ticker_phase();
}
# the phases on clusters of their own, through PostgreSQL's TAP modules
# (beside PGXS), with their settings (names starting with prefix)
sub tap_phase
{
	my ($script, $prefix) = @_;
	chomp(my $pgxs = `pg_config --pgxs`);
	my $tap = ($pgxs =~ s{/src/makefiles/pgxs\.mk$}{}r) . '/src/test/perl';
	local @ENV{ grep { /^$prefix/ } keys %o } = map { $o{$_} } grep { /^$prefix/ } keys %o;
	run($^X, '-I', $tap, "$here/$script");
	return;
}
tap_phase('outbox.pl', 'OUTBOX_') if $phase{outbox};
tap_phase('throughput.pl', 'THROUGHPUT_') if $phase{throughput};
tap_phase('citus.pl', 'CITUS_') if $phase{citus};
my $load_end = loadavg();

# restart the server with settings of ALTER SYSTEM
sub restart
{
	run('pg_ctl', '-D', $ENV{PGDATA}, '-w', '-l', "$ENV{PGDATA}/../restart.log", 'restart');
	return;
}

sub horizon_phase
{
	my $major = int(query('SHOW server_version_num') / 10000);
	my $conns = $o{HZ_IDLE} + $o{HZ_BUSY} + 20;
	say "horizon: $o{REPS} repetitions of $o{N_HZ} calls, idle and with $o{HZ_IDLE} idle and $o{HZ_BUSY} busy"
	  . ' connections; lag under that load; one long transaction';
	query("ALTER SYSTEM SET max_connections = $conns");
	query("ALTER SYSTEM SET shared_preload_libraries = 'pg_uuidx'") if $major < 17;
	restart();
	psql(undef, '-f', "$here/horizon.sql");
	query("CALL hz_measure('idle server', $o{N_HZ}, $o{REPS})");

	# idle sessions: psql reading from a pipe that stays open
	my @idle;
	for (1 .. $o{HZ_IDLE})
	{
		open(my $fh, '|-', 'psql -X -q >/dev/null') or die "psql: $!";
		push @idle, $fh;
	}
	# busy sessions: two rows a transaction, 0-20 ms apart
	my $script = "$out/horizon_writer.sql";
	open(my $w, '>', $script) or die $!;
	print $w "\\set s random(0, 20)\nBEGIN;\nINSERT INTO hz DEFAULT VALUES;\n\\sleep :s ms\n"
	  . "INSERT INTO hz DEFAULT VALUES;\nCOMMIT;\n";
	close($w);
	my $seconds = 25;
	open(my $pg, '-|', "pgbench -n -c $o{HZ_BUSY} -j 2 -T $seconds -f $script 2>&1") or die $!;
	sleep 2;
	query("SELECT pg_sleep(0.1)") until query('SELECT count(*) FROM hz') > 0;
	query("CALL hz_measure('$o{HZ_IDLE} idle + $o{HZ_BUSY} busy connections', $o{N_HZ}, $o{REPS})");
	query("CALL hz_sample('$o{HZ_BUSY} busy connections', 8)");
	# one long transaction: its first id holds the horizon until it ends
	open(my $long, '|-', 'psql -X -q >/dev/null') or die "psql: $!";
	{
		my $old = select($long);
		$| = 1;
		select($old);
	}
	print $long "BEGIN;\nINSERT INTO hz DEFAULT VALUES;\nSELECT pg_sleep(6);\nCOMMIT;\n";
	sleep 1;
	query("CALL hz_sample('one transaction open (1 to 5 s)', 4)");
	my $holders = query(q{SELECT string_agg(format('pid %s since %s', pid, holds_since), '; ')
		FROM pg_uuidx_horizon_holders() WHERE holds_since < clock_timestamp() - interval '2 s'});
	close($long);
	query("CALL hz_sample('after it committed', 2)");
	my $pgbench_out = join '', <$pg>;
	close($pg);
	close($_) for @idle;
	my ($tps) = $pgbench_out =~ /^tps = ([\d.]+)/m;
	horizon_after_install() if $major >= 17;
	psql("$out/horizon.md", '-v', "tps=" . ($tps // '?'), '-v', "holders=" . ($holders || 'none'),
		'-f', "$here/horizon_report.sql");
	query('DROP TABLE hz, hz_cost, hz_lag');
	query('ALTER SYSTEM RESET max_connections');
	query('ALTER SYSTEM RESET shared_preload_libraries');
	restart();
	return;
}

# COPY into a table with each guard, against the plain table: the variants
# in turn, rotated from one repetition to the next
sub copy_phase
{
	my $major = int(query('SHOW server_version_num') / 10000);
	my @variants = ('plain', '+ guard before the row', '+ pg_uuidx_add_guard()', '+ guard after the row, WHEN',
		'+ xid8 column and index');
	my $file = query('SHOW data_directory') . '/../copy_ids.tsv';
	say "copy: COPY of $o{N_COPY} rows, $o{COPY_REPS} interleaved repetitions: " . join(', ', @variants);
	if ($major < 17)
	{
		query("ALTER SYSTEM SET shared_preload_libraries = 'pg_uuidx'");
		restart();
	}
	psql(undef, '-f', "$here/copy.sql");
	for my $rep (1 .. $o{COPY_REPS})
	{
		for my $i (0 .. $#variants)
		{
			my $ord = ($i + $rep - 1) % @variants;
			my $v = $variants[$ord];
			query("SELECT cp_prepare('$v', $o{N_COPY}, '$file')");
			query('CHECKPOINT');
			my $t0 = Time::HiRes::time();
			query("COPY cp (id, n, note) FROM '$file'");
			my $ms = (Time::HiRes::time() - $t0) * 1000;
			query("INSERT INTO cp_time SELECT '$v', $ord, $rep, $ms, count(*) FROM cp");
		}
	}
	psql("$out/copy.md", '-v', "n=$o{N_COPY}", '-v', "reps=$o{COPY_REPS}", '-v', 'goal=1.10',
		'-f', "$here/copy_report.sql");
	query('DROP TABLE cp, cp_time');
	query('DROP FUNCTION cp_prepare(text, int, text)');
	unlink $file;
	if ($major < 17)
	{
		query('ALTER SYSTEM RESET shared_preload_libraries');
		restart();
	}
	return;
}

# the ticker of the bench's database at each interval, on an otherwise idle
# server: with nothing written, and with a row committed every 100 ms
sub ticker_phase
{
	say "ticker: $o{TICK_SECONDS} s at each of 10 ms, 100 ms and 1 s, idle and with a row every 100 ms";
	query("ALTER SYSTEM SET shared_preload_libraries = 'pg_uuidx'");
	restart();
	# its settings are known once the library is loaded
	query("ALTER SYSTEM SET pg_uuidx.tick_databases = '$ENV{PGDATABASE}'");
	query('CREATE TABLE ticker_rows (id uuid PRIMARY KEY DEFAULT uuidv7())');
	open(my $md, '>', "$out/ticker.md") or die $!;
	print $md "## The built-in ticker\n\nOne database ticked on an otherwise idle server, $o{TICK_SECONDS} s at each "
	  . "interval, with nothing written and with a row committed every 100 ms (WAL from `pg_current_wal_lsn()`, the "
	  . "rows' included; CPU from the worker's `/proc/PID/stat`):\n\n"
	  . "| tick_interval | writes | ticks a second | WAL kB a second | worker CPU, % of a core |\n"
	  . "|---|---|---:|---:|---:|\n";
	my $hz = POSIX::sysconf(POSIX::_SC_CLK_TCK());
	my $cpu = sub {
		my ($pid) = @_;
		my @f = split ' ', (slurp("/proc/$pid/stat") =~ s/^.*\) //sr);
		return ($f[11] + $f[12]) / $hz;
	};
	for my $interval ('10ms', '100ms', '1s')
	{
		query("ALTER SYSTEM SET pg_uuidx.tick_interval = '$interval'");
		query('SELECT pg_reload_conf()');
		sleep 2;
		my $pid;
		for (1 .. 20)
		{
			last if $pid = query(q{SELECT pid FROM pg_stat_activity WHERE backend_type = 'pg_uuidx ticker'});
			sleep 1;
		}
		die "ticker: no worker\n" unless $pid;
		for my $writes ('none', 'a row every 100 ms')
		{
			my $writer;
			if ($writes ne 'none')
			{
				my $n = 10 * $o{TICK_SECONDS} + 10;
				$writer = fork() // die "fork: $!";
				if ($writer == 0)
				{
					exec('psql', '-X', '-q', '-c', "DO \$\$ BEGIN FOR i IN 1 .. $n LOOP INSERT INTO ticker_rows DEFAULT "
						  . "VALUES; COMMIT; PERFORM pg_sleep(0.1); END LOOP; END \$\$");
					die "psql: $!\n";
				}
				sleep 1;
			}
			my ($lsn0, $n0) = split /\|/, query(q{SELECT pg_current_wal_lsn(), n_tup_ins + n_tup_upd
				FROM pg_stat_all_tables WHERE relname = 'pg_uuidx_last_tick'});
			my $c0 = $cpu->($pid);
			sleep $o{TICK_SECONDS};
			my $c1 = $cpu->($pid);
			my $wal = query("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '$lsn0')");
			waitpid($writer, 0) if $writer;
			# the statistics of the worker's ticks reach the view within a second
			sleep 1;
			print $md query(qq{SELECT format('| %s | %s | %s | %s | %s |', '$interval', '$writes',
				round(n / $o{TICK_SECONDS}.0, 1), round($wal / $o{TICK_SECONDS}.0 / 1024, 1),
				round((100 * ($c1 - $c0) / $o{TICK_SECONDS})::numeric, 2))
				FROM (SELECT n_tup_ins + n_tup_upd - $n0 n
				FROM pg_stat_all_tables WHERE relname = 'pg_uuidx_last_tick') s}), "\n";
		}
	}
	close($md);
	query('DROP TABLE ticker_rows');
	query('ALTER SYSTEM RESET pg_uuidx.tick_interval');
	query('ALTER SYSTEM RESET pg_uuidx.tick_databases');
	query('ALTER SYSTEM RESET shared_preload_libraries');
	restart();
	return;
}

# 17+: the library's file installed over the running server (its change
# time renewed, as make install and dpkg do), one session connected from
# before: ns per call while that session lasts, and once it has ended
sub horizon_after_install
{
	my $lib = "$pkglibdir/pg_uuidx.so";
	if (!-O $lib)
	{
		say "horizon: $lib is not this user's; no measure after an install in place";
		return;
	}
	restart();
	open(my $old, '|-', 'psql -X -q >/dev/null') or die "psql: $!";
	{
		my $fh = select($old);
		$| = 1;
		select($fh);
	}
	print $old "SET application_name = 'hz before install';\n";
	query('SELECT pg_sleep(0.05)')
	  until query(q{SELECT count(*) FROM pg_stat_activity WHERE application_name = 'hz before install'});
	utime(undef, undef, $lib) or die "$lib: $!";
	query("CALL hz_measure('installed in place, a session from before connected', $o{N_HZ}, $o{REPS})");
	close($old);
	query('SELECT pg_sleep(0.05)')
	  while query(q{SELECT count(*) FROM pg_stat_activity WHERE application_name = 'hz before install'});
	query("CALL hz_measure('installed in place, that session ended', $o{N_HZ}, $o{REPS})");
	return;
}

say "writing $out/report.md";
my $md = sub { my ($k, $v) = @_; return "| $k | $v |\n"; };
my ($os) = `. /etc/os-release && echo "\$PRETTY_NAME"` =~ /(.*)/;
my ($cpu) = slurp('/proc/cpuinfo') =~ /^model name\s*: (.*)$/m;
my ($mem) = slurp('/proc/meminfo') =~ /^MemTotal:\s*(\d+)/m;
my $report = "# pg_uuidx benchmark\n\n| | |\n|---|---|\n"
  . $md->('date', strftime('%Y-%m-%d %H:%M UTC', gmtime))
  . $md->('CPU', ($cpu // '?') . ', ' . (`nproc` + 0) . ' cores')
  . $md->('clock', $clock)
  . $md->('RAM', sprintf('%.1f GiB', $mem / 1048576))
  . $md->('OS', "$os, kernel " . first_line('uname -r'))
  . $md->('PostgreSQL', query('SELECT version()'))
  . $md->('pg_uuidx', query("SELECT extversion FROM pg_extension WHERE extname = 'pg_uuidx'")
	  . ", commit $ENV{BENCH_COMMIT}")
  . ($phase{versions} ? $md->('base version (versions phase)', $ENV{BENCH_BASE}) : '')
  . $md->('data directory', (split ' ', (split /\n/, `df -T $ENV{PGDATA}`)[1])[1] . ' file system, fsync on')
  . $md->('server settings', 'shared_buffers=1GB, max_wal_size=4GB, everything else default')
  . $md->('load average (1, 5, 15 min)', "$load_start at start, $load_end at end")
  . "\nCommand (effective settings):\n\n```\n$command\n```\n";
$report .= "\n**Warning:** the installed pg_uuidx.so is no longer the one this run built (another build installed"
  . " over it); numbers may mix two builds.\n"
  if compare($so_built, "$pkglibdir/pg_uuidx.so") != 0;
$report .= "\n" . psql_out('-f', "$here/report.sql") . "\n";
$report .= slurp("$out/$_.md") . "\n" for grep { -s "$out/$_.md" } qw(facade range textforms versions copy sqlbuild horizon ticker outbox throughput citus);
if ($phase{memory})
{
	$report .= "Static state in the shared library (`nm -S --size-sort`, data and bss symbols):\n\n"
	  . "| symbol | section | bytes |\n|---|---|---|\n";
	my $total = 0;
	for (split /\n/, `nm -S --size-sort $so_built`)
	{
		my (undef, $size, $type, $sym) = split ' ';
		my $section = { b => 'bss', B => 'bss', d => 'data', D => 'data' }->{$type} or next;
		$report .= "| `$sym` | $section | " . hex($size) . " |\n";
		$total += hex($size);
	}
	$report .= "| total | | $total |\n";
	$report .= "\n`completed.0` belongs to the C runtime's start-up code, not to pg_uuidx.\n"
	  if `nm $so_built` =~ / completed\.0$/m;
	my @sections = `size -A $so_built` =~ /^(\.(?:data|bss))\s+(\d+)/mg;
	my @pairs;
	push @pairs, shift(@sections) . ' ' . shift(@sections) . ' bytes' while @sections;
	$report .= "\nSection sizes (`size -A`): " . join(', ', @pairs) . ".\n";
}

# tab-separated data for gnuplot and for the record, then the charts
for (qw(gen:ord insert:ord pgbench:clients))
{
	my ($t, $by) = split /:/;
	next unless query("SELECT count(*) FROM report_$t") > 0;
	psql(undef, '-c', "\\copy (SELECT * FROM report_$t ORDER BY $by) TO '$out/$t.tsv' WITH (FORMAT text, HEADER)");
}
if (system("cd $out && gnuplot $here/charts.gp") == 0)
{
	$report .= "\n## Charts\n\n" . join '', map { "![$_]($_.png)\n" } grep { -s "$out/$_.png" } qw(gen insert_rate insert_size pgbench);
}
else
{
	warn "gnuplot failed: no charts\n";
}
open(my $fh, '>', "$out/report.md") or die $!;
print $fh $report;
close($fh);
say "done: $out/report.md";
