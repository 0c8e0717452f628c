/*
 * read_after.c
 *		pg_uuidx_read_after(): the next rows of a table in id order, up to
 *		the commit horizon, none missed and none twice.
 *
 * Owns this SQL function and the reader it shares with consume.c
 * (read_after.h); may call horizon.c, horizon_tick.c and saved_plans.c.
 *
 * The horizon must be read before the snapshot the rows are read with, so
 * both happen here, in that order: the horizon first, then the query under
 * a fresh READ COMMITTED snapshot.  The horizon is called as a C function,
 * not looked up by name, and the query names the table by the schema and
 * name of its OID under a lock, and only core's uuid operators.  It is one
 * query, so one snapshot: a batch ends after max_rows rows and every
 * further row equal to the last id (FETCH FIRST ... WITH TIES), so that the
 * next call, after that id, misses none of the rows that share it.
 *
 * A horizon covers the rows of tables only: a materialized view's rows
 * appear when it is refreshed, a foreign table's commit elsewhere.  So the
 * relation read, and every relation whose rows the read returns (the
 * inheritors of a table, what a view reads, through views, subqueries and
 * sublinks), must be a table, a partitioned table or a view.
 *
 * The query contains no name of its own: no alias, no whole-row reference.
 * It lists the table's columns by their quoted names, so a user's column
 * cannot take the place of one of the query's names (a column named like
 * an alias would win over the alias).  The rows are built here, in C, for
 * the function's result row type, from columns whose types are checked
 * against that row type.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "access/detoast.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/xact.h"
#include "catalog/objectaddress.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "parser/parse_relation.h"
#include "parser/parsetree.h"
#include "rewrite/rewriteHandler.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/tuplestore.h"
#include "utils/uuid.h"

#include "compat.h"
#include "reading/guard.h"
#include "reading/horizon.h"
#include "reading/horizon_tick.h"
#include "reading/read_after.h"
#include "reading/saved_plans.h"


/*
 * The relation whose row type the first argument has, locked and readable
 * by the current user, and its uuid column id_column's name quoted.  A
 * standalone composite type has a row type too, and no rows; the relation's
 * kind is checked by ReadRelations().  The id column may be a uuid or a
 * domain over uuid.
 */
static Oid
row_table(FunctionCallInfo fcinfo, const char *caller, const char *id_column, const char **column)
{
	Oid			type = get_fn_expr_argtype(fcinfo->flinfo, 0);
	Oid			relid = OidIsValid(type) ? get_typ_typrelid(type) : InvalidOid;
	char		relkind = OidIsValid(relid) ? get_rel_relkind(relid) : '\0';
	Relation	rel;
	AttrNumber	attnum;
	AclResult	acl;

	if (relkind == '\0' || relkind == RELKIND_COMPOSITE_TYPE)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("the first argument of %s must be a row of a table", caller),
				 OidIsValid(relid) ?
				 errdetail("Type %s is not the row type of a table, a partitioned table or a view.",
						   format_type_be(type)) : 0,
				 errhint("Pass NULL cast to the table's row type, as in NULL::outbox.")));
	acl = pg_class_aclcheck(relid, GetUserId(), ACL_SELECT);
	if (acl != ACLCHECK_OK)
		aclcheck_error(acl, get_relkind_objtype(relkind), get_rel_name(relid));
	/* kept locked to the end of the transaction; fails if it is gone */
	rel = relation_open(relid, AccessShareLock);
	relation_close(rel, NoLock);

	attnum = get_attnum(relid, id_column);
	if (attnum == InvalidAttrNumber)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("column \"%s\" of relation \"%s\" does not exist",
						id_column, get_rel_name(relid))));
	if (getBaseType(get_atttype(relid, attnum)) != UUIDOID)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("column \"%s\" of relation \"%s\" is not of type uuid",
						id_column, get_rel_name(relid))));
	*column = quote_identifier(id_column);
	return relid;
}

