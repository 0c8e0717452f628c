#!/usr/bin/env bash
# test/lanes/citus/build.sh - build Citus from a source the user supplies into the
# server of PG_CONFIG:  CITUS_SOURCE=<checkout path or git URL>
# [CITUS_REF=<tag or branch>].  Citus 13.2.x accepts PostgreSQL 15-17, 14.x
# 16-18.  The source is copied into $CITUS_CACHE (default
# /var/cache/pg_uuidx/citus) and built there; nothing of it enters this
# repository.  A build done for the same server and commit is not redone.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
set -euo pipefail
. "$(dirname "$0")/../../lib.sh"

CACHE=${CITUS_CACHE:-/var/cache/pg_uuidx/citus}
[ -n "${CITUS_SOURCE:-}" ] || { echo "CITUS_SOURCE is not set: no Citus to build" >&2; exit 3; }
need autoconf libkrb5-dev liblz4-dev libzstd-dev libcurl4-openssl-dev libssl-dev libxml2-dev libxslt1-dev \
    libselinux1-dev libpam0g-dev libreadline-dev git
sharedir=$("$PG_CONFIG" --sharedir)
src=$CACHE/src-$("$PG_CONFIG" --version | tr -dc '0-9.')
rm -rf "$src"
mkdir -p "$CACHE"
git clone -q ${CITUS_REF:+--branch "$CITUS_REF"} "$CITUS_SOURCE" "$src"
commit=$(git -C "$src" describe --tags --always)
stamp=$sharedir/extension/.pg_uuidx-citus
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$commit" ]; then
    say "citus $commit: already built for $("$PG_CONFIG" --version)"
    exit 0
fi

# PostgreSQL 15.20 exports have_createdb_privilege(), which Citus 13.2's
# pg_version_compat.h defines again as a static function for 15: when the
# server's header declares it, drop Citus's copy (the server's is the same)
includedir=$("$PG_CONFIG" --includedir-server)
if grep -q 'have_createdb_privilege' "$includedir/commands/dbcommands.h"; then
    perl -0pi -e 's/static inline bool\nhave_createdb_privilege\(void\)\n\{.*?\n\}\n//s' \
        "$src/src/include/pg_version_compat.h"
fi

say "citus $commit: building for $("$PG_CONFIG" --version)"
(cd "$src" && ./configure PG_CONFIG="$PG_CONFIG" --without-libcurl >/dev/null &&
    nice make -s -j"$(nproc)" with_llvm=no >/dev/null && as_root make -s install with_llvm=no >/dev/null)
echo "$commit" | as_root tee "$stamp" >/dev/null
say "citus $commit: installed"
