#!/usr/bin/env bash
# test/lanes/majors.sh [--build-only] [LANE...] - "make test" (test/run.sh) against
# several PostgreSQL builds (default lanes: 15 17 18 18-nossl 19), one
# summary line per lane; exits non-zero if any lane fails.
#   15        Debian bookworm's packaged server
#   17, 18    built with OpenSSL, e2fs uuid and TAP tests (18 also with
#             assertions) into $CACHE/pg17, pg18
#   18-nossl  PostgreSQL 18 built --without-openssl with assertions into
#             $CACHE/pg18-nossl: core's own MD5/SHA code and its memory
#             handling, which differ from the OpenSSL ones
#   19        Debian's postgresql-19 from experimental, in a Debian sid
#             chroot in $CACHE/sid (test/lanes/sid-chroot.sh: bookworm
#             cannot run those binaries, and the mirror has no source of
#             them); the suite runs inside the chroot on a copy of the work
#             tree's tracked files as they are now.  With PG19_SOURCE: built
#             like 18 into $CACHE/pg19 instead
# The source of major N is PGN_SOURCE when set: a release tarball, an
# unpacked tree, or a git checkout or bare repository (PGN_REF picks the
# commit, default HEAD); else the upstream tarball of Debian's source package
# postgresql-N (17: trixie, 18: sid), fetched by test/debian.sh's
# fetch_source (a private apt configuration; /etc/apt is only read).  Each
# build gets contrib uuid-ossp and pgstattuple and pgTAP, and a stamp that
# names its source; a finished build is reused unless PGN_SOURCE names
# another source.
# Environment: PG_UUIDX_MAJORS_CACHE (default: /var/cache/pg_uuidx/majors as
# root, which the postgres OS user of the test servers can read, else
# ~/.cache/pg_uuidx/majors); PG_UUIDX_MIRROR (test/debian.sh); MAKE_JOBS.
# --build-only gets the sources and builds (or sets up the chroot), and
# runs no tests.  FAULTS, MEMCHECK, MEMCHECK_STRICT, PROVE_TESTS, KEEP and
# PG_CFLAGS reach test/run.sh in the chroot too.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
. "$REPO/test/lanes/sid-chroot.sh"

build_only=no lanes=()
for arg; do
    case $arg in
        --build-only) build_only=yes ;;
        15|17|18|18-nossl|19) lanes+=("$arg") ;;
        *) echo "usage: $0 [--build-only] [15] [17] [18] [18-nossl] [19]" >&2; exit 2 ;;
    esac
