# Coming from pg_uuidv7: pg_uuidx's equivalents of its five functions give
# the same results (laws on random inputs, seed printed), and
# pg_uuidx_pg_uuidv7_dependents() lists a schema of every dependent kind
# exactly; its statements move them all in one transaction without
# changing a row, the index keeps serving queries, the default keeps making
# v7 ids, and DROP EXTENSION pg_uuidv7 needs no CASCADE.  pg_uuidv7 is built
# by test/lanes/pg_uuidv7/build.sh from PG_UUIDV7_SOURCE.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib "$FindBin::RealBin/../../t";
use PgUuidxTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $sharedir = `pg_config --sharedir`;
chomp $sharedir;
plan skip_all => "pg_uuidv7 is not installed in $sharedir "
  . '(PG_UUIDV7_SOURCE=<tree, tarball or git dir> [PG_UUIDV7_REF=<tag>] make pg_uuidv7-adopt builds it)'
  unless -f "$sharedir/extension/pg_uuidv7.control";
my $source = "$sharedir/extension/pg_uuidv7.source";
note('pg_uuidv7 source: ' . (-f $source ? slurp_file($source) : 'not recorded'));

my $node = new_node('pg_uuidv7');
my $db = 'postgres';
my $major = int($node->safe_psql($db, 'SHOW server_version_num') / 10000);
note('pg_uuidv7 ' . $node->safe_psql($db, q{
	CREATE EXTENSION pg_uuidv7;
	SELECT default_version FROM pg_available_extensions WHERE name = 'pg_uuidv7'}) . " on $major");
$node->safe_psql($db, 'CREATE SCHEMA uuidx; CREATE EXTENSION pg_uuidx SCHEMA uuidx');

# The equivalents, as laws over random inputs: ids of every version and
# variant (the readers take the top 48 bits whatever the version), instants
# with microseconds over 1970..10889, a session time zone that is not UTC
my $seed = sprintf('%.6f', rand() * 2 - 1);
note("seed $seed");
my $laws = qq{
	SET TimeZone = 'America/St_Johns';
	SELECT setseed($seed);
	CREATE TEMP TABLE ids AS
		SELECT md5(random()::text || i)::uuid AS id FROM generate_series(1, 20000) i
		UNION ALL VALUES ('00000000-0000-0000-0000-000000000000'::uuid), ('ffffffff-ffff-ffff-ffff-ffffffffffff'),
		                 ('ffffffff-ffff-7fff-bfff-ffffffffffff'), (uuid_generate_v7()), (gen_random_uuid());
	CREATE TEMP TABLE instants AS
		SELECT timestamptz 'epoch' + (random() * 281474976710.655) * interval '1 second' AS ts
		FROM generate_series(1, 20000)
		UNION ALL VALUES (timestamptz 'epoch'), (timestamptz '1970-01-01 00:00:00.000999+00'),
		                 (timestamptz '2026-11-25 12:00:00.123999+00'), (timestamptz '2026-11-25 12:00:00.124+00'),
		                 (timestamptz '10889-08-02 05:31:50.655+00'), (timestamptz '10889-08-02 05:31:50.655999+00');
};
$node->safe_psql($db, $laws . 'CREATE TABLE ids AS SELECT * FROM pg_temp.ids; CREATE TABLE instants AS SELECT * FROM pg_temp.instants');
sql_ok($node, $db, q{
	SET TimeZone = 'America/St_Johns';
	SELECT count(*) FILTER (WHERE uuid_v7_to_timestamptz(id) IS DISTINCT FROM uuidx.ulid_extract_timestamp(id)) = 0,
	       count(*) || ' ids' FROM ids},
	'uuid_v7_to_timestamptz(id) = ulid_extract_timestamp(id), every version and variant');
sql_ok($node, $db, q{
	SET TimeZone = 'America/St_Johns';
	SELECT count(*) FILTER (WHERE uuid_v7_to_timestamp(id)
	                              IS DISTINCT FROM uuidx.ulid_extract_timestamp(id) AT TIME ZONE 'UTC') = 0,
	       count(*) || ' ids' FROM ids},
	'uuid_v7_to_timestamp(id) = ulid_extract_timestamp(id) AT TIME ZONE \'UTC\'');
