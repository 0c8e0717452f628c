#!/usr/bin/env bash
# test/fault/dump_restore.sh - pg_dump -Fc / pg_restore of tables whose
# defaults call pg_uuidx.
#
# Three layouts, each dumped from one database and restored into a new one:
#   public    CREATE EXTENSION pg_uuidx;  t (id uuid PRIMARY KEY DEFAULT uuidv7(), v int)
#   schema    CREATE EXTENSION pg_uuidx SCHEMA uuidx;  the same table with
#             uuidx.uuidv7(), plus defaults uuidx.uuidv4() and
#             uuidx.uuidv7('-1 hour') (a function with an argument)
#   upgraded  CREATE EXTENSION pg_uuidx VERSION '1.0', the table and rows,
#             then ALTER EXTENSION pg_uuidx UPDATE under the table's default
#             (skipped while the default version is 1.0)
# Checked: the dump re-creates the extension rather than its functions; the
# restore succeeds; the rows are the same; new rows in the restored database
# get valid v7 ids greater than every restored one, in insertion order.
# Usage: test/fault/dump_restore.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"
ext_before_core

ROWS=${ROWS:-10000}

build_install
start_cluster 54343 ""

# rows' fingerprint: every column, in id order
fingerprint() {
    q -d "$1" -c "SELECT count(*) || ' ' || md5(string_agg(t::text, ',' ORDER BY id)) FROM t"
}

default_version=$(q -c "SELECT default_version FROM pg_available_extensions WHERE name = 'pg_uuidx'")
for layout in public schema upgraded; do
    src=src_$layout dst=dst_$layout s='' ext="CREATE EXTENSION pg_uuidx" extra=''
    case $layout in
        schema)
            s=uuidx. ext="CREATE SCHEMA uuidx; CREATE EXTENSION pg_uuidx SCHEMA uuidx"
            extra=", v4 uuid NOT NULL DEFAULT uuidx.uuidv4(), early uuid DEFAULT uuidx.uuidv7('-1 hour')" ;;
        upgraded)
            if [ "$default_version" = 1.0 ]; then say "no version after 1.0: layout 'upgraded' skipped"; continue; fi
            ext="CREATE EXTENSION pg_uuidx VERSION '1.0'" ;;
    esac
    "$bindir/createdb" "$src"
    q -d "$src" -f "$FAULT_DIR/helpers.sql"
    q -d "$src" <<SQL
$ext;
CREATE TABLE t (id uuid PRIMARY KEY DEFAULT ${s}uuidv7(), v int$extra);
INSERT INTO t (v) SELECT g FROM generate_series(1, $ROWS) AS g;
SQL
    if [ $layout = upgraded ]; then
        update_out=$(q -d "$src" -c "ALTER EXTENSION pg_uuidx UPDATE" 2>&1) || true
        check_sql "$layout: ALTER EXTENSION UPDATE from 1.0 under a table's uuidv7() default reaches $default_version" \
            "SELECT extversion = '$default_version', extversion || '${update_out:+ }$(echo "$update_out" | head -n 1 | tr -d "'")'
             FROM pg_extension WHERE extname = 'pg_uuidx'" "$src"
        q -d "$src" -c "INSERT INTO t (v) SELECT g FROM generate_series($ROWS + 1, $ROWS + 1000) AS g"
        check_sql "$layout: the default still works after the update and keeps the order" \
            "SELECT count(*) = $ROWS + 1000 AND count(*) FILTER (WHERE id <= prev) = 0,
                    count(*) FILTER (WHERE id <= prev) || ' out of order'
             FROM (SELECT id, lag(id) OVER (ORDER BY v) AS prev FROM t) s" "$src"
    fi
    dump=$tmp/$src.dump
    "$bindir/pg_dump" -Fc -d "$src" -f "$dump"
    ddl=$("$bindir/pg_restore" --schema-only -f - "$dump")
    check "$layout: the dump creates the extension, not its functions" \
        "$(grep -q "^CREATE EXTENSION IF NOT EXISTS pg_uuidx" <<<"$ddl" &&
            ! grep -qi 'CREATE FUNCTION.*uuidv' <<<"$ddl" && echo t || echo f)" \
        "$(echo "$ddl" | grep '^CREATE EXTENSION' | tr '\n' ' ' | sed 's/ *$//')"
    "$bindir/createdb" "$dst"
    restore_rc=0
    timeout 300 "$bindir/pg_restore" --exit-on-error -d "$dst" "$dump" >"$tmp/restore.$layout" 2>&1 || restore_rc=$?
    check "$layout: pg_restore into a new database succeeds" "$([ $restore_rc -eq 0 ] && echo t || echo f)" \
        "$(head -c 300 "$tmp/restore.$layout")"
    check_sql "$layout: the restored extension has the source's version" \
        "SELECT extversion = '$(q -d "$src" -c "SELECT extversion FROM pg_extension WHERE extname = 'pg_uuidx'")', extversion
         FROM pg_extension WHERE extname = 'pg_uuidx'" "$dst"
    fp_src=$(fingerprint "$src")
    fp_dst=$(fingerprint "$dst" 2>/dev/null || echo none)
    check "$layout: the restored rows are the source's rows" "$([ "$fp_src" = "$fp_dst" ] && echo t || echo f)" \
        "$fp_src vs $fp_dst"
    check_sql "$layout: the restored default is still ${s}uuidv7()" \
        "SELECT pg_get_expr(adbin, adrelid) IN ('${s}uuidv7()', '${s:-public.}uuidv7()'), pg_get_expr(adbin, adrelid)
         FROM pg_attrdef WHERE adrelid = 't'::regclass AND adnum = 1" "$dst"
    q -d "$dst" -f "$FAULT_DIR/helpers.sql"
    q -d "$dst" <<SQL
CREATE TABLE restored AS SELECT id AS max_id FROM t ORDER BY id DESC LIMIT 1;
INSERT INTO t (v) SELECT -g FROM generate_series(1, 1000) AS g;
SQL
    check_sql "$layout: 1000 new rows: version 7, RFC variant, greater than every restored id" \
        "SELECT count(*) = 1000 AND bool_and(fault.version(id) = 7 AND fault.variant_ok(id) AND id > (SELECT max_id FROM restored)),
                count(*) || ' new rows'
         FROM t WHERE v < 0" "$dst"
    check_sql "$layout: the new ids follow insertion order" \
        "SELECT count(*) FILTER (WHERE id <= prev) = 0, count(*) FILTER (WHERE id <= prev) || ' out of order'
         FROM (SELECT id, lag(id) OVER (ORDER BY v DESC) AS prev FROM t WHERE v < 0) s" "$dst"
    if [ $layout = schema ]; then
        check_sql "$layout: the other defaults work after restore (v4, v7 one hour back)" \
            "SELECT bool_and(fault.version(v4) = 4 AND fault.version(early) = 7
                             AND fault.unix_ms(early) BETWEEN fault.ts_ms(now()) - 3600000 - 5000 AND fault.ts_ms(now()) - 3600000 + 5000)
             FROM t WHERE v < 0" "$dst"
    fi
done
summary
