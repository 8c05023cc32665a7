/*
 * sha256.h - SHA-256 (FIPS 180-4), small and incremental, for naming a
 * loadfile's bytes in results (no crypto library is linked for this).
 */
#ifndef DBENCH_SHA256_H
#define DBENCH_SHA256_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t h[8];
	uint64_t bytes;		/* hashed so far */
	uint8_t block[64];	/* the partial block */
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
/* The digest as 64 lower-case hex digits and a NUL into hex. */
void sha256_hex(struct sha256 *s, char hex[65]);

/*
 * Tests only: on, the portable code even where the CPU's SHA extensions
 * would be used; off, the fastest again.
 */
void sha256_portable_only(bool on);

#endif
