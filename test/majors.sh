#!/usr/bin/env bash
# test/majors.sh [--build-only] [15] [17] [18] - run "make test" (test/run.sh)
# against several PostgreSQL majors (default: 15 17 18) and print one
# summary line per major; exit non-zero if any major fails.
#
#   15      Debian bookworm's packaged server (plain "bash test/run.sh")
#   17, 18  built from source: the upstream tarball of Debian's source
#           package postgresql-17 (trixie) or postgresql-18 (sid), fetched
#           with "apt-get source --download-only" through a private apt
#           configuration (own sources list, lists, cache and lock; the
#           system's /etc/apt is only read, never changed); configured with
#           OpenSSL (pg_cryptohash, pg_strong_random), e2fs uuid and TAP
#           tests (18 also with assertions), installed
#           with contrib uuid-ossp and pgstattuple plus pgTAP into
#           $CACHE/pg$MAJOR; a finished build is reused on later runs.
#
# Environment:
#   PG_UUIDX_MAJORS_CACHE  where sources, apt state and builds live; default
#       ${XDG_CACHE_HOME:-$HOME/.cache}/pg_uuidx/majors, or, when that is not
#       reachable by the "postgres" OS user that runs the test servers for
#       root (e.g. under /root), /var/cache/pg_uuidx/majors
#   PG_UUIDX_MIRROR        Debian mirror for the deb-src lines; default: the
#       one the system's apt sources use for the main Debian archive
#   MAKE_JOBS              parallel make jobs for the server builds (nproc)
#   --build-only           fetch and build only; run no tests
set -euo pipefail

cd "$(dirname "$0")/.."

build_only=no
majors=()
for arg in "$@"; do
    case "$arg" in
        --build-only) build_only=yes ;;
        15|17|18) majors+=("$arg") ;;
        *) echo "usage: $0 [--build-only] [15] [17] [18]" >&2; exit 2 ;;
    esac
done
[ ${#majors[@]} -gt 0 ] || majors=(15 17 18)

# Debian suite whose source package postgresql-$MAJOR is built from source.
suite_for() {
    case "$1" in
        17) echo trixie ;;
        18) echo sid ;;
        *) return 1 ;;
    esac
}

. "$(dirname "$0")/lib.sh"

# True when the OS user that run.sh starts servers as (postgres, when run
# as root) can reach path $1: every existing directory on the way must be
# searchable by it; without that user yet, by everyone.
server_user_can_read() {
    [ "$(id -u)" != 0 ] && return 0
    local d=$1
    while [ ! -e "$d" ]; do d=$(dirname "$d"); done
    if id postgres >/dev/null 2>&1; then
        runuser -u postgres -- test -r "$d" -a -x "$d"
    else
        while [ "$d" != / ]; do
            [ -n "$(find "$d" -maxdepth 0 -perm -o+x)" ] || return 1
            d=$(dirname "$d")
        done
    fi
}

if [ -n "${PG_UUIDX_MAJORS_CACHE:-}" ]; then
    CACHE=$PG_UUIDX_MAJORS_CACHE
    if ! server_user_can_read "$CACHE"; then
        echo "PG_UUIDX_MAJORS_CACHE=$CACHE is not readable by the postgres OS user that runs the test servers" >&2
        exit 1
    fi
else
    CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/pg_uuidx/majors
    if ! server_user_can_read "$CACHE"; then
        echo "== $CACHE is not readable by the postgres OS user; using /var/cache/pg_uuidx/majors"
        CACHE=/var/cache/pg_uuidx/majors
    fi
fi
mkdir -p "$CACHE"
CACHE=$(cd "$CACHE" && pwd)
MAKE_JOBS=${MAKE_JOBS:-$(nproc)}

# Debian packages needed to build a server, installed only when missing.
ensure_build_packages() {
    local want=(gcc make bison flex perl pkg-config libssl-dev libreadline-dev
                zlib1g-dev uuid-dev bzip2 xz-utils dpkg-dev ca-certificates
                postgresql-15-pgtap libipc-run-perl)
    install_missing "${want[@]}"
}

