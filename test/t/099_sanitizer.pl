# "make memcheck" only: pg_uuidx built with clang -fsanitize=address,undefined
# and the ASan runtime preloaded into every test server (test/run.sh sets
# PG_UUIDX_SERVER_PRELOAD and the sanitizers' options; reports go to files
# under PG_UUIDX_SANITIZER_LOGS).  The server itself is not instrumented,
# so only our code is checked.  Runs last: after the suite and the other TAP
# tests it adds a workload of its own (memcheck_extra.sql: entropy refills,
# every error path, extreme shifts, parallel workers, the commit horizon;
# 100 fresh backends)
# and then reads every report the sanitizers wrote.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use PgUuidxTest;
use PostgreSQL::Test::Utils;
use Test::More;

plan skip_all => 'not a "make memcheck" run' unless $ENV{PG_UUIDX_SERVER_PRELOAD};
my $logs = $ENV{PG_UUIDX_SANITIZER_LOGS} or die 'PG_UUIDX_SANITIZER_LOGS not set';

my ($pkglibdir) = run_command([ $ENV{PG_CONFIG} || 'pg_config', '--pkglibdir' ]);
chomp $pkglibdir;
my ($symbols) = run_command([ 'nm', '-D', "$pkglibdir/pg_uuidx.so" ]);
ok($symbols =~ / U __asan_report_/ && $symbols =~ / U __ubsan_handle_/,
	'the installed pg_uuidx.so is instrumented (ASan and UBSan entry points)');

# preloaded: the commit horizon's shared state (which 15 and 16 get only so)
# runs under the sanitizers too
my $node = new_node('sanitizer', conf => [ 'jit = off', 'max_worker_processes = 8', 'max_parallel_workers = 8',
	"shared_preload_libraries = 'pg_uuidx'", 'max_prepared_transactions = 4' ]);
$node->safe_psql('postgres', 'CREATE DATABASE extra');
sql_ok($node, 'extra', q{CREATE EXTENSION pg_uuidx; SELECT uuidv7() IS NOT NULL
	AND position('libclang_rt.asan' IN pg_read_file('/proc/' || pg_backend_pid() || '/maps')) > 0
	AND position('pg_uuidx.so' IN pg_read_file('/proc/' || pg_backend_pid() || '/maps')) > 0},
	'a backend that calls pg_uuidx runs with the sanitizer runtime mapped');
$node->safe_psql('extra', 'DROP EXTENSION pg_uuidx');
my ($rc, $out, $err) = $node->psql('extra', slurp_file("$FindBin::RealBin/memcheck_extra.sql"),
	on_error_stop => 1, timeout => 900);
is($rc, 0, 'extra workload runs to the end') or diag($err);
my $script = PostgreSQL::Test::Utils::tempdir() . '/fresh.pgbench';
append_to_file($script, "SELECT uuidv4(), uuidv7(), uuidv7('-1 day');\n");
($out) = run_command([ 'pgbench', '-n', '-C', '-h', $node->host, '-p', $node->port,
	'-c', 4, '-j', 2, '-t', 25, '-f', $script, 'extra' ]);
like($out, qr{actually processed: 100/100}, '100 fresh backends make ids');
# a backend stopped by a sanitizer takes the server down: read the reports anyway
$node->stop('fast', fail_ok => 1);

# A report starts at a sanitizer's ERROR/WARNING line or a UBSan "runtime
# error:" line and runs to the next one; it is ours if a line of it names
# pg_uuidx.so or one of our sources.
my ($total, $ours, $text) = (0, 0, '');
for my $file (glob("$logs/*"), $node->logfile)
{
	for my $report (split /(?=^.*(?:(?:ERROR|WARNING): (?:Address|UndefinedBehavior)Sanitizer|runtime error:))/m,
		slurp_file($file))
	{
		next unless $report =~ /(?:ERROR|WARNING): (?:Address|UndefinedBehavior)Sanitizer|runtime error:/;
		$total++;
		$ours++ if $report =~ m{pg_uuidx\.so|src/(?:[a-z_]+/)?[a-z_]+\.[ch]};
		$text .= $report;
	}
}
is($ours, 0, "no sanitizer report in pg_uuidx's code ($total in all)") or diag(substr($text, 0, 4000));
is($total, 0, 'no sanitizer report at all') or diag(substr($text, 0, 4000));
done_testing();
