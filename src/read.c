/*
 * read.c
 *		SQL entry points that take ids apart: uuid_extract_timestamp(),
 *		uuid_extract_version(), the v6/v7 boundaries, and min/max support.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "fmgr.h"
#include "layout.h"
#include "ticks.h"
#include "utils/timestamp.h"

PG_FUNCTION_INFO_V1(pg_uuidx_uuid_extract_timestamp);

/*
 * uuid_extract_timestamp(uuid) -> timestamptz: the creation time of a v1,
 * v6 (RFC 9562 5.1, 5.6: 100-ns ticks, truncated to microseconds) or v7
 * (5.7: milliseconds) id; NULL for other versions and other variants, as
 * PostgreSQL 17's core function (which returns NULL for v6 too).
 */
Datum
pg_uuidx_uuid_extract_timestamp(PG_FUNCTION_ARGS)
{
	uint64		hi;
	uint64		lo;

	uuid_unpack(PG_GETARG_UUID_P(0), &hi, &lo);
	if (!uuid_is_rfc_variant(lo))
		PG_RETURN_NULL();

	switch (uuid_version(hi))
	{
		case 1:
			PG_RETURN_TIMESTAMPTZ(timestamptz_from_gregorian_tick(uuid_v1_hi_tick(hi)));
		case 6:
			PG_RETURN_TIMESTAMPTZ(timestamptz_from_gregorian_tick(uuid_time_hi_tick(hi)));
		case 7:
			PG_RETURN_TIMESTAMPTZ(timestamptz_from_v7_tick(uuid_time_hi_tick(hi)));
		default:
			PG_RETURN_NULL();
	}
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuid_extract_version);

/*
 * uuid_extract_version(uuid) -> smallint: RFC 9562 4.2's version field, or
 * NULL when the variant (4.1) is not the RFC's, as PostgreSQL 17's core.
 */
Datum
pg_uuidx_uuid_extract_version(PG_FUNCTION_ARGS)
{
	uint64		hi;
	uint64		lo;

	uuid_unpack(PG_GETARG_UUID_P(0), &hi, &lo);
	if (!uuid_is_rfc_variant(lo))
		PG_RETURN_NULL();
	PG_RETURN_INT16((int16) uuid_version(hi));
}

/* The smallest id of a time-ordered version at a tick */
static Datum
BoundaryUuid(uint64 tick, int version)
{
	pg_uuid_t  *uuid = palloc(UUID_LEN);

	uuid_pack_tick_edge(uuid, tick, version, false);
	PG_RETURN_UUID_P(uuid);
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuidv7_boundary);

/*
 * uuidv7_boundary(timestamptz) -> uuid: the smallest v7 id that can be made
 * at that instant (its millisecond and 1/4096 ms fraction), so that
 * id >= uuidv7_boundary(a) AND id < uuidv7_boundary(b) is an index range.
 */
Datum
pg_uuidx_uuidv7_boundary(PG_FUNCTION_ARGS)
{
	return BoundaryUuid(v7_tick_from_timestamptz(PG_GETARG_TIMESTAMPTZ(0)), 7);
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuidv6_boundary);

/*
 * uuidv6_boundary(timestamptz) -> uuid: the smallest v6 id that can be made
 * at that instant.
 */
Datum
pg_uuidx_uuidv6_boundary(PG_FUNCTION_ARGS)
{
	return BoundaryUuid(gregorian_tick_from_timestamptz(PG_GETARG_TIMESTAMPTZ(0)), 6);
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuid_smaller);

/*
 * uuid_smaller(uuid, uuid) -> uuid: the lesser of two ids in uuid order;
 * transition and combine function of min(uuid).
 */
Datum
pg_uuidx_uuid_smaller(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *a = PG_GETARG_UUID_P(0);
	pg_uuid_t  *b = PG_GETARG_UUID_P(1);

	PG_RETURN_UUID_P(memcmp(a->data, b->data, UUID_LEN) <= 0 ? a : b);
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuid_larger);

/*
 * uuid_larger(uuid, uuid) -> uuid: the greater of two ids in uuid order;
 * transition and combine function of max(uuid).
 */
Datum
pg_uuidx_uuid_larger(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *a = PG_GETARG_UUID_P(0);
	pg_uuid_t  *b = PG_GETARG_UUID_P(1);

	PG_RETURN_UUID_P(memcmp(a->data, b->data, UUID_LEN) >= 0 ? a : b);
}
