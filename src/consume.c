/*
 * consume.c
 *		pg_uuidx_consume(): a named consumer reads the next rows of a table
 *		in id order, up to the commit horizon, and moves its position in the
 *		same transaction; pg_uuidx_consumer_reset() sets or removes a
 *		position.
 *
 * Owns the table pg_uuidx_consumer_positions and these two SQL functions;
 * may call read_after.h and extension_table.h.
 *
 * A consumer is a row of pg_uuidx_consumer_positions: a relation, a name,
 * its position last_id, the greatest id read (NULL: none yet), and the role
 * it belongs to.  A call
 * first locks that row (creating it for a new consumer), then reads the
 * rows after its position exactly as pg_uuidx_read_after() does, as the
 * caller, and moves the position to the last id read.  The lock holds until
 * the caller's transaction ends, so a second session of the same consumer
 * waits and then reads after the position the first one committed; a
 * rollback leaves the position where it was.  Whatever the caller writes in
 * the same transaction commits with the position, or not at all.
 *
 * The caller never writes the table: it is written here as its owner
 * (SetUserIdAndSecContext with SECURITY_RESTRICTED_OPERATION, as
 * horizon_tick.c writes its tick), with the relation and the roles passed
 * as OIDs.  The caller must be able to read the relation (SELECT, checked
 * before the position is locked) and have the privileges of the role a
 * position belongs to, so that another role cannot move or reset it.  The
 * table is found by the schema of the SQL function and checked to be a
 * member of the same extension: no other role's object can take its place.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "access/relation.h"
#include "access/xlog.h"
#include "catalog/objectaddress.h"
#include "catalog/dependency.h"
#include "catalog/pg_class.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "compat.h"
#include "extension_table.h"
#include "read_after.h"

#define POSITIONS_TABLE "pg_uuidx_consumer_positions"

/* A consumer's row of the positions table, as read under its lock */
typedef struct ConsumerPosition
{
	bool		found;			/* the row exists */
	Oid			role;			/* the role it belongs to */
	bool		position_null;	/* no row read yet */
	pg_uuid_t	position;		/* the greatest id read */
} ConsumerPosition;

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

/*
 * Run query on the positions table as its owner, its parameters $1 the
 * relation, $2 the consumer, $3 a role, $4 a position (NULL unless
 * position), $5 now.  A query that returns a row returns (role, position):
 * it goes into *pos.  Returns the number of rows processed.
 */
