# Backends and parallel workers never share random bytes.  With pg_uuidx
# in shared_preload_libraries every backend and parallel worker is a fork
# of a postmaster that has the library (and its static entropy block)
# mapped.  Two setups, each after a restart:
#   preload    shared_preload_libraries = 'pg_uuidx'
#   prefilled  plus test/t/prefork's library, which makes a v4 and a v7 id in
#              the postmaster itself, so that every child inherits a filled,
#              partly used block (RFC 9562 6.9's case)
# In each: the first uuidv4() and uuidv7() of 200 fresh backends (pgbench
# -C) all differ, in the whole v4 and in v7's 44-bit random tail; a parallel
# seq scan whose workers (leader not participating) call them (uuidv7()
# through a PARALLEL SAFE label of the test's own) gives valid,
# distinct ids from at least two workers, with EXPLAIN showing them launched.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use PgUuidxTest;
use PostgreSQL::Test::Utils;
use Test::More;

my ($fresh, $rows) = (200, 200000);
my $dir = PostgreSQL::Test::Utils::tempdir();
system("cp -r '$FindBin::RealBin/prefork' '$dir/'") == 0 or die 'copy failed';
run_log([ 'make', '-s', '-C', "$dir/prefork", 'PG_CONFIG=' . ($ENV{PG_CONFIG} || 'pg_config') ])
  or die 'test/t/prefork did not build';
my $prefork = "$dir/prefork/fault_prefork.so";

my $node = new_node('fork', conf => [ 'max_worker_processes = 8', 'max_parallel_workers = 8' ]);
helpers($node);
$node->safe_psql('postgres', qq{
CREATE EXTENSION pg_uuidx;
CREATE TABLE firsts (setup int, pid int, v4 uuid, v7 uuid);
CREATE TABLE big AS SELECT g FROM generate_series(1, $rows) AS g;
ANALYZE big;
-- pg_backend_pid() and uuidv7() labelled PARALLEL SAFE (test only), so that
-- workers call them (pg_uuidx's uuidv7() is PARALLEL RESTRICTED for its order)
CREATE FUNCTION fault.pid() RETURNS int LANGUAGE internal STABLE PARALLEL SAFE AS 'pg_backend_pid';
CREATE FUNCTION fault.v7() RETURNS uuid LANGUAGE c VOLATILE PARALLEL SAFE AS '\$libdir/pg_uuidx', 'pg_uuidx_uuidv7';
});
my $script = "$dir/first.pgbench";
append_to_file($script, "INSERT INTO firsts VALUES (:setup, pg_backend_pid(), uuidv4(), uuidv7());\n");

# force_parallel_mode was renamed debug_parallel_query in PostgreSQL 16
my $parallel = q{SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0; SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off; SET client_min_messages = warning;
SELECT set_config(CASE WHEN current_setting('server_version_num')::int >= 160000
                  THEN 'debug_parallel_query' ELSE 'force_parallel_mode' END, 'on', false) IS NULL;};

my $setup = 0;
for my $libs ('pg_uuidx', "pg_uuidx,$prefork")
{
	my $name = ++$setup == 1 ? 'preload' : 'prefilled';
	my $w = "setup = $setup";
	$node->append_conf('postgresql.conf', "shared_preload_libraries = '$libs'\n");
	$node->stop;
	start_with_env($node);
	sql_ok($node, 'postgres', "SELECT current_setting('shared_preload_libraries') = '$libs'",
		"$name: library preloaded");
	my ($out, $err) = run_command([ 'pgbench', '-n', '-C', '-h', $node->host, '-p', $node->port,
		'-c', 4, '-j', 2, '-t', $fresh / 4, '-D', "setup=$setup", '-f', $script, 'postgres' ]);
	like($out, qr{actually processed: $fresh/$fresh}, "$name: $fresh fresh connections") or diag($err);
	sql_ok($node, 'postgres', "SELECT count(DISTINCT pid) = $fresh AND count(*) = $fresh, count(DISTINCT pid)
		FROM firsts WHERE $w", "$name: $fresh fresh backends each made its first ids");
	sql_ok($node, 'postgres', "SELECT count(DISTINCT v4) = count(*)
		AND count(DISTINCT left(v4::text, 18)) = count(*) AND count(DISTINCT right(v4::text, 17)) = count(*)
		FROM firsts WHERE $w", "$name: first uuidv4() of every backend distinct, in both halves");
	sql_ok($node, 'postgres', "SELECT count(DISTINCT fault.tail44(v7)) = count(*), count(DISTINCT fault.tail44(v7))
		FROM firsts WHERE $w", "$name: first uuidv7() random tails (44 bits) distinct");
	sql_ok($node, 'postgres', "SELECT bool_and(fault.version(v4) = 4 AND fault.version(v7) = 7
		AND fault.variant_ok(v4) AND fault.variant_ok(v7)) FROM firsts WHERE $w",
		"$name: versions and variants of the first ids");

	my $plan = $node->safe_psql('postgres', qq{$parallel
DROP TABLE IF EXISTS par, leader;
CREATE TABLE leader AS SELECT pg_backend_pid() AS pid;
EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF)
CREATE TABLE par AS SELECT fault.pid() AS pid, uuidv4() AS v4, fault.v7() AS v7 FROM big;});
	like($plan, qr/Workers Launched: [1-9].*Parallel Seq Scan/s,
		"$name: EXPLAIN shows a parallel seq scan with workers launched");
	like($plan, qr/Parallel Seq Scan.*\n.*Output:.*uuidv4\(\).*v7\(\)/,
		"$name: uuidv4() and the v7 generator are evaluated below the Gather (in the workers)");
	sql_ok($node, 'postgres', "SELECT count(*) = $rows AND count(DISTINCT pid) >= 2
		AND bool_and(pid <> (SELECT pid FROM leader)), count(DISTINCT pid) || ' workers' FROM par",
		"$name: all $rows rows made by >= 2 workers, none by the leader");
	sql_ok($node, 'postgres', 'SELECT bool_and(fault.version(v4) = 4 AND fault.version(v7) = 7
		AND fault.variant_ok(v4) AND fault.variant_ok(v7)) FROM par', "$name: worker ids valid");
	sql_ok($node, 'postgres', 'SELECT count(DISTINCT v4) = count(*) AND count(DISTINCT v7) = count(*)
		AND count(DISTINCT fault.tail44(v7)) = count(*) FROM par',
		"$name: worker ids distinct (v4, v7, v7 random tails)");
	sql_ok($node, 'postgres', 'SELECT NOT EXISTS (SELECT FROM par JOIN firsts USING (v4))',
		"$name: worker ids differ from the first ids of fresh backends");
}
like(slurp_file($node->logfile), qr/fault_prefork: postmaster \d+ made/,
	'prefilled: the postmaster made ids before forking (server log)');
done_testing();
