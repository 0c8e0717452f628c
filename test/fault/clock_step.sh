#!/usr/bin/env bash
# test/fault/clock_step.sh - the wall clock steps back 30 s mid-session.
#
# The whole cluster runs under libfaketime, whose offset is read from a file
# on every clock call (FAKETIME_NO_CACHE=1); the file is rewritten between
# statements of ONE psql session (a here-doc with \! escapes), so all ids
# below come from one backend.  CLOCK_MONOTONIC is left alone
# (FAKETIME_DONT_FAKE_MONOTONIC=1), as an NTP step would leave it.
#
#   phase 1  offset +0        ids follow the clock
#   phase 2  offset -30 s     ids keep the last tick of phase 1 (counter only)
#   phase 3  still -30 s, 0.2 s later: the same
#   phase 4  offset +0        ids follow the clock again
#   phase 5  offset -1 s      ids keep the last tick of phase 4
#   phase 6  after 1.3 s      the clock has passed that tick: ids follow it
#
# Checked for uuidv7() and, when the installed version has it, uuidv6():
# strictly increasing over all phases, stuck while behind, within 1 ms of
# the (faked) clock when not.  Usage: test/fault/clock_step.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"
ext_before_core

FAKETIME_LIB=${FAKETIME_LIB:-/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1}
IDS_PER_CALL=500

ensure_packages libfaketime
[ -r "$FAKETIME_LIB" ] || die "no libfaketime at $FAKETIME_LIB (set FAKETIME_LIB)"
build_install
make_tmp
offset_file=$tmp/faketime.rc
echo "+0" >"$offset_file"
start_cluster 54339 "" \
    LD_PRELOAD="$FAKETIME_LIB" FAKETIME_TIMESTAMP_FILE="$offset_file" \
    FAKETIME_NO_CACHE=1 FAKETIME_DONT_FAKE_MONOTONIC=1

q -f "$FAULT_DIR/helpers.sql"
q <<'SQL'
CREATE EXTENSION pg_uuidx;
CREATE TABLE gen_fns AS
SELECT f AS fn FROM unnest(ARRAY['uuidv7', 'uuidv6']) AS f
WHERE to_regprocedure(f || '()') IS NOT NULL;

-- one row per id: the clock read just before and just after the call
CREATE TABLE ids (
    phase int, fn text, n int, pid int DEFAULT pg_backend_pid(),
    before_ts timestamptz, id uuid, after_ts timestamptz,
    PRIMARY KEY (fn, phase, n));

CREATE FUNCTION gen(p int, cnt int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE f text;
BEGIN
    FOR f IN SELECT fn FROM gen_fns ORDER BY fn LOOP
        EXECUTE format('INSERT INTO ids (phase, fn, n, before_ts, id, after_ts)
                        SELECT $1, $2, g, clock_timestamp(), %I(), clock_timestamp()
                        FROM generate_series(1, $3) AS g', f)
        USING p, f, cnt;
    END LOOP;
END $$;
SQL
say "generators: $(q -c "SELECT string_agg(fn || '()', ', ' ORDER BY fn) FROM gen_fns")"

# The session.  An offset is written to a new file and renamed over the old
# one, so that no process ever reads a half-written offset.
printf '#!/bin/sh\nprintf "%%s\\n" "$1" >"%s.new" && mv "%s.new" "%s"\n' \
    "$offset_file" "$offset_file" "$offset_file" >"$tmp/set_offset"
chmod 755 "$tmp/set_offset"
session_log=$tmp/session.log
timeout 120 "$bindir/psql" -X -q -v ON_ERROR_STOP=1 >"$session_log" 2>&1 <<SQL || { cat "$session_log"; die "session failed"; }
SELECT gen(1, $IDS_PER_CALL);
\\! $tmp/set_offset -30
SELECT gen(2, $IDS_PER_CALL);
SELECT pg_sleep(0.2);
SELECT gen(3, $IDS_PER_CALL);
\\! $tmp/set_offset +0
SELECT gen(4, $IDS_PER_CALL);
\\! $tmp/set_offset -1
SELECT gen(5, $IDS_PER_CALL);
SELECT pg_sleep(1.3);
SELECT gen(6, $IDS_PER_CALL);
SQL

for fn in $(q -c "SELECT fn FROM gen_fns ORDER BY fn"); do
    w="fn = '$fn'"
    check_sql "$fn: $((6 * IDS_PER_CALL)) ids made" \
        "SELECT count(*) = 6 * $IDS_PER_CALL, count(*) FROM ids WHERE $w"
    check_sql "$fn: the faked clock stepped back ~30 s, forward again, back 1 s" \
        "WITH c AS (SELECT phase, min(before_ts) lo, max(after_ts) hi FROM ids WHERE $w GROUP BY phase)
         SELECT (SELECT lo FROM c WHERE phase = 2) < (SELECT hi FROM c WHERE phase = 1) - interval '29 s'
            AND (SELECT lo FROM c WHERE phase = 4) > (SELECT hi FROM c WHERE phase = 3) + interval '29 s'
            AND (SELECT lo FROM c WHERE phase = 5) < (SELECT hi FROM c WHERE phase = 4) - interval '0.9 s',
                (SELECT string_agg(phase || ':' || lo::time, ' ' ORDER BY phase) FROM c)"
    check_sql "$fn: version and variant bits on every id" \
        "SELECT bool_and(fault.version(id) = ${fn#uuidv} AND fault.variant_ok(id)) FROM ids WHERE $w"
    check_sql "$fn: strictly increasing across every step (one backend)" \
        "SELECT count(*) FILTER (WHERE id <= prev) = 0, count(*) FILTER (WHERE id <= prev) || ' out of order'
         FROM (SELECT id, lag(id) OVER (ORDER BY phase, n) AS prev FROM ids WHERE $w) s"
    for stuck in "2,3:1" "5:4"; do
        ph=${stuck%%:*} last=${stuck#*:}
        check_sql "$fn: phases $ph (clock behind) keep the exact time field of phase $last's last id" \
            "WITH last AS (SELECT fault.unix_ms(id) AS ms, fault.time_field(id) AS tf
                           FROM ids WHERE $w AND phase = $last ORDER BY n DESC LIMIT 1)
             SELECT bool_and(fault.time_field(id) = last.tf),
                    'embedded - last id: ' || round(min(fault.unix_ms(id) - last.ms), 4) || '..'
                    || round(max(fault.unix_ms(id) - last.ms), 4) || ' ms;'
                    || ' embedded - clock: ' || round(min(fault.unix_ms(id) - fault.ts_ms(after_ts))) || ' ms'
             FROM ids, last WHERE $w AND phase IN ($ph)"
    done
    for ph in 1 4 6; do
        check_sql "$fn: phase $ph ids lie within 1 ms of the faked clock" \
            "SELECT bool_and(fault.unix_ms(id) BETWEEN fault.ts_ms(before_ts) - 1 AND fault.ts_ms(after_ts) + 1),
                    'embedded - clock before call: ' || round(min(fault.unix_ms(id) - fault.ts_ms(before_ts)), 3)
                    || ' ms at least; embedded - clock after call: ' || round(max(fault.unix_ms(id) - fault.ts_ms(after_ts)), 3) || ' ms at most'
             FROM ids WHERE $w AND phase = $ph"
    done
done
check_sql "all ids came from one backend" "SELECT count(DISTINCT pid) = 1, count(DISTINCT pid) || ' backends' FROM ids"
summary
