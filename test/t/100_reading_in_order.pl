# Reading tables in id order without missing a row: uuidv7_horizon(),
# uuidv6_horizon(), pg_uuidx_horizon_holders() and pg_uuidx_read_after().
# Every table read carries the guard of pg_uuidx_add_guard() (allowance 0):
# a reader refuses a table without one (55000, among the reader's
# refusals).
#
# First the cases one by one (the calling transaction left out, another
# session's open transaction, a prepared transaction from before a
# restart, a clock stepped back, a standby, the reader's refusals, ids made
# in parallel workers for their leader's transaction); then the stress run:
# pgbench writers with random transaction lengths, savepoints, rollbacks,
# two-phase commits, a few long transactions and ids that only parallel
# workers make (PARALLEL SAFE wrappers of the generators), the test clock
# stepped back in the middle, and four readers polling at the same time:
# pg_uuidx_read_after() on the v7 and the v6 table must see every committed
# row exactly once, in id order; "id > last" and a horizon of now() (the
# same loop with uuidv7_boundary(clock_timestamp()) as its bound) must miss
# rows, or the run did not test anything; the guards must refuse none of
# the writers' ids, all made by the server in the transaction that inserts
# them.  The writers' seed is printed
# (PG_UUIDX_SEED replays the random choices of the writers, not their
# timing).
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use IPC::Run;
use PgUuidxTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $seconds = $ENV{PG_UUIDX_STRESS_SECONDS} || 8;
my $seed = $ENV{PG_UUIDX_SEED} || int(rand(2**31));
note("seed $seed (PG_UUIDX_SEED=$seed replays the writers' choices)");

my $clock = clock_shim(gettimeofday => 1);
# The horizon trails the clock by pg_uuidx.horizon_allowance (1 s by
# default, for ids made elsewhere: 110_horizon_guard.pl); set to 0 here, so
# that the horizon must pass the clock reading right after a commit.  The
# default is checked once, on the node "noprep".
my $node = new_node('horizon', env => $clock->{env},
	conf => [ 'max_connections = 40', 'max_prepared_transactions = 30', 'wal_level = replica', 'max_wal_senders = 2',
		'pg_uuidx.horizon_allowance = 0' ]);
my $major = int($node->safe_psql('postgres', 'SHOW server_version_num') / 10000);
# before 17 the shared state needs the preloaded library
if ($major < 17)
{
	$node->append_conf('postgresql.conf', "shared_preload_libraries = 'pg_uuidx'\n");
	restart();
}

# a restart also forgets the floor (see the clock step below)
sub restart
{
	$node->stop;
	start_with_env($node, $clock->{env});
	return;
}
$node->safe_psql('postgres', q{
CREATE EXTENSION pg_uuidx;
CREATE TABLE ob7 (id uuid PRIMARY KEY DEFAULT uuidv7(), w int NOT NULL, kind text);
CREATE TABLE ob6 (id uuid PRIMARY KEY DEFAULT uuidv6(), w int NOT NULL);
-- the reader reads only guarded tables; the guard allows nothing (its ids
-- come from the generators, in the transaction that inserts them)
SELECT pg_uuidx_add_guard('ob7');
SELECT pg_uuidx_add_guard('ob6', id_version => 6);
CREATE UNLOGGED TABLE seen (reader text NOT NULL, seq bigint NOT NULL, id uuid NOT NULL);
});

# ---- one case at a time

sql_ok($node, 'postgres', q{
	SELECT h = uuidv7_boundary(uuid_extract_timestamp_us(h))
	       AND h <= uuidv7() AND h > uuidv7_boundary(clock_timestamp() - interval '10 s')
	       AND uuid_extract_version(h) = 7 AND substr(h::text, 20) = '8000-000000000000', h::text
	FROM (SELECT uuidv7_horizon() AS h) s},
	'an idle server: the horizon is the smallest v7 id of the clock\'s tick');
sql_ok($node, 'postgres', q{
	SELECT uuid_extract_version(h) = 6 AND h <= uuidv6() AND substr(h::text, 20) = '8000-000000000000', h::text
	FROM (SELECT uuidv6_horizon() AS h) s},
	'uuidv6_horizon(): the smallest v6 id of its tick');
