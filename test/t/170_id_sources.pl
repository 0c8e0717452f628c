# A reader never trusts where a table's ids came from: pg_uuidx_read_after()
# reads a table only when every row it stores passes a guard, and then no
# source of ids makes it miss a committed row.
#
# - Ids made by a source that publishes nothing, at the clock, while the
#   inserting statement runs: core's uuidv7() as the column default from
#   PostgreSQL 18 (the unqualified default of a table created as the docs
#   show), uuidv7_at(clock_timestamp()) before 18, which publishes nothing
#   either.  A table without a guard is refused (55000, the hint gives the
#   one call that adds it).  With pg_uuidx_add_guard() at its default
#   allowance (0): a transaction that inserts, stays open 3 s and commits
#   while another commits is read; under pgbench writers (transactions
#   open 0-150 ms) a reader on the primary and one on a streaming standby
#   (ticks from the built-in ticker every 50 ms) read every committed row
#   once, in order, and no server-made id is refused.
# - Ids a client made 300 ms before the statement: read with an allowance
#   of 1 s; refused (40001) with none.
# - pg_uuidx.horizon_allowance lowered by a reload while a writer's
#   statement runs: the writer's guard and the readers keep one value (the
#   one read when the server started); before, the writer let in an id
#   that a reader had already passed.
# - The allowance raised across a restart: an id below what a reader read
#   before the restart, within the new allowance, is refused, not let in
#   below the reader.
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

my $seconds = $ENV{PG_UUIDX_STRESS_SECONDS} || 6;
my $node = new_node('sources', conf => [ "shared_preload_libraries = 'pg_uuidx'", 'max_connections = 40',
	'track_commit_timestamp = on', 'wal_level = replica', 'max_wal_senders = 4', "pg_uuidx.tick_databases = 'postgres'", "pg_uuidx.tick_interval = '50ms'" ]);
my $major = int($node->safe_psql('postgres', 'SHOW server_version_num') / 10000);
# an id made at the clock by a source that publishes nothing
my $core_id = $major >= 18 ? 'pg_catalog.uuidv7()' : 'uuidv7_at(clock_timestamp())';
note("server-made ids from $core_id");
$node->safe_psql('postgres', qq{
CREATE EXTENSION pg_uuidx;
CREATE TABLE src (id uuid PRIMARY KEY DEFAULT $core_id, w int);
});
create_try($node, 'postgres');

# A reader of table $t on $n: poll() reads the next rows after its cursor
# and remembers each id in the order read, with the time it was read.
sub reader
{
	my ($n, $t) = @_;
	return { node => $n, table => $t, last => undef, ids => [], at => {} };
}

sub poll
{
	my ($r) = @_;
	my $after = defined $r->{last} ? "'$r->{last}'" : 'NULL';
	my @ids = grep { $_ ne '' } split /\n/, $r->{node}->safe_psql('postgres',
		"SELECT id FROM pg_uuidx_read_after(NULL::$r->{table}, $after, 10000)");
	my $now = time();
	for (@ids)
	{
		push @{ $r->{ids} }, $_;
		$r->{at}{$_} //= $now;
	}
	$r->{last} = $ids[-1] if @ids;
	return scalar @ids;
}

# Polls until the reader has read every row of its table (on the primary)
# or $wait seconds have passed; returns the rows missed, read twice, read
# out of order, as a string.
sub settle
{
	my ($r, $wait) = @_;
	my $until = time() + $wait;
	my %committed = map { $_ => 1 } split /\n/, $node->safe_psql('postgres', "SELECT id FROM $r->{table}");
	while (time() < $until)
	{
		poll($r);
		last if scalar(grep { exists $r->{at}{$_} } keys %committed) == scalar(keys %committed);
		sleep(0.05);
	}
	my %count;
	$count{$_}++ for @{ $r->{ids} };
	my $missed = grep { !exists $count{$_} } keys %committed;
	my $twice = grep { $count{$_} > 1 } keys %count;
	my $extra = grep { !$committed{$_} } keys %count;
	my $disorder = grep { $r->{ids}[$_] le $r->{ids}[ $_ - 1 ] } 1 .. $#{ $r->{ids} };
	return sprintf('%d committed, %d missed, %d twice, %d unknown, %d out of order',
		scalar(keys %committed), $missed, $twice, $extra, $disorder);
}

my $clean = qr/^\d+ committed, 0 missed, 0 twice, 0 unknown, 0 out of order$/;

