# Readers on a logical subscriber: which relations count as subscribed, and
# which subscriptions must carry the ticks.
#
# A partition of a table subscribed through its root
# (publish_via_partition_root): the subscription names the root, and its
# rows are routed down into the partitions.  pg_uuidx_read_after() on a
# partition (a partitioned partition, and a leaf two levels down) must read
# up to the publisher's tick, as on the root: with the subscriber's own live
# horizon it reads past a row that a transaction still open on the
# publisher made first, and misses that row when it commits.  Played out:
# an open transaction on the publisher holds an id, a later row commits,
# a tick, then the readers on the subscriber; the open transaction
# commits, a tick, the readers again: each must have read every row of its
# partition.
#
# The tick covers the rows only when the subscription that writes them also
# writes pg_uuidx_last_tick, and no other subscription does: each applies
# at its own pace.  Refused (55000), naming the subscriptions: the data in
# one subscription and the ticks in another; the ticks in none; the ticks
# in two, one with the data.  from_tick => false still reads (the caller's
# choice).  Each case in a database of its own on the subscriber.
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
use Time::HiRes qw(sleep);

chomp(my $version = `pg_config --version`);
my ($major) = $version =~ /(\d+)/;
# before 17 the shared state needs the preloaded library
my @preload = $major < 17 ? ("shared_preload_libraries = 'pg_uuidx'") : ();
my @conf = ('pg_uuidx.horizon_allowance = 0', 'max_replication_slots = 20', 'max_logical_replication_workers = 12',
	'max_worker_processes = 24', @preload);
my $publisher = new_node('publisher', conf => [ @conf, 'wal_level = logical', 'max_wal_senders = 20' ]);
my $subscriber = new_node('subscriber', conf => \@conf);
my $connstr = $publisher->connstr('postgres') =~ s/'/''/gr;

