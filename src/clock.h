/*
 * clock.h
 *		The time source and the per-backend monotonic tick.
 *
 * Copyright (c) 2026, pg_uuidx developers
 *
 * src/clock.h
 */
#ifndef PG_UUIDX_CLOCK_H
#define PG_UUIDX_CLOCK_H

/*
 * One generator's memory of the last id it made: the time tick and a counter
 * that orders ids made within that tick.  The counter's top bit starts at
 * zero as a rollover guard (RFC 9562 6.2, "Counter Rollover Guards").
 */
typedef struct MonotonicTick
{
	uint64		tick;			/* tick of the last id handed out */
	uint64		counter;		/* counter of the last id within that tick */
	int			counter_bits;	/* counter width, guard bit included */
} MonotonicTick;

extern int64 clock_unix_ns(void);
extern uint64 monotonic_next(MonotonicTick *state, uint64 now, uint64 random);

#endif							/* PG_UUIDX_CLOCK_H */
