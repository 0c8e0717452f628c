/*
 * horizon.h
 *		The commit horizon: the id below which every row that pg_uuidx's
 *		generators will ever put into a committed row is already visible.
 *
 * Owns the shared state behind uuidv7_horizon() and uuidv6_horizon(); may
 * call clock.h.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#ifndef PG_UUIDX_HORIZON_H
#define PG_UUIDX_HORIZON_H

#include "clock.h"
#include "utils/uuid.h"

/*
 * The clock reading a generator makes its next id from: "now", or later
 * when this is the transaction's first id and a horizon already handed out
 * lies ahead of the clock (it stepped back).  Cheap after the first call of
 * a transaction.
 */
extern UnixTime horizon_clock(UnixTime now);

/* the horizon as an id of version 7 or 6; caller names the SQL function */
extern pg_uuid_t *horizon_uuid(int version, const char *caller);

#endif							/* PG_UUIDX_HORIZON_H */
