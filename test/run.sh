#!/usr/bin/env bash
# test/run.sh [MODE] - the one runner behind every make target that runs something.  It installs the Debian packages
# that are missing, builds and installs pg_uuidx, and runs, as an unprivileged OS user in a temp dir (test/lib.sh),
# on throwaway clusters of PostgreSQL::Test::Cluster:
#   (none)      "make test", CI's .ci/run:
#               pg_regress  "make installcheck" (sql/, expected/)  } on one
#               pgTAP       pg_prove test/pgtap/*.sql              } cluster
#               sqlbuild    the SQL build ("make sql-only"): pg_prove test/sqlbuild/*.sql beside the C build, and
#                           test/sqlbuild/extension/*.sql with time_laws.sql where it is the extension pg_uuidx
#               parallel    pg_regress and pgTAP again, on a cluster where every query that can is planned with
#                           a parallel worker (test/cluster.pl --parallel: debug_parallel_query,
#                           force_parallel_mode on 15, = regress)
#               model       "make model-check": the horizon's protocol, test/model/horizon.pml, checked by Spin
#                           (test/model/check.sh), no cluster
#               TAP         "make prove_installcheck": test/t/*.pl, each with clusters of its own
#               memcheck    pg_regress, pgTAP and test/t/099_sanitizer.pl again against an ASan+UBSan build
# Every mode builds and installs into a private copy of the server (lib.sh's private_server): the server's own
# directories are only read, whether the run passes, fails or is interrupted.
#   demo        test/demo.sql ("make demo")
#   parallel    the parallel lane of "make test" alone ("make parallel-check")
#   tap         the TAP tests of "make test" alone (PROVE_TESTS picks)
#   bench       test/bench/bench.pl, report in OUT ("make bench"); PHASES=versions: the base version BASE (a git
#               ref, default b1b4130: 1.2) as extension pg_uuidx_base; PHASES=throughput: PgQ, pgqd from Debian
#   crosscheck  test/lanes/textforms/crosscheck.pl: text forms against npm, Python
#   uuidv47     test/lanes/uuidv47/ref.pl: the facade against the reference implementation in UUIDV47_SRC
#   ecosystem   test/lanes/ecosystem/*.pl, pg_partman and TimescaleDB built first by
#               test/lanes/ecosystem/build.sh (TimescaleDB from TIMESCALEDB_SOURCE [TIMESCALEDB_REF] when set)
#   citus       test/lanes/citus/citus.pl and reading.pl, Citus built first by test/lanes/citus/build.sh from
#               CITUS_SOURCE [CITUS_REF]
#   pg_uuidv7-adopt test/lanes/pg_uuidv7/adopt.pl: moving pg_uuidv7's dependents to pg_uuidx, pg_uuidv7 built
#               first by test/lanes/pg_uuidv7/build.sh from PG_UUIDV7_SOURCE [PG_UUIDV7_REF]
#   pg_tle      test/lanes/pg_tle/*.pl: the SQL build under pg_tle, dump and restore between it and the C build,
#               pg_tle built first by test/lanes/pg_tle/build.sh from PG_TLE_SOURCE [PG_TLE_REF]
#   pgxn ZIP    the PGXN zip of "make dist" installed with pgxnclient, checked (test/lanes/dist/installed.pl)
#               and uninstalled
#   deb         the Debian package built from a fresh clone of HEAD, installed, checked (installed.pl, the
#               autopkgtest) and purged
# The optional TAP tests skip, with the reason, what is not there.  Each run ends with each tool's summary and one
# "N passed, N failed" line.  FAULTS=0 skips the TAP tests and memcheck, MEMCHECK=0 memcheck; MEMCHECK=1 ("make
# memcheck") runs only the sanitized pass, with every TAP test; PROVE_TESTS=test/t/X.pl picks TAP tests; KEEP=1
# keeps the temp dir; PG_CFLAGS goes to the compiler.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

