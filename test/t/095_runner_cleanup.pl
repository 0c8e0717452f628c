# The test command leaves the server as it found it, also when its
# sanitizer pass is interrupted or fails.  "The user's server" is a private,
# relocated copy of this run's server with the plain pg_uuidx of this run
# installed in it, its pkglibdir and extension directory symlinks to
# directories beside it (as some packagings have them); test/run.sh runs against it (PG_CONFIG of the copy) in its
# sanitizer mode (MEMCHECK=1) from a copy of the work tree with a tiny test
# selection, twice:
#   interrupted  SIGINT to the runner's process group, as Ctrl-C would, once
#                the sanitized pass is running: a TAP test of it has a
#                sanitized server up and holds (held.pl below);
#   failed       a step after the sanitizer build is built and installed
#                fails (a warm-up library that does not compile).
# After each: every file of the copy (and of those directories) is
# byte-identical to before, a new
# server on the copy can CREATE EXTENSION pg_uuidx and call uuidv7(), no
# process of the run is left, and the run's temp dir (its TMPDIR) is empty.
# Runs inside "make test" only (test/run.sh names its work tree in
# PG_UUIDX_SOURCE and installs clang for it), in the plain pass.
use strict;
use warnings FATAL => 'all';
use Cwd qw(realpath);
use Digest::SHA;
use File::Basename;
use File::Find;
use File::Path qw(make_path);
use POSIX qw(setsid WNOHANG);
use Time::HiRes qw(sleep time);
use FindBin;
use lib $FindBin::RealBin;
use PgUuidxTest;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

plan skip_all => 'needs the runner (make test), which sets PG_UUIDX_SOURCE' unless $ENV{PG_UUIDX_SOURCE};
plan skip_all => 'runs in the plain pass only (under the sanitizers it would test nothing more)'
  if $ENV{PG_UUIDX_SERVER_PRELOAD};

my $src = $ENV{PG_UUIDX_SOURCE};
my $tmp = PostgreSQL::Test::Utils::tempdir;
my $pg_config = $ENV{PG_CONFIG} || 'pg_config';
sub pg_config { my ($cmd, $what) = @_; my ($v) = run_command([ $cmd, "--$what" ]); chomp $v; return $v; }

# The user's server: bindir, pkglibdir, sharedir and includedir of this
# run's server, copied below $server with their common prefix taken off
# (PostgreSQL finds its other directories relative to the binary).
my %dir = map { $_ => pg_config($pg_config, $_) } qw(bindir pkglibdir sharedir includedir);
my @parts = split m{/}, $dir{bindir};
for my $d (values %dir)
{
	my @p = split m{/}, $d;
	my $i = 0;
	$i++ while $i < @parts && $i < @p && $parts[$i] eq $p[$i];
	splice(@parts, $i);
}
my $prefix = join('/', @parts);
my $server = "$tmp/server";
my @copied;
for my $d (sort values %dir)
{
	next if grep { index("$d/", "$_/") == 0 } @copied;
	my $to = $server . substr($d, length $prefix);
	make_path($to);
	system('cp', '-a', "$d/.", "$to/") == 0 or die "cp $d: $?";
	push @copied, $d;
}
# and the server's libpq, which pg_uuidx links (a build's can be newer than
# the system's), as the runner's own copy holds it
my $libdir = pg_config($pg_config, 'libdir');
my @libpq = glob("$libdir/libpq.so*");
if (@libpq && index("$libdir/", "$prefix/") == 0)
{
	my $to = $server . substr($libdir, length $prefix);
	make_path($to);
	system('cp', '-a', @libpq, "$to/") == 0 or die "cp libpq: $?";
}
# its library and extension directories lie elsewhere, behind symlinks, as
# some packagings have them
my %elsewhere = (
	"$tmp/pkglib" => $server . substr($dir{pkglibdir}, length $prefix),
	"$tmp/extension" => $server . substr($dir{sharedir}, length $prefix) . '/extension');
for my $to (sort keys %elsewhere)
{
	rename($elsewhere{$to}, $to) && symlink($to, $elsewhere{$to}) or die "symlink $elsewhere{$to}: $!";
}
my $user_pg_config = $server . substr($dir{bindir}, length $prefix) . '/pg_config';
my $pkglibdir = pg_config($user_pg_config, 'pkglibdir');
is($pkglibdir, $server . substr($dir{pkglibdir}, length $prefix), "the user's server is a relocated copy ($server)");
my ($symbols) = run_command([ 'nm', '-D', "$pkglibdir/pg_uuidx.so" ]);
ok($symbols =~ / T pg_uuidx_uuidv7$/m && $symbols !~ /__asan_/, "a plain pg_uuidx is installed in the user's server");

