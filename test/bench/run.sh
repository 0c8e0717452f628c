#!/usr/bin/env bash
# test/bench/run.sh - benchmark pg_uuidx on a throwaway cluster and write a
# Markdown report with charts.
#
#   bash test/bench/run.sh [--n-gen N] [--n-insert N] [--reps N]
#                          [--clients "1 2 4 8"] [--seconds S] [--out DIR]
#                          [--batch N] [--n-conv N] [--n-mem N] [--phases "..."]
#                          [--preload N] [--build 1|0]
#
# Builds and installs the extension (make, make install), starts a cluster
# in a temp dir (unix socket only, unprivileged OS user, fsync on, removed on
# exit whatever happens) and measures, in this order:
#   gen      ns per call of every generator and reader, against a floor query
#            (gen.sql; interleaved repetitions, medians)
#   facade   ns per call of uuidv47_encode/decode against uuidv7(), and of
#            uuid_extract_timestamp_us against uuid_extract_timestamp
#            (facade.sql, N_GEN rows, REPS repetitions), if installed
#   memory   per-backend memory before and after N_MEM uuidv7() calls
#   convert  UPDATE / CREATE TABLE AS with uuidv1_to_v6(), if it exists
#   insert   N_INSERT rows keyed by identity, uuidv7(), uuidv6(), gen_random_uuid()
#   pgbench  single-row INSERTs, v4 vs v7, for each client count
# Results go to OUT/report.md, OUT/*.png (gnuplot), OUT/*.tsv and pgbench logs.
#
# Every option is also an environment variable (flags win):
#   N_GEN=2000000  N_INSERT=10000000  BATCH=100000  N_CONV=1000000
#   N_MEM=10000000  REPS=7  CLIENTS="1 2 4 8"  SECONDS_PER_RUN=15
#   PGBENCH_PRELOAD=1000000 (rows in the pgbench table before each run)
#   PHASES="gen facade memory convert insert pgbench"  OUT=test/bench/out
#   PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config  PGPORT_BENCH=54339
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

N_GEN=${N_GEN:-2000000}
N_INSERT=${N_INSERT:-10000000}
BATCH=${BATCH:-100000}
N_CONV=${N_CONV:-1000000}
N_MEM=${N_MEM:-10000000}
REPS=${REPS:-7}
CLIENTS=${CLIENTS:-1 2 4 8}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-15}
PGBENCH_PRELOAD=${PGBENCH_PRELOAD:-1000000}
PHASES=${PHASES:-gen facade memory convert insert pgbench}
OUT=${OUT:-$repo/test/bench/out}
PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
BUILD=${BUILD:-1}

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }

while [ $# -gt 0 ]; do
    case $1 in -h|--help) usage; exit 0 ;; esac
    [ $# -ge 2 ] || { echo "$1 needs a value" >&2; exit 2; }
    case $1 in
        --n-gen) N_GEN=$2 ;;
        --n-insert) N_INSERT=$2 ;;
        --batch) BATCH=$2 ;;
        --n-conv) N_CONV=$2 ;;
        --n-mem) N_MEM=$2 ;;
        --reps) REPS=$2 ;;
        --clients) CLIENTS=$2 ;;
        --seconds) SECONDS_PER_RUN=$2 ;;
        --preload) PGBENCH_PRELOAD=$2 ;;
        --phases) PHASES=$2 ;;
        --out) OUT=$2 ;;
        --build) BUILD=$2 ;;
        *) echo "unknown option: $1 (try --help)" >&2; exit 2 ;;
    esac
    shift 2
done

for v in N_GEN N_INSERT BATCH N_CONV N_MEM REPS SECONDS_PER_RUN; do
    [[ ${!v} =~ ^[1-9][0-9]*$ ]] || { echo "$v must be a positive integer, not '${!v}'" >&2; exit 2; }
done
[[ $PGBENCH_PRELOAD =~ ^(0|[1-9][0-9]*)$ ]] || { echo "PGBENCH_PRELOAD must be a number, not '$PGBENCH_PRELOAD'" >&2; exit 2; }
for c in $CLIENTS; do
    [[ $c =~ ^[1-9][0-9]*$ ]] || { echo "CLIENTS must list positive integers, not '$c'" >&2; exit 2; }
done
[[ $BUILD =~ ^[01]$ ]] || { echo "BUILD must be 1 or 0, not '$BUILD'" >&2; exit 2; }
for p in $PHASES; do
    case $p in gen|facade|memory|convert|insert|pgbench) ;; *) echo "unknown phase: $p" >&2; exit 2 ;; esac