/* What a reader walking the relations of a read has found so far */
typedef struct ReadRelationsState
{
	const char *caller;			/* the SQL function, for messages */
	Oid			via;			/* the view or table being expanded, or
								 * InvalidOid at the relation read */
	List	   *seen;			/* every relation looked at, views too */
	List	   *tables;			/* the tables and partitioned tables among
								 * them */
} ReadRelationsState;

/* relid's schema-qualified name, quoted where needed */
static const char *
RelationName(Oid relid)
{
	return quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
									  get_rel_name(relid));
}

/* what a relation of kind relkind is called in messages */
static const char *
KindName(char relkind)
{
	switch (relkind)
	{
		case RELKIND_RELATION:
			return "table";
		case RELKIND_PARTITIONED_TABLE:
			return "partitioned table";
		case RELKIND_VIEW:
			return "view";
		case RELKIND_MATVIEW:
			return "materialized view";
		case RELKIND_FOREIGN_TABLE:
			return "foreign table";
		case RELKIND_SEQUENCE:
			return "sequence";
		default:
			return "relation";
	}
}

/*
 * Refuse to read relid, of a kind whose rows no commit horizon covers,
 * reached through relation via (InvalidOid: it is the relation read).
 */
pg_noreturn static void
RefuseRelation(const char *caller, Oid relid, char relkind, Oid via)
{
	const char *why;

	if (relkind == RELKIND_MATVIEW)
		why = "A materialized view's rows appear when it is refreshed, not when the transactions that wrote them commit, so no commit horizon covers them.";
	else if (relkind == RELKIND_FOREIGN_TABLE)
		why = "A foreign table's rows are committed on another server, whose transactions this server's commit horizon does not cover.";
	else
		why = "A commit horizon covers the rows of tables only.";
	ereport(ERROR,
			(errcode(ERRCODE_WRONG_OBJECT_TYPE),
			 errmsg("%s cannot read the %s %s", caller, KindName(relkind), RelationName(relid)),
			 OidIsValid(via) ?
			 errdetail("It is read through the %s %s. %s", KindName(get_rel_relkind(via)),
					   RelationName(via), why) :
			 errdetail("%s", why),
			 errhint("%s reads tables, partitioned tables, inheritance parents and views over them; read the tables the rows come from.",
					 caller)));
}

static bool ReadRelationsWalker(Node *node, void *context);

/*
 * Add relid, reached through state->via, and every relation whose rows
 * reading it returns: a view's relations, a table's inheritors (inh);
 * refuse any of a kind no horizon covers.
 */
static void
AddRelation(ReadRelationsState *state, Oid relid, bool inh)
{
	char		relkind;

	/* a view's rule in PostgreSQL 15 lists the view itself (OLD, NEW) */
	if (list_member_oid(state->seen, relid))
		return;
	state->seen = lappend_oid(state->seen, relid);
	relkind = get_rel_relkind(relid);
	if (relkind == RELKIND_VIEW)
	{
		Relation	view = relation_open(relid, AccessShareLock);
		Oid			via = state->via;

		state->via = relid;
		/* a copy: opening the relations it reads may rebuild the view's */
		(void) ReadRelationsWalker((Node *) copyObject(get_view_query(view)), state);
		state->via = via;
		relation_close(view, NoLock);
		return;
	}
	if (relkind != RELKIND_RELATION && relkind != RELKIND_PARTITIONED_TABLE)
		RefuseRelation(state->caller, relid, relkind, state->via);
	state->tables = lappend_oid(state->tables, relid);
	if (inh && has_subclass(relid))
	{
		Oid			via = state->via;
		ListCell   *lc;

		state->via = relid;
		foreach(lc, find_all_inheritors(relid, AccessShareLock, NULL))
			AddRelation(state, lfirst_oid(lc), false);
		state->via = via;
	}
}

/*
 * Every relation a query reads, in its range tables, subqueries, common
 * table expressions and sublinks.
 */
