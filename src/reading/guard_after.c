/*
 * guard_after.c
 *		pg_uuidx_horizon_cover(): the guard of guard.c declared after the
 *		row, which leaves COPY its batches.
 *
 * Owns this function and the check of the WHEN condition that calls it,
 * guard_after_check_when() (declared in guard.h); may call guard_args.h and
 * horizon.h.
 *
 * COPY FROM stores rows in batches (table_multi_insert()) unless the table
 * has a BEFORE or INSTEAD OF ROW trigger on INSERT, or, when it is
 * partitioned, a transition table of INSERT (copyfrom.c, CopyFrom(), in
 * every major pg_uuidx builds on).  So the guard may also be declared
 *
 *   AFTER INSERT OR UPDATE ON t FOR EACH ROW
 *     WHEN (NOT pg_uuidx_horizon_cover(NEW.id, 7, '200ms'))
 *     EXECUTE FUNCTION pg_uuidx_horizon_guard('id', '7', '200ms')
 *
 * PostgreSQL evaluates the WHEN condition of an AFTER ROW trigger just
 * after it stores the row, batched or not, and queues the trigger only when
 * it holds.  pg_uuidx_horizon_cover() covers the row's id there, as the
 * guard before the row covers it (horizon_cover()), and returns true, so
 * nothing is queued; an id it cannot cover (below the floor less the
 * allowance, or not of the version) queues the trigger, which fires at the
 * statement's end and refuses the row with the guard's message, and an
 * UPDATE that kept its id, which it lets pass.  Without the WHEN condition
 * the trigger covers each row itself at the statement's end: the same
 * promise, at the cost of a queued event and a fetch per row.
 *
 * Why covering after the row is stored keeps the promise: the rows a
 * statement stores are visible to no reader until its transaction commits,
 * after every AFTER trigger and WHEN condition of the statement has run.
 * It is enough that no reader be handed a horizon above one of their ids
 * before then, and the cover publishes the id's time, then reads the
 * floor: a horizon computed after that sees the transaction's slot; one
 * computed before was at most the floor less its reader's allowance, and an
 * id below the floor less the guard's allowance (at most the reader's) is
 * not covered: refused.
 *
 * Covering each row when it is stored would refuse the ids of a statement
 * that runs longer than the allowance, made just before it began: by the
 * time the last rows are stored, the floor has passed them.  A third
 * trigger, BEFORE INSERT OR UPDATE FOR EACH STATEMENT with the same
 * arguments, publishes the clock less the allowance before the first row is
 * stored (horizon_cover_from_clock()); ids from then on are covered however
 * long the statement runs.  It is not a guard itself, and leaving it out
 * lets no row skip one; but it fires only for the table a statement names,
 * so pg_uuidx_add_guard() declares it on each partition too.
 *
 * The condition is checked as the rest of the declaration (guard.c): NOT of
 * pg_uuidx_horizon_cover() of this installation, of the NEW value of the
 * trigger's column, with the version and the allowance of the trigger's
 * arguments; anything else could let rows skip the guard (WHEN (false)), or
 * cover them with more allowance than readers of the table read with.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "parser/parse_func.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/uuid.h"

#include "reading/guard.h"
#include "reading/guard_args.h"
#include "reading/horizon.h"

/* the version and allowance of a call, kept between calls when constant */
typedef struct CoverArgs
{
	int			version;
	int			allowance_ms;
} CoverArgs;

/* The version argument of pg_uuidx_horizon_cover(): 7 or 6 */
static int
cover_version(int version)
{
	if (version != 7 && version != 6)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the version argument of pg_uuidx_horizon_cover() must be 7 or 6, not %d", version)));
	return version;
}

/*
 * The version and allowance of this call into *args; kept in fn_extra when
 * the call's arguments are constants, as in a WHEN condition, which calls
 * once per row.
 */
static CoverArgs *
cover_args(FunctionCallInfo fcinfo, CoverArgs *args)
{
	if (fcinfo->flinfo->fn_extra != NULL)
		return fcinfo->flinfo->fn_extra;
	if (PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("the version argument of pg_uuidx_horizon_cover() must not be NULL")));
	args->version = cover_version(PG_GETARG_INT32(1));
	args->allowance_ms = horizon_allowance();
	if (!PG_ARGISNULL(2))
		args->allowance_ms = Min(guard_allowance(NULL, text_to_cstring(PG_GETARG_TEXT_PP(2))),
								 args->allowance_ms);
	if (get_fn_expr_arg_stable(fcinfo->flinfo, 1) && get_fn_expr_arg_stable(fcinfo->flinfo, 2))
	{
		fcinfo->flinfo->fn_extra = MemoryContextAlloc(fcinfo->flinfo->fn_mcxt, sizeof(CoverArgs));
		memcpy(fcinfo->flinfo->fn_extra, args, sizeof(CoverArgs));
	}
	return args;
}

PG_FUNCTION_INFO_V1(pg_uuidx_horizon_cover);

