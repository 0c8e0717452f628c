# pg_uuidx_horizon_guard(): ids made anywhere (the client, core's uuidv7(),
# COPY) hold the commit horizon of the transaction that inserts them, so
# that pg_uuidx_read_after() reads them once, in id order.
#
# First the cases one by one: an id from an hour ago is refused (40001,
# naming pg_uuidx.horizon_allowance) and a fresh one accepted; an id that
# the transaction's own uuidv7() already covers is never refused; a
# savepoint rolled back and a prepared transaction keep the horizon held; a
# future id is read only once the horizon passes it; the guard does not
# fire as a replica (session_replication_role) unless ENABLE ALWAYS; its
# argument errors.  Then the stress run: writers in the test client insert
# ids they made themselves 0-200 ms before the INSERT, COPY such ids, and
# (where the server has it, 18+) call core's uuidv7(), with late commits,
# two-phase commits and rollbacks; with pg_uuidx.horizon_allowance = 50ms
# many of the late ids are refused, and each refusal is retried with a
# fresh id.  A reader polling pg_uuidx_read_after() the whole time must
# read every committed row exactly once, in id order; "id > last" polling
# beside it must miss rows, or the run did not test anything.
#
# PG_UUIDX_TEST_NO_GUARD=1 creates the stress table without the trigger:
# the reader then refuses to read it (55000), and the exactly-once checks
# fail.  The seed is printed
# (PG_UUIDX_SEED replays the writers' choices, not their timing);
# PG_UUIDX_STRESS_SECONDS sets the length of the run (default 8).  Each
# writer's stderr is tmp_check/log/110_writerN.log; PG_UUIDX_WRITER_TRACE=1
# writes every statement there with its SQLSTATE.
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
use Time::HiRes qw(time sleep);

my $seconds = $ENV{PG_UUIDX_STRESS_SECONDS} || 8;
my $seed = $ENV{PG_UUIDX_SEED} || int(rand(2**31));
my $no_guard = $ENV{PG_UUIDX_TEST_NO_GUARD} ? 1 : 0;
note("seed $seed (PG_UUIDX_SEED=$seed replays the writers' choices)");
note('PG_UUIDX_TEST_NO_GUARD=1: the stress table has no guard, the exactly-once checks must fail') if $no_guard;

my $node = new_node('guard',
	conf => [ 'max_connections = 40', 'max_prepared_transactions = 20', "pg_uuidx.horizon_allowance = '50ms'" ]);
my $major = int($node->safe_psql('postgres', 'SHOW server_version_num') / 10000);
# before 17 the shared state needs the preloaded library
if ($major < 17)
{
	$node->append_conf('postgresql.conf', "shared_preload_libraries = 'pg_uuidx'\n");
	$node->restart;
}
$node->safe_psql('postgres', q{
CREATE EXTENSION pg_uuidx;
CREATE TABLE det (id uuid PRIMARY KEY, what text NOT NULL);
CREATE TRIGGER det_guard BEFORE INSERT OR UPDATE ON det
  FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
});
create_try($node, 'postgres');
is($node->safe_psql('postgres', 'SHOW pg_uuidx.horizon_allowance'), '50ms', 'pg_uuidx.horizon_allowance is 50ms');

# the reader of det: one poll of pg_uuidx_read_after() after $last, which
# moves to the greatest id read; returns the rows' "what", comma-separated
my $last;
sub poll
{
	my $after = defined $last ? "'$last'" : 'NULL';
	my @rows = grep { $_ ne '' } split /\n/, $node->safe_psql('postgres',
		"SELECT id::text || ' ' || what FROM pg_uuidx_read_after(NULL::det, $after, 100)");
	$last = (split / /, $rows[-1])[0] if @rows;
	return join(',', map { (split / /, $_, 2)[1] } @rows);
}

# polls until what was read since the call is $want, or 10 s have passed
sub poll_until
{
	my ($want) = @_;
	my @got;
	my $until = time() + 10;
	while (time() < $until)
	{
		my $p = poll();
		push @got, $p if $p ne '';
		last if join(',', @got) eq $want;
		sleep(0.02);
	}
	return join(',', @got);
}

sub insert_det
{
	my ($id, $what) = @_;
	return $node->safe_psql('postgres', "SELECT try(\$q\$INSERT INTO det VALUES ('$id', '$what')\$q\$)");
}

# ---- one case at a time

