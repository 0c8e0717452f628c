/*
 * precise.c
 *		uuid_extract_timestamp_us(): the creation time of an id to the
 *		microsecond, where uuid_extract_timestamp() gives v7 in milliseconds.
 */
#include "postgres.h"

#include "fmgr.h"
#include "layout.h"
#include "ticks.h"
#include "utils/timestamp.h"

/*
 * The Unix microsecond of a v7 tick.  Writers (ticks.c) store the fraction
 * f = floor(us * 4096 / 1000) of the microsecond us within its millisecond
 * (RFC 9562 6.2 Method 3), so f * 1000 / 4096 <= us < (f + 1) * 1000 / 4096,
 * an interval shorter than 1 that holds exactly one integer:
 * us = floor((f + 1) * 1000 / 4096).  For a fraction written from a finer
 * clock (uuidv7() reads nanoseconds) this is the microsecond of the tick's
 * last instant, within 1 us of the time read.
 */
static int64
UnixUsFromV7Tick(uint64 tick)
{
	uint64		fraction = tick & ((1 << V7_FRACTION_BITS) - 1);

	return (int64) (tick >> V7_FRACTION_BITS) * US_PER_MS +
		(int64) (((fraction + 1) * US_PER_MS) >> V7_FRACTION_BITS);
}

/* read.c: v1, v6 and the NULL cases are already exact there */
extern Datum pg_uuidx_uuid_extract_timestamp(PG_FUNCTION_ARGS);

PG_FUNCTION_INFO_V1(pg_uuidx_uuid_extract_timestamp_us);

/*
 * uuid_extract_timestamp_us(uuid) -> timestamptz: v7 to the microsecond from
 * its 12-bit fraction; v1 and v6 from their 100-ns ticks (RFC 9562 5.1, 5.6)
 * truncated to the microsecond, and NULL for other versions and variants,
 * as uuid_extract_timestamp().
 */
Datum
pg_uuidx_uuid_extract_timestamp_us(PG_FUNCTION_ARGS)
{
	uint64		hi;
	uint64		lo;

	uuid_unpack(PG_GETARG_UUID_P(0), &hi, &lo);
	if (uuid_is_rfc_variant(lo) && uuid_version(hi) == 7)
		PG_RETURN_TIMESTAMPTZ(UnixUsFromV7Tick(uuid_time_hi_tick(hi)) - UNIX_TO_PG_EPOCH_US);
	return pg_uuidx_uuid_extract_timestamp(fcinfo);
}
