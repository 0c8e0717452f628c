# pg_uuidx_horizon_guard() declared after the row (AFTER INSERT OR UPDATE
# FOR EACH ROW WHEN (NOT pg_uuidx_horizon_cover(...)), with its statement
# trigger), which leaves COPY its batches, holds the commit horizon of ids
# made before their COPY or INSERT, as the guard before the row does, so
# that pg_uuidx_read_after() reads them once, in id order.
#
# A reader polls pg_uuidx_read_after() (and "id > last" beside it) from the
# start, with pg_uuidx.horizon_allowance = 50ms.  First the cases: an id
# made an hour ago is refused by COPY (40001, the row guard's message); a
# COPY of ids made just before it that runs 300 ms, six times the
# allowance, is taken while the reader's horizon passes its ids, because the
# guard published the clock less the allowance when the COPY began.  Then
# the stress run: writers (procedures in the server) make ids, commit, wait
# 0-200 ms and COPY them (some COPYs 300 ms long) or INSERT them in one
# statement, then commit, commit late or roll back; each refusal is retried
# at once with fresh ids.  The reader must read every committed row exactly
# once, in id order; "id > last" must miss rows, or the run tested nothing.
#
# PG_UUIDX_TEST_NO_GUARD_START=1 runs on a build without the publication
# at the statement's start (-DPG_UUIDX_TEST_NO_GUARD_START): the long COPY
# is refused, and the writers give up on their long COPYs.
# PG_UUIDX_TEST_NO_GUARD=1 creates the table without the guard: the
# exactly-once checks fail.  PG_UUIDX_STRESS_SECONDS sets the length of the
# run (default 8).
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use File::Copy qw(copy);
use IPC::Run;
use PgUuidxBuilds;
use PgUuidxTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $seconds = $ENV{PG_UUIDX_STRESS_SECONDS} || 8;
my $no_start = $ENV{PG_UUIDX_TEST_NO_GUARD_START} ? 1 : 0;
my $no_guard = $ENV{PG_UUIDX_TEST_NO_GUARD} ? 1 : 0;
note('PG_UUIDX_TEST_NO_GUARD_START=1: no publication at the start; the long COPYs must be refused') if $no_start;
note('PG_UUIDX_TEST_NO_GUARD=1: the table has no guard, the exactly-once checks must fail') if $no_guard;

chomp(my $version = `pg_config --version`);
my ($major) = $version =~ /(\d+)/;
# before 17 the shared state needs the preloaded library
my @conf = ('max_connections = 40', "pg_uuidx.horizon_allowance = '50ms'",
	$major < 17 ? "shared_preload_libraries = 'pg_uuidx'" : ());
my $node;
if ($no_start)
{
	my $variant = variant_build('no-guard-start', '-DPG_UUIDX_TEST_NO_GUARD_START')
	  or plan skip_all => 'not a git checkout: the variant cannot be built';
	my $path = server_copy('c');
	copy("$variant/pg_uuidx.so", server_dir($path, 'pkglibdir') . '/pg_uuidx.so') or die "cannot copy the variant: $!";
	$node = node_on('guard_after', $path, @conf);
}
else
{
	$node = new_node('guard_after', conf => \@conf);
}