done
[ ${#lanes[@]} -gt 0 ] || lanes=(15 17 18 18-nossl 19)
[ "$(id -u)" = 0 ] && CACHE=/var/cache/pg_uuidx/majors || CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/pg_uuidx/majors
CACHE=${PG_UUIDX_MAJORS_CACHE:-$CACHE}
mkdir -p "$CACHE" && CACHE=$(cd "$CACHE" && pwd)

# get_source MAJOR DIR - a PostgreSQL MAJOR source tree unpacked in DIR, from
# PGMAJOR_SOURCE or else Debian's source package; sets tree and src_desc (what
# it came from, for the stamp and the summary); returns 2 when there is
# no source
get_source() {
    local major=$1 dir=$2 var=PG$1_SOURCE ref_var=PG$1_REF suite=sid given ref commit version
    given=${!var:-} ref=${!ref_var:-HEAD}
    rm -rf "$dir" && mkdir -p "$dir" || return 1
    if [ -z "$given" ]; then
        [ "$major" = 17 ] && suite=trixie
        setup_apt "$CACHE/apt" || return 1
        if ! tree=$(fetch_source "postgresql-$major" "$suite" "$dir"); then
            cat >&2 <<MSG
== PG $major: no source.  Debian's postgresql-$major ($suite) has no upstream
   tarball on the mirror.  Give one in $var, any of:
     $var=/path/to/postgresql-$major.N.tar.bz2   a release tarball (postgresql.org/ftp/source)
     $var=/path/to/postgresql-$major.N           an unpacked release tree
     $var=/path/to/postgres $ref_var=REL_${major}_N   a git checkout or bare clone of
                                                postgres/postgres and a tag (default HEAD)
MSG
            return 2
        fi
        src_desc="Debian source package postgresql-$major/$suite: $(basename "$(find "$dir" -maxdepth 1 \
            -name "postgresql-${major}_*.orig.tar.*" ! -name '*.asc' | head -n 1)")"
    elif [ -f "$given" ]; then
        tar -C "$dir" -xf "$given" || return 1
        tree=$(find "$dir" -mindepth 1 -maxdepth 1 -type d | head -n 1)
        src_desc="$var tarball $(realpath "$given") (sha256 $(sha256sum "$given" | cut -c1-16)...)"
    elif [ -d "$given" ] && git -C "$given" rev-parse --git-dir >/dev/null 2>&1 &&
        [ "$(git -C "$given" rev-parse --show-prefix 2>/dev/null)" = "" ]; then
        commit=$(git -C "$given" rev-parse --verify -q "$ref^{commit}") ||
            { echo "$var=$given has no commit $ref ($ref_var)" >&2; return 1; }
        tree=$dir/postgresql && mkdir "$tree" && git -C "$given" archive "$commit" | tar -C "$tree" -x || return 1
        src_desc="$var git $(realpath "$given") $ref = $(git -C "$given" describe --tags --always "$commit") ($commit)"
    elif [ -f "$given/configure" ]; then
        tree=$dir/postgresql && mkdir "$tree" && (cd "$given" && tar -c --exclude=.git .) | tar -C "$tree" -x || return 1
        src_desc="$var tree $(realpath "$given")"
    else
        echo "$var=$given is not a tarball, a PostgreSQL source tree or a git repository" >&2
        return 1
    fi
    version=$(sed -n "s/^PACKAGE_VERSION='\(.*\)'\$/\1/p" "$tree/configure" 2>/dev/null)
    [ "${version%%[.a-z]*}" = "$major" ] ||
        { echo "${given:-the Debian source} is PostgreSQL ${version:-?}, not $major" >&2; return 1; }
}

# build_lane LANE - into $CACHE/pgLANE unless built there already from the
# same source; returns 2 when there is no source
build_lane() {
    local lane=$1 major=${1%%-*} prefix=$CACHE/pg$1 log=$CACHE/build-pg$1.log start=$SECONDS var=PG${1%%-*}_SOURCE
    local flags=(--with-uuid=e2fs --without-icu --without-llvm --with-readline --with-zlib --enable-tap-tests)
    case $lane in
        17) flags+=(--with-openssl) ;;
        18|19) flags+=(--with-openssl --enable-cassert --enable-debug) ;;
        18-nossl) flags+=(--without-openssl --enable-cassert --enable-debug) ;;
    esac
    if [ -f "$prefix/.pg_uuidx-build-ok" ]; then
        [ -z "${!var:-}" ] || [ "$(cat "$prefix/.pg_uuidx-source" 2>/dev/null)" = "$(realpath -m "${!var}")" ] && return 0
        say "PG $lane: $var differs from the source of the build in $prefix: building again"
    fi
    install_missing gcc make bison flex perl pkg-config libssl-dev libreadline-dev zlib1g-dev uuid-dev \
        bzip2 xz-utils dpkg-dev ca-certificates git postgresql-15-pgtap libipc-run-perl
    get_source "$major" "$CACHE/src/pg$lane" || return
    rm -rf "$prefix" || return 1
    say "PG $lane: building $src_desc into $prefix (${flags[*]}; log: $log)"
    if ! (cd "$tree" && ./configure --prefix="$prefix" "${flags[@]}" &&
        make -j"${MAKE_JOBS:-$(nproc)}" && make install && make -C src/test/perl install &&
        make -C contrib/uuid-ossp install && make -C contrib/pgstattuple install) >"$log" 2>&1; then
        tail -n 40 "$log" >&2
        return 1
    fi
    # pgTAP is SQL only: bookworm's pgTAP 1.2.0 for 15 loads on 17 and 18 as it is
    cp /usr/share/postgresql/15/extension/pgtap.control /usr/share/postgresql/15/extension/pgtap--*.sql \
        "$("$prefix/bin/pg_config" --sharedir)/extension/" && rm -rf "$tree" && chmod -R a+rX "$prefix" || return 1
    if [ -n "${!var:-}" ]; then realpath -m "${!var}" >"$prefix/.pg_uuidx-source"; fi
    echo "$(date -u +%FT%TZ) from $src_desc, ${flags[*]}, built in $((SECONDS - start))s" >"$prefix/.pg_uuidx-build-ok"
}

