/*
 * tick_table.c
 *		The table pg_uuidx_last_tick: finding this database's (or a
 *		function's extension's), storing a tick in it, reading the newest.
 *
 * Owns the table pg_uuidx_last_tick (one row); may call extension_table.h
 * and nothing else of pg_uuidx's: the shared state reads it (a database's
 * floor starts at its newest tick), and horizon_tick.c and the ticker write
 * it.
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
#include "catalog/dependency.h"
#include "catalog/indexing.h"
#include "catalog/pg_class.h"
#include "catalog/pg_extension.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"

#include "compat.h"
#include "ids/id_time.h"
#include "reading/extension_table.h"
#include "reading/horizon.h"
#include "reading/tick_table.h"

Oid
tick_table(Oid fn_oid)
{
	return extension_table(fn_oid, TICK_TABLE);
}

/*
 * The table pg_uuidx_last_tick of this database's extension pg_uuidx, or
 * InvalidOid where there is none (no extension, or one from before 1.6):
 * found through the extension's schema and checked to be a member of it.
 */
Oid
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

const char *
tick_qualified_name(Oid relid)
{
	return quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
									  get_rel_name(relid));
}

TimestampTz
timestamptz_from_horizon(int64 horizon_us)
{
	TimestampTz ts;

	if (horizon_us == HORIZON_LOWEST)
		TIMESTAMP_NOBEGIN(ts);
	else
		ts = horizon_us - UNIX_TO_PG_EPOCH_US;
	return ts;
}

int64
horizon_from_timestamptz(TimestampTz ts)
{
	return TIMESTAMP_NOT_FINITE(ts) ? HORIZON_LOWEST : ts + UNIX_TO_PG_EPOCH_US;
}

bool
tick_has_exact(Oid relid)
{
	return get_attnum(relid, "exact_horizon") != InvalidAttrNumber;
}

/*
 * Store horizon, and exact with the floor it started from (and the time and
 * this server) in the tick table relid, as the table's owner: the only role
 * that may write it.  horizon is never lowered; exact and floor are kept
 * together, those of the tick computed last (its floor is the highest).
 * Returns the horizon the table holds now.
 */
