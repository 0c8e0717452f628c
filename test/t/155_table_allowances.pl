# Each table read with the allowance of its own guards
# (docs/reading-in-order.md, "The allowance"): a table is read only when
# every row of it passes a guard (55000 without one), and then with its
# guards' allowance (the third argument, at most pg_uuidx.horizon_allowance,
# 1 s here; pg_uuidx_add_guard()'s default, 0, allows nothing).  Checked:
# the setting is the server's and is read at the start (no session sets it,
# a reload does not change it); how far each table's reads trail its
# commits (none, 200 ms, 1 s; a view over two tables, the greater); an open
# transaction holding a guarded id holds the readers of every table, the
# one whose guard allows nothing too; a reader of the table that allows
# 200 ms does not make the guard that allows 1 s refuse an id made 700 ms
# before its insert; every row read once under writers of all three tables
# (client ids made up to 800 ms and 150 ms early, transactions up to 1 s);
# on a standby, each table read up to the tick's horizon at its allowance
# (from exact_horizon and horizon_floor: the table that allows nothing up
# to exact_horizon, the one that allows 200 ms up to the floor less 200 ms,
# the one that allows 1 s up to horizon); on a logical subscriber, every
# table up to the tick's horizon.
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

my $primary = new_node('primary', conf => [ "shared_preload_libraries = 'pg_uuidx'",
	'max_connections = 40', 'wal_level = logical', 'max_wal_senders = 6', 'max_replication_slots = 6' ]);
$primary->safe_psql('postgres', q{
CREATE EXTENSION pg_uuidx;
CREATE TABLE made (id uuid PRIMARY KEY DEFAULT uuidv7(), w int, kind text);
SELECT pg_uuidx_add_guard('made');
CREATE TABLE bare (id uuid PRIMARY KEY DEFAULT uuidv7());
CREATE TABLE client (id uuid PRIMARY KEY, w int, kind text);
CREATE TRIGGER guard BEFORE INSERT OR UPDATE ON client FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
CREATE TABLE quick (id uuid PRIMARY KEY, w int, kind text);
CREATE TRIGGER guard BEFORE INSERT OR UPDATE ON quick
    FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard('id', '7', '200ms');
CREATE VIEW made_and_client AS SELECT id FROM made UNION ALL SELECT id FROM client;
-- the ids a reader of t returns now, after after_id
CREATE FUNCTION read_now(t regclass, after_id uuid DEFAULT NULL) RETURNS SETOF uuid LANGUAGE plpgsql AS $$
BEGIN
    CASE t
    WHEN 'made'::regclass THEN RETURN QUERY SELECT id FROM pg_uuidx_read_after(NULL::made, after_id, 1000);
    WHEN 'client'::regclass THEN RETURN QUERY SELECT id FROM pg_uuidx_read_after(NULL::client, after_id, 1000);
    WHEN 'quick'::regclass THEN RETURN QUERY SELECT id FROM pg_uuidx_read_after(NULL::quick, after_id, 1000);
    ELSE RETURN QUERY SELECT id FROM pg_uuidx_read_after(NULL::made_and_client, after_id, 1000);
    END CASE;
END $$;
});
create_try($primary, 'postgres');

# the setting is the server's, in force from its start: a guard's readers
# in other sessions must read with the allowance that it lets ids in with,
# also while its statement runs (the rest of this test runs with 1 s again)
is($primary->safe_psql('postgres', q{SELECT context FROM pg_settings WHERE name = 'pg_uuidx.horizon_allowance'}),
	'sighup', 'pg_uuidx.horizon_allowance is set for the server (sighup)');
like($primary->safe_psql('postgres', q{SELECT try('SET pg_uuidx.horizon_allowance = 0')}),
	qr/^55P02/, 'a session cannot set it, not even a superuser\'s (55P02)');
$primary->safe_psql('postgres', 'SELECT uuidv7_horizon()');
$primary->safe_psql('postgres', q{ALTER SYSTEM SET pg_uuidx.horizon_allowance = '5s'});
$primary->reload;
ok($primary->poll_query_until('postgres', q{SELECT current_setting('pg_uuidx.horizon_allowance') = '5s'}),
	'ALTER SYSTEM and a reload: SHOW reports the new value');
$primary->safe_psql('postgres', 'SELECT uuidv7_horizon()');
ok($primary->log_contains('pg_uuidx.horizon_allowance is 5000 ms in this process, but 1000 ms is in force until the server restarts'),
	'... but the value in force is still 1 s, and the server log says so');
$primary->restart;
my $log_at = -s $primary->logfile;
$primary->safe_psql('postgres', 'SELECT uuidv7_horizon()');
ok(!$primary->log_contains('is in force until the server restarts', $log_at), 'a restart puts 5 s in force');
$primary->safe_psql('postgres', q{ALTER SYSTEM RESET pg_uuidx.horizon_allowance});
$primary->restart;

