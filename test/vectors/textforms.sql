-- test/vectors/textforms.sql: the text forms' vectors, as temp tables, for
-- sql/textforms.sql (the C build, pg_regress) and test/sqlbuild/textforms.sql
-- (the SQL build against the C build, pgTAP): each includes this file, so a
-- vector is written here only.  Not echoed: the expected files hold what the
-- vectors give, not the vectors.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
\set vectors_echo :ECHO
\set ECHO none

-- TypeID: every vector of the spec's valid.yml
CREATE TEMP TABLE typeid_valid (name text, tid text, prefix text, id uuid);
INSERT INTO typeid_valid VALUES
    ('nil', '00000000000000000000000000', '', '00000000-0000-0000-0000-000000000000'),
    ('one', '00000000000000000000000001', '', '00000000-0000-0000-0000-000000000001'),
    ('ten', '0000000000000000000000000a', '', '00000000-0000-0000-0000-00000000000a'),
    ('sixteen', '0000000000000000000000000g', '', '00000000-0000-0000-0000-000000000010'),
    ('thirty-two', '00000000000000000000000010', '', '00000000-0000-0000-0000-000000000020'),
    ('max-valid', '7zzzzzzzzzzzzzzzzzzzzzzzzz', '', 'ffffffff-ffff-ffff-ffff-ffffffffffff'),
    ('valid-alphabet', 'prefix_0123456789abcdefghjkmnpqrs', 'prefix', '0110c853-1d09-52d8-d73e-1194e95b5f19'),
    ('valid-uuidv7', 'prefix_01h455vb4pex5vsknk084sn02q', 'prefix', '01890a5d-ac96-774b-bcce-b302099a8057'),
    ('prefix-underscore', 'pre_fix_00000000000000000000000000', 'pre_fix', '00000000-0000-0000-0000-000000000000');

-- bad text, one call for every rule (the README's "Bad input" rows), in
-- this order; a call that needs an id takes a fixed one
CREATE TEMP TABLE textform_bad_calls (n int GENERATED ALWAYS AS IDENTITY, call text);
INSERT INTO textform_bad_calls (call) VALUES
    -- base32hex
    ($$base32hex_to_uuid('')$$),
    ($$base32hex_to_uuid('CPNMUOJ1CPNMUOJ1CPNMUOJ1C')$$),
    ($$base32hex_to_uuid('CPNMUOJ1CPNMUOJ1CPNMUOJ1COO')$$),
    ($$base32hex_to_uuid('CPNMUOJ1CPNMUOJ1CPNMUOJ1CO==')$$),
    ($$base32hex_to_uuid('CPNMUOJ1CPNMUOJ1CPNMUOJ1CO=====A')$$),
    ($$base32hex_to_uuid('CPNMUOJ1CPNMUOJ1CPNMUOWJ1C')$$),
    ($$base32hex_to_uuid('CPNMUOJ1CPNMUOJ1CPNMUO-1CO')$$),
    ($$base32hex_to_uuid('CPNMUOJ1CPNMUOJ1CPNMUOJ1CP')$$),
    ($$base32hex_to_uuid('CPNMUOJ1CPNMUOJ1CPNMUOJ1C' || chr(233))$$),
    ($$base32hex_to_uuid('CPNMUOJ1CPNMUOJ1CPNMUOJ1C' || chr(9))$$),
    ($$base32hex_to_uuid(repeat('CPNMUOJ1', 100))$$),
    -- ULID
    ($$ulid_to_uuid('01ARYZ6S41TSV4RRFFQ69G5FA')$$),
    ($$ulid_to_uuid('01ARYZ6S41TSV4RRFFQ69G5FAVV')$$),
    ($$ulid_to_uuid('81ARYZ6S41TSV4RRFFQ69G5FAV')$$),
    ($$ulid_to_uuid('ZZZZZZZZZZZZZZZZZZZZZZZZZZ')$$),
    ($$ulid_to_uuid('01ARYZ6S41TSV4RRFFQ69G5FAU')$$),
    ($$ulid_to_uuid('01ARYZ6S41TSV4RRFFQ69G5FAI')$$),
    ($$ulid_to_uuid('01ARYZ6S41TSV4RRFFQ69G5FAl')$$),
    ($$ulid_to_uuid('O1ARYZ6S41TSV4RRFFQ69G5FAV')$$),
    ($$ulid_to_uuid('01ARYZ6S-1TSV4RRFFQ69G5FAV')$$),
    ($$ulid_to_uuid('01ARYZ6S41TSV4RRFFQ69G5FA ')$$),
    ($$ulid_to_uuid('01ARYZ6S41TSV4RRFFQ69G5F' || chr(233))$$),
    -- TypeID, the spec's invalid.yml in its order
    ($$typeid_to_uuid('PREFIX_00000000000000000000000000')$$),
    ($$typeid_to_uuid('12345_00000000000000000000000000')$$),
    ($$typeid_to_uuid('pre.fix_00000000000000000000000000')$$),
    ($$typeid_to_uuid('préfix_00000000000000000000000000')$$),
    ($$typeid_to_uuid('  prefix_00000000000000000000000000')$$),
    ($$typeid_to_uuid('abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl_00000000000000000000000000')$$),
    ($$typeid_to_uuid('_00000000000000000000000000')$$),
    ($$typeid_to_uuid('_')$$),
    ($$typeid_to_uuid('prefix_1234567890123456789012345')$$),
    ($$typeid_to_uuid('prefix_123456789012345678901234567')$$),
    ($$typeid_to_uuid('prefix_1234567890123456789012345 ')$$),
    ($$typeid_to_uuid('prefix_0123456789ABCDEFGHJKMNPQRS')$$),
    ($$typeid_to_uuid('prefix_123456789-123456789-123456')$$),
    ($$typeid_to_uuid('prefix_ooooooiiiiiiuuuuuuulllllll')$$),
    ($$typeid_to_uuid('prefix_i23456789ol23456789oi23456')$$),
    ($$typeid_to_uuid('prefix_123456789-0123456789-0123456')$$),
    ($$typeid_to_uuid('prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz')$$),
    ($$typeid_to_uuid('_prefix_00000000000000000000000000')$$),
    ($$typeid_to_uuid('prefix__00000000000000000000000000')$$),
    ($$typeid_to_uuid('')$$),
    ($$typeid_to_uuid('prefix_')$$),
    ($$typeid_to_uuid('prefix_0123456789abcdefghjkmnpqr' || chr(233))$$),
    -- typeid_prefix checks the whole TypeID too
    ($$typeid_prefix('prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz')$$),
    ($$typeid_prefix('0123456789abcdefghjkmnpqrs')$$),
    -- typeid(prefix, id): the prefix rules
    ($$typeid('User', '01890a5d-ac96-774b-bcce-b302099a8057'::uuid)$$),
    ($$typeid('user_', '01890a5d-ac96-774b-bcce-b302099a8057'::uuid)$$),
    ($$typeid('_user', '01890a5d-ac96-774b-bcce-b302099a8057'::uuid)$$),
    ($$typeid('us3r', '01890a5d-ac96-774b-bcce-b302099a8057'::uuid)$$),
    ($$typeid('abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl', '01890a5d-ac96-774b-bcce-b302099a8057'::uuid)$$),
    ($$typeid('', '00000000-0000-0000-0000-000000000000')$$),
    -- STRICT
    ($$uuid_to_ulid(NULL)$$),
    ($$typeid(NULL, '01890a5d-ac96-774b-bcce-b302099a8057'::uuid)$$);

\set ECHO :vectors_echo
