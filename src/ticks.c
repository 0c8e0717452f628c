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
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "common/int.h"
#include "layout.h"
#include "ticks.h"

/* the Unix seconds that 48 bits of milliseconds can hold */
#define V7_MAX_UNIX_SEC \
	((int64) ((UUID_TICK_LIMIT >> V7_FRACTION_BITS) / MS_PER_SEC))

/* the Unix seconds that 60 bits of 100-ns intervals can hold */
#define TICKS_PER_SEC			INT64CONST(10000000)
#define GREGORIAN_MIN_UNIX_SEC	(-GREGORIAN_UNIX_OFFSET / TICKS_PER_SEC)
#define GREGORIAN_MAX_UNIX_SEC \
	((int64) ((UUID_TICK_LIMIT - GREGORIAN_UNIX_OFFSET) / TICKS_PER_SEC))

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
 * The Unix time of a timestamptz, plus sub_us_ns nanoseconds (0-999) that
 * timestamptz cannot hold; false for ±infinity and times too far out to add
 * the epoch difference to.
 */
bool
unix_time_from_timestamptz(TimestampTz ts, int32 sub_us_ns, UnixTime *t)
{
	int64		us;

	if (TIMESTAMP_NOT_FINITE(ts) ||
		pg_add_s64_overflow(ts, UNIX_TO_PG_EPOCH_US, &us))
		return false;
	/* floor division: times before 1970 have a negative sec and nsec >= 0 */
	t->sec = us / USECS_PER_SEC - (us % USECS_PER_SEC < 0);
	t->nsec = (int32) ((us - t->sec * USECS_PER_SEC) * NS_PER_US) + sub_us_ns;
	return true;
}

/*
 * The v7 tick of a Unix time: RFC 9562 5.7 milliseconds, and the
 * sub-millisecond part as a fraction of 4096 rounded down (6.2 Method 3), in
 * integer arithmetic; false when a v7 id cannot hold the time.
 */
bool
v7_tick_from_unix_time(UnixTime t, uint64 *tick)
{
	uint64		ms;

	if (t.sec < 0 || t.sec > V7_MAX_UNIX_SEC)
		return false;
	ms = (uint64) t.sec * MS_PER_SEC + (uint64) (t.nsec / NS_PER_MS);
	if (ms >= (UUID_TICK_LIMIT >> V7_FRACTION_BITS))
		return false;
	*tick = (ms << V7_FRACTION_BITS) |
		(uint64) (((t.nsec % NS_PER_MS) << V7_FRACTION_BITS) / NS_PER_MS);
	return true;
}

/*
 * The Gregorian tick (RFC 9562 5.1, 5.6: 100-ns intervals since 1582-10-15)
 * of a Unix time; false when a v1 or v6 id cannot hold the time.
 */
bool
gregorian_tick_from_unix_time(UnixTime t, uint64 *tick)
{
	int64		ticks;

	if (t.sec < GREGORIAN_MIN_UNIX_SEC || t.sec > GREGORIAN_MAX_UNIX_SEC)
		return false;
	ticks = t.sec * TICKS_PER_SEC + t.nsec / 100 + GREGORIAN_UNIX_OFFSET;
	if (ticks < 0 || (uint64) ticks >= UUID_TICK_LIMIT)
		return false;
	*tick = (uint64) ticks;
	return true;
}

/*
 * The v7 tick of a timestamptz, or the range error.
 */
uint64
v7_tick_from_timestamptz(TimestampTz ts)
{
	UnixTime	t;
	uint64		tick;

	if (!unix_time_from_timestamptz(ts, 0, &t) || !v7_tick_from_unix_time(t, &tick))
		report_v7_range();
	return tick;
}

/*
 * The Gregorian tick of a timestamptz, or the range error.
 */
uint64
gregorian_tick_from_timestamptz(TimestampTz ts)
{
	UnixTime	t;
	uint64		tick;

	if (!unix_time_from_timestamptz(ts, 0, &t) || !gregorian_tick_from_unix_time(t, &tick))
		report_gregorian_range();
	return tick;
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
