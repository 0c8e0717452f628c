# The SQL build of pg_uuidx under pg_tle, as on a managed service: a server
# with shared_preload_libraries = 'pg_tle' and no pg_uuidx files (pg_tle
# refuses to install an extension whose control file the server has), a
# role that is not superuser but has pgtle_admin and owns its database:
#   install     psql -f pg_uuidx_tle.sql as that role, CREATE EXTENSION
#               pg_uuidx: version, owner, pg_uuidx_build() = 'sql', and the
#               contract: every function it offers has the C build's
#               signature, result, labels and comment (the range predicates,
#               not STRICT so that they inline, answer NULL for each NULL
#               argument), nothing the list leaves out is there; uuidv5()
#               without pgcrypto refused, then pgcrypto created by app; answers
#               equal to the C build's on fixed inputs and in bulk (30,000
#               each); uuidv7() as that role in order; the time laws
#               (test/pgtap/time_laws.sql, pg_prove as that role)
#   update      only the previous version registered and created, then the
#               current one and the update path: ALTER EXTENSION ... UPDATE
#               stays at pg_tle's default version, UPDATE TO reaches the new
#               one with the functions of a fresh install, rows and default
#               kept; a restore creates pg_tle's default version (and once
#               set_default_version moved it, the new one; not on 18, where
#               that call crashes the backend)
#   dump        what pg_dump writes of such a database and what pg_restore
#               does with it: into another database with pg_tle (errors only
#               about pg_tle's own objects), onto a server with the C build
#               and without pg_tle (errors only about pg_tle, schema pgtle
#               left behind; none with pg_tle's entries left out); every
#               dependent and row back, on the target's functions; a
#               database of the C build restored onto the pg_tle server once
#               the SQL build is registered there, with a consumer's
#               position: the SQL build's pg_uuidx_consumer_positions as the
#               C build's (marked for pg_dump alike), the position in it
#   refused     on a server that has the C build's files, pg_tle will not
#               install pg_uuidx
# pg_tle is built by test/lanes/pg_tle/build.sh from PG_TLE_SOURCE.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib "$FindBin::RealBin/../../t";
use PgUuidxBuilds;
use PgUuidxSnapshot;
use PgUuidxTest;
use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;

my $sharedir = `pg_config --sharedir`;
chomp $sharedir;
plan skip_all => "pg_tle is not installed in $sharedir "
  . '(PG_TLE_SOURCE=<checkout, git URL, tree or tarball of aws/pg_tle> [PG_TLE_REF=v1.5.2] make pg_tle builds it)'
  unless -f "$sharedir/extension/pg_tle.control";
plan skip_all => 'no SQL build: neither sqlonly/generate.pl nor PG_UUIDX_SQL_ONLY' unless sql_only_dir();
my $sql = sql_only_dir();
my $source = "$sharedir/extension/pg_tle.source";
note('pg_tle source: ' . (-f $source ? slurp_file($source) : 'not recorded'));

my $tle = node_on('tle', server_copy('none'), "shared_preload_libraries = 'pg_tle'");
my $c = node_on('c');
note('server: ' . $tle->safe_psql('postgres', 'SELECT version()'));

# a database owned by role app, with pg_tle created by the superuser (on a
# managed service: its administrator role) and pgtle_admin granted to app
my $tle_db = sub {
	my ($db) = @_;
	$tle->safe_psql('postgres', "CREATE DATABASE $db OWNER app");
	$tle->safe_psql($db, 'CREATE EXTENSION pg_tle; GRANT pgtle_admin TO app');
};
$tle->safe_psql('postgres', 'CREATE ROLE app LOGIN; CREATE ROLE app_reader');
$c->safe_psql('postgres', 'CREATE ROLE app LOGIN; CREATE ROLE app_reader');
$tle_db->('appdb');
my $as_app = sub {
	my ($db, $query) = @_;
	my ($out, $err);
	my $rc = $tle->psql($db, $query, stdout => \$out, stderr => \$err, extra_params => [ '-U', 'app' ]);
	return ($rc, $out, $err);
};
my $app_ok = sub {
	my ($db, $query, $name) = @_;
	my ($rc, $out, $err) = $as_app->($db, $query);
	ok($rc == 0, $name) or diag($err);
	return $out;
};
is(($as_app->('appdb', 'SELECT rolsuper FROM pg_roles WHERE rolname = current_user'))[1], 'f',
	'role app is not superuser');

