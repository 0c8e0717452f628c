# Living with core's functions of the same names: pg_uuidx_dependents() on
# every major (what uses which pg_uuidx function, core's of the same result),
# CALL pg_uuidx_hand_over_to_core() refused before 18 and for a
# non-superuser, and on 18 and later: evidence that core's functions give
# pg_uuidx's results (random ids of every version and variant, seed
# printed), then the handover in place on a schema with every kind of
# dependent, in a schema its owner renamed to 'x''::text) > 0 OR ': every
# catalog definition and every row unchanged, also after DROP EXTENSION
# pg_uuidx without CASCADE.  Last, what unqualified DROP/COMMENT statements
# hit once both exist.
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

my $node = new_node('core_handover');
my $major = int($node->safe_psql('postgres', 'SHOW server_version_num') / 10000);
my $hostile = q{x'::text) > 0 OR };
my $x = qq{"$hostile"};
my $apps = q{'{app}'};

# pg_uuidx in a schema of role o, the database's owner (not a superuser),
# who renames it; every kind of dependent on the functions core covers on
# 18, in schema app; dependents on what only pg_uuidx has in schema keep
$node->safe_psql('postgres', 'CREATE ROLE o LOGIN; CREATE ROLE app_reader; CREATE DATABASE handover OWNER o');
$node->safe_psql('handover', q{
	CREATE SCHEMA uuidx AUTHORIZATION o;
	CREATE EXTENSION pg_uuidx SCHEMA uuidx;
	SET ROLE o;
	ALTER SCHEMA uuidx RENAME TO "x'::text) > 0 OR ";
});
$node->safe_psql('handover', dependents_schema(
		gen => "$x.uuidv7()",
		gen_child => "$x.uuidv7(interval '-1 hour')",
		ts => "$x.uuid_extract_timestamp(ID)",
		check => "$x.uuid_extract_version(ID) = 7",
		literal => "$x.uuidv7()",
		attack => 'ALTER ROLE o SUPERUSER',
		extra => qq{
		CREATE TABLE app.tokens (token uuid DEFAULT $x.uuidv4(), id uuid DEFAULT $x.uuidv7());
		INSERT INTO app.tokens SELECT FROM generate_series(1, 100);
		CREATE SCHEMA keep;
		CREATE TABLE keep.legacy (id uuid PRIMARY KEY DEFAULT $x.uuidv6());
		CREATE VIEW keep.recent AS SELECT id FROM app.t WHERE id >= $x.uuidv7_boundary('2026-01-01');
		}));

# The report on this major: uuid_extract_version is core's from 17 on;
# uuidv7, uuidv7(interval), uuidv4 and uuid_extract_timestamp (core reads v1
# and v7, the handover keeps the v6 reading) from 18 on
my $report = qq{
	SET search_path = pg_catalog;
	SELECT string_agg(format('%s | %s | %s -> %s', dependent, kind, uses, coalesce(core_function::text, '-')),
	                  E'\\n' ORDER BY dependent, uses::text)
	FROM $x.pg_uuidx_dependents()};
my %since = ('uuidv7()' => 18, 'uuidv7(interval)' => 18, 'uuidv4()' => 18,
	'uuid_extract_timestamp(uuid)' => 18, 'uuid_extract_version(uuid)' => 17);
my @expected = (
	[ 'constraint events_v7 on table app.events', 'check constraint', 'uuid_extract_version(uuid)' ],
	[ 'constraint events_v7 on table app.events_1', 'check constraint', 'uuid_extract_version(uuid)' ],
	[ 'constraint events_v7 on table app.events_2', 'check constraint', 'uuid_extract_version(uuid)' ],
	[ 'constraint t_quoted on table app.t', 'check constraint', 'uuid_extract_version(uuid)' ],
	[ 'constraint v7id_check', 'domain constraint', 'uuid_extract_version(uuid)' ],
	[ 'default value for column id of table app.child', 'column default', 'uuidv7(interval)' ],
	[ 'default value for column id of table app.events', 'column default', 'uuidv7()' ],
	[ 'default value for column id of table app.events_1', 'column default', 'uuidv7()' ],
	[ 'default value for column id of table app.events_2', 'column default', 'uuidv7()' ],
	[ 'default value for column id of table app.log', 'column default', 'uuidv7()' ],
	[ 'default value for column id of table app.parent', 'column default', 'uuidv7()' ],
	[ 'default value for column id of table app.t', 'column default', 'uuidv7()' ],
	[ 'default value for column id of table app.tokens', 'column default', 'uuidv7()' ],
	[ 'default value for column id of table keep.legacy', 'column default', 'uuidv6()' ],
	[ 'default value for column made of table app.t', 'generated column', 'uuid_extract_timestamp(uuid)' ],
	[ 'default value for column token of table app.tokens', 'column default', 'uuidv4()' ],
	[ 'function app.next_id()', 'function', 'uuidv7()' ],
	[ 'index app.events_1_uuid_extract_timestamp_at_id_idx', 'index', 'uuid_extract_timestamp(uuid)' ],
	[ 'index app.events_2_uuid_extract_timestamp_at_id_idx', 'index', 'uuid_extract_timestamp(uuid)' ],
	[ 'index app.events_made', 'index', 'uuid_extract_timestamp(uuid)' ],
	[ 'index app.t_expr', 'index', 'uuid_extract_timestamp(uuid)' ],
	[ 'materialized view app.made', 'materialized view', 'uuid_extract_timestamp(uuid)' ],
	[ 'policy t_recent on table app.t', 'policy', 'uuid_extract_timestamp(uuid)' ],
	[ 'rule t_log on table app.t', 'rule', 'uuid_extract_version(uuid)' ],
	[ 'trigger t_stamp on table app.t', 'trigger', 'uuid_extract_version(uuid)' ],
	[ 'view app.recent', 'view', 'uuid_extract_timestamp(uuid)' ],
	[ 'view app.recent', 'view', 'uuid_extract_version(uuid)' ],
	[ 'view keep.recent', 'view', 'uuidv7_boundary(timestamp with time zone)' ]);
my $line = sub {
	my ($dep, $kind, $fn) = @{ $_[0] };
	my $core = ($since{$fn} && $major >= $since{$fn}) ? "$fn" : '-';
	return "$dep | $kind | $x.$fn -> $core";
};
is($node->safe_psql('handover', $report), join("\n", map { $line->($_) } @expected),
	"pg_uuidx_dependents() on $major: every dependent, its kind and core's function of the same result");
is($node->safe_psql('handover', "SELECT count(*) FROM $x.pg_uuidx_pg_uuidv7_dependents()"), '0',
	'pg_uuidx_pg_uuidv7_dependents() lists nothing without pg_uuidv7, not pg_uuidx\'s own dependents');

my ($rc, $out, $err) = $node->psql('handover', "\\set VERBOSITY verbose\nSET ROLE o;\nCALL $x.pg_uuidx_hand_over_to_core();");
like($err, qr/ERROR:  42501: permission denied to hand pg_uuidx's functions over to core/,
	'a non-superuser (the database owner) is refused with 42501');

SKIP:
{
	if ($major < 18)
	{
		($rc, $out, $err) = $node->psql('handover', "\\set VERBOSITY verbose\nCALL $x.pg_uuidx_hand_over_to_core();");
		like($err, qr/ERROR:  0A000: PostgreSQL \Q$major\E\S* .*has no core functions to hand pg_uuidx's over to/,
			"on $major the handover is refused with 0A000");
		skip "core $major lacks uuidv7(), uuidv4() and a v7 uuid_extract_timestamp()", 16;
	}

	# Evidence: core's functions against pg_uuidx's on random ids of every
	# version and variant (a third of them), and of versions 1, 6 and 7 of
	# the RFC variant, plus the edges; pg_uuidx's answers kept for after
	my $seed = sprintf('%.6f', rand() * 2 - 1);
	note("seed $seed");
	$node->safe_psql('handover', qq{
		SELECT setseed($seed);
		CREATE TABLE evidence AS
		SELECT id, $x.uuid_extract_timestamp(id) AS ts, $x.uuid_extract_version(id) AS version
		FROM (SELECT md5(random()::text || i)::uuid AS id FROM generate_series(1, 40000) i
		      UNION ALL
		      SELECT overlay(overlay(md5(random()::text || i) PLACING (ARRAY['1', '6', '7'])[1 + i % 3] FROM 13)
		                     PLACING (ARRAY['8', '9', 'a', 'b'])[1 + (i / 3) % 4] FROM 17)::uuid
		      FROM generate_series(1, 80000) i
		      UNION ALL
		      VALUES ('00000000-0000-0000-0000-000000000000'::uuid), ('ffffffff-ffff-ffff-ffff-ffffffffffff'),
		             ('00000000-0000-1000-8000-000000000000'), ('ffffffff-ffff-1fff-bfff-ffffffffffff'),
		             ('00000000-0000-6000-8000-000000000000'), ('ffffffff-ffff-6fff-bfff-ffffffffffff'),
		             ('00000000-0000-7000-8000-000000000000'), ('ffffffff-ffff-7fff-bfff-ffffffffffff'),
		             ('ffffffff-ffff-6fff-cfff-ffffffffffff'), ('ffffffff-ffff-7fff-7fff-ffffffffffff')) AS s(id)});
	sql_ok($node, 'handover', qq{
		SELECT count(*) FILTER (WHERE version IS DISTINCT FROM pg_catalog.uuid_extract_version(id)) = 0
		   AND count(*) FILTER (WHERE version IS DISTINCT FROM $x.uuid_extract_version(id)) = 0,
		       count(*) || ' ids, ' || count(DISTINCT version) || ' versions, '
		       || count(*) FILTER (WHERE version IS NULL) || ' of other variants'
		FROM evidence},
		'uuid_extract_version: core\'s = pg_uuidx\'s on every id');
	sql_ok($node, 'handover', qq{
		SELECT count(*) FILTER (WHERE ts IS DISTINCT FROM pg_catalog.uuid_extract_timestamp(id)) = 0,
		       count(*) || ' ids of versions other than 6, '
		       || count(*) FILTER (WHERE version IN (1, 7)) || ' of them v1 or v7'
		FROM evidence WHERE version IS DISTINCT FROM 6},
		'uuid_extract_timestamp: core\'s = pg_uuidx\'s on every id but v6 (v1 to the µs, v7 to the ms)');
	sql_ok($node, 'handover', qq{
		SELECT (count(*) FILTER (WHERE pg_catalog.uuid_extract_timestamp(id) IS NOT NULL) = 0
		        OR count(*) FILTER (WHERE pg_catalog.uuid_extract_timestamp(id) IS DISTINCT FROM ts) = 0)
		   AND count(*) FILTER (WHERE ts IS NULL) = 0,
		       count(*) || ' v6 ids, core reads '
		       || CASE WHEN count(pg_catalog.uuid_extract_timestamp(id)) = 0 THEN 'none' ELSE 'them as pg_uuidx' END
		FROM evidence WHERE version = 6},
		'v6: core reads NULL (18) or what pg_uuidx reads; the handover keeps pg_uuidx\'s reading either way');
	sql_ok($node, 'handover', qq{
		SELECT bool_and(pg_catalog.uuid_extract_version(a) = 7 AND pg_catalog.uuid_extract_version(b) = 7
		                AND pg_catalog.uuid_extract_version(c) = 4 AND pg_catalog.uuid_extract_version(d) = 4
		                AND abs(extract(epoch FROM pg_catalog.uuid_extract_timestamp(a)
		                                         - pg_catalog.uuid_extract_timestamp(b))) < 1
		                AND abs(extract(epoch FROM pg_catalog.uuid_extract_timestamp(e)
		                                         - pg_catalog.uuid_extract_timestamp(f))) < 1
		                AND pg_catalog.uuid_extract_timestamp(e) < now() - interval '9 days'),
		       count(*) || ' calls each'
		FROM (SELECT $x.uuidv7() a, pg_catalog.uuidv7() b, $x.uuidv4() c, pg_catalog.uuidv4() d,
		             $x.uuidv7(interval '-10 days') e, pg_catalog.uuidv7(interval '-10 days') f
		      FROM generate_series(1, 100000)) s},
		'uuidv7(), uuidv7(interval), uuidv4(): core\'s make ids of the same version and time as pg_uuidx\'s');

	my $catalog = catalog_snapshot($node, 'handover', $apps);
	my $rows = data_digest($node, 'handover', $apps);
	$node->safe_psql('handover', "BEGIN; CALL $x.pg_uuidx_hand_over_to_core(); ROLLBACK;");
	is($node->safe_psql('handover', $report), join("\n", map { $line->($_) } @expected),
		'a handover rolled back with its transaction leaves everything as it was');
	($rc, $out, $err) = $node->psql('handover', "BEGIN; CALL $x.pg_uuidx_hand_over_to_core(); COMMIT;",
		on_error_stop => 1);
	is($rc, 0, 'the superuser hands over inside a transaction block, with the hostile schema name') or diag($err);
	is($node->safe_psql('handover', q{SELECT rolsuper FROM pg_roles WHERE rolname = 'o'}), 'f',
		'the statement hidden in the string literal did not run: o is no superuser');
	is( $node->safe_psql('handover', $report),
		join("\n", map { $line->($_) } grep { !$since{ $_->[2] } } @expected),
		'the report lists only what uses functions core lacks');
	is(catalog_snapshot($node, 'handover', $apps), $catalog, 'every dependent\'s catalog definition is unchanged');
	is(data_digest($node, 'handover', $apps), $rows, 'every row of every table and view is unchanged');
	sql_ok($node, 'handover', qq{
		SELECT count(*) FILTER (WHERE ts IS DISTINCT FROM $x.uuid_extract_timestamp(id)
		                           OR version IS DISTINCT FROM $x.uuid_extract_version(id)) = 0,
		       count(*) || ' ids'
		FROM evidence},
		'the handed-over readers answer what pg_uuidx\'s answered for every id, v6 included');

	($rc, $out, $err) = $node->psql('handover', 'DROP EXTENSION pg_uuidx');
	like($err, qr/cannot drop extension pg_uuidx because other objects depend on it/,
		'DROP EXTENSION refuses while v6 defaults and boundaries still use pg_uuidx');
	$node->safe_psql('handover', 'DROP SCHEMA keep CASCADE');
	($rc, $out, $err) = $node->psql('handover', 'DROP EXTENSION pg_uuidx');
	is($rc, 0, 'with them gone DROP EXTENSION pg_uuidx without CASCADE succeeds') or diag($err);
	is(catalog_snapshot($node, 'handover', $apps), $catalog, 'without pg_uuidx every definition is unchanged');
	is(data_digest($node, 'handover', $apps), $rows, 'without pg_uuidx every row is unchanged');
	sql_ok($node, 'handover', qq{
		INSERT INTO app.t (note) SELECT 'after' FROM generate_series(1, 100);
		INSERT INTO app.child (note) VALUES ('after');
		SELECT bool_and(uuid_extract_version(id) = 7 AND made = uuid_extract_timestamp(id)
		                AND made > now() - interval '1 minute')
		       AND (SELECT uuid_extract_timestamp(id) < now() - interval '59 minutes' FROM app.child WHERE note = 'after')
		       AND uuid_extract_version(app.next_id()) = 7
		       AND $x.uuid_extract_timestamp('1ec9414c-232a-6b00-b3c8-9e6bdeced846') = '2022-02-22 19:22:22+00',
		       count(*) || ' new rows' FROM app.t WHERE note = 'after'},
		'without pg_uuidx: the defaults make v7 ids of now (the child\'s an hour back), v6 still reads');
	like( $node->safe_psql('handover', qq{
			SET enable_seqscan = off;
			EXPLAIN (COSTS OFF) SELECT * FROM app.t WHERE $x.uuid_extract_timestamp(id) > '2026-01-01+00'}),
		qr/Index Scan using t_expr|Bitmap Index Scan on t_expr/, 'the expression index still serves its expression');
}

# Unqualified DROP FUNCTION / COMMENT ON FUNCTION with pg_uuidx in public:
# pg_catalog comes first in the search path, so on 17/18 they reach core's
# function of that name; qualified names reach pg_uuidx's.
my $fresh = PostgreSQL::Test::Cluster->new('core_names');
$fresh->init;
start_with_env($fresh);
$fresh->safe_psql('postgres', 'CREATE EXTENSION pg_uuidx');
my $comments = q{
	SELECT coalesce(obj_description(to_regprocedure('pg_catalog.uuid_extract_version(uuid)'), 'pg_proc'), '-'),
	       obj_description('public.uuid_extract_version(uuid)'::regprocedure, 'pg_proc')};
$fresh->safe_psql('postgres', q{COMMENT ON FUNCTION uuid_extract_version(uuid) IS 'unqualified'});
my $after = $fresh->safe_psql('postgres', $comments);
if ($major >= 17)
{
	like($after, qr/^unqualified\|/, "on $major an unqualified COMMENT ON FUNCTION lands on core's function");
	($rc, $out, $err) = $fresh->psql('postgres', 'DROP FUNCTION uuid_extract_version(uuid)');
	like($err, qr/required by the database system/, "on $major an unqualified DROP FUNCTION targets core's function");
}
else
{
	like($after, qr/\|unqualified$/, "on $major (no core function) an unqualified COMMENT ON FUNCTION lands on pg_uuidx's");
	($rc, $out, $err) = $fresh->psql('postgres', 'DROP FUNCTION uuid_extract_version(uuid)');
	like($err, qr/extension pg_uuidx requires it/, "on $major an unqualified DROP FUNCTION targets pg_uuidx's");
}
$fresh->safe_psql('postgres', q{COMMENT ON FUNCTION public.uuid_extract_version(uuid) IS 'qualified'});
like($fresh->safe_psql('postgres', $comments), qr/\|qualified$/, 'a schema-qualified statement reaches pg_uuidx\'s function on every major');

done_testing();
