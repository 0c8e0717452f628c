# Concurrent sessions inserting DEFAULT uuidv7().
#
# pgbench runs 4 sessions (PG_UUIDX_CLIENTS), each 200000 (PG_UUIDX_ROWS)
# single-row transactions into a table keyed by uuidv7(); every row records
# its backend, its client's own counter and a global sequence.  Checked: no
# transaction failed, no row lost, no duplicate id, within each backend the
# ids follow insertion order, across backends they sort by time.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use PgUuidxTest;
use PostgreSQL::Test::Utils;
use Test::More;

my $clients = $ENV{PG_UUIDX_CLIENTS} || 4;
my $rows = $ENV{PG_UUIDX_ROWS} || 200000;
my $total = $clients * $rows;
my $node = new_node('conc', conf => [ 'max_connections = ' . ($clients + 10), 'synchronous_commit = off' ]);
helpers($node);
$node->safe_psql('postgres', q{
CREATE EXTENSION pg_uuidx;
CREATE TABLE conc (id uuid PRIMARY KEY DEFAULT uuidv7(), pid int NOT NULL DEFAULT pg_backend_pid(),
                   client int NOT NULL, n int NOT NULL, gseq bigint GENERATED ALWAYS AS IDENTITY);
});
my $script = PostgreSQL::Test::Utils::tempdir() . '/insert.pgbench';
PostgreSQL::Test::Utils::append_to_file($script,
	"\\set n :n + 1\nINSERT INTO conc (client, n) VALUES (:client_id, :n);\n");

my ($out, $err) = run_command([ 'pgbench', '-n', '-h', $node->host, '-p', $node->port,
	'-c', $clients, '-j', 2, '-t', $rows, '-D', 'n=0', '-f', $script, 'postgres' ]);
note($out);
like($out, qr{actually processed: $total/$total}, "pgbench finished all $total transactions") or diag($err);
sql_ok($node, 'postgres', "SELECT count(*) = $total, count(*) FROM conc", "no lost rows: $clients x $rows");
sql_ok($node, 'postgres', "SELECT count(DISTINCT id) = count(*), count(*) - count(DISTINCT id) FROM conc",
	'no duplicate ids');
sql_ok($node, 'postgres', qq{
	SELECT count(*) = $clients AND bool_and(c = $rows AND lo = 1 AND hi = $rows AND d = $rows AND cl = 1),
	       string_agg(pid || ':' || c, ' ')
	FROM (SELECT pid, count(*) c, min(n) lo, max(n) hi, count(DISTINCT n) d, count(DISTINCT client) cl
	      FROM conc GROUP BY pid) s},
	"$clients backends, one client each, counters 1..$rows without gaps");
sql_ok($node, 'postgres', 'SELECT bool_and(fault.version(id) = 7 AND fault.variant_ok(id)) FROM conc',
	'version 7 and RFC variant on every id');
sql_ok($node, 'postgres', in_order('SELECT id, pid, n AS ord FROM conc', 'pid'),
	"within each backend the ids follow the client's insert order");
sql_ok($node, 'postgres', in_order('SELECT id, pid, gseq AS ord FROM conc', 'pid'),
	'within each backend the ids follow the global sequence');
# across backends only time orders ids (how far depends on scheduling)
sql_ok($node, 'postgres', q{
	SELECT coalesce(max(lag_ms), 0) < 1000, 'largest step back: ' || round(coalesce(max(lag_ms), 0), 3) || ' ms'
	FROM (SELECT max(fault.unix_ms(id)) OVER (ORDER BY gseq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
	             - fault.unix_ms(id) AS lag_ms FROM conc) s},
	'across backends no id is more than 1 s older than one inserted before it');
done_testing();
