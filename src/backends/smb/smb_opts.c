/*
 * smb_opts.c - the smb backend's options: the share, the logon (the
 * password from --smb-user, $DBENCH_SMB_PASSWORD or --smb-auth-file,
 * never part of a message), the dialects, signing and encryption, parsed
 * into struct smb_opts.  Built into the module only.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <talloc.h>

#include "smb2.h"
#include "smb_private.h"
#include "util/util.h"

static const char *const smb_dialects[] = {
	"SMB2_02", "SMB2_10", "SMB3_00", "SMB3_02", "SMB3_11", NULL
};

/* The dialect name as spelled in smb_dialects (any case), or NULL. */
static const char *smb_dialect(const char *s, size_t len)
{
	for (size_t i = 0; smb_dialects[i] != NULL; i++)
		if (strlen(smb_dialects[i]) == len &&
		    strncasecmp(smb_dialects[i], s, len) == 0)
			return smb_dialects[i];
	return NULL;
}

static int smb_parse_protocol(struct smb_opts *so, const char *arg)
{
	const char *colon = strchr(arg, ':');
	size_t n1 = colon ? (size_t)(colon - arg) : strlen(arg);

	so->proto_min = smb_dialect(arg, n1);
	so->proto_max = colon ? smb_dialect(colon + 1, strlen(colon + 1)) :
				so->proto_min;
	return so->proto_min != NULL && so->proto_max != NULL ? 0 : -1;
}

/* --smb-in-flight=N: 1 .. SMB2_IN_FLIGHT_MAX requests outstanding. */
static int smb_parse_in_flight(void *mem, struct smb_opts *so,
			       const char *arg, char **err)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(arg, &end, 10);
	if (errno == 0 && end != arg && *end == '\0' && arg[0] != '-' &&
	    n >= 1 && n <= SMB2_IN_FLIGHT_MAX) {
		so->in_flight = (unsigned)n;
		return 0;
	}
	*err = talloc_asprintf(mem, "'%s' is not a number of requests from 1 "
			       "to %d", arg, SMB2_IN_FLIGHT_MAX);
	return -1;
}

/* //SERVER[:PORT]/SHARE or smb://SERVER[:PORT]/SHARE */
static int smb_parse_share(void *mem, struct smb_opts *so, const char *arg)
{
	const char *p = arg, *slash, *colon;
	int64_t port = 0;

	if (strncasecmp(p, "smb://", 6) == 0)
		p += 6;
	else if (p[0] == '/' && p[1] == '/')
		p += 2;
	else
		return -1;
	slash = strchr(p, '/');
	if (slash == NULL || slash == p || slash[1] == '\0' ||
	    strchr(slash + 1, '/') != NULL)
		return -1;
	colon = memchr(p, ':', (size_t)(slash - p));
	if (colon != NULL) {
		char *ps = talloc_strndup(mem, colon + 1,
					  (size_t)(slash - colon - 1));

		if (ps == NULL || parse_int64(ps, 1, 65535, &port) != 0)
			return -1;
	}
	so->server = talloc_strndup(mem, p, (size_t)((colon ? colon : slash) -
						     p));
	so->share = talloc_strdup(mem, slash + 1);
	so->port = (unsigned)port;
	return so->server != NULL && so->share != NULL && so->server[0] ? 0 :
									 -1;
}

/* [DOMAIN/]USER[%PASSWORD] (DOMAIN\USER too) */
static int smb_parse_user(void *mem, struct smb_opts *so, const char *arg)
{
	const char *pct = strchr(arg, '%');
	size_t ulen = pct ? (size_t)(pct - arg) : strlen(arg);
	const char *sep = NULL;

	for (size_t i = 0; i < ulen; i++)
		if (arg[i] == '/' || arg[i] == '\\')
			sep = &arg[i];
	if (sep != NULL) {
		so->domain = talloc_strndup(mem, arg, (size_t)(sep - arg));
		ulen -= (size_t)(sep + 1 - arg);
		arg = sep + 1;
	}
	so->user = talloc_strndup(mem, arg, ulen);
	if (pct != NULL)
		so->password = talloc_strdup(mem, pct + 1);
	so->user_given = true;
	return so->user != NULL && so->user[0] != '\0' ? 0 : -1;
}

int smb_option(void *mem_ctx, void **bopts, int val, const char *arg,
	       char **err)
{
	struct smb_opts *so = *bopts;

	if (so == NULL) {
		so = talloc_zero(mem_ctx, struct smb_opts);
		if (so == NULL)
			return -1;
		so->native = true;	/* --smb-client's default */
		*bopts = so;
	}
	switch (val) {
	case SMB_OPT_SHARE:
		if (smb_parse_share(so, so, arg) == 0)
			return 0;
		*err = talloc_asprintf(mem_ctx, "'%s' is not //SERVER[:PORT]"
				       "/SHARE or smb://SERVER[:PORT]/SHARE",
				       arg);
		return -1;
	case SMB_OPT_USER:
		if (smb_parse_user(so, so, arg) == 0)
			return 0;
		*err = talloc_strdup(mem_ctx, "expected [DOMAIN/]USER"
				     "[%PASSWORD] with a user name");
		return -1;
	case SMB_OPT_AUTH_FILE:
		so->auth_file = talloc_strdup(so, arg);
		return so->auth_file != NULL ? 0 : -1;
	case SMB_OPT_PROTOCOL:
		if (smb_parse_protocol(so, arg) == 0)
			return 0;
		*err = talloc_asprintf(mem_ctx, "'%s' is not a dialect or MIN:"
				       "MAX of SMB2_02, SMB2_10, SMB3_00, "
				       "SMB3_02, SMB3_11", arg);
		return -1;
	case SMB_OPT_ENCRYPT:
		so->encrypt = true;
		return 0;
	case SMB_OPT_SIGN:
		so->sign = true;
		return 0;
	case SMB_OPT_KERBEROS:
		so->kerberos = true;
		return 0;
	case SMB_OPT_CLIENT:
		if (strcmp(arg, "native") == 0 ||
		    strcmp(arg, "libsmbclient") == 0) {
			so->native = strcmp(arg, "native") == 0;
			return 0;
		}
		*err = talloc_asprintf(mem_ctx, "'%s' is not native or "
				       "libsmbclient", arg);
		return -1;
	case SMB_OPT_IN_FLIGHT:
		return smb_parse_in_flight(mem_ctx, so, arg, err);
	}
	return -1;
}

