/*
 * guard_move.c
 *		guard_row_replaces(): whether a row that the guard would refuse in a
 *		partition replaces a committed row of its id that the same
 *		transaction removed from the same partitioned table, as the row an
 *		UPDATE moves to another partition does.
 *
 * Owns this check; may call guard.h.
 *
 * An UPDATE that changes a row's partition deletes the row from its
 * partition and inserts it, with its id, into another
 * (ExecCrossPartitionUpdate() in nodeModifyTable.c): the BEFORE and AFTER
 * INSERT row triggers of the destination fire, and the guard sees an INSERT
 * of an id that may be far below the horizon.  Refused with 40001, the
 * client retries the same UPDATE and is refused again, for good.  Nothing a
 * trigger is given tells that INSERT from another; the heap does: the row
 * the UPDATE deleted is still there, deleted by this transaction.
 *
 * Why such a row may pass.  A reader of the partitioned table reads every
 * partition in one snapshot.  The committed row had the id before; the
 * transaction removes it and stores the new row, which commit together:
 * every snapshot sees one of the two, never both, never neither.  A reader
 * that has passed the id read the committed row; one that has not reads the
 * new one.  So for readers of the partitioned table the move is what an
 * UPDATE that keeps the id is (the guard lets that pass too), as long as
 * the transaction adds no more rows of the id than it removed: a row beyond
 * those would be a new row below the horizon.  Hence the count, of the
 * versions of rows with the id in every leaf partition of the topmost
 * partitioned table: the committed ones this transaction deleted or updated
 * away, against those it stored and still holds, this row included.  A
 * DELETE and an INSERT of the id in one transaction count the same way:
 * they are a move in two statements.
 *
 * A reader of one partition alone (or of a view whose condition is on the
 * partition key) reads a subset of the rows, and a move changes the subset:
 * the row leaves the source, as a DELETE would take it (read it before or
 * never), and joins the destination under an id that reader may have
 * passed, as an UPDATE that keeps the id can make a row meet a view's
 * condition.  Reading in order promises each inserted row once to readers
 * of the table it was inserted into: read the partitioned table.
 *
 * The count reads each leaf through an index that finds the rows of an id:
 * btree, valid and ready, without a predicate, the id column first, with
 * uuid's default operator class.  Each row's latest version is reached from
 * an entry of its id (its own, or that of the root of its HOT chain), and
 * so is every version this transaction made and still holds.  A HOT chain
 * older than the index may hold versions of other ids under an entry, so
 * each version's id is checked; an older version of the id that such a
 * chain hides under another id's entry can only be missed as removed, which
 * refuses.  The versions are read with SnapshotAny and judged by their
 * headers under the buffer's lock, as visibility is.  A leaf without such
 * an index, or not a heap table, cannot be counted: the row is refused, and
 * the hint names the index to make.  Only ids that the guard would refuse
 * come here, so the cost (an index probe per leaf) falls on moves of rows
 * older than the allowance.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/transam.h"
#include "access/xact.h"
#include "catalog/partition.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_type.h"
#include "commands/defrem.h"
#include "executor/tuptable.h"
#include "storage/bufmgr.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "reading/guard.h"

/*
 * An index of rel that finds every version of every row whose column
 * attnum holds a given id (the file header), or InvalidOid
 */
static Oid
id_index(Relation rel, AttrNumber attnum)
{
	Oid			family = get_opclass_family(GetDefaultOpClass(UUIDOID, BTREE_AM_OID));
	List	   *indexes = RelationGetIndexList(rel);
	ListCell   *lc;

	foreach(lc, indexes)
	{
		Relation	index = index_open(lfirst_oid(lc), AccessShareLock);
		Form_pg_index form = index->rd_index;
		bool		usable = form->indisvalid && form->indisready && form->indislive &&
			index->rd_rel->relam == BTREE_AM_OID && form->indkey.values[0] == attnum &&
			index->rd_opfamily[0] == family &&
			heap_attisnull(index->rd_indextuple, Anum_pg_index_indpred, NULL);

		index_close(index, AccessShareLock);
		if (usable)
			return lfirst_oid(lc);
	}
	return InvalidOid;
}

