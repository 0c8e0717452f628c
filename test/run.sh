#!/usr/bin/env bash
# test/run.sh [demo|crosscheck|ecosystem|citus] - "make test" (and CI's .ci/run): installs the Debian
# packages that are missing, builds and installs pg_uuidx, then runs, as an
# unprivileged OS user in a temp dir:
#   pg_regress  "make installcheck" (sql/, expected/)  } on one throwaway
#   pgTAP       pg_prove test/pgtap/*.sql              } test/cluster.pl
#   TAP         "make prove_installcheck": test/t/*.pl on PostgreSQL::Test::
#               Cluster, each with clusters of its own
#   memcheck    pg_regress, pgTAP and test/t/099_sanitizer.pl again against
#               an ASan+UBSan build, then the normal build is put back
# and ends with each tool's summary and one "N passed, N failed" line.
# FAULTS=0 skips the TAP tests and memcheck, MEMCHECK=0 memcheck; MEMCHECK=1 ("make memcheck")
# runs only the sanitized pass, with every TAP test; PROVE_TESTS=test/t/X.pl
# picks TAP tests; KEEP=1 keeps the temp dir; PG_CFLAGS goes to the
# compiler.  "make demo" runs test/demo.sql instead; "make crosscheck"
# (test/run.sh crosscheck) test/textforms/crosscheck.sh, the text forms
# against npm ulid, typeid-js and Python, skipped when they are missing;
# "make ecosystem" (test/run.sh ecosystem) builds pg_partman and TimescaleDB
# (test/ecosystem/build.sh) and runs test/ecosystem/*.pl, which skip what is
# not there; "make citus" (CITUS_SOURCE=<path or git URL> [CITUS_REF=tag])
# builds Citus (test/citus/build.sh) and runs test/citus/citus.pl.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

need libtap-parser-sourcehandler-pgtap-perl libfaketime $([ "$debian_server" = no ] || echo "postgresql-$PG_MAJOR-pgtap")
stage
[ "${1:-}" != demo ] || { build_install; in_cluster psql -X -q -v ON_ERROR_STOP=1 -f test/demo.sql; exit; }
if [ "${1:-}" = crosscheck ]; then
    # a skip, not a failure, when node, the npm packages or python3 are missing
    bash "$REPO/test/textforms/crosscheck.sh" need || exit 0
    build_install
    in_cluster env PSQL="$bindir/psql" bash test/textforms/crosscheck.sh run
    exit
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
passed=0 failed=0 summary=()
count() {  # count LABEL PASSED FAILED NOTE
    passed=$((passed + $2)) failed=$((failed + $3))
    summary+=("$(printf '%-20s %4d passed, %d failed  (%s)' "$1:" "$2" "$3" "$4")")
}

# suite LABEL TAP_TESTS - the three runners against what is installed;
# logs in $work/LABEL.*
suite() {
    local l=$1 tests=$2 p f
    in_cluster bash -c "echo '== $l: pg_regress'; make -s installcheck PG_CONFIG=\"\$PG_CONFIG\" 2>&1 | tee $l.regress
        [ \${PIPESTATUS[0]} = 0 ] || { touch $l.regress.failed; cat regression.diffs 2>/dev/null; }
        echo '== $l: pgTAP (pg_prove)'; createdb pgtap_run
        pg_prove --psql-bin \"\$(command -v psql)\" -d pgtap_run test/pgtap/*.sql 2>&1 | tee $l.pgtap" || true
    cd "$work"
    touch "$l.regress" "$l.pgtap" "$l.tap"
    p=$(grep -cE '(\.\.\. ok|^ok [0-9])' "$l.regress" || true)
    f=$(grep -cE '(\.\.\. FAILED|^not ok [0-9])' "$l.regress" || true)
    [ -f "$l.regress.failed" ] && [ "$f" = 0 ] && f=1
    count "$l pg_regress" "$p" "$f" "$(grep -E 'tests? (passed|failed)|^# .*(passed|failed)' "$l.regress" | tr -d '=#' | xargs)"
    read -r p f < <(prove_counts "$l.pgtap")
    count "$l pgTAP" "$p" "$f" "$(grep -E '^(Files=|Result:)' "$l.pgtap" | cut -d, -f1-2 | xargs)"
    [ -n "$tests" ] || { cd "$REPO"; return; }
    say "$l: TAP tests (make prove_installcheck)"
    as_user make -s prove_installcheck PG_CONFIG="$PG_CONFIG" PROVE_TESTS="$tests" 2>&1 | tee "$l.tap" || true
    read -r p f < <(prove_counts "$l.tap")
    count "$l TAP" "$p" "$f" "$(grep -E '^(Files=|Result:)' "$l.tap" | cut -d, -f1-2 | xargs)"
    # the log of every TAP test that did not pass
    for t in $(sed -n 's|^\(test/t/[^ ]*\)\.pl *(Wstat.*|\1|p' "$l.tap"); do
        [ -f "tmp_check/log/regress_log_${t##*/}" ] && { say "${t##*/} (last 25 lines)"; tail -n 25 "tmp_check/log/regress_log_${t##*/}"; }
    done
    mv tmp_check "$l.tmp_check" 2>/dev/null || true
    cd "$REPO"
}

# the sanitized build: clang's ASan+UBSan, recovery off (PostgreSQL's -fwrapv
# stays; MEMCHECK_STRICT=1 adds -fno-wrapv); the runtime is preloaded into
# the test servers only (asan_warmup.c says why it follows the runtime)
memcheck() {
    need clang libclang-rt-14-dev llvm
    build_install CC=clang PG_CFLAGS="$(echo -fsanitize=address,undefined -fno-sanitize-recover=all \
        -fno-omit-frame-pointer -O1 -g -Wno-ignored-attributes -Wno-unknown-warning-option \
        -Wno-unused-command-line-argument -Wno-compound-token-split-by-macro \
        "$([ "${MEMCHECK_STRICT:-0}" = 1 ] && echo -fno-wrapv)")"
    gcc -O2 -shared -fPIC -o "$work/asan_warmup.so" "$REPO/test/t/asan_warmup.c" -ldl
    as_user mkdir "$work/san"
    PG_UUIDX_SERVER_PRELOAD="$(clang -print-file-name=libclang_rt.asan-x86_64.so):$work/asan_warmup.so" \
    PG_UUIDX_SANITIZER_LOGS=$work/san ASAN_SYMBOLIZER_PATH=$(command -v llvm-symbolizer || true) \
    ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:log_path=$work/san/asan:detect_odr_violation=0" \
    UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$work/san/ubsan" suite memcheck "$1"
    build_install
}

if [ "${1:-}" = ecosystem ]; then
    build_install
    bash "$REPO/test/ecosystem/build.sh" || say "ecosystem: a build failed; its test will skip"
    suite ecosystem "test/ecosystem/*.pl"
elif [ "${1:-}" = citus ]; then
    build_install
    bash "$REPO/test/citus/build.sh" || say "citus: not built; the test will skip"
    suite citus "test/citus/*.pl"
elif [ "${MEMCHECK:-0}" = 1 ]; then
    memcheck "${PROVE_TESTS:-test/t/*.pl}"
else
    build_install
    [ "${FAULTS:-1}" = 0 ] && suite main "" || suite main "${PROVE_TESTS:-test/t/*.pl}"
    [ "${FAULTS:-1}" = 0 ] || [ "${MEMCHECK:-}" = 0 ] || memcheck test/t/099_sanitizer.pl
fi
echo "== summary"
printf '%s\n' "${summary[@]}"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
