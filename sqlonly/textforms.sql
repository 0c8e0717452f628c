-- sqlonly/textforms.sql: the compact text forms of the SQL build (RFC 4648
-- base32hex, ULID text, TypeID), the ULID reader and
-- uuid_extract_timestamp_from_text, with the same results and errors as the
-- C build's src/ids/textforms.c.
--
-- All three forms write the 128 bits as 26 characters of 5 bits each (130
-- bits); base32hex puts the 2 spare bits at the end as zero pad bits (RFC
-- 4648 section 7), ULID and TypeID at the front, so that the first
-- character is 0-7.  Encoding takes the 130 bits as a bit string, 5 at a
-- time; decoding checks the whole text with one regular expression and, only
-- when that fails, walks it as the C build does to raise the same error for
-- the first rule broken.  Text is compared under COLLATE "C" whatever the
-- caller's collation, as the C build compares bytes.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)

CREATE FUNCTION @extschema@.uuid_to_base32hex(uuid)
RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    digits pg_catalog.text := '0123456789ABCDEFGHIJKLMNOPQRSTUV';
    -- the uuid's 128 bits, then two zero pad bits
    b pg_catalog.bit(130) := CAST('x' OPERATOR(pg_catalog.||) pg_catalog.encode(pg_catalog.uuid_send($1), 'hex')
                                  AS pg_catalog.bit(128)) OPERATOR(pg_catalog.||) B'00';
BEGIN
    RETURN pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 1, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 6, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 11, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 16, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 21, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 26, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 31, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 36, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 41, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 46, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 51, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 56, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 61, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 66, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 71, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 76, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 81, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 86, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 91, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 96, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 101, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 106, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 111, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 116, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 121, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 126, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1);
END
$$;

COMMENT ON FUNCTION @extschema@.uuid_to_base32hex(uuid) IS
'26-character RFC 4648 base32hex text of a UUID, as PostgreSQL 19''s rtrim(encode(uuid_send(id), ''base32hex''), ''='')';

CREATE FUNCTION @extschema@.uuid_to_ulid(uuid)
RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    digits pg_catalog.text := '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
    -- two zero bits, then the uuid's 128 bits
    b pg_catalog.bit(130) := B'00' OPERATOR(pg_catalog.||)
        CAST('x' OPERATOR(pg_catalog.||) pg_catalog.encode(pg_catalog.uuid_send($1), 'hex') AS pg_catalog.bit(128));
BEGIN
    RETURN pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 1, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 6, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 11, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 16, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 21, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 26, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 31, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 36, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 41, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 46, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 51, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 56, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 61, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 66, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 71, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 76, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 81, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 86, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 91, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 96, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 101, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 106, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 111, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 116, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 121, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 126, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1);
END
$$;

COMMENT ON FUNCTION @extschema@.uuid_to_ulid(uuid) IS
'26-character ULID text (Crockford base32, upper case) of a UUID';

-- TypeID spec 0.3.0: the prefix is empty, or at most 63 of [a-z_] that start
-- and end with [a-z]; "prefix_" and the 26-character suffix, the suffix
-- alone when the prefix is empty
CREATE FUNCTION @extschema@.typeid(text, uuid)
RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    prefix pg_catalog.text COLLATE pg_catalog."C" := $1;
    digits pg_catalog.text := '0123456789abcdefghjkmnpqrstvwxyz';
    b pg_catalog.bit(130) := B'00' OPERATOR(pg_catalog.||)
        CAST('x' OPERATOR(pg_catalog.||) pg_catalog.encode(pg_catalog.uuid_send($2), 'hex') AS pg_catalog.bit(128));
    len pg_catalog.int4;
    shown pg_catalog.text;
    message pg_catalog.text;
    byte pg_catalog.int4;
