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

/*
 * PostgreSQL 17 numbers a process's PGPROC by MyProcNumber (and any PGPROC
 * by GetNumberFromPGProc), keeps its local transaction id in vxid.lxid, and
 * has a registry of named shared memory that a library may use without
 * shared_preload_libraries; 19 gives that registry's initializer an argument
 */
#if PG_VERSION_NUM >= 170000
#define PG_UUIDX_PROC_NUMBER MyProcNumber
#define PG_UUIDX_PROC_NUMBER_OF(proc) GetNumberFromPGProc(proc)
#define PG_UUIDX_PROC_LXID(proc) ((proc)->vxid.lxid)
#define PG_UUIDX_DSM_REGISTRY
#if PG_VERSION_NUM >= 190000
#define PG_UUIDX_DSM_INIT_PARAMS void *ptr, void *arg
#define PG_UUIDX_GET_NAMED_DSM(name, size, init, found) \
	GetNamedDSMSegment(name, size, init, found, NULL)
#else
#define PG_UUIDX_DSM_INIT_PARAMS void *ptr
#define PG_UUIDX_GET_NAMED_DSM(name, size, init, found) \
	GetNamedDSMSegment(name, size, init, found)
#endif
#else
#define PG_UUIDX_PROC_NUMBER (MyProc->pgprocno)
#define PG_UUIDX_PROC_NUMBER_OF(proc) ((proc)->pgprocno)
#define PG_UUIDX_PROC_LXID(proc) ((proc)->lxid)
#endif

/* PostgreSQL 19's table_beginscan() takes scan options (none here) */
#if PG_VERSION_NUM >= 190000
#define PG_UUIDX_TABLE_BEGINSCAN(rel, snapshot) table_beginscan(rel, snapshot, 0, NULL, 0)
#else
#define PG_UUIDX_TABLE_BEGINSCAN(rel, snapshot) table_beginscan(rel, snapshot, 0, NULL)
#endif

/*
 * PostgreSQL 16 replaced pg_class_ownercheck() by object_ownercheck() (both
 * in utils/acl.h; RelationRelationId is in catalog/pg_class.h)
 */
#if PG_VERSION_NUM >= 160000
#define PG_UUIDX_REL_OWNERCHECK(relid, role) object_ownercheck(RelationRelationId, relid, role)
#else
#define PG_UUIDX_REL_OWNERCHECK(relid, role) pg_class_ownercheck(relid, role)
#endif

/*
 * PostgreSQL 19 names an LWLock tranche when it hands out its id, and has no
 * LWLockRegisterTranche()
 */
#if PG_VERSION_NUM >= 190000
#define PG_UUIDX_NEW_TRANCHE(name) LWLockNewTrancheId(name)
#define PG_UUIDX_REGISTER_TRANCHE(id, name) ((void) 0)
#else
#define PG_UUIDX_NEW_TRANCHE(name) LWLockNewTrancheId()
#define PG_UUIDX_REGISTER_TRANCHE(id, name) LWLockRegisterTranche(id, name)
#endif

/*
 * PostgreSQL 17 lets a module name its wait events (WaitEventExtensionNew(),
 * shown in pg_stat_activity.wait_event); before, each is "Extension"
 */
#if PG_VERSION_NUM >= 170000
#include "utils/wait_event.h"
#define PG_UUIDX_WAIT_EVENT(name) WaitEventExtensionNew(name)
#else
#define PG_UUIDX_WAIT_EVENT(name) PG_WAIT_EXTENSION
#endif

/*
 * PostgreSQL 17's transaction_timeout ends the transactions of any process
 * connected to a database, a background worker's too
 */
#if PG_VERSION_NUM >= 170000
#define PG_UUIDX_TRANSACTION_TIMEOUT
#endif

/*
 * A database that an interrupted DROP DATABASE left invalid, which no one
 * may connect to: marked since 15.4 (and 16.0) by datconnlimit
 * DATCONNLIMIT_INVALID_DB (catalog/pg_database.h), tested on the row
 * itself: database_is_invalid_form() is missing from the servers of earlier
 * minor versions, which a library built against a later one may be loaded
 * into
 */
#if PG_VERSION_NUM >= 150004
#define PG_UUIDX_DATABASE_INVALID(form) ((form)->datconnlimit == DATCONNLIMIT_INVALID_DB)
#else
#define PG_UUIDX_DATABASE_INVALID(form) false
#endif

#endif							/* PG_UUIDX_COMPAT_H */
