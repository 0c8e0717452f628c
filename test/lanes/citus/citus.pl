# pg_uuidx on a Citus cluster: a coordinator and two workers on this machine
# (unix sockets), a third worker added later.  CREATE EXTENSION and
# create_distributed_table in one transaction, extension propagation and
# upgrade across nodes, DEFAULT uuidx.uuidv7() keys on distributed and
# reference tables (beside core's pg_catalog.uuidv7() where the server has
# it), co-located joins, pushdown of the readers, index use per shard for
# time ranges, a tenant table answered by one shard, a v1 -> v6 migration and
# a backfill that Citus accepts, min/max against ORDER BY ... LIMIT 1, and a
# worker without pg_uuidx (PostgreSQL 18+: extension_control_path hides it).
# pg_uuidx lives in schema uuidx, on the search_path after pg_catalog, and
# the test names uuidx.uuidv7() and uuidx.uuid_extract_timestamp(): unqualified,
# those are core's on 18 and 17 (17's reads v1 only: NULL for v7).
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
use File::Copy qw(copy);

my $sharedir = `pg_config --sharedir`;
chomp $sharedir;
plan skip_all => "Citus is not installed in $sharedir (CITUS_SOURCE=<path or git URL> make citus builds it)"
  unless -f "$sharedir/extension/citus.control";

my $socketdir = $PostgreSQL::Test::Cluster::test_pghost;    # where every node listens
my @conf = (
	"shared_preload_libraries = 'citus'",
	# listen_addresses is empty: nodes reach each other through the sockets
	"citus.local_hostname = '$socketdir'",
	"citus.node_conninfo = 'sslmode=disable'",
	"timezone = 'UTC'",
	q{search_path = '"$user", public, uuidx'});
my ($coord, @workers) = map { new_node($_, conf => \@conf) } qw(coordinator worker1 worker2);
my $db = 'postgres';

# a database DB on every node with Citus in it and the workers registered
sub citus_db
{
	my ($db) = @_;
	$_->safe_psql('postgres', "CREATE DATABASE $db") for grep { $db ne 'postgres' } ($coord, @workers);
	$_->safe_psql($db, 'CREATE EXTENSION citus') for ($coord, @workers);
	$coord->safe_psql($db, sprintf(q{SELECT citus_set_coordinator_host('%s', %d)}, $socketdir, $coord->port));
	$coord->safe_psql($db, sprintf(q{SELECT citus_add_node('%s', %d)}, $socketdir, $_->port)) for @workers;
}
citus_db($db);
my $citus = $coord->safe_psql($db, q{SELECT extversion FROM pg_extension WHERE extname = 'citus'});
my $pgnum = $coord->safe_psql($db, 'SHOW server_version_num');
my $core_v7 = $coord->safe_psql($db, q{SELECT to_regprocedure('pg_catalog.uuidv7()') IS NOT NULL}) eq 't';
diag("Citus $citus on PostgreSQL $pgnum; core uuidv7(): " . ($core_v7 ? 'yes' : 'no'));

# CREATE EXTENSION, then tables that use its functions distributed in the
# same transaction (Citus has failed on this for other extensions' objects):
# a database of its own, where pg_uuidx is not there yet
citus_db('sametx');
my ($rc, $out, $err) = $coord->psql('sametx', q{
	BEGIN;
	CREATE SCHEMA uuidx;
	CREATE EXTENSION pg_uuidx SCHEMA uuidx;
	CREATE TABLE tx_events (id uuid PRIMARY KEY DEFAULT uuidx.uuidv7(), n int);
	SELECT create_distributed_table('tx_events', 'id');
	CREATE TABLE tx_kinds (id uuid PRIMARY KEY DEFAULT uuidx.uuidv7(), name text);
	SELECT create_reference_table('tx_kinds');
	INSERT INTO tx_events (n) SELECT g FROM generate_series(1, 1000) g;
	INSERT INTO tx_kinds (name) VALUES ('a'), ('b');
	SELECT count(*) FROM tx_events WHERE id <@ tstzrange(now() - interval '1 hour', now() + interval '1 hour');
	COMMIT;});
is($rc, 0, 'BEGIN; CREATE EXTENSION pg_uuidx; CREATE TABLE ... DEFAULT uuidx.uuidv7(); create_distributed_table; '
	. 'create_reference_table; INSERT; COMMIT') or diag($err);
