/*
 * ticker.c
 *		The ticker: background workers that call what pg_uuidx_tick() does,
 *		every pg_uuidx.tick_interval, in the databases named by
 *		pg_uuidx.tick_databases, so that readers on standbys and logical
 *		subscribers need no scheduler outside the server.
 *
 * Owns the settings pg_uuidx.tick_interval and pg_uuidx.tick_databases and
 * the workers; may call horizon_tick.h.
 *
 * With pg_uuidx in shared_preload_libraries, a launcher ("pg_uuidx ticker
 * launcher" in pg_stat_activity), connected to no database, starts out of
 * recovery (on a standby: at its promotion).  It starts one worker ("pg_uuidx
 * ticker") per named database that exists, starts it again a second after
 * it stops for any reason (an error, pg_terminate_backend()), and stops the
 * workers of databases taken off the list at a reload.  After a crash the
 * postmaster starts the launcher again.
 *
 * A worker stays connected to its database, which would block DROP
 * DATABASE, ALTER DATABASE ... RENAME or SET TABLESPACE and CREATE
 * DATABASE ... TEMPLATE (each waits five seconds for the other sessions to
 * leave, then fails).  Each takes a lock on the database that conflicts
 * with the one a new connection takes, first; a worker that sees such a
 * lock leaves, and the launcher starts none while it is held.  On 19 the
 * workers are also BGWORKER_INTERRUPTIBLE, so those commands end them.
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
#include "storage/lock.h"
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
#include "horizon_tick.h"
#include "ticker.h"

#define TICKER_TYPE "pg_uuidx ticker"
#define LAUNCHER_TYPE "pg_uuidx ticker launcher"

/* how often the launcher looks at its workers and the databases (ms) */
#define LAUNCHER_NAP_MS 1000
/* a worker wakes at least this often to see whether it must leave (ms) */
#define WORKER_NAP_MS 100

/* pg_uuidx.tick_interval (ms) and pg_uuidx.tick_databases */
static int	tick_interval_ms = 100;
static char *tick_databases = NULL;

PGDLLEXPORT void pg_uuidx_ticker_launcher(Datum arg);
PGDLLEXPORT void pg_uuidx_ticker(Datum arg);

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
 * Whether another session holds or awaits, on database dboid, a lock that
 * conflicts with the one a new connection takes: DROP DATABASE, ALTER
 * DATABASE ... RENAME or SET TABLESPACE, CREATE DATABASE ... TEMPLATE.
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

/* what the launcher keeps: its entries and their handles */
static MemoryContext launcher_context = NULL;

/* a worker of the launcher and the database it ticks */
typedef struct TickerEntry
{
	char	   *dbname;
	Oid			dboid;			/* InvalidOid: not known to exist */
	BackgroundWorkerHandle *handle; /* NULL: none started */
	TimestampTz next_start;		/* not started again before this */
	bool		warned;			/* said once why it does not run */
} TickerEntry;

/*
 * The entries for the databases named now, keeping those of entries
 * (stopping the workers of names no longer listed)
 */
static List *
ticker_entries(List *entries)
{
	char	   *copy = pstrdup(tick_databases);
	List	   *names;
	List	   *result = NIL;
	ListCell   *lc;

	if (!SplitIdentifierString(copy, ',', &names))
		names = NIL;			/* the check hook has refused it */
	foreach(lc, names)
	{
		char	   *name = lfirst(lc);
		TickerEntry *e = NULL;
		ListCell   *old;

		foreach(old, entries)
			if (strcmp(((TickerEntry *) lfirst(old))->dbname, name) == 0)
				e = lfirst(old);
		if (e != NULL)
		{
			entries = list_delete_ptr(entries, e);
			result = lappend(result, e);
			continue;
		}
		e = palloc0(sizeof(TickerEntry));
		e->dbname = pstrdup(name);
		result = lappend(result, e);
	}
	foreach(lc, entries)
	{
		TickerEntry *e = lfirst(lc);

		if (e->handle != NULL)
			TerminateBackgroundWorker(e->handle);
	}
	return result;
}

/*
 * The database named dbname, or InvalidOid: get_database_oid() without the
 * index, whose descriptor a process connected to no database cannot build
 * before the shared relcache init file exists (a first start, a crash)
 */
static Oid
database_oid(const char *dbname)
{
	Relation	rel = table_open(DatabaseRelationId, AccessShareLock);
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;
	Oid			dboid = InvalidOid;

	ScanKeyInit(&key, Anum_pg_database_datname, BTEqualStrategyNumber, F_NAMEEQ,
				CStringGetDatum(dbname));
	scan = systable_beginscan(rel, InvalidOid, false, NULL, 1, &key);
	if (HeapTupleIsValid(tuple = systable_getnext(scan)))
		dboid = ((Form_pg_database) GETSTRUCT(tuple))->oid;
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return dboid;
}

