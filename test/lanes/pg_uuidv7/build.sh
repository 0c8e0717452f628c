#!/usr/bin/env bash
# test/lanes/pg_uuidv7/build.sh - build pg_uuidv7 from a source the user
# supplies into the private copy of the server of this run (never into the
# server itself):  PG_UUIDV7_SOURCE=<source tree, tarball or git directory>
# [PG_UUIDV7_REF=<tag or commit>, for a git directory].  test/run.sh runs it
# after build_install with PG_UUIDX_PRIVATE_SERVER=<the copy>; it is built in
# a temp dir and nothing of it enters this repository.  The source used is
# written beside its control file (pg_uuidv7.source) for the test to report.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
set -euo pipefail
. "$(dirname "$0")/../../lib.sh"

[ -n "${PG_UUIDV7_SOURCE:-}" ] || { echo "PG_UUIDV7_SOURCE is not set: no pg_uuidv7 to build" >&2; exit 3; }
priv=${PG_UUIDX_PRIVATE_SERVER:-}
[ -n "$priv" ] && [ -d "$priv" ] ||
    { echo "PG_UUIDX_PRIVATE_SERVER is not set: pg_uuidv7 is only installed into a run's private server" >&2; exit 3; }
# the server's own pg_config: the copy has the same paths below $priv
real=$PG_CONFIG
case $real in "$priv"/*) real=${real#"$priv"} ;; esac

src=$(mktemp -d "${TMPDIR:-/tmp}/pg_uuidv7-build.XXXXXX")
trap 'rm -rf "$src"' EXIT
if [ -d "$PG_UUIDV7_SOURCE" ] && git -C "$PG_UUIDV7_SOURCE" rev-parse --git-dir >/dev/null 2>&1; then
    git clone -q "$PG_UUIDV7_SOURCE" "$src/tree"
    [ -z "${PG_UUIDV7_REF:-}" ] || git -C "$src/tree" checkout -q "$PG_UUIDV7_REF"
    what="git $PG_UUIDV7_SOURCE $(git -C "$src/tree" describe --tags --always) $(git -C "$src/tree" rev-parse HEAD)"
elif [ -d "$PG_UUIDV7_SOURCE" ]; then
    cp -a "$PG_UUIDV7_SOURCE/." "$src/tree"
    what="tree $PG_UUIDV7_SOURCE"
elif [ -f "$PG_UUIDV7_SOURCE" ]; then
    mkdir "$src/tree" && tar -xf "$PG_UUIDV7_SOURCE" -C "$src/tree" --strip-components=1
    what="tarball $PG_UUIDV7_SOURCE ($(sha256sum "$PG_UUIDV7_SOURCE" | cut -c1-16))"
else
    echo "PG_UUIDV7_SOURCE=$PG_UUIDV7_SOURCE is neither a directory nor a file" >&2
    exit 3
fi
[ -f "$src/tree/pg_uuidv7.control" ] || { echo "no pg_uuidv7.control in $PG_UUIDV7_SOURCE" >&2; exit 3; }
version=$(sed -n "s/^default_version *= *'\([^']*\)'.*/\1/p" "$src/tree/pg_uuidv7.control")
say "pg_uuidv7 $version ($what): building for $("$real" --version) into $priv"
nice make -s -C "$src/tree" PG_CONFIG="$real" >/dev/null
make -s -C "$src/tree" PG_CONFIG="$real" DESTDIR="$priv" install >/dev/null
f=$priv$("$real" --sharedir)/extension/pg_uuidv7.control
[ -f "$f" ] || { echo "pg_uuidv7 did not land in the private server ($f)" >&2; exit 1; }
chmod -R a+rX "$priv"
echo "pg_uuidv7 $version, $what" >"${f%.control}.source"
chmod a+r "${f%.control}.source"
say "pg_uuidv7 $version: installed into the private server"
