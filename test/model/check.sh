#!/usr/bin/env bash
# test/model/check.sh - "make model-check": the models of the commit horizon
# (test/model/horizon.pml, a server and its replicas; test/model/cluster.pml,
# a Citus cluster) checked by Spin, exhaustively, in every configuration
# below: each scenario with the protocol as it is must hold, and each known
# defect put back (a -DBUG_... switch) must give a counterexample on the
# invariant it breaks.  One line per configuration:
#   model <name>: holds
#   model <name>: counterexample (<invariant>)
# then the seconds and states of each, and a last line
#   model-check: N configurations, N as expected, N not (S s)
# that test/run.sh counts.  Exits 1 unless every configuration is as
# expected; 2 when Spin or a C compiler is missing.
#
# Each configuration is built in a temp dir (spin -a, gcc -DSAFETY, ./pan),
# MODEL_JOBS (default 2) at a time; the dir is removed on exit, also on
# Ctrl-C.  A search that did not finish (depth or memory bound) counts as
# not as expected.  MODEL_TRAIL=1 prints every counterexample's steps;
# an unexpected one is always printed.  docs/how-it-works.md, "A model of
# the horizon", explains the models and every configuration.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
model=$here/horizon.pml     # the model of a configuration that names none
jobs=${MODEL_JOBS:-2}
depth=10000
memlim=4096

# name | scenario | switch (- for none) | expected: holds or the invariant
# [| model file in test/model/, horizon.pml if none]
configs=(
    "ids|SC_IDS|-|holds"
    "restart|SC_RESTART|-|holds"
    "guard|SC_GUARD|-|holds"
    "standby|SC_STANDBY|-|holds"
    "subscriber|SC_SUB|-|holds"
    "tables|SC_TABLES|-|holds"
    "layout-change|SC_LAYOUT|-|holds"
    "allowance-change|SC_ALLOWANCE|-|holds"
    "idle-ticker|SC_IDLE|-|holds"
    "cluster|SC_CLUSTER|-|holds|cluster.pml"
    "cluster-allowance-0|SC_CLUSTER_A0|-|holds|cluster.pml"
    "cluster-client-ids|SC_CLUSTER_CLIENT|-|holds|cluster.pml"
    "row1-restart-forgets-floor|SC_GUARD|BUG_ROW1_RESTART_FORGETS_FLOOR|no_row_missed"
    "row2-promotion-without-tick|SC_STANDBY|BUG_ROW2_NO_TICK_IN_FLOOR|no_row_missed"
    "row3-in-doubt-prepared-not-held|SC_STANDBY|BUG_TRACKED_FROM|no_row_missed"
    "row4-worker-only-prepared-not-held|SC_RESTART|BUG_TRACKED_FROM|no_row_missed"
    "row5-guard-sees-null|SC_GUARD|BUG_ROW5_GENERATED_COLUMN|no_row_missed"
    "row6-write-unguarded|SC_GUARD|BUG_ROW6_UNGUARDED_WRITE|no_row_missed"
    "row7-attach-filled-table|SC_GUARD|BUG_ROW7_ATTACH_FILLED|no_row_missed"
    "row8-batch-splits-equal-ids|SC_IDS|BUG_ROW8_BATCH_SPLITS_EQUAL_IDS|no_row_missed"
    "row9-partition-own-horizon|SC_SUB|BUG_ROW9_PARTITION_LIVE_HORIZON|no_row_missed"
    "row10-two-subscriptions|SC_SUB|BUG_ROW10_TWO_SUBSCRIPTIONS|no_row_missed"
    "row11-old-library-reader|SC_SUB|BUG_ROW11_OLD_LIBRARY_READER|no_row_missed"
    "row12-tick-any-value|SC_STANDBY|BUG_ROW12_TICK_ANY_VALUE|no_row_missed"
    "row13-relation-no-horizon-covers|SC_GUARD|BUG_ROW13_UNCOVERED_RELATION|no_row_missed"
    "row15-resend-refused|SC_GUARD|BUG_ROW15_RESEND_REFUSED|no_row_twice"
    "1.5-worker-slot-lost|SC_IDS|BUG_WORKER_OWN_SLOT|no_row_missed"
    "1.5-old-library-not-held|SC_IDS|BUG_OLD_LIBRARY_NOT_HELD|no_row_missed"
    "id-made-before-publishing|SC_IDS|BUG_ID_BEFORE_PUBLISH|no_row_missed"
    "1.6-superseded-layout-reads|SC_LAYOUT|BUG_SUPERSEDED_NOT_REFUSED|no_row_missed"
    "1.6-layout-registered-at-first-use|SC_LAYOUT|BUG_LAYOUT_AT_FIRST_USE|no_row_missed"
    "1.6-floor-holds-allowance|SC_TABLES|BUG_16_FLOOR_LESS_ALLOWANCE|allowance_held"
    "guard-time-not-read|SC_TABLES|BUG_GUARD_FIELD_IGNORED|no_row_missed"
    "one-covered-from|SC_TABLES|BUG_ONE_COVERED_FROM|no_row_missed"
    "unguarded-table-read|SC_TABLES|BUG_READ_UNGUARDED|no_row_missed"
    "no-statement-publish|SC_TABLES|BUG_NO_STATEMENT_PUBLISH|server_ids_taken"
    "allowance-per-process|SC_ALLOWANCE|BUG_ALLOWANCE_PER_PROCESS|no_row_missed"
    "restart-raise-no-epoch|SC_ALLOWANCE|BUG_RESTART_RAISE_NO_EPOCH|no_row_missed"
    "statement-cover-below-epoch|SC_ALLOWANCE|BUG_STATEMENT_COVER_NO_EPOCH|no_row_missed"
    "tick-skipped-unpublished|SC_IDLE|BUG_TICK_SKIP_UNPUBLISHED|no_row_delayed"
    "cluster-coordinator-only|SC_CLUSTER|BUG_CLUSTER_COORDINATOR_ONLY|no_row_missed|cluster.pml"
    "cluster-no-shard-guard|SC_CLUSTER|BUG_CLUSTER_NO_SHARD_GUARD|no_row_missed|cluster.pml"
    "cluster-no-cap|SC_CLUSTER_A0|BUG_CLUSTER_NO_CAP|coordinator_ids_taken|cluster.pml"
    "cluster-read-before-node-horizon|SC_CLUSTER|BUG_CLUSTER_READ_BEFORE_NODE_HORIZON|no_row_missed|cluster.pml"
)

