/*
 * dbench.c - the dbench (and tbench) binary: the program is
 * dbench_main() (src/cli/dbench_main.c) with the local run and lock.
 */
#include "config.h"

#include <stddef.h>

#include "dbench_main.h"

int main(int argc, const char **argv)
{
	return dbench_main(argc, argv, NULL);
}
