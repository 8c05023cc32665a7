/*
 * cli_mask.c - the passwords of URLs (scheme://USER:PASSWORD@HOST) found
 * and shown as "***": for argv (cli.c), for a backend's server URL kept
 * in the options (cli_backend.c) and so for the history.  It calls
 * nothing else of the command line.
 */
#include "config.h"

#include <string.h>

#include <talloc.h>

#include "cli_shared.h"

/*
 * The next password of a URL in s (scheme://USER:PASSWORD@HOST...): its
 * start and length, or NULL when s has no more.
 */
const char *cli_url_password(const char *s, size_t *len)
{
	for (const char *p = strstr(s, "://"); p != NULL;
	     p = strstr(p + 3, "://")) {
		const char *auth = p + 3, *at = NULL, *colon;
		size_t n = strcspn(auth, "/?#,");

		for (size_t i = 0; i < n; i++)
			if (auth[i] == '@')
				at = auth + i;
		colon = at != NULL ? memchr(auth, ':', (size_t)(at - auth)) :
				     NULL;
		if (colon != NULL && colon + 1 < at) {
			*len = (size_t)(at - colon - 1);
			return colon + 1;
		}
	}
	return NULL;
}

char *cli_mask_url(void *mem, const char *s)
{
	char *out = talloc_strdup(mem, s);
	const char *pw;
	size_t len, from = 0;

	while (out != NULL && (pw = cli_url_password(out + from, &len)) != NULL) {
		size_t at = (size_t)(pw - out);
		char *old = out;

		out = talloc_asprintf(mem, "%.*s***%s", (int)at, old,
				      old + at + len);
		talloc_free(old);
		from = at + 3;
	}
	return out;
}
