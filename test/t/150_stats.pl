# The views pg_uuidx_stats and pg_uuidx_table_stats against states whose
# figures are known: a fresh server (no refusal, no holder, no tick; the
# horizon at the floor, then at the clock), each guarded table with the
# allowance of its guards and the horizon a reader of it gets (a table
# guarded at 0 ms reads at the clock, one at the setting's 200 ms that much
# lower; a partitioned table once, with the greatest allowance of its
# partitions; a disabled guard, none; a table its reader refuses, with the
# reason), an open transaction that made an id (one holder, every table held
# at its id), two ids the guard refused (refusals 2, though their
# transactions rolled back), a tick (its horizon and age), a role without
# privileges (both views, no rows of the tables), the same views on a
# standby (each table up to the newest tick at its allowance, as its reader
# reads it; no floor, refusals or holders there), a
# database of its own (its own counters), and a prepared transaction left
# in doubt by a crash, which holds the horizon at its lowest (-infinity):
# both views name it, on the primary and on the standby, with no lag,
# until COMMIT PREPARED.
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
	"pg_uuidx.horizon_allowance = '200ms'", 'wal_level = replica', 'max_wal_senders = 4',
	'max_prepared_transactions = 5' ]);
$primary->safe_psql('postgres', q{
CREATE EXTENSION pg_uuidx;
CREATE TABLE guarded (id uuid PRIMARY KEY);
CREATE TRIGGER guard BEFORE INSERT OR UPDATE ON guarded FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
CREATE TABLE fast (id uuid PRIMARY KEY);
CREATE TRIGGER guard BEFORE INSERT OR UPDATE ON fast FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard('id', '7', '0');
CREATE TABLE plain (id uuid PRIMARY KEY DEFAULT uuidv7());
-- a partitioned table: listed once, not its partitions; its readers read
-- with the greatest allowance of its own guard and of its partitions'
CREATE TABLE parts (id uuid NOT NULL, region text NOT NULL) PARTITION BY LIST (region);
CREATE TRIGGER guard AFTER INSERT OR UPDATE ON parts FOR EACH ROW
    WHEN (NOT pg_uuidx_horizon_cover(NEW.id, 7, '50ms')) EXECUTE FUNCTION pg_uuidx_horizon_guard('id', '7', '50ms');
CREATE TABLE parts_a PARTITION OF parts FOR VALUES IN ('a');
CREATE TABLE parts_b PARTITION OF parts FOR VALUES IN ('b');
CREATE TRIGGER more BEFORE INSERT OR UPDATE ON parts_b FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard('id', '7', '80ms');
-- a disabled guard: not read, not listed
CREATE TABLE off (id uuid);
CREATE TRIGGER guard BEFORE INSERT OR UPDATE ON off FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
ALTER TABLE off DISABLE TRIGGER guard;
-- a guard made after the table had a child without one: its readers refuse it
CREATE TABLE parent (id uuid);
CREATE TABLE child () INHERITS (parent);
CREATE TRIGGER guard BEFORE INSERT OR UPDATE ON parent FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
CREATE ROLE nobody;
});
create_try($primary, 'postgres');

sql_ok($primary, 'postgres', q{
	SELECT database = current_database() AND refusals = 0 AND holders = 0 AND tick_horizon IS NULL
	       AND ticked_at IS NULL AND tick_age IS NULL AND horizon <= floor
	       AND NOT held_at_lowest AND lowest_holders = '{}',
	       row_to_json(s)::text
	FROM pg_uuidx_stats s},
	'fresh: no refusal, no holder, no tick; the horizon at or below the floor, not at its lowest');
# the state's first use made the floor at the clock (the epoch): the horizon
# of a reader with no allowance follows the clock from then on
sleep(1);
sql_ok($primary, 'postgres', q{
	SELECT horizon = floor AND horizon_lag = interval '0', row_to_json(s)::text FROM pg_uuidx_stats s},
	'a second later, with nothing holding it: the horizon is the clock it was computed at, no lag');

# each table read in order, with the allowance its readers read it with and
# the horizon they get: all from one computation, so exactly the allowances apart
sql_ok($primary, 'postgres', q{
	SELECT string_agg(format('%s %s %s', relid, coalesce(allowance::text, '-'), problem IS NULL), ', '
	                  ORDER BY relid::text)
	       = 'fast 00:00:00 t, guarded 00:00:00.2 t, parent - f, parts 00:00:00.08 t',
	       string_agg(row_to_json(t)::text, ' ')
	FROM pg_uuidx_table_stats t},
	'each table with an enabled guard, once (not the partitions), with its readers\' allowance, or why they refuse it');
