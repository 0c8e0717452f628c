#!/usr/bin/env bash
# test/bench/run.sh - benchmark pg_uuidx on a throwaway cluster and write a
# Markdown report with charts.
#
#   bash test/bench/run.sh [--n-gen N] [--n-insert N] [--reps N]
#                          [--clients "1 2 4 8"] [--seconds S] [--out DIR]
#                          [--batch N] [--n-conv N] [--n-mem N] [--phases "..."]
#                          [--preload N] [--build 1|0]
#
# Builds and installs the extension (make, make install), runs itself again
# inside a throwaway cluster (test/lib.sh's in_cluster: unix socket only,
# unprivileged OS user, fsync on, removed on exit) and measures, in order:
#   gen      ns per call of every generator and reader, against a floor query
#            (gen.sql; interleaved repetitions, medians)
#   memory   per-backend memory before and after N_MEM uuidv7() calls
#   convert  UPDATE / CREATE TABLE AS with uuidv1_to_v6(), if it exists
#   facade   ns per call of uuidv47_encode/decode against uuidv7(), and of
#            uuid_extract_timestamp_us against uuid_extract_timestamp
#            (facade.sql, N_GEN rows, REPS repetitions), if installed
#   range    a one-hour range on N_RANGE DEFAULT uuidv7() rows: id <@ tstzrange
#            against a uuid_extract_timestamp(id) filter (range.sql)
#   textforms  ns per call of the base32hex, ULID and TypeID functions
#            against uuid_out and uuid_in (textforms.sql; N_GEN ids, REPS)
#   insert   N_INSERT rows keyed by identity, uuidv7(), uuidv6(), gen_random_uuid()
#   pgbench  single-row INSERTs, v4 vs v7, for each client count
# Results go to OUT/report.md, OUT/*.png (gnuplot), OUT/*.tsv and pgbench logs.
#
# Every option is also an environment variable (flags win):
#   N_GEN=2000000  N_INSERT=10000000  BATCH=100000  N_CONV=1000000
#   N_MEM=10000000  REPS=7  CLIENTS="1 2 4 8"  SECONDS_PER_RUN=15
#   PGBENCH_PRELOAD=1000000 (rows in the pgbench table before each run)
#   PHASES="gen facade memory convert range textforms insert pgbench"  N_RANGE=10000000  OUT=test/bench/out
#   PG_CONFIG (default: Debian's /usr/lib/postgresql/$PG_MAJOR, PG_MAJOR=15)
#   BUILD=1 (0: skip make and make install, benchmark what is installed)
# N_GEN is also the row count of the readers' table; above about 3M rows it
# outgrows a quarter of shared_buffers and is read through the OS cache.
# The defaults take about 20 minutes on 2 cores.
# A quick smoke run:
#   N_GEN=200000 N_INSERT=200000 N_CONV=100000 N_MEM=200000 REPS=3 \
#   SECONDS_PER_RUN=2 CLIENTS="1 2" PGBENCH_PRELOAD=100000 bash test/bench/run.sh
# Nothing here asserts timings: targets are printed as PASS or MISS.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }
# --NAME VALUE sets the variable NAME (upper case, - as _; --seconds and
# --preload set SECONDS_PER_RUN and PGBENCH_PRELOAD)
while [ $# -gt 0 ]; do
    case $1 in -h|--help) usage; exit 0 ;; --seconds) set -- --seconds-per-run "${@:2}" ;; --preload) set -- --pgbench-preload "${@:2}" ;; esac
    v=$(echo "${1#--}" | tr a-z- A-Z_)
    [[ $1 == --* && " N_GEN N_INSERT BATCH N_CONV N_MEM REPS CLIENTS SECONDS_PER_RUN PGBENCH_PRELOAD PHASES OUT BUILD N_RANGE " == *" $v "* ]] ||
        { echo "unknown option: $1 (try --help)" >&2; exit 2; }
    [ $# -ge 2 ] || { echo "$1 needs a value" >&2; exit 2; }
    printf -v "$v" '%s' "$2"
    shift 2
done
: "${N_GEN:=2000000}" "${N_INSERT:=10000000}" "${BATCH:=100000}" "${N_CONV:=1000000}" "${N_MEM:=10000000}" "${REPS:=7}"
: "${CLIENTS:=1 2 4 8}" "${SECONDS_PER_RUN:=15}" "${PGBENCH_PRELOAD:=1000000}" "${OUT:=$repo/test/bench/out}" "${BUILD:=1}"
: "${PHASES:=gen facade memory convert range textforms insert pgbench}" "${N_RANGE:=10000000}"
bad() { echo "$1" >&2; exit 2; }
for v in N_GEN N_INSERT BATCH N_CONV N_MEM N_RANGE REPS SECONDS_PER_RUN; do
    [[ ${!v} =~ ^[1-9][0-9]*$ ]] || bad "$v must be a positive integer, not '${!v}'"
done
[[ $CLIENTS =~ ^[1-9][0-9]*( [1-9][0-9]*)*$ ]] || bad "CLIENTS must list positive integers, not '$CLIENTS'"
[[ $PGBENCH_PRELOAD =~ ^(0|[1-9][0-9]*)$ ]] || bad "PGBENCH_PRELOAD must be a number, not '$PGBENCH_PRELOAD'"
[[ $BUILD =~ ^[01]$ ]] || bad "BUILD must be 1 or 0, not '$BUILD'"
for p in $PHASES; do [[ " gen facade memory convert range textforms insert pgbench " == *" $p "* ]] || bad "unknown phase: $p"; done
has_phase() { [[ " $PHASES " == *" $1 "* ]]; }

build_env=""
if [ "$BUILD" = 0 ]; then build_env="BUILD=0 "; fi
command="${build_env}N_GEN=$N_GEN N_INSERT=$N_INSERT BATCH=$BATCH N_CONV=$N_CONV N_MEM=$N_MEM N_RANGE=$N_RANGE REPS=$REPS CLIENTS=\"$CLIENTS\" SECONDS_PER_RUN=$SECONDS_PER_RUN PGBENCH_PRELOAD=$PGBENCH_PRELOAD PHASES=\"$PHASES\" bash test/bench/run.sh"

# Outside: packages, build, then this script again inside a throwaway cluster
# (test/lib.sh's in_cluster: PostgreSQL::Test::Cluster, run by an
# unprivileged OS user in a temp dir), whose results are copied to OUT.
# fsync and wal_level as by default: WAL volume and flush cost are measured.
if [ -z "${BENCH_INSIDE:-}" ]; then
    . "$repo/test/lib.sh"
    need gnuplot-nox
    if [ "$BUILD" = 1 ]; then
        build_install
        so=$repo/pg_uuidx.so
    else
        say "BUILD=0: benchmarking the pg_uuidx already installed for $("$PG_CONFIG" --version)"
        so=$("$PG_CONFIG" --pkglibdir)/pg_uuidx.so
    fi
    mkdir -p "$OUT"
    OUT=$(cd "$OUT" && pwd)
    rm -f "$OUT"/*.tsv "$OUT"/*.png "$OUT"/*.md "$OUT"/*.log
    stage
    cp "$so" "$work/pg_uuidx.so"
    export N_GEN N_INSERT BATCH N_CONV N_MEM N_RANGE REPS CLIENTS SECONDS_PER_RUN PGBENCH_PRELOAD PHASES BUILD command \
        BENCH_INSIDE=1 BENCH_OUT=$work/out BENCH_COMMIT="$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)$(
            git -C "$repo" diff --quiet HEAD -- . ':!test/bench' 2>/dev/null || echo ' + uncommitted changes')"
    rc=0
    in_cluster -c shared_buffers=1GB -c max_wal_size=4GB -c fsync=on -c wal_level=replica -c max_wal_senders=10 \
        bash test/bench/run.sh || rc=$?
    cp -r "$work/out/." "$OUT/"
    exit $rc
fi

# Inside: PGHOST, PGPORT and PGDATA are the cluster's; the work dir is $PWD.
say() { echo "== $*"; }
OUT=$BENCH_OUT
mkdir -p "$OUT"
so_built=$PWD/pg_uuidx.so
so_installed=$("$PG_CONFIG" --pkglibdir)/pg_uuidx.so
so_sum=$(md5sum <"$so_built")
bindir=$("$PG_CONFIG" --bindir)
clock_note="$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo unknown) clock source, $("$bindir/pg_test_timing" -d 1 | sed -n 's/^Per loop time including overhead: //p') per clock read (pg_test_timing)"
export PGDATABASE=bench
"$bindir/createdb" bench

export PGOPTIONS="-c client_min_messages=warning"
# long commands run in the background and are waited for: INT and TERM end them at once
psql_run() { "$bindir/psql" -X -q -v ON_ERROR_STOP=1 "$@" & wait $!; }
psql_run -f "$here/setup.sql"
load_start=$(cut -d' ' -f1-3 /proc/loadavg)

has_phase gen && { say "generation: $REPS interleaved repetitions of $N_GEN rows per expression"
    psql_run -v n="$N_GEN" -v reps="$REPS" -f "$here/gen.sql"; }
has_phase memory && { say "memory: one backend, 1k then $N_MEM then $N_MEM more uuidv7() calls"
    psql_run -v n="$N_MEM" -f "$here/memory.sql"; }
has_function() { [ "$(psql_run -At -c "SELECT to_regprocedure('$1') IS NOT NULL")" = t ]; }
has_phase facade && has_function "uuidv47_encode(uuid,bytea)" && {
    say "facade: $REPS interleaved repetitions of $N_GEN rows per expression"
    psql_run -v n="$N_GEN" -v reps="$REPS" -f "$here/facade.sql" >"$OUT/facade.md"; }
has_phase convert && { say "conversion: $N_CONV v1 ids to v6"; psql_run -v n="$N_CONV" -f "$here/convert.sql"; }
has_phase range && { say "range: one hour of $N_RANGE rows, $REPS repetitions"
    psql_run -v n="$N_RANGE" -v reps="$REPS" -f "$here/range.sql" >"$OUT/range.md"; }
has_phase textforms && { say "text forms: $REPS interleaved repetitions over $N_GEN ids"
    psql_run -v n="$N_GEN" -v reps="$REPS" -f "$here/textforms.sql" >"$OUT/textforms.md"; }

# name, column definition of the key, function it needs (empty: none)
insert_keys=(
    "identity|bigint GENERATED ALWAYS AS IDENTITY|"
    "uuidv7()|uuid DEFAULT uuidv7()|uuidv7()"
    "uuidv6()|uuid DEFAULT uuidv6()|uuidv6()"
    "gen_random_uuid()|uuid DEFAULT gen_random_uuid()|gen_random_uuid()"
)

if has_phase insert; then
    for k in "${insert_keys[@]}"; do
        IFS='|' read -r name keydef needs <<<"$k"
        if [ -n "$needs" ] && ! has_function "$needs"; then say "insert: $name not installed, skipped"; continue; fi
        say "insert: $N_INSERT rows keyed by $name, $BATCH rows a statement"
        psql_run -v key="$name" -v keydef="$keydef" -v n="$N_INSERT" -v batch="$BATCH" -f "$here/insert.sql"
    done
fi

# pgbench: a fresh table per run, preloaded with PGBENCH_PRELOAD rows so the
# index is more than a few pages, then a checkpoint: the first change to each
# leaf page after it writes a full-page image to WAL, as on a live server.
pgbench_run() {
    local def=$1 c=$2 j log tps lat lsn0
    j=$(nproc)
    while [ $((c % j)) -ne 0 ]; do j=$((j - 1)); done
    say "pgbench: $c client(s), $j thread(s), ${SECONDS_PER_RUN}s, INSERT keyed by $def"
    psql_run -c "DROP TABLE IF EXISTS pb" -c "CREATE TABLE pb (id uuid PRIMARY KEY DEFAULT $def)" \
        -c "INSERT INTO pb SELECT FROM generate_series(1, $PGBENCH_PRELOAD)" -c "VACUUM ANALYZE pb" -c CHECKPOINT
    lsn0=$(psql_run -At -c "SELECT pg_current_wal_lsn()")
    log=$OUT/pgbench_${def%%(*}_c$c.log
    "$bindir/pgbench" -n -M prepared -c "$c" -j "$j" -T "$SECONDS_PER_RUN" \
        -f "$here/pgbench_insert.sql" >"$log" 2>&1 &
    wait $! || { cat "$log" >&2; return 1; }
    tps=$(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' "$log")
    lat=$(sed -n 's/^latency average = \([0-9.]*\) ms/\1/p' "$log")
    psql_run -c "INSERT INTO pgb_result
        SELECT '$def', $c, $j, $SECONDS_PER_RUN, $PGBENCH_PRELOAD, $tps, ${lat:-NULL}, count(*) - $PGBENCH_PRELOAD,
               pg_wal_lsn_diff(pg_current_wal_lsn(), '$lsn0') FROM pb"
}

# v4 and v7 alternate which goes first from one client count to the next
if has_phase pgbench; then
    first=yes
    for c in $CLIENTS; do
        if [ $first = yes ]; then
            pgbench_run "gen_random_uuid()" "$c"; pgbench_run "uuidv7()" "$c"; first=no
        else
            pgbench_run "uuidv7()" "$c"; pgbench_run "gen_random_uuid()" "$c"; first=yes
        fi
    done
    psql_run -c "DROP TABLE pb"
fi

load_end=$(cut -d' ' -f1-3 /proc/loadavg)
[ "$(md5sum <"$so_installed")" = "$so_sum" ] && so_changed=no || so_changed=yes

# ---- report ----------------------------------------------------------------
say "writing $OUT/report.md"
report=$OUT/report.md
gib() { awk -v k="$1" 'BEGIN { printf "%.1f GiB", k / 1048576 }'; }
{
    echo "# pg_uuidx benchmark"
    echo
    echo "| | |"
    echo "|---|---|"
    echo "| date | $(date -u '+%Y-%m-%d %H:%M UTC') |"
    echo "| CPU | $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(nproc) cores |"
    echo "| clock | $clock_note |"
    echo "| RAM | $(gib "$(awk '/^MemTotal/ {print $2}' /proc/meminfo)") |"
    # shellcheck source=/dev/null
    echo "| OS | $(. /etc/os-release && echo "$PRETTY_NAME"), kernel $(uname -r) |"
    echo "| PostgreSQL | $(psql_run -At -c 'SELECT version()') |"
    echo "| pg_uuidx | $(psql_run -At -c "SELECT extversion FROM pg_extension WHERE extname = 'pg_uuidx'"), commit $BENCH_COMMIT |"
    echo "| data directory | $(df -T "$PGDATA" | awk 'NR == 2 {print $2}') file system, fsync on |"
    echo "| server settings | shared_buffers=1GB, max_wal_size=4GB, everything else default |"
    echo "| load average (1, 5, 15 min) | $load_start at start, $load_end at end |"
    echo
    echo "Command (effective settings):"
    echo
    echo '```'
    echo "$command"
    echo '```'
    if [ "$so_changed" = yes ]; then
        printf '\n**Warning:** the installed pg_uuidx.so is no longer the one this run built (another build installed over it); numbers may mix two builds.\n'
    fi
    echo
    psql_run -At -f "$here/report.sql"
    for part in facade range textforms; do
        if [ -s "$OUT/$part.md" ]; then cat "$OUT/$part.md"; echo; fi
    done
    if has_phase memory; then
        echo "Static state in the shared library (\`nm -S --size-sort\`, data and bss symbols):"
        echo
        echo "| symbol | section | bytes |"
        echo "|---|---|---|"
        total=0
        while read -r _ size type sym; do
            case $type in b|B) section=bss ;; d|D) section=data ;; *) continue ;; esac
            echo "| \`$sym\` | $section | $((16#$size)) |"
            total=$((total + 16#$size))
        done < <(nm -S --size-sort "$so_built")
        echo "| total | | $total |"
        if nm "$so_built" | grep -q ' completed\.0$'; then
            echo
            echo "\`completed.0\` belongs to the C runtime's start-up code, not to pg_uuidx."
        fi
        echo
        echo "Section sizes (\`size -A\`): $(size -A "$so_built" | awk '$1 ~ /^\.(data|bss)$/ {printf "%s%s %d bytes", s, $1, $2; s = ", "}')."
    fi
} >"$report"

# tab-separated data for gnuplot and for the record
for t in gen:ord insert:ord pgbench:clients; do
    [ "$(psql_run -At -c "SELECT count(*) FROM report_${t%:*}")" -gt 0 ] || continue
    psql_run -c "\\copy (SELECT * FROM report_${t%:*} ORDER BY ${t#*:}) TO '$OUT/${t%:*}.tsv' WITH (FORMAT text, HEADER)"
done
if command -v gnuplot >/dev/null; then
    (cd "$OUT" && gnuplot "$here/charts.gp")
    {
        echo
        echo "## Charts"
        echo
        for png in gen insert_rate insert_size pgbench; do
            if [ -s "$OUT/$png.png" ]; then echo "![$png]($png.png)"; fi
        done
    } >>"$report"
else
    echo "gnuplot not found: no charts" >&2
fi
say "done: $report"
