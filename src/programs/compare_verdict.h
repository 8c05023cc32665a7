/*
 * compare_verdict.h - dbench-compare's verdict on two sets of runs (--a
 * FILES --b FILES): is B faster than A, by how much, how sure.  A
 * separate module so that its method can follow dbench-history's.
 *
 * The method: on the logarithms of the figures (a ratio, not a
 * difference, is what compares), the Hodges-Lehmann estimate of B's
 * shift against A (the median of every pairwise difference), its 95%
 * interval from the Mann-Whitney distribution, and the Mann-Whitney
 * (Wilcoxon rank-sum) test's two-sided p: exact without ties for up to
 * 2500 pairs, else the normal approximation with the tie correction.  No
 * assumption of normal figures; one wild run moves nothing much.
 */
#ifndef DBENCH_COMPARE_VERDICT_H
#define DBENCH_COMPARE_VERDICT_H

#include <stdbool.h>

struct shift {
	double ratio;		/* B/A: exp(Hodges-Lehmann estimate) */
	bool have_ci;		/* too few runs: no 95% interval */
	double lo, hi;		/* the 95% interval of B/A */
	double p;		/* two-sided, Mann-Whitney */
	double min_p;		/* the smallest p these counts can give */
};

/*
 * The shift of b (nb values) against a (na), each value > 0, na and nb
 * >= 1.  Returns 0, or -1 when a value is not positive or memory is
 * short (*s untouched).
 */
int verdict_shift(const double *a, unsigned na, const double *b,
		  unsigned nb, struct shift *s);

/*
 * The verdict on one metric as one line (under mem): "TITLE: B is 10.2%
 * faster than A (95% CI 5.1% to 15.6%, p=0.008, 5 vs 5 runs)", "TITLE:
 * no significant difference (...)", or why there is none.  higher_better:
 * throughput (faster/slower) or latency (lower/higher).  NULL when out
 * of memory.
 */
char *verdict_sentence(void *mem, const char *title, bool higher_better,
		       const double *a, unsigned na, const double *b,
		       unsigned nb);

#endif
