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
 * connection of this backend kept open across polls, and only then runs
 * the query.  The connections:
 *
 * - Are opened as Citus opens its own: as the current user, to the host and
 *   port of pg_dist_node, with the options of citus.node_conninfo that
 *   Citus itself accepts (but sslkeylogfile), and whatever credentials
 *   libpq finds in this server's environment (its OS user's ~/.pgpass and
 *   client certificates, PGPASSFILE, Kerberos) or the nodes grant without
 *   (trust, peer, cert).  Both the nodes and the options are a
 *   superuser's: pg_dist_node is in pg_catalog, and citus.node_conninfo is
 *   read only when Citus's library defined it (PGC_SIGHUP).  Without that
 *   library it would be a placeholder that any role may SET, choosing
 *   where this server's credentials go, so a Citus table is then refused.
 *   A role that may read the table makes Citus open the same connections,
 *   with the same credentials, by querying it.
 * - Are one per node, of the role that read last: a reader of another role
 *   opens it again.  One is closed when its node is no longer an active
 *   primary in pg_dist_node (checked at each poll), when its role is
 *   altered or dropped, or citus.node_conninfo changed.
 * - Count as external files of fd.c (AcquireExternalFD()).
 * - Are waited on for at most pg_uuidx.node_timeout per poll, connecting
 *   included, processing interrupts (a cancel, statement_timeout,
 *   client_connection_check_interval).  libpq resolves a node's name
 *   without such a bound.
 * - Are closed at the end of the (sub)transaction when an error or a
 *   cancel left them connecting or asking, their question cancelled first
 *   where libpq can send a cancel request within a bound (libpq 17's
 *   PQcancelCreate(); an older libpq's PQcancel() waits for the node
 *   without limit).  The node's backend ends once it finds the connection
 *   closed, when it sends its answer.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/pg_type.h"
#include "commands/dbcommands.h"
#include "commands/extension.h"
#include "common/int.h"
#include "executor/spi.h"
#include "libpq-fe.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "port/pg_bswap.h"
#include "storage/fd.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"

#include "compat.h"
#include "ids/id_time.h"
#include "reading/cluster.h"
#include "reading/guard.h"
#include "reading/horizon.h"
#include "reading/tick_table.h"

/* pg_uuidx.node_timeout: the most one poll waits for the nodes, in ms */
static int	node_timeout_ms = 5000;