/*
 * Count a version of a row with the id, read under its buffer's lock: one
 * this transaction stored and has not deleted (*own), or a committed one it
 * deleted or updated away (*removed).  A subtransaction rolled back is no
 * longer current: what it did counts for nothing.
 */
static void
count_version(HeapTupleHeader tuple, int *own, int *removed)
{
	TransactionId xmin = HeapTupleHeaderGetXmin(tuple);
	bool		deleted_here = !(tuple->t_infomask & HEAP_XMAX_INVALID) &&
		!HEAP_XMAX_IS_LOCKED_ONLY(tuple->t_infomask) &&
		TransactionIdIsCurrentTransactionId(HeapTupleHeaderGetUpdateXid(tuple));

	if (TransactionIdIsCurrentTransactionId(xmin))
		*own += deleted_here ? 0 : 1;
	else if (deleted_here && (HeapTupleHeaderXminCommitted(tuple) || TransactionIdDidCommit(xmin)))
		(*removed)++;
}

/*
 * Count the versions of rows of id in column of leaf partition relid;
 * false when it has no index to find them by
 */
static bool
count_leaf(Oid relid, const char *column, pg_uuid_t *id, int *own, int *removed)
{
	Relation	rel = table_open(relid, AccessShareLock);
	AttrNumber	attnum = get_attnum(relid, column);
	Oid			index = InvalidOid;
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;

	if (rel->rd_tableam == GetHeapamTableAmRoutine() && attnum > 0)
		index = id_index(rel, attnum);
	if (!OidIsValid(index))
	{
		table_close(rel, AccessShareLock);
		return false;
	}
	ScanKeyInit(&key, attnum, BTEqualStrategyNumber, F_UUID_EQ, UUIDPGetDatum(id));
	/* systable_beginscan() reads any table through an index (guard_resend.c) */
	scan = systable_beginscan(rel, index, true, SnapshotAny, 1, &key);
	while (HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		Buffer		buffer = ((BufferHeapTupleTableSlot *) scan->slot)->buffer;
		bool		isnull;
		Datum		value = heap_getattr(tuple, attnum, RelationGetDescr(rel), &isnull);

		/*
		 * A HOT chain made before the index holds versions of other ids
		 * under its entry (indcheckxmin)
		 */
		if (isnull || memcmp(DatumGetUUIDP(value), id, UUID_LEN) != 0)
			continue;
		LockBuffer(buffer, BUFFER_LOCK_SHARE);
		count_version(tuple->t_data, own, removed);
		LockBuffer(buffer, BUFFER_LOCK_UNLOCK);
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return true;
}

/*
 * Whether row id, in column attnum of partition rel, replaces a committed
 * row (guard.h); stored: the row is in rel already (the guard after the
 * row), else it is about to be.  *root: the topmost partitioned table.
 */
GuardReplace
guard_row_replaces(Relation rel, AttrNumber attnum, pg_uuid_t *id, bool stored, Oid *root)
{
	const char *column = NameStr(TupleDescAttr(RelationGetDescr(rel), attnum - 1)->attname);
	int			own = stored ? 0 : 1;
	int			removed = 0;
	ListCell   *lc;

	*root = InvalidOid;
	if (!rel->rd_rel->relispartition)
		return GUARD_ADDS;
	*root = llast_oid(get_partition_ancestors(RelationGetRelid(rel)));
	foreach(lc, find_all_inheritors(*root, AccessShareLock, NULL))
	{
		Oid			leaf = lfirst_oid(lc);

		if (get_rel_relkind(leaf) == RELKIND_PARTITIONED_TABLE)
			continue;
		if (!count_leaf(leaf, column, id, &own, &removed))
			return GUARD_UNTOLD;
	}
	return removed > 0 && own <= removed ? GUARD_REPLACES : GUARD_ADDS;
}
