/*
 * ticker.c
 *		The ticker: background workers that call what pg_uuidx_tick() does,
 *		every pg_uuidx.tick_interval, in the databases named by
 *		pg_uuidx.tick_databases, so that readers on standbys and logical
 *		subscribers need no scheduler outside the server.
 *
 * Owns the settings pg_uuidx.tick_interval and pg_uuidx.tick_databases,
 * the workers and their table in shared memory; may call horizon_tick.h
 * and tick_table.h.
 *
 * With pg_uuidx in shared_preload_libraries, a launcher ("pg_uuidx ticker
 * launcher" in pg_stat_activity), connected to no database, starts out of
 * recovery (on a standby: at its promotion).  It starts one worker ("pg_uuidx
 * ticker") per named database that exists and accepts connections, and
 * starts it again a second after it stops for any reason (an error,
 * pg_terminate_backend()).  After a crash the postmaster starts the
 * launcher again.
 *
 * Each worker keeps its database and pid in a table in shared memory, as
 * the logical replication launcher's workers do: a launcher started again
 * (after pg_terminate_backend(), or an error) finds the workers of the
 * one before, which outlive it, and starts no other for their databases,
 * and a second worker for one database leaves at once, as autoprewarm's
 * does.  A worker leaves by itself when a reload takes its database off
 * the list, whichever launcher started it.
 *
 * A worker stays connected to its database, which would block DROP
 * DATABASE, ALTER DATABASE ... RENAME or SET TABLESPACE and CREATE
 * DATABASE ... TEMPLATE (each waits five seconds for the other sessions to
 * leave, then fails).  Each first takes, and holds while it waits, a lock on
 * the database that conflicts with the one a new connection takes; a
 * worker that sees such a lock held leaves, and the launcher starts none
 * while it is.  On 19 the workers are also BGWORKER_INTERRUPTIBLE, so those
 * commands end them.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/pg_database.h"
#include "commands/dbcommands.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/lmgr.h"
#include "storage/lock.h"
#include "storage/shmem.h"
#include "storage/spin.h"
#include "tcop/tcopprot.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"
#include "utils/varlena.h"

#include "compat.h"
#include "reading/horizon_tick.h"
#include "reading/tick_table.h"
#include "reading/ticker.h"

#define TICKER_TYPE "pg_uuidx ticker"
#define LAUNCHER_TYPE "pg_uuidx ticker launcher"

/* how often the launcher looks at its workers and the databases (ms) */
#define LAUNCHER_NAP_MS 1000
/* how often it looks again at a database that cannot be ticked (ms) */
#define LAUNCHER_RETRY_MS 10000
/* a worker wakes at least this often to see whether it must leave (ms) */
#define WORKER_NAP_MS 100

/* pg_uuidx.tick_interval (ms) and pg_uuidx.tick_databases */
static int	tick_interval_ms = 100;
static char *tick_databases = NULL;

PGDLLEXPORT void pg_uuidx_ticker_launcher(Datum arg);
PGDLLEXPORT void pg_uuidx_ticker(Datum arg);

/* a worker that runs, and its database */
typedef struct TickerWorker
{
	Oid			dboid;			/* InvalidOid: a free entry */
	int			pid;
} TickerWorker;

/*
 * The workers that run, in shared memory: one entry per database ticked,
 * taken by its worker as it starts and freed as it exits
 */
typedef struct TickerShared
{
	slock_t		mutex;			/* protects workers[] */
	int			nworkers;
	TickerWorker workers[FLEXIBLE_ARRAY_MEMBER];
} TickerShared;

static TickerShared *ticker_shared = NULL;
static TickerWorker *my_worker = NULL;	/* this worker's entry */
static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

/* a worker per background worker slot at most */
static Size
ticker_shmem_size(void)
{
	return add_size(offsetof(TickerShared, workers),
					mul_size(max_worker_processes, sizeof(TickerWorker)));
}

static void
ticker_shmem_request(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	RequestAddinShmemSpace(ticker_shmem_size());
}

