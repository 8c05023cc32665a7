/*
 * paths.c - the loadfile compiler's paths: normalisation (separators,
 * "." and ".." components, the client's directory), interning (one
 * struct path per distinct text), the directory table, and the checks of
 * "$i" RANDOMSTRING substitutions in paths.
 */
#include "config.h"

#include <string.h>
#include <strings.h>

#include <talloc.h>

#include "loadfile/program.h"
#include "lf_private.h"

/* ---- paths ---- */

static inline uint32_t lf_hash_bytes(const char *p, size_t len)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)p[i];
		h *= 16777619u;
	}
	return h;
}

/* The text of entry id of an interning table (paths or directories). */
typedef const char *lf_itab_text_fn(const struct lf_state *st, uint32_t id,
				    uint32_t *len);

static const char *lf_path_text(const struct lf_state *st, uint32_t id,
				uint32_t *len)
{
	*len = st->paths[id].len;
	return st->paths[id].text;
}

static const char *lf_dir_text(const struct lf_state *st, uint32_t id,
			       uint32_t *len)
{
	*len = st->dirs[id].len;
	return st->dirs[id].text;
}

/* Make t hold n entries at most half full (ids 0..n-1 hashed again). */
static int lf_itab_size(struct lf_state *st, struct lf_itab *t, uint32_t n,
			lf_itab_text_fn *text)
{
	uint32_t cap = t->slot != NULL ? t->mask + 1 : 512;
	uint32_t *tab;

	if (t->slot != NULL && (uint64_t)n * 2 <= cap)
		return 0;
	while ((uint64_t)n * 2 > cap)
		cap *= 2;
	tab = talloc_zero_array(st->tmp, uint32_t, cap);
	if (tab == NULL)
		return lf_nomem(st);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t len;
		const char *p = text(st, i, &len);
		uint32_t h = lf_hash_bytes(p, len) & (cap - 1);

		while (tab[h] != 0)
			h = (h + 1) & (cap - 1);
		tab[h] = i + 1;
	}
	talloc_free(t->slot);
	t->slot = tab;
	t->mask = cap - 1;
	return 0;
}

/*
 * Look p[0..n) up in t: returns its id, or UINT32_MAX with *h set to the
 * free slot a new entry of that text goes into.
 */
static uint32_t lf_itab_find(const struct lf_state *st,
			     const struct lf_itab *t, lf_itab_text_fn *text,
			     const char *p, size_t n, uint32_t *h)
{
	uint32_t i = lf_hash_bytes(p, n) & t->mask, id;

	while ((id = t->slot[i]) != 0) {
		uint32_t len;
		const char *q = text(st, id - 1, &len);

		if (len == n && memcmp(q, p, n) == 0)
			return id - 1;
		i = (i + 1) & t->mask;
	}
	*h = i;
	return UINT32_MAX;
}

static inline bool lf_word_is(const char *p, size_t len, const char *word,
			      size_t wlen)
{
	return len == wlen && strncasecmp(p, word, wlen) == 0;
}

/* Note "$i" uses in a normalised path; returns whether there are any. */
static int lf_path_randoms(struct lf_state *st, const struct op *op,
			   const char *t, size_t len, bool *has_random)
{
	size_t i, j;

	*has_random = false;
	for (i = 0; i + 1 < len; i = j) {
		unsigned idx = 0;
		bool big = false;

		j = i + 1;
		if (t[i] != '$' || t[j] < '0' || t[j] > '9')
			continue;
		for (; j < len && t[j] >= '0' && t[j] <= '9'; j++) {
			idx = idx * 10 + (unsigned)(t[j] - '0');
			if (idx > LF_MAX_RANDOM)
				big = true;
			if (big)
				idx = LF_MAX_RANDOM + 1;
		}
		if (big)
			return lf_error(st,
					"%s: path \"%s\" uses $%s; "
					"expected $0 to $%u",
					lf_op_name(op), lf_show(st, t, len),
					lf_show(st, t + i + 1, j - i - 1),
					LF_MAX_RANDOM);
		if (st->random_use_line[idx] == 0)
			st->random_use_line[idx] = st->line;
		*has_random = true;
	}
	return 0;
}

/*
 * Normalise the quoted path f into st->scratch (see struct path): '/' and
 * '\\' separate, empty and "." components go, ".." and NUL bytes are
 * refused.  The substitution point is the first component "client1"
 * that follows a component "clients" (both case-insensitive); in dbench
 * 5.0's smb dialect, lf_smb5_client()'s.  Sets *len
 * and *client_pos (-1: none).  Returns 0, or -1 after lf_error().
 */
