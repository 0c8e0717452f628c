/*
 * saved_plans.c
 *		The queries the readers run on every call, parsed and analysed once
 *		per backend, their plans kept.
 *
 * Owns a backend's list of kept plans; calls SPI only.
 *
 * A reader polls: pg_uuidx_read_after() and pg_uuidx_consume() run the same
 * few queries on every call, and parsing and planning them each time took
 * about half of a poll of a table with nothing new (0.33 ms a call, 0.17 ms
 * kept).  The plans are kept as PL/pgSQL keeps its own (SPI_keepplan()):
 * the plan cache re-plans one from its text when what it reads changes, the
 * search_path or the role its row-level security depends on, so a plan is
 * looked up by its text, which must name every relation, function and
 * operator by its qualified name (the cache does not notice a new object
 * that would shadow an unqualified one).  A caller that wants each call
 * planned for its parameters and the moment (the rows query: a generic plan
 * would keep what an IMMUTABLE function in a row-level security policy
 * returned when it was made, and hand it to every later call) passes
 * CURSOR_OPT_CUSTOM_PLAN, and keeps only the parse and analysis.
 *
 * At most MAX_SAVED_PLANS are kept, the most recently used first; a new one
 * replaces the least recently used that is not running (a reader can be
 * called inside another's query, by a row-level security policy), or, when
 * all are running, is freed after its call.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "nodes/pg_list.h"
#include "utils/memutils.h"

#include "reading/saved_plans.h"

#define MAX_SAVED_PLANS 64

typedef struct SavedPlan
{
	char	   *query;
	int			nargs;
	Oid		   *argtypes;
	int			cursor_options;
	SPIPlanPtr	plan;
	int			running;		/* calls of it in progress */
} SavedPlan;

/* in TopMemoryContext, the most recently used first */
static List *saved_plans = NIL;

/* The entry of query, moved to the front; NULL when there is none */
static SavedPlan *
FindPlan(const char *query, int nargs, Oid *argtypes, int cursor_options)
{
	ListCell   *lc;

	foreach(lc, saved_plans)
	{
		SavedPlan  *saved = lfirst(lc);

		if (saved->nargs == nargs && saved->cursor_options == cursor_options &&
			strcmp(saved->query, query) == 0 &&
			(nargs == 0 || memcmp(saved->argtypes, argtypes, sizeof(Oid) * nargs) == 0))
		{
			if (foreach_current_index(lc) > 0)
			{
				saved_plans = foreach_delete_current(saved_plans, lc);
				saved_plans = lcons(saved, saved_plans);
			}
			return saved;
		}
	}
	return NULL;
}

/* Make room for one more entry: false when every entry is running */
static bool
MakeRoom(void)
{
	SavedPlan  *victim = NULL;
	ListCell   *lc;

	if (list_length(saved_plans) < MAX_SAVED_PLANS)
		return true;
	foreach(lc, saved_plans)
	{
		SavedPlan  *saved = lfirst(lc);

		if (saved->running == 0)
			victim = saved;
	}
	if (victim == NULL)
		return false;
	saved_plans = list_delete_ptr(saved_plans, victim);
	SPI_freeplan(victim->plan);
	pfree(victim->query);
	pfree(victim->argtypes);
	pfree(victim);
	return true;
}

/* SPI_execute_plan() of saved's plan, counted as running meanwhile */
static int
RunPlan(SavedPlan *saved, Datum *values, const char *nulls, bool read_only, long count)
{
	int			rc;

	saved->running++;
	PG_TRY();
	{
		rc = SPI_execute_plan(saved->plan, values, nulls, read_only, count);
	}
	PG_FINALLY();
	{
		saved->running--;
	}
	PG_END_TRY();
	return rc;
}

/* The plan of query, kept, run (saved_plans.h) */
int
saved_plan_execute(const char *query, int nargs, Oid *argtypes, int cursor_options,
				   Datum *values, const char *nulls, bool read_only, long count)
{
	SavedPlan  *saved = FindPlan(query, nargs, argtypes, cursor_options);
	SPIPlanPtr	plan;
	MemoryContext old;

	if (saved == NULL)
	{
		plan = SPI_prepare_cursor(query, nargs, argtypes, cursor_options);
		if (plan == NULL)
			elog(ERROR, "SPI_prepare_cursor of \"%s\" failed: %s", query,
				 SPI_result_code_string(SPI_result));

		/* when every entry is running, the plan is freed by SPI_finish() */
		if (!MakeRoom())
			return SPI_execute_plan(plan, values, nulls, read_only, count);

		/* the entry first: nothing kept is lost if memory runs out */
		saved = MemoryContextAlloc(TopMemoryContext, sizeof(SavedPlan));
		saved->query = MemoryContextStrdup(TopMemoryContext, query);
		saved->nargs = nargs;
		saved->argtypes = MemoryContextAlloc(TopMemoryContext, sizeof(Oid) * Max(nargs, 1));
		if (nargs > 0)
			memcpy(saved->argtypes, argtypes, sizeof(Oid) * nargs);
		saved->cursor_options = cursor_options;
		saved->running = 0;
		if (SPI_keepplan(plan) != 0)
			elog(ERROR, "SPI_keepplan failed");
		saved->plan = plan;
		old = MemoryContextSwitchTo(TopMemoryContext);
		saved_plans = lcons(saved, saved_plans);
		MemoryContextSwitchTo(old);
	}

	return RunPlan(saved, values, nulls, read_only, count);
}
