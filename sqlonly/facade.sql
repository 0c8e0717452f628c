-- sqlonly/facade.sql: the UUIDv47 facade of the SQL build and the SipHash-2-4
-- under it, with the same results and errors as the C build's src/ids/facade.c
-- and src/ids/siphash.c.
--
-- SipHash (Aumasson and Bernstein, 2012) works on unsigned 64-bit words;
-- here they are bigint, with the same bits: XOR, AND, OR and left shifts are
-- the same on both, a right shift is arithmetic (so rotations mask off the
-- copied sign bits) and addition modulo 2^64 adds the two 32-bit halves apart
-- so that it never overflows.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)

-- SipHash-2-4 of data under the key (k0, k1), bytes 0-7 and 8-15 of the key,
-- each read least significant byte first as the paper reads them: two
-- rounds per 8-byte word of the message (the last word holds the remaining
-- bytes and the length mod 256 in its top byte), four finalization rounds;
-- the 8 bytes of the result least significant first, as in the paper's test
-- vectors
CREATE FUNCTION @extschema@.siphash24(data bytea, key bytea)
RETURNS bytea
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    len pg_catalog.int4 := pg_catalog.length(data);
    -- the message words, the last with the length on top
    words pg_catalog.int4 := len OPERATOR(pg_catalog./) 8 OPERATOR(pg_catalog.+) 1;
    -- the message and 8 zero bytes: the last word's missing bytes
    msg pg_catalog.bytea := data OPERATOR(pg_catalog.||) pg_catalog.decode('0000000000000000', 'hex');
    k0 pg_catalog.int8;
    k1 pg_catalog.int8;
    v0 pg_catalog.int8;
    v1 pg_catalog.int8;
    v2 pg_catalog.int8;
    v3 pg_catalog.int8;
    m pg_catalog.int8;
    h pg_catalog.text;