# Build PostgreSQL $1 from the upstream tarball inside Debian's source
# package into $CACHE/pg$1 unless that build is already there.  Called in a
# "||" list, where "set -e" does not apply: every step checks its status.
build_major() {
    local major=$1 suite prefix=$CACHE/pg$1 src=$CACHE/src/pg$1 log=$CACHE/build-pg$1.log
    suite=$(suite_for "$major")
    if [ -x "$prefix/bin/pg_config" ] && [ -f "$prefix/.pg_uuidx-build-ok" ]; then
        echo "== PG $major: cached build, $("$prefix/bin/pg_config" --version) in $prefix"
        return 0
    fi
    [ -n "${apt_opts+x}" ] || setup_apt "$CACHE/apt" || return 1
    rm -rf "$src" "$prefix" && mkdir -p "$src" || return 1
    echo "== PG $major: apt-get source --download-only postgresql-$major/$suite"
    (cd "$src" && apt-get -q "${apt_opts[@]}" source --download-only "postgresql-$major/$suite") || return 1
    local tarball tree start=$SECONDS
    tarball=$(find "$src" -maxdepth 1 -name "postgresql-${major}_*.orig.tar.*" ! -name '*.asc' | head -n 1)
    [ -n "$tarball" ] || { echo "no upstream tarball in $src" >&2; return 1; }
    echo "== PG $major: building $(basename "$tarball") into $prefix (log: $log)"
    tar -C "$src" -xf "$tarball" || return 1
    tree=$(find "$src" -mindepth 1 -maxdepth 1 -type d -name 'postgresql-*' | head -n 1)
    if ! (
        cd "$tree" &&
        ./configure --prefix="$prefix" --with-openssl --with-uuid=e2fs \
            --without-icu --without-llvm --with-readline --with-zlib \
            --enable-tap-tests $(extra_configure "$major") &&
        make -j"$MAKE_JOBS" &&
        make install &&
        make -C src/test/perl install &&
        make -C contrib/uuid-ossp install &&
        make -C contrib/pgstattuple install
    ) > "$log" 2>&1; then
        echo "PG $major: build failed; last lines of $log:" >&2
        tail -n 40 "$log" >&2
        return 1
    fi
    install_pgtap "$major" || return 1
    rm -rf "$tree"
    chmod -R a+rX "$prefix" || return 1
    echo "$(date -u +%FT%TZ) $(basename "$tarball") built in $((SECONDS - start))s" > "$prefix/.pg_uuidx-build-ok"
    echo "== PG $major: built $("$prefix/bin/pg_config" --version) in $((SECONDS - start))s"
}

# Major 18 is built with assertions (Assert, StaticAssertDecl in our code and
# in the server's) so that the suite runs once against a cassert build.
extra_configure() {
    [ "$1" = 18 ] && echo "--enable-cassert --enable-debug"
    return 0
}

# pgTAP is SQL only: Debian's bookworm package for 15 carries pgTAP 1.2.0,
# whose control file and scripts load on 17 and 18 as they are.
install_pgtap() {
    local major=$1 prefix=$CACHE/pg$1 from=/usr/share/postgresql/15/extension
    local to
    to=$("$prefix/bin/pg_config" --sharedir)/extension
    cp "$from"/pgtap.control "$from"/pgtap--*.sql "$to"/
}

ensure_build_packages
results=()
failed=0
for major in "${majors[@]}"; do
    if [ "$major" != 15 ]; then
        if ! build_major "$major"; then
            results+=("PG $major: BUILD FAILED")
            failed=1
            continue
        fi
    fi
    if [ "$major" = 15 ]; then
        built="$(/usr/lib/postgresql/15/bin/pg_config --version 2>/dev/null || echo 'PostgreSQL 15'), Debian package"
    else
        built="$("$CACHE/pg$major/bin/pg_config" --version), $(sed -n 's/.* \(built in [0-9]*s\)$/\1/p' "$CACHE/pg$major/.pg_uuidx-build-ok")"
    fi
    if [ "$build_only" = yes ]; then
        results+=("PG $major: $built")
        continue
    fi
    echo "== PG $major: test/run.sh"
    out=$CACHE/test-pg$major.out
    start=$SECONDS
    rc=0
    if [ "$major" = 15 ]; then
        bash test/run.sh 2>&1 | tee "$out" || rc=$?
    else
        PG_CONFIG=$CACHE/pg$major/bin/pg_config bash test/run.sh 2>&1 | tee "$out" || rc=$?
    fi
    summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$out" | tail -n 1 || true)
    [ $rc -ne 0 ] && failed=1
    results+=("PG $major: ${summary:-no summary} (exit $rc, tests $((SECONDS - start))s; $built)")
done

echo "== summary"
for r in "${results[@]}"; do echo "$r"; done
exit $failed
