# The README's quick start and docs/outbox.md, run as a new user would run
# them, on a server set up only as the page says (no search_path of the
# tests: on 18 and later an unqualified uuidv7() is core's): the SQL blocks
# are taken from the pages themselves, in order.  The quick start's read
# returns its two rows; the outbox's primary reader, its consumer and its
# standby reader each read the row written as step 2 says, and the views of
# step 5 run on both, the standby's table lag below the setting's 1 s.
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
use Time::HiRes qw(usleep);

# the checkout: PG_UUIDX_REPO (test/run.sh sets it; the runner copies test/)
my $root = $ENV{PG_UUIDX_REPO} // "$FindBin::RealBin/../..";

# The fenced blocks of language $lang (or of no language) under the
# heading that starts with $heading in file $file, in order
sub blocks
{
	my ($file, $heading, $lang) = @_;
	my $text = slurp_file("$root/$file");
	my ($section) = $text =~ /^#+ \Q$heading\E[^\n]*\n(.*?)(?=^#+ |\z)/ms
	  or die "$file: no section \"$heading\"";
	my @blocks = $section =~ /^```\Q$lang\E\n(.*?)^```/msg;
	die "$file: no $lang block under \"$heading\"" unless @blocks;
	return @blocks;
}

# psql -f of $sql in $db on $node with psql variables %vars, stopping at the
# first error; returns the output
sub run_block
{
	my ($node, $db, $sql, %vars) = @_;
	my ($rc, $out, $err) = $node->psql($db, $sql,
		extra_params => [ '-v', 'ON_ERROR_STOP=1', map { ('-v', "$_=$vars{$_}") } sort keys %vars ]);
	is($rc, 0, "runs as written: " . (split /\n/, $sql)[0]) or diag($err);
	return $out;
}

# step 1: postgresql.conf as the page gives it, on a primary that streams
my ($conf) = blocks('docs/outbox.md', '1. Install and preload', '');
my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
$primary->append_conf('postgresql.conf', $conf);
start_with_env($primary);
$primary->safe_psql('postgres', 'CREATE DATABASE app');

# the README's quick start, with the table of v1 ids it says is "yours"
my ($quick) = blocks('README.md', 'Quick start', 'sql');
$primary->safe_psql('app', q{
CREATE TABLE events (id uuid PRIMARY KEY);
INSERT INTO events VALUES ('c232ab00-9414-11ec-b3c8-9f6bdeced846');
});
my $out = run_block($primary, 'app', $quick);
my @read = grep { /\|(apple|pear)$/ } split /\n/, $out;
is(scalar(@read), 2, 'the quick start reads its two rows in order')
  or diag($out);
$primary->safe_psql('app', 'DROP TABLE orders, events; DROP EXTENSION pg_uuidx');

# step 2: the extension, the table, one write as the text gives it, the guard
my @step2 = blocks('docs/outbox.md', '2. The extension and the table', 'sql');
run_block($primary, 'app', $step2[0]);
my ($insert) = slurp_file("$root/docs/outbox.md") =~ /Writers insert with the default: `([^`]+)`/
  or die 'docs/outbox.md: no insert in step 2';
run_block($primary, 'app', $step2[1]);
run_block($primary, 'app', $insert);
my $id = $primary->safe_psql('app', 'SELECT id FROM outbox');

$primary->backup('b');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'b', has_streaming => 1);
start_with_env($standby);

# step 3: the reader on the primary, from before every id, and the consumer
my @step3 = blocks('docs/outbox.md', '3. A reader on the primary', 'sql');
my $first = '00000000-0000-0000-0000-000000000000';
like(run_block($primary, 'app', $step3[0], last => $first), qr/^\Q$id\E\|order\.paid\|/m,
	'the primary reader reads the row');
like(run_block($primary, 'app', $step3[1], last_handled_id => $id), qr/^\Q$id\E\|order\.paid\|/m,
	'the consumer reads it and acknowledges it');
$out = $primary->safe_psql('app', q{SELECT count(*) FROM pg_uuidx_consume(NULL::outbox, 'relay', 1000)});
is($out, '0', 'the acknowledged row is not delivered again');

# step 4: the same query on the standby reads the row once a tick has come
my ($step4) = blocks('docs/outbox.md', '4. A reader on a standby', 'sql');
$primary->wait_for_catchup($standby);
my $seen = 0;
for (1 .. 300)
{
	my ($rc, $got) = $standby->psql('app', $step4, extra_params => [ '-v', "last=$first" ]);
	if ($rc == 0 && $got =~ /^\Q$id\E\|/m)
	{
		$seen = 1;
		last;
	}
	usleep(100_000);
}
ok($seen, 'the standby reader reads the row after a tick');

# step 5: the views on both; on the standby the table's own lag
my ($step5) = blocks('docs/outbox.md', '5. Watch it', 'sql');
run_block($_, 'app', $step5) for $primary, $standby;
sql_ok($standby, 'app', q{
	SELECT horizon_lag < interval '1 s', row_to_json(t)::text FROM pg_uuidx_table_stats t WHERE relid = 'outbox'::regclass},
	'on the standby the table lags less than the setting\'s allowance');

$standby->stop;
$primary->stop;
done_testing();
