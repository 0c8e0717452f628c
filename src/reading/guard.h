/*
 * guard.h
 *		What the guard's files share: the guard trigger (guard.c), its
 *		declaration after the row (guard_after.c), the check of a re-sent
 *		row (guard_resend.c), the check of a row moved to another partition
 *		(guard_move.c) and the check of tables that join a guarded one
 *		(guard_ddl.c).  Their shared arguments are guard_args.h's.
 *
 * Owns the interface between the guard's files; may call nothing.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#ifndef PG_UUIDX_GUARD_H
#define PG_UUIDX_GUARD_H

#include "access/htup.h"
#include "nodes/pg_list.h"
#include "utils/relcache.h"
#include "utils/reltrigger.h"
#include "utils/uuid.h"

#include "compat.h"

/* the declarations of the guard trigger (guard.c) */
typedef enum GuardForm
{
	GUARD_BEFORE_ROW,			/* BEFORE INSERT OR UPDATE FOR EACH ROW */
	GUARD_AFTER_ROW,			/* AFTER INSERT OR UPDATE FOR EACH ROW [WHEN ...] */
	GUARD_START,				/* BEFORE INSERT OR UPDATE FOR EACH STATEMENT */
	GUARD_NO_FORM,				/* any other */
} GuardForm;

/* The declaration of guard trigger, by its type alone */
extern GuardForm guard_form(Trigger *trigger);

/*
 * The id column of guard trigger on rel, its version and allowance, after
 * refusing a declaration under which some rows would skip the guard, bad
 * arguments, and a column whose stored value the guard does not see.
 */
extern AttrNumber guard_check_trigger(Trigger *trigger, Relation rel, int *version,
									  int *allowance_ms);

/*
 * Refuses the WHEN condition of guard trigger on rel, declared AFTER ...
 * FOR EACH ROW, unless it is none or NOT pg_uuidx_horizon_cover() of the
 * trigger's column, version and allowance (guard_after.c).
 */
extern void guard_after_check_when(Trigger *trigger, Relation rel, AttrNumber attnum, int version);

/* what guard_row_conflicts() found */
typedef enum GuardConflict
{
	GUARD_NO_UNIQUE_INDEX,		/* no unique index can tell */
	GUARD_NO_CONFLICT,			/* no committed row has the row's key */
	GUARD_CONFLICT,				/* one has, and stays until this transaction ends */
} GuardConflict;

/*
 * Whether the row that rel is about to store can only meet a committed row
 * of the same key in a unique index that includes the id column attnum:
 * that row is then locked until this transaction ends, and the row cannot
 * be stored (a unique violation, or ON CONFLICT's skip or update).
 */
extern GuardConflict guard_row_conflicts(Relation rel, HeapTuple row, AttrNumber attnum);

/* what guard_row_replaces() found */
typedef enum GuardReplace
{
	GUARD_ADDS,					/* the row adds a row of its id */
	GUARD_REPLACES,				/* it replaces a committed one */
	GUARD_UNTOLD,				/* a partition has no index to tell by */
} GuardReplace;

/*
 * Whether the row of id in column attnum of partition rel, stored in it
 * already or about to be, replaces a committed row of that id that this
 * transaction removed from the same partitioned table, as a row that an
 * UPDATE moves to another partition does; *root: the topmost partitioned
 * table (InvalidOid when rel is not a partition: GUARD_ADDS).
 */
extern GuardReplace guard_row_replaces(Relation rel, AttrNumber attnum, pg_uuid_t *id, bool stored,
									   Oid *root);

/*
 * Whether rel has a unique index, checked at once, that includes the id
 * column attnum: one that guard_row_conflicts() can read.
 */
extern bool guard_unique_index(Relation rel, AttrNumber attnum);

/*
 * pg_uuidx_horizon_guard() of the pg_uuidx installation that the function
 * member belongs to; InvalidOid when there is none.
 */
extern Oid	guard_function(Oid member);

/*
 * The allowance a reader of some tables reads with: the greatest of their
 * guards' allowance arguments, and whether one of them has none (it then
 * allows pg_uuidx.horizon_allowance, which also caps the others)
 */
typedef struct GuardAllowance
{
	int			most_ms;		/* the greatest argument, 0 when none */
	bool		setting;		/* a guard without an allowance argument */
} GuardAllowance;

/*
 * Whether column (of ids of version) of relid has a guard of function
 * guardfn that fires in ordinary sessions; adds the allowances of such
 * guards to *allowance
 */
extern bool guard_covers(Oid relid, Oid guardfn, const char *column, int version,
						 GuardAllowance *allowance);

/*
 * Whether relid has a guard of function guardfn that fires in ordinary
 * sessions: enabled (ORIGIN) or enabled ALWAYS, not REPLICA only
 */
extern bool guard_enabled_on(Oid relid, Oid guardfn);

/*
 * The greatest allowance of the guards of function guardfn on tables that
 * fire in ordinary sessions, whatever their column (0 when none)
 */
extern int	guard_read_allowance(List *tables, Oid guardfn);

/* The allowance of *allowance when pg_uuidx.horizon_allowance is cap_ms */
extern int	guard_allowance_capped(const GuardAllowance *allowance, int cap_ms);

/*
 * Refuses relid, or a table that inherits from it, that is under a table
 * that guardfn guards without being guarded itself: a foreign table, or a
 * table that inherits (and so got no triggers) without a guard of its own
 * for each guard above it.  Partitions carry their parents' guards.
 */
extern void guard_check_inheritance(Oid relid, Oid guardfn);

#endif							/* PG_UUIDX_GUARD_H */
