/*
 * consume.c
 *		pg_uuidx_consume(): a named consumer of a role reads the next rows of
 *		a table in id order, up to the commit horizon, after its position;
 *		pg_uuidx_consumer_ack() moves the position to the last id handled;
 *		pg_uuidx_consumer_reset() sets or removes a position.
 *
 * Owns the table pg_uuidx_consumer_positions and these three SQL functions;
 * may call read_after.h, extension_table.h and saved_plans.h.
 *
 * A consumer is a row of pg_uuidx_consumer_positions: a relation, a name,
 * the role it belongs to, and its position last_id, the greatest id
 * acknowledged (NULL: none yet).  The role is part of the key: a call acts
 * on the position of its name that belongs to the current user, so no role
 * can read, move or take another role's position by its name.
 *
 * pg_uuidx_consume() first locks that row (creating it for a new consumer),
 * then reads the rows after its position exactly as pg_uuidx_read_after()
 * does, as the caller, and remembers for the rest of the transaction the
 * batch it delivered; it never moves the position.  The lock holds until
 * the caller's transaction ends, so a second session of the same consumer
 * waits and then reads after the position the first one committed.
 * pg_uuidx_consumer_ack() moves the position, in the same transaction, to
 * an id of that batch: the caller names the last id it handled, so rows it
 * never received (a LIMIT, a cursor closed early) are read again by the
 * next call.  A rollback leaves the position where it was, and whatever the
 * caller writes in the transaction commits with the position, or not at
 * all.  A batch delivered in a subtransaction that rolls back is forgotten
 * with the lock that subtransaction took.
 *
 * The caller never writes the table: it is written here as its owner
 * (SetUserIdAndSecContext with SECURITY_RESTRICTED_OPERATION, as
 * horizon_tick.c writes its tick), with the relation and the roles passed
 * as OIDs.  Consuming needs SELECT on the relation, checked before the
 * position is locked; so does setting a position, and the privileges of the
 * position's role; removing one needs those privileges or the ownership of
 * the relation.  Every check comes before a lock is taken.  The table is
 * found by the schema of the SQL function and checked to be a member of the
 * same extension: no other role's object can take its place.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/objectaddress.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "nodes/pg_list.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "compat.h"
#include "reading/extension_table.h"
#include "reading/read_after.h"
#include "reading/saved_plans.h"

#define POSITIONS_TABLE "pg_uuidx_consumer_positions"

/* A consumer's row of the positions table, as read under its lock */
typedef struct ConsumerPosition
{
	bool		found;			/* the row exists */
	bool		position_null;	/* nothing acknowledged yet */
	pg_uuid_t	position;		/* the greatest id acknowledged */
} ConsumerPosition;

/*
 * The rows pg_uuidx_consume() delivered to the current transaction for one
 * consumer: those after the position "after" (after_null: from the first)
 * up to and including "last".  Kept in TopTransactionContext, newest last,
 * each with the subtransaction whose lock on the position it relies on.
 */
typedef struct DeliveredBatch
{
	Oid			relid;
	Oid			role;
	char	   *consumer;
	bool		after_null;
	pg_uuid_t	after;
	pg_uuid_t	last;
	SubTransactionId subid;
} DeliveredBatch;

static List *delivered = NIL;
static bool delivered_callbacks = false;

/* A standby cannot store a position */
static void
RefuseOnStandby(const char *caller)
{
	if (RecoveryInProgress())
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("recovery is in progress"),
				 errdetail("%s stores the consumer's position, and positions cannot be stored on a standby.", caller),
				 errhint("Call it on the primary, or read with pg_uuidx_read_after() and a position that the client keeps.")));
}

/* relid's schema-qualified name, or its OID when it is gone */
static const char *
RelationName(Oid relid)
{
	char	   *name = get_rel_name(relid);

	if (name == NULL)
		return psprintf("with OID %u", relid);
	return quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)), name);
}

