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
# install DESTDIR=..."); otherwise into the server itself.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
set -euo pipefail
. "$(dirname "$0")/../../lib.sh"

CACHE=${ECOSYSTEM_CACHE:-/var/cache/pg_uuidx/ecosystem}
DEST=${PG_UUIDX_PRIVATE_SERVER:-}
what=("$@")
[ ${#what[@]} -gt 0 ] || what=(partman timescaledb)
need dpkg-dev bison flex cmake libssl-dev libkrb5-dev xz-utils
pgver=$("$PG_CONFIG" --version)
# one build directory per server: its major and where its pg_config lives
server_id=$(echo "$pgver" | sed 's/PostgreSQL \([0-9]*\).*/pg\1/')-$(echo "$PG_CONFIG" | md5sum | cut -c1-8)
mkdir -p "$CACHE"

install_into() {  # install_into MAKE-ARGS...: into DEST when set, else the server
    if [ -n "$DEST" ]; then make -s "$@" install DESTDIR="$DEST" >/dev/null
    else as_root make -s "$@" install >/dev/null; fi
}

# timescaledb_tree - print the TimescaleDB source tree to build, and set
# tsdb_label to what it is (tag and commit when known)
timescaledb_tree() {
    local src=$TIMESCALEDB_SOURCE ref=${TIMESCALEDB_REF:-} commit dir
    if [ -d "$src" ] && git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
        [ -n "$ref" ] || { echo "TIMESCALEDB_SOURCE=$src is a git directory: set TIMESCALEDB_REF (a tag, e.g. 2.28.3)" >&2; return 1; }
        commit=$(git -C "$src" rev-parse --verify -q "$ref^{commit}") ||
            { echo "TIMESCALEDB_REF=$ref is not in $src" >&2; return 1; }
        dir=$CACHE/src/timescaledb-$ref-${commit:0:12}
        if [ ! -f "$dir/CMakeLists.txt" ]; then
            rm -rf "$dir" && mkdir -p "$dir"
            git -C "$src" archive "$commit" | tar -x -C "$dir"
        fi
        tsdb_label="$ref ($commit, from $src)"
    elif [ -f "$src" ]; then
        dir=$CACHE/src/$(basename "$src" | sed 's/\.\(tar\.[a-z0-9]*\|tgz\|zip\)$//')
        if [ ! -f "$dir/CMakeLists.txt" ]; then
            rm -rf "$dir" && mkdir -p "$dir"
            tar -xf "$src" -C "$dir" --strip-components=1
        fi
        tsdb_label="$(basename "$src") (tarball)"
    elif [ -f "$src/CMakeLists.txt" ]; then
        dir=$(cd "$src" && pwd)
        tsdb_label="source tree $dir"
    else
        echo "TIMESCALEDB_SOURCE=$src is neither a TimescaleDB source tree, a tarball nor a git directory" >&2
        return 1
    fi
    [ -n "$ref" ] || [ ! -f "$dir/version.config" ] ||
        tsdb_label="$(sed -n 's/^version *= *//p' "$dir/version.config"): $tsdb_label"
    echo "$dir"
}

for w in "${what[@]}"; do
    case $w in
        partman)
            setup_apt "$CACHE/apt"
            tree=$(fetch_source pg-partman sid "$CACHE/src/pg-partman")
            say "partman: building $(basename "$tree")"
            make -s -C "$tree" PG_CONFIG="$PG_CONFIG" clean >/dev/null
            nice make -s -C "$tree" PG_CONFIG="$PG_CONFIG" >/dev/null
            install_into -C "$tree" PG_CONFIG="$PG_CONFIG"
            label=$(basename "$tree")
            ;;
        timescaledb)
            if [ -n "${TIMESCALEDB_SOURCE:-}" ]; then
                tree=$(timescaledb_tree) || exit 1
                timescaledb_tree >/dev/null  # again in this shell, for tsdb_label
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
            install_into -C "$build"
            ;;
        *) echo "unknown component: $w (partman, timescaledb)" >&2; exit 2 ;;
    esac
    say "$w: $label installed into $pgver${DEST:+ (private copy $DEST)}"
done
