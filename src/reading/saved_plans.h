/*
 * saved_plans.h
 *		The queries the readers run on every call, parsed and analysed once
 *		per backend, their plans kept.
 *
 * Owns nothing but these declarations; saved_plans.c implements them.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#ifndef PG_UUIDX_SAVED_PLANS_H
#define PG_UUIDX_SAVED_PLANS_H

#include "executor/spi.h"

/*
 * SPI_execute_plan() of query, inside SPI_connect(), with the kept plan of
 * query, its parameters' types argtypes and cursor_options (CURSOR_OPT_*,
 * as SPI_prepare_cursor() takes them): made at its first use in this
 * backend.  The plan cache keeps it valid: a change to what it reads, to
 * the search_path or to the role its row-level security depends on re-plans
 * it from its text, so a text that names every object by its qualified name
 * always means what it means now.  Returns SPI_execute_plan()'s result.
 */
extern int	saved_plan_execute(const char *query, int nargs, Oid *argtypes, int cursor_options,
							   Datum *values, const char *nulls, bool read_only, long count);

#endif							/* PG_UUIDX_SAVED_PLANS_H */
