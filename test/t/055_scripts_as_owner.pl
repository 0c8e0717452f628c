# The install and update scripts, run for a database owner who is not a
# superuser, change nothing outside the extension.  pg_uuidx is trusted, so
# CREATE EXTENSION and ALTER EXTENSION ... UPDATE by such a role run the
# script as the bootstrap superuser, with the target schema (which that role
# may create objects in) on the search_path behind pg_catalog.
#
# For every version pg_available_extension_versions lists, into public and
# into a schema of the owner's: install it, update one version at a time to
# the newest, drop it.  After every step pg_catalog holds the functions,
# operators and types it held before the install, and the objects that are
# not pg_uuidx's are as they were: every function, aggregate, operator,
# type, cast, schema, role, language and extension row, every comment (on
# pg_catalog's functions of pg_uuidx's names too: uuidv7(), uuidv4(),
# uuid_extract_timestamp(), ... on PostgreSQL 17 and 18), and every shared
# comment.  pg_uuidx's own objects are all in the target schema, each
# function with its comment.
#
# Before the install the owner plants, in the target schema, operators and
# functions that a script would call instead of pg_catalog's if it named
# them without a schema where the argument types do not match pg_catalog's
# exactly (= between oid and a reg* type, obj_description(oid, text), ...),
# and functions of pg_uuidx's names with other arguments.  Each records its
# call and, called by a superuser, makes the owner a superuser: none may be
# called, and the owner stays what it was.  A function with one of pg_uuidx's
# signatures in a third schema gives a script's query over pg_proc for
# those a row to test with the planted operators.
#
# Installing into a schema the installing role may not create objects in
# (pg_catalog, another role's schema) fails and changes nothing either.
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use PgUuidxTest;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = new_node('owner');
my $owner = 'uuidx_owner';

# the superuser's queries see pg_catalog only, never the planted objects
sub su
{
	my ($db, $sql) = @_;
	return $node->safe_psql($db, "SET search_path = pg_catalog, pg_temp;\n$sql");
}

# the owner's commands: (error text or '') and its output
sub as_owner
{
	my ($db, $sql) = @_;
	my ($rc, $out, $err) = $node->psql($db, $sql, extra_params => [ '-U', $owner ]);
	return ($rc == 0 ? '' : ($err || "psql exited with $rc"), $out);
}

su('postgres', "CREATE ROLE $owner LOGIN CREATEDB NOSUPERUSER");
my @versions = split /\n/, su('postgres', q{SELECT version FROM pg_available_extension_versions
	WHERE name = 'pg_uuidx' ORDER BY string_to_array(version, '.')::int[]});
ok(@versions >= 3, "versions available: @versions");

# pg_uuidx's member objects (none before the install)
my $members = q{SELECT d.classid, d.objid FROM pg_depend d
	JOIN pg_extension e ON e.oid = d.refobjid AND d.refclassid = 'pg_extension'::regclass::oid
	WHERE e.extname = 'pg_uuidx' AND d.deptype = 'e'};
my $outside = sub {
	my ($catalog, $key) = @_;
	return "NOT EXISTS (SELECT FROM ($members) m WHERE m.classid = '$catalog'::regclass::oid AND m.objid = $key)";
};