static void
ticker_shmem_startup(void)
{
	bool		found;

	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	ticker_shared = ShmemInitStruct("pg_uuidx_ticker", ticker_shmem_size(), &found);
	if (!found)
	{
		SpinLockInit(&ticker_shared->mutex);
		ticker_shared->nworkers = max_worker_processes;
		for (int i = 0; i < ticker_shared->nworkers; i++)
		{
			ticker_shared->workers[i].dboid = InvalidOid;
			ticker_shared->workers[i].pid = 0;
		}
	}
	LWLockRelease(AddinShmemInitLock);
}

/*
 * The pid of the worker that runs for database dboid, or 0 when none does;
 * with claim, this process takes the entry when none does
 */
static int
ticker_worker_pid(Oid dboid, bool claim)
{
	TickerWorker *free = NULL;
	int			pid = 0;

	SpinLockAcquire(&ticker_shared->mutex);
	for (int i = 0; i < ticker_shared->nworkers && pid == 0; i++)
	{
		if (ticker_shared->workers[i].dboid == dboid)
			pid = ticker_shared->workers[i].pid;
		else if (free == NULL && ticker_shared->workers[i].dboid == InvalidOid)
			free = &ticker_shared->workers[i];
	}
	if (claim && pid == 0 && free != NULL)
	{
		free->dboid = dboid;
		free->pid = MyProcPid;
		my_worker = free;
	}
	SpinLockRelease(&ticker_shared->mutex);
	return pid;
}

/* on a worker's exit: its entry is free */
static void
ticker_worker_exit(int code, Datum arg)
{
	if (my_worker == NULL)
		return;
	SpinLockAcquire(&ticker_shared->mutex);
	my_worker->dboid = InvalidOid;
	my_worker->pid = 0;
	SpinLockRelease(&ticker_shared->mutex);
	my_worker = NULL;
}

/* the check hook of pg_uuidx.tick_databases: a list of names */
static bool
check_tick_databases(char **newval, void **extra, GucSource source)
{
	char	   *copy = pstrdup(*newval);
	List	   *names;
	bool		ok = SplitIdentifierString(copy, ',', &names);

	if (!ok)
		GUC_check_errdetail("List syntax is invalid.");
	list_free(names);
	pfree(copy);
	return ok;
}

/*
 * The databases pg_uuidx.tick_databases names, each once, as
 * SplitIdentifierString() reads them (unquoted names down-cased, quoted
 * ones as written), allocated in the current memory context
 */
static List *
listed_databases(void)
{
	List	   *names;
	List	   *result = NIL;
	ListCell   *lc;

	if (!SplitIdentifierString(pstrdup(tick_databases), ',', &names))
		return NIL;				/* the check hook has refused it */
	foreach(lc, names)
	{
		char	   *name = lfirst(lc);
		bool		seen = false;
		ListCell   *other;

		foreach(other, result)
			seen = seen || strcmp(lfirst(other), name) == 0;
		if (!seen)
			result = lappend(result, name);
	}
	return result;
}

/* whether pg_uuidx.tick_databases names database dbname */
static bool
database_listed(const char *dbname)
{
	MemoryContext context = AllocSetContextCreate(CurrentMemoryContext, "pg_uuidx ticker list",
												  ALLOCSET_SMALL_SIZES);
	MemoryContext old = MemoryContextSwitchTo(context);
	bool		listed = false;
	ListCell   *lc;

	foreach(lc, listed_databases())
		listed = listed || strcmp(lfirst(lc), dbname) == 0;
	MemoryContextSwitchTo(old);
	MemoryContextDelete(context);
	return listed;
}

/*
 * Whether another session holds, on database dboid, a lock that conflicts
 * with the one a new connection takes: DROP DATABASE, ALTER DATABASE ...
 * RENAME or SET TABLESPACE, CREATE DATABASE ... TEMPLATE, each of which
 * holds it while it waits for the other sessions to leave.
 * GetLockConflicts() reports the holders only, not those still waiting for
 * the lock: such a command is seen once it has the lock.
 */
static bool
database_wanted(Oid dboid)
{
	LOCKTAG		tag;
	int			n;

	SET_LOCKTAG_OBJECT(tag, InvalidOid, DatabaseRelationId, dboid, 0);
	pfree(GetLockConflicts(&tag, RowExclusiveLock, &n));
	return n > 0;
}

