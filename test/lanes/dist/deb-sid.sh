#!/usr/bin/env bash
# test/lanes/dist/deb-sid.sh [18] [19] - the Debian package
# postgresql-<major>-pg-uuidx for PostgreSQL 18 (sid) and 19 (experimental),
# built, installed, tested and purged in the Debian sid chroot of
# test/lanes/majors.sh (test/lanes/sid-chroot.sh, $CACHE/sid); default: both.
# What "make deb-test" does for bookworm's 15, for the majors bookworm has no
# packages of.  Root only; skips with a message when there is no chroot
# (bash test/lanes/majors.sh --build-only 19 sets it up) and refuses to start
# while another run uses it.  For each major, inside the chroot (sid_run: a
# mount and PID namespace of its own, every process killed when it ends):
#  - installs what is missing: build-essential, dpkg-dev, debhelper,
#    postgresql-server-dev-all (pg_buildext), postgresql-<major> and its
#    server-dev package (19 from experimental, by the chroot's apt pin; 18
#    from sid)
#  - unpacks HEAD's tracked files (git archive; uncommitted changes are not
#    in the package), makes the upstream tarball, runs
#    "pg_buildext updatecontrol" and dpkg-buildpackage -us -uc with
#    PG_SUPPORTED_VERSIONS=<major> (the package of that major alone; the
#    build runs the regression suite on a pg_virtualenv cluster)
#  - checks the package's files, apt-get install ./<package>.deb,
#    test/lanes/dist/installed.pl on a throwaway cluster run by the postgres
#    OS user (CREATE EXTENSION, the loaded library is the package's, every
#    version installs, pg_regress), the autopkgtest debian/tests/installcheck
#    (pg_buildext installcheck), apt-get purge, and that no file is left
# The build dependencies stay installed (the chroot is a cache); the package
# is purged, also when the run fails or is interrupted, and the run's temp
# dirs are removed.  The built binary packages are copied to the work tree.
# One summary line per major; exits non-zero when any fails.  Logs:
# $CACHE/deb-sid-<major>.out.  Environment: PG_UUIDX_MAJORS_CACHE (as for
# majors.sh).
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
set -euo pipefail

# ---- inside the chroot: deb-sid.sh --inside MAJOR SRC (SRC: HEAD's files) ----
inside() {
    local major=$1 src=$2 pkg=postgresql-$1-pg-uuidx ver b deb f scripts p fl
    local files=("/usr/lib/postgresql/$major/lib/pg_uuidx.so" "/usr/share/postgresql/$major/extension/pg_uuidx.control")
    export PG_MAJOR=$major PG_SUPPORTED_VERSIONS=$major
    . "$src/test/lib.sh"
    passed=0 failed=0 undo=()
    on_exit() {
        local u
        for u in "${undo[@]}"; do say "cleaning up: $u"; eval "$u" || failed=$((failed + 1)); done
        echo "$passed passed, $failed failed"
        [ "$failed" = 0 ]
    }
    check() {
        local what=$1; shift
        say "$what"
        if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); say "FAILED: $what"; exit 1; fi
    }
    for f in "${files[@]}"; do
        [ ! -e "$f" ] || { echo "$f exists ($(dpkg -S "$f" 2>/dev/null || echo 'make install')): remove it first" >&2; exit 2; }
    done
    need build-essential dpkg-dev debhelper postgresql-server-dev-all
    stage
    say "PostgreSQL $major: $(dpkg-query -W -f '${Package} ${Version}' "postgresql-$major"), pg_buildext of" \
        "$(dpkg-query -S /usr/bin/pg_buildext | cut -d: -f1) $(dpkg-query -W -f '${Version}' postgresql-common)"
    ver=$(cd "$src" && dpkg-parsechangelog -S Version)
    b=$(dirname "$src")/build-$major/pg-uuidx-${ver%-*}
    rm -rf "$(dirname "$b")" && mkdir -p "$b" && cp -a "$src/." "$b/"
    (cd "$b" && tar --exclude=./debian -czf "../pg-uuidx_${ver%-*}.orig.tar.gz" .)
    check "pg_buildext updatecontrol (PG_SUPPORTED_VERSIONS=$major): debian/control has $pkg alone" bash -c "
        cd '$b' && pg_buildext updatecontrol && grep '^Package:' debian/control &&
        grep -qx 'Package: $pkg' debian/control && [ \$(grep -c '^Package:' debian/control) = 1 ]"
    check "dpkg-buildpackage -us -uc (HEAD's files)" bash -c "cd '$b' && dpkg-buildpackage -us -uc >../build.log 2>&1 ||
        { tail -n 40 ../build.log; exit 1; }; grep -E '^(### |test |=+\$| All | [0-9]+ of|# (All|[0-9]+ of))' ../build.log"
    deb=$(dirname "$b")/${pkg}_${ver}_$(dpkg-architecture -qDEB_HOST_ARCH).deb
    scripts=$(cd "$src" && for f in pg_uuidx--*.sql; do echo "/usr/share/postgresql/$major/extension/$f"; done | xargs)
    check "$(basename "$deb") holds the library, control file, scripts and copyright" bash -c "
        dpkg-deb -c '$deb' | sed 's/.* \.\//   \//' | grep -E 'pg_uuidx(\.so|\.control|--.*\.sql)\$|copyright\$' | tee '$work/contents'
        for f in ${files[*]} $scripts /usr/share/doc/$pkg/copyright; do
            grep -qx \"   \$f\" '$work/contents' || { echo \"   missing: \$f\"; exit 1; }; done"
    undo+=("apt-get purge -y -q $pkg >/dev/null")
    check "apt-get install ./$(basename "$deb")" bash -c "cd '$(dirname "$deb")' &&
        apt-get install -y -q -o DPkg::Lock::Timeout=300 './$(basename "$deb")'"
    # as test/run.sh's tap: make prove_installcheck in $work as the postgres OS user
    say "test/lanes/dist/installed.pl as $os_user against the installed $pkg"
    cd "$work"
    PG_UUIDX_INSTALLED=deb PG_UUIDX_SOURCE=$src as_user make -s prove_installcheck PG_CONFIG="$PG_CONFIG" \
        PROVE_TESTS=test/lanes/dist/installed.pl 2>&1 | tee "$work/installed.tap" || true
    p=$(sed -n 's/.*Tests=\([0-9]*\).*/\1/p' installed.tap | tail -n 1)
    fl=$(sed -n 's/.*Failed \([0-9]*\)\/[0-9]* subtests.*/\1/p' installed.tap | tail -n 1)
    fl=${fl:-0}
    passed=$((passed + ${p:-0} - fl)) failed=$((failed + fl))
    grep -q '^Result: PASS' installed.tap ||
        { [ "$fl" -gt 0 ] || failed=$((failed + 1)); tail -n 40 tmp_check/log/regress_log_installed 2>/dev/null; exit 1; }
    cd /
    check "autopkgtest debian/tests/installcheck (pg_buildext installcheck)" bash -c "cd '$b' && debian/tests/installcheck"
    undo=()
    check "apt-get purge $pkg" apt-get purge -y -q "$pkg"
    check "no pg_uuidx file left in PostgreSQL $major's directories, $pkg not installed" bash -c "
        ! ls ${files[*]} $scripts 2>/dev/null && ! dpkg-query -W -f '\${Status}\n' $pkg 2>/dev/null | grep -q ' installed\$'"
}

