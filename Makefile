# pg_uuidx: PGXS build.  "make demo", "make test", "make bench", "make faults"
# and "make memcheck" run on throwaway clusters (test/run.sh,
# test/bench/run.sh, test/fault/); the rest is PGXS.
EXTENSION = pg_uuidx
EXTVERSION = $(shell sed -n "s/^default_version *= *'\(.*\)'/\1/p" $(EXTENSION).control)

MODULE_big = pg_uuidx
OBJS = \
	src/backfill.o \
	src/clock.o \
	src/convert.o \
	src/entropy.o \
	src/facade.o \
	src/generate.o \
	src/namebased.o \
	src/precise.o \
	src/read.o \
	src/siphash.o \
	src/ticks.o

DATA = $(wildcard $(EXTENSION)--*.sql)

REGRESS = \
	generate_v7 \
	generate_v6 \
	generate_v4 \
	convert \
	namebased \
	read \
	errors \
	facade \
	upgrade
REGRESS_OPTS = --inputdir=.

PG_CPPFLAGS = -DPG_UUIDX_VERSION=\"$(EXTVERSION)\"

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# PGXS tracks header dependencies only in --enable-depend builds
$(OBJS): $(wildcard src/*.h)

.PHONY: demo test bench faults memcheck uuidv47-check

demo:
	bash test/run.sh demo

test:
	bash test/run.sh test

bench:
	bash test/bench/run.sh

faults:
	bash test/fault/run.sh

memcheck:
	bash test/fault/memcheck.sh

# UUIDV47_SRC=/path/to/uuidv47 make uuidv47-check: against the reference, on
# the server the PG* variables name (skips without UUIDV47_SRC)
uuidv47-check:
	bash test/uuidv47_ref.sh
