/*
 * stats.c
 *		pg_uuidx_stats_state(): what the view pg_uuidx_stats reads from the
 *		commit horizon's shared state.
 *
 * Owns that function; may call horizon.h and tick_table.h.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "funcapi.h"
#include "utils/timestamp.h"

#include "horizon.h"
#include "tick_table.h"

PG_FUNCTION_INFO_V1(pg_uuidx_stats_state);

/*
 * pg_uuidx_stats_state() -> (horizon, floor, refusals): the live horizon of
 * this database, its floor and the ids the guard refused in it since the
 * shared state was made (a start or a crash); NULLs on a standby and where
 * there is no state (15 and 16 without shared_preload_libraries).
 */
Datum
pg_uuidx_stats_state(PG_FUNCTION_ARGS)
{
	TupleDesc	desc;
	Datum		values[3] = {0};
	bool		nulls[3] = {true, true, true};
	int64		horizon_us;
	int64		floor_us;
	uint64		refusals;

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	if (horizon_stats(&horizon_us, &floor_us, &refusals))
	{
		values[0] = TimestampTzGetDatum(timestamptz_from_horizon(horizon_us));
		values[1] = TimestampTzGetDatum(timestamptz_from_horizon(floor_us));
		values[2] = Int64GetDatum((int64) refusals);
		nulls[0] = nulls[1] = nulls[2] = false;
	}
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(desc, values, nulls)));
}
