#!/usr/bin/env bash
# test/lanes/citus/build.sh - build Citus from a source the user supplies for
# the server of PG_CONFIG:  CITUS_SOURCE=<checkout path or git URL, source
# tree or tarball> [CITUS_REF=<tag, branch or commit>].  Citus 13.2.x
# accepts PostgreSQL 15-17, 14.x 16-18.  The source is copied into
# $CITUS_CACHE (default /var/cache/pg_uuidx/citus) and built there, one tree
# per server (its pg_config) and source commit; nothing of it enters this
# repository.  A tree built for the same server and commit is not built
# again, only installed.
#
# Install (test/lanes/build-lib.sh): with PG_UUIDX_PRIVATE_SERVER set
# (test/run.sh sets it to the run's private copy of the server, which has
# the server's paths below it), into that copy (make install DESTDIR=...);
# the server's own directories are then only read.  Without it, into the
# server of PG_CONFIG.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
set -euo pipefail
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/../build-lib.sh"

CACHE=${CITUS_CACHE:-/var/cache/pg_uuidx/citus}
lane_require CITUS_SOURCE Citus
need autoconf libkrb5-dev liblz4-dev libzstd-dev libcurl4-openssl-dev libssl-dev libxml2-dev libxslt1-dev \
    libselinux1-dev libpam0g-dev libreadline-dev git
server=$("$PG_CONFIG" --version)
mkdir -p "$CACHE"
# a fresh copy says which commit CITUS_REF is; it replaces the tree built
# for the same server only when that tree is of another commit
incoming=$CACHE/incoming-$$
rm -rf "$incoming"
trap 'rm -rf "$incoming"' EXIT
lane_unpack CITUS_SOURCE "${CITUS_REF:-}" "$incoming" || exit
src=$CACHE/$(printf '%s' "$PG_CONFIG" | md5sum | cut -c1-8)-$(echo "$server" | awk '{print $2}')
stamp=$src/.pg_uuidx-built
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$lane_id $PG_CONFIG" ]; then
    say "citus $lane_what: built for $server already"
else
    rm -rf "$src"
    mv "$incoming" "$src"
    # PostgreSQL 15.20 exports have_createdb_privilege(), which Citus 13.2's
    # pg_version_compat.h defines again as a static function for 15: when the
    # server's header declares it, drop Citus's copy (the server's is the same)
    includedir=$("$PG_CONFIG" --includedir-server)
    if grep -q 'have_createdb_privilege' "$includedir/commands/dbcommands.h"; then
        perl -0pi -e 's/static inline bool\nhave_createdb_privilege\(void\)\n\{.*?\n\}\n//s' \
            "$src/src/include/pg_version_compat.h"
    fi
    say "citus $lane_what: building for $server"
    (cd "$src" && ./configure PG_CONFIG="$PG_CONFIG" --without-libcurl >/dev/null &&
        nice make -s -j"$(nproc)" with_llvm=no >/dev/null)
    echo "$lane_id $PG_CONFIG" >"$stamp"
fi
lane_install -C "$src" with_llvm=no
say "citus $lane_what: installed into ${PG_UUIDX_PRIVATE_SERVER:+the private copy }${PG_UUIDX_PRIVATE_SERVER:-$server}"