/* role's name, or its OID when it is gone */
static const char *
RoleName(Oid role)
{
	char	   *name = GetUserNameFromId(role, true);

	return name != NULL ? quote_identifier(name) : psprintf("with OID %u", role);
}

/* an id as text, for messages */
static char *
IdText(const pg_uuid_t *id)
{
	return DatumGetCString(DirectFunctionCall1(uuid_out, UUIDPGetDatum(id)));
}

/* uuid's order: its bytes, as uuid_cmp() compares them */
static int
IdCompare(const pg_uuid_t *a, const pg_uuid_t *b)
{
	return memcmp(a->data, b->data, UUID_LEN);
}

/* The first two arguments, tbl and consumer, name a consumer: both are needed */
static void
RefuseNullConsumer(FunctionCallInfo fcinfo)
{
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s must not be NULL", PG_ARGISNULL(0) ? "tbl" : "consumer")));
}

/*
 * A temporary table ends with its session and its position would stay
 * behind: refuse it.
 */
static void
RefuseTemporary(const char *caller, Oid relid)
{
	if (get_rel_persistence(relid) == RELPERSISTENCE_TEMP)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("%s cannot keep a position for temporary relation \"%s\"", caller, get_rel_name(relid)),
				 errdetail("A temporary relation ends with its session; its position would stay behind."),
				 errhint("Read it with pg_uuidx_read_after() and keep the position in the session.")));
}

/* The owner of relation relid, from the catalog, without locking it */
static Oid
RelationOwner(Oid relid)
{
	HeapTuple	tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	Oid			owner;

	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "cache lookup failed for relation %u", relid);
	owner = ((Form_pg_class) GETSTRUCT(tuple))->relowner;
	ReleaseSysCache(tuple);
	return owner;
}

/*
 * Run query on the positions table as its owner, its parameters $1 the
 * relation, $2 the consumer, $3 the role, $4 a position (NULL unless
 * position), $5 now.  A query that returns a row returns the position: it
 * goes into *pos.  Returns the number of rows processed.
 */
static uint64
PositionsQuery(Oid table, const char *query, Oid relid, Datum consumer, Oid role,
			   const pg_uuid_t *position, ConsumerPosition *pos)
{
	Oid			owner = RelationOwner(table);
	Oid			save_userid;
	int			save_sec_context;
	Oid			argtypes[5] = {REGCLASSOID, TEXTOID, REGROLEOID, UUIDOID, TIMESTAMPTZOID};
	Datum		args[5];
	char		nulls[6] = "     ";
	uint64		processed = 0;

	args[0] = ObjectIdGetDatum(relid);
	args[1] = consumer;
	args[2] = ObjectIdGetDatum(role);
	args[3] = position != NULL ? UUIDPGetDatum(position) : (Datum) 0;
	nulls[3] = position != NULL ? ' ' : 'n';
	args[4] = TimestampTzGetDatum(GetCurrentTimestamp());
	if (pos != NULL)
		pos->found = false;

	GetUserIdAndSecContext(&save_userid, &save_sec_context);
	SetUserIdAndSecContext(owner, save_sec_context | SECURITY_LOCAL_USERID_CHANGE |
						   SECURITY_RESTRICTED_OPERATION);
	PG_TRY();
	{
		int			rc;

		if ((rc = SPI_connect()) != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed: %s", SPI_result_code_string(rc));
		if ((rc = saved_plan_execute(query, 5, argtypes, 0, args, nulls, false, 0)) < 0)
			elog(ERROR, "SPI_execute_plan failed on %s: %s", POSITIONS_TABLE,
				 SPI_result_code_string(rc));
		processed = SPI_processed;
		if (pos != NULL && SPI_tuptable != NULL && SPI_processed == 1)
		{
			Datum		value;

			pos->found = true;
			value = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &pos->position_null);
			if (!pos->position_null)
				memcpy(&pos->position, DatumGetUUIDP(value), sizeof(pg_uuid_t));
		}
		SPI_finish();
	}
	PG_FINALLY();
	{
		SetUserIdAndSecContext(save_userid, save_sec_context);
	}
	PG_END_TRY();
	return processed;
}

