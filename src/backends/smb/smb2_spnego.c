/*
 * smb2_spnego.c - SPNEGO (RFC 4178) for the SMB2 client's logon: a small
 * DER reader and writer (definite lengths of up to three bytes, which is
 * all a logon's tokens need), the mechanism OIDs, the client's
 * NegTokenInit and NegTokenResp, and the server's NEGOTIATE blob and
 * NegTokenResp taken apart.  No crypto here: the mechanisms' tokens
 * (NTLMSSP, Kerberos) are built by smb2_auth.c and smb2_krb5.c.
 */
#include "config.h"

#include <stdbool.h>
#include <string.h>

#include <talloc.h>

#include "smb2_spnego.h"

/* DER tags */
#define DER_ENUM	0x0a
#define DER_OCTETS	0x04
#define DER_OID		0x06
#define DER_SEQ		0x30
#define DER_APP0	0x60
#define DER_CTX(n)	(0xa0 | (n))

static const uint8_t oid_spnego[] = { 0x2b, 0x06, 0x01, 0x05, 0x05, 0x02 };

static const struct {
	unsigned mech;
	size_t len;
	uint8_t oid[10];
} spnego_oids[] = {
	{ SPNEGO_MECH_KRB5, 9,
	  { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x12, 0x01, 0x02, 0x02 } },
	{ SPNEGO_MECH_MS_KRB5, 9,
	  { 0x2a, 0x86, 0x48, 0x82, 0xf7, 0x12, 0x01, 0x02, 0x02 } },
	{ SPNEGO_MECH_NTLMSSP, 10,
	  { 0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x02, 0x02, 0x0a } },
};

#define N_OIDS (sizeof(spnego_oids) / sizeof(spnego_oids[0]))

/* ---- reading ---- */

struct der {
	const uint8_t *p;
	size_t n;
};

/* The next element of d: its tag and its content; d moves past it. */
static int der_next(struct der *d, uint8_t *tag, struct der *val)
{
	size_t len, i = 2;

	if (d->n < 2)
		return -1;
	*tag = d->p[0];
	len = d->p[1];
	if (len & 0x80) {
		size_t k = len & 0x7f;

		if (k == 0 || k > 3 || d->n < 2 + k)
			return -1;
		for (len = 0; k > 0; k--)
			len = len << 8 | d->p[i++];
	}
	if (len > d->n - i)
		return -1;
	val->p = d->p + i;
	val->n = len;
	d->p += i + len;
	d->n -= i + len;
	return 0;
}

/* The next element of d, which must have tag. */
static int der_take(struct der *d, uint8_t tag, struct der *val)
{
	uint8_t t;

	return der_next(d, &t, val) == 0 && t == tag ? 0 : -1;
}

static unsigned oid_mech(const struct der *oid)
{
	for (size_t i = 0; i < N_OIDS; i++)
		if (oid->n == spnego_oids[i].len &&
		    memcmp(oid->p, spnego_oids[i].oid, oid->n) == 0)
			return spnego_oids[i].mech;
	return SPNEGO_MECH_OTHER;
}

int spnego_server_mechs(const uint8_t *blob, size_t len, unsigned *mechs)
{
	struct der d = { blob, len }, app, oid, init, seq, field, types;

	*mechs = 0;
	if (der_take(&d, DER_APP0, &app) != 0 ||
	    der_take(&app, DER_OID, &oid) != 0 ||
	    oid.n != sizeof(oid_spnego) ||
	    memcmp(oid.p, oid_spnego, oid.n) != 0 ||
	    der_take(&app, DER_CTX(0), &init) != 0 ||
	    der_take(&init, DER_SEQ, &seq) != 0 ||
	    der_take(&seq, DER_CTX(0), &field) != 0 ||
	    der_take(&field, DER_SEQ, &types) != 0)
		return -1;
	while (types.n > 0) {
		if (der_take(&types, DER_OID, &oid) != 0)
			return -1;
		*mechs |= oid_mech(&oid);
	}
	return 0;
}

/* One field of a NegTokenResp ([n] and its content) into *r. */
static int resp_field(uint8_t tag, struct der *f, struct spnego_resp *r)
{
	struct der v;

	switch (tag) {
	case DER_CTX(0):
		if (der_take(f, DER_ENUM, &v) != 0 || v.n != 1)
			return -1;
		r->state = v.p[0];
		return 0;
	case DER_CTX(1):
		if (der_take(f, DER_OID, &v) != 0)
			return -1;
		r->mech = oid_mech(&v);
		return 0;
	case DER_CTX(2):
	case DER_CTX(3):
		if (der_take(f, DER_OCTETS, &v) != 0)
			return -1;
		if (tag == DER_CTX(2)) {
			r->token = v.p;
			r->token_len = v.n;
		} else {
			r->mic = v.p;
			r->mic_len = v.n;
		}
		return 0;
	}
	return 0;	/* a field of a later version: ignored */
}

