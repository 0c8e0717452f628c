/*
 * cluster.c
 *		The cluster horizon of a Citus coordinator: a reader of tables that
 *		Citus distributes reads up to the least of this server's horizon and
 *		the horizons of the nodes that hold their shards; and
 *		pg_uuidx_node_horizon(), a node's part.
 *
 * Owns the coordinator's connections to the nodes and what it asks them;
 * may call horizon.h, guard.h and tick_table.h.  Citus is not linked: its
 * catalog tables are read by SQL, and the nodes are reached with libpq.
 *
 * Why a coordinator's own horizon is not enough: a transaction that writes
 * shards on several nodes prepares on each, commits here, and only then
 * makes its rows visible on them (COMMIT PREPARED), later still when a node
 * is unreachable and Citus's recovery commits it.  Its ids stop holding
 * this server's horizon at the commit here.
 *
 * Why the cluster horizon is safe (docs/reading-in-order.md, "Citus", has
 * the argument; test/model/cluster.pml checks it; "model step" comments
 * name its steps):
 *
 * - Every row of a distributed table is stored by one of its shards, on the
 *   node that holds it, and each shard carries the table's guard (Citus
 *   creates a distributed table's triggers on its shards).  So the id of
 *   every row is covered where the row is stored, in the slot of the
 *   transaction that stores it there, or refused: the node's horizon is
 *   held at or below it until the row is visible there, through PREPARE
 *   (horizon.c's table of prepared transactions) to COMMIT PREPARED.
 * - A node's horizon, read before the query takes its snapshot there, is
 *   below every row of that node that will ever commit and is not visible
 *   to the query: such a row was covered before the node's horizon was
 *   computed (it is held), or after (its id is above the floor less the
 *   allowance, so above that horizon).  The least of the nodes' horizons is
 *   below all of them.  This server's own shards (reference tables have a
 *   placement here) are covered by its own horizon, which comes first.
 * - The cap (model step "node_raise"): a node raises its floor to at most
 *   this server's horizon plus the allowance, not to its clock.  An id that
 *   this server's generators made for a transaction still open here holds
 *   this server's horizon at or below it, so when it reaches its shard
 *   later it is above the node's floor less the allowance, and the guard
 *   lets it in, whatever the allowance (0 too).  Without the cap the guard
 *   there would refuse the ids of the coordinator's DEFAULTs whenever a
 *   poll fell between making one and storing it.  Safety does not rest on
 *   the cap: the node's horizon is computed from the floor as it is.
 *
 * The coordinator asks each node in one round trip, all at once, on a
 * connection of this backend kept open across polls (opened as the current
 * user, with Citus's citus.node_conninfo, as Citus opens its own), and only
 * then runs the query.  A connection that failed, or was left in the middle
 * of a query by an error or a cancel, is closed and opened again on the
 * next use.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "access/xlog.h"
#include "catalog/pg_type.h"
#include "commands/dbcommands.h"
#include "commands/extension.h"
#include "common/int.h"
#include "executor/spi.h"
#include "libpq-fe.h"
#include "miscadmin.h"
#include "port/pg_bswap.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"

#include "cluster.h"
#include "guard.h"
#include "horizon.h"
#include "tick_table.h"
#include "ticks.h"

/* A connection of this backend to a node, as a role */
typedef struct NodeConnection
{
	char	   *host;
	int			port;
	Oid			role;
	PGconn	   *conn;			/* NULL: none open */
	struct NodeConnection *next;
} NodeConnection;

/* in TopMemoryContext; the PGconns are libpq's */
static NodeConnection *connections = NULL;

/* A node asked for its horizon in one poll */
typedef struct NodeAsk
{
	NodeConnection *node;
	bool		reused;			/* on a connection open before this poll */
	int64		horizon_us;
} NodeAsk;

/*
 * A timestamptz as a horizon (Unix us): HORIZON_LOWEST for -infinity, and
 * the highest for infinity and times too late for a Unix time in us
 */
static int64
horizon_of(TimestampTz ts)
{
	int64		us;

	if (TIMESTAMP_IS_NOBEGIN(ts))
		return HORIZON_LOWEST;
	if (TIMESTAMP_IS_NOEND(ts) || pg_add_s64_overflow(ts, UNIX_TO_PG_EPOCH_US, &us))
		return PG_INT64_MAX;
	return us;
}