/* Strip leading and trailing blanks of s[0..len) in place; the start. */
static char *smb_trim(char *s)
{
	size_t n;

	while (*s == ' ' || *s == '\t')
		s++;
	n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' ||
			 s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

/* smbclient's authentication file: "username = U", "password = P",
 * "domain = D"; the command line's values win over the file's. */
static int smb_read_auth_file(void *mem, struct smb_opts *so, char **err)
{
	FILE *f = fopen(so->auth_file, "r");
	char line[1024];

	if (f == NULL) {
		*err = talloc_asprintf(mem, "--smb-auth-file '%s': %s",
				       so->auth_file, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		char *eq = strchr(line, '='), *key, *val;

		if (eq == NULL)
			continue;
		*eq = '\0';
		key = smb_trim(line);
		val = smb_trim(eq + 1);
		if (strcmp(key, "username") == 0 && !so->user_given)
			so->user = talloc_strdup(so, val);
		else if (strcmp(key, "password") == 0 && so->password == NULL)
			so->password = talloc_strdup(so, val);
		else if (strcmp(key, "domain") == 0 && so->domain == NULL)
			so->domain = talloc_strdup(so, val);
	}
	explicit_bzero(line, sizeof(line));
	fclose(f);
	return 0;
}

/*
 * --smb-kerberos logs on as the credential cache's ticket says: a user or
 * a password given too would be ambiguous (which logon was meant?), so
 * they are refused; so is a server named by its address (Kerberos
 * names the service by the host: cifs/HOST); and Kerberos needs GSS-API
 * built in.
 */
static int smb_kerberos_check(void *mem, const struct smb_opts *so,
			      char **err)
{
	const char *what = so->user_given ? "--smb-user" :
			   so->auth_file != NULL ? "--smb-auth-file" :
			   so->password != NULL ? "$DBENCH_SMB_PASSWORD" : NULL;

	struct in6_addr addr;

	if (what != NULL) {
		*err = talloc_asprintf(mem, "--smb-kerberos logs on as the "
				       "ticket of the credential cache says "
				       "(kinit): give no %s", what);
		return -1;
	}
	if (inet_pton(AF_INET, so->server, &addr) == 1 ||
	    inet_pton(AF_INET6, so->server, &addr) == 1) {
		*err = talloc_asprintf(mem, "--smb-kerberos: name the server "
				       "by its host name (its Kerberos service "
				       "is cifs/HOST), not by the address %s",
				       so->server);
		return -1;
	}
#ifndef HAVE_GSSAPI
	*err = talloc_strdup(mem, "--smb-kerberos: dbench was built without "
			     "GSS-API (install libkrb5-dev and run configure "
			     "again)");
	return -1;
#else
	return 0;
#endif
}

int smb_options_done(void *mem_ctx, void **bopts, char **err)
{
	struct smb_opts *so = *bopts;
	char *env = getenv("DBENCH_SMB_PASSWORD");

	/* read once, then gone: from the environment the workers inherit
	 * (and from the memory /proc/PID/environ shows) */
	if (env != NULL) {
		if (so != NULL && so->password == NULL)
			so->password = talloc_strdup(so, env);
		explicit_bzero(env, strlen(env));
		unsetenv("DBENCH_SMB_PASSWORD");
	}
	if (so == NULL || so->server == NULL) {
		*err = talloc_strdup(mem_ctx, "--smb-share=//SERVER/SHARE is "
				     "required");
		return -1;
	}
	if (so->kerberos && smb_kerberos_check(mem_ctx, so, err) != 0)
		return -1;
	if (so->auth_file != NULL && smb_read_auth_file(mem_ctx, so, err) != 0)
		return -1;
	if (so->user == NULL) {
		so->user = talloc_strdup(so, so->kerberos ? "" : "guest");
		so->guest = !so->kerberos;
	}
	if (so->password == NULL)
		so->password = talloc_strdup(so, "");
	if (so->domain == NULL)
		so->domain = talloc_strdup(so, "");
	if (so->user == NULL || so->password == NULL || so->domain == NULL)
		return -1;
	if (so->proto_min != NULL && so->proto_max != NULL &&
	    strcmp(so->proto_min, so->proto_max) > 0) {
		*err = talloc_strdup(mem_ctx, "--smb-protocol: MIN is above "
				     "MAX");
		return -1;
	}
	if (so->in_flight != 0 && !so->native) {
		*err = talloc_strdup(mem_ctx, "--smb-in-flight needs "
				     "--smb-client=native");
		return -1;
	}
	return 0;
}
