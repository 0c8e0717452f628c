-- pgbench_insert.sql: one transaction of the pgbench phase (bench.pl): a
-- single-row INSERT whose key comes from the DEFAULT of table pb.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
INSERT INTO pb DEFAULT VALUES;
