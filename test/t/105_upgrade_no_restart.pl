# Updating from 1.4 to this version without a restart, while sessions that
# loaded 1.4's library keep writing, and reading in id order all the while.
#
# 1.4's library is built from git (the tag v1.4.0, or the commit it names;
# outside a git checkout the test skips) and installed into a copy of the
# server (PgUuidxBuilds' server_copy: a copy of the run's private copy, which
# belongs to another OS user), CREATE EXTENSION pg_uuidx VERSION '1.4', and
# pgbench writers start on it.  Then, as "make install" and "ALTER EXTENSION
# ... UPDATE" do, this build's files are installed over 1.4's with install
# (new inodes: the writers' backends keep 1.4's library mapped, checked in
# /proc/PID/maps) and the extension is updated in a new session, while the
# old writers go on in the same sessions.
#
# From PostgreSQL 17 on nothing needs preloading, so that is the way to
# upgrade.  The old sessions publish nothing; the horizon must still never
# pass their open transactions.  Checked: pg_uuidx_read_after() polled every
# 20 ms reads every committed row once, in id order (the old writers' long
# transactions make their id, sleep up to 1.5 s and insert it; one old
# session holds an id for 3 s), while "id > last" misses rows;
# pg_uuidx_horizon_holders() names an old session with an open transaction,
# held at the lowest (holds_since NULL: an older library's ids may come from
# before its transaction started), and no longer once that transaction has
# ended.  Once every session from before the install has ended, the horizon
# stops looking for them (a DEBUG1 message says so, once), though the
# logical replication launcher is older.
#
# On 15 and 16 the state needs the preloaded library.  Without
# shared_preload_libraries, 1.4 updated in place: the horizon is refused
# (55000) while the old sessions write, and works after pg_uuidx is
# preloaded and the server restarted.  With 1.4 preloaded, every backend
# inherits 1.4's library from the postmaster: the update cannot create the
# horizon functions (their C symbols are not in the library the backend
# has), and with check_function_bodies off they fail when called; after a
# restart the update and the horizon work.
#
# ob7 gets its guard (pg_uuidx_add_guard()) with the update: the reader
# reads no table without one.  A session that still runs 1.4's library
# cannot run the guard (its C functions are not in that library: 42883), so
# the old sessions write with session_replication_role = replica, where the
# guard does not fire: their rows are covered by the horizon held at its
# lowest for them, which is what this test checks.
#
# The writers' seed is printed (PG_UUIDX_SEED replays their random choices,
# not their timing).
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use IPC::Run;
use PgUuidxBuilds;
use PgUuidxTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(sleep time);

# 1.4's release commit, for clones that have no tags
my ($old_dir, $old_from) = release_build('1.4', 'v1.4.0', 'ed8b4c394aae44cd1edd86f8422c88eeb941ac98');
plan skip_all => "1.4 cannot be built from git: $old_from" unless $old_dir;

my $seed = $ENV{PG_UUIDX_SEED} || int(rand(2**31));
note("seed $seed (PG_UUIDX_SEED=$seed replays the writers' choices)");

# this build's files, as the run installed them (pg_config on the PATH)
chomp(my $pkglibdir = `pg_config --pkglibdir`);
chomp(my $sharedir = `pg_config --sharedir`);
my %new_files = (lib => "$pkglibdir/pg_uuidx.so",
	share => [ glob("$sharedir/extension/pg_uuidx.control $sharedir/extension/pg_uuidx--*.sql") ]);
my %old_files = (lib => "$old_dir/pg_uuidx.so",
	share => [ glob("$old_dir/pg_uuidx.control $old_dir/pg_uuidx--*.sql") ]);

# pg_uuidx's files into the server copy at $path as "make install" puts
# them: install(1), which writes each file as a new inode, so a backend
# that has the old library mapped keeps it.  Returns the library's inode.
sub install_files
{
	my ($path, $files) = @_;
	my $lib = server_dir($path, 'pkglibdir') . '/pg_uuidx.so';
	system('install', '-m', '644', @{ $files->{share} }, server_dir($path, 'sharedir') . '/extension/') == 0
	  or die "install of the control file and scripts failed";
	system('install', '-m', '755', $files->{lib}, $lib) == 0 or die "install of $files->{lib} failed";
	return (stat $lib)[1];
}

