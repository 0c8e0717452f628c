-- memory.sql: does a backend's memory grow with uuidv7() calls?
-- psql variable: n.  One session reads its own memory three times: after
-- 1k calls, after n more, after another n.  pg_backend_memory_contexts
-- counts palloc memory; /proc/self/status (read by the backend itself)
-- counts the process: RssAnon is private memory (heap, stacks, the
-- library's bss), VmRSS adds shared buffers and mapped files.
-- A floor query of the same size runs twice before the first reading, so
-- memory that the executor and malloc keep after large queries (about 1 MB
-- of RssAnon, uuidv7() or not) is already there.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)

SET jit = off;

CREATE FUNCTION proc_status_kb(field text) RETURNS bigint LANGUAGE sql AS $$
    SELECT (regexp_match(pg_read_file('/proc/self/status'), field || ':\s+(\d+) kB'))[1]::bigint
$$;

CREATE FUNCTION mem_snapshot(ord int, stage text, calls bigint) RETURNS void LANGUAGE sql AS $$
    INSERT INTO mem_context
    SELECT ord, name, ident, level, total_bytes FROM pg_backend_memory_contexts;
    INSERT INTO mem_result
    SELECT ord, stage, calls,
           (SELECT sum(total_bytes) FROM mem_context AS c WHERE c.ord = mem_snapshot.ord),
           proc_status_kb('VmRSS'), proc_status_kb('RssAnon'), proc_status_kb('VmHWM')
$$;

SELECT mem_snapshot(0, 'session start, library not loaded', 0) \g /dev/null
SELECT count(uuidv7()) FROM generate_series(1, 1000) \g /dev/null
SELECT count(1) FROM generate_series(1, :n) \g /dev/null
SELECT count(1) FROM generate_series(1, :n) \g /dev/null
SELECT mem_snapshot(1, 'after 1k calls', 1000) \g /dev/null
SELECT count(uuidv7()) FROM generate_series(1, :n) \g /dev/null
SELECT mem_snapshot(2, 'after 1k + n calls', 1000 + :n) \g /dev/null
SELECT count(uuidv7()) FROM generate_series(1, :n) \g /dev/null
SELECT mem_snapshot(3, 'after 1k + 2n calls', 1000 + 2 * :n) \g /dev/null
