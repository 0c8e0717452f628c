/*
 * horizon_tick.c
 *		pg_uuidx_tick(): the commit horizon recorded in the table
 *		pg_uuidx_last_tick, and the readers' horizon from it on a standby or
 *		a logical subscriber.
 *
 * Owns the table pg_uuidx_last_tick (one row); may call horizon.c and
 * ticks.h.
 *
 * A standby and a subscriber know nothing of the primary's open
 * transactions, so they cannot compute a horizon; they can read one that
 * the primary recorded.  The tick's transaction computes the horizon H and
 * then commits.  Every row below H that will ever commit was visible when
 * H was computed, so its commit was written to the WAL before the tick's.
 * A standby replays the WAL in order and its snapshots see commits in that
 * order; a subscription applies the publisher's transactions in their
 * commit order.  A snapshot there that sees the tick sees every row below
 * it (docs/reading-in-order.md, "Readers on replicas", has the argument and
 * what breaks it).  On a subscriber that holds only when one subscription
 * carries both the ticks and the rows read: each subscription applies at
 * its own pace.  The readers check it.
 *
 * The right to tick is EXECUTE on pg_uuidx_tick(), not the right to write
 * a value: the function computes the horizon and writes it as the table's
 * owner, the only role that may write the table.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/relation.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xlog.h"
#include "catalog/dependency.h"
#include "catalog/indexing.h"
#include "catalog/partition.h"
#include "catalog/pg_class.h"
#include "catalog/pg_extension.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"

#include "compat.h"
#include "horizon.h"
#include "horizon_tick.h"
#include "ticks.h"

#define TICK_TABLE "pg_uuidx_last_tick"

/*
 * The table pg_uuidx_last_tick of the extension that owns function fn_oid,
 * found by that function's schema and checked to belong to the same
 * extension: no other role's object can take its place.
 */
static Oid
tick_table(Oid fn_oid)
{
	Oid			extension = getExtensionOfObject(ProcedureRelationId, fn_oid);
	Oid			relid = get_relname_relid(TICK_TABLE, get_func_namespace(fn_oid));

	if (!OidIsValid(extension) || !OidIsValid(relid) ||
		getExtensionOfObject(RelationRelationId, relid) != extension)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the table %s of extension pg_uuidx is missing", TICK_TABLE),
				 errhint("ALTER EXTENSION pg_uuidx UPDATE creates it.")));
	return relid;
}

/*
 * The table pg_uuidx_last_tick of this database's extension pg_uuidx, or
 * InvalidOid where there is none (no extension, or one from before 1.6):
 * found through the extension's schema and checked to be a member of it.
 */
static Oid
database_tick_table(void)
{
	Relation	extrel;
	ScanKeyData key;
	SysScanDesc extscan;
	HeapTuple	tuple;
	Oid			extension = InvalidOid;
	Oid			schema = InvalidOid;
	Oid			relid;

	extrel = table_open(ExtensionRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_extension_extname, BTEqualStrategyNumber, F_NAMEEQ,
				CStringGetDatum("pg_uuidx"));
	extscan = systable_beginscan(extrel, ExtensionNameIndexId, true, NULL, 1, &key);
	if (HeapTupleIsValid(tuple = systable_getnext(extscan)))
	{
		extension = ((Form_pg_extension) GETSTRUCT(tuple))->oid;
		schema = ((Form_pg_extension) GETSTRUCT(tuple))->extnamespace;
	}
	systable_endscan(extscan);
	table_close(extrel, AccessShareLock);

	relid = OidIsValid(schema) ? get_relname_relid(TICK_TABLE, schema) : InvalidOid;
	if (OidIsValid(relid) && getExtensionOfObject(RelationRelationId, relid) != extension)
		relid = InvalidOid;
	return relid;
}

static const char *
qualified_name(Oid relid)
{
	return quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
									  get_rel_name(relid));
}

/* A subscription of this database and what it writes */
typedef struct SubscriptionWrites
{
	char	   *name;
	bool		rows;			/* rows a reader reads */
	bool		ticks;			/* pg_uuidx_last_tick */
} SubscriptionWrites;

/*
 * The subscriptions of this database that write into one of tables, or
 * into a partitioned table above one of them (a subscription to the root
 * routes its rows there), or into tick_relid, in the order of their names.
 */