/* close this backend's connections when it exits */
static void
close_connections(int code, Datum arg)
{
	for (NodeConnection *c = connections; c != NULL; c = c->next)
		if (c->conn != NULL)
		{
			PQfinish(c->conn);
			c->conn = NULL;
		}
}

/* The cached connection entry of host:port for the current user */
static NodeConnection *
node_connection(const char *host, int port)
{
	static bool registered = false;
	NodeConnection *c;

	for (c = connections; c != NULL; c = c->next)
		if (c->port == port && c->role == GetUserId() && strcmp(c->host, host) == 0)
			return c;
	if (!registered)
	{
		on_proc_exit(close_connections, (Datum) 0);
		registered = true;
	}
	c = MemoryContextAllocZero(TopMemoryContext, sizeof(NodeConnection));
	c->host = MemoryContextStrdup(TopMemoryContext, host);
	c->port = port;
	c->role = GetUserId();
	c->next = connections;
	connections = c;
	return c;
}

/* c's connection closed, and an error about it */
static void
node_failed(NodeConnection *c, const char *caller, const char *what)
{
	char	   *message = pchomp(c->conn != NULL ? PQerrorMessage(c->conn) : "out of memory");

	if (c->conn != NULL)
		PQfinish(c->conn);
	c->conn = NULL;
	ereport(ERROR,
			(errcode(ERRCODE_CONNECTION_FAILURE),
			 errmsg("%s could not %s node %s:%d", caller, what, c->host, c->port),
			 errdetail_internal("%s", message),
			 errhint("The coordinator asks every node that holds a shard of the table for its horizon, on a connection of the current user as Citus opens its own.")));
}

/*
 * Wait until c's socket is ready for events (WL_SOCKET_READABLE or
 * WRITEABLE), or an interrupt: an error then leaves the connection as it
 * is, and its next use opens it again.
 */
static void
node_wait(NodeConnection *c, int events)
{
	(void) WaitLatchOrSocket(MyLatch, WL_LATCH_SET | WL_EXIT_ON_PM_DEATH | events,
							 PQsocket(c->conn), -1L, PG_WAIT_EXTENSION);
	ResetLatch(MyLatch);
	CHECK_FOR_INTERRUPTS();
}

/*
 * c's connection, opened unless it is open and idle (then true): with
 * Citus's citus.node_conninfo first, then the node, this database and the
 * current user
 */
static bool
node_open(NodeConnection *c, const char *caller)
{
	const char *keywords[8];
	const char *values[8];
	const char *conninfo = GetConfigOption("citus.node_conninfo", true, false);
	char		port[12];
	PostgresPollingStatusType status = PGRES_POLLING_WRITING;
	int			n = 0;

	if (c->conn != NULL && PQstatus(c->conn) == CONNECTION_OK &&
		PQtransactionStatus(c->conn) == PQTRANS_IDLE)
		return true;
	if (c->conn != NULL)
		PQfinish(c->conn);
	snprintf(port, sizeof(port), "%d", c->port);
	/* a connection string as dbname is expanded; the later keywords win */
	keywords[n] = "dbname";
	values[n++] = conninfo != NULL ? conninfo : "";
	keywords[n] = "host";
	values[n++] = c->host;
	keywords[n] = "port";
	values[n++] = port;
	keywords[n] = "dbname";
	values[n++] = get_database_name(MyDatabaseId);
	keywords[n] = "user";
	values[n++] = GetUserNameFromId(GetUserId(), false);
	/* the query's names are qualified; no other schema can take their place */
	keywords[n] = "options";
	values[n++] = "-c search_path=pg_catalog";
	keywords[n] = "application_name";
	values[n++] = "pg_uuidx cluster horizon";
	keywords[n] = NULL;
	values[n] = NULL;

	c->conn = PQconnectStartParams(keywords, values, 1);
	if (c->conn == NULL || PQstatus(c->conn) == CONNECTION_BAD)
		node_failed(c, caller, "connect to");
	while (status != PGRES_POLLING_OK)
	{
		if (status == PGRES_POLLING_FAILED)
			node_failed(c, caller, "connect to");
		node_wait(c, status == PGRES_POLLING_READING ? WL_SOCKET_READABLE : WL_SOCKET_WRITEABLE);
		status = PQconnectPoll(c->conn);
	}
	return false;
}

