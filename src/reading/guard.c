/*
 * guard.c
 *		pg_uuidx_horizon_guard(): a trigger that brings ids made anywhere
 *		(by a client, by core's uuidv7(), by COPY) under the commit horizon.
 *
 * Owns this one trigger function and its checks of a declaration and of
 * its arguments; may call horizon.c, guard.h, guard_args.h, bits.h and
 * id_time.h.
 *
 * The horizon (horizon.c) covers the ids that pg_uuidx's generators make
 * in the transaction that inserts them.  An id made elsewhere carries a
 * time of its own, possibly before the transaction began.  The guard
 * publishes the id's time for the inserting transaction, exactly as a
 * generator's first id does; from then on until the transaction ends
 * (commit, rollback or, once prepared, COMMIT PREPARED) the horizon stays
 * at or below it, and a reader cannot pass the row before it is visible.
 * An id below a horizon that may already have been handed out cannot be
 * covered any more: the row is refused with a serialization failure, which
 * clients retry with a fresh id.
 *
 * The guard is declared in one of two ways, each with the same arguments
 * (column, version, allowance):
 *
 * - BEFORE INSERT OR UPDATE FOR EACH ROW: it sees each row before it is
 *   stored, and lets pass a row that can only meet a committed row of the
 *   same id (a re-send: see guard_resend.c).  A BEFORE ROW trigger turns
 *   COPY's batches off (copyfrom.c, CopyFrom(), in every major pg_uuidx
 *   builds on).
 * - AFTER INSERT OR UPDATE FOR EACH ROW, which leaves COPY its batches and
 *   covers each row at the statement's end, as pg_uuidx_add_guard()
 *   declares it; or with the WHEN condition NOT pg_uuidx_horizon_cover(
 *   NEW.id, ...) that covers each row just after it is stored, so that the
 *   trigger fires only to refuse a row and queues no event for a large COPY
 *   (guard_after.c).  A third trigger, BEFORE INSERT OR UPDATE FOR EACH
 *   STATEMENT, keeps the ids made as a statement runs covered from its
 *   start, on the table the statement names: pg_uuidx_add_guard() declares
 *   it on the table and on each of its partitions.
 *
 * This holds only if the guard sees the id each row is stored with.  So at
 * each firing it checks what it cannot see otherwise, and refuses the row
 * when some rows could skip it or their id change after it looked: another
 * declaration, a column list, a WHEN condition other than the cover; before
 * the row, a generated id column (computed after BEFORE triggers) and
 * another BEFORE ROW trigger that fires after it.  CREATE TRIGGER refuses
 * these already (guard_ddl.c), which also covers the rows that join a
 * guarded table by DDL.
 *
 * Either form lets an old id pass where it replaces a committed row of the
 * id that the same transaction removed from the same partitioned table:
 * the INSERT half of an UPDATE that moves a row to another partition
 * (guard_move.c).
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_trigger.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "executor/spi.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "ids/bits.h"
#include "ids/id_time.h"
#include "reading/guard.h"
#include "reading/guard_args.h"
#include "reading/horizon.h"

/* The declaration of guard trigger, by its type alone (guard.h) */
GuardForm
guard_form(Trigger *trigger)
{
	switch (trigger->tgtype)
	{
		case TRIGGER_TYPE_ROW | TRIGGER_TYPE_BEFORE | TRIGGER_TYPE_INSERT | TRIGGER_TYPE_UPDATE:
			return GUARD_BEFORE_ROW;
		case TRIGGER_TYPE_ROW | TRIGGER_TYPE_INSERT | TRIGGER_TYPE_UPDATE:
			return GUARD_AFTER_ROW;
		case TRIGGER_TYPE_BEFORE | TRIGGER_TYPE_INSERT | TRIGGER_TYPE_UPDATE:
			return GUARD_START;
		default:
			return GUARD_NO_FORM;
	}
}

/*
 * Refuses a guard declared so that some rows skip it: it must fire for each
 * row that an INSERT or an UPDATE stores, whatever columns the UPDATE sets
 * (another trigger may change the id) and whatever the row holds.  The
 * WHEN condition of the declaration after the row is checked with its
 * column (guard_after.c).
 */