is( join(',', map { $_->safe_psql('sametx', q{SELECT extversion FROM pg_extension WHERE extname = 'pg_uuidx'}) } @workers)
	  . ' ' . $coord->safe_psql('sametx', q{SELECT count(*) FROM tx_events WHERE uuid_extract_version(id) = 7})
	  . ' ' . $coord->safe_psql('sametx', q{SELECT count(*) FROM tx_kinds}),
	join(',', map { $coord->safe_psql('sametx', q{SELECT extversion FROM pg_extension WHERE extname = 'pg_uuidx'}) } @workers)
	  . ' 1000 2',
	'after COMMIT: the extension on every worker, the rows in the shards');

my $version = sub { $_[0]->safe_psql($db, q{SELECT extversion FROM pg_extension WHERE extname = 'pg_uuidx'}) };

# propagation, and the upgrade across nodes
$coord->safe_psql($db, q{CREATE SCHEMA uuidx; CREATE EXTENSION pg_uuidx VERSION '1.1' SCHEMA uuidx});
is(join(',', map { $version->($_) } @workers), '1.1,1.1', 'CREATE EXTENSION on the coordinator reaches every worker');
$coord->safe_psql($db, q{ALTER EXTENSION pg_uuidx UPDATE TO '1.2'});
is(join(',', map { $version->($_) } $coord, @workers), '1.2,1.2,1.2', 'ALTER EXTENSION ... UPDATE TO updates every node');
# on to the version of the installed files: the readers' planner support
# calls functions of that version (a library newer than the SQL objects
# fails on id <@ r until this update)
$coord->safe_psql($db, q{ALTER EXTENSION pg_uuidx UPDATE});
my $current = $coord->safe_psql($db, q{SELECT default_version FROM pg_available_extensions WHERE name = 'pg_uuidx'});
is(join(',', map { $version->($_) } $coord, @workers), join(',', ($current) x 3),
	"ALTER EXTENSION pg_uuidx UPDATE: every node at $current");
my $late = new_node('worker3', conf => \@conf);
$late->safe_psql($db, 'CREATE EXTENSION citus');
$coord->safe_psql($db, sprintf(q{SELECT citus_add_node('%s', %d)}, $socketdir, $late->port));
push @workers, $late;
is($version->($late), $current, 'a worker added later gets the extension at its current version');

# a distributed table keyed by DEFAULT uuidx.uuidv7(): ids made on the coordinator
# in one session are unique and in order, and spread over every shard
$coord->safe_psql($db, q{
	CREATE TABLE events (id uuid PRIMARY KEY DEFAULT uuidx.uuidv7(), n int, at timestamptz);
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
	CREATE TABLE kinds (id uuid PRIMARY KEY DEFAULT uuidx.uuidv7(), name text);
	SELECT create_reference_table('kinds');
	INSERT INTO kinds (name) SELECT 'kind ' || g FROM generate_series(1, 50) g;
});
my $kinds = $coord->safe_psql($db, 'SELECT string_agg(id::text, \',\' ORDER BY id) FROM kinds');
is(join('|', map { $_->safe_psql($db, 'SELECT string_agg(id::text, \',\' ORDER BY id) FROM kinds') } @workers[0, 1]),
	"$kinds|$kinds", 'a reference table with DEFAULT uuidx.uuidv7(): the same ids on every worker');

# co-located tables: a table distributed on a reference to events.id, in the
# same co-location group, joins shard by shard (no repartition), as does a
# join with the reference table
$coord->safe_psql($db, q{
	CREATE TABLE notes (event_id uuid, id uuid DEFAULT uuidx.uuidv7(), kind_id uuid, PRIMARY KEY (event_id, id));
	SELECT create_distributed_table('notes', 'event_id', colocate_with => 'events');
	INSERT INTO notes (event_id, kind_id) SELECT id, (SELECT min(id) FROM kinds) FROM events WHERE n % 10 = 0;
});
my $join = qq{SELECT count(*) FROM events e JOIN notes x ON x.event_id = e.id JOIN kinds k ON k.id = x.kind_id
	WHERE e.id <@ tstzrange('-infinity', 'infinity')};
my $plan = $coord->safe_psql($db, "EXPLAIN (COSTS OFF) $join");
like($plan, qr/Task Count: 32\b/, 'a join of co-located tables and a reference table: one task per shard (32)');
unlike($plan, qr/repartition|MapMergeJob|Subplan/i, 'co-located join: shard by shard, nothing repartitioned or pulled up');
is($coord->safe_psql($db, $join), '2010', 'co-located join: every note finds its event (2010)');

