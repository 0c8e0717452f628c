#!/usr/bin/env bash
# test/majors.sh [--build-only] [15] [17] [18] - "make test" (test/run.sh)
# against several PostgreSQL majors (default: 15 17 18), one summary line
# per major; exits non-zero if any major fails.
#   15      Debian bookworm's packaged server
#   17, 18  the upstream tarball of Debian's source package postgresql-17
#           (trixie) or postgresql-18 (sid), fetched by test/debian.sh's
#           fetch_source (a private apt configuration; /etc/apt is only
#           read), configured with OpenSSL, e2fs uuid and TAP tests (18 also
#           with assertions: the suite runs once against a cassert build),
#           installed with contrib uuid-ossp and pgstattuple and pgTAP into
#           $CACHE/pg17, pg18; a finished build is reused
# Environment: PG_UUIDX_MAJORS_CACHE (default: /var/cache/pg_uuidx/majors as
# root, which the postgres OS user of the test servers can read, else
# ~/.cache/pg_uuidx/majors); PG_UUIDX_MIRROR (test/debian.sh); MAKE_JOBS.
# --build-only fetches and builds, and runs no tests.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

build_only=no majors=()
for arg; do
    case $arg in
        --build-only) build_only=yes ;;
        15|17|18) majors+=("$arg") ;;
        *) echo "usage: $0 [--build-only] [15] [17] [18]" >&2; exit 2 ;;
    esac
done
[ ${#majors[@]} -gt 0 ] || majors=(15 17 18)
[ "$(id -u)" = 0 ] && CACHE=/var/cache/pg_uuidx/majors || CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/pg_uuidx/majors
CACHE=${PG_UUIDX_MAJORS_CACHE:-$CACHE}
mkdir -p "$CACHE" && CACHE=$(cd "$CACHE" && pwd)

# build_major MAJOR - into $CACHE/pgMAJOR unless built there already
build_major() {
    local major=$1 prefix=$CACHE/pg$1 log=$CACHE/build-pg$1.log tree start=$SECONDS suite=sid
    [ "$major" = 17 ] && suite=trixie
    [ -f "$prefix/.pg_uuidx-build-ok" ] && return 0
    install_missing gcc make bison flex perl pkg-config libssl-dev libreadline-dev zlib1g-dev uuid-dev \
        bzip2 xz-utils dpkg-dev ca-certificates postgresql-15-pgtap libipc-run-perl
    setup_apt "$CACHE/apt" && rm -rf "$prefix" "$CACHE/src/pg$major" || return 1
    tree=$(fetch_source "postgresql-$major" "$suite" "$CACHE/src/pg$major") || return 1
    say "PG $major: building $(basename "$tree") into $prefix (log: $log)"
    if ! (cd "$tree" && ./configure --prefix="$prefix" --with-openssl --with-uuid=e2fs --without-icu \
            --without-llvm --with-readline --with-zlib --enable-tap-tests \
            $([ "$major" = 18 ] && echo --enable-cassert --enable-debug) &&
        make -j"${MAKE_JOBS:-$(nproc)}" && make install && make -C src/test/perl install &&
        make -C contrib/uuid-ossp install && make -C contrib/pgstattuple install) >"$log" 2>&1; then
        tail -n 40 "$log" >&2
        return 1
    fi
    # pgTAP is SQL only: bookworm's pgTAP 1.2.0 for 15 loads on 17 and 18 as it is
    cp /usr/share/postgresql/15/extension/pgtap.control /usr/share/postgresql/15/extension/pgtap--*.sql \
        "$("$prefix/bin/pg_config" --sharedir)/extension/" && rm -rf "$tree" && chmod -R a+rX "$prefix" || return 1
    echo "$(date -u +%FT%TZ) $(basename "$tree") built in $((SECONDS - start))s" >"$prefix/.pg_uuidx-build-ok"
}

results=() failed=0
for major in "${majors[@]}"; do
    if [ "$major" = 15 ]; then
        run=(env -u PG_CONFIG PG_MAJOR=15) built="Debian package"
    elif build_major "$major"; then
        run=(env PG_CONFIG="$CACHE/pg$major/bin/pg_config")
        built="$("$CACHE/pg$major/bin/pg_config" --version), $(sed 's/^[^ ]* //' "$CACHE/pg$major/.pg_uuidx-build-ok")"
    else
        results+=("PG $major: BUILD FAILED (log: $CACHE/build-pg$major.log)") failed=1
        continue
    fi
    [ "$build_only" = no ] || { results+=("PG $major: $built"); continue; }
    say "PG $major: test/run.sh"
    out=$CACHE/test-pg$major.out start=$SECONDS rc=0
    "${run[@]}" bash "$REPO/test/run.sh" 2>&1 | tee "$out" || rc=$? failed=1
    summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$out" | tail -n 1 || true)
    results+=("PG $major: ${summary:-no summary} (exit $rc, tests $((SECONDS - start))s; $built)")
done
say summary
printf '%s\n' "${results[@]}"
exit $failed
