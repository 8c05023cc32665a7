/*
 * test_history.c - the run history's saver (history.h): where the file
 * is, a save of one run and of a group, labels stored byte for byte, the
 * migration from the first schema with a run already saved, and the
 * databases it must refuse without touching them (a newer schema, not a
 * database) or roll back on (a group the schema refuses).
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <talloc.h>
#include <unistd.h>

#include "talloc_fixture.h"
#include "history/history.h"
#include "history/schema.h"

/* A fresh directory for one test, under mem. */
static char *tmpdir(void *mem)
{
	char *d = talloc_strdup(mem, "/tmp/test_history.XXXXXX");

	assert_non_null(mkdtemp(d));
	return d;
}

static void rm_tree(void *mem, const char *dir)
{
	char *cmd = talloc_asprintf(mem, "rm -rf '%s'", dir);

	assert_int_equal(system(cmd), 0);
	talloc_free(cmd);
}

/* The one integer of query q on the database at path. */
static long long query_int(const char *path, const char *q)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	long long v = -1;

	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY,
					 NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, q, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

/* A small result document, as --json writes (the paths the SQL reads). */
static struct json_object *doc(double mbps)
{
	struct json_object *d = json_tokener_parse(
		"{\"tool\":{\"version\":\"t\"},\"options\":{\"backend\":\"null\","
		"\"clients\":1},\"host\":{\"hostname\":\"h\",\"cpus\":2,"
		"\"memory_bytes\":1},\"result\":{\"clients\":1,\"seconds\":1,"
		"\"ops_per_s\":10},\"operations\":[{\"name\":\"Close\","
		"\"count\":3,\"errors\":0,\"avg_ms\":1,\"max_ms\":2,"
		"\"percentiles\":[{\"percentile\":50,\"ms\":1},"
		"{\"percentile\":99,\"ms\":2}]}]}");
	struct json_object *r;

	assert_non_null(d);
	assert_true(json_object_object_get_ex(d, "result", &r));
	json_object_object_add(r, "throughput_mb_per_s",
			       json_object_new_double(mbps));
	return d;
}

static void test_path(void **state)
{
	struct tstate *ts = *state;
	char *err = NULL, *p;

	setenv("DBENCH_HISTORY", "/e/h.db", 1);
	setenv("XDG_DATA_HOME", "/x", 1);
	setenv("HOME", "/home/u", 1);
	p = history_path(ts->ctx, "/o.db", &err);
	assert_string_equal(p, "/o.db");
	talloc_free(p);
	p = history_path(ts->ctx, NULL, &err);
	assert_string_equal(p, "/e/h.db");
	talloc_free(p);
	setenv("DBENCH_HISTORY", "", 1);
	p = history_path(ts->ctx, NULL, &err);
	assert_string_equal(p, "/x/dbench/history.sqlite");
	talloc_free(p);
	/* a relative XDG_DATA_HOME is ignored, as the spec says */
	setenv("XDG_DATA_HOME", "rel", 1);
	p = history_path(ts->ctx, NULL, &err);
	assert_string_equal(p, "/home/u/.local/share/dbench/history.sqlite");
	talloc_free(p);
	unsetenv("XDG_DATA_HOME");
	unsetenv("HOME");
	unsetenv("DBENCH_HISTORY");
	assert_null(history_path(ts->ctx, NULL, &err));
	assert_non_null(err);
	talloc_free(err);
}

/* One run, then a group of three: directories made 0700, the schema at
 * its newest, the derived rows there, the label byte for byte. */
