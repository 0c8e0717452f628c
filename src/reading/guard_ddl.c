/*
 * guard_ddl.c
 *		pg_uuidx_guard_ddl(): an event trigger that covers, or refuses, the
 *		rows that join a guarded table by DDL instead of by INSERT.
 *
 * Owns this event trigger function, guard_function() and
 * guard_check_inheritance(); may call guard.h, guard_args.h and horizon.h.
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
 * Both of the guard's row declarations, before and after the row, are
 * cloned to partitions.  Its statement trigger (guard_after.c) is not, and
 * is not a guard here: it only keeps a long statement's ids covered from
 * its start, and no row skips the guard without it.
 *
 * What the statement did is read from pg_event_trigger_ddl_commands(): the
 * tables and triggers by their OIDs, as the statement found them.  Their
 * names looked up again once it is done could find others: a function that
 * the statement ran (a partition key's, while ATTACH PARTITION checks the
 * rows) may have moved search_path.
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
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_trigger.h"
#include "commands/event_trigger.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "parser/parse_func.h"
#include "tcop/deparse_utility.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "ids/id_time.h"
#include "reading/guard.h"
#include "reading/guard_args.h"
#include "reading/horizon.h"

/* a guard trigger of a table: its name, its column, its ids' version, its allowance */
typedef struct GuardOf
{
	Oid			relid;
	const char *name;
	const char *column;
	int			version;
	int			allowance_ms;
	int			arg_ms;			/* its allowance argument, uncapped; -1: none */
	char		enabled;		/* pg_trigger.tgenabled */
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
 * The guard triggers (of function guardfn) of relid, as GuardOf items.  A
 * guard after the row is checked whole (guard.c): one whose WHEN condition
 * is not the cover may never fire to refuse its rows, so a reader of its
 * table refuses to read.
 */
static List *
guards_of(Oid relid, Oid guardfn)
{
	Relation	rel = relation_open(relid, AccessShareLock);
	List	   *guards = NIL;

	for (int i = 0; rel->trigdesc != NULL && i < rel->trigdesc->numtriggers; i++)
	{
		Trigger    *trigger = &rel->trigdesc->triggers[i];
		GuardOf    *guard;

		if (trigger->tgfoid != guardfn || guard_form(trigger) == GUARD_START)
			continue;
		guard = palloc(sizeof(GuardOf));
		guard->relid = relid;
		guard->name = pstrdup(trigger->tgname);
		/* checked whole, as each firing checks it: one that cannot fire refuses its rows' readers */
		guard_check_trigger(trigger, rel, &guard->version, &guard->allowance_ms);
		guard->column = pstrdup(guard_column(trigger, &guard->version, &guard->allowance_ms));
		guard->arg_ms = trigger->tgnargs > 2 ? guard_allowance(trigger->tgname, trigger->tgargs[2]) : -1;
		guard->enabled = trigger->tgenabled;
		guards = lappend(guards, guard);
	}
	relation_close(rel, NoLock);
	return guards;
}

/* whether guard fires in a writing session: enabled, or enabled ALWAYS */
static bool
fires_in_sessions(const GuardOf *guard)
{
	return guard->enabled == TRIGGER_FIRES_ON_ORIGIN || guard->enabled == TRIGGER_FIRES_ALWAYS;
}

bool
guard_enabled_on(Oid relid, Oid guardfn)
{
	ListCell   *lc;

	foreach(lc, guards_of(relid, guardfn))
		if (fires_in_sessions((GuardOf *) lfirst(lc)))
			return true;
	return false;
}

int
guard_read_allowance(List *tables, Oid guardfn)
{
	int			allowance_ms = 0;
	ListCell   *lc;

	foreach(lc, tables)
	{
		ListCell   *g;

		foreach(g, guards_of(lfirst_oid(lc), guardfn))
			if (fires_in_sessions((GuardOf *) lfirst(g)))
				allowance_ms = Max(allowance_ms, ((GuardOf *) lfirst(g))->allowance_ms);
	}
	return allowance_ms;
}

bool
guard_covers(Oid relid, Oid guardfn, const char *column, int version, GuardAllowance *allowance)
{
	bool		covered = false;
	ListCell   *lc;

	foreach(lc, guards_of(relid, guardfn))
	{
		GuardOf    *guard = (GuardOf *) lfirst(lc);

		if (!fires_in_sessions(guard) || guard->version != version || strcmp(guard->column, column) != 0)
			continue;
		covered = true;
		if (guard->arg_ms < 0)
			allowance->setting = true;
		else
			allowance->most_ms = Max(allowance->most_ms, guard->arg_ms);
	}
	return covered;
}

int
guard_allowance_capped(const GuardAllowance *allowance, int cap_ms)
{
	return allowance->setting ? cap_ms : Min(allowance->most_ms, cap_ms);
}

/* The tables relid inherits from directly, in the order of inhseqno */
static List *
parents_of(Oid relid)
{
	Relation	inherits = table_open(InheritsRelationId, AccessShareLock);
	List	   *parents = NIL;
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;

	ScanKeyInit(&key, Anum_pg_inherits_inhrelid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(relid));
	scan = systable_beginscan(inherits, InheritsRelidSeqnoIndexId, true, NULL, 1, &key);
	while (HeapTupleIsValid(tuple = systable_getnext(scan)))
		parents = lappend_oid(parents, ((Form_pg_inherits) GETSTRUCT(tuple))->inhparent);
	systable_endscan(scan);
	table_close(inherits, AccessShareLock);
	return parents;
}

/* The tables relid inherits from, directly or not (partitions' parents too) */
static List *
ancestors_of(Oid relid)
{
	List	   *ancestors = NIL;
	List	   *todo = list_make1_oid(relid);

	while (todo != NIL)
	{
		ListCell   *lc;

		foreach(lc, parents_of(linitial_oid(todo)))
		{
			Oid			parent = lfirst_oid(lc);

			if (!list_member_oid(ancestors, parent))
			{
				ancestors = lappend_oid(ancestors, parent);
				todo = lappend_oid(todo, parent);
			}
		}
		todo = list_delete_first(todo);
	}
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

/* Refuses table name, which would inherit from guard's table without it */
pg_noreturn static void
refuse_unguarded(const char *name, GuardOf *guard)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_OBJECT_DEFINITION),
			 errmsg("table \"%s\" inherits from \"%s\" but has no guard of column \"%s\"",
					name, get_rel_name(guard->relid), guard->column),
			 errdetail("A table that inherits from another gets none of its triggers, so rows inserted into it would skip the guard \"%s\".",
					   guard->name),
			 errhint("Create the table without INHERITS, create the same guard on it, then ALTER TABLE ... INHERIT.")));
}

