/*
 * test_loadfile_paths.c - unit tests of the loadfile compiler's paths
 * (normalisation, interning, the directory table), dbench 5.0's smb
 * dialect, and the confinement of removals to the client's directory.
 */
#include "config.h"

#include "loadfile_helpers.h"
#include "loadfile/client_tree.h"

/* ---- paths ---- */

struct path_case {
	const char *raw;
	const char *norm;
	int32_t client_pos;
	bool has_random;
};

static const struct path_case path_cases[] = {
	{ "\\clients\\client1\\f", "clients/client1/f", 8, false },
	{ "/clients/client1", "clients/client1", 8, false },
	{ "\\clients\\client1", "clients/client1", 8, false },
	{ "\\CLIENTS\\Client1\\x", "CLIENTS/Client1/x", 8, false },
	{ "\\clients\\client10\\f", "clients/client10/f", -1, false },
	{ "\\clients\\xclient1", "clients/xclient1", -1, false },
	{ "\\client1\\f", "client1/f", -1, false },
	{ "\\clients1\\client1", "clients1/client1", -1, false },
	{ "\\x\\clients\\client1\\y", "x/clients/client1/y", 10, false },
	{ "\\clients\\a\\client1", "clients/a/client1", -1, false },
	{ "\\clients\\client1\\clients\\client1",
	  "clients/client1/clients/"
	  "client1",
	  8, false },
	{ "\\\\clients\\\\\\client1\\", "clients/client1", 8, false },
	{ "\\clients\\.\\client1", "clients/client1", 8, false },
	{ "\\\\a\\\\\\b\\.\\c\\", "a/b/c", -1, false },
	{ "./a/./b/.", "a/b", -1, false },
	{ "\\a\\...\\b", "a/.../b", -1, false },
	{ "\\a\\..b\\c..", "a/..b/c..", -1, false },
	{ "", "", -1, false },
	{ "\\", "", -1, false },
	{ "a b\\ c ", "a b/ c ", -1, false },
	{ "\\~dmtmp\\WORD\\~$CHAP10.DOC", "~dmtmp/WORD/~$CHAP10.DOC", -1,
	  false },
	{ "\\a$", "a$", -1, false },
	{ "\\a\\$0", "a/$0", -1, true },
	{ "\\clients\\client1\\f$12x", "clients/client1/f$12x", 8, true },
};

static void test_paths(void **state)
{
	struct tstate *ts = *state;
	size_t i;

	for (i = 0; i < sizeof(path_cases) / sizeof(path_cases[0]); i++) {
		const struct path_case *c = &path_cases[i];
		char *text = talloc_asprintf(ts->ctx,
					     "RANDOMSTRING 0 \"x\"\n"
					     "RANDOMSTRING 12 \"[ab]\"\n"
					     "Mkdir \"%s\" *\n",
					     c->raw);
		struct program *p = compile_ok(ts, text);
		const struct path *pp = program_path(p, &p->ops[2], 0);

		if (strcmp(pp->text, c->norm) != 0 ||
		    pp->client_pos != c->client_pos)
			fail_msg("'%s' -> '%s' pos %d, expected '%s' pos %d",
				 c->raw, pp->text, pp->client_pos, c->norm,
				 c->client_pos);
		assert_int_equal(pp->len, strlen(c->norm));
		assert_int_equal(pp->client_len, c->client_pos >= 0 ? 7 : 0);
		if (c->client_pos >= 0)
			assert_int_equal(strncasecmp(pp->text + pp->client_pos,
						     "client1", 7),
					 0);
		assert_int_equal(pp->has_random, c->has_random);
		assert_int_equal(pp->id, 0);
		assert_int_equal(p->npaths, 1);
		assert_ptr_equal(&p->paths[0], pp);
		talloc_free(p);
		talloc_free(text);
	}

	/* the longest path and component that are accepted */
	{
		char *comp = talloc_zero_size(ts->ctx, 256);
		char *text;
		struct program *p;

		memset(comp, 'c', 255);
		text = talloc_asprintf(ts->ctx,
				       "Mkdir \"\\%s\\%s\\%s\\%s\\"
				       "%s\\%s\\%s\\%s\\%s\\%s\\%s\\%s\\%s"
				       "\\%s\\%s\\%.255s\" *",
				       comp, comp, comp, comp, comp, comp, comp,
				       comp, comp, comp, comp, comp, comp, comp,
				       comp, comp);
		/* 16 components of 255 + 15 separators = 4095 */
		p = compile_ok(ts, text);
		assert_int_equal(program_path(p, &p->ops[0], 0)->len, 4095);
		talloc_free(p);
		talloc_free(text);
		talloc_free(comp);
	}
}

