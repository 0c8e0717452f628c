#!/usr/bin/env bash
# test/run.sh demo|test|crosscheck - build, install and exercise pg_uuidx on a throwaway
# cluster.  "make demo" and "make test" call this; .ci/run calls "make test".
#
#   demo  installs what is missing, builds, installs, starts a cluster in a
#         temp dir (unix socket only, unprivileged OS user), runs test/demo.sql
#   test  the same setup, then pg_regress (sql/, expected/), pgTAP
#         (test/pgtap/*.sql through pg_prove) and the fault tests
#         (test/fault/run.sh; FAULTS=0 skips them); last line
#         "N passed, N failed"
#   crosscheck  the same setup, then test/textforms/crosscheck.sh (text
#         forms against npm ulid, typeid-js and Python); skipped with a
#         message when node, the npm packages or python3 are missing
#
# Environment: PG_MAJOR (default 15) picks Debian's packaged server;
# PG_CONFIG overrides it with any build (test/majors.sh uses that, and then
# nothing is installed from Debian); PG_CFLAGS is passed to the compiler.
set -euo pipefail

mode=${1:-}
case "$mode" in demo|test|crosscheck) ;; *) echo "usage: $0 demo|test|crosscheck" >&2; exit 2 ;; esac
cd "$(dirname "$0")/.."
if [ "$mode" = crosscheck ]; then
    bash test/textforms/crosscheck.sh need || { rc=$?; [ $rc -eq 3 ] && exit 0; exit $rc; }
fi

PG_MAJOR=${PG_MAJOR:-15}
if [ -z "${PG_CONFIG:-}" ]; then
    PG_CONFIG=/usr/lib/postgresql/$PG_MAJOR/bin/pg_config
    debian_server=yes
else
    debian_server=no
fi

. test/debian.sh

# Debian packages this script needs, installed only when missing.
ensure_packages() {
    local want=(make gcc libtap-parser-sourcehandler-pgtap-perl)
    [ "$debian_server" = yes ] && want+=("postgresql-$PG_MAJOR" "postgresql-server-dev-$PG_MAJOR" "postgresql-$PG_MAJOR-pgtap" postgresql-contrib)
    install_missing "${want[@]}"
}

build_and_install() {
    echo "== building against $("$PG_CONFIG" --version)"
    # objects left from a build against another major would be linked as is
    make -s PG_CONFIG="$PG_CONFIG" clean
    make -s PG_CONFIG="$PG_CONFIG" ${PG_CFLAGS:+PG_CFLAGS="$PG_CFLAGS"}
    as_root make -s PG_CONFIG="$PG_CONFIG" install
}

# A cluster in a temp dir, run by an unprivileged OS user, reachable only
# through a unix socket in that dir; removed on exit whatever happens.
start_cluster() {
    bindir=$("$PG_CONFIG" --bindir)
    if [ "$(id -u)" = 0 ]; then
        os_user=postgres
        id "$os_user" >/dev/null 2>&1 || useradd --system --home-dir /nonexistent --shell /bin/false "$os_user"
        as_user() { runuser -u "$os_user" -- "$@"; }
    else
        os_user=$(id -un)
        as_user() { "$@"; }
    fi
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/pg_uuidx.XXXXXX")
    chmod 755 "$tmp"
    chown "$os_user" "$tmp"
    trap stop_cluster EXIT
    as_user "$bindir/initdb" -D "$tmp/data" -U postgres -A trust -E UTF8 --locale=C --no-sync >/dev/null
    export PGHOST=$tmp PGPORT=${PGPORT_TEST:-54329} PGUSER=postgres PGDATABASE=postgres
    as_user "$bindir/pg_ctl" -D "$tmp/data" -l "$tmp/server.log" -w \
        -o "-c listen_addresses='' -k $tmp -p $PGPORT -c fsync=off ${PG_SERVER_OPTS:-}" start >/dev/null
    echo "== throwaway cluster: $("$bindir/postgres" --version), socket $tmp, user $os_user"
}

stop_cluster() {
    local rc=$?
    if [ -n "${tmp:-}" ] && [ -d "$tmp" ]; then
        as_user "$bindir/pg_ctl" -D "$tmp/data" -m immediate stop >/dev/null 2>&1 || true
        [ $rc -ne 0 ] && [ -z "${log_shown:-}" ] && [ -f "$tmp/server.log" ] && tail -n 30 "$tmp/server.log" >&2
        rm -rf "$tmp"
    fi
    exit $rc
}

