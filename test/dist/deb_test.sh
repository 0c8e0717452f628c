#!/usr/bin/env bash
# test/dist/deb_test.sh - the Debian packages, from a fresh clone of the
# committed tree ("make deb-test"; not part of "make test"):
#   1. git clone of this checkout's HEAD into a temp dir; the upstream tarball
#      pg-uuidx_X.Y.Z.orig.tar.gz from it (everything but .git and debian/)
#   2. dpkg-buildpackage -us -uc: source package and
#      postgresql-<major>-pg-uuidx for every major pg_buildext can build here
#      (its build-time installcheck runs the suite on a pg_virtualenv cluster)
#   3. apt-get install ./postgresql-15-pg-uuidx_*.deb
#   4. a throwaway cluster of Debian's PostgreSQL 15: CREATE EXTENSION, the
#      library and scripts loaded are the package's, then pg_regress
#      (make installcheck) against the installed package
#   5. the autopkgtest (debian/tests/installcheck) against the installed package
#   6. apt-get purge of the package: the system is as it was
# The built files are copied to the source directory.  Refuses to run when
# pg_uuidx is already in PostgreSQL 15's directories (a "make install" or an
# installed package), which the test would overwrite and then remove.
# Needs root (or sudo).  Environment: PGPORT_TEST (default 54345; the
# pg_virtualenv clusters use PGPORT_TEST+1).  Last line: "deb: N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/../.."
. test/debian.sh
. test/dist/cluster.sh

major=15
pkg=postgresql-$major-pg-uuidx
bindir=/usr/lib/postgresql/$major/bin
port=${PGPORT_TEST:-54345}
src=$PWD

passed=0 failed=0 installed=no work=
step() {
    local what=$1; shift
    echo "== $what"
    if "$@"; then echo "ok: $what"; passed=$((passed + 1)); else echo "FAILED: $what"; failed=$((failed + 1)); return 1; fi
}
finish() {
    local rc=$?
    cluster_stop
    if [ "$installed" = yes ]; then
        echo "== removing $pkg"
        as_root env DEBIAN_FRONTEND=noninteractive apt-get purge -y -q -o DPkg::Lock::Timeout=300 "$pkg" >/dev/null || rc=1
        if [ -e /usr/lib/postgresql/$major/lib/pg_uuidx.so ] || [ -e /usr/share/postgresql/$major/extension/pg_uuidx.control ]; then
            echo "FAILED: pg_uuidx files left in PostgreSQL $major's directories"; failed=$((failed + 1))
        else
            echo "ok: $pkg removed, no pg_uuidx file left"; passed=$((passed + 1))
        fi
    fi
    [ -n "$work" ] && rm -rf "$work"
    echo "deb: $passed passed, $failed failed"
    [ "$failed" = 0 ] && exit $rc
    exit 1
}
trap finish EXIT

for f in /usr/lib/postgresql/$major/lib/pg_uuidx.so /usr/share/postgresql/$major/extension/pg_uuidx.control; do
    if [ -e "$f" ]; then
        echo "$f exists ($(dpkg -S "$f" 2>/dev/null || echo 'not from a package: make install')):" >&2
        echo "remove it first; this test installs $pkg and removes it again" >&2
        exit 2
    fi
done

install_missing git dpkg-dev debhelper fakeroot build-essential "postgresql-$major" "postgresql-server-dev-$major" postgresql-server-dev-all

work=$(mktemp -d "${TMPDIR:-/tmp}/pg_uuidx_deb.XXXXXX")
chmod 755 "$work"
git clone -q "$src" "$work/pg-uuidx"
cd "$work/pg-uuidx"
echo "== fresh clone of $(git rev-parse --short HEAD) in $work/pg-uuidx"
upstream=$(dpkg-parsechangelog -S Version)
upstream=${upstream%-*}
tar --exclude=.git --exclude=./debian -czf "../pg-uuidx_$upstream.orig.tar.gz" .