# How far the reads trail the commits: a row committed a moment ago
sub fresh_row
{
	my ($table) = @_;
	return $primary->safe_psql('postgres', $table eq 'made'
		? q{INSERT INTO made (kind) VALUES ('fresh') RETURNING id}
		: qq{INSERT INTO $table VALUES (uuidv7(), 0, 'fresh') RETURNING id});
}

sub read_has
{
	my ($table, $id) = @_;
	return $primary->safe_psql('postgres', qq{SELECT '$id' IN (SELECT read_now('$table'))}) eq 't';
}

like($primary->safe_psql('postgres', q{SELECT try('SELECT pg_uuidx_read_after(NULL::bare, NULL, 1)')}),
	qr/^55000 pg_uuidx_read_after\(\) cannot read table public\.bare: column "id" has no guard/,
	'a table without a guard is not read (55000)');
my $made_id = fresh_row('made');
ok(read_has('made', $made_id), 'the table whose guard allows nothing: its committed row is read at once');
my $client_id = fresh_row('client');
my $quick_id = fresh_row('quick');
ok(!read_has('client', $client_id), 'the table whose guard allows 1 s: not at once');
ok(!read_has('quick', $quick_id), 'the table whose guard allows 200 ms: not at once');
ok(!read_has('made_and_client', fresh_row('made')),
	'a view over a table whose guard allows nothing and one that allows 1 s: read with 1 s');
sleep(0.3);
ok(read_has('quick', $quick_id), 'the table that allows 200 ms: 300 ms later');
ok(!read_has('client', $client_id), 'the table that allows 1 s: not 300 ms later');
sleep(0.9);
ok(read_has('client', $client_id), 'the table that allows 1 s: 1.2 s later');

# An open transaction with a guarded id made 500 ms before its insert (in a
# transaction of its own, as a client makes it) holds the readers of every
# table at that id: every table read is guarded, so each reader counts the
# ids every guard has published, whatever table they go to
my $held = $primary->safe_psql('postgres', q{SELECT uuidv7(interval '-500 ms')});
my $open = psql_session($primary);
session_query($open, 'BEGIN');
session_query($open, qq{INSERT INTO client VALUES ('$held', 0, 'held')});
sleep(1.5);
$made_id = fresh_row('made');
$client_id = fresh_row('client');
sleep(1.1);
ok(!read_has('made', $made_id),
	'a transaction open with a guarded id: the table whose guard allows nothing is held too, 1.1 s after a later row committed');
ok(!read_has('client', $client_id), 'and the table of that id is held below it');
sql_ok($primary, 'postgres', qq{
	SELECT count(*) = 1 AND min(holds_since) <= uuid_extract_timestamp_us('$held'), json_agg(h)::text
	FROM pg_uuidx_horizon_holders() h},
	'pg_uuidx_horizon_holders() names it, at or below its id');
session_query($open, 'COMMIT');
$open->{in} .= "\\q\n";
$open->{run}->finish;
sleep(1.1);
ok(read_has('client', $held) && read_has('client', $client_id) && read_has('made', $made_id),
	'once it committed, the rows of both tables are read');

# Another table's reader with a smaller allowance does not make a guard
# refuse an id within its own
is($primary->safe_psql('postgres', q{
	SELECT count(*) >= 0 FROM read_now('quick');
	SELECT try($$INSERT INTO client VALUES (uuidv7(interval '-700 ms'), 0, 'early')$$)}),
	"t\nok", 'after a read of the table that allows 200 ms, the guard that allows 1 s takes an id made 700 ms early');
like($primary->safe_psql('postgres', q{
	SELECT count(*) >= 0 FROM read_now('made');
	SELECT try($$INSERT INTO quick VALUES (uuidv7(interval '-700 ms'), 0, 'early')$$)}),
	qr/^t\n40001 .*Trigger "guard" allows ids made up to 200 ms before their insert/,
	'and the guard that allows 200 ms refuses it (40001), naming its allowance');

# Every row read once: writers of all three tables, readers of each
$primary->safe_psql('postgres', q{
CREATE TABLE seen (reader text, seq bigint, id uuid);
CREATE TABLE stop_reading (stop boolean);
} . read_loop_sql(
	readers => [
		made => 'SELECT id FROM pg_uuidx_read_after(NULL::made, $1, 50)',
		client => 'SELECT id FROM pg_uuidx_read_after(NULL::client, $1, 50)',
		quick => 'SELECT id FROM pg_uuidx_read_after(NULL::quick, $1, 50)' ],
	declare => 'rounds_after_stop int := 0;',
	after => q{
IF EXISTS (SELECT FROM stop_reading) THEN
    rounds_after_stop := rounds_after_stop + 1;
END IF;
EXIT WHEN rounds_after_stop > 100;}));

