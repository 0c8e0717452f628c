# A clock shared by every process of the cluster (test/t/clockshim): the
# per-session ordering promise with parallel workers, clock readings that no
# id can hold, times past 2262, and uuidv7(interval) against core's on 18.
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

# the clock of test/t/clockshim (PgUuidxTest's clock_shim): moved from SQL
# with COPY ... TO PROGRAM setclock
my $clock = clock_shim();
my $node = new_node('shared_clock',
	conf => ['max_worker_processes = 8'],
	env => $clock->{env});
my $major = $node->safe_psql('postgres', 'SHOW server_version_num') / 10000;

# set_clock(mode, sec, nsec); freeze(ts, extra ns); step(seconds); real()
my $setup = <<"SQL";
CREATE EXTENSION IF NOT EXISTS pg_uuidx;
CREATE FUNCTION pg_temp.set_clock(mode int, sec bigint, nsec bigint) RETURNS void
LANGUAGE plpgsql AS \$\$
BEGIN
    EXECUTE format('COPY (SELECT) TO PROGRAM %L', format('$clock->{setclock} %s %s %s', mode, sec, nsec));
END \$\$;
CREATE FUNCTION pg_temp.freeze(ts timestamptz, extra_ns int DEFAULT 0) RETURNS void
LANGUAGE sql AS \$\$
    SELECT pg_temp.set_clock(2, floor(extract(epoch FROM ts))::bigint,
        ((extract(epoch FROM ts) - floor(extract(epoch FROM ts))) * 1000000000)::bigint + extra_ns)
\$\$;
CREATE FUNCTION pg_temp.step(seconds int) RETURNS void
LANGUAGE sql AS \$\$ SELECT pg_temp.set_clock(1, seconds, 0) \$\$;
CREATE FUNCTION pg_temp.real() RETURNS void
LANGUAGE sql AS \$\$ SELECT pg_temp.set_clock(0, 0, 0) \$\$;
-- the SQLSTATE a statement raises, or 'ok'
CREATE FUNCTION pg_temp.try(q text) RETURNS text
LANGUAGE plpgsql AS \$\$
BEGIN
    EXECUTE q;
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE;
END \$\$;
SET TimeZone = 'UTC';
-- pg_uuidx's functions before core's of the same names (17, 18)
SET search_path = public, pg_catalog;
SQL

sub session
{
	my ($sql) = @_;
	my ($out, $err);
	# an error is a result to compare, so a test reports it and goes on
	$node->psql('postgres', $setup . $sql, stdout => \$out, stderr => \$err) == 0
	  or return "error: $err";
	# void results (the clock setters) print empty lines
	return join "\n", grep { $_ ne '' } split /\n/, $out;
}

# the shim reaches this backend
is( session(q{SELECT pg_temp.freeze('2001-02-03 04:05:06.789+00');
              SELECT uuid_extract_timestamp(uuidv7())}),
	'2001-02-03 04:05:06.789+00',
	'a frozen shared clock reaches uuidv7()');
session('SELECT pg_temp.real()');

$node->safe_psql('postgres', 'CREATE EXTENSION IF NOT EXISTS pg_uuidx');
is( $node->safe_psql('postgres', q{
		SELECT string_agg(sig, ', ' ORDER BY sig COLLATE "C") FROM (
		SELECT p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ') ' || p.proparallel::text AS sig
		FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.deptype = 'e'
		JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'pg_uuidx'
		WHERE p.proname IN ('uuidv7', 'uuidv6')) s}),
	'uuidv6() r, uuidv7() r, uuidv7(shift interval) r',
	'the ordered generators are PARALLEL RESTRICTED');

