/*
 * extract.c
 *		SQL entry points that take ids apart: uuid_extract_timestamp() and
 *		uuid_extract_timestamp_us(), uuid_extract_version(), the v6/v7
 *		boundaries, and min/max support.  Every time they read or compare
 *		comes from id_time.c's one definition of an id's time.
 *
 * Owns the extractors, the boundaries and min/max; may call id_time.c for
 * times and bits.h to take the bits apart.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "fmgr.h"
#include "ids/bits.h"
#include "ids/id_time.h"
#include "utils/timestamp.h"

/*
 * The time-ordered unit of an id and its kind (7 for v7, 6 for the
 * Gregorian units of v1 and v6); false for other versions and variants.
 */
static pg_attribute_always_inline bool
IdUnit(const pg_uuid_t *uuid, uint64 *unit, int *kind)
{
	uint64		hi;
	uint64		lo;

	uuid_unpack(uuid, &hi, &lo);
	if (!uuid_is_rfc_variant(lo))
		return false;
	switch (uuid_version(hi))
	{
		case 1:
			*unit = uuid_v1_hi_unit(hi);
			*kind = 6;
			return true;
		case 6:
		case 7:
			*unit = uuid_time_hi_unit(hi);
			*kind = uuid_version(hi);
			return true;
		default:
			return false;
	}
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuid_extract_timestamp);

/*
 * uuid_extract_timestamp(uuid) -> timestamptz: the creation time of a v1,
 * v6 (RFC 9562 5.1, 5.6: 100-ns units, truncated to microseconds) or v7
 * (5.7: milliseconds) id; NULL for other versions and other variants, as
 * PostgreSQL 17's core function (which returns NULL for v6 too).
 */
Datum
pg_uuidx_uuid_extract_timestamp(PG_FUNCTION_ARGS)
{
	uint64		unit;
	int			kind;

	if (!IdUnit(PG_GETARG_UUID_P(0), &unit, &kind))
		PG_RETURN_NULL();
	if (kind == 7)
		PG_RETURN_TIMESTAMPTZ(timestamptz_ms_from_v7_unit(unit));
	PG_RETURN_TIMESTAMPTZ(timestamptz_from_unit(unit, kind));
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuid_extract_timestamp_us);

/*
 * uuid_extract_timestamp_us(uuid) -> timestamptz: the time of a v1, v6 or v7
 * id to the microsecond, as id_time.c defines it (v7 from its 12-bit fraction,
 * within its millisecond); NULL where uuid_extract_timestamp() is NULL.
 */
Datum
pg_uuidx_uuid_extract_timestamp_us(PG_FUNCTION_ARGS)
{
	uint64		unit;
	int			kind;

	if (!IdUnit(PG_GETARG_UUID_P(0), &unit, &kind))
		PG_RETURN_NULL();
	PG_RETURN_TIMESTAMPTZ(timestamptz_from_unit(unit, kind));
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

/*
 * The smallest id whose time is the instant ts or later (upper = false), or
 * the largest whose time is ts or earlier: the edge of ts's first or last
 * unit, version and variant set.
 */
static Datum
BoundaryUuid(TimestampTz ts, int version, bool upper)
{
	pg_uuid_t  *uuid = palloc(UUID_LEN);

	uuid_pack_unit_edge(uuid, unit_of_timestamptz(ts, version, upper), version, upper);
	PG_RETURN_UUID_P(uuid);
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuidv7_boundary);
PG_FUNCTION_INFO_V1(pg_uuidx_uuidv7_boundary_upper);
PG_FUNCTION_INFO_V1(pg_uuidx_uuidv6_boundary);
PG_FUNCTION_INFO_V1(pg_uuidx_uuidv6_boundary_upper);

/*
 * uuidv7_boundary(timestamptz) -> uuid: the smallest v7 id whose time is ts
 * or later, so that id >= uuidv7_boundary(a) AND id < uuidv7_boundary(b) is
 * an index range for the v7 ids made in [a, b).
 */
Datum
pg_uuidx_uuidv7_boundary(PG_FUNCTION_ARGS)
{
	return BoundaryUuid(PG_GETARG_TIMESTAMPTZ(0), 7, false);
}

/*
 * uuidv7_boundary_upper(timestamptz) -> uuid: the largest v7 id whose time
 * is ts or earlier, so that id BETWEEN uuidv7_boundary(a) AND
 * uuidv7_boundary_upper(b) is an index range for the ids made in [a, b].
 */
Datum
pg_uuidx_uuidv7_boundary_upper(PG_FUNCTION_ARGS)
{
	return BoundaryUuid(PG_GETARG_TIMESTAMPTZ(0), 7, true);
}

/* uuidv6_boundary(timestamptz) -> uuid, and its upper twin: as for v7 */
Datum
pg_uuidx_uuidv6_boundary(PG_FUNCTION_ARGS)
{
	return BoundaryUuid(PG_GETARG_TIMESTAMPTZ(0), 6, false);
}

Datum
pg_uuidx_uuidv6_boundary_upper(PG_FUNCTION_ARGS)
{
	return BoundaryUuid(PG_GETARG_TIMESTAMPTZ(0), 6, true);
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
