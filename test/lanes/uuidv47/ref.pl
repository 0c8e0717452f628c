# uuidv47_encode/uuidv47_decode against the UUIDv47 reference implementation,
# built from a source the user supplies ("make uuidv47-check"):
#   UUIDV47_SRC=<checkout of github.com/stateless-me/uuidv47> make uuidv47-check
# N (default 10000) ids, a third from uuidv7(), a third from uuidv7_at() over
# 8000 years, a third random v7 bit patterns, each under a random key; the
# reference (driver.c) encodes and decodes every pair.  Skips without
# UUIDV47_SRC.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib "$FindBin::RealBin/../../t";
use PgUuidxTest;
use PostgreSQL::Test::Utils;
use Test::More;

my $src = $ENV{UUIDV47_SRC};
plan skip_all => 'set UUIDV47_SRC to a checkout of github.com/stateless-me/uuidv47' unless $src;
BAIL_OUT("no uuidv47.h in $src") unless -f "$src/uuidv47.h";
my $n = $ENV{N} || 10000;
my $dir = PostgreSQL::Test::Utils::tempdir;
is(system('cc', '-O2', "-I$src", '-o', "$dir/driver", "$FindBin::RealBin/driver.c"), 0,
	'the reference builds with driver.c');

my $node = new_node('uuidv47');
$node->safe_psql('postgres', qq{
	CREATE EXTENSION pg_uuidx;
	COPY (SELECT id, encode(key, 'hex'), uuidv47_encode(id, key)
	      FROM (SELECT CASE g % 3 WHEN 0 THEN uuidv7()
	                   WHEN 1 THEN uuidv7_at(timestamptz '1970-01-01 00:00:00+00' + random() * interval '8000 years')
	                   ELSE (substr(r, 1, 14) || '7' || substr(r, 16))::uuid END AS id,
	                   decode(md5(random()::text || g), 'hex') AS key
	            FROM generate_series(1, $n) AS g,
	                 LATERAL (SELECT gen_random_uuid()::text || left(g::text, 0) AS r) AS random_id) AS s)
	TO '$dir/pairs.txt' WITH (DELIMITER ' ')});
my $out = `$dir/driver < $dir/pairs.txt`;
is($out, "$n rows, 0 disagreements with the reference\n", "the reference agrees on $n ids and keys");

done_testing();
