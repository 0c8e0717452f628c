#!/usr/bin/env bash
# test/fault/fork.sh - backends and parallel workers never share random bytes.
#
# With pg_uuidx in shared_preload_libraries every backend and parallel worker
# is a fork of a postmaster that has the library (and its static entropy
# block) mapped.  Two server setups are tested, each after a restart:
#
#   preload      shared_preload_libraries = 'pg_uuidx'
#   prefilled    the same plus test/fault/prefork's library, which makes a
#                v4 and a v7 id in the postmaster itself, so every child
#                inherits a filled, partly used block (RFC 9562 6.9's case)
#
# In each: the first uuidv4() and uuidv7() of FRESH (default 200) new
# backends (pgbench -C: a connection per transaction) must all differ, in
# the whole v4 and in v7's 44-bit random tail; and a parallel seq scan whose
# workers (leader not participating) call uuidv4()/uuidv7() must give valid,
# distinct ids from at least two workers, with EXPLAIN showing them launched.
# Usage: test/fault/fork.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"
ext_before_core

FRESH=${FRESH:-200}
PAR_ROWS=${PAR_ROWS:-200000}

build_install
make_tmp

# the test-only preload library, built outside the work tree
cp -r "$FAULT_DIR/prefork" "$tmp/prefork"
make -s -C "$tmp/prefork" PG_CONFIG="$PG_CONFIG" >/dev/null
prefork_so=$tmp/prefork/fault_prefork.so
[ -f "$prefork_so" ] || die "fault_prefork.so did not build"

start_cluster 54341 "-c max_worker_processes=8 -c max_parallel_workers=8"
q -f "$FAULT_DIR/helpers.sql"
q <<SQL
CREATE EXTENSION pg_uuidx;
-- first ids of fresh backends
CREATE TABLE firsts (setup int, pid int, v4 uuid, v7 uuid);
-- rows for the workers to scan
CREATE TABLE big AS SELECT g FROM generate_series(1, $PAR_ROWS) AS g;
ANALYZE big;
-- pg_backend_pid() under a PARALLEL SAFE label (test only), so that the
-- planner lets workers call it: which process made each row
CREATE FUNCTION fault.pid() RETURNS int LANGUAGE internal STABLE PARALLEL SAFE
AS 'pg_backend_pid';
SQL

script=$tmp/first.pgbench
cat >"$script" <<'EOF'
INSERT INTO firsts VALUES (:setup, pg_backend_pid(), uuidv4(), uuidv7());
EOF

# force_parallel_mode was renamed debug_parallel_query in PostgreSQL 16
par_settings="SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0; SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;
SELECT set_config(CASE WHEN current_setting('server_version_num')::int >= 160000
                       THEN 'debug_parallel_query' ELSE 'force_parallel_mode' END, 'on', false) IS NULL;"

