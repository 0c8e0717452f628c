/*
 * generate.c
 *		SQL entry points that make ids: uuidv7(), uuidv7(interval), uuidv7_at(),
 *		uuidv6() and uuidv4().
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
#include "entropy.h"
#include "layout.h"
#include "ticks.h"
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

/*
 * v6 counter: the 14-bit clock_seq (RFC 9562 5.6) serves as the counter of
 * ids within one 100-ns tick, seeded with 13 random bits and a zero guard
 * bit; the 48-bit node that follows is random in every id.
 */
#define V6_COUNTER_BITS 14

static MonotonicTick v7_state = {0, 0, V7_COUNTER_BITS};
static MonotonicTick v6_state = {0, 0, V6_COUNTER_BITS};

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
		report_v7_range();

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
	/* only for its range error: the tick comes from the monotonic state */
	(void) v7_tick_from_timestamptz(shifted);

	/* floor division, so that negative shifts round toward the past too */
	delta_us = shifted - now;
	delta_ms = delta_us / US_PER_MS - (delta_us % US_PER_MS < 0);
	delta_us -= delta_ms * US_PER_MS;

	PG_RETURN_UUID_P(NextV7(now_ns,
							delta_ms * (1 << V7_FRACTION_BITS) +
							(delta_us << V7_FRACTION_BITS) / US_PER_MS));
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuidv6);

/*
 * uuidv6() -> uuid: RFC 9562 5.6, the Gregorian 100-ns timestamp stored most
 * significant first, a clock_seq counting ids within a tick, and a random
 * node with the multicast bit set (6.10) so it never equals a real IEEE 802
 * address.  Strictly increasing within the backend, like uuidv7().
 */
Datum
pg_uuidx_uuidv6(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *uuid = palloc(UUID_LEN);
	uint64		payload;

	payload = monotonic_next(&v6_state,
							 gregorian_tick_from_unix_ns(clock_unix_ns()),
							 entropy_next());
	if (unlikely(v6_state.tick >= UUID_TICK_LIMIT))
		report_gregorian_range();

	uuid_pack(uuid, uuid_time_hi(v6_state.tick, 6),
			  uuid_variant_lo(payload | NODE_MULTICAST_BIT));
	PG_RETURN_UUID_P(uuid);
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
