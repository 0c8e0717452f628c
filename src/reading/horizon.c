/*
 * horizon.c
 *		The commit horizon of uuidv7() and uuidv6() ids: the protocol that
 *		publishes a transaction's ids and computes the horizon, and
 *		pg_uuidx_horizon_holders().
 *
 * Owns the protocol over the shared state (horizon_state.c) and
 * pg_uuidx.horizon_allowance; may call horizon_state.h, clock.h, id_time.h
 * and horizon_layouts.h.  Where a reader's horizon comes from (live, or a tick
 * on a standby) is horizon_tick.c's.
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
 *   runs the transaction, a time "lower" that no id the generators make for
 *   that transaction will be below, with the transaction's local id.  A parallel worker publishes
 *   in its leader's slot, for the leader's transaction, lowering its time if
 *   need be.  A slot counts only while the process in it still runs the
 *   transaction it was published for: its local id is cleared when the
 *   transaction has ended and become visible (ProcArrayEndTransaction), so
 *   no end of a transaction or of a process can leave a slot behind.
 *   PREPARE TRANSACTION moves the slot's time into a table of prepared
 *   transactions, kept until the transaction is no longer in progress.
 * - A "floor" per database, no transaction's first id goes below: the
 *   horizon raises its database's floor to the clock it read before it
 *   looks at the slots, and a generator reads the floor after it has
 *   published its slot.  With a full barrier on both sides, either the
 *   horizon sees the slot or the generator sees the floor, so a
 *   transaction that starts during the call cannot make an id below the
 *   horizon, and neither can one that starts after the clock stepped back.
 * - A reader reads with the allowance of the tables it reads (guard.c): a
 *   table without a guard holds only the generators' ids and is read with
 *   none.  Its horizon is the least of the floor less that allowance, the
 *   slots of the other backends of this database (their generators' times
 *   and, for a reader of guarded tables, their guards') and that
 *   database's prepared transactions.  uuidv7_horizon() and the ticks read
 *   with pg_uuidx.horizon_allowance, the most a guard may allow.
 * - A restart or a promotion loses the floors: a database's floor is made
 *   again, on first use, at the clock when the server first used the state
 *   (past every horizon handed out before) or at the database's newest tick
 *   if higher (past what readers on standbys were given).  During recovery
 *   nothing is published: no row can be written there.
 * - An id made elsewhere (guard.c) is published the same way, at its own
 *   time, in the slot's field for the guard; after publishing, the floor
 *   less the guard's allowance tells whether a horizon of that allowance
 *   above the id may already have been handed out.  Ids are covered from
 *   the higher of the time published and the floor: a horizon computed
 *   later sees the slot, one computed earlier was at most the floor.
 * - Every transaction prepared by a backend with this library records its
 *   time, or that it made no id.  A prepared transaction of the database
 *   without a record (from before a restart or a promotion, or prepared by
 *   a session that never loaded this library while a parallel worker made
 *   its ids) holds the horizon at its lowest until it ends.
 * - Sessions that may run another library (loaded before this library file
 *   was installed, or before this layout was registered again after another:
 *   horizon_layouts.c), which publishes nothing here, hold the horizon at its
 *   lowest while they have a transaction open, until they register with the
 *   state or end.  A session whose library's layout is superseded is refused
 *   the horizon and the guard.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "access/parallel.h"
#include "access/transam.h"
#include "access/twophase.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/pg_authid.h"
#include "common/int.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/proc.h"
#include "storage/procarray.h"
#include "utils/acl.h"
#include "utils/backend_status.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"

#include "compat.h"
#include "ids/bits.h"
#include "ids/id_time.h"
#include "reading/horizon.h"
#include "reading/horizon_layouts.h"
#include "reading/horizon_state.h"

/* pg_uuidx.horizon_allowance: the most a guard may allow (ms) */
static int	horizon_allowance_ms = 1000;

/*
 * The local id of this process's transaction once it has published, and
 * from which time on ids are covered for it (NO_ID: not yet): those the
 * generators make (none is made below), and those the guard lets in
 */
static LocalTransactionId published_lxid = InvalidLocalTransactionId;
static int64 generated_from_us = NO_ID;
static int64 guarded_from_us = NO_ID;