# Parallel workers: the session makes an id, the clock steps back 30 s for
# every process, then a parallel plan makes ids.  With the functions labelled
# PARALLEL SAFE (1.1) workers start from fresh state and make ids below the
# session's last one; as shipped (RESTRICTED) the leader makes them all.
$node->safe_psql('postgres', q{
	CREATE TABLE src AS SELECT g FROM generate_series(1, 300000) g;
	ANALYZE src;
});
my $parallel = q{
	SET max_parallel_workers_per_gather = 2;
	SET parallel_setup_cost = 0;
	SET parallel_tuple_cost = 0;
	SET min_parallel_table_scan_size = 0;
};
for my $gen ('uuidv7()', 'uuidv6()')
{
	my %below;
	for my $label ('SAFE', 'RESTRICTED')
	{
		my $out = session($parallel . qq{
			ALTER FUNCTION $gen PARALLEL $label;
			CREATE TEMP TABLE last AS SELECT $gen AS id;
			SELECT pg_temp.step(-30);
			DROP TABLE IF EXISTS made;
			CREATE TABLE made AS SELECT $gen AS id, g FROM src;
			SELECT pg_temp.real();
			SELECT count(*) FILTER (WHERE id <= (SELECT id FROM last)), count(DISTINCT id) FROM made;
		});
		my ($below, $distinct) = split /\|/, (split /\n/, $out)[-1];
		$below{$label} = $below;
		is($distinct, 300000, "$gen, PARALLEL $label: 300000 distinct ids");
		my $plan = session($parallel . qq{
			ALTER FUNCTION $gen PARALLEL $label;
			EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
			CREATE TABLE made2 AS SELECT $gen AS id, g FROM src;
			DROP TABLE made2;
		});
		like($plan, qr/Workers Launched: [12]/, "$gen, PARALLEL $label: the plan ran with workers");
	}
	cmp_ok($below{SAFE}, '>', 0,
		"$gen labelled PARALLEL SAFE: workers made ids below the session's last (the 1.1 defect, seen: $below{SAFE})");
	is($below{RESTRICTED}, 0, "$gen as shipped (PARALLEL RESTRICTED): no id below the session's last");
}
$node->safe_psql('postgres', 'DROP TABLE made, src');

# One reading no v7 id can hold (before 1970, after 10889) fails that call
# only: the same session makes ids again, in order, once the clock is back.
# It fails also where the horizon's shared state exists (17 and later, or the
# library preloaded), whose floor would have moved the reading up.  v6 holds
# 1969: its id is the clock's where there is no such state, the floor's where
# there is (here the clock of the state's first use, frozen in 2001 above: a
# transaction's first id is never below a horizon that may have been handed
# out).
my $v6_1969 = $major >= 17 ? 'floor' : 'clock';
is( session(q{
		CREATE TEMP TABLE ids (n serial, id uuid);
		INSERT INTO ids (id) SELECT uuidv7();
		SELECT pg_temp.freeze('1969-12-31 23:59:59.5+00');
		SELECT pg_temp.try('SELECT uuidv7()') || ' ' || pg_temp.try($$SELECT uuidv7('1 day')$$);
		SELECT CASE WHEN t = '1969-12-31 23:59:59.5+00' THEN 'clock'
		            WHEN t > '1970-01-01' THEN 'floor' END AS v6_before_1970
		FROM (SELECT uuid_extract_timestamp(uuidv6()) AS t) s;
		SELECT pg_temp.real();
		INSERT INTO ids (id) SELECT uuidv7();
		INSERT INTO ids (id) SELECT uuidv7('1 day');
		SELECT pg_temp.freeze('10890-01-01 00:00+00');
		SELECT pg_temp.try('SELECT uuidv7()');
		SELECT pg_temp.real();
		INSERT INTO ids (id) SELECT uuidv7();
		SELECT bool_and(id > lag) AND count(*) = 2
		FROM (SELECT id, lag(id) OVER (ORDER BY n) FROM ids WHERE n <> 3) s WHERE lag IS NOT NULL;
		SELECT abs(extract(epoch FROM uuid_extract_timestamp(id) - now())) < 60 FROM ids WHERE n = 4;
	}),
	"22008 22008\n$v6_1969\n22008\nt\nt",
	'out-of-range clock readings fail one call each and leave the session working, in order');