/*
 * Send node a the question of one poll, to the function in schema; false
 * when the connection turned out to be lost
 */
static bool
node_ask(NodeAsk *a, const char *schema, int64 below_us, int allowance_ms, const char *caller)
{
	uint64		below = pg_hton64((uint64) timestamptz_from_horizon(below_us));
	uint32		allowance = pg_hton32((uint32) allowance_ms);
	Oid			types[2] = {TIMESTAMPTZOID, INT4OID};
	const char *values[2] = {(const char *) &below, (const char *) &allowance};
	int			lengths[2] = {sizeof(below), sizeof(allowance)};
	int			formats[2] = {1, 1};
	char	   *function = psprintf("%s.pg_uuidx_node_horizon", quote_identifier(schema));

	/*
	 * Called only when the node's function of that name is pg_uuidx's: a
	 * role that may create functions in the schema on a node where the
	 * extension is missing would otherwise have the reader's role run its
	 * own (NULL then: refused)
	 */
	char	   *query = psprintf("SELECT CASE WHEN EXISTS (SELECT FROM pg_catalog.pg_depend d"
								 " JOIN pg_catalog.pg_extension e ON e.oid OPERATOR(pg_catalog.=) d.refobjid"
								 " WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass"
								 " AND d.objid OPERATOR(pg_catalog.=) pg_catalog.to_regprocedure(%s)"
								 " AND d.deptype OPERATOR(pg_catalog.=) 'e'"
								 " AND e.extname OPERATOR(pg_catalog.=) 'pg_uuidx')"
								 " THEN %s($1, $2) END",
								 quote_literal_cstr(psprintf("%s(pg_catalog.timestamptz, pg_catalog.int4)", function)),
								 function);
	bool		sent;

	a->reused = node_open(a->node, caller);
	sent = PQsendQueryParams(a->node->conn, query, 2, types, values, lengths, formats, 1);
	pfree(query);
	return sent;
}

/*
 * Node a's answer into a->horizon_us; false when the connection was lost
 * before it came, an error when the node refused the question
 */
static bool
node_receive(NodeAsk *a, const char *caller)
{
	NodeConnection *c = a->node;
	PGresult   *result;
	bool		answered = false;

	for (;;)
	{
		if (!PQconsumeInput(c->conn))
			return false;
		if (!PQisBusy(c->conn))
			break;
		node_wait(c, WL_SOCKET_READABLE);
	}
	while ((result = PQgetResult(c->conn)) != NULL)
	{
		if (PQresultStatus(result) != PGRES_TUPLES_OK)
		{
			const char *state = PQresultErrorField(result, PG_DIAG_SQLSTATE);
			const char *severity = PQresultErrorField(result, PG_DIAG_SEVERITY_NONLOCALIZED);
			char	   *message = pchomp(PQresultErrorMessage(result));
			int			code = state != NULL && strlen(state) == 5 ?
				MAKE_SQLSTATE(state[0], state[1], state[2], state[3], state[4]) :
				ERRCODE_CONNECTION_FAILURE;

			PQclear(result);
			/* the node ended the session: a shutdown, a restart */
			if (PQstatus(c->conn) == CONNECTION_BAD ||
				(severity != NULL && strcmp(severity, "ERROR") != 0))
				return false;
			/* the connection is left idle for the next poll */
			while ((result = PQgetResult(c->conn)) != NULL)
				PQclear(result);
			ereport(ERROR,
					(errcode(code),
					 errmsg("%s could not read the horizon of node %s:%d", caller, c->host, c->port),
					 errdetail_internal("%s", message),
					 code == ERRCODE_UNDEFINED_FUNCTION || code == ERRCODE_INVALID_SCHEMA_NAME ?
					 errhint("Every node that holds shards needs pg_uuidx of this version, in the same schema.") : 0));
		}
		if (!answered && PQntuples(result) == 1 && PQnfields(result) == 1 &&
			!PQgetisnull(result, 0, 0) && PQgetlength(result, 0, 0) == sizeof(uint64))
		{
			uint64		ts;

			memcpy(&ts, PQgetvalue(result, 0, 0), sizeof(ts));
			a->horizon_us = horizon_of((TimestampTz) pg_ntoh64(ts));
			answered = true;
		}
		PQclear(result);
	}
	if (!answered)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_FUNCTION),
				 errmsg("%s could not read the horizon of node %s:%d", caller, c->host, c->port),
				 errdetail("The node has no pg_uuidx_node_horizon() of the extension pg_uuidx in the extension's schema."),
				 errhint("Every node that holds shards needs pg_uuidx of this version, in the same schema.")));
	return true;
}

