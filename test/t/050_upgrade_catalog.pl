# A fresh install of the default version against every older version
# upgraded to it (as contrib's pg_stat_statements oldextversions does):
# each in its own database, compared object by object: the extension's
# members, functions' signatures, volatility, parallel labels, strictness,
# security, cost, C symbol, configuration and privileges, every comment on
# a member, and the comments on core's pg_catalog functions of the same
# names (PostgreSQL 17/18 have uuidv7() and uuidv4(); an old script must
# not leave its comment on them after the update).  Every older version must
# have an update path to the default one.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use PgUuidxTest;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = new_node('upgrade');
my $default = $node->safe_psql('postgres',
	"SELECT default_version FROM pg_available_extensions WHERE name = 'pg_uuidx'");
my @old = split /\n/, $node->safe_psql('postgres', "SELECT version FROM pg_available_extension_versions
	WHERE name = 'pg_uuidx' AND version <> '$default' ORDER BY string_to_array(version, '.')::int[]");
ok(@old >= 2, "older versions available: @old");

my $members = q{
	SELECT d.objid, d.classid FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
	WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e' AND e.extname = 'pg_uuidx'};
# core's functions by name and arguments (::regprocedure would qualify those
# that pg_uuidx's shadow)
my $core_name = q{p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')'};
my %query = (
	members => qq{SELECT pg_describe_object(classid, objid, 0) FROM ($members) m ORDER BY 1},
	functions => qq{SELECT p.oid::regprocedure || ' ' || concat_ws(' ', p.prokind, p.provolatile, p.proparallel,
	        p.proisstrict, p.prosecdef, p.proleakproof, p.procost, p.prorows, p.prorettype::regtype,
	        p.proretset, p.prosrc, p.probin, p.proconfig, pg_get_expr(p.proargdefaults, 0), p.proacl)
	    FROM ($members) m JOIN pg_proc p ON p.oid = m.objid AND m.classid = 'pg_proc'::regclass ORDER BY 1},
	comments => qq{SELECT pg_describe_object(classid, objid, 0) || ': ' || coalesce(obj_description(objid,
	        (SELECT relname FROM pg_class WHERE oid = classid)), '(none)') FROM ($members) m ORDER BY 1},
	core_comments => qq{SELECT $core_name || ': ' || coalesce(obj_description(p.oid, 'pg_proc'), '(none)')
	    FROM pg_proc p WHERE p.pronamespace = 'pg_catalog'::regnamespace
	    AND p.proname IN (SELECT q.proname FROM ($members) m JOIN pg_proc q ON q.oid = m.objid) ORDER BY 1},
	extension => q{SELECT extversion || ' ' || extrelocatable || ' ' || extnamespace::regnamespace
	    FROM pg_extension WHERE extname = 'pg_uuidx'});

# what a database shows
sub catalog
{
	my ($db) = @_;
	return { map { $_ => $node->safe_psql($db, $query{$_}) } keys %query };
}
$node->safe_psql('postgres', 'CREATE DATABASE fresh');
$node->safe_psql('fresh', "CREATE EXTENSION pg_uuidx VERSION '$default'");
my $fresh = catalog('fresh');
my $names = $node->safe_psql('fresh', qq{SELECT string_agg(DISTINCT quote_literal(p.proname), ', ')
	FROM ($members) m JOIN pg_proc p ON p.oid = m.objid AND m.classid = 'pg_proc'::regclass});
my $nfun = my @f = split /\n/, $fresh->{functions};
ok($nfun >= 15, "the fresh install has its functions ($nfun)");
is($fresh->{extension}, "$default false public", "fresh install: version $default, not relocatable, in public");
is($fresh->{core_comments}, $node->safe_psql('postgres', "SELECT $core_name || ': '
	|| coalesce(obj_description(p.oid, 'pg_proc'), '(none)') FROM pg_proc p
	WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.proname IN ($names) ORDER BY 1"),
	"fresh install: core's comments on its same-named functions as in a database without pg_uuidx");

for my $v (@old)
{
	(my $db = "from_$v") =~ tr/./_/;
	$node->safe_psql('postgres', "CREATE DATABASE $db");
	is($node->safe_psql('postgres', "SELECT path FROM pg_extension_update_paths('pg_uuidx')
		WHERE source = '$v' AND target = '$default'") ne '', 1, "$v: an update path to $default exists");
	$node->safe_psql($db, "CREATE EXTENSION pg_uuidx VERSION '$v'");
	$node->safe_psql($db, 'ALTER EXTENSION pg_uuidx UPDATE');
	my $up = catalog($db);
	for my $what (sort keys %query)
	{
		is($up->{$what}, $fresh->{$what}, "$v upgraded to $default = fresh $default: $what");
	}
}
done_testing();
