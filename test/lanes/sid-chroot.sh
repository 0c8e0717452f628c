# test/lanes/sid-chroot.sh - sourced by test/lanes/majors.sh (after
# test/lib.sh): a Debian sid chroot for the PostgreSQL majors that only
# sid/experimental packages (19: bookworm cannot run them, glibc and ICU are
# too old, and the mirror has no source tarball of them).
#   sid_setup DIR MAJOR  debootstrap --variant=minbase sid into DIR unless
#                        done there already, then the packages test/run.sh
#                        needs, postgresql-MAJOR and its server-dev package
#                        from experimental; a second call only installs what
#                        is missing
#   sid_run DIR CMD...   CMD chrooted into DIR, in a mount and PID namespace
#                        of its own (unshare): /proc, /dev/shm are mounted
#                        there only, and every process CMD leaves (servers
#                        included) is killed and every mount undone when it
#                        ends, however it ends; the host sees none of them
# The chroot has its own apt sources (sid and experimental on the system's
# mirror, PG_UUIDX_MIRROR to override; the mirror's Release files may be
# stale, so Check-Valid-Until is off); the system's /etc/apt is only read.
# No cluster is created and no service started by the packages.
# shellcheck shell=bash
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)

# the packages of test/run.sh (test/lib.sh's need), with the sanitizer pass,
# pg_prove, and git for the copy of the tree (test/t/005_docs_links.pl)
sid_packages=(make gcc perl libipc-run-perl libtap-parser-sourcehandler-pgtap-perl python3 clang llvm git)

sid_mirror() {
    local mirror=${PG_UUIDX_MIRROR:-}
    [ -n "$mirror" ] || mirror=$(apt-get indextargets --format '$(REPO_URI)' "Origin: Debian" \
        "Codename: $(. /etc/os-release && echo "$VERSION_CODENAME")" | head -n 1)
    [ -n "$mirror" ] || { echo "no Debian mirror found in /etc/apt; set PG_UUIDX_MIRROR" >&2; return 1; }
    echo "$mirror"
}

# sid_busy DIR - some process runs chrooted into DIR (another lane run)
sid_busy() {
    local p root
    root=$(realpath "$1")
    for p in /proc/[0-9]*; do
        [ "$(readlink "$p/root" 2>/dev/null)" = "$root" ] && return 0
    done
    return 1
}

# sid_mounted DIR - something is mounted below DIR in the host's namespace
sid_mounted() {
    findmnt -rn -o TARGET | grep -q -- "^$(realpath "$1")/"
}