# install
my ($rc, $out, $err) = psql_file($tle, 'appdb', 'app', "$sql/pg_uuidx_tle.sql");
ok($rc == 0, 'app installs the SQL build: psql -f pg_uuidx_tle.sql') or diag($err);
my $default = $c->safe_psql('postgres', q{SELECT default_version FROM pg_available_extensions WHERE name = 'pg_uuidx'});
my ($previous) = slurp_file("$sql/pg_uuidx_tle.sql") =~ /install_update_path\('pg_uuidx', '([^']+)', '\Q$default\E'/;
ok(defined $previous, "pg_uuidx_tle.sql has an update path to $default")
  and note("previous version $previous");
$previous //= 'none';
is(($as_app->('appdb', q{SELECT string_agg(version, ',' ORDER BY version COLLATE "C")
	FROM pgtle.available_extension_versions() WHERE name = 'pg_uuidx'}))[1],
	join(',', sort $previous, $default), "pg_tle offers pg_uuidx $previous and $default");
$app_ok->('appdb', 'CREATE EXTENSION pg_uuidx', 'app creates the extension: CREATE EXTENSION pg_uuidx');
is(($as_app->('appdb', q{SELECT e.extversion || ' ' || e.extowner::regrole || ' ' || pg_uuidx_build()
	FROM pg_extension e WHERE extname = 'pg_uuidx'}))[1], "$default app sql",
	"pg_uuidx $default, owned by app, pg_uuidx_build() = 'sql'");

# the contract: each function of the SQL build as in the C build
my $functions = q{SELECT string_agg(format('%s -> %s %s vol=%s strict=%s par=%s secdef=%s comment=%s',
	p.oid::regprocedure, pg_get_function_result(p.oid), p.prokind, p.provolatile, p.proisstrict, p.proparallel,
	p.prosecdef, obj_description(p.oid, 'pg_proc')), E'\n' ORDER BY p.oid::regprocedure::text)
	FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
	JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'pg_uuidx'};
$c->safe_psql('postgres', 'CREATE DATABASE cdb');
$c->safe_psql('cdb', 'CREATE EXTENSION pg_uuidx');
my %c_fn = map { (split / -> /)[0] => $_ } split /\n/, $c->safe_psql('cdb', $functions);
my @sql_fn = split /\n/, $tle->safe_psql('appdb', $functions);
# A function the SQL build leaves without STRICT so that the planner can
# inline it (the range predicates: sqlonly/generate.pl) must still answer
# NULL whenever an argument is NULL, as the C build's STRICT one does.
my %sample_arg = (uuid => q{'019abb2e-6fdb-7123-8456-0123456789ab'::uuid},
	tstzrange => q{'[2026-01-01 00:00+00,2027-01-01 00:00+00)'::tstzrange}, text => q{'x'::text},
	bytea => q{'\x00112233445566778899aabbccddeeff'::bytea}, 'timestamp with time zone' => q{'2026-11-25 12:00+00'::timestamptz});
