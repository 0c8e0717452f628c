/*
 * ticks.h
 *		timestamptz <-> the time fields of v1, v6 and v7 UUIDs.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#ifndef PG_UUIDX_TICKS_H
#define PG_UUIDX_TICKS_H

#include "clock.h"
#include "datatype/timestamp.h"

/* microseconds between the Unix epoch and PostgreSQL's (2000-01-01) */
#define UNIX_TO_PG_EPOCH_US \
	((int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY * USECS_PER_SEC)

extern bool unix_time_from_timestamptz(TimestampTz ts, int32 sub_us_ns, UnixTime *t);
extern bool v7_tick_from_unix_time(UnixTime t, uint64 *tick);
extern bool gregorian_tick_from_unix_time(UnixTime t, uint64 *tick);
extern uint64 v7_tick_from_timestamptz(TimestampTz ts);
extern uint64 gregorian_tick_from_timestamptz(TimestampTz ts);
extern TimestampTz timestamptz_from_v7_tick(uint64 tick);
extern TimestampTz timestamptz_from_gregorian_tick(uint64 tick);
extern void report_v7_range(void);
extern void report_gregorian_range(void);

#endif							/* PG_UUIDX_TICKS_H */
