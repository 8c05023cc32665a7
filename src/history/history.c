/*
 * history.c - saving runs to the history database (history.h): where the
 * file is, opening it (WAL, a busy timeout, foreign keys), the migration
 * runner over the embedded schema files, and one transaction per save
 * with bound parameters only.
 */
#include "config.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <talloc.h>
#include <time.h>
#include <unistd.h>
#ifdef HAVE_SQLITE3
#include <sqlite3.h>
#endif

#include "history/history.h"
#include "history/schema.h"

#define HISTORY_BUSY_MS 10000

int history_schema_version(void)
{
	return history_schema_nfiles == 0 ? 0 :
	       history_schema_files[history_schema_nfiles - 1].version;
}

char *history_path(void *mem, const char *opt_history, char **err)
{
	const char *env = getenv("DBENCH_HISTORY");
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");

	if (opt_history != NULL && opt_history[0] != '\0')
		return talloc_strdup(mem, opt_history);
	if (env != NULL && env[0] != '\0')
		return talloc_strdup(mem, env);
	/* the XDG spec: a relative XDG_DATA_HOME is ignored */
	if (xdg != NULL && xdg[0] == '/')
		return talloc_asprintf(mem, "%s/dbench/history.sqlite", xdg);
	if (home != NULL && home[0] != '\0')
		return talloc_asprintf(mem,
				       "%s/.local/share/dbench/history.sqlite",
				       home);
	*err = talloc_strdup(mem, "no history file: set HOME or "
			     "DBENCH_HISTORY, or give --history FILE");
	return NULL;
}

/* asked while waiting for a lock (history_set_stop) */
static bool (*stop_wait)(void);

void history_set_stop(bool (*stop)(void))
{
	stop_wait = stop;
}

#ifndef HAVE_SQLITE3

bool history_available(void)
{
	return false;
}

int history_save(void *mem, const char *db_path, const char *label,
		 const char *kind, struct json_object *summary,
		 const struct history_entry *entries, unsigned nentries,
		 char **err)
{
	*err = talloc_asprintf(mem, "%s: dbench was built without SQLite "
			       "(install libsqlite3-dev and run configure "
			       "again)", db_path);
	return -1;
}

#else

bool history_available(void)
{
	return true;
}

/*
 * *err = "PATH: what: sqlite's message", with the system's error where
 * there was one ("unable to open database file (Not a directory)").
 * Returns -1.
 */
static int db_fail(void *mem, sqlite3 *db, const char *path,
		   const char *what, char **err)
{
	const char *msg = db != NULL ? sqlite3_errmsg(db) : "out of memory";
	int e = db != NULL ? sqlite3_system_errno(db) : 0;

	*err = e != 0 ? talloc_asprintf(mem, "%s: %s: %s (%s)", path, what,
					msg, strerror(e)) :
			talloc_asprintf(mem, "%s: %s: %s", path, what, msg);
	return -1;
}

/*
 * Make the directories above path (mode 0700) that are missing.  Returns
 * 0, or -1 with *err naming the directory.
 */
static int make_parents(void *mem, const char *path, char **err)
{
	char *dir = talloc_strdup(mem, path);
	char *slash = dir != NULL ? strrchr(dir, '/') : NULL;
	struct stat st;

	if (dir == NULL || slash == NULL || slash == dir)
		return 0;
	*slash = '\0';
	if (stat(dir, &st) == 0)
		return 0;
	for (char *p = dir + 1; ; p++) {
		bool end = *p == '\0';

		if (*p != '/' && !end)
			continue;
		*p = '\0';
		if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
			*err = talloc_asprintf(mem, "%s: cannot make the "
					       "directory %s: %s", path, dir,
					       strerror(errno));
			return -1;
		}
		if (end)
			return 0;
		*p = '/';
	}
}

/* A save's wait for a lock: its bound, and whether a signal ended it. */
struct busy_wait {
	int limit_ms;
	bool interrupted;
	struct timespec start;	/* of the current wait */
};

/*
 * SQLite's busy handler: wait 10 ms more (1), or give up (0) after
 * limit_ms of this wait or once a stop signal came.
 */
