# Consumers: pg_uuidx_consume() under concurrency, crashes and on a standby.
#
# (a) Exactly once: pgbench writers insert with DEFAULT uuidv7() (short
#     transactions, transactions that stay open between two inserts, and
#     rollbacks) while 4 sessions of one consumer loop: each call's rows go
#     into the table got in the same transaction, which acknowledges the
#     last of them (pg_uuidx_consumer_ack()) and then commits, or rolls back
#     one time in ten.  Three calls in ten handle only the first 1 to 7 rows
#     of the batch (a LIMIT) and acknowledge the last of those.  Every
#     committed row must be in got exactly once, more than one session must
#     have consumed, and the position must end at the greatest id.  The lock
#     on the position is what makes it hold: without the FOR UPDATE in
#     src/reading/consume.c two sessions read the same rows and this fails ("no row
#     twice"); a position moved past rows the caller did not handle fails
#     "every committed row consumed".
# (b) A crash between the acknowledgement and the commit (an immediate
#     stop, and a backend killed with SIGKILL, which makes the server
#     restart): the rows read are not lost and not doubled: the next call
#     reads them again.
# (c) On a streaming standby pg_uuidx_consume(), pg_uuidx_consumer_ack()
#     and pg_uuidx_consumer_reset() fail with 55000 (recovery is in progress),
#     the detail and hint of the docs, while pg_uuidx_read_after() reads
#     there up to the tick, after a position the client keeps (taken from the
#     replicated pg_uuidx_consumers).
# (d) Privileges before locks: while another session holds an ACCESS
#     EXCLUSIVE lock on the table, a role that may not read it gets 42501 at
#     once from pg_uuidx_consumer_reset() setting a position, and a reset
#     that removes its own position returns without waiting for the table;
#     neither waits for the lock (lock_timeout, 55P03).  (A call of
#     pg_uuidx_consume(NULL::outbox, ...) waits in the parser, which opens
#     the relation of the row type for the result's descriptor, before the
#     function runs.)
#
# The seed is printed (PG_UUIDX_SEED replays the writers' and consumers'
# choices, not their timing); PG_UUIDX_STRESS_SECONDS sets the length of
# the writers' run (default 6).
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
use Time::HiRes qw(sleep);

my $seconds = $ENV{PG_UUIDX_STRESS_SECONDS} || 6;
my $seed = $ENV{PG_UUIDX_SEED} || int(rand(2**31));
note("seed $seed (PG_UUIDX_SEED=$seed replays the writers' and consumers' choices)");

my @conf = ('max_connections = 40', "pg_uuidx.horizon_allowance = '100ms'", 'restart_after_crash = on', 'wal_level = replica',
	'max_wal_senders = 5');
