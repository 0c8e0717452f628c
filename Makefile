# pg_uuidx: PGXS build.  Every target that runs something ("make demo",
# "make test", "make bench", "make memcheck", the release checks and the
# optional ones below) goes through the one runner, test/run.sh: it builds,
# installs and runs on throwaway clusters of PostgreSQL::Test::Cluster.  The
# tests themselves are PGXS's: installcheck (pg_regress) and
# prove_installcheck (the TAP tests, test/t/*.pl by default).
EXTENSION = pg_uuidx
EXTVERSION = $(shell sed -n "s/^default_version *= *'\(.*\)'/\1/p" $(EXTENSION).control)
# "make dist" names its zip from the release tag at HEAD (vX.Y.Z), else from
# the control file's version (with a warning)
DISTTAG = $(shell git describe --tags --exact-match --match 'v[0-9]*' HEAD 2>/dev/null)
DISTVERSION = $(if $(DISTTAG),$(DISTTAG:v%=%),$(EXTVERSION).0)

MODULE_big = pg_uuidx
OBJS = \
	src/module.o \
	src/ids/backfill.o \
	src/ids/clock.o \
	src/ids/entropy.o \
	src/ids/extract.o \
	src/ids/facade.o \
	src/ids/generate.o \
	src/ids/id_time.o \
	src/ids/namebased.o \
	src/ids/range.o \
	src/ids/siphash.o \
	src/ids/textforms.o \
	src/ids/v1v6.o \
	src/reading/cluster.o \
	src/reading/consume.o \
	src/reading/extension_table.o \
	src/reading/guard.o \
	src/reading/guard_after.o \
	src/reading/guard_args.o \
	src/reading/guard_ddl.o \
	src/reading/guard_move.o \
	src/reading/guard_resend.o \
	src/reading/horizon.o \
	src/reading/horizon_layouts.o \
	src/reading/horizon_state.o \
	src/reading/horizon_tick.o \
	src/reading/read_after.o \
	src/reading/saved_plans.o \
	src/reading/stats.o \
	src/reading/tick_table.o \
	src/reading/ticker.o

DATA = $(wildcard $(EXTENSION)--*.sql)

REGRESS = \
	generate_v7 \
	generate_v6 \
	generate_v4 \
	convert \
	namebased \
	extract \
	read_after_tables \
	consume \
	guard \
	range \
	textforms \
	facade \
	errors \
	upgrade \
	comments \
	core_names \
	encodings

# The TAP tests (PostgreSQL::Test::Cluster) run through "make
# prove_installcheck", not through installcheck, which stays pg_regress only
# for pg_buildext installcheck (debian/tests); TAP_TESTS is left unset.
# PROVE_TESTS from the environment picks some ("PROVE_TESTS=test/t/X.pl make
# test"; an assignment here would override it).
PROVE_TESTS ?= test/t/*.pl
EXTRA_CLEAN = tmp_check

PG_CPPFLAGS = -DPG_UUIDX_VERSION=\"$(EXTVERSION)\" -I$(libpq_srcdir) -I$(srcdir)/src
# a Citus coordinator's reader asks the nodes for their horizons (src/reading/cluster.c)
SHLIB_LINK_INTERNAL = $(libpq)

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# PGXS tracks header dependencies only in --enable-depend builds
$(OBJS): $(wildcard src/*.h src/*/*.h)

.PHONY: demo test bench memcheck parallel-check model-check prove_installcheck crosscheck dist sql-only pgxn-test deb-test package-test uuidv47-check ecosystem citus pg_uuidv7-adopt pg_tle

demo:
	bash test/run.sh demo

test:
	bash test/run.sh

bench:
	bash test/run.sh bench

memcheck:
	MEMCHECK=1 bash test/run.sh

# pg_regress and pgTAP with every query that can be planned with a parallel
# worker (debug_parallel_query = regress): the parallel lane of "make test"
parallel-check:
	bash test/run.sh parallel

model-check:
	bash test/model/check.sh

# the TAP tests alone, against the installed extension
prove_installcheck:
	$(prove_installcheck)

# optional: text forms against npm ulid, typeid-js and Python (skips without them)
crosscheck:
	bash test/run.sh crosscheck

# The SQL build (docs/sql-build.md): pg_uuidx in SQL and PL/pgSQL, for
# servers that take no C extensions, generated from sqlonly/ into
# dist/sql-only/ (SQLONLY_OUT): a control file and scripts for an extension
# directory, pg_uuidx_tle.sql for pg_tle and pg_uuidx_plain.sql for a plain
# schema.  "make test" builds it into its temp dir and tests it.
SQLONLY_OUT ?= dist/sql-only
sql-only:
	perl sqlonly/generate.pl $(SQLONLY_OUT)

# Release (CONTRIBUTING.md): "make dist" checks META.json
# (test/lanes/dist/meta_check.py) and that the release tag at HEAD, if there is
# one, is the control file's version, and zips HEAD for PGXN under
# pg_uuidx-X.Y.Z/ (X.Y.Z from the tag);
# "make package-test" runs "make pgxn-test" (pgxn install, load, check and
# uninstall of that zip) and "make deb-test" (the Debian packages built in a
# fresh clone, installed, tested and removed).  None is part of "make test".
dist:
	python3 test/lanes/dist/meta_check.py META.json
	@if [ -z "$(DISTTAG)" ]; then \
		echo "warning: no release tag (vX.Y.Z) at HEAD: the zip is named from $(EXTENSION).control ($(DISTVERSION))"; \
	elif [ "$(DISTTAG)" != "v$(EXTVERSION).0" ]; then \
		echo "error: the tag at HEAD is $(DISTTAG), but $(EXTENSION).control is at $(EXTVERSION) (tag v$(EXTVERSION).0)" >&2; exit 1; \
	fi
	@git diff --quiet HEAD -- || echo "warning: uncommitted changes are not in $(EXTENSION)-$(DISTVERSION).zip"
	git archive --format zip --prefix=$(EXTENSION)-$(DISTVERSION)/ -o $(EXTENSION)-$(DISTVERSION).zip HEAD

pgxn-test: dist
	bash test/run.sh pgxn $(EXTENSION)-$(DISTVERSION).zip

deb-test:
	bash test/run.sh deb

package-test: pgxn-test deb-test

# optional: UUIDV47_SRC=/path/to/uuidv47 make uuidv47-check: the facade
# against the reference implementation (skips without UUIDV47_SRC)
uuidv47-check:
	bash test/run.sh uuidv47

# optional: pg_partman and TimescaleDB beside pg_uuidx (test/lanes/ecosystem/);
# builds them from Debian's source packages first, skips what is missing
ecosystem:
	bash test/run.sh ecosystem

# optional: pg_uuidx on a Citus coordinator and workers (test/lanes/citus/);
# CITUS_SOURCE=<checkout or git URL> [CITUS_REF=<tag>] make citus
citus:
	bash test/run.sh citus

# optional: moving pg_uuidv7's dependents to pg_uuidx (test/lanes/pg_uuidv7/);
# PG_UUIDV7_SOURCE=<tree, tarball or git dir> [PG_UUIDV7_REF=<tag>] make pg_uuidv7-adopt
pg_uuidv7-adopt:
	bash test/run.sh pg_uuidv7-adopt

# optional: the SQL build under pg_tle, and dump/restore between it and the
# C build (test/lanes/pg_tle/); PG_TLE_SOURCE=<checkout, git URL, tree or
# tarball of aws/pg_tle> [PG_TLE_REF=<tag, e.g. v1.5.2>] make pg_tle
pg_tle:
	bash test/run.sh pg_tle
