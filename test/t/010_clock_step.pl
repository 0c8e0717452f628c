# The wall clock steps back mid-session.
#
# The server runs under libfaketime, which reads its offset from a file on
# every clock call (FAKETIME_NO_CACHE=1); this script rewrites the file
# between the statements of ONE long-lived session, so all ids come from one
# backend.  CLOCK_MONOTONIC is left alone, as an NTP step would leave it.
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
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use PgUuidxTest;
use PostgreSQL::Test::Utils;
use Test::More;

# a server with both libfaketime and the ASan runtime preloaded hangs at start
plan skip_all => 'not under "make memcheck"' if $ENV{PG_UUIDX_SERVER_PRELOAD};
my ($faketime) = glob('/usr/lib/*/faketime/libfaketime.so.1');
die "libfaketime not found (Debian package libfaketime)" unless $faketime;
my $n = 500;
my $offset_file = PostgreSQL::Test::Utils::tempdir() . '/faketime.rc';

# written aside and renamed, so that no process reads half an offset
sub set_offset
{
	open my $fh, '>', "$offset_file.new" or die $!;
	print $fh "$_[0]\n";
	close $fh;
	rename "$offset_file.new", $offset_file or die $!;
}
set_offset('+0');

my $node = new_node('clock',
	env => { LD_PRELOAD => $faketime, FAKETIME_TIMESTAMP_FILE => $offset_file,
		FAKETIME_NO_CACHE => 1, FAKETIME_DONT_FAKE_MONOTONIC => 1 });
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
my @steps = ([1], ['-30'], [2], ['sleep 0.2'], [3], ['+0'], [4], ['-1'], [5], ['sleep 1.3'], [6]);
for my $step (@steps)
{
	my $s = $step->[0];
	if ($s =~ /^\d+$/) { $session->query_safe("SELECT gen($s, $n)"); }
	elsif ($s =~ /^sleep (.*)/) { $session->query_safe("SELECT pg_sleep($1)"); }
	else { set_offset($s); }
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
