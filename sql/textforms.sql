-- compact text forms: base32hex (RFC 4648 section 7, as PostgreSQL 19's
-- encode(..., 'base32hex')), ULID text, TypeID (spec 0.3.0)
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
CREATE EXTENSION pg_uuidx;
SET search_path = public, pg_catalog;
SET TimeZone = 'UTC';

-- base32hex: RFC 4648 section 10's vectors adapted to 16 bytes.  5 bytes
-- make 8 characters, so "fooba" x 3 gives "CPNMUOJ1" x 3, and the last
-- byte "f" gives "CO" as BASE32-HEX("f") = "CO======"
SELECT convert_from(uuid_send(id), 'SQL_ASCII') AS bytes, uuid_to_base32hex(id) AS b32hex
FROM (VALUES ('666f6f62-6166-6f6f-6261-666f6f626166'::uuid)) AS v(id);
SELECT uuid_to_base32hex('00000000-0000-0000-0000-000000000000') AS nil,
       uuid_to_base32hex('ffffffff-ffff-ffff-ffff-ffffffffffff') AS max,
       uuid_to_base32hex('01890a5d-ac96-774b-bcce-b302099a8057') AS v7;
-- decoding: either case, with or without the padding
SELECT base32hex_to_uuid('CPNMUOJ1CPNMUOJ1CPNMUOJ1CO') AS upper,
       base32hex_to_uuid('cpnmuoj1cpnmuoj1cpnmuoj1co') AS lower,
       base32hex_to_uuid('064GKNDCIPRKNF6EMC10J6K0AS======') AS padded,
       base32hex_to_uuid('VVVVVVVVVVVVVVVVVVVVVVVVVS') AS max;

-- ULID: the spec's largest value and its time (2^48 - 1 ms); the TypeID
-- spec's vectors in upper case; the ulid/javascript README's decodeTime
-- example (1469918176385 ms)
SELECT uuid_to_ulid('ffffffff-ffff-ffff-ffff-ffffffffffff') AS max,
       uuid_to_ulid('00000000-0000-0000-0000-000000000000') AS nil,
       uuid_to_ulid('01890a5d-ac96-774b-bcce-b302099a8057') AS v7,
       uuid_to_ulid('0110c853-1d09-52d8-d73e-1194e95b5f19') AS alphabet;
SELECT ulid_to_uuid('7ZZZZZZZZZZZZZZZZZZZZZZZZZ') AS max,
       ulid_to_uuid('01H455VB4PEX5VSKNK084SN02Q') AS upper,
       ulid_to_uuid('01h455vb4pex5vsknk084sn02q') AS lower,
       ulid_to_uuid('01ARYZ6S41TSV4RRFFQ69G5FAV') AS readme;
SELECT ulid_extract_timestamp(ulid_to_uuid('7ZZZZZZZZZZZZZZZZZZZZZZZZZ')) AS max_time,
       ulid_extract_timestamp(ulid_to_uuid('01ARYZ6S41TSV4RRFFQ69G5FAV')) AS readme_time,
       extract(epoch FROM ulid_extract_timestamp(ulid_to_uuid('01ARYZ6S41TSV4RRFFQ69G5FAV'))) * 1000 AS readme_ms;

-- uuid_extract_timestamp reads only ids whose variant and version bits
-- say v1, v6 or v7; in a ULID those bits are random.  Four ULIDs of the
-- same millisecond: the README's (variant bits 01: NULL), one whose bits
-- say v4 (NULL), one that says v7 (right: v7 keeps the same 48-bit
-- millisecond) and one that says v1 (a nonsense date in 3058).  About 1 in
-- 21 random ULIDs reads as v1, v6 or v7; ulid_extract_timestamp reads the
-- millisecond in all.
SELECT uuid_to_ulid(id) AS ulid, uuid_extract_version(id) AS version_bits,
       uuid_extract_timestamp(id) AS uuid_extract_timestamp,
       ulid_extract_timestamp(id) AS ulid_extract_timestamp
FROM (VALUES ('01563df3-6481-d676-4c61-efb99302bd5b'::uuid), ('01563df3-6481-4676-8c61-efb99302bd5b'),
             ('01563df3-6481-7676-8c61-efb99302bd5b'), ('01563df3-6481-1676-8c61-efb99302bd5b')) AS v(id);
-- for a v7 id both agree to the millisecond
SELECT ulid_extract_timestamp(id) = date_trunc('milliseconds', uuid_extract_timestamp(id)) AS v7_agrees
FROM (SELECT uuidv7() AS id) AS s;

