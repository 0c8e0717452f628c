# pg_uuidx: PGXS build.  "make demo", "make test" and "make bench" build,
# install and run on throwaway clusters (test/run.sh, test/bench/run.sh);
# "make memcheck" is "make test" against an ASan+UBSan build.  The tests
# themselves are PGXS's: installcheck (pg_regress) and prove_installcheck
# (the TAP tests test/t/*.pl, on PostgreSQL::Test::Cluster).  "make dist"
# writes the PGXN zip and "make package-test" builds, installs and checks the
# PGXN zip and the Debian package (test/packages.sh).
EXTENSION = pg_uuidx
EXTVERSION = $(shell sed -n "s/^default_version *= *'\(.*\)'/\1/p" $(EXTENSION).control)
DISTVERSION = $(EXTVERSION).0

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
	upgrade \
	comments \
	encodings

# The TAP tests (PostgreSQL::Test::Cluster) run through "make
# prove_installcheck", not through installcheck, which stays pg_regress only
# for pg_buildext installcheck (debian/tests); TAP_TESTS is left unset.
PROVE_TESTS = test/t/*.pl
EXTRA_CLEAN = tmp_check

PG_CPPFLAGS = -DPG_UUIDX_VERSION=\"$(EXTVERSION)\"

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# PGXS tracks header dependencies only in --enable-depend builds
$(OBJS): $(wildcard src/*.h)

.PHONY: demo test bench memcheck prove_installcheck dist package-test

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

# PGXN: META.json and every tracked file of HEAD under pg_uuidx-1.2.0/
dist:
	git archive --format zip --prefix=$(EXTENSION)-$(DISTVERSION)/ -o $(EXTENSION)-$(DISTVERSION).zip HEAD

package-test:
	bash test/packages.sh
