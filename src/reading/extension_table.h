/*
 * extension_table.h
 *		The tables of extension pg_uuidx, found from one of its functions.
 *
 * Owns that lookup; calls nothing of pg_uuidx's.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#ifndef PG_UUIDX_EXTENSION_TABLE_H
#define PG_UUIDX_EXTENSION_TABLE_H

/*
 * The table "name" of the extension that owns function fn_oid, found in
 * that function's schema and checked to belong to the same extension, so
 * that no other role's object can take its place; an error when it is
 * missing.
 */
extern Oid	extension_table(Oid fn_oid, const char *name);

#endif							/* PG_UUIDX_EXTENSION_TABLE_H */