/* This backend's connection to a node */
typedef struct NodeConnection
{
	char	   *host;
	int			port;
	PGconn	   *conn;			/* NULL: none open; else an external fd */
	/* while conn is not NULL: */
	Oid			role;			/* the role it was opened as */
	uint32		role_hash;		/* the role's hash value in the AUTHOID cache */
	bool		role_changed;	/* the role was altered or dropped since */
	char	   *conninfo;		/* citus.node_conninfo it was opened with */
	bool		listed;			/* in pg_dist_node at this poll */
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

/* What the coordinator was doing with a node when it failed */
typedef enum NodeStep
{
	NODE_CONNECT,
	NODE_ASK,
	NODE_ANSWER,
} NodeStep;

/*
 * The options of citus.node_conninfo that a connection takes: those that
 * Citus's own check of the setting accepts, but sslkeylogfile (a file that
 * the TLS keys are written to).  "host" is used as Citus uses it: the name
 * that authentication checks, the node then reached at pg_dist_node's
 * address (hostaddr).
 */
static const char *const node_conninfo_options[] = {
	"connect_timeout", "gsslib", "host", "keepalives", "keepalives_count",
	"keepalives_idle", "keepalives_interval", "krbsrvname", "sslcert",
	"sslcompression", "sslcrl", "sslkey", "sslmode", "sslnegotiation",
	"sslrootcert", "tcp_user_timeout",
};

/*
 * A connection's options: libpq's keepalives, those of citus.node_conninfo,
 * the node, the database, the user, the search_path, application_name
 */
#define NODE_OPTIONS_MAX (4 + lengthof(node_conninfo_options) + 8 + 1)

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

/*
 * Whether Citus's library is loaded in this backend: it defines
 * citus.node_conninfo, otherwise at most a placeholder that any role may SET
 */
static bool
citus_loaded(void)
{
	return GetConfigOption("citus.node_conninfo", true, false) != NULL &&
		(GetConfigOptionFlags("citus.node_conninfo", true) & GUC_CUSTOM_PLACEHOLDER) == 0;
}

/*
 * Count a connection's socket as an external file of fd.c, when there is
 * room left for the wait set that each wait on it opens too
 * (WaitLatchOrSocket())
 */
static bool
acquire_fd(void)
{
	if (!AcquireExternalFD())
		return false;
	if (!AcquireExternalFD())
	{
		ReleaseExternalFD();
		return false;
	}
	ReleaseExternalFD();
	return true;
}

/* Close c's connection, if open */
static void
node_close(NodeConnection *c)
{
	if (c->conn == NULL)
		return;
	PQfinish(c->conn);
	ReleaseExternalFD();
	c->conn = NULL;
	if (c->conninfo != NULL)
		pfree(c->conninfo);
	c->conninfo = NULL;
}

/*
 * Send a cancel request for the question in flight on c, waiting for the
 * node no longer than pg_uuidx.node_timeout.  Only libpq 17 and later can
 * send one without blocking; an older libpq's PQcancel() waits for the node
 * to close the request's socket without limit, and a node that accepts
 * connections but does not answer would hold this backend for ever.
 */
static void
node_cancel(NodeConnection *c)
{
#ifdef LIBPQ_HAS_ASYNC_CANCEL
	/* at most 30 s, as postgres_fdw waits for a cancel: a session may set an hour */
	TimestampTz deadline = TimestampTzPlusMilliseconds(GetCurrentTimestamp(), Min(node_timeout_ms, 30000));
	PGcancelConn *cancel = PQcancelCreate(c->conn);
	PostgresPollingStatusType status = PGRES_POLLING_WRITING;

	if (cancel == NULL)
		return;
	if (PQcancelStart(cancel))
	{
		while (status == PGRES_POLLING_READING || status == PGRES_POLLING_WRITING)
		{
			long		timeout_ms = TimestampDifferenceMilliseconds(GetCurrentTimestamp(), deadline);
			int			events = status == PGRES_POLLING_READING ? WL_SOCKET_READABLE : WL_SOCKET_WRITEABLE;
			int			rc;

			/* a backend told to end (pg_terminate_backend()) only closes */
			if (timeout_ms <= 0 || ProcDiePending || proc_exit_inprogress)
				break;
			rc = WaitLatchOrSocket(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH | events,
								   PQcancelSocket(cancel), timeout_ms, PG_WAIT_EXTENSION);
			if (rc & WL_LATCH_SET)
				ResetLatch(MyLatch);
			if (rc & events)
				status = PQcancelPoll(cancel);
		}
	}
	PQcancelFinish(cancel);
#endif
}

/*
 * At the end of a transaction or an aborted subtransaction: close the
 * connections that an error or a cancel left connecting or asking (a
 * question is cancelled first), and those whose role changed.  A poll
 * starts and ends within one call of a reader, so no other can be using
 * them.
 */
static void
close_unfinished(void)
{
	for (NodeConnection *c = connections; c != NULL; c = c->next)
	{
		if (c->conn == NULL)
			continue;
		if (PQstatus(c->conn) == CONNECTION_OK && PQtransactionStatus(c->conn) == PQTRANS_IDLE &&
			!c->role_changed)
			continue;
		if (PQstatus(c->conn) == CONNECTION_OK && PQtransactionStatus(c->conn) == PQTRANS_ACTIVE)
			node_cancel(c);
		node_close(c);
	}
}

static void
cluster_xact_callback(XactEvent event, void *arg)
{
	if (event == XACT_EVENT_COMMIT || event == XACT_EVENT_PARALLEL_COMMIT ||
		event == XACT_EVENT_ABORT || event == XACT_EVENT_PARALLEL_ABORT ||
		event == XACT_EVENT_PREPARE)
		close_unfinished();
}

static void
cluster_subxact_callback(SubXactEvent event, SubTransactionId mySubid,
						 SubTransactionId parentSubid, void *arg)
{
	if (event == SUBXACT_EVENT_ABORT_SUB)
		close_unfinished();
}

/* A role was altered or dropped (hashvalue in the AUTHOID cache; 0: any) */
static void
mark_role_changed(Datum arg, int cacheid, uint32 hashvalue)
{
	for (NodeConnection *c = connections; c != NULL; c = c->next)
		if (c->conn != NULL && (hashvalue == 0 || c->role_hash == hashvalue))
			c->role_changed = true;
}

/* close this backend's connections when it exits */
static void
close_connections(int code, Datum arg)
{
	for (NodeConnection *c = connections; c != NULL; c = c->next)
		node_close(c);
}

/* The entry of node host:port, made on first use */
static NodeConnection *
node_connection(const char *host, int port)
{
	static bool registered = false;
	NodeConnection *c;

	for (c = connections; c != NULL; c = c->next)
		if (c->port == port && strcmp(c->host, host) == 0)
			return c;
	if (!registered)
	{
		on_proc_exit(close_connections, (Datum) 0);
		RegisterXactCallback(cluster_xact_callback, NULL);
		RegisterSubXactCallback(cluster_subxact_callback, NULL);
		CacheRegisterSyscacheCallback(AUTHOID, mark_role_changed, (Datum) 0);
		registered = true;
	}
	c = MemoryContextAllocZero(TopMemoryContext, sizeof(NodeConnection));
	c->host = MemoryContextStrdup(TopMemoryContext, host);
	c->port = port;
	c->next = connections;
	connections = c;
	return c;
}

/* Close c's connection, and an error about step (whole messages, translatable) */
pg_noreturn static void
node_failed(NodeConnection *c, const char *caller, NodeStep step)
{
	char	   *message = pchomp(PQerrorMessage(c->conn));

	node_close(c);
	ereport(ERROR,
			(errcode(ERRCODE_CONNECTION_FAILURE),
			 step == NODE_CONNECT ?
			 errmsg("%s could not connect to node %s:%d", caller, c->host, c->port) :
			 step == NODE_ASK ?
			 errmsg("%s could not ask node %s:%d for its horizon", caller, c->host, c->port) :
			 errmsg("%s could not read the horizon of node %s:%d", caller, c->host, c->port),
			 errdetail_internal("%s", message),
			 errhint("The coordinator asks every node that holds a shard of the table for its horizon, as the current user, as Citus connects.")));
	pg_unreachable();
}

/*
 * The error of a poll that reached its deadline at step; the connection is
 * left to close_unfinished()
 */
pg_noreturn static void
node_timed_out(NodeConnection *c, const char *caller, NodeStep step)
{
	if (step == NODE_CONNECT)
		ereport(ERROR,
				(errcode(ERRCODE_CONNECTION_FAILURE),
				 errmsg("%s timed out connecting to node %s:%d", caller, c->host, c->port),
				 errdetail("A poll waits for the nodes for at most pg_uuidx.node_timeout (%d ms), connecting included.",
						   node_timeout_ms),
				 errhint("Check that the node is up and reachable from this server.")));
	ereport(ERROR,
			(errcode(ERRCODE_QUERY_CANCELED),
			 errmsg("%s timed out waiting for the horizon of node %s:%d", caller, c->host, c->port),
			 errdetail("A poll waits for the nodes for at most pg_uuidx.node_timeout (%d ms), connecting included.",
					   node_timeout_ms),
			 errhint("Check what the node's backend of application_name \"pg_uuidx cluster horizon\" waits for.")));
}

/*
 * Wait until c's socket is ready for events (WL_SOCKET_READABLE or
 * WRITEABLE), processing interrupts, until deadline (then an error of
 * step).  An error leaves the connection to close_unfinished().
 */
static void
node_wait(NodeConnection *c, int events, TimestampTz deadline, const char *caller, NodeStep step)
{
	for (;;)
	{
		long		timeout_ms = TimestampDifferenceMilliseconds(GetCurrentTimestamp(), deadline);
		int			rc;

		if (timeout_ms <= 0)
			node_timed_out(c, caller, step);
		rc = WaitLatchOrSocket(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH | events,
							   PQsocket(c->conn), timeout_ms, PG_WAIT_EXTENSION);
		if (rc & WL_LATCH_SET)
		{
			ResetLatch(MyLatch);
			CHECK_FOR_INTERRUPTS();
		}
		if (rc & events)
			return;
	}
}

/*
 * The options of a connection to c as the current user, into keywords and
 * values (NULL-terminated, NODE_OPTIONS_MAX): libpq's keepalives, then
 * those of conninfo (citus.node_conninfo), any other than
 * node_conninfo_options refused, then the node, this database and the user
 * (a later keyword wins)
 */
static void
node_options(NodeConnection *c, const char *conninfo, const char *caller,
			 const char **keywords, const char **values)
{
	char	   *error = NULL;
	PQconninfoOption *parsed = PQconninfoParse(conninfo, &error);
	const char *host = NULL;
	int			n = 0;

	if (parsed == NULL)
	{
		char	   *message = error != NULL ? pchomp(error) : pstrdup("out of memory");

		PQfreemem(error);
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s cannot read citus.node_conninfo", caller),
				 errdetail_internal("%s", message)));
	}
	keywords[n] = "keepalives";
	values[n++] = "1";
	keywords[n] = "keepalives_idle";
	values[n++] = "30";
	keywords[n] = "keepalives_interval";
	values[n++] = "10";
	keywords[n] = "keepalives_count";
	values[n++] = "3";
	for (PQconninfoOption *o = parsed; o->keyword != NULL; o++)
	{
		bool		allowed = false;

		if (o->val == NULL || o->val[0] == '\0')
			continue;
		for (int i = 0; i < (int) lengthof(node_conninfo_options); i++)
			allowed |= strcmp(o->keyword, node_conninfo_options[i]) == 0;
		if (!allowed)
		{
			char	   *keyword = pstrdup(o->keyword);
			StringInfoData list;

			PQconninfoFree(parsed);
			initStringInfo(&list);
			for (int i = 0; i < (int) lengthof(node_conninfo_options); i++)
				appendStringInfo(&list, "%s%s", i > 0 ? ", " : "", node_conninfo_options[i]);
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("%s cannot connect to node %s:%d with option \"%s\" of citus.node_conninfo",
							caller, c->host, c->port, keyword),
					 errdetail("A reader of Citus tables takes only these options from citus.node_conninfo: %s.",
							   list.data),
					 errhint("Remove \"%s\" from citus.node_conninfo.", keyword)));
		}
		if (strcmp(o->keyword, "host") == 0)
			host = pstrdup(o->val);
		else
		{
			keywords[n] = pstrdup(o->keyword);
			values[n++] = pstrdup(o->val);
		}
	}
	PQconninfoFree(parsed);
	if (host != NULL)
	{
		keywords[n] = "host";
		values[n++] = host;
	}
	keywords[n] = host != NULL ? "hostaddr" : "host";
	values[n++] = c->host;
	keywords[n] = "port";
	values[n++] = psprintf("%d", c->port);
	keywords[n] = "dbname";
	values[n++] = get_database_name(MyDatabaseId);
	keywords[n] = "user";
	values[n++] = GetUserNameFromId(GetUserId(), false);
	/* the query's names are qualified; no other schema can take their place */
	keywords[n] = "options";
	values[n++] = "-c search_path=pg_catalog";
	keywords[n] = "application_name";
	values[n++] = "pg_uuidx cluster horizon";
	/* a node's messages in this database's encoding, as postgres_fdw asks */
	keywords[n] = "client_encoding";
	values[n++] = GetDatabaseEncodingName();
	keywords[n] = NULL;
	values[n] = NULL;
	Assert(n < (int) NODE_OPTIONS_MAX);
}

