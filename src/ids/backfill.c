/*
 * backfill.c
 *		uuidv7_at(): v7 ids for given instants, in call order when instants
 *		repeat.
 *
 * Owns uuidv7_at()'s per-session state; may call entropy.c for random bits,
 * clock.h's counter helpers, id_time.c for the unit of an instant and bits.h
 * to place the bits.
 *
 * RFC 9562 6.2 allows a counter after the sub-millisecond fraction (Method 3
 * followed by Method 1) for ids of the same unit.  uuidv7_at() keeps its own
 * per-session "last tick + counter", apart from uuidv7()'s state, so that
 * backfilling and live generation do not disturb each other:
 *
 * - the same unit as the previous call: the counter is incremented, so the
 *   new id sorts after the previous one;
 * - any other unit, earlier or later: a counter freshly seeded with random
 *   bits.  The id always encodes exactly the unit of the given instant;
 *   ids for an earlier instant sort before, for a later one after.
 *
 * The unit is never moved ahead: when the counter of one unit is spent
 * (at least 2^23 ids for one instant in a row) the call fails rather than
 * return an id of another time or out of order.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "ids/bits.h"
#include "ids/clock.h"
#include "ids/entropy.h"
#include "ids/id_time.h"
#include "utils/timestamp.h"

/*
 * 24 counter bits at the top of rand_b, seeded with 23 random bits under a
 * zero guard bit (RFC 9562 6.2 "Counter Rollover Guards"); 38 random bits
 * follow in every id.
 */
#define BACKFILL_COUNTER_BITS	24

typedef struct BackfillState
{
	bool		used;			/* has this session made a backfill id yet */
	uint64		unit;			/* v7 unit of the last id */
	uint64		counter;		/* its counter */
} BackfillState;

static BackfillState backfill_state = {false, 0, 0};

/*
 * The v7 id of this session's next backfill call for the given unit.
 */
static pg_uuid_t *
NextBackfillV7(uint64 unit)
{
	pg_uuid_t  *uuid = palloc(UUID_LEN);
	uint64		random = entropy_next();
	uint64		counter_max = (UINT64CONST(1) << BACKFILL_COUNTER_BITS) - 1;

	if (backfill_state.used && unit == backfill_state.unit)
	{
		if (unlikely(backfill_state.counter >= counter_max))
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("too many ordered UUIDv7 ids for one instant"),
					 errdetail("uuidv7_at() keeps at least 8388608 consecutive ids for the same instant in call order."),
					 errhint("Spread the rows over distinct microseconds, or continue in another session.")));
		backfill_state.counter++;
	}
	else
	{
		backfill_state.used = true;
		backfill_state.unit = unit;
		backfill_state.counter = counter_seed(random, BACKFILL_COUNTER_BITS);
	}

	uuid_pack(uuid, uuid_time_hi(unit, 7),
			  uuid_variant_lo(counter_payload(backfill_state.counter, BACKFILL_COUNTER_BITS, random)));
	return uuid;
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuidv7_at);

/*
 * uuidv7_at(timestamptz) -> uuid: a v7 id whose time (id_time.c) is the given
 * instant, for backfilling ids of historical rows; consecutive calls for the
 * same instant give increasing ids.
 */
Datum
pg_uuidx_uuidv7_at(PG_FUNCTION_ARGS)
{
	PG_RETURN_UUID_P(NextBackfillV7(unit_of_timestamptz(PG_GETARG_TIMESTAMPTZ(0), 7, false)));
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuidv7_at_utc);

/*
 * uuidv7_at(timestamp) -> uuid: as uuidv7_at(timestamptz), reading the
 * timestamp as UTC whatever the session's TimeZone (a timestamp and a
 * timestamptz share one representation: microseconds since 2000-01-01, UTC
 * for the latter).
 */
Datum
pg_uuidx_uuidv7_at_utc(PG_FUNCTION_ARGS)
{
	PG_RETURN_UUID_P(NextBackfillV7(unit_of_timestamptz((TimestampTz) PG_GETARG_TIMESTAMP(0), 7, false)));
}