my $tables = q{
CREATE EXTENSION pg_uuidx;
CREATE FUNCTION try(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN EXECUTE q; RETURN 'ok'; EXCEPTION WHEN OTHERS THEN RETURN SQLSTATE || ' ' || SQLERRM; END $$;
-- a partition that is partitioned itself, and a leaf two levels down
CREATE TABLE parted (tenant int NOT NULL, id uuid NOT NULL DEFAULT uuidv7(), PRIMARY KEY (tenant, id))
    PARTITION BY LIST (tenant);
CREATE TABLE parted_1 PARTITION OF parted FOR VALUES IN (1) PARTITION BY HASH (id);
CREATE TABLE parted_1_0 PARTITION OF parted_1 FOR VALUES WITH (MODULUS 1, REMAINDER 0);
CREATE TABLE parted_2 PARTITION OF parted FOR VALUES IN (2);
CREATE TABLE split (id uuid PRIMARY KEY DEFAULT uuidv7());
CREATE TABLE unticked (id uuid PRIMARY KEY DEFAULT uuidv7());
CREATE TABLE twice (id uuid PRIMARY KEY DEFAULT uuidv7());
-- readers read only guarded tables; on the subscriber the apply does not
-- fire the guards (it is read up to the publisher's tick)
SELECT pg_uuidx_add_guard(t) FROM unnest('{parted,split,unticked,twice}'::regclass[]) t;
};
$publisher->safe_psql('postgres', $tables . q{
CREATE PUBLICATION p FOR TABLE parted, pg_uuidx_last_tick WITH (publish_via_partition_root = true);
CREATE PUBLICATION p_split FOR TABLE split;
CREATE PUBLICATION p_ticks FOR TABLE pg_uuidx_last_tick;
CREATE PUBLICATION p_unticked FOR TABLE unticked;
CREATE PUBLICATION p_twice FOR TABLE twice, pg_uuidx_last_tick;
INSERT INTO split DEFAULT VALUES;
INSERT INTO unticked DEFAULT VALUES;
INSERT INTO twice DEFAULT VALUES;
SELECT pg_uuidx_tick();
});

# database postgres: the partitioned table and the ticks in one subscription
$subscriber->safe_psql('postgres', $tables);
$subscriber->safe_psql('postgres', "CREATE SUBSCRIPTION s CONNECTION '$connstr' PUBLICATION p");
$subscriber->wait_for_subscription_sync($publisher, 's');

# ---- a partition of a table subscribed through its root

my @readers = ('parted', 'parted_1', 'parted_1_0');
my %last;
my %read;

# each reader reads on from its last id, up to 100 rows
sub read_partitions
{
	for my $r (@readers)
	{
		my $after = defined $last{$r} ? "'$last{$r}'" : 'NULL';
		my @ids = split /\n/, $subscriber->safe_psql('postgres',
			"SELECT id FROM pg_uuidx_read_after(NULL::$r, $after, 100) WHERE tenant = 1");
		push @{ $read{$r} }, @ids;
		$last{$r} = $ids[-1] if @ids;
	}
	return;
}

my $open = $publisher->background_psql('postgres');
$open->query_safe('BEGIN');
my $held = $open->query_safe('INSERT INTO parted (tenant) VALUES (1) RETURNING id');
my $later = $publisher->safe_psql('postgres', 'INSERT INTO parted (tenant) VALUES (1) RETURNING id');
my $tick = $publisher->safe_psql('postgres', 'SELECT pg_uuidx_tick()');
$publisher->wait_for_catchup('s');
# the subscriber's own horizon has passed the later row
$subscriber->poll_query_until('postgres', "SELECT uuidv7_horizon() > '$later'")
  or die 'the subscriber\'s horizon did not pass the row';
is($subscriber->safe_psql('postgres', "SELECT count(*) FROM parted WHERE id = '$later'"), '1',
	'the later row has reached the subscriber, the held one is still open on the publisher');
read_partitions();
for my $r (@readers)
{
	is(join(',', grep { $_ ge $held } @{ $read{$r} }), '',
		"$r: nothing read at or above the id an open transaction of the publisher holds (the tick is below it)");
}

$open->query_safe('COMMIT');
$open->quit;
$publisher->safe_psql('postgres', 'SELECT pg_uuidx_tick()');
$publisher->wait_for_catchup('s');
read_partitions();
my $all = $subscriber->safe_psql('postgres', 'SELECT string_agg(id::text, \',\' ORDER BY id) FROM parted_1');
for my $r (@readers)
{
	is(join(',', @{ $read{$r} }), $all, "$r: every row read once, in id order, the held one too");
}

# ---- which subscriptions carry the ticks

# database $db on the subscriber with the tables and subscriptions
# name => [publication, options]
sub subscribed_db
{
	my ($db, %subs) = @_;
	$subscriber->safe_psql('postgres', "CREATE DATABASE $db");
	$subscriber->safe_psql($db, $tables);
	for my $s (sort keys %subs)
	{
		my ($pub, $with) = @{ $subs{$s} };
		$subscriber->safe_psql($db, "CREATE SUBSCRIPTION $s CONNECTION '$connstr' PUBLICATION $pub"
			  . ($with ? " WITH ($with)" : ''));
	}
	$subscriber->wait_for_subscription_sync($publisher, $_) for sort keys %subs;
	return;
}

sub read_in
{
	my ($db, $table, $more) = @_;
	return $subscriber->safe_psql($db,
		"SELECT try('SELECT count(*) FROM pg_uuidx_read_after(NULL::$table, NULL, 10$more)')");
}

subscribed_db('split_db', split_data => ['p_split'], split_ticks => ['p_ticks']);
like(read_in('split_db', 'split', ''),
	qr/^55000 pg_uuidx_read_after\(\) cannot read public.split up to a tick: subscription "split_data" writes its rows but not pg_uuidx_last_tick$/,
	'the data and the ticks in two subscriptions: refused (55000), naming the one without the ticks');
is(read_in('split_db', 'split', ', from_tick => false'), 'ok', 'from_tick => false still reads');

subscribed_db('unticked_db', unticked_data => ['p_unticked']);
like(read_in('unticked_db', 'unticked', ''),
	qr/^55000 .* subscription "unticked_data" writes its rows but not pg_uuidx_last_tick$/,
	'no subscription carries the ticks: refused (55000)');

subscribed_db('twice_db', twice_all => ['p_twice'], twice_ticks => [ 'p_ticks', 'copy_data = false' ]);
like(read_in('twice_db', 'twice', ''),
	qr/^55000 .* subscriptions "twice_all" and "twice_ticks" both write pg_uuidx_last_tick$/,
	'the ticks in two subscriptions, one with the data: refused (55000), naming both');

# the detail and hint of a refusal
my ($rc, $out, $err) = $subscriber->psql('split_db', 'SELECT pg_uuidx_read_after(NULL::split, NULL, 10)');
like($err, qr/DETAIL:  The ticks come from subscription "split_ticks"\./, 'the detail names the subscription of the ticks');
like($err, qr/HINT:  Add pg_uuidx_last_tick to a publication of subscription "split_data"/,
	'the hint says where the ticks belong');

done_testing();