/* The query text with the positions table's qualified name in each %s */
static const char *
PositionsSQL(Oid table, const char *format)
{
	const char *name = RelationName(table);
	StringInfoData query;

	initStringInfo(&query);
	appendStringInfo(&query, format, name);
	return query.data;
}

#define WHERE_CONSUMER \
	" WHERE relid OPERATOR(pg_catalog.=) $1 AND consumer OPERATOR(pg_catalog.=) $2" \
	" AND role OPERATOR(pg_catalog.=) $3"
#define LOCK_POSITION "SELECT last_id FROM %s" WHERE_CONSUMER " FOR UPDATE"
#define MOVE_POSITION "UPDATE %s SET last_id = $4, moved_at = $5" WHERE_CONSUMER

/*
 * Lock role's consumer of relid, creating it (at no position) when there is
 * none, and return it: the position that the last transaction to move it
 * committed.  A concurrent call waits here.
 */
static void
LockPosition(Oid table, Oid relid, Datum consumer, Oid role, ConsumerPosition *pos)
{
	const char *insert = PositionsSQL(table,
									  "INSERT INTO %s (relid, consumer, role) VALUES ($1, $2, $3) "
									  "ON CONFLICT (relid, consumer, role) DO NOTHING");
	const char *lock = PositionsSQL(table, LOCK_POSITION);

	/* a reset may delete the row between the two statements: again then */
	for (int attempt = 0; attempt < 100; attempt++)
	{
		(void) PositionsQuery(table, insert, relid, consumer, role, NULL, NULL);
		(void) PositionsQuery(table, lock, relid, consumer, role, NULL, pos);
		if (pos->found)
			return;
		CHECK_FOR_INTERRUPTS();
	}
	elog(ERROR, "could not lock the position of consumer \"%s\" of %s",
		 TextDatumGetCString(consumer), RelationName(relid));
}

/* Whether batch is of role's consumer of relid */
static bool
BatchOf(const DeliveredBatch *batch, Oid relid, Oid role, const char *consumer)
{
	return batch->relid == relid && batch->role == role && strcmp(batch->consumer, consumer) == 0;
}

/* Forget the batches at the end of the transaction that they were delivered to */
static void
DeliveredXactCallback(XactEvent event, void *arg)
{
	switch (event)
	{
		case XACT_EVENT_COMMIT:
		case XACT_EVENT_PARALLEL_COMMIT:
		case XACT_EVENT_ABORT:
		case XACT_EVENT_PARALLEL_ABORT:
		case XACT_EVENT_PREPARE:
			/* TopTransactionContext, which holds them, goes too */
			delivered = NIL;
			break;
		default:
			break;
	}
}

/*
 * A subtransaction that commits hands its batches to its parent; one that
 * rolls back takes them along, with its lock on their positions.
 */
static void
DeliveredSubXactCallback(SubXactEvent event, SubTransactionId mySubid,
						 SubTransactionId parentSubid, void *arg)
{
	ListCell   *lc;

	if (event != SUBXACT_EVENT_COMMIT_SUB && event != SUBXACT_EVENT_ABORT_SUB)
		return;
	foreach(lc, delivered)
	{
		DeliveredBatch *batch = (DeliveredBatch *) lfirst(lc);

		if (batch->subid != mySubid)
			continue;
		if (event == SUBXACT_EVENT_COMMIT_SUB)
			batch->subid = parentSubid;
		else
			delivered = foreach_delete_current(delivered, lc);
	}
}

/*
 * Remember that the rows of role's consumer of relid after position pos up
 * to last were delivered to the current (sub)transaction.
 */
