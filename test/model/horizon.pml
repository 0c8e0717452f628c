/*
 * test/model/horizon.pml - the commit horizon's protocol, checked by Spin
 * over every interleaving of its steps ("make model-check";
 * docs/how-it-works.md, "A model of the horizon", explains it).
 *
 * Sessions make ids (the clock, the floor of the database, publishing in a
 * slot, a parallel worker publishing for its leader, a session on a
 * library that publishes nothing, core's uuidv7()), insert them or let the
 * guard check ids made earlier, and end by commit, abort or PREPARE; a
 * server's allowance changes, a server restarts
 * (crash: shared memory lost, prepared transactions kept); readers compute
 * the horizon (raise the floor, then the least of the slots still running
 * their transaction and of the prepared transactions) and read above their
 * cursor, a batch at a time; ticks reach a standby with the WAL and a
 * logical subscriber through its subscription; the standby is promoted.
 *
 * An id is its time, a small integer: ids of one time are equal, the worst
 * case for a reader (real ids of one time differ, in any order).  LOW (0)
 * is the lowest time: the horizon held at its lowest, and a cursor before
 * any row.  Each d_step is one atomic step of a process, named as in the C
 * code's comments; between two steps of a process, any other process may
 * take any number of steps.
 *
 * One scenario is compiled at a time (spin -DSC_...).  test/model/check.sh
 * runs each with the protocol as it is, and with a known defect put back
 * (spin -DBUG_...), which must give a counterexample on a named invariant.
 * A reader reads at most 1 row a batch (max_rows), and every further row
 * with the same id.  The scenarios and their bounds:
 *
 *   SC_IDS      one server; 2 sessions, 1 transaction each: an id from the
 *               clock, or one a parallel worker makes for its leader, or,
 *               when session 1 started on an older library, an id
 *               published nowhere (else the clock steps back by 2, once,
 *               at any step); commit, abort, or PREPARE then COMMIT or
 *               ROLLBACK PREPARED; a reader; the clock 1..4, allowance 1
 *   SC_RESTART  one server; 2 sessions, 1 transaction each (an id from the
 *               clock or a worker; the same ends); a reader; a restart
 *               (crash) at any step; the clock 1..4, allowance 1
 *   SC_GUARD    one server; session 0, 2 transactions: an id the client
 *               made earlier, through the guard, or the same id sent again
 *               after a lost reply (refused: retried with a new id);
 *               session 1, 1 transaction: uuidv7(), then it inserts that
 *               id or one the client made earlier; commit or abort; a
 *               reader; a restart; the clock 1..3, allowance 1
 *   SC_STANDBY  a primary: 2 sessions, 1 transaction each (an id from the
 *               clock; commit, abort, or PREPARE then COMMIT or ROLLBACK
 *               PREPARED), 1 tick; a standby replaying the WAL, whose
 *               reader reads up to the newest tick replayed; the standby
 *               promoted at any step, its clock equal or 1 behind, its
 *               reader then reading up to its live horizon; the clock
 *               2..3, allowance 0
 *   SC_SUB      a publisher: 2 sessions, 1 transaction each (as above), 2
 *               ticks; a subscriber applying the commits in their order,
 *               whose reader reads up to the newest tick applied; the
 *               clock 1..4, allowance 1
 *   SC_TABLES   one server, table 0 guarded with an allowance of 1,
 *               table 1 with pg_uuidx_add_guard()'s guard, allowance 0
 *               (its statement trigger publishes the clock first):
 *               session 0 inserts a client's id into table 0, or into
 *               table 1 a generator's or core's uuidv7()'s (made at the
 *               clock as the statement runs, published nowhere); session
 *               1, in one transaction, a client's id into table 0, then a
 *               generator's or core's into table 1; core's id guarded
 *               at its statement's end, after a statement into another
 *               guarded table (allowance 0) or not; a reader of each
 *               table with its own allowance; the clock 1..3
 *   SC_ALLOWANCE one server whose pg_uuidx.horizon_allowance (0 or 1) is
 *               changed in the configuration file at any step; 2
 *               sessions, 1 transaction each: an id the client made
 *               earlier, through pg_uuidx_add_guard()'s guard (statement
 *               trigger, then the guard after the row) of the setting's
 *               allowance; commit or abort; a reader of the table; a
 *               restart; the clock 1..3
 *   SC_LAYOUT   one server, a library of a newer layout installed over
 *               it: 2 sessions on the newer library (register the layout
 *               at load, an id from the clock, insert, commit or abort); a
 *               reader in a session that loaded the older library before
 *               the install, whose state sees none of them; the clock
 *               1..4, allowance 1
 *   SC_IDLE     a primary: 2 sessions, 1 transaction each (an id from the
 *               clock; commit, abort, or PREPARE then COMMIT or ROLLBACK
 *               PREPARED), each raising the database's pending time before
 *               its commit or PREPARE; the ticker, which stores a tick only
 *               while the newest is not above that time and skips it
 *               otherwise, 2 ticks; a standby replaying the WAL, whose
 *               reader reads up to the newest tick replayed; the clock
 *               1..4, allowance 1
 *
 * -DMAXCLK=, -DNTX0= (session 0's transactions) and -DNTICK= raise the
 * bounds, for a longer search.
 *
 * Invariants (asserts; the message names the one broken):
 *   no_row_missed   a committed row whose id is at or below a reader's
 *                   cursor has been read by that reader
 *   no_row_twice    no logical row is committed twice, and no reader reads
 *                   one twice
 *   read_in_order   every reader reads ids in order
 *   allowance_held  (SC_TABLES) a guard refuses an id only when it is
 *                   older than the clock less its own table's allowance,
 *                   or than the state's epoch
 *   server_ids_taken (SC_TABLES) a guard never refuses an id that the
 *                   server made while the statement ran (core's uuidv7())
 *   no_row_delayed  (SC_IDLE) a tick the ticker skips would have made no
 *                   committed row readable on the standby: the rows keep
 *                   coming within a tick of their commit
 *
 * What the protocol assumes (docs/how-it-works.md): the clock is not
 * behind the floor when the server restarts (-DLIMIT_STEP_BACK_ACROSS_RESTART
 * with SC_RESTART shows why); the clock does not step back by more than the
 * allowance while a session runs a library that publishes nothing
 * (-DLIMIT_OLD_LIBRARY_STEP_BACK with SC_IDS); a promoted standby's
 * readers are those that read it as a standby.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */

/* ---------------------------------------------------------------- bounds */

#define LOW		0			/* the lowest time; a cursor before any row */
#define NS		2			/* sessions */
#define NTX1	1			/* session 1's transactions */
#define B		1			/* a reader's max_rows */

#if defined(SC_STANDBY)
#define ALLOW	0			/* the readers' allowance */
#define CLK0	2			/* the clock's start: a promoted one is 1 behind */
#define SKEW	1
#elif defined(SC_ALLOWANCE) && defined(BUG_ALLOWANCE_PER_PROCESS)
#define ALLOW	acfg		/* a reader's: the file's, as soon as it reloads */
#define GALLOW	aw			/* a writer's: the file's when its statement began */
#define CLK0	1
#elif defined(SC_ALLOWANCE)
#define ALLOW	arec		/* the value recorded in the state, for all */
#define CLK0	1
#else
#define ALLOW	1
#define CLK0	1
#endif

