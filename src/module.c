/*
 * module.c
 *		The library's entry points: its magic block and _PG_init().
 *
 * Owns loading the library; may call cluster.h, horizon.h and ticker.h.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/guc.h"

#include "compat.h"
#include "reading/cluster.h"
#include "reading/horizon.h"
#include "reading/ticker.h"

PG_UUIDX_MODULE_MAGIC;

void		_PG_init(void);

void
_PG_init(void)
{
	/*
	 * First: from PostgreSQL 17 on, loading the library registers the layout
	 * of its shared state (horizon_state.c), which can fail (no shared memory
	 * left); with nothing else defined yet, the next load tries again whole
	 */
	horizon_init_module();
	ticker_init_module();
	cluster_init_module();

	/*
	 * Settings named pg_uuidx.* are this library's alone: a misspelt one in
	 * postgresql.conf or a SET is reported, not kept as a placeholder.
	 */
	MarkGUCPrefixReserved("pg_uuidx");
}