/*
 * What may be removed or moved: anything inside the client's directory
 * (in any case, with any separators), and the directory itself for
 * Deltree and Rmdir; paths outside it are fine for other commands.
 */
/* ---- dbench 5.0's smb dialect ---- */

static void test_smb5_dialect(void **state)
{
	struct tstate *ts = *state;
	/* lines both dialects share come first: the OPEN decides */
	struct program *p = compile_ok(
		ts, "Deltree \"/client1\" *\n"
		    "MKDIR \"\\client1\\d\" SUCCESS\n"
		    "OPEN \"\\client1\\d\\f\" 0x0c SUCCESS\n"
		    "WRITE \"/client1/d/f\" 0 4096 SUCCESS\n"
		    "REPEAT 2\n"
		    "WRITE \"/client1/d/f\" +4096 4096 ERROR\n"
		    "READ \"\\client1\\d\\f\" *%0x10000000/4096 4096 *\n"
		    "CLOSE \"\\client1\\d\\f\" SUCCESS\n"
		    "OPEN \"\\client1\\d\\g\" 0x01 ERROR\n"
		    "READDIR \"\\client1\\d\" SUCCESS\n"
		    "UNLINK \"\\client1\\d\\f\" SUCCESS\n"
		    "RMDIR \"\\client1\\d\" SUCCESS\n"
		    "Deltree \"\\client1\\d\" SUCCESS\n");
	static const enum op_kind kinds[] = {
		OP_DELTREE5, OP_MKDIR5, OP_OPEN5, OP_WRITE5, OP_REPEAT,
		OP_WRITE5, OP_READ5, OP_CLOSE5, OP_OPEN5, OP_READDIR5,
		OP_UNLINK5, OP_RMDIR5, OP_DELTREE5,
	};

	assert_int_equal(p->nops, 13);
	for (unsigned i = 0; i < p->nops; i++)
		assert_int_equal(p->ops[i].kind, kinds[i]);
	/* from the share's root, "client1" substituted per client (dbench
	 * 5.0 since it stopped assuming /clients/client1) */
	assert_string_equal(program_path(p, &p->ops[0], 0)->text, "client1");
	assert_int_equal(program_path(p, &p->ops[0], 0)->client_pos, 0);
	assert_string_equal(program_path(p, &p->ops[1], 0)->text, "client1/d");
	assert_int_equal(program_path(p, &p->ops[1], 0)->client_pos, 0);
	assert_string_equal(program_path(p, &p->ops[2], 0)->text, "client1/d/f");
	assert_int_equal(p->ops[3].path[0], p->ops[2].path[0]);
	/* the earlier paths were interned again: no stale ones */
	assert_int_equal(p->npaths, 4);
	/* one handle slot per opened path */
	assert_int_equal(p->nhandles, 2);
	assert_int_equal(p->ops[2].handle, 0);
	assert_int_equal(p->ops[3].handle, 0);
	assert_int_equal(p->ops[7].handle, 0);
	assert_int_equal(p->ops[8].handle, 1);
	assert_int_equal(p->ops[9].handle, -1);
	assert_int_equal(program_arg(p, &p->ops[2], 0).v, 0x0c);
	assert_int_equal(program_arg(p, &p->ops[5], 0).kind, VAL_RELATIVE);
	assert_int_equal(program_arg(p, &p->ops[6], 0).kind, VAL_RANDOM);
	assert_int_equal(program_arg(p, &p->ops[6], 0).nmods, 2);
	assert_int_equal(p->ops[1].check, STATUS_SUCCESS);
	assert_int_equal(p->ops[5].check, STATUS_FAILURE);
	assert_int_equal(p->ops[6].check, STATUS_ANY);
	talloc_free(p);

	/* without a line only dbench 5.0 has, the shared ones are
	 * client.txt's, as before */
	p = compile_ok(ts, "Mkdir \"\\clients\" SUCCESS\n"
			   "MKDIR \"\\clients\\client1\\x\" ERROR\n"
			   "Rmdir \"\\clients\\client1\\x\" *\n");
	assert_int_equal(p->ops[0].kind, OP_MKDIR);
	assert_int_equal(p->ops[1].kind, OP_MKDIR);
	assert_string_equal(program_path(p, &p->ops[1], 0)->text, "clients/client1/x");
	assert_int_equal(p->ops[2].kind, OP_RMDIR);
	talloc_free(p);
	/* a client.txt line decides too; CLOSE with a handle is Close */
	p = compile_ok(ts, "NTCreateX \"\\clients\\client1\\f\" 0 2 7 *\n"
			   "CLOSE 7 SUCCESS\n"
			   "UNLINK \"\\clients\\client1\\f\" SUCCESS\n");
	assert_int_equal(p->ops[1].kind, OP_CLOSE);
	assert_int_equal(p->ops[2].kind, OP_UNLINK);
	talloc_free(p);

	/* upstream's own shapes: "/client1/test.txt" and
	 * "/clients/client1/work"; a path without "client1" is shared */
	p = compile_ok(ts, "MKDIR \"/clients/client1/work\" *\n"
			   "OPEN \"/client1/test.txt\" 0x0c SUCCESS\n"
			   "OPEN \"/shared.txt\" 0x0c SUCCESS\n");
	assert_string_equal(program_path(p, &p->ops[0], 0)->text,
			    "clients/client1/work");
	assert_int_equal(program_path(p, &p->ops[0], 0)->client_pos, 8);
	assert_string_equal(program_path(p, &p->ops[1], 0)->text,
			    "client1/test.txt");
	assert_int_equal(program_path(p, &p->ops[1], 0)->client_pos, 0);
	assert_int_equal(program_path(p, &p->ops[2], 0)->client_pos, -1);
	{
		size_t n = 0;
		char **t = client_trees(p, p, 3, &n);

		assert_non_null(t);
		assert_int_equal(n, 2);
		assert_string_equal(t[0], "clients/client3");
		assert_string_equal(t[1], "client3");
	}
	talloc_free(p);
	/* a removal reaches inside the client's directory only */
	expect_error(ts, "OPEN \"/x\" 0x0c SUCCESS\nUNLINK \"/x\" SUCCESS\n",
		     2, "UNLINK: path \"\\x\" is outside the client's directory");
	expect_error(ts, "Deltree \"/\" *\nOPEN \"/client1/f\" 0x0c *\n",
		     1, "Deltree: path \"\\\" is outside the client's directory");
	expect_error(ts, "MKDIR \"/client1\" *\nUNLINK \"/client1\" *\n"
			 "OPEN \"/client1/f\" 0x0c *\n",
		     2, "UNLINK: path \"\\client1\" is the client's own "
			"directory");
	p = compile_ok(ts, "OPEN \"/client1/f\" 0x0c *\n"
			   "RMDIR \"/client1\" *\nDeltree \"/client1\" *\n");
	talloc_free(p);
	/* one "client1", a whole component */
	expect_error(ts, "OPEN \"/x/client1.txt\" 0x0c SUCCESS\n", 1,
		     "has \"client1\" inside a longer name");
	expect_error(ts, "OPEN \"/client1/x/client1\" 0x0c SUCCESS\n", 1,
		     "has \"client1\" more than once");
	expect_error(ts, "OPEN \"/client10/x\" 0x0c SUCCESS\n", 1,
		     "inside a longer name");
	expect_error(ts, "OPEN \"\\f\" 0x0c SUCCESS\nClose 1 *\n", 2,
		     "Close is client.txt's dialect, but OPEN on line 1 is "
		     "dbench 5.0's smb dialect");
	expect_error(ts, "NTCreateX \"\\clients\\client1\\f\" 0 2 1 *\n"
			 "OPEN \"\\f\" 0x0c SUCCESS\n", 2,
		     "OPEN is dbench 5.0's smb dialect, but NTCreateX on "
		     "line 1 is client.txt's");
	expect_error(ts, "OPEN \"\\f\" 0x0c NT_STATUS_OK\n", 1,
		     "OPEN: expected SUCCESS, ERROR or * as the last field");
	expect_error(ts, "OPEN \"\\f\" 0x0c SUCCESS\nREAD \"\\g\" 0 1 *\n", 2,
		     "READ: \"\\g\" is never opened; expected an OPEN of it");
	expect_error(ts, "OPEN \"\\f\" SUCCESS\n", 1,
		     "OPEN: expected 'OPEN path flags status'");
	expect_error(ts, "OPEN \"\\..\\f\" 0 SUCCESS\n", 1, "'..' component");
	/* the names only dbench 5.0 has are its capitals */
	expect_error(ts, "Open \"\\f\" 0x0c SUCCESS\n", 1,
		     "unknown operation 'Open'");
	/* an undecided file's removals are client.txt's, confined as ever */
	expect_error(ts, "MKDIR \"\\foo\" SUCCESS\nRMDIR \"\\foo\" SUCCESS\n",
		     2, "outside the client's directory");
}

