/*
 * histogram.c - bucket bounds, merging and percentiles for the log-linear
 * latency histograms declared in histogram.h.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "stats/histogram.h"

uint64_t hist_bucket_low(unsigned i)
{
	unsigned octave, sub;

	if (i < HIST_LINEAR)
		return i;
	octave = (i - HIST_LINEAR) / HIST_SUB;	/* 0 for [256, 512) */
	sub = (i - HIST_LINEAR) % HIST_SUB;
	return (uint64_t)(HIST_SUB + sub) << (octave + 1);
}

uint64_t hist_bucket_high(unsigned i)
{
	if (i + 1 >= HIST_BUCKETS)
		return UINT64_MAX;
	return hist_bucket_low(i + 1);
}

void hist_clear(struct histogram *h)
{
	uint32_t lo = h->lo, end = h->end;

	if (end != 0)
		memset(&h->count[lo], 0, (end - lo) * sizeof(h->count[0]));
	h->lo = 0;
	h->end = 0;
}

void hist_merge(struct histogram *dst, const struct histogram *src)
{
	uint32_t end = __atomic_load_n(&src->end, __ATOMIC_ACQUIRE);
	uint32_t lo = __atomic_load_n(&src->lo, __ATOMIC_ACQUIRE);

	if (end == 0)
		return;
	if (end > HIST_BUCKETS)
		end = HIST_BUCKETS;
	for (uint32_t i = lo; i < end; i++)
		dst->count[i] += __atomic_load_n(&src->count[i],
						 __ATOMIC_RELAXED);
	if (dst->end == 0 || lo < dst->lo)
		dst->lo = lo;
	if (end > dst->end)
		dst->end = end;
}

uint64_t hist_total(const struct histogram *h)
{
	uint64_t n = 0;

	for (uint32_t i = h->lo; i < h->end; i++)
		n += h->count[i];
	return n;
}

uint64_t hist_percentile(const struct histogram *h, double p, uint64_t min,
			 uint64_t max)
{
	uint64_t n = hist_total(h), rank, seen = 0, v;

	if (n == 0)
		return 0;
	if (p <= 0)
		p = 0;
	if (p > 100)
		p = 100;
	/* rank of the wanted sample, 1-based: ceil(p/100 * n), at least 1 */
	rank = (uint64_t)((p / 100.0) * (double)n);
	if ((double)rank < (p / 100.0) * (double)n)
		rank++;
	if (rank == 0)
		rank = 1;
	/* the extremes are known exactly when the caller knows them */
	if (rank == n && max != UINT64_MAX)
		return max;
	if (rank == 1 && min != 0)
		return min;
	for (unsigned i = h->lo; i < h->end; i++) {
		seen += h->count[i];
		if (seen < rank)
			continue;
		if (i < HIST_LINEAR) {
			v = i;
		} else {
			uint64_t lo = hist_bucket_low(i);
			uint64_t hi = hist_bucket_high(i);

			v = hi == UINT64_MAX ? lo : lo + (hi - lo - 1) / 2;
		}
		if (v < min)
			v = min;
		if (v > max)
			v = max;
		return v;
	}
	return max;	/* not reached: rank <= n */
}

uint64_t hist_min(const struct histogram *h)
{
	for (uint32_t i = h->lo; i < h->end; i++)
		if (h->count[i] != 0)
			return hist_bucket_low(i);
	return 0;
}

double hist_stddev(const struct histogram *h, double mean)
{
	double sum = 0;
	uint64_t n = 0;

	for (uint32_t i = h->lo; i < h->end; i++) {
		uint64_t lo = hist_bucket_low(i), hi = hist_bucket_high(i);
		double mid, d;

		if (h->count[i] == 0)
			continue;
		/* the top bucket has no upper bound: take its lower one */
		mid = hi == UINT64_MAX ? (double)lo :
		      (double)lo + (double)(hi - lo - 1) / 2;
		d = mid - mean;
		sum += d * d * (double)h->count[i];
		n += h->count[i];
	}
	return n == 0 ? 0 : sqrt(sum / (double)n);
}
