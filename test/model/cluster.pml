/*
 * test/model/cluster.pml - the commit horizon on a Citus cluster, checked
 * by Spin over every interleaving of its steps ("make model-check";
 * docs/how-it-works.md, "A model of the horizon", explains it).
 *
 * A coordinator C and two workers W1, W2, separate servers, each with the
 * single-node state of test/model/horizon.pml: a floor F[n] that only
 * rises, a slot per backend (the time of the ids its transaction
 * published, counting while that transaction runs on that node) and a
 * table of the prepared transactions' recorded times.  The shards are on
 * the workers; every row written into a shard passes the shard's guard on
 * its worker.  Distributed transactions start on C and write one row
 * (single-shard: the worker commits, then C) or one row on each worker
 * (multi-shard: each worker PREPAREs, C commits, then each worker's COMMIT
 * PREPARED comes later, in any order).  The reader, on C, computes C's
 * horizon, then asks every worker at once for its horizon with its floor
 * capped at C's horizon plus the allowance, takes the least, and only then
 * reads each worker's rows below it, each worker in its own snapshot.
 *
 * The steps that horizon.pml checks on one server (a generator's two
 * steps, the guard's two, the horizon's raise and scans) are the same
 * here; a PREPARE (its record and the end of the backend's transaction)
 * and a node's scan (its slots, then its prepared transactions) are one
 * step each, as horizon.pml checks their parts on one server.  Ids are
 * times, small integers; LOW (0) is the lowest time.  One shared clock (one
 * machine).  One scenario is compiled at a time (spin -DSC_...):
 *
 *   SC_CLUSTER         a coordinator and two workers; 2 distributed
 *                      transactions on C, each an id from C's generator
 *                      (uuidv7() as the column's DEFAULT), into one shard
 *                      (W1 or W2) or both (two-phase, in either order);
 *                      commit or rollback; a reader on C; the clock 1..4,
 *                      allowance 1
 *   SC_CLUSTER_A0      the same, allowance 0, the clock 1..3
 *   SC_CLUSTER_CLIENT  the same as SC_CLUSTER, each transaction's id from
 *                      C's generator or made earlier by the client (any
 *                      time up to the clock, published nowhere before the
 *                      shard's guard); the clock 1..3
 *
 * -DMAXCLK= raises the clock's bound, for a longer search.
 *
 * Invariants (asserts; the message names the one broken):
 *   no_row_missed          a row committed on its worker whose id is at or
 *                          below the reader's cursor has been read
 *   coordinator_ids_taken  no shard's guard refuses an id that C's
 *                          generator made
 *
 * What the protocol assumes: no node's floor is raised other than by the
 * reader's capped raise (no restart, no start of a worker's state after
 * the scenario began, no reader of its own on a worker):
 * -DLIMIT_CLUSTER_WORKER_START with SC_CLUSTER_A0 makes each worker's floor
 * at its first use, at the clock (model step floor_start of horizon.pml),
 * and gives coordinator_ids_taken's counterexample.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */

/* ---------------------------------------------------------------- bounds */

#define LOW		0			/* the lowest time; a cursor before any row */
#define NS		2			/* distributed transactions */
#define B		1			/* the reader's max_rows */

#if defined(SC_CLUSTER_A0)
#define ALLOW	0			/* the allowance: the reader's and the guards' */
#ifndef MAXCLK
#define MAXCLK	3
#endif
#elif defined(SC_CLUSTER_CLIENT)
#define ALLOW	1
#define CLIENT_IDS	1
#ifndef MAXCLK
#define MAXCLK	3
#endif
#else
#define ALLOW	1
#ifndef MAXCLK
#define MAXCLK	4
#endif
#endif

/* nodes */
#define C		0
#define W1		1
#define W2		2
#define NN		3

/* rows: transaction s writes row 2s on W1 and row 2s + 1 on W2 */
#define NR		(2 * NS)
#define ROW(n, s)	(2 * (s) + (n) - 1)
#define NODE(k)		((k) % 2 + 1)

/* row states */
#define FREE	0
#define RUN		1			/* stored by a transaction in progress on its worker */
#define PREP	2			/* its transaction is prepared on its worker */
#define DONE	3			/* committed on its worker */
#define GONE	4			/* refused, rolled back */

#define NONE	255			/* a slot that does not count; no record */

