/*
 * horizon.c
 *		The commit horizon of uuidv7() and uuidv6() ids:
 *		uuidv7_horizon(), uuidv6_horizon() and pg_uuidx_horizon_holders().
 *
 * Owns the shared state that the generators and the guard publish to, the
 * horizon read from it and pg_uuidx.horizon_allowance; may call clock.c,
 * ticks.c, horizon_tick.c (a standby's horizon) and layout.h.
 *
 * A reader that polls "id > last ORDER BY id" misses a row whose id was
 * made early and committed late: the reader has moved past it by then.  The
 * horizon is the id below which no such row can still appear: every row
 * with a smaller id that pg_uuidx's uuidv7()/uuidv6() will ever have put
 * into a committed row of this database is visible to a statement that
 * starts after the call returns.
 *
 * How it is kept (docs/reading-in-order.md has the argument in full, and
 * test/model/ checks it; "model step" comments name the model's steps):
 *
 * - A transaction's first id publishes, in the slot of the backend that
 *   runs the transaction, a time "lower" that no id of that transaction will
 *   be below, with the transaction's local id.  A parallel worker publishes
 *   in its leader's slot, for the leader's transaction, lowering its time if
 *   need be.  A slot counts only while the process in it still runs the
 *   transaction it was published for: its local id is cleared when the
 *   transaction has ended and become visible (ProcArrayEndTransaction), so
 *   no end of a transaction or of a process can leave a slot behind.
 *   PREPARE TRANSACTION moves the slot's time into a table of prepared
 *   transactions, kept until the transaction is no longer in progress.
 * - The horizon is the least of the clock less pg_uuidx.horizon_allowance,
 *   the slots of the other backends of this database and that database's
 *   prepared transactions.
 * - A "floor" per database, no transaction's first id goes below: the
 *   horizon raises its database's floor to the clock it read before it
 *   looks at the slots, and a generator reads the floor after it has
 *   published its slot.  With a full barrier on both sides, either the
 *   horizon sees the slot or the generator sees the floor, so a
 *   transaction that starts during the call cannot make an id below the
 *   horizon, and neither can one that starts after the clock stepped back.
 *   Each database has its own floor, so its readers' allowance is its own.
 * - A restart or a promotion loses the floors: a database's floor is made
 *   again, on first use, at the clock when the server first used the state
 *   (past every horizon handed out before) or at the database's newest tick
 *   if higher (past what readers on standbys were given).  During recovery
 *   nothing is published: no row can be written there.
 * - An id made elsewhere (guard.c) is published the same way, at its own
 *   time; after publishing, the floor tells whether a horizon above the id
 *   may already have been handed out.  Ids are covered from the higher of
 *   the time published and that floor: a horizon computed later sees the
 *   slot, one computed earlier was at most the floor.
 * - Every transaction prepared by a backend with this library records its
 *   time, or that it made no id.  A prepared transaction of the database
 *   without a record (from before a restart or a promotion, or prepared by
 *   a session that never loaded this library while a parallel worker made
 *   its ids) holds the horizon at its lowest until it ends.
 * - Sessions that may run another library (loaded before this library file
 *   was installed, or before a library of another layout used its state:
 *   layouts.c), which publishes nothing here, hold the horizon at its lowest
 *   while they have a transaction open, until they register with the state
 *   or end.  A session whose library's layout is superseded is refused the
 *   horizon and the guard.
 *
 * The state lives in the registry of named shared memory (PostgreSQL 17
 * and later) or, on 15 and 16, in shared memory requested when pg_uuidx is
 * in shared_preload_libraries; without either the horizon is refused.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "access/transam.h"
#include "access/twophase.h"
#include "access/xact.h"
#include "access/xlog.h"
#include <sys/stat.h>

#include "access/parallel.h"
#include "catalog/pg_authid.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "storage/ipc.h"
#include "storage/proc.h"
#include "storage/procarray.h"
#include "storage/shmem.h"
#include "storage/spin.h"
#include "utils/acl.h"
#include "utils/backend_status.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"

#include "compat.h"
#include "horizon.h"
#include "horizon_tick.h"
#include "layout.h"
#include "layouts.h"
#include "ticks.h"

#ifdef PG_UUIDX_DSM_REGISTRY
#include "storage/dsm_registry.h"
#endif

/*
 * A field of another process's PGPROC, read without a lock once (as
 * procarray.c's UINT32_ACCESS_ONCE): the compiler neither reloads it nor
 * keeps an earlier reading.
 */
#define PROC_FIELD_ONCE(field) ((uint32) (*((volatile uint32 *) &(field))))

