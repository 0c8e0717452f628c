/*
 * compat.h
 *		Every PostgreSQL major-version difference pg_uuidx cares about.
 *
 * Owns every PG_VERSION_NUM test; may call nothing.
 *
 * pg_uuidx builds against PostgreSQL 15 and later; anything that differs
 * between majors is decided here, and only here, with PG_VERSION_NUM.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#ifndef PG_UUIDX_COMPAT_H
#define PG_UUIDX_COMPAT_H

#include "fmgr.h"

/* PostgreSQL 16 moved the varlena macros (VARDATA_ANY, ...) out of postgres.h */
#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif

/* PostgreSQL 18 lets a module name itself and its version in the magic block */
#if PG_VERSION_NUM >= 180000
#define PG_UUIDX_MODULE_MAGIC \
	PG_MODULE_MAGIC_EXT(.name = "pg_uuidx", .version = PG_UUIDX_VERSION)
#else
#define PG_UUIDX_MODULE_MAGIC PG_MODULE_MAGIC
#endif

/*
 * PostgreSQL 18 replaced the pg_attribute_noreturn() suffix by the
 * pg_noreturn prefix; the older attribute works as a prefix too
 */
#ifndef pg_noreturn
#define pg_noreturn pg_attribute_noreturn()
#endif

#endif							/* PG_UUIDX_COMPAT_H */
