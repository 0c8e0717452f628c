# The functions pg_uuidx installs, as the catalog lists them, against every
# place that lists them by hand: each has a COMMENT, a row in README.md's
# function reference, an entry in test/pgtap/api.sql's contract, a place in
# the clash check of the base install script, pg_uuidx--1.0.sql (which must
# stop CREATE EXTENSION of every version on each), and a test under sql/ or
# test/ that calls it (a planner support function: one that it supports is
# called).  A list naming a function that is not installed fails too.
#
# The source tree is read from PG_UUIDX_SOURCE (test/run.sh sets it), else
# from the tree this file lies in.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use File::Find;
use FindBin;
use lib $FindBin::RealBin;
use PgUuidxTest;
use PostgreSQL::Test::Utils;
use Test::More;

my $root = $ENV{PG_UUIDX_SOURCE} || "$FindBin::RealBin/../..";
-f "$root/README.md" && -f "$root/pg_uuidx.control"
  or BAIL_OUT("no pg_uuidx source tree at $root (set PG_UUIDX_SOURCE)");
# the one install script (every version is it and the updates after it)
my @install = grep { !/--.*--/ } glob("$root/pg_uuidx--*.sql");
is(scalar(@install), 1, 'one install script, the base of every version: ' . join(' ', @install));
my $script_file = $install[0] // "$root/pg_uuidx--1.0.sql";
note("source tree $root, install script $script_file");

# "a, b, c" of a list, or '' (what is and what should be empty compare as
# strings, so a failure names the functions)
sub names { return join ', ', sort @_; }

my $node = new_node('lists');
$node->safe_psql('postgres', 'CREATE EXTENSION pg_uuidx');

# name|args|commented|support of (names of the functions it is the support
# function of, or '')
my %fn;
for my $row (split /\n/, $node->safe_psql('postgres', q{
	SELECT p.proname, array_to_string(p.proargtypes::regtype[], ','),
	       obj_description(p.oid, 'pg_proc') IS NOT NULL,
	       coalesce((SELECT string_agg(DISTINCT u.proname, ' ') FROM pg_proc u WHERE u.prosupport = p.oid), '')
	FROM pg_proc p
	JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
	JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'pg_uuidx'}))
{
	my ($name, $args, $commented, $supports) = split /\|/, $row, -1;
	$fn{"$name($args)"} = { name => $name, args => $args, commented => $commented eq 't',
		supports => [ split / /, $supports ] };
}
my %by_name = map { $_->{name} => 1 } values %fn;
cmp_ok(scalar(keys %fn), '>=', 50, 'the catalog lists the functions pg_uuidx installs (' . keys(%fn) . ')');

# COMMENT ON FUNCTION / AGGREGATE
is(names(grep { !$fn{$_}{commented} } keys %fn), '', 'every function has a COMMENT');