# Everything that is not pg_uuidx's: one line an object, its name and a
# digest of its whole catalog row (or the comment itself).
my $snapshot = join "\nUNION ALL\n",
  "SELECT 'function ' || p.oid::regprocedure || ' ' || md5(p::text) FROM pg_proc p WHERE "
  . $outside->('pg_proc', 'p.oid'),
  "SELECT 'aggregate ' || a.aggfnoid::regprocedure || ' ' || md5(a::text) FROM pg_aggregate a WHERE "
  . $outside->('pg_proc', 'a.aggfnoid'),
  "SELECT 'operator ' || o.oid::regoperator || ' ' || md5(o::text) FROM pg_operator o WHERE "
  . $outside->('pg_operator', 'o.oid'),
  "SELECT 'type ' || t.oid::regtype || ' ' || md5(t::text) FROM pg_type t WHERE "
  . $outside->('pg_type', 't.oid')
  # the row type of a member table, and its array type, are the table's
  . ' AND ' . $outside->('pg_class', 't.typrelid')
  . ' AND ' . $outside->('pg_class', '(SELECT e.typrelid FROM pg_type e WHERE e.oid = t.typelem)'),
  (map { "SELECT 'in pg_catalog: $_->[0] ' || oid::$_->[1] FROM $_->[2]
	WHERE $_->[3] = 'pg_catalog'::regnamespace::oid" }
	  ([ 'function', 'regprocedure', 'pg_proc', 'pronamespace' ],
		[ 'operator', 'regoperator', 'pg_operator', 'oprnamespace' ],
		[ 'type', 'regtype', 'pg_type', 'typnamespace' ])),
  q{SELECT 'cast ' || c.castsource::regtype || ' -> ' || c.casttarget::regtype || ' ' || md5(c::text) FROM pg_cast c},
  q{SELECT 'schema ' || n.nspname || ' ' || md5(n::text) FROM pg_namespace n},
  q{SELECT 'role ' || r.rolname || ' ' || md5(r::text) FROM pg_authid r},
  q{SELECT 'language ' || l.lanname || ' ' || md5(l::text) FROM pg_language l},
  q{SELECT 'extension ' || x.extname || ' ' || md5(x::text) FROM pg_extension x WHERE x.extname <> 'pg_uuidx'},
  "SELECT 'comment on ' || pg_describe_object(d.classoid, d.objoid, d.objsubid) || ': '
	|| replace(d.description, E'\\n', ' ') FROM pg_description d
	WHERE NOT (d.classoid = 'pg_extension'::regclass::oid
	           AND d.objoid IN (SELECT oid FROM pg_extension WHERE extname = 'pg_uuidx'))
	AND NOT EXISTS (SELECT FROM ($members) m WHERE m.classid = d.classoid AND m.objid = d.objoid)",
  q{SELECT 'shared comment on ' || pg_describe_object(d.classoid, d.objoid, 0) || ': '
	|| replace(d.description, E'\n', ' ') FROM pg_shdescription d};
$snapshot = "SELECT * FROM ($snapshot) s(line) ORDER BY 1";

# lines of $before missing from $after and lines new in $after
sub changes
{
	my ($before, $after) = @_;
	my %b = map { $_ => 1 } split /\n/, $before;
	my %a = map { $_ => 1 } split /\n/, $after;
	return ((map { "- $_" } grep { !$a{$_} } sort keys %b), (map { "+ $_" } grep { !$b{$_} } sort keys %a));
}

# Objects the owner plants in schema $s: bait($what) records a call and,
# run by a superuser, makes the owner one.
sub plant
{
	my ($db, $s) = @_;
	my $sql = qq{
CREATE TABLE $s.bait_calls (who name, what text);
CREATE FUNCTION $s.bait(what text) RETURNS void LANGUAGE plpgsql AS \$b\$
BEGIN
    INSERT INTO $s.bait_calls VALUES (current_user, what);
    IF (SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.rolname = current_user) THEN
        ALTER ROLE $owner SUPERUSER;
    END IF;
END \$b\$;
};
	# = where pg_catalog has none for these types (or one that is exact)
	for my $args ('oid, regnamespace', 'oid, regprocedure', 'oid, regclass', 'oid, regtype',
		'name, text', 'text, name')
	{
		my ($l, $r) = split /, /, $args;
		my $as = $l eq 'oid' ? 'oid' : 'text';
		$sql .= qq{
CREATE FUNCTION $s.bait_eq($args) RETURNS boolean LANGUAGE plpgsql AS \$b\$
BEGIN
    PERFORM $s.bait('=($args)');
    RETURN \$1::pg_catalog.$as OPERATOR(pg_catalog.=) \$2::pg_catalog.$as;
END \$b\$;
CREATE OPERATOR $s.= (LEFTARG = $l, RIGHTARG = $r, FUNCTION = $s.bait_eq);
};
	}
	# functions named like pg_catalog's or pg_uuidx's, with other arguments
	my %shadow = (
		'obj_description(oid, text)' => 'text',
		'format(text, name, text)' => 'text',
		'array_to_string(regtype[], text)' => 'text',
		'current_setting(name)' => 'text',
		'to_regprocedure(name)' => 'regprocedure',
		'uuid_extract_timestamp(text)' => 'timestamptz',
		'uuid_smaller(uuid, anyelement)' => 'uuid',
		'uuidv7(timestamptz)' => 'uuid');
	for my $f (sort keys %shadow)
	{
		$sql .= qq{
CREATE FUNCTION $s.$f RETURNS $shadow{$f} LANGUAGE plpgsql AS \$b\$
BEGIN
    PERFORM $s.bait('$f');
    RETURN NULL;
END \$b\$;
};
	}
	# and a function of one of pg_uuidx's names and arguments in another
	# schema, so that a query over pg_proc for those finds a row
	$sql .= qq{
CREATE SCHEMA IF NOT EXISTS bait_side;
CREATE FUNCTION bait_side.uuidv7() RETURNS uuid LANGUAGE sql AS 'SELECT NULL::uuid';
};
	my ($err) = as_owner($db, $sql);
	is($err, '', "$db: the owner plants its objects in $s");
	return;
}

# After a step: nothing outside pg_uuidx changed, no planted object was
# called, pg_uuidx (when there) at $version in $s, its functions commented.
sub check_step
{
	my ($db, $s, $step, $before, $version) = @_;
	my @changed = changes($before, su($db, $snapshot));
	ok(!@changed, "$db, $step: nothing outside the extension changed")
	  or diag(join "\n", 'changed:', @changed[ 0 .. ($#changed < 19 ? $#changed : 19) ]);
	my $calls = su($db, "SELECT string_agg(who || ' called ' || what, ', ') FROM $s.bait_calls");
	my $super = su($db, "SELECT rolsuper FROM pg_roles WHERE rolname = '$owner'");
	ok($calls eq '' && $super eq 'f', "$db, $step: no planted object was called")
	  or diag("calls: $calls; $owner superuser: $super");
	# the next steps run as a non-superuser again
	su($db, "ALTER ROLE $owner NOSUPERUSER; TRUNCATE $s.bait_calls") if $calls ne '' || $super ne 'f';
	return unless defined $version;
	is( su( $db, qq{SELECT e.extversion || ' ' || e.extnamespace::regnamespace || ' ' || e.extowner::regrole
			|| ', outside $s: ' || count(*) FILTER (WHERE n.nspname <> '$s')
			|| ', functions without a comment: ' || count(*) FILTER (WHERE m.classid = 'pg_proc'::regclass::oid
			    AND obj_description(m.objid, 'pg_proc') IS NULL)
			FROM pg_extension e, ($members) m
			LEFT JOIN pg_proc p ON m.classid = 'pg_proc'::regclass::oid AND p.oid = m.objid
			LEFT JOIN pg_operator o ON m.classid = 'pg_operator'::regclass::oid AND o.oid = m.objid
			JOIN pg_namespace n ON n.oid = coalesce(p.pronamespace, o.oprnamespace)
			WHERE e.extname = 'pg_uuidx' GROUP BY e.oid}),
		"$version $s $owner, outside $s: 0, functions without a comment: 0",
		"$db, $step: pg_uuidx $version in $s, owned by $owner, its functions commented");
	return;
}

for my $s ('public', 'uuidx')
{
	for my $i (0 .. $#versions)
	{
		(my $db = "${s}_$versions[$i]") =~ tr/./_/;
		my ($err) = as_owner('postgres', "CREATE DATABASE $db");
		is($err, '', "$db: the owner creates the database");
		($err) = as_owner($db, "CREATE SCHEMA $s") if $s ne 'public';
		plant($db, $s);
		my $before = su($db, $snapshot);

		($err) = as_owner($db, "CREATE EXTENSION pg_uuidx VERSION '$versions[$i]' SCHEMA $s");
		is($err, '', "$db: the owner installs $versions[$i] into $s");
		check_step($db, $s, "CREATE EXTENSION VERSION '$versions[$i]'", $before, $versions[$i]);
		for my $next (@versions[ $i + 1 .. $#versions ])
		{
			($err) = as_owner($db, "ALTER EXTENSION pg_uuidx UPDATE TO '$next'");
			is($err, '', "$db: the owner updates to $next");
			check_step($db, $s, "UPDATE TO '$next'", $before, $next);
		}
		($err) = as_owner($db, 'DROP EXTENSION pg_uuidx');
		is($err, '', "$db: the owner drops the extension");
		check_step($db, $s, 'DROP EXTENSION', $before);
	}
}

# pg_catalog, or a schema of another role, as the target: the owner may not
# create objects there, and pg_uuidx's scripts run as a superuser may not
# either
my ($err) = as_owner('postgres', 'CREATE DATABASE not_owners_schemas');
su('not_owners_schemas', 'CREATE SCHEMA theirs');
plant('not_owners_schemas', 'public');
my $before = su('not_owners_schemas', $snapshot);
for my $s ('pg_catalog', 'theirs')
{
	for my $v (@versions)
	{
		($err) = as_owner('not_owners_schemas', "CREATE EXTENSION pg_uuidx VERSION '$v' SCHEMA $s");
		like($err, qr/ERROR:  permission denied for schema $s/,
			"not_owners_schemas: the owner cannot install $v into $s")
		  or as_owner('not_owners_schemas', 'DROP EXTENSION IF EXISTS pg_uuidx');
		check_step('not_owners_schemas', 'public', "CREATE EXTENSION VERSION '$v' SCHEMA $s", $before);
	}
}
done_testing();
