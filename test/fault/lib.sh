# test/fault/lib.sh - helpers shared by the fault scripts; sourced, not run.
#
# Gives each script: the server's tools ($bindir, $PG_CONFIG), a build and
# install of the extension from this work tree, a throwaway cluster in a temp
# dir (unix socket only, run by an unprivileged OS user, removed on exit),
# and a checker that prints one "ok - ..." / "not ok - ..." line per check
# and a closing "N passed, N failed" line.
#
# Environment read here:
#   PG_MAJOR            Debian server major (default 15)
#   PG_CONFIG           any other build's pg_config
#   FAULT_PORT          overrides the script's own port (each script has one
#                       of 54339..54343, away from test/run.sh's 54329)
#   FAULT_SKIP_BUILD=1  use what is installed (test/fault/run.sh builds once)
#   FAULT_KEEP=1        keep the temp dir (cluster stopped) for inspection
# shellcheck shell=bash

FAULT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$FAULT_DIR/../.." && pwd)

PG_MAJOR=${PG_MAJOR:-15}
if [ -z "${PG_CONFIG:-}" ]; then
    PG_CONFIG=/usr/lib/postgresql/$PG_MAJOR/bin/pg_config
    debian_server=yes
else
    debian_server=no
fi
bindir=$("$PG_CONFIG" --bindir)

checks_passed=0
checks_failed=0

. "$REPO_DIR/test/debian.sh"

say() { echo "== $*"; }

# Run a command as the cluster's OS user (make_tmp sets as_user_cmd).
as_user() { "${as_user_cmd[@]}" "$@"; }
die() { echo "FATAL: $*" >&2; exit 1; }

# Install the Debian packages named, each only when missing.
ensure_packages() {
    local want=(make gcc "$@")
    [ "$debian_server" = yes ] && want+=("postgresql-$PG_MAJOR" "postgresql-server-dev-$PG_MAJOR")
    install_missing "${want[@]}"
}

# Build and install the extension from this work tree; extra arguments go to
# make (CC=..., PG_CFLAGS=...).  Skipped under FAULT_SKIP_BUILD=1.
build_install() {
    [ "${FAULT_SKIP_BUILD:-0}" = 1 ] && return 0
    say "building against $("$PG_CONFIG" --version) ${*:+($*)}"
    # objects left from a build against another major would be linked as is
    make -s -C "$REPO_DIR" PG_CONFIG="$PG_CONFIG" clean >/dev/null
    make -s -C "$REPO_DIR" PG_CONFIG="$PG_CONFIG" "$@" >/dev/null
    as_root make -s -C "$REPO_DIR" PG_CONFIG="$PG_CONFIG" "$@" install >/dev/null
}

# Make the temp dir and the OS user that owns the cluster.
make_tmp() {
    if [ "$(id -u)" = 0 ]; then
        os_user=postgres
        id "$os_user" >/dev/null 2>&1 || useradd --system --home-dir /nonexistent --shell /bin/false "$os_user"
        as_user_cmd=(runuser -u "$os_user" --)
    else
        os_user=$(id -un)
        as_user_cmd=()
    fi
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/pg_uuidx_fault.XXXXXX")
    chmod 755 "$tmp"
    chown "$os_user" "$tmp"
    trap cleanup EXIT
}

# initdb, then start; $1 = port, $2 = extra server options, then any
# NAME=value words for the server's environment (LD_PRELOAD and the like).
start_cluster() {
    local port=$1 opts=${2:-}
    shift 2 || shift $#
    [ -n "${tmp:-}" ] || make_tmp
    as_user "$bindir/initdb" -D "$tmp/data" -U postgres -A trust -E UTF8 --locale=C --no-sync >/dev/null
    export PGHOST=$tmp PGPORT=${FAULT_PORT:-$port} PGUSER=postgres PGDATABASE=postgres
    server_env=("$@")
    server_opts="-c listen_addresses='' -k $tmp -p $PGPORT -c fsync=off -c synchronous_commit=off $opts"
    pg_ctl_start
    say "cluster: $("$bindir/postgres" --version), socket $tmp port $PGPORT${server_env:+, env ${server_env[*]}}"
}

pg_ctl_start() {
    timeout 120 "${as_user_cmd[@]}" env "${server_env[@]}" "$bindir/pg_ctl" -D "$tmp/data" -l "$tmp/server.log" -w -t 60 \
        -o "$server_opts" start >/dev/null
}

# Wait (at most $1 seconds, default 120) until the server accepts
# connections again, e.g. after a backend crash made it reinitialise.
wait_ready() {
    local _
    for _ in $(seq 1 "${1:-120}"); do
        "$bindir/psql" -X -q -A -t -c 'SELECT 1' >/dev/null 2>&1 && return 0
        sleep 1
    done
    return 1
}

# Restart with other options (and the same environment).
restart_cluster() {
    as_user "$bindir/pg_ctl" -D "$tmp/data" -m fast -w -t 60 stop >/dev/null
    server_opts="-c listen_addresses='' -k $tmp -p $PGPORT -c fsync=off -c synchronous_commit=off ${1:-}"
    pg_ctl_start
}

stop_cluster() {
    [ -n "${tmp:-}" ] && [ -f "$tmp/data/postmaster.pid" ] &&
        as_user "$bindir/pg_ctl" -D "$tmp/data" -m fast -w -t 60 stop >/dev/null 2>&1
    return 0
}

cleanup() {
    local rc=$?
    if [ -n "${tmp:-}" ] && [ -d "$tmp" ]; then
        if [ -f "$tmp/data/postmaster.pid" ]; then
            as_user "$bindir/pg_ctl" -D "$tmp/data" -m immediate stop >/dev/null 2>&1 || true
        fi
        if [ $rc -ne 0 ] && [ -f "$tmp/server.log" ]; then
            echo "== server log (last 20 lines)" >&2
            tail -n 20 "$tmp/server.log" >&2
        fi
        if [ "${FAULT_KEEP:-0}" = 1 ]; then echo "== kept $tmp" >&2; else rm -rf "$tmp"; fi
    fi
    exit $rc
}

# Sessions reach pg_uuidx's functions before core's same-named ones
# (uuidv7() and uuidv4() are built in from PostgreSQL 17/18 on).
ext_before_core() { export PGOPTIONS="${PGOPTIONS:-} -c search_path=public,pg_catalog"; }

# psql, quiet, unaligned, stop at the first error.
q() { "$bindir/psql" -X -q -A -t -v ON_ERROR_STOP=1 "$@"; }

# Record one check: $1 name, $2 "t" (pass) or anything else (fail), $3 detail.
check() {
    if [ "$2" = t ]; then
        checks_passed=$((checks_passed + 1))
        echo "ok - $1${3:+  ($3)}"
    else
        checks_failed=$((checks_failed + 1))
        echo "not ok - $1${3:+  [$3]}"
    fi
}

# A check whose verdict is a query: $1 name, $2 SQL returning one row of
# (boolean[, detail]), $3 database (default $PGDATABASE).  A query that fails
# is a failed check.
check_sql() {
    local out verdict detail
    if out=$(q -F '|' -d "${3:-$PGDATABASE}" -c "$2" 2>&1); then
        verdict=${out%%|*}
        detail=${out#"$verdict"}
        detail=${detail#|}
    else
        verdict=error
        detail=$(echo "$out" | head -n 3 | tr '\n' ' ')
    fi
    check "$1" "$verdict" "$detail"
}

# The closing line; non-zero when anything failed.
summary() {
    echo "$checks_passed passed, $checks_failed failed"
    [ "$checks_failed" -eq 0 ]
}
