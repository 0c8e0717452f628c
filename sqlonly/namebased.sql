-- sqlonly/namebased.sql: the name-based ids of the SQL build (uuidv3, uuidv5,
-- uuid_v8_sha256 and the standard namespaces), the same ids as the C build's
-- src/ids/namebased.c.  A name-based id is the hash of the 16 namespace octets
-- followed by the name's octets, its first 128 bits kept, version and variant
-- set: RFC 9562 5.3 (v3, MD5), 5.5 (v5, SHA-1) and Appendix B.2 (v8,
-- SHA-256).  MD5 and SHA-256 are core's md5() and sha256(); core has no
-- SHA-1, so uuidv5 takes pgcrypto's digest(), found as a member of the
-- pgcrypto extension, and refuses to run without it.
--
-- The text forms hash the name as UTF-8 whatever the database encoding, and
-- refuse an encoding with no default conversion to UTF-8 as the C build does.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)

-- the hex digest h of the namespace and the name as a uuid: its first 32
-- digits with the version in digit 13 (RFC 9562 4.2) and the variant 0b10 in
-- the top bits of digit 17 (RFC 9562 4.1)

CREATE FUNCTION @extschema@.uuidv3(namespace uuid, name bytea)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    h pg_catalog.text := pg_catalog.md5(pg_catalog.uuid_send(namespace) OPERATOR(pg_catalog.||) name);
BEGIN
    RETURN CAST(pg_catalog.substr(h, 1, 12) OPERATOR(pg_catalog.||) '3'
                OPERATOR(pg_catalog.||) pg_catalog.substr(h, 14, 3)
                OPERATOR(pg_catalog.||) pg_catalog.translate(pg_catalog.substr(h, 17, 1),
                                                             '0123456789abcdef', '89ab89ab89ab89ab')
                OPERATOR(pg_catalog.||) pg_catalog.substr(h, 18, 15) AS pg_catalog.uuid);
END
$$;

COMMENT ON FUNCTION @extschema@.uuidv3(uuid, bytea) IS
'name-based UUIDv3 (RFC 9562 5.3): MD5 of the namespace and the name bytes';

CREATE FUNCTION @extschema@.uuid_v8_sha256(namespace uuid, name bytea)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    h pg_catalog.text := pg_catalog.encode(pg_catalog.sha256(pg_catalog.uuid_send(namespace)
                                                             OPERATOR(pg_catalog.||) name), 'hex');
BEGIN
    RETURN CAST(pg_catalog.substr(h, 1, 12) OPERATOR(pg_catalog.||) '8'
                OPERATOR(pg_catalog.||) pg_catalog.substr(h, 14, 3)
                OPERATOR(pg_catalog.||) pg_catalog.translate(pg_catalog.substr(h, 17, 1),
                                                             '0123456789abcdef', '89ab89ab89ab89ab')
                OPERATOR(pg_catalog.||) pg_catalog.substr(h, 18, 15) AS pg_catalog.uuid);
END
$$;

COMMENT ON FUNCTION @extschema@.uuid_v8_sha256(uuid, bytea) IS
'name-based UUIDv8 (RFC 9562 Appendix B.2): SHA-256 of the namespace and the name bytes';

-- SHA-1 from pgcrypto: its digest(bytea, text) is looked up as a member of
-- the extension pgcrypto (not by name, which another role's function could
-- answer) and called by its schema-qualified name with arguments of exactly
-- its types, which only that function matches
CREATE FUNCTION @extschema@.uuidv5(namespace uuid, name bytea)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    digest pg_catalog.text;
    h pg_catalog.text;
BEGIN
    SELECT pg_catalog.format('%I.%I', n.nspname, p.proname) INTO digest
    FROM pg_catalog.pg_extension AS x
    JOIN pg_catalog.pg_depend AS d
      ON d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
     AND d.refobjid OPERATOR(pg_catalog.=) x.oid
     AND d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
     AND d.deptype OPERATOR(pg_catalog.=) 'e'
    JOIN pg_catalog.pg_proc AS p ON p.oid OPERATOR(pg_catalog.=) d.objid
    JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) p.pronamespace
    WHERE x.extname OPERATOR(pg_catalog.=) 'pgcrypto'
      AND p.proname OPERATOR(pg_catalog.=) 'digest'
      AND p.proargtypes OPERATOR(pg_catalog.=) '17 25'::pg_catalog.oidvector;  -- (bytea, text)
    IF digest IS NULL THEN
        RAISE EXCEPTION USING
            ERRCODE = 'feature_not_supported',
            MESSAGE = 'uuidv5() needs the extension pgcrypto in the SQL build of pg_uuidx',
            DETAIL = 'UUIDv5 hashes with SHA-1, which PostgreSQL has only in pgcrypto, and pgcrypto is not installed in this database.',
            HINT = 'CREATE EXTENSION pgcrypto;';
    END IF;
    EXECUTE pg_catalog.format('SELECT pg_catalog.encode(%s($1, $2), ''hex'')', digest)
        INTO h
        USING pg_catalog.uuid_send(namespace) OPERATOR(pg_catalog.||) name, CAST('sha1' AS pg_catalog.text);
    RETURN CAST(pg_catalog.substr(h, 1, 12) OPERATOR(pg_catalog.||) '5'
                OPERATOR(pg_catalog.||) pg_catalog.substr(h, 14, 3)
                OPERATOR(pg_catalog.||) pg_catalog.translate(pg_catalog.substr(h, 17, 1),
                                                             '0123456789abcdef', '89ab89ab89ab89ab')
                OPERATOR(pg_catalog.||) pg_catalog.substr(h, 18, 15) AS pg_catalog.uuid);
