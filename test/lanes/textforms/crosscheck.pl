# pg_uuidx's base32hex, ULID and TypeID text against three independent
# implementations, on N ids (default 100000) in both directions: pg_uuidx
# encodes v4 and v7 ids and the two edges, npm "ulid" and "typeid-js"
# (crosscheck.js) and Python's base64.b32hexencode (crosscheck.py) encode and
# decode the same ids and compare; then they make ids and texts of their
# own, which pg_uuidx decodes and re-encodes.  "make crosscheck" runs it;
# it skips when node, the npm packages (in NPM_DIR, default
# /var/cache/pg_uuidx/npm: npm install --prefix "$NPM_DIR" ulid typeid-js)
# or python3 are missing.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib "$FindBin::RealBin/../../t";
use PgUuidxTest;
use PostgreSQL::Test::Utils;
use Test::More;

my $npm = $ENV{NPM_DIR} || '/var/cache/pg_uuidx/npm';
my $n = $ENV{N} || 100000;
my @missing = grep { system("command -v $_ >/dev/null") != 0 } qw(node python3);
push @missing, map { "npm package $_ (npm install --prefix $npm ulid typeid-js)" }
  grep { !-f "$npm/node_modules/$_/package.json" } qw(ulid typeid-js);
plan skip_all => 'crosscheck needs ' . join(', ', @missing) if @missing;

my $node = new_node('crosscheck');
my $dir = PostgreSQL::Test::Utils::tempdir;
my $db = 'postgres';
note(join ', ', map { "npm $_ " . (slurp_file("$npm/node_modules/$_/package.json") =~ /"version":\s*"([^"]+)"/)[0] }
	qw(ulid typeid-js));
$node->safe_psql($db, qq{
	CREATE EXTENSION pg_uuidx;
	CREATE TABLE ids AS
	SELECT CASE WHEN g % 2 = 0 THEN uuidv4() ELSE uuidv7() END AS id FROM generate_series(1, $n) AS g
	UNION ALL VALUES ('00000000-0000-0000-0000-000000000000'::uuid), ('ffffffff-ffff-ffff-ffff-ffffffffffff');
	COPY (SELECT id, uuid_to_ulid(id), typeid('user', id), typeid('', id) FROM ids) TO '$dir/pg_text.tsv';
	COPY (SELECT id, uuid_to_base32hex(id) FROM ids) TO '$dir/pg_base32hex.tsv';
});

# each script prints "NAME: M mismatches of K" and exits 1 on any
for my $run ([ 'npm ulid and typeid-js', "node $FindBin::RealBin/crosscheck.js $dir/pg_text.tsv $dir/node.tsv $n" ],
	[ 'python base64', "python3 $FindBin::RealBin/crosscheck.py $dir/pg_base32hex.tsv $dir/python.tsv $n" ])
{
	local $ENV{NODE_PATH} = "$npm/node_modules";
	my $out = `$run->[1] 2>&1`;
	ok($? == 0 && $out =~ / 0 mismatches of [1-9]/, "pg_uuidx's text decoded and re-encoded by $run->[0]")
	  or diag($out);
}

$node->safe_psql($db, qq{
	CREATE TABLE node (id uuid, ulid text, tid text, tid_id uuid);
	CREATE TABLE py (id uuid, b32 text);
	COPY node FROM '$dir/node.tsv';
	COPY py FROM '$dir/python.tsv';
});
sql_ok($node, $db, qq{SELECT count(*) = $n AND bool_and(ulid_to_uuid(ulid) = id AND uuid_to_ulid(id) = ulid),
	count(*) || ' ids' FROM node}, 'npm ulid\'s ids and texts decoded and re-encoded by pg_uuidx');
sql_ok($node, $db, qq{SELECT count(*) = $n AND bool_and(typeid_to_uuid(tid) = tid_id
	AND typeid_prefix(tid) = 'order_line' AND typeid('order_line', tid_id) = tid), count(*) || ' ids' FROM node},
	'typeid-js\'s ids and texts decoded and re-encoded by pg_uuidx');
sql_ok($node, $db, qq{SELECT count(*) = $n AND bool_and(base32hex_to_uuid(b32) = id
	AND uuid_to_base32hex(id) = rtrim(b32, '=')), count(*) || ' ids' FROM py},
	'python\'s base32hex decoded and re-encoded by pg_uuidx');

done_testing();
