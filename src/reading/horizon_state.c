/*
 * horizon_state.c
 *		The commit horizon's shared state: its layout, where it lives, the
 *		slots the generators and the guard publish to, the floors of the
 *		databases and the table of prepared transactions.
 *
 * Owns the shared state (horizon_state.h has its layout) and attaching to
 * it; may call horizon_layouts.h, clock.h and tick_table.h (a database's
 * newest tick, where its floor starts).  horizon.c has the protocol.
 *
 * The state lives in the registry of named shared memory (PostgreSQL 17
 * and later) or, on 15 and 16, in shared memory requested when pg_uuidx is
 * in shared_preload_libraries; without either the horizon is refused.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include <sys/stat.h>

#include "access/twophase.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/proc.h"
#include "storage/shmem.h"
#include "storage/spin.h"
#include "utils/timestamp.h"

#include "compat.h"
#include "ids/clock.h"
#include "ids/id_time.h"
#include "reading/horizon_layouts.h"
#include "reading/horizon_state.h"
#include "reading/tick_table.h"

#ifdef PG_UUIDX_DSM_REGISTRY
#include "storage/dsm_registry.h"
#endif

static HorizonShared *shared = NULL;
static bool tracked = false;	/* this backend has registered in the state */
static HorizonFloor *my_floor = NULL;	/* this database's floor */

/*
 * Entries for every prepared transaction plus one for each backend between
 * PRE_PREPARE and the end of its PREPARE, so the table cannot fill up; none
 * where prepared transactions are disabled (the default).
 */
#define PREPARED_ENTRIES (max_prepared_xacts > 0 ? max_prepared_xacts + MaxBackends : 0)

static Size
horizon_slots_size(int nslots)
{
	return MAXALIGN(add_size(offsetof(HorizonShared, slots),
							 mul_size(nslots, sizeof(HorizonSlot))));
}

static Size
horizon_size(void)
{
	return add_size(horizon_slots_size(MaxBackends),
					mul_size(PREPARED_ENTRIES, sizeof(HorizonPrepared)));
}

HorizonPrepared *
horizon_prepared_table(HorizonShared *s)
{
	return (HorizonPrepared *) ((char *) s + horizon_slots_size(s->nslots));
}

static void
horizon_init(HorizonShared *s)
{
	HorizonPrepared *prepared;

	s->layout = HORIZON_LAYOUT;
	pg_atomic_init_u64(&s->epoch_us, 0);
	pg_atomic_init_u32(&s->allowance_ms, PG_UINT32_MAX);
	SpinLockInit(&s->mutex);
	s->library_since = 0;
	s->old_sessions = false;
	s->nslots = MaxBackends;
	s->nprepared = PREPARED_ENTRIES;
	s->prepared_tranche = PG_UUIDX_NEW_TRANCHE("pg_uuidx");
	LWLockInitialize(&s->prepared_lock, s->prepared_tranche);
	for (int i = 0; i < HORIZON_FLOORS; i++)
	{
		pg_atomic_init_u32(&s->floors[i].dbid, InvalidOid);
		pg_atomic_init_u64(&s->floors[i].floor_us, (uint64) NO_TIME);
		pg_atomic_init_u64(&s->floors[i].refusals, 0);
		pg_atomic_init_u64(&s->floors[i].pending_us, (uint64) NO_TIME);
	}
	for (int i = 0; i < s->nslots; i++)
	{
		SpinLockInit(&s->slots[i].mutex);
		pg_atomic_init_u32(&s->slots[i].lxid, InvalidLocalTransactionId);
		pg_atomic_init_u64(&s->slots[i].lower_us, (uint64) NO_ID);
		pg_atomic_init_u64(&s->slots[i].guarded_us, (uint64) NO_ID);
		s->slots[i].dbid = InvalidOid;
		s->slots[i].registered_pid = 0;
	}
	prepared = horizon_prepared_table(s);
	for (int i = 0; i < s->nprepared; i++)
		prepared[i].fxid = InvalidFullTransactionId;
}

