# test/debian.sh - sourced by test/lib.sh: running as root (or through sudo), installing Debian packages, and source
# packages of other suites through a private apt setup.
# shellcheck shell=bash
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# install_missing PACKAGE... - apt-get install those not installed yet; an install that upgrades a server package
# under a running cluster is reported (note_server_upgrades)
install_missing() {
    local missing=() p before
    for p in "$@"; do
        dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        before=$(server_package_versions)
        echo "== installing: ${missing[*]}"
        as_root apt-get update -q
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
        note_server_upgrades "$before" "$(server_package_versions)"
    fi
}

# server_package_versions - "postgresql-<major> <version>" for each server package installed
server_package_versions() {
    dpkg-query -W -f '${Package} ${Version} ${db:Status-Abbrev}\n' 'postgresql-[0-9]*' 2>/dev/null |
        awk '$1 ~ /^postgresql-[0-9]+$/ && $3 == "ii" { print $1, $2 }' || true
}

# note_server_upgrades BEFORE AFTER - server_package_versions before and after an install.  A server package that
# changed version (installing the dev headers can pull a newer postgresql-<major>) leaves a cluster of that major
# that was running on the old binaries: it fails to load libraries (plpgsql, ...) until restarted.  Say so, with the
# restart command of each such cluster; the note is kept in server_upgrade_note for the end of the run.
note_server_upgrades() {
    local pkg old new major cmds msg=""
    while read -r pkg old; do
        new=$(awk -v p="$pkg" '$1 == p { print $2 }' <<<"$2")
        [ -n "$pkg" ] && [ -n "$new" ] && [ "$new" != "$old" ] || continue
        major=${pkg#postgresql-}
        if ! command -v pg_lsclusters >/dev/null; then
            msg+="== warning: $pkg was upgraded ($old -> $new): restart every running server of PostgreSQL $major"
            msg+=$'\n'"   (pg_lsclusters is not there to list them)"$'\n'
            continue
        fi
        # pg_lsclusters: Ver Cluster Port Status Owner Data-directory Log-file
        cmds=$(pg_lsclusters --no-header 2>/dev/null |
            awk -v m="$major" '$1 == m && $4 ~ /^online/ { print "       pg_ctlcluster " $1 " " $2 " restart" }' || true)
        [ -n "$cmds" ] || continue
        msg+="== warning: $pkg was upgraded ($old -> $new) while clusters of PostgreSQL $major were running: they"
        msg+=$'\n'"   still run the old binaries and can fail to load libraries (plpgsql, ...) until restarted:"
        msg+=$'\n'"$cmds"$'\n'
    done <<<"$1"
    [ -n "$msg" ] || return 0
    printf '%s' "$msg" >&2
    server_upgrade_note+=$msg
}

# setup_apt DIR - a private apt configuration in DIR: only deb-src lines for trixie and sid on the system's mirror,
# with its own lists, cache and lock (the system's /etc/apt is only read).  Sets apt_opts.
setup_apt() {
    local aptdir=$1 mirror=${PG_UUIDX_MIRROR:-} keyring=/usr/share/keyrings/debian-archive-keyring.gpg
    # default: the mirror the system's apt sources use for this release
    [ -n "$mirror" ] || mirror=$(apt-get indextargets --format '$(REPO_URI)' "Origin: Debian" \
        "Codename: $(. /etc/os-release && echo "$VERSION_CODENAME")" | head -n 1)
    [ -n "$mirror" ] || { echo "no Debian mirror found in /etc/apt; set PG_UUIDX_MIRROR" >&2; return 1; }
    mkdir -p "$aptdir/lists/partial" "$aptdir/cache/archives/partial" "$aptdir/sources.list.d"
    local opt=""
    [ -f "$keyring" ] && opt="[signed-by=$keyring] "
    {
        echo "# written by test/debian.sh's setup_apt; used only through private apt options"
        echo "deb-src ${opt}${mirror} trixie main"
        echo "deb-src ${opt}${mirror} sid main"
    } > "$aptdir/sources.list"
    apt_opts=(
        -o "Dir::Etc::SourceList=$aptdir/sources.list"
        -o "Dir::Etc::SourceParts=$aptdir/sources.list.d"
        -o "Dir::State::Lists=$aptdir/lists"
        -o "Dir::Cache=$aptdir/cache"
        -o "Dir::Cache::archives=$aptdir/cache/archives"
        -o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache="
        -o "APT::Sandbox::User=root"
    )
    # refresh the source indexes at most once a day
    local stamp=$aptdir/lists/.updated
    if [ -z "$(find "$stamp" -mmin -1440 2>/dev/null)" ]; then
        echo "== apt-get update (private config: deb-src $mirror trixie sid)"
        apt-get -q "${apt_opts[@]}" update || return 1
        touch "$stamp"
    fi
}

# fetch_source PACKAGE SUITE DIR - the upstream tarball of a Debian source package through setup_apt's configuration
# (call setup_apt first), unpacked in DIR unless a tree is there already; prints the tree.  Only the upstream
# tarball is used: a .dsc or debian tarball missing on the mirror (it happens for sid) does not matter.
fetch_source() {
    local pkg=$1 suite=$2 dir=$3 tarball
    if [ -z "$(find "$dir" -mindepth 1 -maxdepth 1 -type d 2>/dev/null)" ]; then
        rm -rf "$dir" && mkdir -p "$dir" || return 1
        echo "== apt-get source --download-only $pkg/$suite" >&2
        (cd "$dir" && apt-get -q "${apt_opts[@]}" source --download-only "$pkg/$suite") >&2 || true
        tarball=$(find "$dir" -maxdepth 1 -name "${pkg}_*.orig.tar.*" ! -name '*.asc' | head -n 1)
        [ -n "$tarball" ] || { echo "no upstream tarball of $pkg from $suite" >&2; return 1; }
        tar -C "$dir" -xf "$tarball" || return 1
    fi
    find "$dir" -mindepth 1 -maxdepth 1 -type d | head -n 1
}
