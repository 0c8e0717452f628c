-- Text names are hashed as UTF-8 in every database encoding that converts to
-- UTF-8.  An encoding with no default conversion to UTF-8 (MULE_INTERNAL up
-- to PostgreSQL 18; PostgreSQL 19 has none left, so here LATIN2 with its
-- conversion switched off in a database of its own) refuses text names with
-- a hint towards the bytea forms, which work there as everywhere.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
SELECT current_database() AS regress_db \gset
CREATE DATABASE pg_uuidx_noconv ENCODING 'LATIN2' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;
\c pg_uuidx_noconv
CREATE EXTENSION pg_uuidx;
-- LATIN2 converts as shipped
SELECT uuidv5(uuid_namespace_dns(), 'www.example.com');
-- pg_conversion is per database: this one loses its LATIN2 to UTF8 default
UPDATE pg_catalog.pg_conversion SET condefault = false
WHERE conforencoding = pg_catalog.pg_char_to_encoding('LATIN2')
  AND contoencoding = pg_catalog.pg_char_to_encoding('UTF8') AND condefault
RETURNING conname;
SELECT uuidv5(uuid_namespace_dns(), 'www.example.com');
SELECT uuidv3(uuid_namespace_dns(), 'www.example.com');
SELECT uuid_v8_sha256(uuid_namespace_dns(), 'www.example.com');
-- the empty name has no characters to convert, but is refused the same way
SELECT uuidv5(uuid_namespace_dns(), '');
-- the bytea forms give the RFC 9562 vectors
SELECT uuidv5(uuid_namespace_dns(), '\x7777772e6578616d706c652e636f6d'::bytea);
SELECT uuidv3(uuid_namespace_dns(), '\x7777772e6578616d706c652e636f6d'::bytea);
SELECT uuid_v8_sha256(uuid_namespace_dns(), '\x7777772e6578616d706c652e636f6d'::bytea);

-- LATIN1 converts: a name is hashed as its UTF-8 bytes, the same id as in a
-- UTF-8 database
CREATE DATABASE pg_uuidx_latin1 ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;
\c pg_uuidx_latin1
CREATE EXTENSION pg_uuidx;
SELECT uuidv5(uuid_namespace_dns(), 'www.example.com');
SELECT uuidv5(uuid_namespace_dns(), U&'caf\00E9') = uuidv5(uuid_namespace_dns(), '\x636166c3a9'::bytea) AS latin1_hashed_as_utf8;

-- SQL_ASCII: bytes that are valid UTF-8 are hashed as they are, others are
-- refused with 22021
CREATE DATABASE pg_uuidx_ascii ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;
\c pg_uuidx_ascii
CREATE EXTENSION pg_uuidx;
SELECT uuidv5(uuid_namespace_dns(), 'www.example.com');
SELECT uuidv5(uuid_namespace_dns(), convert_from('\x636166c3a9', 'SQL_ASCII')) = uuidv5(uuid_namespace_dns(), '\x636166c3a9'::bytea) AS ascii_utf8_bytes_as_stored;
SELECT uuidv5(uuid_namespace_dns(), convert_from('\x636166e9', 'SQL_ASCII'));

\c :regress_db
DROP DATABASE pg_uuidx_noconv;
DROP DATABASE pg_uuidx_latin1;
DROP DATABASE pg_uuidx_ascii;