BEGIN
    IF NOT prefix OPERATOR(pg_catalog.~) '^([a-z]([a-z_]{0,61}[a-z])?)?$' THEN
        len := pg_catalog.octet_length(prefix);
        IF len OPERATOR(pg_catalog.>) 80 THEN
            -- at most 80 bytes of whole characters
            shown := pg_catalog.left(prefix, 80);
            WHILE pg_catalog.octet_length(shown) OPERATOR(pg_catalog.>) 80 LOOP
                shown := pg_catalog.left(shown, -1);
            END LOOP;
            shown := shown OPERATOR(pg_catalog.||) '...';
        ELSE
            shown := prefix;
        END IF;
        message := pg_catalog.format('invalid TypeID prefix: "%s"', shown);
        FOR i IN 1..pg_catalog.length(prefix) LOOP
            byte := pg_catalog.get_byte(pg_catalog.textsend(pg_catalog.substr(prefix, i, 1)), 0);
            IF byte OPERATOR(pg_catalog.=) 95 AND (i OPERATOR(pg_catalog.=) 1 OR i OPERATOR(pg_catalog.=) pg_catalog.length(prefix)) THEN
                RAISE EXCEPTION USING ERRCODE = 'invalid_text_representation', MESSAGE = message,
                    DETAIL = pg_catalog.format('The TypeID prefix has a bad character at position %s: it must start and end with a letter a-z.', i);
            END IF;
            IF byte OPERATOR(pg_catalog.<>) 95 AND (byte OPERATOR(pg_catalog.<) 97 OR byte OPERATOR(pg_catalog.>) 122) THEN
                RAISE EXCEPTION USING ERRCODE = 'invalid_text_representation', MESSAGE = message,
                    DETAIL = pg_catalog.format('The TypeID prefix has a bad character at position %s: it may only hold lower-case letters a-z and "_".', i);
            END IF;
        END LOOP;
        IF pg_catalog.length(prefix) OPERATOR(pg_catalog.>) 63 THEN
            RAISE EXCEPTION USING ERRCODE = 'invalid_text_representation', MESSAGE = message,
                DETAIL = pg_catalog.format('The TypeID prefix has %s characters; at most %s are allowed.', pg_catalog.length(prefix), 63);
        END IF;
    END IF;
    RETURN CASE WHEN prefix OPERATOR(pg_catalog.=) '' THEN '' ELSE prefix OPERATOR(pg_catalog.||) '_' END
           OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 1, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 6, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 11, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 16, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 21, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 26, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 31, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 36, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 41, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 46, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 51, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 56, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 61, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 66, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 71, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 76, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 81, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 86, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 91, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 96, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 101, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 106, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 111, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 116, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 121, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||)
           pg_catalog.substr(digits, CAST(pg_catalog."substring"(b, 126, 5) AS pg_catalog.int4) OPERATOR(pg_catalog.+) 1, 1);
END
$$;

COMMENT ON FUNCTION @extschema@.typeid(text, uuid) IS
'TypeID text (spec 0.3.0) of a prefix and a UUID: prefix_ and 26 lower-case Crockford characters';

CREATE FUNCTION @extschema@.base32hex_to_uuid(text)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    t pg_catalog.text COLLATE pg_catalog."C" := $1;
    digits pg_catalog.text COLLATE pg_catalog."C" := '0123456789ABCDEFGHIJKLMNOPQRSTUV0123456789abcdefghijklmnopqrstuv';
    len pg_catalog.int4 := pg_catalog.octet_length(t);
    s pg_catalog.text COLLATE pg_catalog."C" := t;
    b pg_catalog.bit(130);
    shown pg_catalog.text;
    message pg_catalog.text;
    c pg_catalog.text COLLATE pg_catalog."C";
    v pg_catalog.int4;
    byte pg_catalog.int4;
