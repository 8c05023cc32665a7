/*
 * smb2_auth.c - the SMB2 client's logon: NEGOTIATE (2.0.2 to 3.1.1, with
 * 3.1.1's pre-authentication integrity and cipher contexts),
 * SESSION_SETUP with SPNEGO (smb2_spnego.c) around the mechanism the
 * server offers and the options ask for: NTLMSSP (smb2_ntlm.c) or
 * Kerberos (--smb-kerberos, smb2_krb5.c), and TREE_CONNECT.  Then the
 * keys: signing when the server or --smb-sign requires it, encryption
 * when the server or --smb-encrypt does; on 3.0 and 3.0.2, the signed
 * VALIDATE_NEGOTIATE_INFO after the TREE_CONNECT (smb2_validate.c).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <talloc.h>

#include "smb2_private.h"
#include "smb2_spnego.h"

#define SESSION_FLAG_GUEST 0x0001
#define SESSION_FLAG_NULL 0x0002
#define SESSION_FLAG_ENCRYPT 0x0004
#define SHAREFLAG_ENCRYPT 0x00008000u
#define SMB2_MAX_LEGS 6		/* SESSION_SETUP requests per logon */

static const uint16_t smb2_dialects[] = {
	SMB2_DIALECT_202, SMB2_DIALECT_210, SMB2_DIALECT_300,
	SMB2_DIALECT_302, SMB2_DIALECT_311,
};

/* ---- NEGOTIATE ---- */

/* The 3.1.1 contexts at b (8-aligned): returns their length. */
static size_t smb2_neg_contexts(uint8_t *b)
{
	uint8_t *p = b;

	smb2_put16(p, 1);		/* PREAUTH_INTEGRITY_CAPABILITIES */
	smb2_put16(p + 2, 38);
	memset(p + 4, 0, 4);
	smb2_put16(p + 8, 1);		/* one hash: SHA-512 */
	smb2_put16(p + 10, 32);		/* salt */
	smb2_put16(p + 12, 1);
	smb2_random(p + 14, 32);
	p += 8 + 38 + 2;		/* padded to 8 */
	memset(p - 2, 0, 2);
	smb2_put16(p, 2);		/* ENCRYPTION_CAPABILITIES */
	smb2_put16(p + 2, 6);
	memset(p + 4, 0, 4);
	smb2_put16(p + 8, 2);
	smb2_put16(p + 10, SMB2_CIPHER_GCM);
	smb2_put16(p + 12, SMB2_CIPHER_CCM);
	p += 8 + 6;
	return (size_t)(p - b);
}

/* The server's security blob (the mechanisms it offers) under mem. */
static int smb2_negotiate_blob(struct smb2_conn *c, const uint8_t *r,
			       size_t n, void *mem, struct smb2_blob *b)
{
	size_t off = smb2_get16(r + 56), len = smb2_get16(r + 58);

	off = off >= SMB2_HDR_SIZE ? off - SMB2_HDR_SIZE : n;
	b->len = 0;
	if (len == 0)
		return 0;
	if (off + len > n)
		return smb2_fail(c, EPROTO, "a bad NEGOTIATE security blob");
	b->p = talloc_memdup(mem, r + off, len);
	if (b->p == NULL)
		return smb2_fail(c, ENOMEM, "out of memory");
	b->len = len;
	return 0;
}

static int smb2_negotiate_parse(struct smb2_conn *c, const uint8_t *r,
				size_t n, const struct smb2_params *p,
				bool *sign_required)
{
	if (n < 64)
		return smb2_fail(c, EPROTO, "a short NEGOTIATE response");
	c->dialect = smb2_get16(r + 4);
	c->max_read = smb2_get32(r + 28);
	c->max_write = smb2_get32(r + 32);
	*sign_required = (smb2_get16(r + 2) & 2) != 0;
	c->neg.server_secmode = smb2_get16(r + 2);
	memcpy(c->neg.server_guid, r + 8, 16);
	c->neg.server_caps = smb2_get32(r + 24);
	if (c->dialect < p->dialect_min || c->dialect > p->dialect_max)
		return smb2_fail(c, EPROTONOSUPPORT, "the server chose "
				 "dialect %#x", c->dialect);
	c->cipher = c->dialect >= SMB2_DIALECT_300 ? SMB2_CIPHER_CCM :
						     SMB2_CIPHER_NONE;
	if (c->dialect == SMB2_DIALECT_311) {
		/* the contexts: find the cipher the server chose */
		size_t off = smb2_get32(r + 60);
		unsigned cnt = smb2_get16(r + 6);

		off = off >= SMB2_HDR_SIZE ? off - SMB2_HDR_SIZE : n;

		c->cipher = SMB2_CIPHER_NONE;
		for (unsigned i = 0; i < cnt && off + 8 <= n; i++) {
			unsigned type = smb2_get16(r + off);
			unsigned len = smb2_get16(r + off + 2);

			if (off + 8 + len > n)
				break;
			if (type == 2 && len >= 4)
				c->cipher = smb2_get16(r + off + 10);
			off += (8 + len + 7) & ~7u;
		}
	}
	return 0;
}

