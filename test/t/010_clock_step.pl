# The wall clock steps back mid-session.
#
# The server runs under the test clock of test/t/clockshim, which every
# process reads from one mapped file on every clock call, PostgreSQL's own
# timestamps (clock_timestamp()) included; this script moves it between the
# statements of ONE long-lived session, so all ids come from one backend.
# CLOCK_MONOTONIC is left alone, as an NTP step would leave it.  Where the
# clock must be behind the last id, it is pinned at a time worked out from
# that id, so how long the machine takes between statements (a loaded
# machine) changes nothing:
#   phase 1  the real clock           ids follow the clock
#   phase 2  pinned 30 s before phase 1's last id: ids keep that id's time
#            field (counter only)
#   phase 3  pinned 0.2 s later, still behind: the same
#   phase 4  the real clock again     ids follow the clock
#   phase 5  pinned 1 s before phase 4's last id: ids keep that id's time
#            field
#   phase 6  the real clock - 1 s, set 1.3 s before the phase starts, so at
#            least 0.3 s past every id of phase 4: ids follow the clock
# For uuidv7() and uuidv6(): strictly increasing over all phases, stuck
# while behind, within 1 ms of the (faked) clock when not; and the clock
# each id was made at is the one this script set: exactly the pin, or the
# real clock (read here before and after the phase) plus the offset.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use POSIX qw(floor);
use PgUuidxTest;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(gettimeofday);

my $n = 500;
my $clock = clock_shim(gettimeofday => 1);