# ---- a table without a guard: refused, with the call that guards it
my $refusal = $node->safe_psql('postgres', q{SELECT try('SELECT count(*) FROM pg_uuidx_read_after(NULL::src, NULL, 10)')});
like($refusal, qr/^55000 pg_uuidx_read_after\(\) cannot read table public\.src: column "id" has no guard/,
	'a table without a guard is refused (55000), whatever makes its ids');
like($refusal, qr/Add the guard: SELECT pg_uuidx_add_guard\('public\.src'\);/, 'the hint is the one call that adds it');
like($node->safe_psql('postgres', q{SELECT try($$SELECT count(*) FROM pg_uuidx_consume(NULL::src, 'relay', 10)$$)}),
	qr/^55000 pg_uuidx_consume\(\) cannot read table public\.src/, 'and so is it by a consumer');

# ---- guarded in one call: a late commit among quick ones is read
$node->safe_psql('postgres', q{SELECT pg_uuidx_add_guard('src')});
my $primary_reader = reader($node, 'src');
poll($primary_reader);
my $late = $node->background_psql('postgres');
$late->query_safe('BEGIN');
$late->query_safe('INSERT INTO src (w) VALUES (-1)');
my $until = time() + 3;
while (time() < $until)
{
	$node->safe_psql('postgres', 'INSERT INTO src (w) VALUES (-2)');
	poll($primary_reader);
	sleep(0.1);
}
$late->query_safe('COMMIT');
$late->quit;
like(settle($primary_reader, 5), $clean,
	'a transaction open 3 s while others commit, its id made by the server at its insert: read, once, in order');

# ---- writers at load, read on the primary and on a standby
$node->backup('b');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($node, 'b', has_streaming => 1);
$standby->start;
my $standby_reader = reader($standby, 'src');
$node->wait_for_catchup($standby);

my $script = "$PostgreSQL::Test::Utils::tmp_check/170_writer.sql";
open(my $fh, '>', $script) or die "$script: $!";
print $fh "\\set pause random(0, 150)\nBEGIN;\nINSERT INTO src (w) VALUES (:client_id);\n"
  . "SELECT pg_sleep(:pause / 1000.0);\nCOMMIT;\n";
close $fh;
my ($out, $err) = ('', '');
my $bench = IPC::Run::start([ 'pgbench', '-n', '-c', '4', '-T', $seconds, '-f', $script, '-d', $node->connstr('postgres') ],
	'>', \$out, '2>', \$err);
my $end = time() + $seconds + 1;
while (time() < $end)
{
	poll($primary_reader);
	poll($standby_reader);
	sleep(0.02);
}
$bench->finish;
like($out, qr/number of failed transactions: 0 /, 'pgbench ran, and no transaction failed');
unlike("$out$err", qr/aborted|ERROR/, 'no server-made id refused: no writer failed');
note($out =~ /(number of transactions actually processed: \d+)/ ? $1 : $out);
like(settle($primary_reader, 5), $clean, 'primary: every committed row read once, in id order');
$node->wait_for_catchup($standby);
like(settle($standby_reader, 5), $clean, 'standby: every committed row read once, in id order');

# lag from commit to read, in ms, for the rows of the load
my %commit = map { my ($id, $t) = split /\|/; ($id => $t) } split /\n/, $node->safe_psql('postgres',
	q{SELECT id, extract(epoch FROM pg_xact_commit_timestamp(xmin)) FROM src WHERE w >= 0});
