/*
 * guard_ddl.c
 *		pg_uuidx_guard_ddl(): an event trigger that covers, or refuses, the
 *		rows that join a guarded table by DDL instead of by INSERT.
 *
 * Owns this event trigger function, guard_function() and
 * guard_check_inheritance(); may call guard.h and horizon.h.
 *
 * The guard (guard.c) covers a row when it is written.  Rows can also join
 * a guarded table without being written, each time below readers that have
 * moved on:
 *
 * - ALTER TABLE ... ATTACH PARTITION of a table that holds rows.  The
 *   partition gets its new parent's guards (PostgreSQL clones a partitioned
 *   table's row triggers to each partition), and its rows are treated as
 *   inserted now: the least id in each guarded column is covered for this
 *   transaction, so that the horizon stays below all of them until the
 *   ATTACH commits; an id below the floor refuses the ATTACH (40001), as
 *   the guard refuses a row.
 * - Inheritance.  A table that inherits from a guarded one gets none of its
 *   triggers, and rows inserted into it skip the guard.  So every table
 *   that inherits from a guarded one must carry the same guards itself:
 *   CREATE TABLE ... INHERITS a guarded table is refused (the new table has
 *   no trigger yet), ALTER TABLE ... INHERIT is refused unless the child
 *   and the tables inheriting from it carry them, and the child's rows are
 *   then covered as an attached partition's are.
 * - Foreign tables hold rows written elsewhere, where no guard runs: one
 *   cannot join a guarded table (PARTITION OF, ATTACH PARTITION, INHERITS,
 *   INHERIT).
 *
 * CREATE TRIGGER of a guard checks its declaration, arguments and column
 * as each firing does (guard.c): a guard declared BEFORE INSERT only would
 * never fire on the UPDATE that moves an id back.
 *
 * The statement guard (guard_statement.c) counts as a guard of its column
 * here, but its triggers fire only for the table that a statement names,
 * and are not cloned to partitions; its transition tables hold the rows
 * the statement stores into the partitions and children below.  So:
 *
 * - A partition, like an inheritance child, must carry a guard of its own
 *   (either form) for each statement guard above it: CREATE TABLE ...
 *   PARTITION OF a table guarded so is refused as INHERITS is, and ATTACH
 *   PARTITION needs the guard on the partition.
 * - An inheritance child under a row guard needs a row guard: an UPDATE of
 *   the parent fires the child's row triggers, not its statement triggers.
 * - A statement guard on a table that inherits is refused unless each table
 *   above it has a statement guard of the column too (their statements
 *   store rows into it without firing it), or a row guard of the column
 *   stands beside it.
 *
 * A guard created on a table that already has children is not checked
 * here: pg_dump creates triggers last, in the order of their names and
 * then of their tables', so a parent's guard may come before its
 * children's, and refusing it would break a restore.
 * guard_check_inheritance() is what a reader can call for that case.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/relation.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_trigger.h"
#include "commands/event_trigger.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "parser/parse_func.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "guard.h"
#include "horizon.h"
#include "ticks.h"

/* a guard trigger of a table: its name, its column, its ids' version, its allowance */
typedef struct GuardOf
{
	Oid			relid;
	const char *name;
	const char *column;
	int			version;
	int			allowance_ms;
	bool		enabled;
	bool		statement;		/* of the statement guard, not cloned */
} GuardOf;

/*
 * pg_uuidx_horizon_guard() of the pg_uuidx installation that the function
 * member belongs to (the extension's schema); InvalidOid when it has none.
 */
Oid
guard_function(Oid member)
{
	char	   *schema = get_namespace_name(get_func_namespace(member));

	return LookupFuncName(list_make2(makeString(schema), makeString("pg_uuidx_horizon_guard")),
						  0, NULL, true);
}

/*
 * The guard triggers (of function guardfn, or of its statement guard) of
 * relid, as GuardOf items
 */