static void
check_declaration(Trigger *trigger, Relation rel)
{
	const char *detail;
	GuardForm	form = guard_form(trigger);

	if (form == GUARD_NO_FORM)
		detail = "The guard must see each row that an INSERT or an UPDATE stores.";
	else if (trigger->tgnattr > 0)
		detail = "With a column list (UPDATE OF), an UPDATE of other columns skips the guard, even when another trigger changes the id.";
	else if (trigger->tgqual != NULL && form != GUARD_AFTER_ROW)
		detail = "With a WHEN condition, the rows or statements that do not meet it skip the guard.";
	else
		return;
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
			 errmsg("trigger \"%s\" on relation \"%s\" is not a declaration of pg_uuidx_horizon_guard()",
					trigger->tgname, RelationGetRelationName(rel)),
			 errdetail("%s", detail),
			 errhint("Declare it BEFORE INSERT OR UPDATE ON ... FOR EACH ROW; or AFTER INSERT OR UPDATE ON ... FOR EACH ROW WHEN (NOT pg_uuidx_horizon_cover(NEW.id, 7, '200ms')), and beside it BEFORE INSERT OR UPDATE ON ... FOR EACH STATEMENT; each without a column list.")));
}

/*
 * The number in rel of column, which holds the stored id where the guard
 * looks: of type uuid or a domain over it; before the row, not a generated
 * column, which is computed after BEFORE triggers (the guard would see NULL
 * or the old value); after it, not a virtual one (18), which is not stored.
 */
static AttrNumber
id_column(Trigger *trigger, Relation rel, const char *column)
{
	const char *name = RelationGetRelationName(rel);
	AttrNumber	attnum = SPI_fnumber(rel->rd_att, column);
	char		generated;

	if (attnum <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("column \"%s\" of relation \"%s\" does not exist", column, name),
				 errcontext("trigger \"%s\"", trigger->tgname)));
	/* a domain's base type is looked up in the catalog cache */
	if (TupleDescAttr(rel->rd_att, attnum - 1)->atttypid != UUIDOID &&
		getBaseType(TupleDescAttr(rel->rd_att, attnum - 1)->atttypid) != UUIDOID)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("column \"%s\" of relation \"%s\" is not of type uuid", column, name)));
	generated = TupleDescAttr(rel->rd_att, attnum - 1)->attgenerated;
	if (generated != '\0' && guard_form(trigger) == GUARD_BEFORE_ROW)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
				 errmsg("trigger \"%s\" cannot guard column \"%s\" of relation \"%s\": it is a generated column",
						trigger->tgname, column, name),
				 errdetail("Generated columns are computed after BEFORE triggers run, so the guard would not see the id stored."),
				 errhint("Declare the guard AFTER INSERT OR UPDATE FOR EACH ROW, or make the id a plain column, set by a default or by a BEFORE trigger whose name sorts before the guard's.")));
	if (generated != '\0' && generated != ATTRIBUTE_GENERATED_STORED)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
				 errmsg("trigger \"%s\" cannot guard column \"%s\" of relation \"%s\": it is a virtual generated column",
						trigger->tgname, column, name),
				 errdetail("A virtual column is computed when read, not stored."),
				 errhint("Make the column STORED, or guard the uuid column it is computed from.")));
	return attnum;
}

/*
 * Refuses a BEFORE ROW INSERT or UPDATE trigger of rel that fires after
 * the guard (triggers fire in the order of rel's trigger descriptor, that
 * of their names): it could change the id that the guard checked.  A
 * disabled trigger does not fire; another guard changes nothing.
 */
