-- test/vectors/facade.sql: the facade's and SipHash's published vectors,
-- as temp tables, for sql/facade.sql (the C build, pg_regress) and
-- test/sqlbuild/facade.sql (the SQL build against the C build, pgTAP): each
-- includes this file, so a vector is written here only.
-- Not echoed: the expected files hold what the vectors give, not the vectors.
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
\set vectors_echo :ECHO
\set ECHO none

-- SipHash-2-4: the paper's 64 vectors (key 00..0f, message 00..len-1)
CREATE TEMP TABLE sip_vectors (len int, expected bytea);
INSERT INTO sip_vectors VALUES
    (0, '\x310e0edd47db6f72'::bytea),
    (1, '\xfd67dc93c539f874'::bytea),
    (2, '\x5a4fa9d909806c0d'::bytea),
    (3, '\x2d7efbd796666785'::bytea),
    (4, '\xb7877127e09427cf'::bytea),
    (5, '\x8da699cd64557618'::bytea),
    (6, '\xcee3fe586e46c9cb'::bytea),
    (7, '\x37d1018bf50002ab'::bytea),
    (8, '\x6224939a79f5f593'::bytea),
    (9, '\xb0e4a90bdf82009e'::bytea),
    (10, '\xf3b9dd94c5bb5d7a'::bytea),
    (11, '\xa7ad6b22462fb3f4'::bytea),
    (12, '\xfbe50e86bc8f1e75'::bytea),
    (13, '\x903d84c02756ea14'::bytea),
    (14, '\xeef27a8e90ca23f7'::bytea),
    (15, '\xe545be4961ca29a1'::bytea),
    (16, '\xdb9bc2577fcc2a3f'::bytea),
    (17, '\x9447be2cf5e99a69'::bytea),
    (18, '\x9cd38d96f0b3c14b'::bytea),
    (19, '\xbd6179a71dc96dbb'::bytea),
    (20, '\x98eea21af25cd6be'::bytea),
    (21, '\xc7673b2eb0cbf2d0'::bytea),
    (22, '\x883ea3e395675393'::bytea),
    (23, '\xc8ce5ccd8c030ca8'::bytea),
    (24, '\x94af49f6c650adb8'::bytea),
    (25, '\xeab8858ade92e1bc'::bytea),
    (26, '\xf315bb5bb835d817'::bytea),
    (27, '\xadcf6b0763612e2f'::bytea),
    (28, '\xa5c91da7acaa4dde'::bytea),
    (29, '\x716595876650a2a6'::bytea),
    (30, '\x28ef495c53a387ad'::bytea),
    (31, '\x42c341d8fa92d832'::bytea),
    (32, '\xce7cf2722f512771'::bytea),
    (33, '\xe37859f94623f3a7'::bytea),
    (34, '\x381205bb1ab0e012'::bytea),
    (35, '\xae97a10fd434e015'::bytea),
    (36, '\xb4a31508beff4d31'::bytea),
    (37, '\x81396229f0907902'::bytea),
    (38, '\x4d0cf49ee5d4dcca'::bytea),
    (39, '\x5c73336a76d8bf9a'::bytea),
    (40, '\xd0a704536ba93e0e'::bytea),
    (41, '\x925958fcd6420cad'::bytea),
    (42, '\xa915c29bc8067318'::bytea),
    (43, '\x952b79f3bc0aa6d4'::bytea),
    (44, '\xf21df2e41d4535f9'::bytea),
    (45, '\x87577519048f53a9'::bytea),
    (46, '\x10a56cf5dfcd9adb'::bytea),
    (47, '\xeb75095ccd986cd0'::bytea),
    (48, '\x51a9cb9ecba312e6'::bytea),
    (49, '\x96afadfc2ce666c7'::bytea),
    (50, '\x72fe52975a4364ee'::bytea),
    (51, '\x5a1645b276d592a1'::bytea),
    (52, '\xb274cb8ebf87870a'::bytea),
    (53, '\x6f9bb4203de7b381'::bytea),
    (54, '\xeaecb2a30b22a87f'::bytea),
    (55, '\x9924a43cc1315724'::bytea),
    (56, '\xbd838d3aafbf8db7'::bytea),
    (57, '\x0b1a2a3265d51aea'::bytea),
    (58, '\x135079a3231ce660'::bytea),
    (59, '\x932b2846e4d70666'::bytea),
    (60, '\xe1915f5cb1eca46c'::bytea),
    (61, '\xf325965ca16d629f'::bytea),
    (62, '\x575ff28e60381be5'::bytea),
    (63, '\x724506eb4c328a95'::bytea);