BEGIN
    -- 26 digits, the last with its 2 pad bits zero, then maybe RFC 4648
    -- section 3.2's padding
    IF NOT t OPERATOR(pg_catalog.~) '^[0-9A-Va-v]{25}[048CGKOSgkos](======)?$' THEN
        IF len OPERATOR(pg_catalog.>) 80 THEN
            -- at most 80 bytes of whole characters
            shown := pg_catalog.left(t, 80);
            WHILE pg_catalog.octet_length(shown) OPERATOR(pg_catalog.>) 80 LOOP
                shown := pg_catalog.left(shown, -1);
            END LOOP;
            shown := shown OPERATOR(pg_catalog.||) '...';
        ELSE
            shown := t;
        END IF;
        message := pg_catalog.format('invalid base32hex: "%s"', shown);
        IF len OPERATOR(pg_catalog.=) 32 THEN
            FOR i IN 27..32 LOOP
                IF pg_catalog.get_byte(pg_catalog.textsend(t), i OPERATOR(pg_catalog.-) 1) OPERATOR(pg_catalog.<>) 61 THEN
                    RAISE EXCEPTION USING ERRCODE = 'invalid_text_representation', MESSAGE = message,
                        DETAIL = pg_catalog.format('Position %s must be the padding character "=".', i);
                END IF;
            END LOOP;
            s := pg_catalog.left(t, -6);
        ELSIF len OPERATOR(pg_catalog.<>) 26 THEN
            FOR i IN 1..pg_catalog.length(t) LOOP
                c := pg_catalog.substr(t, i, 1);
                IF pg_catalog.get_byte(pg_catalog.textsend(c), 0) OPERATOR(pg_catalog.>) 127 THEN
                    RAISE EXCEPTION USING ERRCODE = 'invalid_text_representation', MESSAGE = message,
                        DETAIL = pg_catalog.format('Character "%s" at position %s is not ASCII.', c, i);
                END IF;
            END LOOP;
            RAISE EXCEPTION USING ERRCODE = 'invalid_text_representation', MESSAGE = message,
                DETAIL = pg_catalog.format(CASE WHEN len OPERATOR(pg_catalog.=) 1
                                                THEN 'It has %s character; it must have 26, or 32 with "======" padding.'
                                                ELSE 'It has %s characters; it must have 26, or 32 with "======" padding.' END,
                                           len);
        END IF;
        FOR i IN 1..26 LOOP
            c := pg_catalog.substr(s, i, 1);
            v := pg_catalog.strpos(digits, c) OPERATOR(pg_catalog.-) 1;
            IF v OPERATOR(pg_catalog.<) 0 THEN
                byte := pg_catalog.get_byte(pg_catalog.textsend(c), 0);
                RAISE EXCEPTION USING ERRCODE = 'invalid_text_representation', MESSAGE = message,
                    DETAIL = CASE WHEN byte OPERATOR(pg_catalog.<) 32
                                  THEN pg_catalog.format('Control character 0x%s at position %s is not a base32hex digit.',
                                                         pg_catalog.lpad(pg_catalog.to_hex(byte), 2, '0'), i)
                                  ELSE pg_catalog.format('Character "%s" at position %s is not a base32hex digit.', c, i) END,
                    HINT = 'base32hex uses 0-9 and A-V (either case).';
            END IF;
            IF i OPERATOR(pg_catalog.=) 26 AND v OPERATOR(pg_catalog.&) 3 OPERATOR(pg_catalog.<>) 0 THEN
                RAISE EXCEPTION USING ERRCODE = 'invalid_text_representation', MESSAGE = message,
                    DETAIL = pg_catalog.format('Character "%s" at position %s sets pad bits that must be zero (RFC 4648 section 3.5).', c, i);
            END IF;
        END LOOP;
    END IF;
    b := CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 1, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 2, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 3, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 4, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 5, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 6, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 7, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 8, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 9, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 10, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 11, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 12, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 13, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 14, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 15, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 16, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 17, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 18, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 19, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 20, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 21, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 22, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 23, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 24, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 25, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 26, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5));
    RETURN CAST(pg_catalog.lpad(pg_catalog.to_hex(CAST(pg_catalog."substring"(b, 1, 64) AS pg_catalog.int8)), 16, '0')
                OPERATOR(pg_catalog.||)
                pg_catalog.lpad(pg_catalog.to_hex(CAST(pg_catalog."substring"(b, 65, 64) AS pg_catalog.int8)), 16, '0')
                AS pg_catalog.uuid);