static int on_busy(void *arg, int count)
{
	struct busy_wait *b = arg;
	struct timespec now, nap = { 0, 10 * 1000 * 1000 };

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (count == 0)
		b->start = now;
	if (stop_wait != NULL && stop_wait()) {
		b->interrupted = true;
		return 0;
	}
	if ((now.tv_sec - b->start.tv_sec) * 1000 +
	    (now.tv_nsec - b->start.tv_nsec) / 1000000 >= b->limit_ms)
		return 0;
	nanosleep(&nap, NULL);
	return 1;
}

/* The busy timeout: 10 s, or what HISTORY_BUSY_ENV says (tests). */
static int busy_ms(void)
{
	const char *s = getenv(HISTORY_BUSY_ENV);
	char *end;
	long v;

	if (s == NULL || *s == '\0')
		return HISTORY_BUSY_MS;
	v = strtol(s, &end, 10);
	return *end == '\0' && v >= 0 && v <= 600000 ? (int)v : HISTORY_BUSY_MS;
}

/* PRAGMA user_version of db into *v.  Returns an SQLite code. */
static int user_version(sqlite3 *db, int *v)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL);

	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		*v = sqlite3_column_int(st, 0);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc;
}

/*
 * Apply schema file f in one transaction, unless another process did
 * while this one waited.  Returns 0 or -1 with *err.
 */
