/*
 * read_after.c
 *		pg_uuidx_read_after(): the next rows of a table in id order, up to
 *		the commit horizon, none missed and none twice.
 *
 * Owns this SQL function; may call horizon.c and
 * horizon_tick.c.
 *
 * The horizon must be read before the snapshot the rows are read with, so
 * both happen here, in that order: the horizon first, then the query under
 * a fresh READ COMMITTED snapshot.  The horizon is called as a C function,
 * not looked up by name, and the query names the table by the schema and
 * name of its OID under a lock, and only core's uuid operators.  It is one
 * query, so one snapshot: a batch ends after max_rows rows and every
 * further row equal to the last id (FETCH FIRST ... WITH TIES), so that the
 * next call, after that id, misses none of the rows that share it.
 *
 * The query contains no name of its own: no alias, no whole-row reference.
 * It lists the table's columns by their quoted names, so a user's column
 * cannot take the place of one of the query's names (a column named like
 * an alias would win over the alias).  The rows are built here, in C, for
 * the function's result row type, from columns whose types are checked
 * against that row type.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "access/detoast.h"
#include "access/htup_details.h"
#include "access/relation.h"
#include "access/xact.h"
#include "catalog/objectaddress.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/tuplestore.h"
#include "utils/uuid.h"

#include "horizon.h"
#include "horizon_tick.h"


/*
 * The relation whose row type the first argument has, locked and readable
 * by the current user, and its uuid column id_column's name quoted.  Only
 * relations a query can read rows from qualify: a standalone composite
 * type has a row type too.  The id column may be a uuid or a domain over
 * uuid.
 */
static Oid
row_table(FunctionCallInfo fcinfo, const char *id_column, const char **column)
{
	Oid			type = get_fn_expr_argtype(fcinfo->flinfo, 0);
	Oid			relid = OidIsValid(type) ? get_typ_typrelid(type) : InvalidOid;
	char		relkind = OidIsValid(relid) ? get_rel_relkind(relid) : '\0';
	Relation	rel;
	AttrNumber	attnum;
	AclResult	acl;

	if (relkind != RELKIND_RELATION && relkind != RELKIND_PARTITIONED_TABLE &&
		relkind != RELKIND_VIEW && relkind != RELKIND_MATVIEW &&
		relkind != RELKIND_FOREIGN_TABLE)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("the first argument of pg_uuidx_read_after() must be a row of a table"),
				 OidIsValid(relid) ?
				 errdetail("Type %s is not the row type of a table, view, materialized view or foreign table.",
						   format_type_be(type)) : 0,
				 errhint("Pass NULL cast to the table's row type, as in NULL::outbox.")));
	acl = pg_class_aclcheck(relid, GetUserId(), ACL_SELECT);
	if (acl != ACLCHECK_OK)
		aclcheck_error(acl, get_relkind_objtype(relkind), get_rel_name(relid));
	/* kept locked to the end of the transaction; fails if it is gone */
	rel = relation_open(relid, AccessShareLock);
	relation_close(rel, NoLock);

	attnum = get_attnum(relid, id_column);
	if (attnum == InvalidAttrNumber)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("column \"%s\" of relation \"%s\" does not exist",
						id_column, get_rel_name(relid))));
	if (getBaseType(get_atttype(relid, attnum)) != UUIDOID)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("column \"%s\" of relation \"%s\" is not of type uuid",
						id_column, get_rel_name(relid))));
	*column = quote_identifier(id_column);
	return relid;
}

/*
 * The select list: every column of the result row type that is not
 * dropped, by its quoted name, in order.
 */
static void
AppendColumns(StringInfo query, TupleDesc desc)
{
	bool		first = true;

	for (int i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);

		if (att->attisdropped)
			continue;
		appendStringInfo(query, "%s%s", first ? "" : ", ",
						 quote_identifier(NameStr(att->attname)));
		first = false;
	}
}

/*
 * Check that the query's columns are, in order, the result row type's
 * columns that are not dropped, of the same types.  Both come from the same
 * relation under a lock, so a difference is a bug, not a user's error.
 */
static void
CheckColumns(TupleDesc result, TupleDesc spi)
{
	int			j = 0;

	for (int i = 0; i < result->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(result, i);

		if (att->attisdropped)
			continue;
		if (j >= spi->natts || TupleDescAttr(spi, j)->atttypid != att->atttypid)
			elog(ERROR, "pg_uuidx_read_after(): the query's column %d does not match column \"%s\" of the row type",
				 j + 1, NameStr(att->attname));
		j++;
	}
	if (j != spi->natts)
		elog(ERROR, "pg_uuidx_read_after(): the query returned %d columns, the row type has %d",
			 spi->natts, j);
}

