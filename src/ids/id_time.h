/*
 * id_time.h
 *		timestamptz <-> the time fields of v1, v6 and v7 UUIDs.
 *
 * Owns the time units, the epoch offsets and the interface of id_time.c; may
 * call nothing.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#ifndef PG_UUIDX_ID_TIME_H
#define PG_UUIDX_ID_TIME_H

#include "compat.h"
#include "datatype/timestamp.h"
#include "ids/bits.h"
#include "ids/clock.h"

#define NS_PER_US			INT64CONST(1000)
#define NS_PER_MS			INT64CONST(1000000)
#define US_PER_MS			INT64CONST(1000)
#define MS_PER_SEC			INT64CONST(1000)

/*
 * RFC 9562 5.1: v1 and v6 count 100-ns intervals since 1582-10-15 00:00 UTC;
 * this is that count at the Unix epoch.
 */
#define GREGORIAN_UNIX_OFFSET	INT64CONST(0x01B21DD213814000)

/* microseconds between the Unix epoch and PostgreSQL's (2000-01-01) */
#define UNIX_TO_PG_EPOCH_US \
	((int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY * USECS_PER_SEC)

/*
 * A Unix time in microseconds as seconds and nanoseconds, by floor division:
 * times before 1970 have a negative sec and nsec >= 0.
 */
static inline UnixTime
unix_time_from_unix_us(int64 us)
{
	UnixTime	t;

	t.sec = us / USECS_PER_SEC - (us % USECS_PER_SEC < 0);
	t.nsec = (int32) ((us - t.sec * USECS_PER_SEC) * NS_PER_US);
	return t;
}

/* The microsecond a clock reading lies in (nsec is never negative) */
static inline int64
unix_us_from_unix_time(UnixTime t)
{
	return t.sec * USECS_PER_SEC + t.nsec / NS_PER_US;
}

extern bool unix_time_from_timestamptz(TimestampTz ts, int32 sub_us_ns, UnixTime *t);
extern bool v7_unit_from_unix_time(UnixTime t, uint64 *unit);
extern bool gregorian_unit_from_unix_time(UnixTime t, uint64 *unit);
extern bool v7_unit_from_shifted_unix_time(UnixTime now, Interval *shift, uint64 *unit);
extern bool unix_us_from_timestamptz(TimestampTz ts, int64 *us);

/* an id's time (id_time.c explains the definition) and what derives from it */
extern bool first_unit_from_unix_us(int64 us, int version, uint64 *unit);
extern bool last_unit_to_unix_us(int64 us, int version, uint64 *unit);
extern uint64 unit_of_timestamptz(TimestampTz ts, int version, bool last);
extern TimestampTz timestamptz_ms_from_v7_unit(uint64 unit);

pg_noreturn extern void report_v7_range(void);
pg_noreturn extern void report_gregorian_range(void);

/*
 * The time of an id, to the microsecond: the Unix microsecond u whose run of
 * units w(u) <= unit < w(u + 1) holds the unit (see the top of id_time.c).
 *
 * v7: within the millisecond, w(u) = floor(u * 4096 / 1000), so u is the
 * largest microsecond with u * 4096 / 1000 < f + 1, that is
 * u = ceil((f + 1) * 1000 / 4096) - 1, at most 999 for f = 4095.  For a
 * fraction written from a nanosecond clock (PostgreSQL 18's uuidv7(), and
 * our uuidv7()) this is the microsecond of the unit's last instant: the
 * time read truncated to the microsecond, or (when the unit straddles a
 * microsecond boundary and the clock read before it) one microsecond later.
 *
 * Gregorian: ten units a microsecond, the unit's microsecond (truncation).
 */
static inline int64
unix_us_from_unit(uint64 unit, int version)
{
	Assert(unit < UUID_UNIT_LIMIT);
	if (version == 7)
	{
		uint64		fraction = unit & ((1 << V7_FRACTION_BITS) - 1);

		return (int64) (unit >> V7_FRACTION_BITS) * US_PER_MS +
			(int64) (((fraction + 1) * US_PER_MS - 1) >> V7_FRACTION_BITS);
	}
	return (int64) (unit / 10) - GREGORIAN_UNIX_OFFSET / 10;
}

/*
 * The time of an id as a timestamptz: unix_us_from_unit().
 */
static inline TimestampTz
timestamptz_from_unit(uint64 unit, int version)
{
	return unix_us_from_unit(unit, version) - UNIX_TO_PG_EPOCH_US;
}

#endif							/* PG_UUIDX_ID_TIME_H */
