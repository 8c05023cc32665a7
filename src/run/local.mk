# src/run/local.mk - the pool of workers, the run loop and the
# coordinators.  Makefile.am includes it; %reldir% is this folder.
libdbench_a_SOURCES += \
	%reldir%/pool.c \
	%reldir%/pool_signal.c \
	%reldir%/worker.c \
	%reldir%/watchdog.c \
	%reldir%/pool_trees.c \
	%reldir%/runloop.c \
	%reldir%/coord_policy.c \
	%reldir%/coord_local.c \
	%reldir%/run.c \
	%reldir%/progress.c
noinst_HEADERS += \
	%reldir%/coord.h \
	%reldir%/coord_mpi.h \
	%reldir%/pool.h \
	%reldir%/worker.h \
	%reldir%/runloop.h \
	%reldir%/progress.h \
	%reldir%/supervisor.h
# The MPI coordinator: only dbench-mpi (src/programs/local.mk) and the
# MPI benchmarks link MPI, so it is not in libdbench.a; shipped also when
# configure found no MPI.
COORD_MPI_SOURCES = \
	%reldir%/coord_mpi.c \
	%reldir%/coord_mpi_sync.c \
	%reldir%/coord_mpi_merge.c \
	%reldir%/coord_mpi_wait.c
EXTRA_DIST += $(COORD_MPI_SOURCES) %reldir%/coord_mpi_private.h