static List *
WritingSubscriptions(List *tables, Oid tick_relid)
{
	List	   *relids = NIL;
	Datum	   *elems;
	int			n = 0;
	ListCell   *lc;
	Oid			argtypes[3] = {OIDARRAYOID, OIDOID, OIDOID};
	Datum		args[3];
	List	   *writes = NIL;
	MemoryContext caller = CurrentMemoryContext;
	int			rc;

	foreach(lc, tables)
	{
		relids = lappend_oid(relids, lfirst_oid(lc));
		if (get_rel_relispartition(lfirst_oid(lc)))
			relids = list_concat(relids, get_partition_ancestors(lfirst_oid(lc)));
	}
	elems = palloc(sizeof(Datum) * (list_length(relids) + 1));
	foreach(lc, relids)
		elems[n++] = ObjectIdGetDatum(lfirst_oid(lc));
	args[0] = PointerGetDatum(construct_array(elems, n, OIDOID, sizeof(Oid), true, TYPALIGN_INT));
	args[1] = ObjectIdGetDatum(tick_relid);
	args[2] = ObjectIdGetDatum(MyDatabaseId);

	if ((rc = SPI_connect()) != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed: %s", SPI_result_code_string(rc));
	if ((rc = SPI_execute_with_args("SELECT s.subname, "
							  "EXISTS (SELECT FROM pg_catalog.pg_subscription_rel r "
							  "WHERE r.srsubid OPERATOR(pg_catalog.=) s.oid "
							  "AND r.srrelid OPERATOR(pg_catalog.=) ANY ($1)), "
							  "EXISTS (SELECT FROM pg_catalog.pg_subscription_rel r "
							  "WHERE r.srsubid OPERATOR(pg_catalog.=) s.oid "
							  "AND r.srrelid OPERATOR(pg_catalog.=) $2) "
							  "FROM pg_catalog.pg_subscription s "
							  "WHERE s.subdbid OPERATOR(pg_catalog.=) $3 ORDER BY 1",
							  3, argtypes, args, NULL, true, 0)) != SPI_OK_SELECT)
		elog(ERROR, "SPI_execute_with_args failed on pg_subscription_rel: %s", SPI_result_code_string(rc));
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		HeapTuple	tuple = SPI_tuptable->vals[i];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		bool		isnull;
		bool		rows = DatumGetBool(SPI_getbinval(tuple, desc, 2, &isnull));
		bool		ticks = DatumGetBool(SPI_getbinval(tuple, desc, 3, &isnull));
		MemoryContext old;
		SubscriptionWrites *w;

		if (!rows && !ticks)
			continue;
		/* outlives SPI_finish() */
		old = MemoryContextSwitchTo(caller);
		w = palloc(sizeof(SubscriptionWrites));
		w->name = SPI_getvalue(tuple, desc, 1);
		w->rows = rows;
		w->ticks = ticks;
		writes = lappend(writes, w);
		MemoryContextSwitchTo(old);
	}
	SPI_finish();
	return writes;
}

/*
 * Whether a subscription writes rows that a reader of relid reads (from
 * tables: ReadRelations() in read_after.c).  Such a reader reads up to the
 * tick, which covers those rows only when the subscription that writes them
 * also writes the tick and no other subscription does: else refuse.
 */
static bool
SubscribedWithTicks(Oid relid, List *tables, Oid tick_relid, const char *caller)
{
	SubscriptionWrites *rows = NULL;
	SubscriptionWrites *rows_only = NULL;
	SubscriptionWrites *ticks = NULL;
	SubscriptionWrites *ticks_too = NULL;
	ListCell   *lc;

	foreach(lc, WritingSubscriptions(tables, tick_relid))
	{
		SubscriptionWrites *w = lfirst(lc);

		if (w->rows && rows == NULL)
			rows = w;
		if (w->rows && !w->ticks && rows_only == NULL)
			rows_only = w;
		if (w->ticks && ticks != NULL && ticks_too == NULL)
			ticks_too = w;
		if (w->ticks && ticks == NULL)
			ticks = w;
	}
	if (rows == NULL)
		return false;
	if (rows_only != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("%s cannot read %s up to a tick: subscription \"%s\" writes its rows but not %s",
						caller, qualified_name(relid), rows_only->name, TICK_TABLE),
				 ticks != NULL ?
				 errdetail("The ticks come from subscription \"%s\". Each subscription applies the publisher's transactions at its own pace, so a tick can arrive before rows below it.",
						   ticks->name) :
				 errdetail("No subscription writes %s, so no tick of the publisher reaches this database.",
						   TICK_TABLE),
				 errhint("Add %s to a publication of subscription \"%s\" on the publisher and run ALTER SUBSCRIPTION %s REFRESH PUBLICATION here; no other subscription may carry it.",
						 TICK_TABLE, rows_only->name, quote_identifier(rows_only->name))));
	if (ticks_too != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("%s cannot read %s up to a tick: subscriptions \"%s\" and \"%s\" both write %s",
						caller, qualified_name(relid), ticks->name, ticks_too->name, TICK_TABLE),
				 errdetail("Subscription \"%s\" writes the rows read. A tick that another subscription applies can arrive before rows below it.",
						   rows->name),
				 errhint("Keep %s in the publications of one subscription only: the one that writes the rows read.",
						 TICK_TABLE)));
	return true;
}