/* a slot without a transaction; also the horizon held at its lowest */
#define NO_TIME HORIZON_LOWEST
/* a prepared transaction that made no id */
#define NO_ID PG_INT64_MAX
/* databases with a floor of their own; the others share floors[0] */
#define HORIZON_FLOORS 64

/* pg_uuidx.horizon_allowance: how far the horizon trails the clock (ms) */
static int	horizon_allowance_ms = 1000;

typedef struct HorizonSlot
{
	slock_t		mutex;			/* serializes the writers: the backend and its
								 * parallel workers */
	pg_atomic_uint32 lxid;		/* the local id of the transaction lower_us is
								 * for, set last; InvalidLocalTransactionId
								 * while it changes */
	pg_atomic_uint64 lower_us;	/* the least time of an id of that
								 * transaction (Unix us) */
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
} HorizonFloor;

/*
 * The layout of this state: a library whose layout differs uses a segment
 * (or shared memory) of another name, never this one, and registers its
 * layout (layouts.c).  test/t/135_layout_change.pl builds a library of
 * another layout (PG_UUIDX_TEST_LAYOUT), and one that keeps this name
 * (PG_UUIDX_TEST_LAYOUT_SAME_NAME) to show what the name prevents.
 */
#define HORIZON_BUILD_LAYOUT 3	/* 1.6: 2 */
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
	/* then nprepared HorizonPrepared: see prepared_table() */
} HorizonShared;

static HorizonShared *shared = NULL;
static bool tracked = false;	/* this backend has registered in the state */
static HorizonFloor *my_floor = NULL;	/* this database's floor */

/*
 * The local id of this process's transaction once it has published, and
 * the time below which no id of that transaction, v7 or v6, is made
 */
static LocalTransactionId published_lxid = InvalidLocalTransactionId;
static int64 xact_lower_us;

static HorizonSlot *slot_of(HorizonShared *s, PGPROC *proc);

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

static HorizonPrepared *
prepared_table(HorizonShared *s)
{
	return (HorizonPrepared *) ((char *) s + horizon_slots_size(s->nslots));
}

static void
horizon_init(HorizonShared *s)
{
	HorizonPrepared *prepared;

	s->layout = HORIZON_LAYOUT;
	pg_atomic_init_u64(&s->epoch_us, 0);
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
	}
	for (int i = 0; i < s->nslots; i++)
	{
		SpinLockInit(&s->slots[i].mutex);
		pg_atomic_init_u32(&s->slots[i].lxid, InvalidLocalTransactionId);
		pg_atomic_init_u64(&s->slots[i].lower_us, (uint64) NO_TIME);
		s->slots[i].dbid = InvalidOid;
		s->slots[i].registered_pid = 0;
	}
	prepared = prepared_table(s);
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
static void
raise_to(pg_atomic_uint64 *v, int64 to)
{
	uint64		old = pg_atomic_read_u64(v);

	while ((int64) old < to && !pg_atomic_compare_exchange_u64(v, &old, (uint64) to))
		;
}

#ifdef PG_UUIDX_DSM_REGISTRY
/*
 * This layout's state, in use before a library of another layout was, is
 * used again (that library was replaced by this one's file): every session
 * started until now may run the other library, and its readers may have
 * handed out horizons up to the clock, so the epoch and every floor are
 * raised to it, as after a restart.
 */
static void
taken_back(HorizonShared *s)
{
	int64		now_us = unix_us_from_unix_time(clock_now());

	/* an epoch not taken yet will be, at the first use out of recovery */
	if (pg_atomic_read_u64(&s->epoch_us) != 0)
		raise_to(&s->epoch_us, now_us);
	for (int i = 0; i < HORIZON_FLOORS; i++)
		raise_to(&s->floors[i].floor_us, now_us);
	SpinLockAcquire(&s->mutex);
	s->library_since = GetCurrentTimestamp();
	s->old_sessions = true;
	SpinLockRelease(&s->mutex);
}
#endif

/*
 * The shared state, or NULL where there is none: outside a backend of a
 * running server (the postmaster, a single-user server), and on 15 and 16
 * without shared_preload_libraries.
 */