#ifdef PG_UUIDX_DSM_REGISTRY
/*
 * When this library's file was installed: the change time of its inode,
 * which every install (make install, dpkg) renews, rounded up to the next
 * second; now if it cannot be read.
 */
static TimestampTz
library_installed_at(void)
{
	char		path[MAXPGPATH];
	struct stat st;

	snprintf(path, sizeof(path), "%s/pg_uuidx%s", pkglib_path, DLSUFFIX);
	if (stat(path, &st) != 0)
		return GetCurrentTimestamp();
	return time_t_to_timestamptz(st.st_ctime + 1);
}

/*
 * The state is made by the first backend that needs it, which may be long
 * after the server started: if this library's file was installed after
 * the start, sessions older than the file may run an older library.
 */
static void
horizon_dsm_init(PG_UUIDX_DSM_INIT_PARAMS)
{
	HorizonShared *s = (HorizonShared *) ptr;

	horizon_init(s);
	s->library_since = library_installed_at();
	s->old_sessions = s->library_since > PgStartTime;
}
#else
static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

static void
horizon_shmem_request(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	RequestAddinShmemSpace(horizon_size());
}

static void
horizon_shmem_startup(void)
{
	bool		found;

	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	shared = ShmemInitStruct(HORIZON_NAME, horizon_size(), &found);
	if (!found)
		horizon_init(shared);
	LWLockRelease(AddinShmemInitLock);
}
#endif

/* *v raised to at least to: a floor, or the epoch, never goes down */
void
horizon_raise(pg_atomic_uint64 *v, int64 to)
{
	uint64		old = pg_atomic_read_u64(v);

	while ((int64) old < to && !pg_atomic_compare_exchange_u64(v, &old, (uint64) to))
		;
}

#ifdef PG_UUIDX_DSM_REGISTRY
static bool registered = false; /* this library's layout is in the registry */

/*
 * This layout's state, used before a library of another layout was, is
 * about to be used again (that library was replaced by this one's file):
 * every session started until now may run the other library.  Marked before
 * this layout's entry is appended, so that a session of this layout that
 * sees the entry, and so computes horizons again, sees the mark too.
 */
static void
mark_old_sessions(HorizonShared *s)
{
	SpinLockAcquire(&s->mutex);
	s->library_since = GetCurrentTimestamp();
	s->old_sessions = true;
	SpinLockRelease(&s->mutex);
}

/*
 * ... and once the entry is appended, the epoch and every floor raised to
 * the clock, as after a restart: the other library's readers may have
 * handed out horizons up to the clock until they saw the entry.
 */
static void
raise_to_clock(HorizonShared *s)
{
	int64		now_us = unix_us_from_unix_time(clock_now());

	/* an epoch not taken yet will be, at the first use out of recovery */
	if (pg_atomic_read_u64(&s->epoch_us) != 0)
		horizon_raise(&s->epoch_us, now_us);
	for (int i = 0; i < HORIZON_FLOORS; i++)
	{
		horizon_raise(&s->floors[i].floor_us, now_us);
		horizon_raise(&s->floors[i].pending_us, now_us);
	}
}

/*
 * Appends this library's layout to the registry (horizon_layouts.c) when
 * another is the newest, attaching the state to do so: when the library is
 * loaded, so in the order of the installs, however late it first uses its
 * state. A library that registered at its first use could append its layout
 * after that of a library installed after it was loaded: the sessions of the
 * newer one were refused, and its own read a state that sees none of theirs.
 */
static void
register_layout(void)
{
	bool		found;

	if (layouts_superseded(HORIZON_LAYOUT))
	{
		shared = PG_UUIDX_GET_NAMED_DSM(HORIZON_NAME, horizon_size(),
										horizon_dsm_init, &found);
		if (found)
			mark_old_sessions(shared);
		if (layouts_register(HORIZON_LAYOUT) && found)
			raise_to_clock(shared);
	}
	registered = true;
}
#endif

/*
 * The shared state, or NULL where there is none: outside a backend of a
 * running server (the postmaster, a single-user server), and on 15 and 16
 * without shared_preload_libraries.
 */