#ifndef MAXCLK
#if defined(SC_STANDBY) || defined(SC_GUARD) || defined(SC_TABLES) || defined(SC_ALLOWANCE)
#define MAXCLK	3
#else
#define MAXCLK	4
#endif
#endif

#ifndef NTX0
#if defined(SC_GUARD)
#define NTX0	2
#else
#define NTX0	1
#endif
#endif
#define NTX(me)	((me) == 0 -> NTX0 : NTX1)
#if defined(SC_TABLES)
#define NR		3			/* session 1 writes two rows */
#else
#define NR		(NTX0 + NTX1)	/* rows: one per transaction */
#endif

#if defined(SC_STANDBY) || defined(SC_SUB) || defined(SC_IDLE)
/*
 * These scenarios check what comes after the horizon and the ids (the WAL,
 * ticks, replay, apply, promotion): computing the horizon, making an id,
 * PREPARE, are one step each here; their steps are checked on one server
 */
#define REPLICAS	1
#define WAL		1			/* commits have a position in the WAL */
#ifndef NTICK
#if defined(SC_STANDBY)
#define NTICK	1
#else
#define NTICK	2
#endif
#endif
#endif

#if defined(SC_IDS) || defined(SC_RESTART) || defined(SC_STANDBY) || defined(SC_SUB) || defined(SC_IDLE)
#define PREPARED	1		/* transactions may be prepared */
#endif

#if defined(SC_IDLE)
#define IDLE_SKIP	1		/* the ticker skips a tick that is not needed */
#endif

#if defined(BUG_WORKER_OWN_SLOT)
#define NSL		(2 * NS)	/* a worker publishes in a slot of its own */
#else
#define NSL		NS
#endif

/* row states */
#define FREE	0
#define RUN		1			/* inserted by a transaction in progress */
#define PREP	2			/* its transaction is prepared */
#define DONE	3			/* committed */
#define GONE	4			/* rolled back, or lost */

/* a slot's field without a time */
#define NONE	255

/* the record of a prepared transaction */
#define NOREC	255			/* none */
#define NOID	254			/* "made no id" */

/* readers */
#define RP		0			/* on the primary: the live horizon */
#define RS		1			/* on the standby: ticks; promoted: live */
#define RL		2			/* on the subscriber: ticks */
#define NRD		3

#define MIN(a, b)	((a) < (b) -> (a) : (b))
#define MAX(a, b)	((a) > (b) -> (a) : (b))

/* ----------------------------------------------------------------- state */

typedef Row {
	byte		id;			/* the id's time */
	byte		msg;		/* the logical row it carries */
	byte		st;			/* FREE, RUN, PREP, DONE, GONE */
	byte		clsn;		/* its commit's position in the WAL; 0: none */
	byte		plsn;		/* its PREPARE's position (SC_STANDBY) ... */
	byte		rlsn;		/* ... and its ROLLBACK PREPARED's */
	byte		rec;		/* prepared: its record, NOREC, NOID or a time */
	byte		xid;		/* order of the xids (BUG_TRACKED_FROM only) */
#if defined(SC_TABLES)
	byte		tb;			/* its table */
#endif
};
Row			row[NR];

typedef Reader {
	byte		cur;		/* the greatest id read; the next read is above */
	bool		rd[NR];		/* rows read */
	bool		got[NR];	/* logical rows read */
};
Reader		rdr[NRD];

bool		no_row_missed = true;
bool		no_row_twice = true;
bool		read_in_order = true;
bool		allowance_held = true;
bool		server_ids_taken = true;
bool		no_row_delayed = true;

byte		clk = CLK0;		/* the clock, in real time */
bool		stepok = false;	/* the clock may step back (SC_IDS) */
bool		stepped = false;
byte		gen = 0;		/* restarts and promotions: connections lost */
bool		promoted = false;
byte		skew = 0;		/* how far the promoted server's clock is behind */

/* the shared state of the (current) primary */
byte		F = LOW;		/* the floor of the database */
bool		Fmade = false;	/* made since the state was */
byte		E = LOW;		/* the epoch: the clock at the state's first use */
#if defined(SC_ALLOWANCE)
byte		acfg = 0;		/* pg_uuidx.horizon_allowance in the file */
byte		arec = 0;		/* the value the state recorded at its first use */
#endif
bool		son[NSL];		/* the slot counts: its process still runs the
							 * transaction it was published for */
byte		slow[NSL];		/* the slot's lower time: the generators' */
byte		sgd[NSL];		/* and the guard's (NONE: none) */
bool		lib[NS];		/* the session's backend has loaded the library */
bool		old[NS];		/* it runs a library that publishes nothing here */
bool		xopen[NS];		/* its transaction is open */
#if defined(BUG_TRACKED_FROM)
byte		xids = 0;		/* the next xid */
byte		trackedfrom = 255;	/* as of 970e263: unrecorded prepared
								 * transactions with an older xid are held */
byte		sbtracked = 255;	/* the same, made by a standby session */
#endif

#if defined(WAL)
byte		wal = 0;		/* the WAL's end */
byte		rep = 0;		/* replayed by the standby */
byte		appD = 0;		/* applied by the subscription of the rows */
byte		appT = 0;		/* applied by the subscription of the ticks */
byte		tickv[NTICK];	/* pg_uuidx_last_tick after each tick */
byte		tickl[NTICK];	/* each tick's commit position */
byte		nticks = 0;
byte		stored = LOW;	/* pg_uuidx_last_tick on the primary */
#endif

#if defined(IDLE_SKIP)
byte		pend = LOW;		/* the pending time: no committed or prepared
							 * row has a later id */
#if defined(BUG_TICK_SKIP_UNPUBLISHED)
byte		pubs = 0;		/* publications, and as the newest tick read */
byte		tpubs = 0;		/* them */
#endif
#endif

hidden byte	i_;				/* scratch, within one step only */
hidden byte	k_;
hidden byte	n_;
hidden byte	c_;
hidden byte	tk_;
hidden byte	inb_;

/* the current primary's clock, and less the allowance */
#define SCLK		(clk - skew)
#define CLOCK_LESS_ALLOWANCE	(SCLK > ALLOW -> SCLK - ALLOW : LOW)
#ifndef GALLOW
#define GALLOW	ALLOW		/* the guard's allowance: its readers' */
#endif
/*
 * guard_bound(): the least id a guard of allowance A lets in, the floor
 * less A but not below the epoch (readers before a restart read up to the
 * clock then, less the allowance of then)
 */
#define FLOOR_LESS(A)	(F > (A) -> F - (A) : LOW)
#if defined(BUG_16_FLOOR_LESS_ALLOWANCE)
#define GUARD_BOUND(A)	F			/* 1.6: the floor held the allowance */
#elif defined(BUG_RESTART_RAISE_NO_EPOCH)
#define GUARD_BOUND(A)	FLOOR_LESS(A)
#else
#define GUARD_BOUND(A)	MAX(FLOOR_LESS(A), E)
#endif
/* the statement trigger's: ids are covered from the clock less A or it */
#if defined(BUG_STATEMENT_COVER_NO_EPOCH)
#define STATEMENT_BOUND(A)	FLOOR_LESS(A)
#else
#define STATEMENT_BOUND(A)	GUARD_BOUND(A)
#endif
/* whether a guard of allowance A, having read the floor, refuses id t */
#define GUARD_REFUSES_AT(t, A)	((t) < GUARD_BOUND(A))
#define GUARD_REFUSES(t)	GUARD_REFUSES_AT(t, GALLOW)

