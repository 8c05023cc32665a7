/*
 * smb_conn.c - the libsmbclient context of one connection of the smb
 * backend: configured from its options (logon, Kerberos from the
 * credential cache, dialects, signing, encryption), connected, and what
 * a failed connection means in words.
 * Built into the module only.
 */
#include "config.h"

#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <talloc.h>
#include <unistd.h>

#include "smb_conn.h"

#ifdef HAVE_GSSAPI
#include <gssapi/gssapi.h>
#endif

/* What libsmbclient's logon needs: ours, or the ticket's user. */
struct smb_logon {
	const struct smb_opts *so;
	char *krb5_user;	/* --smb-kerberos: the ticket's principal */
};

/* The logon libsmbclient asks for at every connection it makes. */
static void smb_auth(SMBCCTX *ctx, const char *srv, const char *shr,
		     char *wg, int wglen, char *un, int unlen, char *pw,
		     int pwlen)
{
	const struct smb_logon *lg = smbc_getOptionUserData(ctx);
	const struct smb_opts *so = lg->so;

	(void)srv;
	(void)shr;
	snprintf(wg, (size_t)wglen, "%s", so->domain);
	snprintf(un, (size_t)unlen, "%s",
		 lg->krb5_user != NULL ? lg->krb5_user : so->user);
	snprintf(pw, (size_t)pwlen, "%s", so->password);
}

#ifdef HAVE_GSSAPI
/*
 * --smb-kerberos: the principal of the default credential cache's
 * ticket (USER@REALM): libsmbclient's Kerberos needs it as the user, and
 * takes none from the cache itself.  -ENOKEY when there is none.
 */
static int smb_krb5_principal(void *mem, struct smb_logon *lg)
{
	gss_cred_id_t cred = GSS_C_NO_CREDENTIAL;
	gss_name_t name = GSS_C_NO_NAME;
	gss_buffer_desc b = GSS_C_EMPTY_BUFFER;
	OM_uint32 maj, min;
	bool ok = false;

	maj = gss_acquire_cred(&min, GSS_C_NO_NAME, GSS_C_INDEFINITE,
			       GSS_C_NO_OID_SET, GSS_C_INITIATE, &cred, NULL,
			       NULL);
	if (!GSS_ERROR(maj))
		maj = gss_inquire_cred(&min, cred, &name, NULL, NULL, NULL);
	if (!GSS_ERROR(maj))
		maj = gss_display_name(&min, name, &b, NULL);
	if (!GSS_ERROR(maj)) {
		lg->krb5_user = talloc_strndup(mem, b.value, b.length);
		ok = lg->krb5_user != NULL && strchr(lg->krb5_user, '@');
	}
	gss_release_buffer(&min, &b);
	gss_release_name(&min, &name);
	gss_release_cred(&min, &cred);
	return ok ? 0 : -ENOKEY;
}
#else
static int smb_krb5_principal(void *mem, struct smb_logon *lg)
{
	(void)mem;
	(void)lg;
	return -ENOTSUP;
}
#endif

/*
 * --smb-sign: libsmbclient takes "client signing" from its configuration
 * only; a private file of one line, loaded and removed at once.
 */
static int smb_load_signing(SMBCCTX *ctx)
{
	char path[] = "/tmp/dbench-smb-XXXXXX";
	static const char conf[] = "[global]\n\tclient signing = required\n";
	int fd = mkstemp(path), r;

	if (fd < 0)
		return -errno;
	r = write(fd, conf, sizeof(conf) - 1) == (ssize_t)(sizeof(conf) - 1) ?
		    0 : -EIO;
	close(fd);
	if (r == 0 && smbc_setConfiguration(ctx, path) != 0)
		r = -EINVAL;
	unlink(path);
	return r;
}

/*
 * Is a network interface up with an address?  libsmbclient's start-up
 * looks for one and, finding none (loopback down: "unshare -n"), prints
 * its own line and exits the process: asked first, it is our message.
 */
static bool smb_interfaces_up(void)
{
	struct ifaddrs *ifs = NULL;
	bool up = false;

	if (getifaddrs(&ifs) != 0)
		return true;	/* cannot tell: let libsmbclient look */
	for (struct ifaddrs *i = ifs; i != NULL && !up; i = i->ifa_next)
		up = (i->ifa_flags & IFF_UP) && i->ifa_addr != NULL &&
		     (i->ifa_addr->sa_family == AF_INET ||
		      i->ifa_addr->sa_family == AF_INET6);
	freeifaddrs(ifs);
	return up;
}

static int smb_context_destroy(SMBCCTX **pctx)
{
	smbc_free_context(*pctx, 1);
	return 0;
}

