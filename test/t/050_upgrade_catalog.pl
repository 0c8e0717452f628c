# Every version as CREATE EXTENSION makes it (the base script
# pg_uuidx--1.0.sql and the updates after it) against every older version
# installed first and then updated to it one version at a time, each in its
# own database, compared line by line: the extension's row (owner, schema,
# version, configuration tables), its members, every member's catalog row
# (pg_proc with its source, library symbol, flags, configuration and
# privileges; pg_aggregate; pg_operator; types; casts), every comment on a
# member and on the extension, the comments on core's pg_catalog functions
# of the same names (PostgreSQL 17/18 have uuidv7() and uuidv4(): an old
# script must not leave its comment on them), every dependency from or to a
# member, shared dependencies and initial privileges.  Once as a superuser
# into public, once as a database owner who is not a superuser into a
# schema of its own.  Every older version must have an update path to the
# default one.
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
my $owner = 'uuidx_owner';
$node->safe_psql('postgres', "CREATE ROLE $owner LOGIN CREATEDB NOSUPERUSER");
my $default = $node->safe_psql('postgres',
	"SELECT default_version FROM pg_available_extensions WHERE name = 'pg_uuidx'");
my @versions = split /\n/, $node->safe_psql('postgres', "SELECT version FROM pg_available_extension_versions
	WHERE name = 'pg_uuidx' ORDER BY string_to_array(version, '.')::int[]");
ok(@versions >= 3 && $versions[-1] eq $default, "versions available: @versions, the newest the default");

# the extension in a database, one line a fact, names instead of OIDs
my $describe = q{
WITH x AS (SELECT oid FROM pg_extension WHERE extname = 'pg_uuidx'),
m AS (
    SELECT d.classid, d.objid FROM pg_depend d JOIN x ON x.oid = d.refobjid
    WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
),
lines(line) AS (
    SELECT 'extension ' || concat_ws(' ', e.extname, e.extowner::regrole, e.extnamespace::regnamespace,
                                     e.extrelocatable, e.extversion, e.extconfig::regclass[], e.extcondition)
    FROM pg_extension e JOIN x ON x.oid = e.oid
    UNION ALL
    SELECT 'member ' || pg_describe_object(m.classid, m.objid, 0) FROM m
    UNION ALL
    SELECT 'function ' || p.oid::regprocedure || ' ' ||
           (to_jsonb(p) - '{oid,pronamespace,proowner,prolang,prosupport,prorettype,proargtypes,proallargtypes,provariadic,proargdefaults,prosqlbody}'::text[]
            || jsonb_build_object('namespace', p.pronamespace::regnamespace, 'owner', p.proowner::regrole,
                                  'language', (SELECT l.lanname FROM pg_language l WHERE l.oid = p.prolang),
                                  'support', p.prosupport::regprocedure, 'returns', p.prorettype::regtype,
                                  'argtypes', p.proargtypes::regtype[], 'allargtypes', p.proallargtypes::regtype[],
                                  'variadic', p.provariadic::regtype, 'defaults', pg_get_expr(p.proargdefaults, 0),
                                  'definition', CASE WHEN p.prokind <> 'a' THEN pg_get_functiondef(p.oid) END))::text
    FROM m JOIN pg_proc p ON m.classid = 'pg_proc'::regclass AND p.oid = m.objid
    UNION ALL
    SELECT 'aggregate ' || a.aggfnoid::regprocedure || ' ' ||
           (to_jsonb(a) - '{aggfnoid,aggsortop,aggtranstype,aggmtranstype}'::text[]
            || jsonb_build_object('sortop', a.aggsortop::regoperator, 'transtype', a.aggtranstype::regtype,
                                  'mtranstype', a.aggmtranstype::regtype))::text
    FROM m JOIN pg_aggregate a ON m.classid = 'pg_proc'::regclass AND a.aggfnoid = m.objid
    UNION ALL
    SELECT 'operator ' || o.oid::regoperator || ' ' ||
           (to_jsonb(o) - '{oid,oprnamespace,oprowner,oprleft,oprright,oprresult,oprcom,oprnegate}'::text[]
            || jsonb_build_object('namespace', o.oprnamespace::regnamespace, 'owner', o.oprowner::regrole,
                                  'left', o.oprleft::regtype, 'right', o.oprright::regtype,
                                  'result', o.oprresult::regtype, 'commutator', o.oprcom::regoperator,
                                  'negator', o.oprnegate::regoperator))::text
    FROM m JOIN pg_operator o ON m.classid = 'pg_operator'::regclass AND o.oid = m.objid
    UNION ALL
    SELECT 'type ' || t.oid::regtype || ' ' || (to_jsonb(t) - '{oid,typnamespace,typowner,typrelid,typelem,typarray,typbasetype}'::text[])::text
    FROM m JOIN pg_type t ON m.classid = 'pg_type'::regclass AND t.oid = m.objid
    UNION ALL
    SELECT 'cast ' || c.castsource::regtype || ' -> ' || c.casttarget::regtype || ' ' ||
           concat_ws(' ', c.castfunc::regprocedure, c.castcontext, c.castmethod)
    FROM m JOIN pg_cast c ON m.classid = 'pg_cast'::regclass AND c.oid = m.objid
    UNION ALL
    SELECT 'comment on ' || pg_describe_object(d.classoid, d.objoid, d.objsubid) || ': ' || d.description
    FROM pg_description d
    WHERE (d.classoid, d.objoid) IN (SELECT classid, objid FROM m)
       OR (d.classoid = 'pg_extension'::regclass AND d.objoid IN (SELECT oid FROM x))
    UNION ALL
    SELECT 'core comment on ' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || '): '
           || coalesce(obj_description(p.oid, 'pg_proc'), '(none)')
    FROM pg_proc p WHERE p.pronamespace = 'pg_catalog'::regnamespace
    AND p.proname IN (SELECT q.proname FROM m JOIN pg_proc q ON q.oid = m.objid)
    UNION ALL
    -- a member table's toast table is named by its OID (1.7's positions)
    SELECT regexp_replace('depend ' || pg_describe_object(d.classid, d.objid, d.objsubid) || ' on '
                          || pg_describe_object(d.refclassid, d.refobjid, d.refobjsubid) || ' ' || d.deptype::text,
                          'pg_toast\.pg_toast_[0-9]+', 'pg_toast.pg_toast_<oid>', 'g')
    FROM pg_depend d
    WHERE (d.classid, d.objid) IN (SELECT classid, objid FROM m)
       OR (d.refclassid, d.refobjid) IN (SELECT classid, objid FROM m)
    UNION ALL
    SELECT 'shared depend ' || pg_describe_object(d.classid, d.objid, d.objsubid) || ' on '
           || pg_describe_object(d.refclassid, d.refobjid, 0) || ' ' || d.deptype::text
    FROM pg_shdepend d
    WHERE d.dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
      AND ((d.classid, d.objid) IN (SELECT classid, objid FROM m)
           OR (d.classid = 'pg_extension'::regclass AND d.objid IN (SELECT oid FROM x)))
    UNION ALL
    SELECT 'initial privileges ' || pg_describe_object(i.classoid, i.objoid, i.objsubid) || ' '
           || i.privtype::text || ' ' || i.initprivs::text
    FROM pg_init_privs i WHERE (i.classoid, i.objoid) IN (SELECT classid, objid FROM m)
)
SELECT line FROM lines ORDER BY 1};