/* whether reader r sees row k */
#if defined(WAL)
#define COMMITTED_AT(k, p)	(row[k].clsn != 0 && row[k].clsn <= (p))
#define VIS(r, k)	((r) == RP -> row[k].st == DONE : \
					 ((r) == RS -> (promoted -> row[k].st == DONE : COMMITTED_AT(k, rep)) : \
					  COMMITTED_AT(k, appD)))
#elif defined(SC_TABLES)
#define VIS(r, k)	(row[k].st == DONE && row[k].tb == (r))	/* reader r reads table r */
#else
#define VIS(r, k)	(row[k].st == DONE)
#endif

#if defined(SC_GUARD)
#define GUARDED	1			/* session 0's ids are made by the client */
#else
#define GUARDED	0
#endif

/* ------------------------------------------------------------ invariants */

/*
 * no_row_missed, for every reader; inside a step that shows rows to a
 * reader or moves its cursor (a missed row stays missed)
 */
inline check_missed()
{
	for (c_ : 0 .. NRD - 1) {
		for (k_ : 0 .. NR - 1) {
			if
			:: VIS(c_, k_) && row[k_].id <= rdr[c_].cur && !rdr[c_].rd[k_] ->
				no_row_missed = false
			:: else -> skip
			fi
		}
	};
	c_ = 0;
	k_ = 0;
	assert(no_row_missed)
}

/* ------------------------------------------------------------- the floor */

/* the newest tick committed at or before WAL position p, into tk_ */
inline newest_tick(p)
{
	tk_ = LOW;
#if defined(WAL)
	for (i_ : 0 .. NTICK - 1) {
		if
		:: i_ < nticks && tickl[i_] <= (p) -> tk_ = tickv[i_]
		:: else -> skip
		fi
	};
	i_ = 0
#endif
}

/*
 * floor_start: the floor is made at the state's first use after a start, a
 * restart or a promotion, at the higher of the clock and the newest tick
 */
inline floor_start()
{
	if
	:: !Fmade ->
#if defined(WAL)
		if
		:: promoted -> newest_tick(rep)
		:: else -> newest_tick(wal)
		fi;
#endif
#if defined(BUG_ROW1_RESTART_FORGETS_FLOOR)
		F = LOW;				/* until a reader raises it */
		E = LOW;				/* no epoch either */
#elif defined(BUG_ROW2_NO_TICK_IN_FLOOR)
		F = SCLK;
		E = SCLK;
#else
		F = MAX(SCLK, tk_);
		E = SCLK;
#endif
#if defined(IDLE_SKIP)
		/* rows from before have ids below it */
		pend = MAX(pend, F);
#endif
		tk_ = 0;
		Fmade = true;
#if defined(SC_ALLOWANCE)
		/* horizon_allowance(): the setting, recorded once for the state */
		arec = acfg;
		printf("MSC: allowance %d recorded\n", arec);
#endif
#if defined(BUG_TRACKED_FROM)
		if
		:: trackedfrom == 255 -> trackedfrom = xids
		:: else -> skip
		fi;
#endif
		printf("MSC: floor made at %d\n", F)
	:: else -> skip
	fi
}

/* --------------------------------------------------------- the horizon */

/*
 * raise_floor: the floor raised to the clock; the horizon starts at it
 * less the reader's allowance A
 */
inline raise_floor_by(H, A)
{
	floor_start();
	F = MAX(SCLK, F);
	H = (F > (A) -> F - (A) : LOW)
}
#define raise_floor(H)	raise_floor_by(H, ALLOW)

/*
 * scan_slots: the least of the slots that count, the generators' times and,
 * for a reader of guarded tables (guarded), the guard's
 */
inline scan_slots_of(H, guarded)
{
	for (i_ : 0 .. NSL - 1) {
		if
		:: son[i_] && (guarded) -> H = MIN(H, MIN(slow[i_], sgd[i_]))
		:: son[i_] && !(guarded) -> H = MIN(H, slow[i_])
		:: else -> skip
		fi
	};
	i_ = 0
}
#define scan_slots(H)	scan_slots_of(H, true)

/*
 * scan_old_sessions: sessions on a library that publishes nothing in this
 * state hold the horizon at its lowest while they have a transaction open
 */
inline scan_old_sessions(H)
{
#if !defined(BUG_OLD_LIBRARY_NOT_HELD)
	for (i_ : 0 .. NS - 1) {
		if
		:: old[i_] && xopen[i_] -> H = LOW
		:: else -> skip
		fi
	};
	i_ = 0
#else
	skip						/* none is held */
#endif
}

/*
 * scan_prepared: the prepared transactions of the database, at their
 * record's time; one with no record at the lowest
 */
inline scan_prepared(H)
{
	for (i_ : 0 .. NR - 1) {
		if
		:: row[i_].st == PREP ->
			if
			:: row[i_].rec == NOREC ->
#if defined(BUG_TRACKED_FROM)
				if
				:: row[i_].xid < trackedfrom -> H = LOW
				:: else -> skip
				fi
#else
				H = LOW
#endif
			:: row[i_].rec == NOID -> skip
			:: else -> H = MIN(H, row[i_].rec)
			fi
		:: else -> skip
		fi
	};
	i_ = 0
}

/* ------------------------------------------------------------ reading */

/* one row to reader r: no_row_twice, read_in_order */
inline deliver(r, k)
{
	printf("MSC: reader %d reads id %d (horizon %d)\n", r, row[k].id, H);
	if
	:: rdr[r].got[row[k].msg] -> no_row_twice = false
	:: else -> skip
	fi;
	if
	:: row[k].id < rdr[r].cur -> read_in_order = false
	:: else -> skip
	fi;
	rdr[r].got[row[k].msg] = true;
	rdr[r].rd[k] = true;
	rdr[r].cur = row[k].id;
	inb_ = inb_ | (1 << k)
}

/*
 * read_rows: one snapshot; the rows above the cursor and below H in id
 * order, B of them and every further row equal to the last (WITH TIES)
 */
inline read_rows(r, H)
{
	c_ = rdr[r].cur;
	inb_ = 0;
	n_ = 0;
	do
	:: n_ < B ->
		tk_ = 255;
		for (i_ : 0 .. NR - 1) {
			if
			:: VIS(r, i_) && row[i_].id > c_ && row[i_].id < H && (inb_ & (1 << i_)) == 0 &&
			   (tk_ == 255 || row[i_].id < row[tk_].id) -> tk_ = i_
			:: else -> skip
			fi
		};
		if
		:: tk_ == 255 -> break
		:: else -> deliver(r, tk_); n_++
		fi
	:: else -> break
	od;
#if !defined(BUG_ROW8_BATCH_SPLITS_EQUAL_IDS)
	if
	:: n_ > 0 ->
		for (i_ : 0 .. NR - 1) {
			if
			:: VIS(r, i_) && row[i_].id == rdr[r].cur && (inb_ & (1 << i_)) == 0 ->
				deliver(r, i_)
			:: else -> skip
			fi
		}
	:: else -> skip
	fi;
#endif
	i_ = 0;
	n_ = 0;
	tk_ = 0;
	inb_ = 0;
	assert(no_row_twice);
	assert(read_in_order);
	check_missed();
	H = 0
}

/* ------------------------------------------------ steps of a transaction */

/*
 * Each inline below is the body of one step (a d_step): a session's steps
 * are these, and nothing else happens in it between them.
 */

