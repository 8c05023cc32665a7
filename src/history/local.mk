# src/history/local.mk - the run history: its writer in libdbench.a
# (--label), its reader dbench-history (Python 3, its standard library
# only: sqlite3, statistics, html), zipped into one executable file with
# the schema files inside its package (dbench_history/schema/).
# Makefile.am includes it; %reldir% is this folder.
libdbench_a_SOURCES += %reldir%/history.c
noinst_HEADERS += %reldir%/history.h %reldir%/schema.h
HISTORY_PY = \
	%reldir%/dbench_history/__init__.py \
	%reldir%/dbench_history/__main__.py \
	%reldir%/dbench_history/basic.py \
	%reldir%/dbench_history/cli.py \
	%reldir%/dbench_history/common.py \
	%reldir%/dbench_history/compare.py \
	%reldir%/dbench_history/db.py \
	%reldir%/dbench_history/report.py \
	%reldir%/dbench_history/report_curves.py \
	%reldir%/dbench_history/report_data.py \
	%reldir%/dbench_history/report_sections.py \
	%reldir%/dbench_history/report_svg.py \
	%reldir%/dbench_history/runs.py \
	%reldir%/dbench_history/stats.py \
	%reldir%/dbench_history/noise.py \
	%reldir%/dbench_history/usl.py \
	%reldir%/dbench_history/trend.py \
	%reldir%/dbench_history/curves.py \
	%reldir%/dbench_history/validate.py \
	%reldir%/dbench_history/workload.py \
	%reldir%/dbench_history/imports.py
HISTORY_SQL = \
	%reldir%/schema/001-history.sql \
	%reldir%/schema/002-workload.sql \
	%reldir%/schema/003-ids.sql
EXTRA_DIST += $(HISTORY_PY)
if HAVE_PYTHON3
bin_SCRIPTS += dbench-history
endif
CLEANFILES += dbench-history
dbench-history: $(HISTORY_PY) $(HISTORY_SQL)
	$(AM_V_GEN)rm -rf $@.d $@.tmp && \
	$(MKDIR_P) $@.d/dbench_history/schema && \
	for f in $(HISTORY_PY); do \
		cp '$(srcdir)'/$$f $@.d/dbench_history/ || exit 1; \
	done && \
	for f in $(HISTORY_SQL); do \
		cp '$(srcdir)'/$$f $@.d/dbench_history/schema/ || exit 1; \
	done && \
	cp '$(srcdir)'/%reldir%/dbench_history/__main__.py $@.d/ && \
	$(PYTHON3) -m zipapp $@.d -p /usr/bin/python3 -o $@.tmp && \
	chmod 755 $@.tmp && \
	rm -rf $@.d && mv -f $@.tmp $@

# The schema: the SQL files (shipped whole, the directory) embedded as C
# strings at build time, the one definition dbench and dbench-history
# share.
nodist_libdbench_a_SOURCES = %reldir%/schema_sql.c
BUILT_SOURCES += %reldir%/schema_sql.c
CLEANFILES += %reldir%/schema_sql.c
EXTRA_DIST += %reldir%/schema %reldir%/gen-schema.sh
%reldir%/schema_sql.c: $(srcdir)/%reldir%/gen-schema.sh \
		$(srcdir)/%reldir%/schema $(srcdir)/%reldir%/schema/*.sql
	$(AM_V_GEN)$(MKDIR_P) %reldir% && \
	$(SHELL) $(srcdir)/%reldir%/gen-schema.sh \
		$(srcdir)/%reldir%/schema > $@.tmp && mv -f $@.tmp $@