static bool
ReadRelationsWalker(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, RangeTblEntry))
	{
		RangeTblEntry *rte = (RangeTblEntry *) node;

		if (rte->rtekind == RTE_RELATION)
			AddRelation((ReadRelationsState *) context, rte->relid, rte->inh);
		return false;
	}
	if (IsA(node, Query))
		return query_tree_walker((Query *) node, ReadRelationsWalker, context,
								 QTW_EXAMINE_RTES_BEFORE);
	return expression_tree_walker(node, ReadRelationsWalker, context);
}

/*
 * The tables and partitioned tables whose rows a read of relid returns:
 * relid's own, its inheritors', and for a view those of every relation it
 * reads, recursively; an error when one of them is of a kind no horizon
 * covers (a materialized view, a foreign table).
 */
static List *
ReadRelations(const char *caller, Oid relid)
{
	ReadRelationsState state = {caller, InvalidOid, NIL, NIL};

	AddRelation(&state, relid, true);
	return state.tables;
}

/* What a check that every row read passes a guard has found */
typedef struct CoverState
{
	const char *caller;			/* the SQL function, for messages */
	Oid			guardfn;		/* pg_uuidx_horizon_guard() */
	int			version;		/* of the ids read */
	GuardAllowance allowance;	/* of the guards found */
	List	   *views;			/* the views being followed, innermost last */
} CoverState;

/*
 * Refuse to read the column of table relid: no guard that fires in writing
 * sessions sees its ids
 */
pg_noreturn static void
RefuseUnguarded(const CoverState *state, Oid relid, const char *column)
{
	StringInfoData call;

	initStringInfo(&call);
	appendStringInfoString(&call, quote_literal_cstr(RelationName(relid)));
	if (strcmp(column, "id") != 0)
		appendStringInfo(&call, ", id_column => %s", quote_literal_cstr(column));
	if (state->version != 7)
		appendStringInfo(&call, ", id_version => %d", state->version);
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("%s cannot read table %s: column \"%s\" has no guard", state->caller,
					RelationName(relid), column),
			 errdetail("Only a guard sees every row stored, whatever made its id (core's uuidv7(), a client, COPY): without one a row can commit below a horizon already read. A disabled guard, or one enabled for replication only, does not count."),
			 errhint("Add the guard: SELECT pg_uuidx_add_guard(%s);", call.data)));
}

/*
 * Refuse to read view: the rows of its id column do not come straight from
 * table columns
 */
pg_noreturn static void
RefuseView(const CoverState *state, Oid view)
{
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("%s cannot read view %s: its id column is not a column of guarded tables",
					state->caller, RelationName(view)),
			 errdetail("A view read in order must take its id column from table columns, through selections without a condition and UNION ALL: a join, a condition, a sublink, a grouping, DISTINCT, LIMIT, FOR UPDATE, TABLESAMPLE or a computed id can make a row appear after a reader has passed its id."),
			 errhint("Read the tables the rows come from.")));
}

static void CheckCoveredQuery(CoverState *state, Query *query, AttrNumber resno, Oid view);

/*
 * Check that every row a read of column attnum of relid returns (with its
 * inheritors' rows when inh) passed a guard of that column: a table's own,
 * or through a view, those of the table columns it comes from.  A Citus
 * table's guard is on each of its shards too (Citus creates a distributed
 * table's triggers on them).  -DPG_UUIDX_TEST_CLUSTER_UNGUARDED builds a
 * reader without the check, for test/lanes/citus/reading.pl.
 */