for my $r ([ 'primary', $primary_reader ], [ 'standby', $standby_reader ])
{
	my @lag = sort { $a <=> $b } map { ($r->[1]{at}{$_} - $commit{$_}) * 1000 } grep { exists $r->[1]{at}{$_} } keys %commit;
	note(sprintf('%s reader: %d rows, lag median %.0f ms, p99 %.0f ms', $r->[0], scalar @lag,
		$lag[ int(@lag / 2) ] // -1, $lag[ int(@lag * 0.99) ] // -1)) if @lag;
}
$standby->stop;

# ---- ids a client made 300 ms before its statement
$node->safe_psql('postgres', q{
CREATE TABLE cli (id uuid PRIMARY KEY, w int);
SELECT pg_uuidx_add_guard('cli', allowance => '1s');
CREATE TABLE cli0 (id uuid PRIMARY KEY, w int);
SELECT pg_uuidx_add_guard('cli0');
});
my $cli_reader = reader($node, 'cli');
for my $i (1 .. 10)
{
	my $id = client_v7(time() - 0.3);
	poll($cli_reader);
	$node->safe_psql('postgres', "INSERT INTO cli VALUES ('$id', $i)");
}
like(settle($cli_reader, 5), $clean, 'client ids made 300 ms early, with an allowance of 1 s: read once, in order');
poll(reader($node, 'cli0'));
like($node->safe_psql('postgres', "SELECT try(\$\$INSERT INTO cli0 VALUES ('" . client_v7(time() - 0.3) . "', 1)\$\$)"),
	qr/^40001 .*allows ids made up to 0 ms before their insert/,
	'with the default allowance (0) such an id is refused (40001), naming the allowance');

# ---- the allowance lowered by a reload while a writer's statement runs
$node->safe_psql('postgres', q{
CREATE TABLE rl (id uuid PRIMARY KEY, what text);
CREATE TRIGGER zz_guard BEFORE INSERT OR UPDATE ON rl FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
INSERT INTO rl VALUES (uuidv7_at(clock_timestamp()), 'first');
});
my $rl_reader = reader($node, 'rl');
like(settle($rl_reader, 5), $clean, 'reload: the first row read');
# the writer makes its id, then its statement runs 0.7 s before the guard
# sees the id (0.7 s old: within 1 s, not within 100 ms)
my $writer = $node->background_psql('postgres');
$writer->query_until(qr/started/, q{
\echo started
WITH m AS MATERIALIZED (SELECT uuidv7_at(clock_timestamp()) AS id),
     s AS MATERIALIZED (SELECT pg_sleep(0.7) FROM m)
INSERT INTO rl SELECT m.id, 'late' FROM m, s;
});
sleep(0.1);
$node->safe_psql('postgres', q{ALTER SYSTEM SET pg_uuidx.horizon_allowance = '100ms'; SELECT pg_reload_conf()});
sleep(0.1);
$node->safe_psql('postgres', q{INSERT INTO rl VALUES (uuidv7_at(clock_timestamp()), 'marker')});
$until = time() + 0.4;
while (time() < $until)
{
	poll($rl_reader);
	sleep(0.03);
}
$writer->quit;
like(settle($rl_reader, 5), $clean,
	'reload: the row whose guard ran in a statement started before the reload is read, with the rows around it');
ok($node->log_contains('pg_uuidx.horizon_allowance is 100 ms in this process, but 1000 ms is in force until the server restarts'),
	'reload: the allowance in force stays what it was, and the server log says so');

# ---- the allowance raised across a restart
$node->safe_psql('postgres', q{ALTER SYSTEM SET pg_uuidx.horizon_allowance = '100ms'});
$node->restart;
# rs: the guard in one call, its argument (5 s) capped by the setting
$node->safe_psql('postgres', q{
CREATE TABLE rs (id uuid PRIMARY KEY, what text);
SELECT pg_uuidx_add_guard('rs', allowance => '5s');
});
my $rs_reader = reader($node, 'rs');
$node->safe_psql('postgres', q{INSERT INTO rl VALUES (uuidv7_at(clock_timestamp()), 'before restart');
	INSERT INTO rs VALUES (uuidv7_at(clock_timestamp()), 'before restart')});
like(settle($rl_reader, 5), $clean, 'restart: the row before it read at an allowance of 100 ms');
like(settle($rs_reader, 5), $clean, 'restart: and from the table guarded in one call, its 5 s capped to 100 ms');
my %below = (rl => client_v7(id_time($rl_reader->{last}) - 0.05), rs => client_v7(id_time($rs_reader->{last}) - 0.05));
$node->safe_psql('postgres', q{ALTER SYSTEM SET pg_uuidx.horizon_allowance = '5s'});
$node->restart;
for my $t ('rl', 'rs')
{
	my $sent = $node->safe_psql('postgres', "SELECT try(\$\$INSERT INTO $t VALUES ('$below{$t}', 'old id')\$\$)");
	like($sent, qr/^(40001 |ok)/, "restart, $t: an id below what the reader read, within the larger allowance: "
		  . ($sent =~ /^40001/ ? 'refused' : 'let in'));
}
like(settle($rl_reader, 5), $clean, 'restart: no committed row left below the reader of the guard before the row');
like(settle($rs_reader, 5), $clean, 'restart: nor below the reader of the guard after the row and its statement trigger');

done_testing();