for tool in spin gcc; do
    command -v "$tool" >/dev/null || { echo "model-check: $tool is missing (Debian: apt-get install spin gcc)" >&2; exit 2; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/pg_uuidx_model.XXXXXX")
# the searches still running are stopped, then the temp dir removed, however
# the run ends (background jobs of a script do not get the terminal's
# Ctrl-C): this script's jobs, and the searches they started (pan.pid)
cleanup() {
    local f
    trap '' INT TERM
    # shellcheck disable=SC2046
    kill $(jobs -p) 2>/dev/null || true
    wait 2>/dev/null || true
    for f in "$work"/*/pan.pid; do
        [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
    done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

now() { date +%s.%N; }
since() { awk -v a="$(now)" -v b="$1" -v f="$2" 'BEGIN { printf f "\n", a - b }'; }

# run_one I: build and search configuration I in $work/I; writes result
# ("holds", "counterexample (inv)" or "incomplete (why)"), seconds, states
run_one() {
    local i=$1 name sc bug expect file d start rc
    IFS='|' read -r name sc bug expect file <<<"${configs[$i]}"
    file=${file:-$(basename "$model")}
    d=$work/$i
    mkdir -p "$d"
    start=$(now)
    (
        cd "$d"
        defs=("-D$sc")
        [ "$bug" = - ] || defs+=("-D$bug")
        cp "$here/$file" "$file"
        spin -a "${defs[@]}" "$file" >spin.log 2>&1 || { echo "incomplete (spin -a failed)" >result; exit 0; }
        # a search that must finish is long: worth optimizing; one that
        # stops at a counterexample is short: worth compiling fast
        opt=-O1
        [ "$expect" = holds ] || opt=-O0
        gcc $opt -w -DSAFETY -DMEMLIM=$memlim -o pan pan.c >gcc.log 2>&1 || { echo "incomplete (gcc failed)" >result; exit 0; }
        ./pan -m$depth >pan.log 2>&1 &
        echo $! >pan.pid
        rc=0
        wait $! || rc=$?
        rm -f pan.pid
        if grep -q 'assertion violated' pan.log; then
            echo "counterexample ($(sed -n 's/.*assertion violated \([a-z_]*\).*/\1/p' pan.log | head -n 1))" >result
            spin -t "${defs[@]}" "$file" 2>&1 | sed -n 's/^ *MSC: /      /p' >trail.txt || true
        elif grep -q 'max search depth too small' pan.log; then
            echo "incomplete (search depth $depth too small)" >result
        elif grep -qE 'out of memory|MEMLIM' pan.log; then
            echo "incomplete (out of memory, $memlim MB)" >result
        elif [ "$rc" = 0 ] && grep -q 'errors: 0' pan.log; then
            echo holds >result
        else
            echo "incomplete (pan: $(grep -m 1 -E 'error|pan:' pan.log || echo "exit $rc"))" >result
        fi
    ) || echo "incomplete (failed)" >"$d/result"
    since "$start" '%.1f' >"$d/seconds"
    sed -n 's/^ *\([0-9][0-9]*\) states, stored.*/\1/p' "$d/pan.log" 2>/dev/null | head -n 1 >"$d/states"
}

