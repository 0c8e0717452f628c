# What must hold against a hostile non-superuser, each check stated as the
# property (each failed on the build before these fixes):
#
# - pg_uuidx_tick() writes pg_uuidx_last_tick as the table's owner, the
#   bootstrap superuser of a trusted extension: no operator of the
#   caller's search_path may run there (a database owner would become
#   superuser).
# - A view whose rows can appear after their id was passed is refused,
#   or read without a miss: FOR UPDATE SKIP LOCKED (a row locked by a
#   foreign key check is skipped), a WHERE on the clock (messages due
#   later).
# - An UPDATE that moves a row to another partition and keeps its id is
#   not refused with 40001 (which clients retry with the same result),
#   where an index on the id lets the guard find the row it replaces.
# - pg_uuidx_add_guard() works for a column name of 48 bytes.
# - ATTACH PARTITION under a guard whose column was retyped does not
#   crash the server (last: the server restarts after it).
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use IPC::Run;
use PgUuidxTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(sleep);

my $node = new_node('attack', conf => [ "shared_preload_libraries = 'pg_uuidx'" ]);
$node->safe_psql('postgres', q{
CREATE ROLE mallory LOGIN;
CREATE ROLE alice LOGIN;
CREATE DATABASE app OWNER mallory;
});
my $mallory = sub { $node->psql('app', $_[0], extra_params => [ '-U', 'mallory' ]) };
my ($rc, $out, $err) = $mallory->('CREATE EXTENSION pg_uuidx');
is($rc, 0, 'the database owner installs the trusted extension') or diag($err);

# 1. the tick as the table's owner, under the caller's search_path
($rc, $out, $err) = $mallory->(q{
CREATE SCHEMA evil;
CREATE FUNCTION evil.le(a timestamptz, b timestamptz) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    BEGIN
        EXECUTE 'ALTER ROLE mallory SUPERUSER';
    EXCEPTION WHEN OTHERS THEN NULL;
    END;
    RETURN a OPERATOR(pg_catalog.<=) b;
END $$;
CREATE OPERATOR evil.<= (LEFTARG = timestamptz, RIGHTARG = timestamptz, FUNCTION = evil.le);
SET search_path = evil, pg_catalog, public;
SELECT pg_uuidx_tick();
SELECT pg_uuidx_tick();
});
is($node->safe_psql('app', q{SELECT rolsuper FROM pg_roles WHERE rolname = 'mallory'}), 'f',
	'pg_uuidx_tick() runs no operator of the caller\'s search_path as the tick table\'s owner');
$node->safe_psql('app', 'ALTER ROLE mallory NOSUPERUSER; DROP SCHEMA evil CASCADE');

# 2. views whose rows appear after their id was read past
$mallory->(q{
CREATE TABLE t (id uuid PRIMARY KEY DEFAULT uuidv7(), deliver_at timestamptz DEFAULT now(), payload text);
SELECT pg_uuidx_add_guard('t');
CREATE VIEW v_queue AS SELECT * FROM t FOR UPDATE SKIP LOCKED;
CREATE VIEW v_due AS SELECT * FROM t WHERE deliver_at <= now();
GRANT SELECT ON t, v_queue, v_due TO alice;
INSERT INTO t (payload) VALUES ('r1');
INSERT INTO t (payload) VALUES ('r2');
INSERT INTO t (payload) VALUES ('r3');
});

# read $view twice ($max rows, then up to 10), the second time after the
# last id of the first, $between->() between the two; returns
# the payloads read, or the SQLSTATE of a refusal
sub read_twice
{
	my ($view, $between, $max) = @_;
	$max //= 10;
	my ($rc1, $first, $err1) = $node->psql('app',
		"SELECT string_agg(payload || ' ' || id, ',' ORDER BY id) FROM pg_uuidx_read_after(NULL::$view, NULL, $max)",
		extra_params => [ '-U', 'alice' ]);
	return "refused: $err1" if $rc1 != 0;
	$between->();
	my @rows = split /,/, $first;
	my $last = @rows ? (split / /, $rows[-1])[1] : undef;
	my $after = defined $last ? "'$last'" : 'NULL';
	my $second = $node->safe_psql('app',
		"SELECT string_agg(payload, ',' ORDER BY id) FROM pg_uuidx_read_after(NULL::$view, $after, 10)",
		extra_params => [ '-U', 'alice' ]);
	return join ',', (map { (split / /)[0] } @rows), grep { $_ ne '' } split /,/, $second;
}

