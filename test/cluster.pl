# test/cluster.pl [-c NAME=VALUE]... COMMAND... - run COMMAND against a
# throwaway cluster of PostgreSQL::Test::Cluster (the server whose bindir
# is first in PATH; unix socket in a temp dir), with PGHOST, PGPORT and PGDATA set;
# exit with COMMAND's status.  Settings given with -c are appended to
# postgresql.conf.  Used by test/lib.sh's in_cluster.
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
while (@ARGV >= 2 && $ARGV[0] eq '-c')
{
	shift @ARGV;
	push @conf, shift @ARGV;
}
die "usage: $0 [-c NAME=VALUE]... COMMAND...\n" unless @ARGV;

my $node = PostgreSQL::Test::Cluster->new('main');
$node->init;
$node->append_conf('postgresql.conf', join("\n", @conf) . "\n");
{
	# under "make memcheck": the sanitizer runtime, for the server only
	local $ENV{LD_PRELOAD} = $ENV{PG_UUIDX_SERVER_PRELOAD} || $ENV{LD_PRELOAD} || '';
	$node->start;
}
@ENV{qw(PGHOST PGPORT PGDATABASE PGDATA)} = ($node->host, $node->port, 'postgres', $node->data_dir);
open(STDOUT, '>&', $out) and open(STDERR, '>&', $err) or die $!;
print "== throwaway cluster: ", $node->safe_psql('postgres', 'SELECT version()'),
  ", socket ", $node->host, "\n";

system(@ARGV);
my $rc = $? == -1 ? 127 : ($? & 127) ? 128 + ($? & 127) : $? >> 8;
if ($rc)
{
	my @log = split /\n/, slurp_file($node->logfile);
	my $from = @log > 30 ? @log - 30 : 0;
	print STDERR "== server log (last 30 lines)\n", join("\n", @log[ $from .. $#log ]), "\n";
}
open(STDOUT, '>>', $PostgreSQL::Test::Utils::test_logfile) and open(STDERR, '>&', \*STDOUT) or die $!;
$node->stop('fast');
exit $rc;
