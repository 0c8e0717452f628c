/*
 * bits.h
 *		RFC 9562 bit placement: pure functions, no state, no errors.
 *
 * Owns bit placement only; may call nothing (but PostgreSQL's byte swapping).
 *
 * A UUID is handled as two big-endian 64-bit halves: "hi" holds octets 0-7
 * (the timestamp and the version), "lo" octets 8-15 (the variant and what
 * follows it).  Comparing (hi, lo) as unsigned integers orders UUIDs the way
 * PostgreSQL's uuid type does (memcmp).
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#ifndef PG_UUIDX_BITS_H
#define PG_UUIDX_BITS_H

#include "port/pg_bswap.h"
#include "utils/uuid.h"

/* RFC 9562 4.1: variant 0b10 in the two most significant bits of octet 8 */
#define UUID_VARIANT_RFC	UINT64CONST(0x8000000000000000)
#define UUID_LO_PAYLOAD		UINT64CONST(0x3FFFFFFFFFFFFFFF)

/* 60-bit timestamps (v6, v7 with its 12-bit fraction) must stay below this */
#define UUID_UNIT_LIMIT		(UINT64CONST(1) << 60)

/* RFC 9562 5.7 with 6.2 Method 3: a v7 unit is 1/4096 of a millisecond */
#define V7_FRACTION_BITS	12

/* RFC 9562 6.10: the multicast bit (lowest bit of octet 10) in "lo" */
#define NODE_MULTICAST_BIT	(UINT64CONST(1) << 40)

static inline void
uuid_pack(pg_uuid_t *uuid, uint64 hi, uint64 lo)
{
	hi = pg_hton64(hi);
	lo = pg_hton64(lo);
	memcpy(uuid->data, &hi, sizeof(hi));
	memcpy(uuid->data + sizeof(hi), &lo, sizeof(lo));
}

static inline void
uuid_unpack(const pg_uuid_t *uuid, uint64 *hi, uint64 *lo)
{
	memcpy(hi, uuid->data, sizeof(*hi));
	memcpy(lo, uuid->data + sizeof(*hi), sizeof(*lo));
	*hi = pg_ntoh64(*hi);
	*lo = pg_ntoh64(*lo);
}

/* RFC 9562 4.1: true when octet 8 starts with the bits 0b10 */
static inline bool
uuid_is_rfc_variant(uint64 lo)
{
	return (lo >> 62) == 2;
}

/* RFC 9562 4.2: the version in the top nibble of octet 6 */
static inline int
uuid_version(uint64 hi)
{
	return (int) ((hi >> 12) & 0xF);
}

/*
 * Octets 0-7 of a UUID whose 60-bit timestamp is stored most significant
 * bits first around the version nibble: v6 (RFC 9562 5.6: time_high,
 * time_mid, ver, time_low) and v7 (5.7: unix_ts_ms, ver, rand_a holding the
 * sub-millisecond fraction of 6.2 Method 3) share this shape.
 */
static inline uint64
uuid_time_hi(uint64 unit, int version)
{
	Assert(unit < UUID_UNIT_LIMIT && version >= 0 && version <= 15);
	return ((unit >> 12) << 16) | ((uint64) version << 12) | (unit & 0xFFF);
}

/* The 60-bit timestamp of a v6 or v7 "hi" (the inverse of uuid_time_hi) */
static inline uint64
uuid_time_hi_unit(uint64 hi)
{
	return ((hi >> 16) << 12) | (hi & 0xFFF);
}

/*
 * RFC 9562 5.1: octets 0-7 of a v1 UUID hold the same 60-bit timestamp as
 * v6, least significant part first: time_low (32 bits), time_mid (16),
 * version, time_high (12).
 */
static inline uint64
uuid_v1_hi(uint64 unit)
{
	return ((unit & 0xFFFFFFFF) << 32) | (((unit >> 32) & 0xFFFF) << 16) |
		(UINT64CONST(1) << 12) | (unit >> 48);
}

/* The 60-bit timestamp of a v1 "hi" (the inverse of uuid_v1_hi) */
static inline uint64
uuid_v1_hi_unit(uint64 hi)
{
	return ((hi & 0xFFF) << 48) | (((hi >> 16) & 0xFFFF) << 32) | (hi >> 32);
}

/* Octets 8-15: the RFC variant followed by 62 payload bits (RFC 9562 4.1) */
static inline uint64
uuid_variant_lo(uint64 payload)
{
	return UUID_VARIANT_RFC | (payload & UUID_LO_PAYLOAD);
}

/*
 * The smallest (upper = false) or largest id of a v6 or v7 unit: version
 * and variant set, everything after the timestamp zero or all ones.
 */
static inline void
uuid_pack_unit_edge(pg_uuid_t *uuid, uint64 unit, int version, bool upper)
{
	uuid_pack(uuid, uuid_time_hi(unit, version), uuid_variant_lo(upper ? UUID_LO_PAYLOAD : 0));
}

#endif							/* PG_UUIDX_BITS_H */