#define MIN(a, b)	((a) < (b) -> (a) : (b))
#define MAX(a, b)	((a) > (b) -> (a) : (b))
#define LESS_ALLOWANCE(f)	((f) > ALLOW -> (f) - ALLOW : LOW)

/* ----------------------------------------------------------------- state */

typedef Row {
	byte		id;
	byte		st;
};
Row			row[NR];

byte		clk = 1;		/* the clock, one machine */
byte		F[NN];			/* each node's floor (LOW: made before any id) */
#if defined(LIMIT_CLUSTER_WORKER_START)
bool		Fmade[NN];		/* made at its first use, at the clock */
#endif
/*
 * Each node's slots, one a transaction (its backend there): the least time
 * it published, while that transaction runs on that node (on C the
 * generators' field, on a worker the guard's; a reader takes both), NONE
 * when it does not count.  Each node's prepared transactions' records, NONE
 * for none or "made no id" (the workers preload the library: a prepared
 * transaction that published nothing is recorded so); C's stays empty, it
 * has no shards.
 */
byte		slot[NN * NS];
byte		prep[NN * NS];
#define SL(n, s)	slot[(n) * NS + (s)]
#define PR(n, s)	prep[(n) * NS + (s)]

/* the reader */
byte		cur = LOW;		/* the greatest id read */
byte		rdm = 0;		/* the rows read, a bit each */

bool		no_row_missed = true;
bool		coordinator_ids_taken = true;

hidden byte	i_;				/* scratch, within one step only */
hidden byte	n_;
hidden byte	tk_;
hidden byte	inb_;

/* ------------------------------------------------------------ invariants */

/* no_row_missed: inside each step that commits a row or moves the cursor */
inline check_missed()
{
	for (i_ : 0 .. NR - 1) {
		if
		:: row[i_].st == DONE && row[i_].id <= cur && (rdm & (1 << i_)) == 0 ->
			no_row_missed = false
		:: else -> skip
		fi
	};
	i_ = 0;
	assert(no_row_missed)
}

/* -------------------------------------------------------------- a node */

/* floor_start (LIMIT_CLUSTER_WORKER_START): node n's floor made at its first use */
inline floor_start(n)
{
#if defined(LIMIT_CLUSTER_WORKER_START)
	if
	:: !Fmade[n] -> F[n] = MAX(F[n], clk); Fmade[n] = true
	:: else -> skip
	fi
#else
	skip
#endif
}

/*
 * Model step node_scan (coord_scan on C; horizon.pml's scan_slots then
 * scan_prepared, in one step): the least of node n's counting slots and
 * prepared transactions' records
 */
inline node_scan(n, H)
{
	for (i_ : 0 .. NS - 1) {
		H = MIN(H, MIN(SL(n, i_), PR(n, i_)))
	};
	i_ = 0
}

/* ---------------------------------------------- a distributed transaction */

/* transaction me rolls back: its rows GONE, its slots and records cleared */
inline rollback()
{
	for (i_ : 1 .. NN - 1) {
		if
		:: row[ROW(i_, me)].st == RUN || row[ROW(i_, me)].st == PREP -> row[ROW(i_, me)].st = GONE
		:: else -> skip
		fi;
		SL(i_, me) = NONE;
		PR(i_, me) = NONE
	};
	i_ = 0;
	SL(C, me) = NONE;
	printf("MSC: transaction %d rolls back\n", me)
}

/*
 * Model step gen_publish (on C): the transaction's first id reads C's
 * clock and floor and publishes the higher in its slot on C
 */
inline gen_publish()
{
	floor_start(C);
	lower = MAX(clk, F[C]);
	SL(C, me) = MIN(SL(C, me), lower);
	printf("MSC: transaction %d publishes %d on C\n", me, lower)
}

/* Model step gen_read_floor (on C): C's floor again; the id is the higher */
inline gen_read_floor()
{
	t = MAX(lower, F[C]);
	g = true;
	lower = 0;
	printf("MSC: transaction %d reads C's floor %d, makes id %d\n", me, F[C], t)
}

/*
 * Model step shard_guard_publish: the shard's guard on worker n publishes
 * the id's time in the slot of the transaction's backend there
 */
