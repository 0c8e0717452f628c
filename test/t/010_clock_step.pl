# The wall clock steps back mid-session.
#
# The server runs under the test clock of test/t/clockshim, which every
# process reads from one mapped file on every clock call, PostgreSQL's own
# timestamps (clock_timestamp()) included; this script moves it between the
# statements of ONE long-lived session, so all ids come from one backend.
# CLOCK_MONOTONIC is left alone, as an NTP step would leave it.
#   phase 1  offset +0      ids follow the clock
#   phase 2  offset -30 s   ids keep the last tick of phase 1 (counter only)
#   phase 3  still -30 s, 0.2 s later: the same
#   phase 4  offset +0      ids follow the clock again
#   phase 5  offset -1 s    ids keep the last tick of phase 4
#   phase 6  1.3 s later    the clock has passed that tick: ids follow it
# For uuidv7() and uuidv6(): strictly increasing over all phases, stuck
# while behind, within 1 ms of the (faked) clock when not.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use PgUuidxTest;
use PostgreSQL::Test::Utils;
use Test::More;

my $n = 500;
my $clock = clock_shim(gettimeofday => 1);

# an offset in seconds from the real clock
sub set_offset { set_clock($clock, 1, $_[0], 0); return; }
set_offset(0);

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
});

my $session = $node->background_psql('postgres');
my @steps = ([ gen => 1 ], [ offset => -30 ], [ gen => 2 ], [ sleep => 0.2 ], [ gen => 3 ],
	[ offset => 0 ], [ gen => 4 ], [ offset => -1 ], [ gen => 5 ], [ sleep => 1.3 ], [ gen => 6 ]);
for my $step (@steps)
{
	my ($what, $arg) = @$step;
	if ($what eq 'gen') { $session->query_safe("SELECT gen($arg, $n)"); }
	elsif ($what eq 'sleep') { $session->query_safe("SELECT pg_sleep($arg)"); }
	else { set_offset($arg); }
}
$session->quit;

for my $fn (qw(uuidv6 uuidv7))
{
	my $w = "fn = '$fn'";
	my $v = substr($fn, -1);
	sql_ok($node, 'postgres', "SELECT count(*) = 6 * $n, count(*) FROM ids WHERE $w", "$fn: 6 x $n ids made");
	sql_ok($node, 'postgres', qq{
		WITH c AS (SELECT phase, min(before_ts) lo, max(after_ts) hi FROM ids WHERE $w GROUP BY phase)
		SELECT (SELECT lo FROM c WHERE phase = 2) < (SELECT hi FROM c WHERE phase = 1) - interval '29 s'
		   AND (SELECT lo FROM c WHERE phase = 4) > (SELECT hi FROM c WHERE phase = 3) + interval '29 s'
		   AND (SELECT lo FROM c WHERE phase = 5) < (SELECT hi FROM c WHERE phase = 4) - interval '0.9 s',
		       (SELECT string_agg(phase || ':' || lo::time, ' ' ORDER BY phase) FROM c)},
		"$fn: the faked clock stepped back 30 s, forward again, back 1 s");
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
			SELECT bool_and(fault.time_field(id) = last.tf),
			       'embedded - last id: ' || round(min(fault.unix_ms(id) - last.ms), 4) || '..'
			       || round(max(fault.unix_ms(id) - last.ms), 4) || ' ms'
			FROM ids, last WHERE $w AND phase IN ($ph)},
			"$fn: phases $ph (clock behind) keep the exact time field of phase $last\'s last id");
	}
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
