#!/usr/bin/env bash
# test/parallel_on.sh - the parallel lane's setup (test/run.sh parallel), run
# by test/cluster.pl against its throwaway cluster (PGHOST, PGPORT set): every
# later session of the cluster plans each query it can with a parallel worker
# (debug_parallel_query = regress from PostgreSQL 16 on, force_parallel_mode
# on 15, chosen by server_version_num; "regress" hides the Gather node from
# EXPLAIN and the workers' CONTEXT lines from errors, so the expected files
# stay as they are), set with ALTER SYSTEM and a reload.  Then it checks that
# the setting took: a new session's PARALLEL SAFE PL/pgSQL function must
# report another process than the session's own.
#
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
set -euo pipefail

psql_q() { psql -X -q -At -v ON_ERROR_STOP=1 -d postgres "$@"; }

guc=$(psql_q -c "SELECT CASE WHEN current_setting('server_version_num')::int >= 160000
                             THEN 'debug_parallel_query' ELSE 'force_parallel_mode' END")
psql_q -c "ALTER SYSTEM SET $guc = regress" -c 'SELECT pg_reload_conf()' >/dev/null
# the postmaster reads the file on SIGHUP: sessions forked afterwards have it
for _ in $(seq 100); do
    [ "$(psql_q -c "SHOW $guc")" = regress ] && break
    sleep 0.1
done
[ "$(psql_q -c "SHOW $guc")" = regress ] || { echo "$guc is not regress after 10 s" >&2; exit 1; }

psql_q -c 'CREATE FUNCTION parallel_lane_pid() RETURNS int LANGUAGE plpgsql PARALLEL SAFE
           AS $$ BEGIN RETURN pg_backend_pid(); END $$'
# one session: its own pid (pg_backend_pid() is PARALLEL RESTRICTED: the
# leader's), then the function's
read -r -d '' leader worker < <(psql_q -c 'SELECT pg_backend_pid()' -c 'SELECT parallel_lane_pid()') || true
psql_q -c 'DROP FUNCTION parallel_lane_pid()'
if [ -z "$worker" ] || [ "$worker" = "$leader" ]; then
    echo "$guc = regress, but a PARALLEL SAFE function ran in the session's own process ($leader), not in a worker" >&2
    exit 1
fi
echo "== $guc = regress: a PARALLEL SAFE function of session $leader ran in worker $worker"