static List *
guards_of(Oid relid, Oid guardfn)
{
	Relation	rel = relation_open(relid, AccessShareLock);
	Oid			statementfn = guard_statement_function(guardfn);
	List	   *guards = NIL;

	for (int i = 0; rel->trigdesc != NULL && i < rel->trigdesc->numtriggers; i++)
	{
		Trigger    *trigger = &rel->trigdesc->triggers[i];
		GuardOf    *guard;

		if (trigger->tgfoid != guardfn && trigger->tgfoid != statementfn)
			continue;
		guard = palloc(sizeof(GuardOf));
		guard->relid = relid;
		guard->name = pstrdup(trigger->tgname);
		guard->column = pstrdup(guard_column(trigger, &guard->version, &guard->allowance_ms));
		guard->enabled = trigger->tgenabled != TRIGGER_DISABLED;
		guard->statement = trigger->tgfoid == statementfn;
		guards = lappend(guards, guard);
	}
	relation_close(rel, NoLock);
	return guards;
}

int
guard_read_allowance(List *tables, Oid guardfn)
{
	int			allowance_ms = READ_GENERATED;
	ListCell   *lc;

	foreach(lc, tables)
	{
		ListCell   *g;

		foreach(g, guards_of(lfirst_oid(lc), guardfn))
			allowance_ms = Max(allowance_ms, ((GuardOf *) lfirst(g))->allowance_ms);
	}
	return allowance_ms;
}

/* The tables relid inherits from, directly or not (partitions' parents too) */
static List *
ancestors_of(Oid relid)
{
	Relation	inherits = table_open(InheritsRelationId, AccessShareLock);
	List	   *ancestors = NIL;
	List	   *todo = list_make1_oid(relid);

	while (todo != NIL)
	{
		ScanKeyData key;
		SysScanDesc scan;
		HeapTuple	tuple;

		ScanKeyInit(&key, Anum_pg_inherits_inhrelid, BTEqualStrategyNumber, F_OIDEQ,
					ObjectIdGetDatum(linitial_oid(todo)));
		todo = list_delete_first(todo);
		scan = systable_beginscan(inherits, InheritsRelidSeqnoIndexId, true, NULL, 1, &key);
		while (HeapTupleIsValid(tuple = systable_getnext(scan)))
		{
			Oid			parent = ((Form_pg_inherits) GETSTRUCT(tuple))->inhparent;

			if (!list_member_oid(ancestors, parent))
			{
				ancestors = lappend_oid(ancestors, parent);
				todo = lappend_oid(todo, parent);
			}
		}
		systable_endscan(scan);
	}
	table_close(inherits, AccessShareLock);
	return ancestors;
}

/* The guards of the tables relid inherits from */
static List *
guards_above(Oid relid, Oid guardfn)
{
	List	   *guards = NIL;
	ListCell   *lc;

	foreach(lc, ancestors_of(relid))
		guards = list_concat(guards, guards_of(lfirst_oid(lc), guardfn));
	return guards;
}

/* The statement guards of guards (statement), or the row guards */
static List *
guards_of_form(List *guards, bool statement)
{
	List	   *of_form = NIL;
	ListCell   *lc;

	foreach(lc, guards)
		if (((GuardOf *) lfirst(lc))->statement == statement)
			of_form = lappend(of_form, lfirst(lc));
	return of_form;
}

/* Whether guards has a guard of column and version */
static bool
has_guard(List *guards, const char *column, int version)
{
	ListCell   *lc;

	foreach(lc, guards)
	{
		GuardOf    *guard = lfirst(lc);

		if (strcmp(guard->column, column) == 0 && guard->version == version)
			return true;
	}
	return false;
}

/* Refuses foreign table name, which would be under guard */
pg_noreturn static void
refuse_foreign(const char *name, GuardOf *guard)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
			 errmsg("foreign table \"%s\" cannot join \"%s\", which trigger \"%s\" guards",
					name, get_rel_name(guard->relid), guard->name),
			 errdetail("The rows of a foreign table are written elsewhere, where the guard does not run.")));
}

/*
 * Refuses table name, which would inherit from guard's table without it
 * (as a partition: the guard is a statement guard); own_statement: name
 * has a statement guard of the column, which does not stand in for a row
 * guard
 */