/* start e's worker, or find why not now */
static void
ticker_start(TickerEntry *e, TimestampTz now)
{
	BackgroundWorker w;
	pid_t		pid;

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
	e->dboid = database_oid(e->dbname);
	CommitTransactionCommand();
	MemoryContextSwitchTo(launcher_context);
	if (!OidIsValid(e->dboid))
	{
		if (!e->warned)
			ereport(WARNING,
					(errcode(ERRCODE_UNDEFINED_DATABASE),
					 errmsg("database \"%s\" named in pg_uuidx.tick_databases does not exist", e->dbname)));
		e->warned = true;
		return;
	}
	if (database_wanted(e->dboid))
		return;

	worker_define(&w, "pg_uuidx_ticker", TICKER_TYPE);
#ifdef BGWORKER_INTERRUPTIBLE
	w.bgw_flags |= BGWORKER_INTERRUPTIBLE;
#endif
	w.bgw_restart_time = BGW_NEVER_RESTART;
	w.bgw_main_arg = ObjectIdGetDatum(e->dboid);
	w.bgw_notify_pid = MyProcPid;
	snprintf(w.bgw_name, BGW_MAXLEN, "%s for database %s", TICKER_TYPE, e->dbname);
	if (!RegisterDynamicBackgroundWorker(&w, &e->handle))
	{
		e->handle = NULL;
		if (!e->warned)
			ereport(WARNING,
					(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
					 errmsg("could not start the pg_uuidx ticker for database \"%s\"", e->dbname),
					 errhint("Raise max_worker_processes: each database in pg_uuidx.tick_databases takes one.")));
		e->warned = true;
		return;
	}
	e->warned = false;
}

/*
 * The launcher's entry point: start a worker for each database named,
 * again when it stops, until the postmaster tells it to stop.
 */
void
pg_uuidx_ticker_launcher(Datum arg)
{
	List	   *entries = NIL;

	pqsignal(SIGHUP, SignalHandlerForConfigReload);
	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();
	BackgroundWorkerInitializeConnection(NULL, NULL, 0);
	launcher_context = AllocSetContextCreate(TopMemoryContext, LAUNCHER_TYPE, ALLOCSET_DEFAULT_SIZES);
	MemoryContextSwitchTo(launcher_context);
	entries = ticker_entries(entries);

	for (;;)
	{
		TimestampTz now = GetCurrentTimestamp();
		ListCell   *lc;

		CHECK_FOR_INTERRUPTS();
		if (ConfigReloadPending)
		{
			ConfigReloadPending = false;
			ProcessConfigFile(PGC_SIGHUP);
			entries = ticker_entries(entries);
		}
		foreach(lc, entries)
			ticker_start(lfirst(lc), now);
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 LAUNCHER_NAP_MS, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
}

/* one tick, in a transaction of its own; logs a change of what it did */
static void
tick_once(TickOutcome *last)
{
	TickOutcome outcome;

	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	PushActiveSnapshot(GetTransactionSnapshot());
	pgstat_report_activity(STATE_RUNNING, "pg_uuidx_tick()");
	outcome = tick_this_database();
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
 * A worker's entry point: tick database arg every pg_uuidx.tick_interval,
 * leaving when a command needs the database without other sessions.
 */
void
pg_uuidx_ticker(Datum arg)
{
	Oid			dboid = DatumGetObjectId(arg);
	TimestampTz next_tick = 0;
	TickOutcome last = TICK_STORED;

	pqsignal(SIGHUP, SignalHandlerForConfigReload);
	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();
	BackgroundWorkerInitializeConnectionByOid(dboid, InvalidOid, 0);
	pgstat_report_appname(TICKER_TYPE);

	for (;;)
	{
		TimestampTz now;
		long		nap;

		CHECK_FOR_INTERRUPTS();
		if (ConfigReloadPending)
		{
			ConfigReloadPending = false;
			ProcessConfigFile(PGC_SIGHUP);
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
						 Max(nap, 1), PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
}

void
ticker_init_module(void)
{
	BackgroundWorker w;

	DefineCustomIntVariable("pg_uuidx.tick_interval",
							"How often the ticker records the commit horizon.",
							"In each database of pg_uuidx.tick_databases; readers on standbys and "
							"subscribers trail the horizon by up to this much more.",
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
	worker_define(&w, "pg_uuidx_ticker_launcher", LAUNCHER_TYPE);
	w.bgw_restart_time = 1;
	snprintf(w.bgw_name, BGW_MAXLEN, "%s", LAUNCHER_TYPE);
	RegisterBackgroundWorker(&w);
}