my $node = new_node('primary', conf => \@conf);
my $major = int($node->safe_psql('postgres', 'SHOW server_version_num') / 10000);
# before 17 the horizon needs the preloaded library
if ($major < 17)
{
	$node->append_conf('postgresql.conf', "shared_preload_libraries = 'pg_uuidx'\n");
	$node->stop;
	start_with_env($node);
}
$node->safe_psql('postgres', q{
CREATE EXTENSION pg_uuidx;
CREATE TABLE outbox (id uuid PRIMARY KEY DEFAULT uuidv7(), w int NOT NULL, kind text NOT NULL);
CREATE TRIGGER zz_guard BEFORE INSERT OR UPDATE ON outbox
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard('id', '7', '0');
-- what the consumer's sessions consumed: no key, so that a row twice shows
CREATE TABLE got (id uuid NOT NULL, session int NOT NULL);
CREATE TABLE stop_flag (at timestamptz NOT NULL);
-- one session of the consumer relay: batches of up to 7 rows, each copied
-- into got in the transaction that consumed it, which commits, or rolls
-- back one time in ten, after a pause of up to 10 ms; it stops once the
-- stop flag was there before a call that read nothing
CREATE PROCEDURE consume_loop(session int, seed float8) LANGUAGE plpgsql AS $$
DECLARE
    give_up timestamptz := clock_timestamp() + interval '120 s';
    stopping boolean;
    handled int;
    n bigint;
    last uuid;
BEGIN
    PERFORM setseed(seed);
    LOOP
        stopping := EXISTS (SELECT FROM stop_flag);
        -- now and then only the first rows of the batch are handled
        handled := CASE WHEN random() < 0.3 THEN 1 + floor(random() * 7)::int ELSE 7 END;
        WITH batch AS (SELECT id FROM pg_uuidx_consume(NULL::outbox, 'relay', 7) LIMIT handled),
             copied AS (INSERT INTO got SELECT id, session FROM batch)
        SELECT count(*), max(id) INTO n, last FROM batch;
        PERFORM pg_uuidx_consumer_ack('outbox', 'relay', last);
        PERFORM pg_sleep(random() * 0.01);
        IF random() < 0.1 THEN
            ROLLBACK;
        ELSE
            COMMIT;
            EXIT WHEN stopping AND n = 0;
        END IF;
        IF clock_timestamp() > give_up THEN
            RAISE EXCEPTION 'consumer session % gave up', session;
        END IF;
    END LOOP;
END $$;
});

# the committed rows of outbox in got exactly once, nothing else; the
# position of relay at the greatest id
sub exactly_once_ok
{
	my ($label) = @_;
	sql_ok($node, 'postgres', q{
		SELECT (SELECT count(*) FROM outbox) > 0
		       AND NOT EXISTS (SELECT id FROM outbox EXCEPT SELECT id FROM got)
		       AND NOT EXISTS (SELECT id FROM got EXCEPT SELECT id FROM outbox),
		       format('%s rows, %s consumed, %s missed', (SELECT count(*) FROM outbox), (SELECT count(*) FROM got),
		              (SELECT count(*) FROM (SELECT id FROM outbox EXCEPT SELECT id FROM got) m))},
		"$label: every committed row consumed, nothing else");
	sql_ok($node, 'postgres', q{
		SELECT count(*) = count(DISTINCT id), count(*) - count(DISTINCT id) || ' consumed twice' FROM got},
		"$label: no row twice");
	sql_ok($node, 'postgres', q{
		SELECT last_id = (SELECT max(id) FROM outbox), last_id::text FROM pg_uuidx_consumers WHERE consumer = 'relay'},
		"$label: the position is at the greatest id");
	return;
}

# ---- (a) concurrent sessions of one consumer while writers insert

my $dir = PostgreSQL::Test::Utils::tempdir();
my %scripts = (
	short => q{
INSERT INTO outbox (w, kind) VALUES (:client_id, 'short');
},
	# open between its two rows: holds the horizon
	open => q{
\set s random(0, 200)
BEGIN;
INSERT INTO outbox (w, kind) VALUES (:client_id, 'open');
\sleep :s ms
INSERT INTO outbox (w, kind) VALUES (:client_id, 'open');
COMMIT;
},
	rollback => q{
BEGIN;
INSERT INTO outbox (w, kind) VALUES (:client_id, 'rollback');
ROLLBACK;
},
);
my @files;
for my $name (sort keys %scripts)
{
	PostgreSQL::Test::Utils::append_to_file("$dir/$name.sql", $scripts{$name});
	push @files, '-f', "$dir/$name.sql\@" . { short => 60, open => 30, rollback => 10 }->{$name};
}
my @conn = ('-h', $node->host, '-p', $node->port, 'postgres');
my @consumers;
for my $session (1 .. 4)
{
	my $s = (($seed + $session) % 1000) / 1000;
	push @consumers, IPC::Run::start([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-c',
		"CALL consume_loop($session, $s)", @conn ], '>', \my $o, '2>', \my $e);
}
my ($wout, $werr) = ('', '');
IPC::Run::run([ 'pgbench', '-n', '-M', 'simple', '-c', 6, '-j', 2, '-T', $seconds, "--random-seed=$seed",
	@files, @conn ], '>', \$wout, '2>', \$werr);