END
$$;

COMMENT ON FUNCTION @extschema@.base32hex_to_uuid(text) IS
'the UUID of 26 base32hex characters (either case, optionally padded with ======)';

-- ULID spec: Crockford's alphabet without I, L, O, U, either case; the
-- aliases are refused, as the C build refuses them
CREATE FUNCTION @extschema@.ulid_to_uuid(text)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    t pg_catalog.text COLLATE pg_catalog."C" := $1;
    digits pg_catalog.text COLLATE pg_catalog."C" := '0123456789ABCDEFGHJKMNPQRSTVWXYZ0123456789abcdefghjkmnpqrstvwxyz';
    len pg_catalog.int4 := pg_catalog.octet_length(t);
    s pg_catalog.text COLLATE pg_catalog."C" := t;
    b pg_catalog.bit(130);
    shown pg_catalog.text;
    message pg_catalog.text;
    c pg_catalog.text COLLATE pg_catalog."C";
    v pg_catalog.int4;
    byte pg_catalog.int4;
BEGIN
    IF NOT t OPERATOR(pg_catalog.~) '^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{25}$' THEN
        IF len OPERATOR(pg_catalog.>) 80 THEN
            -- at most 80 bytes of whole characters
            shown := pg_catalog.left(t, 80);
            WHILE pg_catalog.octet_length(shown) OPERATOR(pg_catalog.>) 80 LOOP
                shown := pg_catalog.left(shown, -1);
            END LOOP;
            shown := shown OPERATOR(pg_catalog.||) '...';
        ELSE
            shown := t;
        END IF;
        message := pg_catalog.format('invalid ULID: "%s"', shown);
        IF len OPERATOR(pg_catalog.<>) 26 THEN
            FOR i IN 1..pg_catalog.length(t) LOOP
                c := pg_catalog.substr(t, i, 1);
                IF pg_catalog.get_byte(pg_catalog.textsend(c), 0) OPERATOR(pg_catalog.>) 127 THEN
                    RAISE EXCEPTION USING ERRCODE = 'invalid_text_representation', MESSAGE = message,
                        DETAIL = pg_catalog.format('Character "%s" at position %s is not ASCII.', c, i);
                END IF;
            END LOOP;
            RAISE EXCEPTION USING ERRCODE = 'invalid_text_representation', MESSAGE = message,
                DETAIL = pg_catalog.format(CASE WHEN len OPERATOR(pg_catalog.=) 1
                                                THEN 'It has %s character; it must have 26.'
                                                ELSE 'It has %s characters; it must have 26.' END, len);
        END IF;
        FOR i IN 1..26 LOOP
            c := pg_catalog.substr(s, i, 1);
            v := pg_catalog.strpos(digits, c) OPERATOR(pg_catalog.-) 1;
            IF v OPERATOR(pg_catalog.<) 0 THEN
                byte := pg_catalog.get_byte(pg_catalog.textsend(c), 0);
                RAISE EXCEPTION USING ERRCODE = 'invalid_text_representation', MESSAGE = message,
                    DETAIL = CASE WHEN byte OPERATOR(pg_catalog.<) 32
                                  THEN pg_catalog.format('Control character 0x%s at position %s is not a ULID digit.',
                                                         pg_catalog.lpad(pg_catalog.to_hex(byte), 2, '0'), i)
                                  ELSE pg_catalog.format('Character "%s" at position %s is not a ULID digit.', c, i) END,
                    HINT = 'ULID text uses 0-9 and A-Z without I, L, O and U (either case).';
            END IF;
            IF i OPERATOR(pg_catalog.=) 1 AND v OPERATOR(pg_catalog.&) 31 OPERATOR(pg_catalog.>) 7 THEN
                RAISE EXCEPTION USING ERRCODE = 'invalid_text_representation', MESSAGE = message,
                    DETAIL = pg_catalog.format('Character "%s" at position %s is above 7: the value would need more than 128 bits.', c, i);
            END IF;
        END LOOP;
    END IF;
    b := CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 1, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 2, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 3, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 4, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 5, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 6, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 7, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 8, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 9, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 10, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 11, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 12, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 13, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 14, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 15, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 16, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 17, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 18, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 19, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 20, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 21, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 22, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 23, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 24, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 25, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 26, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5));
    RETURN CAST(pg_catalog.lpad(pg_catalog.to_hex(CAST(pg_catalog."substring"(b, 3, 64) AS pg_catalog.int8)), 16, '0')
                OPERATOR(pg_catalog.||)
                pg_catalog.lpad(pg_catalog.to_hex(CAST(pg_catalog."substring"(b, 67, 64) AS pg_catalog.int8)), 16, '0')
                AS pg_catalog.uuid);