/*
 * publish in slot s, the generators' field: the first time for a
 * transaction sets it (the guard's then has none), later ones lower it
 */
inline publish(s, lower)
{
	if
	:: son[s] -> slow[s] = MIN(slow[s], lower)
	:: else -> slow[s] = lower; sgd[s] = NONE; son[s] = true
	fi;
#if defined(BUG_TICK_SKIP_UNPUBLISHED)
	pubs++;
#endif
	skip
}

/* the same, the guard's field */
inline publish_guard(s, time)
{
	if
	:: son[s] -> sgd[s] = MIN(sgd[s], time)
	:: else -> sgd[s] = time; slow[s] = NONE; son[s] = true
	fi
}

inline insert(k, t)
{
	row[k].id = t;
	row[k].st = RUN;
	row[k].msg = msg;
#if defined(BUG_TRACKED_FROM)
	row[k].xid = xids;
	xids++;
#endif
	msg = 0
}

/*
 * A generator's id (horizon_clock()).  gen_publish: the transaction's
 * first id reads the clock and the floor and publishes the higher;
 * gen_read_floor: the floor again, after it; the id is the higher.
 */
inline gen_publish(k)
{
	lib[me] = true;
	floor_start();
	lower = MAX(SCLK, F);
	publish(me, lower);
	printf("MSC: session %d publishes %d\n", me, lower)
}

inline gen_read_floor(k)
{
#if defined(BUG_ID_BEFORE_PUBLISH)
	/* t: made from the clock before the slot was published */
#else
	t = MAX(lower, F);
#endif
	xl = MAX(lower, F);
	insert(k, t);
	printf("MSC: session %d reads the floor %d, inserts id %d\n", me, F, t);
	lower = 0;
	t = 0
}

/*
 * An id made by a parallel worker for its leader, whose backend has
 * loaded the library only if it used pg_uuidx itself: the worker publishes
 * in the leader's slot, for the leader's transaction.
 */
inline worker_publish(k)
{
	floor_start();
	lower = MAX(SCLK, F);
#if defined(BUG_WORKER_OWN_SLOT)
	/* 1.5 before 3ae05fa: in its own slot, cleared when it exits */
	publish(NS + me, lower);
#else
	publish(me, lower);
#endif
	printf("MSC: a worker of session %d publishes %d\n", me, lower)
}

inline worker_read_floor(k)
{
	t = MAX(lower, F);
#if defined(BUG_WORKER_OWN_SLOT)
	son[NS + me] = false;
#endif
	insert(k, t);
	printf("MSC: the worker reads the floor %d, exits; session %d inserts id %d\n", F, me, t);
	lower = 0;
	t = 0
}

/*
 * A session on a library that publishes nothing in this state (from
 * before 1.5, or one of another layout once this one is installed without a
 * restart): its transaction is open, its id is the clock
 */
inline old_library_id(k)
{
	xopen[me] = true;
	insert(k, SCLK);
	printf("MSC: session %d (older library) inserts id %d, publishes nothing\n", me, SCLK)
}

/*
 * The guard (horizon_cover()) for an id t made earlier.  guard_publish:
 * nothing when the transaction's ids are covered from at or below t
 * already (xl: the generators', xd: the guard's; 0 while none is
 * published); else t's time, in the slot's field for the guard.
 * guard_read_floor, of a guard of allowance A: the floor after it; t
 * refused below guard_bound() (GUARD_REFUSES_AT).
 */
inline guard_publish(k)
{
	lib[me] = true;
	floor_start();
	if
	:: (xl != 0 && t >= xl) || (xd != 0 && t >= xd) ->
		lower = 0;
		printf("MSC: session %d guard: id %d covered already\n", me, t)
	:: else ->
		lower = t;
		publish_guard(me, t);
		printf("MSC: session %d guard publishes %d\n", me, t)
	fi
}

inline guard_read_floor(k, A)
{
	if
	:: lower == 0 -> insert(k, t)
	:: else ->
		xd = (xd != 0 -> MIN(xd, MAX(t, F)) : MAX(t, F));
		if
		:: !GUARD_REFUSES_AT(t, A) ->
			insert(k, t);
			printf("MSC: session %d guard reads the floor %d, inserts id %d\n", me, F, t)
		:: else ->
			printf("MSC: session %d guard reads the floor %d, refuses id %d\n", me, F, t)
		fi
	fi;
	lower = 0;
	t = 0;
	msg = 0
}

/*
 * The statement trigger of a guard of allowance A (horizon_cover_from_clock(),
 * BEFORE ... FOR EACH STATEMENT, as pg_uuidx_add_guard() declares it).
 * stmt_publish: the clock less A, in the slot's field for the guard;
 * stmt_read_floor: the floor after it; the guard after the row takes ids
 * from the higher of that time and the bound at that floor (xst) as
 * covered for the rest of the transaction
 */
inline stmt_publish(A)
{
	lib[me] = true;
	floor_start();
	lower = (SCLK > (A) -> SCLK - (A) : LOW);
	publish_guard(me, lower);
	printf("MSC: session %d statement trigger publishes %d\n", me, lower)
}

inline stmt_read_floor(A)
{
#if defined(BUG_STATEMENT_COVER_RAISED)
	/* c3384f6: each statement's start replaced the cover of the last */
	xst = MAX(lower, STATEMENT_BOUND(A));
#else
	/* the lowest cover of the transaction's statements stands */
	xst = MIN(xst, MAX(lower, STATEMENT_BOUND(A)));
#endif
	printf("MSC: session %d reads the floor %d: ids from %d covered\n", me, F, xst);
	lower = 0
}

/*
 * The guard after the row for id t, after its statement trigger: nothing
 * when t is covered from the statement's start, else guard_publish
 */
inline row_guard_publish(k)
{
	if
	:: t >= xst ->
		lower = 0;
		printf("MSC: session %d guard: id %d covered from the statement's start\n", me, t)
	:: else -> guard_publish(k)
	fi
}

/*
 * The guard's read_floor for a re-sent id: not refused when its row
 * exists (which ON CONFLICT DO NOTHING then leaves as it is)
 */
inline resend_read_floor(k)
{
	/* n_: a committed row of logical row msg has id t */
	n_ = 0;
	for (i_ : 0 .. NR - 1) {
		if
		:: row[i_].st == DONE && row[i_].msg == msg && row[i_].id == t -> n_ = 1
		:: else -> skip
		fi
	};
	i_ = 0;
	if
#if !defined(BUG_ROW15_RESEND_REFUSED)
	:: n_ == 1 ->
		printf("MSC: session %d guard: id %d re-sent, its row exists\n", me, t)
#endif
	:: GUARD_REFUSES(t) ->
		refused = true;
		printf("MSC: session %d guard reads the floor %d, refuses id %d\n", me, F, t)
	:: else ->
		if
		:: n_ == 1 -> printf("MSC: id %d exists: ON CONFLICT DO NOTHING\n", t)
		:: else -> insert(k, t); printf("MSC: session %d inserts id %d\n", me, t)
		fi
	fi;
	n_ = 0;
	lower = 0;
	t = 0;
	msg = 0
}

/* no_row_twice: row k, just committed, is the only one of its logical row */
inline check_twice(k)
{
	for (k_ : 0 .. NR - 1) {
		if
		:: k_ != k && row[k_].st == DONE && row[k_].msg == row[k].msg -> no_row_twice = false
		:: else -> skip
		fi
	};
	k_ = 0;
	assert(no_row_twice)
}