# Past 2262-04-11 (int64 nanoseconds end there) up to each version's limit.
is( session(q{
		SELECT pg_temp.freeze('2262-04-12 00:00:00.123456+00');
		SELECT uuid_extract_timestamp(uuidv6()), uuid_extract_timestamp(uuidv7());
	}),
	"2262-04-12 00:00:00.123456+00|2262-04-12 00:00:00.123+00",
	'v6 and v7 right after 2262-04-11 23:47:16');
is( session(q{
		SELECT pg_temp.freeze('5236-03-31 21:21:00.684697+00');
		SELECT uuid_extract_timestamp(uuidv6()), uuid_extract_timestamp(uuidv7());
		SELECT pg_temp.freeze('5236-03-31 21:21:00.684698+00');
		SELECT pg_temp.try('SELECT uuidv6()'), uuid_extract_timestamp(uuidv7());
	}),
	"5236-03-31 21:21:00.684697+00|5236-03-31 21:21:00.684+00\n22008|5236-03-31 21:21:00.684+00",
	'v6 to its last instant in 5236, then 22008; v7 goes on');
is( session(q{
		SELECT pg_temp.freeze('10889-08-02 05:31:50.655999+00');
		SELECT uuid_extract_timestamp(uuidv7());
		SELECT pg_temp.freeze('10889-08-02 05:31:50.656+00');
		SELECT pg_temp.try('SELECT uuidv7()');
	}),
	"10889-08-02 05:31:50.655+00\n22008",
	'v7 to its last millisecond in 10889, then 22008');

# uuidv7(interval): the tick is the floor of the exact shifted instant, clock
# nanoseconds included.  Each call in a fresh session, so that core's own
# per-backend clock advance does not move its reading.
sub tick_of
{
	my ($shift, $fn) = @_;
	return session("SELECT left(${fn}('$shift'::interval)::text, 18)");
}
session(q{SELECT pg_temp.freeze('2026-01-01 00:00:00.000001+00')});
is(tick_of('-1 microsecond', 'public.uuidv7'), '019b76da-a800-7000',
	'clock at 00:00:00.000001 shifted by -1 us: tick 0 of that millisecond');
is( session(q{
		SELECT uuid_extract_timestamp(public.uuidv7('-1 microsecond')),
		       public.uuidv7('-1 microsecond') >= uuidv7_boundary('2026-01-01 00:00+00')}),
	'2026-01-01 00:00:00+00|t',
	'... which reads back as 00:00:00 and sorts at or above its own boundary');
is( session(q{
		SELECT uuid_extract_timestamp(public.uuidv7('1970-01-01 00:00+00'::timestamptz - '2026-01-01 00:00:00.000001+00'))}),
	'1970-01-01 00:00:00+00',
	'a shift landing exactly on 1970-01-01 00:00:00 is in range');

SKIP:
{
	skip 'core uuidv7(interval) is PostgreSQL 18 or later', 1 if $major < 18;
	my @shifts = ('-1 microsecond', '1 microsecond', '244 microseconds', '245 microseconds',
		'999 microseconds', '-999 microseconds', '-1 millisecond', '1 day -1 microsecond',
		'-1 month', '-56 years');
	push @shifts, sprintf('%d microseconds', int(rand(2_000_000_000)) - 1_000_000_000) for 1 .. 40;
	my @differ;
	for my $frozen ([ '2026-01-01 00:00:00.000001+00', 0 ], [ '2026-03-29 12:34:56.789012+00', 345 ])
	{
		session("SELECT pg_temp.freeze('$frozen->[0]', $frozen->[1])");
		for my $shift (@shifts)
		{
			my ($ours, $core) = (tick_of($shift, 'public.uuidv7'), tick_of($shift, 'pg_catalog.uuidv7'));
			push @differ, "$frozen->[0]+$frozen->[1]ns $shift: $ours vs $core" if $ours ne $core;
		}
	}
	is(join('; ', @differ), '', 'uuidv7(interval) equals core\'s to the tick for ' . 2 * @shifts . ' shifts');
}

session('SELECT pg_temp.real()');
$node->stop;
done_testing();
