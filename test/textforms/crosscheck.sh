#!/usr/bin/env bash
# test/textforms/crosscheck.sh need|run - pg_uuidx's base32hex, ULID and
# TypeID text against three independent implementations: npm "ulid", npm
# "typeid-js" and Python's base64.b32hexencode, on N ids (default 100000)
# in both directions:
#   pg_uuidx encodes N ids (v4, v7, edges); node and python encode and
#   decode the same ids and compare (crosscheck.js, crosscheck.py);
#   node and python make N ids and texts of their own, which pg_uuidx
#   decodes and re-encodes in SQL.
# "make crosscheck" runs it on a throwaway cluster (test/run.sh crosscheck).
#   need  exit 0 if node, the npm packages and python3 are there, else say
#         what is missing and how to install it, exit 3 (a skip, not a failure)
#   run   the check, against the server libpq's environment names
# Environment: NPM_DIR (default /var/cache/pg_uuidx/npm) holds node_modules
# with ulid and typeid-js: npm install --prefix "$NPM_DIR" ulid typeid-js
# N (default 100000); PSQL (default psql).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
NPM_DIR=${NPM_DIR:-/var/cache/pg_uuidx/npm}
N=${N:-100000}
PSQL=${PSQL:-psql}

need() {
    local missing=()
    command -v node >/dev/null || missing+=("node (apt-get install nodejs)")
    command -v python3 >/dev/null || missing+=("python3")
    for pkg in ulid typeid-js; do
        [ -f "$NPM_DIR/node_modules/$pkg/package.json" ] || missing+=("npm package $pkg (npm install --prefix $NPM_DIR ulid typeid-js)")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        printf 'SKIP crosscheck: missing %s\n' "${missing[@]}"
        return 3
    fi
}

run() {
    local dir rc=0 v
    dir=$(mktemp -d "${TMPDIR:-/tmp}/pg_uuidx_crosscheck.XXXXXX")
    trap 'rm -rf "$dir"' RETURN
    chmod 777 "$dir"
    v=""
    for pkg in ulid typeid-js; do
        v="$v$pkg $(sed -n 's/^ *"version": *"\(.*\)".*/\1/p' "$NPM_DIR/node_modules/$pkg/package.json" | head -1), "
    done
    echo "== npm ${v}node $(node --version), $(python3 --version), $N ids each way"
    "$PSQL" -X -q -v ON_ERROR_STOP=1 -v n="$N" -v dir="$dir" <<'SQL'
CREATE EXTENSION IF NOT EXISTS pg_uuidx;
CREATE TEMP TABLE ids AS
SELECT CASE WHEN g % 2 = 0 THEN uuidv4() ELSE uuidv7() END AS id FROM generate_series(1, :n) AS g
UNION ALL VALUES ('00000000-0000-0000-0000-000000000000'::uuid), ('ffffffff-ffff-ffff-ffff-ffffffffffff');
\set f :dir '/pg_ulid_typeid.tsv'
COPY (SELECT id, uuid_to_ulid(id), typeid('user', id), typeid('', id) FROM ids) TO :'f';
\set f :dir '/pg_base32hex.tsv'
COPY (SELECT id, uuid_to_base32hex(id) FROM ids) TO :'f';
SQL
    echo "== pg_uuidx -> npm ulid, typeid-js; npm -> pg_uuidx"
    NODE_PATH=$NPM_DIR/node_modules node "$here/crosscheck.js" "$dir/pg_ulid_typeid.tsv" "$dir/node.tsv" "$N" || rc=1
    echo "== pg_uuidx -> python base64; python -> pg_uuidx"
    python3 "$here/crosscheck.py" "$dir/pg_base32hex.tsv" "$dir/python.tsv" "$N" || rc=1
    "$PSQL" -X -q -A -t -v ON_ERROR_STOP=1 -v dir="$dir" <<'SQL' | tee "$dir/sql.out"
CREATE TEMP TABLE node (id uuid, ulid text, tid text, tid_id uuid);
CREATE TEMP TABLE py (id uuid, b32 text);
\set f :dir '/node.tsv'
COPY node FROM :'f';
\set f :dir '/python.tsv'
COPY py FROM :'f';
SELECT format('pg_uuidx on npm ulid: %s mismatches of %s', count(*) FILTER (WHERE ulid_to_uuid(ulid) <> id OR uuid_to_ulid(id) <> ulid), count(*)) FROM node;
SELECT format('pg_uuidx on typeid-js: %s mismatches of %s', count(*) FILTER (WHERE typeid_to_uuid(tid) <> tid_id OR typeid_prefix(tid) <> 'order_line' OR typeid('order_line', tid_id) <> tid), count(*)) FROM node;
SELECT format('pg_uuidx on python: %s mismatches of %s', count(*) FILTER (WHERE base32hex_to_uuid(b32) <> id OR uuid_to_base32hex(id) <> rtrim(b32, '=')), count(*)) FROM py;
SQL
    grep -q ' [1-9][0-9]* mismatches' "$dir/sql.out" && rc=1
    [ $rc -eq 0 ] && echo "crosscheck: PASS" || echo "crosscheck: FAIL"
    return $rc
}

case ${1:-} in
    need) need ;;
    run) run ;;
    *) echo "usage: $0 need|run" >&2; exit 2 ;;
esac
