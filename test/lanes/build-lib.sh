# test/lanes/build-lib.sh - what the lanes' build scripts share
# (test/lanes/citus/build.sh, ecosystem/build.sh, pg_uuidv7/build.sh): the
# source the user supplies, and the install into the run's private copy of
# the server.  Sourced after test/lib.sh (say, as_root).
# shellcheck shell=bash
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)

# PG_CONFIG is the server's own: test/run.sh passes it, and one inside the
# private copy (PG_UUIDX_PRIVATE_SERVER) is taken back to the server's path,
# which the copy has below it
[ -z "${PG_UUIDX_PRIVATE_SERVER:-}" ] || PG_CONFIG=${PG_CONFIG#"$PG_UUIDX_PRIVATE_SERVER"}

# lane_require VAR WHAT - end the build with status 3 (its test skips) when
# the user named no source in $VAR
lane_require() {
    [ -n "${!1:-}" ] || { echo "$1 is not set: no $2 to build" >&2; exit 3; }
}

# lane_is_git SOURCE - SOURCE is a git directory or a git URL
lane_is_git() {
    case $1 in *://* | git@*:*) return 0 ;; esac
    [ -d "$1" ] && git -C "$1" rev-parse --git-dir >/dev/null 2>&1
}

# lane_unpack VAR REF DIR - the source tree named by $VAR into DIR (which
# must not exist): a git directory or URL is cloned and REF (a tag, branch
# or commit; none: its HEAD) checked out, a source tree copied, a tarball
# unpacked without its top directory.  Sets lane_id (the commit, or a digest
# of the tarball or of the tree's file names, sizes and times: what a cached
# build is kept for) and lane_what (a label for the reports).  Status 3 for
# anything else.
# shellcheck disable=SC2034  # lane_id and lane_what are the caller's
lane_unpack() {
    local var=$1 ref=$2 dir=$3 src=${!1}
    if lane_is_git "$src"; then
        git -c advice.detachedHead=false clone -q "$src" "$dir"
        [ -z "$ref" ] || git -C "$dir" -c advice.detachedHead=false checkout -q "$ref"
        lane_id=$(git -C "$dir" rev-parse HEAD)
        lane_what="git $src $(git -C "$dir" describe --tags --always) $lane_id"
    elif [ -d "$src" ]; then
        mkdir -p "$dir" && cp -a "$src/." "$dir/"
        lane_id=$(cd "$src" && find . -type f -printf '%P %s %T@\n' | LC_ALL=C sort | md5sum | cut -c1-16)
        lane_what="tree $src"
    elif [ -f "$src" ]; then
        mkdir -p "$dir" && tar -xf "$src" -C "$dir" --strip-components=1
        lane_id=$(sha256sum "$src" | cut -c1-16)
        lane_what="tarball $src ($lane_id)"
    else
        echo "$var=$src is neither a git directory or URL, a source tree nor a tarball" >&2
        return 3
    fi
}

# lane_install MAKE-ARGS... - "make install": with PG_UUIDX_PRIVATE_SERVER
# set (test/run.sh: the run's private copy of the server, the server's paths
# below it) into that copy with DESTDIR, the server's own directories then
# only read; otherwise into the server of PG_CONFIG
lane_install() {
    local priv=${PG_UUIDX_PRIVATE_SERVER:-}
    if [ -n "$priv" ]; then
        [ -d "$priv$("$PG_CONFIG" --sharedir)/extension" ] ||
            { echo "$priv holds no copy of $("$PG_CONFIG" --version)" >&2; exit 1; }
        make -s "$@" install DESTDIR="$priv" >/dev/null
        chmod -R a+rX "$priv"
    else
        as_root make -s "$@" install >/dev/null
    fi
}
