#!/usr/bin/env bash
# test/packages.sh - "make package-test", from a fresh clone of this
# checkout's HEAD (uncommitted changes are not packaged):
#   PGXN    "make dist" writes pg_uuidx-X.Y.0.zip; pgxnclient installs it
#           into Debian's PostgreSQL 15, CREATE EXTENSION on a throwaway
#           cluster (pg_virtualenv) must report the version META.json gives;
#           then "pgxn uninstall"
#   Debian  dpkg-buildpackage (pg_buildext: one binary package per installed
#           postgresql-server-dev-NN allowed by debian/pgversions), apt-get
#           install of the .deb, the regression suite against the installed
#           package (pg_buildext installcheck, throwaway clusters), then
#           apt-get remove
# Runs as root (or with sudo); the servers run as the postgres OS user.
set -euo pipefail
cd "$(dirname "$0")/.."
. test/debian.sh

install_missing debhelper dpkg-dev fakeroot postgresql-server-dev-all postgresql-common postgresql-contrib \
    postgresql-15 postgresql-server-dev-15 pgxnclient unzip git
work=$(mktemp -d "${TMPDIR:-/tmp}/pg_uuidx-deb.XXXXXX")
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT

git clone -q . "$work/pg-uuidx"
chmod -R a+rX "$work"

echo "== make dist"
version=$(sed -n 's/^    "version": "\(.*\)",$/\1/p' "$work/pg-uuidx/META.json")
make -s -C "$work/pg-uuidx" dist
zip=$work/pg-uuidx/pg_uuidx-$version.zip
unzip -l "$zip" | grep -q " pg_uuidx-$version/META.json$" || { echo "$zip has no pg_uuidx-$version/META.json" >&2; exit 1; }
echo "== pgxn install $(basename "$zip")"
pg_config15=/usr/lib/postgresql/15/bin/pg_config
(cd "$work" && as_root pgxn install --pg_config "$pg_config15" "$zip") > "$work/pgxn.log" 2>&1 ||
    { tail -n 30 "$work/pgxn.log" >&2; exit 1; }
got=$(cd "$work" && runuser -u postgres -- pg_virtualenv -v 15 \
    psql -XAtq -c 'CREATE EXTENSION pg_uuidx' -c 'SELECT extversion, uuid_extract_version(uuidv7()) FROM pg_extension WHERE extname = $$pg_uuidx$$')
echo "== PGXN install: CREATE EXTENSION gives version|uuidv7 version = $got"
(cd "$work" && as_root pgxn uninstall --pg_config "$pg_config15" "$zip") > "$work/pgxn.log" 2>&1 ||
    { tail -n 30 "$work/pgxn.log" >&2; exit 1; }
[ "$got" = "${version%.0}|7" ] || { echo "expected ${version%.0}|7" >&2; exit 1; }
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
grep -qE 'All [0-9]+ tests passed' "$work/check.log"
