# pg_uuidx on a Citus cluster: a coordinator and two workers on this machine
# (unix sockets), a third worker added later.  Extension propagation and
# upgrade across nodes, DEFAULT uuidv7() keys on distributed and reference
# tables, pushdown of the readers, index use per shard for time ranges, a
# tenant table answered by one shard, a v1 -> v6 migration and a backfill
# that Citus accepts, and min/max against ORDER BY ... LIMIT 1.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib "$FindBin::RealBin/../../t";
use PgUuidxTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time);

my $sharedir = `pg_config --sharedir`;
chomp $sharedir;
plan skip_all => "Citus is not installed in $sharedir (CITUS_SOURCE=<path or git URL> make citus builds it)"
  unless -f "$sharedir/extension/citus.control";

my $socketdir = $PostgreSQL::Test::Utils::tempdir_short;
my @conf = (
	"shared_preload_libraries = 'citus'",
	# listen_addresses is empty: nodes reach each other through the sockets
	"citus.local_hostname = '$socketdir'",
	"citus.node_conninfo = 'sslmode=disable'",
	"timezone = 'UTC'");
my ($coord, @workers) = map { new_node($_, conf => \@conf) } qw(coordinator worker1 worker2);
my $db = 'postgres';
$_->safe_psql($db, 'CREATE EXTENSION citus') for ($coord, @workers);
$coord->safe_psql($db, sprintf(q{SELECT citus_set_coordinator_host('%s', %d)}, $socketdir, $coord->port));
$coord->safe_psql($db, sprintf(q{SELECT citus_add_node('%s', %d)}, $socketdir, $_->port)) for @workers;

my $version = sub { $_[0]->safe_psql($db, q{SELECT extversion FROM pg_extension WHERE extname = 'pg_uuidx'}) };

# propagation, and the upgrade across nodes
$coord->safe_psql($db, q{CREATE EXTENSION pg_uuidx VERSION '1.1'});
is(join(',', map { $version->($_) } @workers), '1.1,1.1', 'CREATE EXTENSION on the coordinator reaches every worker');
$coord->safe_psql($db, q{ALTER EXTENSION pg_uuidx UPDATE TO '1.2'});
is(join(',', map { $version->($_) } $coord, @workers), '1.2,1.2,1.2', 'ALTER EXTENSION ... UPDATE TO updates every node');
my $late = new_node('worker3', conf => \@conf);
$late->safe_psql($db, 'CREATE EXTENSION citus');
$coord->safe_psql($db, sprintf(q{SELECT citus_add_node('%s', %d)}, $socketdir, $late->port));
push @workers, $late;
is($version->($late), '1.2', 'a worker added later gets the extension at its current version');

# a distributed table keyed by DEFAULT uuidv7(): ids made on the coordinator
# in one session are unique and in order, and spread over every shard
$coord->safe_psql($db, q{
	CREATE TABLE events (id uuid PRIMARY KEY DEFAULT uuidv7(), n int, at timestamptz);
	SELECT create_distributed_table('events', 'id');
	INSERT INTO events (n, at) SELECT g, now() FROM generate_series(1, 20000) g;
	INSERT INTO events (n, at) VALUES (20001, now()), (20002, now());
	COPY events (n, at) FROM PROGRAM 'seq 20003 20100 | sed "s/$/\t2026-01-01/"';
});
sql_ok($coord, $db, q{SELECT count(*) = count(DISTINCT id) AND bool_and(uuid_extract_version(id) = 7),
	count(*) || ' ids' FROM events}, 'ids are unique across shards and version 7');
sql_ok($coord, $db, in_order('SELECT id, n AS ord FROM events'),
	'INSERT ... SELECT, multi-row VALUES and COPY: the coordinator made the ids, in session order');
sql_ok($coord, $db, q{
	SELECT count(*) FILTER (WHERE result::int > 0) = count(*), count(*) FILTER (WHERE result::int > 0) || ' shards used'
	FROM run_command_on_shards('events', 'SELECT count(*) FROM %s')},
	'hash distribution on the id fills every shard');

# a reference table: the same rows on every node
$coord->safe_psql($db, q{
	CREATE TABLE kinds (id uuid PRIMARY KEY DEFAULT uuidv7(), name text);
	SELECT create_reference_table('kinds');
	INSERT INTO kinds (name) SELECT 'kind ' || g FROM generate_series(1, 50) g;
});
my $kinds = $coord->safe_psql($db, 'SELECT string_agg(id::text, \',\' ORDER BY id) FROM kinds');
is(join('|', map { $_->safe_psql($db, 'SELECT string_agg(id::text, \',\' ORDER BY id) FROM kinds') } @workers[0, 1]),
	"$kinds|$kinds", 'a reference table with DEFAULT uuidv7(): the same ids on every worker');

# the readers are pushed down; time ranges use each shard's primary key
my $plan = $coord->safe_psql($db, q{EXPLAIN (COSTS OFF)
	SELECT date_trunc('hour', uuid_extract_timestamp(id)), count(*) FROM events GROUP BY 1});
like($plan, qr/Task Count: \d+.*Group Key: date_trunc\('hour'::text, uuid_extract_timestamp\(id\)\)/s,
	'uuid_extract_timestamp() and GROUP BY run on the workers');
my $day = $coord->safe_psql($db, 'SELECT current_date');
$plan = $coord->safe_psql($db, qq{EXPLAIN (COSTS OFF)
	SELECT count(*) FROM events WHERE id <@ tstzrange('$day', '$day'::date + 1)});