static TimestampTz
timestamptz_from_horizon(int64 horizon_us)
{
	TimestampTz ts;

	if (horizon_us == HORIZON_LOWEST)
		TIMESTAMP_NOBEGIN(ts);
	else
		ts = horizon_us - UNIX_TO_PG_EPOCH_US;
	return ts;
}

static int64
horizon_from_timestamptz(TimestampTz ts)
{
	return TIMESTAMP_NOT_FINITE(ts) ? HORIZON_LOWEST : ts + UNIX_TO_PG_EPOCH_US;
}

int64
tick_horizon_us(Oid fn_oid, bool published, const char *caller)
{
	Oid			relid = tick_table(fn_oid);
	StringInfoData query;
	TimestampTz ts = 0;
	int64		system_identifier = 0;
	bool		found;
	bool		isnull;
	int			rc;

	initStringInfo(&query);
	appendStringInfo(&query, "SELECT horizon, system_identifier FROM %s", qualified_name(relid));
	if ((rc = SPI_connect()) != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed: %s", SPI_result_code_string(rc));
	if ((rc = SPI_execute(query.data, true, 0)) != SPI_OK_SELECT)
		elog(ERROR, "SPI_execute failed on %s: %s", TICK_TABLE, SPI_result_code_string(rc));
	found = SPI_processed == 1;
	if (found)
	{
		ts = DatumGetTimestampTz(SPI_getbinval(SPI_tuptable->vals[0],
											   SPI_tuptable->tupdesc, 1, &isnull));
		system_identifier = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0],
														SPI_tuptable->tupdesc, 2, &isnull));
	}
	SPI_finish();
	if (found && published && system_identifier == (int64) GetSystemIdentifier())
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("%s cannot read up to a tick made on this server", caller),
				 errdetail("A subscription writes into the table, so its rows are read up to the publisher's tick; the newest one in %s was made here, by pg_uuidx_tick().",
						   TICK_TABLE),
				 errhint("Stop calling pg_uuidx_tick() here, add %s to the publication of the table, or pass from_tick => false to read up to this server's own horizon.",
						 TICK_TABLE)));
	if (!found)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("%s has no tick to read up to", caller),
				 errdetail("The table %s is empty in this database.", TICK_TABLE),
				 errhint("Call pg_uuidx_tick() on the primary regularly; a logical subscriber needs %s in the same publication and subscription as the data.",
						 TICK_TABLE)));
	return horizon_from_timestamptz(ts);
}

int64
reader_horizon_us(Oid fn_oid, Oid relid, List *tables, int from_tick, const char *caller)
{
	bool		published;

	if (from_tick == 0)
		return horizon_live_us(caller);
	published = SubscribedWithTicks(relid, tables, tick_table(fn_oid), caller);
	if (published || from_tick > 0 || RecoveryInProgress())
		return tick_horizon_us(fn_oid, published, caller);
	return horizon_live_us(caller);
}

/*
 * Store horizon (and the time and this server) in the tick table relid,
 * never lowering the horizon stored, as the table's owner: the only role
 * that may write it.  Returns the horizon the table holds now.
 */