sid_run() {
    local dir=$1
    shift
    dir=$(realpath "$dir")
    # PID 1 of the new namespace: the chrooted command runs as its child; when
    # it returns (or a signal ends the script) every process left in the
    # namespace is killed, waited for, and the mounts are undone; the kernel
    # would do both when PID 1 exits anyway
    unshare --mount --pid --fork --kill-child --propagation private bash -c '
        dir=$1; shift
        trap "exit 130" INT; trap "exit 143" TERM
        cleanup() {
            local rc=$? i m
            trap "" INT TERM
            kill -KILL -1 2>/dev/null
            for i in $(seq 100); do
                set -- "$dir"/proc/[0-9]*
                [ $# -le 1 ] && break
                sleep 0.1
            done
            for m in dev/shm proc; do
                ! mountpoint -q "$dir/$m" || umount "$dir/$m" || rc=1
            done
            exit $rc
        }
        trap cleanup EXIT
        mount -t proc proc "$dir/proc" && mount -t tmpfs -o mode=1777 shm "$dir/dev/shm" || exit 1
        chroot "$dir" env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
            LANG=C.UTF-8 TERM=dumb DEBIAN_FRONTEND=noninteractive "$@"
    ' sid_run "$dir" "$@"
}

sid_setup() {
    local dir=$1 major=$2 start=$SECONDS mirror missing=() p clang_major pgtap_from changed=no
    mirror=$(sid_mirror) || return 1
    mkdir -p "$(dirname "$dir")" && dir=$(realpath -m "$dir")
    if sid_busy "$dir"; then
        echo "== processes run chrooted into $dir (another lane run?): not touching it" >&2
        return 1
    fi
    if sid_mounted "$dir"; then
        echo "== something is mounted below $dir (findmnt): unmount it first" >&2
        return 1
    fi
    if [ ! -f "$dir/.pg_uuidx-debootstrap-ok" ]; then
        install_missing debootstrap
        say "sid chroot: debootstrap --variant=minbase sid $dir $mirror"
        rm -rf "$dir.new" "$dir" || return 1
        debootstrap --variant=minbase sid "$dir.new" "$mirror" >"$dir.debootstrap.log" 2>&1 ||
            { tail -n 20 "$dir.debootstrap.log" >&2; return 1; }
        {
            echo "# written by test/lanes/sid-chroot.sh"
            echo "deb $mirror sid main"
            echo "deb $mirror experimental main"
        } >"$dir.new/etc/apt/sources.list"
        # the mirror's Release files can be older than their Valid-Until
        printf '%s\n' 'Acquire::Check-Valid-Until "false";' 'APT::Install-Recommends "false";' \
            'APT::Install-Suggests "false";' >"$dir.new/etc/apt/apt.conf.d/90pg_uuidx"
        # no service starts in the chroot, and postgresql-common makes no cluster
        printf '#!/bin/sh\nexit 101\n' >"$dir.new/usr/sbin/policy-rc.d" && chmod 755 "$dir.new/usr/sbin/policy-rc.d"
        mkdir -p "$dir.new/etc/postgresql-common/createcluster.d"
        echo "create_main_cluster = false" >"$dir.new/etc/postgresql-common/createcluster.d/pg_uuidx.conf"
        date -u +%FT%TZ >"$dir.new/.pg_uuidx-debootstrap-ok"
        changed=yes
        mv "$dir.new" "$dir" || return 1
    fi
    # the server, its client and libpq from experimental, all else from sid
    # (apt-get -t experimental would take libc6 and more from there too)
    printf '%s\n' "# written by test/lanes/sid-chroot.sh" \
        "Package: postgresql-$major postgresql-client-$major postgresql-server-dev-$major libpq5 libpq-dev" \
        "Pin: release a=experimental" "Pin-Priority: 990" >"$dir/etc/apt/preferences.d/pg_uuidx"
    for p in "${sid_packages[@]}" "postgresql-$major" "postgresql-server-dev-$major"; do
        sid_run "$dir" dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
            missing+=("$p")
    done
    if [ ${#missing[@]} -gt 0 ] || [ ! -f "$dir/usr/share/postgresql/$major/extension/pgtap.control" ]; then
        say "sid chroot: installing ${missing[*]:-pgTAP}"
        changed=yes
        sid_run "$dir" apt-get -q update >/dev/null || return 1
        sid_run "$dir" apt-get -q -y install "${sid_packages[@]}" >>"$dir.apt.log" 2>&1 ||
            { tail -n 20 "$dir.apt.log" >&2; return 1; }
        sid_run "$dir" apt-get -q -y install "postgresql-$major" "postgresql-server-dev-$major" \
            >>"$dir.apt.log" 2>&1 || { tail -n 20 "$dir.apt.log" >&2; return 1; }
    fi
    # the sanitizer runtime of the chroot's default clang
    clang_major=$(sid_run "$dir" clang -dumpversion | cut -d. -f1)
    [ -n "$clang_major" ] || { echo "no clang in the chroot $dir" >&2; return 1; }
    if ! sid_run "$dir" dpkg-query -W -f '${Status}' "libclang-rt-$clang_major-dev" 2>/dev/null |
        grep -q 'install ok installed'; then
        changed=yes
        sid_run "$dir" apt-get -q -y install "libclang-rt-$clang_major-dev" >>"$dir.apt.log" 2>&1 ||
            { tail -n 20 "$dir.apt.log" >&2; return 1; }
    fi
    # pgTAP is SQL only: postgresql-MAJOR-pgtap when sid has one, else the SQL
    # files of the newest postgresql-N-pgtap there, unpacked (no server of N)
    if [ ! -f "$dir/usr/share/postgresql/$major/extension/pgtap.control" ]; then
        changed=yes
        if sid_run "$dir" apt-cache show "postgresql-$major-pgtap" >/dev/null 2>&1; then
            sid_run "$dir" apt-get -q -y install "postgresql-$major-pgtap" >>"$dir.apt.log" 2>&1 ||
                { tail -n 20 "$dir.apt.log" >&2; return 1; }
        else
            pgtap_from=$(sid_run "$dir" apt-cache pkgnames postgresql- | grep -E '^postgresql-[0-9]+-pgtap$' |
                sort -t- -k2,2n | tail -n 1)
            [ -n "$pgtap_from" ] || { echo "sid has no postgresql-N-pgtap" >&2; return 1; }
            say "sid chroot: pgTAP's SQL files from $pgtap_from (sid has no postgresql-$major-pgtap)"
            rm -rf "$dir/tmp/pgtap" && mkdir -p "$dir/tmp/pgtap" || return 1
            sid_run "$dir" sh -c "cd /tmp/pgtap && apt-get -q download $pgtap_from && dpkg-deb -x ${pgtap_from}_*.deb x" \
                >>"$dir.apt.log" 2>&1 || { tail -n 20 "$dir.apt.log" >&2; return 1; }
            cp "$dir"/tmp/pgtap/x/usr/share/postgresql/*/extension/pgtap* "$dir/usr/share/postgresql/$major/extension/" &&
                rm -rf "$dir/tmp/pgtap" || return 1
        fi
    fi
    # the stamp: what the chroot has, and how long its last change took
    [ "$changed" = no ] && [ -f "$dir/.pg_uuidx-chroot-ok" ] && return 0
    echo "$(date -u +%FT%TZ) $(sid_run "$dir" dpkg-query -W -f '${Package} ${Version}' "postgresql-$major")," \
        "clang $clang_major, set up in $((SECONDS - start))s" >"$dir/.pg_uuidx-chroot-ok"
}

# sid_tree REPO DIR - the tracked files of the work tree REPO, as they are
# now (uncommitted changes included), in DIR as a one-commit git checkout
sid_tree() {
    local repo=$1 dir=$2
    rm -rf "$dir" && mkdir -p "$dir" || return 1
    git -C "$repo" ls-files -z --cached | (cd "$repo" && tar --null -T - --ignore-failed-read -c 2>/dev/null) |
        tar -C "$dir" -x || return 1
    git -C "$dir" init -q && git -C "$dir" add -A &&
        git -C "$dir" -c user.name=pg_uuidx -c user.email=pg_uuidx@localhost commit -q -m "copy of $repo" ||
        return 1
}