/*
 * commit: the commit becomes visible and the slot stops counting at once
 * (ProcArrayEndTransaction() clears the transaction's local id)
 */
inline commit(k)
{
	son[me] = false;
	xopen[me] = false;
	row[k].st = DONE;
#if defined(WAL)
	wal++;
	row[k].clsn = wal;
#endif
	printf("MSC: session %d commits id %d\n", me, row[k].id);
	check_twice(k);
	check_missed()
}

inline abort(k)
{
	son[me] = false;
	xopen[me] = false;
	if
	:: row[k].st == RUN -> row[k].st = GONE
	:: else -> skip
	fi
}

/*
 * pre_commit: before its commit or PREPARE, a transaction that published
 * raises the pending time to the clock, which none of its generators' ids
 * is above
 */
inline pre_commit()
{
#if defined(IDLE_SKIP)
	pend = MAX(pend, SCLK);
	printf("MSC: session %d raises the pending time to %d\n", me, pend)
#else
	skip
#endif
}

/*
 * pre_prepare: a backend with the library records the prepared
 * transaction's lower time, or that it made no id
 */
inline pre_prepare(k)
{
	pre_commit();
#if defined(BUG_TRACKED_FROM)
	/* as of 970e263: a record only where the slot holds a time */
	row[k].rec = (lib[me] && !old[me] && son[me] -> MIN(slow[me], sgd[me]) : NOREC)
#else
	row[k].rec = (lib[me] && !old[me] -> (son[me] -> MIN(slow[me], sgd[me]) : NOID) : NOREC)
#endif
}

/* PREPARE TRANSACTION: the backend no longer runs the transaction */
inline prepare(k)
{
	row[k].st = PREP;
#if defined(SC_STANDBY)
	wal++;
	row[k].plsn = wal;
#endif
	son[me] = false;
	xopen[me] = false;
	printf("MSC: session %d prepares id %d (record %d)\n", me, row[k].id, row[k].rec)
}

inline commit_prepared(k)
{
	row[k].st = DONE;
#if defined(WAL)
	wal++;
	row[k].clsn = wal;
#endif
	printf("MSC: COMMIT PREPARED of id %d\n", row[k].id);
	check_twice(k);
	check_missed()
}

inline rollback_prepared(k)
{
	row[k].st = GONE;
#if defined(SC_STANDBY)
	wal++;
	row[k].rlsn = wal;
#endif
	printf("MSC: ROLLBACK PREPARED of id %d\n", row[k].id)
}

/* --------------------------------------------------------------- sessions */

/* the client picks an id it made earlier, any time up to the clock (up
 * to 4), in the first step (options of an if) */
#define PICK(stepbody) \
	:: d_step { SCLK >= 1; t = 1; stepbody } \
	:: d_step { SCLK >= 2; t = 2; stepbody } \
	:: d_step { SCLK >= 3; t = 3; stepbody } \
	:: d_step { SCLK >= 4; t = 4; stepbody }

#if !defined(SC_TABLES) && !defined(SC_LAYOUT) && !defined(SC_ALLOWANCE)

/* what a transaction kept, forgotten when it is over */
inline forget()
{
	lower = 0;
	xl = 0;
	xd = 0;
	t = 0;
	msg = 0
}

proctype session(byte me)
{
	byte		j;			/* the transaction */
	byte		k;			/* its row */
	byte		msg;		/* the logical row it writes */
	byte		lower;
	byte		xl;			/* the generators' ids are covered from xl */
	byte		xd;			/* the guard's from xd (0: none yet) */
	byte		t;
	byte		mygen;
	bool		refused;
	bool		sent;		/* the client sent this id ... */
	byte		cid;
	byte		cmsg;		/* ... for this logical row, no reply yet */

	k = (me == 0 -> 0 : NTX0);
end:
	do
	:: j < NTX(me) ->
		/* a restart or a promotion ends the connection at any step */
		{
			if
#if defined(SC_IDS) || defined(SC_RESTART) || defined(SC_STANDBY) || defined(SC_SUB) || defined(SC_GUARD) || defined(SC_IDLE)
			:: d_step {
					!old[me] && (me == 1 || !GUARDED);
					msg = k;
#if defined(BUG_ID_BEFORE_PUBLISH)
					t = SCLK;
					printf("MSC: session %d makes id %d\n", me, t)
				}
				d_step {
#endif
					gen_publish(k)
#if defined(REPLICAS)
					; gen_read_floor(k)
				}
#else
				}
				d_step { gen_read_floor(k) }
#endif
#endif
#if defined(SC_IDS) || defined(SC_RESTART)
			:: d_step {
					!old[me];
					msg = k;
					worker_publish(k)
				}
				d_step { worker_read_floor(k) }
#endif
#if defined(SC_IDS)
			:: d_step {
					old[me];
					msg = k;
					old_library_id(k)
				}
#endif
#if defined(SC_GUARD)
			/* uuidv7() first, then an id the client made earlier */
			:: d_step { me == 1; msg = k; gen_publish(k) }
				d_step {
					xl = MAX(lower, F);
					printf("MSC: session %d reads the floor %d: its ids from %d\n", me, F, xl);
					lower = 0
				}
				if
				PICK(msg = k; guard_publish(k))
				fi;
				d_step { guard_read_floor(k, GALLOW) }
			:: me == 0 ->
				if
				PICK(msg = k; sent = true; cid = t; cmsg = k; guard_publish(k))
				fi;
				d_step { guard_read_floor(k, GALLOW) }
			:: d_step {
					sent && me == 0;
					/* the reply to the last one was lost: sent again */
					msg = cmsg;
					t = cid;
					guard_publish(k)
				}
				d_step { resend_read_floor(k) }
				if
				:: d_step {
						refused;
						/* 40001: retried with a new id, as the hint says */
						refused = false;
						abort(k);
						xl = 0;
						xd = 0;
						t = SCLK;
						cid = t;
						msg = cmsg;
						guard_publish(k)
					}
					d_step { guard_read_floor(k, GALLOW) }
				:: d_step { !refused }
				fi
#if defined(BUG_ROW5_GENERATED_COLUMN) || defined(BUG_ROW6_UNGUARDED_WRITE) || defined(BUG_ROW13_UNCOVERED_RELATION)
			/*
			 * Row 5: the guard saw the NULL of a generated column; row
			 * 6: it did not fire (an UPDATE that moves the id back, an
			 * inheritance child); row 13: a materialized view's
			 * refresh, a foreign table.  The row comes in with the
			 * commit, published nowhere.
			 */
			:: me == 0 ->
				if
				PICK(msg = k; insert(k, t); printf("MSC: session %d writes id %d unguarded\n", me, t); t = 0)
				fi
#elif defined(BUG_ROW7_ATTACH_FILLED)
			/* ATTACH PARTITION (or INHERIT) of a filled table */
			:: me == 0 ->
				if
				PICK(msg = k; insert(k, t); row[k].st = DONE; printf("MSC: a row of id %d attached\n", t); t = 0; check_missed())
				fi
#endif
#endif
			fi;
			/* the transaction's end */
			if
			/* the client's reply lost (then it sends the id again), or not */
			:: d_step { row[k].st == RUN && sent && j + 1 < NTX(me); commit(k) }
#if defined(IDLE_SKIP)
			/* its rows become visible after pre_commit, not with it */
			:: d_step { row[k].st == RUN; pre_commit() }
				d_step { commit(k); sent = false }
#else
			:: d_step { row[k].st == RUN; commit(k); sent = false }
#endif
			:: d_step { abort(k); sent = false }
#if defined(PREPARED)
#if defined(REPLICAS)
			:: d_step { row[k].st == RUN; pre_prepare(k); prepare(k) }
#else
			:: d_step { row[k].st == RUN; pre_prepare(k) }
				d_step { prepare(k) }
#endif
				if
				:: d_step { commit_prepared(k) }
				:: d_step { rollback_prepared(k) }
				fi
#endif
			fi
		} unless { mygen != gen };
		/* the next transaction; after a restart or a promotion, on a new
		 * connection, from which a transaction left prepared, in doubt,
		 * is ended */
		if
		:: d_step { mygen == gen; forget(); j++; k++ }
		/* a transaction that had written nothing is done again */
		:: d_step { mygen != gen && row[k].st == FREE; mygen = gen; forget() }
		:: d_step { mygen != gen && (row[k].st == DONE || row[k].st == GONE); mygen = gen; forget(); j++; k++ }
		:: d_step { mygen != gen && row[k].st == PREP; mygen = gen; commit_prepared(k); forget(); j++; k++ }
		:: d_step { mygen != gen && row[k].st == PREP; mygen = gen; rollback_prepared(k); forget(); j++; k++ }
		fi
	od
}