static HorizonShared *
horizon_attach(void)
{
	if (!IsUnderPostmaster || MyProc == NULL)
		return NULL;
#ifdef PG_UUIDX_DSM_REGISTRY
	if (shared == NULL)
	{
		bool		found;

		/* before the state's epoch is taken: see horizon_compute() */
		bool		after_other = layouts_register(HORIZON_LAYOUT);

		shared = PG_UUIDX_GET_NAMED_DSM(HORIZON_NAME, horizon_size(),
										horizon_dsm_init, &found);

		/*
		 * This layout's state was in use before another's (a library
		 * installed and then replaced by the one before it): every session
		 * started until now may run that other library.
		 */
		if (found && after_other)
			taken_back(shared);
	}
#endif
	if (shared != NULL && shared->layout != HORIZON_LAYOUT)
		elog(ERROR, "shared memory \"%s\" has layout %u, not %u",
			 HORIZON_NAME, shared->layout, HORIZON_LAYOUT);
	if (shared != NULL && !tracked)
	{
		PG_UUIDX_REGISTER_TRANCHE(shared->prepared_tranche, "pg_uuidx");
		slot_of(shared, MyProc)->registered_pid = MyProcPid;
		tracked = true;
	}
	return shared;
}

/*
 * The clock when this server first used its state out of recovery: no
 * horizon of this server's life is later, nor was any before its start,
 * crash restart or promotion (a clock that does not step back).
 */
static int64
horizon_epoch(HorizonShared *s)
{
	uint64		epoch = 0;
	uint64		now = (uint64) unix_us_from_unix_time(clock_now());

	if (pg_atomic_compare_exchange_u64(&s->epoch_us, &epoch, now))
		return (int64) now;
	return (int64) epoch;
}

/*
 * Model step "floor_start": this database's floor, taken on its first use
 * out of recovery at the epoch, or at the newest tick of the database if
 * higher.  A restart or a promotion forgets the floors: the epoch is past
 * every horizon the server handed out before, and the tick past every one
 * that readers on standbys and subscribers were given.  When every entry is
 * taken, the databases without one share floors[0], raised to the same.
 */
