#!/usr/bin/env bash
# test/fault/memcheck.sh - the full test suite against an ASan+UBSan build.
#
# Builds pg_uuidx with clang -fsanitize=address,undefined (recovery off;
# PostgreSQL's own -fwrapv stays, as in every PGXS build, so signed overflow
# is defined and not reported unless MEMCHECK_STRICT=1 adds -fno-wrapv), installs
# it, and starts a throwaway cluster whose postmaster has the ASan runtime
# (which carries UBSan's handlers) LD_PRELOADed, with asan_warmup.so after
# it (see there why): the server itself is not
# instrumented, so only our code is checked, and every backend and parallel
# worker inherits the runtime.  Then the suite test/run.sh runs in test mode
# (pg_regress through "make installcheck", pgTAP through pg_prove), plus
# test/fault/memcheck_extra.sql (entropy refills, errors, shifts, parallel
# workers, fresh backends).  JIT is off so that our functions run as built.
#
# Reports are written per process under the temp dir; each one is counted,
# and the script FAILS if any report's text mentions our code (pg_uuidx.so or
# a file of src/), or if the suite fails, or if the backend did not in fact
# run with the sanitizer.  The normal build is restored afterwards (make
# clean, make, make install), whatever happened.
#
# Environment: MEMCHECK_CC (default clang), SANITIZE (default
# address,undefined), MEMCHECK_STRICT=1 (also report signed overflow, which
# PostgreSQL's -fwrapv otherwise defines).  Usage: test/fault/memcheck.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

MEMCHECK_CC=${MEMCHECK_CC:-clang}
SANITIZE=${SANITIZE:-address,undefined}

ensure_packages clang libclang-rt-14-dev llvm postgresql-$PG_MAJOR-pgtap libtap-parser-sourcehandler-pgtap-perl
asan_rt=$("$MEMCHECK_CC" -print-file-name=libclang_rt.asan-x86_64.so)
[ -f "$asan_rt" ] || die "no ASan runtime found by $MEMCHECK_CC (libclang-rt-*-dev)"
symbolizer=$(command -v llvm-symbolizer || true)

# Put the ordinary build back: the sanitized .so must not stay installed
# (without the preloaded runtime it cannot even be loaded).
restore_build() {
    say "restoring the normal build"
    make -s -C "$REPO_DIR" PG_CONFIG="$PG_CONFIG" clean >/dev/null 2>&1 || true
    make -s -C "$REPO_DIR" PG_CONFIG="$PG_CONFIG" >/dev/null 2>&1 &&
        as_root make -s -C "$REPO_DIR" PG_CONFIG="$PG_CONFIG" install >/dev/null 2>&1 ||
        echo "WARNING: the normal build could not be restored; run make clean install" >&2
    make -s -C "$REPO_DIR" PG_CONFIG="$PG_CONFIG" clean >/dev/null 2>&1 || true
}

san_flags="-fsanitize=$SANITIZE -fno-sanitize-recover=all -fno-omit-frame-pointer -O1 -g
 -Wno-ignored-attributes -Wno-unknown-warning-option -Wno-unused-command-line-argument -Wno-compound-token-split-by-macro"
[ "${MEMCHECK_STRICT:-0}" = 1 ] && san_flags="$san_flags -fno-wrapv"
say "sanitized build: $MEMCHECK_CC $(echo $san_flags | cut -d' ' -f1-5)${MEMCHECK_STRICT:+ (strict: -fno-wrapv)}"
make_tmp
trap 'rc=$?; restore_build; (exit $rc); cleanup' EXIT
make -s -C "$REPO_DIR" PG_CONFIG="$PG_CONFIG" clean >/dev/null
make -s -C "$REPO_DIR" PG_CONFIG="$PG_CONFIG" CC="$MEMCHECK_CC" PG_CFLAGS="$(echo $san_flags)" >"$tmp/build.log" 2>&1 ||
    { cat "$tmp/build.log"; die "sanitized build failed"; }
as_root make -s -C "$REPO_DIR" PG_CONFIG="$PG_CONFIG" install >/dev/null
installed_so=$("$PG_CONFIG" --pkglibdir)/pg_uuidx.so
nm -D "$installed_so" >"$tmp/symbols"
check "the installed pg_uuidx.so is instrumented (ASan and UBSan entry points)" \
    "$(grep -q ' U __asan_report_' "$tmp/symbols" &&
        { [[ $SANITIZE != *undefined* ]] || grep -q ' U __ubsan_handle_' "$tmp/symbols"; } && echo t || echo f)" \
    "$(grep -c ' U __asan_report_' "$tmp/symbols") ASan, $(grep -c ' U __ubsan_handle_' "$tmp/symbols") UBSan entry points"

