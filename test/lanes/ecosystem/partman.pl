# pg_partman 5.x beside pg_uuidx: a uuid key partitioned daily with
# pg_uuidx's encoder (uuidv7_boundary) and text decoder
# (uuid_extract_timestamp_from_text); maintenance, retention, placement,
# and partition pruning for the range predicate and boundary comparisons.
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
plan skip_all => "pg_partman is not installed in $sharedir (build it: bash test/lanes/ecosystem/build.sh partman)"
  unless -f "$sharedir/extension/pg_partman.control";

my $node = new_node('partman', conf => ["timezone = 'UTC'"]);
my $db = 'postgres';
$node->safe_psql($db, q{
	CREATE SCHEMA partman;
	CREATE EXTENSION pg_partman SCHEMA partman;
	CREATE EXTENSION pg_uuidx;
	CREATE TABLE events (id uuid NOT NULL DEFAULT uuidv7(), n int, PRIMARY KEY (id)) PARTITION BY RANGE (id);
	SELECT partman.create_parent('public.events', 'id', '1 day', p_premake := 3,
		p_start_partition := (current_date - 6)::text,
		p_time_encoder := 'public.uuidv7_boundary',
		p_time_decoder := 'public.uuid_extract_timestamp_from_text');
	-- rows from 6 days ago to tomorrow, and now
	INSERT INTO events (id, n)
	SELECT uuidv7_at(current_date - 6 + g * interval '1 hour'), g FROM generate_series(0, 7 * 24 + 23) g;
	INSERT INTO events (n) VALUES (-1);
});

my $days = q{SELECT count(*) FROM pg_inherits WHERE inhparent = 'events'::regclass
	AND inhrelid::regclass::text ~ '^events_p\d{8}$'};
is($node->safe_psql($db, $days), 10, 'create_parent made daily partitions from 6 days ago to 3 days ahead');
sql_ok($node, $db, q{
	SELECT count(*) FILTER (WHERE tableoid::regclass::text <>
	                        'events_p' || to_char(uuid_extract_timestamp(id), 'YYYYMMDD')) = 0,
	       count(*) || ' rows'
	FROM events}, 'every row is in the partition of its day');
is($node->safe_psql($db, 'SELECT count(*) FROM events_default'), 0, 'the default partition is empty');

$node->safe_psql($db, q{
	UPDATE partman.part_config SET premake = 6 WHERE parent_table = 'public.events';
	CALL partman.run_maintenance_proc();
});
sql_ok($node, $db, q{
	SELECT to_regclass('events_p' || to_char(current_date + 6, 'YYYYMMDD')) IS NOT NULL,
	       'newest: events_p' || to_char(current_date + 6, 'YYYYMMDD')},
	'run_maintenance made the future partitions premake asks for');

$node->safe_psql($db, q{
	UPDATE partman.part_config SET retention = '3 days', retention_keep_table = false
	WHERE parent_table = 'public.events';
	CALL partman.run_maintenance_proc();
});
sql_ok($node, $db, q{
	SELECT to_regclass('events_p' || to_char(current_date - 4, 'YYYYMMDD')) IS NULL
	   AND to_regclass('events_p' || to_char(current_date - 3, 'YYYYMMDD')) IS NOT NULL
	   AND (SELECT min(uuid_extract_timestamp(id)) FROM events) >= current_date - 3,
	       (SELECT count(*) FROM events) || ' rows left'},
	'retention dropped the partitions older than 3 days with their rows');

# pruning: one partition for a range inside one day, by the predicate and
# by boundary comparisons
my $scanned = sub {
	my ($where) = @_;
	my $plan = $node->safe_psql($db, "EXPLAIN (COSTS OFF) SELECT * FROM events WHERE $where");
	my %tables = map { $_ => 1 } grep { !/_pkey$/ } $plan =~ /on (events_\w+)/g;
	return join ',', sort keys %tables;
};
my $today = $node->safe_psql($db, q{SELECT 'events_p' || to_char(current_date, 'YYYYMMDD')});
my $day = $node->safe_psql($db, 'SELECT current_date');
is($scanned->("id <@ '[$day 06:00+00, $day 07:00+00)'"), $today, 'id <@ tstzrange scans one partition');
is($scanned->("id >= uuidv7_boundary('$day 06:00+00') AND id < uuidv7_boundary('$day 07:00+00')"),
	$today, 'boundary comparisons scan one partition');
is($scanned->("id BETWEEN uuidv7_boundary('$day 06:00+00') AND uuidv7_boundary_upper('$day 07:00+00')"),
	$today, 'BETWEEN with the upper boundary scans one partition');
like( $node->safe_psql($db, "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT * FROM events
		WHERE id <@ tstzrange(current_date + interval '6 hours', current_date + interval '7 hours')"),
	qr/Subplans Removed: \d+/, 'a range computed at run time is pruned when the executor starts');
is( $node->safe_psql($db, "SELECT count(*) FROM events WHERE id <@ '[$day 06:00+00, $day 07:00+00)'"),
	1, 'and finds the row of that hour');

done_testing();
