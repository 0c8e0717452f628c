/*
 * id_time.c
 *		All time arithmetic of ids: timestamptz and clock readings to the
 *		units inside UUIDs, and the one definition of an id's time.
 *
 * Owns all time arithmetic of ids and the errors for times an id cannot hold;
 * may call bits.h for field widths and PostgreSQL's timestamptz + interval,
 * nothing that keeps state.
 *
 * v7 carries Unix milliseconds plus a 12-bit fraction (a "v7 tick" is 1/4096
 * ms, RFC 9562 5.7 and 6.2 Method 3); v1 and v6 carry 100-ns intervals since
 * 1582-10-15 (a "Gregorian tick", 5.1 and 5.6).  Functions that take a
 * version take 7 for v7 units and 6 for Gregorian units (v1 and v6).
 *
 * Writers put the time t into the unit w(t) that holds it: for v7 the
 * fraction of the millisecond rounded down (floor(us * 4096 / 1000) for a
 * microsecond), for Gregorian units the 100-ns interval.  w is strictly
 * increasing, so the units fall into runs, one per microsecond u:
 * w(u) <= unit < w(u + 1).  That u is the time of an id, to the microsecond
 * (unix_us_from_unit, inline in id_time.h for the extractors); every extractor
 * and range function is derived from it:
 *
 * - the ids whose time is t or later are those from the first unit of t on
 *   (first_unit_from_unix_us), those whose time is t or earlier those up to
 *   the last unit of t (last_unit_to_unix_us), so a time range is a range of
 *   units and, in uuid order, of ids;
 * - a writer's id reads back as the instant it was made for, and the
 *   reading never leaves the id's millisecond (v7) or 100-ns interval.
 *
 * Values an id cannot hold are errors, raised here for every SQL entry point.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "common/int.h"
#include "ids/bits.h"
#include "ids/id_time.h"
#include "utils/fmgrprotos.h"
#include "utils/timestamp.h"

/* the Unix seconds that 48 bits of milliseconds can hold */
#define V7_MAX_UNIX_SEC \
	((int64) ((UUID_UNIT_LIMIT >> V7_FRACTION_BITS) / MS_PER_SEC))

/* the Unix seconds that 60 bits of 100-ns intervals can hold */
#define UNITS_PER_SEC			INT64CONST(10000000)
#define GREGORIAN_MIN_UNIX_SEC	(-GREGORIAN_UNIX_OFFSET / UNITS_PER_SEC)
#define GREGORIAN_MAX_UNIX_SEC \
	((int64) ((UUID_UNIT_LIMIT - GREGORIAN_UNIX_OFFSET) / UNITS_PER_SEC))

/*
 * Raise the error for a time that a v7 UUID cannot hold.
 */
void
report_v7_range(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			 errmsg("timestamp out of range for UUIDv7"),
			 errdetail("UUIDv7 holds times from 1970-01-01 00:00:00+00 to 10889-08-02 05:31:50.655999+00.")));
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
	*t = unix_time_from_unix_us(us);
	t->nsec += sub_us_ns;
	return true;
}

/*
 * The v7 unit of a Unix time: RFC 9562 5.7 milliseconds, and the
 * sub-millisecond part as a fraction of 4096 rounded down (6.2 Method 3), in
 * integer arithmetic; false when a v7 id cannot hold the time.
 */
bool
v7_unit_from_unix_time(UnixTime t, uint64 *unit)
{
	uint64		ms;

	if (t.sec < 0 || t.sec > V7_MAX_UNIX_SEC)
		return false;
	ms = (uint64) t.sec * MS_PER_SEC + (uint64) (t.nsec / NS_PER_MS);
	if (ms >= (UUID_UNIT_LIMIT >> V7_FRACTION_BITS))
		return false;
	*unit = (ms << V7_FRACTION_BITS) |
		(uint64) (((t.nsec % NS_PER_MS) << V7_FRACTION_BITS) / NS_PER_MS);
	return true;
}

/*
 * The Gregorian unit (RFC 9562 5.1, 5.6: 100-ns intervals since 1582-10-15)
 * of a Unix time; false when a v1 or v6 id cannot hold the time.
 */
bool
gregorian_unit_from_unix_time(UnixTime t, uint64 *unit)
{
	int64		units;

	if (t.sec < GREGORIAN_MIN_UNIX_SEC || t.sec > GREGORIAN_MAX_UNIX_SEC)
		return false;
	units = t.sec * UNITS_PER_SEC + t.nsec / 100 + GREGORIAN_UNIX_OFFSET;
	if (units < 0 || (uint64) units >= UUID_UNIT_LIMIT)
		return false;
	*unit = (uint64) units;
	return true;
}