inline shard_guard_publish(n)
{
	floor_start(n);
#if defined(BUG_CLUSTER_NO_SHARD_GUARD)
	skip					/* the shard has no guard: nothing published */
#else
	SL(n, me) = MIN(SL(n, me), t);
	printf("MSC: transaction %d: W%d's guard publishes %d\n", me, n, t)
#endif
}

/*
 * Model step shard_guard_read_floor: worker n's floor after publishing;
 * the row is refused (40001, the transaction aborts) when its id is below
 * it less the allowance, else stored, visible once it commits there
 */
inline shard_guard_read_floor(n)
{
	if
#if !defined(BUG_CLUSTER_NO_SHARD_GUARD)
	:: t + ALLOW < F[n] ->
		refused = true;
		coordinator_ids_taken = !g;
		printf("MSC: transaction %d: W%d's guard reads the floor %d, refuses id %d\n", me, n, F[n], t);
		assert(coordinator_ids_taken)
#endif
	:: else ->
		row[ROW(n, me)].id = t;
		row[ROW(n, me)].st = RUN;
		printf("MSC: transaction %d: W%d stores id %d (floor %d)\n", me, n, t, F[n])
	fi
}

/* worker n's commit (single-shard): visible, its slot stops counting */
inline worker_commit(n)
{
	row[ROW(n, me)].st = DONE;
	SL(n, me) = NONE;
	printf("MSC: W%d commits id %d\n", n, row[ROW(n, me)].id);
	check_missed()
}

/* C's commit: C's slot stops counting */
inline coord_commit()
{
	SL(C, me) = NONE;
	printf("MSC: transaction %d commits on C\n", me)
}

/*
 * PREPARE TRANSACTION on worker n (horizon.pml's pre_prepare and prepare):
 * the slot's time becomes the prepared transaction's record
 */
inline prepare(n)
{
	PR(n, me) = SL(n, me);
	SL(n, me) = NONE;
	row[ROW(n, me)].st = PREP;
	if
	:: PR(n, me) == NONE -> printf("MSC: W%d prepares id %d (record: made no id)\n", n, row[ROW(n, me)].id)
	:: else -> printf("MSC: W%d prepares id %d (record %d)\n", n, row[ROW(n, me)].id, PR(n, me))
	fi
}

/* COMMIT PREPARED on worker n (or Citus's recovery of it) */
inline commit_prepared(n)
{
	row[ROW(n, me)].st = DONE;
	PR(n, me) = NONE;
	printf("MSC: W%d commits prepared id %d\n", n, row[ROW(n, me)].id);
	check_missed()
}

/* one row into the shard on worker n, through its guard */
inline shard_insert(n)
{
	d_step { shard_guard_publish(n) }
	d_step { shard_guard_read_floor(n) }
}

/*
 * Transaction me: its row into the shard on worker a, then, if b is not 0,
 * one into the shard on worker b (two-phase); the same id t in both (ids
 * of one time are the worst case for the reader)
 */
proctype dtx(byte me; byte a; byte b)
{
	byte		t;			/* the id */
	byte		lower;
	bool		g;			/* t was made by C's generator */
	bool		refused;

	/* the id, then the row on worker a */
	if
	:: d_step { gen_publish() }
		d_step { gen_read_floor() }
		d_step { shard_guard_publish(a) }
#if defined(CLIENT_IDS)
	/* made by the client earlier, at any time up to the clock */
	:: d_step { clk >= 1; t = 1; shard_guard_publish(a) }
	:: d_step { clk >= 2; t = 2; shard_guard_publish(a) }
	:: d_step { clk >= 3; t = 3; shard_guard_publish(a) }
	:: d_step { clk >= 4; t = 4; shard_guard_publish(a) }
#endif
	fi;
	d_step { shard_guard_read_floor(a) }
	if
	:: !refused && b != 0 -> shard_insert(b)
	:: else -> skip
	fi;
	/* the end */
	if
	:: d_step { rollback() }			/* refused, or the client's choice */
	:: !refused && b == 0 ->
		/* single-shard: the worker commits, then C */
		d_step { worker_commit(a) }
		d_step { coord_commit() }
	:: !refused && b != 0 ->
		/* two-phase: each worker prepares, C commits (or rolls back) */
		d_step { prepare(a) }
		d_step { prepare(b) }
		if
		:: d_step { coord_commit() }
			/* each COMMIT PREPARED later, in any order */
			do
			:: d_step { row[ROW(a, me)].st == PREP; commit_prepared(a) }
			:: d_step { row[ROW(b, me)].st == PREP; commit_prepared(b) }
			:: row[ROW(a, me)].st == DONE && row[ROW(b, me)].st == DONE -> break
			od
		:: d_step { rollback() }
		fi
	fi
}

