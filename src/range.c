/*
 * range.c
 *		Time ranges through the index: id <@ tstzrange for v7 ids,
 *		uuidv6_in_time_range() for v6, their edges, and the planner support
 *		that turns them into btree conditions on the id.
 *
 * An id is in a range when it is of the range's version, has the RFC
 * variant, and the instant its timestamp names (a v7 tick is 1/4096 ms, RFC
 * 9562 5.7 and 6.2 Method 3; a v6 tick 100 ns, 5.6) lies in the range.  In
 * uuid order those ids lie between the smallest id of the first tick in the
 * range and the largest id of the last one, so a btree on the id answers the
 * predicate with two comparisons and a recheck (ids of other versions can
 * sit between the edges).
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "access/stratnum.h"
#include "catalog/pg_am_d.h"
#include "catalog/pg_class_d.h"
#include "catalog/pg_collation_d.h"
#include "catalog/pg_type_d.h"
#include "commands/defrem.h"
#include "common/int.h"
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
#include "utils/rangetypes.h"

/*
 * The predicate after the planner expanded it for a partitioned table
 * carries this input collation (the uuid type has none), so that it is not
 * expanded again.
 */
#define EXPANDED_MARK C_COLLATION_OID

/* the ticks of a range: none (empty), or lo..hi inclusive */
typedef struct TickSpan
{
	bool		empty;
	uint64		lo;
	uint64		hi;
} TickSpan;

/*
 * The tick at or before the Unix microsecond us (us >= 0) and whether it
 * names exactly that instant; false when the tick would not fit in 60 bits.
 */
static bool
FloorTick(int64 us, int version, uint64 *tick, bool *exact)
{
	if (version == 7)
	{
		/* ms * 4096 + the fraction rounded down, as v7_tick_from_unix_time */
		int64		ms = us / US_PER_MS;
		int64		scaled = (us % US_PER_MS) << V7_FRACTION_BITS;

		if (ms >= (int64) (UUID_TICK_LIMIT >> V7_FRACTION_BITS))
			return false;
		*tick = ((uint64) ms << V7_FRACTION_BITS) + (uint64) (scaled / US_PER_MS);
		*exact = scaled % US_PER_MS == 0;
	}
	else
	{
		int64		ticks;

		if (pg_mul_s64_overflow(us, 10, &ticks) ||
			pg_add_s64_overflow(ticks, GREGORIAN_UNIX_OFFSET, &ticks) ||
			(uint64) ticks >= UUID_TICK_LIMIT)
			return false;
		*tick = (uint64) ticks;
		*exact = true;
	}
	return true;
}

/* the Unix microsecond of the first tick: 0 for v7, 1582-10-15 for v6 */
static int64
FirstTickUs(int version)
{
	return version == 7 ? 0 : -GREGORIAN_UNIX_OFFSET / 10;
}

/*
 * The first tick at or after the bound (after it, when it is exclusive);
 * false when there is none.
 */
static bool
FirstTickFrom(RangeBound *bound, int version, uint64 *tick)
{
	TimestampTz ts = DatumGetTimestampTz(bound->val);
	int64		us;
	bool		exact;

	if (bound->infinite || TIMESTAMP_IS_NOBEGIN(ts))
	{
		*tick = 0;
		return true;
	}
	if (TIMESTAMP_IS_NOEND(ts) || pg_add_s64_overflow(ts, UNIX_TO_PG_EPOCH_US, &us))
		return false;
	if (us < FirstTickUs(version))
	{
		*tick = 0;
		return true;
	}
	if (!FloorTick(us, version, tick, &exact))
		return false;
	if (!bound->inclusive || !exact)
		(*tick)++;
	return *tick < UUID_TICK_LIMIT;
}

/*
 * The last tick at or before the bound (before it, when it is exclusive);
 * false when there is none.
 */
static bool
LastTickTo(RangeBound *bound, int version, uint64 *tick)
{
	TimestampTz ts = DatumGetTimestampTz(bound->val);
	int64		us;
	bool		exact;

	if (bound->infinite || TIMESTAMP_IS_NOEND(ts))
	{
		*tick = UUID_TICK_LIMIT - 1;
		return true;
	}
	if (TIMESTAMP_IS_NOBEGIN(ts))
		return false;
	if (pg_add_s64_overflow(ts, UNIX_TO_PG_EPOCH_US, &us))
	{
		*tick = UUID_TICK_LIMIT - 1;
		return true;
	}
	if (us < FirstTickUs(version))
		return false;
	if (!FloorTick(us, version, tick, &exact))
	{
		*tick = UUID_TICK_LIMIT - 1;
		return true;
	}
	if (!bound->inclusive && exact)
	{
		if (*tick == 0)
			return false;
		(*tick)--;
	}
	return true;
}

