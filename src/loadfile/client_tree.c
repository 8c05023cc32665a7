/*
 * client_tree.c - the names of a client's files (see client_tree.h).
 */
#include "config.h"

#include <stdbool.h>
#include <string.h>
#include <talloc.h>

#include "loadfile/client_tree.h"

/*
 * By hand: the first snprintf() of a fresh worker faults in the pages of
 * printf's code and tables, ~5 of its few dozen page faults before it
 * can start.
 */
size_t client_name(char *buf, unsigned id)
{
	char digits[16];
	size_t n = 0, len = 0;

	do {
		digits[n++] = (char)('0' + id % 10);
		id /= 10;
	} while (id != 0);
	memcpy(buf, "client", 6);
	len = 6;
	while (n > 0)
		buf[len++] = digits[--n];
	buf[len] = '\0';
	return len;
}

char *client_dir_name(void *mem_ctx, unsigned client_id)
{
	char name[CLIENT_NAME_MAX];

	client_name(name, client_id);
	return talloc_asprintf(mem_ctx, "clients/%s", name);
}

char *client_path_for(void *mem_ctx, const struct path *p, unsigned client)
{
	if (p->client_pos < 0)
		return talloc_strndup(mem_ctx, p->text, p->len);
	return talloc_asprintf(mem_ctx, "%.*sclient%u%s", (int)p->client_pos,
			       p->text, client,
			       p->text + p->client_pos + p->client_len);
}

/* Is prog in dbench 5.0's smb dialect (its paths name their own trees)?
 * One dialect per file, so its first measured op says. */
static bool client_trees_smb5(const struct program *prog)
{
	for (uint32_t i = 0; prog != NULL && i < prog->nops; i++)
		if (prog->ops[i].kind < OP_NUM_MEASURED)
			return op_kind_is_smb5(prog->ops[i].kind);
	return false;
}

char **client_trees(void *mem_ctx, const struct program *prog,
		    unsigned client_id, size_t *n)
{
	char **trees = talloc_array(mem_ctx, char *, 1);

	*n = 0;
	if (trees == NULL)
		return NULL;
	if (!client_trees_smb5(prog)) {
		trees[0] = client_dir_name(trees, client_id);
		*n = 1;
		return trees[0] != NULL ? trees : (talloc_free(trees), NULL);
	}
	for (uint32_t i = 0; i < prog->npaths; i++) {
		const struct path *p = &prog->paths[i];
		char *t;
		bool seen = false;

		/* the compiler made "client1" a whole component */
		if (p->client_pos < 0)
			continue;
		t = talloc_asprintf(trees, "%.*sclient%u", p->client_pos,
				    p->text, client_id);
		if (t == NULL) {
			talloc_free(trees);
			return NULL;
		}
		for (size_t j = 0; j < *n && !seen; j++)
			seen = strcmp(trees[j], t) == 0;
		if (seen) {
			talloc_free(t);
			continue;
		}
		if (*n > 0) {
			char **a = talloc_realloc(mem_ctx, trees, char *,
						  *n + 1);

			if (a == NULL) {
				talloc_free(trees);
				return NULL;
			}
			trees = a;
		}
		trees[(*n)++] = t;
	}
	return trees;
}