static int smb2_negotiate(struct smb2_conn *c, const struct smb2_params *p,
			  bool *sign_required, void *mem, struct smb2_blob *sb)
{
	uint8_t b[36 + 2 * 5 + 6 + 128];
	struct smb2_req req = { .cmd = SMB2_NEGOTIATE, .body = b };
	unsigned nd = 0;
	size_t len;
	int r;

	memset(b, 0, sizeof(b));
	smb2_put16(b, 36);
	smb2_put16(b + 4, p->sign ? 3 : 1);	/* signing enabled/required */
	smb2_put32(b + 8, 0x40 | 0x4);		/* ENCRYPTION, LARGE_MTU */
	smb2_random(b + 12, 16);		/* client guid */
	for (unsigned i = 0; i < 5; i++)
		if (smb2_dialects[i] >= p->dialect_min &&
		    smb2_dialects[i] <= p->dialect_max) {
			c->neg.dialects[nd] = smb2_dialects[i];
			smb2_put16(b + 36 + 2 * nd++, smb2_dialects[i]);
		}
	smb2_put16(b + 2, (uint16_t)nd);
	c->neg.ndialects = nd;
	c->neg.client_secmode = smb2_get16(b + 4);
	c->neg.client_caps = smb2_get32(b + 8);
	memcpy(c->neg.client_guid, b + 12, 16);
	len = 36 + 2 * nd;
	if (p->dialect_max >= SMB2_DIALECT_311) {
		len = (len + 7) & ~(size_t)7;
		smb2_put32(b + 28, (uint32_t)(SMB2_HDR_SIZE + len));
		smb2_put16(b + 32, 2);
		len += smb2_neg_contexts(b + len);
	}
	req.body_len = len;
	r = smb2_exchange(c, &req, 1);
	/* an SMB1-only server (Samba's) drops an SMB2 NEGOTIATE */
	if (r == -ECONNRESET || r == -EPIPE)
		return smb2_fail(c, ENOPROTOOPT, "the server closed the "
				 "connection at NEGOTIATE: no SMB2 or SMB3 "
				 "there (SMB1 only?); --smb-client=libsmbclient "
				 "speaks SMB1 (client min protocol = NT1 in "
				 "smb.conf)");
	if (r != 0)
		return r;
	if (req.status != 0)
		return smb2_fail(c, EPROTO, "NEGOTIATE refused: status %#x",
				 req.status);
	if (p->dialect_max >= SMB2_DIALECT_311) {
		smb2_preauth_update(c->preauth, c->sbuf + 4, c->sent_len);
		smb2_preauth_update(c->preauth, req.rbody - SMB2_HDR_SIZE,
				    req.rbody_len + SMB2_HDR_SIZE);
	}
	r = smb2_negotiate_parse(c, req.rbody, req.rbody_len, p,
				 sign_required);
	return r != 0 ? r : smb2_negotiate_blob(c, req.rbody, req.rbody_len,
						mem, sb);
}

/* ---- SESSION_SETUP ---- */

