/*
 * horizon_tick.h
 *		Ticks: the commit horizon recorded in a table of the extension, for
 *		readers on standbys and logical subscribers.
 *
 * Owns the table pg_uuidx_last_tick and pg_uuidx_tick(); may call horizon.c.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#ifndef PG_UUIDX_HORIZON_TICK_H
#define PG_UUIDX_HORIZON_TICK_H

/*
 * The newest tick's horizon (Unix us, or HORIZON_LOWEST) in the database of
 * the extension that owns function fn_oid; an error when there is none, or
 * when it must have been published by another server and was made here.
 */
extern int64 tick_horizon_us(Oid fn_oid, bool published, const char *caller);

/*
 * The horizon a reader of table relid reads up to: the newest tick when
 * from_tick is true, the live horizon when it is false, and when it is
 * unknown (-1) the tick on a standby or, published by another server, when
 * a subscription writes into the table, else the live horizon.
 */
extern int64 reader_horizon_us(Oid fn_oid, Oid relid, int from_tick, const char *caller);

/*
 * The newest tick stored in this database (Unix us), or HORIZON_LOWEST when
 * there is none; whoever the caller is.
 */
extern int64 stored_tick_us(void);

#endif							/* PG_UUIDX_HORIZON_TICK_H */
