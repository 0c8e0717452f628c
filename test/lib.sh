# test/lib.sh - sourced by test/run.sh, test/lanes/majors.sh and the build scripts: the server's tools, Debian
# packages, the build, and the unprivileged OS user that runs every test server (PostgreSQL::Test::Cluster, initdb
# and the postmaster refuse root).  Clusters themselves are made by PostgreSQL::Test::Cluster only: test/cluster.pl
# and the TAP tests.
#
# Environment: PG_MAJOR (default 15) picks Debian's packaged server; PG_CONFIG any other build (then nothing is
# installed from Debian).
# shellcheck shell=bash
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$REPO/test/debian.sh"

PG_MAJOR=${PG_MAJOR:-15}
debian_server=no
[ -n "${PG_CONFIG:-}" ] || { PG_CONFIG=/usr/lib/postgresql/$PG_MAJOR/bin/pg_config; debian_server=yes; }
say() { echo "== $*"; }

# need PACKAGE... - Debian packages, installed when missing (with the server's own packages when the server is
# Debian's; postgresql-N holds contrib)
need() {
    local want=(make gcc perl libipc-run-perl "$@")
    [ "$debian_server" = yes ] && want+=("postgresql-$PG_MAJOR" "postgresql-server-dev-$PG_MAJOR")
    install_missing "${want[@]}"
    bindir=$("$PG_CONFIG" --bindir)
    pgxs_src=$(dirname "$("$PG_CONFIG" --pgxs)")/..
}

# need_sanitizers - clang, llvm and the ASan/UBSan runtime of that clang (libclang-rt-N-dev for clang N: 14 on
# bookworm, 21 on sid)
need_sanitizers() {
    install_missing clang llvm
    install_missing "libclang-rt-$(clang -dumpversion | cut -d. -f1)-dev"
}

# build_install [MAKE ARGS] - a clean build from this work tree, installed into a private copy of the server
# (private_server).  The server's own directories are only read: a failed or interrupted run, a sanitizer build
# included, leaves the pg_uuidx they hold (or its absence) as it was.
build_install() {
    private_server
    say "building against $("$PG_CONFIG" --version) ${*:+($*)}"
    # objects left from a build against another major would be linked as is
    make -s -C "$REPO" PG_CONFIG="$PG_CONFIG" clean >/dev/null
    make -s -C "$REPO" PG_CONFIG="$PG_CONFIG" ${PG_CFLAGS:+PG_CFLAGS="$PG_CFLAGS"} "$@" >/dev/null
    make -s -C "$REPO" PG_CONFIG="$PG_CONFIG" install >/dev/null
}

# private_server - copy the server's bindir, pkglibdir, sharedir and includedir to the same paths below
# $work/server, once a run, and point PG_CONFIG, bindir and pgxs_src there (server_pg_config keeps the server's
# own).  PostgreSQL finds its directories relative to the running binary, so initdb, postgres and pg_config of the
# copy use the copy, as "make check" does with its temporary installation.  A directory inside another one is copied
# with it; a directory that is a symlink is copied as the directory it points to, and so is an executable of bindir
# that points out of the copy (the server would find the real server's directories from it).  The server's libpq
# (libdir's libpq.so*) goes to the copy's libdir: what is built against the copy (pg_uuidx links libpq) links to it
# and, with a run path (rpath, a build from source), loads it, not the system's, which on a build of a newer major
# lacks functions (PQcancelStart).  Then the copy is checked: its pg_config names its own directories, and those
# "make install" writes to (pkglibdir, its bitcode/, sharedir/extension) lie inside it, else the run stops before
# anything is installed.
private_server() {
    local root=$work/server d f copied=() k
    if [ ! -d "$root" ]; then
        server_pg_config=$PG_CONFIG
        while read -r d; do
            for k in "${copied[@]}"; do case $d/ in "$k"/*) continue 2 ;; esac; done
            mkdir -p "$root$d" && cp -a "$d/." "$root$d/"
            copied+=("$d")
        done < <(for k in bindir pkglibdir sharedir includedir; do "$PG_CONFIG" --$k; done | LC_ALL=C sort -u)
        d=$("$PG_CONFIG" --libdir)
        ! compgen -G "$d/libpq.so*" >/dev/null || { mkdir -p "$root$d" && cp -a "$d"/libpq.so* "$root$d/"; }
        d=$("$PG_CONFIG" --bindir)
        for f in "$root$d"/*; do
            [ -L "$f" ] && ! inside "$root" "$f" && { k=$(realpath "$d/${f##*/}") && rm "$f" && cp -a "$k" "$f"; }
        done
        for d in "$("$PG_CONFIG" --pkglibdir)/bitcode" "$("$PG_CONFIG" --sharedir)/extension"; do
            [ -L "$root$d" ] && ! inside "$root" "$root$d" && { rm "$root$d" && mkdir "$root$d" && cp -a "$d/." "$root$d/"; }
        done
        chmod -R a+rX "$root"
        f=$root$("$PG_CONFIG" --bindir)/pg_config
        for k in pkglibdir sharedir; do
            [ "$("$f" --$k)" = "$root$("$PG_CONFIG" --$k)" ] ||
                { echo "the copy's pg_config names $("$f" --$k) as $k, not $root$("$PG_CONFIG" --$k)" >&2; exit 1; }
        done
        for d in "$("$f" --pkglibdir)" "$("$f" --pkglibdir)/bitcode" "$("$f" --sharedir)/extension"; do
            [ ! -e "$d" ] || inside "$root" "$d" || { echo "$d leads out of the private copy $root" >&2; exit 1; }
        done
        say "private copy of $("$PG_CONFIG" --version) in $root (the server's directories are only read)"
        PG_CONFIG=$f
    fi
    bindir=$("$PG_CONFIG" --bindir)
    pgxs_src=$(dirname "$("$PG_CONFIG" --pgxs)")/..
}