int spnego_parse_resp(const uint8_t *b, size_t len, struct spnego_resp *r)
{
	struct der d = { b, len }, outer, seq, f;
	uint8_t tag;

	*r = (struct spnego_resp){ .state = SPNEGO_STATE_ABSENT };
	if (der_take(&d, DER_CTX(1), &outer) != 0 ||
	    der_take(&outer, DER_SEQ, &seq) != 0)
		return -1;
	while (seq.n > 0)
		if (der_next(&seq, &tag, &f) != 0 ||
		    resp_field(tag, &f, r) != 0)
			return -1;
	return 0;
}

/* ---- writing ---- */

struct piece {
	const uint8_t *p;
	size_t n;
};

/* tag, then the pieces as its content, under mem; *len the length. */
static uint8_t *der_tlv(void *mem, uint8_t tag, const struct piece *pc,
			unsigned npc, size_t *len)
{
	size_t n = 0, hdr, off;
	uint8_t *out;

	for (unsigned i = 0; i < npc; i++)
		n += pc[i].n;
	if (n >= 1u << 24)
		return NULL;
	hdr = n < 0x80 ? 2 : n < 0x100 ? 3 : n < 0x10000 ? 4 : 5;
	out = talloc_size(mem, hdr + n);
	if (out == NULL)
		return NULL;
	out[0] = tag;
	if (hdr == 2) {
		out[1] = (uint8_t)n;
	} else {
		out[1] = (uint8_t)(0x80 | (hdr - 2));
		for (size_t i = 2; i < hdr; i++)
			out[i] = (uint8_t)(n >> (8 * (hdr - 1 - i)));
	}
	off = hdr;
	for (unsigned i = 0; i < npc; i++) {
		if (pc[i].n > 0)
			memcpy(out + off, pc[i].p, pc[i].n);
		off += pc[i].n;
	}
	*len = off;
	return out;
}

/* tag around one piece. */
static uint8_t *der_wrap(void *mem, uint8_t tag, const uint8_t *p, size_t n,
			 size_t *len)
{
	struct piece pc = { p, n };

	return p != NULL ? der_tlv(mem, tag, &pc, 1, len) : NULL;
}

uint8_t *spnego_mech_types(void *mem, unsigned mech, size_t *len)
{
	for (size_t i = 0; i < N_OIDS; i++) {
		if (spnego_oids[i].mech != mech)
			continue;
		void *tmp = talloc_new(mem);
		size_t ol;
		uint8_t *oid = der_wrap(tmp, DER_OID, spnego_oids[i].oid,
					spnego_oids[i].len, &ol);
		uint8_t *out = der_wrap(mem, DER_SEQ, oid, ol, len);

		talloc_free(tmp);
		return out;
	}
	return NULL;
}

uint8_t *spnego_init(void *mem, unsigned mech, const uint8_t *tok,
		     size_t tok_len, size_t *len)
{
	void *tmp = talloc_new(mem);
	struct piece f[2], app[2];
	uint8_t *types, *out = NULL;
	size_t n = 0;

	if (tmp == NULL)
		return NULL;
	types = spnego_mech_types(tmp, mech, &n);
	f[0].p = der_wrap(tmp, DER_CTX(0), types, n, &f[0].n);
	types = der_wrap(tmp, DER_OCTETS, tok, tok_len, &n);
	f[1].p = der_wrap(tmp, DER_CTX(2), types, n, &f[1].n);
	types = f[0].p && f[1].p ? der_tlv(tmp, DER_SEQ, f, 2, &n) : NULL;
	app[0] = (struct piece){ NULL, 0 };
	app[0].p = der_wrap(tmp, DER_OID, oid_spnego, sizeof(oid_spnego),
			    &app[0].n);
	app[1].p = der_wrap(tmp, DER_CTX(0), types, n, &app[1].n);
	if (app[0].p != NULL && app[1].p != NULL)
		out = der_tlv(mem, DER_APP0, app, 2, len);
	talloc_free(tmp);
	return out;
}

uint8_t *spnego_resp(void *mem, const uint8_t *tok, size_t tok_len,
		     const uint8_t *mic, size_t mic_len, size_t *len)
{
	void *tmp = talloc_new(mem);
	struct piece f[2];
	unsigned nf = 0;
	uint8_t *p, *out = NULL;
	size_t n;
	bool ok = tmp != NULL;

	if (ok && tok_len > 0) {
		p = der_wrap(tmp, DER_OCTETS, tok, tok_len, &n);
		f[nf].p = der_wrap(tmp, DER_CTX(2), p, n, &f[nf].n);
		ok = f[nf++].p != NULL;
	}
	if (ok && mic_len > 0) {
		p = der_wrap(tmp, DER_OCTETS, mic, mic_len, &n);
		f[nf].p = der_wrap(tmp, DER_CTX(3), p, n, &f[nf].n);
		ok = f[nf++].p != NULL;
	}
	p = ok ? der_tlv(tmp, DER_SEQ, f, nf, &n) : NULL;
	if (p != NULL)
		out = der_wrap(mem, DER_CTX(1), p, n, len);
	talloc_free(tmp);
	return out;
}