static int lf_path_normalise(struct lf_state *st, struct op *op,
			     const char *what, const struct lf_field *f,
			     size_t *len, int32_t *client_pos)
{
	const char *p = f->p;
	size_t flen = f->len, i = 0, n = 0;
	bool prev_clients = false;

	*client_pos = -1;
	while (i < flen) {
		size_t start, clen;

		while (i < flen && (p[i] == '/' || p[i] == '\\'))
			i++;
		start = i;
		while (i < flen && p[i] != '/' && p[i] != '\\')
			i++;
		clen = i - start;
		if (clen == 0 || (clen == 1 && p[start] == '.'))
			continue;
		if (clen == 2 && p[start] == '.' && p[start + 1] == '.')
			return lf_error(st,
					"%s: %s: path \"%s\" has a '..' "
					"component; expected a path that stays "
					"inside the client's directory",
					lf_op_name(op), what,
					lf_show(st, p, flen));
		if (memchr(p + start, '\0', clen) != NULL)
			return lf_error(st, "%s: %s: path has a NUL byte",
					lf_op_name(op), what);
		if (clen > LF_MAX_COMPONENT)
			return lf_error(st,
					"%s: %s: path component \"%s\" is "
					"%zu bytes long; expected at most %u",
					lf_op_name(op), what,
					lf_show(st, p + start, clen), clen,
					LF_MAX_COMPONENT);
		if (n > 0)
			st->scratch[n++] = '/';
		if (n + clen > LF_MAX_PATH)
			return lf_error(st,
					"%s: %s: path \"%s\" is longer than "
					"%u bytes",
					lf_op_name(op), what,
					lf_show(st, p, flen), LF_MAX_PATH);
		if (*client_pos < 0 && prev_clients && st->dialect != LF_SMB5 &&
		    lf_word_is(p + start, clen, "client1", 7))
			*client_pos = (int32_t)n;
		prev_clients = lf_word_is(p + start, clen, "clients", 7);
		memcpy(st->scratch + n, p + start, clen);
		n += clen;
	}
	st->scratch[n] = '\0';
	*len = n;
	if (st->dialect == LF_SMB5)
		return lf_smb5_client(st, op, what, n, client_pos);
	return 0;
}

/* Remember a path with a $i substitution, checked when the program ends. */
static int lf_note_random_path(struct lf_state *st, uint32_t id)
{
	if (st->nrpaths == st->rpaths_cap) {
		uint32_t cap = st->rpaths_cap ? st->rpaths_cap * 2 : 16;
		struct lf_random_path *a = talloc_realloc(
			st->tmp, st->rpaths, struct lf_random_path, cap);

		if (a == NULL)
			return lf_nomem(st);
		st->rpaths = a;
		st->rpaths_cap = cap;
	}
	st->rpaths[st->nrpaths].path = id;
	st->rpaths[st->nrpaths].line = st->line;
	st->nrpaths++;
	return 0;
}

/* Does text[0..n) have a "$<digit>"? */
static bool lf_has_random(const char *t, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++)
		if (t[i] == '$' && t[i + 1] >= '0' && t[i + 1] <= '9')
			return true;
	return false;
}

/*
 * The directory (an index in prog->dirs, interned) holding the path
 * text[0..n): see struct path's dir.  UINT32_MAX - 1 after an error.
 */
static uint32_t lf_path_dir(struct lf_state *st, const char *text, size_t n)
{
	const char *slash = memrchr(text, '/', n);
	struct program *prog = st->prog;
	uint32_t h = 0, id;
	size_t len;
	void *a;

	if (slash == NULL)
		return PATH_DIR_ROOT;
	len = (size_t)(slash - text);
	if (lf_has_random(text, len))
		return PATH_DIR_NONE;
	id = lf_itab_find(st, &st->dir_tab, lf_dir_text, text, len, &h);
	if (id != UINT32_MAX)
		return id;
	a = lf_grow(st, st->dirs, sizeof(*st->dirs), &st->dirs_cap,
		    (uint64_t)prog->ndirs + 1, 64);
	if (a == NULL)
		return UINT32_MAX - 1;
	prog->dirs = st->dirs = a;
	id = prog->ndirs;
	st->dirs[id].text = lf_keep_text(st, text, len);
	st->dirs[id].len = (uint32_t)len;
	if (st->dirs[id].text == NULL)
		return UINT32_MAX - 1;
	prog->ndirs++;
	st->dir_tab.slot[h] = id + 1;
	if (lf_itab_size(st, &st->dir_tab, prog->ndirs, lf_dir_text) != 0)
		return UINT32_MAX - 1;
	return id;
}