static void
worker_define(BackgroundWorker *w, const char *function, const char *type)
{
	memset(w, 0, sizeof(*w));
	w->bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
	w->bgw_start_time = BgWorkerStart_RecoveryFinished;
	snprintf(w->bgw_library_name, BGW_MAXLEN, "pg_uuidx");
	snprintf(w->bgw_function_name, BGW_MAXLEN, "%s", function);
	snprintf(w->bgw_type, BGW_MAXLEN, "%s", type);
}

/* why the launcher does not start a database's worker */
typedef enum TickerRefusal
{
	TICKER_STARTS,				/* none: it starts (or runs) */
	TICKER_NO_DATABASE,
	TICKER_NO_CONNECTIONS,		/* ALLOW_CONNECTIONS false */
	TICKER_INVALID_DATABASE,	/* an interrupted DROP DATABASE left it */
	TICKER_NO_SLOT,				/* no background worker slot free */
} TickerRefusal;

/* what the launcher keeps across its loops: its entries and their handles */
static MemoryContext launcher_context = NULL;

/* a database named in the list, and the worker the launcher started for it */
typedef struct TickerEntry
{
	char	   *dbname;
	BackgroundWorkerHandle *handle; /* NULL: none started by this launcher */
	TimestampTz next_start;		/* none started before this */
	TickerRefusal said;			/* said once why it does not run */
} TickerEntry;

/*
 * The entries for the databases listed now, keeping those of entries:
 * the workers of the databases no longer listed leave by themselves
 */
static List *
ticker_entries(List *entries)
{
	List	   *names = listed_databases();
	List	   *result = NIL;
	ListCell   *lc;
	MemoryContext old = MemoryContextSwitchTo(launcher_context);

	foreach(lc, names)
	{
		char	   *name = lfirst(lc);
		TickerEntry *e = NULL;
		ListCell   *kept;

		foreach(kept, entries)
			if (strcmp(((TickerEntry *) lfirst(kept))->dbname, name) == 0)
				e = lfirst(kept);
		if (e != NULL)
			entries = list_delete_ptr(entries, e);
		else
		{
			e = palloc0(sizeof(TickerEntry));
			e->dbname = pstrdup(name);
		}
		result = lappend(result, e);
	}
	foreach(lc, entries)
	{
		TickerEntry *e = lfirst(lc);

		if (e->handle != NULL)
			pfree(e->handle);
		pfree(e->dbname);
		pfree(e);
	}
	list_free(entries);
	MemoryContextSwitchTo(old);
	return result;
}

/*
 * Whether database dbname may be ticked, and its OID: it exists, accepts
 * connections and is valid.  get_database_oid() without the index, whose
 * descriptor a process connected to no database cannot build before the
 * shared relcache init file exists (a first start, a crash).
 */
static TickerRefusal
database_state(const char *dbname, Oid *dboid)
{
	Relation	rel = table_open(DatabaseRelationId, AccessShareLock);
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;
	TickerRefusal state = TICKER_NO_DATABASE;

	ScanKeyInit(&key, Anum_pg_database_datname, BTEqualStrategyNumber, F_NAMEEQ,
				CStringGetDatum(dbname));
	scan = systable_beginscan(rel, InvalidOid, false, NULL, 1, &key);
	if (HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		Form_pg_database db = (Form_pg_database) GETSTRUCT(tuple);

		*dboid = db->oid;
		state = PG_UUIDX_DATABASE_INVALID(db) ? TICKER_INVALID_DATABASE :
			!db->datallowconn ? TICKER_NO_CONNECTIONS : TICKER_STARTS;
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return state;
}

/* say, once until it changes, why e's worker does not start */
static void
ticker_refused(TickerEntry *e, TickerRefusal refusal)
{
	if (refusal == e->said)
		return;
	e->said = refusal;
	switch (refusal)
	{
		case TICKER_STARTS:
			break;
		case TICKER_NO_DATABASE:
			ereport(WARNING,
					(errcode(ERRCODE_UNDEFINED_DATABASE),
					 errmsg("database \"%s\" named in pg_uuidx.tick_databases does not exist", e->dbname),
					 errdetail("The ticker looks for it again every %d seconds.", LAUNCHER_RETRY_MS / 1000)));
			break;
		case TICKER_NO_CONNECTIONS:
			ereport(WARNING,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("database \"%s\" named in pg_uuidx.tick_databases does not allow connections", e->dbname),
					 errdetail("The ticker looks at it again every %d seconds.", LAUNCHER_RETRY_MS / 1000),
					 errhint("Allow connections with ALTER DATABASE %s WITH ALLOW_CONNECTIONS true, or take it off the list.",
							 quote_identifier(e->dbname))));
			break;
		case TICKER_INVALID_DATABASE:
			ereport(WARNING,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("database \"%s\" named in pg_uuidx.tick_databases is invalid", e->dbname),
					 errdetail("An interrupted DROP DATABASE left it, and no one may connect to it."),
					 errhint("Drop it with DROP DATABASE, or take it off the list.")));
			break;
		case TICKER_NO_SLOT:
			ereport(WARNING,
					(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
					 errmsg("could not start the pg_uuidx ticker for database \"%s\"", e->dbname),
					 errhint("Raise max_worker_processes: each database in pg_uuidx.tick_databases takes one.")));
			break;
	}
}