# pg_virtualenv (build-time tests, autopkgtest) takes its port from PGPORT
build() { PGPORT=$((port + 1)) dpkg-buildpackage -us -uc 2>&1 | tee ../build.log | grep -E '^(dpkg-|### |test |=+$| All | [0-9]+ of)' ; }
step "dpkg-buildpackage -us -uc (fresh clone)" build || exit 1
debs=$(cd .. && ls ./*.deb | tr "\n" " ")
echo "built: $(cd .. && ls ./*.dsc ./*.deb | tr '\n' ' ')"
cp ../*.deb ../*.dsc ../*.orig.tar.gz ../*.debian.tar.* ../*.buildinfo ../*.changes "$src/"
deb=../${pkg}_$(dpkg-parsechangelog -S Version)_$(dpkg-architecture -qDEB_HOST_ARCH).deb
contents_ok() {
    local list
    list=$(dpkg-deb -c "$deb")
    echo "$list" | grep -E 'pg_uuidx(\.so|\.control|--.*\.sql)$|copyright' | sed 's/.* \.\//   \//'
    dpkg-deb -f "$deb" Depends | sed 's/^/   Depends: /'
    for f in lib/postgresql/$major/lib/pg_uuidx.so share/postgresql/$major/extension/pg_uuidx.control \
             share/postgresql/$major/extension/pg_uuidx--1.2.sql share/postgresql/$major/extension/pg_uuidx--1.0.sql \
             share/doc/$pkg/copyright; do
        grep -q "\./usr/$f\$" <<<"$list" || { echo "   missing: /usr/$f"; return 1; }
    done
}
step "$(basename "$deb") holds the library, control file, scripts and copyright" contents_ok

install_deb() {
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o DPkg::Lock::Timeout=300 "$(realpath "$deb")" | tail -n 3
    installed=yes
    dpkg-query -W -f '   ${Package} ${Version} ${Status}\n' "$pkg" | grep 'install ok installed'
}
step "apt-get install ./$(basename "$deb")" install_deb || exit 1

cluster_start "$port"
extension_ok() {
    local got lib
    "$bindir/psql" -X -q -v ON_ERROR_STOP=1 -c 'CREATE EXTENSION pg_uuidx' || return 1
    got=$("$bindir/psql" -X -At -c "SELECT extversion || ' ' || uuid_extract_version(uuidv7()) FROM pg_extension WHERE extname = 'pg_uuidx'")
    echo "   extversion, version of a new uuidv7(): $got"
    # the library the server loads ($libdir/pg_uuidx) is the package's file
    lib=$("$bindir/pg_config" --pkglibdir)/pg_uuidx.so
    dpkg -S "$lib" | sed 's/^/   /' || return 1
    [ "$got" = "$(sed -n "s/^default_version *= *'\(.*\)'/\1/p" pg_uuidx.control) 7" ]
}
step "CREATE EXTENSION pg_uuidx on a throwaway PostgreSQL $major cluster" extension_ok
# nothing is built in the clone (pg_buildext cleaned it): pg_regress uses what the package installed
regress() {
    local rc=0
    [ ! -e pg_uuidx.so ] || { echo "   pg_uuidx.so in the clone: not a package test"; return 1; }
    make -s PG_CONFIG="$bindir/pg_config" installcheck >../regress.log 2>&1 || rc=1
    grep -E '^(test |=+$| All | [0-9]+ of)' ../regress.log
    return $rc
}
step "pg_regress (make installcheck) against the installed package" regress || { [ -f regression.diffs ] && head -n 60 regression.diffs; }
cluster_stop

autopkgtest() { PGPORT=$((port + 1)) debian/tests/installcheck 2>&1 | grep -E '^(### |test |=+$| All | [0-9]+ of)'; }
step "autopkgtest debian/tests/installcheck (pg_buildext installcheck)" autopkgtest
echo "== packages copied to $src: $debs"
