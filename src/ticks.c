/*
 * ticks.c
 *		Conversions between timestamptz and the timestamps inside UUIDs.
 *
 * v7 carries Unix milliseconds plus a 12-bit fraction (a "v7 tick" is 1/4096
 * ms); v1 and v6 carry 100-ns intervals since 1582-10-15 (a "Gregorian
 * tick").  timestamptz has microseconds, so going to a UUID keeps everything
 * the UUID can hold, and coming back truncates to the microsecond.  Values
 * the UUID cannot hold are errors, raised here for every SQL entry point.
 *
 * Copyright (c) 2026, pg_uuidx developers
 *
 * src/ticks.c
 */
#include "postgres.h"

#include "layout.h"
#include "ticks.h"

/* the Unix microseconds that 48 bits of milliseconds can hold */
#define V7_MAX_UNIX_US \
	((int64) ((UUID_TICK_LIMIT >> V7_FRACTION_BITS) * US_PER_MS) - 1)

/* the Unix microseconds that 60 bits of 100-ns intervals can hold */
#define GREGORIAN_MIN_UNIX_US	(-GREGORIAN_UNIX_OFFSET / 10)
#define GREGORIAN_MAX_UNIX_US	((int64) ((UUID_TICK_LIMIT - 1 - GREGORIAN_UNIX_OFFSET) / 10))

/*
 * Raise the error for a time that a v7 UUID cannot hold.
 */
void
report_v7_range(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			 errmsg("timestamp out of range for UUIDv7"),
			 errdetail("UUIDv7 holds times from 1970-01-01 00:00:00+00 to 10889-08-02 05:31:50.655+00.")));
}

/*
 * Raise the error for a time that a v1 or v6 UUID cannot hold.
 */
void
report_gregorian_range(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			 errmsg("timestamp out of range for UUIDv6"),
			 errdetail("UUIDv1 and UUIDv6 hold times from 1582-10-15 00:00:00+00 to 5236-03-31 21:21:00.684697+00.")));
}

/*
 * The v7 tick of a timestamptz: RFC 9562 5.7 milliseconds, and the
 * sub-millisecond part as a fraction of 4096 rounded down (6.2 Method 3).
 */
uint64
v7_tick_from_timestamptz(TimestampTz ts)
{
	int64		us;

	/* ±infinity first: shifting them to the Unix epoch would overflow */
	if (TIMESTAMP_NOT_FINITE(ts))
		report_v7_range();
	us = ts + UNIX_TO_PG_EPOCH_US;
	if (us < 0 || us > V7_MAX_UNIX_US)
		report_v7_range();

	return ((uint64) (us / US_PER_MS) << V7_FRACTION_BITS) |
		(uint64) (((us % US_PER_MS) << V7_FRACTION_BITS) / US_PER_MS);
}

/*
 * The Gregorian tick (RFC 9562 5.1, 5.6) of a timestamptz.
 */
uint64
gregorian_tick_from_timestamptz(TimestampTz ts)
{
	int64		us;

	if (TIMESTAMP_NOT_FINITE(ts))
		report_gregorian_range();
	us = ts + UNIX_TO_PG_EPOCH_US;
	if (us < GREGORIAN_MIN_UNIX_US || us > GREGORIAN_MAX_UNIX_US)
		report_gregorian_range();

	return (uint64) (us * 10 + GREGORIAN_UNIX_OFFSET);
}

/*
 * The instant a v7 tick names, to the millisecond: PostgreSQL 17's core
 * uuid_extract_timestamp() reads v7 that way, and pg_uuidx returns the same.
 */
TimestampTz
timestamptz_from_v7_tick(uint64 tick)
{
	return (int64) (tick >> V7_FRACTION_BITS) * US_PER_MS - UNIX_TO_PG_EPOCH_US;
}

/*
 * The instant a Gregorian tick names, truncated to the microsecond.
 */
TimestampTz
timestamptz_from_gregorian_tick(uint64 tick)
{
	return (int64) (tick / 10) - GREGORIAN_UNIX_OFFSET / 10 - UNIX_TO_PG_EPOCH_US;
}
