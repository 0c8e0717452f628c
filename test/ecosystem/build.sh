#!/usr/bin/env bash
# test/ecosystem/build.sh [partman] [timescaledb] - build the extensions the
# ecosystem tests run beside pg_uuidx, from Debian's source packages, into
# the server of PG_CONFIG (default: Debian's 15):
#   partman      pg-partman from sid (5.x)
#   timescaledb  timescaledb from trixie (2.19.x; Apache-licensed part only)
# The sources come through test/debian.sh's private apt setup (the system's
# /etc/apt is only read) into $ECOSYSTEM_CACHE (default
# /var/cache/pg_uuidx/ecosystem); a build that is done is not redone for the
# same server (a stamp file in the server's extension directory).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

CACHE=${ECOSYSTEM_CACHE:-/var/cache/pg_uuidx/ecosystem}
what=("$@")
[ ${#what[@]} -gt 0 ] || what=(partman timescaledb)
need dpkg-dev bison flex cmake libssl-dev libkrb5-dev xz-utils
sharedir=$("$PG_CONFIG" --sharedir)
mkdir -p "$CACHE"
setup_apt "$CACHE/apt"

# fetch SOURCE SUITE - unpack the upstream tarball of a source package; prints
# the tree
fetch() {
    local src=$CACHE/src/$1 tarball tree
    if [ ! -d "$src" ] || [ -z "$(find "$src" -maxdepth 1 -mindepth 1 -type d)" ]; then
        rm -rf "$src" && mkdir -p "$src"
        # only the upstream tarball is used; a missing .dsc or debian tarball
        # on the mirror (it happens for sid) does not matter
        (cd "$src" && apt-get -q "${apt_opts[@]}" source --download-only "$1/$2") >&2 || true
        tarball=$(find "$src" -maxdepth 1 -name "${1}_*.orig.tar.*" ! -name '*.asc' | head -n 1)
        [ -n "$tarball" ] || { echo "no upstream tarball of $1 from $2" >&2; exit 1; }
        tar -C "$src" -xf "$tarball"
    fi
    tree=$(find "$src" -mindepth 1 -maxdepth 1 -type d | head -n 1)
    echo "$tree"
}

for w in "${what[@]}"; do
    stamp=$sharedir/extension/.pg_uuidx-ecosystem-$w
    if [ -f "$stamp" ]; then say "$w: already built for $("$PG_CONFIG" --version) ($(cat "$stamp"))"; continue; fi
    case $w in
        partman)
            tree=$(fetch pg-partman sid)
            say "partman: building $(basename "$tree")"
            make -s -C "$tree" PG_CONFIG="$PG_CONFIG" clean >/dev/null
            nice make -s -C "$tree" PG_CONFIG="$PG_CONFIG" >/dev/null
            as_root make -s -C "$tree" PG_CONFIG="$PG_CONFIG" install >/dev/null
            ;;
        timescaledb)
            tree=$(fetch timescaledb trixie)
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