/*
 * The primary nodes, other than this one, that hold a placement of a shard
 * of one of citus_tables, as NodeAsks (Citus's catalog, read as the current
 * user: its tables are readable by all)
 */
static List *
nodes_of(List *citus_tables, const char *caller)
{
	Datum	   *oids = palloc(sizeof(Datum) * list_length(citus_tables));
	Oid			argtype = OIDARRAYOID;
	Datum		arg;
	MemoryContext caller_cxt = CurrentMemoryContext;
	List	   *asks = NIL;
	int			n = 0;
	int			rc;
	ListCell   *lc;

	foreach(lc, citus_tables)
		oids[n++] = ObjectIdGetDatum(lfirst_oid(lc));
	arg = PointerGetDatum(construct_array(oids, n, OIDOID, sizeof(Oid), true, TYPALIGN_INT));

	if ((rc = SPI_connect()) != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed: %s", SPI_result_code_string(rc));
	rc = SPI_execute_with_args("SELECT DISTINCT n.nodename, n.nodeport"
							   " FROM pg_catalog.pg_dist_shard s"
							   " JOIN pg_catalog.pg_dist_placement p ON p.shardid OPERATOR(pg_catalog.=) s.shardid"
							   " JOIN pg_catalog.pg_dist_node n ON n.groupid OPERATOR(pg_catalog.=) p.groupid"
							   " WHERE s.logicalrelid OPERATOR(pg_catalog.=) ANY ($1)"
							   " AND n.isactive AND n.noderole OPERATOR(pg_catalog.=) 'primary'"
							   " AND n.groupid OPERATOR(pg_catalog.<>)"
							   " (SELECT g.groupid FROM pg_catalog.pg_dist_local_group g)",
							   1, &argtype, &arg, NULL, true, 0);
	if (rc != SPI_OK_SELECT)
		elog(ERROR, "SPI_execute_with_args failed for %s: %s", caller, SPI_result_code_string(rc));
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		HeapTuple	row = SPI_tuptable->vals[i];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		bool		isnull;
		char	   *host = TextDatumGetCString(SPI_getbinval(row, desc, 1, &isnull));
		int			port = DatumGetInt32(SPI_getbinval(row, desc, 2, &isnull));
		/* the list outlives SPI_finish() */
		MemoryContext spi_cxt = MemoryContextSwitchTo(caller_cxt);
		NodeAsk    *a = palloc(sizeof(NodeAsk));

		a->node = node_connection(host, port);
		a->reused = false;
		a->horizon_us = HORIZON_LOWEST;
		asks = lappend(asks, a);
		MemoryContextSwitchTo(spi_cxt);
	}
	SPI_finish();
	return asks;
}