/*
 * c's connection as the current user, opened within deadline unless it is
 * open and idle (then true)
 */
static bool
node_open(NodeConnection *c, TimestampTz deadline, const char *caller)
{
	const char *conninfo = GetConfigOption("citus.node_conninfo", true, false);
	const char *keywords[NODE_OPTIONS_MAX];
	const char *values[NODE_OPTIONS_MAX];
	PostgresPollingStatusType status = PGRES_POLLING_WRITING;

	if (conninfo == NULL)
		conninfo = "";
	if (c->conn != NULL && PQstatus(c->conn) == CONNECTION_OK &&
		PQtransactionStatus(c->conn) == PQTRANS_IDLE && c->role == GetUserId() &&
		!c->role_changed && strcmp(c->conninfo, conninfo) == 0)
		return true;
	node_close(c);
	node_options(c, conninfo, caller, keywords, values);
	if (!acquire_fd())
		ereport(ERROR,
				(errcode(ERRCODE_SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION),
				 errmsg("%s could not connect to node %s:%d", caller, c->host, c->port),
				 errdetail("There are too many open files on the local server."),
				 errhint("Raise the server's max_files_per_process and/or \"ulimit -n\" limits.")));
	c->conn = PQconnectStartParams(keywords, values, 0);
	if (c->conn == NULL)
	{
		ReleaseExternalFD();
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory")));
	}
	c->role = GetUserId();
	c->role_hash = GetSysCacheHashValue1(AUTHOID, ObjectIdGetDatum(c->role));
	c->role_changed = false;
	c->conninfo = MemoryContextStrdup(TopMemoryContext, conninfo);
	if (PQstatus(c->conn) == CONNECTION_BAD)
		node_failed(c, caller, NODE_CONNECT);
	while (status != PGRES_POLLING_OK)
	{
		if (status == PGRES_POLLING_FAILED)
			node_failed(c, caller, NODE_CONNECT);
		node_wait(c, status == PGRES_POLLING_READING ? WL_SOCKET_READABLE : WL_SOCKET_WRITEABLE,
				  deadline, caller, NODE_CONNECT);
		status = PQconnectPoll(c->conn);
	}
	return false;
}

