# src/programs/local.mk - the programs: each main() and what only it
# uses.  Makefile.am includes it; %reldir% is this folder.
bin_PROGRAMS += dbench
dbench_SOURCES = %reldir%/dbench.c
dbench_LDADD = libdbench.a $(DBENCH_LIBS) $(SANITIZE_MODULE_LIBS)
dbench_LDFLAGS = $(LOADER_LINK_FLAGS)
EXTRA_dbench_DEPENDENCIES = modules/exports.list

# result tools: read dbench --json documents
bin_PROGRAMS += dbench-compare dbench-plot
dbench_compare_SOURCES = %reldir%/dbench-compare.c \
	%reldir%/compare_verdict.c %reldir%/compare_verdict.h \
	%reldir%/compare_table.c %reldir%/compare_table.h
dbench_compare_LDADD = libdbench.a $(DBENCH_LIBS)
dbench_plot_SOURCES = %reldir%/dbench-plot.c %reldir%/plot_multi.c \
	%reldir%/plot_disktest.c %reldir%/plot_private.h \
	%reldir%/plot_curve.c %reldir%/plot_gp.c
dbench_plot_LDADD = libdbench.a $(DBENCH_LIBS)

# tbench's server; tbench itself is dbench under that name
bin_PROGRAMS += tbench_srv
tbench_srv_SOURCES = %reldir%/tbench_srv.c
tbench_srv_LDADD = libdbench.a $(DBENCH_LIBS)

# dbench-mpi: only it links MPI; built when configure found MPI.  Its
# main() calls dbench_main() with hooks for the MPI coordinator.
if HAVE_MPI
bin_PROGRAMS += dbench-mpi
dbench_mpi_SOURCES = %reldir%/dbench-mpi.c $(COORD_MPI_SOURCES)
dbench_mpi_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CFLAGS)
dbench_mpi_LDADD = libdbench.a $(DBENCH_LIBS) $(MPI_LIBS) \
	$(SANITIZE_MODULE_LIBS)
dbench_mpi_LDFLAGS = $(LOADER_LINK_FLAGS)
EXTRA_dbench_mpi_DEPENDENCIES = modules/exports.list
endif
EXTRA_DIST += %reldir%/dbench-mpi.c