/*
 * A new path of the program for the normalised text[0..n), entered in
 * the hash table's slot h.  Returns its id, or PATH_NONE after an error.
 */
static uint32_t lf_path_add(struct lf_state *st, struct op *op,
			    const char *text, size_t n, int32_t client_pos,
			    uint32_t h)
{
	struct program *prog = st->prog;
	struct path *pp;
	bool has_random;
	uint32_t dir;
	void *a;

	if (lf_path_randoms(st, op, text, n, &has_random) != 0)
		return PATH_NONE;
	a = lf_grow(st, st->paths, sizeof(*pp), &st->paths_cap,
		    (uint64_t)prog->npaths + 1, 256);
	if (a == NULL)
		return PATH_NONE;
	prog->paths = st->paths = a;
	dir = lf_path_dir(st, text, n);
	if (dir == UINT32_MAX - 1)
		return PATH_NONE;
	pp = &st->paths[prog->npaths];
	pp->text = lf_keep_text(st, text, n);
	if (pp->text == NULL)
		return PATH_NONE;
	pp->len = (uint32_t)n;
	pp->client_pos = client_pos;
	pp->client_len = client_pos >= 0 ? 7 : 0;
	pp->has_random = has_random;
	pp->dir = dir;
	pp->id = prog->npaths++;
	if (n > prog->max_path_len)
		prog->max_path_len = (uint32_t)n;
	st->path_tab.slot[h] = pp->id + 1;
	if (has_random && lf_note_random_path(st, pp->id) != 0)
		return PATH_NONE;
	return pp->id;
}

/*
 * Normalise a quoted path (see struct path) and intern it: the same text
 * is one struct path however often the loadfile names it.  Sets *out to
 * its id.
 */
int lf_path(struct lf_state *st, struct op *op, const char *what,
	    const struct lf_field *f, uint32_t *out)
{
	int32_t client_pos = -1;
	uint32_t h = 0;
	size_t n = 0;

	if (!f->quoted)
		return lf_error(st,
				"%s: %s: expected a quoted path such as "
				"\"\\clients\\client1\\file\", found %s",
				lf_op_name(op), what, lf_show_field(st, f));
	if (f->len + 1 > st->scratch_cap) {
		char *s = talloc_realloc(st->tmp, st->scratch, char,
					 f->len + 1);

		if (s == NULL)
			return lf_nomem(st);
		st->scratch = s;
		st->scratch_cap = f->len + 1;
	}
	if (lf_path_normalise(st, op, what, f, &n, &client_pos) != 0)
		return -1;
	*out = lf_itab_find(st, &st->path_tab, lf_path_text, st->scratch, n,
			    &h);
	if (*out != UINT32_MAX)
		return 0;
	*out = lf_path_add(st, op, st->scratch, n, client_pos, h);
	if (*out == PATH_NONE)
		return -1;
	return lf_itab_size(st, &st->path_tab, st->prog->npaths, lf_path_text);
}

/* ---- tables and whole-file checks ---- */

/* The empty interning tables; the directory table's entry
 * PATH_DIR_ROOT, "". */
int lf_dirs_init(struct lf_state *st)
{
	struct program *prog = st->prog;

	if (lf_itab_size(st, &st->path_tab, 0, lf_path_text) != 0)
		return -1;
	prog->dirs = st->dirs = lf_grow(st, NULL, sizeof(*st->dirs),
					&st->dirs_cap, 1, 64);
	if (st->dirs == NULL)
		return -1;
	st->dirs[PATH_DIR_ROOT].text = "";
	st->dirs[PATH_DIR_ROOT].len = 0;
	prog->ndirs = 1;
	return lf_itab_size(st, &st->dir_tab, prog->ndirs, lf_dir_text);
}

