/*
 * guard.h
 *		What the guard's files share: the guard trigger (guard.c), its
 *		statement form (guard_statement.c), the check of a re-sent row
 *		(guard_resend.c) and the check of tables that join a guarded one
 *		(guard_ddl.c).
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

/*
 * The id column a guard trigger names, the version of its ids and its
 * allowance: the trigger's arguments (), (column), (column, version) or
 * (column, version, allowance), version '7' (the default) or '6', the
 * allowance at most pg_uuidx.horizon_allowance, and that by default.
 */
extern const char *guard_column(Trigger *trigger, int *version, int *allowance_ms);

/*
 * The id column of guard trigger on rel, its version and allowance, after
 * refusing a declaration under which some rows would skip the guard, bad
 * arguments, and a column that BEFORE triggers do not see the stored value
 * of.
 */
extern AttrNumber guard_check_trigger(Trigger *trigger, Relation rel, int *version,
									  int *allowance_ms);

/*
 * The number in rel of column, which must be of type uuid or a domain over
 * it (a generated column too: the callers decide).
 */
extern AttrNumber guard_uuid_column(Trigger *trigger, Relation rel, const char *column);

/*
 * Refuses id, of time id_us, below floor_us (40001), for guard trigger of
 * allowance_ms; unique: rel has a unique index on the id that a stored row
 * of the same id would have met.
 */
pg_noreturn extern void guard_refuse(Trigger *trigger, pg_uuid_t *id, int64 id_us, int64 floor_us,
									 int allowance_ms, bool unique);

/*
 * The time of id (Unix us) for the guard of ids of version; false when id
 * is not an RFC 9562 id of that version.
 */
extern bool guard_id_us(pg_uuid_t *id, int version, int64 *id_us);

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
 * The allowance to read tables with: the greatest of their guards' (of
 * function guardfn, enabled or not), or READ_GENERATED when none has a
 * guard
 */
extern int	guard_read_allowance(List *tables, Oid guardfn);

/*
 * Refuses relid, or a table that inherits from it, that is under a table
 * that guardfn (or its statement guard) guards without being guarded
 * itself: a foreign table, or a table that inherits (and so got no
 * triggers) without a guard of its own for each guard above it.
 * Partitions carry their parents' row guards, not their statement guards.
 * And a statement guard below a table without one (guard_ddl.c).
 */
extern void guard_check_inheritance(Oid relid, Oid guardfn);

/*
 * pg_uuidx_horizon_guard_statement() of the installation of guardfn (its
 * pg_uuidx_horizon_guard()); InvalidOid when there is none.
 */
extern Oid	guard_statement_function(Oid guardfn);

/*
 * The id column of statement guard trigger on rel and its version, after
 * refusing a declaration other than its three, bad arguments, and a column
 * that is not stored (guard_statement.c).
 */
extern AttrNumber guard_statement_check_trigger(Trigger *trigger, Relation rel, int *version,
												int *allowance_ms);

#endif							/* PG_UUIDX_GUARD_H */
