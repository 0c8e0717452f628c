/*
 * v1v6.c
 *		uuidv1_to_v6() and uuidv6_to_v1(): lossless conversion of legacy ids.
 *
 * Owns the two conversions and their input checks; may call bits.h only.
 *
 * RFC 9562 5.6: v6 is v1 with the 60-bit timestamp reordered most
 * significant first; clock_seq and node stay where they are.  Only octets
 * 0-7 change, so a round trip is the identity.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "fmgr.h"
#include "ids/bits.h"

/*
 * Refuse anything but an RFC-variant id of version "from": the detail names
 * what was found, the hint how to convert just the matching rows of a
 * column with the function "fn".
 */
static void
CheckConvertible(uint64 hi, uint64 lo, int from, const char *fn)
{
	if (!uuid_is_rfc_variant(lo))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("UUID must be of version %d", from),
				 errdetail("The UUID is not of the RFC 9562 variant (0b10), the only variant that has versions."),
				 errhint("To convert only version %d values, use CASE WHEN uuid_extract_version(id) = %d THEN %s(id) ELSE id END.",
						 from, from, fn)));
	if (uuid_version(hi) != from)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("UUID must be of version %d", from),
				 errdetail("The UUID is of version %d.", uuid_version(hi)),
				 errhint("To convert only version %d values, use CASE WHEN uuid_extract_version(id) = %d THEN %s(id) ELSE id END.",
						 from, from, fn)));
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuidv1_to_v6);

/*
 * uuidv1_to_v6(uuid) -> uuid: the v6 id with the same timestamp, clock_seq
 * and node as a v1 id.
 */
Datum
pg_uuidx_uuidv1_to_v6(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *result = palloc(UUID_LEN);
	uint64		hi;
	uint64		lo;

	uuid_unpack(PG_GETARG_UUID_P(0), &hi, &lo);
	CheckConvertible(hi, lo, 1, "uuidv1_to_v6");
	uuid_pack(result, uuid_time_hi(uuid_v1_hi_unit(hi), 6), lo);
	PG_RETURN_UUID_P(result);
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuidv6_to_v1);

/*
 * uuidv6_to_v1(uuid) -> uuid: the inverse of uuidv1_to_v6().
 */
Datum
pg_uuidx_uuidv6_to_v1(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *result = palloc(UUID_LEN);
	uint64		hi;
	uint64		lo;

	uuid_unpack(PG_GETARG_UUID_P(0), &hi, &lo);
	CheckConvertible(hi, lo, 6, "uuidv6_to_v1");
	uuid_pack(result, uuid_v1_hi(uuid_time_hi_unit(hi)), lo);
	PG_RETURN_UUID_P(result);
}
