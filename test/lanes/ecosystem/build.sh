#!/usr/bin/env bash
# test/lanes/ecosystem/build.sh [partman] [timescaledb] - build the extensions the
# ecosystem tests run beside pg_uuidx, from Debian's source packages, into
# the server of PG_CONFIG (default: Debian's 15):
#   partman      pg-partman from sid (5.x)
#   timescaledb  timescaledb from trixie (2.19.x; Apache-licensed part only)
# The sources come through test/debian.sh's fetch_source into
# $ECOSYSTEM_CACHE (default /var/cache/pg_uuidx/ecosystem); a build that is
# done is not redone for the same server (a stamp file in the server's
# extension directory).
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
set -euo pipefail
. "$(dirname "$0")/../../lib.sh"

CACHE=${ECOSYSTEM_CACHE:-/var/cache/pg_uuidx/ecosystem}
what=("$@")
[ ${#what[@]} -gt 0 ] || what=(partman timescaledb)
need dpkg-dev bison flex cmake libssl-dev libkrb5-dev xz-utils
sharedir=$("$PG_CONFIG" --sharedir)
mkdir -p "$CACHE"
setup_apt "$CACHE/apt"

for w in "${what[@]}"; do
    stamp=$sharedir/extension/.pg_uuidx-ecosystem-$w
    if [ -f "$stamp" ]; then say "$w: already built for $("$PG_CONFIG" --version) ($(cat "$stamp"))"; continue; fi
    case $w in
        partman)
            tree=$(fetch_source pg-partman sid "$CACHE/src/pg-partman")
            say "partman: building $(basename "$tree")"
            make -s -C "$tree" PG_CONFIG="$PG_CONFIG" clean >/dev/null
            nice make -s -C "$tree" PG_CONFIG="$PG_CONFIG" >/dev/null
            as_root make -s -C "$tree" PG_CONFIG="$PG_CONFIG" install >/dev/null
            ;;
        timescaledb)
            tree=$(fetch_source timescaledb trixie "$CACHE/src/timescaledb")
            say "timescaledb: building $(basename "$tree") (Apache-2.0 part)"
            rm -rf "$tree/build"
            (cd "$tree" && ./bootstrap -DPG_CONFIG="$PG_CONFIG" -DAPACHE_ONLY=ON -DREGRESS_CHECKS=OFF \
                -DTAP_CHECKS=OFF -DWARNINGS_AS_ERRORS=OFF -DLINTER=OFF -DENABLE_OPTIMIZER_DEBUG=OFF >/dev/null)
            nice make -s -C "$tree/build" -j"$(nproc)" >/dev/null
            as_root make -s -C "$tree/build" install >/dev/null
            ;;
        *) echo "unknown component: $w (partman, timescaledb)" >&2; exit 2 ;;
    esac
    echo "$(basename "$tree") $(date -u +%FT%TZ)" | as_root tee "$stamp" >/dev/null
    say "$w: installed into $("$PG_CONFIG" --version)"
done
