# test/debian.sh - sourced by test/lib.sh: running as root (or through sudo),
# installing Debian packages, and source packages of other suites through a
# private apt setup.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# install_missing PACKAGE... - apt-get install those not installed yet
install_missing() {
    local missing=() p
    for p in "$@"; do
        dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "== installing: ${missing[*]}"
        as_root apt-get update -q
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
    fi
}

# setup_apt DIR - a private apt configuration in DIR: only deb-src lines for
# trixie and sid on the system's mirror, with its own lists, cache and lock
# (the system's /etc/apt is only read).  Sets apt_opts.
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

# fetch_source PACKAGE SUITE DIR - the upstream tarball of a Debian source
# package through setup_apt's configuration (call setup_apt first), unpacked
# in DIR unless a tree is there already; prints the tree.  Only the upstream
# tarball is used: a .dsc or debian tarball missing on the mirror (it
# happens for sid) does not matter.
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