run_demo() {
    "$bindir/createdb" demo
    "$bindir/psql" -X -q -v ON_ERROR_STOP=1 -d demo -f test/demo.sql
}

# pg_regress through PGXS; pgTAP through pg_prove.  Counts are tests for
# pg_regress and assertions for pgTAP.
run_tests() {
    local regress_log=$tmp/regress.out prove_log=$tmp/prove.out rc=0
    echo "== pg_regress"
    local regress_rc=0
    make -s PG_CONFIG="$PG_CONFIG" installcheck 2>&1 | tee "$regress_log" || regress_rc=1
    [ -f regression.diffs ] && [ $regress_rc -ne 0 ] && cat regression.diffs

    echo "== pgTAP (pg_prove)"
    "$bindir/createdb" pgtap_run
    pg_prove --psql-bin "$bindir/psql" -d pgtap_run test/pgtap/*.sql 2>&1 | tee "$prove_log" || rc=1

    local r_pass r_fail t_total t_fail t_fail_ran
    r_pass=$(grep -cE '(\.\.\. ok|^ok [0-9])' "$regress_log" || true)
    r_fail=$(grep -cE '(\.\.\. FAILED|^not ok [0-9])' "$regress_log" || true)
    # pg_regress itself failing (no expected file, server gone) is a failure too
    [ $regress_rc -ne 0 ] && { rc=1; [ "$r_fail" -eq 0 ] && r_fail=1; }
    # pg_prove's "Tests=N" counts assertions that ran; "Failed: F)" those of
    # them that failed; "Failed X/Y subtests" also counts planned ones that
    # never ran (a file that died early), so failures are the larger sum
    t_total=$(sed -n 's/.*Tests=\([0-9]*\).*/\1/p' "$prove_log" | tail -1)
    t_total=${t_total:-0}
    t_fail_ran=$(sed -n 's/.*Tests: [0-9]* Failed: \([0-9]*\)).*/\1/p' "$prove_log" | awk '{s+=$1} END {print s+0}')
    t_fail=$(sed -n 's/.*Failed \([0-9]*\)\/[0-9]* subtests.*/\1/p' "$prove_log" | awk '{s+=$1} END {print s+0}')
    [ "$t_fail" -lt "$t_fail_ran" ] && t_fail=$t_fail_ran
    grep -q '^Result: PASS' "$prove_log" || { rc=1; [ "$t_fail" -eq 0 ] && t_fail=1; }
    if [ $rc -ne 0 ]; then
        echo "== server log (last 30 lines)"; tail -n 30 "$tmp/server.log"; log_shown=yes
    fi
    summary="pg_regress: $r_pass passed, $r_fail failed; pgTAP: $((t_total - t_fail_ran)) passed, $t_fail failed"
    passed=$((r_pass + t_total - t_fail_ran)) failed=$((r_fail + t_fail))
    echo "$summary"
    return $rc
}

# The fault tests (test/fault/run.sh: clock step-back, concurrency, fork
# safety, dump/restore, ASan+UBSan); they start clusters of their own.
run_faults() {
    local log=$tmp/faults.out rc=0 last
    echo "== fault tests (test/fault/run.sh)"
    bash test/fault/run.sh 2>&1 | tee "$log" || rc=1
    last=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1 || true)
    local p=${last%% passed*} f=${last#*passed, }
    f=${f%% failed}
    [ -n "$last" ] || { p=0 f=1; }
    [ $rc -ne 0 ] && [ "$f" -eq 0 ] && f=1
    summary="$summary; faults: $p passed, $f failed"
    passed=$((passed + p)) failed=$((failed + f))
    return $rc
}

ensure_packages
build_and_install
start_cluster
if [ "$mode" = demo ]; then
    run_demo
elif [ "$mode" = crosscheck ]; then
    PSQL=$bindir/psql bash test/textforms/crosscheck.sh run
else
    rc=0
    run_tests || rc=1
    if [ "${FAULTS:-1}" != 0 ]; then run_faults || rc=1; fi
    echo "$summary"
    echo "$passed passed, $failed failed"
    exit $rc
fi
