# test/t/PgUuidxTest.pm - what the TAP tests of test/t/ share: a started
# cluster with pg_uuidx's functions ahead of core's, the id decoders of
# helpers.sql, and checks whose verdict is a query.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
package PgUuidxTest;

use strict;
use warnings FATAL => 'all';
use Exporter 'import';
use File::Basename qw(dirname);
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes ();

our @EXPORT = qw(new_node client_v7 id_time start_with_env sql_ok helpers create_try in_order clock_shim set_clock read_loop_sql
  read_once_ok missed_count psql_session session_query writer_scripts);

# A new cluster: extra postgresql.conf lines, then started with %$env added
# to the server's environment (LD_PRELOAD and the like).  pg_uuidx's
# functions come before core's same-named ones (uuidv7() and uuidv4() are
# built in from PostgreSQL 17/18 on).
sub new_node
{
	my ($name, %opt) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name);
	$node->init;
	$node->append_conf('postgresql.conf',
		join("\n", "search_path = 'public, pg_catalog'", @{ $opt{conf} || [] }) . "\n");
	start_with_env($node, $opt{env});
	return $node;
}

# (Re)start $node with %$env added to the environment of pg_ctl and so of
# the postmaster and every process it forks; under "make memcheck" the
# sanitizer runtime (PG_UUIDX_SERVER_PRELOAD) comes first in LD_PRELOAD.
sub start_with_env
{
	my ($node, $env) = @_;
	my %add = %{ $env || {} };
	$add{LD_PRELOAD} = join ':', grep { $_ } $ENV{PG_UUIDX_SERVER_PRELOAD}, $add{LD_PRELOAD};
	local @ENV{ keys %add } = values %add;
	$node->start;
	return;
}

# The test clock of clockshim/clockshim.c, built into a temp dir, for a
# server started with $clock->{env} (new_node's env): one clock for every
# process of the cluster, moved with set_clock($clock, MODE, SEC, NSEC)
# (mode 0 real, 1 real + (SEC, NSEC), 2 frozen at (SEC, NSEC)), or from SQL
# with COPY (SELECT) TO PROGRAM '$clock->{setclock} MODE SEC NSEC'.  With
# gettimeofday => 1, PostgreSQL's own timestamps (now(),
# clock_timestamp()) follow it too.
sub clock_shim
{
	my (%opt) = @_;
	my $tmp = PostgreSQL::Test::Utils::tempdir;
	my $dir = dirname(__FILE__) . '/clockshim';
	my $clock = { file => "$tmp/clock", setclock => "$^X $dir/setclock.pl $tmp/clock" };
	system('cc', '-shared', '-fPIC', '-O2', '-o', "$tmp/clockshim.so", "$dir/clockshim.c", '-ldl') == 0
	  or BAIL_OUT("cannot build $dir/clockshim.c");
	open my $fh, '>', $clock->{file} or die $!;
	print $fh pack('q<q<q<', 0, 0, 0);
	close $fh or die $!;
	$clock->{env} = { LD_PRELOAD => "$tmp/clockshim.so", PG_UUIDX_CLOCK_FILE => $clock->{file},
		$opt{gettimeofday} ? (PG_UUIDX_CLOCK_GETTIMEOFDAY => 1) : () };
	return $clock;
}

# Move the clock of clock_shim() from the test script: setclock.pl with an
# empty standard input.
sub set_clock
{
	my ($clock, @values) = @_;
	open my $p, '|-', "$clock->{setclock} @values" or die "setclock: $!";
	close $p or die "setclock @values failed: $? $!";
	return;
}

# The decoders of helpers.sql (schema fault, beside this module) in database
# $db; the lanes' tests under test/lanes/ use them too.
sub helpers
{
	my ($node, $db) = @_;
	$node->safe_psql($db || 'postgres', slurp_file(dirname(__FILE__) . '/helpers.sql'));
	return;
}