static HorizonFloor *
database_floor(HorizonShared *s)
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
		start = Max(horizon_epoch(s), stored_tick_us());
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
				/* the floor before its owner: pairs with the read barrier below */
				pg_write_barrier();
				pg_atomic_write_u32(&found->dbid, MyDatabaseId);
			}
		}
		SpinLockRelease(&s->mutex);
		if (found == NULL)
		{
			found = &s->floors[0];
			raise_to(&found->floor_us, start);
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

/*
 * The state to publish to, or NULL: none outside a backend (the postmaster
 * loading a library that makes ids) and during recovery (and in a
 * transaction that began there, which stays read-only), where no row can
 * be written.
 */
static HorizonShared *
publishing_state(void)
{
	if (!IsUnderPostmaster || MyProc == NULL ||
		RecoveryInProgress() || TransactionStartedDuringRecovery())
		return NULL;
	return horizon_attach();
}

static HorizonSlot *
slot_of(HorizonShared *s, PGPROC *proc)
{
	int			i = PG_UUIDX_PROC_NUMBER_OF(proc);

	if (i < 0 || i >= s->nslots)
		elog(ERROR, "process number %d has no horizon slot", i);
	return &s->slots[i];
}

/*
 * The transaction a slot holds a time for and that time, read without the
 * writers' lock: false when the slot is empty.  A writer clears lxid while
 * it changes the slot, so two equal readings of lxid around the time mean
 * that the time belongs to that transaction.
 */
static bool
read_slot(HorizonSlot *slot, LocalTransactionId *lxid, int64 *lower_us, Oid *dbid)
{
	for (;;)
	{
		LocalTransactionId first = pg_atomic_read_u32(&slot->lxid);

		if (first == InvalidLocalTransactionId)
			return false;
		/* pairs with publish()'s barrier after it clears lxid */
		pg_read_barrier();
		*lower_us = (int64) pg_atomic_read_u64(&slot->lower_us);
		*dbid = slot->dbid;
		/* pairs with publish()'s barrier before it sets lxid */
		pg_read_barrier();
		*lxid = pg_atomic_read_u32(&slot->lxid);
		if (*lxid == first)
			return true;
	}
}

/*
 * Publish lower_us for the transaction of this process or, in a parallel
 * worker, of its leader (the worker's own transaction ends before the
 * leader's rows become visible).  The first publication for a transaction
 * replaces whatever the slot held; later ones only lower it.
 */
static void
publish(HorizonShared *s, int64 lower_us)
{
	PGPROC	   *owner = MyProc->lockGroupLeader ? MyProc->lockGroupLeader : MyProc;
	LocalTransactionId lxid = PG_UUIDX_PROC_LXID(owner);
	HorizonSlot *slot = slot_of(s, owner);

	if (lxid == InvalidLocalTransactionId)
		elog(ERROR, "the transaction of process %d has no local id", owner->pid);
	SpinLockAcquire(&slot->mutex);
	if (pg_atomic_read_u32(&slot->lxid) == lxid)
	{
		if (lower_us < (int64) pg_atomic_read_u64(&slot->lower_us))
			pg_atomic_write_u64(&slot->lower_us, (uint64) lower_us);
	}
	else
	{
		pg_atomic_write_u32(&slot->lxid, InvalidLocalTransactionId);
		/* lxid cleared before the fields change: read_slot()'s first barrier */
		pg_write_barrier();
		slot->dbid = MyDatabaseId;
		pg_atomic_write_u64(&slot->lower_us, (uint64) lower_us);
		/* the fields before lxid names them: read_slot()'s second barrier */
		pg_write_barrier();
		pg_atomic_write_u32(&slot->lxid, lxid);
	}
	SpinLockRelease(&slot->mutex);
}

/* whether this process's transaction has published (and xact_lower_us is its) */
static inline bool
published_here(void)
{
	return published_lxid != InvalidLocalTransactionId &&
		published_lxid == PG_UUIDX_PROC_LXID(MyProc);
}

/*
 * Publish, for this process's transaction, that it puts ids from id_us on
 * into rows (PG_INT64_MAX: a generator's, from the clock on), and return
 * the floor read after that.  A transaction's first publication goes no
 * lower than the clock and the floor unless id_us is lower; every later one
 * only lowers the slot.  Afterwards the transaction's ids are covered from
 * the higher of the time published and the floor (the file header):
 * xact_lower_us becomes that, or stays lower if it already was.
 */
static int64
publish_from(HorizonShared *s, int64 now_us, int64 id_us)
{
	bool		first = !published_here();
	HorizonFloor *f = database_floor(s);
	int64		lower = id_us;
	int64		floor_us;

	if (first)
		lower = Min(id_us, Max(now_us, (int64) pg_atomic_read_u64(&f->floor_us)));
	/* model step "gen_publish" (a generator), "guard_publish" (the guard) */
	publish(s, lower);
	published_lxid = PG_UUIDX_PROC_LXID(MyProc);
	/*
	 * The slot is visible before the floor is read: pairs with
	 * horizon_compute()'s barrier between raising the floor and scanning the
	 * slots (rule 2 of docs/how-it-works.md's protocol)
	 */
	pg_memory_barrier();
	/* model step "gen_read_floor", "guard_read_floor" */
	floor_us = (int64) pg_atomic_read_u64(&f->floor_us);
	xact_lower_us = first ? Max(lower, floor_us) :
		Min(xact_lower_us, Max(lower, floor_us));
	return floor_us;
}

UnixTime
horizon_clock(UnixTime now)
{
	HorizonShared *s;
	int64		now_us = unix_us_from_unix_time(now);

	if (likely(published_here()))
		return likely(now_us >= xact_lower_us) ? now : unix_time_from_unix_us(xact_lower_us);
	if ((s = publishing_state()) == NULL)
		return now;

	(void) publish_from(s, now_us, PG_INT64_MAX);
	return now_us >= xact_lower_us ? now : unix_time_from_unix_us(xact_lower_us);
}

/*
 * A library of another layout has been loaded since this session loaded
 * its own (layouts.c): the horizon and the guard of this session would miss
 * the transactions of its sessions.
 */
static void
refuse_superseded(const char *caller)
{
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("%s cannot be used in this session: a newer pg_uuidx library is in use", caller),
			 errdetail("The library file was installed again after this session loaded it, and the new library keeps the sessions that make ids in shared memory of another layout, which this session does not see."),
			 errhint("Reconnect to load the installed library.")));
}

bool
horizon_cover(int64 id_us, int64 *floor_us)
{
	HorizonShared *s;

	*floor_us = NO_TIME;
	if ((s = publishing_state()) == NULL)
		return true;
	if (layouts_superseded(HORIZON_LAYOUT))
		refuse_superseded("pg_uuidx_horizon_guard()");
	if (published_here() && id_us >= xact_lower_us)
		return true;
	*floor_us = publish_from(s, unix_us_from_unix_time(clock_now()), id_us);
	return id_us >= *floor_us;
}

int
horizon_allowance(void)
{
	return horizon_allowance_ms;
}

/*
 * The full id of xid, a transaction still in progress, so fewer than 2^31
 * transactions older than the next one (as xid8funcs.c widens an xid)
 */
static FullTransactionId
full_xid_in_progress(TransactionId xid)
{
	FullTransactionId next = ReadNextFullTransactionId();
	uint32		epoch = EpochFromFullTransactionId(next);

	if (xid > XidFromFullTransactionId(next))
		epoch--;
	return FullTransactionIdFromEpochAndXid(epoch, xid);
}

/*
 * Whether the transaction of a record is still in progress: its xid is, and
 * is that transaction's, not one of a later epoch that reuses it
 */
