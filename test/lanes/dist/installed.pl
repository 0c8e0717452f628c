# pg_uuidx as a package installed it, on a throwaway cluster (test/run.sh
# pgxn|deb, "make pgxn-test", "make deb-test"): PG_UUIDX_INSTALLED is "pgxn
# ZIP" (installed by "pgxn install ZIP") or "deb" (postgresql-<major>-pg-uuidx
# of the major of the pg_config in PATH: 15 for "make deb-test", 18 and 19
# in test/lanes/dist/deb-sid.sh).
# CREATE EXTENSION ("pgxn load" for the zip) makes the control file's
# version, whose uuidv7() gives version-7 ids from the installed library:
# the one the backend has mapped (/proc/self/maps) is pkglibdir's (for deb:
# a file of the package, unchanged since it was installed, dpkg --verify);
# the installed scripts offer every
# version the source tree's do (the base script pg_uuidx--1.0.sql and the
# update chain), and each installs; then the regression suite runs against
# the installed files ("pgxn check": the zip's own; deb: pg_regress from the
# work tree, where nothing is built).
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib "$FindBin::RealBin/../../t";
use PgUuidxTest;
use PostgreSQL::Test::Utils;
use Test::More;

my ($how, $zip) = split ' ', $ENV{PG_UUIDX_INSTALLED} || '';
plan skip_all => 'run by make pgxn-test or make deb-test' unless $how;
my ($version) = slurp_file("$FindBin::RealBin/../../../pg_uuidx.control") =~ /^default_version\s*=\s*'([^']+)'/m;
chomp(my $pg_config = `which pg_config`);
chomp(my $lib = `pg_config --pkglibdir`);
$lib .= '/pg_uuidx.so';
my ($major) = `pg_config --version` =~ /^PostgreSQL (\d+)/;
my $pkg = "postgresql-$major-pg-uuidx";

my $node = new_node('installed');
local @ENV{qw(PGHOST PGPORT PGDATABASE)} = ($node->host, $node->port, 'postgres');
if ($how eq 'pgxn')
{
	is(system('pgxn', 'load', '--pg_config', $pg_config, '-d', 'postgres', $zip), 0, 'pgxn load (CREATE EXTENSION)');
}
else
{
	$node->safe_psql('postgres', 'CREATE EXTENSION pg_uuidx');
	like(`dpkg -S $lib`, qr/^\Q$pkg\E: \Q$lib\E$/m, "$lib belongs to $pkg");
	is(`dpkg --verify $pkg 2>&1`, '', "dpkg --verify $pkg: its files are as installed");
}
# the library a backend has loaded once it made an id: pkglibdir's, nothing else
my @loaded = grep { m{pg_uuidx} } split /\n/, $node->safe_psql('postgres', q{SELECT uuid_extract_version(uuidv7());
	SELECT DISTINCT m[1] FROM regexp_matches(pg_read_file('/proc/self/maps'), '\s(/\S*pg_uuidx\S*)$', 'gn') AS m});
is("@loaded", $lib, "the backend has loaded $lib");
is($node->safe_psql('postgres', q{SELECT extversion || ' ' || uuid_extract_version(uuidv7())
	FROM pg_extension WHERE extname = 'pg_uuidx'}), "$version 7", "pg_uuidx $version created, uuidv7() gives version 7");
ok(-f $lib && $node->safe_psql('postgres', "SELECT count(*) FROM pg_proc WHERE probin = '\$libdir/pg_uuidx'") > 0,
	"its functions are in \$libdir/pg_uuidx, the installed $lib");

# the versions of the source tree (PG_UUIDX_SOURCE, test/run.sh sets it; the
# run's copy of the tests has no scripts): its base script's and each
# update's target
my $tree = $ENV{PG_UUIDX_SOURCE} || "$FindBin::RealBin/../../..";
my @want = sort map { m{pg_uuidx--(?:[^/]*--)?([\d.]+)\.sql$} ? $1 : () } glob("$tree/pg_uuidx--*.sql");
my @have = split /\n/, $node->safe_psql('postgres', q{SELECT version FROM pg_available_extension_versions
	WHERE name = 'pg_uuidx' ORDER BY version});
is("@have", "@want", "the installed scripts offer the versions of the source tree: @want");
$node->safe_psql('postgres', 'CREATE DATABASE versions');
for my $v (@have)
{
	my ($rc, $out, $err) = $node->psql('versions',
		"CREATE EXTENSION pg_uuidx VERSION '$v'; SELECT extversion FROM pg_extension WHERE extname = 'pg_uuidx'; DROP EXTENSION pg_uuidx");
	is($out, $v, "CREATE EXTENSION pg_uuidx VERSION '$v' from the installed scripts") or diag($err);
}

if ($how eq 'pgxn')
{
	is(system('pgxn', 'check', '--pg_config', $pg_config, $zip), 0,
		"pgxn check: the zip's regression suite against the installed files");
}
else
{
	ok(!-e 'pg_uuidx.so', 'nothing is built in the work tree');
	my $rc = system("make -s PG_CONFIG=$pg_config installcheck >regress.log 2>&1");
	print `grep -E '^(test |=+\$| All | [0-9]+ of)' regress.log`;
	is($rc, 0, 'pg_regress (make installcheck) against the installed package')
	  or diag(`head -n 60 regression.diffs 2>/dev/null`);
}
done_testing();