END
$$;

COMMENT ON FUNCTION @extschema@.ulid_to_uuid(text) IS
'the UUID of a ULID text (26 Crockford base32 characters, either case, first 0-7)';

-- the ULID timestamp, the top 48 bits as Unix milliseconds (ULID spec,
-- "Components"; the unix_ts_ms field of RFC 9562 5.7), whatever the version:
-- whole seconds and milliseconds added apart, so that the interval
-- arithmetic stays exact
CREATE FUNCTION @extschema@.ulid_extract_timestamp(uuid)
RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.timezone('UTC',
    (CAST('1970-01-01 00:00:00' AS pg_catalog.timestamp)
     OPERATOR(pg_catalog.+) (CAST(CAST(CAST('x' OPERATOR(pg_catalog.||) pg_catalog.left(pg_catalog.encode(pg_catalog.uuid_send($1), 'hex'), 12)
                       AS pg_catalog.bit(48)) AS pg_catalog.int8) OPERATOR(pg_catalog./) 1000 AS pg_catalog.float8)
                             OPERATOR(pg_catalog.*) CAST('1 second' AS pg_catalog.interval)))
    OPERATOR(pg_catalog.+) (CAST(CAST(CAST('x' OPERATOR(pg_catalog.||) pg_catalog.left(pg_catalog.encode(pg_catalog.uuid_send($1), 'hex'), 12)
                       AS pg_catalog.bit(48)) AS pg_catalog.int8) OPERATOR(pg_catalog.%) 1000 AS pg_catalog.float8)
                            OPERATOR(pg_catalog.*) CAST('1 millisecond' AS pg_catalog.interval)));

COMMENT ON FUNCTION @extschema@.ulid_extract_timestamp(uuid) IS
'the ULID timestamp of a UUID: its top 48 bits as Unix milliseconds, whatever its version';

-- TypeID spec 0.3.0: the prefix is everything before the last "_" (the
-- prefix may hold "_" itself), the suffix the 26 characters after it, the
-- ULID's bits in lower case without Crockford's aliases
CREATE FUNCTION @extschema@.typeid_to_uuid(text)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    t pg_catalog.text COLLATE pg_catalog."C" := $1;
    digits pg_catalog.text COLLATE pg_catalog."C" := '0123456789abcdefghjkmnpqrstvwxyz';
    len pg_catalog.int4 := pg_catalog.octet_length(t);
    s pg_catalog.text COLLATE pg_catalog."C";
    b pg_catalog.bit(130);
    shown pg_catalog.text;
    message pg_catalog.text;
    c pg_catalog.text COLLATE pg_catalog."C";
    v pg_catalog.int4;
    byte pg_catalog.int4;
    -- the characters before the suffix: the prefix and its separator
    plen pg_catalog.int4 := 0;
