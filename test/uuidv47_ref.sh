#!/usr/bin/env bash
# test/uuidv47_ref.sh - compare uuidv47_encode/uuidv47_decode with the UUIDv47
# reference implementation, built from a source the user supplies.
#
#   UUIDV47_SRC=/path/to/uuidv47 bash test/uuidv47_ref.sh    (make uuidv47-check)
#
# UUIDV47_SRC: a checkout of github.com/stateless-me/uuidv47 (its uuidv47.h).
# The server: the usual PG* variables; pg_uuidx must be installed there.  A
# scratch database is created and dropped.  N (default 10000) random ids and
# keys: a third from uuidv7(), a third from uuidv7_at() over 8000 years, a
# third random v7 bit patterns; each key random.  Skips (exit 0) when
# UUIDV47_SRC is not set.
set -euo pipefail

N=${N:-10000}
if [ -z "${UUIDV47_SRC:-}" ]; then
    echo "uuidv47-check: skipped (set UUIDV47_SRC to a checkout of github.com/stateless-me/uuidv47)"
    exit 0
fi
[ -f "$UUIDV47_SRC/uuidv47.h" ] || { echo "no uuidv47.h in $UUIDV47_SRC" >&2; exit 2; }

tmp=$(mktemp -d)
db=uuidv47_check_$$
cleanup() { psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true; rm -rf "$tmp"; }
trap cleanup EXIT

# driver: reads "v7 key facade" lines, prints how many the reference disagrees with
cat >"$tmp/driver.c" <<'C'
#include <stdio.h>
#include "uuidv47.h"

int
main(void)
{
	char		id_s[64], key_s[64], facade_s[64];
	long		rows = 0, bad = 0;

	while (scanf("%63s %63s %63s", id_s, key_s, facade_s) == 3)
	{
		uuid128_t	id, facade, enc, dec;
		uint8_t		k[16];
		uuidv47_key_t key;

		if (!uuid_parse(id_s, &id) || !uuid_parse(facade_s, &facade))
			return 2;
		for (int i = 0; i < 16; i++)
		{
			unsigned	v;

			if (sscanf(key_s + 2 * i, "%2x", &v) != 1)
				return 2;
			k[i] = (uint8_t) v;
		}
		/* pg_uuidx's key mapping: k0, k1 = bytes 0-7, 8-15, little-endian */
		key.k0 = rd64le(k);
		key.k1 = rd64le(k + 8);
		enc = uuidv47_encode_v4facade(id, key);
		dec = uuidv47_decode_v4facade(facade, key);
		rows++;
		if (memcmp(&enc, &facade, 16) != 0 || memcmp(&dec, &id, 16) != 0)
			bad++;
	}
	printf("%ld rows, %ld disagreements with the reference\n", rows, bad);
	return bad != 0 || rows == 0;
}
C
cc -O2 -I"$UUIDV47_SRC" -o "$tmp/driver" "$tmp/driver.c"

psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "CREATE DATABASE $db"
psql -X -q -v ON_ERROR_STOP=1 -d "$db" -At -F ' ' -c "CREATE EXTENSION pg_uuidx" -c "
SELECT id, encode(key, 'hex'), uuidv47_encode(id, key)
FROM (SELECT CASE g % 3 WHEN 0 THEN uuidv7()
                        WHEN 1 THEN uuidv7_at(timestamptz '1970-01-01 00:00:00+00' + random() * interval '8000 years')
                        ELSE (substr(r, 1, 14) || '7' || substr(r, 16))::uuid
                   END AS id,
             decode(md5(random()::text || g), 'hex') AS key
      FROM generate_series(1, $N) AS g,
           LATERAL (SELECT gen_random_uuid()::text || left(g::text, 0) AS r) AS random_id) AS s" >"$tmp/pairs.txt"
"$tmp/driver" <"$tmp/pairs.txt"