static void
RememberBatch(Oid relid, Oid role, Datum consumer, const ConsumerPosition *pos, const pg_uuid_t *last)
{
	MemoryContext old = MemoryContextSwitchTo(TopTransactionContext);
	char	   *name = TextDatumGetCString(consumer);
	SubTransactionId subid = GetCurrentSubTransactionId();
	DeliveredBatch *batch = NULL;

	if (!delivered_callbacks)
	{
		RegisterXactCallback(DeliveredXactCallback, NULL);
		RegisterSubXactCallback(DeliveredSubXactCallback, NULL);
		delivered_callbacks = true;
	}
	/* a later call of the same subtransaction replaces its batch */
	if (delivered != NIL)
	{
		DeliveredBatch *newest = (DeliveredBatch *) llast(delivered);

		if (newest->subid == subid && BatchOf(newest, relid, role, name))
			batch = newest;
	}
	if (batch == NULL)
	{
		batch = palloc(sizeof(DeliveredBatch));
		batch->relid = relid;
		batch->role = role;
		batch->consumer = name;
		batch->subid = subid;
		delivered = lappend(delivered, batch);
	}
	batch->after_null = pos->position_null;
	if (!pos->position_null)
		batch->after = pos->position;
	batch->last = *last;
	MemoryContextSwitchTo(old);
}

/* The newest batch delivered to role's consumer of relid in this transaction, or NULL */
static const DeliveredBatch *
FindBatch(Oid relid, Oid role, Datum consumer)
{
	char	   *name = TextDatumGetCString(consumer);

	for (int i = list_length(delivered) - 1; i >= 0; i--)
	{
		const DeliveredBatch *batch = (const DeliveredBatch *) list_nth(delivered, i);

		if (BatchOf(batch, relid, role, name))
			return batch;
	}
	return NULL;
}

PG_FUNCTION_INFO_V1(pg_uuidx_consume);

/*
 * pg_uuidx_consume(row_type anyelement, consumer text, max_rows integer,
 * id_column name, id_version integer) -> SETOF anyelement: the rows that
 * pg_uuidx_read_after(row_type, <the position>, max_rows, id_column,
 * id_version) returns, the position being the current user's consumer's,
 * locked until the calling transaction ends.  The position does not move:
 * pg_uuidx_consumer_ack() moves it within the rows delivered.
 */
Datum
pg_uuidx_consume(PG_FUNCTION_ARGS)
{
	const char *caller = "pg_uuidx_consume()";
	Oid			user = GetUserId();
	ReadAfterTarget target;
	ConsumerPosition pos;
	Oid			table;
	Datum		consumer;
	int			version;
	pg_uuid_t	last;

	RefuseOnStandby(caller);
	for (int i = 1; i <= 3; i++)
		if (PG_ARGISNULL(i))
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("%s must not be NULL", i == 1 ? "consumer" : i == 2 ? "max_rows" : "id_column")));
	consumer = PG_GETARG_DATUM(1);
	if (VARSIZE_ANY_EXHDR(DatumGetPointer(consumer)) == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("consumer must not be empty")));
	if (PG_GETARG_INT32(2) <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("max_rows must be greater than zero")));
	version = read_after_version(fcinfo, 4);

	/* what may be read, as the caller, before any position is locked */
	read_after_target(fcinfo, caller, NameStr(*PG_GETARG_NAME(3)), version, &target);
	RefuseTemporary(caller, target.relid);

	table = extension_table(fcinfo->flinfo->fn_oid, POSITIONS_TABLE);
	LockPosition(table, target.relid, consumer, user, &pos);

	/* the rows after the position committed last, read as the caller */
	if (read_after_rows(fcinfo, caller, &target, UUIDPGetDatum(&pos.position), pos.position_null,
						PG_GETARG_INT32(2), version, -1, &last))
		RememberBatch(target.relid, user, consumer, &pos, &last);
	return (Datum) 0;
}

