/*
 * horizon_tick.c
 *		pg_uuidx_tick(): the commit horizon recorded in the table
 *		pg_uuidx_last_tick, and the readers' horizon from it on a standby or
 *		a logical subscriber.
 *
 * Owns where a reader's horizon comes from (the live horizon or the newest
 * tick), pg_uuidx_tick(), uuidv7_horizon() and uuidv6_horizon(), and the
 * check that a subscription carries the ticks with the rows; may call
 * horizon.h, cluster.h, saved_plans.h and tick_table.h.
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

#include "access/xlog.h"
#include "catalog/partition.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "compat.h"
#include "ids/id_time.h"
#include "reading/cluster.h"
#include "reading/horizon.h"
#include "reading/horizon_tick.h"
#include "reading/saved_plans.h"
#include "reading/tick_table.h"

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
	if ((rc = saved_plan_execute("SELECT s.subname, "
								 "EXISTS (SELECT FROM pg_catalog.pg_subscription_rel r "
								 "WHERE r.srsubid OPERATOR(pg_catalog.=) s.oid "
								 "AND r.srrelid OPERATOR(pg_catalog.=) ANY ($1)), "
								 "EXISTS (SELECT FROM pg_catalog.pg_subscription_rel r "
								 "WHERE r.srsubid OPERATOR(pg_catalog.=) s.oid "
								 "AND r.srrelid OPERATOR(pg_catalog.=) $2) "
								 "FROM pg_catalog.pg_subscription s "
								 "WHERE s.subdbid OPERATOR(pg_catalog.=) $3 ORDER BY 1",
								 3, argtypes, 0, args, NULL, true, 0)) != SPI_OK_SELECT)
		elog(ERROR, "SPI_execute_plan failed on pg_subscription_rel: %s", SPI_result_code_string(rc));
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
						caller, tick_qualified_name(relid), rows_only->name, TICK_TABLE),
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
						caller, tick_qualified_name(relid), ticks->name, ticks_too->name, TICK_TABLE),
				 errdetail("Subscription \"%s\" writes the rows read. A tick that another subscription applies can arrive before rows below it.",
						   rows->name),
				 errhint("Keep %s in the publications of one subscription only: the one that writes the rows read.",
						 TICK_TABLE)));
	return true;
}

int64
tick_horizon_us(Oid fn_oid, const GuardAllowance *allowance, bool published, const char *caller)
{
	Oid			relid = tick_table(fn_oid);
	bool		exact_too = allowance != NULL && !allowance->setting && tick_has_exact(relid);
	StringInfoData query;
	int64		horizon = HORIZON_LOWEST;
	int64		system_identifier = 0;
	bool		found;
	int			rc;

	initStringInfo(&query);

	/*
	 * A tick stores the horizon of uuidv7_horizon(), whose allowance is the
	 * most a guard's can be, and from 1.7 the horizon at no allowance with
	 * the floor it started from (NULL when a library of 1.6 ticked)
	 */
	appendStringInfo(&query, "SELECT horizon, system_identifier%s FROM %s",
					 exact_too ? ", exact_horizon, horizon_floor" : "", tick_qualified_name(relid));
	if ((rc = SPI_connect()) != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed: %s", SPI_result_code_string(rc));
	if ((rc = SPI_execute(query.data, true, 0)) != SPI_OK_SELECT)
		elog(ERROR, "SPI_execute failed on %s: %s", TICK_TABLE, SPI_result_code_string(rc));
	found = SPI_processed == 1;
	if (found)
	{
		HeapTuple	row = SPI_tuptable->vals[0];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		bool		isnull;
		bool		exact_null = true;
		bool		floor_null = true;
		int64		exact = 0;
		int64		floor = 0;

		horizon = horizon_from_timestamptz(DatumGetTimestampTz(SPI_getbinval(row, desc, 1, &isnull)));
		system_identifier = DatumGetInt64(SPI_getbinval(row, desc, 2, &isnull));
		if (exact_too)
		{
			exact = horizon_from_timestamptz(DatumGetTimestampTz(SPI_getbinval(row, desc, 3, &exact_null)));
			floor = horizon_from_timestamptz(DatumGetTimestampTz(SPI_getbinval(row, desc, 4, &floor_null)));
		}

		/*
		 * Guards whose allowance arguments are at most A (each is capped by
		 * the primary's setting, so A is at least theirs there): the lesser
		 * of exact and the floor less A, as horizon_compute() at A
		 */
		if (!exact_null && !floor_null)
			horizon = Max(horizon, Min(exact, floor - (int64) allowance->most_ms * US_PER_MS));
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
	return horizon;
}

/*
 * The live horizon of a reader of tables whose guards allow *allowance:
 * this server's, and on a Citus coordinator that of the cluster when
 * citus_tables (those that Citus distributes) is not NIL
 */
static int64
live_horizon_us(List *citus_tables, const GuardAllowance *allowance, Oid fn_oid, const char *caller)
{
	int			allowance_ms = guard_allowance_capped(allowance, horizon_allowance());

	return cluster_horizon_us(citus_tables, horizon_live_us(caller, allowance_ms), allowance_ms,
							  fn_oid, caller);
}

int64
reader_horizon_us(Oid fn_oid, Oid relid, List *tables, const GuardAllowance *allowance, int from_tick,
				  const char *caller)
{
	List	   *citus_tables = cluster_tables(tables, fn_oid, caller);
	bool		published;

	if (from_tick == 0)
		return live_horizon_us(citus_tables, allowance, fn_oid, caller);
	published = SubscribedWithTicks(relid, tables, tick_table(fn_oid), caller);
	if (citus_tables != NIL && (published || from_tick > 0 || RecoveryInProgress()))
		cluster_refuse_ticks(citus_tables, caller);

	/*
	 * A subscriber's tables do not carry the publisher's guards: its readers
	 * read up to the horizon for any table
	 */
	if (published)
		return tick_horizon_us(fn_oid, NULL, true, caller);
	if (from_tick > 0 || RecoveryInProgress())
		return tick_horizon_us(fn_oid, allowance, false, caller);
	return live_horizon_us(citus_tables, allowance, fn_oid, caller);
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

/*
 * Store a tick in the tick table relid: the horizon of uuidv7_horizon(),
 * and the horizon at no allowance with its floor, of one computation (a
 * horizon at allowance A is the lesser of the second and the floor less A);
 * returns the first as stored now
 */
static TimestampTz
tick(Oid relid, const char *caller)
{
	int64		floor;
	int64		exact = horizon_exact_us(caller, &floor);
	int64		horizon = Min(exact, floor - (int64) horizon_allowance() * US_PER_MS);

	return store_tick(relid, timestamptz_from_horizon(horizon), timestamptz_from_horizon(exact),
					  timestamptz_from_horizon(floor));
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

	PG_RETURN_TIMESTAMPTZ(tick(relid, "pg_uuidx_tick()"));
}

TickOutcome
tick_this_database(void)
{
	Oid			relid = database_tick_table();

	if (!OidIsValid(relid))
		return TICK_NO_TABLE;
	/* first the cheaper check: on an idle database, the only one */
	if (!horizon_tick_needed(stored_tick_least_us(relid)))
		return TICK_IDLE;
	if (ticks_subscribed(relid))
		return TICK_SUBSCRIBED;
	(void) tick(relid, "the pg_uuidx ticker");
	return TICK_STORED;
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
					  tick_horizon_us(fcinfo->flinfo->fn_oid, NULL, false, caller) :
					  horizon_live_us(caller, horizon_allowance()), version);
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
