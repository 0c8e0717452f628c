/*
 * range.c
 *		Time ranges through the index: id <@ tstzrange for v7 ids,
 *		uuidv6_in_time_range() for v6, their edges, and the planner support
 *		that turns them into btree conditions on the id.
 *
 * Owns the functions of the <@ operator, the range edges and the planner
 * support; may call id_time.c for every time it turns into units and bits.h
 * for the edge ids.
 *
 * An id is in a range when it is of the range's version, has the RFC
 * variant, and its time (id_time.c: uuid_extract_timestamp_us) lies in the
 * range.  In uuid order those ids lie between the smallest id of the first
 * unit of the range's lower bound and the largest id of the last unit of
 * its upper bound, so a btree on the id answers the predicate with two
 * comparisons and a recheck (ids of other versions and variants can sit
 * between the edges).
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/nbtree.h"
#include "access/stratnum.h"
#include "catalog/dependency.h"
#include "catalog/pg_am_d.h"
#include "catalog/pg_class_d.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_language_d.h"
#include "catalog/pg_operator.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type_d.h"
#include "commands/defrem.h"
#include "compat.h"
#include "ids/bits.h"
#include "ids/id_time.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/pathnodes.h"
#include "nodes/supportnodes.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "parser/parsetree.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/fmgrprotos.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/rangetypes.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

/* the units of a range: none (empty), or lo..hi inclusive */
typedef struct UnitSpan
{
	bool		empty;
	uint64		lo;
	uint64		hi;
} UnitSpan;

/*
 * A bound as an inclusive Unix microsecond: an id's time is a whole
 * microsecond (id_time.c), so an exclusive bound is the next or previous one.
 * Unbounded and infinite bounds, and instants too late for 64 bits of Unix
 * microseconds, saturate; no unit's time is near either end.
 */
static int64
BoundUnixUs(const RangeBound *bound)
{
	TimestampTz ts = DatumGetTimestampTz(bound->val);
	int64		us;

	if (bound->infinite)
		return bound->lower ? PG_INT64_MIN : PG_INT64_MAX;
	if (TIMESTAMP_IS_NOBEGIN(ts))
		us = PG_INT64_MIN;
	else if (!unix_us_from_timestamptz(ts, &us))
		us = PG_INT64_MAX;
	if (!bound->inclusive)
	{
		if (bound->lower && us < PG_INT64_MAX)
			us++;
		else if (!bound->lower && us > PG_INT64_MIN)
			us--;
	}
	return us;
}

/*
 * The units whose time (id_time.c) lies in the range: from the first unit of
 * its lower bound to the last unit of its upper one.
 */
static UnitSpan
RangeUnits(TypeCacheEntry *typcache, const RangeType *range, int version)
{
	RangeBound	lower;
	RangeBound	upper;
	bool		empty;
	UnitSpan	span;

	range_deserialize(typcache, range, &lower, &upper, &empty);
	span.empty = empty ||
		!first_unit_from_unix_us(BoundUnixUs(&lower), version, &span.lo) ||
		!last_unit_to_unix_us(BoundUnixUs(&upper), version, &span.hi) ||
		span.lo > span.hi;
	return span;
}

/*
 * What the predicate keeps across the rows of a scan (fn_extra): the range
 * type's cache entry, and the last range seen with its units.
 */
typedef struct RangeMemo
{
	TypeCacheEntry *typcache;
	RangeType  *range;			/* a copy of the last range, or NULL */
	UnitSpan	span;			/* its units */
} RangeMemo;

/*
 * The units of the range argument, worked out again only when the range
 * differs from the previous row's (for a constant range: once a scan).
 */
static UnitSpan
MemoizedRangeUnits(FunctionCallInfo fcinfo, RangeType *range, int version)
{
	RangeMemo  *memo = (RangeMemo *) fcinfo->flinfo->fn_extra;
	Size		size = VARSIZE(range);

	if (memo == NULL)
	{
		memo = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(RangeMemo));
		memo->typcache = lookup_type_cache(RangeTypeGetOid(range), TYPECACHE_RANGE_INFO);
		if (memo->typcache->rngelemtype == NULL)
			elog(ERROR, "type %u is not a range type", RangeTypeGetOid(range));
		fcinfo->flinfo->fn_extra = memo;
	}
	if (memo->range == NULL || VARSIZE(memo->range) != size ||
		memcmp(memo->range, range, size) != 0)
	{
		if (memo->range != NULL)
			pfree(memo->range);
		memo->range = NULL;
		memo->span = RangeUnits(memo->typcache, range, version);
		memo->range = MemoryContextAlloc(fcinfo->flinfo->fn_mcxt, size);
		memcpy(memo->range, range, size);
	}
	return memo->span;
}