static void test_removal_confinement(void **state)
{
	struct tstate *ts = *state;
	struct program *p = compile_ok(
		ts, "Deltree \"\\clients\\client1\" *\n"
		    "Rmdir \"/clients/client1/\" *\n"
		    "Deltree \"\\CLIENTS\\Client1\\sub\" *\n"
		    "Unlink \"clients//client1/./f\" *\n"
		    "Rename \"\\clients\\client1\\a\" \"\\clients\\client1\\d\\b\" *\n"
		    "Mkdir \"\\shared\" *\n"
		    "NTCreateX \"\\shared\\f\" 0 0 1 *\n"
		    "Close 1 *\n"
		    "Qpathinfo \"\\\" 1004 *\n");

	assert_int_equal(p->nops, 9);
	assert_int_equal(p->ops[0].kind, OP_DELTREE);
	assert_string_equal(program_path(p, &p->ops[0], 0)->text,
			    "clients/client1");
	assert_int_equal(p->ops[1].kind, OP_RMDIR);
	assert_string_equal(program_path(p, &p->ops[2], 0)->text,
			    "CLIENTS/Client1/sub");
	assert_string_equal(program_path(p, &p->ops[3], 0)->text,
			    "clients/client1/f");
	assert_string_equal(program_path(p, &p->ops[4], 1)->text,
			    "clients/client1/d/b");
	talloc_free(p);
}