# CREATE FUNCTION try(q text) in database $db: runs q, and returns 'ok', or
# the SQLSTATE, message, detail and hint of its error on one line
sub create_try
{
	my ($node, $db) = @_;
	$node->safe_psql($db, q{
CREATE FUNCTION try(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE m text; d text; h text;
BEGIN
    EXECUTE q;
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS m = MESSAGE_TEXT, d = PG_EXCEPTION_DETAIL, h = PG_EXCEPTION_HINT;
    RETURN SQLSTATE || ' ' || m || ' DETAIL: ' || coalesce(d, '') || ' HINT: ' || coalesce(h, '');
END $$});
	return;
}

# A check whose verdict is a query returning (boolean[, detail]); a query
# that fails is a failed check.
sub sql_ok
{
	my ($node, $db, $sql, $name) = @_;
	my ($rc, $out, $err) = $node->psql($db, $sql, extra_params => [ '-F', '|' ]);
	my ($verdict, $detail) = split /\|/, $out, 2;
	my $ok = ok($rc == 0 && defined $verdict && $verdict eq 't', $name);
	diag($rc == 0 ? "got: $out" : "error: $err") unless $ok;
	note($detail) if $ok && defined $detail && $detail ne '';
	return $ok;
}


# A UUIDv7 made in the test client from its clock at $at (epoch seconds,
# default now): the millisecond, then the fraction of it in rand_a (as core's
# uuidv7() and pg_uuidx's do), the variant, random bits.
sub client_v7
{
	my ($at) = @_;
	$at = Time::HiRes::time() unless defined $at;
	my $ms = int($at * 1000);
	my $sub = int(($at * 1000 - $ms) * 4096) & 0xfff;
	return sprintf('%08x-%04x-7%03x-%04x-%04x%08x',
		$ms >> 16, $ms & 0xffff, $sub, 0x8000 | int(rand(0x4000)), int(rand(0x10000)), int(rand(2**32)));
}

# The time of a v7 id (epoch seconds, to the millisecond)
sub id_time
{
	my ($id) = @_;
	(my $hex = $id) =~ s/-//g;
	no warnings 'portable';    # 48 bits
	return hex(substr($hex, 0, 12)) / 1000;
}

# SQL: the ids of $from (a query with columns id and ord), in ord order,
# strictly increasing, optionally within partitions: (verdict, detail).
sub in_order
{
	my ($from, $partition) = @_;
	my $by = $partition ? "PARTITION BY $partition ORDER BY ord" : 'ORDER BY ord';
	return "SELECT count(*) FILTER (WHERE id <= prev) = 0, count(*) FILTER (WHERE id <= prev) || ' out of order'"
	  . " FROM (SELECT id, lag(id) OVER ($by) AS prev FROM ($from) s0) s";
}

# SQL: CREATE PROCEDURE $opt{name} (default read_loop) (reader text[,
# $opt{args}]), the reader of the stress runs.  Each round it runs the query
# of its reader in @{ $opt{readers} } (pairs: reader => query; $1 the last
# id read, $2 the value of the expression $opt{bound}, taken before the
# query starts), records what it read in table seen (reader text, seq
# bigint, id uuid: seq the order it read in), commits and sleeps 20 ms.
# With resume => 1 it goes on after the last id and seq that seen holds for
# the reader.  When it stops is the test's: more variables in
# $opt{declare}, a condition checked before each round in $opt{while},
# statements after each round's commit (EXIT WHEN ...) in $opt{after}.
# With $opt{on_error} (statements), a round that fails is undone (its rows
# in seen, last and n) and those statements run instead (SQLSTATE and
# SQLERRM name the error), then the loop goes on.
sub read_loop_sql
{
	my (%opt) = @_;
	my $name = $opt{name} || 'read_loop';
	# $text's lines, each after $pad
	my $lines = sub {
		my ($pad, $text) = @_;
		return join '', map { "$pad$_\n" } grep { /\S/ } split /\n/, $text // '';
	};
	my $lit = sub { return "'" . ($_[0] =~ s/'/''/gr) . "'" };
	my @readers = @{ $opt{readers} };
	my $case = '';
	while (my ($reader, $query) = splice(@readers, 0, 2))
	{
		$case .= '            WHEN ' . $lit->($reader) . ' THEN ' . $lit->($query) . "\n";
	}
	my $args = $opt{args} ? ", $opt{args}" : '';
	my $bound_var = $opt{bound} ? "    bound uuid;\n" : '';
	my $declare = $lines->('    ', $opt{declare});
	my $resume = $opt{resume} ? $lines->('    ', qq{
SELECT s.id, s.seq INTO last, n FROM seen s WHERE s.reader = $name.reader ORDER BY s.seq DESC LIMIT 1;
n := coalesce(n, 0);}) : '';
	my $loop = $opt{while} ? "WHILE $opt{while} LOOP" : 'LOOP';
	my $bound = $opt{bound} ? $lines->('        ', qq{
-- the bound is read before the query that uses it starts
bound := $opt{bound};}) : '';
	my $using = $opt{bound} ? 'last, bound' : 'last';
	my $after = $lines->('        ', $opt{after});
	# on_error: each round in a block, whose handler undoes the round
	my ($try_vars, $try, $catch) = ('', '', '');
	if ($opt{on_error})
	{
		$try_vars = "    round_last uuid;\n    round_n bigint;\n";
		$try = "        round_last := last;\n        round_n := n;\n        BEGIN\n";
		$catch = "        EXCEPTION WHEN OTHERS THEN\n            last := round_last;\n            n := round_n;\n"
		  . $lines->('            ', $opt{on_error}) . "        END;\n";
	}
	return <<"SQL";
CREATE PROCEDURE $name(reader text$args) LANGUAGE plpgsql AS \$\$
DECLARE
    last uuid;
${bound_var}    n bigint := 0;
    r record;
${try_vars}${declare}BEGIN
${resume}    $loop
${try}${bound}        FOR r IN EXECUTE CASE reader
${case}            END USING $using
        LOOP
            n := n + 1;
            INSERT INTO seen VALUES (reader, n, r.id);
            last := r.id;
        END LOOP;
${catch}        COMMIT;
${after}        PERFORM pg_sleep(0.02);
    END LOOP;
END \$\$;
SQL
}

# The number of the committed rows of $table that reader $reader of
# read_loop_sql() did not record in seen.
sub missed_count
{
	my ($node, $db, $table, $reader) = @_;
	return $node->safe_psql($db,
		"SELECT count(*) FROM (SELECT id FROM $table EXCEPT SELECT id FROM seen WHERE reader = '$reader') m");
}

# The exactly-once checks of reader $reader of read_loop_sql() against the
# committed rows of $table, named "$label: ...": $table holds more than
# $opt{more_than} rows (default 0) and the reader read every one of them and
# nothing else; it read no row twice; it read them in id order (by seq).
# Returns the number of rows it missed.
sub read_once_ok
{
	my ($node, $db, $table, $reader, $label, %opt) = @_;
	my $seen = "SELECT id FROM seen WHERE reader = '$reader'";
	my $missed = "SELECT id FROM $table EXCEPT $seen";
	sql_ok($node, $db, qq{
		SELECT (SELECT count(*) FROM $table) > @{[ $opt{more_than} // 0 ]}
		       AND NOT EXISTS ($missed) AND NOT EXISTS ($seen EXCEPT SELECT id FROM $table),
		       format('%s rows, %s read, %s missed', (SELECT count(*) FROM $table),
		              (SELECT count(*) FROM ($seen) s), (SELECT count(*) FROM ($missed) m))},
		"$label: every committed row read, nothing else");
	sql_ok($node, $db, qq{
		SELECT count(*) = count(DISTINCT id), count(*) - count(DISTINCT id) || ' read twice' FROM ($seen) s},
		"$label: no row read twice");
	sql_ok($node, $db, in_order("SELECT id, seq AS ord FROM seen WHERE reader = '$reader'"), "$label: read in id order");
	return missed_count($node, $db, $table, $reader);
}

# A psql session on database postgres of $node, driven a query at a time
# with session_query() (background_psql would note every query in the log);
# end it with $s->{in} .= "\\q\n"; $s->{run}->finish.
sub psql_session
{
	my ($node) = @_;
	my $s = { in => '', out => '', err => '', n => 0 };
	$s->{run} = IPC::Run::start([ 'psql', '-XAtq', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('postgres'), '-f', '-' ],
		'<', \$s->{in}, '>', \$s->{out}, '2>', \$s->{err}, IPC::Run::timeout(300));
	return $s;
}

# What $sql printed in session $s (unaligned, tuples only); dies on an error.
sub session_query
{
	my ($s, $sql) = @_;
	my $n = ++$s->{n};
	$s->{in} .= "$sql;\n\\echo __done $n\n";
	$s->{run}->pump until $s->{out} =~ /__done $n\n/ || $s->{err} =~ /ERROR/;
	die "session: $s->{err}" if $s->{err} =~ /ERROR/;
	my $out = $s->{out} =~ s/__done $n\n//r;
	$s->{out} = '';
	return $out;
}

# pgbench scripts of writers into a table data (id uuid DEFAULT uuidv7(),
# w int, kind text), by name: short (two rows 0-150 ms apart), late (a
# commit 0.3-1.5 s after the insert), early (an id made 0.2-1.2 s before its
# insert), twophase (PREPARE, then COMMIT or, one time in four, ROLLBACK
# PREPARED), rollback
sub writer_scripts
{
	return (
	short => q{
\set s random(0, 150)
BEGIN;
INSERT INTO data (w, kind) VALUES (:client_id, 'short');
\sleep :s ms
INSERT INTO data (w, kind) VALUES (:client_id, 'short');
COMMIT;
},
	# a late commit
	late => q{
\set s random(300, 1500)
BEGIN;
INSERT INTO data (w, kind) VALUES (:client_id, 'late');
\sleep :s ms
COMMIT;
},
	# an id made long before its row is inserted and committed
	early => q{
\set s random(200, 1200)
BEGIN;
SELECT uuidv7() AS early \gset
\sleep :s ms
INSERT INTO data (id, w, kind) VALUES (':early', :client_id, 'early');
COMMIT;
},
	twophase => q{
\set g random(1, 2000000000)
\set s random(0, 400)
\set c random(1, 4)
BEGIN;
INSERT INTO data (w, kind) VALUES (:client_id, 'two-phase');
PREPARE TRANSACTION 'w:client_id-:g';
\sleep :s ms
\if :c = 1
ROLLBACK PREPARED 'w:client_id-:g';
\else
COMMIT PREPARED 'w:client_id-:g';
\endif
},
	rollback => q{
\set s random(0, 100)
BEGIN;
INSERT INTO data (w) VALUES (-:client_id);
\sleep :s ms
ROLLBACK;
},
	);
}

1;
