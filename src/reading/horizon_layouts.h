/*
 * horizon_layouts.h
 *		Which layouts of the shared state the libraries of this server's
 *		life have used: what a library installed over a running server
 *		(PostgreSQL 17 and later) needs to know of the one before it.
 *
 * Owns the registry of layouts; may call compat.h.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#ifndef PG_UUIDX_HORIZON_LAYOUTS_H
#define PG_UUIDX_HORIZON_LAYOUTS_H

/*
 * Record that a library of this layout is loaded, before its state's epoch
 * is taken or its floors raised: true when another layout was in use
 * before this call (so sessions older than now may run that other
 * library), false when the newest entry already was this layout or there
 * was none.  Of the processes that call it at once while another layout
 * is the newest, one appends this layout.
 */
extern bool layouts_register(uint32 layout);

/*
 * True when a library of another layout has registered since this layout
 * last did, or when the registry is full: this library's state may no
 * longer see every session that makes ids.
 */
extern bool layouts_superseded(uint32 layout);

#endif							/* PG_UUIDX_HORIZON_LAYOUTS_H */
