/*
 * clock.c
 *		The time source, and the only place where clock step-backs are handled.
 *
 * Owns the wall-clock reading and the monotonic step of a generator's (unit,
 * counter); may call clock_gettime() and clock.h, nothing else of pg_uuidx.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include <time.h>

#include "ids/clock.h"

/*
 * The current wall-clock time.  Callers check that it fits the id they make
 * before they hand it to monotonic_next(), so a reading out of range (a clock
 * set before 1970, say) fails that one call and leaves the state as it was.
 */
UnixTime
clock_now(void)
{
	struct timespec ts;
	UnixTime	now;

	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		elog(ERROR, "clock_gettime(CLOCK_REALTIME) failed: %m");
	now.sec = (int64) ts.tv_sec;
	now.nsec = (int32) ts.tv_nsec;
	return now;
}

/*
 * Advance a generator to the clock reading "now" and return the field that
 * follows the timestamp (counter_payload: the counter, then random bits).
 *
 * RFC 9562 6.2: a unit later than the last one starts a freshly seeded
 * counter (Method 1, "Fixed Bit-Length Dedicated Counter Seeding"); the same
 * unit, or an earlier one after the clock stepped back ("Monotonic Error
 * Checking"), keeps the last unit and increments the counter.  Only when the
 * counter is spent does the unit move one step ahead of the clock ("Counter
 * Rollover Handling"), so (unit, counter) strictly increases on every call.
 */
uint64
monotonic_next(MonotonicUnit *state, uint64 now, uint64 random)
{
	int			bits = state->counter_bits;
	uint64		counter_max = (UINT64CONST(1) << bits) - 1;

	if (now > state->unit)
	{
		state->unit = now;
		state->counter = counter_seed(random, bits);
	}
	else if (state->counter < counter_max)
		state->counter++;
	else
	{
		state->unit++;
		state->counter = counter_seed(random, bits);
	}

	return counter_payload(state->counter, bits, random);
}
