# base32hex (uuid_to_base32hex, base32hex_to_uuid) against values computed
# without pg_uuidx, and pg_uuidx's casts: none between uuid and bytea.
#  - RFC 4648 section 10's base32hex vectors.  Our functions take only
#    16-byte uuids, so each vector is placed in an otherwise zero uuid at
#    the start of a 5-byte group (bytes 0, 5, 10, and 15 for what fits in the
#    last byte).  5 bytes are 8 characters, so that group's characters are
#    the vector's text without "=" and the rest are "0": a vector's last
#    character has zero pad bits, which the zero bytes after it also give.
#    "f" in byte 15 and "foobar" in bytes 10-15 end the text exactly as the
#    RFC's padded text does once "======" is added.  The expected texts are
#    built here from the RFC's strings, not by any encoder.
#  - Python's base64.b32hexencode/b32hexdecode (base32hex_ref.py) on random
#    ids and edges, both ways, every text in a random case, padded or not.
#  - On PostgreSQL 19 and later, core's rtrim(encode(id::bytea,
#    'base32hex'), '=') and decode(..., 'base32hex')::uuid on the same ids.
#  - pg_cast is the same before and after CREATE EXTENSION (and after
#    updating from the oldest version), and no cast belongs to pg_uuidx.
# PG_UUIDX_SEED=N replays a run; PG_UUIDX_IDS sets the number of random ids.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
use strict;
use warnings FATAL => 'all';
use FindBin;
use lib $FindBin::RealBin;
use PgUuidxTest;
use PostgreSQL::Test::Utils;
use Test::More;

my $seed = $ENV{PG_UUIDX_SEED} // int(rand(2**31));
my $n = $ENV{PG_UUIDX_IDS} // 20000;
note("seed $seed (PG_UUIDX_SEED=$seed replays this run)");

my $node = new_node('base32hex');
my $db = 'postgres';

# the casts the server has, before pg_uuidx is installed
my $casts = q{SELECT castsource::regtype || '->' || casttarget::regtype || ':' || castfunc::regprocedure
	|| ':' || castcontext::text || castmethod::text FROM pg_cast ORDER BY 1};
my $before = $node->safe_psql($db, $casts);
$node->safe_psql($db, 'CREATE EXTENSION pg_uuidx');

# no cast of pg_uuidx's: pg_cast unchanged, and none depends on the extension
is($node->safe_psql($db, $casts), $before, 'CREATE EXTENSION pg_uuidx adds no cast');
my $owned = q{SELECT count(*) = 0, string_agg(c.castsource::regtype || '->' || c.casttarget::regtype, ', ')
	FROM pg_depend d JOIN pg_cast c ON d.classid = 'pg_cast'::regclass AND d.objid = c.oid
	WHERE d.refclassid = 'pg_extension'::regclass
	  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'pg_uuidx')};
sql_ok($node, $db, $owned, 'no cast belongs to pg_uuidx');
sql_ok($node, $db, q{SELECT count(*) = 0, string_agg(oid::text, ', ') FROM pg_cast
	WHERE 'uuid'::regtype IN (castsource, casttarget) AND 'bytea'::regtype IN (castsource, casttarget)
	  AND (current_setting('server_version_num')::int < 190000 OR castfunc <> 0
	       AND (SELECT pronamespace FROM pg_proc WHERE oid = castfunc) <> 'pg_catalog'::regnamespace)},
	'a uuid<->bytea cast exists only from PostgreSQL 19 on, and only core\'s');
$node->safe_psql($db, q{DROP EXTENSION pg_uuidx;
	CREATE EXTENSION pg_uuidx VERSION '1.0';
	ALTER EXTENSION pg_uuidx UPDATE});
is($node->safe_psql($db, $casts), $before, 'installing 1.0 and updating adds no cast either');
sql_ok($node, $db, $owned, 'no cast belongs to pg_uuidx after the update');

# RFC 4648 section 10, BASE32-HEX
my @vectors = ([ '', '' ], [ 'f', 'CO======' ], [ 'fo', 'CPNG====' ], [ 'foo', 'CPNMU===' ],
	[ 'foob', 'CPNMUOG=' ], [ 'fooba', 'CPNMUOJ1' ], [ 'foobar', 'CPNMUOJ1E8======' ]);
my @rows;
for my $v (@vectors)
{
	my ($data, $b32) = @$v;
	(my $chars = $b32) =~ s/=+$//;
	for my $group (0 .. 3)
	{
		my $at = 5 * $group;
		next if $at + length($data) > 16;
		my $bytes = ("\0" x $at) . $data . ("\0" x (16 - $at - length($data)));
		my $text = '0' x 26;
		substr($text, 8 * $group, length($chars)) = $chars;
		# ending at byte 16: the RFC's padded text is the end of ours
		my $whole = $at + length($data) == 16 && $data ne '';
		die "vector $b32 in byte $at: $text does not end the RFC's way"
		  if $whole && substr($text . '======', -length($b32)) ne $b32;
		push @rows, sprintf("('%s', %d, '%s'::uuid, '%s')", $b32, $at,
			join('-', unpack('H8 H4 H4 H4 H12', $bytes)), $text);
	}
}
$node->safe_psql($db, 'CREATE TABLE rfc (vector text, at int, id uuid, text text); INSERT INTO rfc VALUES '
	  . join(', ', @rows));
