/*
 * entropy.c
 *		Random bytes from pg_strong_random, fetched a block at a time.
 *
 * Owns the random block; may call pg_strong_random(), nothing of pg_uuidx.
 *
 * Asking the CSPRNG for 16 bytes per id costs far more than the id itself, so
 * one block is fetched and handed out eight bytes at a time, each word once.
 * RFC 9562 6.9 asks that the CSPRNG state be reseeded across forks: a block
 * belongs to the process that fetched it, and a process that finds another
 * process id on it (a child forked after the block was filled, as with
 * shared_preload_libraries) throws it away unread.  Nothing else in pg_uuidx
 * calls pg_strong_random.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "ids/entropy.h"
#include "miscadmin.h"

#define ENTROPY_WORDS (ENTROPY_BLOCK_BYTES / sizeof(uint64))

StaticAssertDecl(ENTROPY_BLOCK_BYTES % sizeof(uint64) == 0,
				 "the block is handed out in whole words");

static uint64 block[ENTROPY_WORDS];
static Size next_word = ENTROPY_WORDS;
static int	block_pid = 0;

/*
 * Fill the block afresh for this process.
 */
static void
RefillBlock(void)
{
	if (!pg_strong_random(block, sizeof(block)))
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not generate random values")));
	block_pid = MyProcPid;
	next_word = 0;
}

/*
 * Eight random bytes that no other call, in this or any process, receives.
 */
uint64
entropy_next(void)
{
	if (unlikely(next_word >= ENTROPY_WORDS || block_pid != MyProcPid))
		RefillBlock();
	Assert(block_pid == MyProcPid && next_word < ENTROPY_WORDS);
	return block[next_word++];
}
