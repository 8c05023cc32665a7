/*
 * history.h - the run history: runs saved (--label) to an SQLite database
 * whose schema is the SQL files of src/history/schema/, embedded at build
 * time and applied in order by a tiny migration runner (PRAGMA
 * user_version holds the highest file applied).
 *
 * A writer inserts only the group (kind, label, time, summary) and each
 * run's whole result document; every column a query needs is derived in
 * SQL from the document (generated columns, triggers), so that dbench and
 * `dbench-history import` store the same thing.  Each save is one
 * transaction: a failure leaves the runs saved before untouched.
 *
 * Built without SQLite, history_available() is false and history_save()
 * fails with a message saying so.
 */
#ifndef DBENCH_HISTORY_H
#define DBENCH_HISTORY_H

#include <stdbool.h>

struct json_object;

/* The exit status of a run that succeeded but could not be saved. */
#define HISTORY_EXIT_SAVE_FAILED 3

/*
 * Tests only: the busy timeout in milliseconds, instead of 10 s, so that a
 * test of a locked database need not wait 10 s.
 */
#define HISTORY_BUSY_ENV "DBENCH_HISTORY_TEST_BUSY_MS"

struct history_entry {
	struct json_object *result;	/* the run's whole document */
	int exit_status;
	const char *const *warnings;	/* may be NULL */
	unsigned nwarnings;
};

/*
 * Saves nentries runs as one group of kind "single", "repeat" or "curve"
 * under label, in one transaction.  summary may be NULL.  Makes the
 * database's directory (mode 0700) and schema as needed.  Saved, it
 * prints one line on stderr naming the run ids, the group, the label and
 * the file.  Returns 0, or -1 with *err (under mem) set to one line
 * naming the file.
 */
int history_save(void *mem, const char *db_path, const char *label,
		 const char *kind, struct json_object *summary,
		 const struct history_entry *entries, unsigned nentries,
		 char **err);

/*
 * While a save waits for a database another process holds locked, it
 * calls stop() every 10 ms and gives up (the run not saved, *err saying
 * so) as soon as it returns true: after a stop signal the wait ends
 * within about a second, not after the busy timeout.  NULL: wait the
 * whole timeout.
 */
void history_set_stop(bool (*stop)(void));

/*
 * The database file: opt_history (--history), else $DBENCH_HISTORY, else
 * $XDG_DATA_HOME/dbench/history.sqlite, else
 * $HOME/.local/share/dbench/history.sqlite.  Returns a string under mem,
 * or NULL with *err set when none can be found (no HOME).
 */
char *history_path(void *mem, const char *opt_history, char **err);

/* Was dbench built with SQLite (can it save at all)? */
bool history_available(void);

/* The schema version this dbench writes: the highest embedded file. */
int history_schema_version(void);

#endif