sql_ok($primary, 'postgres', q{
	WITH t AS MATERIALIZED (SELECT * FROM pg_uuidx_table_stats)
	SELECT f.horizon_lag = interval '0' AND g.horizon_lag = interval '200 ms' AND p.horizon_lag = interval '80 ms'
	       AND g.horizon = f.horizon - interval '200 ms' AND p.horizon = f.horizon - interval '80 ms'
	       AND f.horizon <= clock_timestamp(),
	       row_to_json(f)::text || row_to_json(g)::text || row_to_json(p)::text
	FROM t f, t g, t p
	WHERE f.relid = 'fast'::regclass AND g.relid = 'guarded'::regclass AND p.relid = 'parts'::regclass},
	'nothing holding the horizon: a table guarded at 0 ms is read at the clock, the others their allowance lower');
# the view's function looks at each table in a subtransaction that it rolls
# back: the query's transaction holds no lock of theirs afterwards
sql_ok($primary, 'postgres', q{
	BEGIN;
	SELECT string_agg(relid::text, ',' ORDER BY relid::text) AS listed FROM pg_uuidx_guarded_tables() \gset
	SELECT :'listed' = 'fast,guarded,parent,parts'
	       AND NOT EXISTS (SELECT FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
	                       WHERE l.pid = pg_backend_pid() AND c.relname IN ('guarded', 'fast', 'parts', 'parts_a',
	                                                                         'parts_b', 'off', 'parent', 'child')),
	       (SELECT string_agg(format('%s (%s)', c.relname, l.mode), ', ') FROM pg_locks l
	        JOIN pg_class c ON c.oid = l.relation WHERE l.pid = pg_backend_pid());
	COMMIT},
	'pg_uuidx_guarded_tables(): the tables, and no lock on them kept');
sql_ok($primary, 'postgres', q{
	SELECT problem = 'table "child" inherits from "parent" but has no guard of column "id"'
	       AND allowance IS NULL AND horizon IS NULL AND horizon_lag IS NULL,
	       row_to_json(t)::text
	FROM pg_uuidx_table_stats t WHERE relid = 'parent'::regclass},
	'a table its readers refuse: the reason, no horizon');
like($primary->safe_psql('postgres', q{SELECT try($$SELECT pg_uuidx_read_after(NULL::parent, NULL, 1)$$)}),
	qr/^42P17 table "child" inherits from "parent"/, 'the reader refuses it for that reason');

my $open = $primary->background_psql('postgres');
$open->query_safe('BEGIN');
my $id = $open->query_safe('INSERT INTO plain DEFAULT VALUES RETURNING id');
sleep(1);
sql_ok($primary, 'postgres', qq{
	SELECT holders = 1 AND horizon <= uuid_extract_timestamp_us('$id') AND horizon_lag >= interval '1 s'
	       AND NOT held_at_lowest,
	       row_to_json(s)::text
	FROM pg_uuidx_stats s},
	'an open transaction that made an id 1 s ago: one holder, the horizon at or below its id, a lag of 1 s or more');
sql_ok($primary, 'postgres', qq{
	SELECT count(DISTINCT t.horizon) = 1 AND bool_and(t.horizon = s.horizon AND t.horizon_lag >= interval '1 s'),
	       string_agg(row_to_json(t)::text, ' ')
	FROM pg_uuidx_table_stats t, pg_uuidx_stats s WHERE t.problem IS NULL},
	'every table held at its id too, whatever its allowance');
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

# a role without any privilege on the tables: both views, names and times only
sql_ok($primary, 'postgres', q{
	SET ROLE nobody;
	SELECT (SELECT count(*) FROM pg_uuidx_stats) = 1 AND (SELECT count(*) FROM pg_uuidx_table_stats) = 4
	       AND NOT has_table_privilege('guarded', 'SELECT'),
	       (SELECT string_agg(row_to_json(t)::text, ' ') FROM pg_uuidx_table_stats t)},
	'a role without privileges on the tables reads both views');

$primary->backup('b');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'b', has_streaming => 1);
start_with_env($standby);
# a row of the table guarded at 0 ms, made just before the tick: above the
# tick's horizon (the setting's 200 ms lower), below its exact horizon
$primary->safe_psql('postgres', 'INSERT INTO fast VALUES (uuidv7())');
$tick = $primary->safe_psql('postgres', 'SELECT pg_uuidx_tick()');
$primary->wait_for_catchup($standby);
sql_ok($standby, 'postgres', qq{
	SELECT horizon = '$tick' AND tick_horizon = '$tick' AND floor IS NULL AND refusals IS NULL AND holders IS NULL
	       AND NOT held_at_lowest AND lowest_holders IS NULL,
	       row_to_json(s)::text
	FROM pg_uuidx_stats s},
	'on the standby: the horizon is the newest tick; no floor, refusals, holders or names of holders');