# an id made an hour ago, below every horizon handed out
$node->safe_psql('postgres', 'SELECT uuidv7_horizon()');
my $old = client_v7(time() - 3600);
my $refusal = insert_det($old, 'an hour ago');
like($refusal, qr/^40001 /, 'an id made an hour ago is refused with 40001 (serialization_failure)');
like($refusal, qr/\Q$old\E/, 'the message names the id');
like($refusal, qr/pg_uuidx\.horizon_allowance/, 'and the setting to change, pg_uuidx.horizon_allowance');
note("refusal: $refusal");
is(insert_det(client_v7(), 'retried'), 'ok', 'retried with a fresh id, it is accepted');
is(poll_until('retried'), 'retried', 'and read');

# the transaction's own uuidv7() already covers ids at or above it
my $own = $node->background_psql('postgres', on_error_stop => 0);
$own->query_safe('BEGIN');
my $made = $own->query_safe('SELECT uuidv7()');
sleep(0.3);
$node->safe_psql('postgres', 'SELECT uuidv7_horizon()');
my $later = client_v7(id_time($made) + 0.001);
$own->query("INSERT INTO det VALUES ('$made', 'own uuidv7()')");
$own->query("INSERT INTO det VALUES ('$later', 'own plus 1 ms')");
is($own->{stderr}, '', 'an id made by uuidv7() earlier in the transaction, and one made a millisecond after it, '
	  . '300 ms old and below the horizon since handed out: not refused');
$own->query('COMMIT');
$own->quit;
like(insert_det(client_v7(id_time($made) + 0.002), 'not covered'), qr/^40001 /,
	'the same age of id in a transaction that made none before it: refused');
is(poll_until('own uuidv7(),own plus 1 ms'), 'own uuidv7(),own plus 1 ms', 'both read, in id order');

# a savepoint rolled back keeps what its insert published
my $sp = $node->background_psql('postgres');
my $x = client_v7();
$sp->query_safe("BEGIN; SAVEPOINT s; INSERT INTO det VALUES ('$x', 'rolled back'); ROLLBACK TO SAVEPOINT s");
is(insert_det(client_v7(), 'after savepoint'), 'ok', 'another session commits a later row');
sleep(0.3);
sql_ok($node, 'postgres', qq{SELECT uuidv7_horizon() <= '$x', uuidv7_horizon()::text},
	'after ROLLBACK TO SAVEPOINT the open transaction still holds the horizon at the guarded id');
is(poll(), '', 'the reader does not move past it');
$sp->query_safe(sprintf("INSERT INTO det VALUES ('%s', 'same transaction'); COMMIT", client_v7()));
is(poll_until('after savepoint,same transaction'), 'after savepoint,same transaction',
	'after its commit both rows are read, in id order');
$sp->quit;

# a prepared transaction holds it until COMMIT PREPARED
$x = client_v7();
$node->safe_psql('postgres', qq{BEGIN; INSERT INTO det VALUES ('$x', 'prepared'); PREPARE TRANSACTION 'guarded'});
is(insert_det(client_v7(), 'after prepared'), 'ok', 'another session commits a later row');
sleep(0.3);
sql_ok($node, 'postgres', qq{
	SELECT uuidv7_horizon() <= '$x' AND count(*) = 1 AND bool_and(prepared_xid IS NOT NULL),
	       uuidv7_horizon()::text || ' ' || json_agg(h)::text FROM pg_uuidx_horizon_holders() h},
	'a prepared transaction holds the horizon at its guarded id (pg_uuidx_horizon_holders() names it)');
is(poll(), '', 'the reader does not move past it');
$node->safe_psql('postgres', q{COMMIT PREPARED 'guarded'});
is(poll_until('prepared,after prepared'), 'prepared,after prepared', 'after COMMIT PREPARED both are read, in id order');

# a future id: accepted, read once the horizon passes it
my $future = client_v7(time() + 1.5);
is(insert_det($future, 'future'), 'ok', 'an id 1.5 s in the future is accepted');
is(insert_det(client_v7(), 'now'), 'ok', 'and a row of now after it');
is(poll_until('now'), 'now', 'the row of now is read, the future one not yet');
is(poll_until('future'), 'future', 'the future row is read once the horizon passes it');
cmp_ok(time(), '>=', id_time($future), 'not before its time');

# as a replica (logical replication's apply) the guard does not fire, unless ENABLE ALWAYS
$node->safe_psql('postgres', q{
	CREATE TABLE rep (id uuid PRIMARY KEY);
	CREATE TRIGGER rep_guard BEFORE INSERT OR UPDATE ON rep FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
	SELECT uuidv7_horizon()});