/*
 * Send node a the question of one poll, to the function in schema; false
 * when the connection turned out to be lost
 */
static bool
node_ask(NodeAsk *a, const char *schema, int64 below_us, int allowance_ms, TimestampTz deadline,
		 const char *caller)
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

	a->reused = node_open(a->node, deadline, caller);
	sent = PQsendQueryParams(a->node->conn, query, 2, types, values, lengths, formats, 1);
	pfree(query);
	return sent;
}

/*
 * The next result of the question on c into *result (NULL after the last),
 * waiting until deadline without blocking in libpq; false when the
 * connection was lost
 */
static bool
node_result(NodeConnection *c, TimestampTz deadline, const char *caller, PGresult **result)
{
	while (PQisBusy(c->conn))
	{
		if (!PQconsumeInput(c->conn))
			return false;
		if (PQisBusy(c->conn))
			node_wait(c, WL_SOCKET_READABLE, deadline, caller, NODE_ANSWER);
	}
	*result = PQgetResult(c->conn);
	return true;
}

/*
 * Node a's answer into a->horizon_us, waiting until deadline; false when
 * the connection was lost before it came, an error when the node refused
 * the question
 */
static bool
node_receive(NodeAsk *a, TimestampTz deadline, const char *caller)
{
	NodeConnection *c = a->node;
	PGresult   *result;
	bool		answered = false;

	while (node_result(c, deadline, caller, &result))
	{
		if (result == NULL)
		{
			if (!answered)
				ereport(ERROR,
						(errcode(ERRCODE_UNDEFINED_FUNCTION),
						 errmsg("%s could not read the horizon of node %s:%d", caller, c->host, c->port),
						 errdetail("The node has no pg_uuidx_node_horizon() of the extension pg_uuidx in the extension's schema."),
						 errhint("Every node that holds shards needs pg_uuidx of this version, in the same schema.")));
			return true;
		}
		if (PQresultStatus(result) != PGRES_TUPLES_OK)
		{
			const char *state = PQresultErrorField(result, PG_DIAG_SQLSTATE);
			const char *severity = PQresultErrorField(result, PG_DIAG_SEVERITY_NONLOCALIZED);
			bool		ended = severity != NULL && strcmp(severity, "ERROR") != 0;
			char	   *message = pchomp(PQresultErrorMessage(result));
			int			code = state != NULL && strlen(state) == 5 ?
				MAKE_SQLSTATE(state[0], state[1], state[2], state[3], state[4]) :
				ERRCODE_CONNECTION_FAILURE;

			PQclear(result);
			/* the node ended the session: a shutdown, a restart */
			if (PQstatus(c->conn) == CONNECTION_BAD || ended)
				return false;
			/* the connection is left idle for the next poll */
			while (node_result(c, deadline, caller, &result) && result != NULL)
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
	return false;
}

/*
 * The primary nodes, other than this one, that hold a placement of a shard
 * of one of citus_tables, as NodeAsks (Citus's catalog, read as the current
 * user: its tables are readable by all).  The connections to nodes that are
 * no longer active primaries are closed.
 */
static List *
nodes_of(List *citus_tables, const char *caller)
{
	Datum	   *oids = palloc(sizeof(Datum) * list_length(citus_tables));
	Oid			argtype = OIDARRAYOID;
	Datum		arg;
	MemoryContext caller_cxt = CurrentMemoryContext;
	List	   *asks = NIL;
	NodeConnection **link;
	int			n = 0;
	int			rc;
	ListCell   *lc;

	foreach(lc, citus_tables)
		oids[n++] = ObjectIdGetDatum(lfirst_oid(lc));
	arg = PointerGetDatum(construct_array(oids, n, OIDOID, sizeof(Oid), true, TYPALIGN_INT));

	if ((rc = SPI_connect()) != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed: %s", SPI_result_code_string(rc));
	rc = SPI_execute_with_args("SELECT n.nodename, n.nodeport, EXISTS (SELECT"
							   " FROM pg_catalog.pg_dist_placement p"
							   " JOIN pg_catalog.pg_dist_shard s ON s.shardid OPERATOR(pg_catalog.=) p.shardid"
							   " WHERE p.groupid OPERATOR(pg_catalog.=) n.groupid"
							   " AND s.logicalrelid OPERATOR(pg_catalog.=) ANY ($1))"
							   " FROM pg_catalog.pg_dist_node n"
							   " WHERE n.isactive AND n.noderole OPERATOR(pg_catalog.=) 'primary'"
							   " AND n.groupid OPERATOR(pg_catalog.<>)"
							   " (SELECT g.groupid FROM pg_catalog.pg_dist_local_group g)",
							   1, &argtype, &arg, NULL, true, 0);
	if (rc != SPI_OK_SELECT)
		elog(ERROR, "SPI_execute_with_args failed for %s: %s", caller, SPI_result_code_string(rc));
	for (NodeConnection *c = connections; c != NULL; c = c->next)
		c->listed = false;
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		HeapTuple	row = SPI_tuptable->vals[i];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		bool		isnull;
		char	   *host = TextDatumGetCString(SPI_getbinval(row, desc, 1, &isnull));
		int			port = DatumGetInt32(SPI_getbinval(row, desc, 2, &isnull));
		bool		holds = DatumGetBool(SPI_getbinval(row, desc, 3, &isnull));
		/* the list outlives SPI_finish() */
		MemoryContext spi_cxt = MemoryContextSwitchTo(caller_cxt);

		if (holds)
		{
			NodeAsk    *a = palloc(sizeof(NodeAsk));

			a->node = node_connection(host, port);
			a->node->listed = true;
			a->reused = false;
			a->horizon_us = HORIZON_LOWEST;
			asks = lappend(asks, a);
		}
		else
			for (NodeConnection *c = connections; c != NULL; c = c->next)
				c->listed |= c->port == port && strcmp(c->host, host) == 0;
		MemoryContextSwitchTo(spi_cxt);
	}
	SPI_finish();

	/* removed, disabled, moved to another address, a secondary now */
	link = &connections;
	while (*link != NULL)
	{
		NodeConnection *c = *link;

		if (c->listed)
		{
			link = &c->next;
			continue;
		}
		node_close(c);
		*link = c->next;
		pfree(c->host);
		pfree(c);
	}
	return asks;
}

List *
cluster_tables(List *tables, Oid fn_oid, const char *caller)
{
	List	   *citus_tables = NIL;
	ListCell   *lc;

	if (tables == NIL || !OidIsValid(get_extension_oid("citus", true)))
		return NIL;
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
		if (!citus_loaded())
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("%s cannot read Citus table \"%s\" without Citus's library",
							caller, get_rel_name(relid)),
					 errdetail("The extension citus is in this database, but its library is not loaded in this session."),
					 errhint("Add citus to shared_preload_libraries.")));
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
	TimestampTz deadline;
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
	deadline = TimestampTzPlusMilliseconds(GetCurrentTimestamp(), node_timeout_ms);
	foreach(lc, asks)
	{
		NodeAsk    *a = lfirst(lc);

		if (!node_ask(a, schema, local_us, allowance_ms, deadline, caller) &&
			(!a->reused || !node_ask(a, schema, local_us, allowance_ms, deadline, caller)))
			node_failed(a->node, caller, NODE_ASK);
	}
	foreach(lc, asks)
	{
		NodeAsk    *a = lfirst(lc);

		if (!node_receive(a, deadline, caller) &&
			(!a->reused || !node_ask(a, schema, local_us, allowance_ms, deadline, caller) ||
			 !node_receive(a, deadline, caller)))
			node_failed(a->node, caller, NODE_ANSWER);
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

void
cluster_init_module(void)
{
	/* PGC_USERSET: it bounds the waits of the session that sets it only */
	DefineCustomIntVariable("pg_uuidx.node_timeout",
							"How long a reader of Citus tables waits for the nodes in one poll.",
							"The most that pg_uuidx_read_after() and pg_uuidx_consume() on a Citus coordinator "
							"wait to connect to the nodes that hold the tables' shards and for their horizons, "
							"and then to cancel a question left unanswered.",
							&node_timeout_ms,
							5000, 10, 3600 * 1000,
							PGC_USERSET,
							GUC_UNIT_MS,
							NULL, NULL, NULL);
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
