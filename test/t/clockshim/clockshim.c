/*
 * clockshim.c
 *		A test-only LD_PRELOAD library: one clock for every process of a
 *		test cluster (postmaster, backends, parallel workers), moved by the
 *		test while the cluster runs.  The TAP tests that move the clock build
 *		it (test/t/010_clock_step.pl, test/t/090_shared_clock.pl).
 *
 * clock_gettime(CLOCK_REALTIME) - the call pg_uuidx and PostgreSQL 18's
 * uuidv7() read - is answered from a small file that every process maps
 * shared: three little-endian int64 values, "mode sec nsec".  Mode 0 is the
 * real clock, 1 the real clock plus (sec, nsec), 2 the fixed time (sec, nsec).
 * The file is named by $PG_UUIDX_CLOCK_FILE; without it the real clock is
 * used.  A process maps the file at its first clock reading, and a process
 * forked after that (a backend, a parallel worker) inherits the mapping, so
 * a change the test writes into the file reaches every process at once.
 *
 * gettimeofday() - the clock of PostgreSQL's own timestamps (now(),
 * clock_timestamp()) - follows the same clock only when
 * $PG_UUIDX_CLOCK_GETTIMEOFDAY is 1, so that a test can compare ids with
 * the time the server reports; by default it is left alone, so that a
 * clock frozen far from today does not disturb the server's own timing.
 * CLOCK_MONOTONIC and the other clocks are never moved, as an NTP step
 * would not move them.
 *
 * Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

typedef struct ClockControl
{
	volatile int64_t mode;
	volatile int64_t sec;
	volatile int64_t nsec;
} ClockControl;

static int	(*real_clock_gettime) (clockid_t, struct timespec *);
static int	(*real_gettimeofday) (struct timeval *, void *);
static ClockControl *control;
static int	mapped;
static int	fake_gettimeofday;

/* Map the control file once per process (a forked child inherits it). */
static void
map_control(void)
{
	const char *path = getenv("PG_UUIDX_CLOCK_FILE");
	const char *tod = getenv("PG_UUIDX_CLOCK_GETTIMEOFDAY");
	int			fd;
	void	   *p;

	mapped = 1;
	fake_gettimeofday = tod != NULL && strcmp(tod, "1") == 0;
	if (path == NULL || (fd = open(path, O_RDONLY)) < 0)
		return;
	p = mmap(NULL, sizeof(ClockControl), PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (p != MAP_FAILED)
		control = p;
}

/* Move a real CLOCK_REALTIME reading as the control file says. */
static void
shift_realtime(struct timespec *tp)
{
	int64_t		nsec;

	if (!mapped)
		map_control();
	if (control == NULL || control->mode == 0)
		return;
	if (control->mode == 2)
	{
		tp->tv_sec = control->sec;
		tp->tv_nsec = control->nsec;
		return;
	}
	nsec = tp->tv_nsec + control->nsec;
	tp->tv_sec += control->sec + nsec / 1000000000;
	tp->tv_nsec = nsec % 1000000000;
	if (tp->tv_nsec < 0)
	{
		tp->tv_sec -= 1;
		tp->tv_nsec += 1000000000;
	}
}

int
clock_gettime(clockid_t clock_id, struct timespec *tp)
{
	int			rc;

	if (real_clock_gettime == NULL)
		real_clock_gettime = dlsym(RTLD_NEXT, "clock_gettime");
	rc = real_clock_gettime(clock_id, tp);
	if (rc == 0 && clock_id == CLOCK_REALTIME)
		shift_realtime(tp);
	return rc;
}

int
gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
	struct timespec ts;
	int			rc;

	if (real_gettimeofday == NULL)
		real_gettimeofday = dlsym(RTLD_NEXT, "gettimeofday");
	if (real_clock_gettime == NULL)
		real_clock_gettime = dlsym(RTLD_NEXT, "clock_gettime");
	rc = real_gettimeofday(tv, tz);
	if (!mapped)
		map_control();
	if (rc != 0 || !fake_gettimeofday || real_clock_gettime(CLOCK_REALTIME, &ts) != 0)
		return rc;
	shift_realtime(&ts);
	tv->tv_sec = ts.tv_sec;
	tv->tv_usec = ts.tv_nsec / 1000;
	return rc;
}