PG_FUNCTION_INFO_V1(pg_uuidx_consumer_ack);

/*
 * pg_uuidx_consumer_ack(tbl regclass, consumer text, last_id uuid) -> void:
 * move the current user's consumer's position to last_id, the last id
 * handled of the rows that pg_uuidx_consume() delivered to this
 * transaction: after the position, at most the greatest id delivered.
 * last_id NULL acknowledges nothing.
 */
Datum
pg_uuidx_consumer_ack(PG_FUNCTION_ARGS)
{
	const char *caller = "pg_uuidx_consumer_ack()";
	Oid			user = GetUserId();
	Oid			relid;
	Datum		consumer;
	const pg_uuid_t *id;
	const DeliveredBatch *batch;
	ConsumerPosition pos;
	Oid			table;

	RefuseOnStandby(caller);
	RefuseNullConsumer(fcinfo);
	if (PG_ARGISNULL(2))
		PG_RETURN_VOID();
	relid = PG_GETARG_OID(0);
	consumer = PG_GETARG_DATUM(1);
	id = PG_GETARG_UUID_P(2);

	batch = FindBatch(relid, user, consumer);
	if (batch == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("no rows of %s were delivered to consumer \"%s\" of role %s in this transaction",
						RelationName(relid), TextDatumGetCString(consumer), RoleName(user)),
				 errdetail("%s acknowledges rows that pg_uuidx_consume() returned to the same role earlier in the same transaction.",
						   caller),
				 errhint("Call pg_uuidx_consume() and then %s in one transaction.", caller)));
	if (IdCompare(id, &batch->last) > 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("id %s was not delivered to consumer \"%s\" of %s", IdText(id),
						TextDatumGetCString(consumer), RelationName(relid)),
				 errdetail("The greatest id that pg_uuidx_consume() returned in this transaction is %s.",
						   IdText(&batch->last)),
				 errhint("Acknowledge the id of the last row handled.")));

	/* held since the batch was delivered: the position is this transaction's */
	table = extension_table(fcinfo->flinfo->fn_oid, POSITIONS_TABLE);
	(void) PositionsQuery(table, PositionsSQL(table, LOCK_POSITION), relid, consumer, user, NULL, &pos);
	if (!pos.found || (!batch->after_null &&
					   (pos.position_null || IdCompare(&pos.position, &batch->after) < 0)))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the position of consumer \"%s\" of %s was reset after its rows were delivered",
						TextDatumGetCString(consumer), RelationName(relid)),
				 errhint("Call pg_uuidx_consume() again.")));
	if (!pos.position_null && IdCompare(id, &pos.position) <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("id %s is not after the position of consumer \"%s\" of %s", IdText(id),
						TextDatumGetCString(consumer), RelationName(relid)),
				 errdetail("The consumer's position is %s.", IdText(&pos.position)),
				 errhint("Acknowledge only rows after the position; pg_uuidx_consumer_reset() moves it back.")));
	(void) PositionsQuery(table, PositionsSQL(table, MOVE_POSITION), relid, consumer, user, id, NULL);
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(pg_uuidx_consumer_reset);

/*
 * pg_uuidx_consumer_reset(tbl regclass, consumer text, after_id uuid
 * DEFAULT NULL, role regrole DEFAULT NULL) -> boolean: remove role's
 * consumer's position (role NULL: the current user's; after_id NULL: its
 * next call starts from the first row) or set it to after_id (creating
 * it): its next call reads the rows after after_id.  Returns whether the
 * consumer had a position.  Setting needs SELECT on the table and the
 * privileges of role; removing, those privileges or the ownership of the
 * table.  Both are checked before anything is locked.  The position's row
 * is locked: a running consumer's transaction ends first.
 */