static bool
prepared_in_progress(FullTransactionId fxid)
{
	TransactionId xid = XidFromFullTransactionId(fxid);

	return TransactionIdIsInProgress(xid) &&
		FullTransactionIdEquals(full_xid_in_progress(xid), fxid);
}

/*
 * Free the entries of prepared transactions that are no longer in progress
 * (committed, rolled back, or never prepared after PRE_PREPARE failed).
 * TransactionIdIsInProgress() takes locks, so it runs on a copy.
 */
static void
forget_finished_prepared(HorizonShared *s)
{
	HorizonPrepared *prepared = prepared_table(s);
	FullTransactionId *fxids = palloc(sizeof(FullTransactionId) * s->nprepared);

	LWLockAcquire(&s->prepared_lock, LW_SHARED);
	for (int i = 0; i < s->nprepared; i++)
		fxids[i] = prepared[i].fxid;
	LWLockRelease(&s->prepared_lock);

	for (int i = 0; i < s->nprepared; i++)
		if (FullTransactionIdIsValid(fxids[i]) && prepared_in_progress(fxids[i]))
			fxids[i] = InvalidFullTransactionId;

	LWLockAcquire(&s->prepared_lock, LW_EXCLUSIVE);
	for (int i = 0; i < s->nprepared; i++)
		if (FullTransactionIdIsValid(fxids[i]) && FullTransactionIdEquals(prepared[i].fxid, fxids[i]))
			prepared[i].fxid = InvalidFullTransactionId;
	LWLockRelease(&s->prepared_lock);
	pfree(fxids);
}

/*
 * Model step "pre_prepare": keep this transaction's
 * lower time (NO_ID: it made none) under its xid for as long as it stays
 * prepared.  A prepared transaction without such a record holds the horizon
 * at its lowest (prepared_horizon()).
 */
static void
remember_prepared(HorizonShared *s, FullTransactionId fxid, int64 lower_us)
{
	HorizonPrepared *prepared = prepared_table(s);

	/* no entries: PREPARE is refused right after */
	if (s->nprepared == 0)
		return;
	for (int attempt = 0; attempt < 2; attempt++)
	{
		LWLockAcquire(&s->prepared_lock, LW_EXCLUSIVE);
		for (int i = 0; i < s->nprepared; i++)
		{
			if (FullTransactionIdIsValid(prepared[i].fxid))
				continue;
			prepared[i].dbid = MyDatabaseId;
			prepared[i].lower_us = lower_us;
			prepared[i].fxid = fxid;
			LWLockRelease(&s->prepared_lock);
			return;
		}
		LWLockRelease(&s->prepared_lock);
		forget_finished_prepared(s);
	}
	ereport(ERROR,
			(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			 errmsg("pg_uuidx cannot keep the horizon of one more prepared transaction"),
			 errdetail("All %d entries are in use.", s->nprepared)));
}

/*
 * A transaction about to be prepared hands the time in its slot (published
 * by it or by its parallel workers) to the table of prepared transactions,
 * or records that it made no id: once prepared it no longer runs in this
 * process.  A transaction without an xid wrote no row.  Nothing else needs
 * an end-of-transaction step: a slot stops counting when its transaction
 * ends.
 */
static void
horizon_xact_callback(XactEvent event, void *arg)
{
	FullTransactionId fxid;
	HorizonShared *s;
	LocalTransactionId lxid;
	int64		lower_us;
	Oid			dbid;

	if (event != XACT_EVENT_PRE_PREPARE || MyProc == NULL)
		return;
	fxid = GetTopFullTransactionIdIfAny();
	if (!FullTransactionIdIsValid(fxid) || (s = horizon_attach()) == NULL)
		return;
	if (!read_slot(slot_of(s, MyProc), &lxid, &lower_us, &dbid) ||
		lxid != PG_UUIDX_PROC_LXID(MyProc))
		lower_us = NO_ID;
	remember_prepared(s, fxid, lower_us);
}

/*
 * The horizon's part of loading the library (module.c): its shared memory
 * where that must be requested at preload, its transaction callback and
 * pg_uuidx.horizon_allowance.
 */
void
horizon_init_module(void)
{
#ifndef PG_UUIDX_DSM_REGISTRY
	if (process_shared_preload_libraries_in_progress)
	{
		prev_shmem_request_hook = shmem_request_hook;
		shmem_request_hook = horizon_shmem_request;
		prev_shmem_startup_hook = shmem_startup_hook;
		shmem_startup_hook = horizon_shmem_startup;
	}
#endif
	RegisterXactCallback(horizon_xact_callback, NULL);

	/*
	 * GUC_ALLOW_IN_PARALLEL: the library may first be loaded inside a
	 * parallel query, where the value from the configuration file could not
	 * be applied otherwise.  Only the leader computes the horizon (those
	 * functions are PARALLEL RESTRICTED), so a worker's value does not matter.
	 */
	DefineCustomIntVariable("pg_uuidx.horizon_allowance",
							"How far the commit horizon trails the clock.",
							"Ids made this long before their insert (by a client, or by core's uuidv7()) "
							"pass pg_uuidx_horizon_guard(); the readers' lag grows by as much.",
							&horizon_allowance_ms,
							1000, 0, 3600 * 1000,
							PGC_SUSET,
							GUC_UNIT_MS | GUC_ALLOW_IN_PARALLEL,
							NULL, NULL, NULL);
}

