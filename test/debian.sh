# test/debian.sh - sourced by the test, benchmark, majors and ecosystem
# scripts: running as root (or through sudo), installing Debian packages, and
# fetching source packages of other suites through a private apt setup.

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

# The mirror (URI) and keyring the system's apt sources use for the main
# Debian archive: the entry whose suite is this release's codename.  Reads
# both one-line (*.list) and deb822 (*.sources) files.  Prints "URI KEYRING".
system_mirror() {
    local codename
    codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
    local f
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -f "$f" ] || continue
        awk -v suite="$codename" '
            /^[ \t]*deb(-src)?[ \t]/ {
                keyring = "-"; i = 2
                if ($2 ~ /^\[/) {
                    for (; i <= NF; i++) {
                        if ($i ~ /^\[?signed-by=/) { keyring = $i; sub(/^\[?signed-by=/, "", keyring); sub(/\]$/, "", keyring) }
                        if ($i ~ /\]$/) { i++; break }
                    }
                }
                if ($(i + 1) == suite) { print $i, keyring; exit }
            }' "$f"
    done
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        # deb822: paragraphs separated by blank lines
        awk -v suite="$codename" '
            function flush() {
                if (uris != "" && enabled != "no" && (" " suites " ") ~ (" " suite " ")) {
                    split(uris, u, " "); print u[1], (keyring == "" ? "-" : keyring); found = 1
                }
                uris = suites = keyring = enabled = ""
            }
            /^[ \t]*$/ { flush(); if (found) exit; next }
            /^#/ { next }
            tolower($1) == "uris:" { $1 = ""; uris = $0; sub(/^ +/, "", uris) }
            tolower($1) == "suites:" { $1 = ""; suites = $0; sub(/^ +/, "", suites) }
            tolower($1) == "signed-by:" { keyring = $2 }
            tolower($1) == "enabled:" { enabled = tolower($2) }
            END { if (!found) flush() }' "$f"
    done
}

# setup_apt DIR - a private apt configuration in DIR: only deb-src lines for
# trixie and sid on the system's mirror, with its own lists, cache and lock
# (the system's /etc/apt is only read).  Sets apt_opts.
setup_apt() {
    local aptdir=$1 mirror keyring
    if [ -n "${PG_UUIDX_MIRROR:-}" ]; then
        mirror=$PG_UUIDX_MIRROR keyring=-
    else
        read -r mirror keyring < <(system_mirror | head -n 1) || true
    fi
    if [ -z "${mirror:-}" ]; then
        echo "no Debian mirror found in /etc/apt; set PG_UUIDX_MIRROR" >&2
        exit 1
    fi
    mkdir -p "$aptdir/lists/partial" "$aptdir/cache/archives/partial" "$aptdir/sources.list.d"
    local opt=""
    [ "$keyring" != - ] && [ -f "$keyring" ] && opt="[signed-by=$keyring] "
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