static Datum
InTimeRange(FunctionCallInfo fcinfo, int version)
{
	uint64		hi;
	uint64		lo;
	uint64		unit;
	UnitSpan	span;

	uuid_unpack(PG_GETARG_UUID_P(0), &hi, &lo);
	if (!uuid_is_rfc_variant(lo) || uuid_version(hi) != version)
		PG_RETURN_BOOL(false);
	unit = uuid_time_hi_unit(hi);
	span = MemoizedRangeUnits(fcinfo, PG_GETARG_RANGE_P(1), version);
	PG_RETURN_BOOL(!span.empty && unit >= span.lo && unit <= span.hi);
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuidv7_in_time_range);

/*
 * uuidv7_in_time_range(uuid, tstzrange) -> bool, the operator uuid <@
 * tstzrange: a v7 id whose time (uuid_extract_timestamp_us) lies in the
 * range.  Also the function of uuidv7_in_time_range_recheck(), the same
 * test without planner support.
 */
Datum
pg_uuidx_uuidv7_in_time_range(PG_FUNCTION_ARGS)
{
	return InTimeRange(fcinfo, 7);
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuidv6_in_time_range);

/*
 * uuidv6_in_time_range(uuid, tstzrange) -> bool: a v6 id whose time lies
 * in the range; also uuidv6_in_time_range_recheck().
 */
Datum
pg_uuidx_uuidv6_in_time_range(PG_FUNCTION_ARGS)
{
	return InTimeRange(fcinfo, 6);
}

/*
 * The lower edge of a range's ids (the smallest id of its first unit) or
 * the upper one (the largest id of its last unit).  An empty range has the
 * largest uuid as lower edge and the smallest as upper, so that no id lies
 * between them.
 */
static pg_uuid_t *
RangeEdge(TypeCacheEntry *typcache, const RangeType *range, int version, bool upper)
{
	pg_uuid_t  *uuid = palloc(UUID_LEN);
	UnitSpan	span = RangeUnits(typcache, range, version);

	if (span.empty)
		memset(uuid->data, upper ? 0x00 : 0xFF, UUID_LEN);
	else
		uuid_pack_unit_edge(uuid, upper ? span.hi : span.lo, version, upper);
	return uuid;
}

static Datum
RangeEdgeCall(FunctionCallInfo fcinfo, int version, bool upper)
{
	RangeType  *range = PG_GETARG_RANGE_P(0);

	PG_RETURN_UUID_P(RangeEdge(range_get_typcache(fcinfo, RangeTypeGetOid(range)),
							   range, version, upper));
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuidv7_range_lower);
PG_FUNCTION_INFO_V1(pg_uuidx_uuidv7_range_upper);
PG_FUNCTION_INFO_V1(pg_uuidx_uuidv6_range_lower);
PG_FUNCTION_INFO_V1(pg_uuidx_uuidv6_range_upper);

/* uuidv7_range_lower(tstzrange) -> uuid, and the other three edges */
Datum
pg_uuidx_uuidv7_range_lower(PG_FUNCTION_ARGS)
{
	return RangeEdgeCall(fcinfo, 7, false);
}

Datum
pg_uuidx_uuidv7_range_upper(PG_FUNCTION_ARGS)
{
	return RangeEdgeCall(fcinfo, 7, true);
}

Datum
pg_uuidx_uuidv6_range_lower(PG_FUNCTION_ARGS)
{
	return RangeEdgeCall(fcinfo, 6, false);
}

Datum
pg_uuidx_uuidv6_range_upper(PG_FUNCTION_ARGS)
{
	return RangeEdgeCall(fcinfo, 6, true);
}

/*
 * What the planner support looks up in the catalogs, kept for the session:
 * per version, pg_uuidx's edge functions and <@ operator that go with the
 * predicate; the btree operators of uuid's default operator family and of
 * the last other family an index used.  Any change to pg_proc, pg_operator,
 * pg_amop or pg_amproc forgets it all.  (Extension membership changes
 * forget nothing: what decides whether a member is ours, its language,
 * library and symbol, is in pg_proc.)
 */
typedef struct SupportObjects
{
	Oid			predicate;		/* the uuidvN_in_time_range they go with */
	Oid			lower;			/* uuidvN_range_lower, or InvalidOid */
	Oid			upper;			/* uuidvN_range_upper, or InvalidOid */
	Oid			opno;			/* <@ (uuid, tstzrange) of the predicate, or
								 * InvalidOid */
} SupportObjects;

