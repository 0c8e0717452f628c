# Adopting pg_uuidv7 in place: CALL pg_uuidx_adopt_pg_uuidv7() replaces
# pg_uuidv7's five functions (the stand-in of test/t/pg_uuidv7_fixture in
# "make test", the real one in test/lanes/pg_uuidv7/adopt.pl) by bodies over
# pg_uuidx's, keeping their OIDs.  On a schema with every kind of dependent,
# the catalog definition of every object and every row are the same before,
# after, and after DROP EXTENSION pg_uuidv7 (no CASCADE); the report
# survives another role's aggregate; a non-superuser is refused; a database
# owner who renames pg_uuidx's schema to 'x''::text) > 0 OR ' and hides a
# statement in a string literal gains nothing; while that owner (or any
# role that is not a superuser) owns pg_uuidv7's functions, their schema or
# pg_uuidx's, the superuser is refused too, since that role could drop or
# replace what every caller would run; the new bodies are never laxer about
# parallel workers than the functions they call; the procedure refuses what
# it cannot do exactly and then changes nothing.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use PgUuidxTest;
use PgUuidxSnapshot;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = new_node('adopt_pg_uuidv7');
my $major = int($node->safe_psql('postgres', 'SHOW server_version_num') / 10000);
my $which = $node->safe_psql('postgres', q{SELECT comment FROM pg_available_extensions WHERE name = 'pg_uuidv7'});
plan skip_all => 'no pg_uuidv7 (nor its stand-in, which test/run.sh installs) in this server' if $which eq '';
note("pg_uuidv7 on $major: $which");