static int smb2_setup_leg(struct smb2_conn *c, const uint8_t *tok,
			  size_t len, bool sign, struct smb2_req *req,
			  void *mem)
{
	uint8_t *b = talloc_zero_size(mem, 24 + len);
	int r;

	if (b == NULL)
		return smb2_fail(c, ENOMEM, "out of memory");
	smb2_put16(b, 25);
	b[3] = sign ? 2 : 1;
	smb2_put16(b + 12, SMB2_HDR_SIZE + 24);
	smb2_put16(b + 14, (uint16_t)len);
	memcpy(b + 24, tok, len);
	*req = (struct smb2_req){ .cmd = SMB2_SESSION_SETUP, .body = b,
				  .body_len = 24 + len };
	r = smb2_exchange(c, req, 1);
	if (r != 0)
		return r;
	if (c->dialect == SMB2_DIALECT_311)
		smb2_preauth_update(c->preauth, c->sbuf + 4, c->sent_len);
	if (req->status != 0 && req->status != STATUS_MORE_PROCESSING)
		return smb2_fail(c, EACCES, "logon refused: status %#x",
				 req->status);
	if (req->rbody_len < 8)
		return smb2_fail(c, EPROTO, "a short SESSION_SETUP response");
	return 0;
}

/* The mechanism: Kerberos when asked for, else NTLMSSP; either one the
 * server offers (an empty blob offers both: the client chooses). */
static int smb2_mech_pick(struct smb2_conn *c, const struct smb2_params *p,
			  const struct smb2_blob *sb, struct smb2_mech *m,
			  void *mem)
{
	unsigned offered = SPNEGO_MECH_NTLMSSP | SPNEGO_MECH_KRB5;

	if (sb->len > 0 && spnego_server_mechs(sb->p, sb->len, &offered) != 0)
		return smb2_fail(c, EPROTO, "the server's NEGOTIATE security "
				 "blob is not SPNEGO");
	if (p->kerberos) {
		if (!(offered & (SPNEGO_MECH_KRB5 | SPNEGO_MECH_MS_KRB5)))
			return smb2_fail(c, EPROTONOSUPPORT, "the server "
					 "offers no Kerberos logon");
		return smb2_krb5_mech(c, p, m, mem);
	}
	if (!(offered & SPNEGO_MECH_NTLMSSP))
		return smb2_fail(c, EPROTONOSUPPORT, "the server offers no "
				 "NTLMSSP logon (--smb-kerberos?)");
	return smb2_ntlm_mech(c, p, m, mem);
}

/* mechListMIC, when the server asks for it or sent its own. */
static int smb2_leg_mic(struct smb2_conn *c, struct smb2_mech *m,
			const struct spnego_resp *sr, void *mem,
			uint8_t **mic, size_t *mic_len)
{
	uint8_t *types;
	size_t tlen;

	*mic_len = 0;
	if (!m->done || (!m->mic_with_last && sr->state != SPNEGO_REQUEST_MIC &&
			 sr->mic == NULL))
		return 0;
	if (m->mic == NULL)
		return smb2_fail(c, EPROTONOSUPPORT, "the server asks for "
				 "SPNEGO's mechListMIC, which %s here does "
				 "not sign", m->name);
	types = spnego_mech_types(mem, m->oid, &tlen);
	if (types == NULL)
		return smb2_fail(c, ENOMEM, "out of memory");
	return m->mic(c, m, types, tlen, mem, mic, mic_len);
}

/*
 * The server's answer to a leg: 1 when the logon is complete, 0 with the
 * next leg's token in *blob, or a negative errno.
 */
static int smb2_leg_next(struct smb2_conn *c, struct smb2_mech *m,
			 const struct smb2_req *req, void *mem,
			 struct smb2_blob *blob)
{
	struct spnego_resp sr = { .state = SPNEGO_STATE_ABSENT };
	size_t off = smb2_get16(req->rbody + 4), len = smb2_get16(req->rbody + 6);
	uint8_t *tok = NULL, *mic = NULL;
	size_t tlen = 0, mlen = 0;
	int r = 0;

	off = off >= SMB2_HDR_SIZE ? off - SMB2_HDR_SIZE : req->rbody_len;
	if (off + len > req->rbody_len ||
	    (len > 0 && spnego_parse_resp(req->rbody + off, len, &sr) != 0))
		return smb2_fail(c, EPROTO, "a SESSION_SETUP response without "
				 "SPNEGO (status %#x)", req->status);
	if (sr.state == SPNEGO_REJECT)
		return smb2_fail(c, EACCES, "the server rejected the %s logon",
				 m->name);
	/* the session's id: from the first answer (Kerberos has one leg) */
	c->sid = smb2_get64(req->rbody - SMB2_HDR_SIZE + SMB2_H_SID);
	if (req->status != 0 && c->dialect == SMB2_DIALECT_311)
		smb2_preauth_update(c->preauth, req->rbody - SMB2_HDR_SIZE,
				    req->rbody_len + SMB2_HDR_SIZE);
	if (sr.token != NULL && !m->done)
		r = m->step(c, m, sr.token, sr.token_len, mem, &tok, &tlen);
	if (r != 0 || req->status == 0)
		return r != 0 ? r : m->done ? 1 :
		       smb2_fail(c, EPROTO, "the server ended the logon "
				 "before %s did", m->name);
	r = smb2_leg_mic(c, m, &sr, mem, &mic, &mlen);
	if (r == 0 && tlen == 0 && mlen == 0)
		r = smb2_fail(c, EPROTO, "the server asks for more of a %s "
			      "logon that has no more", m->name);
	if (r == 0 && (blob->p = spnego_resp(mem, tok, tlen, mic, mlen,
					     &blob->len)) == NULL)
		r = smb2_fail(c, ENOMEM, "out of memory");
	return r;
}

