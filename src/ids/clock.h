/*
 * clock.h
 *		The time source and the per-backend monotonic unit.
 *
 * Owns the UnixTime and MonotonicUnit types and the split of a counter and
 * its random seed; may call nothing.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#ifndef PG_UUIDX_CLOCK_H
#define PG_UUIDX_CLOCK_H

/*
 * A wall-clock reading, seconds and nanoseconds since the Unix epoch kept
 * apart: int64 nanoseconds would overflow in 2262, long before the 10889 and
 * 5236 that v7 and v6 ids can hold.  nsec is in [0, 1e9).
 */
typedef struct UnixTime
{
	int64		sec;
	int32		nsec;
} UnixTime;

/*
 * One generator's memory of the last id it made: the time unit and a counter
 * that orders ids made within that unit.  The counter's top bit starts at
 * zero as a rollover guard (RFC 9562 6.2, "Counter Rollover Guards").
 */
typedef struct MonotonicUnit
{
	uint64		unit;			/* unit of the last id handed out */
	uint64		counter;		/* counter of the last id within that unit */
	int			counter_bits;	/* counter width, guard bit included */
} MonotonicUnit;

/*
 * The counter and the random seed share one 64-bit draw and may not overlap
 * (see monotonic_next), and the counter must leave room for the variant.
 */
#define COUNTER_BITS_VALID(bits) ((bits) >= 2 && 2 * (bits) <= 63)

/*
 * RFC 9562 6.2 Method 1: a counter of "bits" bits seeded with the top
 * bits - 1 bits of a random word, its top bit (the rollover guard) zero.
 */
static inline uint64
counter_seed(uint64 random, int bits)
{
	Assert(COUNTER_BITS_VALID(bits));
	return random >> (64 - (bits - 1));
}

/*
 * The 62 bits that follow the variant: the counter in the top "bits" bits,
 * then the low bits of "random", which never include the bits that seeded
 * the counter while COUNTER_BITS_VALID(bits).
 */
static inline uint64
counter_payload(uint64 counter, int bits, uint64 random)
{
	return (counter << (62 - bits)) | (random & ((UINT64CONST(1) << (62 - bits)) - 1));
}

extern UnixTime clock_now(void);
extern uint64 monotonic_next(MonotonicUnit *state, uint64 now, uint64 random);

#endif							/* PG_UUIDX_CLOCK_H */