init {
	atomic {
#if defined(SC_IDS)
		/* session 1 may have started before the library was installed;
		 * if not, the clock may step back */
		if
		:: old[1] = true
		:: stepok = true
		fi;
#endif
		run session(0);
		run session(1)
	}
}
#endif

/* ---------------------------------------------------------------- servers */

active proctype clock()
{
end:
	do
	:: d_step { clk < MAXCLK; clk++; printf("MSC: clock %d\n", clk) }
#if defined(SC_IDS) || defined(LIMIT_STEP_BACK_ACROSS_RESTART)
	/*
	 * Back by more than the allowance, once, on a running server where no
	 * session runs a library that publishes nothing (such a session makes
	 * ids from the clock, below the floor: LIMIT_OLD_LIBRARY_STEP_BACK
	 * shows it)
	 */
	:: d_step {
#if !defined(LIMIT_OLD_LIBRARY_STEP_BACK) && !defined(LIMIT_STEP_BACK_ACROSS_RESTART)
			stepok &&
#endif
			!stepped && clk > 2 && Fmade;
			clk = clk - 2;
			stepped = true;
			printf("MSC: clock stepped back to %d\n", clk)
		}
#endif
	od
}

#if defined(SC_RESTART) || defined(SC_GUARD) || defined(SC_ALLOWANCE)
/*
 * A restart or a crash: shared memory lost, prepared transactions kept.
 * The clock is not behind the floor then: the floor is made again from
 * it, so a clock stepped back by more than the allowance across a restart
 * makes ids below what readers have read (LIMIT_STEP_BACK_ACROSS_RESTART
 * shows it).
 */
active proctype restart()
{
	d_step {
#if !defined(LIMIT_STEP_BACK_ACROSS_RESTART)
		SCLK >= F;
#endif
		printf("MSC: restart\n");
		gen++;
		for (i_ : 0 .. NR - 1) {
			if
			:: row[i_].st == RUN -> row[i_].st = GONE
			:: row[i_].st == PREP -> row[i_].rec = NOREC
			:: else -> skip
			fi
		};
		for (i_ : 0 .. NSL - 1) {
			son[i_] = false;
			slow[i_] = 0;
			sgd[i_] = 0
		};
		for (i_ : 0 .. NS - 1) {
			lib[i_] = false;
			old[i_] = false;
			xopen[i_] = false
		};
		i_ = 0;
		F = LOW;
		Fmade = false;
		E = LOW;
#if defined(SC_ALLOWANCE)
		arec = 0;				/* recorded again at the next first use */
#endif
#if defined(BUG_TRACKED_FROM)
		trackedfrom = 255
#endif
	}
}
#endif

#if defined(SC_IDS) || defined(SC_RESTART) || defined(SC_GUARD) || defined(SC_ALLOWANCE)
/*
 * The reader on the primary, pg_uuidx_read_after() in a loop: the live
 * horizon (horizon_compute()) in three steps, then the rows
 */
active proctype reader()
{
	byte		H;
	byte		mygen;

end:
	do
	:: {
			d_step { raise_floor(H) }
			d_step { scan_slots(H) }
			d_step { scan_old_sessions(H); scan_prepared(H) }
			d_step { read_rows(RP, H) }
		} unless { d_step { mygen != gen; mygen = gen; H = 0 } }
	od
}
#endif

#if defined(WAL)
/*
 * store_tick: pg_uuidx_last_tick keeps the greater of its horizon and H,
 * and the tick's transaction commits (a position in the WAL)
 */
inline store_tick(H)
{
	stored = MAX(stored, H);
	wal++;
	tickv[nticks] = stored;
	tickl[nticks] = wal;
	nticks++;
	H = 0;
	printf("MSC: tick %d\n", stored)
}

#if defined(IDLE_SKIP)
#if defined(BUG_TICK_SKIP_UNPUBLISHED)
/* a tick when something was published since the last one: too little */
#define TICK_NEEDED	(nticks == 0 || pubs != tpubs)
#else
/* tick_skip: a tick while the newest is not above the pending time */
#define TICK_NEEDED	(stored <= pend)
#endif

/*
 * A skipped tick: no_row_delayed, the tick it would have stored (the
 * horizon without raising the floor, kept above the stored one) shows no
 * committed row that the stored one does not
 */
inline tick_skip()
{
	H = MAX(SCLK, F);
	H = (H > ALLOW -> H - ALLOW : LOW);
	scan_slots(H);
	scan_old_sessions(H);
	scan_prepared(H);
	for (k_ : 0 .. NR - 1) {
		if
		:: row[k_].st == DONE && row[k_].id >= stored && row[k_].id < H -> no_row_delayed = false
		:: else -> skip
		fi
	};
	k_ = 0;
	H = 0;
	assert(no_row_delayed)
}
#endif

/*
 * pg_uuidx_tick() on the primary: the horizon in one step (its steps are
 * the reader's, checked on one server), then its commit; the ticker's tick
 * only when needed
 */
active proctype ticker()
{
	byte		H;

end:
	do
#if defined(IDLE_SKIP)
	:: d_step { nticks < NTICK && !TICK_NEEDED; tick_skip() }
#endif
	:: d_step {
#if defined(IDLE_SKIP)
			nticks < NTICK && !promoted && TICK_NEEDED;
#if defined(BUG_TICK_SKIP_UNPUBLISHED)
			tpubs = pubs;
#endif
#else
			nticks < NTICK && !promoted;
#endif
			raise_floor(H);
			scan_slots(H);
			scan_old_sessions(H);
			scan_prepared(H)
		}
#if defined(BUG_ROW12_TICK_ANY_VALUE)
		/* the caller writes a value: any, the greatest kept */
		if
		:: d_step { !promoted; H = stored }
		:: d_step { !promoted; H = MAXCLK }
		fi;
#endif
		if
		:: d_step { !promoted; store_tick(H) }
		:: d_step { promoted; H = 0 }
		fi
	od
}
#endif