/* one row of pg_uuidx_horizon_holders() */
static void
add_holder(ReturnSetInfo *rsinfo, int pid, TransactionId xid, int64 lower_us)
{
	Datum		values[3];
	bool		nulls[3] = {pid == 0, !TransactionIdIsValid(xid), lower_us == NO_TIME};

	values[0] = Int32GetDatum(pid);
	values[1] = TransactionIdGetDatum(xid);
	values[2] = nulls[2] ? (Datum) 0 : TimestampTzGetDatum(lower_us - UNIX_TO_PG_EPOCH_US);
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
}

/*
 * Whether the current user may see when another role's session made its
 * first id: as pg_stat_activity shows its timestamps, to members of that
 * role and of pg_read_all_stats.
 */
static bool
may_see_session(Oid role)
{
	return has_privs_of_role(GetUserId(), role) ||
		has_privs_of_role(GetUserId(), ROLE_PG_READ_ALL_STATS);
}

static bool
fxid_in(FullTransactionId fxid, FullTransactionId *fxids, int n)
{
	for (int i = 0; i < n; i++)
		if (FullTransactionIdEquals(fxids[i], fxid))
			return true;
	return false;
}

/*
 * Model step "scan_prepared": the horizon lowered to the prepared
 * transactions of this database: those recorded at PRE_PREPARE to their
 * first id, the others to the lowest (NO_TIME).  Those have no record
 * because they were prepared before a restart, on the primary before a
 * promotion, or by a session that never loaded this library (whose only
 * ids a parallel worker may have made): what ids they hold is not known.
 * Core's list is read before the records, and a record is made before its
 * transaction is in that list, so a recorded transaction is never taken
 * for an unknown one.
 */
static int64
prepared_horizon(HorizonShared *s, int64 horizon, ReturnSetInfo *rsinfo)
{
	HorizonPrepared *prepared = prepared_table(s);
	HorizonPrepared *mine = palloc(sizeof(HorizonPrepared) * s->nprepared);
	FullTransactionId *known = palloc(sizeof(FullTransactionId) * s->nprepared);
	FullTransactionId *listed = palloc(sizeof(FullTransactionId) * max_prepared_xacts);
	int			nmine = 0;
	int			nlisted = 0;

	LWLockAcquire(TwoPhaseStateLock, LW_SHARED);
	for (int i = 0; i < max_prepared_xacts; i++)
	{
		PGPROC	   *proc = &PreparedXactProcs[i];
		TransactionId xid = proc->xid;

		if (TransactionIdIsValid(xid) && proc->databaseId == MyDatabaseId)
			listed[nlisted++] = full_xid_in_progress(xid);
	}
	LWLockRelease(TwoPhaseStateLock);

	LWLockAcquire(&s->prepared_lock, LW_SHARED);
	for (int i = 0; i < s->nprepared; i++)
		if (FullTransactionIdIsValid(prepared[i].fxid) && prepared[i].dbid == MyDatabaseId)
			mine[nmine++] = prepared[i];
	LWLockRelease(&s->prepared_lock);

	for (int i = 0; i < nmine; i++)
	{
		known[i] = mine[i].fxid;
		if (mine[i].lower_us == NO_ID || !prepared_in_progress(mine[i].fxid))
			continue;
		horizon = Min(horizon, mine[i].lower_us);
		if (rsinfo)
			add_holder(rsinfo, 0, XidFromFullTransactionId(mine[i].fxid), mine[i].lower_us);
	}
	for (int i = 0; i < nlisted; i++)
	{
		if (fxid_in(listed[i], known, nmine) ||
			!TransactionIdIsInProgress(XidFromFullTransactionId(listed[i])))
			continue;
		horizon = NO_TIME;
		if (rsinfo)
			add_holder(rsinfo, 0, XidFromFullTransactionId(listed[i]), NO_TIME);
	}
	pfree(mine);
	pfree(known);
	pfree(listed);
	return horizon;
}