typedef struct EdgeOperators
{
	Oid			opfamily;
	Oid			ge;				/* InvalidOid: the family does not sort */
	Oid			le;				/* like uuid's default one */
} EdgeOperators;

static SupportObjects support_objects[2];	/* [0] v6, [1] v7 */
static EdgeOperators default_operators;
static EdgeOperators index_operators;
static bool support_callbacks_registered = false;
static uint64 support_lookups_forgotten = 0;	/* how often, to tell a lookup
												 * that a change came while it
												 * ran */

static void
ForgetSupportLookups(Datum arg, int cacheid, uint32 hashvalue)
{
	support_lookups_forgotten++;
	memset(support_objects, 0, sizeof(support_objects));
	memset(&default_operators, 0, sizeof(default_operators));
	memset(&index_operators, 0, sizeof(index_operators));
}

static void
RegisterSupportCallbacks(void)
{
	if (support_callbacks_registered)
		return;
	CacheRegisterSyscacheCallback(PROCOID, ForgetSupportLookups, (Datum) 0);
	CacheRegisterSyscacheCallback(OPEROID, ForgetSupportLookups, (Datum) 0);
	CacheRegisterSyscacheCallback(AMOPSTRATEGY, ForgetSupportLookups, (Datum) 0);
	CacheRegisterSyscacheCallback(AMPROCNUM, ForgetSupportLookups, (Datum) 0);
	support_callbacks_registered = true;
}

/*
 * The text attribute "attnum" of function "fn" when its language is
 * "language"; NULL otherwise.
 */
static char *
FunctionText(Oid fn, Oid language, AttrNumber attnum)
{
	HeapTuple	tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(fn));
	char	   *result = NULL;

	if (!HeapTupleIsValid(tuple))
		return NULL;
	if (((Form_pg_proc) GETSTRUCT(tuple))->prolang == language)
	{
		bool		isnull;
		Datum		value = SysCacheGetAttr(PROCOID, tuple, attnum, &isnull);

		if (!isnull)
			result = TextDatumGetCString(value);
	}
	ReleaseSysCache(tuple);
	return result;
}

/*
 * Whether function "fn" runs the C code "symbol" of the library "probin"
 * as a member of extension "extension".  An extension's owner who is not
 * superuser can add a function of their own to it, but cannot make a C
 * function.
 */
static bool
IsMemberCFunction(Oid fn, Oid extension, const char *probin, const char *symbol)
{
	char	   *bin;
	char	   *src;

	if (!OidIsValid(fn) || getExtensionOfObject(ProcedureRelationId, fn) != extension)
		return false;
	bin = FunctionText(fn, ClanguageId, Anum_pg_proc_probin);
	src = FunctionText(fn, ClanguageId, Anum_pg_proc_prosrc);
	return bin != NULL && src != NULL && strcmp(bin, probin) == 0 && strcmp(src, symbol) == 0;
}

/*
 * pg_uuidx's edge function "uuidvN_range_<which>"(tstzrange) that goes with
 * the predicate: the one of that name in the predicate's schema (a catalog
 * cache lookup, no search path, no privilege check), used only when it is
 * a C function of the predicate's library and extension with the expected
 * symbol; InvalidOid otherwise (e.g. another role's function in a schema
 * that everyone may create in, under a catalog older than the library).
 */
static Oid
EdgeFunction(Oid namespace, Oid extension, const char *probin, int version,
			 const char *which)
{
	char		name[NAMEDATALEN];
	char		prosrc[NAMEDATALEN];
	Oid			argtype = TSTZRANGEOID;
	Oid			fn;

	snprintf(name, sizeof(name), "uuidv%d_range_%s", version, which);
	snprintf(prosrc, sizeof(prosrc), "pg_uuidx_uuidv%d_range_%s", version, which);
	fn = GetSysCacheOid3(PROCNAMEARGSNSP, Anum_pg_proc_oid, CStringGetDatum(name),
						 PointerGetDatum(buildoidvector(&argtype, 1)),
						 ObjectIdGetDatum(namespace));
	return IsMemberCFunction(fn, extension, probin, prosrc) ? fn : InvalidOid;
}

/*
 * The operator <@ (uuid, tstzrange) in the predicate's schema when it is a
 * member of the predicate's extension and runs the predicate; InvalidOid
 * otherwise (v6 has none).
 */
