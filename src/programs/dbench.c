/*
 * dbench.c - the dbench (and tbench) binary: the program is
 * dbench_main() (src/cli/dbench_main.c) with the local run and lock.
 */
#include "config.h"

#include <signal.h>
#include <stddef.h>

#include "cli/dbench_main.h"

int main(int argc, const char **argv)
{
	/* a stop request works in every phase, from the checks before the
	 * run on: a shell without job control starts a background command
	 * with SIGINT ignored, and the run replaces these dispositions with
	 * its own handlers anyway (SIGHUP stays as given: nohup) */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	return dbench_main(argc, argv, NULL);
}