like($wout, qr/number of transactions actually processed: [1-9]/, 'the writers ran') or diag($werr);
# every writer has committed; past the allowance the horizon is above them
sleep(1);
$node->safe_psql('postgres', 'INSERT INTO stop_flag VALUES (now())');
my $all_ok = 1;
$_->finish or $all_ok = 0 for @consumers;
ok($all_ok, 'the consumer sessions ran to the end');
note($node->safe_psql('postgres', q{
	SELECT format('%s rows (%s in transactions held open), consumed by sessions %s', count(*),
	       count(*) FILTER (WHERE kind = 'open'), (SELECT string_agg(session || ': ' || c, ', ' ORDER BY session)
	       FROM (SELECT session, count(*) c FROM got GROUP BY session) s)) FROM outbox}));
sql_ok($node, 'postgres', q{SELECT count(DISTINCT session) > 1, count(DISTINCT session) || ' sessions' FROM got},
	'(a) more than one session consumed rows');
exactly_once_ok('(a) 4 sessions, 6 writers');

# ---- (b) a crash between the read and the commit

for my $how ('immediate', 'kill9')
{
	$node->safe_psql('postgres', q{INSERT INTO outbox (w, kind) SELECT g, 'crash' FROM generate_series(1, 20) g});
	sleep(0.3);
	my $bg = $node->background_psql('postgres', on_error_stop => 0);
	$bg->query_safe('BEGIN');
	my $read = $bg->query_safe(
		q{WITH c AS (SELECT id FROM pg_uuidx_consume(NULL::outbox, 'relay', 8)),
		       g AS (INSERT INTO got SELECT id, 0 FROM c)
		  SELECT count(*) FROM c, (SELECT pg_uuidx_consumer_ack('outbox', 'relay', max(id)) FROM c) a});
	is($read, '8', "(b) $how: a transaction read 8 rows and acknowledged them, and has not committed");
	if ($how eq 'kill9')
	{
		my $pid = $bg->query_safe('SELECT pg_backend_pid()');
		my $offset = -s $node->logfile;
		kill 'KILL', $pid;
		$node->wait_for_log(qr/database system is ready to accept connections/, $offset);
	}
	else
	{
		$node->stop('immediate');
		start_with_env($node);
	}
	eval { $bg->quit };
	$node->poll_query_until('postgres', 'SELECT true') or die "no server after the $how crash";
	sleep(0.3);
	# a new session reads what the lost transaction read, and the rest
	$node->safe_psql('postgres', q{
		DO $$
		DECLARE
		    n bigint;
		    last uuid;
		BEGIN
		    LOOP
		        WITH batch AS (SELECT id FROM pg_uuidx_consume(NULL::outbox, 'relay', 7)),
		             copied AS (INSERT INTO got SELECT id, 5 FROM batch)
		        SELECT count(*), max(id) INTO n, last FROM batch;
		        PERFORM pg_uuidx_consumer_ack('outbox', 'relay', last);
		        COMMIT;
		        EXIT WHEN n = 0;
		    END LOOP;
		END $$});
	exactly_once_ok("(b) $how");
}

# ---- (c) a streaming standby

$node->safe_psql('postgres', 'SELECT pg_uuidx_tick()');
$node->backup('b');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($node, 'b', has_streaming => 1);
start_with_env($standby);
# the position a client starts from, and rows after it
my $kept = $node->safe_psql('postgres', q{SELECT last_id FROM pg_uuidx_consumers WHERE consumer = 'relay'});
$node->safe_psql('postgres', q{INSERT INTO outbox (w, kind) SELECT g, 'standby' FROM generate_series(1, 25) g});
sleep(0.3);
$node->safe_psql('postgres', 'SELECT pg_uuidx_tick()');
$node->wait_for_catchup($standby);

