#!/usr/bin/env bash
# test/run.sh [demo] - "make test" (and CI's .ci/run): installs the Debian
# packages that are missing, builds and installs pg_uuidx, then runs, as an
# unprivileged OS user in a temp dir:
#   pg_regress  "make installcheck" (sql/, expected/)  } one throwaway cluster
#   pgTAP       pg_prove test/pgtap/*.sql              } (test/cluster.pl)
#   TAP         "make prove_installcheck": test/t/*.pl on PostgreSQL::Test::
#               Cluster, each with clusters of its own (FAULTS=0 skips them)
# and ends with each tool's summary and one "N passed, N failed" line.
# "make demo" runs test/demo.sql instead.  PG_CFLAGS goes to the compiler;
# KEEP=1 keeps the temp dir; PROVE_TESTS=test/t/NAME.pl runs some TAP tests.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

need libtap-parser-sourcehandler-pgtap-perl libfaketime
[ "$debian_server" = yes ] && need "postgresql-$PG_MAJOR-pgtap"
build_install
stage
if [ "${1:-}" = demo ]; then
    in_cluster psql -X -q -v ON_ERROR_STOP=1 -f test/demo.sql
    exit
fi

# pg_regress and pgTAP against one cluster; logs in $work
in_cluster bash -c 'echo "== pg_regress"; make -s installcheck TAP_TESTS= PG_CONFIG="$PG_CONFIG" 2>&1 | tee regress.out
                    [ ${PIPESTATUS[0]} = 0 ] || { touch regress.failed; cat regression.diffs 2>/dev/null; }
                    echo "== pgTAP (pg_prove)"; createdb pgtap_run
                    pg_prove --psql-bin "$(command -v psql)" -d pgtap_run test/pgtap/*.sql 2>&1 | tee pgtap.out' || true
if [ "${FAULTS:-1}" != 0 ]; then
    say "TAP tests (make prove_installcheck)"
    (cd "$work" && as_user make -s prove_installcheck PG_CONFIG="$PG_CONFIG" ${PROVE_TESTS:+PROVE_TESTS="$PROVE_TESTS"} \
        PROVE_FLAGS="${PROVE_FLAGS:-}" 2>&1 | tee tap.out) || true
    grep -q '^Result: PASS' "$work/tap.out" || for f in $(sed -n 's|^\(test/t/[^ ]*\)\.pl .*|\1|p' "$work/tap.out" | sort -u); do
        log=$work/tmp_check/log/regress_log_${f##*/}
        [ -f "$log" ] && ! grep -q "^${f}.pl \.* ok" "$work/tap.out" && { say "$log (last 25 lines)"; tail -n 25 "$log"; }
    done
fi

# "passed failed" from a prove log ($1): "Tests=N" counts the assertions that
# ran, "Failed: F)" those that failed, "Failed X/Y subtests" also the planned
# ones that never ran; no "Result: PASS" is one failure at least
prove_counts() {
    local total ran_failed failed
    total=$(sed -n 's/.*Tests=\([0-9]*\).*/\1/p' "$1" | tail -n 1)
    ran_failed=$(sed -n 's/.*Tests: [0-9]* Failed: \([0-9]*\)).*/\1/p' "$1" | awk '{s += $1} END {print s + 0}')
    failed=$(sed -n 's/.*Failed \([0-9]*\)\/[0-9]* subtests.*/\1/p' "$1" | awk '{s += $1} END {print s + 0}')
    [ "$failed" -ge "$ran_failed" ] || failed=$ran_failed
    grep -q '^Result: PASS' "$1" || [ "$failed" -gt 0 ] || failed=1
    echo "$((${total:-0} - ran_failed)) $failed"
}
passed=0 failed=0
count() {  # count NAME PASSED FAILED SUMMARY
    passed=$((passed + $2)) failed=$((failed + $3))
    printf '%-10s %d passed, %d failed  (%s)\n' "$1:" "$2" "$3" "$4"
}
echo "== summary"
cd "$work"
touch regress.out pgtap.out tap.out
r_pass=$(grep -cE '(\.\.\. ok|^ok [0-9])' regress.out || true)
r_fail=$(grep -cE '(\.\.\. FAILED|^not ok [0-9])' regress.out || true)
[ -f regress.failed ] && [ "$r_fail" = 0 ] && r_fail=1
count pg_regress "$r_pass" "$r_fail" "$(grep -E 'tests? (passed|failed)|^# .*(passed|failed)' regress.out | tr -d '=' | sed 's/^[ #]*//' | head -n 1)"
for t in pgtap tap; do
    [ "$t" = tap ] && [ "${FAULTS:-1}" = 0 ] && { echo "TAP:       skipped (FAULTS=0)"; continue; }
    read -r p f < <(prove_counts $t.out)
    count "$([ $t = tap ] && echo TAP || echo pgTAP)" "$p" "$f" "$(grep -E '^(Files=|Result:)' $t.out | cut -d, -f1-2 | tr '\n' ' ')"
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