static void
check_order(Trigger *guard, Relation rel)
{
	TriggerDesc *desc = rel->trigdesc;
	bool		after = false;

	for (int i = 0; i < desc->numtriggers; i++)
	{
		Trigger    *other = &desc->triggers[i];

		if (other->tgoid == guard->tgoid)
		{
			after = true;
			continue;
		}
		if (!after || other->tgenabled == TRIGGER_DISABLED || other->tgfoid == guard->tgfoid ||
			!TRIGGER_FOR_ROW(other->tgtype) || !TRIGGER_FOR_BEFORE(other->tgtype) ||
			!(TRIGGER_FOR_INSERT(other->tgtype) || TRIGGER_FOR_UPDATE(other->tgtype)))
			continue;
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
				 errmsg("trigger \"%s\" on relation \"%s\" fires after the guard \"%s\"",
						other->tgname, RelationGetRelationName(rel), guard->tgname),
				 errdetail("BEFORE triggers fire in the order of their names, and one that fires after the guard could change the id it checked."),
				 errhint("Rename the guard so that its name sorts after the names of the other BEFORE triggers, as in ALTER TRIGGER %s ON %s RENAME TO %s.",
						 quote_identifier(guard->tgname),
						 quote_identifier(RelationGetRelationName(rel)),
						 quote_identifier(psprintf("zz_%s", guard->tgname)))));
	}
}

/*
 * The id column of guard trigger on rel and its version (guard.h): refuses
 * a declaration under which some rows skip the guard, bad arguments, and a
 * column whose stored value the guard does not see.
 */
AttrNumber
guard_check_trigger(Trigger *trigger, Relation rel, int *version, int *allowance_ms)
{
	AttrNumber	attnum;

	check_declaration(trigger, rel);
	attnum = id_column(trigger, rel, guard_column(trigger, version, allowance_ms));
	if (guard_form(trigger) == GUARD_AFTER_ROW)
		guard_after_check_when(trigger, rel, attnum, *version);
	return attnum;
}

/*
 * Refuses id below floor_us, for guard trigger of allowance_ms on rel, with
 * the hint of what the guard could tell: whether a unique index says the
 * row is not a re-send; untold_root, when valid, is the partitioned table
 * whose partitions lack the index that would tell a moved row
 * (guard_row_replaces())
 */
pg_noreturn static void
refuse(Trigger *trigger, Relation rel, AttrNumber attnum, pg_uuid_t *id, int64 id_us, int64 floor_us,
	   int allowance_ms, bool unique, Oid untold_root)
{
	char	   *text = DatumGetCString(DirectFunctionCall1(uuid_out, UUIDPGetDatum(id)));

	/* timestamptz_to_str() returns a static buffer */
	char	   *made = pstrdup(timestamptz_to_str(id_us - UNIX_TO_PG_EPOCH_US));
	char	   *horizon = pstrdup(timestamptz_to_str(floor_us - UNIX_TO_PG_EPOCH_US));
	const char *column = NameStr(TupleDescAttr(RelationGetDescr(rel), attnum - 1)->attname);

	horizon_refused();
	ereport(ERROR,
			(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
			 errmsg("id %s was made at %s, below the commit horizon already handed out (%s)",
					text, made, horizon),
			 errdetail("Trigger \"%s\" allows ids made up to %d ms before their insert; older ones can fall below the horizon that readers have already read up to.",
					   trigger->tgname, allowance_ms),
			 OidIsValid(untold_root) ?
			 errhint("If an UPDATE is moving this row to another partition, give the partitioned table %s an index whose first column is \"%s\" (CREATE INDEX ON %s (%s)): a moved row keeps its id when the guard can find the row it replaces. A new row needs a new id: retry the transaction with one.",
					 quote_identifier(get_rel_name(untold_root)), column,
					 quote_identifier(get_rel_name(untold_root)), quote_identifier(column)) :
			 unique ?
			 errhint("No committed row holds this id in the table's unique index, so this row is not a re-send: retry the transaction with a new id, or raise the guard's allowance (its third argument, at most pg_uuidx.horizon_allowance).") :
			 errhint("Retry the transaction with a new id, or raise the guard's allowance (its third argument, at most pg_uuidx.horizon_allowance); if the row may be stored already (a re-send), look for it first: without a unique index on the id the guard cannot tell.")));
}

/*
 * The start of a statement, for guards declared after the row: the clock
 * less the allowance is published for this transaction before the first
 * row is stored, so that ids made up to the allowance before a long
 * statement began stay covered however long it runs (guard_after.c).
 */
