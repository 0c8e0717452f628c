/*
 * generate.c
 *		SQL entry points that make ids: uuidv7(), uuidv7(interval), uuidv4().
 *
 * Each asks the clock and the entropy block for its inputs and hands them to
 * layout.h; none of them keeps state of its own beyond its MonotonicTick.
 *
 * C symbols carry a pg_uuidx_ prefix: PostgreSQL 17 and 18 export functions
 * named uuidv7, uuidv4 and uuid_extract_timestamp themselves.
 */
#include "postgres.h"

#include "clock.h"
#include "compat.h"
#include "datatype/timestamp.h"
#include "entropy.h"
#include "layout.h"
#include "utils/fmgrprotos.h"
#include "utils/timestamp.h"

PG_UUIDX_MODULE_MAGIC;

/*
 * v7 counter: 18 bits at the top of rand_b (RFC 9562 6.2 Method 1), seeded
 * with 17 random bits and a zero guard bit, so at least 2^17 ids fit in one
 * 1/4096 ms tick before the tick is pushed ahead of the clock; 44 random
 * bits follow it in every id.
 */
#define V7_COUNTER_BITS 18

/* microseconds between the Unix epoch and PostgreSQL's (2000-01-01) */
#define UNIX_TO_PG_EPOCH_US \
	((int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY * USECS_PER_SEC)

/* the last Unix microsecond a v7 id can carry: 48 bits of milliseconds */
#define V7_MAX_UNIX_US \
	((int64) ((UUID_TICK_LIMIT >> V7_FRACTION_BITS) * US_PER_MS) - 1)

static MonotonicTick v7_state = {0, 0, V7_COUNTER_BITS};

/*
 * Raise the error for a v7 time outside what 48 bits of milliseconds hold.
 */
static void
ReportV7Range(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			 errmsg("timestamp out of range for UUIDv7"),
			 errdetail("UUIDv7 holds times from 1970-01-01 00:00:00+00 to 10889-08-02 05:31:50.655+00.")));
}

/*
 * The next v7 id of this backend, for the clock reading now_ns, moved by
 * shift_ticks (zero unless called as uuidv7(interval)).  Monotonicity is kept
 * on the unshifted clock, so ids made with one shift still sort in order.
 */
static pg_uuid_t *
NextV7(int64 now_ns, int64 shift_ticks)
{
	pg_uuid_t  *uuid = palloc(UUID_LEN);
	uint64		payload;
	int64		tick;

	payload = monotonic_next(&v7_state, v7_tick_from_unix_ns(now_ns),
							 entropy_next());
	tick = (int64) v7_state.tick + shift_ticks;
	if (unlikely(tick < 0 || (uint64) tick >= UUID_TICK_LIMIT))
		ReportV7Range();

	uuid_pack(uuid, uuid_time_hi(tick, 7), uuid_variant_lo(payload));
	return uuid;
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuidv7);

/*
 * uuidv7() -> uuid: RFC 9562 5.7, strictly increasing within the backend.
 */
Datum
pg_uuidx_uuidv7(PG_FUNCTION_ARGS)
{
	PG_RETURN_UUID_P(NextV7(clock_unix_ns(), 0));
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuidv7_shift);

/*
 * uuidv7(shift interval) -> uuid: as uuidv7(), with the embedded time moved
 * by "shift" the way timestamptz + interval moves it (months and days follow
 * the session's TimeZone).  A shift of whole milliseconds moves the tick
 * exactly; a finer one lands within one 1/4096 ms step.
 */
Datum
pg_uuidx_uuidv7_shift(PG_FUNCTION_ARGS)
{
	Interval   *shift = PG_GETARG_INTERVAL_P(0);
	int64		now_ns = clock_unix_ns();
	TimestampTz now = now_ns / NS_PER_US - UNIX_TO_PG_EPOCH_US;
	TimestampTz shifted;
	int64		delta_us;
	int64		delta_ms;

	shifted = DatumGetTimestampTz(DirectFunctionCall2(timestamptz_pl_interval,
													  TimestampTzGetDatum(now),
													  IntervalPGetDatum(shift)));
	if (TIMESTAMP_NOT_FINITE(shifted) ||
		shifted + UNIX_TO_PG_EPOCH_US < 0 ||
		shifted + UNIX_TO_PG_EPOCH_US > V7_MAX_UNIX_US)
		ReportV7Range();

	/* floor division, so that negative shifts round toward the past too */
	delta_us = shifted - now;
	delta_ms = delta_us / US_PER_MS - (delta_us % US_PER_MS < 0);
	delta_us -= delta_ms * US_PER_MS;

	PG_RETURN_UUID_P(NextV7(now_ns,
							delta_ms * (1 << V7_FRACTION_BITS) +
							(delta_us << V7_FRACTION_BITS) / US_PER_MS));
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuidv4);

/*
 * uuidv4() -> uuid: RFC 9562 5.4, 122 random bits from the entropy block.
 */
Datum
pg_uuidx_uuidv4(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *uuid = palloc(UUID_LEN);
	uint64		hi = entropy_next();

	uuid_pack(uuid, (hi & ~UINT64CONST(0xF000)) | UINT64CONST(0x4000),
			  uuid_variant_lo(entropy_next()));
	PG_RETURN_UUID_P(uuid);
}