my $rep = sub {
	my ($id) = @_;
	return $node->safe_psql('postgres', qq{SET session_replication_role = replica;
		SELECT try(\$q\$INSERT INTO rep VALUES ('$id')\$q\$)});
};
is($rep->(client_v7(time() - 3600)), 'ok', 'session_replication_role = replica: the guard does not fire');
$node->safe_psql('postgres', 'ALTER TABLE rep ENABLE ALWAYS TRIGGER rep_guard');
like($rep->(client_v7(time() - 3600)), qr/^40001 /, 'ENABLE ALWAYS TRIGGER: it fires there too');

# the arguments, and ids it cannot read
$node->safe_psql('postgres', q{CREATE TABLE args (id uuid, n int, ev uuid)});
like($node->safe_psql('postgres', q{SELECT try('CREATE TRIGGER g_n BEFORE INSERT OR UPDATE ON args
	FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard(''n'')')}), qr/^42804 /,
	'a column that is not of type uuid: 42804, from CREATE TRIGGER');
like($node->safe_psql('postgres', q{SELECT try('CREATE TRIGGER g_nope BEFORE INSERT OR UPDATE ON args
	FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard(''nope'')')}), qr/^42703 /,
	'a column that does not exist: 42703, from CREATE TRIGGER');
$node->safe_psql('postgres', q{
	CREATE TRIGGER g_ev BEFORE INSERT OR UPDATE ON args FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard('ev', '7')});
like($node->safe_psql('postgres', q{SELECT try('INSERT INTO args (ev) VALUES (gen_random_uuid())')}), qr/^22023 /,
	'an id of another version: 22023');
is($node->safe_psql('postgres', q{SELECT try('INSERT INTO args (n) VALUES (1)')}), 'ok', 'a NULL id: nothing to guard');
is($node->safe_psql('postgres', qq{SELECT try('INSERT INTO args (ev) VALUES (''@{[ client_v7() ]}'')')}), 'ok',
	'the named column, a fresh v7 id: accepted');
like($node->safe_psql('postgres', qq{SELECT try('UPDATE args SET ev = ''@{[ client_v7(time() - 3600) ]}''')}),
	qr/^40001 /, 'an UPDATE of the id to an old one: refused');
sleep(0.2);
$node->safe_psql('postgres', 'SELECT uuidv7_horizon()');
is($node->safe_psql('postgres', q{SELECT try('UPDATE args SET ev = ev, n = 2')}), 'ok',
	'an UPDATE that leaves the id as it is: nothing to guard, even though it is old by now');

# ---- the stress run

my $core = $node->safe_psql('postgres',
	q{SELECT count(*) FROM pg_proc WHERE proname = 'uuidv7' AND pronamespace = 'pg_catalog'::regnamespace});
note($core ? "core's uuidv7() is there: a third of the writers' transactions use it"
	  : "this server has no core uuidv7() ($major): client ids and COPY only");
$node->safe_psql('postgres', q{
CREATE TABLE data (id uuid PRIMARY KEY, w int NOT NULL, kind text NOT NULL);
CREATE UNLOGGED TABLE seen (reader text NOT NULL, seq bigint NOT NULL, id uuid NOT NULL);
CREATE TABLE stop_flag (at timestamptz NOT NULL);
-- one reader: polls every 20 ms, records what it read in seen (reader, the
-- order it read in, id), and stops 2 s after the stop flag is seen
} . read_loop_sql(
	declare => q{
stop_at timestamptz;
give_up timestamptz := clock_timestamp() + interval '150 s';},
	after => q{
stop_at := coalesce(stop_at, (SELECT max(at) FROM stop_flag));
EXIT WHEN clock_timestamp() > least(stop_at + interval '2 s', give_up);},
	readers => [
		'horizon' => 'SELECT id FROM pg_uuidx_read_after(NULL::data, $1, 500)',
		'id > last' => 'SELECT id FROM data WHERE $1 IS NULL OR id > $1 ORDER BY id LIMIT 500' ]));
$node->safe_psql('postgres', q{CREATE TRIGGER data_guard BEFORE INSERT OR UPDATE ON data
	FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard()}) unless $no_guard;

# The writer, a client of its own (one psql session driven statement by
# statement): a transaction's rows get ids made in the client (1-3 INSERTs,
# each id made 0-200 ms before its INSERT), COPY (2-5 ids made over up to
# 200 ms before it) or core's uuidv7() (now, or 40 ms back); it then
# commits, commits late (100-1200 ms), prepares and commits (or rolls back)
# later, or rolls back.  A refusal (40001) rolls the transaction back and
# retries it with fresh ids made at once.  Prints its counts, one line.
my $dir = PostgreSQL::Test::Utils::tempdir();
PostgreSQL::Test::Utils::append_to_file("$dir/writer.pl", <<'WRITER');
use strict;
use warnings;
use IPC::Run;
use Time::HiRes qw(time sleep);
my ($connstr, $seconds, $seed, $w, $core) = @ARGV;
srand($seed + $w);
my ($in, $out, $err) = ('', '', '');
my $psql = IPC::Run::start([ 'psql', '-XAtq', '-v', 'ON_ERROR_STOP=0', '-d', $connstr, '-f', '-' ],
	'<', \$in, '>', \$out, '2>', \$err, IPC::Run::timeout(300));
my $n = 0;
my %c = (committed => 0, rows => 0, refused => 0, retried => 0, gave_up => 0, unexpected => 0, prepared => 0, late => 0,
	rolled_back => 0);
my @errors;
# one statement (or COPY with its data); its SQLSTATE (psql's, which is
# 00000 after a COPY FROM STDIN that failed: see copy_state())
$in .= "\\set VERBOSITY verbose\n";
sub run
{
	my ($sql) = @_;
	$n++;
	$in .= "$sql\n\\echo __done $n :SQLSTATE\n";
	$psql->pump until $out =~ /__done $n (\w+)\n/;
	my $state = $1;
	print STDERR "[$state] $sql\n" if $ENV{PG_UUIDX_WRITER_TRACE};
	$out = '';
	push @errors, "$state: $sql" if $state ne '00000' && $state ne '40001' && $state ne '25P02';
	return $state;
}
# the state of a COPY just run: a statement after it fails (25P02) if it
# failed, and its error is in what psql wrote to stderr since the BEGIN
# (VERBOSITY verbose: "ERROR:  40001: ...")
sub copy_state
{
	my $probe = run('SELECT;');
	return $probe if $probe ne '25P02';
	my ($code) = $err =~ /ERROR:  ([0-9A-Z]{5}):/;
	push @errors, "COPY failed: $err" if !$code || $code ne '40001';
	return $code || 'XX000';
}
sub v7
{
	my ($at) = @_;
	my $ms = int($at * 1000);
	my $sub = int(($at * 1000 - $ms) * 4096) & 0xfff;
	return sprintf('%08x-%04x-7%03x-%04x-%04x%08x',
		$ms >> 16, $ms & 0xffff, $sub, 0x8000 | int(rand(0x4000)), int(rand(0x10000)), int(rand(2**32)));
}
sub pick
{
	my (@weighted) = @_;
	my $total = 0;
	$total += $weighted[ 2 * $_ + 1 ] for 0 .. $#weighted / 2;
	my $r = rand($total);
	while (my ($k, $wt) = splice(@weighted, 0, 2)) { return $k if ($r -= $wt) < 0; }
	die 'pick';
}
# the rows of one attempt; the SQLSTATE of the first that failed, or 00000,
# and how many rows were inserted
my $nrows;
sub rows
{
	my ($source, $retry) = @_;
	$nrows = 0;
	my $delay = sub { $retry ? 0 : rand(0.2) };
	if ($source eq 'client')
	{
		for (1 .. 1 + int(rand(3)))
		{
			my $id = v7(time());
			sleep($delay->());
			my $s = run("INSERT INTO data VALUES ('$id', $w, '" . ($retry ? 'client retried' : 'client') . "');");
			return $s if $s ne '00000';
			$nrows++;
		}
		return '00000';
	}
	if ($source eq 'copy')
	{
		my $span = $delay->();
		my @ids = map { v7(time() - $span * rand()) } 1 .. 2 + int(rand(4));
		sleep($span);
		$nrows = @ids;
		run("COPY data (id, w, kind) FROM STDIN;\n"
			  . join('', map { "$_\t$w\t" . ($retry ? "copy retried\n" : "copy\n") } @ids) . "\\.");
		return copy_state();
	}
	my $f = rand() < 0.5 || $retry ? 'pg_catalog.uuidv7()' : "pg_catalog.uuidv7(interval '-40 ms')";
	$nrows = 1;
	return run("INSERT INTO data VALUES ($f, $w, 'core');");
}
my $end = time() + $seconds;
my $g = 0;
while (time() < $end)
{
	my $source = pick(client => 55, copy => 20, core => $core ? 25 : 0);
	my $ending = pick(commit => 55, late => 25, twophase => 12, rollback => 8);
	my $attempt = 0;
	my $state;
	while (1)
	{
		$err = '';
		run('BEGIN;');
		$state = rows($source, $attempt > 0);
		last if $state ne '40001';
		run('ROLLBACK;');
		$c{refused}++;
		if (++$attempt > 10) { $c{gave_up}++; last; }
		$c{retried}++;
	}
	if ($state ne '00000')
	{
		$c{unexpected}++ if $state ne '40001';
		run('ROLLBACK;');
		next;
	}
	if ($ending eq 'rollback')
	{
		run('ROLLBACK;');
		$c{rolled_back}++;
		next;
	}
	if ($ending eq 'twophase')
	{
		$g++;
		$c{unexpected}++ if run("PREPARE TRANSACTION 'w${w}_$g';") ne '00000';
		$c{prepared}++;
		sleep(rand(0.5));
		if (rand() < 0.25)
		{
			$c{unexpected}++ if run("ROLLBACK PREPARED 'w${w}_$g';") ne '00000';
			$c{rolled_back}++;
			next;
		}
		$state = run("COMMIT PREPARED 'w${w}_$g';");
	}
	else
	{
		if ($ending eq 'late') { $c{late}++; sleep(0.1 + rand(1.1)); }
		$state = run('COMMIT;');
	}
	if ($state eq '00000') { $c{committed}++; $c{rows} += $nrows } else { $c{unexpected}++ }
}
$in .= "\\q\n";
$psql->finish;
print join(' ', map { "$_=$c{$_}" } sort keys %c), "\n";
print "error: $_\n" for @errors;
WRITER

my @readers;
for my $reader ('horizon', 'id > last')
{
	push @readers, IPC::Run::start([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-c', "CALL read_loop('$reader')",
		'-d', $node->connstr('postgres') ], '>', \my $o, '2>', \my $e);
}
my $nwriters = 6;
my (@writers, @wout);
for my $w (1 .. $nwriters)
{
	push @writers, IPC::Run::start([ $^X, (map { "-I$_" } @INC), "$dir/writer.pl",
		$node->connstr('postgres'), $seconds, $seed, $w, $core ],
		'>', \$wout[$w], '2>', "$PostgreSQL::Test::Utils::log_path/110_writer$w.log", IPC::Run::timeout($seconds + 120));
}
$_->finish for @writers;
$node->safe_psql('postgres', 'INSERT INTO stop_flag VALUES (now())');
$_->finish or diag('a reader failed') for @readers;

# the writers' counts
my %sum;
for my $w (1 .. $nwriters)
{
	note("writer $w: $wout[$w]");
	my ($counts) = split /\n/, $wout[$w] // '';
	$sum{$1} += $2 while ($counts // '') =~ /(\w+)=(\d+)/g;
}
note('writers: ' . join(' ', map { "$_=$sum{$_}" } sort keys %sum));
is($sum{unexpected} // -1, 0, 'the writers met no error but refusals (40001)')
  or diag(join '', grep { /^error:/ } map { split /^/, $_ // '' } @wout);
cmp_ok($sum{refused} // 0, '>', 0, "ids made 0-200 ms before their INSERT were refused: $sum{refused} times");
is($sum{gave_up} // -1, 0, "each refusal was retried with a fresh id until it was accepted ($sum{retried} retries)");
my $stats = $node->safe_psql('postgres', q{
	SELECT format('%s rows: %s', (SELECT count(*) FROM data),
	              (SELECT string_agg(format('%s %s', n, kind), ', ' ORDER BY kind)
	               FROM (SELECT kind, count(*) n FROM data GROUP BY kind) k))});
note("committed: $stats");
is($node->safe_psql('postgres', 'SELECT count(*) FROM data'), $sum{rows} // -1,
	"the table holds the rows the writers committed ($sum{committed} transactions)");
sql_ok($node, 'postgres', q{SELECT count(*) = 0, count(*) FROM pg_prepared_xacts}, 'no prepared transaction left');

read_once_ok($node, 'postgres', 'data', 'horizon', 'pg_uuidx_read_after()', more_than => 100);
my $missed = missed_count($node, 'postgres', 'data', 'id > last');
cmp_ok($missed, '>', 0, "the same loop with \"id > last\" misses rows: $missed of them");

$node->stop;
done_testing();
