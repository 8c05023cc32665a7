/*
 * smb2_auth.c - the SMB2 client's logon: NEGOTIATE (2.0.2 to 3.1.1, with
 * 3.1.1's pre-authentication integrity and cipher contexts),
 * SESSION_SETUP with raw NTLMSSP (NTLMv2, the session key exchanged
 * with RC4 as NTLMSSP's KEY_EXCH asks; MD4, HMAC-MD5 and ARCFOUR from
 * nettle) and TREE_CONNECT.  Then the keys: signing when the server or
 * --smb-sign requires it, encryption when the server or --smb-encrypt
 * does.  Kerberos is not spoken here: libsmbclient does that.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include <nettle/arcfour.h>
#include <nettle/hmac.h>
#include <nettle/md4.h>
#include <talloc.h>

#include "smb2_private.h"

#define NTLM_FLAGS 0xE0888215u	/* UNICODE REQUEST_TARGET SIGN NTLM
				 * ALWAYS_SIGN EXTENDED_SESSIONSECURITY
				 * TARGET_INFO 128 KEY_EXCH 56 */
#define NTLM_KEY_EXCH 0x40000000u
#define SESSION_FLAG_GUEST 0x0001
#define SESSION_FLAG_NULL 0x0002
#define SESSION_FLAG_ENCRYPT 0x0004
#define SHAREFLAG_ENCRYPT 0x00008000u

static const uint16_t smb2_dialects[] = {
	SMB2_DIALECT_202, SMB2_DIALECT_210, SMB2_DIALECT_300,
	SMB2_DIALECT_302, SMB2_DIALECT_311,
};

static void smb2_random(void *p, size_t n)
{
	if (getrandom(p, n, 0) != (ssize_t)n)
		memset(p, 0x3c, n);
}

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
			  bool *sign_required)
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
		    smb2_dialects[i] <= p->dialect_max)
			smb2_put16(b + 36 + 2 * nd++, smb2_dialects[i]);
	smb2_put16(b + 2, (uint16_t)nd);
	len = 36 + 2 * nd;
	if (p->dialect_max >= SMB2_DIALECT_311) {
		len = (len + 7) & ~(size_t)7;
		smb2_put32(b + 28, (uint32_t)(SMB2_HDR_SIZE + len));
		smb2_put16(b + 32, 2);
		len += smb2_neg_contexts(b + len);
	}
	req.body_len = len;
	r = smb2_exchange(c, &req, 1);
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
	return smb2_negotiate_parse(c, req.rbody, req.rbody_len, p,
				    sign_required);
}

/* ---- NTLMSSP ---- */

struct ntlm {
	uint8_t nt_hash[16], v2_hash[16];
	uint8_t challenge[8];
	const uint8_t *tinfo;		/* the server's target info */
	size_t tinfo_len;
	uint32_t flags;
	uint8_t session_key[16];
};

static uint8_t *utf16(void *mem, const char *s, size_t *len, bool upper)
{
	size_t n = strlen(s);
	uint8_t *out = talloc_size(mem, 2 * n + 2);
	long l;

	if (out == NULL)
		return NULL;
	l = smb2_utf16(out, s, n, false);
	if (l < 0)
		return NULL;
	if (upper)
		for (long i = 0; i < l; i += 2)
			if (out[i] >= 'a' && out[i] <= 'z' && out[i + 1] == 0)
				out[i] -= 'a' - 'A';
	*len = (size_t)l;
	return out;
}

static void hmac_md5(const uint8_t *key, size_t klen, const uint8_t *a,
		     size_t alen, const uint8_t *b, size_t blen,
		     uint8_t out[16])
{
	struct hmac_md5_ctx h;

	hmac_md5_set_key(&h, klen, key);
	hmac_md5_update(&h, alen, a);
	if (blen > 0)
		hmac_md5_update(&h, blen, b);
	hmac_md5_digest(&h, 16, out);
	explicit_bzero(&h, sizeof(h));
}

