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
 * what breaks it).
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xlog.h"
#include "catalog/dependency.h"
#include "catalog/indexing.h"
#include "catalog/pg_class.h"
#include "catalog/pg_extension.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "executor/tuptable.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"

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

static const char *
qualified_name(Oid relid)
{
	return quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
									  get_rel_name(relid));
}

/*
 * Whether a subscription of this database writes into relid or into one of
 * its partitions.
 */
static bool
is_subscribed(Oid relid)
{
	Oid			argtypes[1] = {REGCLASSOID};
	Datum		args[1] = {ObjectIdGetDatum(relid)};
	bool		isnull;
	bool		subscribed;

	SPI_connect();
	if (SPI_execute_with_args("SELECT EXISTS (SELECT FROM pg_catalog.pg_subscription_rel "
							  "WHERE srrelid OPERATOR(pg_catalog.=) $1 "
							  "OR srrelid OPERATOR(pg_catalog.=) ANY "
							  "(SELECT relid FROM pg_catalog.pg_partition_tree($1)))",
							  1, argtypes, args, NULL, true, 1) != SPI_OK_SELECT ||
		SPI_processed != 1)
		elog(ERROR, "SPI_execute_with_args failed on pg_subscription_rel");
	subscribed = DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0],
											SPI_tuptable->tupdesc, 1, &isnull));
	SPI_finish();
	return subscribed;
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

	initStringInfo(&query);
	appendStringInfo(&query, "SELECT horizon, system_identifier FROM %s", qualified_name(relid));
	SPI_connect();
	if (SPI_execute(query.data, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "SPI_execute failed on %s", TICK_TABLE);
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
reader_horizon_us(Oid fn_oid, Oid relid, int from_tick, const char *caller)
{
	if (from_tick < 0)
	{
		if (RecoveryInProgress())
			return tick_horizon_us(fn_oid, false, caller);
		if (is_subscribed(relid))
			return tick_horizon_us(fn_oid, true, caller);
		return horizon_live_us(caller);
	}
	return from_tick ? tick_horizon_us(fn_oid, false, caller) : horizon_live_us(caller);
}

PG_FUNCTION_INFO_V1(pg_uuidx_tick);

/*
 * pg_uuidx_tick() -> timestamptz: record the commit horizon in
 * pg_uuidx_last_tick (never lowering the one recorded) and return the
 * horizon the table holds now.  Its transaction commits after every row
 * below that horizon.
 */
Datum
pg_uuidx_tick(PG_FUNCTION_ARGS)
{
	Oid			relid;
	StringInfoData query;
	Oid			argtypes[3] = {TIMESTAMPTZOID, TIMESTAMPTZOID, INT8OID};
	Datum		args[3];
	TimestampTz stored;
	bool		isnull;

	if (RecoveryInProgress())
		ereport(ERROR,
				(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
				 errmsg("pg_uuidx_tick() cannot be used during recovery"),
				 errhint("Call it on the primary: its ticks reach the standbys with the WAL.")));
	relid = tick_table(fcinfo->flinfo->fn_oid);
	if (pg_class_aclcheck(relid, GetUserId(), ACL_INSERT | ACL_UPDATE) != ACLCHECK_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to tick: %s needs INSERT and UPDATE on %s",
						GetUserNameFromId(GetUserId(), false), TICK_TABLE),
				 errhint("The extension's owner may grant them: GRANT INSERT, UPDATE ON %s TO %s.",
						 qualified_name(relid), quote_identifier(GetUserNameFromId(GetUserId(), false)))));
	if (is_subscribed(relid))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("pg_uuidx_tick() cannot be used where a subscription writes %s", TICK_TABLE),
				 errdetail("The ticks of this database come from the publisher; a tick made here would hold this server's horizon, not the publisher's."),
				 errhint("Call it on the publisher.")));

	args[0] = TimestampTzGetDatum(timestamptz_from_horizon(horizon_live_us("pg_uuidx_tick()")));
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
	SPI_connect();
	if (SPI_execute_with_args(query.data, 3, argtypes, args, NULL, false, 1) != SPI_OK_INSERT_RETURNING ||
		SPI_processed != 1)
		elog(ERROR, "SPI_execute_with_args failed on %s", TICK_TABLE);
	stored = DatumGetTimestampTz(SPI_getbinval(SPI_tuptable->vals[0],
											   SPI_tuptable->tupdesc, 1, &isnull));
	SPI_finish();
	PG_RETURN_TIMESTAMPTZ(stored);
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
	Relation	extrel;
	ScanKeyData key;
	SysScanDesc extscan;
	HeapTuple	tuple;
	Oid			extension = InvalidOid;
	Oid			schema = InvalidOid;
	Oid			relid;
	int64		newest = HORIZON_LOWEST;

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
	if (OidIsValid(relid) && getExtensionOfObject(RelationRelationId, relid) == extension)
	{
		Relation	rel = table_open(relid, AccessShareLock);
		AttrNumber	attnum = get_attnum(relid, "horizon");
		Snapshot	snapshot = ActiveSnapshotSet() ? GetActiveSnapshot() : GetTransactionSnapshot();
		TableScanDesc scan = table_beginscan(rel, snapshot, 0, NULL);
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