List *
cluster_tables(List *tables, Oid fn_oid, const char *caller)
{
	List	   *citus_tables = NIL;
	Oid			guardfn;
	ListCell   *lc;

	if (tables == NIL || !OidIsValid(get_extension_oid("citus", true)))
		return NIL;
	guardfn = guard_function(fn_oid);
	foreach(lc, tables)
	{
		Oid			relid = lfirst_oid(lc);
		Oid			argtype = OIDOID;
		Datum		arg = ObjectIdGetDatum(relid);
		int			rc;
		bool		distributed;

		if ((rc = SPI_connect()) != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed: %s", SPI_result_code_string(rc));
		rc = SPI_execute_with_args("SELECT FROM pg_catalog.pg_dist_partition p"
								   " WHERE p.logicalrelid OPERATOR(pg_catalog.=) $1",
								   1, &argtype, &arg, NULL, true, 0);
		if (rc != SPI_OK_SELECT)
			elog(ERROR, "SPI_execute_with_args failed for %s: %s", caller, SPI_result_code_string(rc));
		distributed = SPI_processed > 0;
		SPI_finish();
		if (!distributed)
			continue;
#ifndef PG_UUIDX_TEST_CLUSTER_UNGUARDED
		if (!OidIsValid(guardfn) || !guard_enabled_on(relid, guardfn))
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("%s cannot read Citus table \"%s\" in id order without pg_uuidx_horizon_guard()",
							caller, get_rel_name(relid)),
					 errdetail("A transaction that writes shards on several nodes commits on the coordinator before its rows become visible on the nodes; only the guard on each shard holds the node's horizon until they are."),
					 errhint("With citus.enable_unsafe_triggers on, create the guard on the table: Citus creates it on every shard.")));
#endif
		citus_tables = lappend_oid(citus_tables, relid);
	}
	return citus_tables;
}

int64
cluster_horizon_us(List *citus_tables, int64 local_us, int allowance_ms, Oid fn_oid,
				   const char *caller)
{
	const char *schema;
	List	   *asks;
	int64		horizon_us = local_us;
	ListCell   *lc;

#ifdef PG_UUIDX_TEST_CLUSTER_COORDINATOR_ONLY
	return local_us;
#endif
	/* nothing to read: no node can raise it */
	if (citus_tables == NIL || local_us == HORIZON_LOWEST)
		return local_us;
	schema = get_namespace_name(get_func_namespace(fn_oid));
	asks = nodes_of(citus_tables, caller);

	/*
	 * Model steps "node_raise" and "node_scan": every node asked at once,
	 * below this server's horizon, before the query takes its snapshots.  A
	 * connection kept from an earlier poll may have been closed by its node
	 * since (a restart): that node is asked once more, on a new one.
	 */
	allowance_ms = Max(allowance_ms, 0);
	foreach(lc, asks)
	{
		NodeAsk    *a = lfirst(lc);

		if (!node_ask(a, schema, local_us, allowance_ms, caller) &&
			(!a->reused || !node_ask(a, schema, local_us, allowance_ms, caller)))
			node_failed(a->node, caller, "ask");
	}
	foreach(lc, asks)
	{
		NodeAsk    *a = lfirst(lc);

		if (!node_receive(a, caller) &&
			(!a->reused || !node_ask(a, schema, local_us, allowance_ms, caller) ||
			 !node_receive(a, caller)))
			node_failed(a->node, caller, "read the horizon of");
		/* model step "cluster_min" */
		horizon_us = Min(horizon_us, a->horizon_us);
	}
	return horizon_us;
}

void
cluster_refuse_ticks(List *citus_tables, const char *caller)
{
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("%s cannot read Citus table \"%s\" up to a tick",
					caller, get_rel_name(linitial_oid(citus_tables))),
			 errdetail("A tick holds this server's horizon only, not that of the nodes that hold the table's shards."),
			 errhint("Read it on the coordinator, from_tick => false.")));
}

PG_FUNCTION_INFO_V1(pg_uuidx_node_horizon);

/*
 * pg_uuidx_node_horizon(below timestamptz, allowance_ms integer) ->
 * timestamptz: this server's horizon for readers of tables whose guards
 * allow allowance_ms, its floor raised to the clock but not above below
 * plus allowance_ms (-infinity: held at its lowest).  A Citus
 * coordinator's reader asks every node that holds a shard of the table it
 * reads, below its own horizon.
 */
Datum
pg_uuidx_node_horizon(PG_FUNCTION_ARGS)
{
	const char *caller = "pg_uuidx_node_horizon()";
	int32		allowance_ms = PG_GETARG_INT32(1);

	if (allowance_ms < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("allowance_ms must be zero or more")));
	PG_RETURN_TIMESTAMPTZ(timestamptz_from_horizon(horizon_node_us(caller, allowance_ms,
																   horizon_of(PG_GETARG_TIMESTAMPTZ(0)))));
}
