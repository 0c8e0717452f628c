# The planner support of id <@ r runs nothing another role made.  A
# superuser's query on a partitioned table, planned with this library, must
# not call a function that a role without privileges planted in a schema
# everyone may create in (public before PostgreSQL 15), nor one that a
# database owner who is not superuser added to the extension, under a
# catalog older than the library (pg_uuidx 1.2: no
# uuidv7_in_time_range_recheck of its own yet, the state between a package
# upgrade and ALTER EXTENSION ... UPDATE) or at the current version.  The
# planted functions record each call and try to make their owner superuser;
# the checks: no call, the right count, partitions still pruned, the role
# still not superuser.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use PgUuidxTest;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = new_node('hostile');
$node->safe_psql('postgres', 'CREATE ROLE mallory LOGIN');

# functions of mallory's named as pg_uuidx's planner helpers might be, in
# public: each call is written to public.calls, and tries ALTER ROLE
my $plant = q{
	CREATE TABLE public.calls (fn text, by_role text);
	GRANT INSERT ON public.calls TO PUBLIC;
	CREATE FUNCTION public.mallory_was_called(fn text) RETURNS boolean LANGUAGE plpgsql AS $$
	BEGIN
		INSERT INTO public.calls VALUES (fn, current_user);
		BEGIN
			ALTER ROLE mallory SUPERUSER;
		EXCEPTION WHEN insufficient_privilege THEN
			NULL;
		END;
		RETURN true;
	END $$;
	CREATE FUNCTION public.uuidv7_in_time_range_recheck(id uuid, r tstzrange) RETURNS boolean
		LANGUAGE sql AS $$ SELECT public.mallory_was_called('uuidv7_in_time_range_recheck') $$;
	CREATE FUNCTION public.uuidv6_in_time_range_recheck(id uuid, r tstzrange) RETURNS boolean
		LANGUAGE sql AS $$ SELECT public.mallory_was_called('uuidv6_in_time_range_recheck') $$;
};

# the superuser's table: 50 v7 ids a minute apart, in two partitions; 20
# of them in the range
my $table = q{
	CREATE TABLE events (id uuid PRIMARY KEY) PARTITION BY RANGE (id);
	CREATE TABLE events_a PARTITION OF events FOR VALUES FROM (MINVALUE) TO (uuidv7_boundary('2026-01-01 00:30+00'));
	CREATE TABLE events_b PARTITION OF events FOR VALUES FROM (uuidv7_boundary('2026-01-01 00:30+00')) TO (MAXVALUE);
	INSERT INTO events SELECT uuidv7_at('2026-01-01'::timestamptz + g * interval '1 minute') FROM generate_series(0, 49) g;
	ANALYZE events;
};
my $range = q{tstzrange('2026-01-01 00:05+00', '2026-01-01 00:25+00')};
# the same known only at run time: the edges are calls of pg_uuidx's edge
# functions
my $runtime_range = q{tstzrange('2026-01-01 00:05+00'::timestamptz + interval '0 s', '2026-01-01 00:25+00')};

# the superuser's queries in $db, v7 and v6 predicates, then the checks
sub superuser_queries_call_nothing
{
	my ($db, $what) = @_;
	my $count = $node->safe_psql($db, "SELECT count(*) FROM events WHERE id <@ $range");
	is($count, 20, "$what: id <@ r counts right");
	is($node->safe_psql($db, "SELECT count(*) FROM events WHERE id <@ $runtime_range"), 20,
		"$what: id <@ r of a range known at run time counts right");
	my $v6 = $node->safe_psql($db,
		"SELECT count(*) FROM events WHERE uuidv6_in_time_range(id, $range)");
	is($v6, 0, "$what: uuidv6_in_time_range() counts right (no v6 ids)");
	my $plan = $node->safe_psql($db, "EXPLAIN (COSTS OFF) SELECT count(*) FROM events WHERE id <@ $range");
	my $scans = () = $plan =~ /on events_[ab]/g;
	is($scans, 1, "$what: one partition scanned");
	is($node->safe_psql($db, 'SELECT count(*) FROM public.calls'), 0,
		"$what: mallory's functions never called");
	is($node->safe_psql('postgres', "SELECT rolsuper FROM pg_roles WHERE rolname = 'mallory'"),
		'f', "$what: mallory is no superuser");
	# each case on its own, whatever the one before did
	$node->safe_psql('postgres', 'ALTER ROLE mallory NOSUPERUSER');
	return;
}

# 1: catalog at 1.2 under this library, public open to everyone (as in every
# database made before PostgreSQL 15), mallory plants functions there
$node->safe_psql('postgres', 'CREATE DATABASE planted');
$node->safe_psql('planted', "CREATE EXTENSION pg_uuidx VERSION '1.2'; GRANT CREATE ON SCHEMA public TO PUBLIC");
$node->safe_psql('planted', "SET ROLE mallory; $plant");
$node->safe_psql('planted', $table);
superuser_queries_call_nothing('planted', 'planted in public, catalog 1.2');

# 2: mallory owns the database and installs the trusted extension herself,
# at 1.2, then adds her function to it: a member of the extension now, but
# no C function of pg_uuidx's library
$node->safe_psql('postgres', 'CREATE DATABASE owned OWNER mallory');
$node->safe_psql('owned', "SET ROLE mallory; CREATE EXTENSION pg_uuidx VERSION '1.2'; $plant
	ALTER EXTENSION pg_uuidx ADD FUNCTION public.uuidv7_in_time_range_recheck(uuid, tstzrange);
	ALTER EXTENSION pg_uuidx ADD FUNCTION public.uuidv6_in_time_range_recheck(uuid, tstzrange);");
is($node->safe_psql('owned', q{SELECT count(*) FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
	WHERE d.classid = 'pg_proc'::regclass AND d.deptype = 'e' AND p.proname LIKE '%recheck'}),
	2, 'owner of the extension: her functions are members of it');
$node->safe_psql('owned', $table);
superuser_queries_call_nothing('owned', 'added to the extension by its owner, catalog 1.2');

# 3: the same owner at the current version: pg_uuidx's own helpers hold
# the names; she adds a function of hers with our edge function's name in
# another schema, first on the path
$node->safe_psql('postgres', 'CREATE DATABASE owned_now OWNER mallory');
$node->safe_psql('owned_now', q{SET ROLE mallory; CREATE EXTENSION pg_uuidx;
	CREATE SCHEMA m;
	CREATE TABLE public.calls (fn text, by_role text);
	GRANT INSERT ON public.calls TO PUBLIC;
	CREATE FUNCTION m.uuidv7_range_lower(r tstzrange) RETURNS uuid LANGUAGE plpgsql AS $$
	BEGIN
		INSERT INTO public.calls VALUES ('uuidv7_range_lower', current_user);
		RETURN '00000000-0000-0000-0000-000000000000';
	END $$;
	ALTER EXTENSION pg_uuidx ADD FUNCTION m.uuidv7_range_lower(tstzrange);
	ALTER DATABASE owned_now SET search_path = m, public, pg_catalog;});
$node->safe_psql('owned_now', $table);
superuser_queries_call_nothing('owned_now', 'added to the extension by its owner, current version');

done_testing();
