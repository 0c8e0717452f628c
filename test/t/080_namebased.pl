# Name-based ids against values computed without pg_uuidx: thousands of
# random names (text, non-ASCII included, and bytea, up to 4 kB; all four
# standard namespaces) hashed by uuidv3(), uuidv5() and uuid_v8_sha256() in
# one query of one backend, then again in a second query of the same
# backend, compared with Python's uuid module and RFC 9562 Appendix B.2's
# SHA-256 construction (namebased_ref.py).  A hash context that does not
# outlive the row or query that made it shows up here as wrong ids or a
# crash, whichever build of PostgreSQL (with OpenSSL or without) runs it.
# PG_UUIDX_SEED=N replays a run; PG_UUIDX_NAMES sets the number of names.
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
my $n = $ENV{PG_UUIDX_NAMES} // 3000;
note("seed $seed (PG_UUIDX_SEED=$seed replays this run)");

my $tsv = PostgreSQL::Test::Utils::tempdir() . '/cases.tsv';
my ($out, $err) = run_command([ 'python3', "$FindBin::RealBin/namebased_ref.py", $seed, $n, $tsv ]);
ok(-s $tsv, "reference values from Python: $out") or BAIL_OUT("namebased_ref.py failed: $err");

my $node = new_node('namebased');
$node->safe_psql('postgres',
	"CREATE DATABASE names ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0");
$node->safe_psql('names', qq{
CREATE EXTENSION pg_uuidx;
CREATE TABLE raw (kind text, ns text, hex text, v3 uuid, v5 uuid, v8 uuid);
COPY raw FROM '$tsv';
CREATE TABLE cases AS SELECT row_number() OVER () AS n, kind, ns, v3, v5, v8,
	CASE kind WHEN 'text' THEN convert_from(decode(hex, 'hex'), 'UTF8') END AS tname,
	CASE kind WHEN 'bytea' THEN decode(hex, 'hex') END AS bname FROM raw;
});

sql_ok($node, 'names', q{SELECT count(*) = 4 FROM (VALUES
	('dns', uuid_namespace_dns(), '6ba7b810-9dad-11d1-80b4-00c04fd430c8'),
	('url', uuid_namespace_url(), '6ba7b811-9dad-11d1-80b4-00c04fd430c8'),
	('oid', uuid_namespace_oid(), '6ba7b812-9dad-11d1-80b4-00c04fd430c8'),
	('x500', uuid_namespace_x500(), '6ba7b814-9dad-11d1-80b4-00c04fd430c8')) v(name, got, want)
	WHERE got = want::uuid}, 'the four namespace functions return RFC 9562 6.6\'s values (Python\'s uuid.NAMESPACE_*)');

# every case with the ids pg_uuidx makes for it (got3, got5, got8)
my $made = q{SELECT c.*,
	CASE kind WHEN 'text' THEN uuidv3(ns_id, tname) ELSE uuidv3(ns_id, bname) END AS got3,
	CASE kind WHEN 'text' THEN uuidv5(ns_id, tname) ELSE uuidv5(ns_id, bname) END AS got5,
	CASE kind WHEN 'text' THEN uuid_v8_sha256(ns_id, tname) ELSE uuid_v8_sha256(ns_id, bname) END AS got8
	FROM cases c CROSS JOIN LATERAL (SELECT CASE ns WHEN 'dns' THEN uuid_namespace_dns()
		WHEN 'url' THEN uuid_namespace_url() WHEN 'oid' THEN uuid_namespace_oid()
		ELSE uuid_namespace_x500() END AS ns_id) s};

# all of them in one query: the verdict, the number of ids compared and the
# first case that differs
my $check = qq{SELECT count(*) FILTER (WHERE NOT ok) = 0, count(*) * 3 || ' ids compared, '
	|| count(*) FILTER (WHERE NOT ok) || ' cases differ; first: '
	|| coalesce(min(n) FILTER (WHERE NOT ok)::text, 'none')
FROM (SELECT n, got3 = v3 AND got5 = v5 AND got8 = v8 AS ok FROM ($made) m) s};

# one session: the first query is the backend's first use of each hash
# context, the second reuses them in a new transaction
my ($rc, $stdout, $stderr) = $node->psql('names', "$check;\n$check;", extra_params => [ '-F', '|' ]);
my @rows = split /\n/, $stdout;
for my $i (0, 1)
{
	my ($verdict, $detail) = split /\|/, $rows[$i] // '', 2;
	my $what = $i ? 'second query of the same backend' : 'first query of a backend';
	ok($rc == 0 && defined $verdict && $verdict eq 't',
		"$what: uuidv3, uuidv5 and uuid_v8_sha256 of $n names equal Python's (seed $seed)")
	  or diag($rc == 0 ? "got: $rows[$i]" : "error (exit $rc): $stderr");
	note($detail) if defined $detail;
}

# what differed, to read a failure by
if (!($rc == 0 && ($rows[0] // '') =~ /^t\|/ && ($rows[1] // '') =~ /^t\|/))
{
	my ($r2, $o2, $e2) = $node->psql('names', qq{SELECT n, kind, ns,
		octet_length(coalesce(convert_to(tname, 'UTF8'), bname)), v5, got5, v8, got8
		FROM ($made) m WHERE (got3, got5, got8) IS DISTINCT FROM (v3, v5, v8) ORDER BY n LIMIT 5});
	diag("first cases that differ (n, kind, namespace, bytes, v5 expected, got, v8 expected, got):\n$o2$e2");
}

$node->stop;
done_testing();