/*
 * The first max_rows (argument 2) rows, and every further row whose id
 * equals the last of them, of row_type's (0) table whose id column (3) is
 * above after_id (1; NULL: from the first) and below the horizon of the
 * version (4, 7 or 6), in id order; the horizon is the newest tick or the
 * live one as from_tick says (reader_horizon_us()).
 */
static Datum
read_after(FunctionCallInfo fcinfo, int from_tick)
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
	TupleDesc	desc;
	Datum	   *values;
	bool	   *isnull;
	Datum	   *row;
	bool	   *rownull;
	MemoryContext rowcxt;

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
	/* the result row type: the table's, dropped columns included */
	InitMaterializedSRF(fcinfo, 0);
	desc = rsinfo->setDesc;

	/* the horizon first: the query below takes its snapshot after it */
	horizon = UUIDPGetDatum(horizon_id(reader_horizon_us(fcinfo->flinfo->fn_oid, relid, from_tick,
														 "pg_uuidx_read_after()"),
									   version));

	initStringInfo(&query);
	appendStringInfoString(&query, "SELECT ");
	AppendColumns(&query, desc);
	appendStringInfo(&query, " FROM %s WHERE %s OPERATOR(pg_catalog.<) $2",
					 quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
												get_rel_name(relid)),
					 column);
	if (!PG_ARGISNULL(1))
		appendStringInfo(&query, " AND %s OPERATOR(pg_catalog.>) $1", column);
	/* a run of equal ids is never split: the next call starts above it */
	appendStringInfo(&query, " ORDER BY %s USING OPERATOR(pg_catalog.<) FETCH FIRST $3 ROWS WITH TIES",
					 column);
	args[0] = PG_ARGISNULL(1) ? (Datum) 0 : PG_GETARG_DATUM(1);
	nulls[0] = PG_ARGISNULL(1) ? 'n' : ' ';
	args[1] = horizon;
	args[2] = PG_GETARG_DATUM(2);

	SPI_connect();
	if (SPI_execute_with_args(query.data, 3, argtypes, args, nulls, false, 0) != SPI_OK_SELECT)
		elog(ERROR, "SPI_execute_with_args failed for pg_uuidx_read_after()");
	CheckColumns(desc, SPI_tuptable->tupdesc);

	values = palloc(sizeof(Datum) * SPI_tuptable->tupdesc->natts);
	isnull = palloc(sizeof(bool) * SPI_tuptable->tupdesc->natts);
	row = palloc(sizeof(Datum) * desc->natts);
	rownull = palloc(sizeof(bool) * desc->natts);
	rowcxt = AllocSetContextCreate(CurrentMemoryContext, "pg_uuidx_read_after row",
								   ALLOCSET_DEFAULT_SIZES);
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		MemoryContext old = MemoryContextSwitchTo(rowcxt);
		int			j = 0;

		heap_deform_tuple(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, values, isnull);
		for (int k = 0; k < desc->natts; k++)
		{
			Form_pg_attribute att = TupleDescAttr(desc, k);

			rownull[k] = att->attisdropped || isnull[j];
			row[k] = rownull[k] ? (Datum) 0 : values[j];

			/*
			 * A value stored out of line is fetched now, under the query's
			 * snapshot: the rows outlive it in the tuplestore.
			 */
			if (!rownull[k] && att->attlen == -1 &&
				VARATT_IS_EXTERNAL(DatumGetPointer(row[k])))
				row[k] = PointerGetDatum(detoast_external_attr((struct varlena *) DatumGetPointer(row[k])));
			if (!att->attisdropped)
				j++;
		}
		tuplestore_putvalues(rsinfo->setResult, desc, row, rownull);
		MemoryContextSwitchTo(old);
		MemoryContextReset(rowcxt);
	}
	SPI_finish();
	return (Datum) 0;
}

PG_FUNCTION_INFO_V1(pg_uuidx_read_after);

/*
 * pg_uuidx_read_after(row_type anyelement, after_id uuid, max_rows integer,
 * id_column name, id_version integer, from_tick boolean) -> SETOF
 * anyelement: read_after().  The 1.5 form has no from_tick: it reads as
 * from_tick NULL does.
 */
Datum
pg_uuidx_read_after(PG_FUNCTION_ARGS)
{
	return read_after(fcinfo, PG_NARGS() > 5 && !PG_ARGISNULL(5) ? PG_GETARG_BOOL(5) : -1);
}