static void
CheckCoveredRelation(CoverState *state, Oid relid, AttrNumber attnum, bool inh)
{
	const char *column;
	ListCell   *lc;

	check_stack_depth();
	CHECK_FOR_INTERRUPTS();
	if (get_rel_relkind(relid) == RELKIND_VIEW)
	{
		Relation	view;
		Query	   *query;

		/* views that read each other, as the rewriter refuses them */
		if (list_member_oid(state->views, relid))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
					 errmsg("infinite recursion detected in rules for relation \"%s\"",
							get_rel_name(relid))));
		view = relation_open(relid, AccessShareLock);
		query = copyObject(get_view_query(view));
		relation_close(view, NoLock);
		state->views = lappend_oid(state->views, relid);
		CheckCoveredQuery(state, query, attnum, relid);
		state->views = list_delete_last(state->views);
		return;
	}
	column = get_attname(relid, attnum, false);
	/*
	 * The tables that store rows: partitions carry their parents' guards,
	 * inheritance children their own; a partitioned table stores none
	 */
	foreach(lc, inh ? find_all_inheritors(relid, AccessShareLock, NULL) : list_make1_oid(relid))
	{
		if (get_rel_relkind(lfirst_oid(lc)) == RELKIND_PARTITIONED_TABLE ||
			guard_covers(lfirst_oid(lc), state->guardfn, column, state->version, &state->allowance))
			continue;
#ifndef PG_UUIDX_TEST_CLUSTER_UNGUARDED
		RefuseUnguarded(state, lfirst_oid(lc), column);
#endif
	}
}

/* The same for column resno of the rows of query, the query of view */
static void
CheckCoveredQuery(CoverState *state, Query *query, AttrNumber resno, Oid view)
{
	TargetEntry *tle;
	Node	   *expr;
	Var		   *var;
	RangeTblEntry *rte;

	/*
	 * A row that can appear in the view after it was stored: through other
	 * rows, a condition (an UPDATE that keeps the id makes it true, or the
	 * time does), a lock (FOR UPDATE SKIP LOCKED), a sample
	 */
	if (query->hasAggs || query->groupClause != NIL || query->groupingSets != NIL ||
		query->havingQual != NULL || query->hasWindowFuncs || query->distinctClause != NIL ||
		query->limitCount != NULL || query->limitOffset != NULL || query->hasSubLinks ||
		query->cteList != NIL || query->hasTargetSRFs || query->rowMarks != NIL ||
		query->jointree->quals != NULL)
		RefuseView(state, view);
	if (query->setOperations != NULL)
	{
		List	   *todo = list_make1(query->setOperations);

		/* each branch of a UNION ALL in turn */
		while (todo != NIL)
		{
			Node	   *node = linitial(todo);

			todo = list_delete_first(todo);
			if (IsA(node, RangeTblRef))
			{
				rte = rt_fetch(((RangeTblRef *) node)->rtindex, query->rtable);
				if (rte->rtekind != RTE_SUBQUERY)
					RefuseView(state, view);
				CheckCoveredQuery(state, rte->subquery, resno, view);
			}
			else if (IsA(node, SetOperationStmt) &&
					 ((SetOperationStmt *) node)->op == SETOP_UNION && ((SetOperationStmt *) node)->all)
				todo = lappend(lappend(todo, ((SetOperationStmt *) node)->larg),
							   ((SetOperationStmt *) node)->rarg);
			else
				RefuseView(state, view);
		}
		return;
	}
	if (list_length(query->jointree->fromlist) != 1 ||
		!IsA(linitial(query->jointree->fromlist), RangeTblRef) ||
		(tle = get_tle_by_resno(query->targetList, resno)) == NULL)
		RefuseView(state, view);
	expr = (Node *) tle->expr;
	while (IsA(expr, RelabelType) || IsA(expr, CoerceToDomain))
		expr = IsA(expr, RelabelType) ? (Node *) ((RelabelType *) expr)->arg :
			(Node *) ((CoerceToDomain *) expr)->arg;
	if (!IsA(expr, Var))
		RefuseView(state, view);
	var = (Var *) expr;
	if (var->varlevelsup != 0 || var->varattno <= 0 ||
		var->varno != ((RangeTblRef *) linitial(query->jointree->fromlist))->rtindex)
		RefuseView(state, view);
	rte = rt_fetch(var->varno, query->rtable);
	if (rte->rtekind == RTE_RELATION && rte->tablesample == NULL)
		CheckCoveredRelation(state, rte->relid, var->varattno, rte->inh);
	else if (rte->rtekind == RTE_SUBQUERY)
		CheckCoveredQuery(state, rte->subquery, var->varattno, view);
	else
		RefuseView(state, view);
}