sql_ok($node, 'postgres', q{
	BEGIN;
	INSERT INTO ob7 (w) VALUES (0) RETURNING id AS own \gset
	SELECT uuidv7_horizon() > :'own', uuidv7_horizon()::text;
	ROLLBACK},
	'the calling transaction\'s own ids do not hold its horizon back');

# another session's open transaction holds it at its first id (the time it
# publishes is the microsecond of the clock reading; the id's time, read
# back, can be one microsecond later when its 1/4096 ms tick straddles two)
my $open = $node->background_psql('postgres');
$open->query_safe('BEGIN');
my $held = $open->query_safe('SELECT uuidv7()');
my $pid = $open->query_safe('SELECT pg_backend_pid()');
sql_ok($node, 'postgres', qq{
	SELECT uuidv7_horizon() <= '$held'
	       AND uuidv7_horizon() >= uuidv7_boundary(uuid_extract_timestamp_us('$held') - interval '1 microsecond'),
	       uuidv7_horizon()::text},
	'an open transaction of another session holds the horizon at its first id');
sql_ok($node, 'postgres', qq{
	SELECT count(*) = 1 AND bool_and(pid = $pid AND prepared_xid IS NULL
	       AND holds_since BETWEEN uuid_extract_timestamp_us('$held') - interval '1 microsecond'
	                           AND uuid_extract_timestamp_us('$held')), json_agg(h)::text
	FROM pg_uuidx_horizon_holders() h},
	'pg_uuidx_horizon_holders() names the session that holds it');
$node->safe_psql('postgres', 'CREATE ROLE outsider; CREATE ROLE watcher IN ROLE pg_read_all_stats');
sql_ok($node, 'postgres', qq{
	SET ROLE outsider;
	SELECT count(*) = 1 AND bool_and(pid = $pid AND holds_since IS NULL), json_agg(h)::text
	FROM pg_uuidx_horizon_holders() h},
	'another role sees which session holds it, not since when (as in pg_stat_activity)');
sql_ok($node, 'postgres', qq{
	SET ROLE watcher;
	SELECT count(*) = 1 AND bool_and(pid = $pid AND holds_since IS NOT NULL), json_agg(h)::text
	FROM pg_uuidx_horizon_holders() h},
	'a member of pg_read_all_stats sees since when');
$open->query_safe('COMMIT');
sql_ok($node, 'postgres', qq{SELECT uuidv7_horizon() > '$held', uuidv7_horizon()::text},
	'the horizon passes the id once its transaction has committed');
$node->safe_psql('postgres', 'CREATE DATABASE other');
$node->safe_psql('other', 'CREATE EXTENSION pg_uuidx');
my $elsewhere = $node->background_psql('other');
$elsewhere->query_safe('BEGIN');
$elsewhere->query_safe('SELECT uuidv7()');
sql_ok($node, 'postgres', q{SELECT count(*) = 0, count(*) FROM pg_uuidx_horizon_holders()},
	'sessions of other databases do not hold it');
sql_ok($node, 'other', q{SELECT count(*) = 1, count(*) FROM pg_uuidx_horizon_holders()},
	'they hold the horizon of their own database');
$elsewhere->query_safe('COMMIT');
$elsewhere->quit;
$open->quit;

# a prepared transaction from before a restart holds it at its lowest
$node->safe_psql('postgres', q{BEGIN; INSERT INTO ob7 (w) VALUES (-2); PREPARE TRANSACTION 'before_restart'});
restart();
sql_ok($node, 'postgres', q{
	SELECT uuidv7_horizon() = '00000000-0000-7000-8000-000000000000'
	       AND uuidv6_horizon() = '00000000-0000-6000-8000-000000000000', uuidv7_horizon()::text},
	'a prepared transaction of unknown ids holds the horizon at the lowest id');
sql_ok($node, 'postgres', q{
	SELECT count(*) = 1 AND bool_and(pid IS NULL AND holds_since IS NULL
	       AND prepared_xid = (SELECT transaction FROM pg_prepared_xacts WHERE gid = 'before_restart')),
	       json_agg(h)::text FROM pg_uuidx_horizon_holders() h},
	'pg_uuidx_horizon_holders() names it, without a time');
