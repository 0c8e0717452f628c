/*
 * entropy.h
 *		The backend's random bytes.
 *
 * Owns the interface of entropy.c; may call nothing.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#ifndef PG_UUIDX_ENTROPY_H
#define PG_UUIDX_ENTROPY_H

/* bytes of CSPRNG output fetched at once; also the bulk of per-backend state */
#define ENTROPY_BLOCK_BYTES 4096

extern uint64 entropy_next(void);

#endif							/* PG_UUIDX_ENTROPY_H */