my ($ret, $out, $err) = $standby->psql('postgres', q{SELECT * FROM pg_uuidx_consume(NULL::outbox, 'relay', 10)},
	extra_params => [ '-v', 'VERBOSITY=verbose' ]);
like($err, qr/ERROR:  55000: recovery is in progress/, '(c) pg_uuidx_consume() on the standby: 55000');
like($err, qr/DETAIL:  pg_uuidx_consume\(\) stores the consumer's position, and positions cannot be stored on a standby\./,
	'(c) ... the detail says why');
like($err, qr/HINT:  .*pg_uuidx_read_after\(\) and a position that the client keeps\./,
	'(c) ... the hint points to pg_uuidx_read_after()');
($ret, $out, $err) = $standby->psql('postgres', q{SELECT pg_uuidx_consumer_reset('outbox', 'relay')},
	extra_params => [ '-v', 'VERBOSITY=verbose' ]);
like($err, qr/ERROR:  55000: recovery is in progress/, '(c) pg_uuidx_consumer_reset() on the standby: 55000');
($ret, $out, $err) = $standby->psql('postgres', qq{SELECT pg_uuidx_consumer_ack('outbox', 'relay', '$kept')},
	extra_params => [ '-v', 'VERBOSITY=verbose' ]);
like($err, qr/ERROR:  55000: recovery is in progress/, '(c) pg_uuidx_consumer_ack() on the standby: 55000');
is($standby->safe_psql('postgres', q{SELECT last_id FROM pg_uuidx_consumers WHERE consumer = 'relay'}), $kept,
	'(c) the standby shows the position stored on the primary');
# the client's own loop on the standby: read after the kept position up
# to the tick, in pages of 10, the last id read kept by the client
my ($last, @read) = ($kept);
for my $page (1 .. 100)
{
	my $ids = $standby->safe_psql('postgres',
		qq{SELECT string_agg(id::text, ',' ORDER BY id) FROM pg_uuidx_read_after(NULL::outbox, '$last', 10)});
	last if $ids eq '';
	push @read, split /,/, $ids;
	$last = $read[-1];
}
my $read_ids = join ',', @read;
is($read_ids, $node->safe_psql('postgres', qq{SELECT string_agg(id::text, ',' ORDER BY id) FROM outbox WHERE id > '$kept'}),
	'(c) pg_uuidx_read_after() on the standby reads every row after the kept position, up to the tick');
is($node->safe_psql('postgres', q{SELECT count(*) FROM outbox WHERE kind = 'standby'}), '25',
	'(c) ... the 25 rows written after it');

# ---- (d) privileges before locks

$node->safe_psql('postgres', 'CREATE ROLE no_select');
my $holder = $node->background_psql('postgres');
$holder->query_safe('BEGIN');
$holder->query_safe('LOCK TABLE outbox IN ACCESS EXCLUSIVE MODE');
for my $case (
	[ 'setting a position: 42501', q{SELECT pg_uuidx_consumer_reset('outbox', 'mine', uuidv7())},
		qr/^psql:<stdin>:\d+: ERROR:  42501: permission denied for table outbox/ ],
	[ 'removing its own position: no error', q{SELECT pg_uuidx_consumer_reset('outbox', 'mine')}, qr/^$/ ])
{
	my ($what, $sql, $want) = @$case;
	my ($ret, $out, $err) = $node->psql('postgres', "SET lock_timeout = '5s'; SET ROLE no_select; $sql",
		extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	like($err, $want, "(d) pg_uuidx_consumer_reset() by a role that may not read the table, locked by another "
		  . "session, $what, no wait for the lock");
}
$holder->query_safe('ROLLBACK');
$holder->quit;

$standby->stop;
$node->stop;
done_testing();
