/*
 * guard_args.c
 *		The guard's arguments: the id column, version and allowance of a
 *		guard trigger or of pg_uuidx_horizon_cover(), and the time of an id
 *		of that version.
 *
 * Owns what the guard trigger (guard.c), its cover after the row
 * (guard_after.c) and the checks of DDL (guard_ddl.c) share of the guard's
 * arguments (guard_args.h); may call horizon.h, bits.h and id_time.h.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "utils/guc.h"
#include "utils/uuid.h"

#include "ids/bits.h"
#include "ids/id_time.h"
#include "reading/guard_args.h"
#include "reading/horizon.h"

/*
 * The allowance argument of trigger (NULL: of pg_uuidx_horizon_cover()), in
 * ms, not capped (guard.h).  The last text accepted and its value are kept:
 * the guard reads its trigger's argument at each firing, and the value
 * depends on the text alone.
 */
int
guard_allowance(const char *trigger, const char *allowance)
{
	static char last_text[32];
	static int	last_ms = -1;
	const char *hint = NULL;
	int			ms;

	if (last_ms >= 0 && strcmp(allowance, last_text) == 0)
		return last_ms;
	if (!parse_int(allowance, &ms, GUC_UNIT_MS, &hint) || ms < 0 || ms > 3600 * 1000)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 trigger != NULL ?
				 errmsg("the allowance argument of trigger \"%s\" must be a time from 0 to 1h, not \"%s\"",
						trigger, allowance) :
				 errmsg("the allowance argument of pg_uuidx_horizon_cover() must be a time from 0 to 1h, not \"%s\"",
						allowance),
				 hint ? errhint("%s", _(hint)) : errhint("Write it as pg_uuidx.horizon_allowance is written, as in '200ms' or '1s'.")));
	if (strlen(allowance) < sizeof(last_text))
	{
		strcpy(last_text, allowance);
		last_ms = ms;
	}
	return ms;
}

/*
 * The id column a guard trigger names, the version of its ids and how long
 * before their insert it lets them be made: (), (column), (column,
 * version) or (column, version, allowance), version 7 (the default) or 6,
 * the allowance in the units of pg_uuidx.horizon_allowance (ms by default),
 * which is also its default and its most.
 */
const char *
guard_column(Trigger *trigger, int *version, int *allowance_ms)
{
	*version = 7;
	if (trigger->tgnargs > 1)
	{
		if (strcmp(trigger->tgargs[1], "7") != 0 && strcmp(trigger->tgargs[1], "6") != 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("the version argument of trigger \"%s\" must be 7 or 6, not \"%s\"",
							trigger->tgname, trigger->tgargs[1])));
		*version = trigger->tgargs[1][0] - '0';
	}
	/* Min() would parse the argument twice */
	*allowance_ms = horizon_allowance();
	if (trigger->tgnargs > 2)
		*allowance_ms = Min(guard_allowance(trigger->tgname, trigger->tgargs[2]), *allowance_ms);
	if (trigger->tgnargs > 3)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("trigger \"%s\" passes %d arguments to pg_uuidx_horizon_guard()",
						trigger->tgname, trigger->tgnargs),
				 errhint("Pass the id column, the version and the allowance, as in pg_uuidx_horizon_guard('id', '7', '200ms').")));
	return trigger->tgnargs > 0 ? trigger->tgargs[0] : "id";
}

/* The time of an RFC 9562 id of version (Unix us); false for another id */
bool
guard_id_us(pg_uuid_t *id, int version, int64 *id_us)
{
	uint64		hi;
	uint64		lo;

	uuid_unpack(id, &hi, &lo);
	if (uuid_version(hi) != version || !uuid_is_rfc_variant(lo))
		return false;
	/* the microsecond whose first unit is at or below the id's (id_time.h) */
	*id_us = unix_us_from_unit(uuid_time_hi_unit(hi), version);
	return true;
}