/* A $i with no RANDOMSTRING i: an error at the first such line. */
int lf_check_randoms(struct lf_state *st)
{
	uint32_t i, bad_line = 0;

	for (i = 0; i <= LF_MAX_RANDOM; i++) {
		if (st->random_use_line[i] != 0 && !st->random_defined[i] &&
		    (bad_line == 0 || st->random_use_line[i] < bad_line))
			bad_line = st->random_use_line[i];
		if (st->random_defined[i])
			st->prog->nrandom = i + 1;
	}
	if (bad_line == 0)
		return 0;
	for (i = 0; i <= LF_MAX_RANDOM; i++) {
		if (st->random_use_line[i] == bad_line &&
		    !st->random_defined[i])
			break;
	}
	st->line = bad_line;
	return lf_error(st, "path uses $%u, but the file has no RANDOMSTRING %u",
			i, i);
}

/*
 * Does the path component at *tp (up to end or '/') consist of dots and
 * $i only, some $i among them, each of which may be all dots?  Moves *tp
 * past the component.
 */
static bool lf_component_may_be_dots(const struct lf_state *st,
				     const char **tp, const char *end)
{
	const char *t = *tp;
	bool dots = true, any_random = false;

	while (t < end && *t != '/') {
		if (*t == '$' && t + 1 < end && t[1] >= '0' && t[1] <= '9') {
			unsigned idx = 0;

			for (t++; t < end && *t >= '0' && *t <= '9'; t++)
				idx = idx * 10 + (unsigned)(*t - '0');
			any_random = true;
			dots = dots && st->random_dots[idx];
			continue;
		}
		dots = dots && *t == '.';
		t++;
	}
	*tp = t;
	return any_random && dots;
}

/* A component made of dots and $i that may expand to "." or "..". */
int lf_check_random_dots(struct lf_state *st)
{
	for (uint32_t i = 0; i < st->nrpaths; i++) {
		const struct path *pp = &st->paths[st->rpaths[i].path];
		const char *t = pp->text, *end = t + pp->len;

		while (t < end) {
			const char *c = t;

			if (lf_component_may_be_dots(st, &t, end)) {
				st->line = st->rpaths[i].line;
				return lf_error(st,
						"path \"%s\": component "
						"\"%s\" may expand to '.' or "
						"'..'; expected a RANDOMSTRING "
						"that cannot be all dots",
						lf_show(st, pp->text, pp->len),
						lf_show(st, c,
							(size_t)(t - c)));
			}
			if (t < end)
				t++;
		}
	}
	return 0;
}

/* ---- dbench 5.0's smb dialect: the client's name in a path ---- */

/*
 * Its paths are written from the share's root (or -D), as dbench 5.0
 * has resolved them since it stopped assuming "/clients/client1": each
 * client replaces "client1" in them with its own name, so
 * "\client1\f" is client0/f for client 0 and "\clients\client1\d" is
 * clients/client0/d.
 */
#define LF_SMB5_NAME "client1"
#define LF_SMB5_NAME_LEN (sizeof(LF_SMB5_NAME) - 1)

/*
 * The substitution point of the normalised smb-dialect path
 * st->scratch[0..len): where "client1" (as spelt) occurs.  dbench 5.0
 * replaces every occurrence anywhere in the text; a path holds one
 * substitution point, so a second occurrence is refused, and so is one
 * inside a longer name ("client1.txt", "client10"): the client's name is
 * a whole component, the directory that is the client's own (what a
 * removal may reach, and what the end of the run removes).
 */
int lf_smb5_client(struct lf_state *st, struct op *op, const char *what,
		   size_t len, int32_t *client_pos)
{
	const char *t = st->scratch;
	const char *hit = memmem(t, len, LF_SMB5_NAME, LF_SMB5_NAME_LEN);
	size_t pos, end;

	*client_pos = -1;
	if (hit == NULL)
		return 0;
	pos = (size_t)(hit - t);
	end = pos + LF_SMB5_NAME_LEN;
	if ((pos > 0 && t[pos - 1] != '/') || (end < len && t[end] != '/'))
		return lf_error(st,
				"%s: %s: path \"%s\" has \"%s\" inside a "
				"longer name; expected it as a whole component, "
				"the client's directory (dbench 5.0's smb "
				"dialect)",
				lf_op_name(op), what, lf_show(st, t, len),
				LF_SMB5_NAME);
	if (memmem(t + end, len - end, LF_SMB5_NAME, LF_SMB5_NAME_LEN) != NULL)
		return lf_error(st,
				"%s: %s: path \"%s\" has \"%s\" more than "
				"once; expected it once, the client's directory "
				"(dbench 5.0's smb dialect)",
				lf_op_name(op), what, lf_show(st, t, len),
				LF_SMB5_NAME);
	*client_pos = (int32_t)pos;
	return 0;
}