-- UUIDv47 reference (stateless-me/uuidv47, tests.c's crafted ids) under
-- k0 = 0x0123456789abcdef, k1 = 0xfedcba9876543210: as a 16-byte key, each
-- half little-endian, '\xefcdab89674523011032547698badcfe'
CREATE TEMP TABLE ref_vectors (v7 uuid, facade uuid);
INSERT INTO ref_vectors VALUES
    ('00000000-007b-7aaa-8123-456789abcdef'::uuid, 'b108050e-46b6-4aaa-8123-456789abcdef'::uuid),
    ('00000010-007b-7aad-9032-547698badcfe'::uuid, 'bc75bd50-97ef-4aad-9032-547698badcfe'::uuid),
    ('00000020-007b-7aa4-a301-6745ab89efcd'::uuid, 'a3e09c87-bf85-4aa4-a301-6745ab89efcd'::uuid),
    ('00000030-007b-7abf-b210-7654ba98fedc'::uuid, '4a643a79-6975-4abf-b210-7654ba98fedc'::uuid),
    ('00000040-007b-7ab6-8567-0123cdef89ab'::uuid, 'ba071f02-23bd-4ab6-8567-0123cdef89ab'::uuid),
    ('00000050-007b-7a89-9476-1032dcfe98ba'::uuid, 'b215242c-6fb1-4a89-9476-1032dcfe98ba'::uuid),
    ('00000060-007b-7a80-a745-2301efcdab89'::uuid, 'e8e788cf-ded6-4a80-a745-2301efcdab89'::uuid),
    ('00000070-007b-7a9b-b654-3210fedcba98'::uuid, '3d4b88de-ece3-4a9b-b654-3210fedcba98'::uuid),
    ('00000080-007b-7a92-89ab-cdef01234567'::uuid, '9d9bd354-51fe-4a92-89ab-cdef01234567'::uuid),
    ('00000090-007b-7a95-98ba-dcfe10325476'::uuid, 'f261fb3c-8b2e-4a95-98ba-dcfe10325476'::uuid),
    ('000000a0-007b-7aec-ab89-efcd23016745'::uuid, '31c34e74-1771-4aec-ab89-efcd23016745'::uuid),
    ('000000b0-007b-7ae7-ba98-fedc32107654'::uuid, '928f4297-9c9b-4ae7-ba98-fedc32107654'::uuid),
    ('000000c0-007b-7afe-8def-89ab45670123'::uuid, 'b8c1b1f0-8831-4afe-8def-89ab45670123'::uuid),
    ('000000d0-007b-7af1-9cfe-98ba54761032'::uuid, '3994c161-2a72-4af1-9cfe-98ba54761032'::uuid),
    ('000000e0-007b-7ac8-afcd-ab8967452301'::uuid, 'fae6e510-f8b5-4ac8-afcd-ab8967452301'::uuid),
    ('000000f0-007b-7ac3-bedc-ba9876543210'::uuid, 'ce171cbd-d0f1-4ac3-bedc-ba9876543210'::uuid),
    ('12345678-9abc-7abc-8123-456789abcdef'::uuid, '386ef887-69df-4abc-8123-456789abcdef'::uuid);

\set ECHO :vectors_echo