/*
 * Start e's worker unless one runs (this launcher's, or one an earlier
 * launcher started) or it may not now; loop_context is the current memory
 * context
 */
static void
ticker_start(TickerEntry *e, TimestampTz now, MemoryContext loop_context)
{
	BackgroundWorker w;
	pid_t		pid;
	Oid			dboid = InvalidOid;
	TickerRefusal refusal;
	bool		registered;

	if (e->handle != NULL)
	{
		if (GetBackgroundWorkerPid(e->handle, &pid) != BGWH_STOPPED)
			return;
		pfree(e->handle);
		e->handle = NULL;
		e->next_start = TimestampTzPlusMilliseconds(now, LAUNCHER_NAP_MS);
	}
	if (now < e->next_start)
		return;

	StartTransactionCommand();
	refusal = database_state(e->dbname, &dboid);
	CommitTransactionCommand();
	MemoryContextSwitchTo(loop_context);
	if (refusal != TICKER_STARTS)
	{
		ticker_refused(e, refusal);
		e->next_start = TimestampTzPlusMilliseconds(now, LAUNCHER_RETRY_MS);
		return;
	}
	if (ticker_worker_pid(dboid, false) != 0 || database_wanted(dboid))
		return;

	worker_define(&w, "pg_uuidx_ticker", TICKER_TYPE);
#ifdef BGWORKER_INTERRUPTIBLE
	w.bgw_flags |= BGWORKER_INTERRUPTIBLE;
#endif
	w.bgw_restart_time = BGW_NEVER_RESTART;
	w.bgw_main_arg = ObjectIdGetDatum(dboid);
	w.bgw_notify_pid = MyProcPid;
	snprintf(w.bgw_name, BGW_MAXLEN, "%s for database %s", TICKER_TYPE, e->dbname);
	/* the name it was listed under, to see whether it still is */
	strlcpy(w.bgw_extra, e->dbname, BGW_EXTRALEN);
	MemoryContextSwitchTo(launcher_context);
	registered = RegisterDynamicBackgroundWorker(&w, &e->handle);
	MemoryContextSwitchTo(loop_context);
	if (!registered)
	{
		e->handle = NULL;
		ticker_refused(e, TICKER_NO_SLOT);
		e->next_start = TimestampTzPlusMilliseconds(now, LAUNCHER_NAP_MS);
		return;
	}
	e->said = TICKER_STARTS;
}

/*
 * The launcher's entry point: start a worker for each database listed,
 * again when it stops, until the postmaster tells it to stop.  What it
 * allocates for one loop (the list read again at a reload, the catalog
 * lookups) goes into a context emptied at the next.
 */