/* ------------------------------------------------------------- the reader */

/*
 * Model step coord_raise_floor: C's floor raised to the clock; C's horizon
 * H_c starts at it less the allowance
 */
inline coord_raise_floor(Hc)
{
	floor_start(C);
	F[C] = MAX(F[C], clk);
	Hc = LESS_ALLOWANCE(F[C]);
	printf("MSC: reader: C's floor %d\n", F[C])
}

/*
 * Model step node_raise (on worker n): its floor raised to the clock but
 * not above H_c plus the allowance (floors only rise); the worker's horizon
 * starts at its floor less the allowance.  The worker's horizon only goes
 * into the cluster's, the least of all: H takes it term by term (model step
 * cluster_min)
 */
inline node_raise(n, Hc, H)
{
	floor_start(n);
#if defined(BUG_CLUSTER_NO_CAP)
	F[n] = MAX(F[n], clk);			/* the clock alone, not capped */
#else
	F[n] = MAX(F[n], MIN(clk, Hc + ALLOW));
#endif
	H = MIN(H, LESS_ALLOWANCE(F[n]));
	printf("MSC: reader: W%d's floor %d\n", n, F[n])
}

/* a row to the reader */
inline deliver(k, H)
{
	printf("MSC: reader reads id %d of W%d (horizon %d)\n", row[k].id, NODE(k), H);
	rdm = rdm | (1 << k);
	cur = row[k].id;
	inb_ = inb_ | (1 << k)
}

/*
 * Model step worker_read (on worker n): its snapshot, taken when its part
 * of the query starts: its committed rows above the cursor (and below H)
 */
inline worker_read(n, snap)
{
	for (i_ : 0 .. NR - 1) {
		if
		:: NODE(i_) == n && row[i_].st == DONE && row[i_].id > cur -> snap = snap | (1 << i_)
		:: else -> skip
		fi
	};
	i_ = 0;
	printf("MSC: reader: W%d's snapshot\n", n)
}

/*
 * Model step cluster_read: the rows of both snapshots below H in id order,
 * B of them and every further one equal to the last (each worker's top B
 * with ties, merged on C: the same rows); the cursor moves to the last
 */
inline cluster_read(snap, H)
{
	inb_ = 0;
	n_ = 0;
	do
	:: n_ < B ->
		tk_ = 255;
		for (i_ : 0 .. NR - 1) {
			if
			:: (snap & (1 << i_)) != 0 && row[i_].id < H && (inb_ & (1 << i_)) == 0 &&
			   (tk_ == 255 || row[i_].id < row[tk_].id) -> tk_ = i_
			:: else -> skip
			fi
		};
		if
		:: tk_ == 255 -> break
		:: else -> deliver(tk_, H); n_++
		fi
	:: else -> break
	od;
	if
	:: n_ > 0 ->
		for (i_ : 0 .. NR - 1) {
			if
			:: (snap & (1 << i_)) != 0 && row[i_].id == cur && (inb_ & (1 << i_)) == 0 -> deliver(i_, H)
			:: else -> skip
			fi
		}
	:: else -> skip
	fi;
	i_ = 0;
	n_ = 0;
	tk_ = 0;
	inb_ = 0;
	check_missed()
}

/* the poll's end: the rows of both snapshots read; the next poll */
inline poll_end()
{
	if
	:: ph1 == 3 && ph2 == 3 ->
		cluster_read(snap, H);
		pc = 0; ph1 = 0; ph2 = 0; snap = 0; H = 0; Hc = 0
	:: else -> skip
	fi
}

/*
 * W1's floor raised, its horizon in H (BUG_CLUSTER_READ_BEFORE_NODE_HORIZON:
 * W1's snapshot comes first)
 */
#if defined(BUG_CLUSTER_READ_BEFORE_NODE_HORIZON)
#define W1_RAISED	(ph1 >= 2)
#define W1_KNOWN	(ph1 == 3)
#else
#define W1_RAISED	(ph1 >= 1)
#define W1_KNOWN	(ph1 >= 2)
#endif

