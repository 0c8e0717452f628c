/*
 * ticker.h
 *		The ticker: background workers that record the commit horizon in
 *		the databases named by pg_uuidx.tick_databases.
 *
 * Owns the ticker's settings and workers; may call horizon_tick.h.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#ifndef PG_UUIDX_TICKER_H
#define PG_UUIDX_TICKER_H

/* the ticker's part of _PG_init(): its settings, and its launcher at preload */
extern void ticker_init_module(void);

#endif							/* PG_UUIDX_TICKER_H */
