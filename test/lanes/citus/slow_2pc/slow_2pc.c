/*-------------------------------------------------------------------------
 *
 * slow_2pc.c
 *		Test-only server module: a late (or failed) COMMIT PREPARED.
 *
 * A Citus coordinator commits a multi-shard transaction locally first and
 * sends COMMIT PREPARED to its workers afterwards; on one machine that
 * window is a round trip, too short for a test to see what a reader of the
 * coordinator does inside it.  Loaded on the workers
 * (shared_preload_libraries = 'citus,pg_uuidx,slow_2pc'), this module
 * widens it: before each COMMIT PREPARED it sleeps a random 0 to
 * slow_2pc.max_ms ms (interruptibly: a fast shutdown or a cancel ends the
 * wait), and with probability slow_2pc.fail_percent % it then raises an
 * ERROR instead of committing, which leaves the transaction prepared until
 * Citus's recovery (citus.recover_2pc_interval) commits it.  The
 * recovery's own COMMIT PREPARED goes through the same delay and may fail
 * again.  Both settings are 0 (off) by default.
 *
 * test/lanes/citus/reading.pl builds it with PGXS and copies the library
 * into its own copy of the server; it is never installed elsewhere.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/pg_prng.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "storage/latch.h"
#include "tcop/utility.h"
#include "utils/guc.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

/* the longest delay before a COMMIT PREPARED, in ms (0: none) */
static int	slow_2pc_max_ms = 0;

/* the share of COMMIT PREPAREDs refused after their delay, in percent */
static int	slow_2pc_fail_percent = 0;

static ProcessUtility_hook_type prev_ProcessUtility = NULL;

/*
 * Sleep a random 0 to slow_2pc.max_ms ms, waking for interrupts, then
 * refuse the COMMIT PREPARED of gid with probability
 * slow_2pc.fail_percent %.
 */
static void
slow_down(const char *gid)
{
	if (slow_2pc_max_ms > 0)
	{
		TimestampTz end;

		end = TimestampTzPlusMilliseconds(GetCurrentTimestamp(),
										  (int64) pg_prng_uint64_range(&pg_global_prng_state, 0,
																	   (uint64) slow_2pc_max_ms));
		for (;;)
		{
			long		left;

			CHECK_FOR_INTERRUPTS();
			left = TimestampDifferenceMilliseconds(GetCurrentTimestamp(), end);
			if (left <= 0)
				break;
			(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
							 left, PG_WAIT_EXTENSION);
			ResetLatch(MyLatch);
		}
	}

	if (slow_2pc_fail_percent > 0 &&
		pg_prng_uint64_range(&pg_global_prng_state, 1, 100) <= (uint64) slow_2pc_fail_percent)
		ereport(ERROR,
				(errcode(ERRCODE_TRANSACTION_RESOLUTION_UNKNOWN),
				 errmsg("slow_2pc: COMMIT PREPARED '%s' failed on purpose", gid),
				 errdetail("The transaction stays prepared (slow_2pc.fail_percent = %d).",
						   slow_2pc_fail_percent)));
}

static void
slow_2pc_ProcessUtility(PlannedStmt *pstmt, const char *queryString,
						bool readOnlyTree, ProcessUtilityContext context,
						ParamListInfo params, QueryEnvironment *queryEnv,
						DestReceiver *dest, QueryCompletion *qc)
{
	Node	   *parsetree = pstmt->utilityStmt;

	if (IsA(parsetree, TransactionStmt) &&
		((TransactionStmt *) parsetree)->kind == TRANS_STMT_COMMIT_PREPARED)
		slow_down(((TransactionStmt *) parsetree)->gid);

	if (prev_ProcessUtility)
		prev_ProcessUtility(pstmt, queryString, readOnlyTree, context, params,
							queryEnv, dest, qc);
	else
		standard_ProcessUtility(pstmt, queryString, readOnlyTree, context,
								params, queryEnv, dest, qc);
}

void
_PG_init(void)
{
	DefineCustomIntVariable("slow_2pc.max_ms",
							"The longest delay before a COMMIT PREPARED (test only).",
							"Each COMMIT PREPARED waits a random time from 0 to this.",
							&slow_2pc_max_ms,
							0, 0, 600000,
							PGC_SUSET, GUC_UNIT_MS,
							NULL, NULL, NULL);
	DefineCustomIntVariable("slow_2pc.fail_percent",
							"The share of COMMIT PREPAREDs that fail after their delay (test only).",
							"A failed one leaves its transaction prepared.",
							&slow_2pc_fail_percent,
							0, 0, 100,
							PGC_SUSET, 0,
							NULL, NULL, NULL);
	MarkGUCPrefixReserved("slow_2pc");

	prev_ProcessUtility = ProcessUtility_hook;
	ProcessUtility_hook = slow_2pc_ProcessUtility;
}