# inside DIR PATH - PATH, symlinks resolved, is DIR or lies below it
inside() {
    local p
    p=$(realpath -m -- "$2") || return 1
    case $p/ in "$(realpath -m -- "$1")"/*) return 0 ;; esac
    return 1
}

# as_user CMD... - run as the OS user of the test servers, with the server's bindir first in PATH and
# TMPDIR=$test_tmp (stage)
if [ "$(id -u)" = 0 ]; then
    os_user=postgres
    id "$os_user" >/dev/null 2>&1 || useradd --system --home-dir /nonexistent --shell /bin/false "$os_user"
    as_user() { runuser -u "$os_user" -- env PATH="$bindir:$PATH" ${test_tmp:+TMPDIR="$test_tmp"} "$@"; }
else
    os_user=$(id -un)
    as_user() { env PATH="$bindir:$PATH" ${test_tmp:+TMPDIR="$test_tmp"} "$@"; }
fi

# stage - a temp dir owned by that user ($work, removed on exit, after the caller's on_exit if there is one) with a
# copy of the tests and the Makefile, so that make, pg_regress and prove write their output there whoever owns the
# work tree
stage() {
    work=$(mktemp -d "${TMPDIR:-/tmp}/pg_uuidx.XXXXXX")
    # interrupted (Ctrl-C, SIGTERM) or not, failed or not: the servers started from $work are stopped and then $work
    # is removed; a second Ctrl-C does not cut that short
    trap 'exit 130' INT
    trap 'exit 143' TERM
    trap 'rc=$?; trap "" INT TERM
        ! declare -F on_exit >/dev/null || on_exit || rc=1
        [ "$rc" -lt 128 ] || say "interrupted (exit $rc): the counts above are of what ran before"
        stop_servers || rc=1
        if [ "${KEEP:-0}" = 1 ]; then echo "== kept $work"; else rm -rf "$work" || rc=1; fi
        exit $rc' EXIT
    cp -r "$REPO"/Makefile "$REPO"/*.control "$REPO"/sql "$REPO"/expected "$REPO"/test "$work"/
    # the checkout itself, for tests that read what is not copied (the docs, git's list of tracked files):
    # test/t/005_docs_links.pl
    export PG_UUIDX_REPO=$REPO
    # TMPDIR of the tests: PostgreSQL::Test::Utils makes the servers' unix socket directories there, so they go with
    # $work also when a test is killed before it can remove them; unless the socket paths would be too long (107
    # bytes: DIR/XXXXXXXXXX/.s.PGSQL.NNNNN)
    mkdir "$work/tmp"
    [ $((${#work} + 4 + 26)) -le 107 ] && test_tmp=$work/tmp || test_tmp=${TMPDIR:-/tmp}
    chown -R "$os_user" "$work"
    chmod 755 "$work"
}

# stop_servers - an immediate shutdown (SIGQUIT) of every postmaster still running on a data directory below $work
# (only a postmaster's command line has -D), then a wait until no process naming $work is left (at most 30 s; then
# SIGKILL).  pg_ctl starts the postmaster in a session of its own, so a Ctrl-C does not reach it, and a TAP test
# killed by one does not stop its servers; its END block may still be running pg_ctl stop.
stop_servers() {
    local dir pat p i
    dir="$(printf '%s' "$work" | sed 's/[][\\.*^$+?(){}|]/\\&/g')/"
    pat="-D $dir"
    for p in $(pgrep -f -- "$pat"); do
        case $(cat "/proc/$p/comm" 2>/dev/null) in postgres|postmaster) kill -QUIT "$p" 2>/dev/null ;; esac
    done
    # then wait for every process that names $work: the servers, and a pg_ctl stop or psql of a test that was
    # interrupted
    for i in $(seq 300); do
        pgrep -f -- "$dir" >/dev/null || return 0
        sleep 0.1
    done
    say "processes of $work still running after 30 s: killed"
    pkill -KILL -f -- "$dir"
    sleep 1
    ! pgrep -f -- "$dir" >/dev/null
}

# in_cluster [-c NAME=VALUE]... CMD... - CMD in $work against a throwaway cluster (test/cluster.pl), as the test
# servers' user
in_cluster() {
    (cd "$work" && as_user env TESTDIR="$work" PG_CONFIG="$PG_CONFIG" PG_REGRESS="$pgxs_src/test/regress/pg_regress" \
        perl -I "$pgxs_src/test/perl" test/cluster.pl "$@")
}