SMBCCTX **smb_context_new(void *mem, const struct smb_opts *so, int *err)
{
	SMBCCTX **pctx = talloc(mem, SMBCCTX *);
	struct smb_logon *lg = pctx ? talloc_zero(pctx, struct smb_logon) :
				      NULL;
	SMBCCTX *ctx = NULL;

	if (!smb_interfaces_up()) {
		*err = -ENETDOWN;
		talloc_free(pctx);
		return NULL;
	}
	if (lg != NULL && so->kerberos &&
	    (*err = smb_krb5_principal(lg, lg)) != 0) {
		talloc_free(pctx);
		return NULL;
	}
	ctx = smbc_new_context();
	if (lg == NULL || ctx == NULL) {
		*err = -ENOMEM;
		goto fail;
	}
	lg->so = so;
	smbc_setDebug(ctx, 0);
	/* every wait of the connection (set when it connects): the
	 * library's 20 s would hold the check and each client's setup */
	smbc_setTimeout(ctx, SMB_TIMEOUT_S * 1000);
	smbc_setOptionUserData(ctx, lg);
	smbc_setFunctionAuthDataWithContext(ctx, smb_auth);
	smbc_setOptionNoAutoAnonymousLogin(ctx, true);
	/* --smb-kerberos: the credential cache's ticket, no NTLM after it */
	smbc_setOptionUseKerberos(ctx, so->kerberos);
	smbc_setOptionFallbackAfterKerberos(ctx, !so->kerberos);
	if (so->port != 0)
		smbc_setPort(ctx, (uint16_t)so->port);
	if (so->encrypt)
		smbc_setOptionSmbEncryptionLevel(ctx,
						 SMBC_ENCRYPTLEVEL_REQUIRE);
	if (so->sign && (*err = smb_load_signing(ctx)) != 0)
		goto fail;
	if ((so->proto_min != NULL &&
	     !smbc_setOptionProtocols(ctx, so->proto_min, so->proto_max)) ||
	    smbc_init_context(ctx) == NULL) {
		*err = errno ? -errno : -EINVAL;
		goto fail;
	}
	*pctx = ctx;
	talloc_set_destructor(pctx, smb_context_destroy);
	return pctx;
fail:
	if (ctx != NULL)
		smbc_free_context(ctx, 1);
	talloc_free(pctx);
	return NULL;
}

char *smb_base_url(void *mem, const struct smb_opts *so)
{
	if (so->port != 0)
		return talloc_asprintf(mem, "smb://%s:%u/%s", so->server,
				       so->port, so->share);
	return talloc_asprintf(mem, "smb://%s/%s", so->server, so->share);
}

/* "HOST:PORT", for messages. */
static const char *smb_hostport(void *mem, const struct smb_opts *so)
{
	return talloc_asprintf(mem, "%s:%u", so->server,
			       so->port ? so->port : 445);
}

char *smb_connect_message(void *mem, const struct smb_opts *so, int err,
			  bool reached)
{
	const char *hp = smb_hostport(mem, so);

	/* the server's refusal of the logon nobody asked for */
	if (reached && so->guest && (err == EINVAL || err == EACCES || err == EPERM))
		return talloc_asprintf(mem, "smb: //%s/%s: the guest logon "
				       "was refused (%s): no user given; give "
				       "--smb-user=[DOMAIN/]USER[%%PASSWORD] "
				       "or --smb-auth-file=FILE (the password "
				       "may come from $DBENCH_SMB_PASSWORD)",
				       hp, so->share, strerror(err));
	switch (err) {
	case ENOKEY:
		return talloc_asprintf(mem, "smb: //%s/%s: --smb-kerberos: no "
				       "Kerberos ticket in the credential cache "
				       "(%s; kinit first)", hp, so->share,
				       getenv("KRB5CCNAME") ? getenv("KRB5CCNAME")
							    : "the default one");
	case ETIMEDOUT:
		return talloc_asprintf(mem, "smb: //%s/%s: server %s sent no "
				       "reply within %d s", hp, so->share, hp,
				       SMB_TIMEOUT_S);
	case ENETDOWN:
		return talloc_asprintf(mem, "smb: //%s/%s: no network "
				       "interface is up (libsmbclient needs "
				       "one, even for a server on this host; "
				       "is loopback down?)", hp, so->share);
	case ECONNREFUSED:
	case EHOSTUNREACH:
	case ENETUNREACH:
	case EHOSTDOWN:
		return talloc_asprintf(mem, "smb: server %s unreachable: %s",
				       hp, strerror(err));
	case ENOENT:
	case ENODEV:
	case ENXIO:
		return talloc_asprintf(mem, "smb: share '%s' not found on "
				       "server %s", so->share, hp);
	case EACCES:
	case EPERM:
		if (so->kerberos)
			return talloc_asprintf(mem, "smb: Kerberos logon "
					       "refused on //%s/%s (a ticket for "
					       "this server's realm? the server "
					       "named by its host name?)", hp,
					       so->share);
		return talloc_asprintf(mem, "smb: logon failure as user '%s' "
				       "on //%s/%s (wrong user or password, "
				       "or access denied)", so->user, hp,
				       so->share);
	case EPROTONOSUPPORT:
	case ENOSYS:
	case ENOTSUP:
	case ECONNRESET:
	case EPROTO:
		return talloc_asprintf(mem, "smb: server %s: protocol not "
				       "supported (no dialect in common with "
				       "--smb-protocol %s:%s%s): %s", hp,
				       so->proto_min ? so->proto_min : "default",
				       so->proto_max ? so->proto_max : "default",
				       so->encrypt ? ", encryption required" :
						     "", strerror(err));
	default:
		return talloc_asprintf(mem, "smb: //%s/%s: %s", hp, so->share,
				       strerror(err));
	}
}

int smb_connect(SMBCCTX *ctx, const char *base)
{
	char *root = talloc_asprintf(NULL, "%s/", base);
	struct stat sb;
	int r;

	if (root == NULL)
		return ENOMEM;
	errno = 0;
	r = smbc_getFunctionStat(ctx)(ctx, root, &sb) == 0 ? 0 :
							     (errno ? errno :
								      EIO);
	talloc_free(root);
	return r;
}
