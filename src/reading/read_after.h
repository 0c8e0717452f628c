/*
 * read_after.h
 *		The reader of pg_uuidx_read_after(), shared with pg_uuidx_consume():
 *		the next rows of a table in id order, up to the commit horizon.
 *
 * Owns nothing but these declarations; read_after.c implements them.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#ifndef PG_UUIDX_READ_AFTER_H
#define PG_UUIDX_READ_AFTER_H

#include "fmgr.h"
#include "nodes/pg_list.h"
#include "utils/uuid.h"

#include "reading/guard.h"

/* The relation a reader reads, found by read_after_target() */
typedef struct ReadAfterTarget
{
	Oid			relid;			/* the relation of the row type */
	const char *id_column;		/* its id column */
	const char *column;			/* the same, quoted for a query */
	List	   *tables;			/* the tables a read of it returns rows of */
	GuardAllowance allowance;	/* of the guards every row read passed */
} ReadAfterTarget;

/* The id version of fcinfo's argument argno: 7 or 6, else 22023 */
extern int	read_after_version(FunctionCallInfo fcinfo, int argno);

/*
 * The relation of the row type of fcinfo's first argument, locked, with its
 * uuid column id_column of ids of version; refuses a transaction that is
 * not READ COMMITTED (25000), a relation the current user may not read
 * (42501), one of a kind no horizon covers (42809), a table whose rows do
 * not all pass a guard of the column read (55000), a view whose id column
 * is not straight from tables' (0A000).  caller names the SQL function in
 * messages.
 */
extern void read_after_target(FunctionCallInfo fcinfo, const char *caller, const char *id_column,
							  int version, ReadAfterTarget *target);

/*
 * The allowance that a reader reads relid with, locked by the caller: the
 * greatest of the guards (of function guardfn) of the tables a read of it
 * returns rows of, put into *tables, or 0 when none has one;
 * refuses what the reader refuses to read: a table inheriting from a
 * guarded one without its guard (42P17), a relation of a kind no horizon
 * covers (42809).  caller names the SQL function in messages.
 */
extern int	read_after_allowance(const char *caller, Oid relid, Oid guardfn, List **tables);

/*
 * Materializes into fcinfo's result the next rows of target after after_id
 * (after_null: from the first), at most max_rows and the rows that share
 * the last id, below the horizon of version (7 or 6), read as the current
 * user; from_tick as pg_uuidx_read_after()'s (-1 for NULL).  Returns
 * whether it read a row, and the greatest id read in *last (when not NULL).
 */
extern bool read_after_rows(FunctionCallInfo fcinfo, const char *caller, const ReadAfterTarget *target,
							Datum after_id, bool after_null, int32 max_rows, int version, int from_tick,
							pg_uuid_t *last);

#endif							/* PG_UUIDX_READ_AFTER_H */
