/*
 * asan_warmup.c
 *		LD_PRELOADed after the ASan runtime by "make memcheck" (test/run.sh).
 *
 * The ASan runtime initialises itself on its first malloc().  In a
 * PostgreSQL server binary the first malloc() comes from a library
 * constructor (libgpg-error, libp11-kit) while glibc holds its locale or
 * gettext lock, and ASan's initialisation then asks for that same lock
 * (dlerror() -> gettext): the process hangs before main().  These wrappers
 * make one malloc() before glibc takes either lock, so that ASan is ready
 * by then.  Test tooling only; nothing of pg_uuidx uses it.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <libintl.h>
#include <locale.h>
#include <stdlib.h>

typedef locale_t (*newlocale_fn) (int, const char *, locale_t);
typedef char *(*bindtextdomain_fn) (const char *, const char *);

/*
 * Initialise the ASan runtime, once, with no glibc lock held.
 */
static void
Warmup(void)
{
	static int	done = 0;

	if (!done)
	{
		/* volatile: a compiler may drop a malloc() whose block is unused */
		void	   *volatile block = malloc(1);

		done = 1;
		free(block);
	}
}

/*
 * newlocale(3), after the warm-up.
 */
locale_t
newlocale(int mask, const char *locale, locale_t base)
{
	static newlocale_fn real = NULL;

	Warmup();
	if (real == NULL)
		real = (newlocale_fn) dlsym(RTLD_NEXT, "newlocale");
	return real(mask, locale, base);
}

/*
 * bindtextdomain(3), after the warm-up.
 */
char *
bindtextdomain(const char *domain, const char *dir)
{
	static bindtextdomain_fn real = NULL;

	Warmup();
	if (real == NULL)
		real = (bindtextdomain_fn) dlsym(RTLD_NEXT, "bindtextdomain");
	return real(domain, dir);
}