/* NTOWFv2 from the password, user and domain. */
static int ntlm_hashes(void *mem, struct ntlm *nt,
		       const struct smb2_params *p)
{
	size_t pl, ul, dl;
	uint8_t *pw = utf16(mem, p->password, &pl, false);
	uint8_t *ud, *u = utf16(mem, p->user, &ul, true);
	uint8_t *d = utf16(mem, p->domain, &dl, false);
	struct md4_ctx m;

	if (pw == NULL || u == NULL || d == NULL)
		return -1;
	md4_init(&m);
	md4_update(&m, pl, pw);
	md4_digest(&m, 16, nt->nt_hash);
	explicit_bzero(pw, pl);
	ud = talloc_size(mem, ul + dl + 1);
	if (ud == NULL)
		return -1;
	memcpy(ud, u, ul);
	memcpy(ud + ul, d, dl);
	hmac_md5(nt->nt_hash, 16, ud, ul + dl, NULL, 0, nt->v2_hash);
	return 0;
}

static void put_field(uint8_t *msg, size_t at, size_t *off,
		      const uint8_t *data, size_t len)
{
	smb2_put16(msg + at, (uint16_t)len);
	smb2_put16(msg + at + 2, (uint16_t)len);
	smb2_put32(msg + at + 4, (uint32_t)*off);
	if (len > 0)
		memcpy(msg + *off, data, len);
	*off += len;
}

/* The target info's timestamp (MsvAvTimestamp), else now, as FILETIME. */
static uint64_t ntlm_time(const struct ntlm *nt)
{
	for (size_t o = 0; o + 4 <= nt->tinfo_len;) {
		unsigned id = smb2_get16(nt->tinfo + o);
		unsigned len = smb2_get16(nt->tinfo + o + 2);

		if (id == 0 || o + 4 + len > nt->tinfo_len)
			break;
		if (id == 7 && len == 8)
			return smb2_get64(nt->tinfo + o + 4);
		o += 4 + len;
	}
	return ((uint64_t)time(NULL) + 11644473600ull) * 10000000ull;
}

