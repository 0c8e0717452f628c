#!/usr/bin/env bash
# test/lanes/ecosystem/build.sh [partman] [timescaledb] - build the extensions the
# ecosystem tests run beside pg_uuidx against the server of PG_CONFIG
# (default: Debian's 15):
#   partman      pg-partman from Debian sid (5.x)
#   timescaledb  TimescaleDB, Apache-licensed part only: from TIMESCALEDB_SOURCE
#                when set (a source tree, a tarball, or a git directory with
#                TIMESCALEDB_REF naming the tag or commit), else Debian
#                trixie's source package (2.19.x)
# Nothing is downloaded for TIMESCALEDB_SOURCE: the user supplies it.
# Debian's sources come through test/debian.sh's fetch_source.  Sources and
# builds are kept in $ECOSYSTEM_CACHE (default /var/cache/pg_uuidx/ecosystem),
# one build directory per source and server, so a second run only installs.
# With PG_UUIDX_PRIVATE_SERVER set (test/run.sh: the run's private copy of
# the server, same absolute paths below it) the install goes there ("make
# install DESTDIR=...", test/lanes/build-lib.sh); otherwise into the server
# itself.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
set -euo pipefail
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/../build-lib.sh"

CACHE=${ECOSYSTEM_CACHE:-/var/cache/pg_uuidx/ecosystem}
DEST=${PG_UUIDX_PRIVATE_SERVER:-}
what=("$@")
[ ${#what[@]} -gt 0 ] || what=(partman timescaledb)
need dpkg-dev bison flex cmake libssl-dev libkrb5-dev xz-utils
pgver=$("$PG_CONFIG" --version)
# one build directory per server: its major and where its pg_config lives
server_id=$(echo "$pgver" | sed 's/PostgreSQL \([0-9]*\).*/pg\1/')-$(echo "$PG_CONFIG" | md5sum | cut -c1-8)
mkdir -p "$CACHE"

# timescaledb_tree - the TimescaleDB source tree of TIMESCALEDB_SOURCE
# (test/lanes/build-lib.sh's lane_unpack) in $tree, kept in $CACHE/src by
# what it is (its commit, or a digest of the tarball or tree), and in
# tsdb_label what it is for the reports
timescaledb_tree() {
    local ref=${TIMESCALEDB_REF:-} incoming=$CACHE/src/incoming-$$
    if lane_is_git "$TIMESCALEDB_SOURCE" && [ -z "$ref" ]; then
        echo "TIMESCALEDB_SOURCE=$TIMESCALEDB_SOURCE is a git directory: set TIMESCALEDB_REF (a tag, e.g. 2.28.3)" >&2
        return 1
    fi
    rm -rf "$incoming"
    lane_unpack TIMESCALEDB_SOURCE "$ref" "$incoming" || return 1
    [ -f "$incoming/CMakeLists.txt" ] ||
        { rm -rf "$incoming"; echo "TIMESCALEDB_SOURCE=$TIMESCALEDB_SOURCE holds no TimescaleDB source (no CMakeLists.txt)" >&2; return 1; }
    tree=$CACHE/src/timescaledb-${lane_id:0:12}
    if [ -f "$tree/CMakeLists.txt" ]; then rm -rf "$incoming"; else rm -rf "$tree" && mv "$incoming" "$tree"; fi
    tsdb_label=$lane_what
    [ -n "$ref" ] || [ ! -f "$tree/version.config" ] ||
        tsdb_label="$(sed -n 's/^version *= *//p' "$tree/version.config"): $tsdb_label"
}

for w in "${what[@]}"; do
    case $w in
        partman)
            setup_apt "$CACHE/apt"
            tree=$(fetch_source pg-partman sid "$CACHE/src/pg-partman")
            say "partman: building $(basename "$tree")"
            make -s -C "$tree" PG_CONFIG="$PG_CONFIG" clean >/dev/null
            nice make -s -C "$tree" PG_CONFIG="$PG_CONFIG" >/dev/null
            lane_install -C "$tree" PG_CONFIG="$PG_CONFIG"
            label=$(basename "$tree")
            ;;
        timescaledb)
            if [ -n "${TIMESCALEDB_SOURCE:-}" ]; then
                timescaledb_tree || exit 1
                label=$tsdb_label
            else
                setup_apt "$CACHE/apt"
                tree=$(fetch_source timescaledb trixie "$CACHE/src/timescaledb")
                label="$(basename "$tree") (Debian trixie)"
            fi
            build=$CACHE/build/$(basename "$tree")-$server_id
            say "timescaledb: building $label (Apache-2.0 part) in $build"
            if [ ! -f "$build/Makefile" ]; then
                (cd "$tree" && BUILD_DIR=$build BUILD_FORCE_REMOVE=true ./bootstrap -DPG_CONFIG="$PG_CONFIG" \
                    -DAPACHE_ONLY=ON -DREGRESS_CHECKS=OFF -DTAP_CHECKS=OFF -DWARNINGS_AS_ERRORS=OFF -DLINTER=OFF \
                    -DENABLE_OPTIMIZER_DEBUG=OFF >/dev/null)
            fi
            nice make -s -C "$build" -j"$(nproc)" >/dev/null
            lane_install -C "$build"
            ;;
        *) echo "unknown component: $w (partman, timescaledb)" >&2; exit 2 ;;
    esac
    say "$w: $label installed into $pgver${DEST:+ (private copy $DEST)}"
done
