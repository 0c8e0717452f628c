# TimescaleDB beside pg_uuidx: a hypertable keyed by a uuidv7() id with
# uuid_extract_timestamp as its time dimension; chunk exclusion for
# uuid_extract_timestamp filters and for the range predicate (alone: the
# id edges derived from it, and with the filter on the dimension),
# drop_chunks by time, index use inside chunks.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib "$FindBin::RealBin/../../t";
use PgUuidxTest;
use PostgreSQL::Test::Utils;
use Test::More;

my $sharedir = `pg_config --sharedir`;
chomp $sharedir;
plan skip_all => "TimescaleDB is not installed in $sharedir (build it: bash test/lanes/ecosystem/build.sh timescaledb)"
  unless -f "$sharedir/extension/timescaledb.control";

my $node = new_node('timescaledb', conf => [
	"shared_preload_libraries = 'timescaledb'", 'timescaledb.telemetry_level = off', "timezone = 'UTC'" ]);
my $db = 'postgres';
$node->safe_psql($db, q{
	CREATE EXTENSION timescaledb;
	CREATE EXTENSION pg_uuidx;
	CREATE TABLE m (id uuid NOT NULL DEFAULT uuidv7(), v int, PRIMARY KEY (id));
	SELECT create_hypertable('m', by_range('id', interval '1 day', partition_func => 'uuid_extract_timestamp'));
	INSERT INTO m (id, v) SELECT uuidv7_at(now() - g * interval '1 minute'), g FROM generate_series(1, 14400) g;
	INSERT INTO m (v) VALUES (0);
	ANALYZE m;
});
my $chunks = $node->safe_psql($db, q{SELECT count(*) FROM show_chunks('m')});
cmp_ok($chunks, '>=', 10, "10 days of rows in $chunks daily chunks");

# the chunks a query scans (at plan time or excluded at executor startup)
my $scanned = sub {
	my ($where) = @_;
	my $plan = $node->safe_psql($db, "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT * FROM m WHERE $where");
	my %chunks = map { $_ => 1 } $plan =~ /on (_hyper_\w+_chunk)/g;
	return (scalar(keys %chunks), $plan);
};
my ($n, $plan) = $scanned->("uuid_extract_timestamp(id) >= now() - interval '1 hour'");
cmp_ok($n, '<=', 2, "uuid_extract_timestamp(id) >= now() - 1 hour: $n of $chunks chunks");
my $lo = $node->safe_psql($db, q{SELECT date_trunc('hour', now() - interval '3 days')});
my $hi = $node->safe_psql($db, qq{SELECT '$lo'::timestamptz + interval '1 hour'});
($n, $plan) = $scanned->("id <@ '[$lo, $hi)'");
is($n, 1, "id <@ tstzrange alone: one of $chunks chunks (its id edges go through the partitioning function)");
like($plan, qr/Index Cond: \(\(id >= /, '... but each chunk is read through its primary key index');
($n, $plan) = $scanned->("id <@ '[$lo, $hi)' AND uuid_extract_timestamp(id) >= '$lo' AND uuid_extract_timestamp(id) < '$hi'");
is($n, 1, 'with the dimension filter added: one chunk');
like($plan, qr/Index (Only )?Scan using \S+ on _hyper_\w+[^\n]*\n\s+Index Cond: \(\(id >= /, '... read through the index');
($n, $plan) = $scanned->("id <@ tstzrange(now() - interval '1 hour', now()) AND uuid_extract_timestamp(id) >= now() - interval '1 hour'");
cmp_ok($n, '<=', 2, "a range at run time with the dimension filter: $n chunks");
is( $node->safe_psql($db, "SELECT count(*) FROM m WHERE id <@ '[$lo, $hi)'"),
	$node->safe_psql($db, "SELECT count(*) FROM m WHERE uuid_extract_timestamp(id) >= '$lo' AND uuid_extract_timestamp(id) < '$hi'"),
	'the predicate and the dimension filter select the same rows');

my $dropped = $node->safe_psql($db, q{SELECT count(*) FROM drop_chunks('m', older_than => now() - interval '5 days')});
cmp_ok($dropped, '>=', 4, "drop_chunks by time dropped $dropped chunks");
is( $node->safe_psql($db, q{SELECT min(uuid_extract_timestamp(id)) >= date_trunc('day', now() - interval '5 days') FROM m}),
	't', 'no row older than the retention is left');

done_testing();