static void test_path_interning(void **state)
{
	struct tstate *ts = *state;
	/* Rename's paths must be inside the client's directory */
	struct program *p = compile_ok(
		ts, "Unlink \"\\clients\\client1\\a\\b\" *\n"
		    "Unlink \"/clients/client1//a//b/\" *\n"
		    "Rename \"clients/client1/a/./b\" \"\\clients\\client1\\c\" *\n"
		    "Unlink \"\\clients\\client1\\A\\b\" *\n"
		    "Rename \"\\clients\\client1\\c\" \"\\clients\\client1\\a\\b\" *\n");
	uint32_t i;

	assert_int_equal(p->npaths, 3);
	assert_int_equal(p->ops[0].path[0], p->ops[1].path[0]);
	assert_int_equal(p->ops[0].path[0], p->ops[2].path[0]);
	assert_int_equal(p->ops[2].path[1], p->ops[4].path[0]);
	assert_int_equal(p->ops[0].path[0], p->ops[4].path[1]);
	assert_int_not_equal(p->ops[0].path[0], p->ops[3].path[0]);
	for (i = 0; i < p->npaths; i++)
		assert_int_equal(p->paths[i].id, i);
	assert_string_equal(p->paths[0].text, "clients/client1/a/b");
	assert_string_equal(p->paths[1].text, "clients/client1/c");
	assert_string_equal(p->paths[2].text, "clients/client1/A/b");
	talloc_free(p);
}