static uint64
PositionsQuery(Oid table, const char *query, Oid relid, Datum consumer, Oid role,
			   const pg_uuid_t *position, ConsumerPosition *pos)
{
	Relation	rel = relation_open(table, RowExclusiveLock);
	Oid			owner = rel->rd_rel->relowner;
	Oid			save_userid;
	int			save_sec_context;
	Oid			argtypes[5] = {REGCLASSOID, TEXTOID, REGROLEOID, UUIDOID, TIMESTAMPTZOID};
	Datum		args[5];
	char		nulls[6] = "     ";
	uint64		processed = 0;

	relation_close(rel, NoLock);
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
		if ((rc = SPI_execute_with_args(query, 5, argtypes, args, nulls, false, 0)) < 0)
			elog(ERROR, "SPI_execute_with_args failed on %s: %s", POSITIONS_TABLE,
				 SPI_result_code_string(rc));
		processed = SPI_processed;
		if (pos != NULL && SPI_tuptable != NULL && SPI_processed == 1)
		{
			bool		isnull;
			Datum		value;

			pos->found = true;
			pos->role = DatumGetObjectId(SPI_getbinval(SPI_tuptable->vals[0],
													   SPI_tuptable->tupdesc, 1, &isnull));
			value = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2, &pos->position_null);
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
	" WHERE relid OPERATOR(pg_catalog.=) $1 AND consumer OPERATOR(pg_catalog.=) $2"

/*
 * Lock the row of the consumer of relid, creating it (belonging to role,
 * at no position) when there is none, and return it: the position that the
 * last transaction to move it committed.  A concurrent call waits here.
 */
static void
LockPosition(Oid table, Oid relid, Datum consumer, Oid role, ConsumerPosition *pos)
{
	const char *insert = PositionsSQL(table,
									  "INSERT INTO %s (relid, consumer, role) VALUES ($1, $2, $3) "
									  "ON CONFLICT (relid, consumer) DO NOTHING");
	const char *lock = PositionsSQL(table, "SELECT role, last_id FROM %s" WHERE_CONSUMER " FOR UPDATE");

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

PG_FUNCTION_INFO_V1(pg_uuidx_consume);

/*
 * pg_uuidx_consume(row_type anyelement, consumer text, max_rows integer,
 * id_column name, id_version integer) -> SETOF anyelement: the rows that
 * pg_uuidx_read_after(row_type, <the consumer's position>, max_rows,
 * id_column, id_version) returns, with the consumer's position moved to
 * the last of them in the calling transaction, its row locked until that
 * transaction ends.
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
	if (!has_privs_of_role(user, pos.role))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to consume as consumer \"%s\" of %s",
						TextDatumGetCString(consumer), RelationName(target.relid)),
				 errdetail("The consumer's position belongs to role %s.", RoleName(pos.role)),
				 errhint("Consume as a role that has the privileges of role %s, or use another consumer name; that role or the table's owner may remove the position with pg_uuidx_consumer_reset().",
						 RoleName(pos.role))));

	/* the rows after the position committed last, read as the caller */
	if (read_after_rows(fcinfo, caller, &target, UUIDPGetDatum(&pos.position), pos.position_null,
						PG_GETARG_INT32(2), version, -1, &last))
		(void) PositionsQuery(table, PositionsSQL(table, "UPDATE %s SET last_id = $4, moved_at = $5" WHERE_CONSUMER),
							  target.relid, consumer, user, &last, NULL);
	return (Datum) 0;
}

PG_FUNCTION_INFO_V1(pg_uuidx_consumer_reset);

/*
 * pg_uuidx_consumer_reset(tbl regclass, consumer text, after_id uuid
 * DEFAULT NULL) -> boolean: remove the consumer's position (after_id NULL:
 * its next call starts from the first row) or set it to after_id (creating
 * it, belonging to the caller, if there is none): its next call reads the
 * rows after after_id.  Returns whether the consumer had a position.  The
 * position's role (or the table's owner) may; setting one also needs
 * SELECT on the table.  The row is locked: a running consumer's
 * transaction ends first.
 */
Datum
pg_uuidx_consumer_reset(PG_FUNCTION_ARGS)
{
	const char *caller = "pg_uuidx_consumer_reset()";
	Oid			user = GetUserId();
	Oid			relid;
	Datum		consumer;
	bool		exists;
	Oid			table;
	ConsumerPosition pos;
	const pg_uuid_t *position;

	RefuseOnStandby(caller);
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s must not be NULL", PG_ARGISNULL(0) ? "tbl" : "consumer")));
	relid = PG_GETARG_OID(0);
	consumer = PG_GETARG_DATUM(1);
	position = PG_ARGISNULL(2) ? NULL : PG_GETARG_UUID_P(2);

	/* a table dropped after its position was stored may be given by OID */
	LockRelationOid(relid, AccessShareLock);
	exists = SearchSysCacheExists1(RELOID, ObjectIdGetDatum(relid));
	if (position != NULL)
	{
		AclResult	acl;

		if (!exists)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_TABLE),
					 errmsg("relation with OID %u does not exist", relid),
					 errhint("A position can be set only for a relation that exists; pass NULL to remove one.")));
		acl = pg_class_aclcheck(relid, user, ACL_SELECT);
		if (acl != ACLCHECK_OK)
			aclcheck_error(acl, get_relkind_objtype(get_rel_relkind(relid)), get_rel_name(relid));
		RefuseTemporary(caller, relid);
	}

	table = extension_table(fcinfo->flinfo->fn_oid, POSITIONS_TABLE);
	for (int attempt = 0; attempt < 100; attempt++)
	{
		(void) PositionsQuery(table, PositionsSQL(table, "SELECT role, last_id FROM %s" WHERE_CONSUMER " FOR UPDATE"),
							  relid, consumer, user, NULL, &pos);
		if (pos.found)
		{
			if (!has_privs_of_role(user, pos.role) &&
				!(exists && PG_UUIDX_REL_OWNERCHECK(relid, user)))
				ereport(ERROR,
						(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
						 errmsg("permission denied to reset consumer \"%s\" of %s",
								TextDatumGetCString(consumer), RelationName(relid)),
						 errdetail("The consumer's position belongs to role %s.", RoleName(pos.role)),
						 errhint("Only a role that has the privileges of that role, or the table's owner, may reset it.")));
			if (position == NULL)
				(void) PositionsQuery(table, PositionsSQL(table, "DELETE FROM %s" WHERE_CONSUMER),
									  relid, consumer, user, NULL, NULL);
			else
				(void) PositionsQuery(table, PositionsSQL(table, "UPDATE %s SET last_id = $4, moved_at = $5" WHERE_CONSUMER),
									  relid, consumer, user, position, NULL);
			PG_RETURN_BOOL(true);
		}
		if (position == NULL)
			PG_RETURN_BOOL(false);
		/* a new position, the caller's; created meanwhile by another: again */
		if (PositionsQuery(table, PositionsSQL(table,
											   "INSERT INTO %s (relid, consumer, role, last_id, moved_at) "
											   "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (relid, consumer) DO NOTHING"),
						   relid, consumer, user, position, NULL) == 1)
			PG_RETURN_BOOL(false);
		CHECK_FOR_INTERRUPTS();
	}
	elog(ERROR, "could not lock the position of consumer \"%s\" of %s",
		 TextDatumGetCString(consumer), RelationName(relid));
	PG_RETURN_BOOL(false);
}