void
pg_uuidx_ticker_launcher(Datum arg)
{
	List	   *entries = NIL;
	MemoryContext loop_context;
	uint32		wait_event;

	pqsignal(SIGHUP, SignalHandlerForConfigReload);
	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();
	BackgroundWorkerInitializeConnection(NULL, NULL, 0);
	wait_event = PG_UUIDX_WAIT_EVENT("PgUuidxTickerLauncherMain");
	launcher_context = AllocSetContextCreate(TopMemoryContext, LAUNCHER_TYPE, ALLOCSET_DEFAULT_SIZES);
	loop_context = AllocSetContextCreate(launcher_context, "pg_uuidx ticker launcher loop",
										 ALLOCSET_DEFAULT_SIZES);
	MemoryContextSwitchTo(loop_context);
	entries = ticker_entries(entries);

	for (;;)
	{
		TimestampTz now = GetCurrentTimestamp();
		ListCell   *lc;

		MemoryContextSwitchTo(loop_context);
		MemoryContextReset(loop_context);
		CHECK_FOR_INTERRUPTS();
		if (ConfigReloadPending)
		{
			ConfigReloadPending = false;
			ProcessConfigFile(PGC_SIGHUP);
			entries = ticker_entries(entries);
		}
		foreach(lc, entries)
			ticker_start(lfirst(lc), now, loop_context);
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 LAUNCHER_NAP_MS, wait_event);
		ResetLatch(MyLatch);
	}
}

/*
 * What a database's owner, or a role's, may set for it (ALTER DATABASE ...
 * SET), which this connection took up, set back for the ticker's
 * transactions: they write (default_transaction_read_only), in READ
 * COMMITTED (a serializable tick beside a concurrent pg_uuidx_tick() would
 * fail), wait for a lock as long as it is held (lock_timeout) and, on 17
 * and later, as long as a transaction takes (transaction_timeout), and
 * find no name in a schema the owner controls (search_path); and commit
 * without waiting for a synchronous standby (synchronous_commit), as
 * autovacuum does, so that an unreachable one cannot keep the worker in its
 * database (a tick needs its WAL on the primary only: standbys get it in
 * order).  statement_timeout and the idle timeouts apply to a client's
 * statements only.
 */
static void
ticker_settings(void)
{
	SetConfigOption("default_transaction_read_only", "off", PGC_SUSET, PGC_S_OVERRIDE);
	SetConfigOption("default_transaction_isolation", "read committed", PGC_SUSET, PGC_S_OVERRIDE);
	SetConfigOption("lock_timeout", "0", PGC_SUSET, PGC_S_OVERRIDE);
#ifdef PG_UUIDX_TRANSACTION_TIMEOUT
	SetConfigOption("transaction_timeout", "0", PGC_SUSET, PGC_S_OVERRIDE);
#endif
	SetConfigOption("search_path", "pg_catalog, pg_temp", PGC_SUSET, PGC_S_OVERRIDE);
	SetConfigOption("synchronous_commit", "local", PGC_SUSET, PGC_S_OVERRIDE);
	/* a tick's few small queries: no JIT compilation at each, whatever the owner sets */
	SetConfigOption("jit", "off", PGC_SUSET, PGC_S_OVERRIDE);
}

/*
 * Whether this database's tick table exists, locked as a tick writes it:
 * a DROP EXTENSION that committed while this waited for the lock is seen
 * (taking the lock reads the catalog's invalidations), and none can drop
 * it before the tick ends.
 */
static bool
tick_table_locked(void)
{
	Oid			relid = database_tick_table();

	while (OidIsValid(relid))
	{
		Oid			again;

		LockRelationOid(relid, RowExclusiveLock);
		if ((again = database_tick_table()) == relid)
			return true;
		UnlockRelationOid(relid, RowExclusiveLock);
		relid = again;
	}
	return false;
}

/* one tick when needed, in a transaction of its own; logs a change of what it did */
static void
tick_once(TickOutcome *last)
{
	TickOutcome outcome;

	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	PushActiveSnapshot(GetTransactionSnapshot());
	pgstat_report_activity(STATE_RUNNING, "pg_uuidx_tick()");
	outcome = tick_table_locked() ? tick_this_database() : TICK_NO_TABLE;
	if (outcome != *last && outcome == TICK_NO_TABLE)
		ereport(LOG,
				(errmsg("the pg_uuidx ticker of database \"%s\" waits for the extension pg_uuidx (1.6 or later)",
						get_database_name(MyDatabaseId))));
	else if (outcome != *last && outcome == TICK_SUBSCRIBED)
		ereport(LOG,
				(errmsg("the pg_uuidx ticker of database \"%s\" does not tick: a subscription writes pg_uuidx_last_tick",
						get_database_name(MyDatabaseId)),
				 errhint("The ticks of this database come from the publisher; tick there.")));
	*last = outcome;
	PopActiveSnapshot();
	CommitTransactionCommand();
	pgstat_report_stat(false);
	pgstat_report_activity(STATE_IDLE, NULL);
}