sql_ok($node, $db, q{SELECT count(*) FILTER (WHERE NOT ok) = 0, count(*) || ' placements; wrong: '
	|| coalesce(string_agg(vector || ' at byte ' || at || ' gave ' || got, '; ') FILTER (WHERE NOT ok), 'none')
	FROM (SELECT *, uuid_to_base32hex(id) AS got, uuid_to_base32hex(id) = text AS ok FROM rfc) s},
	'RFC 4648 section 10 vectors: uuid_to_base32hex');
sql_ok($node, $db, q{SELECT count(*) FILTER (WHERE NOT ok) = 0, count(*) || ' placements; wrong: '
	|| coalesce(string_agg(vector || ' at byte ' || at, '; ') FILTER (WHERE NOT ok), 'none')
	FROM (SELECT *, base32hex_to_uuid(text) = id AND base32hex_to_uuid(lower(text)) = id
		AND base32hex_to_uuid(text || '======') = id AND base32hex_to_uuid(lower(text) || '======') = id AS ok
		FROM rfc) s},
	'RFC 4648 section 10 vectors: base32hex_to_uuid, either case, padded or not');

# Python's base64 module: its ids and texts read and written by pg_uuidx
my $dir = PostgreSQL::Test::Utils::tempdir();
my ($out, $err) = run_command([ 'python3', "$FindBin::RealBin/base32hex_ref.py", 'make', $seed, $n, "$dir/py.tsv" ]);
ok(-s "$dir/py.tsv", "ids and texts from Python's base64.b32hexencode: $out")
  or BAIL_OUT("base32hex_ref.py failed: $err");
$node->safe_psql($db, qq{CREATE TABLE py (id uuid, padded text, text text); COPY py FROM '$dir/py.tsv'});
sql_ok($node, $db, q{SELECT count(*) FILTER (WHERE uuid_to_base32hex(id) <> rtrim(padded, '=')) = 0,
	count(*) || ' ids; first wrong: ' || coalesce(min(id::text) FILTER (WHERE uuid_to_base32hex(id) <> rtrim(padded, '=')), 'none')
	FROM py}, "uuid_to_base32hex equals Python's b32hexencode without padding (seed $seed)");
sql_ok($node, $db, q{SELECT count(*) FILTER (WHERE NOT ok) = 0,
	count(*) || ' texts; first wrong: ' || coalesce(min(text) FILTER (WHERE NOT ok), 'none')
	FROM (SELECT text, base32hex_to_uuid(text) = id AND base32hex_to_uuid(padded) = id AS ok FROM py) s},
	"base32hex_to_uuid reads Python's texts, padded or not, in any case (seed $seed)");

# pg_uuidx's own ids (v7, v4) and texts, read back by Python
$node->safe_psql($db, qq{COPY (SELECT id, uuid_to_base32hex(id) FROM (SELECT uuidv7() AS id FROM generate_series(1, $n / 2)
	UNION ALL SELECT uuidv4() FROM generate_series(1, $n / 2)) s) TO '$dir/pg.tsv'});
($out, $err) = run_command([ 'python3', "$FindBin::RealBin/base32hex_ref.py", 'check', "$dir/pg.tsv" ]);
like($out, qr/^python: 0 mismatches of [1-9]/, "Python's b32hexdecode reads pg_uuidx's texts of its own ids: $out")
  or diag($err);

# PostgreSQL 19: core's encode()/decode() on the same ids
SKIP:
{
	skip 'encode(..., \'base32hex\') and uuid::bytea come with PostgreSQL 19', 2
	  if $node->safe_psql($db, 'SHOW server_version_num') < 190000;
	sql_ok($node, $db, q{SELECT count(*) FILTER (WHERE uuid_to_base32hex(id) <> rtrim(encode(id::bytea, 'base32hex'), '=')) = 0,
		count(*) || ' ids' FROM (SELECT id FROM py UNION ALL SELECT id FROM rfc) s},
		"uuid_to_base32hex(id) = core's rtrim(encode(id::bytea, 'base32hex'), '=')");
	sql_ok($node, $db, q{SELECT count(*) FILTER (WHERE base32hex_to_uuid(t) <> decode(t, 'base32hex')::uuid) = 0,
		count(*) || ' texts' FROM (SELECT text FROM py UNION ALL SELECT padded FROM py
		UNION ALL SELECT text FROM rfc UNION ALL SELECT lower(text) || '======' FROM rfc) s(t)},
		"base32hex_to_uuid(t) = core's decode(t, 'base32hex')::uuid, padded or not, either case");
}

done_testing();
