# A benchmark, not a test: on a native uuid hypertable of TimescaleDB 2.22+
# (PG_UUIDX_TSDB_BENCH=ROWS:DAYS rows spread evenly over DAYS one-day
# chunks), one day's rows (straddling two chunks) counted through three
# filters: TimescaleDB's uuid_timestamp(id), TimescaleDB's boundary ids, and
# pg_uuidx's id <@ tstzrange.  Planning and execution time (median of 5
# runs after one warm-up) and the chunks each plan reads, as a Markdown
# table in PG_UUIDX_TSDB_BENCH_OUT (and in the TAP log).  Skipped unless
# PG_UUIDX_TSDB_BENCH is set.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib "$FindBin::RealBin/../../t";
use PgUuidxTest;
use PostgreSQL::Test::Utils;
use Test::More;

plan skip_all => 'a benchmark: set PG_UUIDX_TSDB_BENCH=ROWS:DAYS (and PG_UUIDX_TSDB_BENCH_OUT=FILE) to run it'
  unless ($ENV{PG_UUIDX_TSDB_BENCH} // '') =~ /^(\d+):(\d+)$/;
my ($rows, $days) = ($1, $2);
my $sharedir = `pg_config --sharedir`;
chomp $sharedir;
plan skip_all => "TimescaleDB is not installed in $sharedir" unless -f "$sharedir/extension/timescaledb.control";

my $node = new_node('timescaledb_bench', conf => [
	"shared_preload_libraries = 'timescaledb'", 'timescaledb.telemetry_level = off', "timezone = 'UTC'",
	'shared_buffers = 1GB', 'max_wal_size = 8GB', 'max_parallel_workers_per_gather = 0', 'jit = off' ]);
my $db = 'postgres';
my $t0 = time;
$node->safe_psql($db, qq{
	CREATE EXTENSION timescaledb;
	CREATE EXTENSION pg_uuidx;
	CREATE TABLE t (id uuid NOT NULL, v int);
	SELECT create_hypertable('t', by_range('id', interval '1 day'));
	INSERT INTO t SELECT public.uuidv7_at('2026-01-01'::timestamptz + g * (interval '1 day' * $days / $rows)), g
	  FROM generate_series(0, $rows - 1) g;
	VACUUM ANALYZE t;
});
my $chunks = $node->safe_psql($db, q{SELECT count(*) FROM show_chunks('t')});
my $load = time - $t0;
cmp_ok($chunks, '>=', $days, "$rows rows in $chunks chunks (loaded in $load s)");

my ($lo, $hi) = ("'2026-01-31 12:00+00'", "'2026-02-01 12:00+00'");
my @forms = (
	[ 'uuid_timestamp(id) >= a AND uuid_timestamp(id) < b (TimescaleDB)', "uuid_timestamp(id) >= $lo AND uuid_timestamp(id) < $hi" ],
	[ 'id >= to_uuidv7_boundary(a) AND id < to_uuidv7_boundary(b) (TimescaleDB)',
	  "id >= to_uuidv7_boundary($lo) AND id < to_uuidv7_boundary($hi)" ],
	[ 'id <@ tstzrange(a, b) (pg_uuidx)', "id <@ tstzrange($lo, $hi)" ],
);
my @table = ('| filter | rows | chunks read | planning ms | execution ms |', '|---|---:|---:|---:|---:|');
my $truth;
for my $f (@forms)
{
	my $sql = "SELECT count(*) FROM t WHERE $f->[1]";
	my $count = $node->safe_psql($db, $sql);
	$truth //= $count;
	is($count, $truth, "$f->[0]: $count rows");
	my (@plan_ms, @exec_ms, $n);
	for my $i (0 .. 5)
	{
		my $p = $node->safe_psql($db, "EXPLAIN (ANALYZE, TIMING OFF, COSTS OFF) $sql");
		my %named = map { $_ => 1 } $p =~ /(_hyper_\d+_\d+_chunk)/g;
		$n = keys %named;
		next unless $i;    # the first run warms the cache
		push @plan_ms, $p =~ /Planning Time: ([\d.]+)/;
		push @exec_ms, $p =~ /Execution Time: ([\d.]+)/;
	}
	my $median = sub { my @s = sort { $a <=> $b } @_; return $s[ int(@s / 2) ] };
	push @table, sprintf('| `%s` | %d | %d of %d | %.2f | %.2f |', $f->[0], $count, $n, $chunks,
		$median->(@plan_ms), $median->(@exec_ms));
}
my $version = $node->safe_psql($db, q{SELECT 'PostgreSQL ' || current_setting('server_version') || ', TimescaleDB '
	  || (SELECT extversion FROM pg_extension WHERE extname = 'timescaledb')});
my $report = join("\n", "$version; $rows rows, $chunks one-day chunks, range [$lo, $hi)", '', @table) . "\n";
diag($report);
append_to_file($ENV{PG_UUIDX_TSDB_BENCH_OUT}, $report) if $ENV{PG_UUIDX_TSDB_BENCH_OUT};
done_testing();
