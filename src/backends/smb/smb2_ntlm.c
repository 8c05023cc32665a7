/*
 * smb2_ntlm.c - NTLMSSP for the SMB2 client's logon (inside SPNEGO,
 * smb2_auth.c): NEGOTIATE, then AUTHENTICATE with NTLMv2 for the server's
 * CHALLENGE, the session key exchanged with RC4 as KEY_EXCH asks, the
 * message's MIC (MsvAvFlags) when the server sent a timestamp, and
 * SPNEGO's mechListMIC as NTLMSSP's signature; MD4, MD5, HMAC-MD5 and
 * ARCFOUR from nettle.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include <nettle/arcfour.h>
#include <nettle/hmac.h>
#include <nettle/md4.h>
#include <nettle/md5.h>
#include <talloc.h>

#include "smb2_private.h"
#include "smb2_spnego.h"

#define NTLM_FLAGS 0xE2888215u	/* UNICODE REQUEST_TARGET SIGN NTLM
				 * ALWAYS_SIGN EXTENDED_SESSIONSECURITY
				 * TARGET_INFO VERSION 128 KEY_EXCH 56 */
#define NTLM_KEY_EXCH 0x40000000u

/* The Version field: 6.1 (as Windows 7), NTLMSSP revision 15. */
static const uint8_t ntlm_version[8] = { 6, 1, 0, 0, 0, 0, 0, 15 };

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
	size_t blen = 28 + nt->tinfo_len + 4, ul, dl, wl, off = 88;
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
	memcpy(msg + 64, ntlm_version, 8);	/* then the MIC, zero for now */
	explicit_bzero(base, sizeof(base));
	explicit_bzero(exported, sizeof(exported));
	*len = off;
	return msg;
}

/* The server's CHALLENGE message m (len bytes) into nt. */
static int ntlm_challenge(struct smb2_conn *c, const uint8_t *m, size_t len,
			  struct ntlm *nt)
{
	size_t toff, tlen;

	if (len < 48 || memcmp(m, "NTLMSSP\0\2", 9) != 0)
		return smb2_fail(c, EPROTO, "no NTLMSSP challenge from the "
				 "server");
	memcpy(nt->challenge, m + 24, 8);
	nt->flags = smb2_get32(m + 20) & NTLM_FLAGS;
	tlen = smb2_get16(m + 40);
	toff = smb2_get32(m + 44);
	if (toff + tlen > len)
		return smb2_fail(c, EPROTO, "a bad NTLMSSP challenge");
	nt->tinfo = m + toff;
	nt->tinfo_len = tlen;
	return 0;
}

/* The state of NTLMSSP as a struct smb2_mech. */
struct ntlm_mech {
	const struct smb2_params *p;
	uint8_t neg[40];		/* the NEGOTIATE message sent */
	uint8_t sign_key[16], seal_key[16];	/* client to server */
	uint32_t flags;
};

static void md5_two(const uint8_t *a, size_t alen, const char *b,
		    uint8_t out[16])
{
	struct md5_ctx h;

	md5_init(&h);
	md5_update(&h, alen, a);
	md5_update(&h, strlen(b) + 1, (const uint8_t *)b);
	md5_digest(&h, 16, out);
}

/*
 * The server's target info with MsvAvFlags saying "a MIC follows" (when
 * it carries a timestamp, as MS-NLMP asks), under mem: *mic whether so.
 */
static uint8_t *ntlm_tinfo_mic(void *mem, const struct ntlm *nt, bool *mic,
			       size_t *out_len)
{
	uint8_t *out = talloc_size(mem, nt->tinfo_len + 12), *o = out;
	uint32_t av_flags = 2;

	*mic = false;
	for (size_t at = 0; out != NULL && at + 4 <= nt->tinfo_len;) {
		unsigned id = smb2_get16(nt->tinfo + at);
		unsigned len = smb2_get16(nt->tinfo + at + 2);

		if (id == 0 || at + 4 + len > nt->tinfo_len)
			break;
		*mic |= id == 7;
		if (id == 6 && len == 4)
			av_flags |= smb2_get32(nt->tinfo + at + 4);
		else
			o = (uint8_t *)memcpy(o, nt->tinfo + at, 4 + len) + 4 + len;
		at += 4 + len;
	}
	if (out == NULL)
		return NULL;
	smb2_put16(o, 6);
	smb2_put16(o + 2, 4);
	smb2_put32(o + 4, av_flags);
	memset(o + 8, 0, 4);		/* MsvAvEOL */
	*out_len = (size_t)(o + 12 - out);
	return *mic ? out : NULL;
}

/* AUTHENTICATE's MIC: HMAC-MD5 of the three messages under the key. */
static void ntlm_msg_mic(const uint8_t key[16], const uint8_t *neg,
			 const uint8_t *chal, size_t chal_len, uint8_t *auth,
			 size_t auth_len)
{
	struct hmac_md5_ctx h;

	hmac_md5_set_key(&h, 16, key);
	hmac_md5_update(&h, 40, neg);
	hmac_md5_update(&h, chal_len, chal);
	hmac_md5_update(&h, auth_len, auth);
	hmac_md5_digest(&h, 16, auth + 72);
	explicit_bzero(&h, sizeof(h));
}