$node->safe_psql('postgres', q{COMMIT PREPARED 'before_restart'});
sql_ok($node, 'postgres', q{
	SELECT uuidv7_horizon() > (SELECT max(id) FROM ob7), uuidv7_horizon()::text},
	'COMMIT PREPARED releases it');
my $tracked = $node->safe_psql('postgres', q{BEGIN; SELECT uuidv6() AS v6 \gset
	INSERT INTO ob7 (w) VALUES (-3) RETURNING id;
	PREPARE TRANSACTION 'tracked'});
sql_ok($node, 'postgres', qq{
	SELECT count(*) = 1 AND bool_and(pid IS NULL AND prepared_xid IS NOT NULL
	       AND holds_since <= uuid_extract_timestamp_us('$tracked') AND holds_since > now() - interval '1 min'
	       AND uuidv7_horizon() <= uuidv7_boundary(holds_since)), json_agg(h)::text
	FROM pg_uuidx_horizon_holders() h},
	'a transaction prepared now holds it at its first id, not lower');
$node->safe_psql('postgres', q{ROLLBACK PREPARED 'tracked'});

# a clock stepped back: no transaction starts below a horizon handed out
set_clock($clock, 2, time() + 3600, 0);
my $ahead = $node->safe_psql('postgres', 'SELECT uuidv7_horizon()::text || \' \' || uuidv6_horizon()::text');
my ($ahead7, $ahead6) = split / /, $ahead;
set_clock($clock, 2, time() - 3600, 0);
sql_ok($node, 'postgres', qq{
	SELECT uuidv7() >= '$ahead7' AND uuidv6() >= '$ahead6'
	       AND uuidv7_horizon() >= '$ahead7' AND uuidv6_horizon() >= '$ahead6',
	       uuidv7()::text || ' ' || uuidv6()::text},
	'after the clock stepped back two hours, new transactions make ids at or above the last horizon');
set_clock($clock, 0, 0, 0);
# until the real clock reaches that horizon, the horizon waits there and new
# transactions' first ids are made at it; a restart forgets it
sql_ok($node, 'postgres', qq{
	SELECT uuidv7_horizon() = '$ahead7' AND uuid_extract_timestamp(uuidv7()) > now() + interval '50 min',
	       uuidv7_horizon()::text},
	'back on the real clock, the horizon stays at the highest handed out');
restart();

# the reader's refusals
$node->safe_psql('postgres', q{
	CREATE TABLE wrong (id text, ref uuid);
	CREATE ROLE nobody;
	CREATE FUNCTION try(q text) RETURNS text LANGUAGE plpgsql AS $$
	BEGIN EXECUTE q; RETURN 'ok'; EXCEPTION WHEN OTHERS THEN RETURN SQLSTATE || ' ' || SQLERRM; END $$;
});
my %refusals = (
	'SELECT pg_uuidx_read_after(NULL::ob7, NULL, -1)' => '22023 max_rows must be zero or more',
	'SELECT pg_uuidx_read_after(NULL::ob7, NULL, 1, \'id\', 5)' => '22023 id_version must be 6 or 7',
	'SELECT pg_uuidx_read_after(NULL::int, NULL, 1)' =>
	  '42809 the first argument of pg_uuidx_read_after() must be a row of a table',
	'SELECT pg_uuidx_read_after(NULL::wrong, NULL, 1, \'nope\')' =>
	  '42703 column "nope" of relation "wrong" does not exist',
	'SELECT pg_uuidx_read_after(NULL::wrong, NULL, 1)' => '42804 column "id" of relation "wrong" is not of type uuid',
	'SELECT pg_uuidx_read_after(NULL::wrong, NULL, 1, \'ref\')' =>
	  '55000 pg_uuidx_read_after() cannot read table public.wrong: column "ref" has no guard',
);
for my $q (sort keys %refusals)
{
	is($node->safe_psql('postgres', "SELECT try(\$q\$$q\$q\$)"), $refusals{$q}, "refused: $q");
}
is($node->safe_psql('postgres', q{
	SET default_transaction_isolation = 'repeatable read';
	SELECT try('SELECT pg_uuidx_read_after(NULL::ob7, NULL, 1)')}),
	'25000 pg_uuidx_read_after() needs the READ COMMITTED isolation level',
	'refused in REPEATABLE READ: its snapshot was taken before the horizon');
