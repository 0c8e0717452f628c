#!/usr/bin/env bash
# test/lanes/pg_tle/build.sh - build pg_tle (Trusted Language Extensions,
# aws/pg_tle 1.5.x) from a source the user supplies for the server of
# PG_CONFIG:  PG_TLE_SOURCE=<checkout path or git URL, source tree or
# tarball> [PG_TLE_REF=<tag, branch or commit>, e.g. v1.5.2].  The source is
# copied into $PG_TLE_CACHE (default /var/cache/pg_uuidx/pg_tle) and built
# there, one tree per server (its pg_config) and source commit; nothing of
# it enters this repository.  A tree built for the same server and commit is
# not built again, only installed.  The source used is written beside its
# control file (pg_tle.source) for the test to report.
#
# Install (test/lanes/build-lib.sh): with PG_UUIDX_PRIVATE_SERVER set
# (test/run.sh sets it to the run's private copy of the server), into that
# copy (make install DESTDIR=...); the server's own directories are then
# only read.  Without it, into the server of PG_CONFIG.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
set -euo pipefail
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/../build-lib.sh"

CACHE=${PG_TLE_CACHE:-/var/cache/pg_uuidx/pg_tle}
lane_require PG_TLE_SOURCE pg_tle
# src/guc-file.l is built with flex; src/clientauth.c includes the
# server's libpq-be.h, which includes gssapi/gssapi.h
need flex git libkrb5-dev
server=$("$PG_CONFIG" --version)
mkdir -p "$CACHE"
# a fresh copy says which commit PG_TLE_REF is; it replaces the tree built
# for the same server only when that tree is of another commit
incoming=$CACHE/incoming-$$
rm -rf "$incoming"
trap 'rm -rf "$incoming"' EXIT
lane_unpack PG_TLE_SOURCE "${PG_TLE_REF:-}" "$incoming" || exit
[ -f "$incoming/pg_tle.control.in" ] || { echo "no pg_tle.control.in in $PG_TLE_SOURCE: not pg_tle" >&2; exit 3; }
version=$(sed -n 's/^EXTVERSION *= *//p' "$incoming/Makefile")
src=$CACHE/$(printf '%s' "$PG_CONFIG" | md5sum | cut -c1-8)-$(echo "$server" | awk '{print $2}')
stamp=$src/.pg_uuidx-built
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$lane_id $PG_CONFIG" ]; then
    say "pg_tle $version ($lane_what): built for $server already"
else
    rm -rf "$src"
    mv "$incoming" "$src"
    say "pg_tle $version ($lane_what): building for $server"
    nice make -s -C "$src" PG_CONFIG="$PG_CONFIG" with_llvm=no >/dev/null
    echo "$lane_id $PG_CONFIG" >"$stamp"
fi
lane_install -C "$src" PG_CONFIG="$PG_CONFIG" with_llvm=no
f=${PG_UUIDX_PRIVATE_SERVER:-}$("$PG_CONFIG" --sharedir)/extension/pg_tle.control
[ -f "$f" ] || { echo "pg_tle did not land in ${PG_UUIDX_PRIVATE_SERVER:-the server} ($f)" >&2; exit 1; }
echo "pg_tle $version, $lane_what" >"${f%.control}.source"
chmod a+r "${f%.control}.source"
say "pg_tle $version: installed into ${PG_UUIDX_PRIVATE_SERVER:+the private copy }${PG_UUIDX_PRIVATE_SERVER:-$server}"