static void
publish_start(int allowance_ms)
{
#ifndef PG_UUIDX_TEST_NO_GUARD_START
	horizon_cover_from_clock(allowance_ms);
#endif
}

PG_FUNCTION_INFO_V1(pg_uuidx_horizon_guard);

/*
 * pg_uuidx_horizon_guard() -> trigger, for the declarations of the file
 * header; arguments: the id column (default id), the version (7, the
 * default, or 6) and the allowance.  A NULL id, an UPDATE that keeps the
 * id, and the row that an UPDATE moves to another partition with its id
 * (guard_move.c) pass.
 */
Datum
pg_uuidx_horizon_guard(PG_FUNCTION_ARGS)
{
	TriggerData *trigdata = (TriggerData *) fcinfo->context;
	Relation	rel;
	HeapTuple	row;
	AttrNumber	attnum;
	int			version;
	int			allowance_ms;
	GuardForm	form;
	Datum		value;
	bool		isnull;
	pg_uuid_t  *id;
	int64		id_us;
	int64		floor_us;
	GuardConflict conflict;
	GuardReplace replace = GUARD_ADDS;
	Oid			root = InvalidOid;

	if (!CALLED_AS_TRIGGER(fcinfo))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("pg_uuidx_horizon_guard() must be called as a trigger")));
	rel = trigdata->tg_relation;
	attnum = guard_check_trigger(trigdata->tg_trigger, rel, &version, &allowance_ms);
	form = guard_form(trigdata->tg_trigger);
	if (form == GUARD_START)
	{
		publish_start(allowance_ms);
		return PointerGetDatum(NULL);
	}
	if (form == GUARD_BEFORE_ROW)
		check_order(trigdata->tg_trigger, rel);

	row = TRIGGER_FIRED_BY_UPDATE(trigdata->tg_event) ? trigdata->tg_newtuple : trigdata->tg_trigtuple;
	value = heap_getattr(row, attnum, rel->rd_att, &isnull);
	if (isnull)
		return PointerGetDatum(row);
	id = DatumGetUUIDP(value);
	if (TRIGGER_FIRED_BY_UPDATE(trigdata->tg_event))
	{
		bool		old_isnull;
		Datum		old = heap_getattr(trigdata->tg_trigtuple, attnum, rel->rd_att, &old_isnull);

		if (!old_isnull && memcmp(DatumGetUUIDP(old), id, UUID_LEN) == 0)
			return PointerGetDatum(row);
	}

	if (!guard_id_us(id, version, &id_us))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("id %s is not a version %d UUID",
						DatumGetCString(DirectFunctionCall1(uuid_out, UUIDPGetDatum(id))), version),
				 errdetail("Trigger \"%s\" reads column \"%s\" in version %d id order.",
						   trigdata->tg_trigger->tgname,
						   NameStr(TupleDescAttr(rel->rd_att, attnum - 1)->attname), version)));
	if (horizon_cover(id_us, allowance_ms, &floor_us))
		return PointerGetDatum(row);

	/*
	 * A re-send of a stored row cannot store another: let it meet its row.
	 * After the row, it is stored: it met no committed row of its key.
	 */
	conflict = form == GUARD_AFTER_ROW ?
		(guard_unique_index(rel, attnum) ? GUARD_NO_CONFLICT : GUARD_NO_UNIQUE_INDEX) :
		guard_row_conflicts(rel, row, attnum);
	if (conflict == GUARD_CONFLICT)
		return PointerGetDatum(row);
	/* a row that an UPDATE moves to this partition keeps its id */
	if (TRIGGER_FIRED_BY_INSERT(trigdata->tg_event))
		replace = guard_row_replaces(rel, attnum, id, form == GUARD_AFTER_ROW, &root);
	if (replace == GUARD_REPLACES)
		return PointerGetDatum(row);
	refuse(trigdata->tg_trigger, rel, attnum, id, id_us, floor_us, allowance_ms,
		   conflict == GUARD_NO_CONFLICT, replace == GUARD_UNTOLD ? root : InvalidOid);
}