/*
 * The v7 unit of the clock reading "now" moved by "shift" the way
 * timestamptz + interval moves it (months and days follow the session's
 * TimeZone): the reading, nanoseconds included, plus the shift, its unit the
 * floor of that exact instant, as PostgreSQL 18's uuidv7(interval) computes
 * it; false when a v7 id cannot hold the result.  "now" must be a time a v7
 * id can hold.
 */
bool
v7_unit_from_shifted_unix_time(UnixTime now, Interval *shift, uint64 *unit)
{
	TimestampTz now_ts;
	TimestampTz shifted_ts;
	UnixTime	shifted;

	/* in range for v7, so this cannot overflow */
	now_ts = now.sec * USECS_PER_SEC + now.nsec / NS_PER_US - UNIX_TO_PG_EPOCH_US;
	shifted_ts = DatumGetTimestampTz(DirectFunctionCall2(timestamptz_pl_interval,
														 TimestampTzGetDatum(now_ts),
														 IntervalPGetDatum(shift)));
	return unix_time_from_timestamptz(shifted_ts, now.nsec % NS_PER_US, &shifted) &&
		v7_unit_from_unix_time(shifted, unit);
}

/*
 * The first unit whose time is the Unix microsecond us or later, that is
 * w(us) when us is within the units' span; false when no unit is that late.
 */
bool
first_unit_from_unix_us(int64 us, int version, uint64 *unit)
{
	UnixTime	t;
	bool		fits;

	if (us <= unix_us_from_unit(0, version))
	{
		*unit = 0;
		return true;
	}
	if (us > unix_us_from_unit(UUID_UNIT_LIMIT - 1, version))
		return false;

	t = unix_time_from_unix_us(us);
	fits = version == 7 ? v7_unit_from_unix_time(t, unit) : gregorian_unit_from_unix_time(t, unit);
	Assert(fits && *unit > 0);
	Assert(unix_us_from_unit(*unit, version) == us &&
		   unix_us_from_unit(*unit - 1, version) < us);
	return fits;
}

/*
 * The last unit whose time is the Unix microsecond us or earlier; false
 * when no unit is that early.
 */
bool
last_unit_to_unix_us(int64 us, int version, uint64 *unit)
{
	if (us < unix_us_from_unit(0, version))
		return false;
	if (us >= unix_us_from_unit(UUID_UNIT_LIMIT - 1, version))
	{
		*unit = UUID_UNIT_LIMIT - 1;
		return true;
	}
	/* us + 1 lies within the span: its first unit follows our last one */
	if (!first_unit_from_unix_us(us + 1, version, unit))
		elog(ERROR, "no tick for Unix microsecond " INT64_FORMAT, us + 1);
	(*unit)--;
	return true;
}

/*
 * The Unix microsecond of a timestamptz; false for ±infinity and for one
 * whose Unix microsecond does not fit in 64 bits (no id's time is that late).
 */
bool
unix_us_from_timestamptz(TimestampTz ts, int64 *us)
{
	return !TIMESTAMP_NOT_FINITE(ts) && !pg_add_s64_overflow(ts, UNIX_TO_PG_EPOCH_US, us);
}

/*
 * The first or last unit whose time is the instant ts (to the microsecond),
 * or the range error of the version: the v6 and v7 boundaries.
 */
uint64
unit_of_timestamptz(TimestampTz ts, int version, bool last)
{
	int64		us;
	uint64		unit;

	if (!unix_us_from_timestamptz(ts, &us) ||
		us < unix_us_from_unit(0, version) ||
		us > unix_us_from_unit(UUID_UNIT_LIMIT - 1, version))
	{
		if (version == 7)
			report_v7_range();
		report_gregorian_range();
	}
	if (!(last ? last_unit_to_unix_us(us, version, &unit) :
		  first_unit_from_unix_us(us, version, &unit)))
		elog(ERROR, "no tick for Unix microsecond " INT64_FORMAT, us);
	return unit;
}

/*
 * The time of a v7 id to the millisecond, as PostgreSQL 17's core
 * uuid_extract_timestamp() reads it: timestamptz_from_unit() truncated to
 * its millisecond, which it never leaves.
 */
TimestampTz
timestamptz_ms_from_v7_unit(uint64 unit)
{
	return (int64) (unit >> V7_FRACTION_BITS) * US_PER_MS - UNIX_TO_PG_EPOCH_US;
}
