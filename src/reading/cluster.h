/*
 * cluster.h
 *		The cluster horizon of a Citus coordinator, for readers of the tables
 *		that Citus distributes.
 *
 * Owns nothing but these declarations; cluster.c implements them.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#ifndef PG_UUIDX_CLUSTER_H
#define PG_UUIDX_CLUSTER_H

#include "nodes/pg_list.h"

/* The cluster horizon's part of loading the library: pg_uuidx.node_timeout */
extern void cluster_init_module(void);

/*
 * Those of tables that Citus distributes or replicates (NIL without Citus),
 * for a reader whose function is fn_oid; refuses one without a guard that
 * fires in ordinary sessions, or without Citus's library loaded (55000).
 */
extern List *cluster_tables(List *tables, Oid fn_oid, const char *caller);

/*
 * The horizon of a reader of citus_tables (cluster_tables()) whose guards
 * allow allowance_ms, as a Unix time in us: the least of local_us (this
 * server's, just computed) and the horizons of the other nodes that hold
 * their shards; local_us when citus_tables is NIL.
 */
extern int64 cluster_horizon_us(List *citus_tables, int64 local_us, int allowance_ms, Oid fn_oid,
								const char *caller);

/* refuses to read citus_tables (not NIL) up to a tick (0A000) */
extern void cluster_refuse_ticks(List *citus_tables, const char *caller);

#endif							/* PG_UUIDX_CLUSTER_H */
