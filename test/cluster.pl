# test/cluster.pl [-c NAME=VALUE]... [--parallel] COMMAND... - run COMMAND
# against a throwaway cluster of PostgreSQL::Test::Cluster (the server whose
# bindir is first in PATH; unix socket in a temp dir), with PGHOST, PGPORT and
# PGDATA set; exit with COMMAND's status.  Settings given with -c are
# appended to postgresql.conf.  Used by test/lib.sh's in_cluster.
#
# --parallel (the parallel lane of test/run.sh): every session of the
# cluster plans each query it can with a parallel worker: debug_parallel_query
# = regress from PostgreSQL 16 on, force_parallel_mode on 15 ("regress" hides
# the Gather node from EXPLAIN and the workers' CONTEXT lines from errors, so
# the expected files stay as they are), set with ALTER SYSTEM and a reload.
# Then the setting must be seen to take: a new session's PARALLEL SAFE
# PL/pgSQL function must report another process than the session's own.
# Else COMMAND does not run, and the exit status is 3.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';

# PostgreSQL::Test::Utils sends STDOUT and STDERR to its log file: keep the
# terminal's for COMMAND
my ($out, $err);
BEGIN { open($out, '>&', \*STDOUT) and open($err, '>&', \*STDERR) or die $!; }
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;

my @conf = ('log_statement = none');
my $parallel;
while (@ARGV >= 2 && $ARGV[0] =~ /^(-c|--parallel)$/)
{
	if (shift(@ARGV) eq '--parallel') { $parallel = 1; }
	else { push @conf, shift @ARGV; }
}
die "usage: $0 [-c NAME=VALUE]... [--parallel] COMMAND...\n" unless @ARGV;

my $node = PostgreSQL::Test::Cluster->new('main');
$node->init;
$node->append_conf('postgresql.conf', join("\n", @conf) . "\n");
{
	# under "make memcheck": the sanitizer runtime, for the server only
	local $ENV{LD_PRELOAD} = $ENV{PG_UUIDX_SERVER_PRELOAD} || $ENV{LD_PRELOAD} || '';
	$node->start;
}
my $parallel_on = $parallel ? eval { parallel_on() } : '';
@ENV{qw(PGHOST PGPORT PGDATABASE PGDATA)} = ($node->host, $node->port, 'postgres', $node->data_dir);
open(STDOUT, '>&', $out) and open(STDERR, '>&', $err) or die $!;
print "== throwaway cluster: ", $node->safe_psql('postgres', 'SELECT version()'),
  ", socket ", $node->host, "\n";

my $rc = 3;
if (defined $parallel_on)
{
	print $parallel_on;
	system(@ARGV);
	$rc = $? == -1 ? 127 : ($? & 127) ? 128 + ($? & 127) : $? >> 8;
}
else
{
	print STDERR "== the parallel setting: $@";
}
if ($rc)
{
	my @log = split /\n/, slurp_file($node->logfile);
	my $from = @log > 30 ? @log - 30 : 0;
	print STDERR "== server log (last 30 lines)\n", join("\n", @log[ $from .. $#log ]), "\n";
}
open(STDOUT, '>>', $PostgreSQL::Test::Utils::test_logfile) and open(STDERR, '>&', \*STDOUT) or die $!;
$node->stop('fast');
exit $rc;

# --parallel: set, then seen to take; returns the line that says so
sub parallel_on
{
	my $guc = $node->pg_version >= 16 ? 'debug_parallel_query' : 'force_parallel_mode';
	$node->safe_psql('postgres', "ALTER SYSTEM SET $guc = regress");
	$node->reload;
	# the postmaster reads the file on SIGHUP: sessions forked afterwards have it
	$node->poll_query_until('postgres', "SHOW $guc", 'regress') or die "$guc is not regress\n";
	$node->safe_psql('postgres', 'CREATE FUNCTION parallel_lane_pid() RETURNS int LANGUAGE plpgsql PARALLEL SAFE
		AS $$ BEGIN RETURN pg_backend_pid(); END $$');
	# one session: its own pid (pg_backend_pid() is PARALLEL RESTRICTED: the
	# leader's), then the function's
	my ($leader, $worker) = split /\n/, $node->safe_psql('postgres', 'SELECT pg_backend_pid(); SELECT parallel_lane_pid()');
	$node->safe_psql('postgres', 'DROP FUNCTION parallel_lane_pid()');
	die "$guc = regress, but a PARALLEL SAFE function ran in the session's own process ($leader), not in a worker\n"
	  if !$worker || $worker eq $leader;
	return "== $guc = regress: a PARALLEL SAFE function of session $leader ran in worker $worker\n";
}
