# pg_uuidx: PGXS build.  "make demo", "make test" and "make bench" build,
# install and run on throwaway clusters (test/run.sh, test/bench/run.sh);
# "make memcheck" is "make test" against an ASan+UBSan build.  The tests
# themselves are PGXS's: installcheck (pg_regress) and prove_installcheck
# (the TAP tests test/t/*.pl, on PostgreSQL::Test::Cluster).
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

REGRESS = \
	generate_v7 \
	generate_v6 \
	generate_v4 \
	convert \
	namebased \
	read \
	errors \
	upgrade

TAP_TESTS = 1
PROVE_TESTS = test/t/*.pl

PG_CPPFLAGS = -DPG_UUIDX_VERSION=\"$(EXTVERSION)\"

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# PGXS tracks header dependencies only in --enable-depend builds
$(OBJS): $(wildcard src/*.h)

.PHONY: demo test bench memcheck prove_installcheck

demo:
	bash test/run.sh demo

test:
	bash test/run.sh

bench:
	bash test/bench/run.sh

memcheck:
	MEMCHECK=1 bash test/run.sh

# the TAP tests alone, against the installed extension
prove_installcheck:
	$(prove_installcheck)