TimestampTz
store_tick(Oid relid, TimestampTz horizon, TimestampTz exact, TimestampTz floor)
{
	Relation	rel = relation_open(relid, RowExclusiveLock);
	Oid			owner = rel->rd_rel->relowner;
	Oid			save_userid;
	int			save_sec_context;
	StringInfoData query;
	Oid			argtypes[5] = {TIMESTAMPTZOID, TIMESTAMPTZOID, INT8OID, TIMESTAMPTZOID, TIMESTAMPTZOID};
	Datum		args[5];
	TimestampTz stored = 0;
	bool		exact_too;
	int			nestlevel;

	relation_close(rel, NoLock);
	args[0] = TimestampTzGetDatum(horizon);
	args[1] = TimestampTzGetDatum(GetCurrentTimestamp());
	args[2] = Int64GetDatum((int64) GetSystemIdentifier());
	args[3] = TimestampTzGetDatum(exact);
	args[4] = TimestampTzGetDatum(floor);
	initStringInfo(&query);
	/* exact_horizon came in 1.7: the extension may not be updated yet */
	exact_too = tick_has_exact(relid);
	appendStringInfo(&query,
					 "INSERT INTO %s (one, horizon, ticked_at, system_identifier%s) VALUES (true, $1, $2, $3%s) "
					 "ON CONFLICT (one) DO UPDATE SET "
					 "horizon = GREATEST(%s.horizon, EXCLUDED.horizon), ticked_at = EXCLUDED.ticked_at, "
					 "system_identifier = EXCLUDED.system_identifier",
					 tick_qualified_name(relid), exact_too ? ", exact_horizon, horizon_floor" : "",
					 exact_too ? ", $4, $5" : "", tick_qualified_name(relid));

	/*
	 * Not the greatest of each: a horizon of guards' allowance A is the
	 * lesser of exact and floor less A of one computation
	 */
	if (exact_too)
		for (int i = 0; i < 2; i++)
			appendStringInfo(&query, ", %s = CASE WHEN %s.horizon_floor IS NULL OR %s.horizon_floor OPERATOR(pg_catalog.<=) EXCLUDED.horizon_floor "
							 "THEN EXCLUDED.%s ELSE %s.%s END",
							 i == 0 ? "exact_horizon" : "horizon_floor",
							 tick_qualified_name(relid), tick_qualified_name(relid),
							 i == 0 ? "exact_horizon" : "horizon_floor",
							 tick_qualified_name(relid), i == 0 ? "exact_horizon" : "horizon_floor");
	appendStringInfoString(&query, " RETURNING horizon");

	GetUserIdAndSecContext(&save_userid, &save_sec_context);
	SetUserIdAndSecContext(owner, save_sec_context | SECURITY_LOCAL_USERID_CHANGE |
						   SECURITY_RESTRICTED_OPERATION);
	/* as the owner, no name resolves through the caller's search_path */
	nestlevel = NewGUCNestLevel();
	(void) set_config_option("search_path", "pg_catalog, pg_temp", PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	PG_TRY();
	{
		bool		isnull;
		int			rc;

		if ((rc = SPI_connect()) != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed: %s", SPI_result_code_string(rc));
		if ((rc = SPI_execute_with_args(query.data, exact_too ? 5 : 3, argtypes, args, NULL, false, 1)) != SPI_OK_INSERT_RETURNING ||
			SPI_processed != 1)
			elog(ERROR, "SPI_execute_with_args failed on %s: %s, %llu rows", TICK_TABLE,
				 SPI_result_code_string(rc), (unsigned long long) SPI_processed);
		stored = DatumGetTimestampTz(SPI_getbinval(SPI_tuptable->vals[0],
												   SPI_tuptable->tupdesc, 1, &isnull));
		SPI_finish();
	}
	PG_FINALLY();
	{
		AtEOXact_GUC(true, nestlevel);
		SetUserIdAndSecContext(save_userid, save_sec_context);
	}
	PG_END_TRY();
	return stored;
}


/*
 * The greatest of the horizons the tick table relid holds, or with least
 * the least (Unix us); HORIZON_LOWEST when it holds none.  Read without the
 * caller's privileges: it is the extension's own table.
 */
static int64
stored_bound_us(Oid relid, bool least)
{
	Relation	rel = table_open(relid, AccessShareLock);
	AttrNumber	attnums[3] = {get_attnum(relid, "horizon"), get_attnum(relid, "exact_horizon"),
	get_attnum(relid, "horizon_floor")};
	Snapshot	snapshot = ActiveSnapshotSet() ? GetActiveSnapshot() : GetTransactionSnapshot();
	TableScanDesc scan = PG_UUIDX_TABLE_BEGINSCAN(rel, snapshot);
	TupleTableSlot *slot = table_slot_create(rel, NULL);
	int64		bound = HORIZON_LOWEST;
	bool		any = false;

	while (table_scan_getnextslot(scan, ForwardScanDirection, slot))
	{
		for (int i = 0; i < (int) lengthof(attnums); i++)
		{
			bool		isnull;
			Datum		value;
			int64		h;

			if (attnums[i] <= 0)
				continue;
			value = slot_getattr(slot, attnums[i], &isnull);
			if (isnull)
				continue;
			h = horizon_from_timestamptz(DatumGetTimestampTz(value));
			bound = !any ? h : least ? Min(bound, h) : Max(bound, h);
			any = true;
		}
	}
	ExecDropSingleTupleTableSlot(slot);
	table_endscan(scan);
	table_close(rel, AccessShareLock);
	return bound;
}

/*
 * The newest tick stored in this database (Unix us), or HORIZON_LOWEST
 * where there is none: no extension pg_uuidx, no table of its own (before
 * 1.6), or an empty one.  The table is found through the extension's
 * schema and checked to be a member of it.
 */
int64
stored_tick_us(void)
{
	Oid			relid = database_tick_table();

	return OidIsValid(relid) ? stored_bound_us(relid, false) : HORIZON_LOWEST;
}

int64
stored_tick_least_us(Oid relid)
{
	return stored_bound_us(relid, true);
}
