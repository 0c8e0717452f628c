/*
 * horizon_tick.h
 *		Ticks: the commit horizon recorded in a table of the extension, for
 *		readers on standbys and logical subscribers.
 *
 * Owns where a reader's horizon comes from (the live horizon or the newest
 * tick), pg_uuidx_tick() and the check that a subscription carries the
 * ticks with the rows; may call horizon.h and tick_table.h.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#ifndef PG_UUIDX_HORIZON_TICK_H
#define PG_UUIDX_HORIZON_TICK_H

#include "nodes/pg_list.h"

#include "reading/guard.h"

/*
 * The newest tick's horizon (Unix us, or HORIZON_LOWEST) in the database of
 * the extension that owns function fn_oid, for a reader of tables whose
 * guards allow *allowance (NULL: of any table); an error when there is
 * none, or when it must have been published by another server and was
 * made here.
 */
extern int64 tick_horizon_us(Oid fn_oid, const GuardAllowance *allowance, bool published,
							 const char *caller);

/*
 * The horizon a reader of relation relid reads up to, whose rows come from
 * tables (views expanded, inheritors included) whose guards allow
 * *allowance: the live horizon when
 * from_tick is false (0); else, when a subscription writes rows of tables,
 * the newest tick's horizon for any table (the publisher's guards are not
 * here), which must have been published by another server and come with
 * the subscription that writes them (an error otherwise); else the newest
 * tick when from_tick is true (1) or on a standby, the live horizon when
 * from_tick is unknown (-1).
 */
extern int64 reader_horizon_us(Oid fn_oid, Oid relid, List *tables, const GuardAllowance *allowance,
							   int from_tick, const char *caller);

/* What tick_this_database() did */
typedef enum TickOutcome
{
	TICK_STORED,				/* stored a tick */
	TICK_IDLE,					/* none needed: no row above the newest tick */
	TICK_NO_TABLE,				/* no extension pg_uuidx (1.6 or later) here */
	TICK_SUBSCRIBED,			/* a subscription writes the ticks here */
} TickOutcome;

/*
 * Store a tick in this database's pg_uuidx_last_tick, as pg_uuidx_tick()
 * does, for the ticker (ticker.c), which runs as a superuser: the table is
 * found by the extension's membership, never by a name alone.  It stores
 * one only while some committed or prepared row may have an id at or above
 * the newest tick (horizon_tick_needed()), so that an idle database spends
 * no transaction id and writes no WAL.
 */
extern TickOutcome tick_this_database(void);

#endif							/* PG_UUIDX_HORIZON_TICK_H */