BEGIN
    IF NOT t OPERATOR(pg_catalog.~) '^([a-z]([a-z_]{0,61}[a-z])?_)?[0-7][0-9a-hjkmnp-tv-z]{25}$' THEN
        IF len OPERATOR(pg_catalog.>) 80 THEN
            -- at most 80 bytes of whole characters
            shown := pg_catalog.left(t, 80);
            WHILE pg_catalog.octet_length(shown) OPERATOR(pg_catalog.>) 80 LOOP
                shown := pg_catalog.left(shown, -1);
            END LOOP;
            shown := shown OPERATOR(pg_catalog.||) '...';
        ELSE
            shown := t;
        END IF;
        message := pg_catalog.format('invalid TypeID: "%s"', shown);
        plen := pg_catalog.strpos(pg_catalog.reverse(t), '_');
        IF plen OPERATOR(pg_catalog.>) 0 THEN
            plen := pg_catalog.length(t) OPERATOR(pg_catalog.-) plen;
            IF plen OPERATOR(pg_catalog.=) 0 THEN
                RAISE EXCEPTION USING ERRCODE = 'invalid_text_representation', MESSAGE = message,
                    DETAIL = 'It starts with the separator "_": a TypeID with an empty prefix has no separator.';
            END IF;
            FOR i IN 1..plen LOOP
                byte := pg_catalog.get_byte(pg_catalog.textsend(pg_catalog.substr(t, i, 1)), 0);
                IF byte OPERATOR(pg_catalog.=) 95 AND (i OPERATOR(pg_catalog.=) 1 OR i OPERATOR(pg_catalog.=) plen) THEN
                    RAISE EXCEPTION USING ERRCODE = 'invalid_text_representation', MESSAGE = message,
                        DETAIL = pg_catalog.format('The TypeID prefix has a bad character at position %s: it must start and end with a letter a-z.', i);
                END IF;
                IF byte OPERATOR(pg_catalog.<>) 95 AND (byte OPERATOR(pg_catalog.<) 97 OR byte OPERATOR(pg_catalog.>) 122) THEN
                    RAISE EXCEPTION USING ERRCODE = 'invalid_text_representation', MESSAGE = message,
                        DETAIL = pg_catalog.format('The TypeID prefix has a bad character at position %s: it may only hold lower-case letters a-z and "_".', i);
                END IF;
            END LOOP;
            IF plen OPERATOR(pg_catalog.>) 63 THEN
                RAISE EXCEPTION USING ERRCODE = 'invalid_text_representation', MESSAGE = message,
                    DETAIL = pg_catalog.format('The TypeID prefix has %s characters; at most %s are allowed.', plen, 63);
            END IF;
            plen := plen OPERATOR(pg_catalog.+) 1;
        END IF;
        -- the prefix is ASCII now: its characters are bytes
        IF len OPERATOR(pg_catalog.-) plen OPERATOR(pg_catalog.<>) 26 THEN
            FOR i IN plen OPERATOR(pg_catalog.+) 1..pg_catalog.length(t) LOOP
                c := pg_catalog.substr(t, i, 1);
                IF pg_catalog.get_byte(pg_catalog.textsend(c), 0) OPERATOR(pg_catalog.>) 127 THEN
                    RAISE EXCEPTION USING ERRCODE = 'invalid_text_representation', MESSAGE = message,
                        DETAIL = pg_catalog.format('Character "%s" at position %s is not ASCII.', c, i);
                END IF;
            END LOOP;
            RAISE EXCEPTION USING ERRCODE = 'invalid_text_representation', MESSAGE = message,
                DETAIL = pg_catalog.format(CASE WHEN plen OPERATOR(pg_catalog.=) 0 THEN
                                                CASE WHEN len OPERATOR(pg_catalog.=) 1
                                                     THEN 'It has %s character; it must have 26.'
                                                     ELSE 'It has %s characters; it must have 26.' END
                                           ELSE CASE WHEN len OPERATOR(pg_catalog.-) plen OPERATOR(pg_catalog.=) 1
                                                     THEN 'The suffix has %s character; it must have 26.'
                                                     ELSE 'The suffix has %s characters; it must have 26.' END END,
                                           len OPERATOR(pg_catalog.-) plen);
        END IF;
        s := pg_catalog.substr(t, plen OPERATOR(pg_catalog.+) 1);
        FOR i IN 1..26 LOOP
            c := pg_catalog.substr(s, i, 1);
            v := pg_catalog.strpos(digits, c) OPERATOR(pg_catalog.-) 1;
            IF v OPERATOR(pg_catalog.<) 0 THEN
                byte := pg_catalog.get_byte(pg_catalog.textsend(c), 0);
                RAISE EXCEPTION USING ERRCODE = 'invalid_text_representation', MESSAGE = message,
                    DETAIL = CASE WHEN byte OPERATOR(pg_catalog.<) 32
                                  THEN pg_catalog.format('Control character 0x%s at position %s is not a TypeID suffix digit.',
                                                         pg_catalog.lpad(pg_catalog.to_hex(byte), 2, '0'), plen OPERATOR(pg_catalog.+) i)
                                  ELSE pg_catalog.format('Character "%s" at position %s is not a TypeID suffix digit.', c, plen OPERATOR(pg_catalog.+) i) END,
                    HINT = 'A TypeID suffix is lower case 0-9 and a-z without i, l, o and u.';
            END IF;
            IF i OPERATOR(pg_catalog.=) 1 AND v OPERATOR(pg_catalog.&) 31 OPERATOR(pg_catalog.>) 7 THEN
                RAISE EXCEPTION USING ERRCODE = 'invalid_text_representation', MESSAGE = message,
                    DETAIL = pg_catalog.format('Character "%s" at position %s is above 7: the value would need more than 128 bits.', c, plen OPERATOR(pg_catalog.+) i);
            END IF;
        END LOOP;
    END IF;
    s := pg_catalog.right(t, 26);
    b := CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 1, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 2, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 3, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 4, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 5, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 6, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 7, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 8, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 9, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 10, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 11, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 12, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 13, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 14, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 15, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 16, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 17, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 18, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 19, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 20, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 21, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 22, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 23, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 24, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 25, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5)) OPERATOR(pg_catalog.||)
         CAST(pg_catalog.strpos(digits, pg_catalog.substr(s, 26, 1)) OPERATOR(pg_catalog.-) 1 AS pg_catalog.bit(5));
    RETURN CAST(pg_catalog.lpad(pg_catalog.to_hex(CAST(pg_catalog."substring"(b, 3, 64) AS pg_catalog.int8)), 16, '0')
                OPERATOR(pg_catalog.||)
                pg_catalog.lpad(pg_catalog.to_hex(CAST(pg_catalog."substring"(b, 67, 64) AS pg_catalog.int8)), 16, '0')
                AS pg_catalog.uuid);
END
$$;

COMMENT ON FUNCTION @extschema@.typeid_to_uuid(text) IS
'the UUID of a TypeID (prefix and suffix both checked)';

-- typeid_to_uuid() checks the whole TypeID; the prefix is what comes before
-- the separator of the 26-character suffix
CREATE FUNCTION @extschema@.typeid_prefix(text)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN @extschema@.typeid_to_uuid($1) IS NOT NULL
            THEN pg_catalog.left($1, GREATEST(pg_catalog.length($1) OPERATOR(pg_catalog.-) 27, 0)) END;

COMMENT ON FUNCTION @extschema@.typeid_prefix(text) IS
'the prefix of a TypeID, empty when it has none (prefix and suffix both checked)';

CREATE FUNCTION @extschema@.uuid_extract_timestamp_from_text(id text)
RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN @extschema@.uuid_extract_timestamp(CAST(id AS pg_catalog.uuid));

COMMENT ON FUNCTION @extschema@.uuid_extract_timestamp_from_text(text) IS
'uuid_extract_timestamp() of an id given as text: the time decoder pg_partman''s create_parent() takes';
