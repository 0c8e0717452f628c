# pg_uuidx: PGXS build.  "make demo", "make test", "make bench", "make faults",
# "make memcheck" and "make crosscheck" run on throwaway clusters (test/run.sh,
# test/bench/run.sh, test/fault/); the rest is PGXS.
EXTENSION = pg_uuidx
EXTVERSION = $(shell sed -n "s/^default_version *= *'\(.*\)'/\1/p" $(EXTENSION).control)

MODULE_big = pg_uuidx
OBJS = \
	src/clock.o \
	src/convert.o \
	src/entropy.o \
	src/generate.o \
	src/namebased.o \
	src/read.o \
	src/textforms.o \
	src/ticks.o

DATA = $(wildcard $(EXTENSION)--*.sql)

REGRESS = \
	generate_v7 \
	generate_v6 \
	generate_v4 \
	convert \
	namebased \
	read \
	textforms \
	errors \
	upgrade
REGRESS_OPTS = --inputdir=.

PG_CPPFLAGS = -DPG_UUIDX_VERSION=\"$(EXTVERSION)\"

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# PGXS tracks header dependencies only in --enable-depend builds
$(OBJS): $(wildcard src/*.h)

.PHONY: demo test bench faults memcheck crosscheck

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

# optional: text forms against npm ulid, typeid-js and Python (skips without them)
crosscheck:
	bash test/run.sh crosscheck