pg_noreturn static void
refuse_unguarded(const char *name, GuardOf *guard, bool partition, bool own_statement)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
			 errmsg("table \"%s\" inherits from \"%s\" but has no guard of column \"%s\"",
					name, get_rel_name(guard->relid), guard->column),
			 guard->statement ?
			 errdetail("Statement triggers fire only for the table a statement names, so rows that a statement stores into this table would skip the statement guard \"%s\".",
					   guard->name) :
			 own_statement ?
			 errdetail("An UPDATE of \"%s\" that reaches this table's rows fires their row triggers, not this table's statement guard, and the guard \"%s\" does not fire for them.",
					   get_rel_name(guard->relid), guard->name) :
			 errdetail("A table that inherits from another gets none of its triggers, so rows inserted into it would skip the guard \"%s\".",
					   guard->name),
			 partition ?
			 errhint("Create the table without PARTITION OF, create a guard of the column on it, then ALTER TABLE ... ATTACH PARTITION.") :
			 errhint("Create the table without INHERITS, create the same guard on it, then ALTER TABLE ... INHERIT.")));
}

/*
 * Refuses statement guard of table name, unless each table it inherits
 * from (ancestors) has a statement guard of the same column: an INSERT
 * into a partitioned table, or an UPDATE of an inheritance parent, stores
 * rows into name without firing name's statement triggers; its parents'
 * statement guards see those rows in their transition tables.
 */
static void
check_statement_guard_above(const char *name, GuardOf *guard, List *ancestors, Oid guardfn)
{
	ListCell   *lc;

	foreach(lc, ancestors)
	{
		Oid			ancestor = lfirst_oid(lc);

		if (has_guard(guards_of_form(guards_of(ancestor, guardfn), true), guard->column, guard->version))
			continue;
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
				 errmsg("statement guard \"%s\" of \"%s\" does not fire for the statements of \"%s\"",
						guard->name, name, get_rel_name(ancestor)),
				 errdetail("Statement triggers fire only for the table a statement names: the rows that an INSERT or an UPDATE of \"%s\" stores into \"%s\" would skip the guard.",
						   get_rel_name(ancestor), name),
				 errhint("Create the statement guard of column \"%s\" on \"%s\" too, or guard \"%s\" with pg_uuidx_horizon_guard().",
						 guard->column, get_rel_name(ancestor), name)));
	}
}

/*
 * Refuses relid, or a table that inherits from it, that joins a guarded
 * table without being guarded itself: a foreign table, or a table that
 * inherits without a guard of its own for each guard above it (a partition:
 * for each statement guard above it, as it carries its parents' row
 * guards; an inheritance child: a row guard for each row guard above it).
 * And a statement guard on a table that inherits, whose parents' statements
 * it does not see, unless a row guard of the column stands beside it.
 */
void
guard_check_inheritance(Oid relid, Oid guardfn)
{
	ListCell   *lc;

	foreach(lc, find_all_inheritors(relid, NoLock, NULL))
	{
		Oid			child = lfirst_oid(lc);
		List	   *ancestors = ancestors_of(child);
		bool		foreign = get_rel_relkind(child) == RELKIND_FOREIGN_TABLE;
		bool		partition = get_rel_relispartition(child) && !foreign;
		List	   *above;
		List	   *own;
		List	   *own_rows;
		ListCell   *g;

		if (ancestors == NIL)
			continue;
		above = guards_above(child, guardfn);
		if (foreign)
		{
			if (above != NIL)
				refuse_foreign(get_rel_name(child), linitial(above));
			continue;
		}
		own = guards_of(child, guardfn);
		own_rows = guards_of_form(own, false);
		foreach(g, above)
		{
			GuardOf    *guard = lfirst(g);

			/* a partition has its parents' row guards */
			if (partition && !guard->statement)
				continue;
			if (!has_guard(guard->statement ? own : own_rows, guard->column, guard->version))
				refuse_unguarded(get_rel_name(child), guard, partition,
								 has_guard(own, guard->column, guard->version));
		}
		foreach(g, guards_of_form(own, true))
		{
			GuardOf    *guard = lfirst(g);

			if (!has_guard(own_rows, guard->column, guard->version))
				check_statement_guard_above(get_rel_name(child), guard, ancestors, guardfn);
		}
	}
}

/*
 * The least non-NULL id of column in relid and the tables under it; false
 * when there is none.  Read as the table's owner, past its row security
 * (as a foreign key's check reads), under the latest snapshot: the rows of
 * every transaction that committed, as readers will see them.
 */
