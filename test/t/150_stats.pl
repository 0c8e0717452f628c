# The view pg_uuidx_stats against states whose figures are known: a fresh
# server (no refusal, no holder, no tick; the horizon at the floor, then the
# clock less the allowance), an open transaction that made an id (one holder, the horizon
# held at its id), two ids the guard refused (refusals 2, though their
# transactions rolled back), a tick (its horizon and age), the same view on a
# standby (the tick's horizon; no floor, refusals or holders there), and a
# database of its own (its own counters).
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

my $primary = new_node('primary', conf => [ "shared_preload_libraries = 'pg_uuidx'",
	"pg_uuidx.horizon_allowance = '200ms'", 'wal_level = replica', 'max_wal_senders = 4' ]);
$primary->safe_psql('postgres', q{
CREATE EXTENSION pg_uuidx;
CREATE TABLE guarded (id uuid PRIMARY KEY);
CREATE TRIGGER guard BEFORE INSERT OR UPDATE ON guarded FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
CREATE TABLE plain (id uuid PRIMARY KEY DEFAULT uuidv7());
});
create_try($primary, 'postgres');

sql_ok($primary, 'postgres', q{
	SELECT database = current_database() AND refusals = 0 AND holders = 0 AND tick_horizon IS NULL
	       AND ticked_at IS NULL AND tick_age IS NULL AND horizon <= floor,
	       row_to_json(s)::text
	FROM pg_uuidx_stats s},
	'fresh: no refusal, no holder, no tick; the horizon at or below the floor');
# the state's first use made the floor at the clock (the epoch): the horizon
# stays there until the clock less the allowance passes it
sleep(1);
sql_ok($primary, 'postgres', q{
	SELECT horizon_lag BETWEEN interval '200 ms' AND interval '1 s', row_to_json(s)::text FROM pg_uuidx_stats s},
	'a second later: the horizon trails the clock by the allowance');

my $open = $primary->background_psql('postgres');
$open->query_safe('BEGIN');
my $id = $open->query_safe('INSERT INTO plain DEFAULT VALUES RETURNING id');
sleep(1);
sql_ok($primary, 'postgres', qq{
	SELECT holders = 1 AND horizon <= uuid_extract_timestamp_us('$id') AND horizon_lag >= interval '1 s',
	       row_to_json(s)::text
	FROM pg_uuidx_stats s},
	'an open transaction that made an id 1 s ago: one holder, the horizon at or below its id, a lag of 1 s or more');
$open->query_safe('COMMIT');
$open->quit;
sql_ok($primary, 'postgres', q{SELECT holders = 0, row_to_json(s)::text FROM pg_uuidx_stats s},
	'once it has committed: no holder');

# ids made 10 s ago: below the horizon already handed out
for (1 .. 2)
{
	like($primary->safe_psql('postgres',
		q{SELECT try($$INSERT INTO guarded VALUES (uuidv7_at(clock_timestamp() - interval '10 s'))$$)}),
		qr/^40001 /, "an id made 10 s earlier is refused ($_)");
}
sql_ok($primary, 'postgres', q{SELECT refusals = 2, row_to_json(s)::text FROM pg_uuidx_stats s},
	'refusals: 2, though both transactions rolled back');

my $tick = $primary->safe_psql('postgres', 'SELECT pg_uuidx_tick()');
sql_ok($primary, 'postgres', qq{
	SELECT tick_horizon = '$tick' AND ticked_at <= clock_timestamp() AND tick_age < interval '5 s',
	       row_to_json(s)::text
	FROM pg_uuidx_stats s},
	'after pg_uuidx_tick(): the tick and its age');

$primary->backup('b');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'b', has_streaming => 1);
start_with_env($standby);
$tick = $primary->safe_psql('postgres', 'SELECT pg_uuidx_tick()');
$primary->wait_for_catchup($standby);
sql_ok($standby, 'postgres', qq{
	SELECT horizon = '$tick' AND tick_horizon = '$tick' AND floor IS NULL AND refusals IS NULL AND holders IS NULL,
	       row_to_json(s)::text
	FROM pg_uuidx_stats s},
	'on the standby: the horizon is the newest tick; no floor, refusals or holders');
sql_ok($standby, 'postgres', q{
	SELECT horizon IS NULL AND floor IS NULL AND refusals IS NULL, row_to_json(s)::text FROM pg_uuidx_stats_state() s},
	'pg_uuidx_stats_state() there: NULLs (no shared state is read during recovery)');

$primary->safe_psql('postgres', 'CREATE DATABASE other');
$primary->safe_psql('other', 'CREATE EXTENSION pg_uuidx');
sql_ok($primary, 'other', q{SELECT database = 'other' AND refusals = 0, row_to_json(s)::text FROM pg_uuidx_stats s},
	'another database has counters of its own');

$standby->stop;
$primary->stop;
done_testing();