like($plan, qr/Task Count: (\d+).*(Index (Only )?Scan using|Bitmap Index Scan on) events_pkey_\d+.*Index Cond: \(\(id >= /s,
	'id <@ tstzrange: every shard (hash cannot prune a range), each through its primary key');
$plan = $coord->safe_psql($db, qq{EXPLAIN (COSTS OFF)
	SELECT count(*) FROM events WHERE id >= uuidv7_boundary('$day') AND id < uuidv7_boundary('$day'::date + 1)});
like($plan, qr/(Index (Only )?Scan using|Bitmap Index Scan on) events_pkey_\d+.*Index Cond: \(\(id >= /s,
	'boundary comparisons: the same');
is( $coord->safe_psql($db, qq{SELECT count(*) FROM events WHERE id <@ tstzrange('$day', '$day'::date + 1)}),
	$coord->safe_psql($db, qq{SELECT count(*) FROM events WHERE uuid_extract_timestamp(id) >= '$day'
		AND uuid_extract_timestamp(id) < '$day'::date + 1}),
	'the range predicate and the extraction agree across shards');

# a tenant table: one shard answers a tenant's time range
$coord->safe_psql($db, q{
	CREATE TABLE orders (tenant_id int, id uuid DEFAULT uuidv7(), total int, PRIMARY KEY (tenant_id, id));
	SELECT create_distributed_table('orders', 'tenant_id');
	INSERT INTO orders (tenant_id, total) SELECT g % 20, g FROM generate_series(1, 5000) g;
});
$plan = $coord->safe_psql($db, qq{EXPLAIN (COSTS OFF)
	SELECT * FROM orders WHERE tenant_id = 7 AND id <@ tstzrange('$day', '$day'::date + 1)});
like($plan, qr/Task Count: 1\b.*Index Cond: \(\(tenant_id = 7\) AND \(id >= /s,
	'PRIMARY KEY (tenant_id, id): one shard, one index range');

# v1 -> v6: the distribution column cannot be updated, a copy can be made
$coord->safe_psql($db, q{
	CREATE TABLE legacy (id uuid PRIMARY KEY, n int);
	SELECT create_distributed_table('legacy', 'id');
	INSERT INTO legacy SELECT uuidv6_to_v1(uuidv6()), g FROM generate_series(1, 2000) g;
});
my ($rc, $out, $err) = $coord->psql($db, 'UPDATE legacy SET id = uuidv1_to_v6(id)');
like($err, qr/modifying the partition value of rows is not allowed|distribution column/i,
	'Citus refuses to update the distribution column');
$coord->safe_psql($db, q{
	CREATE TABLE legacy_v6 (id uuid PRIMARY KEY, n int);
	SELECT create_distributed_table('legacy_v6', 'id');
	INSERT INTO legacy_v6 SELECT uuidv1_to_v6(id), n FROM legacy;
});
sql_ok($coord, $db, q{
	SELECT (SELECT count(*) FROM legacy_v6) = 2000
	   AND (SELECT bool_and(uuid_extract_version(id) = 6) FROM legacy_v6)
	   AND NOT EXISTS (SELECT uuidv6_to_v1(id) FROM legacy_v6 EXCEPT SELECT id FROM legacy),
	       'copied'},
	'the copy into a v6-keyed distributed table is lossless (v6 -> v1 gives every old id back)');

# backfill: a VOLATILE function in UPDATE is refused; INSERT ... SELECT into
# a new table makes the ids on the coordinator
($rc, $out, $err) = $coord->psql($db, q{ALTER TABLE events ADD COLUMN id2 uuid; UPDATE events SET id2 = uuidv7_at(at)});
like($err, qr/must not be VOLATILE/i, 'UPDATE ... SET x = uuidv7_at(...) is refused (VOLATILE)');
$coord->safe_psql($db, q{
	CREATE TABLE events_by_time (id uuid PRIMARY KEY, n int);
	SELECT create_distributed_table('events_by_time', 'id');
	INSERT INTO events_by_time SELECT uuidv7_at(at), n FROM events;
});
sql_ok($coord, $db, q{
	WITH b AS MATERIALIZED (SELECT n, uuid_extract_timestamp(id) AS t FROM events_by_time),
	     e AS MATERIALIZED (SELECT n, date_trunc('milliseconds', at) AS t FROM events)
	SELECT count(*) FILTER (WHERE b.t IS DISTINCT FROM e.t) = 0, count(*) || ' rows'
	FROM b FULL JOIN e USING (n)},
	'INSERT ... SELECT uuidv7_at(at) into a new table backfills ids that encode each row\'s time');

# min/max against ORDER BY ... LIMIT 1: both right; timed for the README
# (median of 7 in one session, after a warm-up)
is( $coord->safe_psql($db, 'SELECT max(id) FROM events'),
	$coord->safe_psql($db, 'SELECT id FROM events ORDER BY id DESC LIMIT 1'), 'max(id) = ORDER BY id DESC LIMIT 1');
diag($coord->safe_psql($db, q{
	CREATE TEMP TABLE t (q text, ms float8);
	DO $$
	DECLARE q text; t0 timestamptz; r int;
	BEGIN
		FOREACH q IN ARRAY ARRAY['SELECT max(id) FROM events', 'SELECT id FROM events ORDER BY id DESC LIMIT 1'] LOOP
			FOR r IN 0 .. 7 LOOP
				t0 := clock_timestamp();
				EXECUTE q;
				IF r > 0 THEN
					INSERT INTO t VALUES (q, extract(epoch FROM clock_timestamp() - t0) * 1000);
				END IF;
			END LOOP;
		END LOOP;
	END $$;
	SELECT string_agg(format('%s: %s ms', q, round(m::numeric, 1)), '; ')
	FROM (SELECT q, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS m FROM t GROUP BY q) s}));

done_testing();
