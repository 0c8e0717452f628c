-- test/vectors/namebased.sql: the published vectors of the name-based ids
-- (RFC 9562 Appendices A and B), as a temp table, for sql/namebased.sql (the
-- C build, pg_regress) and test/sqlbuild/namebased.sql (the SQL build against
-- the C build, pgTAP): each includes this file, so a vector is written here
-- only.
-- Not echoed: the expected files hold what the vectors give, not the vectors.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
\set vectors_echo :ECHO
\set ECHO none

-- fn(uuid_namespace_dns(), name) = id, the name as text (hashed as UTF-8)
CREATE TEMP TABLE dns_name_vectors (fn text, name text, id uuid);
INSERT INTO dns_name_vectors VALUES
    ('uuid_v8_sha256', 'www.example.com', '5c146b14-3c52-8afd-938a-375d0df1fbf6'),
    ('uuidv5', 'www.example.com', '2ed6657d-e927-568b-95e1-2665a8aea6a2'),
    ('uuidv3', 'www.example.com', '5df41881-3aed-3515-88a7-2f4a814cf09e');

\set ECHO :vectors_echo
