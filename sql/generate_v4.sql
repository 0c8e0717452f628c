-- uuidv4(): RFC 9562 5.4, 122 random bits from the amortised CSPRNG block
--
-- Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
CREATE EXTENSION pg_uuidx;
-- reach pg_uuidx before same-named core functions (PostgreSQL 17+)
SET search_path = public, pg_catalog;

WITH ids AS (SELECT uuidv4() AS id FROM generate_series(1, 100000))
SELECT count(DISTINCT id) AS distinct_ids,
       bool_and(substr(id::text, 15, 1) = '4') AS version_4,
       bool_and(substr(id::text, 20, 1) IN ('8', '9', 'a', 'b')) AS variant_rfc,
       -- 32 random bits: among 100k values only a handful may repeat
       count(DISTINCT substr(id::text, 1, 8)) > 99990 AS first_32_bits_spread,
       count(DISTINCT right(id::text, 8)) > 99990 AS last_32_bits_spread
FROM ids;

-- every one of the 122 random bits is set in roughly half of 20k ids
WITH ids AS (SELECT uuid_send(uuidv4()) AS b FROM generate_series(1, 20000)),
bits AS (
    SELECT bit, sum(get_bit(b, bit)) AS ones
    FROM ids, generate_series(0, 127) AS bit
    WHERE bit NOT IN (52, 53, 54, 55, 70, 71)     -- version and variant (get_bit counts from each byte's low bit)
    GROUP BY bit
)
SELECT count(*) AS random_bits, bool_and(ones BETWEEN 9400 AND 10600) AS balanced
FROM bits;

-- the fixed bits are exactly version 4 and variant 0b10
WITH ids AS (SELECT uuid_send(uuidv4()) AS b FROM generate_series(1, 1000))
SELECT bool_and(get_byte(b, 6) >> 4 = 4) AS version_bits,
       bool_and(get_byte(b, 8) >> 6 = 2) AS variant_bits
FROM ids;

DROP EXTENSION pg_uuidx;