static int migrate_one(void *mem, sqlite3 *db, const char *path,
		       const struct history_schema_file *f, char **err)
{
	char set[64];
	int v = 0;

	if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return db_fail(mem, db, path, "cannot lock the database", err);
	if (user_version(db, &v) != SQLITE_OK)
		goto fail;
	if (v >= f->version)
		return sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) ==
		       SQLITE_OK ? 0 : db_fail(mem, db, path, "commit", err);
	snprintf(set, sizeof(set), "PRAGMA user_version = %d", f->version);
	if (sqlite3_exec(db, f->sql, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(db, set, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		goto fail;
	return 0;
fail:
	db_fail(mem, db, path, talloc_asprintf(mem, "applying the schema "
					       "file %s", f->name), err);
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/*
 * A database of schema version 0 that holds tables is someone else's:
 * *err says so and -1, else 0 (an empty file or database is ours to
 * fill).
 */
static int foreign_tables(void *mem, sqlite3 *db, const char *path,
			  char **err)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master",
				    -1, &st, NULL);
	int n = -1;

	if (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (n < 0)
		return db_fail(mem, db, path, "cannot read", err);
	if (n == 0)
		return 0;
	*err = talloc_asprintf(mem, "%s: an SQLite database, but not a dbench "
			       "history: not changed", path);
	return -1;
}

/*
 * Can this process write path and the directory it is in (SQLite makes
 * its -wal and -shm files there)?  Returns 0, or -1 with *err naming
 * which cannot be written and why (access(2): a read-only file,
 * directory or file system).
 */
static int writable(void *mem, const char *path, char **err)
{
	char *dir = talloc_strdup(mem, path);
	char *slash = dir != NULL ? strrchr(dir, '/') : NULL;

	if (access(path, W_OK) != 0) {
		*err = talloc_asprintf(mem, "%s: cannot write: %s", path,
				       strerror(errno));
		return -1;
	}
	if (dir == NULL)
		return 0;
	if (slash == NULL)
		dir = talloc_strdup(mem, ".");
	else if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	if (dir != NULL && access(dir, W_OK) != 0) {
		*err = talloc_asprintf(mem, "%s: cannot write in its "
				       "directory %s: %s", path, dir,
				       strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Open path ready to save: a database this dbench knows, in WAL mode,
 * its schema brought up to date, waits for a lock bounded by busy.  A database of a newer schema, or not a
 * database, is left untouched.  Returns 0 (*dbp set) or -1 with *err.
 */
static int history_open(void *mem, const char *path, sqlite3 **dbp,
			struct busy_wait *busy, char **err)
{
	int newest = history_schema_version(), v = 0;
	sqlite3 *db = NULL;

	*dbp = NULL;
	if (make_parents(mem, path, err) != 0)
		return -1;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE |
			    SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		db_fail(mem, db, path, "cannot open", err);
		sqlite3_close(db);
		return -1;
	}
	*dbp = db;
	sqlite3_busy_handler(db, on_busy, busy);
	if (user_version(db, &v) != SQLITE_OK)
		return writable(mem, path, err) != 0 ? -1 :
		       db_fail(mem, db, path, "cannot read", err);
	if (v > newest) {
		*err = talloc_asprintf(mem, "%s: made by a newer dbench "
				       "(schema version %d, this dbench knows "
				       "up to %d): not changed", path, v,
				       newest);
		return -1;
	}
	if (v == 0 && foreign_tables(mem, db, path, err) != 0)
		return -1;
	if (sqlite3_db_readonly(db, "main") == 1 &&
	    writable(mem, path, err) != 0)
		return -1;
	if (sqlite3_exec(db, "PRAGMA journal_mode = WAL", NULL, NULL,
			 NULL) != SQLITE_OK)
		return db_fail(mem, db, path, "cannot set up", err);
	/* foreign keys off while migrating: 003 remakes the tables the
	 * derived tables reference, which must not cascade */
	for (unsigned i = 0; i < history_schema_nfiles; i++)
		if (history_schema_files[i].version > v &&
		    migrate_one(mem, db, path, &history_schema_files[i],
				err) != 0)
			return -1;
	if (sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL,
			 NULL) != SQLITE_OK)
		return db_fail(mem, db, path, "cannot set up", err);
	return 0;
}

/* The time now, ISO 8601 UTC with milliseconds, into buf. */
static void utc_now(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;
	char s[32];

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(s, sizeof(s), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, len, "%s.%03ldZ", s, ts.tv_nsec / 1000000);
}

/* A JSON text of o, compact (NULL: SQL NULL). */
static const char *json_text(struct json_object *o)
{
	return o == NULL ? NULL :
	       json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
}

/* The warnings of e as a JSON array's text, under mem. */
static char *warnings_text(void *mem, const struct history_entry *e)
{
	struct json_object *a = json_object_new_array();
	char *s;

	for (unsigned i = 0; a != NULL && i < e->nwarnings; i++)
		json_object_array_add(a, json_object_new_string(
						 e->warnings[i]));
	s = a != NULL ? talloc_strdup(mem, json_text(a)) : NULL;
	json_object_put(a);
	return s;
}

/* Bind text s (NULL: SQL NULL) to parameter i.  Returns an SQLite code. */
static int bind_text(sqlite3_stmt *st, int i, const char *s)
{
	return s == NULL ? sqlite3_bind_null(st, i) :
	       sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
}

/* Insert the group; its id into *id.  Returns an SQLite code. */
static int insert_group(sqlite3 *db, const char *kind, const char *label,
			const char *now, struct json_object *summary,
			sqlite3_int64 *id)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db, "INSERT INTO groups (kind, label, "
				    "created_utc, summary_json) VALUES "
				    "(?1, ?2, ?3, ?4)", -1, &st, NULL);

	if (rc == SQLITE_OK &&
	    ((rc = bind_text(st, 1, kind)) != SQLITE_OK ||
	     (rc = bind_text(st, 2, label)) != SQLITE_OK ||
	     (rc = bind_text(st, 3, now)) != SQLITE_OK ||
	     (rc = bind_text(st, 4, json_text(summary))) != SQLITE_OK))
		goto out;
	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_DONE) {
		rc = SQLITE_OK;
		*id = sqlite3_last_insert_rowid(db);
	}
out:
	sqlite3_finalize(st);
	return rc;
}

/*
 * Insert the runs of group id; the first and last run ids into ids[0]
 * and ids[1].  Returns an SQLite code.
 */