my $guard = $no_guard ? '' : q{
CREATE TRIGGER data_guard AFTER INSERT OR UPDATE ON data FOR EACH ROW
  WHEN (NOT pg_uuidx_horizon_cover(NEW.id)) EXECUTE FUNCTION pg_uuidx_horizon_guard();
CREATE TRIGGER data_guard_start BEFORE INSERT OR UPDATE ON data
  FOR EACH STATEMENT EXECUTE FUNCTION pg_uuidx_horizon_guard();
};
$node->safe_psql('postgres', q{
CREATE EXTENSION pg_uuidx;
-- a row of kind 'slow' takes 300 ms to store
CREATE FUNCTION slow_down() RETURNS boolean LANGUAGE sql AS 'SELECT pg_sleep(0.3) IS NOT NULL';
CREATE TABLE data (id uuid PRIMARY KEY, w int NOT NULL, kind text NOT NULL CHECK (kind <> 'slow' OR slow_down()));
CREATE UNLOGGED TABLE seen (reader text NOT NULL, seq bigint NOT NULL, id uuid NOT NULL);
CREATE TABLE stop_flag (at timestamptz NOT NULL);
-- COPY into data of ids, w and kinds (a program on the server prints them)
CREATE FUNCTION copy_data(ids uuid[], w int, kinds text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('COPY data (id, w, kind) FROM PROGRAM %L', format('printf ''%s''',
                   (SELECT string_agg(format('%s\t%s\t%s\n', i, w, k), '') FROM unnest(ids, kinds) AS u(i, k))));
END $$;
-- the reader: polls every 20 ms, records what it read in seen (reader, the
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
		'id > last' => 'SELECT id FROM data WHERE $1 IS NULL OR id > $1 ORDER BY id LIMIT 500' ]) . $guard);
create_try($node, 'postgres');

my @readers;
for my $reader ('horizon', 'id > last')
{
	push @readers, IPC::Run::start([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-c', "CALL read_loop('$reader')",
		'-d', $node->connstr('postgres') ], '>', \my $o, '2>', \my $e);
}
$node->poll_query_until('postgres', q{SELECT count(*) = 2 FROM pg_stat_activity WHERE query LIKE 'CALL read_loop%'});

# ---- one case at a time

SKIP:
{
	skip 'PG_UUIDX_TEST_NO_GUARD=1: no guard to refuse', 4 if $no_guard;
	my $refusal = $node->safe_psql('postgres', q{
		SELECT try(format($q$SELECT copy_data(ARRAY[uuidv7(), uuidv7(interval '-1 hour')], 0, '{case,case}')$q$))});
	like($refusal, qr/^40001 id [0-9a-f-]{36} was made at .*, below the commit horizon already handed out \(/,
		'a COPY with an id made an hour ago: refused with 40001, in the row guard\'s words');
	is($node->safe_psql('postgres', q{SELECT count(*) FROM data WHERE kind = 'case'}), '0',
		'and none of its rows is stored');

	# ids made just before a COPY that runs 300 ms, six times the allowance,
	# while the reader's horizon moves past them
	my $state = $node->safe_psql('postgres', q{
		SELECT uuidv7() AS a, uuidv7() AS b \gset
		SELECT try(format($q$SELECT copy_data(ARRAY[%L, %L]::uuid[], 0, '{slow,long}')$q$, :'a', :'b'))});
	is($state, 'ok', 'a COPY of ids made just before it, 300 ms long while a reader reads: taken'
		  . ' (the statement trigger published the clock less the allowance when it began)');
	sql_ok($node, 'postgres', q{
		SELECT (SELECT count(*) FROM data WHERE kind IN ('slow', 'long')) = 2
		       AND uuidv7_horizon() > (SELECT max(id) FROM data),
		       (SELECT count(*) FROM data WHERE kind IN ('slow', 'long')) || ' rows'},
		'both rows stored, and the horizon has passed them since');
}

# ---- the stress run

# One writer: ids made in a transaction of their own, 0-200 ms before the
# one that stores them (at once on a retry), by COPY (2-5 rows; one time in
# three with a row of kind 'slow', 300 ms) or by one INSERT; then a commit,
# a late commit (100-1100 ms) or a rollback.  A refusal (40001) rolls back
# and retries with fresh ids, ten times at most.  Its counts go to tally.
$node->safe_psql('postgres', q{
CREATE TABLE tally (w int, committed int, rows int, refused int, retried int, gave_up int);
CREATE PROCEDURE writer(w int, seconds float8) LANGUAGE plpgsql AS $$
DECLARE
    stop timestamptz := clock_timestamp() + seconds * interval '1 s';
    ids uuid[];
    kinds text[];
    how text;
    ending text;
    attempt int;
    taken boolean;
    c int := 0; r int := 0; refused int := 0; retried int := 0; gave_up int := 0;
BEGIN
    WHILE clock_timestamp() < stop LOOP
        how := (ARRAY['copy', 'slow copy', 'insert'])[1 + floor(random() * 3)::int];
        ending := (ARRAY['commit', 'commit', 'late', 'rollback'])[1 + floor(random() * 4)::int];
        attempt := 0;
        LOOP
            ids := ARRAY(SELECT uuidv7() FROM generate_series(1, 2 + floor(random() * 4)::int));
            kinds := array_fill('copy'::text, ARRAY[cardinality(ids)]);
            IF how = 'slow copy' THEN
                kinds[cardinality(kinds)] := 'slow';
            END IF;
            COMMIT;
            IF attempt = 0 THEN
                PERFORM pg_sleep(random() * 0.2);
            END IF;
            BEGIN
                IF how = 'insert' THEN
                    INSERT INTO data SELECT u, w, 'insert' FROM unnest(ids) u;
                ELSE
                    PERFORM copy_data(ids, w, kinds);
                END IF;
                taken := true;
            EXCEPTION WHEN serialization_failure THEN
                taken := false;
            END;
            EXIT WHEN taken;
            ROLLBACK;
            refused := refused + 1;
            attempt := attempt + 1;
            IF attempt > 10 THEN
                gave_up := gave_up + 1;
                EXIT;
            END IF;
            retried := retried + 1;
        END LOOP;
        IF NOT taken OR ending = 'rollback' THEN
            ROLLBACK;
            CONTINUE;
        END IF;
        IF ending = 'late' THEN
            PERFORM pg_sleep(0.1 + random());
        END IF;
        COMMIT;
        c := c + 1;
        r := r + cardinality(ids);
    END LOOP;
    INSERT INTO tally VALUES (w, c, r, refused, retried, gave_up);
END $$;
});
my $nwriters = 5;
my @writers;
for my $w (1 .. $nwriters)
{
	push @writers, IPC::Run::start([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-c', "CALL writer($w, $seconds)",
		'-d', $node->connstr('postgres') ], '>', \my $o, '2>', \my $e, IPC::Run::timeout($seconds + 120));
	push @writers, \$e;
}
my $writer_errors = '';
while (my $h = shift @writers)
{
	my $e = shift @writers;
	$h->finish or $writer_errors .= $$e;
}
$node->safe_psql('postgres', 'INSERT INTO stop_flag VALUES (now())');
$_->finish or diag('a reader failed') for @readers;

is($writer_errors, '', 'the writers met no error but refusals (40001)');
my %sum = split /\|/, $node->safe_psql('postgres', q{
	SELECT format('committed|%s|rows|%s|refused|%s|retried|%s|gave_up|%s', sum(committed), sum(rows), sum(refused),
	              sum(retried), sum(gave_up)) FROM tally});
note('writers: ' . join(' ', map { "$_=$sum{$_}" } sort keys %sum));
cmp_ok($sum{refused} // 0, '>', 0, "ids made 0-200 ms before their statement were refused: $sum{refused} times")
  unless $no_guard;
is($sum{gave_up} // -1, 0, "each refusal was retried with fresh ids until they were taken ($sum{retried} retries),"
	  . ' long COPYs included');
is($node->safe_psql('postgres', q{SELECT count(*) FROM data WHERE w > 0}), $sum{rows} // -1,
	"the table holds the rows the writers committed ($sum{committed} transactions)");
note('committed: ' . $node->safe_psql('postgres', q{
	SELECT string_agg(format('%s %s', n, kind), ', ' ORDER BY kind) FROM (SELECT kind, count(*) n FROM data GROUP BY kind) k}));

read_once_ok($node, 'postgres', 'data', 'horizon', 'pg_uuidx_read_after()', more_than => 50);
my $missed = missed_count($node, 'postgres', 'data', 'id > last');
cmp_ok($missed, '>', 0, "the same loop with \"id > last\" misses rows: $missed of them");

$node->stop;
done_testing();