# README.md: the table rows of the section "Function reference", up to the
# next heading; a function is documented when its name is written as a call
# there, "name(" (the first column names the function)
my ($reference) = slurp_file("$root/README.md") =~ /^#+[ \t]*Function reference[ \t]*\n(.*?)(?=^#|\z)/ms;
ok(defined $reference, 'README.md has a section "Function reference"');
my %documented;
for my $line (split /\n/, $reference // '')
{
	next unless $line =~ /^\|/;
	my (undef, $first) = split /(?<!\\)\|/, $line;
	$documented{$1} = 1 while ($first // '') =~ /\b(\w+)\(/g;
}
is(names(grep { !$documented{$_} } sort keys %by_name), '',
	'every function is in the function reference of README.md');
is(names(grep { !$by_name{$_} } keys %documented), '',
	'README.md\'s function reference names no function that is not installed');

# test/pgtap/api.sql: the rows ('name', '{arg,...}', ...) of its contract
# table and the aggregates ('name(arg)') it adds
my $api = slurp_file("$root/test/pgtap/api.sql");
my %api;
while ($api =~ /\(\s*'(\w+)',\s*'\{([^}]*)\}'/g)
{
	my ($name, $args) = ($1, $2);
	$args =~ s/"//g;
	$api{"$name($args)"} = 1;
}
$api{"$1($2)"} = 1 while $api =~ /\('(\w+)\((\w*)\)'\)/g;
is(names(grep { !$api{$_} } keys %fn), '', 'every function is in test/pgtap/api.sql\'s contract');
is(names(grep { !$fn{$_} } keys %api), '', 'test/pgtap/api.sql lists no function that is not installed');

# The base script's clash check: in a schema that has a function of the
# same name and arguments as each of pg_uuidx's, CREATE EXTENSION must stop
# and name them all
$node->safe_psql('postgres', q{
	CREATE DATABASE clash;
});
$node->safe_psql('clash', q{
	CREATE SCHEMA clash;
	CREATE FUNCTION pg_temp.stand_in(name text, args text) RETURNS void LANGUAGE plpgsql AS $$
	BEGIN
	    -- language internal: the only one that takes internal arguments
	    EXECUTE format('CREATE FUNCTION clash.%I(%s) RETURNS int LANGUAGE internal AS %L',
	                   name, args, 'int4in');
	END $$;
} . join('', map { "SELECT pg_temp.stand_in('$fn{$_}{name}', '$fn{$_}{args}');\n" } sort keys %fn));
# every version stops there, before creating anything: the check is in
# the base script, which every version starts with, and names the functions
# of later versions too
my @versions = split /\n/, $node->safe_psql('clash', q{SELECT version FROM pg_available_extension_versions
	WHERE name = 'pg_uuidx' ORDER BY string_to_array(version, '.')::int[]});
for my $v (@versions)
{
	my ($rc, $out, $err) = $node->psql('clash', "CREATE EXTENSION pg_uuidx VERSION '$v' SCHEMA clash");
	like($err, qr/schema clash already has functions named like pg_uuidx's/,
		"CREATE EXTENSION VERSION '$v' stops in a schema that has functions of pg_uuidx's names and arguments");
	my %clash;
	if ($err =~ /named like pg_uuidx's: (.*)$/m)
	{
		my $list = $1;
		while ($list =~ /(\w+)\(([^)]*)\)/g)
		{
			my ($name, $args) = ($1, $2);
			$args =~ s/, /,/g;
			$clash{"$name($args)"} = 1;
		}
	}
	is(names(grep { !$clash{$_} } keys %fn), '', "the clash check stops $v on every function");
}
# a procedure or an aggregate of one of those signatures is refused as a
# function is (one signature is one object whatever its kind)
my ($rc, $out, $err) = $node->psql('clash', q{
	CREATE SCHEMA kinds;
	CREATE PROCEDURE kinds.uuidv6() LANGUAGE sql AS $$ SELECT 1 $$;
	CREATE FUNCTION kinds.pick(uuid, uuid) RETURNS uuid LANGUAGE sql AS 'SELECT $2';
	CREATE AGGREGATE kinds.uuid_extract_version(uuid) (SFUNC = kinds.pick, STYPE = uuid);
	CREATE EXTENSION pg_uuidx SCHEMA kinds;});
like($err, qr/schema kinds already has functions named like pg_uuidx's: uuid_extract_version\(uuid\), uuidv6\(\)$/m,
	'the clash check names a procedure and an aggregate of pg_uuidx\'s signatures');
my ($block) = slurp_file($script_file) =~ /\$clash\$(.*?)\$clash\$/s;
my %listed;
$listed{"$1($2)"} = 1 while ($block // '') =~ /\('(\w+)',\s*'([^']*)'\)/g;
# a function an update script drops was installed by the versions before it
my %dropped;
for my $update (grep { /--.*--/ } glob("$root/pg_uuidx--*.sql"))
{
	my $text = slurp_file($update);
	while ($text =~ /DROP FUNCTION \@extschema\@\.(\w+)\(([^)]*)\)/g)
	{
		my ($name, $args) = ($1, $2);
		$args =~ s/, /,/g;
		$dropped{"$name($args)"} = 1;
	}
}
is(names(grep { !$fn{$_} && !$dropped{$_} } keys %listed), '',
	'the clash check lists no function that is neither installed nor dropped by an update');

# Called by a test: "name(" outside comments in the files of pg_regress
# (sql/), pgTAP (test/pgtap/, but api.sql, a list) and the TAP tests
# (test/t/, but this file); a planner support function is covered when a
# function it supports is called
my $calls = '';
find(
	{
		no_chdir => 1,
		wanted => sub {
			return unless -f $_ && m{\.(sql|pl|pm)$} && !m{/pgtap/api\.sql$} && !m{/085_function_lists\.pl$};
			my $text = slurp_file($_);
			$text =~ s/--[^\n]*//g if /\.sql$/;
			$text =~ s/^\s*#[^\n]*//mg if /\.p[lm]$/;
			$calls .= $text;
		}
	},
	grep { -d } "$root/sql", "$root/test/pgtap", "$root/test/t");
my %called = map { $_ => 1 } grep { $calls =~ /\b\Q$_\E\s*\\?\(/ } keys %by_name;
my @untested = grep {
	my $f = $fn{$_};
	!$called{ $f->{name} } && !(@{ $f->{supports} } && !grep { !$called{$_} } @{ $f->{supports} })
} keys %fn;
is(names(@untested), '', 'every function is called by a test under sql/, test/pgtap/ or test/t/');

$node->stop;
done_testing();