if [ "${1:-}" = --inside ]; then
    inside "${2:?}" "${3:?}"
    exit
fi

# ---- on the host ----
majors=()
for arg; do
    case $arg in
        18|19) majors+=("$arg") ;;
        *) echo "usage: $0 [18] [19]" >&2; exit 2 ;;
    esac
done
[ ${#majors[@]} -gt 0 ] || majors=(18 19)
if [ "$(id -u)" != 0 ]; then
    echo "== deb-sid: SKIPPED: the sid chroot needs root"
    exit 0
fi
CACHE=${PG_UUIDX_MAJORS_CACHE:-/var/cache/pg_uuidx/majors}
dir=$CACHE/sid
if [ ! -f "$dir/.pg_uuidx-chroot-ok" ]; then
    echo "== deb-sid: SKIPPED: no sid chroot in $dir (set it up with: bash test/lanes/majors.sh --build-only 19)"
    exit 0
fi
. "$(dirname "$0")/../../lib.sh"
. "$REPO/test/lanes/sid-chroot.sh"
dir=$(realpath "$dir")
if sid_busy "$dir"; then
    echo "== deb-sid: processes run chrooted into $dir (another lane run?): not touching it" >&2
    exit 1
fi
if sid_mounted "$dir"; then
    echo "== deb-sid: something is mounted below $dir (findmnt): unmount it first" >&2
    exit 1
fi
git -C "$REPO" diff --quiet HEAD -- || say "warning: uncommitted changes are not in the packages (HEAD's files are)"

tmp=$(mktemp -d "$dir/tmp/deb-sid.XXXXXX")
in_chroot=/tmp/${tmp##*/}
# Ctrl-C: the chrooted run purges the package and stops its servers first
# (bash runs a trap once the foreground command is done), then the temp dir
# goes; and the mounts must be gone (sid_run)
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'rc=$?; trap "" INT TERM
    rm -rf "$tmp" || rc=1
    ! sid_mounted "$dir" || { echo "== still mounted below $dir (findmnt)" >&2; rc=1; }
    exit $rc' EXIT
chmod 755 "$tmp"
mkdir "$tmp/src"
git -C "$REPO" archive HEAD | tar -x -C "$tmp/src"
cp "$REPO/test/lanes/dist/deb-sid.sh" "$tmp/deb-sid.sh"
say "deb-sid: $(git -C "$REPO" rev-parse --short HEAD) in $dir$in_chroot/src (git archive HEAD)"

# from here a Ctrl-C (or SIGTERM) ends the run after the chrooted one cleaned
# up, with the summary of what ran
results=() failed=0 interrupted=
trap 'interrupted=130' INT
trap 'interrupted=143' TERM
for major in "${majors[@]}"; do
    out=$CACHE/deb-sid-$major.out start=$SECONDS rc=0
    say "deb-sid $major: in the sid chroot (log: $out)"
    # tee outlives a Ctrl-C, so that the chrooted run's cleanup still has somewhere to go
    sid_run "$dir" bash "$in_chroot/deb-sid.sh" --inside "$major" "$in_chroot/src" 2>&1 |
        (trap '' INT; exec tee "$out") || rc=$?
    summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$out" | tail -n 1 || true)
    built=$(cd "$tmp/build-$major" 2>/dev/null && ls postgresql-"$major"-pg-uuidx_*.deb 2>/dev/null || true)
    [ -z "$built" ] || cp "$tmp/build-$major/$built" "$REPO/"
    server=$(sed -n 's/^== PostgreSQL [0-9]*: \(postgresql-[0-9]* [^,]*\),.*/\1/p' "$out" | head -n 1)
    [ "$rc" = 0 ] || failed=1
    results+=("deb-sid $major: ${summary:-no summary} (exit $rc, $((SECONDS - start))s; ${built:-no package built}; ${server:-?})")
    [ -z "$interrupted" ] && [ "$rc" -lt 128 ] || { results+=("interrupted: no further major"); break; }
done
say summary
printf '%s\n' "${results[@]}"
exit "${interrupted:-$failed}"
