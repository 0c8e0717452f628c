# Crash recovery: a backend inserting DEFAULT uuidv7() rows, one committed
# transaction each, is killed with SIGKILL mid-insert.  The postmaster
# resets every backend and replays the WAL; then every row committed before
# the kill is there, the killed backend's ids still follow its insert order,
# and ids made after recovery sort after all of them.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use PgUuidxTest;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = new_node('crash', conf => [ 'restart_after_crash = on' ]);
helpers($node);
$node->safe_psql('postgres', q{
CREATE EXTENSION pg_uuidx;
CREATE TABLE t (id uuid PRIMARY KEY DEFAULT uuidv7(), gseq bigint GENERATED ALWAYS AS IDENTITY,
                pid int DEFAULT pg_backend_pid());
CREATE PROCEDURE ins(n int) LANGUAGE plpgsql AS $$
BEGIN
    FOR i IN 1 .. n LOOP INSERT INTO t DEFAULT VALUES; COMMIT; END LOOP;
END $$;
});

my $writer = $node->background_psql('postgres', on_error_stop => 0);
my $pid = $writer->query_safe('SELECT pg_backend_pid()');
$writer->query_until(qr/started/, "\\echo started\nCALL ins(100000000);\n");
$node->poll_query_until('postgres', 'SELECT count(*) >= 20000 FROM t')
  or die 'the writer made no rows';
# rows another session sees are committed: keep them, then kill at once
$node->safe_psql('postgres', 'CREATE TABLE seen AS SELECT id, gseq FROM t');
my $log_offset = -s $node->logfile;
ok(kill('KILL', $pid), "SIGKILL sent to the inserting backend $pid");
$node->wait_for_log(qr/database system is ready to accept connections/, $log_offset);
eval { $writer->quit };
my $log = slurp_file($node->logfile, $log_offset);
like($log, qr/\(PID $pid\) was terminated by signal 9/, 'the postmaster saw the backend killed');
like($log, qr/automatic recovery in progress|redo starts|database system was interrupted/,
	'the server ran crash recovery');

sql_ok($node, 'postgres', 'SELECT count(*) >= 20000, count(*) || \' rows seen before the kill\' FROM seen',
	'rows were committed before the kill');
sql_ok($node, 'postgres', q{SELECT NOT EXISTS (SELECT FROM seen LEFT JOIN t USING (id, gseq) WHERE t.id IS NULL),
	(SELECT count(*) FROM t) || ' rows after recovery'}, 'no committed row lost');
sql_ok($node, 'postgres', in_order('SELECT id, gseq AS ord FROM t'),
	"the killed backend's ids follow its insert order");
$node->safe_psql('postgres', 'INSERT INTO t (id) SELECT uuidv7() FROM generate_series(1, 1000)');
sql_ok($node, 'postgres', q{
	SELECT count(*) = 1000 AND bool_and(pid <> } . $pid . q{ AND id > (SELECT max(id) FROM seen)
	       AND fault.version(id) = 7 AND fault.variant_ok(id)), count(*)
	FROM t WHERE gseq > (SELECT max(gseq) FROM t) - 1000},
	'ids made after recovery are valid and sort after every id made before');
sql_ok($node, 'postgres', in_order('SELECT id, gseq AS ord FROM t'), 'all ids in insertion order');
$node->stop;
done_testing();
