# TimescaleDB 2.22+ beside pg_uuidx: a hypertable partitioned natively on a
# uuid column (only v7 ids accepted).  pg_uuidx's ids pass TimescaleDB's v7
# check; "id <@ r" alone excludes chunks at plan time for a constant range
# and at executor startup for a range relative to now(), with the rows
# counted equal to the truth for every bound kind; time_bucket(interval, id)
# (2.24+) beside our functions; both extensions created in either order.
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
my $control = "$sharedir/extension/timescaledb.control";
plan skip_all => "TimescaleDB is not installed in $sharedir (build it: TIMESCALEDB_SOURCE=... bash test/run.sh ecosystem)"
  unless -f $control;
my ($version) = slurp_file($control) =~ /default_version\s*=\s*'([0-9.]+)/;
my $ver = sub { my @v = split /\./, shift; return $v[0] * 10000 + $v[1] * 100 + ($v[2] // 0) };
plan skip_all => "TimescaleDB $version partitions by uuid natively from 2.22 on"
  if $ver->($version) < $ver->('2.22.0');

my $node = new_node('timescaledb_native', conf => [
	"shared_preload_libraries = 'timescaledb'", 'timescaledb.telemetry_level = off', "timezone = 'UTC'" ]);
my $db = 'postgres';

# no name clashes, whichever comes first
$node->safe_psql($db, 'CREATE DATABASE other');
is($node->psql('other', 'CREATE EXTENSION pg_uuidx; CREATE EXTENSION timescaledb;'), 0,
	"TimescaleDB $version created after pg_uuidx");
is($node->psql($db, 'CREATE EXTENSION timescaledb; CREATE EXTENSION pg_uuidx;'), 0,
	"pg_uuidx created after TimescaleDB $version");

# 30 days of rows, one a minute, in one-day chunks, up to the start of the
# current minute, from uuidv7_at(); one row from the DEFAULT, uuidv7()
$node->safe_psql($db, q{
	CREATE TABLE t (id uuid NOT NULL DEFAULT public.uuidv7(), v int);
	SELECT create_hypertable('t', by_range('id', interval '1 day'));
	INSERT INTO t (id, v) SELECT public.uuidv7_at(date_trunc('minute', now()) - g * interval '1 minute'), g
	  FROM generate_series(1, 43200) g;
	INSERT INTO t (v) VALUES (0);
	CREATE INDEX ON t (id);
	ANALYZE t;
});
my $chunks = $node->safe_psql($db, q{SELECT count(*) FROM show_chunks('t')});
cmp_ok($chunks, '>=', 30, "uuidv7_at() backfill and a uuidv7() DEFAULT accepted: 30 days in $chunks chunks");
my ($rc, $out, $err) = $node->psql($db, 'INSERT INTO t (id) VALUES (public.uuidv4())');
isnt($rc, 0, "a v4 id is refused by TimescaleDB's v7 check (so the v7 ids above passed it): $err");

# the chunks a plan reads: those it names (the chunks excluded at executor
# startup are left out of EXPLAIN ANALYZE, and counted)
my $plan = sub {
	my ($where, $analyze) = @_;
	my $p = $node->safe_psql($db, 'EXPLAIN (' . ($analyze ? 'ANALYZE, TIMING OFF, SUMMARY OFF, ' : '')
		  . "COSTS OFF) SELECT * FROM t WHERE $where");
	my %named = map { $_ => 1 } $p =~ /(_hyper_\d+_\d+_chunk)/g;
	my ($excluded) = $p =~ /Chunks excluded during startup: (\d+)/;
	return (scalar(keys %named), $p, $excluded);
};
# the truth: the rows whose time is in the range, and the chunks they are in
# (a row every minute: a range that holds a minute of a chunk holds a row)
my $truth = sub {
	my ($r) = @_;
	return split /\|/, $node->safe_psql($db,
		"SELECT count(*), count(DISTINCT tableoid) FROM t WHERE uuid_extract_timestamp(id) <@ $r");
};

my $day = $node->safe_psql($db, q{SELECT date_trunc('day', now()) - interval '10 days'});
my $minute = q{interval '1 minute'};
my @ranges = (
	"tstzrange('$day', '$day'::timestamptz + interval '1 day', '[)')",
	"tstzrange('$day', '$day'::timestamptz + interval '1 day', '(]')",
	"tstzrange('$day', '$day'::timestamptz + interval '1 day', '[]')",
	"tstzrange('$day'::timestamptz + interval '6 hours', '$day'::timestamptz + interval '7 hours', '()')",
	"tstzrange('$day'::timestamptz - $minute, '$day', '[]')",
	"tstzrange('$day'::timestamptz - $minute, '$day', '[)')",
	"tstzrange('$day'::timestamptz - interval '2 days', '$day', '(]')",
	"tstzrange('$day'::timestamptz + interval '9 days', NULL)",
	"tstzrange(NULL, '$day'::timestamptz - interval '19 days', '(]')",
);
for my $r (@ranges)
{
	my $const = $node->safe_psql($db, "SELECT quote_literal($r)");
	my ($rows, $in) = $truth->("${const}::tstzrange");
	my ($n, $p) = $plan->("id <@ ${const}::tstzrange");
	is($n, $in, "id <@ $const (plan time): $n of $chunks chunks, those holding its $rows rows");
	is($node->safe_psql($db, "SELECT count(*) FROM t WHERE id <@ ${const}::tstzrange"), $rows,
		"... and the rows counted are the truth");
}

# relative to now(): excluded when the executor starts
for my $r (
	"tstzrange(date_trunc('day', now()) - interval '3 days', date_trunc('day', now()) - interval '2 days')",
	"tstzrange(date_trunc('day', now()) - interval '3 days', date_trunc('day', now()) - interval '2 days', '(]')",
	"tstzrange(now() - interval '1 hour', NULL)")
{
	my ($rows, $in) = $truth->($r);
	my ($n, $p, $excluded) = $plan->("id <@ $r", 1);
	is($excluded, $chunks - $in, "id <@ $r: the other chunks excluded at executor startup ($p)");
	is($n, $in, "... $n of $chunks chunks read, those holding its $rows rows");
	is($node->safe_psql($db, "SELECT count(*) FROM t WHERE id <@ $r"), $rows, '... and the rows counted are the truth');
}

# time_bucket on the uuid beside our readers
SKIP:
{
	skip "time_bucket(interval, uuid) comes with TimescaleDB 2.24 ($version here)", 1
	  if $ver->($version) < $ver->('2.24.0');
	is( $node->safe_psql($db, q{
			SELECT count(*) FILTER (WHERE b IS DISTINCT FROM date_trunc('day', uuid_extract_timestamp(id)))
			  + abs(count(*) - (SELECT count(*) FROM t))
			  FROM (SELECT id, time_bucket(interval '1 day', id) AS b FROM t) s}),
		'0', 'time_bucket(1 day, id) is the day of uuid_extract_timestamp(id) for every row');
}

done_testing();