/*
 * The starts of this transaction's statements (horizon_cover_from_clock(),
 * guard_after.c): the ids that guards allowing allowance_ms or more let in
 * are covered from from_us for the rest of the transaction, as the slot
 * keeps the lowest time published.  One an allowance, the lowest: a later
 * statement must not raise the cover of rows stored before it and guarded
 * at their own statement's end (a trigger that writes another guarded
 * table runs its statement in between).  Kept in TopMemoryContext, grown
 * as a transaction meets more allowances.
 */
typedef struct StatementCover
{
	int			allowance_ms;
	int64		from_us;
} StatementCover;

static StatementCover *statement_covers = NULL;
static int	n_statement_covers = 0;
static int	max_statement_covers = 0;

/*
 * The greatest time of an id the guard covered for this transaction
 * (NO_TIME: none), which may be ahead of the clock
 */
static int64 covered_max_us = NO_TIME;

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

/*
 * The transaction of this process as the one that published last: what it
 * published keeps counting, or both times start afresh
 */
static void
publishing_transaction(void)
{
	if (published_lxid != InvalidLocalTransactionId &&
		published_lxid == PG_UUIDX_PROC_LXID(MyProc))
		return;
	published_lxid = PG_UUIDX_PROC_LXID(MyProc);
	generated_from_us = NO_ID;
	guarded_from_us = NO_ID;
	n_statement_covers = 0;
	covered_max_us = NO_TIME;
}

/*
 * Publish time_us, in the slot's field for the generators or for the guard
 * (guarded), and return the floor read after that (the file header)
 */
static int64
publish(HorizonShared *s, int64 time_us, bool guarded)
{
	/* model step "gen_publish" (a generator), "guard_publish" (the guard) */
	horizon_publish_slot(s, time_us, guarded);

	/*
	 * The slot is visible before the floor is read: pairs with
	 * horizon_compute()'s barrier between raising the floor and scanning the
	 * slots (rule 2 of docs/how-it-works.md's protocol)
	 */
	pg_memory_barrier();
	/* model step "gen_read_floor", "guard_read_floor" */
	return (int64) pg_atomic_read_u64(&horizon_floor(s)->floor_us);
}

UnixTime
horizon_clock(UnixTime now)
{
	HorizonShared *s;
	int64		now_us = unix_us_from_unix_time(now);
	int64		lower;
	int64		floor_us;

	if (likely(generated_from_us != NO_ID && published_lxid == PG_UUIDX_PROC_LXID(MyProc)))
		return likely(now_us >= generated_from_us) ? now : unix_time_from_unix_us(generated_from_us);
	if ((s = publishing_state()) == NULL)
		return now;

	/* no id of this transaction below the clock or a floor already raised */
	publishing_transaction();
	lower = Max(now_us, (int64) pg_atomic_read_u64(&horizon_floor(s)->floor_us));
	/* publish() once: Max() evaluates the greater argument twice */
	floor_us = publish(s, lower, false);
	generated_from_us = Max(lower, floor_us);
	return now_us >= generated_from_us ? now : unix_time_from_unix_us(generated_from_us);
}

/*
 * A library of another layout has been loaded since this session loaded
 * its own (horizon_layouts.c): the horizon and the guard of this session would
 * miss the transactions of its sessions.
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

/*
 * Model step "guard_read_floor"'s bound: the least id a guard of
 * allowance_ms may let in at floor floor_us.  Not below the state's epoch
 * either: readers before a restart read with the allowance the server had
 * then, which may have been smaller (pg_uuidx.horizon_allowance is read
 * once, when the state is made), up to at most the clock then.
 */
static int64
guard_bound(HorizonShared *s, int64 floor_us, int allowance_ms)
{
	int64		epoch_us = horizon_epoch(s);

	return Max(floor_us - (int64) allowance_ms * US_PER_MS, epoch_us);
}

/* Whether a statement's start covers id_us for guards allowing allowance_ms */
static bool
covered_from_statement(int64 id_us, int allowance_ms)
{
	for (int i = 0; i < n_statement_covers; i++)
		if (allowance_ms >= statement_covers[i].allowance_ms && id_us >= statement_covers[i].from_us)
			return true;
	return false;
}

