/*
 * generate.c
 *		SQL entry points that make ids from the clock: uuidv7(),
 *		uuidv7(interval), uuidv6() and uuidv4() (uuidv7_at() is in backfill.c).
 *
 * Owns these entry points and the v7 and v6 monotonic states; may call
 * clock.c for the time and the monotonic step, horizon.c to publish a
 * transaction's first id (docs/reading-in-order.md), entropy.c for random bits,
 * id_time.c for units and range errors, and bits.h to place the bits.
 *
 * Each asks the clock and the entropy block for its inputs and hands them to
 * bits.h; none of them keeps state of its own beyond its MonotonicUnit.
 *
 * C symbols carry a pg_uuidx_ prefix: PostgreSQL 17 and 18 export functions
 * named uuidv7, uuidv4 and uuid_extract_timestamp themselves.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "compat.h"
#include "ids/bits.h"
#include "ids/clock.h"
#include "ids/entropy.h"
#include "ids/id_time.h"
#include "reading/horizon.h"
#include "utils/timestamp.h"

/*
 * v7 counter: 18 bits at the top of rand_b (RFC 9562 6.2 Method 1), seeded
 * with 17 random bits and a zero guard bit, so at least 2^17 ids fit in one
 * 1/4096 ms unit before the unit is pushed ahead of the clock; 44 random
 * bits follow it in every id.
 */
#define V7_COUNTER_BITS 18

/*
 * v6 counter: the 14-bit clock_seq (RFC 9562 5.6) serves as the counter of
 * ids within one 100-ns unit, seeded with 13 random bits and a zero guard
 * bit; the 48-bit node that follows is random in every id.
 */
#define V6_COUNTER_BITS 14

static MonotonicUnit v7_state = {0, 0, V7_COUNTER_BITS};
static MonotonicUnit v6_state = {0, 0, V6_COUNTER_BITS};

StaticAssertDecl(COUNTER_BITS_VALID(V7_COUNTER_BITS), "v7 counter width");
StaticAssertDecl(COUNTER_BITS_VALID(V6_COUNTER_BITS), "v6 counter width");

/*
 * The v7 unit of the clock reading "now", or the range error.  Checked
 * before the state moves, so one reading out of range (a clock set before
 * 1970) fails that call only.
 */
static uint64
V7ClockUnit(UnixTime now)
{
	uint64		unit;

	if (!v7_unit_from_unix_time(now, &unit))
		report_v7_range();
	return unit;
}

/*
 * The next v7 id of this backend for the clock unit now_unit, its embedded
 * time moved by shift_units (zero unless called as uuidv7(interval)).
 * Monotonicity is kept on the unshifted clock: ids of uuidv7() strictly
 * increase, and a shifted id is as far from the state's unit as the shifted
 * instant is from the clock's.
 */
static pg_uuid_t *
NextV7(uint64 now_unit, int64 shift_units)
{
	pg_uuid_t  *uuid = palloc(UUID_LEN);
	uint64		payload;
	int64		unit;

	payload = monotonic_next(&v7_state, now_unit, entropy_next());
	unit = (int64) v7_state.unit + shift_units;
	if (unlikely(unit < 0 || (uint64) unit >= UUID_UNIT_LIMIT))
		report_v7_range();

	uuid_pack(uuid, uuid_time_hi(unit, 7), uuid_variant_lo(payload));
	return uuid;
}

/*
 * The clock reading a v7 id is made from.  A reading no v7 id can hold (a
 * clock set before 1970, or past 10889) is refused before the horizon may
 * move the reading up to the database's floor (horizon_clock()): one bad
 * reading fails that call only, as without the floor.
 */
static UnixTime
V7Clock(void)
{
	UnixTime	now = clock_now();

	(void) V7ClockUnit(now);
	return horizon_clock(now);
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuidv7);

/*
 * uuidv7() -> uuid: RFC 9562 5.7, strictly increasing within the backend.
 */
Datum
pg_uuidx_uuidv7(PG_FUNCTION_ARGS)
{
	PG_RETURN_UUID_P(NextV7(V7ClockUnit(V7Clock()), 0));
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuidv7_shift);

/*
 * uuidv7(shift interval) -> uuid: as uuidv7(), with the embedded time moved
 * by "shift" the way timestamptz + interval moves it (months and days follow
 * the session's TimeZone, so ids made with one shift are not always in call
 * order: across a month end or a DST change the shift's length changes).
 * id_time.c works out the shifted unit, as PostgreSQL 18's uuidv7(interval)
 * does.
 */
Datum
pg_uuidx_uuidv7_shift(PG_FUNCTION_ARGS)
{
	UnixTime	now = V7Clock();
	uint64		now_unit = V7ClockUnit(now);
	uint64		shifted_unit;

	if (!v7_unit_from_shifted_unix_time(now, PG_GETARG_INTERVAL_P(0), &shifted_unit))
		report_v7_range();

	PG_RETURN_UUID_P(NextV7(now_unit, (int64) shifted_unit - (int64) now_unit));
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuidv6);

/*
 * uuidv6() -> uuid: RFC 9562 5.6, the Gregorian 100-ns timestamp stored most
 * significant first, a clock_seq counting ids within a unit, and a random
 * node with the multicast bit set (6.10) so it never equals a real IEEE 802
 * address.  Strictly increasing within the backend, like uuidv7().
 */
Datum
pg_uuidx_uuidv6(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *uuid = palloc(UUID_LEN);
	UnixTime	now = clock_now();
	uint64		now_unit;
	uint64		payload;

	/*
	 * checked before the state moves, as for v7: the reading itself, then
	 * the reading the floor may have moved up
	 */
	if (!gregorian_unit_from_unix_time(now, &now_unit) ||
		!gregorian_unit_from_unix_time(horizon_clock(now), &now_unit))
		report_gregorian_range();
	payload = monotonic_next(&v6_state, now_unit, entropy_next());
	/* the counter pushed the unit past the last one a v6 id can hold */
	if (unlikely(v6_state.unit >= UUID_UNIT_LIMIT))
		report_gregorian_range();

	uuid_pack(uuid, uuid_time_hi(v6_state.unit, 6),
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