/* The AUTHENTICATE message (NTLMv2) under mem, *len its length. */
static uint8_t *ntlm_auth(void *mem, struct ntlm *nt,
			  const struct smb2_params *p, size_t *len)
{
	size_t blen = 28 + nt->tinfo_len + 4, ul, dl, wl, off = 64;
	uint8_t *blob = talloc_zero_size(mem, 16 + blen), *msg;
	uint8_t *u = utf16(mem, p->user, &ul, false);
	uint8_t *d = utf16(mem, p->domain, &dl, false);
	uint8_t *w = utf16(mem, "DBENCH", &wl, false);
	uint8_t base[16], exported[16], enc[16], lm[24];
	struct arcfour_ctx rc4;

	if (blob == NULL || u == NULL || d == NULL || w == NULL)
		return NULL;
	/* the NTLMv2 response: NTProofStr, then the blob */
	blob[16] = 1;
	blob[17] = 1;
	smb2_put64(blob + 16 + 8, ntlm_time(nt));
	smb2_random(blob + 16 + 16, 8);
	memcpy(blob + 16 + 28, nt->tinfo, nt->tinfo_len);
	hmac_md5(nt->v2_hash, 16, nt->challenge, 8, blob + 16, blen, blob);
	hmac_md5(nt->v2_hash, 16, blob, 16, NULL, 0, base);
	memset(lm, 0, sizeof(lm));
	/* the session key: random, sent under RC4 of the base key */
	smb2_random(exported, 16);
	if (nt->flags & NTLM_KEY_EXCH) {
		arcfour_set_key(&rc4, 16, base);
		arcfour_crypt(&rc4, 16, enc, exported);
	} else {
		memcpy(exported, base, 16);
	}
	memcpy(nt->session_key, exported, 16);
	msg = talloc_zero_size(mem, off + 24 + 16 + blen + dl + ul + wl + 16);
	if (msg == NULL)
		return NULL;
	memcpy(msg, "NTLMSSP\0\3\0\0\0", 12);
	put_field(msg, 12, &off, lm, 24);
	put_field(msg, 20, &off, blob, 16 + blen);
	put_field(msg, 28, &off, d, dl);
	put_field(msg, 36, &off, u, ul);
	put_field(msg, 44, &off, w, wl);
	put_field(msg, 52, &off, enc, nt->flags & NTLM_KEY_EXCH ? 16 : 0);
	smb2_put32(msg + 60, nt->flags);
	explicit_bzero(base, sizeof(base));
	explicit_bzero(exported, sizeof(exported));
	*len = off;
	return msg;
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

/* The server's CHALLENGE message from the first response. */
static int ntlm_challenge(struct smb2_conn *c, const struct smb2_req *req,
			  struct ntlm *nt)
{
	size_t off = smb2_get16(req->rbody + 4);
	size_t len = smb2_get16(req->rbody + 6), toff, tlen;
	const uint8_t *m;

	off = off >= SMB2_HDR_SIZE ? off - SMB2_HDR_SIZE : req->rbody_len;
	m = req->rbody + off;
	if (req->status != STATUS_MORE_PROCESSING || off + len >
	    req->rbody_len || len < 48 || memcmp(m, "NTLMSSP\0\2", 9) != 0)
		return smb2_fail(c, EPROTO, "no NTLMSSP challenge from the "
				 "server (status %#x)", req->status);
	memcpy(nt->challenge, m + 24, 8);
	nt->flags = smb2_get32(m + 20) & NTLM_FLAGS;
	tlen = smb2_get16(m + 40);
	toff = smb2_get32(m + 44);
	if (toff + tlen > len)
		return smb2_fail(c, EPROTO, "a bad NTLMSSP challenge");
	nt->tinfo = m + toff;
	nt->tinfo_len = tlen;
	c->sid = smb2_get64(req->rbody - SMB2_HDR_SIZE + SMB2_H_SID);
	return 0;
}

static int smb2_session(struct smb2_conn *c, const struct smb2_params *p,
			bool sign, uint16_t *sflags)
{
	void *mem = talloc_new(c);
	uint8_t neg[32] = "NTLMSSP\0\1\0\0\0";
	struct ntlm nt = { 0 };
	struct smb2_req req;
	uint8_t *auth = NULL, *chal;
	size_t alen = 0;
	int r;

	if (mem == NULL)
		return smb2_fail(c, ENOMEM, "out of memory");
	smb2_put32(neg + 12, NTLM_FLAGS);
	r = smb2_setup_leg(c, neg, sizeof(neg), sign, &req, mem);
	if (r == 0 && c->dialect == SMB2_DIALECT_311)
		smb2_preauth_update(c->preauth, req.rbody - SMB2_HDR_SIZE,
				    req.rbody_len + SMB2_HDR_SIZE);
	if (r == 0)
		r = ntlm_challenge(c, &req, &nt);
	if (r == 0) {
		/* the challenge outlives the next exchange's buffers */
		chal = talloc_memdup(mem, nt.tinfo, nt.tinfo_len);
		nt.tinfo = chal;
		if (chal == NULL || ntlm_hashes(mem, &nt, p) != 0 ||
		    (auth = ntlm_auth(mem, &nt, p, &alen)) == NULL)
			r = smb2_fail(c, ENOMEM, "out of memory");
	}
	if (r == 0)
		r = smb2_setup_leg(c, auth, alen, sign, &req, mem);
	if (r == 0 && req.status != 0)
		r = smb2_fail(c, EACCES, "logon refused: status %#x",
			      req.status);
	if (r == 0) {
		*sflags = smb2_get16(req.rbody + 2);
		smb2_derive_keys(c, nt.session_key);
	}
	explicit_bzero(&nt, sizeof(nt));
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

/* NEGOTIATE, SESSION_SETUP and TREE_CONNECT on the connected c; 0 or a
 * negative errno with c->err set. */
static int smb2_logon(struct smb2_conn *c, const struct smb2_params *p)
{
	bool sign_required = false;
	uint16_t sflags = 0;
	uint32_t share_flags = 0;
	int r;

	r = smb2_negotiate(c, p, &sign_required);
	if (r == 0)
		r = smb2_session(c, p, p->sign || sign_required, &sflags);
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
	return r;
}

struct smb2_conn *smb2_connect(void *mem, const struct smb2_params *p,
			       char **err)
{
	struct smb2_conn *c = smb2_conn_new(mem, p, err);

	if (c != NULL && smb2_logon(c, p) != 0) {
		*err = talloc_strdup(mem, smb2_error(c));
		talloc_free(c);
		return NULL;
	}
	return c;
}