/* SESSION_SETUP's legs with SPNEGO around the mechanism, then the keys. */
static int smb2_session(struct smb2_conn *c, const struct smb2_params *p,
			const struct smb2_blob *sb, bool sign,
			uint16_t *sflags)
{
	void *mem = talloc_new(c);
	struct smb2_mech m = { 0 };
	struct smb2_blob blob = { 0 };
	struct smb2_req req;
	uint8_t *tok = NULL;
	size_t tlen = 0;
	int r;

	if (mem == NULL)
		return smb2_fail(c, ENOMEM, "out of memory");
	r = smb2_mech_pick(c, p, sb, &m, mem);
	if (r == 0)
		r = m.step(c, &m, NULL, 0, mem, &tok, &tlen);
	if (r == 0 && (blob.p = spnego_init(mem, m.oid, tok, tlen,
					    &blob.len)) == NULL)
		r = smb2_fail(c, ENOMEM, "out of memory");
	for (unsigned leg = 0; r == 0; leg++) {
		if (leg == SMB2_MAX_LEGS)
			r = smb2_fail(c, EPROTO, "no logon after %u "
				      "SESSION_SETUPs", leg);
		if (r == 0)
			r = smb2_setup_leg(c, blob.p, blob.len, sign, &req, mem);
		if (r == 0)
			r = smb2_leg_next(c, &m, &req, mem, &blob);
	}
	if (r == 1) {
		r = 0;
		*sflags = smb2_get16(req.rbody + 2);
		smb2_derive_keys(c, m.key);
	}
	explicit_bzero(m.key, sizeof(m.key));
	talloc_free(mem);
	return r;
}

/* ---- TREE_CONNECT ---- */

static int smb2_tree(struct smb2_conn *c, const struct smb2_params *p,
		     uint32_t *share_flags)
{
	char *unc = talloc_asprintf(c, "\\\\%s\\%s", p->server, p->share);
	size_t n = unc != NULL ? strlen(unc) : 0;
	uint8_t *b = unc != NULL ? talloc_zero_size(unc, 8 + 2 * n) : NULL;
	struct smb2_req req = { .cmd = SMB2_TREE_CONNECT, .body = b };
	long l;
	int r;

	if (b == NULL || (l = smb2_utf16(b + 8, unc, n, false)) < 0) {
		talloc_free(unc);
		return smb2_fail(c, EINVAL, "a bad share name");
	}
	smb2_put16(b, 9);
	smb2_put16(b + 4, SMB2_HDR_SIZE + 8);
	smb2_put16(b + 6, (uint16_t)l);
	req.body_len = 8 + (size_t)l;
	r = smb2_exchange(c, &req, 1);
	talloc_free(unc);
	if (r != 0)
		return r;
	if (req.status != 0)
		return smb2_fail(c, ENOENT, "TREE_CONNECT to \\\\%s\\%s "
				 "refused: status %#x", p->server, p->share,
				 req.status);
	if (req.rbody_len < 16)
		return smb2_fail(c, EPROTO, "a short TREE_CONNECT response");
	*share_flags = smb2_get32(req.rbody + 4);
	c->tid = smb2_get32(req.rbody - SMB2_HDR_SIZE + SMB2_H_TID);
	return 0;
}

/*
 * 3.0 and 3.0.2, a session with keys: the signed IOCTL
 * FSCTL_VALIDATE_NEGOTIATE_INFO, whose signed answer must repeat the
 * server's NEGOTIATE (smb2_validate.c).  A server that does not know the
 * FSCTL (FILE_CLOSED, NOT_SUPPORTED, INVALID_DEVICE_REQUEST, signed) is
 * let through, as Samba's own client does.
 */