spin_version=$(spin -V | sed -n 's/^Spin Version \([^ ]*\).*/\1/p')
echo "== model-check: test/model/horizon.pml and cluster.pml, Spin $spin_version, $jobs at a time; the scenarios' bounds:"
sed -n '/^ \*   SC_IDS/,/^ \*$/p' "$model" | sed '$d; s/^ \*  /  /'
sed -n '/^ \*   SC_CLUSTER /,/^ \*$/p' "$here/cluster.pml" | sed '$d; s/^ \*  /  /'

printed=0 expected=0
# print_ready: the results that are in, in order
print_ready() {
    local name sc bug expect file result
    while [ "$printed" -lt ${#configs[@]} ] && [ -f "$work/$printed/states" ]; do
        IFS='|' read -r name sc bug expect file <<<"${configs[$printed]}"
        result=$(cat "$work/$printed/result")
        echo "model $name: $result"
        if { [ "$expect" = holds ] && [ "$result" = holds ]; } || [ "$result" = "counterexample ($expect)" ]; then
            expected=$((expected + 1))
            [ "${MODEL_TRAIL:-0}" = 0 ] || [ ! -s "$work/$printed/trail.txt" ] || cat "$work/$printed/trail.txt"
        else
            echo "    expected: $([ "$expect" = holds ] && echo holds || echo "counterexample ($expect)") (spin -a -D$sc$([ "$bug" = - ] || echo " -D$bug") test/model/${file:-horizon.pml})"
            [ ! -s "$work/$printed/trail.txt" ] || cat "$work/$printed/trail.txt"
        fi
        printed=$((printed + 1))
    done
}

start=$(now)
for i in "${!configs[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
        wait -n || true
        print_ready
    done
    run_one "$i" &
done
wait
print_ready

echo "== seconds and states stored, per configuration"
for i in "${!configs[@]}"; do
    printf '   %-36s %6s s %10s states\n' "${configs[$i]%%|*}" "$(cat "$work/$i/seconds")" "$(cat "$work/$i/states")"
done
total=$(since "$start" '%.0f')
echo "model-check: ${#configs[@]} configurations, $expected as expected, $((${#configs[@]} - expected)) not ($total s)"
[ "$expected" = ${#configs[@]} ]