HorizonShared *
horizon_attach(void)
{
	if (!IsUnderPostmaster || MyProc == NULL)
		return NULL;
#ifdef PG_UUIDX_DSM_REGISTRY
	/* not registered at load: see horizon_state_init_module() */
	if (!registered)
		register_layout();
	if (shared == NULL)
	{
		bool		found;

		shared = PG_UUIDX_GET_NAMED_DSM(HORIZON_NAME, horizon_size(),
										horizon_dsm_init, &found);
	}
#endif
	/*
	 * Checked once: the layout of a segment never changes, and its first
	 * cache line also holds locks that readers take (every cover asks)
	 */
	if (shared != NULL && !tracked)
	{
		if (shared->layout != HORIZON_LAYOUT)
			elog(ERROR, "shared memory \"%s\" has layout %u, not %u",
				 HORIZON_NAME, shared->layout, HORIZON_LAYOUT);
		PG_UUIDX_REGISTER_TRANCHE(shared->prepared_tranche, "pg_uuidx");
		horizon_slot(shared, MyProc)->registered_pid = MyProcPid;
		tracked = true;
	}
	return shared;
}

/*
 * The clock when this server first used its state out of recovery: no
 * horizon of this server's life is later, nor was any before its start,
 * crash restart or promotion (a clock that does not step back).
 */
int64
horizon_epoch(HorizonShared *s)
{
	uint64		epoch;
	uint64		now;

	/*
	 * Once taken, read: a compare-and-exchange that fails still takes the
	 * cache line of the state's header for itself, which every guard and
	 * horizon of every backend reads (the barrier keeps the order that the
	 * exchange gave the reads around it)
	 */
	pg_memory_barrier();
	epoch = pg_atomic_read_u64(&s->epoch_us);
	if (epoch != 0)
		return (int64) epoch;
	now = (uint64) unix_us_from_unix_time(clock_now());
	if (pg_atomic_compare_exchange_u64(&s->epoch_us, &epoch, now))
		return (int64) now;
	return (int64) epoch;
}

/*
 * Model step "floor_start": this database's floor, taken on its first use
 * out of recovery at the epoch, or at the newest tick of the database if
 * higher.  A restart or a promotion forgets the floors: the epoch is past
 * every horizon the server handed out before, and the tick past every one
 * that readers on standbys and subscribers were given.  The time rows may
 * have reached (pending_us) starts there too: rows committed before, or
 * prepared then and committed later, have ids below it.  When every entry
 * is taken, the databases without one share floors[0], raised to the same.
 */
HorizonFloor *
horizon_floor(HorizonShared *s)
{
	HorizonFloor *found = NULL;
	int64		start;

	if (my_floor != NULL)
		return my_floor;
	for (int i = 1; i < HORIZON_FLOORS && found == NULL; i++)
		if (pg_atomic_read_u32(&s->floors[i].dbid) == MyDatabaseId)
			found = &s->floors[i];
	if (found == NULL)
	{
		int64		tick_us = stored_tick_us();

		start = horizon_epoch(s);
		start = Max(start, tick_us);
		SpinLockAcquire(&s->mutex);
		for (int i = 1; i < HORIZON_FLOORS && found == NULL; i++)
		{
			Oid			dbid = pg_atomic_read_u32(&s->floors[i].dbid);

			if (dbid == MyDatabaseId)
				found = &s->floors[i];
			else if (dbid == InvalidOid)
			{
				found = &s->floors[i];
				pg_atomic_write_u64(&found->floor_us, (uint64) start);
				pg_atomic_write_u64(&found->pending_us, (uint64) start);
				/* the floor before its owner: pairs with the read barrier below */
				pg_write_barrier();
				pg_atomic_write_u32(&found->dbid, MyDatabaseId);
			}
		}
		SpinLockRelease(&s->mutex);
		if (found == NULL)
		{
			found = &s->floors[0];
			horizon_raise(&found->floor_us, start);
			horizon_raise(&found->pending_us, start);
		}
	}
	/*
	 * an entry found by its dbid is read after it: pairs with the write
	 * barrier between floor_us and dbid above
	 */
	pg_read_barrier();
	my_floor = found;
	return my_floor;
}