static bool
least_id(Oid relid, const char *column, pg_uuid_t *least)
{
	const char *col = quote_identifier(column);
	char	   *query = psprintf("SELECT %s FROM %s WHERE %s IS NOT NULL ORDER BY %s USING OPERATOR(pg_catalog.<) LIMIT 1",
								 col,
								 quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
															get_rel_name(relid)),
								 col, col);
	Relation	rel = relation_open(relid, NoLock);
	Oid			owner = rel->rd_rel->relowner;
	Oid			save_userid;
	int			save_sec_context;
	SPIPlanPtr	plan;
	bool		found;
	int			rc;

	relation_close(rel, NoLock);
	GetUserIdAndSecContext(&save_userid, &save_sec_context);
	SetUserIdAndSecContext(owner, save_sec_context | SECURITY_LOCAL_USERID_CHANGE |
						   SECURITY_RESTRICTED_OPERATION | SECURITY_NOFORCE_RLS);
	if ((rc = SPI_connect()) != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed: %s", SPI_result_code_string(rc));
	plan = SPI_prepare(query, 0, NULL);
	if (plan == NULL)
		elog(ERROR, "SPI_prepare of \"%s\" failed: %s", query, SPI_result_code_string(SPI_result));
	CommandCounterIncrement();
	if ((rc = SPI_execute_snapshot(plan, NULL, NULL, GetLatestSnapshot(), InvalidSnapshot,
								   true, false, 1)) != SPI_OK_SELECT)
		elog(ERROR, "SPI_execute_snapshot of \"%s\" failed: %s", query, SPI_result_code_string(rc));
	found = SPI_processed > 0;
	if (found)
	{
		bool		isnull;
		Datum		value = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);

		memcpy(least, DatumGetUUIDP(value), UUID_LEN);
	}
	SPI_finish();
	SetUserIdAndSecContext(save_userid, save_sec_context);
	return found;
}

/*
 * Covers the rows of relid, which has just joined a guarded table, as if
 * inserted now: for each guard above it that is enabled, the least id of
 * the guard's column holds the horizon for this transaction, or the
 * statement is refused when it lies below the floor.
 */
static void
cover_rows(Oid relid, Oid guardfn)
{
	List	   *covered = NIL;
	ListCell   *lc;

	foreach(lc, guards_above(relid, guardfn))
	{
		GuardOf    *guard = lfirst(lc);
		pg_uuid_t	least;
		int64		id_us;
		int64		floor_us;
		char	   *text;

		if (!guard->enabled || has_guard(covered, guard->column, guard->version))
			continue;
		covered = lappend(covered, guard);
		if (!least_id(relid, guard->column, &least))
			continue;
		text = DatumGetCString(DirectFunctionCall1(uuid_out, UUIDPGetDatum(&least)));
		if (!guard_id_us(&least, guard->version, &id_us))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("table \"%s\" holds id %s, which is not a version %d UUID",
							get_rel_name(relid), text, guard->version),
					 errdetail("Trigger \"%s\" of \"%s\" reads column \"%s\" in version %d id order.",
							   guard->name, get_rel_name(guard->relid), guard->column, guard->version)));
		if (!horizon_cover(id_us, guard->allowance_ms, &floor_us))
		{
			/* timestamptz_to_str() returns a static buffer */
			char	   *made = pstrdup(timestamptz_to_str(id_us - UNIX_TO_PG_EPOCH_US));
			char	   *horizon = pstrdup(timestamptz_to_str(floor_us - UNIX_TO_PG_EPOCH_US));

			horizon_refused();
			ereport(ERROR,
					(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
					 errmsg("table \"%s\" holds id %s made at %s, below the commit horizon already handed out (%s)",
							get_rel_name(relid), text, made, horizon),
					 errdetail("Rows that join \"%s\", which trigger \"%s\" guards, are covered as if inserted now, and readers may already have read past this id.",
							   get_rel_name(guard->relid), guard->name),
					 errhint("To let the rows join anyway, disable the guard in the same transaction (ALTER TABLE %s DISABLE TRIGGER %s), knowing that readers already past their ids will not read them.",
							 get_rel_name(guard->relid), quote_identifier(guard->name))));
		}
	}
}

/*
 * Refuses a guard that CREATE TRIGGER made on relid when its firings would
 * refuse it (guard.c, guard_statement.c): the declaration, the arguments,
 * the column.  Until its next firing it would let rows skip it: one that
 * fires on INSERT only never sees the UPDATE that moves an id back.  Its
 * clones on partitions share its declaration.
 */