static TickSpan
RangeTicks(RangeType *range, int version)
{
	TypeCacheEntry *typcache;
	RangeBound	lower;
	RangeBound	upper;
	bool		empty;
	TickSpan	span;

	typcache = lookup_type_cache(RangeTypeGetOid(range), TYPECACHE_RANGE_INFO);
	range_deserialize(typcache, range, &lower, &upper, &empty);
	span.empty = empty ||
		!FirstTickFrom(&lower, version, &span.lo) ||
		!LastTickTo(&upper, version, &span.hi) ||
		span.lo > span.hi;
	return span;
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
	span = RangeTicks(PG_GETARG_RANGE_P(1), version);
	PG_RETURN_BOOL(!span.empty && tick >= span.lo && tick <= span.hi);
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuidv7_in_time_range);

/*
 * uuidv7_in_time_range(uuid, tstzrange) -> bool, the operator uuid <@
 * tstzrange: a v7 id whose time lies in the range.
 */
Datum
pg_uuidx_uuidv7_in_time_range(PG_FUNCTION_ARGS)
{
	return InTimeRange(fcinfo, 7);
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuidv6_in_time_range);

/*
 * uuidv6_in_time_range(uuid, tstzrange) -> bool: a v6 id whose time lies
 * in the range.
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
RangeEdge(RangeType *range, int version, bool upper)
{
	pg_uuid_t  *uuid = palloc(UUID_LEN);
	TickSpan	span = RangeTicks(range, version);

	if (span.empty)
		memset(uuid->data, upper ? 0x00 : 0xFF, UUID_LEN);
	else
		uuid_pack_tick_edge(uuid, upper ? span.hi : span.lo, version, upper);
	return uuid;
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuidv7_range_lower);
PG_FUNCTION_INFO_V1(pg_uuidx_uuidv7_range_upper);
PG_FUNCTION_INFO_V1(pg_uuidx_uuidv6_range_lower);
PG_FUNCTION_INFO_V1(pg_uuidx_uuidv6_range_upper);

/* uuidv7_range_lower(tstzrange) -> uuid, and the other three edges */
Datum
pg_uuidx_uuidv7_range_lower(PG_FUNCTION_ARGS)
{
	PG_RETURN_UUID_P(RangeEdge(PG_GETARG_RANGE_P(0), 7, false));
}

Datum
pg_uuidx_uuidv7_range_upper(PG_FUNCTION_ARGS)
{
	PG_RETURN_UUID_P(RangeEdge(PG_GETARG_RANGE_P(0), 7, true));
}

Datum
pg_uuidx_uuidv6_range_lower(PG_FUNCTION_ARGS)
{
	PG_RETURN_UUID_P(RangeEdge(PG_GETARG_RANGE_P(0), 6, false));
}

Datum
pg_uuidx_uuidv6_range_upper(PG_FUNCTION_ARGS)
{
	PG_RETURN_UUID_P(RangeEdge(PG_GETARG_RANGE_P(0), 6, true));
}

PG_FUNCTION_INFO_V1(pg_uuidx_uuidv7_boundary_upper);
PG_FUNCTION_INFO_V1(pg_uuidx_uuidv6_boundary_upper);

/*
 * uuidv7_boundary_upper(timestamptz) -> uuid: the largest v7 id whose time
 * is that instant, so that id BETWEEN uuidv7_boundary(a) AND
 * uuidv7_boundary_upper(b) selects the ids made in [a, b]; and the same for
 * v6.
 */
Datum
pg_uuidx_uuidv7_boundary_upper(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *uuid = palloc(UUID_LEN);

	uuid_pack_tick_edge(uuid, v7_tick_from_timestamptz(PG_GETARG_TIMESTAMPTZ(0)), 7, true);
	PG_RETURN_UUID_P(uuid);
}

Datum
pg_uuidx_uuidv6_boundary_upper(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *uuid = palloc(UUID_LEN);

	uuid_pack_tick_edge(uuid, gregorian_tick_from_timestamptz(PG_GETARG_TIMESTAMPTZ(0)), 6, true);
	PG_RETURN_UUID_P(uuid);
}

/* a NULL constant range: the strict predicate is NULL, nothing to derive */
static bool
IsNullConst(Node *node)
{
	return IsA(node, Const) && ((Const *) node)->constisnull;
}

/*
 * An expression for one edge of the range expression: a constant when the
 * range is one, else a call of uuidvN_range_lower/upper, found in the schema
 * of the predicate's own function.
 */
