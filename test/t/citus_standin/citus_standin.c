/*
 * citus_standin.c
 *		A test-only stand-in for Citus's library: it defines
 *		citus.node_conninfo as Citus does (PGC_SIGHUP, shown to superusers
 *		only), so that pg_uuidx's cluster horizon finds Citus loaded beside
 *		the stand-in catalog of test/t/165_cluster_connections.pl.  Unlike
 *		Citus it checks nothing of the value.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/guc.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

static char *node_conninfo = NULL;

void
_PG_init(void)
{
	DefineCustomStringVariable("citus.node_conninfo",
							   "Sets parameters used for outbound connections.",
							   NULL,
							   &node_conninfo,
							   "sslmode=prefer",
							   PGC_SIGHUP,
							   GUC_SUPERUSER_ONLY,
							   NULL, NULL, NULL);
}