mode=${1:-}
# pgTAP: Debian's package for a Debian server that has no pgTAP yet (test/lanes/sid-chroot.sh copies pgTAP's SQL
# files for a major without one)
need libtap-parser-sourcehandler-pgtap-perl python3 spin $([ "$debian_server" = no ] ||
    [ -f "$("$PG_CONFIG" --sharedir 2>/dev/null)/extension/pgtap.control" ] || echo "postgresql-$PG_MAJOR-pgtap")
# clang's sanitizers: for the sanitizer pass and for the TAP test that runs this runner's sanitizer pass itself
# (test/t/095_runner_cleanup.pl)
[ -n "$mode" ] || [ "${FAULTS:-1}" = 0 ] || need_sanitizers
stage
# the work tree test/t/095_runner_cleanup.pl runs this runner from (default: this one; another shows the test
# failing against a broken runner)
export PG_UUIDX_SOURCE=${PG_UUIDX_SOURCE:-$REPO}

passed=0 failed=0 summary=() undo=()
count() {  # count LABEL PASSED FAILED NOTE
    passed=$((passed + $2)) failed=$((failed + $3))
    summary+=("$(printf '%-20s %4d passed, %d failed  (%s)' "$1:" "$2" "$3" "$4")")
}
# on exit (lib.sh's stage): undo what a package mode installed, then the summary
on_exit() {
    local u
    for u in "${undo[@]}"; do eval "$u" || failed=$((failed + 1)); done
    printf '%s' "${server_upgrade_note:-}" >&2  # test/debian.sh: restart the clusters it names
    [ ${#summary[@]} -gt 0 ] || return 0
    say summary
    printf '%s\n' "${summary[@]}"
    echo "$passed passed, $failed failed"
    [ "$failed" = 0 ]
}
# check WHAT CMD... - one counted step; a failed step ends the run
check() {
    local what=$1; shift
    say "$what"
    if "$@"; then count "$mode" 1 0 "$what"; else count "$mode" 0 1 "FAILED: $what"; exit 1; fi
}

# "passed failed" from a prove log ($1): "Tests=N" counts the assertions that ran, "Failed: F)" those that failed,
# "Failed X/Y subtests" also the planned ones that never ran; no "Result: PASS" (or NOTESTS: all skipped) is one
# failure at least
prove_counts() {
    local total ran_failed failed
    total=$(sed -n 's/.*Tests=\([0-9]*\).*/\1/p' "$1" | tail -n 1)
    ran_failed=$(sed -n 's/.*Tests: [0-9]* Failed: \([0-9]*\)).*/\1/p' "$1" | awk '{s += $1} END {print s + 0}')
    failed=$(sed -n 's/.*Failed \([0-9]*\)\/[0-9]* subtests.*/\1/p' "$1" | awk '{s += $1} END {print s + 0}')
    [ "$failed" -ge "$ran_failed" ] || failed=$ran_failed
    grep -qE '^Result: (PASS|NOTESTS)' "$1" || [ "$failed" -gt 0 ] || failed=1
    echo "$((${total:-0} - ran_failed)) $failed"
}

# sql_suites LABEL [CLUSTER OPTION] - pg_regress and pgTAP against what is installed, on one cluster
# (test/cluster.pl with that option: --parallel for the parallel lane, where every query that can is planned with a
# parallel worker, set to regress and seen to work: a PARALLEL SAFE function that calls a restricted one, or a
# worker that acts for its leader, shows up there); if the option's setup fails, nothing runs and the step is one
# failure; logs in $work/LABEL.*.  Before 17 the cluster preloads pg_uuidx: the commit horizon
# (sql/read_after_tables.sql reads with it) has its shared state only so there.
sql_suites() {
    local l=$1 p f preload=()
    [ "$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')" -ge 17 ] ||
        preload=(-c "shared_preload_libraries = 'pg_uuidx'")
    in_cluster "${preload[@]}" "${@:2}" bash -c "
        echo '== $l: pg_regress'; make -s installcheck PG_CONFIG=\"\$PG_CONFIG\" 2>&1 | tee $l.regress
        [ \${PIPESTATUS[0]} = 0 ] || { touch $l.regress.failed; cat regression.diffs 2>/dev/null; }
        echo '== $l: pgTAP (pg_prove)'; createdb pgtap_run
        pg_prove --psql-bin \"\$(command -v psql)\" -d pgtap_run test/pgtap/*.sql 2>&1 | tee $l.pgtap" || true
    if [ $# -gt 1 ] && [ ! -f "$work/$l.regress" ]; then count "$l setup" 0 1 "FAILED: test/cluster.pl ${*:2}"; return; fi
    cd "$work"
    touch "$l.regress" "$l.pgtap"
    p=$(grep -cE '(\.\.\. ok|^ok [0-9])' "$l.regress" || true)
    f=$(grep -cE '(\.\.\. FAILED|^not ok [0-9])' "$l.regress" || true)
    [ -f "$l.regress.failed" ] && [ "$f" = 0 ] && f=1
    count "$l pg_regress" "$p" "$f" "$(grep -E 'tests? (passed|failed)|^# .*(passed|failed)' "$l.regress" | tr -d '=#' | xargs)"
    read -r p f < <(prove_counts "$l.pgtap")
    count "$l pgTAP" "$p" "$f" "$(grep -E '^(Files=|Result:)' "$l.pgtap" | cut -d, -f1-2 | xargs)"
    cd "$REPO"
}

# sqlbuild_suites - the SQL build (sqlonly/, "make sql-only"), generated into $work/sql-only, one counted line:
#  - test/sqlbuild/*.sql (pg_prove) on a cluster of the run's server where the C build and the SQL build are
#    compared (test/sqlbuild/setup.psql);
#  - test/sqlbuild/extension/*.sql and test/pgtap/time_laws.sql on a copy of the server (hard links) whose extension
#    pg_uuidx is the SQL build: its control file and scripts in the extension directory, no library
sqlbuild_suites() {
    local l=sqlbuild out=$work/sql-only copy=$work/server-sql p f p2 f2 ext
    say "$l: make sql-only"
    if ! perl "$REPO/sqlonly/generate.pl" "$out"; then count "$l pgTAP" 0 1 "FAILED: make sql-only"; return; fi
    grep -v '^#' "$REPO/sqlonly/functions.tsv" | tail -n +2 >"$out/functions.list"
    grep -v '^#' "$REPO/sqlonly/relations.tsv" | tail -n +2 >"$out/relations.list"
    chmod -R a+rX "$out"
    in_cluster bash -c "echo '== $l: the two builds side by side (pg_prove test/sqlbuild/*.sql)'; createdb sqlbuild_run &&
        psql -X -q -d sqlbuild_run -v out='$out' -f test/sqlbuild/setup.psql &&
        pg_prove --psql-bin \"\$(command -v psql)\" -d sqlbuild_run test/sqlbuild/*.sql" 2>&1 | tee "$work/$l.pgtap" || true
    read -r p f < <(prove_counts "$work/$l.pgtap")
    # the cluster's files (kept when a test failed), out of the next one's way
    [ ! -d "$work/tmp_check" ] || mv "$work/tmp_check" "$work/$l.tmp_check"
    # the copy: links to the run's server, the C build's files replaced by the SQL build's
    cp -al "$work/server" "$copy"
    ext=$copy$("$server_pg_config" --sharedir)/extension
    rm -f "$ext"/pg_uuidx.control "$ext"/pg_uuidx--*.sql "$copy$("$server_pg_config" --pkglibdir)"/pg_uuidx.*
    cp "$out"/pg_uuidx.control "$out"/pg_uuidx--*.sql "$ext/" && chmod a+r "$ext"/pg_uuidx*
    (
        PG_CONFIG=$copy$("$server_pg_config" --bindir)/pg_config
        bindir=$("$PG_CONFIG" --bindir) pgxs_src=$(dirname "$("$PG_CONFIG" --pgxs)")/..
        in_cluster bash -c "echo '== $l: the SQL build as extension pg_uuidx (pg_prove test/sqlbuild/extension/*.sql test/pgtap/time_laws.sql)'
            createdb sqlbuild_ext && pg_prove --psql-bin \"\$(command -v psql)\" -d sqlbuild_ext test/sqlbuild/extension/*.sql test/pgtap/time_laws.sql"
    ) 2>&1 | tee "$work/$l.ext.pgtap" || true
    read -r p2 f2 < <(prove_counts "$work/$l.ext.pgtap")
    [ ! -d "$work/tmp_check" ] || mv "$work/tmp_check" "$work/$l.ext.tmp_check"
    count "$l pgTAP" $((p + p2)) $((f + f2)) "$(grep -hE '^(Files=|Result:)' "$work/$l.pgtap" "$work/$l.ext.pgtap" | cut -d, -f1-2 | xargs)"
}

# tap LABEL TESTS - TAP tests through "make prove_installcheck"; the log of every test that did not pass is shown
tap() {
    local l=$1 p f t
    say "$l: TAP tests (make prove_installcheck)"
    cd "$work"
    as_user make -s prove_installcheck PG_CONFIG="$PG_CONFIG" PROVE_TESTS="$2" 2>&1 | tee "$l.tap" || true
    read -r p f < <(prove_counts "$l.tap")
    count "$l TAP" "$p" "$f" "$(grep -E '^(Files=|Result:)' "$l.tap" | cut -d, -f1-2 | xargs)"
    for t in $(sed -n 's|^\([^ ]*\)\.pl *(Wstat.*|\1|p' "$l.tap"); do
        [ -f "tmp_check/log/regress_log_${t##*/}" ] && { say "${t##*/} (last 25 lines)"; tail -n 25 "tmp_check/log/regress_log_${t##*/}"; }
    done
    mv tmp_check "$l.tmp_check" 2>/dev/null || true
    cd "$REPO"
}

# model_check - test/model/check.sh ("make model-check"): one pass for each configuration of the model as expected,
# one failure for each other (one when the check did not finish)
model_check() {
    local p f
    say "model: the horizon's protocol, checked by Spin (test/model/check.sh)"
    bash "$REPO/test/model/check.sh" 2>&1 | tee "$work/model.log" || true
    read -r p f < <(sed -n 's/^model-check: [0-9]* configurations, \([0-9]*\) as expected, \([0-9]*\) not.*/\1 \2/p' "$work/model.log"; echo)
    count model "${p:-0}" "${f:-1}" "$(tail -n 1 "$work/model.log")"
}

# pg_uuidv7_fixture - the stand-in for pg_uuidv7 1.6 of test/t/pg_uuidv7_fixture (test/t/072_adopt_pg_uuidv7.pl)
# into the run's private copy of the server, where build_install pointed PG_CONFIG
pg_uuidv7_fixture() {
    local d
    d=$("$PG_CONFIG" --sharedir)/extension
    inside "$work/server" "$d" || { echo "$d is not in the private copy $work/server" >&2; exit 1; }
    install -m 644 "$REPO"/test/t/pg_uuidv7_fixture/pg_uuidv7.control \
        "$REPO"/test/t/pg_uuidv7_fixture/pg_uuidv7--1.6.sql "$d/"
}

# the sanitized build: clang's ASan+UBSan, recovery off (PostgreSQL's -fwrapv stays; MEMCHECK_STRICT=1 adds
# -fno-wrapv); the runtime is preloaded into the test servers only (asan_warmup.c says why it follows the runtime)
memcheck() {
    need_sanitizers
    build_install CC=clang PG_CFLAGS="$(echo -fsanitize=address,undefined -fno-sanitize-recover=all \
        -fno-omit-frame-pointer -O1 -g -Wno-ignored-attributes -Wno-unknown-warning-option \
        -Wno-unused-command-line-argument -Wno-compound-token-split-by-macro \
        "$([ "${MEMCHECK_STRICT:-0}" = 1 ] && echo -fno-wrapv)")"
    pg_uuidv7_fixture
    gcc -O2 -shared -fPIC -o "$work/asan_warmup.so" "$REPO/test/t/asan_warmup.c" -ldl
    as_user mkdir "$work/san"
    export PG_UUIDX_SERVER_PRELOAD="$(clang -print-file-name=libclang_rt.asan-x86_64.so):$work/asan_warmup.so" \
        PG_UUIDX_SANITIZER_LOGS=$work/san ASAN_SYMBOLIZER_PATH=$(command -v llvm-symbolizer || true) \
        ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:log_path=$work/san/asan:detect_odr_violation=0" \
        UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$work/san/ubsan"
    sql_suites memcheck
    tap memcheck "$1"
    unset PG_UUIDX_SERVER_PRELOAD PG_UUIDX_SANITIZER_LOGS ASAN_OPTIONS UBSAN_OPTIONS
}

# base_install REF - pg_uuidx as of git REF, from "git archive" into $work (nothing of it enters the work tree),
# built and installed into the private server copy as the extension pg_uuidx_base: its library renamed, a control
# file whose module_pathname names it, and every script of REF renamed (a full script of its default version where
# REF has one, else its base script and the updates to that version).  Sets BENCH_BASE, a label for the report.
base_install() {
    local ref=$1 dir=$work/base ver share pkglib f
    mkdir -p "$dir"
    git -C "$REPO" archive --format=tar "$ref" | tar -x -C "$dir"
    ver=$(sed -n "s/^default_version *= *'\(.*\)'/\1/p" "$dir/pg_uuidx.control")
    say "base: building pg_uuidx $ver as of $ref"
    make -s -C "$dir" PG_CONFIG="$PG_CONFIG" ${PG_CFLAGS:+PG_CFLAGS="$PG_CFLAGS"} >/dev/null
    pkglib=$("$PG_CONFIG" --pkglibdir) share=$("$PG_CONFIG" --sharedir)/extension
    cp "$dir/pg_uuidx.so" "$pkglib/pg_uuidx_base.so"
    sed -e "/^module_pathname/d" -e "s|^comment *= *'|comment = 'base version ($ref) of pg_uuidx: |" \
        "$dir/pg_uuidx.control" >"$share/pg_uuidx_base.control"
    echo "module_pathname = '\$libdir/pg_uuidx_base'" >>"$share/pg_uuidx_base.control"
    for f in "$dir"/pg_uuidx--*.sql; do cp "$f" "$share/pg_uuidx_base--${f##*/pg_uuidx--}"; done
    chmod a+r "$pkglib/pg_uuidx_base.so" "$share"/pg_uuidx_base*
    BENCH_BASE="$ref ($(git -C "$REPO" rev-parse --short "$ref^{commit}"), pg_uuidx $ver)"
}

# optional LABEL BUILD_SCRIPT TESTS - TAP tests beside other software, built by BUILD_SCRIPT ("" for none) after
# pg_uuidx is installed into the run's private copy of the server: the script compiles against the server's own
# pg_config (PG_CONFIG) and installs below PG_UUIDX_PRIVATE_SERVER (make install DESTDIR=...), so the real server is
# only read.  What is not built makes its test skip.
optional() {
    build_install
    [ -z "$2" ] || PG_CONFIG=$server_pg_config PG_UUIDX_PRIVATE_SERVER=$work/server bash "$REPO/$2" ||
        say "$1: not built; its test will skip"
    tap "$1" "$3"
}

# The PGXN zip ($1): its layout and META.json, then pgxn install, load, check (installed.pl), uninstall
pgxn_test() {
    local zip top
    zip=$(realpath "$1") top=$(basename "$1" .zip)
    install_missing pgxnclient unzip
    cp "$zip" "$work/" && chown "$os_user" "$work/$top.zip"
    check "zip layout: every entry under $top/, META.json, the control file and LICENSE in it" bash -c "
        unzip -Z1 '$zip' | grep -v '^$top/' && exit 1
        for f in META.json pg_uuidx.control LICENSE; do unzip -Z1 '$zip' | grep -qx \"$top/\$f\" || exit 1; done"
    check "META.json in the zip is valid" bash -c "unzip -q -o '$zip' -d '$work/unzipped' &&
        python3 '$REPO/test/lanes/dist/meta_check.py' '$work/unzipped/$top/META.json'"
    undo+=("as_root pgxn uninstall --pg_config '$PG_CONFIG' '$zip' >/dev/null")
    check "pgxn install $1 --pg_config $PG_CONFIG" as_root pgxn install --pg_config "$PG_CONFIG" "$zip"
    PG_UUIDX_INSTALLED="pgxn $work/$top.zip" tap pgxn test/lanes/dist/installed.pl
    check "pgxn uninstall" as_root pgxn uninstall --pg_config "$PG_CONFIG" "$zip"
    undo=()
}

# The Debian package of Debian's PostgreSQL 15, from a fresh clone of HEAD; refuses to overwrite a pg_uuidx that is
# there already (a "make install" or a package).  The built files are copied to the work tree.
deb_test() {
    local pkg=postgresql-15-pg-uuidx src=$work/pg-uuidx deb f scripts
    local files=(/usr/lib/postgresql/15/lib/pg_uuidx.so /usr/share/postgresql/15/extension/pg_uuidx.control)
    for f in "${files[@]}"; do
        [ ! -e "$f" ] || { echo "$f exists ($(dpkg -S "$f" 2>/dev/null || echo 'make install')): remove it first" >&2; exit 2; }
    done
    install_missing git dpkg-dev debhelper fakeroot build-essential postgresql-server-dev-all
    git clone -q "$REPO" "$src"
    say "fresh clone of $(git -C "$src" rev-parse --short HEAD) in $src"
    # the base install script and every update script of the clone
    scripts=$(cd "$src" && for f in pg_uuidx--*.sql; do echo "/usr/share/postgresql/15/extension/$f"; done | xargs)
    f=$(cd "$src" && dpkg-parsechangelog -S Version)
    (cd "$src" && tar --exclude=.git --exclude=./debian -czf "../pg-uuidx_${f%-*}.orig.tar.gz" .)
    deb=$work/${pkg}_${f}_$(dpkg-architecture -qDEB_HOST_ARCH).deb
    # pg_buildext runs the suite at build time on a pg_virtualenv cluster
    check "dpkg-buildpackage -us -uc (fresh clone)" bash -c "cd '$src' && dpkg-buildpackage -us -uc >../build.log 2>&1 ||
        { tail -n 40 ../build.log; exit 1; }; grep -E '^(### |test |=+\$| All | [0-9]+ of)' ../build.log"
    cp "$work"/*.deb "$work"/*.dsc "$work"/*.orig.tar.gz "$work"/*.debian.tar.* "$work"/*.buildinfo "$work"/*.changes "$REPO/"
    check "$(basename "$deb") holds the library, control file, scripts and copyright" bash -c "
        dpkg-deb -c '$deb' | sed 's/.* \.\//   \//' | grep -E 'pg_uuidx(\.so|\.control|--.*\.sql)\$|copyright\$' | tee '$work/contents'
        for f in ${files[*]} $scripts /usr/share/doc/$pkg/copyright; do
            grep -qx \"   \$f\" '$work/contents' || { echo \"   missing: \$f\"; exit 1; }; done"
    undo+=("as_root env DEBIAN_FRONTEND=noninteractive apt-get purge -y -q -o DPkg::Lock::Timeout=300 $pkg >/dev/null")
    check "apt-get install $(basename "$deb")" as_root env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -q -o DPkg::Lock::Timeout=300 "$deb"
    PG_UUIDX_INSTALLED=deb tap deb test/lanes/dist/installed.pl
    check "autopkgtest debian/tests/installcheck (pg_buildext installcheck)" bash -c "cd '$src' && debian/tests/installcheck"
    undo=()
    check "apt-get purge $pkg" as_root env DEBIAN_FRONTEND=noninteractive apt-get purge -y -q "$pkg"
    check "no pg_uuidx file left in PostgreSQL 15's directories" bash -c "! ls ${files[*]} 2>/dev/null"
}

case $mode in
    demo) build_install; in_cluster -c shared_preload_libraries=pg_uuidx psql -X -q -v ON_ERROR_STOP=1 -f test/demo.sql ;;
    bench)
        need gnuplot-nox
        so=$("$PG_CONFIG" --pkglibdir)/pg_uuidx.so
        # the throughput phase: PgQ before the server is copied; without it, PgQ is left out
        [[ " ${PHASES:-} " != *" throughput "* ]] || { [ "$debian_server" = yes ] && (install_missing "postgresql-$PG_MAJOR-pgq3" pgqd); } ||
            say "throughput: PgQ (postgresql-$PG_MAJOR-pgq3, pgqd) not installed; the phase will leave it out"
        [ "${BUILD:-1}" = 0 ] && say "BUILD=0: benchmarking the pg_uuidx installed in $so" || { build_install; so=$REPO/pg_uuidx.so; }
        # BUILD=0 too: the versions phase installs the base version into the copy
        private_server
        case " ${PHASES:-} " in *" versions "*) base_install "${BASE:=b1b4130}"; export BENCH_BASE BASE ;; esac
        # the citus phase: Citus built into the copy as "make citus" does; else it skips
        case " ${PHASES:-} " in *" citus "*)
            PG_CONFIG=$server_pg_config PG_UUIDX_PRIVATE_SERVER=$work/server bash "$REPO/test/lanes/citus/build.sh" ||
                say "citus: Citus not built (CITUS_SOURCE=<checkout or git URL> [CITUS_REF=<tag>]); the citus phase will skip" ;;
        esac
        out=${OUT:-$REPO/test/bench/out}
        mkdir -p "$out" && rm -f "$out"/*.tsv "$out"/*.png "$out"/*.md "$out"/*.log
        cp "$so" "$work/pg_uuidx.so"
        # the horizon phase renews the copy's library file, as an install in place does
        chown "$os_user" "$("$PG_CONFIG" --pkglibdir)/pg_uuidx.so"
        # the SQL build for the sqlbuild phase
        perl "$REPO/sqlonly/generate.pl" "$work/sql-only" && chmod -R a+rX "$work/sql-only"
        export BENCH_SQLONLY=$work/sql-only/pg_uuidx_plain.sql
        rc=0
        BENCH_OUT=$work/out BENCH_COMMIT="$(git -C "$REPO" rev-parse --short HEAD)$(git -C "$REPO" diff --quiet HEAD -- \
            . ':!test/bench' || echo ' + uncommitted changes')" in_cluster -c shared_buffers=1GB -c max_wal_size=4GB \
            -c fsync=on -c wal_level=replica -c max_wal_senders=10 perl test/bench/bench.pl || rc=$?
        cp -r "$work/out/." "$out/"
        exit $rc ;;
    crosscheck) optional crosscheck "" test/lanes/textforms/crosscheck.pl ;;
    uuidv47) optional uuidv47 "" test/lanes/uuidv47/ref.pl ;;
    ecosystem) optional ecosystem test/lanes/ecosystem/build.sh "test/lanes/ecosystem/*.pl" ;;
    citus) optional citus test/lanes/citus/build.sh "${PROVE_TESTS:-test/lanes/citus/citus.pl test/lanes/citus/reading.pl}" ;;
    pg_uuidv7-adopt) optional pg_uuidv7-adopt test/lanes/pg_uuidv7/build.sh test/lanes/pg_uuidv7/adopt.pl ;;
    pg_tle) optional pg_tle test/lanes/pg_tle/build.sh "test/lanes/pg_tle/*.pl" ;;
    parallel) build_install; sql_suites parallel --parallel ;;
    tap) build_install; pg_uuidv7_fixture; tap main "${PROVE_TESTS:-test/t/*.pl}" ;;
    pgxn) pgxn_test "${2:?usage: $0 pgxn ZIP}" ;;
    deb) deb_test ;;
    "")
        if [ "${MEMCHECK:-0}" = 1 ]; then
            memcheck "${PROVE_TESTS:-test/t/*.pl}"
        else
            build_install
            pg_uuidv7_fixture
            sql_suites main
            sqlbuild_suites
            sql_suites parallel --parallel
            model_check
            [ "${FAULTS:-1}" = 0 ] || tap main "${PROVE_TESTS:-test/t/*.pl}"
            [ "${FAULTS:-1}" = 0 ] || [ "${MEMCHECK:-}" = 0 ] || memcheck test/t/099_sanitizer.pl
        fi ;;
    *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
esac
