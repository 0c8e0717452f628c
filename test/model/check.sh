#!/usr/bin/env bash
# test/model/check.sh - "make model-check": the models of the commit horizon (test/model/horizon.pml, a server and
# its replicas; test/model/cluster.pml, a Citus cluster) checked by Spin, exhaustively, in every configuration of
# test/model/configs.txt: each scenario with the protocol as it is must hold, and each known defect put back (a
# -DBUG_... switch) must give a counterexample on the invariant it breaks.  One line per configuration:
#   model <name>: holds
#   model <name>: counterexample (<invariant>)
# then the seconds and states of each, and a last line
#   model-check: N configurations, N as expected, N not (S s)
# that test/run.sh counts.  Exits 1 unless every configuration is as expected; 2 when Spin or a C compiler is
# missing.
#
# Each configuration is built in a temp dir (spin -a, gcc -DSAFETY, ./pan), MODEL_JOBS (default 2) at a time; the
# dir is removed on exit, also on Ctrl-C.  A search that did not finish (depth or memory bound) counts as not as
# expected.  MODEL_TRAIL=1 prints every counterexample's steps; an unexpected one is always printed.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
jobs=${MODEL_JOBS:-2} depth=10000 memlim=4096
configs=()
while read -r line; do
    [ -z "$line" ] || [ "${line:0:1}" = '#' ] || configs+=("$line")
done <"$here/configs.txt"

for tool in spin gcc; do
    command -v "$tool" >/dev/null || { echo "model-check: $tool is missing (Debian: apt-get install spin gcc)" >&2; exit 2; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/pg_uuidx_model.XXXXXX")
# the searches still running are stopped, then the temp dir removed, however the run ends (background jobs of a
# script do not get the terminal's Ctrl-C): this script's jobs, and the searches they started (pan.pid)
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

# run_one I: build and search configuration I in $work/I; writes result ("holds", "counterexample (inv)" or
# "incomplete (why)"), seconds, states
run_one() {
    local name sc bug expect file d=$work/$1 start
    read -r name sc bug expect file <<<"${configs[$1]}"
    file=${file:-horizon.pml} start=$(now)
    mkdir -p "$d"
    (
        cd "$d"
        defs=("-D$sc")
        [ "$bug" = - ] || defs+=("-D$bug")
        cp "$here/$file" "$file"
        spin -a "${defs[@]}" "$file" >spin.log 2>&1 || { echo "incomplete (spin -a failed)" >result; exit 0; }
        # a search that must finish is long: worth optimizing; one that stops at a counterexample is short: worth
        # compiling fast
        opt=-O1
        [ "$expect" = holds ] || opt=-O0
        gcc $opt -w -DSAFETY -DMEMLIM=$memlim -o pan pan.c >gcc.log 2>&1 || { echo "incomplete (gcc failed)" >result; exit 0; }
        ./pan -m$depth >pan.log 2>&1 &
        echo $! >pan.pid
        rc=0
        wait $! || rc=$?
        rm -f pan.pid
        if grep -q 'assertion violated' pan.log; then
            echo "counterexample ($(sed -n 's/.*assertion violated \([a-z_]*\).*/\1/p' pan.log | head -n 1))"
            spin -t "${defs[@]}" "$file" 2>&1 | sed -n 's/^ *MSC: /      /p' >trail.txt || true
        elif grep -q 'max search depth too small' pan.log; then
            echo "incomplete (search depth $depth too small)"
        elif grep -qE 'out of memory|MEMLIM' pan.log; then
            echo "incomplete (out of memory, $memlim MB)"
        elif [ "$rc" = 0 ] && grep -q 'errors: 0' pan.log; then
            echo holds
        else
            echo "incomplete (pan: $(grep -m 1 -E 'error|pan:' pan.log || echo "exit $rc"))"
        fi >result
    ) || echo "incomplete (failed)" >"$d/result"
    since "$start" '%.1f' >"$d/seconds"
    sed -n 's/^ *\([0-9][0-9]*\) states, stored.*/\1/p' "$d/pan.log" 2>/dev/null | head -n 1 >"$d/states"
}

spin_version=$(spin -V | sed -n 's/^Spin Version \([^ ]*\).*/\1/p')
echo "== model-check: test/model/horizon.pml and cluster.pml, Spin $spin_version, $jobs at a time; the scenarios' bounds:"
sed -n '/^ \*   SC_IDS/,/^ \*$/p' "$here/horizon.pml" | sed '$d; s/^ \*  /  /'
sed -n '/^ \*   SC_CLUSTER /,/^ \*$/p' "$here/cluster.pml" | sed '$d; s/^ \*  /  /'

printed=0 expected=0
# print_ready: the results that are in, in order
print_ready() {
    local name sc bug expect file want d
    while [ "$printed" -lt ${#configs[@]} ] && [ -f "$work/$printed/states" ]; do
        read -r name sc bug expect file <<<"${configs[$printed]}"
        d=$work/$printed want=holds printed=$((printed + 1))
        [ "$expect" = holds ] || want="counterexample ($expect)"
        echo "model $name: $(cat "$d/result")"
        if [ "$(cat "$d/result")" = "$want" ]; then
            expected=$((expected + 1))
            [ "${MODEL_TRAIL:-0}" = 0 ] || cat "$d/trail.txt" 2>/dev/null || true
        else
            echo "    expected: $want (spin -a -D$sc$([ "$bug" = - ] || echo " -D$bug") test/model/${file:-horizon.pml})"
            cat "$d/trail.txt" 2>/dev/null || true
        fi
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
    printf '   %-36s %6s s %10s states\n' "${configs[$i]%% *}" "$(cat "$work/$i/seconds")" "$(cat "$work/$i/states")"
done
total=$(since "$start" '%.0f')
echo "model-check: ${#configs[@]} configurations, $expected as expected, $((${#configs[@]} - expected)) not ($total s)"
[ "$expected" = ${#configs[@]} ]