# see asan_warmup.c: without it the ASan-preloaded server hangs before main()
gcc -O2 -shared -fPIC -o "$tmp/asan_warmup.so" "$FAULT_DIR/asan_warmup.c" -ldl
san_dir=$tmp/sanitizer
mkdir -p "$san_dir"
chown "$os_user" "$san_dir"
start_cluster 54342 "-c jit=off -c max_worker_processes=8 -c max_parallel_workers=8" \
    LD_PRELOAD="$asan_rt:$tmp/asan_warmup.so" \
    ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:abort_on_error=0:log_path=$san_dir/asan:symbolize=1:detect_odr_violation=0" \
    UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$san_dir/ubsan" \
    ${symbolizer:+ASAN_SYMBOLIZER_PATH="$symbolizer"}

q -c "CREATE DATABASE probe"
check_sql "a backend that calls pg_uuidx runs with the sanitizer runtime mapped" \
    "CREATE EXTENSION pg_uuidx; SELECT uuidv7() IS NOT NULL
       AND position('libclang_rt.asan' IN pg_read_file('/proc/' || pg_backend_pid() || '/maps')) > 0
       AND position('pg_uuidx.so' IN pg_read_file('/proc/' || pg_backend_pid() || '/maps')) > 0" probe

# The suite, as test/run.sh runs it in test mode.
suite_rc=0
say "pg_regress"
(cd "$REPO_DIR" && timeout 1800 make -s PG_CONFIG="$PG_CONFIG" installcheck) >"$tmp/regress.out" 2>&1 || suite_rc=1
grep -E '^(not )?ok |^test |\.\.\. ' "$tmp/regress.out" | sed 's/^/    /' || true
[ $suite_rc -eq 0 ] || { [ -f "$REPO_DIR/regression.diffs" ] && head -n 40 "$REPO_DIR/regression.diffs"; }
check "pg_regress suite passes under the sanitizers" "$([ $suite_rc -eq 0 ] && echo t || echo f)" \
    "$(grep -E 'tests? (passed|failed)' "$tmp/regress.out" | tr -s ' ' | sed 's/^ //; s/ *$//' | head -n 1)"

say "pgTAP (pg_prove)"
wait_ready || echo "server not accepting connections"
"$bindir/createdb" pgtap_run || true
prove_rc=0
(cd "$REPO_DIR" && timeout 1800 pg_prove --psql-bin "$bindir/psql" -d pgtap_run test/pgtap/*.sql) >"$tmp/prove.out" 2>&1 || prove_rc=1
sed 's/^/    /' "$tmp/prove.out"
check "pgTAP suite passes under the sanitizers" "$([ $prove_rc -eq 0 ] && grep -q '^Result: PASS' "$tmp/prove.out" && echo t || echo f)" \
    "$(grep -E '^Files=' "$tmp/prove.out" | cut -d, -f1-2)"

say "extra workload (test/fault/memcheck_extra.sql)"
wait_ready || echo "server not accepting connections"
"$bindir/createdb" extra || true
extra_rc=0
timeout 900 "$bindir/psql" -X -q -v ON_ERROR_STOP=1 -d extra -f "$FAULT_DIR/memcheck_extra.sql" >"$tmp/extra.out" 2>&1 || extra_rc=1
[ $extra_rc -eq 0 ] || tail -n 20 "$tmp/extra.out"
check "extra workload runs to the end" "$([ $extra_rc -eq 0 ] && echo t || echo f)"
timeout 300 "$bindir/pgbench" -n -C -c 4 -j 2 -t 25 -d extra \
    -f <(echo "SELECT uuidv4(), uuidv7(), uuidv7('-1 day');") >"$tmp/fresh.out" 2>&1 || extra_rc=1
check "100 fresh backends make ids" "$(grep -q 'actually processed: 100/100' "$tmp/fresh.out" && echo t || echo f)"

wait_ready 30 || true
stop_cluster

# Reports: a report starts at a sanitizer's ERROR/WARNING line or a UBSan
# "runtime error:" line and runs to the next one; it is ours if any of its
# lines names pg_uuidx.so or one of our sources.
shopt -s nullglob
san_files=("$san_dir"/*)
shopt -u nullglob
reports=$(cat "${san_files[@]}" "$tmp/server.log" | awk '
    /(ERROR|WARNING): (Address|UndefinedBehavior)Sanitizer|runtime error:/ {
        if (n) { total++; if (ours_cur) ours++ }
        n = 1; ours_cur = 0
    }
    n && /pg_uuidx\.so|src\/[a-z_]+\.[ch]/ { ours_cur = 1 }
    END { if (n) { total++; if (ours_cur) ours++ } print total + 0, ours + 0 }')
total=${reports% *} ours=${reports#* }
if [ "$total" -gt 0 ]; then
    say "sanitizer reports (first 60 lines; all in ${san_files[*]:-server.log})"
    cat "${san_files[@]}" /dev/null | head -n 60
fi
say "sanitizer reports: $total in all, $ours in pg_uuidx"
check "no sanitizer report in pg_uuidx's code" "$([ "$ours" -eq 0 ] && echo t || echo f)" "$ours of $total reports"
check "no sanitizer report at all" "$([ "$total" -eq 0 ] && echo t || echo f)" "$total reports"
summary
