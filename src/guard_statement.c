/*
 * guard_statement.c
 *		pg_uuidx_horizon_guard_statement(): the guard of guard.c as three
 *		statement-level triggers, which leave COPY its batches.
 *
 * Owns this trigger function, guard_statement_function() and
 * guard_statement_check_trigger(); may call guard.h, horizon.h, clock.h and
 * ticks.h.
 *
 * COPY FROM stores rows in batches (table_multi_insert()) unless the table
 * has a BEFORE or INSTEAD OF ROW trigger on INSERT (copyfrom.c, CopyFrom(),
 * in every major pg_uuidx builds on), so the row guard, which sees each row
 * before it is stored, costs a COPY its batches.  Statement-level triggers
 * leave them, except on a partitioned table, where one with a transition
 * table turns them off as well: there this form gains nothing over the row
 * guard.  The form is three triggers of one table, each with the row
 * guard's arguments (column, version, allowance); a trigger with a transition table
 * can name one event only:
 *
 *   start   BEFORE INSERT OR UPDATE FOR EACH STATEMENT
 *   insert  AFTER INSERT REFERENCING NEW TABLE FOR EACH STATEMENT
 *   update  AFTER UPDATE REFERENCING OLD TABLE NEW TABLE FOR EACH STATEMENT
 *
 * Why it keeps the row guard's promise: the rows a statement stores are
 * visible to no reader until its transaction commits, after the AFTER
 * triggers have run; it is enough that no reader be handed a horizon above
 * one of their ids before then.  At the statement's end the least id it
 * stored is covered as the row guard covers one row (horizon_cover()): its
 * time is published, then the floor read.  A horizon computed after that
 * sees the transaction's slot; one computed before, during the statement
 * perhaps, was at most the floor, and an id below the floor is refused
 * (40001).  The ids above the least are covered with it.
 *
 * The end alone would refuse the ids of a statement that runs longer than
 * the guard's allowance, made just before it began: by its end the
 * floor has passed them.  So the start trigger publishes, before the first
 * row is stored, the clock less the allowance: the ids the row guard would
 * have taken at the statement's start are covered from then on, however
 * long the statement runs.  The transaction's slot holds the horizon there
 * until the transaction ends, whether the statement stores an id or not.
 *
 * An UPDATE's new ids are checked only where they are not among the old
 * ids of the rows it updated (its old transition table): an UPDATE of other
 * columns, or one that exchanges ids between the rows it updates, puts no
 * id into the table that was not in it, as the row guard lets an UPDATE
 * that keeps the id pass.
 *
 * A transition table holds the rows as stored, after every BEFORE trigger
 * and with stored generated columns computed: there is no trigger order to
 * check, and a stored generated id column can be guarded (a virtual one,
 * on 18, is not stored).  A re-send needs nothing of guard_resend.c: a row
 * that meets a committed row of its key in a unique index is not stored (a
 * unique violation, ON CONFLICT's skip, or its update, which keeps the
 * id), so it is in no transition table.
 *
 * Each firing checks what it cannot see otherwise: its own declaration, its
 * column, and that the table has all three triggers of its column and
 * version, each firing whenever it fires (enabled alike, or ALWAYS); a
 * table without the update trigger would store UPDATEs' ids unchecked, and
 * its start trigger refuses them.  CREATE TRIGGER checks the declaration and
 * the column already, and guard_ddl.c keeps the tables that statements
 * store rows into without firing the guard (a partition or an inheritance
 * child without a guard of its own, below a table guarded so; a table so
 * guarded below one that is not) from joining.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "catalog/pg_attribute.h"
#include "catalog/pg_trigger.h"
#include "commands/trigger.h"
#include "executor/executor.h"
#include "nodes/makefuncs.h"
#include "parser/parse_func.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/tuplestore.h"
#include "utils/uuid.h"

#include "clock.h"
#include "guard.h"
#include "horizon.h"
#include "ticks.h"

/* the three triggers of the form */
typedef enum GuardStep
{
	STEP_START,
	STEP_INSERT,
	STEP_UPDATE,
	STEP_NONE,
} GuardStep;

#define NSTEPS STEP_NONE

static const char *const step_declaration[NSTEPS] = {
	"BEFORE INSERT OR UPDATE FOR EACH STATEMENT",
	"AFTER INSERT REFERENCING NEW TABLE AS ... FOR EACH STATEMENT",
	"AFTER UPDATE REFERENCING OLD TABLE AS ... NEW TABLE AS ... FOR EACH STATEMENT",
};

/*
 * pg_uuidx_horizon_guard_statement() of the installation that guardfn, its
 * pg_uuidx_horizon_guard(), belongs to (the same schema); InvalidOid when
 * there is none (a library newer than the installed extension).
 */
Oid
guard_statement_function(Oid guardfn)
{
	char	   *schema = get_namespace_name(get_func_namespace(guardfn));

	return LookupFuncName(list_make2(makeString(schema), makeString("pg_uuidx_horizon_guard_statement")),
						  0, NULL, true);
}

