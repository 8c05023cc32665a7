/*
 * histogram.h - log-linear latency histograms (HDR style).
 *
 * Values are nanoseconds.  Values below 256 ns have a bucket each; above,
 * every power of two [2^k, 2^(k+1)) is split into 128 equal buckets, so a
 * bucket's width is at most 1/128 of its lower bound (< 0.8% relative
 * error, half that when reporting the bucket's midpoint).  The top bucket
 * starts at 2^42 ns (about 73 minutes); larger values are clamped into it.
 *
 * A histogram is a plain array of counters with no pointers, so it can live
 * in a shared mmap region: one writer records, readers copy or merge.
 * Recording is O(1) and takes no lock.
 */
#ifndef DBENCH_HISTOGRAM_H
#define DBENCH_HISTOGRAM_H

#include <stdint.h>

#define HIST_SUB_BITS	7
#define HIST_SUB	(1u << HIST_SUB_BITS)		/* 128 */
#define HIST_LINEAR	(2u * HIST_SUB)			/* exact below 256 */
#define HIST_MAX_EXP	42
#define HIST_BUCKETS	(HIST_LINEAR + (HIST_MAX_EXP - HIST_SUB_BITS) * HIST_SUB)

struct histogram {
	/*
	 * Buckets [lo, end) may be non-zero; end == 0 when empty.  Readers
	 * look at that range only, so the pages of buckets never used are
	 * never touched: in a shared mapping, even reading a page would
	 * allocate it.
	 */
	uint32_t lo;
	uint32_t end;
	uint64_t count[HIST_BUCKETS];
};

/* Bucket index for a value. */
static inline unsigned hist_index(uint64_t v)
{
	unsigned k;

	if (v < HIST_LINEAR)
		return (unsigned)v;
	k = 63u - (unsigned)__builtin_clzll(v);	/* 2^k <= v < 2^(k+1), k >= 8 */
	if (k > HIST_MAX_EXP)
		return HIST_BUCKETS - 1;
	return HIST_LINEAR + (k - HIST_SUB_BITS - 1) * HIST_SUB +
	       (unsigned)((v >> (k - HIST_SUB_BITS)) & (HIST_SUB - 1));
}

/* Record one value (single writer; readers may run concurrently). */
static inline void hist_record(struct histogram *h, uint64_t v)
{
	unsigned i = hist_index(v);

	__atomic_store_n(&h->count[i], h->count[i] + 1, __ATOMIC_RELAXED);
	if (h->end == 0) {
		__atomic_store_n(&h->lo, i, __ATOMIC_RELAXED);
		__atomic_store_n(&h->end, i + 1, __ATOMIC_RELEASE);
	} else if (i < h->lo) {
		__atomic_store_n(&h->lo, i, __ATOMIC_RELEASE);
	} else if (i >= h->end) {
		__atomic_store_n(&h->end, i + 1, __ATOMIC_RELEASE);
	}
}

/* Empty h, touching only the buckets it used. */
void hist_clear(struct histogram *h);

/* Lowest value of bucket i, and one past its highest. */
uint64_t hist_bucket_low(unsigned i);
uint64_t hist_bucket_high(unsigned i);

/* dst += src, bucket by bucket (src may be written concurrently). */
void hist_merge(struct histogram *dst, const struct histogram *src);

/* Number of values recorded. */
uint64_t hist_total(const struct histogram *h);

/*
 * The value at percentile p (0 < p <= 100): the midpoint of the bucket
 * holding the ceil(p/100 * n)-th smallest value, clamped to
 * [min, max] when those are known (pass 0 and UINT64_MAX otherwise);
 * the smallest and the largest value are then returned exactly.
 * Returns 0 for an empty histogram.
 */
uint64_t hist_percentile(const struct histogram *h, double p, uint64_t min,
			 uint64_t max);

/*
 * The smallest value recorded, to the histogram's resolution: the lower
 * bound of the lowest non-empty bucket (exact below 256 ns).  0 when
 * empty.
 */
uint64_t hist_min(const struct histogram *h);

/*
 * The population standard deviation of the values recorded, around their
 * exact mean (sum / count, given), taking each value as its bucket's
 * midpoint: within the bucket width (< 0.8%) of the exact figure.  0
 * when empty.
 */
double hist_stddev(const struct histogram *h, double mean);

#endif
