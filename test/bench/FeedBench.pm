# test/bench/FeedBench.pm - what the phases of "make bench" that run
# clusters of their own through PostgreSQL's TAP modules share
# (test/bench/outbox.pl, test/bench/throughput.pl): progress on the
# terminal, pgbench scripts and runs against one node, the load average.
#
# PostgreSQL::Test::Utils sends STDOUT and STDERR to its log file
# (tmp_check/log/regress_log_<script>): this module keeps the terminal's,
# so it is loaded before PostgreSQL::Test::Utils.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
package FeedBench;
use strict;
use warnings FATAL => 'all';
use Exporter 'import';
use IPC::Run;

our ($stdout, $stderr);
BEGIN { open($stdout, '>&', \*STDOUT) and open($stderr, '>&', \*STDERR) or die $!; }
use PostgreSQL::Test::Utils ();

our @EXPORT = qw(say loadavg conninfo script pgbench_start pgbench_finish tps);

my $label = 'bench';
my @conn;
my $dir;

# the phase's name (progress lines and errors start with it); errors go to
# the terminal
sub start
{
	($label) = @_;
	$stdout->autoflush(1);
	$SIG{__DIE__} = sub { print $stderr "$label: $_[0]" unless $^S; };
	return;
}

# the node pgbench runs against
sub node
{
	my ($n) = @_;
	@conn = ('-h', $n->host, '-p', $n->port);
	return @conn;
}

sub say { print $stdout "== $label: @_\n"; return; }
sub loadavg { open(my $fh, '<', '/proc/loadavg') or return 'unknown'; return join ' ', (split ' ', <$fh>)[ 0 .. 2 ]; }

# a libpq connection string of a node's database bench, without quotes, to
# put in SQL literals
sub conninfo { return 'host=' . $_[0]->host . ' port=' . $_[0]->port . ' dbname=bench'; }

# a pgbench script file in a temp dir, its text with TBL replaced by the table
sub script
{
	my ($name, $table, $text) = @_;
	$dir //= PostgreSQL::Test::Utils::tempdir();
	my $f = "$dir/$name.$table.sql";
	open(my $fh, '>', $f) or die "$f: $!";
	print $fh $text =~ s/TBL/$table/gr;
	close($fh);
	return $f;
}

# pgbench's output, started in the background (IPC::Run harness, output
# ref); the simple query protocol unless the arguments name one (-M)
sub pgbench_start
{
	my ($db, @args) = @_;
	my $o = '';
	my @mode = grep({ $_ eq '-M' } @args) ? () : ('-M', 'simple');
	my $h = IPC::Run::start([ 'pgbench', '-n', @mode, @args, @conn, $db ], '>', \$o, '2>&1');
	return [ $h, \$o ];
}
sub pgbench_finish
{
	my ($p) = @_;
	$p->[0]->finish or die "pgbench failed:\n${ $p->[1] }";
	return ${ $p->[1] };
}
sub tps { my ($res) = @_; return ($res =~ /^tps = ([\d.]+)/m)[0] // die "no tps in pgbench's output:\n$res"; }

1;