# sha256 of every file of the copy and of those directories;
# symlinks by their target
sub snapshot
{
	my %h;
	find(
		{
			no_chdir => 1,
			wanted => sub {
				if (-l $_) { $h{$_} = 'symlink ' . readlink($_); }
				elsif (-f _) { $h{$_} = Digest::SHA->new(256)->addfile($_)->hexdigest; }
			}
		},
		$server, sort keys %elsewhere);
	return \%h;
}
my $before = snapshot();

# The work tree to run from, with a tiny test selection: one pg_regress
# file, one pgTAP file, and held.pl as the TAP tests.
my $tree = "$tmp/tree";
make_path($tree);
system("cp -a '$src'/Makefile '$src'/*.control '$src'/pg_uuidx--*.sql '$src'/src '$src'/sql '$src'/expected '$src'/test '$tree'/") == 0
  or die "copy of $src failed";
system("rm -f '$tree'/src/*.o '$tree'/src/*/*.o '$tree'/*.so '$tree'/src/*.bc '$tree'/src/*/*.bc");
my $makefile = slurp_file("$tree/Makefile");
$makefile =~ s/^REGRESS = \\\n(?:\t.*\n)+/REGRESS = generate_v4\n/m or die 'no REGRESS list in the Makefile';
open(my $fh, '>', "$tree/Makefile") or die $!;
print $fh $makefile;
close($fh);
unlink(grep { !m{/monotonic\.sql$} } glob("$tree/test/pgtap/*.sql"));
unlink(glob("$tree/test/t/*.pl"));
my $held = "$tmp/held";
append_to_file("$tree/test/t/held.pl", <<'EOF');
# holds a sanitized server up until the run is interrupted
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use PgUuidxTest;
use PostgreSQL::Test::Utils;
use Test::More;
my $node = new_node('held');
my ($lib) = run_command([ $ENV{PG_CONFIG}, '--pkglibdir' ]);
chomp $lib;
my ($sym) = run_command([ 'nm', '-D', "$lib/pg_uuidx.so" ]);
$node->safe_psql('postgres', 'CREATE EXTENSION pg_uuidx; SELECT uuidv7()');
append_to_file($ENV{PG_UUIDX_HELD}, ($sym =~ /__asan_report/ ? 'sanitized' : 'plain') . " build in $lib\n");
sleep 600;
ok(1);
done_testing();
EOF

# every process whose command line names $dir
sub processes_in
{
	my ($dir) = @_;
	my @found;
	for my $f (glob('/proc/[0-9]*/cmdline'))
	{
		open(my $c, '<', $f) or next;
		my $cmd = do { local $/; <$c> } // '';
		$cmd =~ tr/\0/ /;
		push @found, ($f =~ m{/proc/(\d+)/})[0] . ": $cmd" if index($cmd, "$dir/") >= 0;
	}
	return @found;
}

# test/run.sh in $tree in a session of its own (its own process group), in
# sanitizer mode against the user's server; TMPDIR of its own
sub start_run
{
	my ($label, %env) = @_;
	# short: the unix sockets of its servers go below it
	my $runtmp = PostgreSQL::Test::Utils::tempdir_short;
	my $log = "$tmp/$label.log";
	my $pid = fork() // die "fork: $!";
	if ($pid == 0)
	{
		setsid() or die "setsid: $!";
		# as from a terminal, whatever this test was started from (a shell
		# starts background commands with SIGINT ignored)
		$SIG{$_} = 'DEFAULT' for qw(INT TERM QUIT);
		open(STDIN, '<', '/dev/null') && open(STDOUT, '>', $log) && open(STDERR, '>&', \*STDOUT) or die $!;
		# nothing of the make and prove this test runs under
		delete @ENV{qw(MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES TESTDIR PG_REGRESS top_builddir PGPORT PGHOST KEEP)};
		@ENV{ keys %env } = values %env;
		$ENV{PG_CONFIG} = $user_pg_config;
		$ENV{MEMCHECK} = 1;
		$ENV{TMPDIR} = $runtmp;
		chdir $tree or die $!;
		exec('bash', 'test/run.sh') or die "exec: $!";
	}
	return ($pid, $log, $runtmp);
}

