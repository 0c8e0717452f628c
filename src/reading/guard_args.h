/*
 * guard_args.h
 *		The guard's arguments, shared by the guard trigger (guard.c), its
 *		cover after the row (guard_after.c) and the checks of DDL
 *		(guard_ddl.c): the id column, version and allowance a trigger names,
 *		and the time of an id of a version.
 *
 * Owns the interface of guard_args.c; may call nothing.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#ifndef PG_UUIDX_GUARD_ARGS_H
#define PG_UUIDX_GUARD_ARGS_H

#include "utils/reltrigger.h"
#include "utils/uuid.h"

/*
 * The allowance argument of trigger (NULL: of pg_uuidx_horizon_cover()), a
 * time in the units of pg_uuidx.horizon_allowance (ms by default), from 0
 * to 1 h; in ms, not capped by the setting (the callers cap it).
 */
extern int	guard_allowance(const char *trigger, const char *allowance);

/*
 * The id column a guard trigger names, the version of its ids and its
 * allowance: the trigger's arguments (), (column), (column, version) or
 * (column, version, allowance), version '7' (the default) or '6', the
 * allowance at most pg_uuidx.horizon_allowance, and that by default.
 */
extern const char *guard_column(Trigger *trigger, int *version, int *allowance_ms);

/*
 * The time of id (Unix us) for the guard of ids of version; false when id
 * is not an RFC 9562 id of that version.
 */
extern bool guard_id_us(pg_uuid_t *id, int version, int64 *id_us);

#endif							/* PG_UUIDX_GUARD_ARGS_H */