sql_ok($standby, 'postgres', qq{
	SELECT count(*) = 3
	       AND bool_and(CASE t.relid WHEN 'guarded'::regclass THEN t.horizon = '$tick'
	                    ELSE t.horizon = least(k.exact_horizon, k.horizon_floor - t.allowance)
	                         AND t.horizon > '$tick' END),
	       string_agg(row_to_json(t)::text, ' ')
	FROM pg_uuidx_table_stats t, pg_uuidx_last_tick k WHERE t.problem IS NULL},
	'there a table guarded at the setting is read up to the newest tick, the others up to its exact horizon and floor less their allowance');
sql_ok($standby, 'postgres', q{
	SELECT (SELECT count(*) FROM pg_uuidx_read_after(NULL::fast, NULL, 10)) = 1
	       AND uuid_extract_timestamp_us(f.id) > k.horizon AND uuid_extract_timestamp_us(f.id) < t.horizon,
	       row_to_json(t)::text || ' ' || row_to_json(k)::text
	FROM fast f, pg_uuidx_last_tick k, pg_uuidx_table_stats t WHERE t.relid = 'fast'::regclass},
	'the reader there reads the row above the tick\'s horizon, below the horizon the view shows for its table');
sql_ok($standby, 'postgres', q{
	SELECT horizon IS NULL AND floor IS NULL AND refusals IS NULL, row_to_json(s)::text FROM pg_uuidx_stats_state() s},
	'pg_uuidx_stats_state() there: NULLs (no shared state is read during recovery)');

$primary->safe_psql('postgres', 'CREATE DATABASE other');
$primary->safe_psql('other', q{
CREATE EXTENSION pg_uuidx;
CREATE TABLE guarded (id uuid PRIMARY KEY DEFAULT uuidv7());
CREATE TRIGGER guard BEFORE INSERT OR UPDATE ON guarded FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard('id', '7', '0');
});
sql_ok($primary, 'other', q{SELECT database = 'other' AND refusals = 0, row_to_json(s)::text FROM pg_uuidx_stats s},
	'another database has counters of its own');

# a transaction prepared before a crash: the server no longer knows its ids,
# so it holds the horizon at its lowest until it ends; a tick made then,
# the first of the database, stores -infinity
$primary->safe_psql('other', q{BEGIN; INSERT INTO guarded DEFAULT VALUES; PREPARE TRANSACTION 'in doubt'});
$primary->stop('immediate');
start_with_env($primary);
is($primary->safe_psql('other', 'SELECT pg_uuidx_tick()'), '-infinity', 'a tick while it is in doubt: -infinity');
$primary->wait_for_catchup($standby);
for my $node ($primary, $standby)
{
	my $on = $node->name;
	sql_ok($node, 'other', q{SELECT count(*) = 1, string_agg(row_to_json(s)::text, ' ') FROM (SELECT * FROM pg_uuidx_stats) s},
		"$on: SELECT * FROM pg_uuidx_stats works while the horizon is held at its lowest (the standby's tick)");
	sql_ok($node, 'other', q{
		SELECT horizon = '-infinity' AND horizon_lag IS NULL, row_to_json(t)::text
		FROM pg_uuidx_table_stats t WHERE relid = 'guarded'::regclass},
		"$on: its table held at its lowest, no lag");
}
sql_ok($primary, 'other', q{
	SELECT horizon = '-infinity' AND horizon_lag IS NULL AND held_at_lowest
	       AND lowest_holders = ARRAY['prepared transaction ''in doubt''']
	       AND holders = 1 AND tick_horizon = '-infinity' AND tick_age < interval '5 s',
	       row_to_json(s)::text
	FROM pg_uuidx_stats s},
	'after the crash: held at its lowest, no lag, and by which prepared transaction');
sql_ok($standby, 'other', q{
	SELECT horizon = '-infinity' AND horizon_lag IS NULL AND held_at_lowest AND lowest_holders IS NULL,
	       row_to_json(s)::text
	FROM pg_uuidx_stats s},
	'on the standby: the tick held at its lowest, no lag, the holders the primary\'s to name');
$primary->safe_psql('other', q{COMMIT PREPARED 'in doubt'});
sql_ok($primary, 'other', q{
	SELECT NOT held_at_lowest AND lowest_holders = '{}' AND holders = 0 AND horizon_lag = interval '0',
	       row_to_json(s)::text
	FROM pg_uuidx_stats s},
	'COMMIT PREPARED releases it');

$standby->stop;
$primary->stop;
done_testing();
