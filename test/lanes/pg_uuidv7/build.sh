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
. "$(dirname "$0")/../build-lib.sh"

lane_require PG_UUIDV7_SOURCE pg_uuidv7
priv=${PG_UUIDX_PRIVATE_SERVER:-}
[ -n "$priv" ] && [ -d "$priv" ] ||
    { echo "PG_UUIDX_PRIVATE_SERVER is not set: pg_uuidv7 is only installed into a run's private server" >&2; exit 3; }

src=$(mktemp -d "${TMPDIR:-/tmp}/pg_uuidv7-build.XXXXXX")
trap 'rm -rf "$src"' EXIT
lane_unpack PG_UUIDV7_SOURCE "${PG_UUIDV7_REF:-}" "$src/tree" || exit
[ -f "$src/tree/pg_uuidv7.control" ] || { echo "no pg_uuidv7.control in $PG_UUIDV7_SOURCE" >&2; exit 3; }
version=$(sed -n "s/^default_version *= *'\([^']*\)'.*/\1/p" "$src/tree/pg_uuidv7.control")
say "pg_uuidv7 $version ($lane_what): building for $("$PG_CONFIG" --version) into $priv"
nice make -s -C "$src/tree" PG_CONFIG="$PG_CONFIG" >/dev/null
lane_install -C "$src/tree" PG_CONFIG="$PG_CONFIG"
f=$priv$("$PG_CONFIG" --sharedir)/extension/pg_uuidv7.control
[ -f "$f" ] || { echo "pg_uuidv7 did not land in the private server ($f)" >&2; exit 1; }
echo "pg_uuidv7 $version, $lane_what" >"${f%.control}.source"
chmod a+r "${f%.control}.source"
say "pg_uuidv7 $version: installed into the private server"
