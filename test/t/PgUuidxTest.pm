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
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

our @EXPORT = qw(new_node start_with_env sql_ok helpers in_order clock_shim set_clock);

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

# SQL: the ids of $from (a query with columns id and ord), in ord order,
# strictly increasing, optionally within partitions: (verdict, detail).
sub in_order
{
	my ($from, $partition) = @_;
	my $by = $partition ? "PARTITION BY $partition ORDER BY ord" : 'ORDER BY ord';
	return "SELECT count(*) FILTER (WHERE id <= prev) = 0, count(*) FILTER (WHERE id <= prev) || ' out of order'"
	  . " FROM (SELECT id, lag(id) OVER ($by) AS prev FROM ($from) s0) s";
}

1;