static Oid
PredicateOperator(Oid predicate, Oid namespace, Oid extension)
{
	Oid			op = GetSysCacheOid4(OPERNAMENSP, Anum_pg_operator_oid, CStringGetDatum("<@"),
									 ObjectIdGetDatum(UUIDOID), ObjectIdGetDatum(TSTZRANGEOID),
									 ObjectIdGetDatum(namespace));

	if (!OidIsValid(op) || get_opcode(op) != predicate ||
		getExtensionOfObject(OperatorRelationId, op) != extension)
		return InvalidOid;
	return op;
}

/*
 * The edge functions and the operator that go with the predicate
 * "predicate", found by OID among the members of its own extension; those
 * that are missing (a catalog older than the library, or a predicate that
 * is no C function of an extension) are InvalidOid.
 */
static SupportObjects
SupportObjectsOf(Oid predicate, int version)
{
	SupportObjects *cached = &support_objects[version == 7];
	SupportObjects f = {0};
	uint64		forgotten = support_lookups_forgotten;
	Oid			extension;
	Oid			namespace;
	char	   *probin;

	RegisterSupportCallbacks();
	if (cached->predicate == predicate)
		return *cached;
	extension = getExtensionOfObject(ProcedureRelationId, predicate);
	namespace = get_func_namespace(predicate);
	probin = FunctionText(predicate, ClanguageId, Anum_pg_proc_probin);
	if (OidIsValid(extension) && probin != NULL)
	{
		f.lower = EdgeFunction(namespace, extension, probin, version, "lower");
		f.upper = EdgeFunction(namespace, extension, probin, version, "upper");
		f.opno = PredicateOperator(predicate, namespace, extension);
	}
	f.predicate = predicate;
	if (forgotten == support_lookups_forgotten)
		*cached = f;
	return f;
}

/*
 * Whether function "fn" runs core's function "builtin": it is that one, or
 * one in language internal of the same C symbol (only a superuser can make
 * those).
 */
static bool
RunsBuiltin(Oid fn, Oid builtin, const char *symbol)
{
	char	   *src;

	if (fn == builtin)
		return true;
	src = OidIsValid(fn) ? FunctionText(fn, INTERNALlanguageId, Anum_pg_proc_prosrc) : NULL;
	return src != NULL && strcmp(src, symbol) == 0;
}

/*
 * The >= and <= operators on uuid of a btree operator family (InvalidOid:
 * uuid's default one) into *ops; false unless the family sorts as uuid's
 * default one does: its comparison, >= and <= run core's uuid_cmp, uuid_ge
 * and uuid_le.  The edges are ids in that order; a family of another order
 * (e.g. a descending one) would read them the other way round.
 */
static bool
EdgeOperatorsOf(Oid opfamily, EdgeOperators *ops)
{
	EdgeOperators *cached = OidIsValid(opfamily) ? &index_operators : &default_operators;
	uint64		forgotten = support_lookups_forgotten;
	Oid			cmp;
	bool		same_order;

	RegisterSupportCallbacks();
	if (OidIsValid(cached->opfamily) &&
		(!OidIsValid(opfamily) || cached->opfamily == opfamily))
	{
		*ops = *cached;
		return OidIsValid(ops->ge);
	}
	if (!OidIsValid(opfamily))
		opfamily = get_opclass_family(GetDefaultOpClass(UUIDOID, BTREE_AM_OID));
	ops->opfamily = opfamily;
	ops->ge = get_opfamily_member(opfamily, UUIDOID, UUIDOID, BTGreaterEqualStrategyNumber);
	ops->le = get_opfamily_member(opfamily, UUIDOID, UUIDOID, BTLessEqualStrategyNumber);
	cmp = get_opfamily_proc(opfamily, UUIDOID, UUIDOID, BTORDER_PROC);
	same_order = OidIsValid(ops->ge) && OidIsValid(ops->le) &&
		RunsBuiltin(cmp, F_UUID_CMP, "uuid_cmp") &&
		RunsBuiltin(get_opcode(ops->ge), F_UUID_GE, "uuid_ge") &&
		RunsBuiltin(get_opcode(ops->le), F_UUID_LE, "uuid_le");
	if (!same_order)
		ops->ge = ops->le = InvalidOid;
	if (forgotten == support_lookups_forgotten)
		*cached = *ops;
	return same_order;
}

/* a NULL constant range: the strict predicate is NULL, nothing to derive */
static bool
IsNullConst(Node *node)
{
	return IsA(node, Const) && ((Const *) node)->constisnull;
}