/*
 * Refuses relid, or a table that inherits from it, that joins a guarded
 * table without being guarded itself: a foreign table, or a table that
 * inherits (not a partition, which carries its parents' guards) without a
 * guard of its own for each guard above it.
 */
void
guard_check_inheritance(Oid relid, Oid guardfn)
{
	ListCell   *lc;

	foreach(lc, find_all_inheritors(relid, NoLock, NULL))
	{
		Oid			child = lfirst_oid(lc);
		bool		foreign = get_rel_relkind(child) == RELKIND_FOREIGN_TABLE;
		List	   *above;
		List	   *own;
		ListCell   *g;

		if (get_rel_relispartition(child) && !foreign)
			continue;
		above = guards_above(child, guardfn);
		if (above == NIL)
			continue;
		if (foreign)
			refuse_foreign(get_rel_name(child), linitial(above));
		own = guards_of(child, guardfn);
		foreach(g, above)
		{
			GuardOf    *guard = lfirst(g);

			if (!has_guard(own, guard->column, guard->version))
				refuse_unguarded(get_rel_name(child), guard);
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
	AttrNumber	attnum = get_attnum(relid, column);
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

	/*
	 * A guard declared before the row names its column by name only: the
	 * column may have been dropped or given another type since
	 */
	if (attnum == InvalidAttrNumber || getBaseType(get_atttype(relid, attnum)) != UUIDOID)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("column \"%s\" of relation \"%s\", which a guard names, is not of type uuid",
						column, get_rel_name(relid)),
				 errhint("Drop the guard, or make the column a uuid again.")));
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
 * inserted now: for each guard above it that is not disabled (one enabled
 * REPLICA too, which fires where the session is a replica's), the least
 * id of the guard's column holds the horizon for this transaction, or the
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

		if (guard->enabled == TRIGGER_DISABLED || has_guard(covered, guard->column, guard->version))
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

/* The table of trigger tgoid, or InvalidOid when there is none */
static Oid
trigger_table(Oid tgoid)
{
	Relation	triggers = table_open(TriggerRelationId, AccessShareLock);
	Oid			relid = InvalidOid;
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;

	ScanKeyInit(&key, Anum_pg_trigger_oid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(tgoid));
	scan = systable_beginscan(triggers, TriggerOidIndexId, true, NULL, 1, &key);
	if (HeapTupleIsValid(tuple = systable_getnext(scan)))
		relid = ((Form_pg_trigger) GETSTRUCT(tuple))->tgrelid;
	systable_endscan(scan);
	table_close(triggers, AccessShareLock);
	return relid;
}

/*
 * Refuses trigger tgoid, made by CREATE TRIGGER, when it is a guard that
 * its firings would refuse (guard.c): the declaration, the arguments, the
 * column.  Until its next firing it would let rows skip it: one that fires
 * on INSERT only never sees the UPDATE that moves an id back.  Its clones
 * on partitions share its declaration.
 */
static void
check_new_guard(Oid tgoid, Oid guardfn)
{
	Oid			relid = trigger_table(tgoid);
	Relation	rel;

	if (!OidIsValid(relid))
		return;
	rel = relation_open(relid, NoLock);
	for (int i = 0; rel->trigdesc != NULL && i < rel->trigdesc->numtriggers; i++)
	{
		Trigger    *trigger = &rel->trigdesc->triggers[i];
		int			version;
		int			allowance_ms;

		if (trigger->tgoid == tgoid && trigger->tgfoid == guardfn)
			guard_check_trigger(trigger, rel, &version, &allowance_ms);
	}
	relation_close(rel, NoLock);
}

/*
 * Refuses relid, a table just created under a guarded table, when it is a
 * foreign table or a table that inherits: it has no trigger yet.
 */
static void
check_new_table(Oid relid, Oid guardfn)
{
	bool		foreign = get_rel_relkind(relid) == RELKIND_FOREIGN_TABLE;
	ListCell   *lc;

	if (get_rel_relispartition(relid) && !foreign)
		return;
	foreach(lc, parents_of(relid))
	{
		Oid			parent = lfirst_oid(lc);
		List	   *guards = list_concat(guards_of(parent, guardfn), guards_above(parent, guardfn));

		if (guards == NIL)
			continue;
		if (foreign)
			refuse_foreign(get_rel_name(relid), linitial(guards));
		refuse_unguarded(get_rel_name(relid), linitial(guards));
	}
}

/*
 * The partition that ALTER TABLE ... ATTACH PARTITION just attached to
 * parent, where core does not report it with the subcommand (15): the child
 * whose pg_inherits row this transaction wrote last.  That ALTER TABLE has
 * no other subcommand, and wrote the row after every earlier statement.
 */
static Oid
attached_partition(Oid parent)
{
	Relation	inherits = table_open(InheritsRelationId, AccessShareLock);
	Oid			relid = InvalidOid;
	CommandId	newest = InvalidCommandId;
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;

	ScanKeyInit(&key, Anum_pg_inherits_inhparent, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(parent));
	scan = systable_beginscan(inherits, InheritsParentIndexId, true, NULL, 1, &key);
	while (HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		CommandId	cid;

		if (!TransactionIdIsCurrentTransactionId(HeapTupleHeaderGetXmin(tuple->t_data)))
			continue;
		cid = HeapTupleHeaderGetCmin(tuple->t_data);
		if (!OidIsValid(relid) || cid > newest)
		{
			relid = ((Form_pg_inherits) GETSTRUCT(tuple))->inhrelid;
			newest = cid;
		}
	}
	systable_endscan(scan);
	table_close(inherits, AccessShareLock);
	return relid;
}

/*
 * Checks the table that joined a guarded one by an ALTER TABLE subcommand,
 * relid, and covers its rows
 */
static void
check_joined(Oid relid, Oid guardfn)
{
	char		relkind = get_rel_relkind(relid);

	/* ALTER INDEX ... ATTACH PARTITION */
	if (!OidIsValid(relid) || relkind == RELKIND_INDEX || relkind == RELKIND_PARTITIONED_INDEX)
		return;
	guard_check_inheritance(relid, guardfn);
	cover_rows(relid, guardfn);
}

/*
 * The commands that the statement ran, as pg_event_trigger_ddl_commands()
 * has them: every object by its OID, as the statement found it, which its
 * name looked up again could no longer find (a function that the statement
 * ran may have changed search_path).
 */
static List *
ddl_commands(void)
{
	MemoryContext outer = CurrentMemoryContext;
	List	   *commands = NIL;
	int			rc;

	if ((rc = SPI_connect()) != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed: %s", SPI_result_code_string(rc));
	if ((rc = SPI_execute("SELECT command FROM pg_catalog.pg_event_trigger_ddl_commands()", true, 0)) != SPI_OK_SELECT)
		elog(ERROR, "SPI_execute of pg_event_trigger_ddl_commands() failed: %s", SPI_result_code_string(rc));
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		bool		isnull;
		Datum		command = SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1, &isnull);
		MemoryContext spi = MemoryContextSwitchTo(outer);

		/* a pointer to the event trigger's CollectedCommand, kept until it ends */
		if (!isnull)
			commands = lappend(commands, DatumGetPointer(command));
		MemoryContextSwitchTo(spi);
	}
	SPI_finish();
	return commands;
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
	Oid			guardfn;
	ListCell   *lc;

	if (!CALLED_AS_EVENT_TRIGGER(fcinfo))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("pg_uuidx_guard_ddl() must be called as an event trigger")));
	guardfn = guard_function(fcinfo->flinfo->fn_oid);
	if (!OidIsValid(guardfn))
		PG_RETURN_VOID();

	foreach(lc, ddl_commands())
	{
		CollectedCommand *cmd = lfirst(lc);

		if (cmd->type == SCT_Simple && cmd->d.simple.address.classId == RelationRelationId &&
			cmd->parsetree != NULL &&
			(IsA(cmd->parsetree, CreateStmt) || IsA(cmd->parsetree, CreateForeignTableStmt)))
			check_new_table(cmd->d.simple.address.objectId, guardfn);
		else if (cmd->type == SCT_Simple && cmd->d.simple.address.classId == TriggerRelationId)
			check_new_guard(cmd->d.simple.address.objectId, guardfn);
		else if (cmd->type == SCT_AlterTable)
		{
			ListCell   *sub;

			foreach(sub, cmd->d.alterTable.subcmds)
			{
				CollectedATSubcmd *subcmd = lfirst(sub);
				AlterTableCmd *atcmd = castNode(AlterTableCmd, subcmd->parsetree);

				/* the partition attached; the table that inherits */
				if (atcmd->subtype == AT_AttachPartition)
					check_joined(OidIsValid(subcmd->address.objectId) ? subcmd->address.objectId :
								 attached_partition(cmd->d.alterTable.objectId), guardfn);
				else if (atcmd->subtype == AT_AddInherit)
					check_joined(cmd->d.alterTable.objectId, guardfn);
			}
		}
	}
	PG_RETURN_VOID();
}
