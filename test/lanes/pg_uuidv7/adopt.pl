# Coming from the real pg_uuidv7: pg_uuidx's equivalents of its five
# functions give the same results (laws on random inputs, seed printed),
# then test/t/072_adopt_pg_uuidv7.pl runs against it: CALL
# pg_uuidx_adopt_pg_uuidv7() replaces its functions in place, every
# dependent's catalog definition and every row stay the same, and DROP
# EXTENSION pg_uuidv7 needs no CASCADE.  pg_uuidv7 is built by
# test/lanes/pg_uuidv7/build.sh from PG_UUIDV7_SOURCE.
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

# The adoption test of make test, against this pg_uuidv7 (its own cluster)
$node->stop;
my $adopt = "$FindBin::RealBin/../../t/072_adopt_pg_uuidv7.pl";
subtest 'test/t/072_adopt_pg_uuidv7.pl against the real pg_uuidv7' => sub {
	my $rc = do $adopt;
	die "$adopt: $@" if $@;
};

done_testing();
