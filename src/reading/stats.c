/*
 * stats.c
 *		pg_uuidx_stats_state() and pg_uuidx_guarded_tables(): what the views
 *		pg_uuidx_stats and pg_uuidx_table_stats read from the commit
 *		horizon's shared state and from the tables' guards.
 *
 * Owns these functions; may call horizon.h, guard.h and read_after.h.
 *
 * Both must answer whatever state the horizon and the tables are in, for
 * any role: they are the first place to look when reading stalls.  So the
 * horizon held at its lowest is -infinity here, not an error; the view does
 * no arithmetic on it.  A table that its readers refuse (a child without
 * its guard, a guard declared otherwise) is listed with the reason instead
 * of failing the view: each table is looked at in a subtransaction of its
 * own, which is rolled back whatever happened, so that the locks it took
 * (the reader's, ACCESS SHARE) end with it and the query holds none of the
 * tables.  Nothing is read from the tables: only their names, the
 * allowances of their guards and times.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/pg_trigger.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "storage/lmgr.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/resowner.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"

#include "reading/guard.h"
#include "reading/horizon.h"
#include "reading/read_after.h"
#include "reading/tick_table.h"

PG_FUNCTION_INFO_V1(pg_uuidx_stats_state);

/*
 * pg_uuidx_stats_state() -> (horizon, floor, refusals, lowest_pids,
 * lowest_xids): the live horizon of this database for a reader of tables
 * whose guards allow 0 ms (-infinity: held at its lowest), the floor it was
 * computed from, the ids the guard refused in this database since the
 * shared state was made (a start or a crash), and the sessions and prepared
 * transactions that hold the horizon at its lowest; NULLs on a standby and
 * where there is no state (15 and 16 without shared_preload_libraries).
 */
Datum
pg_uuidx_stats_state(PG_FUNCTION_ARGS)
{
	TupleDesc	desc;
	Datum		values[5] = {0};
	bool		nulls[5] = {true, true, true, true, true};
	int64		horizon_us;
	int64		floor_us;
	uint64		refusals;
	List	   *lowest;

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	if (horizon_stats(&horizon_us, &floor_us, &refusals, &lowest))
	{
		Datum	   *pids = palloc(sizeof(Datum) * (list_length(lowest) + 1));
		Datum	   *xids = palloc(sizeof(Datum) * (list_length(lowest) + 1));
		int			npids = 0;
		int			nxids = 0;
		ListCell   *lc;

		foreach(lc, lowest)
		{
			HorizonHolder *holder = lfirst(lc);

			if (holder->pid != 0)
				pids[npids++] = Int32GetDatum(holder->pid);
			else
				xids[nxids++] = TransactionIdGetDatum(holder->xid);
		}
		values[0] = TimestampTzGetDatum(timestamptz_from_horizon(horizon_us));
		values[1] = TimestampTzGetDatum(timestamptz_from_horizon(floor_us));
		values[2] = Int64GetDatum((int64) refusals);
		values[3] = PointerGetDatum(construct_array(pids, npids, INT4OID, sizeof(int32), true, TYPALIGN_INT));
		values[4] = PointerGetDatum(construct_array(xids, nxids, XIDOID, sizeof(TransactionId), true,
													TYPALIGN_INT));
		memset(nulls, false, sizeof(nulls));
	}
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(desc, values, nulls)));
}

/*
 * The tables that carry a trigger of guardfn (enabled or not, of any
 * form), partitions left out: they carry their partitioned table's guards,
 * and a reader of one alone reads with at most its allowance.
 */
static List *
guard_tables(Oid guardfn)
{
	Relation	triggers = table_open(TriggerRelationId, AccessShareLock);
	SysScanDesc scan = systable_beginscan(triggers, InvalidOid, false, NULL, 0, NULL);
	List	   *relids = NIL;
	HeapTuple	tuple;

	while (HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		Form_pg_trigger trigger = (Form_pg_trigger) GETSTRUCT(tuple);

		if (trigger->tgfoid == guardfn && !list_member_oid(relids, trigger->tgrelid) &&
			!get_rel_relispartition(trigger->tgrelid))
			relids = lappend_oid(relids, trigger->tgrelid);
	}
	systable_endscan(scan);
	table_close(triggers, AccessShareLock);
	return relids;
}

/* what a reader of a table would read it with, or why it refuses it */
typedef struct TableRead
{
	bool		listed;			/* it has an enabled guard: it can be read */
	int			allowance_ms;	/* its readers' allowance, or -1 */
	char	   *problem;		/* why they refuse it, or NULL */
} TableRead;

/*
 * What a reader of relid would read it with (read_after_allowance()), in a
 * subtransaction that is rolled back, errors or not: an error becomes the
 * problem, the locks end here.  A cancel is not caught.
 */
static TableRead
table_read(Oid relid, Oid guardfn)
{
	MemoryContext caller = CurrentMemoryContext;
	ResourceOwner owner = CurrentResourceOwner;
	TableRead	read = {false, -1, NULL};

	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(caller);
	PG_TRY();
	{
		List	   *tables;

		LockRelationOid(relid, AccessShareLock);
		/* gone since the catalog was read: not listed */
		if (SearchSysCacheExists1(RELOID, ObjectIdGetDatum(relid)) && guard_enabled_on(relid, guardfn))
		{
			read.listed = true;
			read.allowance_ms = read_after_allowance("pg_uuidx_guarded_tables()", relid, guardfn, &tables);
		}
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(caller);
		edata = CopyErrorData();
		if (edata->sqlerrcode == ERRCODE_QUERY_CANCELED)
			PG_RE_THROW();
		FlushErrorState();
		read.listed = true;
		read.allowance_ms = -1;
		read.problem = edata->message;
	}
	PG_END_TRY();
	RollbackAndReleaseCurrentSubTransaction();
	MemoryContextSwitchTo(caller);
	CurrentResourceOwner = owner;
	return read;
}

PG_FUNCTION_INFO_V1(pg_uuidx_guarded_tables);

/*
 * pg_uuidx_guarded_tables() -> SETOF (relid, allowance, problem): each table
 * that its readers may read, having an enabled guard (of this
 * installation's pg_uuidx_horizon_guard()), partitions left out, with the
 * allowance they read it with (the greatest of its guards' and of those of
 * the tables under it), or NULL and why they refuse to read it.
 */
Datum
pg_uuidx_guarded_tables(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Oid			guardfn = guard_function(fcinfo->flinfo->fn_oid);
	ListCell   *lc;

	InitMaterializedSRF(fcinfo, 0);
	if (!OidIsValid(guardfn))
		return (Datum) 0;
	foreach(lc, guard_tables(guardfn))
	{
		Oid			relid = lfirst_oid(lc);
		TableRead	read = table_read(relid, guardfn);
		Datum		values[3];
		bool		nulls[3] = {false, read.allowance_ms < 0, read.problem == NULL};

		if (!read.listed)
			continue;
		values[0] = ObjectIdGetDatum(relid);
		if (read.allowance_ms >= 0)
		{
			Interval   *allowance = palloc0(sizeof(Interval));

			allowance->time = (int64) read.allowance_ms * USECS_PER_SEC / 1000;
			values[1] = IntervalPGetDatum(allowance);
		}
		values[2] = read.problem ? CStringGetTextDatum(read.problem) : (Datum) 0;
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
