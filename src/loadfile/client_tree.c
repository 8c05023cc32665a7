/*
 * client_tree.c - the names of a client's files (see client_tree.h).
 */
#include "config.h"

#include <string.h>
#include <talloc.h>

#include "client_tree.h"

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