#if defined(SC_STANDBY) || defined(SC_IDLE)
/* the standby replays the WAL in order */
active proctype replay()
{
end:
	do
	:: d_step {
			!promoted && rep < wal;
			rep++;
			check_missed()
		}
	od
}

#if defined(BUG_TRACKED_FROM)
/* a session on the standby calls uuidv7() during recovery: its state is made */
active proctype standby_session()
{
	d_step {
		!promoted;
		sbtracked = xids
	}
}
#endif

#if defined(SC_STANDBY)
/*
 * Promotion: what the standby replayed is the new primary's, its prepared
 * transactions in doubt with no record; the rest of the old primary's WAL
 * is lost; the new primary's clock is equal or behind
 */
inline promote_body()
{
	printf("MSC: promotion, the clock %d behind\n", skew);
	promoted = true;
	gen++;
	for (i_ : 0 .. NR - 1) {
		if
		:: COMMITTED_AT(i_, rep) -> row[i_].st = DONE
		:: !COMMITTED_AT(i_, rep) && row[i_].plsn != 0 && row[i_].plsn <= rep &&
		   (row[i_].rlsn == 0 || row[i_].rlsn > rep) ->
			row[i_].st = PREP;
			row[i_].rec = NOREC;
			row[i_].clsn = 0
		:: else ->
			if
			:: row[i_].st != FREE -> row[i_].st = GONE
			:: else -> skip
			fi;
			row[i_].clsn = 0
		fi
	};
	for (i_ : 0 .. NSL - 1) {
		son[i_] = false;
		slow[i_] = 0;
		sgd[i_] = 0
	};
	for (i_ : 0 .. NS - 1) {
		lib[i_] = false;
		xopen[i_] = false
	};
	i_ = 0;
	wal = rep;
	F = LOW;
	Fmade = false;
	E = LOW;
#if defined(BUG_TRACKED_FROM)
	trackedfrom = sbtracked
#endif
}

active proctype promote()
{
	if
	:: d_step { promote_body() }
	:: d_step { skew = SKEW; promote_body() }
	fi
}
#endif

/* the standby's reader: up to the newest tick replayed; promoted, live */
active proctype standby_reader()
{
	byte		H;

end:
	do
	:: d_step {
			!promoted;
			newest_tick(rep);
			H = tk_;
			tk_ = 0
		}
		d_step { read_rows(RS, H) }
	:: d_step {
			promoted;
			raise_floor(H);
			scan_slots(H);
			scan_old_sessions(H);
			scan_prepared(H)
		}
		d_step { read_rows(RS, H) }
	od
}
#endif

#if defined(SC_SUB)
/* the subscription applies the publisher's commits in their order */
active proctype apply()
{
end:
	do
#if defined(BUG_ROW10_TWO_SUBSCRIPTIONS)
	/* the ticks and the rows in two subscriptions, each at its pace */
	:: d_step { appD < wal; appD++; check_missed() }
	:: d_step { appT < wal; appT++ }
#else
	:: d_step {
			appD < wal;
			appD++;
			appT = appD;
			check_missed()
		}
#endif
	od
}

/*
 * The subscriber's reader: of the subscribed table, of a partition of it,
 * or a session still running the library from before the update
 */
active proctype subscriber_reader()
{
	byte		H;

end:
	do
	:: d_step {
			newest_tick(appT);
			H = tk_;
			tk_ = 0;
			read_rows(RL, H)
		}
#if defined(BUG_ROW9_PARTITION_LIVE_HORIZON)
	/* of a partition: its parent's subscription not seen, the
	 * subscriber's own horizon, the clock less the allowance (no session
	 * makes ids there) */
	:: d_step {
			H = CLOCK_LESS_ALLOWANCE;
			read_rows(RL, H)
		}
#endif
#if defined(BUG_ROW11_OLD_LIBRARY_READER)
	/* on 1.5's library, which knows no ticks: its own horizon */
	:: d_step {
			H = CLOCK_LESS_ALLOWANCE;
			read_rows(RL, H)
		}
#endif
	od
}
#endif

/* ------------------------------------- tables with allowances of their own */

#if defined(SC_TABLES)
/*
 * Every table read has a guard (CheckCoveredRelation() in read_after.c
 * refuses to read one without).  Table 0's guard, before the row, allows
 * ids made 1 before their insert (GALLOW); table 1's is the one
 * pg_uuidx_add_guard() declares, of allowance 0, whose statement trigger
 * publishes the clock before the statement's rows are written.  Reader RP
 * reads table 0, reader RS table 1, each with the allowance of its
 * table's guard.  Session 0 inserts into table 0 an id the client made
 * earlier, or into table 1 one of the generators' or one that core's
 * uuidv7() makes as the row is written; session 1, in one transaction,
 * inserts into table 0 an id the client made earlier, then into table 1 a
 * generator's or core's.
 */
#if defined(BUG_READ_UNGUARDED) || defined(BUG_ONE_COVERED_FROM)
/*
 * 7514951's rule: table 1 has no guard and is read up to the clock, held
 * by the slots' generator times only (its ids were taken to come from
 * pg_uuidx's generators)
 */
#define UNGUARDED_1	1
#endif
#if !defined(BUG_ONE_COVERED_FROM)
/*
 * core's uuidv7() makes ids for table 1.  BUG_ONE_COVERED_FROM breaks
 * only a reader that reads the generators' times alone: it runs with
 * 7514951's rule, under which only the generators' ids went into table 1
 */
#define CORE_IDS	1
#endif

/* a generator's id into row k: published, unless covered already */
inline table_gen_publish(k)
{
#if defined(BUG_ONE_COVERED_FROM)
	/* one "covered from" for both: the guard's taken for the generators' */
	if
	:: xd != 0 && xl == 0 -> xl = xd
	:: else -> skip
	fi;
#endif
	if
	:: xl != 0 ->
		t = MAX(SCLK, xl);
		insert(k, t);
		printf("MSC: session %d inserts id %d, covered already\n", me, t);
		t = 0
	:: else -> gen_publish(k)
	fi
}

inline table_gen_read_floor(k)
{
	if
	:: row[k].st == RUN -> skip
	:: else -> gen_read_floor(k)
	fi
}

/*
 * core_id: core's uuidv7() as the column's default makes the row's id at
 * the clock, after the statement trigger, publishing nothing.  The guard
 * after the row (horizon_cover()) then takes it as covered from the
 * statement's start, or publishes and checks it as any id made earlier
 */
inline core_id(k)
{
	t = SCLK;
	printf("MSC: session %d: core's uuidv7() makes id %d\n", me, t);
#if defined(UNGUARDED_1)
	insert(k, t);
	t = 0
#else
	skip
#endif
}

/* server_ids_taken: a server-made id is never refused */
inline core_guard_read_floor(k)
{
	guard_read_floor(k, 0);
	server_ids_taken = (row[k].st == RUN);
	assert(server_ids_taken)
}