run_setup() {
    local setup=$1 libs=$2 w="setup = $3"
    say "setup '$setup': shared_preload_libraries = '$libs'"
    restart_cluster "-c max_worker_processes=8 -c max_parallel_workers=8 -c shared_preload_libraries='$libs'"
    check_sql "$setup: library preloaded" \
        "SELECT current_setting('shared_preload_libraries') = '$libs', current_setting('shared_preload_libraries')"

    timeout 300 "$bindir/pgbench" -n -C -c 4 -j 2 -t $((FRESH / 4)) -D setup="$3" -f "$script" \
        >"$tmp/pgbench.$setup" 2>&1 || { tail -n 5 "$tmp/pgbench.$setup"; die "pgbench failed"; }
    check_sql "$setup: $FRESH fresh backends each made its first ids" \
        "SELECT count(DISTINCT pid) = $FRESH AND count(*) = $FRESH, count(DISTINCT pid) || ' backends' FROM firsts WHERE $w"
    check_sql "$setup: first uuidv4() of every backend distinct" \
        "SELECT count(DISTINCT v4) = count(*), count(DISTINCT v4) || ' distinct of ' || count(*) FROM firsts WHERE $w"
    check_sql "$setup: first uuidv4() halves distinct (octets 0-7 and 8-15 separately)" \
        "SELECT count(DISTINCT left(v4::text, 18)) = count(*) AND count(DISTINCT right(v4::text, 17)) = count(*),
                count(DISTINCT left(v4::text, 18)) || ' / ' || count(DISTINCT right(v4::text, 17))
         FROM firsts WHERE $w"
    check_sql "$setup: first uuidv7() random tails (44 bits) distinct" \
        "SELECT count(DISTINCT fault.tail44(v7)) = count(*), count(DISTINCT fault.tail44(v7)) || ' distinct of ' || count(*)
         FROM firsts WHERE $w"
    check_sql "$setup: versions and variants of the first ids" \
        "SELECT bool_and(fault.version(v4) = 4 AND fault.version(v7) = 7 AND fault.variant_ok(v4) AND fault.variant_ok(v7))
         FROM firsts WHERE $w"

    # parallel workers: one statement makes the table and its EXPLAIN
    local plan
    plan=$(q <<SQL
$par_settings
SET client_min_messages = warning;
DROP TABLE IF EXISTS par, leader;
CREATE TABLE leader AS SELECT pg_backend_pid() AS pid;
EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF)
CREATE TABLE par AS SELECT fault.pid() AS pid, uuidv4() AS v4, uuidv7() AS v7 FROM big;
SQL
)
    echo "$plan" >"$tmp/plan.$setup"
    check "$setup: EXPLAIN shows a parallel seq scan with workers launched" \
        "$(grep -q 'Parallel Seq Scan' <<<"$plan" && grep -Eq 'Workers Launched: [1-9]' <<<"$plan" && echo t || echo f)" \
        "$(echo "$plan" | grep -Eo 'Workers (Planned|Launched): [0-9]+' | tr '\n' ' ' | sed 's/ *$//')"
    check "$setup: uuidv4() and uuidv7() are evaluated below the Gather (in the workers)" \
        "$(sed -n '/Parallel Seq Scan/,$p' <<<"$plan" | grep -c 'Output:.*uuidv4().*uuidv7()' >/dev/null && echo t || echo f)"
    check_sql "$setup: all $PAR_ROWS rows made by >= 2 workers, none by the leader" \
        "SELECT count(*) = $PAR_ROWS AND count(DISTINCT pid) >= 2 AND bool_and(pid <> (SELECT pid FROM leader)),
                count(DISTINCT pid) || ' workers: ' || string_agg(DISTINCT pid::text, ' ')
         FROM par"
    check_sql "$setup: worker ids valid (version, variant)" \
        "SELECT bool_and(fault.version(v4) = 4 AND fault.version(v7) = 7 AND fault.variant_ok(v4) AND fault.variant_ok(v7)) FROM par"
    check_sql "$setup: worker ids distinct (v4, v7, v7 random tails)" \
        "SELECT count(DISTINCT v4) = count(*) AND count(DISTINCT v7) = count(*) AND count(DISTINCT fault.tail44(v7)) = count(*),
                count(*) - count(DISTINCT v4) || ' repeated v4, ' || count(*) - count(DISTINCT fault.tail44(v7)) || ' repeated v7 tails'
         FROM par"
    check_sql "$setup: the first ids of the workers differ from the first ids of fresh backends" \
        "SELECT NOT EXISTS (SELECT FROM par JOIN firsts USING (v4))"
}

run_setup preload pg_uuidx 1
run_setup prefilled "pg_uuidx,$prefork_so" 2
check "prefilled: the postmaster made ids before forking (server log)" \
    "$(grep -q 'fault_prefork: postmaster [0-9]* made' "$tmp/server.log" && echo t || echo f)" \
    "$(grep -o 'fault_prefork: postmaster [0-9]* made.*' "$tmp/server.log" | tail -n 1)"
summary