static int insert_runs(void *mem, sqlite3 *db, sqlite3_int64 id,
		       const char *label, const char *now,
		       const struct history_entry *entries, unsigned n,
		       sqlite3_int64 ids[2])
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db, "INSERT INTO runs (group_id, seq, "
				    "label, saved_utc, exit_status, "
				    "warnings_json, result_json) VALUES "
				    "(?1, ?2, ?3, ?4, ?5, ?6, ?7)", -1, &st,
				    NULL);

	for (unsigned i = 0; rc == SQLITE_OK && i < n; i++) {
		const char *doc = json_text(entries[i].result);
		char *warn = warnings_text(mem, &entries[i]);

		if (doc == NULL || warn == NULL) {
			rc = SQLITE_NOMEM;
			break;
		}
		sqlite3_reset(st);
		if ((rc = sqlite3_bind_int64(st, 1, id)) != SQLITE_OK ||
		    (rc = sqlite3_bind_int(st, 2, (int)i)) != SQLITE_OK ||
		    (rc = bind_text(st, 3, label)) != SQLITE_OK ||
		    (rc = bind_text(st, 4, now)) != SQLITE_OK ||
		    (rc = sqlite3_bind_int(st, 5, entries[i].exit_status)) !=
			    SQLITE_OK ||
		    (rc = bind_text(st, 6, warn)) != SQLITE_OK ||
		    (rc = bind_text(st, 7, doc)) != SQLITE_OK)
			break;
		rc = sqlite3_step(st);
		rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
		ids[i == 0 ? 0 : 1] = sqlite3_last_insert_rowid(db);
		if (i == 0)
			ids[1] = ids[0];
		talloc_free(warn);
	}
	sqlite3_finalize(st);
	return rc;
}

/*
 * The one line a save prints on stderr: the run ids, the group, the
 * label (its control bytes escaped) and the database.
 */
static void say_saved(const char *db_path, const char *label,
		      sqlite3_int64 gid, const sqlite3_int64 ids[2],
		      unsigned n)
{
	fputs("dbench: saved as ", stderr);
	if (n == 1)
		fprintf(stderr, "run %lld", (long long)ids[0]);
	else
		fprintf(stderr, "runs %lld-%lld", (long long)ids[0],
			(long long)ids[1]);
	fprintf(stderr, " (group %lld, label \"", (long long)gid);
	for (const unsigned char *p = (const unsigned char *)label; *p; p++)
		if (*p < 0x20 || *p == 0x7f || *p == '"' || *p == '\\')
			fprintf(stderr, "\\x%02x", *p);
		else
			fputc(*p, stderr);
	fprintf(stderr, "\") in %s\n", db_path);
}

int history_save(void *mem_ctx, const char *db_path, const char *label,
		 const char *kind, struct json_object *summary,
		 const struct history_entry *entries, unsigned nentries,
		 char **err)
{
	void *mem = talloc_new(mem_ctx);
	sqlite3 *db = NULL;
	sqlite3_int64 id = 0, ids[2] = { 0, 0 };
	struct busy_wait busy = {
		.limit_ms = busy_ms(),
	};
	char now[48];
	int rc = -1;

	*err = NULL;
	if (mem == NULL) {
		*err = talloc_asprintf(mem_ctx, "%s: out of memory", db_path);
		return -1;
	}
	if (history_open(mem, db_path, &db, &busy, err) != 0)
		goto out;
	utc_now(now, sizeof(now));
	if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) !=
	    SQLITE_OK) {
		db_fail(mem, db, db_path, "cannot lock the database", err);
		goto out;
	}
	if (insert_group(db, kind, label, now, summary, &id) != SQLITE_OK ||
	    insert_runs(mem, db, id, label, now, entries, nentries, ids) !=
		    SQLITE_OK ||
	    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		db_fail(mem, db, db_path, "cannot save the run", err);
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		goto out;
	}
	if (nentries > 0)
		say_saved(db_path, label, id, ids, nentries);
	rc = 0;
out:
	if (rc != 0 && busy.interrupted)
		*err = talloc_asprintf(mem, "%s: locked by another process; "
				       "not waited for after a stop signal",
				       db_path);
	if (rc != 0 && *err != NULL)
		*err = talloc_steal(mem_ctx, *err);
	sqlite3_close(db);
	talloc_free(mem);
	return rc;
}

#endif
