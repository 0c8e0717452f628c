/*
 * read_after.c
 *		pg_uuidx_read_after(): the next rows of a table in id order, up to
 *		the commit horizon, none missed and none twice.
 *
 * Owns this one SQL entry point; may call horizon.c.
 *
 * The horizon must be read before the snapshot the rows are read with, so
 * both happen here, in that order: the horizon first, then the query under
 * a fresh READ COMMITTED snapshot.  The horizon is called as a C function,
 * not looked up by name, and the query names the table by the schema and
 * name of its OID under a lock, and only core's uuid operators.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/objectaddress.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/tuplestore.h"
#include "utils/uuid.h"

#include "horizon.h"


/*
 * The table whose row type the first argument has, locked and readable by
 * the current user, and its uuid column id_column's name quoted.
 */
static Oid
row_table(FunctionCallInfo fcinfo, const char *id_column, const char **column)
{
	Oid			type = get_fn_expr_argtype(fcinfo->flinfo, 0);
	Oid			relid = OidIsValid(type) ? get_typ_typrelid(type) : InvalidOid;
	AttrNumber	attnum;
	AclResult	acl;

	if (!OidIsValid(relid))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("the first argument of pg_uuidx_read_after() must be a row of a table"),
				 errhint("Pass NULL cast to the table's row type, as in NULL::outbox.")));
	acl = pg_class_aclcheck(relid, GetUserId(), ACL_SELECT);
	if (acl != ACLCHECK_OK)
		aclcheck_error(acl, get_relkind_objtype(get_rel_relkind(relid)), get_rel_name(relid));
	LockRelationOid(relid, AccessShareLock);

	attnum = get_attnum(relid, id_column);
	if (attnum == InvalidAttrNumber)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("column \"%s\" of relation \"%s\" does not exist",
						id_column, get_rel_name(relid))));
	if (get_atttype(relid, attnum) != UUIDOID)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("column \"%s\" of relation \"%s\" is not of type uuid",
						id_column, get_rel_name(relid))));
	*column = quote_identifier(id_column);
	return relid;
}

PG_FUNCTION_INFO_V1(pg_uuidx_read_after);

/*
 * pg_uuidx_read_after(row_type anyelement, after_id uuid, max_rows integer,
 * id_column name, id_version integer) -> SETOF anyelement: at most max_rows
 * rows of row_type's table whose id_column is above after_id (NULL: from
 * the first) and below the horizon of id_version (7 or 6), in id order.
 */
Datum
pg_uuidx_read_after(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	const char *column;
	Oid			relid;
	int			version;
	Datum		horizon;
	StringInfoData query;
	Oid			argtypes[3] = {UUIDOID, UUIDOID, INT4OID};
	Datum		args[3];
	char		nulls[3] = {' ', ' ', ' '};

	if (PG_ARGISNULL(2) || PG_ARGISNULL(3))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s must not be NULL", PG_ARGISNULL(2) ? "max_rows" : "id_column")));
	if (PG_GETARG_INT32(2) < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("max_rows must be zero or more")));
	version = PG_ARGISNULL(4) ? 0 : PG_GETARG_INT32(4);
	if (version != 6 && version != 7)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("id_version must be 6 or 7")));
	if (IsolationUsesXactSnapshot())
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TRANSACTION_STATE),
				 errmsg("pg_uuidx_read_after() needs the READ COMMITTED isolation level"),
				 errdetail("A transaction of a higher level reads with a snapshot taken before the horizon, which can lack rows below it."),
				 errhint("Call it in a READ COMMITTED transaction.")));

	relid = row_table(fcinfo, NameStr(*PG_GETARG_NAME(3)), &column);
	InitMaterializedSRF(fcinfo, 0);

	/* the horizon first: the query below takes its snapshot after it */
	horizon = UUIDPGetDatum(horizon_uuid(version, "pg_uuidx_read_after()"));

	initStringInfo(&query);
	appendStringInfo(&query,
					 "SELECT r FROM %s r WHERE r.%s OPERATOR(pg_catalog.<) $2",
					 quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
												get_rel_name(relid)),
					 column);
	if (!PG_ARGISNULL(1))
		appendStringInfo(&query, " AND r.%s OPERATOR(pg_catalog.>) $1", column);
	appendStringInfo(&query, " ORDER BY r.%s LIMIT $3", column);
	args[0] = PG_ARGISNULL(1) ? (Datum) 0 : PG_GETARG_DATUM(1);
	nulls[0] = PG_ARGISNULL(1) ? 'n' : ' ';
	args[1] = horizon;
	args[2] = PG_GETARG_DATUM(2);

	SPI_connect();
	if (SPI_execute_with_args(query.data, 3, argtypes, args, nulls, false, 0) != SPI_OK_SELECT)
		elog(ERROR, "SPI_execute_with_args failed for pg_uuidx_read_after()");
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		bool		isnull;
		HeapTupleHeader row = DatumGetHeapTupleHeader(SPI_getbinval(SPI_tuptable->vals[i],
																	SPI_tuptable->tupdesc,
																	1, &isnull));
		HeapTupleData tuple;

		tuple.t_len = HeapTupleHeaderGetDatumLength(row);
		ItemPointerSetInvalid(&tuple.t_self);
		tuple.t_tableOid = InvalidOid;
		tuple.t_data = row;
		tuplestore_puttuple(rsinfo->setResult, &tuple);
	}
	SPI_finish();
	return (Datum) 0;
}