static void test_save(void **state)
{
	struct tstate *ts = *state;
	char *dir = tmpdir(ts->ctx);
	char *path = talloc_asprintf(ts->ctx, "%s/a/b/h.sqlite", dir);
	char *sub = talloc_asprintf(ts->ctx, "%s/a", dir);
	const char *label = "it's \"q\"\nline2 \xc3\xa9\xe2\x82\xac";
	const char *warn[] = { "results vary" };
	struct history_entry e[3];
	struct json_object *sum = json_object_new_object();
	char *err = NULL;
	struct stat st;
	sqlite3 *db;
	sqlite3_stmt *q;

	for (int i = 0; i < 3; i++)
		e[i] = (struct history_entry){ .result = doc(100 + i),
					       .exit_status = i == 2 };
	e[1].warnings = warn;
	e[1].nwarnings = 1;
	assert_int_equal(history_save(ts->ctx, path, label, "single", NULL, e,
				      1, &err), 0);
	assert_int_equal(stat(sub, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	assert_int_equal(history_save(ts->ctx, path, label, "repeat", sum, e,
				      3, &err), 0);
	assert_int_equal(query_int(path, "PRAGMA user_version"),
			 history_schema_version());
	assert_int_equal(query_int(path, "SELECT count(*) FROM groups"), 2);
	assert_int_equal(query_int(path, "SELECT count(*) FROM runs"), 4);
	assert_int_equal(query_int(path, "SELECT count(*) FROM runs WHERE "
				   "group_id = 2 AND exit_status = 1 AND "
				   "seq = 2"), 1);
	assert_int_equal(query_int(path, "SELECT count(*) FROM ops"), 4);
	assert_int_equal(query_int(path, "SELECT count(*) FROM runs WHERE "
				   "warnings_json = '[\"results vary\"]'"), 1);
	assert_int_equal(query_int(path, "SELECT count(*) FROM groups WHERE "
				   "kind = 'repeat' AND summary_json = '{}'"),
			 1);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT DISTINCT label FROM "
					    "runs", -1, &q, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(q), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(q, 0), label);
	assert_int_equal(sqlite3_step(q), SQLITE_DONE);
	sqlite3_finalize(q);
	sqlite3_close(db);
	for (int i = 0; i < 3; i++)
		json_object_put(e[i].result);
	json_object_put(sum);
	rm_tree(ts->ctx, dir);
	talloc_free(dir);
	talloc_free(path);
	talloc_free(sub);
}

/* A database of the first schema with a run in it: the next save
 * migrates it and the run is still there. */
static void test_migrate(void **state)
{
	struct tstate *ts = *state;
	char *dir = tmpdir(ts->ctx);
	char *path = talloc_asprintf(ts->ctx, "%s/h.sqlite", dir);
	struct history_entry e = { .result = doc(5) };
	char *err = NULL;
	sqlite3 *db;

	if (history_schema_nfiles < 2) {
		skip();
	}
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, history_schema_files[0].sql, NULL,
				      NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "PRAGMA user_version = 1; "
				      "INSERT INTO groups VALUES (1, 'single',"
				      " 'old', '2020-01-01T00:00:00Z', NULL);"
				      "INSERT INTO runs (group_id, seq, label,"
				      " saved_utc, exit_status, result_json) "
				      "VALUES (1, 0, 'old', "
				      "'2020-01-01T00:00:00Z', 0, '{}')",
				      NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(history_save(ts->ctx, path, "new", "single", NULL,
				      &e, 1, &err), 0);
	assert_int_equal(query_int(path, "PRAGMA user_version"),
			 history_schema_version());
	assert_int_equal(query_int(path, "SELECT count(*) FROM runs WHERE "
				   "label = 'old'"), 1);
	assert_int_equal(query_int(path, "SELECT count(*) FROM runs"), 2);
	json_object_put(e.result);
	rm_tree(ts->ctx, dir);
	talloc_free(dir);
	talloc_free(path);
}

/* The bytes of file path, under mem; *len its size. */
static char *slurp(void *mem, const char *path, size_t *len)
{
	struct stat st;
	char *b;
	FILE *f = fopen(path, "rb");

	assert_non_null(f);
	assert_int_equal(fstat(fileno(f), &st), 0);
	b = talloc_size(mem, (size_t)st.st_size + 1);
	*len = fread(b, 1, (size_t)st.st_size, f);
	fclose(f);
	return b;
}

/* A newer schema, a file that is no database, a kind the schema
 * refuses: an error naming the file, nothing changed. */
static void test_refusals(void **state)
{
	struct tstate *ts = *state;
	char *dir = tmpdir(ts->ctx);
	char *path = talloc_asprintf(ts->ctx, "%s/h.sqlite", dir);
	struct history_entry e = { .result = doc(5) };
	char *err = NULL, *before, *after;
	size_t n1, n2;
	sqlite3 *db;
	FILE *f;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "CREATE TABLE t (x); PRAGMA "
				      "user_version = 999", NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	before = slurp(ts->ctx, path, &n1);
	assert_int_equal(history_save(ts->ctx, path, "l", "single", NULL, &e,
				      1, &err), -1);
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, "newer dbench"));
	assert_null(strchr(err, '\n'));
	after = slurp(ts->ctx, path, &n2);
	assert_int_equal(n1, n2);
	assert_memory_equal(before, after, n1);
	TALLOC_FREE(err);
	talloc_free(before);
	talloc_free(after);
	/* not a database */
	f = fopen(path, "w");
	assert_non_null(f);
	for (int i = 0; i < 200; i++)
		fputs("not a database at all ", f);
	fclose(f);
	unlink(talloc_asprintf(ts->ctx, "%s-wal", path));
	before = slurp(ts->ctx, path, &n1);
	assert_int_equal(history_save(ts->ctx, path, "l", "single", NULL, &e,
				      1, &err), -1);
	assert_non_null(strstr(err, path));
	after = slurp(ts->ctx, path, &n2);
	assert_int_equal(n1, n2);
	assert_memory_equal(before, after, n1);
	TALLOC_FREE(err);
	talloc_free(before);
	talloc_free(after);
	/* a good database; a group the schema refuses rolls back whole */
	unlink(path);
	assert_int_equal(history_save(ts->ctx, path, "l", "single", NULL, &e,
				      1, &err), 0);
	assert_int_equal(history_save(ts->ctx, path, "l", "bogus", NULL, &e,
				      1, &err), -1);
	assert_non_null(strstr(err, path));
	TALLOC_FREE(err);
	assert_int_equal(query_int(path, "SELECT count(*) FROM groups"), 1);
	assert_int_equal(query_int(path, "SELECT count(*) FROM runs"), 1);
	json_object_put(e.result);
	rm_tree(ts->ctx, dir);
	talloc_free_children(ts->ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_path, setup, teardown),
		cmocka_unit_test_setup_teardown(test_save, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrate, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refusals, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
