/*
 * smb2_krb5.c - Kerberos for the SMB2 client's logon (--smb-kerberos),
 * through GSS-API (MIT krb5's libgssapi_krb5): the krb5 mechanism's
 * tokens for the service cifs@SERVER from the default credential cache
 * ($KRB5CCNAME; no password ever), which smb2_auth.c wraps in SPNEGO;
 * the session key (GSS_C_INQ_SSPI_SESSION_KEY, the key SMB's signing and
 * encryption keys derive from) and SPNEGO's mechListMIC (gss_get_mic).
 * Built without GSS-API (no libkrb5-dev), it only says so.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include <talloc.h>

#include "smb2_private.h"
#include "smb2_spnego.h"

#ifdef HAVE_GSSAPI

#include <gssapi/gssapi.h>
#include <gssapi/gssapi_krb5.h>

struct krb5_mech {
	gss_ctx_id_t ctx;
	gss_name_t target;
	const char *server;
};

static int krb5_destroy(struct krb5_mech *k)
{
	OM_uint32 min;

	if (k->ctx != GSS_C_NO_CONTEXT)
		gss_delete_sec_context(&min, &k->ctx, GSS_C_NO_BUFFER);
	if (k->target != GSS_C_NO_NAME)
		gss_release_name(&min, &k->target);
	return 0;
}

/* GSS-API's words for status code of type (GSS or mechanism) under mem. */
static char *krb5_status(void *mem, OM_uint32 code, int type)
{
	OM_uint32 min, more = 0;
	char *out = talloc_strdup(mem, "");

	do {
		gss_buffer_desc b = GSS_C_EMPTY_BUFFER;

		if (GSS_ERROR(gss_display_status(&min, code, type,
						 GSS_C_NO_OID, &more, &b)))
			break;
		out = talloc_asprintf_append(out, "%s%.*s",
					     out != NULL && out[0] ? "; " : "",
					     (int)b.length, (char *)b.value);
		gss_release_buffer(&min, &b);
	} while (more != 0 && out != NULL);
	return out;
}

/* c->err: what failed, GSS-API's major and minor status, the service. */
static int krb5_fail(struct smb2_conn *c, const struct krb5_mech *k,
		     const char *what, OM_uint32 maj, OM_uint32 min)
{
	void *tmp = talloc_new(c);
	char *smaj = krb5_status(tmp, maj, GSS_C_GSS_CODE);
	char *smin = min != 0 ? krb5_status(tmp, min, GSS_C_MECH_CODE) : NULL;
	int r = smb2_fail(c, EACCES, "Kerberos logon to cifs@%s: %s: %s%s%s",
			  k->server, what, smaj != NULL ? smaj : "?",
			  smin != NULL && smin[0] ? ": " : "",
			  smin != NULL ? smin : "");

	talloc_free(tmp);
	return r;
}

/* The session key, cut (AES-256's 32 bytes) or zero-padded to 16. */
static int krb5_session_key(struct smb2_conn *c, struct krb5_mech *k,
			    uint8_t key[16])
{
	gss_buffer_set_t set = GSS_C_NO_BUFFER_SET;
	OM_uint32 maj, min;
	size_t n;

	maj = gss_inquire_sec_context_by_oid(&min, k->ctx,
					     GSS_C_INQ_SSPI_SESSION_KEY, &set);
	if (GSS_ERROR(maj) || set == GSS_C_NO_BUFFER_SET || set->count < 1)
		return krb5_fail(c, k, "no session key", maj, min);
	n = set->elements[0].length < 16 ? set->elements[0].length : 16;
	memset(key, 0, 16);
	memcpy(key, set->elements[0].value, n);
	explicit_bzero(set->elements[0].value, set->elements[0].length);
	gss_release_buffer_set(&min, &set);
	return n > 0 ? 0 : smb2_fail(c, EACCES, "Kerberos logon to cifs@%s: "
				     "an empty session key", k->server);
}

