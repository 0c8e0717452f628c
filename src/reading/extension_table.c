/*
 * extension_table.c
 *		The tables of extension pg_uuidx (the tick, the consumers'
 *		positions), found from one of its functions.
 *
 * Owns that lookup; calls nothing of pg_uuidx's.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "catalog/dependency.h"
#include "catalog/pg_class.h"
#include "catalog/pg_proc.h"
#include "utils/lsyscache.h"

#include "reading/extension_table.h"

Oid
extension_table(Oid fn_oid, const char *name)
{
	Oid			extension = getExtensionOfObject(ProcedureRelationId, fn_oid);
	Oid			relid = get_relname_relid(name, get_func_namespace(fn_oid));

	if (!OidIsValid(extension) || !OidIsValid(relid) ||
		getExtensionOfObject(RelationRelationId, relid) != extension)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the table %s of extension pg_uuidx is missing", name),
				 errhint("ALTER EXTENSION pg_uuidx UPDATE creates it.")));
	return relid;
}
