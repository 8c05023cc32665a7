/*
 * module_stamp.c - linked into every backend module: which dbench tree it
 * was built from, which backend_module_load() compares with its own
 * before it trusts the module's struct backend (the module calls the
 * engine's functions in the binary that loads it).
 */
#include "config.h"

#include "backends/backend.h"

/* Read through dlsym() only; a declaration for -Wmissing-declarations. */
extern const char dbench_module_stamp[];
const char dbench_module_stamp[] = BACKEND_MODULE_STAMP;