-- TypeID: every vector of the spec's valid.yml, both directions (the
-- vectors of test/vectors/textforms.sql: tables typeid_valid and
-- textform_bad_calls)
\i test/vectors/textforms.sql
SELECT name, typeid(prefix, id) = tid AS encodes, typeid_to_uuid(tid) = id AS decodes_id,
       typeid_prefix(tid) = prefix AS decodes_prefix
FROM typeid_valid;
SELECT typeid('user', '01890a5d-ac96-774b-bcce-b302099a8057') AS user_id,
       typeid('abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijk', '00000000-0000-0000-0000-000000000000') AS prefix_63;

-- round trips over 100k random ids (v4, v7 and a few fixed edges), every
-- form both ways; decoding the other case too; and text order under
-- COLLATE "C" is uuid order for all three
CREATE TEMP TABLE ids AS
SELECT CASE WHEN g % 2 = 0 THEN uuidv4() ELSE uuidv7() END AS id FROM generate_series(1, 100000) AS g
UNION ALL VALUES ('00000000-0000-0000-0000-000000000000'::uuid), ('ffffffff-ffff-ffff-ffff-ffffffffffff'),
    ('80000000-0000-0000-0000-000000000000'), ('00000000-0000-0000-0000-000000000001');
SELECT count(*) AS ids,
       count(*) FILTER (WHERE base32hex_to_uuid(uuid_to_base32hex(id)) <> id) AS b32hex_mismatches,
       count(*) FILTER (WHERE base32hex_to_uuid(lower(uuid_to_base32hex(id)) || '======') <> id) AS b32hex_lower_padded_mismatches,
       count(*) FILTER (WHERE ulid_to_uuid(uuid_to_ulid(id)) <> id) AS ulid_mismatches,
       count(*) FILTER (WHERE ulid_to_uuid(lower(uuid_to_ulid(id))) <> id) AS ulid_lower_mismatches,
       count(*) FILTER (WHERE typeid_to_uuid(typeid('order_line', id)) <> id
                           OR typeid_prefix(typeid('order_line', id)) <> 'order_line'
                           OR typeid_to_uuid(typeid('', id)) <> id) AS typeid_mismatches,
       count(*) FILTER (WHERE length(uuid_to_base32hex(id)) <> 26 OR length(uuid_to_ulid(id)) <> 26
                           OR uuid_to_ulid(id) !~ '^[0-7][0-9A-HJKMNP-TV-Z]{25}$'
                           OR uuid_to_base32hex(id) !~ '^[0-9A-V]{25}[048CGKOS]$') AS shape_mismatches,
       count(*) FILTER (WHERE lower(uuid_to_ulid(id)) <> substr(typeid('x', id), 3)) AS ulid_vs_typeid_suffix
FROM ids;
SELECT count(*) FILTER (WHERE (a.id < b.id) IS DISTINCT FROM (uuid_to_base32hex(a.id) COLLATE "C" < uuid_to_base32hex(b.id))) AS b32hex_order_errors,
       count(*) FILTER (WHERE (a.id < b.id) IS DISTINCT FROM (uuid_to_ulid(a.id) COLLATE "C" < uuid_to_ulid(b.id))) AS ulid_order_errors,
       count(*) FILTER (WHERE (a.id < b.id) IS DISTINCT FROM (typeid('t', a.id) COLLATE "C" < typeid('t', b.id))) AS typeid_order_errors
FROM (SELECT id, row_number() OVER () AS n FROM ids) AS a
JOIN (SELECT id, row_number() OVER () AS n FROM ids) AS b ON b.n = a.n % 100004 + 1;

-- on PostgreSQL 19 and later, byte for byte what core writes (silent here
-- when it passes; an error names the first difference)
DO $$
DECLARE
    bad record;
BEGIN
    IF current_setting('server_version_num')::int >= 190000 THEN
        EXECUTE $q$SELECT id FROM ids
                   WHERE uuid_to_base32hex(id) <> rtrim(encode(uuid_send(id), 'base32hex'), '=')
                      OR base32hex_to_uuid(encode(uuid_send(id), 'base32hex')) <> id LIMIT 1$q$ INTO bad;
        IF bad IS NOT NULL THEN
            RAISE EXCEPTION 'base32hex differs from core for %', bad.id;
        END IF;
    END IF;
END $$;

-- bad text: SQLSTATE, message and detail, for every rule (README's "Bad
-- input" rows); nothing is returned for any of them
CREATE FUNCTION pg_temp.try(call text, OUT state text, OUT message text, OUT detail text)
LANGUAGE plpgsql AS $$
DECLARE
    r text;
BEGIN
    EXECUTE 'SELECT (' || call || ')::text' INTO r;
    state := '00000';
    message := r;
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL;
END $$;
\pset null NULL
SELECT call, (pg_temp.try(call)).*
FROM textform_bad_calls ORDER BY n;

DROP EXTENSION pg_uuidx;
