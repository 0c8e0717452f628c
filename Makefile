# pg_uuidx: PGXS build.  "make demo" and "make test" run on a throwaway
# cluster (see test/run.sh); everything else is the usual PGXS targets.
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
	src/ticks.o

DATA = $(wildcard $(EXTENSION)--*.sql)

REGRESS = generate_v7 generate_v6 generate_v4 convert namebased read errors upgrade
REGRESS_OPTS = --inputdir=.

PG_CPPFLAGS = -DPG_UUIDX_VERSION=\"$(EXTVERSION)\"

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# PGXS tracks header dependencies only in --enable-depend builds
$(OBJS): $(wildcard src/*.h)

.PHONY: demo test

demo:
	bash test/run.sh demo

test:
	bash test/run.sh test