my $node = new_node('clock', env => $clock->{env});
helpers($node);
$node->safe_psql('postgres', q{
CREATE EXTENSION pg_uuidx;
-- one row per id: the clock read just before and just after the call
CREATE TABLE ids (phase int, fn text, n int, pid int DEFAULT pg_backend_pid(),
                  before_ts timestamptz, id uuid, after_ts timestamptz, PRIMARY KEY (fn, phase, n));
CREATE FUNCTION gen(p int, cnt int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE f text;
BEGIN
    FOREACH f IN ARRAY ARRAY['uuidv6', 'uuidv7'] LOOP
        EXECUTE format('INSERT INTO ids (phase, fn, n, before_ts, id, after_ts)
                        SELECT $1, $2, g, clock_timestamp(), public.%I(), clock_timestamp()
                        FROM generate_series(1, $3) AS g', f) USING p, f, cnt;
    END LOOP;
END $$;
-- each phase's clock, in microseconds since 1970: pinned at pinned_us, or
-- the real clock plus offset_us, which this script read as real_from_us
-- just before the phase and real_to_us just after it
CREATE TABLE clock (phase int PRIMARY KEY, pinned_us bigint, offset_us bigint,
                    real_from_us bigint, real_to_us bigint);
});

# the real clock (this script runs without the shim), in microseconds
sub real_us { my ($s, $us) = gettimeofday(); return $s * 1_000_000 + $us; }

my $session = $node->background_psql('postgres');
my @clock;

# Phase $p: the clock pinned at $us ('pin') or set to the real clock plus
# $us ('offset'), $sleep seconds waited, then $n ids of each function.
sub phase
{
	my ($p, $how, $us, $sleep) = @_;
	my $sec = floor($us / 1_000_000);
	set_clock($clock, $how eq 'pin' ? 2 : 1, $sec, ($us - $sec * 1_000_000) * 1000);
	$session->query_safe("SELECT pg_sleep($sleep)") if $sleep;
	my $from = real_us();
	$session->query_safe("SELECT gen($p, $n)");
	push @clock, sprintf('(%d, %s, %s, %d, %d)', $p, $how eq 'pin' ? ($us, 'NULL') : ('NULL', $us),
		$from, real_us());
	return;
}

# The time of phase $p's last id, the earlier of the two functions', in
# microseconds rounded down.
sub last_id_us
{
	my ($p) = @_;
	return $session->query_safe(
		"SELECT floor(min(fault.unix_ms(id)) * 1000) FROM ids WHERE phase = $p AND n = $n");
}

phase(1, offset => 0);
phase(2, pin => last_id_us(1) - 30_000_000);
phase(3, pin => last_id_us(1) - 29_800_000);
phase(4, offset => 0);
phase(5, pin => last_id_us(4) - 1_000_000);
phase(6, offset => -1_000_000, 1.3);
$session->quit;
$node->safe_psql('postgres', 'INSERT INTO clock VALUES ' . join(', ', @clock));

for my $fn (qw(uuidv6 uuidv7))
{
	my $w = "fn = '$fn'";
	my $v = substr($fn, -1);
	sql_ok($node, 'postgres', "SELECT count(*) = 6 * $n, count(*) FROM ids WHERE $w", "$fn: 6 x $n ids made");
	sql_ok($node, 'postgres', qq{
		WITH r AS (SELECT phase, fault.ts_ms(before_ts) * 1000 AS b, fault.ts_ms(after_ts) * 1000 AS a,
		                  pinned_us, offset_us, real_from_us, real_to_us
		           FROM ids JOIN clock USING (phase) WHERE $w)
		SELECT bool_and(CASE WHEN pinned_us IS NOT NULL THEN b = pinned_us AND a = pinned_us
		                     ELSE b >= real_from_us + offset_us AND a <= real_to_us + offset_us END),
		       string_agg(DISTINCT phase || ': ' || coalesce('pinned at ' || (to_timestamp(pinned_us / 1e6) AT TIME ZONE 'UTC')::time,
		                 'real' || CASE offset_us WHEN 0 THEN '' ELSE ' ' || offset_us / 1000000 || ' s' END), ', ')
		FROM r},
		"$fn: the faked clock read exactly the pin (phases 2, 3, 5), the real clock plus the offset (1, 4, 6)");
	sql_ok($node, 'postgres',
		"SELECT bool_and(fault.version(id) = $v AND fault.variant_ok(id)) FROM ids WHERE $w",
		"$fn: version and variant bits on every id");
	sql_ok($node, 'postgres', in_order("SELECT id, (phase, n) AS ord FROM ids WHERE $w"),
		"$fn: strictly increasing across every step (one backend)");
	for my $stuck ([ '2,3', 1 ], [ '5', 4 ])
	{
		my ($ph, $last) = @$stuck;
		sql_ok($node, 'postgres', qq{
			WITH last AS (SELECT fault.unix_ms(id) AS ms, fault.time_field(id) AS tf
			              FROM ids WHERE $w AND phase = $last ORDER BY n DESC LIMIT 1)
			SELECT bool_and(fault.time_field(id) = last.tf) AND max(fault.ts_ms(after_ts)) < min(last.ms),
			       'embedded - last id: ' || round(min(fault.unix_ms(id) - last.ms), 4) || '..'
			       || round(max(fault.unix_ms(id) - last.ms), 4) || ' ms; clock - last id at most '
			       || round(max(fault.ts_ms(after_ts)) - min(last.ms), 4) || ' ms'
			FROM ids, last WHERE $w AND phase IN ($ph)},
			"$fn: phases $ph (clock behind) keep the exact time field of phase $last\'s last id");
	}
	sql_ok($node, 'postgres', qq{
		WITH last AS (SELECT fault.unix_ms(id) AS ms FROM ids WHERE $w AND phase = 5 ORDER BY n DESC LIMIT 1)
		SELECT min(fault.ts_ms(before_ts)) > min(last.ms),
		       'clock - last id: ' || round(min(fault.ts_ms(before_ts)) - min(last.ms), 3) || ' ms at least'
		FROM ids, last WHERE $w AND phase = 6},
		"$fn: phase 6's clock is past phase 5's last id");
	for my $ph (1, 4, 6)
	{
		sql_ok($node, 'postgres', qq{
			SELECT bool_and(fault.unix_ms(id) BETWEEN fault.ts_ms(before_ts) - 1 AND fault.ts_ms(after_ts) + 1),
			       round(min(fault.unix_ms(id) - fault.ts_ms(before_ts)), 3) || ' ms after the clock at least'
			FROM ids WHERE $w AND phase = $ph},
			"$fn: phase $ph ids lie within 1 ms of the faked clock");
	}
}
sql_ok($node, 'postgres', "SELECT count(DISTINCT pid) = 1, count(DISTINCT pid) FROM ids",
	'all ids came from one backend');
done_testing();
