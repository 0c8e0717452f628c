/*
 * horizon_layouts.c
 *		The registry of the shared state's layouts (PostgreSQL 17 and later).
 *
 * Owns the named shared memory "pg_uuidx_layouts"; may call compat.h.
 *
 * From 17 on nothing is preloaded: each session loads the library file that
 * is installed when it first needs one, so after "make install" or a
 * package upgrade on a running server, sessions of the old and of the new
 * library run side by side.  A library whose shared state has another
 * layout keeps it under another name (horizon.c), so neither misreads the
 * other's; but each sees only the transactions of its own sessions.  This
 * registry tells them apart: every library appends its layout whenever the
 * newest entry is another layout, when it is loaded (horizon_state.c), so
 * in the order of the installs: a library loaded before a file was
 * installed never supersedes the one installed, however late it first
 * uses its state.  A library whose layout is no longer the newest entry
 * refuses the horizon and the guard (the sessions of the newer one are
 * invisible to it); the newest holds the horizon for the sessions older
 * than its entry until they end (horizon.c, unregistered_horizon()).
 * Libraries before 1.7 append at their first use of the state instead.
 *
 * This struct's format is read by every version of the library and must
 * never change.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#include "postgres.h"

#include "port/atomics.h"

#include "compat.h"
#include "reading/horizon_layouts.h"

#ifdef PG_UUIDX_DSM_REGISTRY
#include "storage/dsm_registry.h"

#define LAYOUTS_NAME "pg_uuidx_layouts"
#define LAYOUTS_MAX 32

typedef struct LayoutRegistry
{
	pg_atomic_uint32 used;		/* entries taken, written or not */
	pg_atomic_uint32 layouts[LAYOUTS_MAX];	/* 0 until written */
} LayoutRegistry;

static LayoutRegistry *registry = NULL;

static void
layouts_init(PG_UUIDX_DSM_INIT_PARAMS)
{
	LayoutRegistry *r = (LayoutRegistry *) ptr;

	pg_atomic_init_u32(&r->used, 0);
	for (int i = 0; i < LAYOUTS_MAX; i++)
		pg_atomic_init_u32(&r->layouts[i], 0);
}

static LayoutRegistry *
layouts_attach(void)
{
	bool		found;

	if (registry == NULL)
		registry = PG_UUIDX_GET_NAMED_DSM(LAYOUTS_NAME, sizeof(LayoutRegistry),
										  layouts_init, &found);
	return registry;
}

/*
 * The index of the newest entry of layout, or -1; *last: the number of
 * entries taken.  An entry still being written counts as another layout.
 */
static int
newest_of(LayoutRegistry *r, uint32 layout, uint32 *last)
{
	int			newest = -1;

	*last = Min(pg_atomic_read_u32(&r->used), LAYOUTS_MAX);
	for (uint32 i = 0; i < *last; i++)
		if (pg_atomic_read_u32(&r->layouts[i]) == layout)
			newest = (int) i;
	return newest;
}

bool
layouts_register(uint32 layout)
{
	LayoutRegistry *r = layouts_attach();

	for (;;)
	{
		uint32		used = pg_atomic_read_u32(&r->used);

		/* full: past LAYOUTS_MAX entries, every layout is superseded */
		if (used > LAYOUTS_MAX)
			return true;
		if (used > 0)
		{
			uint32		newest = pg_atomic_read_u32(&r->layouts[used - 1]);

			if (newest == layout)
				return false;
			/* taken by another process, which writes it next */
			if (newest == 0)
			{
				pg_spin_delay();
				continue;
			}
		}

		/*
		 * One entry for the sessions that load a library at once, as after
		 * an install: the one that takes it appends, the others find it
		 */
		if (!pg_atomic_compare_exchange_u32(&r->used, &used, used + 1))
			continue;
		if (used < LAYOUTS_MAX)
			pg_atomic_write_u32(&r->layouts[used], layout);

		/*
		 * The entry before the state's epoch is taken or its floors raised
		 * (horizon_state.c): pairs with horizon_compute()'s barrier before
		 * it reads this registry, so that a reader of an older layout
		 * either sees the entry or computed its horizon from a clock
		 * earlier than this layout's epoch and floors
		 */
		pg_memory_barrier();
		return used > 0;
	}
}

bool
layouts_superseded(uint32 layout)
{
	LayoutRegistry *r = layouts_attach();
	uint32		last;
	int			newest = newest_of(r, layout, &last);

	return pg_atomic_read_u32(&r->used) > LAYOUTS_MAX ||
		newest < 0 || (uint32) newest != last - 1;
}

#else

/* before 17 the state is preloaded: every session runs the postmaster's library */
bool
layouts_register(uint32 layout)
{
	return false;
}

bool
layouts_superseded(uint32 layout)
{
	return false;
}

#endif