Datum
pg_uuidx_consumer_reset(PG_FUNCTION_ARGS)
{
	const char *caller = "pg_uuidx_consumer_reset()";
	Oid			user = GetUserId();
	Oid			relid;
	Datum		consumer;
	Oid			role;
	Oid			table;
	ConsumerPosition pos;
	const pg_uuid_t *position;

	RefuseOnStandby(caller);
	RefuseNullConsumer(fcinfo);
	relid = PG_GETARG_OID(0);
	consumer = PG_GETARG_DATUM(1);
	position = PG_ARGISNULL(2) ? NULL : PG_GETARG_UUID_P(2);
	role = PG_ARGISNULL(3) ? user : PG_GETARG_OID(3);

	if (position != NULL)
	{
		AclResult	acl;

		if (!SearchSysCacheExists1(RELOID, ObjectIdGetDatum(relid)))
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_TABLE),
					 errmsg("relation with OID %u does not exist", relid),
					 errhint("A position can be set only for a relation that exists; pass NULL to remove one.")));
		acl = pg_class_aclcheck(relid, user, ACL_SELECT);
		if (acl != ACLCHECK_OK)
			aclcheck_error(acl, get_relkind_objtype(get_rel_relkind(relid)), get_rel_name(relid));
		if (!SearchSysCacheExists1(AUTHOID, ObjectIdGetDatum(role)))
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_OBJECT),
					 errmsg("role with OID %u does not exist", role),
					 errhint("A position can be set only for a role that exists; pass NULL to remove one.")));
		if (!has_privs_of_role(user, role))
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("permission denied to set consumer \"%s\" of %s of role %s",
							TextDatumGetCString(consumer), RelationName(relid), RoleName(role)),
					 errhint("Only a role that has the privileges of role %s may set its positions.",
							 RoleName(role))));
		RefuseTemporary(caller, relid);
		/* checked, then locked: a table dropped meanwhile gets no position */
		LockRelationOid(relid, AccessShareLock);
		if (!SearchSysCacheExists1(RELOID, ObjectIdGetDatum(relid)))
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_TABLE),
					 errmsg("relation with OID %u does not exist", relid)));
	}
	else if (!has_privs_of_role(user, role) &&
			 !(SearchSysCacheExists1(RELOID, ObjectIdGetDatum(relid)) &&
			   PG_UUIDX_REL_OWNERCHECK(relid, user)))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to reset consumer \"%s\" of %s of role %s",
						TextDatumGetCString(consumer), RelationName(relid), RoleName(role)),
				 errhint("Only a role that has the privileges of role %s, or the table's owner, may remove its positions.",
						 RoleName(role))));

	table = extension_table(fcinfo->flinfo->fn_oid, POSITIONS_TABLE);
	for (int attempt = 0; attempt < 100; attempt++)
	{
		(void) PositionsQuery(table, PositionsSQL(table, LOCK_POSITION), relid, consumer, role, NULL, &pos);
		if (pos.found)
		{
			if (position == NULL)
				(void) PositionsQuery(table, PositionsSQL(table, "DELETE FROM %s" WHERE_CONSUMER),
									  relid, consumer, role, NULL, NULL);
			else
				(void) PositionsQuery(table, PositionsSQL(table, MOVE_POSITION),
									  relid, consumer, role, position, NULL);
			PG_RETURN_BOOL(true);
		}
		if (position == NULL)
			PG_RETURN_BOOL(false);
		/* a new position; created meanwhile by another session: again */
		if (PositionsQuery(table, PositionsSQL(table,
											   "INSERT INTO %s (relid, consumer, role, last_id, moved_at) "
											   "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (relid, consumer, role) DO NOTHING"),
						   relid, consumer, role, position, NULL) == 1)
			PG_RETURN_BOOL(false);
		CHECK_FOR_INTERRUPTS();
	}
	elog(ERROR, "could not lock the position of consumer \"%s\" of %s",
		 TextDatumGetCString(consumer), RelationName(relid));
	PG_RETURN_BOOL(false);
}
