#!/usr/bin/env bash
# test/fault/run.sh [NAME...] - the fault tests of issue 7, one after another.
#
#   clock_step    the clock steps back 30 s mid-session (libfaketime)
#   concurrency   4 sessions x 200k inserts with DEFAULT uuidv7()
#   fork          preloaded library: fresh backends and parallel workers
#   dump_restore  pg_dump -Fc / pg_restore of tables with uuidv7() defaults
#   memcheck      the whole suite against an ASan+UBSan build
#
# Each is test/fault/NAME.sh and runs alone as well; each starts its own
# throwaway cluster (ports 54339-54343).  The extension is built and
# installed once here; memcheck rebuilds it sanitized and puts the normal
# build back.  Prints every check ("ok - ..." / "not ok - ..."), then one
# line per script and a closing "N passed, N failed"; a script that dies
# before its own closing line counts as one failure.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

all=(clock_step concurrency fork dump_restore memcheck)
names=("$@")
[ ${#names[@]} -gt 0 ] || names=("${all[@]}")
for n in "${names[@]}"; do
    [ -f "$FAULT_DIR/$n.sh" ] || die "no test/fault/$n.sh (one of: ${all[*]})"
done

ensure_packages libfaketime clang libclang-rt-14-dev llvm "postgresql-$PG_MAJOR-pgtap" libtap-parser-sourcehandler-pgtap-perl
build_install
export FAULT_SKIP_BUILD=1

total_passed=0 total_failed=0 lines=()
for n in "${names[@]}"; do
    echo
    echo "######## $n"
    log=$(mktemp)
    rc=0
    timeout 1800 bash "$FAULT_DIR/$n.sh" 2>&1 | tee "$log" || rc=$?
    last=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1 || true)
    if [ -n "$last" ]; then
        p=${last%% passed*} f=${last#*passed, } f=${f%% failed}
    else
        p=0 f=0
    fi
    # a script that stopped early or exited non-zero with no failed check
    if [ -z "$last" ] || { [ $rc -ne 0 ] && [ "$f" -eq 0 ]; }; then f=$((f + 1)); fi
    total_passed=$((total_passed + p)) total_failed=$((total_failed + f))
    lines+=("$(printf '%-13s %4d passed, %d failed%s' "$n" "$p" "$f" "$([ $rc -ne 0 ] && echo " (exit $rc)")")")
    rm -f "$log"
done

echo
echo "######## summary"
printf '%s\n' "${lines[@]}"
echo "$total_passed passed, $total_failed failed"
[ "$total_failed" -eq 0 ]