/* an id for table 1 into row k, a generator's or core's */
inline table1_insert(k)
{
#if !defined(UNGUARDED_1) && !defined(BUG_NO_STATEMENT_PUBLISH)
	d_step { row[k].tb = 1; stmt_publish(0) }
	d_step { stmt_read_floor(0) }
#endif
	if
	:: d_step { row[k].tb = 1; msg = k; table_gen_publish(k) }
		d_step { table_gen_read_floor(k) }
#if defined(CORE_IDS)
	:: d_step { row[k].tb = 1; msg = k; core_id(k) }
#if !defined(UNGUARDED_1)
		/*
		 * the guard covers the row at its statement's end, after a trigger
		 * of the row may have run a statement into another guarded table
		 * (of allowance 0), whose statement trigger publishes the clock then
		 */
		if
		:: skip
		:: d_step { stmt_publish(0) }
			d_step { stmt_read_floor(0) }
		fi;
		d_step { row_guard_publish(k) }
		d_step { core_guard_read_floor(k) }
#endif
#endif
	fi
}

/*
 * a client's id into table 0, row k: refused only when older than the
 * guard's allowance or than the state's epoch (allowance_held)
 */
inline table0_insert(k)
{
	if
	PICK(row[k].tb = 0; msg = k; guard_publish(k))
	fi;
	d_step {
		allowance_held = (lower == 0 || !GUARD_REFUSES(t) || t + GALLOW < clk || t < E);
		assert(allowance_held);
		guard_read_floor(k, GALLOW)
	}
}

/* commit: both rows of the transaction become visible, the slot stops counting */
inline table_commit(k0, k1)
{
	son[me] = false;
	if
	:: row[k0].st == RUN -> row[k0].st = DONE
	:: else -> skip
	fi;
	if
	:: row[k1].st == RUN -> row[k1].st = DONE
	:: else -> skip
	fi;
	printf("MSC: session %d commits\n", me);
	check_missed()
}

proctype table_session(byte me)
{
	byte		lower;
	byte		xl;
	byte		xd;
	byte		xst = NONE;	/* the statement covers ids from xst */
	byte		t;
	byte		msg;

	if
	:: me == 0 -> table0_insert(0)
	:: me == 0 -> table1_insert(0)
	:: me == 1 ->
		table0_insert(1);
		table1_insert(2)
	fi;
	if
	:: d_step { table_commit(0 + me, 2 * me) }
	:: d_step { son[me] = false }
	fi
}

/* RP: table 0, with its guard's allowance; RS: table 1, with its guard's, 0 */
proctype table_reader(byte r)
{
	byte		H;

end:
	do
	:: d_step {
#if defined(BUG_16_FLOOR_LESS_ALLOWANCE)
			/* 1.6: the floor raised to the clock less the reader's allowance */
			floor_start();
			F = MAX(F, (r == RP -> CLOCK_LESS_ALLOWANCE : SCLK));
			H = F
#else
			raise_floor_by(H, (r == RP -> GALLOW : 0))
#endif
		}
#if defined(BUG_GUARD_FIELD_IGNORED)
		d_step { scan_slots_of(H, false) }
#elif defined(UNGUARDED_1)
		d_step { scan_slots_of(H, r == RP) }
#else
		d_step { scan_slots_of(H, true) }
#endif
		d_step { read_rows(r, H) }
	od
}

init {
	atomic {
		run table_session(0);
		run table_session(1);
		run table_reader(RP);
		run table_reader(RS)
	}
}
#endif

/* --------------------------------- the allowance changed in the file */

#if defined(SC_ALLOWANCE)
/*
 * pg_uuidx.horizon_allowance changed in the configuration file, 0 or 1,
 * at any step (a reload).  Every process reads the value the state
 * recorded at its first use (horizon_allowance()), so a change counts
 * from the next start; after a restart the guard's bound is not below the
 * new state's epoch (guard_bound()).
 */
active proctype reload()
{
end:
	do
	:: d_step { acfg = 1 - acfg; printf("MSC: the file's allowance is now %d\n", acfg) }
	od
}

#if defined(BUG_ALLOWANCE_PER_PROCESS)
/* a backend's value: the file's as of its last reload, between statements */
#define TAKE_ALLOWANCE	aw = acfg
#else
#define TAKE_ALLOWANCE	skip
#endif

/*
 * A session, 1 transaction: the client sends an id it made earlier (any
 * time up to the clock) in a statement; the table's guard, declared as
 * pg_uuidx_add_guard() does (its statement trigger, then the guard after
 * the row), allows the setting; commit or abort.  A restart ends it; one
 * that had not started yet starts after it.
 */
proctype allowance_session(byte me)
{
	byte		lower;
	byte		xl;
	byte		xd;
	byte		xst = NONE;
	byte		t;
	byte		msg;
	byte		aw;			/* BUG_ALLOWANCE_PER_PROCESS: the guard's allowance */
	byte		mygen;

	if
	PICK(mygen = gen; msg = me; TAKE_ALLOWANCE; printf("MSC: session %d sends id %d\n", me, t); stmt_publish(GALLOW))
	fi;
	{
		d_step { stmt_read_floor(GALLOW) }
		d_step { row_guard_publish(me) }
		d_step { guard_read_floor(me, GALLOW) }
		if
		:: d_step { row[me].st == RUN; commit(me) }
		:: d_step { abort(me) }
		fi
	} unless { mygen != gen }
}

init {
	atomic {
		run allowance_session(0);
		run allowance_session(1)
	}
}
#endif

/* ----------------------- a library of a newer layout installed in place */

#if defined(SC_LAYOUT)
#define OLDER	1			/* the layouts, as the registry holds them */
#define NEWER	2
#if defined(BUG_LAYOUT_AT_FIRST_USE)
byte		newest = LOW;	/* the reader's session loaded the older library
							 * before the install, and registers nothing
							 * until its first use of the state */
#else
byte		newest = OLDER; /* the newest layout in the registry: the older
							 * library registered when the reader's session
							 * loaded it, before the newer one was installed */
#endif
byte		Fold = LOW;		/* the floor of the older layout's state */

/*
 * A session on the newer library: registers its layout when it loads the
 * library, so before its first id (layouts_register()), then makes an id
 * from the clock, which the older state never sees
 */
proctype newer_session(byte k)
{
	d_step { newest = NEWER; printf("MSC: session %d registers the newer layout\n", k) }
	d_step { row[k].id = clk; row[k].msg = k; row[k].st = RUN; printf("MSC: session %d inserts id %d\n", k, clk) }
	if
	:: d_step { row[k].st = DONE; check_missed(); printf("MSC: commit of id %d\n", row[k].id) }
	:: d_step { row[k].st = GONE }
	fi
}

/*
 * The reader in a session of the older library: its horizon from the older
 * state alone (its floor raised to the clock; no slot of it holds anything),
 * refused (55000) while the registry's newest layout is another.  With
 * BUG_LAYOUT_AT_FIRST_USE its library registers when it first uses the
 * state, whenever that is: after the newer library's sessions registered,
 * it becomes the newest again (its state, made at that first use, holds none
 * of their sessions).
 */
active proctype older_reader()
{
	byte		H;

#if defined(BUG_LAYOUT_AT_FIRST_USE)
	d_step { newest = OLDER; printf("MSC: the older library registers at its first use\n") }
#endif
end:
	do
	:: d_step { Fold = MAX(Fold, CLOCK_LESS_ALLOWANCE); H = Fold }
		if
#if !defined(BUG_SUPERSEDED_NOT_REFUSED)
		:: d_step { newest != OLDER; H = 0; printf("MSC: the older library's reader is refused\n") }
		:: d_step { newest == OLDER }; d_step { read_rows(RP, H) }
#else
		:: d_step { read_rows(RP, H) }
#endif
		fi
	od
}

init {
	atomic {
		run newer_session(0);
		run newer_session(1)
	}
}
#endif
