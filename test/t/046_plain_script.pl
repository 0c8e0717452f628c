# The SQL build without an extension: pg_uuidx_plain.sql (from the
# checkout's sqlonly/generate.pl, as "make sql-only" writes it) run with
# psql by a role that is not superuser and owns its database, into a schema
# of its choice (here one whose name needs quoting) and into the default
# schema uuidx.  Checked: the schema holds exactly the functions of the SQL
# build's extension, each with its labels and comment, and its table
# pg_uuidx_consumer_positions (owned by app, no privilege for PUBLIC, not
# marked for pg_dump: there is no extension); pg_uuidx_build() =
# 'sql'; there is no extension, so no ALTER EXTENSION UPDATE; a second run
# into the same schema stops at the clash check; pg_dump carries the
# functions themselves (CREATE FUNCTION, no CREATE EXTENSION) and the table,
# and a restore into a new database brings back every dependent of schema
# app with its catalog definition and rows, and the defaults keep making
# ids.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use PgUuidxBuilds;
use PgUuidxTest;
use PostgreSQL::Test::Utils;
use Test::More;

plan skip_all => 'no SQL build: neither sqlonly/generate.pl nor PG_UUIDX_SQL_ONLY' unless sql_only_dir();
my $plain = sql_only_dir() . '/pg_uuidx_plain.sql';

my $node = node_on('plain');
my $ext = node_on('sqlext', server_copy('sql'));
$node->safe_psql('postgres', 'CREATE ROLE app LOGIN; CREATE ROLE app_reader; CREATE DATABASE plain OWNER app;
	CREATE DATABASE other OWNER app');
my $schema = 'My Ids';
(my $q = $schema) =~ s/"/""/g;
# the search_path docs/managed.md gives: the schema first, as 17 and 18 have
# core functions of some of these names (on 17 uuid_extract_timestamp reads
# no v7 id), then pg_catalog, before every schema other roles can create in
my $path = qq{"$q", pg_catalog, "\$user", public};
$node->safe_psql('postgres', qq{ALTER DATABASE plain SET search_path = $path});

my ($rc, $out, $err) = psql_file($node, 'plain', 'app', $plain, { schema => $schema });
ok($rc == 0, qq{app runs pg_uuidx_plain.sql with schema="$schema"}) or diag($err);
($rc, $out, $err) = psql_file($node, 'other', 'app', $plain);
ok($rc == 0, 'app runs pg_uuidx_plain.sql without a schema') or diag($err);

# the functions, as the SQL build's extension has them
my $functions = sub {
	my ($where) = @_;
	return qq{SELECT string_agg(format('%s(%s) -> %s %s vol=%s strict=%s par=%s comment=%s', p.proname,
		pg_get_function_identity_arguments(p.oid), pg_get_function_result(p.oid), p.prokind, p.provolatile,
		p.proisstrict, p.proparallel, obj_description(p.oid, 'pg_proc')), E'\\n'
		ORDER BY p.proname, pg_get_function_identity_arguments(p.oid))
		FROM pg_proc p WHERE $where};
};
$ext->safe_psql('postgres', 'CREATE EXTENSION pg_uuidx');
my $want = $ext->safe_psql('postgres', $functions->(q{p.oid IN (SELECT objid FROM pg_depend
	WHERE classid = 'pg_proc'::regclass AND deptype = 'e'
	  AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'pg_uuidx'))}));
isnt($want, '', "the SQL build's extension has functions");
is($node->safe_psql('plain', $functions->(qq{p.pronamespace = '"$q"'::regnamespace})), $want,
	qq{schema "$schema" holds exactly the functions of the SQL build's extension, labels and comments});
is($node->safe_psql('other', $functions->(q{p.pronamespace = 'uuidx'::regnamespace})), $want,
	'without a schema: schema uuidx, the same functions');
# the consumers' positions table, as the SQL build's extension has it
my $table = table_definition(qq{c.relnamespace = '"$q"'::regnamespace AND c.relname = 'pg_uuidx_consumer_positions'});
my $want_table = $ext->safe_psql('postgres', table_definition(extension_relation('pg_uuidx_consumer_positions')));
like($want_table, qr/^pg_uuidx_consumer_positions\n/, "the SQL build's extension has pg_uuidx_consumer_positions");
is($node->safe_psql('plain', $table), $want_table,
	qq{schema "$schema" holds pg_uuidx_consumer_positions as the extension has it: columns, constraints, index, comment});
is($node->safe_psql('plain', qq{SELECT format('%s %s', c.relowner::regrole,
	has_table_privilege('public', c.oid, 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE'))
	FROM pg_class c WHERE c.relnamespace = '"$q"'::regnamespace AND c.relname = 'pg_uuidx_consumer_positions'}),
	'app f', '... owned by app; PUBLIC may not use it');
is($node->safe_psql('plain', qq{SELECT "$q".pg_uuidx_build() || ' ' || (SELECT count(*) FROM pg_proc
	WHERE pronamespace = '"$q"'::regnamespace AND proowner <> 'app'::regrole)}), 'sql 0',
	"pg_uuidx_build() = 'sql'; every function owned by app");
($rc, $out, $err) = $node->psql('plain', 'ALTER EXTENSION pg_uuidx UPDATE');
like($err, qr/extension "pg_uuidx" does not exist/, 'no extension: ALTER EXTENSION pg_uuidx UPDATE cannot run');
($rc, $out, $err) = psql_file($node, 'plain', 'app', $plain, { schema => $schema });
like($err, qr/already has functions named like pg_uuidx's/, 'a second run into the same schema stops at the clash check');

# that path keeps a function planted in public by a role that is not
# superuser (app owns the database, so public) out of a superuser's
# unqualified calls; with public before pg_catalog it would run
# (CVE-2018-1058)
$node->safe_psql('plain', q{SET ROLE app;
	CREATE FUNCTION public.now() RETURNS timestamptz LANGUAGE sql AS $$ SELECT timestamptz 'epoch' $$});
is($node->safe_psql('plain', q{SELECT current_setting('search_path') || ': ' || (now() = timestamptz 'epoch')}),
	qq{$path: false}, "the database's search_path: a superuser's now() is core's, not app's public.now()");
is($node->safe_psql('plain', qq{SET search_path = "$q", public, pg_catalog; SELECT now() = timestamptz 'epoch'}), 't',
	'with public before pg_catalog, the same call would run public.now()');
$node->safe_psql('plain', 'DROP FUNCTION public.now()');

# dump and restore of a database that uses them
$node->safe_psql('plain', app_schema());
my $dump_err = move_database(from => $node, to => $node, db => 'plain', to_db => 'restored', label => 'plain script',
	prepare => sub {
		$node->safe_psql('postgres', qq{CREATE DATABASE restored OWNER app;
			ALTER DATABASE restored SET search_path = $path});
	});
my ($ddl) = run_command([ 'pg_dump', '--schema-only', '-d', $node->connstr('plain') ]);
ok($ddl =~ /^CREATE FUNCTION "\Q$q\E"\.uuidv7\(\)/m && $ddl !~ /^CREATE EXTENSION/m,
	'the dump carries the functions themselves, not an extension');
is($node->safe_psql('restored', $functions->(qq{p.pronamespace = '"$q"'::regnamespace})), $want,
	'the restored schema holds the same functions');
is($node->safe_psql('restored', $table), $want_table, '... and the table pg_uuidx_consumer_positions');

done_testing();