/*
 * pg_uuidx_horizon_cover(id uuid, version int DEFAULT 7, allowance text
 * DEFAULT NULL) -> boolean: whether id is covered for this transaction, as
 * the guard covers it (NULL: the setting's allowance).  True for a NULL id;
 * false for an id below the floor less the allowance, or not of the
 * version.  Meant for the WHEN condition of the guard after the row (the
 * file header).
 */
Datum
pg_uuidx_horizon_cover(PG_FUNCTION_ARGS)
{
	CoverArgs	local;
	CoverArgs  *args = cover_args(fcinfo, &local);
	int64		id_us;
	int64		floor_us;

	if (PG_ARGISNULL(0))
		PG_RETURN_BOOL(true);
	if (!guard_id_us(PG_GETARG_UUID_P(0), args->version, &id_us))
		PG_RETURN_BOOL(false);
	PG_RETURN_BOOL(horizon_cover(id_us, args->allowance_ms, &floor_us));
}

/*
 * pg_uuidx_horizon_cover(uuid, integer, text) of the installation that
 * guardfn, its pg_uuidx_horizon_guard(), belongs to (the same schema);
 * InvalidOid when there is none (a library newer than the installed
 * extension).
 */
static Oid
cover_function(Oid guardfn)
{
	char	   *schema = get_namespace_name(get_func_namespace(guardfn));
	Oid			argtypes[3] = {UUIDOID, INT4OID, TEXTOID};

	return LookupFuncName(list_make2(makeString(schema), makeString("pg_uuidx_horizon_cover")),
						  3, argtypes, true);
}

/*
 * Whether args, those of a call of pg_uuidx_horizon_cover() as parsed (the
 * defaults not filled in, NamedArgExpr for the named ones), are the NEW
 * value of column attnum, then constants of version and of the allowance
 * that guard trigger names (both capped by the setting alike, whatever it
 * is later), or none when it names none.
 */
static bool
cover_args_match(List *args, Trigger *trigger, AttrNumber attnum, int version)
{
	Node	   *given[3] = {NULL, NULL, NULL};
	int			position = 0;
	ListCell   *lc;
	Var		   *id;
	Const	   *v;
	Const	   *a;

	foreach(lc, args)
	{
		Node	   *arg = lfirst(lc);

		if (IsA(arg, NamedArgExpr))
		{
			position = ((NamedArgExpr *) arg)->argnumber;
			arg = (Node *) ((NamedArgExpr *) arg)->arg;
		}
		if (position < 0 || position > 2)
			return false;
		given[position++] = arg;
	}
	id = (Var *) given[0];
	/* a domain over uuid is relabeled */
	if (id != NULL && IsA(id, RelabelType))
		id = (Var *) ((RelabelType *) id)->arg;
	if (id == NULL || !IsA(id, Var) || id->varno != PRS2_NEW_VARNO || id->varattno != attnum ||
		id->varlevelsup != 0)
		return false;
	v = (Const *) given[1];
	if (v != NULL && (!IsA(v, Const) || v->consttype != INT4OID || v->constisnull ||
					  DatumGetInt32(v->constvalue) != version))
		return false;
	if (v == NULL && version != 7)
		return false;
	a = (Const *) given[2];
	if (a == NULL || (IsA(a, Const) && a->consttype == TEXTOID && a->constisnull))
		return trigger->tgnargs <= 2;
	return IsA(a, Const) && a->consttype == TEXTOID && trigger->tgnargs > 2 &&
		guard_allowance(NULL, TextDatumGetCString(a->constvalue)) ==
		guard_allowance(trigger->tgname, trigger->tgargs[2]);
}

/* Refuses the WHEN condition of guard trigger on rel, unless it is the cover (guard.h) */
void
guard_after_check_when(Trigger *trigger, Relation rel, AttrNumber attnum, int version)
{
	Node	   *qual;
	FuncExpr   *cover;

	if (trigger->tgqual == NULL)
		return;
	qual = stringToNode(trigger->tgqual);
	cover = is_notclause(qual) ? (FuncExpr *) get_notclausearg((Expr *) qual) : NULL;
	if (cover != NULL && IsA(cover, FuncExpr) && cover->funcid == cover_function(trigger->tgfoid) &&
		cover_args_match(cover->args, trigger, attnum, version))
		return;
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
			 errmsg("the WHEN condition of trigger \"%s\" on relation \"%s\" is not the guard's cover of its id",
					trigger->tgname, RelationGetRelationName(rel)),
			 errdetail("Only NOT pg_uuidx_horizon_cover() of the NEW value of the guarded column, with the trigger's version and allowance, lets no row skip the guard."),
			 trigger->tgnargs > 2 ?
			 errhint("Declare it WHEN (NOT pg_uuidx_horizon_cover(NEW.%s, %d, %s)), or without a WHEN condition.",
					 quote_identifier(NameStr(TupleDescAttr(rel->rd_att, attnum - 1)->attname)),
					 version, quote_literal_cstr(trigger->tgargs[2])) :
			 errhint("Declare it WHEN (NOT pg_uuidx_horizon_cover(NEW.%s, %d)), or without a WHEN condition.",
					 quote_identifier(NameStr(TupleDescAttr(rel->rd_att, attnum - 1)->attname)),
					 version)));
}