/*
 * The select list: every column of the result row type that is not
 * dropped, by its quoted name, in order.
 */
static void
AppendColumns(StringInfo query, TupleDesc desc)
{
	bool		first = true;

	for (int i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);

		if (att->attisdropped)
			continue;
		appendStringInfo(query, "%s%s", first ? "" : ", ",
						 quote_identifier(NameStr(att->attname)));
		first = false;
	}
}

/*
 * Check that the query's columns are, in order, the result row type's
 * columns that are not dropped, of the same types.  Both come from the same
 * relation under a lock, so a difference is a bug, not a user's error.
 */
static void
CheckColumns(TupleDesc result, TupleDesc spi)
{
	int			j = 0;

	for (int i = 0; i < result->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(result, i);

		if (att->attisdropped)
			continue;
		if (j >= spi->natts || TupleDescAttr(spi, j)->atttypid != att->atttypid)
			elog(ERROR, "pg_uuidx_read_after(): the query's column %d does not match column \"%s\" of the row type",
				 j + 1, NameStr(att->attname));
		j++;
	}
	if (j != spi->natts)
		elog(ERROR, "pg_uuidx_read_after(): the query returned %d columns, the row type has %d",
			 spi->natts, j);
}

/* The id version of argument argno, 7 or 6 (22023 otherwise, and NULL) */
int
read_after_version(FunctionCallInfo fcinfo, int argno)
{
	int			version = PG_ARGISNULL(argno) ? 0 : PG_GETARG_INT32(argno);

	if (version != 6 && version != 7)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("id_version must be 6 or 7")));
	return version;
}

/*
 * Check that the transaction reads under READ COMMITTED, and find the
 * relation whose row type the first argument has, its id column id_column
 * and the tables a read of it returns rows of, for caller (the SQL
 * function, in messages).  The relation is locked and the current user may
 * read it (42501 otherwise).
 */
void
read_after_target(FunctionCallInfo fcinfo, const char *caller, const char *id_column, int version,
				  ReadAfterTarget *target)
{
	CoverState	cover = {caller, InvalidOid, version, {0, false}, NIL};

	if (IsolationUsesXactSnapshot())
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TRANSACTION_STATE),
				 errmsg("%s needs the READ COMMITTED isolation level", caller),
				 errdetail("A transaction of a higher level reads with a snapshot taken before the horizon, which can lack rows below it."),
				 errhint("Call it in a READ COMMITTED transaction.")));

	target->id_column = pstrdup(id_column);
	target->relid = row_table(fcinfo, caller, id_column, &target->column);
	cover.guardfn = guard_function(fcinfo->flinfo->fn_oid);
	/* a guard made after its inheritance children were: they are not guarded */
	guard_check_inheritance(target->relid, cover.guardfn);
	target->tables = ReadRelations(caller, target->relid);
	/* every row read passed a guard: the reader never trusts an id's maker */
	CheckCoveredRelation(&cover, target->relid, get_attnum(target->relid, id_column), true);
	target->allowance = cover.allowance;
}

/*
 * The allowance a reader reads relid with, locked, and the tables a read of
 * it returns rows of (read_after.h)
 */
int
read_after_allowance(const char *caller, Oid relid, Oid guardfn, List **tables)
{
	/* a guard made after its inheritance children were: they are not guarded */
	guard_check_inheritance(relid, guardfn);
	*tables = ReadRelations(caller, relid);
	return guard_read_allowance(*tables, guardfn);
}