is($node->safe_psql('postgres', q{
	SET ROLE nobody;
	SELECT try('SELECT pg_uuidx_read_after(NULL::ob7, NULL, 1)')}),
	'42501 permission denied for table ob7', 'refused without SELECT on the table');
$node->safe_psql('postgres', q{SELECT pg_uuidx_add_guard('wrong', 'ref');
	INSERT INTO wrong SELECT g::text, uuidv7() FROM generate_series(1, 3) g});
is($node->safe_psql('postgres', q{
	SELECT (SELECT string_agg(id, ',' ORDER BY ref) FROM pg_uuidx_read_after(NULL::wrong, NULL, 5, 'ref'))
	       || ' ' || (SELECT string_agg(id, ',') FROM pg_uuidx_read_after(NULL::wrong,
	                  (SELECT ref FROM wrong WHERE id = '1'), 5, 'ref'))
	       || ' ' || (SELECT string_agg(id, ',') FROM pg_uuidx_read_after(NULL::wrong, NULL, 1, 'ref'))}),
	'1,2,3 2,3 1', 'reads through another uuid column by name: from the start, after an id, up to max_rows');

# a partitioned table is read through its parent, in id order across
# partitions (the old ids stored before the guard, which checks new rows
# only, is added)
$node->safe_psql('postgres', q{
	CREATE TABLE parted (id uuid PRIMARY KEY, n int) PARTITION BY RANGE (id);
	CREATE TABLE parted_old PARTITION OF parted FOR VALUES FROM (MINVALUE) TO ('01940000-0000-7000-8000-000000000000');
	CREATE TABLE parted_new PARTITION OF parted FOR VALUES FROM ('01940000-0000-7000-8000-000000000000') TO (MAXVALUE);
	INSERT INTO parted VALUES (uuidv7(), 3), (uuidv7_at('2020-01-01+00'), 1), (uuidv7(), 4), (uuidv7_at('2021-01-01+00'), 2);
	SELECT pg_uuidx_add_guard('parted')});
is($node->safe_psql('postgres', q{
	SELECT string_agg(n::text, ',') || ' ' || (SELECT count(*) FROM parted_old)
	FROM pg_uuidx_read_after(NULL::parted, NULL, 10)}),
	'1,2,3,4 2', 'a partitioned table: read in id order across its partitions');

# no horizon on a standby, and none without the shared state
$node->backup('b');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($node, 'b', has_streaming => 1);
start_with_env($standby, $clock->{env});
# a standby reads the primary's ticks (115_replica_ticks.pl): none yet
my ($ret, $out, $err) = $standby->psql('postgres', 'SELECT uuidv7_horizon()');
like($err, qr/ERROR:  uuidv7_horizon\(\) has no tick to read up to/, 'a standby without a tick: refused (55000)');
($ret, $out, $err) = $standby->psql('postgres', 'SELECT * FROM pg_uuidx_horizon_holders()',
	extra_params => [ '-v', 'VERBOSITY=verbose' ]);
like($err, qr/ERROR:  55000: recovery is in progress\nDETAIL:  pg_uuidx_horizon_holders\(\) needs/,
	'holders refused on a standby (55000, as core refuses during recovery)');
$standby->stop;
if ($major < 17)
{
	my $bare = new_node('bare');
	$bare->safe_psql('postgres', 'CREATE EXTENSION pg_uuidx');
	($ret, $out, $err) = $bare->psql('postgres', 'SELECT uuidv7_horizon()');
	like($err, qr/needs pg_uuidx in shared_preload_libraries/, "$major without the preloaded library: refused (55000)");
	$bare->stop;
}
else
{
	pass("$major keeps the state in the registry of named shared memory: this server does not preload pg_uuidx");
}