/* A GSS-API buffer's bytes under mem (and the buffer released). */
static int krb5_copy(struct smb2_conn *c, gss_buffer_desc *b, void *mem,
		     uint8_t **out, size_t *out_len)
{
	OM_uint32 min;

	*out_len = b->length;
	*out = b->length > 0 ? talloc_memdup(mem, b->value, b->length) : NULL;
	gss_release_buffer(&min, b);
	return *out != NULL || *out_len == 0 ? 0 :
		smb2_fail(c, ENOMEM, "out of memory");
}

static int krb5_next(struct smb2_conn *c, struct smb2_mech *m,
		     const uint8_t *in, size_t in_len, void *mem,
		     uint8_t **out, size_t *out_len)
{
	struct krb5_mech *k = m->st;
	gss_buffer_desc ib = { in_len, (void *)in }, ob = GSS_C_EMPTY_BUFFER;
	OM_uint32 maj, min, flags = 0;
	int r;

	maj = gss_init_sec_context(&min, GSS_C_NO_CREDENTIAL, &k->ctx,
				   k->target, (gss_OID)gss_mech_krb5,
				   GSS_C_MUTUAL_FLAG | GSS_C_INTEG_FLAG |
				   GSS_C_CONF_FLAG, 0,
				   GSS_C_NO_CHANNEL_BINDINGS,
				   in != NULL ? &ib : GSS_C_NO_BUFFER, NULL,
				   &ob, &flags, NULL);
	if (GSS_ERROR(maj)) {
		OM_uint32 min2;

		gss_release_buffer(&min2, &ob);	/* min stays the error's */
		return krb5_fail(c, k, in == NULL ? "gss_init_sec_context" :
				 "the server's answer", maj, min);
	}
	r = krb5_copy(c, &ob, mem, out, out_len);
	if (r == 0 && maj == GSS_S_COMPLETE) {
		r = krb5_session_key(c, k, m->key);
		m->done = r == 0;
	}
	return r;
}

static int krb5_mic(struct smb2_conn *c, struct smb2_mech *m,
		    const uint8_t *msg, size_t len, void *mem, uint8_t **out,
		    size_t *out_len)
{
	struct krb5_mech *k = m->st;
	gss_buffer_desc ib = { len, (void *)msg }, ob = GSS_C_EMPTY_BUFFER;
	OM_uint32 maj, min;

	maj = gss_get_mic(&min, k->ctx, GSS_C_QOP_DEFAULT, &ib, &ob);
	if (GSS_ERROR(maj))
		return krb5_fail(c, k, "gss_get_mic", maj, min);
	return krb5_copy(c, &ob, mem, out, out_len);
}

int smb2_krb5_mech(struct smb2_conn *c, const struct smb2_params *p,
		   struct smb2_mech *m, void *mem)
{
	struct krb5_mech *k = talloc_zero(mem, struct krb5_mech);
	char *svc = talloc_asprintf(k, "cifs@%s", p->server);
	gss_buffer_desc nb;
	OM_uint32 maj, min;

	if (k == NULL || svc == NULL)
		return smb2_fail(c, ENOMEM, "out of memory");
	k->ctx = GSS_C_NO_CONTEXT;
	k->target = GSS_C_NO_NAME;
	k->server = p->server;
	talloc_set_destructor(k, krb5_destroy);
	nb.value = svc;
	nb.length = strlen(svc);
	maj = gss_import_name(&min, &nb, GSS_C_NT_HOSTBASED_SERVICE,
			      &k->target);
	if (GSS_ERROR(maj))
		return krb5_fail(c, k, "gss_import_name", maj, min);
	*m = (struct smb2_mech){ .oid = SPNEGO_MECH_KRB5, .name = "Kerberos",
				 .st = k, .step = krb5_next, .mic = krb5_mic };
	return 0;
}

#else /* !HAVE_GSSAPI */

int smb2_krb5_mech(struct smb2_conn *c, const struct smb2_params *p,
		   struct smb2_mech *m, void *mem)
{
	(void)p;
	(void)m;
	(void)mem;
	return smb2_fail(c, ENOTSUP, "Kerberos: dbench was built without "
			 "GSS-API (libkrb5-dev)");
}

#endif
