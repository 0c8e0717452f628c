/*
 * horizon_state.h
 *		The commit horizon's shared state: its layout and the operations on
 *		it that horizon.c's protocol is made of.
 *
 * Owns the layout of the shared state; may call clock.h.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#ifndef PG_UUIDX_HORIZON_STATE_H
#define PG_UUIDX_HORIZON_STATE_H

#include "access/transam.h"
#include "port/atomics.h"
#include "storage/lwlock.h"
#include "storage/proc.h"
#include "storage/spin.h"
#include "utils/timestamp.h"

#include "reading/horizon.h"

/*
 * A field of another process's PGPROC, read without a lock once (as
 * procarray.c's UINT32_ACCESS_ONCE): the compiler neither reloads it nor
 * keeps an earlier reading.
 */
#define PROC_FIELD_ONCE(field) ((uint32) (*((volatile uint32 *) &(field))))

/* a slot without a transaction; also the horizon held at its lowest */
#define NO_TIME HORIZON_LOWEST
/* no id: a prepared transaction that made none, a slot's unused field */
#define NO_ID PG_INT64_MAX
/* databases with a floor of their own; the others share floors[0] */
#define HORIZON_FLOORS 64

typedef struct HorizonSlot
{
	slock_t		mutex;			/* serializes the writers: the backend and its
								 * parallel workers */
	pg_atomic_uint32 lxid;		/* the local id of the transaction lower_us is
								 * for, set last; InvalidLocalTransactionId
								 * while it changes */
	pg_atomic_uint64 lower_us;	/* the least time of an id the generators
								 * made for that transaction (Unix us), or
								 * NO_ID */
	pg_atomic_uint64 guarded_us;	/* the least time of an id the guard let
									 * into a row for it, or NO_ID */
	Oid			dbid;			/* that transaction's database */
	int			registered_pid; /* the process in this slot that uses this
								 * state (publishes), or another's pid */
} HorizonSlot;

typedef struct HorizonPrepared
{
	FullTransactionId fxid;		/* InvalidFullTransactionId: a free entry */
	Oid			dbid;
	int64		lower_us;		/* NO_ID: it made no id */
} HorizonPrepared;

/*
 * A database's floor: no transaction of that database makes its first id
 * from an earlier time (Unix us).  The entry is taken, once for the life of
 * the state, by the first backend of the database that needs it; when all
 * are taken, the databases without one share the entry floors[0].
 */
typedef struct HorizonFloor
{
	pg_atomic_uint32 dbid;		/* InvalidOid: free; set after floor_us */
	pg_atomic_uint64 floor_us;
	pg_atomic_uint64 refusals;	/* ids the guard refused in the database */
	pg_atomic_uint64 pending_us;	/* no committed or prepared row of the
									 * database has an id of a later time
									 * (Unix us): horizon_tick_needed() */
} HorizonFloor;

/*
 * The layout of this state: a library whose layout differs uses a segment
 * (or shared memory) of another name, never this one, and registers its
 * layout (horizon_layouts.c).  test/t/135_layout_change.pl builds a library of
 * another layout (PG_UUIDX_TEST_LAYOUT), and one that keeps this name
 * (PG_UUIDX_TEST_LAYOUT_SAME_NAME) to show what the name prevents.
 */
#define HORIZON_BUILD_LAYOUT 4	/* 1.6: 2 */
#ifdef PG_UUIDX_TEST_LAYOUT
#define HORIZON_LAYOUT PG_UUIDX_TEST_LAYOUT
#else
#define HORIZON_LAYOUT HORIZON_BUILD_LAYOUT
#endif
#ifdef PG_UUIDX_TEST_LAYOUT_SAME_NAME
#define HORIZON_NAME "pg_uuidx_horizon_" CppAsString2(HORIZON_BUILD_LAYOUT)
#else
#define HORIZON_NAME "pg_uuidx_horizon_" CppAsString2(HORIZON_LAYOUT)
#endif

typedef struct HorizonShared
{
	uint32		layout;			/* HORIZON_LAYOUT */
#ifdef PG_UUIDX_TEST_LAYOUT
	char		test_field[64]; /* what another layout adds */
#endif
	pg_atomic_uint64 epoch_us;	/* the clock when this server first used the
								 * state out of recovery; 0 before */
	pg_atomic_uint32 allowance_ms;	/* pg_uuidx.horizon_allowance as the
									 * state's first reader had it, read by
									 * every process; PG_UINT32_MAX before */
	slock_t		mutex;			/* protects taking a floor and the next two */
	TimestampTz library_since;	/* sessions that started before this may run
								 * another library */
	bool		old_sessions;	/* some may still: see unregistered_horizon() */
	int			nslots;
	int			nprepared;
	int			prepared_tranche;	/* prepared_lock's tranche */
	LWLock		prepared_lock;	/* protects prepared[], which is scanned */
	HorizonFloor floors[HORIZON_FLOORS];
	HorizonSlot slots[FLEXIBLE_ARRAY_MEMBER];
	/* then nprepared HorizonPrepared: see horizon_prepared_table() */
} HorizonShared;

/*
 * The shared state, or NULL where there is none: outside a backend of a
 * running server (the postmaster, a single-user server), and on 15 and 16
 * without shared_preload_libraries.  Registers this backend in it.
 */
extern HorizonShared *horizon_attach(void);

/* the clock at this server's first use of the state out of recovery */
extern int64 horizon_epoch(HorizonShared *s);

/* this database's floor, taken on its first use (model step "floor_start") */
extern HorizonFloor *horizon_floor(HorizonShared *s);

/* the table of prepared transactions, after the slots */
extern HorizonPrepared *horizon_prepared_table(HorizonShared *s);

/* the slot of a process */
extern HorizonSlot *horizon_slot(HorizonShared *s, PGPROC *proc);

/* a slot's transaction and times, read without its lock; false when empty */
extern bool horizon_read_slot(HorizonSlot *slot, LocalTransactionId *lxid, int64 *lower_us,
							  int64 *guarded_us, Oid *dbid);

/*
 * publish time_us for this process's transaction (or its leader's): as the
 * generators' (guarded false) or the guard's
 */
extern void horizon_publish_slot(HorizonShared *s, int64 time_us, bool guarded);

/* *v raised to at least to */
extern void horizon_raise(pg_atomic_uint64 *v, int64 to);

/* the state's part of _PG_init() */
extern void horizon_state_init_module(void);

#endif							/* PG_UUIDX_HORIZON_STATE_H */
