/*
 * guard_resend.c
 *		guard_row_conflicts(): whether a row that the guard would refuse can
 *		only meet a committed row of the same id, as a re-send does.
 *
 * Owns this check and guard_unique_index(); may call guard.h.
 *
 * An idempotent re-send (INSERT ... ON CONFLICT (id) DO NOTHING of a row
 * stored before) carries an id that may be far below the horizon.  Refused,
 * the client retries with a new id and stores the row twice.  Such a row
 * adds nothing below the horizon when a unique index that includes the id
 * column, checked at once (not deferrable), already holds a committed row
 * with the same key, and that row stays until this transaction ends: the
 * index rejects the new row when it is stored (a unique violation, or ON
 * CONFLICT's skip or update of the row found).  The row found is locked FOR
 * KEY SHARE, as a foreign key's check locks the row it refers to, so no
 * other transaction can delete it or change its key until this one ends.
 *
 * The index is read as the insert's own unique check will read it: with
 * the index's operators and collations, under a dirty snapshot, waiting
 * for a transaction that is still writing a row of the key; so "none"
 * means that no transaction stored one.  It needs no privilege beyond the
 * insert's: the insert's own index insertion reads the same entries.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/stratnum.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/pg_am.h"
#include "catalog/pg_index.h"
#include "executor/tuptable.h"
#include "storage/lmgr.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "reading/guard.h"

/*
 * Whether index is a unique btree index checked at once, valid, without a
 * predicate, whose key columns are plain columns, attnum among them.
 */
static bool
usable_index(Relation index, AttrNumber attnum)
{
	Form_pg_index form = index->rd_index;
	bool		has_id = false;

	if (!form->indisunique || !form->indimmediate || !form->indisvalid || !form->indisready ||
		index->rd_rel->relam != BTREE_AM_OID ||
		!heap_attisnull(index->rd_indextuple, Anum_pg_index_indpred, NULL))
		return false;
	for (int i = 0; i < IndexRelationGetNumberOfKeyAttributes(index); i++)
	{
		if (form->indkey.values[i] == 0)
			return false;		/* an expression */
		if (form->indkey.values[i] == attnum)
			has_id = true;
	}
	return has_id;
}

/*
 * The equality scan keys of row's key in index, by the heap's column
 * numbers (what systable_beginscan() takes), with the index's operators
 * and collations; false when a key column is NULL (no conflict can be
 * told then).
 */
static bool
row_key(Relation rel, Relation index, HeapTuple row, ScanKey keys)
{
	for (int i = 0; i < IndexRelationGetNumberOfKeyAttributes(index); i++)
	{
		AttrNumber	column = index->rd_index->indkey.values[i];
		Oid			type = index->rd_opcintype[i];
		Oid			op = get_opfamily_member(index->rd_opfamily[i], type, type, BTEqualStrategyNumber);
		bool		isnull;
		Datum		value = heap_getattr(row, column, RelationGetDescr(rel), &isnull);

		if (isnull)
			return false;
		if (!OidIsValid(op))
			elog(ERROR, "missing operator %d(%u,%u) in opfamily %u",
				 BTEqualStrategyNumber, type, type, index->rd_opfamily[i]);
		ScanKeyEntryInitialize(&keys[i], 0, column, BTEqualStrategyNumber, InvalidOid,
							   index->rd_indcollation[i], get_opcode(op), value);
	}
	return true;
}

/*
 * Locks FOR KEY SHARE the committed row of index that has the key, waiting
 * for a transaction still writing one; false when there is none, or it
 * cannot be locked (changed by this very transaction).
 * systable_beginscan() reads any table through an index, and its form is
 * the same in every major pg_uuidx builds on.
 */
static bool
lock_row_of_key(Relation rel, Relation index, ScanKey keys)
{
	int			nkeys = IndexRelationGetNumberOfKeyAttributes(index);
	TupleTableSlot *slot = table_slot_create(rel, NULL);
	bool		locked = false;

	for (;;)
	{
		ScanKeyData scankeys[INDEX_MAX_KEYS];
		SnapshotData dirty;
		SysScanDesc scan;
		HeapTuple	found;
		TransactionId xwait = InvalidTransactionId;
		TM_FailureData tmfd;
		TM_Result	result;

		/* systable_beginscan() renumbers the keys' columns in place */
		memcpy(scankeys, keys, nkeys * sizeof(ScanKeyData));
		InitDirtySnapshot(dirty);
		scan = systable_beginscan(rel, RelationGetRelid(index), true, &dirty, nkeys, scankeys);
		found = systable_getnext(scan);
		if (HeapTupleIsValid(found))
		{
			slot->tts_tid = found->t_self;
			xwait = TransactionIdIsValid(dirty.xmin) ? dirty.xmin : dirty.xmax;
		}
		systable_endscan(scan);
		if (!HeapTupleIsValid(found))
			break;
		if (TransactionIdIsValid(xwait))
		{
			/* a row of the key being written or deleted: its end decides */
			XactLockTableWait(xwait, rel, &slot->tts_tid, XLTW_InsertIndex);
			continue;
		}
		result = table_tuple_lock(rel, &slot->tts_tid, GetLatestSnapshot(), slot,
								  GetCurrentCommandId(false), LockTupleKeyShare, LockWaitBlock,
								  TUPLE_LOCK_FLAG_LOCK_UPDATE_IN_PROGRESS, &tmfd);
		/* changed since it was read: read the key again */
		if (result == TM_Updated || result == TM_Deleted)
			continue;
		locked = (result == TM_Ok);
		break;
	}
	ExecDropSingleTupleTableSlot(slot);
	return locked;
}

/*
 * Whether rel has a unique index, checked at once, that includes the id
 * column attnum (guard.h)
 */
bool
guard_unique_index(Relation rel, AttrNumber attnum)
{
	List	   *indexes = RelationGetIndexList(rel);
	ListCell   *lc;

	foreach(lc, indexes)
	{
		Relation	index = index_open(lfirst_oid(lc), AccessShareLock);
		bool		usable = usable_index(index, attnum);

		index_close(index, AccessShareLock);
		if (usable)
			return true;
	}
	return false;
}

/*
 * Whether row, about to be stored in rel, can only meet a committed row of
 * its key in a unique index that includes the id column attnum; that row
 * is then locked until this transaction ends.
 */
GuardConflict
guard_row_conflicts(Relation rel, HeapTuple row, AttrNumber attnum)
{
	GuardConflict result = GUARD_NO_UNIQUE_INDEX;
	List	   *indexes = RelationGetIndexList(rel);
	ListCell   *lc;

	foreach(lc, indexes)
	{
		Relation	index = index_open(lfirst_oid(lc), AccessShareLock);
		ScanKeyData keys[INDEX_MAX_KEYS];
		bool		locked = false;

		if (usable_index(index, attnum) && row_key(rel, index, row, keys))
		{
			result = GUARD_NO_CONFLICT;
			locked = lock_row_of_key(rel, index, keys);
		}
		index_close(index, AccessShareLock);
		if (locked)
			return GUARD_CONFLICT;
	}
	return result;
}