static Expr *
EdgeExpr(Oid predicate, Node *range, int version, bool upper)
{
	Oid			argtype = TSTZRANGEOID;
	Oid			fn;
	char		name[NAMEDATALEN];

	if (IsA(range, Const))
	{
		Const	   *c = (Const *) range;
		pg_uuid_t  *edge = RangeEdge(DatumGetRangeTypeP(c->constvalue), version, upper);

		return (Expr *) makeConst(UUIDOID, -1, InvalidOid, UUID_LEN,
								  UUIDPGetDatum(edge), false, false);
	}
	snprintf(name, sizeof(name), "uuidv%d_range_%s", version, upper ? "upper" : "lower");
	fn = LookupFuncName(list_make2(makeString(get_namespace_name(get_func_namespace(predicate))),
								   makeString(name)),
						1, &argtype, false);
	return (Expr *) makeFuncExpr(fn, UUIDOID, list_make1(copyObject(range)),
								 InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
}

/* id >= lower edge AND id <= upper edge, with the btree operators of uuid */
static List *
EdgeClauses(Oid predicate, Node *id, Node *range, int version)
{
	Oid			family = get_opclass_family(GetDefaultOpClass(UUIDOID, BTREE_AM_OID));
	Oid			ge = get_opfamily_member(family, UUIDOID, UUIDOID, BTGreaterEqualStrategyNumber);
	Oid			le = get_opfamily_member(family, UUIDOID, UUIDOID, BTLessEqualStrategyNumber);

	return list_make2(make_opclause(ge, BOOLOID, false, (Expr *) copyObject(id),
									EdgeExpr(predicate, range, version, false),
									InvalidOid, InvalidOid),
					  make_opclause(le, BOOLOID, false, (Expr *) copyObject(id),
									EdgeExpr(predicate, range, version, true),
									InvalidOid, InvalidOid));
}

/*
 * SupportRequestIndexCondition: for a btree on the id, the edge
 * comparisons, lossy (the predicate is checked again on each row).  Not for
 * a predicate already expanded for a partitioned table, whose edges are in
 * the query already.
 */
static List *
IndexConditions(SupportRequestIndexCondition *req, int version)
{
	List	   *args;
	Oid			collation;
	Node	   *range;

	if (is_opclause(req->node))
	{
		args = ((OpExpr *) req->node)->args;
		collation = ((OpExpr *) req->node)->inputcollid;
	}
	else if (is_funcclause(req->node))
	{
		args = ((FuncExpr *) req->node)->args;
		collation = ((FuncExpr *) req->node)->inputcollid;
	}
	else
		return NIL;
	range = lsecond(args);
	if (collation == EXPANDED_MARK || req->indexarg != 0 || IsNullConst(range) ||
		req->index->relam != BTREE_AM_OID ||
		!OidIsValid(get_opfamily_member(req->opfamily, UUIDOID, UUIDOID, BTGreaterEqualStrategyNumber)) ||
		!is_pseudo_constant_for_index(req->root, range, req->index))
		return NIL;
	req->lossy = true;
	return EdgeClauses(req->funcid, linitial(args), range, version);
}

/*
 * SupportRequestSimplify: on a partitioned table, partition pruning reads
 * btree comparisons of the partition key, not this predicate, so
 * "id <@ r" becomes "id >= lower AND id <= upper AND id <@ r" (the last
 * one marked, so that it is not expanded again).
 */
static Node *
ExpandForPartitions(SupportRequestSimplify *req, int version)
{
	FuncExpr   *call = req->fcall;
	Node	   *id = linitial(call->args);
	Node	   *range = lsecond(call->args);
	FuncExpr   *marked;
	Var		   *var;
	RangeTblEntry *rte;

	if (req->root == NULL || call->inputcollid == EXPANDED_MARK || !IsA(id, Var))
		return NULL;
	var = (Var *) id;
	if (var->varlevelsup != 0 || var->varno < 1 ||
		(int) var->varno > list_length(req->root->parse->rtable))
		return NULL;
	rte = rt_fetch(var->varno, req->root->parse->rtable);
	if (rte->rtekind != RTE_RELATION || rte->relkind != RELKIND_PARTITIONED_TABLE ||
		IsNullConst(range) || contain_var_clause(range) || contain_volatile_functions(range))
		return NULL;

	marked = (FuncExpr *) copyObject(call);
	marked->inputcollid = EXPANDED_MARK;
	return (Node *) make_andclause(lappend(EdgeClauses(call->funcid, id, range, version), marked));
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