/* many distinct paths: the intern table grows and still finds them all */
static void test_many_paths(void **state)
{
	struct tstate *ts = *state;
	struct sbuf b;
	struct program *p;
	int i;

	sb_init(ts, &b);
	for (i = 0; i < 5000; i++)
		sb_printf(&b, "Mkdir \"\\d\\f%d\" *\n", i);
	for (i = 4999; i >= 0; i--)
		sb_printf(&b, "Mkdir \"/d/f%d\" *\n", i);
	p = compile_ok(ts, b.s);
	assert_int_equal(p->npaths, 5000);
	for (i = 0; i < 5000; i++) {
		assert_int_equal(p->ops[i].path[0], p->ops[9999 - i].path[0]);
		assert_int_equal(program_path(p, &p->ops[i], 0)->id, i);
	}
	talloc_free(p);
	talloc_free(b.s);
}

/*
 * Every path knows its parent directory, interned program-wide: one
 * number per directory text (before the per-client substitution), the
 * root for a path of one component, none when the directory has a $i.
 */
static void test_path_dirs(void **state)
{
	struct tstate *ts = *state;
	struct program *p = compile_ok(
		ts, "RANDOMSTRING 0 \"[ab]\"\n"
		    "Mkdir \"\\clients\\client1\\d\" *\n"
		    "NTCreateX \"\\clients\\client1\\d\\f\" 0 2 1 *\n"
		    "Unlink \"/clients/client1/d/g\" *\n"
		    "Mkdir \"\\top\" *\n"
		    "Mkdir \"\\clients\\client1\\$0\" *\n"
		    "Mkdir \"\\clients\\client1\\$0\\x\" *\n"
		    "Rename \"\\clients\\client1\\d\\f\" "
		    "\"\\clients\\client1\\e\" *\n");
	const struct path *d = program_path(p, &p->ops[1], 0);
	const struct path *f = program_path(p, &p->ops[2], 0);
	const struct path *g = program_path(p, &p->ops[3], 0);

	assert_int_equal(p->dirs[PATH_DIR_ROOT].len, 0);
	assert_string_equal(p->dirs[PATH_DIR_ROOT].text, "");
	assert_true(d->dir != PATH_DIR_ROOT && d->dir < p->ndirs);
	assert_string_equal(p->dirs[d->dir].text, "clients/client1");
	assert_int_equal(p->dirs[d->dir].len, 15);
	assert_true(f->dir < p->ndirs && f->dir != d->dir);
	assert_string_equal(p->dirs[f->dir].text, "clients/client1/d");
	assert_int_equal(g->dir, f->dir);
	assert_int_equal(program_path(p, &p->ops[4], 0)->dir, PATH_DIR_ROOT);
	assert_int_equal(program_path(p, &p->ops[5], 0)->dir, d->dir);
	assert_int_equal(program_path(p, &p->ops[6], 0)->dir, PATH_DIR_NONE);
	assert_int_equal(program_path(p, &p->ops[7], 0)->dir, f->dir);
	assert_int_equal(program_path(p, &p->ops[7], 1)->dir, d->dir);
	/* "", "clients/client1", "clients/client1/d" */
	assert_int_equal(p->ndirs, 3);
	talloc_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_paths, setup, teardown),
		cmocka_unit_test_setup_teardown(test_removal_confinement, setup, teardown),
		cmocka_unit_test_setup_teardown(test_smb5_dialect, setup, teardown),
		cmocka_unit_test_setup_teardown(test_path_interning, setup, teardown),
		cmocka_unit_test_setup_teardown(test_path_dirs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_many_paths, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