# sid_lane MAJOR - the chroot's server of MAJOR (sid_setup), and in run
# test/run.sh inside the chroot on a fresh copy of the work tree
sid_lane() {
    local dir=$CACHE/sid start=$SECONDS v
    sid_setup "$dir" "$1" || return 1
    say "PG $1: sid chroot $dir ready in $((SECONDS - start))s: $(cat "$dir/.pg_uuidx-chroot-ok")"
    # what an interrupted or KEEP=1 run left in the chroot's /tmp (sid_setup
    # made sure that no other run is using the chroot)
    rm -rf "$dir"/tmp/pg_uuidx.* && sid_tree "$REPO" "$dir/build/pg_uuidx" || return 1
    run=(sid_run "$dir" env PG_MAJOR="$1")
    for v in FAULTS MEMCHECK MEMCHECK_STRICT PROVE_TESTS KEEP PG_CFLAGS; do
        [ -z "${!v+set}" ] || run+=("$v=${!v}")
    done
    run+=(bash /build/pg_uuidx/test/run.sh)
    built="Debian sid chroot, $(cut -d' ' -f2- "$dir/.pg_uuidx-chroot-ok")"
}

results=() failed=0
for lane in "${lanes[@]}"; do
    rc=0
    if [ "$lane" = 15 ]; then
        run=(env -u PG_CONFIG PG_MAJOR=15) built="Debian package"
    elif [ "$lane" = 19 ] && [ -z "${PG19_SOURCE:-}" ]; then
        if ! sid_lane 19; then
            results+=("PG 19: NO SID CHROOT: its setup failed (see above; logs: $CACHE/sid.*.log)") failed=1
            continue
        fi
    elif build_lane "$lane" || rc=$?; [ "$rc" = 0 ]; then
        run=(env PG_CONFIG="$CACHE/pg$lane/bin/pg_config")
        built="$("$CACHE/pg$lane/bin/pg_config" --version) $(sed 's/^[^ ]* //' "$CACHE/pg$lane/.pg_uuidx-build-ok")"
    elif [ "$rc" = 2 ]; then
        results+=("PG $lane: NO SOURCE: set PG${lane%%-*}_SOURCE to a tarball, tree or git checkout (see above)") failed=1
        continue
    else
        results+=("PG $lane: BUILD FAILED (log: $CACHE/build-pg$lane.log)") failed=1
        continue
    fi
    [ "$build_only" = no ] || { results+=("PG $lane: $built"); continue; }
    say "PG $lane: test/run.sh"
    out=$CACHE/test-pg$lane.out start=$SECONDS rc=0
    if [ "${run[0]}" = sid_run ]; then
        # tee outlives a Ctrl-C, so that the runner's cleanup and summary
        # still have somewhere to go
        "${run[@]}" 2>&1 | (trap '' INT; exec tee "$out") || rc=$? failed=1
        ! sid_mounted "$CACHE/sid" || { echo "== still mounted below $CACHE/sid (findmnt)" >&2; rc=1 failed=1; }
    else
        "${run[@]}" bash "$REPO/test/run.sh" 2>&1 | tee "$out" || rc=$? failed=1
    fi
    summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$out" | tail -n 1 || true)
    results+=("PG $lane: ${summary:-no summary} (exit $rc, tests $((SECONDS - start))s; $built)")
    [ "$rc" -lt 128 ] || { results+=("interrupted: no further lane run"); break; }
done
say summary
printf '%s\n' "${results[@]}"
exit $failed
