/*
 * mpi-main-rename.h - forced into src/programs/dbench.c when it is compiled for
 * dbench-mpi (Makefile.am): main() becomes dbench_main(), called by
 * dbench-mpi's own main() after MPI_Init, and the run goes to
 * dbench_mpi_run() (src/programs/dbench-mpi.c) instead of the local
 * supervisor; the -D lock is taken by rank 0 only (the ranks share
 * their directories by design: a per-rank lock would refuse them).  The
 * plain dbench binary is built from main.c unchanged.
 */
#ifndef DBENCH_MPI_MAIN_RENAME_H
#define DBENCH_MPI_MAIN_RENAME_H

#define main dbench_main
#define supervisor_run dbench_mpi_run
#define dirlock_acquire dbench_mpi_dirlock_acquire

/* dbench's main(), under its new name. */
int dbench_main(int argc, const char **argv);

#endif
