/*
 * range.c
 *		Time ranges through the index: id <@ tstzrange for v7 ids,
 *		uuidv6_in_time_range() for v6, their edges, and the planner support
 *		that turns them into btree conditions on the id.
 *
 * Owns the functions of the <@ operator, the range edges and the planner
 * support; may call ticks.c for every time it turns into ticks and layout.h
 * for the edge ids.
 *
 * An id is in a range when it is of the range's version, has the RFC
 * variant, and its time (ticks.c: uuid_extract_timestamp_us) lies in the
 * range.  In uuid order those ids lie between the smallest id of the first
 * tick of the range's lower bound and the largest id of the last tick of
 * its upper bound, so a btree on the id answers the predicate with two
 * comparisons and a recheck (ids of other versions and variants can sit
 * between the edges).
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "access/stratnum.h"
#include "catalog/pg_am_d.h"
#include "catalog/pg_class_d.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_type_d.h"
#include "commands/defrem.h"
#include "compat.h"
#include "layout.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/pathnodes.h"
#include "nodes/supportnodes.h"
#include "optimizer/optimizer.h"
#include "parser/parse_func.h"
#include "parser/parsetree.h"
#include "ticks.h"
#include "utils/fmgrprotos.h"
#include "utils/lsyscache.h"
#include "utils/inval.h"
#include "utils/rangetypes.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

/* the ticks of a range: none (empty), or lo..hi inclusive */
typedef struct TickSpan
{
	bool		empty;
	uint64		lo;
	uint64		hi;
} TickSpan;

/*
 * A bound as an inclusive Unix microsecond: an id's time is a whole
 * microsecond (ticks.c), so an exclusive bound is the next or previous one.
 * Unbounded and infinite bounds, and instants too late for 64 bits of Unix
 * microseconds, saturate; no tick's time is near either end.
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
 * The ticks whose time (ticks.c) lies in the range: from the first tick of
 * its lower bound to the last tick of its upper one.
 */
static TickSpan
RangeTicks(TypeCacheEntry *typcache, const RangeType *range, int version)
{
	RangeBound	lower;
	RangeBound	upper;
	bool		empty;
	TickSpan	span;

	range_deserialize(typcache, range, &lower, &upper, &empty);
	span.empty = empty ||
		!first_tick_from_unix_us(BoundUnixUs(&lower), version, &span.lo) ||
		!last_tick_to_unix_us(BoundUnixUs(&upper), version, &span.hi) ||
		span.lo > span.hi;
	return span;
}

/*
 * What the predicate keeps across the rows of a scan (fn_extra): the range
 * type's cache entry, and the last range seen with its ticks.
 */
typedef struct RangeMemo
{
	TypeCacheEntry *typcache;
	RangeType  *range;			/* a copy of the last range, or NULL */
	TickSpan	span;			/* its ticks */
} RangeMemo;

/*
 * The ticks of the range argument, worked out again only when the range
 * differs from the previous row's (for a constant range: once a scan).
 */
static TickSpan
MemoizedRangeTicks(FunctionCallInfo fcinfo, RangeType *range, int version)
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
		memo->span = RangeTicks(memo->typcache, range, version);
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
	uint64		tick;
	TickSpan	span;

	uuid_unpack(PG_GETARG_UUID_P(0), &hi, &lo);
	if (!uuid_is_rfc_variant(lo) || uuid_version(hi) != version)
		PG_RETURN_BOOL(false);
	tick = uuid_time_hi_tick(hi);
	span = MemoizedRangeTicks(fcinfo, PG_GETARG_RANGE_P(1), version);
	PG_RETURN_BOOL(!span.empty && tick >= span.lo && tick <= span.hi);
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
 * The lower edge of a range's ids (the smallest id of its first tick) or
 * the upper one (the largest id of its last tick).  An empty range has the
 * largest uuid as lower edge and the smallest as upper, so that no id lies
 * between them.
 */