/*
 * An expression for one edge of the range expression: a constant when the
 * range is one, else a call of the edge function.
 */
static Expr *
EdgeExpr(Oid edge_function, Node *range, int version, bool upper)
{
	if (IsA(range, Const))
	{
		RangeType  *r = DatumGetRangeTypeP(((Const *) range)->constvalue);
		TypeCacheEntry *typcache = lookup_type_cache(RangeTypeGetOid(r), TYPECACHE_RANGE_INFO);

		return (Expr *) makeConst(UUIDOID, -1, InvalidOid, UUID_LEN,
								  UUIDPGetDatum(RangeEdge(typcache, r, version, upper)),
								  false, false);
	}
	return (Expr *) makeFuncExpr(edge_function, UUIDOID, list_make1(copyObject(range)),
								 InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
}

/*
 * id >= lower edge AND id <= upper edge, with the given operators; NIL
 * when the range needs the edge functions and they are missing.
 */
static List *
EdgeClauses(const SupportObjects *f, const EdgeOperators *ops, Node *id,
			Node *range, int version)
{
	if (!IsA(range, Const) && (!OidIsValid(f->lower) || !OidIsValid(f->upper)))
		return NIL;
	return list_make2(make_opclause(ops->ge, BOOLOID, false, (Expr *) copyObject(id),
									EdgeExpr(f->lower, range, version, false),
									InvalidOid, InvalidOid),
					  make_opclause(ops->le, BOOLOID, false, (Expr *) copyObject(id),
									EdgeExpr(f->upper, range, version, true),
									InvalidOid, InvalidOid));
}

/* whether every clause of "clauses" is a restriction of "rel" already */
static bool
RestrictsAlready(RelOptInfo *rel, List *clauses)
{
	ListCell   *lc;

	foreach(lc, clauses)
	{
		ListCell   *rc;
		bool		found = false;

		foreach(rc, rel->baserestrictinfo)
		{
			if (equal(lfirst(lc), ((RestrictInfo *) lfirst(rc))->clause))
			{
				found = true;
				break;
			}
		}
		if (!found)
			return false;
	}
	return true;
}

/*
 * SupportRequestIndexCondition: for a btree on the id, the edge comparisons
 * with the operators of the index's own operator family, lossy (the
 * predicate is checked again on each row).  None when the rel has them as
 * restrictions already (a partition of a table whose predicate
 * ExpandForPartitions expanded), and none for a range with a sub-plan: a
 * correlated sub-select in each edge would run again, each time with its
 * own answer (an uncorrelated one is an InitPlan's parameter here, computed
 * once).
 */
static List *
IndexConditions(SupportRequestIndexCondition *req, int version)
{
	List	   *args;
	Node	   *range;
	List	   *clauses;
	SupportObjects f;
	EdgeOperators ops;

	if (is_opclause(req->node))
		args = ((OpExpr *) req->node)->args;
	else if (is_funcclause(req->node))
		args = ((FuncExpr *) req->node)->args;
	else
		return NIL;
	range = lsecond(args);
	if (req->indexarg != 0 || IsNullConst(range) || req->index->relam != BTREE_AM_OID ||
		contain_subplans(range) || !is_pseudo_constant_for_index(req->root, range, req->index))
		return NIL;
	if (!EdgeOperatorsOf(req->opfamily, &ops))
		return NIL;
	f = SupportObjectsOf(req->funcid, version);
	clauses = EdgeClauses(&f, &ops, linitial(args), range, version);
	if (clauses == NIL || RestrictsAlready(req->index->rel, clauses))
		return NIL;
	req->lossy = true;
	return clauses;
}

/*
 * Whether the range expression can be copied into the edges and the row
 * test: each copy has the same value.  A constant or a parameter has; so
 * has an expression of neither the table's columns nor volatile functions
 * nor sub-selects (a sub-select, e.g. with TABLESAMPLE, could answer each
 * copy differently).
 */
static bool
IsCopyableRange(Node *range)
{
	if (IsA(range, Const))
		return !((Const *) range)->constisnull;
	if (IsA(range, Param))
		return true;
	return !contain_var_clause(range) && !contain_volatile_functions(range) &&
		!contain_subplans(range);
}

/* whether range table entry "rti" is a partition or inheritance child */
static bool
IsInheritanceChild(PlannerInfo *root, Index rti)
{
	AppendRelInfo *appinfo;

	if (root->append_rel_array == NULL || (int) rti >= root->simple_rel_array_size ||
		(appinfo = root->append_rel_array[rti]) == NULL)
		return false;
	return rt_fetch(appinfo->parent_relid, root->parse->rtable)->rtekind == RTE_RELATION;
}

/*
 * The parse location that marks the id in the row test of an expansion:
 * no parsed Var has it (they have -1 or an offset), and equal() ignores
 * locations, so the row test is still equal to the predicate as written.
 */
#define EXPANDED_ID_LOCATION (-2)

/*
 * SupportRequestSimplify: on a partitioned table, partition pruning reads
 * btree comparisons of the partition key, not this predicate, and so does
 * constraint exclusion of the children of a table with inheritance children
 * (the chunks of a TimescaleDB hypertable are such children), so
 * "id <@ r" becomes "id >= lower AND id <= upper AND id <@ r".  The last
 * one is the predicate itself, as pg_uuidx's operator when there is one
 * (the request shows both call forms as a function call): a partial index
 * "WHERE id <@ r" is implied by it.  Its id is marked
 * (EXPANDED_ID_LOCATION) so that it is not expanded again when the planner
 * simplifies it once more, as it does with the arguments of an AND
 * (simplify_and_arguments).  The copy of the quals a partition or
 * inheritance child gets is simplified again too; it carries the edges
 * already, so a child (itself partitioned, or the parent of an inheritance
 * tree scanned as its own child) is not expanded.
 */
static Node *
ExpandForPartitions(SupportRequestSimplify *req, int version)
{
	FuncExpr   *call = req->fcall;
	Node	   *id = linitial(call->args);
	Node	   *range = lsecond(call->args);
	SupportObjects f;
	EdgeOperators ops;
	List	   *clauses;
	Expr	   *row_test;
	Var		   *var;
	RangeTblEntry *rte;

	if (req->root == NULL || !IsA(id, Var))
		return NULL;
	var = (Var *) id;
	if (var->location == EXPANDED_ID_LOCATION || var->varlevelsup != 0 || var->varno < 1 ||
		(int) var->varno > list_length(req->root->parse->rtable))
		return NULL;
	rte = rt_fetch(var->varno, req->root->parse->rtable);
	if (rte->rtekind != RTE_RELATION || !IsCopyableRange(range))
		return NULL;
	if (IsInheritanceChild(req->root, var->varno))
		return NULL;
	/* relhassubclass from the syscache: nothing to expand on a plain table */
	if (rte->relkind != RELKIND_PARTITIONED_TABLE &&
		!(rte->relkind == RELKIND_RELATION && has_subclass(rte->relid)))
		return NULL;
	f = SupportObjectsOf(call->funcid, version);
	if (!EdgeOperatorsOf(InvalidOid, &ops) ||
		(clauses = EdgeClauses(&f, &ops, id, range, version)) == NIL)
		return NULL;
	var = copyObject(var);
	var->location = EXPANDED_ID_LOCATION;
	if (OidIsValid(f.opno))
	{
		row_test = make_opclause(f.opno, BOOLOID, false, (Expr *) var,
								 (Expr *) copyObject(range), InvalidOid, call->inputcollid);
		((OpExpr *) row_test)->opfuncid = call->funcid;
	}
	else
		row_test = (Expr *) makeFuncExpr(call->funcid, BOOLOID,
										 list_make2(var, copyObject(range)),
										 InvalidOid, call->inputcollid, COERCE_EXPLICIT_CALL);
	return (Node *) make_andclause(lappend(clauses, row_test));
}

static Datum
TimeRangeSupport(FunctionCallInfo fcinfo, int version)
{
	Node	   *req = (Node *) PG_GETARG_POINTER(0);

	if (IsA(req, SupportRequestIndexCondition))
		PG_RETURN_POINTER(IndexConditions((SupportRequestIndexCondition *) req, version));
	if (IsA(req, SupportRequestSimplify))
		PG_RETURN_POINTER(ExpandForPartitions((SupportRequestSimplify *) req, version));
	PG_RETURN_POINTER(NULL);
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuidv7_time_range_support);
PG_FUNCTION_INFO_V1(pg_uuidx_uuidv6_time_range_support);

/* the planner support functions of uuidv7_in_time_range and v6's */
Datum
pg_uuidx_uuidv7_time_range_support(PG_FUNCTION_ARGS)
{
	return TimeRangeSupport(fcinfo, 7);
}

Datum
pg_uuidx_uuidv6_time_range_support(PG_FUNCTION_ARGS)
{
	return TimeRangeSupport(fcinfo, 6);
}