static TimestampTz
StoreTick(Oid relid, TimestampTz horizon)
{
	Relation	rel = relation_open(relid, RowExclusiveLock);
	Oid			owner = rel->rd_rel->relowner;
	Oid			save_userid;
	int			save_sec_context;
	StringInfoData query;
	Oid			argtypes[3] = {TIMESTAMPTZOID, TIMESTAMPTZOID, INT8OID};
	Datum		args[3];
	TimestampTz stored = 0;

	relation_close(rel, NoLock);
	args[0] = TimestampTzGetDatum(horizon);
	args[1] = TimestampTzGetDatum(GetCurrentTimestamp());
	args[2] = Int64GetDatum((int64) GetSystemIdentifier());
	initStringInfo(&query);
	appendStringInfo(&query,
					 "INSERT INTO %s (one, horizon, ticked_at, system_identifier) VALUES (true, $1, $2, $3) "
					 "ON CONFLICT (one) DO UPDATE SET "
					 "horizon = GREATEST(%s.horizon, EXCLUDED.horizon), ticked_at = EXCLUDED.ticked_at, "
					 "system_identifier = EXCLUDED.system_identifier "
					 "RETURNING horizon",
					 qualified_name(relid), qualified_name(relid));

	GetUserIdAndSecContext(&save_userid, &save_sec_context);
	SetUserIdAndSecContext(owner, save_sec_context | SECURITY_LOCAL_USERID_CHANGE |
						   SECURITY_RESTRICTED_OPERATION);
	PG_TRY();
	{
		bool		isnull;
		int			rc;

		if ((rc = SPI_connect()) != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed: %s", SPI_result_code_string(rc));
		if ((rc = SPI_execute_with_args(query.data, 3, argtypes, args, NULL, false, 1)) != SPI_OK_INSERT_RETURNING ||
			SPI_processed != 1)
			elog(ERROR, "SPI_execute_with_args failed on %s: %s, %llu rows", TICK_TABLE,
				 SPI_result_code_string(rc), (unsigned long long) SPI_processed);
		stored = DatumGetTimestampTz(SPI_getbinval(SPI_tuptable->vals[0],
												   SPI_tuptable->tupdesc, 1, &isnull));
		SPI_finish();
	}
	PG_FINALLY();
	{
		SetUserIdAndSecContext(save_userid, save_sec_context);
	}
	PG_END_TRY();
	return stored;
}

/* whether a subscription of this database writes the tick table relid */
static bool
ticks_subscribed(Oid relid)
{
	ListCell   *lc;

	foreach(lc, WritingSubscriptions(NIL, relid))
		if (((SubscriptionWrites *) lfirst(lc))->ticks)
			return true;
	return false;
}

PG_FUNCTION_INFO_V1(pg_uuidx_tick);

/*
 * pg_uuidx_tick() -> timestamptz: record the commit horizon in
 * pg_uuidx_last_tick (never lowering the one recorded) and return the
 * horizon the table holds now.  Its transaction commits after every row
 * below that horizon.  Whoever may EXECUTE it may tick; the value is never
 * the caller's.
 */
Datum
pg_uuidx_tick(PG_FUNCTION_ARGS)
{
	Oid			relid;

	if (RecoveryInProgress())
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("recovery is in progress"),
				 errdetail("pg_uuidx_tick() writes a tick, and a standby cannot write."),
				 errhint("Call it on the primary: its ticks reach the standbys with the WAL.")));
	relid = tick_table(fcinfo->flinfo->fn_oid);
	if (ticks_subscribed(relid))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("pg_uuidx_tick() cannot be used where a subscription writes %s", TICK_TABLE),
				 errdetail("The ticks of this database come from the publisher; a tick made here would hold this server's horizon, not the publisher's."),
				 errhint("Call it on the publisher.")));

	PG_RETURN_TIMESTAMPTZ(StoreTick(relid, timestamptz_from_horizon(horizon_live_us("pg_uuidx_tick()"))));
}

TickOutcome
tick_this_database(void)
{
	Oid			relid = database_tick_table();

	if (!OidIsValid(relid))
		return TICK_NO_TABLE;
	if (ticks_subscribed(relid))
		return TICK_SUBSCRIBED;
	StoreTick(relid, timestamptz_from_horizon(horizon_live_us("the pg_uuidx ticker")));
	return TICK_STORED;
}

/*
 * The newest tick stored in this database (Unix us), or HORIZON_LOWEST
 * where there is none: no extension pg_uuidx, no table of its own (before
 * 1.6), or an empty one.  Read without the caller's privileges: it is the
 * extension's own table, found through the extension's schema and checked
 * to be a member of it.
 */
int64
stored_tick_us(void)
{
	Oid			relid = database_tick_table();
	int64		newest = HORIZON_LOWEST;

	if (OidIsValid(relid))
	{
		Relation	rel = table_open(relid, AccessShareLock);
		AttrNumber	attnum = get_attnum(relid, "horizon");
		Snapshot	snapshot = ActiveSnapshotSet() ? GetActiveSnapshot() : GetTransactionSnapshot();
		TableScanDesc scan = PG_UUIDX_TABLE_BEGINSCAN(rel, snapshot);
		TupleTableSlot *slot = table_slot_create(rel, NULL);

		while (attnum > 0 && table_scan_getnextslot(scan, ForwardScanDirection, slot))
		{
			bool		isnull;
			Datum		value = slot_getattr(slot, attnum, &isnull);

			if (!isnull)
				newest = Max(newest, horizon_from_timestamptz(DatumGetTimestampTz(value)));
		}
		ExecDropSingleTupleTableSlot(slot);
		table_endscan(scan);
		table_close(rel, AccessShareLock);
	}
	return newest;
}