/* Ids covered from from_us for guards allowing allowance_ms or more */
static void
remember_statement_cover(int allowance_ms, int64 from_us)
{
	for (int i = 0; i < n_statement_covers; i++)
	{
		if (statement_covers[i].allowance_ms == allowance_ms)
		{
			statement_covers[i].from_us = Min(statement_covers[i].from_us, from_us);
			return;
		}
	}
	if (n_statement_covers == max_statement_covers)
	{
		max_statement_covers = Max(4, 2 * max_statement_covers);
		statement_covers = statement_covers == NULL ?
			MemoryContextAlloc(TopMemoryContext, max_statement_covers * sizeof(StatementCover)) :
			repalloc(statement_covers, max_statement_covers * sizeof(StatementCover));
	}
	statement_covers[n_statement_covers].allowance_ms = allowance_ms;
	statement_covers[n_statement_covers].from_us = from_us;
	n_statement_covers++;
}

bool
horizon_cover(int64 id_us, int allowance_ms, int64 *floor_us)
{
	HorizonShared *s;
	int64		floor;

	*floor_us = NO_TIME;
	if ((s = publishing_state()) == NULL)
		return true;
	if (layouts_superseded(HORIZON_LAYOUT))
		refuse_superseded("pg_uuidx_horizon_guard()");
	publishing_transaction();
	covered_max_us = Max(covered_max_us, id_us);
	if (id_us >= generated_from_us || id_us >= guarded_from_us ||
		covered_from_statement(id_us, allowance_ms))
		return true;

	/*
	 * The floor only rises: an id below it already is refused without
	 * holding the horizon down for the rest of the transaction (the guard
	 * after the row asks for the kept ids of UPDATEs too)
	 */
	*floor_us = guard_bound(s, (int64) pg_atomic_read_u64(&horizon_floor(s)->floor_us), allowance_ms);
	if (id_us < *floor_us)
		return false;
	floor = publish(s, id_us, true);
	guarded_from_us = Min(guarded_from_us, Max(id_us, floor));
	*floor_us = guard_bound(s, floor, allowance_ms);
	return id_us >= *floor_us;
}

void
horizon_cover_from_clock(int allowance_ms)
{
	HorizonShared *s;
	int64		allowance_us = (int64) allowance_ms * US_PER_MS;
	int64		from_us;
	int64		bound_us;

	if ((s = publishing_state()) == NULL)
		return;
	if (layouts_superseded(HORIZON_LAYOUT))
		refuse_superseded("pg_uuidx_horizon_guard()");
	publishing_transaction();
	from_us = unix_us_from_unix_time(clock_now()) - allowance_us;

	/*
	 * A horizon computed after this sees the slot, at most from_us; one of
	 * a reader of allowance_ms or more computed before was at most the floor
	 * less allowance_ms, and one from before a restart below the epoch
	 * (model step "stmt_read_floor")
	 */
	bound_us = guard_bound(s, publish(s, from_us, true), allowance_ms);
	remember_statement_cover(allowance_ms, Max(from_us, bound_us));
}

int
horizon_allowance(void)
{
	/* recorded once in the state, which outlives this process */
	static uint32 recorded = PG_UINT32_MAX;
	static int	logged_ms = -1;

	if (recorded == PG_UINT32_MAX)
	{
		HorizonShared *s = IsUnderPostmaster && MyProc != NULL ? horizon_attach() : NULL;
		uint32		seen;

		if (s == NULL)
			return horizon_allowance_ms;
		/* the first to ask records its setting; every process reads that */
		seen = pg_atomic_read_u32(&s->allowance_ms);
		if (seen == PG_UINT32_MAX &&
			pg_atomic_compare_exchange_u32(&s->allowance_ms, &seen, (uint32) horizon_allowance_ms))
			seen = (uint32) horizon_allowance_ms;
		recorded = seen;
	}
	if ((int) recorded != horizon_allowance_ms && logged_ms != horizon_allowance_ms)
	{
		logged_ms = horizon_allowance_ms;
		ereport(LOG,
				(errmsg("pg_uuidx.horizon_allowance is %d ms in this process, but %u ms is in force until the server restarts",
						horizon_allowance_ms, recorded),
				 errdetail("Guards and readers in every process use the value in force when the server's shared state was made.")));
	}
	return (int) recorded;
}

/*
 * The full id of xid, a transaction still in progress, so fewer than 2^31
 * transactions older than next, the next full id read after it (as
 * xid8funcs.c widens an xid)
 */
static FullTransactionId
full_xid_in_progress(TransactionId xid, FullTransactionId next)
{
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
		FullTransactionIdEquals(full_xid_in_progress(xid, ReadNextFullTransactionId()), fxid);
}

/*
 * Free the entries of prepared transactions that are no longer in progress
 * (committed, rolled back, or never prepared after PRE_PREPARE failed).
 * TransactionIdIsInProgress() takes locks, so it runs on a copy.
 */