#ifdef PG_UUIDX_DSM_REGISTRY
/*
 * The horizon held at its lowest by the open transactions of sessions of
 * this database that started before library_since (this library's file was
 * installed, or another layout's library used its state since) and have not
 * used this state: they may run another library, which publishes nothing
 * (before 1.5) or publishes to a state of another layout that this one does
 * not see, and whose guard may have let in an id of any age before its
 * session saw this layout registered (layouts.c).  Processes that run no
 * SQL (the checkpointer, the autovacuum launcher, ...) are not such
 * sessions, so once the sessions from before library_since have ended, of
 * any database, none can come back: old_sessions is cleared, unless
 * library_since moved meanwhile.
 */
static int64
unregistered_horizon(HorizonShared *s, int64 horizon, ReturnSetInfo *rsinfo)
{
	bool		any = false;
	TimestampTz since;

	SpinLockAcquire(&s->mutex);
	since = s->library_since;
	SpinLockRelease(&s->mutex);

	/* the backends' status as it is now, not as this transaction first saw it */
	pgstat_clear_backend_activity_snapshot();
	for (int i = 0; i < s->nslots; i++)
	{
		PGPROC	   *proc = &ProcGlobal->allProcs[i];
		int			pid = (int) PROC_FIELD_ONCE(proc->pid);
		PgBackendStatus *status;
		Oid			dbid;

		if (pid == 0 || pid == MyProcPid || s->slots[i].registered_pid == pid)
			continue;
		status = pgstat_get_beentry_by_proc_number(i);
		if (status == NULL || status->st_procpid != pid ||
			status->st_proc_start_timestamp >= since)
			continue;
		/* the checkpointer, the WAL writer and the like never make an id */
		if (status->st_backendType != B_BACKEND && status->st_backendType != B_BG_WORKER)
			continue;

		/*
		 * Nor does a process not connected to a database, such as the
		 * logical replication launcher: it has run no SQL, so it has not
		 * loaded a library of ours, and if it ever does, it loads this file
		 */
		dbid = PROC_FIELD_ONCE(proc->databaseId);
		if (dbid == InvalidOid)
			continue;
		any = true;
		if (dbid != MyDatabaseId ||
			PROC_FIELD_ONCE(PG_UUIDX_PROC_LXID(proc)) == InvalidLocalTransactionId)
			continue;
		horizon = NO_TIME;
		if (rsinfo)
			add_holder(rsinfo, pid, InvalidTransactionId, NO_TIME);
	}
	if (!any)
	{
		bool		off;

		SpinLockAcquire(&s->mutex);
		off = s->library_since == since;
		if (off)
			s->old_sessions = false;
		SpinLockRelease(&s->mutex);
		if (off)
			elog(DEBUG1, "pg_uuidx: no session from before %s is left; the horizon no longer looks for them",
				 timestamptz_to_str(since));
	}
	return horizon;
}
#endif

/*
 * The horizon as a Unix time in microseconds (NO_TIME: held at its lowest),
 * and, when rsinfo is given, a row for every transaction that holds it
 * below the clock.
 */
static int64
horizon_compute(const char *caller, ReturnSetInfo *rsinfo)
{
	HorizonShared *s;
	HorizonFloor *f;
	int			self = PG_UUIDX_PROC_NUMBER;
	int64		clock_us;
	int64		horizon;

	if (RecoveryInProgress())
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("recovery is in progress"),
				 errdetail("%s needs the transactions still open on the primary, which a standby does not know.", caller),
				 errhint("Call it on the primary; on a standby the newest tick (pg_uuidx_tick()) is the horizon.")));
	s = horizon_attach();
	if (s == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("%s needs pg_uuidx in shared_preload_libraries on this server", caller),
				 errdetail("Before PostgreSQL 17 the transactions that make ids are tracked in shared memory that only a preloaded library gets."),
				 errhint("Add pg_uuidx to shared_preload_libraries and restart the server.")));

	f = database_floor(s);

	/*
	 * Model step "raise_floor": the clock less the allowance; this
	 * database's floor raised to it before the slots are read
	 */
	clock_us = unix_us_from_unix_time(clock_now()) - (int64) horizon_allowance_ms * US_PER_MS;
	raise_to(&f->floor_us, clock_us);
	horizon = (int64) pg_atomic_read_u64(&f->floor_us);
	/*
	 * The floor raised before the slots are read: pairs with publish_from()'s
	 * barrier between publishing and reading the floor
	 */
	pg_memory_barrier();

	/*
	 * A library of another layout registered before this read is seen here;
	 * one that registers after it takes its state's epoch, and so the floor
	 * of its guard, after this clock reading (layouts_register() has a
	 * barrier before the state is attached): its ids are above this horizon.
	 */
	if (layouts_superseded(HORIZON_LAYOUT))
		refuse_superseded(caller);

	/* model step "scan_slots" */

	for (int i = 0; i < s->nslots; i++)
	{
		PGPROC	   *proc = &ProcGlobal->allProcs[i];
		LocalTransactionId lxid;
		int64		lower_us;
		Oid			dbid;

		if (i == self || !read_slot(&s->slots[i], &lxid, &lower_us, &dbid))
			continue;
		/*
		 * Counts while the process runs that transaction (file header): the
		 * slot is read before the process's lxid, which core resets when the
		 * transaction's end becomes visible (fact A of the protocol)
		 */
		pg_read_barrier();
		if (dbid != MyDatabaseId || PROC_FIELD_ONCE(PG_UUIDX_PROC_LXID(proc)) != lxid)
			continue;
		horizon = Min(horizon, lower_us);
		if (rsinfo)
			add_holder(rsinfo, (int) PROC_FIELD_ONCE(proc->pid), InvalidTransactionId,
					   may_see_session(PROC_FIELD_ONCE(proc->roleId)) ? lower_us : NO_TIME);
	}
	/*
	 * The slots before the prepared transactions: a transaction whose slot
	 * stopped counting at PREPARE is in core's array by then (fact B), and
	 * its record was written at PRE_PREPARE, before
	 */
	pg_read_barrier();