# prepared transactions disabled (the default): the state keeps no table for
# them, and PREPARE TRANSACTION after an id still gets core's refusal
my $noprep = new_node('noprep', conf => [ $major < 17 ? "shared_preload_libraries = 'pg_uuidx'" : () ]);
$noprep->safe_psql('postgres', 'CREATE EXTENSION pg_uuidx');
# a server with the default allowance, whose floor no call has raised
# further: the horizon trails the clock by 1 s, once the clock is 1 s past
# the server's first use of its state, where a start puts the floor
# (130_restart_failover.pl)
$noprep->safe_psql('postgres', 'SELECT uuidv7(); SELECT pg_sleep(1.2)');
sql_ok($noprep, 'postgres', q{
	SELECT current_setting('pg_uuidx.horizon_allowance') = '1s'
	       AND h BETWEEN before - interval '1 s' - interval '1 ms' AND after - interval '1 s',
	       format('%s %s %s', before, h, after)
	FROM (SELECT clock_timestamp() AS before, uuid_extract_timestamp_us(uuidv7_horizon()) AS h,
	             clock_timestamp() AS after) s},
	'by default an idle server\'s horizon trails the clock by 1 s (pg_uuidx.horizon_allowance)');
($ret, $out, $err) = $noprep->psql('postgres', "BEGIN; SELECT uuidv7(); PREPARE TRANSACTION 'p'");
like($err, qr/ERROR:  prepared transactions are disabled/, 'prepared transactions disabled: core\'s error, not ours');
sql_ok($noprep, 'postgres', q{SELECT uuidv7_horizon() > uuidv7_boundary(clock_timestamp() - interval '10 s'),
	uuidv7_horizon()::text}, 'and the horizon follows the clock');
$noprep->stop;

# ---- ids made in parallel workers
#
# uuidv7() is PARALLEL RESTRICTED, but a PARALLEL SAFE function that calls it
# and is not inlined (PL/pgSQL, a STRICT SQL function) runs it in a worker
# when the planner puts it below a Gather: the worker's id belongs to its
# leader's transaction, and it must hold the horizon until that transaction
# has ended, no longer
my $par_guc = $major >= 16 ? 'debug_parallel_query' : 'force_parallel_mode';
$node->safe_psql('postgres', q{
CREATE FUNCTION par_id() RETURNS uuid LANGUAGE plpgsql PARALLEL SAFE AS $$ BEGIN RETURN uuidv7(); END $$;
CREATE FUNCTION par_id6() RETURNS uuid LANGUAGE plpgsql PARALLEL SAFE AS $$ BEGIN RETURN uuidv6(); END $$;
-- not inlined: STRICT, and the body does not use the argument
CREATE FUNCTION par_id_of(w int) RETURNS uuid LANGUAGE sql STRICT PARALLEL SAFE AS $$ SELECT uuidv7() $$;
CREATE FUNCTION par_id_then_fail() RETURNS uuid LANGUAGE plpgsql PARALLEL SAFE AS $$
BEGIN PERFORM uuidv7(); RAISE EXCEPTION 'after an id'; END $$;
CREATE FUNCTION par_pid() RETURNS int LANGUAGE plpgsql PARALLEL SAFE AS $$ BEGIN RETURN pg_backend_pid(); END $$;
CREATE TABLE obp (id uuid PRIMARY KEY, w int NOT NULL);
SELECT pg_uuidx_add_guard('obp');
});

# a session whose first call of pg_uuidx runs in parallel mode (a Gather
# with no worker to launch: the leader runs the wrapper) loads the library
# there; the allowance of postgresql.conf must still apply to it, without a
# warning (15/16 preload the library, so this matters from 17 on)
($ret, $out, $err) = $node->psql('postgres', qq{
	SET $par_guc = on;
	SET max_parallel_workers = 0;
	SELECT par_id() IS NOT NULL;
	RESET max_parallel_workers;
	SHOW pg_uuidx.horizon_allowance});
is("$out|$err", "t\n0|", 'a library first loaded in parallel mode applies the configured allowance, without a warning');