END
$$;

COMMENT ON FUNCTION @extschema@.uuidv5(uuid, bytea) IS
'name-based UUIDv5 (RFC 9562 5.5): SHA-1 of the namespace and the name bytes';

-- the text forms: the encoding check of the C build (a database encoding
-- other than UTF8 and SQL_ASCII needs a default conversion to UTF8 in a
-- schema of the search path), then the hash of the name's UTF-8 bytes (in
-- SQL_ASCII: its bytes as they are, if they are valid UTF-8); uuidv5 calls
-- its bytea form, which finds pgcrypto

CREATE FUNCTION @extschema@.uuidv3(namespace uuid, name text)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    encoding pg_catalog.name := pg_catalog.getdatabaseencoding();
    h pg_catalog.text;
BEGIN
    IF encoding OPERATOR(pg_catalog.<>) ALL ('{UTF8,SQL_ASCII}'::pg_catalog.name[]) THEN
        IF NOT EXISTS (
            SELECT FROM pg_catalog.pg_conversion AS c
            JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) c.connamespace
            WHERE c.condefault
              AND c.conforencoding OPERATOR(pg_catalog.=) pg_catalog.pg_char_to_encoding(encoding)
              AND c.contoencoding OPERATOR(pg_catalog.=) pg_catalog.pg_char_to_encoding('UTF8')
              AND n.nspname OPERATOR(pg_catalog.=) ANY (pg_catalog.current_schemas(true))) THEN
            RAISE EXCEPTION USING
                ERRCODE = 'feature_not_supported',
                MESSAGE = pg_catalog.format('text names cannot be hashed in a database with encoding %s', encoding),
                DETAIL = pg_catalog.format('Names are hashed as UTF-8, and PostgreSQL has no conversion from %s to UTF8.', encoding),
                HINT = 'Pass the name''s UTF-8 bytes to the bytea form of the function.';
        END IF;
    END IF;
    h := pg_catalog.md5(pg_catalog.uuid_send(namespace)
                        OPERATOR(pg_catalog.||) pg_catalog.convert_to(name, 'UTF8'));
    RETURN CAST(pg_catalog.substr(h, 1, 12) OPERATOR(pg_catalog.||) '3'
                OPERATOR(pg_catalog.||) pg_catalog.substr(h, 14, 3)
                OPERATOR(pg_catalog.||) pg_catalog.translate(pg_catalog.substr(h, 17, 1),
                                                             '0123456789abcdef', '89ab89ab89ab89ab')
                OPERATOR(pg_catalog.||) pg_catalog.substr(h, 18, 15) AS pg_catalog.uuid);
END
$$;

COMMENT ON FUNCTION @extschema@.uuidv3(uuid, text) IS
'name-based UUIDv3 (RFC 9562 5.3): MD5 of the namespace and the name as UTF-8';

CREATE FUNCTION @extschema@.uuidv5(namespace uuid, name text)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    encoding pg_catalog.name := pg_catalog.getdatabaseencoding();
BEGIN
    IF encoding OPERATOR(pg_catalog.<>) ALL ('{UTF8,SQL_ASCII}'::pg_catalog.name[]) THEN
        IF NOT EXISTS (
            SELECT FROM pg_catalog.pg_conversion AS c
            JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) c.connamespace
            WHERE c.condefault
              AND c.conforencoding OPERATOR(pg_catalog.=) pg_catalog.pg_char_to_encoding(encoding)
              AND c.contoencoding OPERATOR(pg_catalog.=) pg_catalog.pg_char_to_encoding('UTF8')
              AND n.nspname OPERATOR(pg_catalog.=) ANY (pg_catalog.current_schemas(true))) THEN
            RAISE EXCEPTION USING
                ERRCODE = 'feature_not_supported',
                MESSAGE = pg_catalog.format('text names cannot be hashed in a database with encoding %s', encoding),
                DETAIL = pg_catalog.format('Names are hashed as UTF-8, and PostgreSQL has no conversion from %s to UTF8.', encoding),
                HINT = 'Pass the name''s UTF-8 bytes to the bytea form of the function.';
        END IF;
    END IF;
    RETURN @extschema@.uuidv5(namespace, pg_catalog.convert_to(name, 'UTF8'));