sql_ok($node, $db, q{
	SET TimeZone = 'America/St_Johns';
	SELECT count(*) FILTER (WHERE uuid_timestamptz_to_v7(ts, true) IS DISTINCT FROM
	           uuidx.uuidv7_boundary(date_trunc('milliseconds', ts AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')) = 0,
	       count(*) || ' instants' FROM instants},
	'uuid_timestamptz_to_v7(ts, true) = uuidv7_boundary of ts cut to the millisecond');
sql_ok($node, $db, q{
	SET TimeZone = 'America/St_Johns';
	SELECT count(*) FILTER (WHERE uuid_timestamp_to_v7(ts AT TIME ZONE 'UTC', true) IS DISTINCT FROM
	           uuidx.uuidv7_boundary(date_trunc('milliseconds', ts AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')) = 0,
	       count(*) || ' instants' FROM instants},
	'uuid_timestamp_to_v7(ts, true) = uuidv7_boundary of ts (as UTC) cut to the millisecond');
sql_ok($node, $db, q{
	SET TimeZone = 'America/St_Johns';
	SELECT count(*) FILTER (WHERE uuid_v7_to_timestamptz(uuid_timestamptz_to_v7(ts, false))
	                              IS DISTINCT FROM uuidx.uuid_extract_timestamp(uuidx.uuidv7_at(ts))
	                           OR uuid_v7_to_timestamptz(uuid_timestamp_to_v7(ts AT TIME ZONE 'UTC', false))
	                              IS DISTINCT FROM uuidx.uuid_extract_timestamp(uuidx.uuidv7_at(ts AT TIME ZONE 'UTC'))
	                           OR uuidx.uuid_extract_version(uuidx.uuidv7_at(ts)) <> 7) = 0,
	       count(*) || ' instants' FROM instants},
	'zero => false: uuidv7_at(ts) is a v7 id of the same millisecond (both draw the rest at random)');
sql_ok($node, $db, q{
	SELECT uuidx.uuid_extract_version(uuid_generate_v7()) = 7 AND uuidx.uuid_extract_version(uuidx.uuidv7()) = 7
	   AND abs(extract(epoch FROM uuidx.uuid_extract_timestamp(uuidx.uuidv7())
	                              - uuid_v7_to_timestamptz(uuid_generate_v7()))) < 1},
	'uuid_generate_v7() and uuidv7(): v7 ids of the current time');
$node->safe_psql($db, 'DROP TABLE ids, instants');

# The schema of test/t/070_core_handover.pl on pg_uuidv7's functions.  An
# index or a generated column needs an immutable function: pg_uuidv7
# declares its readers STABLE, so its users relabel the reader.
my $schema = q{
	ALTER FUNCTION uuid_v7_to_timestamptz(uuid) IMMUTABLE;
	CREATE TABLE t (
		id uuid PRIMARY KEY DEFAULT uuid_generate_v7(),
		made timestamptz GENERATED ALWAYS AS (uuid_v7_to_timestamptz(id)) STORED,
		CONSTRAINT t_recent CHECK (id >= uuid_timestamptz_to_v7('2020-01-01 00:00:00.000999+00', true)));
	CREATE INDEX t_made ON t (uuid_v7_to_timestamptz(id));
	CREATE VIEW tv AS SELECT id, uuid_v7_to_timestamp(id) AS made_utc FROM t
		WHERE id >= uuid_timestamptz_to_v7('2026-01-01 00:00:00.123456+00', true);
	CREATE FUNCTION next_id() RETURNS uuid LANGUAGE sql BEGIN ATOMIC SELECT uuid_generate_v7(); END;
	CREATE FUNCTION backfill_id(ts timestamptz) RETURNS uuid LANGUAGE sql RETURN uuid_timestamptz_to_v7(ts);
	CREATE FUNCTION day_start(ts timestamp) RETURNS uuid LANGUAGE sql IMMUTABLE
		RETURN uuid_timestamp_to_v7(date_trunc('day', ts), true);
	INSERT INTO t SELECT FROM generate_series(1, 2000);
	INSERT INTO t SELECT backfill_id(timestamptz '2021-01-01' + i * interval '1 hour 1.000777 second')
	FROM generate_series(1, 2000) i;
	-- ids of other versions: pg_uuidv7's reader takes their top 48 bits too
	INSERT INTO t SELECT ('f' || substr(gen_random_uuid()::text, 2))::uuid FROM generate_series(1, 200);
};
$node->safe_psql($db, $schema);
my $report = q{
	SET search_path = public;
	SELECT string_agg(format('%s | %s | %s | %s', dependent, kind, uses, move IS NOT NULL), E'\n'
	                  ORDER BY dependent, uses::text)
	FROM uuidx.pg_uuidx_pg_uuidv7_dependents()};
my $want = join "\n",
  'constraint t_recent on table public.t | check constraint | uuid_timestamptz_to_v7(timestamp with time zone,boolean) | t',
  'default value for column id of table public.t | column default | uuid_generate_v7() | t',
  'default value for column made of table public.t | generated column | uuid_v7_to_timestamptz(uuid) | t',
  'function public.backfill_id(timestamp with time zone) | function | uuid_timestamptz_to_v7(timestamp with time zone,boolean) | t',
  'function public.day_start(timestamp without time zone) | function | uuid_timestamp_to_v7(timestamp without time zone,boolean) | t',
  'function public.next_id() | function | uuid_generate_v7() | t',
  'index public.t_made | index | uuid_v7_to_timestamptz(uuid) | t',
  'view public.tv | view | uuid_timestamptz_to_v7(timestamp with time zone,boolean) | t',
  'view public.tv | view | uuid_v7_to_timestamp(uuid) | t';
is($node->safe_psql($db, $report), $want, "pg_uuidx_pg_uuidv7_dependents() on $major: every dependent, each with a statement");
note($node->safe_psql($db, q{SELECT string_agg(DISTINCT move, E'\n') FROM uuidx.pg_uuidx_pg_uuidv7_dependents()}));

# what must not change: every row (by column name: before 17 the generated
# column is made again at the end of the table), the view, the functions
my $state = q{
	SET TimeZone = 'America/St_Johns';
	SELECT (SELECT md5(string_agg(id || '|' || made, ',' ORDER BY id)) FROM t),
	       (SELECT md5(string_agg(id || '|' || made_utc, ',' ORDER BY id)) FROM tv),
	       day_start('2026-11-25 13:14:15.161718'),
	       uuidx.uuid_extract_timestamp(backfill_id('2026-11-25 13:14:15.161718+00')),
	       (SELECT count(*) FROM t)};
my $before = $node->safe_psql($db, $state);
my $move = q{
	DO $$
	DECLARE s text;
	BEGIN
		FOR s IN SELECT DISTINCT move FROM uuidx.pg_uuidx_pg_uuidv7_dependents() WHERE move IS NOT NULL LOOP
			EXECUTE s;
		END LOOP;
	END $$;
};
# one transaction: rolled back, nothing has moved
$node->safe_psql($db, "BEGIN; $move ROLLBACK;");
is($node->safe_psql($db, $report), $want, 'a move rolled back leaves every dependent as it was');
my ($rc, $out, $err) = $node->psql($db, "BEGIN; $move
	SELECT count(*) FROM uuidx.pg_uuidx_pg_uuidv7_dependents();
	COMMIT;", on_error_stop => 1);
is("$rc|$out", '0|0', 'the move in one transaction: nothing is left on pg_uuidv7 before COMMIT') or diag($err);
is($node->safe_psql($db, $state), $before, 'every row, the view and the functions give what they gave before');
like( $node->safe_psql($db, q{
		SET enable_seqscan = off;
		EXPLAIN (COSTS OFF) SELECT * FROM t WHERE uuidx.ulid_extract_timestamp(id) > '2026-01-01'}),
	qr/Index Scan using t_made|Bitmap Index Scan on t_made/,
	'the rebuilt expression index serves uuidx.ulid_extract_timestamp(id)');
sql_ok($node, $db, q{SELECT indisvalid FROM pg_index WHERE indexrelid = 't_made'::regclass}, 'the index is valid');

($rc, $out, $err) = $node->psql($db, 'DROP EXTENSION pg_uuidv7');
is($rc, 0, 'DROP EXTENSION pg_uuidv7 without CASCADE succeeds') or diag($err);
sql_ok($node, $db, q{
	INSERT INTO t SELECT FROM generate_series(1, 1000);
	INSERT INTO t VALUES (next_id());
	SELECT count(*) = 5201 AND bool_and(made = uuidx.ulid_extract_timestamp(id))
	       AND count(*) FILTER (WHERE uuidx.uuid_extract_version(id) = 7) = 5001
	       AND (SELECT count(*) FROM tv) > 1000
	       AND uuidx.uuid_extract_version(backfill_id(now())) = 7,
	       count(*) || ' rows' FROM t},
	'without pg_uuidv7: the default and next_id() make v7 ids, the generated column, check, view and functions work');
sql_ok($node, $db, q{
	SELECT bool_and(uuidx.uuid_extract_version(id) = 7 AND made >= now() - interval '1 minute')
	FROM t WHERE made BETWEEN now() - interval '1 hour' AND now() AND id >= uuidx.uuidv7_boundary(now() - interval '1 hour')},
	'new default ids carry the current time');

done_testing();