my (@differ, @not_strict);
for my $f (@sql_fn)
{
	my $sig = (split / -> /, $f)[0];
	my $c = $c_fn{$sig} // '';
	next if $c eq $f;
	push @differ, $f unless ($c =~ s/ strict=t / strict=f /r) eq $f;
	next if ($c =~ s/ strict=t / strict=f /r) ne $f;
	my ($name, $args) = $sig =~ /^(.*)\((.*)\)$/;
	my @types = split /,/, $args;
	my @calls = map {
		my $i = $_;
		"$name(" . join(', ', map { $_ == $i ? "NULL::$types[$_]" : $sample_arg{ $types[$_] } // "NULL::$types[$_]" }
			0 .. $#types) . ')';
	} 0 .. $#types;
	push @not_strict, $sig;
	is(($as_app->('appdb', 'SELECT ' . join(' IS NULL AND ', @calls) . ' IS NULL'))[1], 't',
		"$sig, STRICT in the C build, not in the SQL build: NULL for a NULL in each argument");
}
note('not STRICT in the SQL build (inlined): ' . join(', ', @not_strict)) if @not_strict;
ok(@sql_fn > 0 && !@differ, scalar(@sql_fn) . " functions of the SQL build, each as in the C build (STRICT aside, above)")
  or diag(join "\n", map { "sql: $_\nc:   " . ($c_fn{ (split / -> /)[0] } // 'none') } @differ);
my %left_out;
for (split /\n/, slurp_file(($ENV{PG_UUIDX_REPO} || "$FindBin::RealBin/../../..") . '/sqlonly/functions.tsv'))
{
	next if /^#/;
	my @col = split /\t/;
	$left_out{"$col[0]($col[1])"} = $col[8] if @col > 8 && $col[8] =~ /^(-|TODO)/;
}
my %offered = map { (split / -> /)[0] => 1 } @sql_fn;
my @there = grep {
	my ($n, $a) = /^(.*)\((.*)\)$/;
	$a = join(',', map { $tle->safe_psql('appdb', "SELECT '$_'::regtype") } split /,/, $a) if $a ne '' && $a ne '-';
	$offered{ "$n(" . ($a eq '-' ? '' : $a) . ')' };
} keys %left_out;
ok(!@there, scalar(keys %left_out) . ' functions left out of the SQL build, none of them there') or diag("@there");

# uuidv5 takes SHA-1 from pgcrypto in the SQL build: without it, an error
# that names it; pgcrypto is a trusted extension, which app may create
SKIP:
{
	skip 'the SQL build offers no uuidv5() yet', 2 unless grep { /^uuidv5\(/ } keys %offered;
	skip "no pgcrypto in this server's contrib", 2 unless -f "$sharedir/extension/pgcrypto.control";
	($rc, $out, $err) = $as_app->('appdb', q{SELECT uuidv5(uuid_namespace_dns(), 'www.example.com')});
	like($err, qr/ERROR:.*pgcrypto/, 'uuidv5() without pgcrypto: an error that names it');
	$app_ok->('appdb', 'CREATE EXTENSION pgcrypto', 'app creates pgcrypto (a trusted extension)');
}

# a sample of answers, each equal to the C build's (those whose functions
# the SQL build offers)
my @sample = (
	[ 'uuidv7_boundary', q{SELECT uuidv7_boundary('2026-11-25 12:00:00.123456+00')} ],
	[ 'uuid_extract_timestamp', q{SELECT uuid_extract_timestamp('019abb2e-6fdb-7123-8456-0123456789ab')} ],
	[ 'uuid_extract_timestamp_us', q{SELECT uuid_extract_timestamp_us('019abb2e-6fdb-7123-8456-0123456789ab')} ],
	[ 'uuid_extract_version', q{SELECT uuid_extract_version('019abb2e-6fdb-7123-8456-0123456789ab')} ],
	[ 'uuidv1_to_v6', q{SELECT uuidv1_to_v6('c232ab00-9414-11ec-b3c8-9f6bdeced846')} ],
	[ 'uuidv5', q{SELECT uuidv5(uuid_namespace_dns(), 'www.example.com')} ],
	[ 'uuidv3', q{SELECT uuidv3(uuid_namespace_dns(), 'www.example.com')} ],
	[ 'uuid_v8_sha256', q{SELECT uuid_v8_sha256(uuid_namespace_dns(), 'www.example.com')} ],
	[ 'uuid_to_ulid', q{SELECT uuid_to_ulid('019abb2e-6fdb-7123-8456-0123456789ab')} ],
	[ 'typeid', q{SELECT typeid('user', '019abb2e-6fdb-7123-8456-0123456789ab')} ],
	[ 'uuid_to_base32hex', q{SELECT uuid_to_base32hex('019abb2e-6fdb-7123-8456-0123456789ab')} ],
	[ 'uuidv7_range_lower', q{SELECT uuidv7_range_lower('[2026-11-25 12:00+00,2026-11-26 00:00+00)')} ],
);
my @ran;
for my $s (@sample)
{
	my ($fn, $query) = @$s;
	next unless grep { /^\Q$fn\E\(/ } keys %offered;
	next if $fn eq 'uuidv5' && $tle->safe_psql('appdb', q{SELECT count(*) FROM pg_extension WHERE extname = 'pgcrypto'}) eq '0';
	is(($as_app->('appdb', $query))[1], $c->safe_psql('cdb', $query), "as the C build: $query");
	push @ran, $fn;
}
note('sample: ' . (@ran ? "@ran" : 'none of its functions offered yet'));

# ... and in bulk: a digest of each reader's and converter's answers over
# 30,000 fixed ids (md5 of a counter: any version and variant, and ones
# made RFC-variant v1, v6 or v7) and 30,000 instants, on both servers
my $ids = q{(SELECT i, CASE i % 4 WHEN 0 THEN h::uuid
	ELSE (substr(h, 1, 12) || (ARRAY['1', '6', '7'])[i % 4] || substr(h, 14, 3)
	      || substr('89ab', i % 3 + 1, 1) || substr(h, 18, 15))::uuid END AS id
	FROM (SELECT i, md5(i::text) AS h FROM generate_series(1, 30000) i) s) ids};
my $instants = q{(SELECT i, timestamptz '1970-01-01 00:00+00' + i * interval '3 days 17 minutes 1.234567 seconds' AS ts
	FROM generate_series(0, 30000) i) instants};
my @bulk = (
	[ 'uuid_extract_timestamp', "uuid_extract_timestamp(id)", $ids ],
	[ 'uuid_extract_timestamp_us', "uuid_extract_timestamp_us(id)", $ids ],
	[ 'uuid_extract_version', "uuid_extract_version(id)", $ids ],
	[ 'ulid_extract_timestamp', "ulid_extract_timestamp(id)", $ids ],
	[ 'uuidv1_to_v6', "CASE WHEN uuid_extract_version(id) = 1 THEN uuidv1_to_v6(id) END", $ids ],
	[ 'uuidv6_to_v1', "CASE WHEN uuid_extract_version(id) = 6 THEN uuidv6_to_v1(id) END", $ids ],
	[ 'uuid_to_ulid', "uuid_to_ulid(id)", $ids ],
	[ 'uuid_to_base32hex', "uuid_to_base32hex(id)", $ids ],
	[ 'uuidv7_boundary', "uuidv7_boundary(ts)", $instants ],
	[ 'uuidv7_boundary_upper', "uuidv7_boundary_upper(ts)", $instants ],
	[ 'uuidv6_boundary', "uuidv6_boundary(ts)", $instants ],
	[ 'uuidv7_in_time_range', "id <@ tstzrange(uuid_extract_timestamp(id) - interval '1 ms', 'infinity')", $ids ],
);
my @bulk_ran;
for my $b (@bulk)
{
	my ($fn, $expr, $from) = @$b;
	next unless grep { /^\Q$fn\E\(/ } keys %offered;
	my $query = "SET TimeZone = 'UTC'; SELECT count(*) || ' ' || md5(string_agg(($expr)::text, ',' ORDER BY i)) FROM $from";
	is(($as_app->('appdb', $query))[1], $c->safe_psql('cdb', $query), "as the C build on every input: $expr");
	push @bulk_ran, $fn;
}
note('in bulk: ' . (@bulk_ran ? "@bulk_ran" : 'none of its functions offered yet'));

# the time laws (test/pgtap/time_laws.sql) as app on the SQL build under
# pg_tle; pgTAP created by the superuser (it is not a trusted extension)
SKIP:
{
	skip 'no pgTAP in this server', 1 unless -f "$sharedir/extension/pgtap.control";
	$tle->safe_psql('appdb', 'CREATE EXTENSION pgtap');
	my ($laws_out, $laws_err) = ('', '');
	my $laws_ok = IPC::Run::run([ 'pg_prove', '--psql-bin', $tle->installed_command('psql'),
		'-h', $tle->host, '-p', $tle->port, '-U', 'app', '-d', 'appdb',
		"$FindBin::RealBin/../../pgtap/time_laws.sql" ], '>', \$laws_out, '2>', \$laws_err);
	ok($laws_ok && $laws_out =~ /^Result: PASS/m, 'test/pgtap/time_laws.sql as app on the SQL build under pg_tle')
	  or diag("$laws_out$laws_err");
	note(join "\n", grep { /seed|Files=/ } split /\n/, "$laws_out$laws_err");
}
SKIP:
{
	skip 'the SQL build offers no uuidv7() yet', 1 unless $offered{'uuidv7()'};
	skip 'the SQL build offers no uuidv7() yet', 2 unless $offered{'uuidv7()'};
	$app_ok->('appdb', 'CREATE TABLE g AS SELECT i AS ord, uuidv7() AS id, clock_timestamp() AS at
		FROM generate_series(1, 20000) i', 'uuidv7() as app: 20000 ids');
	sql_ok($tle, 'appdb', q{SELECT bool_and(uuid_extract_version(id) = 7 AND (get_byte(uuid_send(id), 8) >> 6) = 2
		AND uuid_extract_timestamp(id) <= at) FROM g}, '... of version 7, variant 10, not after the clock');
	sql_ok($tle, 'appdb', in_order('SELECT id, ord FROM g'), '... in order');
}

# update: only the previous version first, then the current one and the
# update path.  ALTER EXTENSION ... UPDATE goes to pg_tle's default version,
# which stays the first one installed until pgtle.set_default_version;
# pg_dump records no version, so a restore creates that default version.
# On PostgreSQL 18, set_default_version of an extension that is created in
# the database ends the backend with a segmentation fault (pg_tle 1.5.2 and
# its main branch as of 2f4b7b3): there the test stops short of it.
my $major = int($tle->safe_psql('postgres', 'SHOW server_version_num') / 10000);
$tle_db->('upddb');
my $tmp = PostgreSQL::Test::Utils::tempdir();
my $script = sub {
	my ($name, $text) = @_;
	open my $fh, '>', "$tmp/$name" or die $!;
	print $fh $text;
	close $fh or die $!;
	return "$tmp/$name";
};
my $old = $script->('old.psql', qq{\\set old `cat $sql/pg_uuidx--$previous.sql`
SELECT pgtle.install_extension('pg_uuidx', '$previous', 'pg_uuidx (SQL build)', :'old');
});
my $new = $script->('new.psql', qq{\\set new `cat $sql/pg_uuidx--$default.sql`
\\set path `cat $sql/pg_uuidx--$previous--$default.sql`
SELECT pgtle.install_extension_version_sql('pg_uuidx', '$default', :'new');
SELECT pgtle.install_update_path('pg_uuidx', '$previous', '$default', :'path');
});
my $extversion = sub { $tle->safe_psql($_[0], q{SELECT extversion FROM pg_extension WHERE extname = 'pg_uuidx'}) };
($rc, $out, $err) = psql_file($tle, 'upddb', 'app', $old);
ok($rc == 0, "app installs only pg_uuidx $previous") or diag($err);
$app_ok->('upddb', 'CREATE EXTENSION pg_uuidx; CREATE TABLE kept (id uuid PRIMARY KEY DEFAULT uuidv7(), v int);
	INSERT INTO kept (v) SELECT g FROM generate_series(1, 100) g',
	"CREATE EXTENSION pg_uuidx at $previous, a table with DEFAULT uuidv7()");
is($extversion->('upddb'), $previous, "pg_uuidx is at $previous");
($rc, $out, $err) = psql_file($tle, 'upddb', 'app', $new);
ok($rc == 0, "app installs $default and the update path $previous -> $default") or diag($err);
$app_ok->('upddb', 'ALTER EXTENSION pg_uuidx UPDATE', 'ALTER EXTENSION pg_uuidx UPDATE');
is($extversion->('upddb'), $previous, "... stays at $previous: pg_tle's default version is still $previous");
$app_ok->('upddb', "ALTER EXTENSION pg_uuidx UPDATE TO '$default'", "app runs ALTER EXTENSION pg_uuidx UPDATE TO '$default'");
is($tle->safe_psql('upddb', q{SELECT extversion || ' ' || pg_uuidx_build() FROM pg_extension
	WHERE extname = 'pg_uuidx'}), "$default sql", "pg_uuidx is at $default, pg_uuidx_build() = 'sql'");
is($tle->safe_psql('upddb', $functions), $tle->safe_psql('appdb', $functions),
	'the updated extension has the functions of a fresh install, each as there');
sql_ok($tle, 'upddb', q{INSERT INTO kept (v) VALUES (101);
	SELECT count(*) = 101 AND bool_and(uuid_extract_version(id) = 7), count(*) || ' rows' FROM kept},
	'rows kept and the default still works after the update');
my $restored_version = sub {
	my ($db) = @_;
	my $dump = "$tmp/$db.dump";
	$tle->command_ok([ 'pg_dump', '-Fc', '-U', 'app', '-d', $tle->connstr('upddb'), '-f', $dump ], "pg_dump of upddb ($db)");
	$tle_db->($db);
	IPC::Run::run([ $tle->installed_command('pg_restore'), '-U', 'app', '-d', $tle->connstr($db), $dump ],
		'>', \my $o, '2>', \my $e);
	return $extversion->($db);
};
is($restored_version->('upd_restored'), $previous,
	"restored while pg_tle's default is $previous, the extension comes back at $previous, not $default");
SKIP:
{
	skip "pgtle.set_default_version of a created extension crashes the backend on PostgreSQL $major", 2
	  if $major >= 18;
	$app_ok->('upddb', "SELECT pgtle.set_default_version('pg_uuidx', '$default')",
		"app sets pg_tle's default version to $default");
	is($restored_version->('upd_restored2'), $default, "then a restore brings it back at $default");
}

# dump: a database on the SQL build under pg_tle, built and dumped by app.
# What the dump holds: pg_tle's schema and extension, pg_uuidx's versions
# and update path as pg_tle keeps them (functions in schema pgtle that
# return the scripts and control text), CREATE EXTENSION pg_uuidx.
my $dump = "$tmp/appdb.dump";
$app_ok->('appdb', app_schema(), 'app builds schema app on the SQL build (every kind of dependent)');
$tle->command_ok([ 'pg_dump', '-Fc', '-U', 'app', '-d', $tle->connstr('appdb'), '-f', $dump ],
	'app dumps the database: pg_dump -Fc');
my ($toc) = run_command([ 'pg_restore', '-l', $dump ]);
my @entries = map { s/^\d+; \d+ \d+ //r } grep { /pg_tle|pgtle|pg_uuidx/ && !/^;/ } split /\n/, $toc;
note("pg_tle and pg_uuidx in the dump's table of contents:\n" . join "\n", @entries);
my @want = ('SCHEMA - pgtle', 'EXTENSION - pg_tle', 'EXTENSION - pg_uuidx', 'TABLE DATA pgtle feature_info',
	'FUNCTION pgtle pg_uuidx.control()', "FUNCTION pgtle pg_uuidx--$default.sql()",
	"FUNCTION pgtle pg_uuidx--$previous.sql()", "FUNCTION pgtle pg_uuidx--$previous--$default.sql()");
my @missing = grep { my $w = $_; !grep { index($_, $w) == 0 } @entries } @want;
ok(!@missing, "the dump holds pg_tle, its schema and table, pg_uuidx's registration in pgtle and the extension")
  or diag("missing: @missing");

# errors of a restore, each on a line (pg_restore's "ERROR:  ...")
my $errors = sub { join "\n", map { s/.*ERROR:\s+//r } grep { /ERROR:/ } split /\n/, $_[0] };
my $only_pg_tle = qr/^(?:[^\n]*(?:pg_tle|pgtle)[^\n]*(?:\n|$))+$/;

# into another database of the pg_tle server (pg_tle created there first,
# as on a managed service), restored by app: the registration comes back
# with the rows, pg_uuidx is created from it; the errors are about
# pg_tle's own objects, which are there already
$tle_db->('restored');
my $err1 = move_database(from => $tle, to => $tle, db => 'appdb', to_db => 'restored', label => 'pg_tle -> pg_tle',
	lang => 'sql', dump => [ '-U', 'app' ], restore => [ '-U', 'app' ], restore_fails => 1, prepare => sub { });
like($errors->($err1), $only_pg_tle, "pg_tle -> pg_tle: every error is about pg_tle's own objects")
  and note("errors:\n" . $errors->($err1));

# onto a server with the C build and without pg_tle, everything restored:
# errors only about pg_tle, pg_uuidx made from the C build's files, but
# pg_tle's schema pgtle comes back with pg_uuidx's registration functions
$c->safe_psql('postgres', 'CREATE DATABASE appdb OWNER app');
my $err2 = move_database(from => $tle, to => $c, db => 'appdb', label => 'pg_tle -> c', lang => 'c',
	dump => [ '-U', 'app' ], restore => [], restore_fails => 1, prepare => sub { });
like($errors->($err2), $only_pg_tle, 'pg_tle -> c: every error is about pg_tle') and note("errors:\n" . $errors->($err2));
is($c->safe_psql('appdb', q{SELECT string_agg(p.proname, ', ' ORDER BY p.proname) FROM pg_proc p
	WHERE p.pronamespace = 'pgtle'::regnamespace}),
	join(', ', sort "pg_uuidx--$previous--$default.sql", "pg_uuidx--$previous.sql", "pg_uuidx--$default.sql",
		'pg_uuidx.control'),
	'pg_tle -> c: schema pgtle is left with pg_uuidx\'s registration functions (DROP SCHEMA pgtle CASCADE)');

# the same, restoring every entry but pg_tle's (pg_restore -L): no error
$c->safe_psql('postgres', 'CREATE DATABASE appdb_list OWNER app');
move_database(from => $tle, to => $c, db => 'appdb', to_db => 'appdb_list', label => 'pg_tle -> c, pg_tle left out',
	lang => 'c', dump => [ '-U', 'app' ], leave_out => qr/pg_tle|pgtle/, prepare => sub { });
is($c->safe_psql('appdb_list', q{SELECT count(*) FROM pg_namespace WHERE nspname = 'pgtle'}), '0',
	'pg_tle -> c, pg_tle left out: no schema pgtle');

# the reverse: a database of the C build onto the pg_tle server, where
# pg_tle is created and the SQL build registered (pg_uuidx_tle.sql) first
$c->safe_psql('postgres', 'CREATE DATABASE fromc OWNER app');
$c->safe_psql('fromc', 'CREATE EXTENSION pg_uuidx; ' . app_schema()
	  . q{; SELECT pg_uuidx_consumer_reset('app.t', 'relay', (SELECT id FROM app.t ORDER BY id LIMIT 1))});
move_database(from => $c, to => $tle, db => 'fromc', label => 'c -> pg_tle', lang => 'sql',
	prepare => sub {
		$tle_db->('fromc');
		my ($rc, $out, $err) = psql_file($tle, 'fromc', 'app', "$sql/pg_uuidx_tle.sql");
		ok($rc == 0, 'c -> pg_tle: app registers the SQL build first') or diag($err);
	});
my $positions_table = table_definition(extension_relation('pg_uuidx_consumer_positions'), extension => 1);
is($tle->safe_psql('fromc', $positions_table), $c->safe_psql('fromc', $positions_table),
	'c -> pg_tle: pg_uuidx_consumer_positions as in the C build, marked for pg_dump alike');
my $positions = q{SELECT format('%s %s %s %s %s', relid, consumer, last_id, role, moved_at) FROM pg_uuidx_consumer_positions};
is($tle->safe_psql('fromc', $positions), $c->safe_psql('fromc', $positions), "c -> pg_tle: relay's position restored");

# a server that has the C build's files: pg_tle refuses to register pg_uuidx
my $both = node_on('both', undef, "shared_preload_libraries = 'pg_tle'");
$both->safe_psql('postgres', 'CREATE EXTENSION pg_tle');
($rc, $out, $err) = psql_file($both, 'postgres', undef, "$sql/pg_uuidx_tle.sql");
like($err, qr/control file already exists for the pg_uuidx extension/,
	'with the C build installed, pg_tle refuses pg_uuidx: "control file already exists"');

done_testing();