/* The AUTHENTICATE message for the server's CHALLENGE in (in_len). */
static int ntlm_authenticate(struct smb2_conn *c, struct smb2_mech *m,
			     const uint8_t *in, size_t in_len, void *mem,
			     uint8_t **out, size_t *out_len)
{
	struct ntlm_mech *nm = m->st;
	struct ntlm nt = { 0 };
	const uint8_t *tinfo;
	size_t tlen = 0;
	bool mic = false;
	int r = ntlm_challenge(c, in, in_len, &nt);

	if (r != 0)
		return r;
	tinfo = ntlm_tinfo_mic(mem, &nt, &mic, &tlen);
	if (mic) {
		nt.tinfo = tinfo;
		nt.tinfo_len = tlen;
	}
	if (ntlm_hashes(mem, &nt, nm->p) != 0 ||
	    (*out = ntlm_auth(mem, &nt, nm->p, out_len)) == NULL) {
		explicit_bzero(&nt, sizeof(nt));
		return smb2_fail(c, ENOMEM, "out of memory");
	}
	if (mic)
		ntlm_msg_mic(nt.session_key, nm->neg, in, in_len, *out,
			     *out_len);
	md5_two(nt.session_key, 16, "session key to client-to-server "
		"signing key magic constant", nm->sign_key);
	md5_two(nt.session_key, 16, "session key to client-to-server "
		"sealing key magic constant", nm->seal_key);
	nm->flags = nt.flags;
	memcpy(m->key, nt.session_key, 16);
	m->done = true;
	m->mic_with_last = mic;
	explicit_bzero(&nt, sizeof(nt));
	return 0;
}

/* NTLMSSP as a struct smb2_mech: NEGOTIATE, then AUTHENTICATE for the
 * server's CHALLENGE. */
static int ntlm_step(struct smb2_conn *c, struct smb2_mech *m,
		     const uint8_t *in, size_t in_len, void *mem,
		     uint8_t **out, size_t *out_len)
{
	struct ntlm_mech *nm = m->st;

	if (in != NULL)
		return ntlm_authenticate(c, m, in, in_len, mem, out, out_len);
	memset(nm->neg, 0, sizeof(nm->neg));
	memcpy(nm->neg, "NTLMSSP\0\1\0\0\0", 12);
	smb2_put32(nm->neg + 12, NTLM_FLAGS);
	memcpy(nm->neg + 32, ntlm_version, 8);
	*out = talloc_memdup(mem, nm->neg, sizeof(nm->neg));
	*out_len = sizeof(nm->neg);
	return *out != NULL ? 0 : smb2_fail(c, ENOMEM, "out of memory");
}

/* SPNEGO's mechListMIC: NTLMSSP's signature of msg, sequence number 0
 * (HMAC-MD5 under the signing key, sealed with RC4 under KEY_EXCH). */
static int ntlm_mic(struct smb2_conn *c, struct smb2_mech *m,
		    const uint8_t *msg, size_t len, void *mem, uint8_t **out,
		    size_t *out_len)
{
	struct ntlm_mech *nm = m->st;
	struct hmac_md5_ctx h;
	struct arcfour_ctx rc4;
	uint8_t seq[4] = { 0 }, digest[16];
	uint8_t *sig = talloc_zero_size(mem, 16);

	if (sig == NULL)
		return smb2_fail(c, ENOMEM, "out of memory");
	hmac_md5_set_key(&h, 16, nm->sign_key);
	hmac_md5_update(&h, 4, seq);
	hmac_md5_update(&h, len, msg);
	hmac_md5_digest(&h, 16, digest);
	smb2_put32(sig, 1);
	if (nm->flags & NTLM_KEY_EXCH) {
		arcfour_set_key(&rc4, 16, nm->seal_key);
		arcfour_crypt(&rc4, 8, sig + 4, digest);
	} else {
		memcpy(sig + 4, digest, 8);
	}
	explicit_bzero(&h, sizeof(h));
	*out = sig;
	*out_len = 16;
	return 0;
}

static int ntlm_mech_destroy(struct ntlm_mech *nm)
{
	explicit_bzero(nm, sizeof(*nm));
	return 0;
}

int smb2_ntlm_mech(struct smb2_conn *c, const struct smb2_params *p,
		   struct smb2_mech *m, void *mem)
{
	struct ntlm_mech *nm = talloc_zero(mem, struct ntlm_mech);

	if (nm == NULL)
		return smb2_fail(c, ENOMEM, "out of memory");
	talloc_set_destructor(nm, ntlm_mech_destroy);
	nm->p = p;
	*m = (struct smb2_mech){ .oid = SPNEGO_MECH_NTLMSSP,
				 .name = "NTLMSSP", .st = nm,
				 .step = ntlm_step, .mic = ntlm_mic };
	return 0;
}
