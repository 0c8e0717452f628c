/*
 * clockshim.c
 *		A test-only LD_PRELOAD library: one clock for every process of a
 *		test cluster (postmaster, backends, parallel workers), moved by the
 *		test while the cluster runs.
 *
 * clock_gettime(CLOCK_REALTIME) - the call pg_uuidx and PostgreSQL 18's
 * uuidv7() read - is answered from a small file that every process maps
 * shared: three little-endian int64 values, "mode sec nsec".  Mode 0 is the
 * real clock, 1 the real clock plus (sec, nsec), 2 the fixed time (sec, nsec).
 * The file is named by $PG_UUIDX_CLOCK_FILE; without it the real clock is
 * used.  Other clocks and gettimeofday() are left alone, so the server's
 * own timing is not disturbed.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

typedef struct ClockControl
{
	volatile int64_t mode;
	volatile int64_t sec;
	volatile int64_t nsec;
} ClockControl;

static int	(*real_clock_gettime) (clockid_t, struct timespec *);
static ClockControl *control;
static int	mapped;

static void
map_control(void)
{
	const char *path = getenv("PG_UUIDX_CLOCK_FILE");
	int			fd;
	void	   *p;

	mapped = 1;
	if (path == NULL || (fd = open(path, O_RDONLY)) < 0)
		return;
	p = mmap(NULL, sizeof(ClockControl), PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (p != MAP_FAILED)
		control = p;
}

int
clock_gettime(clockid_t clock_id, struct timespec *tp)
{
	int			rc;
	int64_t		nsec;

	if (real_clock_gettime == NULL)
		real_clock_gettime = dlsym(RTLD_NEXT, "clock_gettime");
	rc = real_clock_gettime(clock_id, tp);
	if (rc != 0 || clock_id != CLOCK_REALTIME)
		return rc;
	if (!mapped)
		map_control();
	if (control == NULL || control->mode == 0)
		return rc;

	if (control->mode == 2)
	{
		tp->tv_sec = control->sec;
		tp->tv_nsec = control->nsec;
		return rc;
	}
	nsec = tp->tv_nsec + control->nsec;
	tp->tv_sec += control->sec + nsec / 1000000000;
	tp->tv_nsec = nsec % 1000000000;
	return rc;
}
