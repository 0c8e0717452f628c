/*
 * saved_plans.c
 *		The plans of the queries the readers run on every call, made once
 *		per backend and kept.
 *
 * Owns a backend's list of kept plans; calls SPI only.
 *
 * A reader polls: pg_uuidx_read_after() and pg_uuidx_consume() run the same
 * few queries on every call, and planning them each time cost more than
 * running them (about two thirds of a poll of an empty table).  The plans
 * are kept as PL/pgSQL keeps its own (SPI_keepplan()): the plan cache
 * re-plans one from its text when what it reads changes, so a plan is
 * looked up by its text, which names its relations and operators by
 * qualified names.  At most MAX_SAVED_PLANS are kept, and none is ever
 * freed (a plan can be running in an outer call: a row-level security
 * policy may call a reader): a query beyond them is planned on every call,
 * as all were before.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "nodes/pg_list.h"
#include "utils/memutils.h"

#include "saved_plans.h"

#define MAX_SAVED_PLANS 64

typedef struct SavedPlan
{
	char	   *query;
	int			nargs;
	Oid		   *argtypes;
	SPIPlanPtr	plan;
} SavedPlan;

/* in TopMemoryContext, newest first */
static List *saved_plans = NIL;

SPIPlanPtr
saved_plan(const char *query, int nargs, Oid *argtypes)
{
	ListCell   *lc;
	SPIPlanPtr	plan;
	SavedPlan  *saved;
	MemoryContext old;

	foreach(lc, saved_plans)
	{
		saved = lfirst(lc);
		if (saved->nargs == nargs && strcmp(saved->query, query) == 0 &&
			memcmp(saved->argtypes, argtypes, sizeof(Oid) * nargs) == 0)
			return saved->plan;
	}

	plan = SPI_prepare(query, nargs, argtypes);
	if (plan == NULL)
		elog(ERROR, "SPI_prepare of \"%s\" failed: %s", query, SPI_result_code_string(SPI_result));
	/* freed by SPI_finish() */
	if (list_length(saved_plans) >= MAX_SAVED_PLANS)
		return plan;
	if (SPI_keepplan(plan) != 0)
		elog(ERROR, "SPI_keepplan failed");

	old = MemoryContextSwitchTo(TopMemoryContext);
	saved = palloc(sizeof(SavedPlan));
	saved->query = pstrdup(query);
	saved->nargs = nargs;
	saved->argtypes = palloc(sizeof(Oid) * Max(nargs, 1));
	memcpy(saved->argtypes, argtypes, sizeof(Oid) * nargs);
	saved->plan = plan;
	saved_plans = lcons(saved, saved_plans);
	MemoryContextSwitchTo(old);
	return plan;
}