/*
 * A worker's entry point: tick database arg every pg_uuidx.tick_interval
 * (when a tick is needed), leaving when a command needs the database
 * without other sessions, when a reload takes it off the list, or at once
 * when another worker ticks it.
 */
void
pg_uuidx_ticker(Datum arg)
{
	Oid			dboid = DatumGetObjectId(arg);
	char		dbname[NAMEDATALEN];
	TimestampTz next_tick = 0;
	TickOutcome last = TICK_STORED;
	uint32		wait_event;
	int			other;

	strlcpy(dbname, MyBgworkerEntry->bgw_extra, sizeof(dbname));
	pqsignal(SIGHUP, SignalHandlerForConfigReload);
	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();
	/* taken off the list between the launcher's start and this one */
	if (!database_listed(dbname))
		proc_exit(0);
	on_shmem_exit(ticker_worker_exit, (Datum) 0);
	if ((other = ticker_worker_pid(dboid, true)) != 0)
	{
		ereport(LOG,
				(errmsg("the pg_uuidx ticker of database \"%s\" is already running under PID %d",
						dbname, other)));
		proc_exit(0);
	}
	BackgroundWorkerInitializeConnectionByOid(dboid, InvalidOid, 0);
	ticker_settings();
	pgstat_report_appname(TICKER_TYPE);
	wait_event = PG_UUIDX_WAIT_EVENT("PgUuidxTickerMain");

	for (;;)
	{
		TimestampTz now;
		long		nap;

		CHECK_FOR_INTERRUPTS();
		if (ConfigReloadPending)
		{
			ConfigReloadPending = false;
			ProcessConfigFile(PGC_SIGHUP);
			if (!database_listed(dbname))
			{
				ereport(LOG,
						(errmsg("the pg_uuidx ticker of database \"%s\" stops: pg_uuidx.tick_databases no longer names it",
								dbname)));
				proc_exit(0);
			}
		}
		if (database_wanted(dboid))
			proc_exit(0);
		now = GetCurrentTimestamp();
		if (now >= next_tick)
		{
			tick_once(&last);
			/* the next tick an interval after this one started */
			next_tick = TimestampTzPlusMilliseconds(Max(next_tick, now), tick_interval_ms);
			if (next_tick <= now)
				next_tick = TimestampTzPlusMilliseconds(now, tick_interval_ms);
			now = GetCurrentTimestamp();
		}
		nap = Min(WORKER_NAP_MS, TimestampDifferenceMilliseconds(now, next_tick));
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 Max(nap, 1), wait_event);
		ResetLatch(MyLatch);
	}
}

void
ticker_init_module(void)
{
	BackgroundWorker w;

	DefineCustomIntVariable("pg_uuidx.tick_interval",
							"How often the ticker records the commit horizon.",
							"In each database of pg_uuidx.tick_databases, when rows were written since "
							"the last tick; readers on standbys and subscribers trail the horizon by up "
							"to this much more.",
							&tick_interval_ms,
							100, 10, 3600 * 1000,
							PGC_SIGHUP,
							GUC_UNIT_MS,
							NULL, NULL, NULL);
	DefineCustomStringVariable("pg_uuidx.tick_databases",
							   "The databases the ticker records the commit horizon in.",
							   "A comma-separated list of database names; empty: no ticker. "
							   "Needs pg_uuidx in shared_preload_libraries.",
							   &tick_databases,
							   "",
							   PGC_SIGHUP,
							   GUC_LIST_INPUT,
							   check_tick_databases, NULL, NULL);

	if (!process_shared_preload_libraries_in_progress)
		return;
	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = ticker_shmem_request;
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = ticker_shmem_startup;
	worker_define(&w, "pg_uuidx_ticker_launcher", LAUNCHER_TYPE);
	w.bgw_restart_time = 1;
	snprintf(w.bgw_name, BGW_MAXLEN, "%s", LAUNCHER_TYPE);
	RegisterBackgroundWorker(&w);
}