static int smb2_secure_negotiate(struct smb2_conn *c,
				 const struct smb2_params *p)
{
	uint8_t b[SMB2_VNEG_MAX];
	struct smb2_req req = { .cmd = SMB2_IOCTL, .body = b };
	const char *why;
	int r;

	if ((c->dialect != SMB2_DIALECT_300 &&
	     c->dialect != SMB2_DIALECT_302) || !c->keys)
		return 0;
	req.body_len = smb2_vneg_request(&c->neg, b);
	c->sign_ioctl = true;
	r = smb2_exchange(c, &req, 1);
	c->sign_ioctl = false;
	if (r != 0)
		return r;
	if (!c->encrypt && !(smb2_get32(req.rbody - SMB2_HDR_SIZE +
					SMB2_H_FLAGS) & SMB2_FLAGS_SIGNED))
		why = "an unsigned answer";
	else if (req.status == 0xC0000128u || req.status == 0xC00000BBu ||
		 req.status == 0xC0000010u)
		return 0;
	else if (req.status != 0)
		why = "a failure status";
	else
		why = smb2_vneg_check(&c->neg, c->dialect, req.rbody,
				      req.rbody_len);
	if (why == NULL)
		return 0;
	return smb2_fail(c, EPROTO, "%s: secure negotiate failed: "
			 "FSCTL_VALIDATE_NEGOTIATE_INFO got %s (status %#x), "
			 "not what NEGOTIATE said: a tampered negotiation?",
			 p->server, why, req.status);
}

/* NEGOTIATE, SESSION_SETUP and TREE_CONNECT on the connected c; 0 or a
 * negative errno with c->err set. */
static int smb2_logon(struct smb2_conn *c, const struct smb2_params *p)
{
	bool sign_required = false;
	uint16_t sflags = 0;
	uint32_t share_flags = 0;
	struct smb2_blob sb = { 0 };
	void *mem = talloc_new(c);
	int r;

	if (mem == NULL)
		return smb2_fail(c, ENOMEM, "out of memory");
	r = smb2_negotiate(c, p, &sign_required, mem, &sb);
	if (r == 0)
		r = smb2_session(c, p, &sb, p->sign || sign_required, &sflags);
	talloc_free(mem);
	if (r != 0)
		return r;
	if (sflags & (SESSION_FLAG_GUEST | SESSION_FLAG_NULL)) {
		if (p->sign || p->encrypt)
			return smb2_fail(c, EACCES, "logged on as a guest: no "
					 "signing or encryption");
		c->keys = false;
	}
	c->sign = c->keys && (p->sign || sign_required);
	c->sign_tcon = c->keys && c->dialect == SMB2_DIALECT_311;
	bool enc = p->encrypt || (sflags & SESSION_FLAG_ENCRYPT);
	if (enc && (c->dialect < SMB2_DIALECT_300 ||
		    c->cipher == SMB2_CIPHER_NONE))
		return smb2_fail(c, EPROTONOSUPPORT, "encryption needs SMB3 "
				 "and a cipher the server offers");
	c->encrypt = enc;
	r = smb2_tree(c, p, &share_flags);
	if (r == 0 && (share_flags & SHAREFLAG_ENCRYPT) && !c->encrypt) {
		if (c->dialect < SMB2_DIALECT_300 ||
		    c->cipher == SMB2_CIPHER_NONE)
			return smb2_fail(c, EPROTONOSUPPORT, "the share needs "
					 "encryption, which needs SMB3");
		c->encrypt = true;
	}
	return r == 0 ? smb2_secure_negotiate(c, p) : r;
}

struct smb2_conn *smb2_connect_code(void *mem, const struct smb2_params *p,
				    char **err, int *code)
{
	struct smb2_conn *c = smb2_conn_new(mem, p, err, code);
	int r;

	if (c != NULL && (r = smb2_logon(c, p)) != 0) {
		*code = -r;
		*err = talloc_strdup(mem, smb2_error(c));
		talloc_free(c);
		return NULL;
	}
	return c;
}

struct smb2_conn *smb2_connect(void *mem, const struct smb2_params *p,
			       char **err)
{
	int code = 0;

	return smb2_connect_code(mem, p, err, &code);
}
