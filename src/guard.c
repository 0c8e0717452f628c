/*
 * guard.c
 *		pg_uuidx_horizon_guard(): a trigger that brings ids made anywhere
 *		(by a client, by core's uuidv7(), by COPY) under the commit horizon.
 *
 * Owns this one trigger function; may call horizon.c, layout.h and ticks.h.
 *
 * The horizon (horizon.c) covers the ids that pg_uuidx's generators make
 * in the transaction that inserts them.  An id made elsewhere carries a
 * time of its own, possibly before the transaction began.  The guard fires
 * before the row is stored and publishes the id's time for the inserting
 * transaction, exactly as a generator's first id does; from then on until
 * the transaction ends (commit, rollback or, once prepared, COMMIT
 * PREPARED) the horizon stays at or below it, and a reader cannot pass the
 * row before it is visible.  An id below a horizon that may already have
 * been handed out cannot be covered any more: the row is refused with a
 * serialization failure, which clients retry with a fresh id.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "executor/spi.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "horizon.h"
#include "layout.h"
#include "ticks.h"

/*
 * The id column's number in desc and the version the trigger's arguments
 * name: (), (column) or (column, version), version 7 or 6.
 */
static AttrNumber
guard_arguments(TriggerData *trigdata, int *version)
{
	Trigger    *trigger = trigdata->tg_trigger;
	TupleDesc	desc = trigdata->tg_relation->rd_att;
	const char *column = trigger->tgnargs > 0 ? trigger->tgargs[0] : "id";
	const char *name = RelationGetRelationName(trigdata->tg_relation);
	AttrNumber	attnum;

	*version = 7;
	if (trigger->tgnargs > 1)
	{
		if (strcmp(trigger->tgargs[1], "7") != 0 && strcmp(trigger->tgargs[1], "6") != 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("the version argument of trigger \"%s\" must be 7 or 6, not \"%s\"",
							trigger->tgname, trigger->tgargs[1])));
		*version = trigger->tgargs[1][0] - '0';
	}
	if (trigger->tgnargs > 2)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("trigger \"%s\" passes %d arguments to pg_uuidx_horizon_guard()",
						trigger->tgname, trigger->tgnargs),
				 errhint("Pass the id column and the version, as in pg_uuidx_horizon_guard('id', '7').")));

	attnum = SPI_fnumber(desc, column);
	if (attnum <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("column \"%s\" of relation \"%s\" does not exist", column, name),
				 errcontext("trigger \"%s\"", trigger->tgname)));
	if (getBaseType(TupleDescAttr(desc, attnum - 1)->atttypid) != UUIDOID)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("column \"%s\" of relation \"%s\" is not of type uuid", column, name)));
	return attnum;
}

static void
refuse(pg_uuid_t *id, int64 id_us, int64 floor_us)
{
	char	   *text = DatumGetCString(DirectFunctionCall1(uuid_out, UUIDPGetDatum(id)));

	/* timestamptz_to_str() returns a static buffer */
	char	   *made = pstrdup(timestamptz_to_str(id_us - UNIX_TO_PG_EPOCH_US));
	char	   *horizon = pstrdup(timestamptz_to_str(floor_us - UNIX_TO_PG_EPOCH_US));

	ereport(ERROR,
			(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
			 errmsg("id %s was made at %s, below the commit horizon already handed out (%s)",
					text, made, horizon),
			 errdetail("Ids made more than pg_uuidx.horizon_allowance (%d ms) before their insert can fall below the horizon that readers have already read up to.",
					   horizon_allowance()),
			 errhint("Retry the transaction with a new id, or raise pg_uuidx.horizon_allowance.")));
}

PG_FUNCTION_INFO_V1(pg_uuidx_horizon_guard);

/*
 * pg_uuidx_horizon_guard() -> trigger, for BEFORE INSERT OR UPDATE OF <id>
 * FOR EACH ROW; arguments: the id column (default id) and the version (7,
 * the default, or 6).  A NULL id, and an UPDATE that keeps the id, pass.
 */
Datum
pg_uuidx_horizon_guard(PG_FUNCTION_ARGS)
{
	TriggerData *trigdata = (TriggerData *) fcinfo->context;
	TriggerEvent event;
	HeapTuple	row;
	AttrNumber	attnum;
	int			version;
	Datum		value;
	bool		isnull;
	pg_uuid_t  *id;
	uint64		hi;
	uint64		lo;
	int64		id_us;
	int64		floor_us;

	if (!CALLED_AS_TRIGGER(fcinfo))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("pg_uuidx_horizon_guard() must be called as a trigger")));
	event = trigdata->tg_event;
	if (!TRIGGER_FIRED_BEFORE(event) || !TRIGGER_FIRED_FOR_ROW(event) ||
		!(TRIGGER_FIRED_BY_INSERT(event) || TRIGGER_FIRED_BY_UPDATE(event)))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("trigger \"%s\" must fire BEFORE INSERT OR UPDATE FOR EACH ROW",
						trigdata->tg_trigger->tgname)));

	row = TRIGGER_FIRED_BY_UPDATE(event) ? trigdata->tg_newtuple : trigdata->tg_trigtuple;
	attnum = guard_arguments(trigdata, &version);
	value = heap_getattr(row, attnum, trigdata->tg_relation->rd_att, &isnull);
	if (isnull)
		return PointerGetDatum(row);
	id = DatumGetUUIDP(value);
	if (TRIGGER_FIRED_BY_UPDATE(event))
	{
		bool		old_isnull;
		Datum		old = heap_getattr(trigdata->tg_trigtuple, attnum,
									   trigdata->tg_relation->rd_att, &old_isnull);

		if (!old_isnull && memcmp(DatumGetUUIDP(old), id, UUID_LEN) == 0)
			return PointerGetDatum(row);
	}

	uuid_unpack(id, &hi, &lo);
	if (uuid_version(hi) != version || !uuid_is_rfc_variant(lo))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("id %s is not a version %d UUID",
						DatumGetCString(DirectFunctionCall1(uuid_out, UUIDPGetDatum(id))), version),
				 errdetail("Trigger \"%s\" reads column \"%s\" in version %d id order.",
						   trigdata->tg_trigger->tgname,
						   NameStr(TupleDescAttr(trigdata->tg_relation->rd_att, attnum - 1)->attname),
						   version)));

	/* the microsecond whose first tick is at or below the id's (ticks.h) */
	id_us = unix_us_from_tick(uuid_time_hi_tick(hi), version);
	if (!horizon_cover(id_us, &floor_us))
		refuse(id, id_us, floor_us);
	return PointerGetDatum(row);
}