/* Which of the three trigger is, by its declaration alone */
static GuardStep
step_of(Trigger *trigger)
{
	if (trigger->tgnattr > 0 || trigger->tgqual != NULL)
		return STEP_NONE;
	if (trigger->tgtype == (TRIGGER_TYPE_BEFORE | TRIGGER_TYPE_INSERT | TRIGGER_TYPE_UPDATE))
		return STEP_START;
	if (trigger->tgtype == TRIGGER_TYPE_INSERT && trigger->tgnewtable != NULL)
		return STEP_INSERT;
	if (trigger->tgtype == TRIGGER_TYPE_UPDATE && trigger->tgoldtable != NULL && trigger->tgnewtable != NULL)
		return STEP_UPDATE;
	return STEP_NONE;
}

/*
 * The id column of statement guard trigger on rel and its version
 * (guard.h): refuses a declaration other than the three, bad arguments, and
 * a column that is not stored.
 */
AttrNumber
guard_statement_check_trigger(Trigger *trigger, Relation rel, int *version, int *allowance_ms)
{
	const char *column = guard_column(trigger, version, allowance_ms);
	AttrNumber	attnum;

	if (step_of(trigger) == STEP_NONE)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
				 errmsg("trigger \"%s\" on relation \"%s\" is not one of the three declarations of pg_uuidx_horizon_guard_statement()",
						trigger->tgname, RelationGetRelationName(rel)),
				 errdetail("The statement guard publishes before each INSERT or UPDATE and checks the ids it stored after it, each transition table in a trigger of its own, without a column list or WHEN condition."),
				 errhint("Declare the three triggers %s; %s; %s.", step_declaration[STEP_START],
						 step_declaration[STEP_INSERT], step_declaration[STEP_UPDATE])));
	attnum = guard_uuid_column(trigger, rel, column);
	/* 18's virtual generated columns are computed when read, not stored */
	if (TupleDescAttr(rel->rd_att, attnum - 1)->attgenerated != '\0' &&
		TupleDescAttr(rel->rd_att, attnum - 1)->attgenerated != ATTRIBUTE_GENERATED_STORED)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
				 errmsg("trigger \"%s\" cannot guard column \"%s\" of relation \"%s\": it is a virtual generated column",
						trigger->tgname, column, RelationGetRelationName(rel)),
				 errdetail("A transition table holds the stored row, which has no value of a virtual column."),
				 errhint("Make the column STORED, or guard the uuid column it is computed from.")));
	return attnum;
}

/*
 * Refuses, unless rel has the three triggers of the statement guard of
 * column, version and allowance, each firing whenever guard fires.
 */
static void
check_complete(Trigger *guard, Relation rel, const char *column, int version, int allowance_ms)
{
	bool		found[NSTEPS] = {false};

	for (int i = 0; i < rel->trigdesc->numtriggers; i++)
	{
		Trigger    *other = &rel->trigdesc->triggers[i];
		GuardStep	step = step_of(other);
		int			other_version;
		int			other_allowance;

		if (other->tgfoid != guard->tgfoid || step == STEP_NONE ||
			(other->tgenabled != guard->tgenabled && other->tgenabled != TRIGGER_FIRES_ALWAYS) ||
			strcmp(guard_column(other, &other_version, &other_allowance), column) != 0 ||
			other_version != version || other_allowance != allowance_ms)
			continue;
		found[step] = true;
	}
	for (int step = 0; step < NSTEPS; step++)
		if (!found[step])
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
					 errmsg("the statement guard of column \"%s\" of relation \"%s\" has no %s trigger that fires with trigger \"%s\"",
							column, RelationGetRelationName(rel), step_declaration[step], guard->tgname),
					 errdetail("Without each of its three triggers, enabled as the others are, some INSERTs or UPDATEs would store ids that no guard checks."),
					 guard->tgnargs > 2 ?
					 errhint("Create the missing trigger with EXECUTE FUNCTION pg_uuidx_horizon_guard_statement('%s', '%d', '%s'), or enable it.",
							 column, version, guard->tgargs[2]) :
					 errhint("Create the missing trigger with EXECUTE FUNCTION pg_uuidx_horizon_guard_statement('%s', '%d'), or enable it.",
							 column, version)));
}

/* A walk over the ids of a transition table */
typedef struct IdScan
{
	Tuplestorestate *rows;
	TupleTableSlot *slot;
	AttrNumber	attnum;
} IdScan;

/*
 * Starts a walk over the ids of rows (NULL: none), read through a read
 * pointer of its own: the other AFTER triggers of the statement read the
 * same tuplestore.
 */
static void
begin_ids(IdScan *scan, Tuplestorestate *rows, Relation rel, AttrNumber attnum)
{
	scan->rows = rows;
	scan->attnum = attnum;
	scan->slot = MakeSingleTupleTableSlot(RelationGetDescr(rel), &TTSOpsMinimalTuple);
	if (rows == NULL)
		return;
	tuplestore_select_read_pointer(rows, tuplestore_alloc_read_pointer(rows, EXEC_FLAG_REWIND));
	tuplestore_rescan(rows);
}