#ifdef PG_UUIDX_DSM_REGISTRY
	if (s->old_sessions)
		horizon = unregistered_horizon(s, horizon, rsinfo);
#endif

	if (s->nprepared > 0)
		horizon = prepared_horizon(s, horizon, rsinfo);
	return horizon;
}

/*
 * The smallest id of "version" whose tick holds the time horizon_us (every
 * id the generators make from that time on is at least this one), or the
 * smallest id of the version.
 */
pg_uuid_t *
horizon_id(int64 horizon_us, int version)
{
	pg_uuid_t  *uuid = palloc(UUID_LEN);
	uint64		tick = 0;

	if (horizon_us != NO_TIME)
	{
		UnixTime	t = unix_time_from_unix_us(horizon_us);
		bool		fits = version == 7 ? v7_tick_from_unix_time(t, &tick) :
			gregorian_tick_from_unix_time(t, &tick);

		/* before the first time the version holds, or after the last */
		if (!fits)
			tick = t.sec < 0 ? 0 : UUID_TICK_LIMIT - 1;
	}
	uuid_pack_tick_edge(uuid, tick, version, false);
	return uuid;
}

int64
horizon_live_us(const char *caller)
{
	return horizon_compute(caller, NULL);
}

/*
 * The horizon as an id of "version" (7 or 6): the live one, or on a standby
 * the newest tick replicated from the primary; caller names the SQL
 * function in errors.
 */
static pg_uuid_t *
horizon_uuid(FunctionCallInfo fcinfo, int version, const char *caller)
{
	return horizon_id(RecoveryInProgress() ?
					  tick_horizon_us(fcinfo->flinfo->fn_oid, false, caller) :
					  horizon_live_us(caller), version);
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuidv7_horizon);

/*
 * uuidv7_horizon() -> uuid: every uuidv7() id below it that a transaction
 * of this database will ever commit is visible to a statement that starts
 * after this call; the calling transaction's own ids are not waited for.
 * On a standby, the newest tick's horizon.
 */
Datum
pg_uuidx_uuidv7_horizon(PG_FUNCTION_ARGS)
{
	PG_RETURN_UUID_P(horizon_uuid(fcinfo, 7, "uuidv7_horizon()"));
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuidv6_horizon);

/*
 * uuidv6_horizon() -> uuid: the same for uuidv6() ids.
 */
Datum
pg_uuidx_uuidv6_horizon(PG_FUNCTION_ARGS)
{
	PG_RETURN_UUID_P(horizon_uuid(fcinfo, 6, "uuidv6_horizon()"));
}

PG_FUNCTION_INFO_V1(pg_uuidx_horizon_holders);

/*
 * pg_uuidx_horizon_holders() -> (pid, prepared_xid, holds_since): the
 * sessions and prepared transactions of this database that hold the horizon
 * below the clock, with the time each holds it at.  holds_since is NULL for
 * a prepared transaction from before tracking began (it holds the horizon at
 * its lowest), and for another role's session unless the caller may see its
 * timestamps in pg_stat_activity.
 */
Datum
pg_uuidx_horizon_holders(PG_FUNCTION_ARGS)
{
	InitMaterializedSRF(fcinfo, 0);
	(void) horizon_compute("pg_uuidx_horizon_holders()", (ReturnSetInfo *) fcinfo->resultinfo);
	return (Datum) 0;
}
