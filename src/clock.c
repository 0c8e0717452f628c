/*
 * clock.c
 *		The time source, and the only place where clock step-backs are handled.
 *
 * Copyright (c) 2026, pg_uuidx developers
 *
 * src/clock.c
 */
#include "postgres.h"

#include <time.h>

#include "clock.h"

/*
 * Current wall-clock time in nanoseconds since the Unix epoch.
 */
int64
clock_unix_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		elog(ERROR, "clock_gettime(CLOCK_REALTIME) failed: %m");
	return (int64) ts.tv_sec * INT64CONST(1000000000) + ts.tv_nsec;
}

/*
 * Advance a generator to the clock reading "now" and return the field that
 * follows the timestamp: the counter in its top counter_bits bits, then the
 * low bits of "random".  The top counter_bits - 1 bits of "random" seed the
 * counter when a new tick starts, so the two uses never share a bit as long
 * as 2 * counter_bits <= 63.
 *
 * RFC 9562 6.2: a tick later than the last one starts a freshly seeded
 * counter (Method 1, "Fixed Bit-Length Dedicated Counter Seeding"); the same
 * tick, or an earlier one after the clock stepped back ("Monotonic Error
 * Checking"), keeps the last tick and increments the counter.  Only when the
 * counter is spent does the tick move one step ahead of the clock ("Counter
 * Rollover Handling"), so (tick, counter) strictly increases on every call.
 */
uint64
monotonic_next(MonotonicTick *state, uint64 now, uint64 random)
{
	int			bits = state->counter_bits;
	uint64		counter_max = (UINT64CONST(1) << bits) - 1;
	uint64		seed = random >> (64 - (bits - 1));

	if (now > state->tick)
	{
		state->tick = now;
		state->counter = seed;
	}
	else if (state->counter < counter_max)
		state->counter++;
	else
	{
		state->tick++;
		state->counter = seed;
	}

	return (state->counter << (62 - bits)) |
		(random & ((UINT64CONST(1) << (62 - bits)) - 1));
}