done
has_phase() { [[ " $PHASES " == *" $1 "* ]]; }

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
rm -f "$OUT"/*.tsv "$OUT"/*.png "$OUT"/report.md "$OUT"/*.log "$OUT"/facade.md
build_env=""
if [ "$BUILD" = 0 ]; then build_env="BUILD=0 "; fi
command="${build_env}N_GEN=$N_GEN N_INSERT=$N_INSERT BATCH=$BATCH N_CONV=$N_CONV N_MEM=$N_MEM REPS=$REPS CLIENTS=\"$CLIENTS\" SECONDS_PER_RUN=$SECONDS_PER_RUN PGBENCH_PRELOAD=$PGBENCH_PRELOAD PHASES=\"$PHASES\" bash test/bench/run.sh"

. "$repo/test/debian.sh"
say() { echo "== $*"; }

# Debian packages the benchmark uses, installed only when missing (the server
# packages only for Debian's own build of PostgreSQL)
want=(make gcc gnuplot-nox)
if [[ $PG_CONFIG == /usr/lib/postgresql/*/bin/pg_config ]]; then
    major=${PG_CONFIG#/usr/lib/postgresql/}
    major=${major%%/*}
    want+=("postgresql-$major" "postgresql-server-dev-$major" postgresql-contrib)
fi
install_missing "${want[@]}"

cd "$repo"
so_installed=$("$PG_CONFIG" --pkglibdir)/pg_uuidx.so
if [ "$BUILD" = 1 ]; then
    say "building against $("$PG_CONFIG" --version)"
    # objects left from a build against another major would be linked as is
    make -s PG_CONFIG="$PG_CONFIG" clean
    make -s PG_CONFIG="$PG_CONFIG"
    as_root make -s PG_CONFIG="$PG_CONFIG" install
    so_built=$repo/pg_uuidx.so
else
    say "BUILD=0: benchmarking the pg_uuidx already installed for $("$PG_CONFIG" --version)"
    so_built=$so_installed
fi
so_sum=$(md5sum <"$so_built")
bindir=$("$PG_CONFIG" --bindir)
clock_note="$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo unknown) clock source, $("$bindir/pg_test_timing" -d 1 | sed -n 's/^Per loop time including overhead: //p') per clock read (pg_test_timing)"

# The cluster: a temp dir owned by an unprivileged OS user, reachable only
# through a unix socket in that dir, removed on exit whatever happens.
# fsync stays on: WAL volume and flush cost are part of what is measured.
if [ "$(id -u)" = 0 ]; then
    os_user=postgres
    id "$os_user" >/dev/null 2>&1 || useradd --system --home-dir /nonexistent --shell /bin/false "$os_user"
    as_user() { runuser -u "$os_user" -- "$@"; }
else
    os_user=$(id -un)
    as_user() { "$@"; }
fi
server_opts="-c shared_buffers=1GB -c max_wal_size=4GB"

stop_cluster() {
    local rc=$?
    if [ -n "${tmp:-}" ] && [ -d "$tmp" ]; then
        as_user "$bindir/pg_ctl" -D "$tmp/data" -m immediate stop >/dev/null 2>&1 || true
        if [ $rc -ne 0 ] && [ -z "${interrupted:-}" ] && [ -f "$tmp/server.log" ]; then
            echo "== server log (last 30 lines)" >&2; tail -n 30 "$tmp/server.log" >&2
        fi
        rm -rf "$tmp"
    fi
    exit $rc
}
trap stop_cluster EXIT
trap 'interrupted=yes; exit 130' INT
trap 'interrupted=yes; exit 143' TERM

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pg_uuidx_bench.XXXXXX")
chmod 755 "$tmp"
chown "$os_user" "$tmp"
as_user "$bindir/initdb" -D "$tmp/data" -U postgres -A trust -E UTF8 --locale=C --no-sync >/dev/null
export PGHOST=$tmp PGPORT=${PGPORT_BENCH:-54339} PGUSER=postgres PGDATABASE=bench
as_user "$bindir/pg_ctl" -D "$tmp/data" -l "$tmp/server.log" -w \
    -o "-c listen_addresses='' -k $tmp -p $PGPORT $server_opts" start >/dev/null
say "throwaway cluster: $("$bindir/postgres" --version), socket $tmp, $server_opts"
"$bindir/createdb" bench

export PGOPTIONS="-c client_min_messages=warning"
# Long commands run in the background and are waited for, so that INT and
# TERM reach the traps (and the cluster is removed) at once, not after them.
psql_run() { "$bindir/psql" -X -q -v ON_ERROR_STOP=1 "$@" & wait $!; }
psql_run -f "$here/setup.sql"
load_start=$(cut -d' ' -f1-3 /proc/loadavg)

if has_phase gen; then
    say "generation: $REPS interleaved repetitions of $N_GEN rows per expression"
    psql_run -v n="$N_GEN" -v reps="$REPS" -f "$here/gen.sql"
fi

has_function() { [ "$(psql_run -At -c "SELECT to_regprocedure('$1') IS NOT NULL")" = t ]; }

if has_phase facade && has_function "uuidv47_encode(uuid,bytea)"; then
    say "facade: $REPS interleaved repetitions of $N_GEN rows per expression"
    psql_run -v n="$N_GEN" -v reps="$REPS" -f "$here/facade.sql" >"$OUT/facade.md"
fi

if has_phase memory; then
    say "memory: one backend, 1k then $N_MEM then $N_MEM more uuidv7() calls"
    psql_run -v n="$N_MEM" -f "$here/memory.sql"
fi

if has_phase convert; then
    say "conversion: $N_CONV v1 ids to v6"
    psql_run -v n="$N_CONV" -f "$here/convert.sql"
fi

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
    echo "| pg_uuidx | $(psql_run -At -c "SELECT extversion FROM pg_extension WHERE extname = 'pg_uuidx'"), commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!test/bench' || echo ' + uncommitted changes') |"
    echo "| data directory | $(df -T "$tmp" | awk 'NR == 2 {print $2}') file system, fsync on |"
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
    if [ -s "$OUT/facade.md" ]; then
        echo "## UUIDv47 facade and microsecond reader (facade.sql)"
        echo
        cat "$OUT/facade.md"
        echo
    fi
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
