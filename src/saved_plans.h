/*
 * saved_plans.h
 *		The plans of the queries the readers run on every call, made once
 *		per backend and kept.
 *
 * Owns nothing but these declarations; saved_plans.c implements them.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#ifndef PG_UUIDX_SAVED_PLANS_H
#define PG_UUIDX_SAVED_PLANS_H

#include "executor/spi.h"

/*
 * The kept plan of query, whose parameters have argtypes; made at its first
 * use in this backend (inside SPI_connect()).  The plan cache keeps it
 * valid: a change to what it reads, or to the search_path, re-plans it from
 * its text, so the same text always means what it means now.
 */
extern SPIPlanPtr saved_plan(const char *query, int nargs, Oid *argtypes);

#endif							/* PG_UUIDX_SAVED_PLANS_H */