for my $wrapper ('par_id()', 'par_id_of(1)')
{
	my ($made, $worker, $leader, $after) = split /\|/, $node->safe_psql('postgres', qq{
		SET $par_guc = on;
		SELECT $wrapper AS made, par_pid() AS worker \\gset
		SELECT :'made', :worker, pg_backend_pid(), clock_timestamp()});
	isnt($worker, $leader, "$wrapper under $par_guc = on runs in a worker (pid $worker, its leader $leader)");
	sql_ok($node, 'postgres', q{SELECT count(*) = 0, json_agg(h)::text FROM pg_uuidx_horizon_holders() h},
		"after $wrapper in a worker, in a transaction that has ended: no holder left");
	sql_ok($node, 'postgres', qq{
		SELECT uuidv7_horizon() > '$made' AND uuidv7_horizon() >= uuidv7_boundary('$after'), uuidv7_horizon()::text},
		"and the horizon moves on past its id and the clock reading after it");
}
($ret, $out, $err) = $node->psql('postgres', "SET $par_guc = on; SELECT par_id_then_fail(); SELECT clock_timestamp()",
	on_error_stop => 0);
like($err, qr/ERROR:  after an id/, 'a worker that made an id and failed: its leader\'s transaction rolled back');
sql_ok($node, 'postgres', qq{
	SELECT count(*) = 0 AND uuidv7_horizon() >= uuidv7_boundary('$out'),
	       uuidv7_horizon()::text || ' ' || coalesce(json_agg(h)::text, '') FROM pg_uuidx_horizon_holders() h},
	'no holder left after it, and the horizon passes the clock reading after it');

# a transaction whose first id a worker made (the leader made none itself)
# holds the horizon until its leader commits, also while other sessions'
# workers come and go; a reader polling meanwhile misses nothing
my $lead = $node->background_psql('postgres');
$lead->query_safe("SET $par_guc = on");
$lead->query_safe('BEGIN');
my $x = $lead->query_safe('SELECT par_id()');
my $lead_worker = $lead->query_safe('SELECT par_pid()');
my $lead_pid = $lead->query_safe('SELECT pg_backend_pid()');
isnt($lead_worker, $lead_pid, 'the open transaction\'s id was made in a worker');
$node->safe_psql('postgres', qq{
	SET $par_guc = on;
	SELECT par_id() AS y \\gset
	INSERT INTO obp VALUES (:'y', 1);
	SELECT par_id_of(2) AS y \\gset
	INSERT INTO obp VALUES (:'y', 2);
	SELECT par_id()});
sql_ok($node, 'postgres', qq{
	SELECT uuidv7_horizon() <= '$x', uuidv7_horizon()::text || ' ' || (SELECT json_agg(h) FROM pg_uuidx_horizon_holders() h)},
	'a worker\'s id holds its leader\'s transaction: another session\'s horizon stays at or below it while it is open');
sql_ok($node, 'postgres', qq{
	SELECT count(*) = 1 AND bool_and(pid = $lead_pid), json_agg(h)::text FROM pg_uuidx_horizon_holders() h},
	'pg_uuidx_horizon_holders() names the leader');
my $read = $node->safe_psql('postgres', q{SELECT string_agg(id::text, ',' ORDER BY id) FROM pg_uuidx_read_after(NULL::obp, NULL, 100)});
my @read = grep { $_ ne '' } split /,/, $read;
# the guard of obp: the id is older than the floor the reader raised; its
# transaction has held the horizon at it since the worker made it, but the
# leader's guard cannot tell a worker's id from a client's that a reader has
# passed: refused (40001), never let in below a reader
like($lead->query_safe(qq{SELECT try(\$q\$INSERT INTO obp VALUES ('$x', 0)\$q\$)}), qr/^(ok|40001 )/,
	'the guard takes the worker\'s id in its leader\'s transaction or refuses it (40001)');
$lead->query_safe('COMMIT');
sql_ok($node, 'postgres', qq{SELECT uuidv7_horizon() > '$x', uuidv7_horizon()::text},
	'after the leader\'s commit the horizon passes that id');
my $last = @read ? "'$read[-1]'" : 'NULL';
push @read, grep { $_ ne '' } split /,/, $node->safe_psql('postgres', qq{
	SELECT string_agg(id::text, ',' ORDER BY id) FROM pg_uuidx_read_after(NULL::obp, $last, 100)});