my %scripts = (
	made => q{
\set s random(0, 1000)
BEGIN;
INSERT INTO made (w, kind) VALUES (:client_id, 'late');
\sleep :s ms
COMMIT;
},
	client => q{
\set e random(0, 800)
\set s random(0, 1000)
BEGIN;
INSERT INTO client VALUES (uuidv7_at(clock_timestamp() - :e * interval '1 ms'), :client_id, 'early');
\sleep :s ms
COMMIT;
},
	quick => q{
\set e random(0, 150)
\set s random(0, 300)
BEGIN;
INSERT INTO quick VALUES (uuidv7_at(clock_timestamp() - :e * interval '1 ms'), :client_id, 'early');
\sleep :s ms
COMMIT;
});
my @readers = map { $primary->background_psql('postgres') } 1 .. 3;
$readers[$_]->query_until(qr/started/, "\\echo started\nCALL read_loop('" . (qw(made client quick))[$_] . "');\n")
  for 0 .. 2;
my $dir = PostgreSQL::Test::Utils::tempdir;
my @pgbench;
for my $t (sort keys %scripts)
{
	PostgreSQL::Test::Utils::append_to_file("$dir/$t.sql", $scripts{$t});
	push @pgbench, IPC::Run::start([ 'pgbench', '-n', '-c', '3', '-T', '6', '-f', "$dir/$t.sql", $primary->connstr('postgres') ],
		'>', \my $out, '2>', \my $err);
}
$_->finish for @pgbench;
$primary->safe_psql('postgres', 'INSERT INTO stop_reading VALUES (true)');
$_->quit for @readers;
for my $t (qw(made client quick))
{
	read_once_ok($primary, 'postgres', $t, $t, "writers of three tables, reader of $t", more_than => 20);
}
sql_ok($primary, 'postgres', q{
	SELECT refusals = 1, refusals || ' refusals' FROM pg_uuidx_stats},
	'no id within its table\'s allowance was refused (the one refusal is the 700 ms id above)');

# On a standby, each table is read up to the tick's horizon at its guards'
# allowance: a row of the table that allows nothing committed right before
# the tick (up to exact_horizon), one of the table that allows 200 ms
# committed 300 ms before it but not one committed right before it (up to
# horizon_floor less 200 ms), not one of the table that allows 1 s
# committed right before it (up to horizon)
$primary->backup('b');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'b', has_streaming => 1);
start_with_env($standby);
$quick_id = fresh_row('quick');
sleep(0.3);
$made_id = fresh_row('made');
$client_id = fresh_row('client');
my ($quick_late) = split /\n/, $primary->safe_psql('postgres',
	q{INSERT INTO quick VALUES (uuidv7(), 0, 'fresh') RETURNING id; SELECT pg_uuidx_tick()});
sql_ok($primary, 'postgres', q{
	SELECT exact_horizon - horizon BETWEEN interval '900 ms' AND interval '5 s' AND horizon_floor >= exact_horizon,
	       row_to_json(t)::text
	FROM pg_uuidx_last_tick t},
	'a tick records the horizon at no allowance (exact_horizon), about 1 s above that of uuidv7_horizon(), '
	  . 'and the floor it started from');
$primary->wait_for_catchup($standby);
is($standby->safe_psql('postgres', qq{SELECT '$made_id' IN (SELECT read_now('made')),
	'$quick_id' IN (SELECT read_now('quick')), '$quick_late' IN (SELECT read_now('quick')),
	'$client_id' IN (SELECT read_now('client'))}),
	't|t|f|f', 'on the standby, up to the tick: the row of the table that allows nothing, the one of the table '
	  . 'that allows 200 ms committed 300 ms before the tick, not the one committed right before it, '
	  . 'nor the one of the table that allows 1 s');

# On a logical subscriber, whose tables do not carry the publisher's
# guards (they need guards of their own to be read at all, which the
# apply does not fire), every table is read up to the tick's horizon
$primary->safe_psql('postgres', 'CREATE PUBLICATION p FOR TABLE made, client, pg_uuidx_last_tick');
my $subscriber = new_node('subscriber', conf => [ "shared_preload_libraries = 'pg_uuidx'" ]);
$subscriber->safe_psql('postgres', q{
CREATE EXTENSION pg_uuidx;
CREATE TABLE made (id uuid PRIMARY KEY DEFAULT uuidv7(), w int, kind text);
SELECT pg_uuidx_add_guard('made');
CREATE TABLE client (id uuid PRIMARY KEY, w int, kind text);
SELECT pg_uuidx_add_guard('client');});
$subscriber->safe_psql('postgres', "CREATE SUBSCRIPTION s CONNECTION '" . ($primary->connstr('postgres') =~ s/'/''/gr) . "' PUBLICATION p");
$subscriber->wait_for_subscription_sync($primary, 's');
$made_id = fresh_row('made');
$primary->safe_psql('postgres', 'SELECT pg_uuidx_tick()');
$primary->wait_for_catchup('s');
is($subscriber->safe_psql('postgres', qq{
	SELECT '$made_id' IN (SELECT id FROM pg_uuidx_read_after(NULL::made, NULL, 1000)),
	       (SELECT horizon FROM pg_uuidx_last_tick) < uuid_extract_timestamp('$made_id')}),
	'f|t', 'on a subscriber: the table whose guard allows nothing is read up to the tick\'s horizon, not exact_horizon');

done_testing();
