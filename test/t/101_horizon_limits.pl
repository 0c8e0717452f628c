# What the commit horizon does not cover, and what the guard does about it:
# an id made in one transaction and inserted by another is not held back by
# the horizon, so a reader that has moved past it would never read its row.
# Each case of docs/reading-in-order.md ("What it does not cover", ids made
# elsewhere) is played out here with a reader that polls
# pg_uuidx_read_after(): a pre-fetched SELECT uuidv7(), a retry that keeps
# the id of its rolled-back attempt, and a procedure that commits between
# making the id and inserting it.  pg_uuidx_read_after() reads only a table
# whose rows all pass a guard (55000 without one); with the guard of
# pg_uuidx_add_guard() (allowance 0), each such row is refused (40001) once
# the reader has moved past its id, instead of committing below it unread.
# The same steps inside one transaction are covered (the first case, for
# contrast).  Should the horizon ever cover one of them, or the guard let
# one in, its check fails and the page must say so.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use PgUuidxTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# the horizon right at the clock (the default allowance, 1 s, would only
# make the reader wait longer: 100_reading_in_order.pl)
my $node = new_node('limits', conf => [ 'pg_uuidx.horizon_allowance = 0' ]);
if ($node->safe_psql('postgres', 'SHOW server_version_num') < 170000)
{
	$node->append_conf('postgresql.conf', "shared_preload_libraries = 'pg_uuidx'\n");
	$node->restart;
}
$node->safe_psql('postgres', q{
	CREATE EXTENSION pg_uuidx;
	CREATE TABLE box (id uuid PRIMARY KEY, what text NOT NULL);
	CREATE FUNCTION try(q text) RETURNS text LANGUAGE plpgsql AS $$
	BEGIN EXECUTE q; RETURN 'ok'; EXCEPTION WHEN OTHERS THEN RETURN SQLSTATE || ' ' || SQLERRM; END $$;
	-- what the insert of make_commit_insert() gave: 'ok' or its error
	CREATE TABLE outcome (what text NOT NULL, state text NOT NULL);
	CREATE PROCEDURE make_commit_insert(what text) LANGUAGE plpgsql AS $$
	DECLARE made uuid := uuidv7();
	BEGIN
		COMMIT;
		PERFORM pg_advisory_lock(1);	-- the test holds it while a reader moves on
		PERFORM pg_advisory_unlock(1);
		INSERT INTO outcome VALUES (what, try(format('INSERT INTO box VALUES (%L, %L)', made, what)));
	END $$;
});

like($node->safe_psql('postgres', q{SELECT try('SELECT pg_uuidx_read_after(NULL::box, NULL, 100)')}),
	qr/^55000 pg_uuidx_read_after\(\) cannot read table public\.box: column "id" has no guard$/,
	'a table without a guard is not read (55000): nothing would stop a row committing below a horizon read');
$node->safe_psql('postgres', q{SELECT pg_uuidx_add_guard('box')});

my $writer = $node->background_psql('postgres', on_error_stop => 0);
my $last;

# one poll: the rows read after $last, which then moves to the greatest
sub poll
{
	my $after = defined $last ? "'$last'" : 'NULL';
	my @rows = grep { $_ ne '' } split /\n/, $node->safe_psql('postgres',
		"SELECT id::text || ' ' || what FROM pg_uuidx_read_after(NULL::box, $after, 100)");
	$last = (split / /, $rows[-1])[0] if @rows;
	return join(',', map { (split / /)[1] } @rows);
}

# a later row of another session, committed, and read by the reader
sub later_row_read
{
	my ($what) = @_;
	$node->safe_psql('postgres', "INSERT INTO box VALUES (uuidv7(), '$what')");
	return poll();
}

# covered: the id made and inserted in one transaction holds the horizon
$writer->query_safe('BEGIN');
$writer->query_safe(q{SELECT uuidv7() AS made \gset});
is(later_row_read('after-open'), '', 'covered: a later row waits while the transaction that made an earlier id is open');
$writer->query_safe(q{INSERT INTO box VALUES (:'made', 'made-in-txn')});
$writer->query_safe('COMMIT');
is(poll(), 'made-in-txn,after-open', 'covered: both read, in id order, once it commits');

# an id made before the statement that inserts it, by a session that has no
# transaction holding it: refused once the reader has moved past it
sub insert_late
{
	my ($id, $what) = @_;
	return $writer->query_safe(qq{SELECT try(format('INSERT INTO box VALUES (%L, %L)', '$id', '$what'))});
}
my $refused = sub { my ($id) = @_; return qr/^40001 id \Q$id\E was made at .*below the commit horizon already handed out/ };

# a pre-fetched id: SELECT uuidv7() in one transaction, the INSERT in another
my $made = $writer->query_safe('SELECT uuidv7()');
is(later_row_read('after-prefetch'), 'after-prefetch', 'pre-fetched id: the reader moves past it');
like(insert_late($made, 'prefetched'), $refused->($made),
	'not covered by the horizon: the guard refuses a pre-fetched id inserted later (40001)');
is(poll(), '', 'and nothing is read below the reader\'s position');

# a retry that keeps the id of its rolled-back attempt
$made = $writer->query_safe(q{BEGIN; INSERT INTO box VALUES (uuidv7(), 'retried') RETURNING id});
$writer->query_safe('ROLLBACK');
is(later_row_read('after-retry'), 'after-retry', 'retry: the reader moves past the rolled-back attempt');
like(insert_late($made, 'retried'), $refused->($made),
	'not covered by the horizon: the guard refuses a retry that keeps its id (40001)');
is(poll(), '', 'and nothing is read below the reader\'s position');

# a procedure that commits between making the id and inserting it
my $lock = $node->background_psql('postgres');
$lock->query_safe('SELECT pg_advisory_lock(1)');
$writer->query_until(qr/started/, q{\echo started
CALL make_commit_insert('in-procedure');
});
$node->poll_query_until('postgres',
	q{SELECT count(*) = 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted})
  or die 'the procedure did not reach its wait';
is(later_row_read('after-procedure'), 'after-procedure', 'procedure: the reader moves past its committed first part');
$lock->query_safe('SELECT pg_advisory_unlock(1)');
$node->poll_query_until('postgres', q{SELECT count(*) = 1 FROM outcome WHERE what = 'in-procedure'})
  or die 'the procedure did not insert';
like($node->safe_psql('postgres', q{SELECT state FROM outcome WHERE what = 'in-procedure'}),
	qr/^40001 id \S+ was made at .*below the commit horizon already handed out/,
	'not covered by the horizon: the guard refuses an id made before a COMMIT inside a procedure and inserted after it');
is(poll(), '', 'and nothing is read below the reader\'s position');

is($node->safe_psql('postgres', q{SELECT count(*) FROM box WHERE what IN ('prefetched', 'retried', 'in-procedure')}),
	'0', 'none of the three rows is stored below what the reader had read');
$lock->quit;
$writer->quit;
$node->stop;
done_testing();