/*
 * Put into fcinfo's result (a materialized set of target's row type) the
 * first max_rows rows, and every further row whose id equals the last of
 * them, of target whose id column is above after_id (after_null: from the
 * first) and below the horizon of version (7 or 6), in id order; the
 * horizon is the newest tick or the live one as from_tick says
 * (reader_horizon_us()).  Returns whether there was a row, and the last
 * (greatest) id in *last.
 */
bool
read_after_rows(FunctionCallInfo fcinfo, const char *caller, const ReadAfterTarget *target,
				Datum after_id, bool after_null, int32 max_rows, int version, int from_tick,
				pg_uuid_t *last)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Oid			relid = target->relid;
	const char *column = target->column;
	Datum		horizon;
	StringInfoData query;
	Oid			argtypes[3] = {UUIDOID, UUIDOID, INT4OID};
	Datum		args[3];
	char		nulls[3] = {' ', ' ', ' '};
	TupleDesc	desc;
	Datum	   *values;
	bool	   *isnull;
	Datum	   *row;
	bool	   *rownull;
	MemoryContext rowcxt;
	bool		found = false;
	int			rc;

	/* the result row type: the table's, dropped columns included */
	InitMaterializedSRF(fcinfo, 0);
	desc = rsinfo->setDesc;

	/* the horizon first: the query below takes its snapshot after it */
	horizon = UUIDPGetDatum(horizon_id(reader_horizon_us(fcinfo->flinfo->fn_oid, relid, target->tables,
														 &target->allowance,
														 from_tick, caller),
									   version));

	initStringInfo(&query);
	appendStringInfoString(&query, "SELECT ");
	AppendColumns(&query, desc);
	appendStringInfo(&query, " FROM %s WHERE %s OPERATOR(pg_catalog.<) $2",
					 quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
												get_rel_name(relid)),
					 column);
	if (!after_null)
		appendStringInfo(&query, " AND %s OPERATOR(pg_catalog.>) $1", column);
	/* a run of equal ids is never split: the next call starts above it */
	appendStringInfo(&query, " ORDER BY %s USING OPERATOR(pg_catalog.<) FETCH FIRST $3 ROWS WITH TIES",
					 column);
	args[0] = after_null ? (Datum) 0 : after_id;
	nulls[0] = after_null ? 'n' : ' ';
	args[1] = horizon;
	args[2] = Int32GetDatum(max_rows);

	if ((rc = SPI_connect()) != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed: %s", SPI_result_code_string(rc));
	/*
	 * Not read_only: a fresh snapshot, taken after the horizon.  Planned for
	 * each call, as if it were not kept (its bounds; an IMMUTABLE function
	 * of a row-level security policy evaluated again), in parallel where it
	 * pays, as SPI_execute_with_args() plans.
	 */
	if ((rc = saved_plan_execute(query.data, 3, argtypes, CURSOR_OPT_CUSTOM_PLAN | CURSOR_OPT_PARALLEL_OK,
								 args, nulls, false, 0)) != SPI_OK_SELECT)
		elog(ERROR, "SPI_execute_plan failed for %s: %s", caller, SPI_result_code_string(rc));
	CheckColumns(desc, SPI_tuptable->tupdesc);

	/* the rows come in id order: the last one has the greatest id */
	if (SPI_processed > 0 && last != NULL)
	{
		int			fnumber = SPI_fnumber(SPI_tuptable->tupdesc, target->id_column);
		bool		idnull;
		Datum		id;

		if (fnumber <= 0)
			elog(ERROR, "%s: column \"%s\" is not in the query's result", caller, target->id_column);
		id = SPI_getbinval(SPI_tuptable->vals[SPI_processed - 1], SPI_tuptable->tupdesc, fnumber, &idnull);
		if (idnull)
			elog(ERROR, "%s: a row read has a NULL id", caller);
		memcpy(last, DatumGetUUIDP(id), sizeof(pg_uuid_t));
	}
	found = SPI_processed > 0;

	values = palloc(sizeof(Datum) * SPI_tuptable->tupdesc->natts);
	isnull = palloc(sizeof(bool) * SPI_tuptable->tupdesc->natts);
	row = palloc(sizeof(Datum) * desc->natts);
	rownull = palloc(sizeof(bool) * desc->natts);
	rowcxt = AllocSetContextCreate(CurrentMemoryContext, "pg_uuidx_read_after row",
								   ALLOCSET_DEFAULT_SIZES);
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		MemoryContext old = MemoryContextSwitchTo(rowcxt);
		int			j = 0;

		heap_deform_tuple(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, values, isnull);
		for (int k = 0; k < desc->natts; k++)
		{
			Form_pg_attribute att = TupleDescAttr(desc, k);

			rownull[k] = att->attisdropped || isnull[j];
			row[k] = rownull[k] ? (Datum) 0 : values[j];

			/*
			 * A value stored out of line is fetched now, under the query's
			 * snapshot: the rows outlive it in the tuplestore.
			 */
			if (!rownull[k] && att->attlen == -1 &&
				VARATT_IS_EXTERNAL(DatumGetPointer(row[k])))
				row[k] = PointerGetDatum(detoast_external_attr((struct varlena *) DatumGetPointer(row[k])));
			if (!att->attisdropped)
				j++;
		}
		tuplestore_putvalues(rsinfo->setResult, desc, row, rownull);
		MemoryContextSwitchTo(old);
		MemoryContextReset(rowcxt);
	}
	SPI_finish();
	return found;
}

