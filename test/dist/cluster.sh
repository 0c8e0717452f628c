# shellcheck shell=bash disable=SC2154  # bindir is set by the caller
# test/dist/cluster.sh - sourced by pgxn_test.sh and deb_test.sh: a throwaway
# cluster of the server in $bindir, run by the postgres OS user (by the
# caller when not root), reachable only through a unix socket in its temp
# dir; cluster_stop removes it.

cluster_start() {
    local user
    if [ "$(id -u)" = 0 ]; then
        user=postgres
        as_pg() { runuser -u postgres -- "$@"; }
    else
        user=$(id -un)
        as_pg() { "$@"; }
    fi
    cluster_dir=$(mktemp -d "${TMPDIR:-/tmp}/pg_uuidx_dist.XXXXXX")
    chmod 755 "$cluster_dir"
    chown "$user" "$cluster_dir"
    as_pg "$bindir/initdb" -D "$cluster_dir/data" -U postgres -A trust -E UTF8 --locale=C --no-sync >/dev/null
    export PGHOST=$cluster_dir PGPORT=$1 PGUSER=postgres PGDATABASE=postgres
    as_pg "$bindir/pg_ctl" -D "$cluster_dir/data" -l "$cluster_dir/server.log" -w \
        -o "-c listen_addresses='' -k $cluster_dir -p $PGPORT -c fsync=off" start >/dev/null
    echo "== throwaway cluster: $("$bindir/postgres" --version), socket $cluster_dir port $PGPORT"
}

cluster_stop() {
    if [ -n "${cluster_dir:-}" ] && [ -d "$cluster_dir" ]; then
        as_pg "$bindir/pg_ctl" -D "$cluster_dir/data" -m immediate stop >/dev/null 2>&1 || true
        rm -rf "$cluster_dir"
    fi
}
