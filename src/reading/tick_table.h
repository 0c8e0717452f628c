/*
 * tick_table.h
 *		The table pg_uuidx_last_tick.
 *
 * Owns the table pg_uuidx_last_tick; may call extension_table.h.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#ifndef PG_UUIDX_TICK_TABLE_H
#define PG_UUIDX_TICK_TABLE_H

#include "utils/timestamp.h"

#define TICK_TABLE "pg_uuidx_last_tick"

/*
 * The table pg_uuidx_last_tick of the extension that owns function fn_oid,
 * checked to belong to that extension; an error when it is missing.
 */
extern Oid	tick_table(Oid fn_oid);

/*
 * The table pg_uuidx_last_tick of this database's extension pg_uuidx, or
 * InvalidOid where there is none (no extension, or one from before 1.6).
 */
extern Oid	database_tick_table(void);

/* whether the tick table relid has the columns exact_horizon and horizon_floor (1.7) */
extern bool tick_has_exact(Oid relid);

/* a relation's name, schema-qualified and quoted as needed */
extern const char *tick_qualified_name(Oid relid);

/* a horizon (Unix us, or HORIZON_LOWEST) as the table stores it, and back */
extern TimestampTz timestamptz_from_horizon(int64 horizon_us);
extern int64 horizon_from_timestamptz(TimestampTz ts);

/*
 * Store horizon (for any table), exact (for tables whose guards allow
 * nothing) and the floor exact started from, in the tick table relid, as
 * the table's owner; returns the horizon the table holds now.
 */
extern TimestampTz store_tick(Oid relid, TimestampTz horizon, TimestampTz exact, TimestampTz floor);

/*
 * The newest tick stored in this database (Unix us), or HORIZON_LOWEST
 * when there is none; whoever the caller is.
 */
extern int64 stored_tick_us(void);

/*
 * The least horizon the tick table relid holds (Unix us), or HORIZON_LOWEST
 * when it holds none
 */
extern int64 stored_tick_least_us(Oid relid);

#endif							/* PG_UUIDX_TICK_TABLE_H */