HorizonSlot *
horizon_slot(HorizonShared *s, PGPROC *proc)
{
	int			i = PG_UUIDX_PROC_NUMBER_OF(proc);

	if (i < 0 || i >= s->nslots)
		elog(ERROR, "process number %d has no horizon slot", i);
	return &s->slots[i];
}

/*
 * The transaction a slot holds times for and those times, read without the
 * writers' lock: false when the slot is empty.  A writer clears lxid while
 * it changes the slot, so two equal readings of lxid around the times mean
 * that they belong to that transaction.
 */
bool
horizon_read_slot(HorizonSlot *slot, LocalTransactionId *lxid, int64 *lower_us,
				  int64 *guarded_us, Oid *dbid)
{
	for (;;)
	{
		LocalTransactionId first = pg_atomic_read_u32(&slot->lxid);

		if (first == InvalidLocalTransactionId)
			return false;
		/* pairs with horizon_publish_slot()'s barrier after it clears lxid */
		pg_read_barrier();
		*lower_us = (int64) pg_atomic_read_u64(&slot->lower_us);
		*guarded_us = (int64) pg_atomic_read_u64(&slot->guarded_us);
		*dbid = slot->dbid;
		/* pairs with horizon_publish_slot()'s barrier before it sets lxid */
		pg_read_barrier();
		*lxid = pg_atomic_read_u32(&slot->lxid);
		if (*lxid == first)
			return true;
	}
}

/*
 * Publish time_us for the transaction of this process or, in a parallel
 * worker, of its leader (the worker's own transaction ends before the
 * leader's rows become visible): in the generators' field, or the guard's
 * (guarded).  The first publication for a transaction replaces whatever
 * the slot held, leaving the other field without a time; later ones only
 * lower a field.
 */
void
horizon_publish_slot(HorizonShared *s, int64 time_us, bool guarded)
{
	PGPROC	   *owner = MyProc->lockGroupLeader ? MyProc->lockGroupLeader : MyProc;
	LocalTransactionId lxid = PG_UUIDX_PROC_LXID(owner);
	HorizonSlot *slot = horizon_slot(s, owner);
	pg_atomic_uint64 *field = guarded ? &slot->guarded_us : &slot->lower_us;

	if (lxid == InvalidLocalTransactionId)
		elog(ERROR, "the transaction of process %d has no local id", owner->pid);
	SpinLockAcquire(&slot->mutex);
	if (pg_atomic_read_u32(&slot->lxid) == lxid)
	{
		if (time_us < (int64) pg_atomic_read_u64(field))
			pg_atomic_write_u64(field, (uint64) time_us);
	}
	else
	{
		pg_atomic_write_u32(&slot->lxid, InvalidLocalTransactionId);
		/* lxid cleared before the fields change: horizon_read_slot()'s first barrier */
		pg_write_barrier();
		slot->dbid = MyDatabaseId;
		pg_atomic_write_u64(&slot->lower_us, (uint64) NO_ID);
		pg_atomic_write_u64(&slot->guarded_us, (uint64) NO_ID);
		pg_atomic_write_u64(field, (uint64) time_us);
		/* the fields before lxid names them: horizon_read_slot()'s second barrier */
		pg_write_barrier();
		pg_atomic_write_u32(&slot->lxid, lxid);
	}
	SpinLockRelease(&slot->mutex);
}

/*
 * The state's part of loading the library: on 15 and 16, its shared memory,
 * requested at preload; from 17, this library's layout registered
 * (register_layout()).  A library that the postmaster preloads on 17 and
 * later registers at its first use instead, in each session: every session
 * runs that one library.
 */
void
horizon_state_init_module(void)
{
#ifdef PG_UUIDX_DSM_REGISTRY
	if (IsUnderPostmaster && MyProc != NULL)
		register_layout();
#else
	if (process_shared_preload_libraries_in_progress)
	{
		prev_shmem_request_hook = shmem_request_hook;
		shmem_request_hook = horizon_shmem_request;
		prev_shmem_startup_hook = shmem_startup_hook;
		shmem_startup_hook = horizon_shmem_startup;
	}
#endif
}
