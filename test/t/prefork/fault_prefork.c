/*
 * fault_prefork.c
 *		Test-only preload library for test/t/030_fork.pl: makes pg_uuidx ids
 *		inside the postmaster, before any backend or parallel worker is
 *		forked, so that every child inherits pg_uuidx's half-used entropy
 *		block.  RFC 9562 6.9 asks that such a child not reuse it; 030_fork.pl
 *		checks that none does.  Never installed; loaded by absolute path
 *		after pg_uuidx in shared_preload_libraries.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "fmgr.h"
#include "miscadmin.h"
#include "utils/fmgrprotos.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

/*
 * Call one of pg_uuidx's argument-less SQL functions by its C symbol and
 * return the id as text, for the log.
 */
static char *
CallGenerator(const char *symbol)
{
	PGFunction	fn = load_external_function("$libdir/pg_uuidx", symbol, true, NULL);
	LOCAL_FCINFO(fcinfo, 0);
	Datum		id;

	InitFunctionCallInfoData(*fcinfo, NULL, 0, InvalidOid, NULL, NULL);
	id = fn(fcinfo);
	if (fcinfo->isnull)
		elog(ERROR, "%s returned NULL", symbol);
	return DatumGetCString(DirectFunctionCall1(uuid_out, id));
}

/*
 * In the postmaster, at preload time: draw a v4 and a v7 id, so that the
 * entropy block is filled and partly handed out before the first fork.
 */
void
_PG_init(void)
{
	char	   *v4;
	char	   *v7;

	if (!process_shared_preload_libraries_in_progress)
		return;
	v4 = CallGenerator("pg_uuidx_uuidv4");
	v7 = CallGenerator("pg_uuidx_uuidv7");
	elog(LOG, "fault_prefork: postmaster %d made %s and %s before forking",
		 MyProcPid, v4, v7);
}