static pg_uuid_t *
RangeEdge(TypeCacheEntry *typcache, const RangeType *range, int version, bool upper)
{
	pg_uuid_t  *uuid = palloc(UUID_LEN);
	TickSpan	span = RangeTicks(typcache, range, version);

	if (span.empty)
		memset(uuid->data, upper ? 0x00 : 0xFF, UUID_LEN);
	else
		uuid_pack_tick_edge(uuid, upper ? span.hi : span.lo, version, upper);
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
 * per version, the edge functions and the recheck function of the schema
 * the predicate lives in; the btree operators of uuid's default operator
 * family and of the last other family an index used.  Any change to
 * pg_proc or pg_amop forgets it all.
 */
typedef struct SupportFunctions
{
	Oid			predicate;		/* the uuidvN_in_time_range they go with */
	Oid			lower;			/* uuidvN_range_lower */
	Oid			upper;			/* uuidvN_range_upper */
	Oid			recheck;		/* uuidvN_in_time_range_recheck */
} SupportFunctions;

typedef struct EdgeOperators
{
	Oid			opfamily;
	Oid			ge;
	Oid			le;
} EdgeOperators;

static SupportFunctions support_functions[2];	/* [0] v6, [1] v7 */
static EdgeOperators default_operators;
static EdgeOperators index_operators;
static bool support_callbacks_registered = false;

static void
ForgetSupportLookups(Datum arg, int cacheid, uint32 hashvalue)
{
	memset(support_functions, 0, sizeof(support_functions));
	memset(&default_operators, 0, sizeof(default_operators));
	memset(&index_operators, 0, sizeof(index_operators));
}

/*
 * The function "uuidvN_suffix" of these arguments in the predicate's schema;
 * InvalidOid when it is missing and missing_ok.
 */
static Oid
SiblingFunction(Oid predicate, int version, const char *suffix, int nargs,
				Oid *argtypes, bool missing_ok)
{
	char		name[NAMEDATALEN];

	snprintf(name, sizeof(name), "uuidv%d_%s", version, suffix);
	return LookupFuncName(list_make2(makeString(get_namespace_name(get_func_namespace(predicate))),
									 makeString(name)),
						  nargs, argtypes, missing_ok);
}

/* the edge and recheck functions that go with the predicate "predicate" */
static const SupportFunctions *
SupportFunctionsOf(Oid predicate, int version)
{
	SupportFunctions *f = &support_functions[version == 7];
	Oid			argtypes[2] = {UUIDOID, TSTZRANGEOID};

	if (!support_callbacks_registered)
	{
		CacheRegisterSyscacheCallback(PROCOID, ForgetSupportLookups, (Datum) 0);
		CacheRegisterSyscacheCallback(AMOPSTRATEGY, ForgetSupportLookups, (Datum) 0);
		support_callbacks_registered = true;
	}
	if (f->predicate != predicate)
	{
		f->predicate = InvalidOid;
		f->lower = SiblingFunction(predicate, version, "range_lower", 1, &argtypes[1], false);
		f->upper = SiblingFunction(predicate, version, "range_upper", 1, &argtypes[1], false);
		/* added in 1.3: a catalog not yet updated to it has none */
		f->recheck = SiblingFunction(predicate, version, "in_time_range_recheck", 2, argtypes, true);
		f->predicate = predicate;
	}
	return f;
}

/*
 * The >= and <= operators on uuid of a btree operator family (InvalidOid:
 * uuid's default one); NULL when the family has none.  Called after
 * SupportFunctionsOf(), which registers the invalidation callbacks.
 */
static const EdgeOperators *
EdgeOperatorsOf(Oid opfamily)
{
	EdgeOperators *ops = OidIsValid(opfamily) ? &index_operators : &default_operators;

	Assert(support_callbacks_registered);
	if (!OidIsValid(opfamily))
		opfamily = get_opclass_family(GetDefaultOpClass(UUIDOID, BTREE_AM_OID));
	if (ops->opfamily != opfamily)
	{
		ops->opfamily = InvalidOid;
		ops->ge = get_opfamily_member(opfamily, UUIDOID, UUIDOID, BTGreaterEqualStrategyNumber);
		ops->le = get_opfamily_member(opfamily, UUIDOID, UUIDOID, BTLessEqualStrategyNumber);
		ops->opfamily = opfamily;
	}
	return OidIsValid(ops->ge) && OidIsValid(ops->le) ? ops : NULL;
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

/* id >= lower edge AND id <= upper edge, with the given operators */
static List *
EdgeClauses(const SupportFunctions *f, const EdgeOperators *ops, Node *id,
			Node *range, int version)
{
	return list_make2(make_opclause(ops->ge, BOOLOID, false, (Expr *) copyObject(id),
									EdgeExpr(f->lower, range, version, false),
									InvalidOid, InvalidOid),
					  make_opclause(ops->le, BOOLOID, false, (Expr *) copyObject(id),
									EdgeExpr(f->upper, range, version, true),
									InvalidOid, InvalidOid));
}

/*
 * SupportRequestIndexCondition: for a btree on the id, the edge comparisons
 * with the operators of the index's own operator family, lossy (the
 * predicate is checked again on each row).
 */
static List *
IndexConditions(SupportRequestIndexCondition *req, int version)
{
	List	   *args;
	Node	   *range;
	const SupportFunctions *f;
	const EdgeOperators *ops;

	if (is_opclause(req->node))
		args = ((OpExpr *) req->node)->args;
	else if (is_funcclause(req->node))
		args = ((FuncExpr *) req->node)->args;
	else
		return NIL;
	range = lsecond(args);
	if (req->indexarg != 0 || IsNullConst(range) || req->index->relam != BTREE_AM_OID ||
		!is_pseudo_constant_for_index(req->root, range, req->index))
		return NIL;
	f = SupportFunctionsOf(req->funcid, version);
	if ((ops = EdgeOperatorsOf(req->opfamily)) == NULL)
		return NIL;
	req->lossy = true;
	return EdgeClauses(f, ops, linitial(args), range, version);
}

/*
 * SupportRequestSimplify: on a partitioned table, partition pruning reads
 * btree comparisons of the partition key, not this predicate, and so does
 * constraint exclusion of the children of a table with inheritance children
 * (the chunks of a TimescaleDB hypertable are such children), so
 * "id <@ r" becomes "id >= lower AND id <= upper AND
 * uuidv7_in_time_range_recheck(id, r)": the last one is the same test in a
 * function without planner support, so nothing expands it again.
 */
static Node *
ExpandForPartitions(SupportRequestSimplify *req, int version)
{
	FuncExpr   *call = req->fcall;
	Node	   *id = linitial(call->args);
	Node	   *range = lsecond(call->args);
	const SupportFunctions *f;
	const EdgeOperators *ops;
	Var		   *var;
	RangeTblEntry *rte;

	if (req->root == NULL || !IsA(id, Var))
		return NULL;
	var = (Var *) id;
	if (var->varlevelsup != 0 || var->varno < 1 ||
		(int) var->varno > list_length(req->root->parse->rtable))
		return NULL;
	rte = rt_fetch(var->varno, req->root->parse->rtable);
	if (rte->rtekind != RTE_RELATION || IsNullConst(range) ||
		contain_var_clause(range) || contain_volatile_functions(range))
		return NULL;
	/* relhassubclass from the syscache: nothing to expand on a plain table */
	if (rte->relkind != RELKIND_PARTITIONED_TABLE &&
		!(rte->relkind == RELKIND_RELATION && has_subclass(rte->relid)))
		return NULL;
	f = SupportFunctionsOf(call->funcid, version);
	/*
	 * Without the recheck function (the library is newer than the catalog:
	 * ALTER EXTENSION pg_uuidx UPDATE has not run yet) the predicate stays as
	 * it is: right, only not pruned.
	 */
	if (!OidIsValid(f->recheck) || (ops = EdgeOperatorsOf(InvalidOid)) == NULL)
		return NULL;
	return (Node *) make_andclause(lappend(EdgeClauses(f, ops, id, range, version),
										   makeFuncExpr(f->recheck, BOOLOID, copyObject(call->args),
														InvalidOid, InvalidOid,
														COERCE_EXPLICIT_CALL)));
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