/*
 * pg_uuidx_read_after(): the arguments checked, read_after_rows() of the
 * relation of row_type (argument 0) after after_id (1), at most max_rows
 * (2), by id_column (3) of version id_version (4, 7 or 6).
 */
static Datum
read_after(FunctionCallInfo fcinfo, int from_tick)
{
	const char *caller = "pg_uuidx_read_after()";
	ReadAfterTarget target;
	int			version;

	if (PG_ARGISNULL(2) || PG_ARGISNULL(3))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s must not be NULL", PG_ARGISNULL(2) ? "max_rows" : "id_column")));
	if (PG_GETARG_INT32(2) < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("max_rows must be zero or more")));
	version = read_after_version(fcinfo, 4);

	read_after_target(fcinfo, caller, NameStr(*PG_GETARG_NAME(3)), version, &target);
	(void) read_after_rows(fcinfo, caller, &target, PG_ARGISNULL(1) ? (Datum) 0 : PG_GETARG_DATUM(1),
						   PG_ARGISNULL(1), PG_GETARG_INT32(2), version, from_tick, NULL);
	return (Datum) 0;
}

PG_FUNCTION_INFO_V1(pg_uuidx_read_after_with_ticks);

/*
 * pg_uuidx_read_after(row_type anyelement, after_id uuid, max_rows integer,
 * id_column name, id_version integer, from_tick boolean) -> SETOF
 * anyelement: read_after().
 *
 * The C name differs from the SQL name on purpose: 1.5's library has a
 * pg_uuidx_read_after() that reads up to the live horizon, also where a
 * subscription writes the table.  A session that still has that library
 * loaded after the update to 1.6 without a restart (17+) fails to find this
 * function in it, rather than reading with 1.5's.
 */
Datum
pg_uuidx_read_after_with_ticks(PG_FUNCTION_ARGS)
{
	return read_after(fcinfo, PG_ARGISNULL(5) ? -1 : PG_GETARG_BOOL(5));
}

PG_FUNCTION_INFO_V1(pg_uuidx_read_after);

/*
 * pg_uuidx_read_after(row_type anyelement, after_id uuid, max_rows integer,
 * id_column name, id_version integer) -> SETOF anyelement: 1.5's
 * signature, for a database still at 1.5 with this library (before ALTER
 * EXTENSION pg_uuidx UPDATE); it reads as from_tick NULL does.
 */
Datum
pg_uuidx_read_after(PG_FUNCTION_ARGS)
{
	return read_after(fcinfo, -1);
}
