/*
 * horizon.h
 *		The commit horizon: the id below which every row that pg_uuidx's
 *		generators, or a guarded table's inserts, will ever put into a
 *		committed row is already visible.
 *
 * Owns the protocol behind uuidv7_horizon() and uuidv6_horizon(); may call
 * clock.h.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#ifndef PG_UUIDX_HORIZON_H
#define PG_UUIDX_HORIZON_H

#include "ids/clock.h"
#include "nodes/pg_list.h"
#include "utils/uuid.h"

/* the horizon held at its lowest: no id is known to be safe to read */
#define HORIZON_LOWEST PG_INT64_MIN

/*
 * The clock reading a generator makes its next id from: "now", or later
 * when this is the transaction's first id and a horizon already handed out
 * lies ahead of the clock (it stepped back).  Cheap after the first call of
 * a transaction.
 */
extern UnixTime horizon_clock(UnixTime now);

/*
 * Hold the horizon of guarded tables' readers, for the rest of this
 * transaction, at or below an id of time id_us (Unix us) that this
 * transaction puts into a row of a table whose guard allows allowance_ms:
 * true when that covers it, false when a horizon above it may already have
 * been handed out to such readers (floor_us: how far it may have reached);
 * an id that the floor has passed already is not published.
 */
extern bool horizon_cover(int64 id_us, int allowance_ms, int64 *floor_us);

/*
 * Hold the horizon of guarded tables' readers, for the rest of this
 * transaction, at or below the clock less allowance_ms: ids that guards of
 * that allowance or more let in are covered from there on, whatever time
 * passes (the start of a guard declared after the row, guard_after.c)
 */
extern void horizon_cover_from_clock(int allowance_ms);

/* the horizon's part of _PG_init() */
extern void horizon_init_module(void);

/*
 * pg_uuidx.horizon_allowance in milliseconds, the most a guard may allow:
 * as the shared state's first user had it, the same for every process
 */
extern int	horizon_allowance(void);


/* count a refusal of the guard in this database (pg_uuidx_stats) */
extern void horizon_refused(void);

/* a transaction that holds the horizon at its lowest */
typedef struct HorizonHolder
{
	int			pid;			/* its session's, or 0: a prepared transaction */
	TransactionId xid;			/* the prepared transaction's */
} HorizonHolder;

/*
 * The live horizon of a reader of tables whose guards allow 0 ms (the
 * readers of other tables read up to the least of it and the floor less
 * their allowance), the floor it was computed from (Unix us), the guard's
 * refusals in this database since the state was made, and the transactions
 * that hold the horizon at its lowest (HorizonHolder items); false on a
 * standby or where there is no state.
 */
extern bool horizon_stats(int64 *horizon_us, int64 *floor_us, uint64 *refusals, List **lowest);

/*
 * The live horizon as a Unix time in us, or HORIZON_LOWEST, for a reader
 * of tables whose guards allow at most allowance_ms; not on a standby
 */
extern int64 horizon_live_us(const char *caller, int allowance_ms);

/*
 * horizon_live_us() of tables whose guards allow nothing, and the floor it
 * started from: a reader of tables whose guards allow A reads up to the
 * lesser of it and the floor less A (the ticks)
 */
extern int64 horizon_exact_us(const char *caller, int64 *floor_us);

/*
 * Whether a tick could make a row readable on replicas that a tick of
 * horizon stored_us (Unix us, or HORIZON_LOWEST; the least the tick table
 * holds) does not: some transaction of this database that published may
 * have committed or prepared a row with an id at or above it.  Where it
 * cannot be known (no state, sessions that may run another library), true.
 */
extern bool horizon_tick_needed(int64 stored_us);

/*
 * horizon_live_us() of a node of a Citus cluster for the coordinator's
 * reader (cluster.c): the floor raised to the clock, but not above below_us
 * (the coordinator's horizon) plus allowance_ms
 */
extern int64 horizon_node_us(const char *caller, int allowance_ms, int64 below_us);

/* the smallest id of version 7 or 6 at a horizon of horizon_live_us() */
extern pg_uuid_t *horizon_id(int64 horizon_us, int version);

#endif							/* PG_UUIDX_HORIZON_H */
