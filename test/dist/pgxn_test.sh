#!/usr/bin/env bash
# test/dist/pgxn_test.sh ZIP - install a PGXN distribution zip ("make dist")
# with pgxnclient, as a user would from PGXN, and check it:
#   the zip holds one top-level directory NAME-VERSION/ with META.json;
#   "pgxn install" builds and installs it for $PG_CONFIG;
#   "pgxn load" runs CREATE EXTENSION on a throwaway cluster;
#   "pgxn check" runs the zip's own regression suite (make installcheck)
#   against the installed files;
#   "pgxn uninstall" removes it again.
# Environment: PG_CONFIG (default Debian's 15; installing there needs root),
# PGPORT_TEST (default 54344).  Last line: "pgxn: N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/../.."
. test/debian.sh
. test/dist/cluster.sh

zip=${1:?usage: $0 pg_uuidx-X.Y.Z.zip}
PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
bindir=$("$PG_CONFIG" --bindir)
command -v pgxn >/dev/null || install_missing pgxnclient
command -v unzip >/dev/null || install_missing unzip

passed=0 failed=0
step() {
    local what=$1; shift
    if "$@"; then echo "ok: $what"; passed=$((passed + 1)); else echo "FAILED: $what"; failed=$((failed + 1)); fi
}
installed=no
finish() {
    local rc=$?
    cluster_stop
    # a failed run must not leave the extension installed either
    [ "$installed" = yes ] && { pgxn uninstall --pg_config "$PG_CONFIG" "./$zip" >/dev/null 2>&1 || true; }
    echo "pgxn: $passed passed, $failed failed"
    [ "$failed" = 0 ] && exit $rc
    exit 1
}
trap finish EXIT

# PGXN unpacks the zip and expects NAME-VERSION/ at its top, META.json in it
top=$(basename "$zip" .zip)
layout_ok() {
    local entries
    entries=$(unzip -Z1 "$zip")
    ! grep -v "^$top/" <<<"$entries" && grep -qx "$top/META.json" <<<"$entries" &&
        grep -qx "$top/pg_uuidx.control" <<<"$entries" && grep -qx "$top/LICENSE" <<<"$entries"
}
step "zip layout: every entry under $top/, META.json, control file and LICENSE in it" layout_ok
step "META.json in the zip is valid" bash -c "d=\$(mktemp -d) && unzip -q '$zip' -d \$d && python3 test/dist/meta_check.py \$d/$top/META.json; rc=\$?; rm -rf \$d; exit \$rc"

installed=yes
step "pgxn install $zip --pg_config $PG_CONFIG" pgxn install --pg_config "$PG_CONFIG" "./$zip"
cluster_start "${PGPORT_TEST:-54344}"
"$bindir/createdb" pgxn_load
step "pgxn load (CREATE EXTENSION)" pgxn load --pg_config "$PG_CONFIG" -d pgxn_load "./$zip"
extver=$(sed -n "s/^default_version *= *'\(.*\)'/\1/p" pg_uuidx.control)
created_ok() {
    local got
    got=$("$bindir/psql" -X -At -d pgxn_load -c \
        "SELECT extversion || ' ' || (uuid_extract_version(uuidv7()) = 7) FROM pg_extension WHERE extname = 'pg_uuidx'")
    echo "   $got"
    [ "$got" = "$extver true" ]
}
step "extension pg_uuidx $extver created, uuidv7() gives version 7" created_ok
step "pgxn check (the zip's regression suite against the installed files)" pgxn check --pg_config "$PG_CONFIG" "./$zip"
step "pgxn uninstall (leaves $PG_CONFIG's installation as before)" pgxn uninstall --pg_config "$PG_CONFIG" "./$zip" &&
    installed=no
