/*
 * siphash.h
 *		SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast short-input
 *		PRF", 2012): the keyed hash of the UUIDv47 facade.
 *
 * Owns the interface of siphash.c; may call nothing.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#ifndef PG_UUIDX_SIPHASH_H
#define PG_UUIDX_SIPHASH_H

/* the paper's key: k0 and k1 are bytes 0-7 and 8-15, each little-endian */
#define SIPHASH_KEY_LEN 16

extern uint64 siphash24(const uint8 *msg, size_t len, uint64 k0, uint64 k1);
extern uint64 siphash_key_half(const uint8 *bytes);

#endif							/* PG_UUIDX_SIPHASH_H */