is(join(',', @read), $node->safe_psql('postgres', q{SELECT string_agg(id::text, ',' ORDER BY id) FROM obp}),
	'a reader that polled before and after the commit read every row once, in order');
$lead->quit;

# ---- the stress run

$node->safe_psql('postgres', q{
TRUNCATE ob7, ob6, seen;
-- one reader: polls every 20 ms until "seconds" have passed, and records
-- what it read in seen (reader, the order it read in, id)
} . read_loop_sql(
	args => 'seconds float8',
	declare => q{stop timestamptz := clock_timestamp() + seconds * interval '1 s';},
	while => 'clock_timestamp() < stop',
	bound => q{CASE reader WHEN 'now()' THEN uuidv7_boundary(clock_timestamp()) END},
	readers => [
		'horizon v7' => 'SELECT id FROM pg_uuidx_read_after(NULL::ob7, $1, 500)',
		'horizon v6' => q{SELECT id FROM pg_uuidx_read_after(NULL::ob6, $1, 500, 'id', 6)},
		'id > last' => 'SELECT id FROM ob7 WHERE $1 IS NULL OR id > $1 ORDER BY id LIMIT 500',
		'now()' => 'SELECT id FROM ob7 WHERE ($1 IS NULL OR id > $1) AND id < $2 ORDER BY id LIMIT 500' ]));

my $dir = PostgreSQL::Test::Utils::tempdir();
my %scripts = (
	# short transactions, a v7 and a v6 row, sleeping between inserts
	short => q{
\set s random(0, 150)
BEGIN;
INSERT INTO ob7 (w, kind) VALUES (:client_id, 'short');
INSERT INTO ob6 (w) VALUES (:client_id);
\sleep :s ms
INSERT INTO ob7 (w, kind) VALUES (:client_id, 'short');
COMMIT;
},
	# a savepoint rolled back: its rows never commit
	savepoint => q{
\set s random(0, 100)
BEGIN;
SAVEPOINT a;
INSERT INTO ob7 (w) VALUES (-:client_id);
INSERT INTO ob6 (w) VALUES (-:client_id);
\sleep :s ms
ROLLBACK TO SAVEPOINT a;
INSERT INTO ob7 (w, kind) VALUES (:client_id, 'savepoint');
COMMIT;
},
	rollback => q{
\set s random(0, 100)
BEGIN;
INSERT INTO ob7 (w) VALUES (-:client_id);
\sleep :s ms
ROLLBACK;
},
	# two-phase: prepared, then committed or rolled back after a while
	twophase => q{
\set g random(1, 2000000000)
\set s random(0, 300)
\set c random(1, 4)
BEGIN;
INSERT INTO ob7 (w, kind) VALUES (:client_id, 'two-phase');
INSERT INTO ob6 (w) VALUES (:client_id);
PREPARE TRANSACTION 'w:client_id-:g';
\sleep :s ms
\if :c = 1
ROLLBACK PREPARED 'w:client_id-:g';
\else
COMMIT PREPARED 'w:client_id-:g';
\endif
},
	# a long transaction whose id is made long before its row commits
	long => q{
\set s random(500, 2000)
BEGIN;
SELECT uuidv7() AS early \gset
\sleep :s ms
INSERT INTO ob7 (id, w, kind) VALUES (':early', :client_id, 'long');
COMMIT;
},
);
# ids made by parallel workers for their leader's transaction (the leader
# makes none itself), v7 through both kinds of wrapper and v6, committed
# late; a row whose id the leader made after all (no worker free) is kind
# 'parallel?'
$scripts{parallel} = qq{
\\set s random(0, 600)
SET $par_guc = on;
BEGIN;
SELECT par_id() AS a, par_pid() AS pa \\gset
SELECT par_id6() AS c \\gset
\\sleep :s ms
INSERT INTO ob7 (id, w, kind) VALUES (':a', :client_id, CASE WHEN :pa = pg_backend_pid() THEN 'parallel?' ELSE 'parallel' END);
INSERT INTO ob6 (id, w) VALUES (':c', :client_id);
SELECT par_id_of(:client_id) AS b, par_pid() AS pb \\gset
INSERT INTO ob7 (id, w, kind) VALUES (':b', :client_id, CASE WHEN :pb = pg_backend_pid() THEN 'parallel?' ELSE 'parallel' END);
COMMIT;
};
my @weights = (short => 50, savepoint => 15, rollback => 10, twophase => 20, long => 5, parallel => 10);
my @files;
while (my ($name, $weight) = splice(@weights, 0, 2))
{
	PostgreSQL::Test::Utils::append_to_file("$dir/$name.sql", $scripts{$name});
	push @files, '-f', "$dir/$name.sql\@$weight";
}