# r2 is referenced by a foreign key check of an open transaction (FOR KEY SHARE)
my $h = IPC::Run::start([ 'psql', '-X', '-d', $node->connstr('app'), '-U', 'mallory', '-c',
	q{BEGIN; SELECT 1 FROM t WHERE payload = 'r2' FOR KEY SHARE; SELECT pg_sleep(2); COMMIT;} ],
	'>', \my $o, '2>', \my $e);
sleep 0.7;
my $read = read_twice('v_queue', sub { $h->finish; });
ok($read =~ /^refused/ || $read eq 'r1,r2,r3', 'a view FOR UPDATE SKIP LOCKED is refused or misses no row')
  or diag("read: $read");

$mallory->(q{TRUNCATE t; INSERT INTO t (payload, deliver_at) VALUES ('later', now() + interval '1 s');
INSERT INTO t (payload) VALUES ('now1');});
$read = read_twice('v_due', sub { sleep 1.5; $mallory->(q{INSERT INTO t (payload) VALUES ('now2')}); });
ok($read =~ /^refused/ || $read eq 'now1,later,now2' || $read eq 'later,now1,now2',
	'a view WHERE on the clock is refused or misses no row') or diag("read: $read");

# 3. a row moved to another partition, its id kept
($rc, $out, $err) = $mallory->(q{
CREATE TABLE pt (id uuid NOT NULL DEFAULT uuidv7(), state text NOT NULL, PRIMARY KEY (id, state)) PARTITION BY LIST (state);
CREATE TABLE pt_new PARTITION OF pt FOR VALUES IN ('new');
CREATE TABLE pt_done PARTITION OF pt FOR VALUES IN ('done');
SELECT pg_uuidx_add_guard('pt');
INSERT INTO pt (state) VALUES ('new');
SELECT pg_sleep(0.2);
SELECT uuidv7_horizon() IS NOT NULL;
UPDATE pt SET state = 'done';
});
unlike($err, qr/below the commit horizon/, 'an UPDATE that moves a row to another partition is not a 40001');

# 4. a long column name
($rc, $out, $err) = $mallory->(q{
CREATE TABLE longcol (the_identifier_of_this_row_as_made_by_the_client_ uuid PRIMARY KEY);
SELECT pg_uuidx_add_guard('longcol', 'the_identifier_of_this_row_as_made_by_the_client_');
});
is($rc, 0, 'pg_uuidx_add_guard() for a column of 49 bytes') or diag($err);

# 5. last: a guard whose column was retyped, then ATTACH PARTITION
($rc, $out, $err) = $mallory->(q{
CREATE TABLE p (id uuid, x uuid) PARTITION BY RANGE (id);
CREATE TRIGGER zz_guard BEFORE INSERT OR UPDATE ON p FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard('x');
ALTER TABLE p ALTER COLUMN x TYPE int USING 1;
CREATE TABLE q (id uuid, x int);
INSERT INTO q VALUES (uuidv7(), 12345);
ALTER TABLE p ATTACH PARTITION q FOR VALUES FROM (MINVALUE) TO (MAXVALUE);
});
# psql sees the connection lost before the postmaster logs why
my $crashed = $err =~ /terminated abnormally/;
sleep 1 if $crashed;
note($1) if slurp_file($node->logfile) =~ /(server process .* terminated by signal \d+.*)/;
ok(!$crashed, 'ATTACH PARTITION under a guard of a retyped column does not crash the server') or diag($err);
# the test clusters do not restart after a crash: start it again to stop it
if ($crashed)
{
	$node->_update_pid(0);
	$node->start;
}
$node->stop;
done_testing();