static void
forget_finished_prepared(HorizonShared *s)
{
	HorizonPrepared *prepared = horizon_prepared_table(s);
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
	HorizonPrepared *prepared = horizon_prepared_table(s);

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
 * Model step "pre_commit": a transaction that published raises its
 * database's pending time to the latest time of its ids before its commit
 * or PREPARE (whose COMMIT PREPARED may come from any session) can make its
 * rows visible: for the generators' ids the clock, or the floor they were
 * raised to when that is ahead (none is later while the clock does not step
 * back); for the others the greatest id the guard covered.  So a tick is
 * needed only while the newest one is not above that time
 * (horizon_tick_needed()).  A parallel worker raises it for the ids it made
 * for its leader.
 */
static void
raise_pending(void)
{
	HorizonShared *s;
	int64		upto;

	if (published_lxid == InvalidLocalTransactionId ||
		published_lxid != PG_UUIDX_PROC_LXID(MyProc) ||
		(s = publishing_state()) == NULL)
		return;
	/* a transaction without an xid wrote no row (its parallel workers have its leader's) */
	if (!IsParallelWorker() && !FullTransactionIdIsValid(GetTopFullTransactionIdIfAny()))
		return;
	upto = Max(unix_us_from_unix_time(clock_now()), covered_max_us);
	if (generated_from_us != NO_ID)
		upto = Max(upto, generated_from_us);
	horizon_raise(&horizon_floor(s)->pending_us, upto);
}

/*
 * A transaction about to commit, or to be prepared, raises the pending
 * time (raise_pending()).  One about to be prepared also hands the time in
 * its slot (published by it or by its parallel workers) to the table of
 * prepared transactions, or records that it made no id: once prepared it
 * no longer runs in this process.  A transaction without an xid wrote no
 * row.  Nothing else needs an end-of-transaction step: a slot stops
 * counting when its transaction ends.
 */
static void
horizon_xact_callback(XactEvent event, void *arg)
{
	FullTransactionId fxid;
	HorizonShared *s;
	LocalTransactionId lxid;
	int64		lower_us;
	int64		guarded_us;
	Oid			dbid;

	if (MyProc == NULL)
		return;
	if (event == XACT_EVENT_PRE_COMMIT || event == XACT_EVENT_PARALLEL_PRE_COMMIT ||
		event == XACT_EVENT_PRE_PREPARE)
		raise_pending();
	if (event != XACT_EVENT_PRE_PREPARE)
		return;
	fxid = GetTopFullTransactionIdIfAny();
	if (!FullTransactionIdIsValid(fxid) || (s = horizon_attach()) == NULL)
		return;
	if (!horizon_read_slot(horizon_slot(s, MyProc), &lxid, &lower_us, &guarded_us, &dbid) ||
		lxid != PG_UUIDX_PROC_LXID(MyProc))
		lower_us = guarded_us = NO_ID;
	/* held for every reader: a prepared transaction's tables are not known */
	remember_prepared(s, fxid, Min(lower_us, guarded_us));
}

/*
 * The horizon's part of loading the library (module.c): its shared memory
 * where that must be requested at preload, its transaction callback and
 * pg_uuidx.horizon_allowance.
 */
void
horizon_init_module(void)
{
	horizon_state_init_module();
	RegisterXactCallback(horizon_xact_callback, NULL);

	/*
	 * PGC_SIGHUP: no session may set its own (a guard's allowance and its
	 * readers' must agree across sessions), and a library loaded after the
	 * start (17+ without preload) cannot define a PGC_POSTMASTER setting.
	 * Nor may they disagree in time: a reload reaches a reader before a
	 * writer whose statement is running, so the guard and the readers use
	 * the value that the shared state recorded when it was first asked
	 * (horizon_allowance()), until a restart; a larger one after it covers
	 * no id from before it (guard_bound()).  GUC_ALLOW_IN_PARALLEL: the
	 * library may first be loaded inside a parallel query, where the value
	 * from the configuration file could not be applied otherwise.
	 */
	DefineCustomIntVariable("pg_uuidx.horizon_allowance",
							"The most a guard allows: how long before their insert ids may be made.",
							"The allowance of pg_uuidx_horizon_guard() triggers that declare none, the most "
							"any may declare, and the one uuidv7_horizon() and the ticks read with.",
							&horizon_allowance_ms,
							1000, 0, 3600 * 1000,
							PGC_SIGHUP,
							GUC_UNIT_MS | GUC_ALLOW_IN_PARALLEL,
							NULL, NULL, NULL);
}

/*
 * What horizon_compute() tells of the transactions that hold the horizon
 * below the floor: a row each of pg_uuidx_horizon_holders() into rsinfo
 * (when not NULL), and those that hold it at its lowest (pg_uuidx_stats)
 */
typedef struct HolderSink
{
	ReturnSetInfo *rsinfo;
	List	   *lowest;			/* HorizonHolder items */
} HolderSink;

/*
 * A transaction of pid (0: prepared, of xid) that holds the horizon at
 * lower_us (NO_TIME: at its lowest), a time the caller may see or not
 */
static void
add_holder(HolderSink *sink, int pid, TransactionId xid, int64 lower_us, bool visible)
{
	if (sink->rsinfo != NULL)
	{
		Datum		values[3];
		bool		nulls[3] = {pid == 0, !TransactionIdIsValid(xid), !visible || lower_us == NO_TIME};

		values[0] = Int32GetDatum(pid);
		values[1] = TransactionIdGetDatum(xid);
		values[2] = nulls[2] ? (Datum) 0 : TimestampTzGetDatum(lower_us - UNIX_TO_PG_EPOCH_US);
		tuplestore_putvalues(sink->rsinfo->setResult, sink->rsinfo->setDesc, values, nulls);
	}
	if (lower_us == NO_TIME)
	{
		HorizonHolder *holder = palloc(sizeof(HorizonHolder));

		holder->pid = pid;
		holder->xid = xid;
		sink->lowest = lappend(sink->lowest, holder);
	}
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

/*
 * Model step "scan_prepared": the horizon lowered to the prepared
 * transactions of this database: those recorded at PRE_PREPARE to their
 * first id, the others to the lowest (NO_TIME).  Those have no record
 * because they were prepared before a restart, on the primary before a
 * promotion, or by a session that never loaded this library (whose only
 * ids a parallel worker may have made): what ids they hold is not known.
 * Core's list is read before the records, and a record is made before its
 * transaction is in that list, so a recorded transaction is never taken
 * for an unknown one; a record whose transaction is not in the list is of
 * one that has ended, or that its backend still ran when the slots were
 * scanned (fact B of docs/how-it-works.md), so its slot counted.
 */
static int64
prepared_horizon(HorizonShared *s, int64 horizon, HolderSink *sink)
{
	HorizonPrepared *prepared = horizon_prepared_table(s);
	HorizonPrepared *mine = palloc(sizeof(HorizonPrepared) * s->nprepared);
	TransactionId *listed = palloc(sizeof(TransactionId) * max_prepared_xacts);
	FullTransactionId next;
	int			nmine = 0;
	int			nlisted = 0;

	/*
	 * Core's prepared transactions, in one pass: a dummy PGPROC is one while
	 * it is in the proc array, its xid at its place in ProcGlobal->xids
	 * (MarkAsPrepared() puts it there, the transaction's end takes it out);
	 * the xid of an ended one stays in PreparedXactProcs[].
	 */
	LWLockAcquire(TwoPhaseStateLock, LW_SHARED);
	LWLockAcquire(ProcArrayLock, LW_SHARED);
	for (int i = 0; i < max_prepared_xacts; i++)
	{
		PGPROC	   *proc = &PreparedXactProcs[i];
		TransactionId xid = proc->xid;

		if (TransactionIdIsValid(xid) && proc->databaseId == MyDatabaseId &&
			ProcGlobal->xids[proc->pgxactoff] == xid)
			listed[nlisted++] = xid;
	}
	LWLockRelease(ProcArrayLock);
	LWLockRelease(TwoPhaseStateLock);
	next = ReadNextFullTransactionId();

	LWLockAcquire(&s->prepared_lock, LW_SHARED);
	for (int i = 0; i < s->nprepared; i++)
		if (FullTransactionIdIsValid(prepared[i].fxid) && prepared[i].dbid == MyDatabaseId)
			mine[nmine++] = prepared[i];
	LWLockRelease(&s->prepared_lock);

	for (int i = 0; i < nlisted; i++)
	{
		FullTransactionId fxid = full_xid_in_progress(listed[i], next);
		int64		lower_us = NO_TIME;

		for (int j = 0; j < nmine; j++)
			if (FullTransactionIdEquals(mine[j].fxid, fxid))
				lower_us = mine[j].lower_us;
		if (lower_us == NO_ID)
			continue;
		horizon = Min(horizon, lower_us);
		if (sink)
			add_holder(sink, 0, listed[i], lower_us, true);
	}
	pfree(mine);
	pfree(listed);
	return horizon;
}

#ifdef PG_UUIDX_DSM_REGISTRY
/*
 * The horizon held at its lowest by the open transactions of sessions of
 * this database that started before library_since (this library's file was
 * installed, or another layout's library was loaded since) and have not
 * used this state: they may run another library, which publishes nothing
 * (before 1.5) or publishes to a state of another layout that this one does
 * not see, and whose guard may have let in an id of any age before its
 * session saw this layout registered (horizon_layouts.c).  Processes that run
 * no SQL (the checkpointer, the autovacuum launcher, ...) are not such
 * sessions, so once the sessions from before library_since have ended, of any
 * database, none can come back: old_sessions is cleared, unless library_since
 * moved meanwhile.
 *
 * When a session started is read from the backends' status as this
 * transaction first read it, the view pg_stat_activity gives the caller,
 * which this leaves alone: a process that it does not show, or shows with
 * another pid, started since, maybe before library_since, and is held as
 * if it had.
 */
static int64
unregistered_horizon(HorizonShared *s, int64 horizon, HolderSink *sink)
{
	bool		any = false;
	TimestampTz since;

	SpinLockAcquire(&s->mutex);
	since = s->library_since;
	SpinLockRelease(&s->mutex);

	for (int i = 0; i < s->nslots; i++)
	{
		PGPROC	   *proc = &ProcGlobal->allProcs[i];
		int			pid = (int) PROC_FIELD_ONCE(proc->pid);
		PgBackendStatus *status;
		Oid			dbid;

		if (pid == 0 || pid == MyProcPid || s->slots[i].registered_pid == pid)
			continue;
		status = pgstat_get_beentry_by_proc_number(i);
		if (status != NULL && status->st_procpid == pid)
		{
			if (status->st_proc_start_timestamp >= since)
				continue;
			/* the checkpointer, the WAL writer and the like never make an id */
			if (status->st_backendType != B_BACKEND && status->st_backendType != B_BG_WORKER)
				continue;
		}

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
		if (sink)
			add_holder(sink, pid, InvalidTransactionId, NO_TIME, true);
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
 * The horizon of a reader of tables whose guards allow allowance_ms as a
 * Unix time in microseconds (NO_TIME: held at its lowest), the floor raised
 * to the clock but not above raise_limit_us (NO_ID: no limit); when sink is
 * given, every transaction that holds it below the floor goes there, and
 * when floor_us is, the floor it started from.
 */
static int64
horizon_compute(const char *caller, int allowance_ms, int64 raise_limit_us, HolderSink *sink,
				int64 *floor_us)
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

	f = horizon_floor(s);

	/*
	 * Model step "raise_floor": this database's floor raised to the clock
	 * (at most to raise_limit_us: cluster.c's model step "node_raise")
	 * before the slots are read; the horizon starts at it less the
	 * allowance
	 */
	clock_us = unix_us_from_unix_time(clock_now());
	horizon_raise(&f->floor_us, Min(clock_us, raise_limit_us));
	horizon = (int64) pg_atomic_read_u64(&f->floor_us);
	if (floor_us != NULL)
		*floor_us = horizon;
	horizon -= (int64) allowance_ms * US_PER_MS;
	/*
	 * The floor raised before the slots are read: pairs with publish()'s
	 * barrier between publishing and reading the floor
	 */
	pg_memory_barrier();

	/*
	 * A library of another layout registered before this read is seen here;
	 * one that registers after it takes its state's epoch, or raises its
	 * floors, and so the floor of its guard, after this clock reading
	 * (layouts_register() has a barrier after the entry): its ids are above
	 * this horizon.
	 */
	if (layouts_superseded(HORIZON_LAYOUT))
		refuse_superseded(caller);

	/* model step "scan_slots" */

	for (int i = 0; i < s->nslots; i++)
	{
		PGPROC	   *proc = &ProcGlobal->allProcs[i];
		LocalTransactionId lxid;
		int64		lower_us;
		int64		guarded_us;
		Oid			dbid;

		if (i == self || !horizon_read_slot(&s->slots[i], &lxid, &lower_us, &guarded_us, &dbid))
			continue;
		/*
		 * Counts while the process runs that transaction (file header): the
		 * slot is read before the process's lxid, which core resets when the
		 * transaction's end becomes visible (fact A of the protocol)
		 */
		pg_read_barrier();
		if (dbid != MyDatabaseId || PROC_FIELD_ONCE(PG_UUIDX_PROC_LXID(proc)) != lxid)
			continue;
		/* every table read is guarded: the guard's ids count too */
		lower_us = Min(lower_us, guarded_us);
		if (lower_us == NO_ID)
			continue;
		horizon = Min(horizon, lower_us);
		if (sink)
			add_holder(sink, (int) PROC_FIELD_ONCE(proc->pid), InvalidTransactionId, lower_us,
					   sink->rsinfo == NULL || may_see_session(PROC_FIELD_ONCE(proc->roleId)));
	}
	/*
	 * The slots before the prepared transactions: a transaction whose slot
	 * stopped counting at PREPARE is in core's array by then (fact B), and
	 * its record was written at PRE_PREPARE, before
	 */
	pg_read_barrier();

#ifdef PG_UUIDX_DSM_REGISTRY
	if (s->old_sessions)
		horizon = unregistered_horizon(s, horizon, sink);
#endif

	if (s->nprepared > 0)
		horizon = prepared_horizon(s, horizon, sink);
	return horizon;
}

/*
 * The smallest id of "version" whose unit holds the time horizon_us (every
 * id the generators make from that time on is at least this one), or the
 * smallest id of the version.
 */
pg_uuid_t *
horizon_id(int64 horizon_us, int version)
{
	pg_uuid_t  *uuid = palloc(UUID_LEN);
	uint64		unit = 0;

	if (horizon_us != NO_TIME)
	{
		UnixTime	t = unix_time_from_unix_us(horizon_us);
		bool		fits = version == 7 ? v7_unit_from_unix_time(t, &unit) :
			gregorian_unit_from_unix_time(t, &unit);

		/* before the first time the version holds, or after the last */
		if (!fits)
			unit = t.sec < 0 ? 0 : UUID_UNIT_LIMIT - 1;
	}
	uuid_pack_unit_edge(uuid, unit, version, false);
	return uuid;
}

void
horizon_refused(void)
{
	HorizonShared *s = publishing_state();

	if (s != NULL)
		pg_atomic_fetch_add_u64(&horizon_floor(s)->refusals, 1);
}

bool
horizon_stats(int64 *horizon_us, int64 *floor_us, uint64 *refusals, List **lowest)
{
	HorizonShared *s;
	HolderSink	sink = {NULL, NIL};

	if (RecoveryInProgress() || (s = horizon_attach()) == NULL)
		return false;
	*horizon_us = horizon_compute("pg_uuidx_stats", 0, NO_ID, &sink, floor_us);
	*refusals = pg_atomic_read_u64(&horizon_floor(s)->refusals);
	*lowest = sink.lowest;
	return true;
}

bool
horizon_tick_needed(int64 stored_us)
{
	HorizonShared *s = horizon_attach();

	if (s == NULL)
		return true;
#ifdef PG_UUIDX_DSM_REGISTRY
	/* sessions that may run another library raise no pending time */
	if (s->old_sessions)
		return true;
#endif
	/* model step "tick_skip" */
	return stored_us <= (int64) pg_atomic_read_u64(&horizon_floor(s)->pending_us);
}

int64
horizon_live_us(const char *caller, int allowance_ms)
{
	return horizon_compute(caller, allowance_ms, NO_ID, NULL, NULL);
}

int64
horizon_exact_us(const char *caller, int64 *floor_us)
{
	return horizon_compute(caller, 0, NO_ID, NULL, floor_us);
}

int64
horizon_node_us(const char *caller, int allowance_ms, int64 below_us)
{
	int64		limit_us;

	if (pg_add_s64_overflow(below_us, (int64) allowance_ms * US_PER_MS, &limit_us))
		limit_us = NO_ID;
	return horizon_compute(caller, allowance_ms, limit_us, NULL, NULL);
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
	HolderSink	sink = {(ReturnSetInfo *) fcinfo->resultinfo, NIL};

	InitMaterializedSRF(fcinfo, 0);
	(void) horizon_compute("pg_uuidx_horizon_holders()", horizon_allowance(), NO_ID, &sink, NULL);
	return (Datum) 0;
}

