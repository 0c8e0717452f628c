-- name-based ids: uuid_v8_sha256 (RFC 9562 B.2), uuidv5, uuidv3, namespaces
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
CREATE EXTENSION pg_uuidx;
SET search_path = public, pg_catalog;

SELECT uuid_namespace_dns() AS dns, uuid_namespace_url() AS url,
       uuid_namespace_oid() AS oid, uuid_namespace_x500() AS x500;

-- test vectors (RFC 9562): table dns_name_vectors
\i test/vectors/namebased.sql
SELECT (SELECT uuid_v8_sha256(uuid_namespace_dns(), name) = id FROM dns_name_vectors WHERE fn = 'uuid_v8_sha256') AS v8_rfc9562_b2,
       (SELECT uuidv5(uuid_namespace_dns(), name) = id FROM dns_name_vectors WHERE fn = 'uuidv5') AS v5_vector,
       (SELECT uuidv3(uuid_namespace_dns(), name) = id FROM dns_name_vectors WHERE fn = 'uuidv3') AS v3_vector;
-- the 2023 draft's hash-space form, through the bytea overload
SELECT uuid_v8_sha256('3fb32780-953c-4464-9cfd-e85dbbe9843d',
                      uuid_send(uuid_namespace_dns()) || convert_to('www.example.com', 'UTF8')) AS v8_draft_hash_space;

-- text is hashed as UTF-8: the text and bytea overloads agree on any name
SELECT uuid_v8_sha256(uuid_namespace_url(), name) = uuid_v8_sha256(uuid_namespace_url(), convert_to(name, 'UTF8')) AS v8_text_is_utf8,
       uuidv5(uuid_namespace_url(), name) = uuidv5(uuid_namespace_url(), convert_to(name, 'UTF8')) AS v5_text_is_utf8,
       uuidv3(uuid_namespace_url(), name) = uuidv3(uuid_namespace_url(), convert_to(name, 'UTF8')) AS v3_text_is_utf8
FROM (VALUES ('https://example.org/ünïcødé/日本語'), (''), (repeat('long name ', 1000))) AS n(name);

-- version and variant bits; different namespaces give different ids
SELECT uuid_extract_version(uuid_v8_sha256(uuid_namespace_oid(), '1.3.6.1')) AS v8,
       uuid_extract_version(uuidv5(uuid_namespace_oid(), '1.3.6.1')) AS v5,
       uuid_extract_version(uuidv3(uuid_namespace_oid(), '1.3.6.1')) AS v3,
       uuidv5(uuid_namespace_dns(), 'x') <> uuidv5(uuid_namespace_url(), 'x') AS namespaces_differ;

-- NULL in, NULL out
SELECT uuid_v8_sha256(NULL, 'a') IS NULL AS null_namespace, uuidv5(uuid_namespace_dns(), NULL::text) IS NULL AS null_name;

-- uuid-ossp installs into the same schema, and agrees on 10k varied names
CREATE EXTENSION "uuid-ossp";
WITH names AS (
    SELECT CASE g % 4
               WHEN 0 THEN 'host' || g || '.example.com'
               WHEN 1 THEN md5(g::text)
               WHEN 2 THEN repeat(chr(192 + g % 300), g % 50)
               ELSE '' END AS name,
           (ARRAY[uuid_ns_dns(), uuid_ns_url(), uuid_ns_oid(), uuid_ns_x500()])[1 + g % 4] AS ns
    FROM generate_series(1, 10000) AS g
)
SELECT count(*) AS names,
       count(*) FILTER (WHERE uuidv5(ns, name) = uuid_generate_v5(ns, name)) AS v5_equal,
       count(*) FILTER (WHERE uuidv3(ns, name) = uuid_generate_v3(ns, name)) AS v3_equal
FROM names;
SELECT uuid_namespace_dns() = uuid_ns_dns() AND uuid_namespace_url() = uuid_ns_url()
       AND uuid_namespace_oid() = uuid_ns_oid() AND uuid_namespace_x500() = uuid_ns_x500() AS namespaces_match_uuid_ossp;
DROP EXTENSION "uuid-ossp";

DROP EXTENSION pg_uuidx;
