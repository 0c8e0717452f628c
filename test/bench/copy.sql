-- test/bench/copy.sql: the copy phase's objects (bench.pl, copy_phase()):
-- the table each variant COPYs into and the file of ids it COPYs.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)

-- one COPY: the variant, the repetition, ms from the client's side (psql
-- started, COPY, commit), rows stored
CREATE TABLE cp_time (variant text NOT NULL, ord int NOT NULL, rep int NOT NULL, ms float8 NOT NULL,
                      rows bigint NOT NULL);

-- A fresh table cp for the variant, and n rows for it in file, their ids
-- made by uuidv7() in this transaction: made before the COPY, as a
-- client's are.
--   plain                            id uuid PRIMARY KEY, n, note
--   + guard before the row           pg_uuidx_horizon_guard(), BEFORE ... FOR EACH ROW
--   + pg_uuidx_add_guard()           what it declares: pg_uuidx_horizon_guard() AFTER ... FOR
--                                    EACH ROW and BEFORE ... FOR EACH STATEMENT, at the
--                                    allowance of the others (pg_uuidx.horizon_allowance)
--   + guard after the row, WHEN      the same with WHEN (NOT pg_uuidx_horizon_cover(NEW.id))
--   + xid8 column and index          what the xid8 pattern reads by (test/bench/outbox.sql)
CREATE FUNCTION cp_prepare(variant text, n int, file text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    DROP TABLE IF EXISTS cp;
    CREATE TABLE cp (id uuid PRIMARY KEY, n int NOT NULL, note text NOT NULL);
    CASE variant
    WHEN 'plain' THEN
        NULL;
    WHEN '+ guard before the row' THEN
        CREATE TRIGGER cp_guard BEFORE INSERT OR UPDATE ON cp
            FOR EACH ROW EXECUTE FUNCTION pg_uuidx_horizon_guard();
    WHEN '+ pg_uuidx_add_guard()' THEN
        PERFORM pg_uuidx_add_guard('cp', allowance => current_setting('pg_uuidx.horizon_allowance'));
    WHEN '+ guard after the row, WHEN' THEN
        CREATE TRIGGER cp_guard AFTER INSERT OR UPDATE ON cp FOR EACH ROW
            WHEN (NOT pg_uuidx_horizon_cover(NEW.id)) EXECUTE FUNCTION pg_uuidx_horizon_guard();
        CREATE TRIGGER cp_guard_start BEFORE INSERT OR UPDATE ON cp
            FOR EACH STATEMENT EXECUTE FUNCTION pg_uuidx_horizon_guard();
    WHEN '+ xid8 column and index' THEN
        ALTER TABLE cp ADD COLUMN xid xid8 NOT NULL DEFAULT pg_current_xact_id();
        CREATE INDEX ON cp (xid, id);
    END CASE;
    EXECUTE format($q$COPY (SELECT uuidv7(), g, 'copied' FROM generate_series(1, %s) g) TO %L$q$, n, file);
END $$;

-- The first use of the shared state in this database makes its floor at the
-- clock (the server may just have restarted, and on 18 uuidv7() is core's,
-- which does not use it): ids made before then would be refused.
SELECT uuidv7_horizon() IS NOT NULL AS state_in_use \gset