# the inodes of the pg_uuidx.so files process $pid has mapped ("" for
# none), or undef where /proc cannot tell
sub mapped
{
	my ($pid) = @_;
	open my $fh, '<', "/proc/$pid/maps" or return undef;
	my %ino;
	while (<$fh>)
	{
		my @f = split ' ';
		$ino{ $f[4] } = 1 if @f >= 6 && $f[5] =~ m{/pg_uuidx\.so$};
	}
	return join ',', sort keys %ino;
}

# A server copy with 1.4's files, a cluster on it (extra postgresql.conf
# lines @conf) and pg_uuidx 1.4 with the tables and loops of the test in
# database postgres: (node, install path, inode of 1.4's library).
sub old_node
{
	my ($name, @conf) = @_;
	my $path = server_copy('none');
	my $ino = install_files($path, \%old_files);
	my $node = PostgreSQL::Test::Cluster->new($name, install_path => $path);
	$node->init;
	# the horizon right at the clock once this build's library runs (from
	# 1.6 it trails the clock by pg_uuidx.horizon_allowance, 1 s unless set),
	# so that it has passed the rows just written
	$node->append_conf('postgresql.conf',
		join('', map { "$_\n" } "search_path = 'public, pg_catalog'", 'max_connections = 30',
			'pg_uuidx.horizon_allowance = 0', @conf));
	start_with_env($node);
	$node->safe_psql('postgres', q{
CREATE EXTENSION pg_uuidx VERSION '1.4';
CREATE TABLE ob7 (id uuid PRIMARY KEY DEFAULT uuidv7(), gen text NOT NULL, w int NOT NULL, kind text NOT NULL,
                  made timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE UNLOGGED TABLE seen (reader text NOT NULL, seq bigint NOT NULL, id uuid NOT NULL);
CREATE UNLOGGED TABLE held (sampled timestamptz, pid int, holds_since timestamptz, xact_start timestamptz,
                            app text);
CREATE ROLE outsider;
CREATE FUNCTION try(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN EXECUTE q; RETURN 'ok'; EXCEPTION WHEN OTHERS THEN RETURN SQLSTATE || ' ' || SQLERRM; END $$;
-- a reader polling every 20 ms for "seconds", going on from where its last
-- call stopped, recording what it read in seen (reader, order, id); it
-- stops after a poll, so a last call of 0 s is one more poll
} . read_loop_sql(
		args => 'seconds float8',
		declare => q{stop timestamptz := clock_timestamp() + seconds * interval '1 s';},
		resume => 1,
		after => q{EXIT WHEN clock_timestamp() >= stop;},
		readers => [
			'horizon' => 'SELECT id FROM pg_uuidx_read_after(NULL::ob7, $1, 500)',
			'id > last' => 'SELECT id FROM ob7 WHERE $1 IS NULL OR id > $1 ORDER BY id LIMIT 500' ]) . q{
-- who holds the horizon, every 20 ms, with pg_stat_activity's view of them
CREATE PROCEDURE hold_loop(seconds float8) LANGUAGE plpgsql AS $$
DECLARE
    stop timestamptz := clock_timestamp() + seconds * interval '1 s';
BEGIN
    WHILE clock_timestamp() < stop LOOP
        INSERT INTO held SELECT clock_timestamp(), h.pid, h.holds_since, a.xact_start, a.application_name
        FROM pg_uuidx_horizon_holders() h LEFT JOIN pg_stat_activity a USING (pid);
        COMMIT;
        PERFORM pg_sleep(0.02);
    END LOOP;
END $$;
});
	return ($node, $path, $ino);
}

# the writers' scripts: short transactions, and long ones that make their
# id first and insert it up to 1.5 s later; the old writers (replica 1) where
# the guard does not fire
my $script_dir = PostgreSQL::Test::Utils::tempdir();
my $replica = q{
\if :replica
SET session_replication_role = replica;
\endif
};
PostgreSQL::Test::Utils::append_to_file("$script_dir/short.sql", $replica . q{
\set s random(0, 150)
BEGIN;
INSERT INTO ob7 (gen, w, kind) VALUES (':gen', :client_id, 'short');
\sleep :s ms
INSERT INTO ob7 (gen, w, kind) VALUES (':gen', :client_id, 'short');
COMMIT;
});
PostgreSQL::Test::Utils::append_to_file("$script_dir/long.sql", $replica . q{
\set s random(300, 1500)
BEGIN;
SELECT uuidv7() AS early \gset
\sleep :s ms
INSERT INTO ob7 (id, gen, w, kind) VALUES (':early', ':gen', :client_id, 'long');
COMMIT;
});

# pgbench writers of generation $gen (also their application_name), $n
# clients for $seconds, in the background: (handle, \stdout, \stderr)
sub writers
{
	my ($node, $gen, $n, $seconds) = @_;
	my ($out, $err) = ('', '');
	local $ENV{PGAPPNAME} = $gen;
	my $h = IPC::Run::start([ 'pgbench', '-n', '-M', 'simple', '-c', $n, '-j', 1, '-T', $seconds,
		"--random-seed=$seed", '-D', "gen=$gen", '-D', 'replica=' . ($gen eq 'old' ? 1 : 0), '-f', "$script_dir/short.sql\@60", '-f', "$script_dir/long.sql\@40",
		'-h', $node->host, '-p', $node->port, 'postgres' ], '>', \$out, '2>', \$err);
	return ($h, \$out, \$err);
}

sub finish_writers
{
	my ($h, $out, $err) = @_;
	$h->finish;
	like($$out, qr/processed: [1-9]/, 'the writers ran') or diag($$err);
	return;
}

# start old writers on $node, wait until every one of them has committed a
# row (so loaded 1.4's library), and return their pids with the writers
sub old_writers
{
	my ($node, $n, $seconds) = @_;
	my @w = writers($node, 'old', $n, $seconds);
	$node->poll_query_until('postgres', "SELECT count(DISTINCT w) = $n FROM ob7 WHERE gen = 'old'")
	  or die 'the old writers did not start';
	my @pids = split /\n/, $node->safe_psql('postgres',
		q{SELECT pid FROM pg_stat_activity WHERE application_name = 'old' ORDER BY pid});
	is(scalar @pids, $n, "$n old writers run");
	return (\@pids, @w);
}

# check that @$pids have 1.4's library ($ino) mapped and nothing else
sub runs_old
{
	my ($pids, $ino, $what) = @_;
	my @maps = map { mapped($_) } @$pids;
	SKIP:
	{
		skip '/proc/PID/maps cannot be read here', 1 if grep { !defined } @maps;
		is(join(' ', @maps), join(' ', ($ino) x @maps), "$what have 1.4's library (inode $ino) mapped, no other");
	}
	return;
}

# the update in place: this build's files over 1.4's, then ALTER EXTENSION
# in a new session; returns the new library's inode
sub update_in_place
{
	my ($node, $path, $old_ino) = @_;
	my $ino = install_files($path, \%new_files);
	isnt($ino, $old_ino, 'the library installed over 1.4\'s is a new inode');
	return $ino;
}

# the committed rows of ob7 a reader did not read, described by kind
sub missed
{
	my ($node, $reader) = @_;
	return $node->safe_psql('postgres', qq{
		SELECT coalesce(sum(n), 0) || coalesce(' (' || string_agg(n || ' ' || gen || ' ' || kind, ', ') || ')', '')
		FROM (SELECT gen, kind, count(*) n FROM (SELECT id FROM ob7 EXCEPT SELECT id FROM seen WHERE reader = '$reader') m
		      JOIN ob7 USING (id) GROUP BY gen, kind ORDER BY gen, kind) k});
}

# the horizon reader's checks (read_once_ok), and which rows it missed
sub read_all
{
	my ($node, $reader, $what) = @_;
	diag('missed: ' . missed($node, $reader)) if read_once_ok($node, 'postgres', 'ob7', $reader, $what);
	return;
}

my @horizon_calls = ('SELECT uuidv7_horizon()', 'SELECT uuidv6_horizon()', 'SELECT pg_uuidx_horizon_holders()',
	'SELECT pg_uuidx_read_after(NULL::ob7, NULL, 10)');

chomp(my $version = `pg_config --version`);
my ($major) = $version =~ /(\d+)/;

if ($major >= 17)
{
	my ($node, $path, $old_ino) = old_node('no_restart');
	my $late = $node->background_psql('postgres');
	$late->query_safe(q{SET application_name = 'old late'});
	$late->query_safe('SET session_replication_role = replica');
	$late->query_safe('SELECT uuidv7()');
	my $late_pid = $late->query_safe('SELECT pg_backend_pid()');
	my ($old_pids, @old) = old_writers($node, 4, 10);
	runs_old([ @$old_pids, $late_pid ], $old_ino, 'the old sessions');

	my $ino = update_in_place($node, $path, $old_ino);
	$node->safe_psql('postgres', q{ALTER EXTENSION pg_uuidx UPDATE; SELECT pg_uuidx_add_guard('ob7')});
	my $swapped = $node->safe_psql('postgres', 'SELECT clock_timestamp()');
	is($node->safe_psql('postgres', q{SELECT extversion = default_version FROM pg_extension
		JOIN pg_available_extensions ON name = extname WHERE extname = 'pg_uuidx'}), 't',
		'ALTER EXTENSION pg_uuidx UPDATE in a new session, without a restart');

	my @conn = ('-h', $node->host, '-p', $node->port, 'postgres');
	my @loops;
	for my $call (q{CALL read_loop('horizon', 11)}, q{CALL read_loop('id > last', 11)}, 'CALL hold_loop(11)')
	{
		push @loops, IPC::Run::start([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-c', $call, @conn ],
			'>', \my $o, '2>', \my $e);
	}
	my @new = writers($node, 'new', 2, 7);
	my $probe = $node->background_psql('postgres');
	$probe->query_safe('SELECT uuidv7()');
	my $probe_maps = mapped($probe->query_safe('SELECT pg_backend_pid()'));
	SKIP:
	{
		skip '/proc/PID/maps cannot be read here', 1 unless defined $probe_maps;
		is($probe_maps, $ino, 'a new session has the new library mapped');
	}
	runs_old([ @$old_pids, $late_pid ], $old_ino, 'after the update, the old sessions still');

	# an old session holds an id for 3 s
	$late->query_safe('BEGIN');
	my $early = $late->query_safe('SELECT uuidv7()');
	my $late_start = $late->query_safe('SELECT now()');
	sql_ok($node, 'postgres', qq{
		SELECT count(*) = 1 AND bool_and(h.prepared_xid IS NULL AND h.holds_since IS NULL),
		       json_agg(h)::text
		FROM pg_uuidx_horizon_holders() h WHERE pid = $late_pid},
		'pg_uuidx_horizon_holders() names the old session with an open transaction, held at the lowest');
	sql_ok($node, 'postgres', qq{
		SET ROLE outsider;
		SELECT count(*) = 1 AND bool_and(holds_since IS NULL), json_agg(h)::text
		FROM pg_uuidx_horizon_holders() h WHERE pid = $late_pid},
		'another role sees the old session, not since when');
	sql_ok($node, 'postgres', qq{
		SELECT h <= '$early' AND h <= uuidv7_boundary('$late_start'), h::text FROM uuidv7_horizon() h},
		'the horizon is held below the old session\'s id and transaction start');
	sleep(3);
	$late->query_safe(q{INSERT INTO ob7 (id, gen, w, kind) VALUES ('} . $early . q{', 'old', -1, 'held 3 s')});
	$late->query_safe('COMMIT');
	sql_ok($node, 'postgres', qq{
		SELECT count(*) = 0, json_agg(h)::text FROM pg_uuidx_horizon_holders() h WHERE pid = $late_pid},
		'once its transaction has ended, the old session (still connected) no longer holds the horizon');

	finish_writers(@new);
	finish_writers(@old);
	$_->finish or diag('a reader failed') for @loops;
	# everything has committed: the rest
	$node->safe_psql('postgres', q{CALL read_loop('horizon', 0.5); CALL read_loop('id > last', 0.5)});
	note('committed: ' . $node->safe_psql('postgres', q{SELECT string_agg(n || ' ' || gen || ' ' || kind, ', ')
		FROM (SELECT gen, kind, count(*) n FROM ob7 GROUP BY gen, kind ORDER BY gen, kind) k}));
	sql_ok($node, 'postgres', qq{
		SELECT count(*) > 0, count(*) || ' rows' FROM ob7 WHERE gen = 'old' AND made > '$swapped'},
		'the old sessions committed rows after the update');
	read_all($node, 'horizon', 'pg_uuidx_read_after() with old sessions writing');
	my $naive = missed($node, 'id > last');
	cmp_ok($naive =~ /^(\d+)/ && $1, '>', 0, "the same loop with id > last misses rows: $naive");
	sql_ok($node, 'postgres', q{
		SELECT count(*) > 0 AND bool_and(holds_since IS NULL),
		       format('%s samples of old writers, %s with holds_since NULL', count(*),
		              count(*) FILTER (WHERE holds_since IS NULL))
		FROM held WHERE app = 'old'},
		'pg_uuidx_horizon_holders() named old writers while they ran, held at the lowest');
	$late->quit;
	$probe->quit;

	# once the sessions from before the install have ended, the horizon
	# stops looking for them; the logical replication launcher, as old,
	# connected to no database, does not keep it looking
	$node->poll_query_until('postgres', qq{SELECT count(*) = 0 FROM pg_stat_activity
		WHERE backend_type = 'client backend' AND backend_start < '$swapped'})
	  or die 'the old sessions did not end';
	is($node->safe_psql('postgres', qq{SELECT count(*) FROM pg_stat_activity
		WHERE backend_type = 'logical replication launcher' AND backend_start < '$swapped'}), '1',
		'the logical replication launcher started before the install');
	my $off = qr/no session from before .* is left; the horizon no longer looks for them/;
	my $call = 'SET client_min_messages = debug1; SELECT uuidv7_horizon() IS NOT NULL';
	my ($out, $err);
	$node->psql('postgres', $call, stdout => \$out, stderr => \$err, on_error_die => 1);
	like($err, $off, 'the first horizon after the old sessions ended stops looking for them');
	$node->psql('postgres', $call, stdout => \$out, stderr => \$err, on_error_die => 1);
	unlike($err, $off, 'and the next does not look again');
	$node->stop;
}
else
{
	# 1.4 not preloaded (it did not need to be)
	my ($node, $path, $old_ino) = old_node('not_preloaded');
	my ($old_pids, @old) = old_writers($node, 3, 4);
	update_in_place($node, $path, $old_ino);
	$node->safe_psql('postgres', q{ALTER EXTENSION pg_uuidx UPDATE; SELECT pg_uuidx_add_guard('ob7')});
	runs_old($old_pids, $old_ino, 'after the update, the old writers still');
	for my $q (@horizon_calls)
	{
		like($node->safe_psql('postgres', "SELECT try(\$q\$$q\$q\$)"),
			qr/^55000 .* needs pg_uuidx in shared_preload_libraries/,
			"$major, 1.4 not preloaded, updated in place: refused with 55000: $q");
	}
	finish_writers(@old);
	$node->append_conf('postgresql.conf', "shared_preload_libraries = 'pg_uuidx'\n");
	$node->stop;
	start_with_env($node);
	$node->safe_psql('postgres', q{CALL read_loop('horizon', 0.5)});
	read_all($node, 'horizon', 'preloaded and restarted: pg_uuidx_read_after()');

	# 1.4 preloaded: every backend has the postmaster's 1.4 library
	($node, $path, $old_ino) = old_node('preloaded', "shared_preload_libraries = 'pg_uuidx'");
	($old_pids, @old) = old_writers($node, 3, 4);
	update_in_place($node, $path, $old_ino);
	# the C validator looks the symbols up whatever check_function_bodies says
	for my $set ('', 'SET check_function_bodies = off; ')
	{
		my ($rc, $out, $err) = $node->psql('postgres', "${set}ALTER EXTENSION pg_uuidx UPDATE");
		like($err, qr/could not find function "pg_uuidx_\w+" in file/,
			"$major, 1.4 preloaded: ${set}ALTER EXTENSION UPDATE cannot create the new C functions");
	}
	is($node->safe_psql('postgres', q{SELECT extversion FROM pg_extension WHERE extname = 'pg_uuidx'}), '1.4',
		'and the extension stays at 1.4');
	my $fresh = $node->background_psql('postgres');
	runs_old([ @$old_pids, $fresh->query_safe('SELECT pg_backend_pid() FROM (SELECT uuidv7()) s') ],
		$old_ino, 'a new session and the old writers');
	$fresh->quit;
	for my $q (@horizon_calls)
	{
		like($node->safe_psql('postgres', "SELECT try(\$q\$$q\$q\$)"), qr/^42883 function .* does not exist/,
			"no horizon function until a restart: $q");
	}
	finish_writers(@old);
	$node->stop;
	start_with_env($node);
	$node->safe_psql('postgres', q{ALTER EXTENSION pg_uuidx UPDATE; SELECT pg_uuidx_add_guard('ob7')});
	sql_ok($node, 'postgres', q{SELECT uuidv7_horizon() > (SELECT max(id) FROM ob7), uuidv7_horizon()::text},
		'after the restart the horizon works');
	$node->safe_psql('postgres', q{CALL read_loop('horizon', 0.5)});
	read_all($node, 'horizon', '1.4 preloaded, after the restart: pg_uuidx_read_after()');
	$node->stop;
}

done_testing();
