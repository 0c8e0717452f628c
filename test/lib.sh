# test/lib.sh - sourced by test/run.sh, test/majors.sh and the build scripts:
# the server's tools, Debian packages, the build, and the unprivileged OS
# user that runs every test server (PostgreSQL::Test::Cluster, initdb and
# the postmaster refuse root).  Clusters themselves are made by
# PostgreSQL::Test::Cluster only: test/cluster.pl and the TAP tests.
#
# Environment: PG_MAJOR (default 15) picks Debian's packaged server;
# PG_CONFIG any other build (then nothing is installed from Debian).
# shellcheck shell=bash
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$REPO/test/debian.sh"

PG_MAJOR=${PG_MAJOR:-15}
debian_server=no
[ -n "${PG_CONFIG:-}" ] || { PG_CONFIG=/usr/lib/postgresql/$PG_MAJOR/bin/pg_config; debian_server=yes; }
say() { echo "== $*"; }

# need PACKAGE... - Debian packages, installed when missing (with the server's
# own packages when the server is Debian's)
need() {
    local want=(make gcc perl libipc-run-perl "$@")
    [ "$debian_server" = yes ] && want+=("postgresql-$PG_MAJOR" "postgresql-server-dev-$PG_MAJOR" postgresql-contrib)
    install_missing "${want[@]}"
    bindir=$("$PG_CONFIG" --bindir)
    pgxs_src=$(dirname "$("$PG_CONFIG" --pgxs)")/..
}

# build_install [MAKE ARGS] - a clean build from this work tree, installed
# into a private copy of the server (private_server).  The server's own
# directories are only read: a failed or interrupted run, a sanitizer build
# included, leaves the pg_uuidx they hold (or its absence) as it was.
build_install() {
    private_server
    say "building against $("$PG_CONFIG" --version) ${*:+($*)}"
    # objects left from a build against another major would be linked as is
    make -s -C "$REPO" PG_CONFIG="$PG_CONFIG" clean >/dev/null
    make -s -C "$REPO" PG_CONFIG="$PG_CONFIG" ${PG_CFLAGS:+PG_CFLAGS="$PG_CFLAGS"} "$@" >/dev/null
    make -s -C "$REPO" PG_CONFIG="$PG_CONFIG" install >/dev/null
}

# private_server - copy the server's bindir, pkglibdir, sharedir and
# includedir to the same paths below $work/server, once a run, and point
# PG_CONFIG, bindir and pgxs_src there.  PostgreSQL finds its directories
# relative to the running binary, so initdb, postgres and pg_config of the
# copy use the copy, as "make check" does with its temporary installation.
private_server() {
    local root=$work/server d
    if [ ! -d "$root" ]; then
        for d in bindir pkglibdir sharedir includedir; do
            d=$("$PG_CONFIG" --$d)
            [ -e "$root$d" ] || { mkdir -p "$root$(dirname "$d")" && cp -a "$d" "$root$d"; }
        done
        chmod -R a+rX "$root"
        say "private copy of $("$PG_CONFIG" --version) in $root (the server's directories are only read)"
        PG_CONFIG=$root$("$PG_CONFIG" --bindir)/pg_config
    fi
    bindir=$("$PG_CONFIG" --bindir)
    pgxs_src=$(dirname "$("$PG_CONFIG" --pgxs)")/..
}

# as_user CMD... - run as the OS user of the test servers, with the server's
# bindir first in PATH
if [ "$(id -u)" = 0 ]; then
    os_user=postgres
    id "$os_user" >/dev/null 2>&1 || useradd --system --home-dir /nonexistent --shell /bin/false "$os_user"
    as_user() { runuser -u "$os_user" -- env PATH="$bindir:$PATH" "$@"; }
else
    os_user=$(id -un)
    as_user() { env PATH="$bindir:$PATH" "$@"; }
fi

# stage - a temp dir owned by that user ($work, removed on exit, after the
# caller's on_exit if there is one) with a copy of the tests and the
# Makefile, so that make, pg_regress and prove write their output there
# whoever owns the work tree
stage() {
    work=$(mktemp -d "${TMPDIR:-/tmp}/pg_uuidx.XXXXXX")
    # interrupted (Ctrl-C) or not: the servers started from $work are
    # stopped (immediate shutdown) and $work is removed
    trap 'exit 130' INT
    trap 'exit 143' TERM
    trap 'rc=$?; ! declare -F on_exit >/dev/null || on_exit || rc=1
        [ "$rc" = 0 ] || stop_servers
        [ "${KEEP:-0}" = 1 ] && echo "== kept $work" || rm -rf "$work"; exit $rc' EXIT
    cp -r "$REPO"/Makefile "$REPO"/*.control "$REPO"/sql "$REPO"/expected "$REPO"/test "$work"/
    chown -R "$os_user" "$work"
    chmod 755 "$work"
}

# stop_servers - an immediate shutdown of every postmaster still running on
# a data directory below $work (only a postmaster's command line has -D)
stop_servers() {
    pkill -QUIT -f -- "-D $work/" 2>/dev/null || true
}

# in_cluster [-c NAME=VALUE]... CMD... - CMD in $work against a throwaway
# cluster (test/cluster.pl), as the test servers' user
in_cluster() {
    (cd "$work" && as_user env TESTDIR="$work" PG_CONFIG="$PG_CONFIG" PG_REGRESS="$pgxs_src/test/regress/pg_regress" \
        perl -I "$pgxs_src/test/perl" test/cluster.pl "$@")
}