# as a role, with pg_catalog alone on the path (names print qualified)
sub run
{
	my ($db, $role, $sql) = @_;
	return $node->safe_psql($db, "SET search_path = pg_catalog;\n$sql", extra_params => [ '-U', $role ]);
}

# lines of $want missing from $got and lines of $got not in $want
sub changes
{
	my ($want, $got) = @_;
	my %w = map { $_ => 1 } split /\n/, $want;
	my %g = map { $_ => 1 } split /\n/, $got;
	return ((map { "- $_" } grep { !$g{$_} } sort keys %w), (map { "+ $_" } grep { !$w{$_} } sort keys %g));
}

for my $case ([ 'postgres', 'public' ], [ $owner, 'uuidx' ])
{
	my ($role, $s) = @$case;
	my %fresh;
	for my $v (@versions)
	{
		(my $db = "fresh_${s}_$v") =~ tr/./_/;
		run('postgres', $role, "CREATE DATABASE $db");
		run($db, $role, "CREATE SCHEMA $s") if $s ne 'public';
		run($db, $role, "CREATE EXTENSION pg_uuidx VERSION '$v' SCHEMA $s");
		$fresh{$v} = run($db, 'postgres', $describe);
		# from 1.7 a configuration table (the consumers' positions), dumped
		# with a condition
		like($fresh{$v}, qr/^extension pg_uuidx $role $s f \Q$v\E(?: \{\Q$s.\E?pg_uuidx_consumer_positions\} \{.+\})?$/m,
			"$role, $s: fresh $v installed");
	}
	my $nfun = () = $fresh{$default} =~ /^function /mg;
	ok($nfun >= 50, "$role, $s: the fresh install of $default has its functions ($nfun)");
	my %names = map { $_ => 1 } $fresh{$default} =~ /^function \S+?\.(\w+)\(/mg;
	my $names = join ', ', map { "'$_'" } sort keys %names;
	my @core = grep { /^core comment on / } split /\n/, $fresh{$default};
	is(join("\n", @core), run('postgres', 'postgres', qq{SELECT 'core comment on ' || p.proname || '('
		|| pg_get_function_identity_arguments(p.oid) || '): ' || coalesce(obj_description(p.oid, 'pg_proc'), '(none)')
		FROM pg_proc p WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.proname IN ($names) ORDER BY 1}),
		"$role, $s: core's comments on its same-named functions as in a database without pg_uuidx");

	for my $i (0 .. $#versions - 1)
	{
		my $from = $versions[$i];
		(my $db = "from_${s}_$from") =~ tr/./_/;
		is(run('postgres', 'postgres', "SELECT count(*) FROM pg_extension_update_paths('pg_uuidx')
			WHERE source = '$from' AND target = '$default' AND path IS NOT NULL"), 1,
			"$from: an update path to $default exists");
		run('postgres', $role, "CREATE DATABASE $db");
		run($db, $role, "CREATE SCHEMA $s") if $s ne 'public';
		run($db, $role, "CREATE EXTENSION pg_uuidx VERSION '$from' SCHEMA $s");
		for my $to (@versions[ $i + 1 .. $#versions ])
		{
			run($db, $role, "ALTER EXTENSION pg_uuidx UPDATE TO '$to'");
			my @changed = changes($fresh{$to}, run($db, 'postgres', $describe));
			ok(!@changed, "$role, $s: $from updated step by step to $to = fresh $to")
			  or diag(join "\n", 'differences (- fresh, + updated):', @changed);
		}
	}
}
done_testing();
