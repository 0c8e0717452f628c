-- pgbench_insert.sql: one transaction of the pgbench phase (run.sh): a
-- single-row INSERT whose key comes from the DEFAULT of table pb.
INSERT INTO pb DEFAULT VALUES;