my @conn = ('-h', $node->host, '-p', $node->port, 'postgres');
my $refusals_before = $node->safe_psql('postgres', 'SELECT refusals FROM pg_uuidx_stats');
my @readers;
for my $reader ('horizon v7', 'horizon v6', 'id > last', 'now()')
{
	push @readers, IPC::Run::start([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-c',
		"CALL read_loop('$reader', " . ($seconds + 4) . ')', @conn ], '>', \my $o, '2>', \my $e);
}
# a late committer: an id made at the start, committed after 3 seconds
my $late = IPC::Run::start([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-c',
	q{BEGIN; INSERT INTO ob7 (w, kind) VALUES (0, 'late'); INSERT INTO ob6 (w) VALUES (0); SELECT pg_sleep(3); COMMIT;},
	@conn ], '>', \my $lo, '2>', \my $le);
my ($wout, $werr) = ('', '');
my $writers = IPC::Run::start([ 'pgbench', '-n', '-M', 'simple', '-c', 8, '-j', 2, '-T', $seconds,
	"--random-seed=$seed", @files, @conn ], '>', \$wout, '2>', \$werr);
# the clock steps back 2 s halfway through
sleep(int($seconds / 2));
set_clock($clock, 1, -2, 0);
$writers->finish;
$late->finish or diag($le);
note($wout);
like($wout, qr/number of failed transactions: 0|processed: \d+/, 'the writers ran') or diag($werr);
# what pgbench left prepared when its time was up: committed, so it counts
$node->safe_psql('postgres', q{
	SELECT format('COMMIT PREPARED %L', gid) FROM pg_prepared_xacts WHERE database = current_database() \gexec
});
$_->finish or diag('a reader failed') for @readers;
set_clock($clock, 0, 0, 0);
sql_ok($node, 'postgres', q{
	SELECT (SELECT count(*) FROM ob7 WHERE kind = 'parallel') > 0 AND count(*) = 0,
	       format('%s rows with ids from workers, holders: %s', (SELECT count(*) FROM ob7 WHERE kind = 'parallel'),
	              coalesce(json_agg(h)::text, 'none')) FROM pg_uuidx_horizon_holders() h},
	'the parallel writer committed rows whose ids workers made, and with every writer gone no holder is left');

# every id was made by the server in the transaction that inserts it; the
# guards refuse only ids a parallel worker made before the floor passed them
# (the leader's guard cannot tell them from a client's), which pgbench retries
sql_ok($node, 'postgres', qq{SELECT refusals >= $refusals_before, refusals - $refusals_before || ' refusals'
	FROM pg_uuidx_stats}, 'the guards\' refusals counted');

my $stats = $node->safe_psql('postgres', q{
	SELECT format('%s v7 rows (%s), %s v6 rows', (SELECT count(*) FROM ob7),
	              (SELECT string_agg(format('%s %s', n, kind), ', ' ORDER BY kind)
	               FROM (SELECT kind, count(*) n FROM ob7 GROUP BY kind) k), (SELECT count(*) FROM ob6))});
note("committed: $stats");
for my $case ([ 'horizon v7', 'ob7' ], [ 'horizon v6', 'ob6' ])
{
	my ($reader, $table) = @$case;
	read_once_ok($node, 'postgres', $table, $reader, $reader, more_than => 100);
}
for my $reader ('id > last', 'now()')
{
	my $missed = missed_count($node, 'postgres', 'ob7', $reader);
	cmp_ok($missed, '>', 0, "the same loop bounded by $reader misses rows: $missed of them");
}

$node->stop;
done_testing();