/*
 * pg_uuidx_read_after() on C, in a loop.  A poll: C's horizon (raise, then
 * scan); then every worker is asked for its horizon capped at C's, all at
 * once (each worker's raise, then its scan, interleaved with the other's in
 * any order); once all have answered, the query: each worker's snapshot, in
 * any order, and the rows of both.  With C's horizon at its lowest the poll
 * may stop before asking, reading nothing.  pc: 0 the poll starts, 1 C's
 * floor raised, 2 C's horizon known; ph1, ph2, each worker's part: 0 not
 * asked, 1 its floor raised, 2 its horizon in H, 3 its snapshot taken.
 */
active proctype reader()
{
	byte		pc;
	byte		ph1;
	byte		ph2;
	byte		Hc;			/* C's horizon */
	byte		H;			/* the cluster's */
	byte		snap;		/* the rows of the snapshots taken */

end:
	do
	:: d_step { pc == 0; coord_raise_floor(Hc); pc = 1 }
	/* model step coord_scan: C's slots and prepared transactions */
	:: d_step {
			pc == 1;
			node_scan(C, Hc);
			H = Hc;
			pc = 2;
			printf("MSC: reader: C's horizon %d\n", Hc);
#if defined(BUG_CLUSTER_COORDINATOR_ONLY)
			/* C's horizon alone: no worker asked */
			ph1 = 2;
			ph2 = 2;
			Hc = 0
#endif
		}
	:: d_step {
			pc == 2 && Hc == LOW && ph1 == 0 && ph2 == 0;
			printf("MSC: reader: C's horizon at its lowest, reads nothing\n");
			pc = 0; H = 0
		}
#if !defined(BUG_CLUSTER_READ_BEFORE_NODE_HORIZON)
	:: d_step { pc == 2 && ph1 == 0; node_raise(W1, Hc, H); ph1 = 1; Hc = (ph2 >= 1 -> 0 : Hc) }
	/* model step node_scan */
	:: d_step { ph1 == 1; node_scan(W1, H); ph1 = 2; printf("MSC: reader: W1 scanned, the cluster's horizon %d\n", H) }
	/* model step worker_read, once every worker's horizon is in H */
	:: d_step { ph1 == 2 && ph2 >= 2; worker_read(W1, snap); ph1 = 3; poll_end() }
#else
	/* W1's snapshot before its horizon */
	:: d_step { pc == 2 && ph1 == 0; worker_read(W1, snap); ph1 = 1 }
	:: d_step { ph1 == 1; node_raise(W1, Hc, H); ph1 = 2; Hc = (ph2 >= 1 -> 0 : Hc) }
	:: d_step { ph1 == 2; node_scan(W1, H); ph1 = 3; printf("MSC: reader: W1 scanned, the cluster's horizon %d\n", H); poll_end() }
#endif
	:: d_step { pc == 2 && ph2 == 0; node_raise(W2, Hc, H); ph2 = 1; Hc = (W1_RAISED -> 0 : Hc) }
	:: d_step { ph2 == 1; node_scan(W2, H); ph2 = 2; printf("MSC: reader: W2 scanned, the cluster's horizon %d\n", H) }
	:: d_step { ph2 == 2 && W1_KNOWN; worker_read(W2, snap); ph2 = 3; poll_end() }
	od
}

active proctype clock()
{
end:
	do
	:: d_step { clk < MAXCLK; clk++; printf("MSC: clock %d\n", clk) }
	od
}

/*
 * Transaction 1 writes into W1, W2, W1 then W2, or W2 then W1; transaction
 * 0 into W1, or W1 then W2: the model is the same with W1 and W2 swapped
 * (the reader asks and reads the workers in any order), so transaction 0
 * starting on W2 adds nothing but the mirror image of these states
 */
inline start(s)
{
	if
	:: run dtx(s, W1, 0)
	:: s == 1 -> run dtx(s, W2, 0)
	:: run dtx(s, W1, W2)
	:: s == 1 -> run dtx(s, W2, W1)
	fi
}

init {
	atomic {
		for (i_ : 0 .. NN * NS - 1) {
			slot[i_] = NONE;
			prep[i_] = NONE
		};
		i_ = 0;
		start(0);
		start(1)
	}
}