my $hostile = q{x'::text) > 0 OR };
my $apps = q{'{app}'};
# $1 the schema of pg_uuidv7, $2 the statement hidden in a literal
sub schema_on
{
	my ($v7, $attack) = @_;
	return dependents_schema(
		gen => "$v7.uuid_generate_v7()",
		gen_child => "$v7.uuid_timestamptz_to_v7(now())",
		ts => "$v7.uuid_v7_to_timestamptz(ID)",
		check => "ID >= $v7.uuid_timestamptz_to_v7('2020-01-01 00:00:00.000999+00', true)",
		literal => "$v7.uuid_generate_v7()",
		attack => $attack,
		extra => qq{
		CREATE VIEW app.utc AS SELECT id, $v7.uuid_v7_to_timestamp(id) AS made_utc,
			$v7.uuid_timestamp_to_v7(date_trunc('day', $v7.uuid_v7_to_timestamp(id)), true) AS day_start FROM app.t;
		CREATE FUNCTION app.by_name() RETURNS uuid LANGUAGE plpgsql AS \$\$
		BEGIN RETURN uuid_timestamptz_to_v7(now()); END \$\$;
		});
}

# pg_uuidv7's functions: what must stay (everything but the body, the
# name of an argument that had none, and the parallel label, checked apart)
my $props = q{
	SET search_path = pg_catalog;
	SELECT string_agg(format('%s %s %s owner=%s acl=%s %s %s cost=%s defaults=%s result=%s comment=%s',
	                         p.oid, p.oid::regprocedure, p.proargnames[2:], p.proowner::regrole, p.proacl,
	                         p.provolatile, p.proisstrict, p.procost, p.pronargdefaults,
	                         p.prorettype::regtype, obj_description(p.oid, 'pg_proc')), E'\n' ORDER BY p.proname)
	FROM pg_proc p WHERE p.proname IN ('uuid_generate_v7', 'uuid_v7_to_timestamptz', 'uuid_v7_to_timestamp',
	                                   'uuid_timestamptz_to_v7', 'uuid_timestamp_to_v7')};
my $members = q{
	SELECT count(*) FROM pg_depend d JOIN pg_extension x ON x.oid = d.refobjid
	WHERE x.extname = 'pg_uuidv7' AND d.deptype = 'e'};

# A database owned by role o, who is not a superuser; pg_uuidv7 in public
# (o's), pg_uuidx in a schema o owns.  pg_uuidv7's readers are STABLE:
# those who index them relabel them.
$node->safe_psql('postgres', 'CREATE ROLE o LOGIN; CREATE ROLE app_reader; CREATE DATABASE attack OWNER o');
$node->safe_psql('attack', q{
	CREATE EXTENSION pg_uuidv7;
	CREATE SCHEMA uuidx AUTHORIZATION o;
	CREATE EXTENSION pg_uuidx SCHEMA uuidx;
	ALTER FUNCTION uuid_v7_to_timestamptz(uuid) IMMUTABLE;
	GRANT EXECUTE ON FUNCTION uuid_generate_v7() TO o;
	COMMENT ON FUNCTION uuid_v7_to_timestamptz(uuid) IS 'relabelled IMMUTABLE';
	REVOKE EXECUTE ON FUNCTION uuid_v7_to_timestamp(uuid) FROM PUBLIC;
} . schema_on('public', 'ALTER ROLE o SUPERUSER'));
# o renames the schema and adds an aggregate on pg_uuidv7's function
$node->safe_psql('attack', qq{
	SET ROLE o;
	ALTER SCHEMA uuidx RENAME TO "$hostile";
	CREATE FUNCTION public.pick(uuid, uuid) RETURNS uuid LANGUAGE sql AS 'SELECT \$2';
	CREATE AGGREGATE public.last_made(uuid) (SFUNC = public.pick, STYPE = uuid,
		FINALFUNC = public.uuid_v7_to_timestamptz);
});
my $x = qq{"$hostile"};    # pg_uuidx's schema, quoted

my $report = qq{
	SET search_path = pg_catalog;
	SELECT string_agg(format('%s | %s | %s', dependent, kind, uses), E'\\n' ORDER BY dependent, uses::text)
	FROM $x.pg_uuidx_pg_uuidv7_dependents()};
my $tz7 = 'public.uuid_timestamptz_to_v7(timestamp with time zone,boolean)';
my $gen7 = 'public.uuid_generate_v7()';
my $read7 = 'public.uuid_v7_to_timestamptz(uuid)';
my $want = join "\n",
  "constraint events_v7 on table app.events | check constraint | $tz7",
  "constraint events_v7 on table app.events_1 | check constraint | $tz7",
  "constraint events_v7 on table app.events_2 | check constraint | $tz7",
  "constraint t_quoted on table app.t | check constraint | $tz7",
  "constraint v7id_check | domain constraint | $tz7",
  "default value for column id of table app.child | column default | $tz7",
  "default value for column id of table app.events | column default | $gen7",
  "default value for column id of table app.events_1 | column default | $gen7",
  "default value for column id of table app.events_2 | column default | $gen7",
  "default value for column id of table app.log | column default | $gen7",
  "default value for column id of table app.parent | column default | $gen7",
  "default value for column id of table app.t | column default | $gen7",
  "default value for column made of table app.t | generated column | $read7",
  "function app.next_id() | function | $gen7",
  "function public.last_made(uuid) | aggregate | $read7",
  "index app.events_1_uuid_v7_to_timestamptz_at_id_idx | index | $read7",
  "index app.events_2_uuid_v7_to_timestamptz_at_id_idx | index | $read7",
  "index app.events_made | index | $read7",
  "index app.t_expr | index | $read7",
  "materialized view app.made | materialized view | $read7",
  "policy t_recent on table app.t | policy | $read7",
  "rule t_log on table app.t | rule | $tz7",
  "trigger t_stamp on table app.t | trigger | $tz7",
  "view app.recent | view | $tz7",
  "view app.recent | view | $read7",
  "view app.utc | view | public.uuid_timestamp_to_v7(timestamp without time zone,boolean)",
  "view app.utc | view | public.uuid_v7_to_timestamp(uuid)";
is($node->safe_psql('attack', $report), $want,
	'the report lists every dependent with its kind (a rule as a rule, an aggregate of another role too)');

my $catalog = catalog_snapshot($node, 'attack', $apps);
my $rows = data_digest($node, 'attack', $apps);
my $fns = $node->safe_psql('attack', $props);
like($catalog, qr/constraint app\.t t_literal CHECK \(\(note <> 'public\.uuid_generate_v7\(\)'::text\)\)/,
	'the snapshot holds the string literal that names the function');

# o, the database owner, is refused before anything happens
my ($rc, $out, $err) = $node->psql('attack', "\\set VERBOSITY verbose\nSET ROLE o;\nCALL $x.pg_uuidx_adopt_pg_uuidv7();");
like($err, qr/ERROR:  42501: permission denied to adopt pg_uuidv7's functions/, 'a non-superuser is refused with 42501');
is($node->safe_psql('attack', $members), '5', 'and pg_uuidv7 keeps its five functions');

# o owns public (as pg_database_owner: the database is hers) and pg_uuidx's
# schema: once adopted, she could drop pg_uuidv7's functions with CASCADE
# and create her own for whoever calls them by name; the superuser is
# refused, the owners named, nothing changed
($rc, $out, $err) = $node->psql('attack', "\\set VERBOSITY verbose\nCALL $x.pg_uuidx_adopt_pg_uuidv7();");
like($err, qr/ERROR:  55000: pg_uuidv7's functions or the schemas they would call into are owned by roles that are not superusers: schema "x'::text\) > 0 OR " owned by o, schema public owned by pg_database_owner \(o\)/,
	'schemas owned by a role that is not a superuser: the superuser is refused with 55000, each owner named');
$node->safe_psql('attack', 'CREATE ROLE f; ALTER FUNCTION uuid_v7_to_timestamp(uuid) OWNER TO f');
my $fns_f = $node->safe_psql('attack', $props);
($rc, $out, $err) = $node->psql('attack', "\\set VERBOSITY verbose\nCALL $x.pg_uuidx_adopt_pg_uuidv7();");
like($err, qr/function public\.uuid_v7_to_timestamp\(uuid\) owned by f/, 'a function owned by another role: named');
is($node->safe_psql('attack', $members) . '|' . $node->safe_psql('attack', $props), "5|$fns_f", 'and nothing changed');
$node->safe_psql('attack', qq{ALTER FUNCTION uuid_v7_to_timestamp(uuid) OWNER TO CURRENT_USER;
	ALTER SCHEMA public OWNER TO CURRENT_USER; ALTER SCHEMA $x OWNER TO CURRENT_USER});
$fns = $node->safe_psql('attack', $props);

# rolled back with the transaction it ran in: nothing changed
$node->safe_psql('attack', "BEGIN; CALL $x.pg_uuidx_adopt_pg_uuidv7(); ROLLBACK;");
is($node->safe_psql('attack', $members) . '|' . $node->safe_psql('attack', $props), "5|$fns",
	'a CALL rolled back with its transaction leaves pg_uuidv7 as it was');

($rc, $out, $err) = $node->psql('attack', "BEGIN; CALL $x.pg_uuidx_adopt_pg_uuidv7(); COMMIT;", on_error_stop => 1);
is($rc, 0, 'the superuser adopts pg_uuidv7 inside a transaction block, with the hostile schema name') or diag($err);
is($node->safe_psql('attack', q{SELECT rolsuper FROM pg_roles WHERE rolname = 'o'}), 'f',
	'the statement hidden in the string literal did not run: o is no superuser');
is($node->safe_psql('attack', $members), '0', 'pg_uuidv7 has no members left');
is($node->safe_psql('attack', "SELECT count(*) FROM $x.pg_uuidx_pg_uuidv7_dependents()"), '0', 'the report is empty');
is(catalog_snapshot($node, 'attack', $apps), $catalog, 'every dependent\'s catalog definition is unchanged');
is(data_digest($node, 'attack', $apps), $rows, 'every row of every table and view is unchanged');
is($node->safe_psql('attack', $props), $fns,
	'pg_uuidv7\'s functions keep OID, name, arguments, owner, privileges, labels, cost, defaults and comments');
is( $node->safe_psql('attack', q{
		SELECT string_agg(proname || ' ' || proparallel::text, ', ' ORDER BY proname) FROM pg_proc
		WHERE proname IN ('uuid_generate_v7', 'uuid_v7_to_timestamptz', 'uuid_v7_to_timestamp',
		                  'uuid_timestamptz_to_v7', 'uuid_timestamp_to_v7')}),
	'uuid_generate_v7 r, uuid_timestamp_to_v7 r, uuid_timestamptz_to_v7 r, uuid_v7_to_timestamp s, uuid_v7_to_timestamptz s',
	'those over uuidv7() and uuidv7_at() are PARALLEL RESTRICTED as these are (no worker makes their ids), the readers stay PARALLEL SAFE');
is( $node->safe_psql('attack', q{
		SELECT string_agg(proname || ' ' || coalesce(proargnames::text, '-'), ', ' ORDER BY proname)
		FROM pg_proc WHERE proname IN ('uuid_timestamptz_to_v7', 'uuid_timestamp_to_v7')}),
	'uuid_timestamp_to_v7 {ts,zero}, uuid_timestamptz_to_v7 {ts,zero}',
	'the unnamed first argument of the two with a named one is named ts (a dump could not restore "")');

($rc, $out, $err) = $node->psql('attack', 'DROP EXTENSION pg_uuidv7');
is($rc, 0, 'DROP EXTENSION pg_uuidv7 without CASCADE succeeds') or diag($err);
is(catalog_snapshot($node, 'attack', $apps), $catalog, 'after the drop every dependent\'s definition is unchanged');
is(data_digest($node, 'attack', $apps), $rows, 'after the drop every row is unchanged');
sql_ok($node, 'attack', qq{
	SET TimeZone = 'America/St_Johns';
	INSERT INTO app.t (note) SELECT 'after' FROM generate_series(1, 100);
	INSERT INTO app.child (note) VALUES ('after');
	SELECT bool_and($x.uuid_extract_version(id) = 7 AND made = $x.ulid_extract_timestamp(id)
	                AND made > now() - interval '1 minute')
	       AND (SELECT $x.uuid_extract_version(id) = 7 FROM app.child WHERE note = 'after')
	       AND $x.uuid_extract_version(app.next_id()) = 7 AND $x.uuid_extract_version(app.by_name()) = 7
	       AND (SELECT count(*) FROM app.recent) > 100
	       AND public.uuid_timestamptz_to_v7('2026-11-25 12:00:00.123456+00', true) = '01a21293-b67b-7000-8000-000000000000'
	       AND (SELECT made_utc = made AT TIME ZONE 'UTC' FROM app.utc JOIN app.t USING (id) LIMIT 1),
	       count(*) || ' new rows' FROM app.t WHERE note = 'after'},
	'the defaults make v7 ids of now, the generated column, PL/pgSQL by name, the view and the readers work');
like( $node->safe_psql('attack', q{
		SET enable_seqscan = off;
		EXPLAIN (COSTS OFF) SELECT * FROM app.t WHERE public.uuid_v7_to_timestamptz(id) > '2026-01-01+00'}),
	qr/Index Scan using t_expr|Bitmap Index Scan on t_expr/, 'the expression index still serves its expression');

# pg_uuidv7 and pg_uuidx in schemas whose names need quoting; a dump of the
# result restores
$node->safe_psql('postgres', 'CREATE DATABASE quoted');
$node->safe_psql('quoted', q{
	CREATE SCHEMA "v7 ""q""";
	CREATE EXTENSION pg_uuidv7 SCHEMA "v7 ""q""";
	CREATE SCHEMA "uuid x";
	CREATE EXTENSION pg_uuidx SCHEMA "uuid x";
	ALTER FUNCTION "v7 ""q""".uuid_v7_to_timestamptz(uuid) IMMUTABLE;
} . schema_on('"v7 ""q"""', 'SELECT 1'));
$catalog = catalog_snapshot($node, 'quoted', $apps);
$rows = data_digest($node, 'quoted', $apps);
($rc, $out, $err) = $node->psql('quoted', 'CALL "uuid x".pg_uuidx_adopt_pg_uuidv7(); DROP EXTENSION pg_uuidv7;',
	on_error_stop => 1);
is($rc, 0, 'schemas "v7 ""q""" and "uuid x": adopted, DROP EXTENSION pg_uuidv7 without CASCADE') or diag($err);
is(catalog_snapshot($node, 'quoted', $apps) . data_digest($node, 'quoted', $apps), $catalog . $rows,
	'with quoted schema names every definition and row is unchanged');
my $dump = PostgreSQL::Test::Utils::tempdir . '/quoted.sql';
$node->command_ok([ 'pg_dump', '-d', $node->connstr('quoted'), '-f', $dump ], 'pg_dump of the adopted database');
$node->safe_psql('postgres', 'CREATE DATABASE restored');
($rc, $out, $err) = $node->psql('restored', slurp_file($dump), on_error_stop => 1);
is($rc, 0, 'the dump restores without an error') or diag($err);
is(catalog_snapshot($node, 'restored', $apps), $catalog, 'the restored database has every definition as it was');

# what it refuses, changing nothing
$node->safe_psql('postgres', 'CREATE DATABASE refuse');
$node->safe_psql('refuse', 'CREATE EXTENSION pg_uuidx');
($rc, $out, $err) = $node->psql('refuse', "\\set VERBOSITY verbose\nCALL pg_uuidx_adopt_pg_uuidv7()");
like($err, qr/ERROR:  42704: extension "pg_uuidv7" is not installed/, 'without pg_uuidv7: 42704');
$node->safe_psql('refuse', 'CREATE EXTENSION pg_uuidv7');
my $before = $node->safe_psql('refuse', $props);
$node->safe_psql('refuse', 'ALTER FUNCTION uuid_generate_v7() SECURITY DEFINER');
($rc, $out, $err) = $node->psql('refuse', "\\set VERBOSITY verbose\nCALL pg_uuidx_adopt_pg_uuidv7()");
like($err, qr/ERROR:  55000: pg_uuidv7's functions differ from pg_uuidv7 1\.6's: public\.uuid_generate_v7\(\) \(SECURITY DEFINER\)/,
	'a function whose properties it could not keep: 55000, named');
$node->safe_psql('refuse', q{
	ALTER FUNCTION uuid_generate_v7() SECURITY INVOKER;
	CREATE FUNCTION public.extra() RETURNS int LANGUAGE sql RETURN 1;
	ALTER EXTENSION pg_uuidv7 ADD FUNCTION public.extra()});
($rc, $out, $err) = $node->psql('refuse', "\\set VERBOSITY verbose\nCALL pg_uuidx_adopt_pg_uuidv7()");
like($err, qr/ERROR:  55000: extension "pg_uuidv7" has members pg_uuidx does not know: function public\.extra\(\)/,
	'a member it does not know: 55000, named');
$node->safe_psql('refuse', q{
	ALTER EXTENSION pg_uuidv7 DROP FUNCTION public.extra();
	ALTER EXTENSION pg_uuidx DROP FUNCTION public.uuidv7_at(timestamptz)});
($rc, $out, $err) = $node->psql('refuse', "\\set VERBOSITY verbose\nCALL pg_uuidx_adopt_pg_uuidv7()");
like($err, qr/ERROR:  55000: pg_uuidx's functions are not where expected/, 'pg_uuidx\'s functions not its own: 55000');
is($node->safe_psql('refuse', $members) . '|' . $node->safe_psql('refuse', $props), "5|$before",
	'after each refusal pg_uuidv7 is as it was');

done_testing();