static void
check_new_guard(Oid relid, const char *name, Oid guardfn)
{
	Relation	rel = relation_open(relid, NoLock);
	Oid			statementfn = guard_statement_function(guardfn);

	for (int i = 0; rel->trigdesc != NULL && i < rel->trigdesc->numtriggers; i++)
	{
		Trigger    *trigger = &rel->trigdesc->triggers[i];
		int			version;
		int			allowance_ms;

		if (strcmp(trigger->tgname, name) != 0)
			continue;
		if (trigger->tgfoid == guardfn)
			guard_check_trigger(trigger, rel, &version, &allowance_ms);
		else if (trigger->tgfoid == statementfn)
			guard_statement_check_trigger(trigger, rel, &version, &allowance_ms);
	}
	relation_close(rel, NoLock);
}

/* The relation rv names, or InvalidOid when there is none */
static Oid
relation_of(RangeVar *rv)
{
	return rv != NULL ? RangeVarGetRelid(rv, NoLock, true) : InvalidOid;
}

/*
 * Refuses the table that stmt created under a guarded table, when it is a
 * foreign table or a table that inherits: it has no trigger yet (a
 * partition has its parents' row guards, not their statement guards).
 * Read from the parents the statement names, as the statement found them
 * (the new table's name could find another one first, a temporary table).
 */
static void
check_new_table(CreateStmt *stmt, bool foreign, Oid guardfn)
{
	bool		partition = stmt->partbound != NULL && !foreign;
	ListCell   *lc;

	foreach(lc, stmt->inhRelations)
	{
		Oid			parent = relation_of(lfirst(lc));
		List	   *guards;

		if (!OidIsValid(parent))
			continue;
		guards = list_concat(guards_of(parent, guardfn), guards_above(parent, guardfn));
		if (partition)
			guards = guards_of_form(guards, true);
		if (guards == NIL)
			continue;
		if (foreign)
			refuse_foreign(stmt->relation->relname, linitial(guards));
		refuse_unguarded(stmt->relation->relname, linitial(guards), partition, false);
	}
}

PG_FUNCTION_INFO_V1(pg_uuidx_guard_ddl);

/*
 * pg_uuidx_guard_ddl() -> event_trigger, on ddl_command_end of CREATE
 * TABLE, CREATE FOREIGN TABLE, ALTER TABLE, ALTER FOREIGN TABLE and CREATE
 * TRIGGER.
 */
Datum
pg_uuidx_guard_ddl(PG_FUNCTION_ARGS)
{
	EventTriggerData *trigdata = (EventTriggerData *) fcinfo->context;
	Node	   *parsetree;
	Oid			guardfn;

	if (!CALLED_AS_EVENT_TRIGGER(fcinfo))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("pg_uuidx_guard_ddl() must be called as an event trigger")));
	parsetree = trigdata->parsetree;
	guardfn = guard_function(fcinfo->flinfo->fn_oid);
	if (!OidIsValid(guardfn))
		PG_RETURN_VOID();

	if (IsA(parsetree, CreateStmt) || IsA(parsetree, CreateForeignTableStmt))
	{
		/* a CreateForeignTableStmt starts with its CreateStmt */
		check_new_table((CreateStmt *) parsetree, IsA(parsetree, CreateForeignTableStmt), guardfn);
	}
	else if (IsA(parsetree, CreateTrigStmt))
	{
		CreateTrigStmt *stmt = (CreateTrigStmt *) parsetree;
		Oid			relid = relation_of(stmt->relation);

		if (OidIsValid(relid))
			check_new_guard(relid, stmt->trigname, guardfn);
	}
	else if (IsA(parsetree, AlterTableStmt))
	{
		AlterTableStmt *stmt = (AlterTableStmt *) parsetree;
		ListCell   *lc;

		foreach(lc, stmt->cmds)
		{
			AlterTableCmd *cmd = lfirst(lc);
			Oid			joined;

			if (cmd->subtype == AT_AttachPartition)
				joined = relation_of(((PartitionCmd *) cmd->def)->name);
			else if (cmd->subtype == AT_AddInherit)
				joined = relation_of(stmt->relation);
			else
				continue;
			if (!OidIsValid(joined))
				continue;
			guard_check_inheritance(joined, guardfn);
			cover_rows(joined, guardfn);
		}
	}
	PG_RETURN_VOID();
}