END
$$;

COMMENT ON FUNCTION @extschema@.uuidv5(uuid, text) IS
'name-based UUIDv5 (RFC 9562 5.5): SHA-1 of the namespace and the name as UTF-8';

CREATE FUNCTION @extschema@.uuid_v8_sha256(namespace uuid, name text)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    encoding pg_catalog.name := pg_catalog.getdatabaseencoding();
    h pg_catalog.text;
BEGIN
    IF encoding OPERATOR(pg_catalog.<>) ALL ('{UTF8,SQL_ASCII}'::pg_catalog.name[]) THEN
        IF NOT EXISTS (
            SELECT FROM pg_catalog.pg_conversion AS c
            JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) c.connamespace
            WHERE c.condefault
              AND c.conforencoding OPERATOR(pg_catalog.=) pg_catalog.pg_char_to_encoding(encoding)
              AND c.contoencoding OPERATOR(pg_catalog.=) pg_catalog.pg_char_to_encoding('UTF8')
              AND n.nspname OPERATOR(pg_catalog.=) ANY (pg_catalog.current_schemas(true))) THEN
            RAISE EXCEPTION USING
                ERRCODE = 'feature_not_supported',
                MESSAGE = pg_catalog.format('text names cannot be hashed in a database with encoding %s', encoding),
                DETAIL = pg_catalog.format('Names are hashed as UTF-8, and PostgreSQL has no conversion from %s to UTF8.', encoding),
                HINT = 'Pass the name''s UTF-8 bytes to the bytea form of the function.';
        END IF;
    END IF;
    h := pg_catalog.encode(pg_catalog.sha256(pg_catalog.uuid_send(namespace)
                        OPERATOR(pg_catalog.||) pg_catalog.convert_to(name, 'UTF8')), 'hex');
    RETURN CAST(pg_catalog.substr(h, 1, 12) OPERATOR(pg_catalog.||) '8'
                OPERATOR(pg_catalog.||) pg_catalog.substr(h, 14, 3)
                OPERATOR(pg_catalog.||) pg_catalog.translate(pg_catalog.substr(h, 17, 1),
                                                             '0123456789abcdef', '89ab89ab89ab89ab')
                OPERATOR(pg_catalog.||) pg_catalog.substr(h, 18, 15) AS pg_catalog.uuid);
END
$$;

COMMENT ON FUNCTION @extschema@.uuid_v8_sha256(uuid, text) IS
'name-based UUIDv8 (RFC 9562 Appendix B.2): SHA-256 of the namespace and the name as UTF-8';

-- RFC 9562 6.6 (Table 3): the four standard namespaces

CREATE FUNCTION @extschema@.uuid_namespace_dns()
RETURNS uuid
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CAST('6ba7b810-9dad-11d1-80b4-00c04fd430c8' AS pg_catalog.uuid);

COMMENT ON FUNCTION @extschema@.uuid_namespace_dns() IS
'the DNS namespace 6ba7b810-9dad-11d1-80b4-00c04fd430c8 (RFC 9562 6.6)';

CREATE FUNCTION @extschema@.uuid_namespace_url()
RETURNS uuid
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CAST('6ba7b811-9dad-11d1-80b4-00c04fd430c8' AS pg_catalog.uuid);

COMMENT ON FUNCTION @extschema@.uuid_namespace_url() IS
'the URL namespace 6ba7b811-9dad-11d1-80b4-00c04fd430c8 (RFC 9562 6.6)';

CREATE FUNCTION @extschema@.uuid_namespace_oid()
RETURNS uuid
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CAST('6ba7b812-9dad-11d1-80b4-00c04fd430c8' AS pg_catalog.uuid);

COMMENT ON FUNCTION @extschema@.uuid_namespace_oid() IS
'the ISO OID namespace 6ba7b812-9dad-11d1-80b4-00c04fd430c8 (RFC 9562 6.6)';

CREATE FUNCTION @extschema@.uuid_namespace_x500()
RETURNS uuid
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CAST('6ba7b814-9dad-11d1-80b4-00c04fd430c8' AS pg_catalog.uuid);

COMMENT ON FUNCTION @extschema@.uuid_namespace_x500() IS
'the X.500 DN namespace 6ba7b814-9dad-11d1-80b4-00c04fd430c8 (RFC 9562 6.6)';