BEGIN
    IF pg_catalog.length(key) OPERATOR(pg_catalog.<>) 16 THEN
        RAISE EXCEPTION USING ERRCODE = 'invalid_parameter_value', MESSAGE = 'key must be 16 bytes',
            DETAIL = pg_catalog.format(CASE WHEN pg_catalog.length(key) OPERATOR(pg_catalog.=) 1
                                            THEN 'The key given has %s byte.' ELSE 'The key given has %s bytes.' END,
                                       pg_catalog.length(key));
    END IF;
    k0 := pg_catalog.get_byte(key, 0)::pg_catalog.int8 OPERATOR(pg_catalog.|)
            (pg_catalog.get_byte(key, 0 OPERATOR(pg_catalog.+) 1)::pg_catalog.int8 OPERATOR(pg_catalog.<<) 8) OPERATOR(pg_catalog.|)
            (pg_catalog.get_byte(key, 0 OPERATOR(pg_catalog.+) 2)::pg_catalog.int8 OPERATOR(pg_catalog.<<) 16) OPERATOR(pg_catalog.|)
            (pg_catalog.get_byte(key, 0 OPERATOR(pg_catalog.+) 3)::pg_catalog.int8 OPERATOR(pg_catalog.<<) 24) OPERATOR(pg_catalog.|)
            (pg_catalog.get_byte(key, 0 OPERATOR(pg_catalog.+) 4)::pg_catalog.int8 OPERATOR(pg_catalog.<<) 32) OPERATOR(pg_catalog.|)
            (pg_catalog.get_byte(key, 0 OPERATOR(pg_catalog.+) 5)::pg_catalog.int8 OPERATOR(pg_catalog.<<) 40) OPERATOR(pg_catalog.|)
            (pg_catalog.get_byte(key, 0 OPERATOR(pg_catalog.+) 6)::pg_catalog.int8 OPERATOR(pg_catalog.<<) 48) OPERATOR(pg_catalog.|)
            (pg_catalog.get_byte(key, 0 OPERATOR(pg_catalog.+) 7)::pg_catalog.int8 OPERATOR(pg_catalog.<<) 56);
    k1 := pg_catalog.get_byte(key, 8)::pg_catalog.int8 OPERATOR(pg_catalog.|)
            (pg_catalog.get_byte(key, 8 OPERATOR(pg_catalog.+) 1)::pg_catalog.int8 OPERATOR(pg_catalog.<<) 8) OPERATOR(pg_catalog.|)
            (pg_catalog.get_byte(key, 8 OPERATOR(pg_catalog.+) 2)::pg_catalog.int8 OPERATOR(pg_catalog.<<) 16) OPERATOR(pg_catalog.|)
            (pg_catalog.get_byte(key, 8 OPERATOR(pg_catalog.+) 3)::pg_catalog.int8 OPERATOR(pg_catalog.<<) 24) OPERATOR(pg_catalog.|)
            (pg_catalog.get_byte(key, 8 OPERATOR(pg_catalog.+) 4)::pg_catalog.int8 OPERATOR(pg_catalog.<<) 32) OPERATOR(pg_catalog.|)
            (pg_catalog.get_byte(key, 8 OPERATOR(pg_catalog.+) 5)::pg_catalog.int8 OPERATOR(pg_catalog.<<) 40) OPERATOR(pg_catalog.|)
            (pg_catalog.get_byte(key, 8 OPERATOR(pg_catalog.+) 6)::pg_catalog.int8 OPERATOR(pg_catalog.<<) 48) OPERATOR(pg_catalog.|)
            (pg_catalog.get_byte(key, 8 OPERATOR(pg_catalog.+) 7)::pg_catalog.int8 OPERATOR(pg_catalog.<<) 56);
    -- initialization: "somepseudorandomlygeneratedbytes"
    v0 := k0 OPERATOR(pg_catalog.#) 8317987319222330741;
    v1 := k1 OPERATOR(pg_catalog.#) 7237128888997146477;
    v2 := k0 OPERATOR(pg_catalog.#) 7816392313619706465;
    v3 := k1 OPERATOR(pg_catalog.#) 8387220255154660723;
    -- round r: the second round of word r / 2, or a finalization round
    FOR r IN 0..2 OPERATOR(pg_catalog.*) words OPERATOR(pg_catalog.+) 3 LOOP
        IF r OPERATOR(pg_catalog.>=) (2 OPERATOR(pg_catalog.*) words) THEN
            IF r OPERATOR(pg_catalog.=) (2 OPERATOR(pg_catalog.*) words) THEN
                v2 := v2 OPERATOR(pg_catalog.#) 255;
            END IF;
        ELSIF r OPERATOR(pg_catalog.%) 2 OPERATOR(pg_catalog.=) 0 THEN
            m := pg_catalog.get_byte(msg, 8 OPERATOR(pg_catalog.*) (r OPERATOR(pg_catalog./) 2))::pg_catalog.int8 OPERATOR(pg_catalog.|)
            (pg_catalog.get_byte(msg, 8 OPERATOR(pg_catalog.*) (r OPERATOR(pg_catalog./) 2) OPERATOR(pg_catalog.+) 1)::pg_catalog.int8 OPERATOR(pg_catalog.<<) 8) OPERATOR(pg_catalog.|)
            (pg_catalog.get_byte(msg, 8 OPERATOR(pg_catalog.*) (r OPERATOR(pg_catalog./) 2) OPERATOR(pg_catalog.+) 2)::pg_catalog.int8 OPERATOR(pg_catalog.<<) 16) OPERATOR(pg_catalog.|)
            (pg_catalog.get_byte(msg, 8 OPERATOR(pg_catalog.*) (r OPERATOR(pg_catalog./) 2) OPERATOR(pg_catalog.+) 3)::pg_catalog.int8 OPERATOR(pg_catalog.<<) 24) OPERATOR(pg_catalog.|)
            (pg_catalog.get_byte(msg, 8 OPERATOR(pg_catalog.*) (r OPERATOR(pg_catalog./) 2) OPERATOR(pg_catalog.+) 4)::pg_catalog.int8 OPERATOR(pg_catalog.<<) 32) OPERATOR(pg_catalog.|)
            (pg_catalog.get_byte(msg, 8 OPERATOR(pg_catalog.*) (r OPERATOR(pg_catalog./) 2) OPERATOR(pg_catalog.+) 5)::pg_catalog.int8 OPERATOR(pg_catalog.<<) 40) OPERATOR(pg_catalog.|)
            (pg_catalog.get_byte(msg, 8 OPERATOR(pg_catalog.*) (r OPERATOR(pg_catalog./) 2) OPERATOR(pg_catalog.+) 6)::pg_catalog.int8 OPERATOR(pg_catalog.<<) 48) OPERATOR(pg_catalog.|)
            (pg_catalog.get_byte(msg, 8 OPERATOR(pg_catalog.*) (r OPERATOR(pg_catalog./) 2) OPERATOR(pg_catalog.+) 7)::pg_catalog.int8 OPERATOR(pg_catalog.<<) 56);
            IF r OPERATOR(pg_catalog./) 2 OPERATOR(pg_catalog.=) (words OPERATOR(pg_catalog.-) 1) THEN
                m := m OPERATOR(pg_catalog.|) ((len OPERATOR(pg_catalog.&) 255)::pg_catalog.int8 OPERATOR(pg_catalog.<<) 56);
            END IF;
            v3 := v3 OPERATOR(pg_catalog.#) m;
        END IF;
        v0 := ((((v0 OPERATOR(pg_catalog.>>) 32) OPERATOR(pg_catalog.+) (v1 OPERATOR(pg_catalog.>>) 32)) OPERATOR(pg_catalog.+) (((v0 OPERATOR(pg_catalog.&) 4294967295) OPERATOR(pg_catalog.+) (v1 OPERATOR(pg_catalog.&) 4294967295)) OPERATOR(pg_catalog.>>) 32)) OPERATOR(pg_catalog.<<) 32) OPERATOR(pg_catalog.|) (((v0 OPERATOR(pg_catalog.&) 4294967295) OPERATOR(pg_catalog.+) (v1 OPERATOR(pg_catalog.&) 4294967295)) OPERATOR(pg_catalog.&) 4294967295);
        v1 := ((v1 OPERATOR(pg_catalog.<<) 13) OPERATOR(pg_catalog.|) ((v1 OPERATOR(pg_catalog.>>) 51) OPERATOR(pg_catalog.&) 8191)) OPERATOR(pg_catalog.#) v0;
        v0 := (v0 OPERATOR(pg_catalog.<<) 32) OPERATOR(pg_catalog.|) ((v0 OPERATOR(pg_catalog.>>) 32) OPERATOR(pg_catalog.&) 4294967295);
        v2 := ((((v2 OPERATOR(pg_catalog.>>) 32) OPERATOR(pg_catalog.+) (v3 OPERATOR(pg_catalog.>>) 32)) OPERATOR(pg_catalog.+) (((v2 OPERATOR(pg_catalog.&) 4294967295) OPERATOR(pg_catalog.+) (v3 OPERATOR(pg_catalog.&) 4294967295)) OPERATOR(pg_catalog.>>) 32)) OPERATOR(pg_catalog.<<) 32) OPERATOR(pg_catalog.|) (((v2 OPERATOR(pg_catalog.&) 4294967295) OPERATOR(pg_catalog.+) (v3 OPERATOR(pg_catalog.&) 4294967295)) OPERATOR(pg_catalog.&) 4294967295);
        v3 := ((v3 OPERATOR(pg_catalog.<<) 16) OPERATOR(pg_catalog.|) ((v3 OPERATOR(pg_catalog.>>) 48) OPERATOR(pg_catalog.&) 65535)) OPERATOR(pg_catalog.#) v2;
        v0 := ((((v0 OPERATOR(pg_catalog.>>) 32) OPERATOR(pg_catalog.+) (v3 OPERATOR(pg_catalog.>>) 32)) OPERATOR(pg_catalog.+) (((v0 OPERATOR(pg_catalog.&) 4294967295) OPERATOR(pg_catalog.+) (v3 OPERATOR(pg_catalog.&) 4294967295)) OPERATOR(pg_catalog.>>) 32)) OPERATOR(pg_catalog.<<) 32) OPERATOR(pg_catalog.|) (((v0 OPERATOR(pg_catalog.&) 4294967295) OPERATOR(pg_catalog.+) (v3 OPERATOR(pg_catalog.&) 4294967295)) OPERATOR(pg_catalog.&) 4294967295);
        v3 := ((v3 OPERATOR(pg_catalog.<<) 21) OPERATOR(pg_catalog.|) ((v3 OPERATOR(pg_catalog.>>) 43) OPERATOR(pg_catalog.&) 2097151)) OPERATOR(pg_catalog.#) v0;
        v2 := ((((v2 OPERATOR(pg_catalog.>>) 32) OPERATOR(pg_catalog.+) (v1 OPERATOR(pg_catalog.>>) 32)) OPERATOR(pg_catalog.+) (((v2 OPERATOR(pg_catalog.&) 4294967295) OPERATOR(pg_catalog.+) (v1 OPERATOR(pg_catalog.&) 4294967295)) OPERATOR(pg_catalog.>>) 32)) OPERATOR(pg_catalog.<<) 32) OPERATOR(pg_catalog.|) (((v2 OPERATOR(pg_catalog.&) 4294967295) OPERATOR(pg_catalog.+) (v1 OPERATOR(pg_catalog.&) 4294967295)) OPERATOR(pg_catalog.&) 4294967295);
        v1 := ((v1 OPERATOR(pg_catalog.<<) 17) OPERATOR(pg_catalog.|) ((v1 OPERATOR(pg_catalog.>>) 47) OPERATOR(pg_catalog.&) 131071)) OPERATOR(pg_catalog.#) v2;
        v2 := (v2 OPERATOR(pg_catalog.<<) 32) OPERATOR(pg_catalog.|) ((v2 OPERATOR(pg_catalog.>>) 32) OPERATOR(pg_catalog.&) 4294967295);
        IF r OPERATOR(pg_catalog.<) (2 OPERATOR(pg_catalog.*) words) AND r OPERATOR(pg_catalog.%) 2 OPERATOR(pg_catalog.=) 1 THEN
            v0 := v0 OPERATOR(pg_catalog.#) m;
        END IF;
    END LOOP;
    h := pg_catalog.lpad(pg_catalog.to_hex(v0 OPERATOR(pg_catalog.#) v1 OPERATOR(pg_catalog.#) v2 OPERATOR(pg_catalog.#) v3), 16, '0');
    RETURN pg_catalog.decode(pg_catalog.substr(h, 15, 2) OPERATOR(pg_catalog.||) pg_catalog.substr(h, 13, 2)
                             OPERATOR(pg_catalog.||) pg_catalog.substr(h, 11, 2) OPERATOR(pg_catalog.||) pg_catalog.substr(h, 9, 2)
                             OPERATOR(pg_catalog.||) pg_catalog.substr(h, 7, 2) OPERATOR(pg_catalog.||) pg_catalog.substr(h, 5, 2)
                             OPERATOR(pg_catalog.||) pg_catalog.substr(h, 3, 2) OPERATOR(pg_catalog.||) pg_catalog.substr(h, 1, 2),
                             'hex');
END
$$;

COMMENT ON FUNCTION @extschema@.siphash24(bytea, bytea) IS
'SipHash-2-4 of data under a 16-byte key: 8 bytes, least significant first (the hash under uuidv47_encode)';

-- The facade (spec: github.com/stateless-me/uuidv47): the 48-bit millisecond
-- field (RFC 9562 5.7 unix_ts_ms) XOR the low 48 bits of SipHash-2-4 over
-- the id's 74 random bits as 10 bytes: octet 6's low nibble, octet 7, octet
-- 8 without the variant bits, octets 9-15.  Those bits are the same in the
-- id and its facade, so decoding computes the same mask.  The version nibble
-- turns 7 -> 4 and back; the rest is kept.  siphash24() checks the key after
-- the id is checked, as the C build does.

CREATE FUNCTION @extschema@.uuidv47_encode(id uuid, key bytea)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    b pg_catalog.bytea := pg_catalog.uuid_send(id);
    mask pg_catalog.bytea;
BEGIN
    IF pg_catalog.get_byte(b, 8) OPERATOR(pg_catalog.>>) 6 OPERATOR(pg_catalog.<>) 2 THEN
        RAISE EXCEPTION USING ERRCODE = 'invalid_parameter_value', MESSAGE = 'UUID must be of version 7',
            DETAIL = 'The UUID is not of the RFC 9562 variant (0b10), the only variant that has versions.';
    END IF;
    IF pg_catalog.get_byte(b, 6) OPERATOR(pg_catalog.>>) 4 OPERATOR(pg_catalog.<>) 7 THEN
        RAISE EXCEPTION USING ERRCODE = 'invalid_parameter_value', MESSAGE = 'UUID must be of version 7',
            DETAIL = pg_catalog.format('The UUID is of version %s.', pg_catalog.get_byte(b, 6) OPERATOR(pg_catalog.>>) 4);
    END IF;
    -- the 10-byte message; the hash's first 6 bytes are its low 48 bits
    mask := @extschema@.siphash24(
        pg_catalog.set_byte(pg_catalog.set_byte(pg_catalog.substr(b, 7, 10), 0, pg_catalog.get_byte(b, 6) OPERATOR(pg_catalog.&) 15),
                            2, pg_catalog.get_byte(b, 8) OPERATOR(pg_catalog.&) 63),
        key);
    FOR i IN 0..5 LOOP
        b := pg_catalog.set_byte(b, i, pg_catalog.get_byte(b, i) OPERATOR(pg_catalog.#) pg_catalog.get_byte(mask, 5 OPERATOR(pg_catalog.-) i));
    END LOOP;
    b := pg_catalog.set_byte(b, 6, (pg_catalog.get_byte(b, 6) OPERATOR(pg_catalog.&) 15) OPERATOR(pg_catalog.|) 64);
    RETURN CAST(pg_catalog.encode(b, 'hex') AS pg_catalog.uuid);
END
$$;

COMMENT ON FUNCTION @extschema@.uuidv47_encode(uuid, bytea) IS
'UUIDv47 facade of a UUIDv7: its millisecond field XOR a SipHash-2-4 mask keyed by the 16-byte key, shown as version 4';

CREATE FUNCTION @extschema@.uuidv47_decode(facade uuid, key bytea)
RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    b pg_catalog.bytea := pg_catalog.uuid_send(facade);
    mask pg_catalog.bytea;
BEGIN
    IF pg_catalog.get_byte(b, 8) OPERATOR(pg_catalog.>>) 6 OPERATOR(pg_catalog.<>) 2 THEN
        RAISE EXCEPTION USING ERRCODE = 'invalid_parameter_value', MESSAGE = 'UUID must be of version 4',
            DETAIL = 'The UUID is not of the RFC 9562 variant (0b10), the only variant that has versions.';
    END IF;
    IF pg_catalog.get_byte(b, 6) OPERATOR(pg_catalog.>>) 4 OPERATOR(pg_catalog.<>) 4 THEN
        RAISE EXCEPTION USING ERRCODE = 'invalid_parameter_value', MESSAGE = 'UUID must be of version 4',
            DETAIL = pg_catalog.format('The UUID is of version %s.', pg_catalog.get_byte(b, 6) OPERATOR(pg_catalog.>>) 4);
    END IF;
    -- the 10-byte message; the hash's first 6 bytes are its low 48 bits
    mask := @extschema@.siphash24(
        pg_catalog.set_byte(pg_catalog.set_byte(pg_catalog.substr(b, 7, 10), 0, pg_catalog.get_byte(b, 6) OPERATOR(pg_catalog.&) 15),
                            2, pg_catalog.get_byte(b, 8) OPERATOR(pg_catalog.&) 63),
        key);
    FOR i IN 0..5 LOOP
        b := pg_catalog.set_byte(b, i, pg_catalog.get_byte(b, i) OPERATOR(pg_catalog.#) pg_catalog.get_byte(mask, 5 OPERATOR(pg_catalog.-) i));
    END LOOP;
    b := pg_catalog.set_byte(b, 6, (pg_catalog.get_byte(b, 6) OPERATOR(pg_catalog.&) 15) OPERATOR(pg_catalog.|) 112);
    RETURN CAST(pg_catalog.encode(b, 'hex') AS pg_catalog.uuid);
END
$$;

COMMENT ON FUNCTION @extschema@.uuidv47_decode(uuid, bytea) IS
'the UUIDv7 behind a UUIDv47 facade made with the same 16-byte key';