/* The next non-NULL id into *id; false at the end */
static bool
next_id(IdScan *scan, pg_uuid_t *id)
{
	while (scan->rows != NULL && tuplestore_gettupleslot(scan->rows, true, false, scan->slot))
	{
		bool		isnull;
		Datum		value = slot_getattr(scan->slot, scan->attnum, &isnull);

		/* the slot's tuple goes with the next read: copy the id out */
		if (!isnull)
		{
			memcpy(id, DatumGetUUIDP(value), UUID_LEN);
			return true;
		}
	}
	return false;
}

static void
end_ids(IdScan *scan)
{
	if (scan->rows != NULL)
		tuplestore_select_read_pointer(scan->rows, 0);
	ExecDropSingleTupleTableSlot(scan->slot);
}

static int
uuid_order(const void *a, const void *b)
{
	return memcmp(a, b, UUID_LEN);
}

/* The ids of rows, sorted, in *ids; their number */
static size_t
sorted_ids(Tuplestorestate *rows, Relation rel, AttrNumber attnum, pg_uuid_t **ids)
{
	IdScan		scan;
	size_t		n = 0;
	size_t		size = 1024;

	*ids = palloc(size * sizeof(pg_uuid_t));
	begin_ids(&scan, rows, rel, attnum);
	while (next_id(&scan, &(*ids)[n]))
		if (++n == size)
		{
			size *= 2;
			*ids = repalloc_huge(*ids, size * sizeof(pg_uuid_t));
		}
	end_ids(&scan);
	qsort(*ids, n, sizeof(pg_uuid_t), uuid_order);
	return n;
}

/*
 * Checks the ids that the statement stored in the new transition table of
 * trigdata, less those of old (sorted, nold of them): the least of them is
 * covered, or refused.
 */
static void
check_ids(TriggerData *trigdata, AttrNumber attnum, int version, int allowance_ms,
		  pg_uuid_t *old, size_t nold)
{
	Relation	rel = trigdata->tg_relation;
	IdScan		scan;
	pg_uuid_t	id;
	pg_uuid_t	least = {{0}};
	int64		least_us = PG_INT64_MAX;
	int64		floor_us;

	begin_ids(&scan, trigdata->tg_newtable, rel, attnum);
	while (next_id(&scan, &id))
	{
		int64		id_us;

		if (nold > 0 && bsearch(&id, old, nold, sizeof(pg_uuid_t), uuid_order) != NULL)
			continue;
		if (!guard_id_us(&id, version, &id_us))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("id %s is not a version %d UUID",
							DatumGetCString(DirectFunctionCall1(uuid_out, UUIDPGetDatum(&id))), version),
					 errdetail("Trigger \"%s\" reads column \"%s\" in version %d id order.",
							   trigdata->tg_trigger->tgname,
							   NameStr(TupleDescAttr(rel->rd_att, attnum - 1)->attname), version)));
		if (id_us < least_us)
		{
			least_us = id_us;
			least = id;
		}
	}
	end_ids(&scan);
	if (least_us != PG_INT64_MAX && !horizon_cover(least_us, allowance_ms, &floor_us))
		guard_refuse(trigdata->tg_trigger, &least, least_us, floor_us, allowance_ms,
					 guard_unique_index(rel, attnum));
}

/*
 * The start: the clock less the allowance published for this transaction
 * (the file header)
 */
static void
publish_start(int allowance_ms)
{
#ifndef PG_UUIDX_TEST_NO_STATEMENT_START
	horizon_cover_from_clock(allowance_ms);
#endif
}

PG_FUNCTION_INFO_V1(pg_uuidx_horizon_guard_statement);

/*
 * pg_uuidx_horizon_guard_statement() -> trigger, for the three declarations
 * of the file header; arguments: the id column (default id) and the
 * version (7, the default, or 6).  A NULL id passes.
 */
Datum
pg_uuidx_horizon_guard_statement(PG_FUNCTION_ARGS)
{
	TriggerData *trigdata = (TriggerData *) fcinfo->context;
	Trigger    *trigger;
	Relation	rel;
	AttrNumber	attnum;
	int			version;
	int			allowance_ms;
	pg_uuid_t  *old = NULL;
	size_t		nold = 0;

	if (!CALLED_AS_TRIGGER(fcinfo))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("pg_uuidx_horizon_guard_statement() must be called as a trigger")));
	trigger = trigdata->tg_trigger;
	rel = trigdata->tg_relation;
	attnum = guard_statement_check_trigger(trigger, rel, &version, &allowance_ms);
	check_complete(trigger, rel, NameStr(TupleDescAttr(rel->rd_att, attnum - 1)->attname), version,
				   allowance_ms);

	switch (step_of(trigger))
	{
		case STEP_START:
			publish_start(allowance_ms);
			break;
		case STEP_UPDATE:
			nold = sorted_ids(trigdata->tg_oldtable, rel, attnum, &old);
			/* FALLTHROUGH */
		case STEP_INSERT:
			check_ids(trigdata, attnum, version, allowance_ms, old, nold);
			break;
		case STEP_NONE:
			pg_unreachable();
	}
	return PointerGetDatum(NULL);
}