# waits for $pid until $deadline; its exit status, or undef
sub wait_until
{
	my ($pid, $deadline) = @_;
	while (time() < $deadline)
	{
		return $? if waitpid($pid, WNOHANG) == $pid;
		sleep 0.2;
	}
	return undef;
}

# what must hold after a run, however it ended
sub check_after
{
	my ($label, $log, $runtmp) = @_;
	my @left = processes_in($runtmp);
	is(scalar(@left), 0, "$label: no process of the run is left") or diag(join "\n", @left);
	for (@left) { kill 'KILL', (split /:/)[0]; }
	opendir(my $dh, $runtmp) or die $!;
	my @entries = grep { !/^\.\.?$/ } readdir($dh);
	is("@entries", '', "$label: the run's temp dir is gone");
	my $after = snapshot();
	my @changed = grep { ($before->{$_} // '') ne ($after->{$_} // '') } sort keys %{ { %$before, %$after } };
	is(scalar(@changed), 0, "$label: every file of the user's server is as it was")
	  or diag('changed, added or removed: ' . join(' ', @changed[ 0 .. ($#changed > 9 ? 9 : $#changed) ]));
	my $node = PostgreSQL::Test::Cluster->new("user_$label", install_path => dirname(pg_config($user_pg_config, 'bindir')));
	$node->init;
	$node->start;
	my ($rc, $out, $err) = $node->psql('postgres', qq{CREATE EXTENSION pg_uuidx; SET search_path = public, pg_catalog;
		SELECT uuid_extract_version(uuidv7()) = 7
			AND position('@{[ realpath("$pkglibdir/pg_uuidx.so") ]}' IN pg_read_file('/proc/' || pg_backend_pid() || '/maps')) > 0});
	is("$rc $out", '0 t', "$label: a new session on the user's server creates pg_uuidx and calls uuidv7() (its library)")
	  or diag($err);
	$node->stop('immediate');
	my @lines = split /\n/, slurp_file($log);
	note("$label: last lines of the run:\n" . join("\n", @lines[ ($#lines > 11 ? $#lines - 11 : 0) .. $#lines ]));
	return;
}

# 1. Interrupted: SIGINT to the process group once held.pl has a sanitized
# server up
my $t0 = time();
my ($pid, $log, $runtmp) = start_run('interrupted', PG_UUIDX_HELD => $held, PROVE_TESTS => 'test/t/held.pl');
my $status;
until (-s $held)
{
	$status = waitpid($pid, WNOHANG) == $pid ? $? : undef;
	last if defined $status || time() - $t0 > 240;
	sleep 0.2;
}
my $state = -s $held ? slurp_file($held) : '';
ok($state =~ /^sanitized build/, "interrupted: the run reached its sanitized pass (@{[int(time() - $t0)]} s)")
  or diag("no sanitized server came up; the run's output:\n" . slurp_file($log));
note("interrupted: $state");
kill('INT', -$pid) unless defined $status;
$status //= wait_until($pid, time() + 90);
ok(defined $status && $status != 0, 'interrupted: the run stopped, with a failure status')
  or diag(defined $status ? 'status 0' : 'still running after 90 s');
kill('KILL', -$pid) unless defined $status;
check_after('interrupted', $log, $runtmp);

# 2. Failed: the warm-up library preloaded with the sanitizer runtime does
# not compile, a step after the sanitizer build is installed
append_to_file("$tree/test/t/asan_warmup.c", "\n#error a build step that fails after the sanitizer build is installed\n");
$t0 = time();
($pid, $log, $runtmp) = start_run('failed', PROVE_TESTS => 'test/t/held.pl', PG_UUIDX_HELD => "$tmp/held2");
$status = wait_until($pid, time() + 240);
ok(defined $status && $status != 0 && slurp_file($log) =~ /building against .*-fsanitize=address.*\n(?s:.*)#error a build step/,
	"failed: the run failed after building with the sanitizers (@{[int(time() - $t0)]} s)")
  or diag(slurp_file($log));
kill('KILL', -$pid) unless defined $status;
check_after('failed', $log, $runtmp);

done_testing();
