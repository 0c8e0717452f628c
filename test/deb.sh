#!/usr/bin/env bash
# test/deb.sh - "make deb-test": build the Debian package from a fresh clone
# of this checkout's HEAD (dpkg-buildpackage, pg_buildext: one binary
# package per installed postgresql-server-dev-NN allowed by
# debian/pgversions), install it with apt-get, run the regression suite
# against the installed package on throwaway clusters (pg_buildext
# installcheck, which uses pg_virtualenv), and remove the package again.
# Uncommitted changes are not packaged.
set -euo pipefail
cd "$(dirname "$0")/.."
. test/debian.sh

install_missing debhelper dpkg-dev fakeroot postgresql-server-dev-all postgresql-common postgresql-contrib
work=$(mktemp -d "${TMPDIR:-/tmp}/pg_uuidx-deb.XXXXXX")
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT

git clone -q . "$work/pg-uuidx"
echo "== dpkg-buildpackage -us -uc -b ($(git -C "$work/pg-uuidx" log -1 --format=%h))"
if ! (cd "$work/pg-uuidx" && dpkg-buildpackage -us -uc -b) > "$work/build.log" 2>&1; then
    tail -n 40 "$work/build.log" >&2
    exit 1
fi
mapfile -t debs < <(find "$work" -maxdepth 1 -name 'postgresql-*-pg-uuidx_*.deb' | sort)
[ ${#debs[@]} -gt 0 ] || { echo "no package was built" >&2; exit 1; }
packages=()
for deb in "${debs[@]}"; do
    echo "== built $(basename "$deb"): $(dpkg-deb -c "$deb" | grep -c 'pg_uuidx') pg_uuidx files"
    packages+=("$(dpkg-deb -f "$deb" Package)")
done

trap 'as_root apt-get remove -y -q "${packages[@]}" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${debs[@]}" >/dev/null
for p in "${packages[@]}"; do
    echo "== installed $p $(dpkg-query -W -f '${Version}' "$p")"
done

# installcheck runs the suite as an unprivileged user on a throwaway cluster
chown -R postgres "$work/pg-uuidx"
echo "== pg_buildext installcheck (against the installed package)"
(cd "$work/pg-uuidx" && runuser -u postgres -- pg_buildext installcheck) 2>&1 | tee "$work/check.log"
grep -qE '^(# )?All [0-9]+ tests passed|^# All [0-9]+ tests passed|tests passed' "$work/check.log"