# core's uuidv7() beside pg_uuidx's (18+): both are v7, both get the index
# range of id <@ r and the same min/max answers
SKIP:
{
	skip 'no pg_catalog.uuidv7() in this server (PostgreSQL 18+)', 3 unless $core_v7;
	$coord->safe_psql($db, q{
		CREATE TABLE events_core (id uuid PRIMARY KEY DEFAULT pg_catalog.uuidv7(), n int);
		SELECT create_distributed_table('events_core', 'id', colocate_with => 'events');
		INSERT INTO events_core (n) SELECT g FROM generate_series(1, 5000) g;
	});
	sql_ok($coord, $db, q{
		SELECT count(*) = 5000 AND bool_and(uuid_extract_version(id) = 7)
		   AND bool_and(uuidx.uuid_extract_timestamp(id) = pg_catalog.uuid_extract_timestamp(id)), 'checked'
		FROM events_core}, 'pg_catalog.uuidv7() ids in a distributed table: v7, read alike by both readers');
	my $p = $coord->safe_psql($db, qq{EXPLAIN (COSTS OFF)
		SELECT count(*) FROM events_core WHERE id <@ tstzrange(now() - interval '1 day', now() + interval '1 day')});
	like($p, qr/(Index (Only )?Scan using|Bitmap Index Scan on) events_core_pkey_\d+.*Index Cond: \(\(id >= /s,
		'id <@ tstzrange on core-made ids: each shard through its primary key');
	is( $coord->safe_psql($db, 'SELECT min(id)::text || max(id)::text FROM events_core'),
		$coord->safe_psql($db, 'SELECT (SELECT id::text FROM events_core ORDER BY id LIMIT 1) || '
			  . '(SELECT id::text FROM events_core ORDER BY id DESC LIMIT 1)'),
		'min/max of core-made ids = ORDER BY ... LIMIT 1');
}

# the readers are pushed down; time ranges use each shard's primary key
$plan = $coord->safe_psql($db, q{EXPLAIN (COSTS OFF)
	SELECT date_trunc('hour', uuidx.uuid_extract_timestamp(id)), count(*) FROM events GROUP BY 1});
like($plan, qr/Task Count: \d+.*Group Key: date_trunc\('hour'::text, (uuidx\.)?uuid_extract_timestamp\(id\)\)/s,
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
	$coord->safe_psql($db, qq{SELECT count(*) FROM events WHERE uuidx.uuid_extract_timestamp(id) >= '$day'
		AND uuidx.uuid_extract_timestamp(id) < '$day'::date + 1}),
	'the range predicate and the extraction agree across shards');

# a tenant table: one shard answers a tenant's time range
$coord->safe_psql($db, q{
	CREATE TABLE orders (tenant_id int, id uuid DEFAULT uuidx.uuidv7(), total int, PRIMARY KEY (tenant_id, id));
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
($rc, $out, $err) = $coord->psql($db, 'UPDATE legacy SET id = uuidv1_to_v6(id)');
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
	WITH b AS MATERIALIZED (SELECT n, uuidx.uuid_extract_timestamp(id) AS t FROM events_by_time),
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

# a worker whose server has no pg_uuidx: adding it fails and says which
# extension is missing; the cluster keeps its workers.  On 18+ the node is
# made to see only Citus's control files (extension_control_path).
SKIP:
{
	skip 'a node without pg_uuidx beside one with it needs extension_control_path (PostgreSQL 18+)', 2
	  unless $pgnum >= 180000;
	my $bare = PostgreSQL::Test::Utils::tempdir();
	mkdir "$bare/extension" or die $!;
	opendir(my $dh, "$sharedir/extension") or die $!;
	copy("$sharedir/extension/$_", "$bare/extension/$_") or die $! for grep { /^citus/ } readdir($dh);
	my $node = new_node('bare', conf => [ @conf, "extension_control_path = '$bare'" ]);
	$node->safe_psql($db, 'CREATE EXTENSION citus');
	my $nodes = $coord->safe_psql($db, 'SELECT count(*) FROM pg_dist_node');
	($rc, $out, $err) = $coord->psql($db, sprintf(q{SELECT citus_add_node('%s', %d)}, $socketdir, $node->port));
	# Citus 14.0.1: WARNING extension "pg_uuidx" is not available, HINT
	# install it on that system, ERROR failure on connection marked as essential
	like($err, qr/extension "pg_uuidx" is not available.*\bERROR: /s,
		'adding a worker without pg_uuidx fails, naming pg_uuidx');
	is($coord->safe_psql($db, 'SELECT count(*) FROM pg_dist_node'), $nodes, 'and the worker is not added');
	diag($err);
}

done_testing();
