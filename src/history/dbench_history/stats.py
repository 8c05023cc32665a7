"""The statistics of compare and trend, with the standard library only:
Student's t distribution through the regularized incomplete beta
function (a continued fraction, evaluated by the modified Lentz method),
Welch's t test with the Welch-Satterthwaite degrees of freedom, the
ratio of two means with its confidence interval by the delta method on
the log of the ratio, and change points by robust binary segmentation."""

import bisect
import math
import statistics


def _beta_cf(a, b, x):
    """The continued fraction of I_x(a, b); converges fast for
    x < (a+1)/(a+b+2)."""
    tiny = 1e-300
    c = 1.0
    d = 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 500):
        m2 = 2 * m
        # the even step, then the odd step of the fraction
        num = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2))
        d = 1.0 + num * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + num / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0))
        d = 1.0 + num * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + num / c
        c = c if abs(c) > tiny else tiny
        step = d * c
        h *= step
        if abs(step - 1.0) < 1e-15:
            break
    return h


def betainc(a, b, x):
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    ln_front = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(ln_front) * _beta_cf(a, b, x) / a
    # the symmetry I_x(a, b) = 1 - I_{1-x}(b, a) where that converges
    return 1.0 - math.exp(ln_front) * _beta_cf(b, a, 1.0 - x) / b


def t_two_sided_p(t, df):
    """P(|T| >= |t|) for Student's t with df degrees of freedom."""
    if math.isinf(t):
        return 0.0
    return betainc(df / 2.0, 0.5, df / (df + t * t))


def t_cdf(t, df):
    p = t_two_sided_p(t, df) / 2.0
    return 1.0 - p if t > 0 else p


def t_quantile(q, df):
    """The q quantile (0 < q < 1) of Student's t, by bisection on t_cdf."""
    if q == 0.5:
        return 0.0
    if q < 0.5:
        return -t_quantile(1.0 - q, df)
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < q:
        lo, hi = hi, hi * 2.0
        if hi > 1e12:
            return math.inf
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if t_cdf(mid, df) < q:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-12 * hi:
            break
    return (lo + hi) / 2.0


def mean_sd(xs):
    """(mean, sample standard deviation or None for one value)."""
    m = statistics.fmean(xs)
    return m, (statistics.stdev(xs) if len(xs) > 1 else None)


def mean_ci(xs, level=0.95):
    """(mean, low, high): the mean of xs and its confidence interval by
    Student's t (mean +- t * sd / sqrt(n)); low and high are None for
    one value."""
    m, sd = mean_sd(xs)
    if sd is None:
        return m, None, None
    half = t_quantile(0.5 + level / 2.0, len(xs) - 1) * sd / math.sqrt(
        len(xs))
    return m, m - half, m + half


def welch(a, b):
    """Welch's two-sided t test of mean(b) - mean(a): a dict with t, df
    and p; None when a side has fewer than two values."""
    na, nb = len(a), len(b)
    if na < 2 or nb < 2:
        return None
    ma, mb = statistics.fmean(a), statistics.fmean(b)
    va, vb = statistics.variance(a), statistics.variance(b)
    qa, qb = va / na, vb / nb
    se2 = qa + qb
    if se2 == 0.0:
        # no spread at all: equal means are no difference, unequal ones
        # are as certain as figures get
        same = ma == mb
        return {"t": 0.0 if same else math.copysign(math.inf, mb - ma),
                "df": float(na + nb - 2), "p": 1.0 if same else 0.0}
    t = (mb - ma) / math.sqrt(se2)
    df = se2 * se2 / (qa * qa / (na - 1) + qb * qb / (nb - 1))
    return {"t": t, "df": df, "p": t_two_sided_p(t, df)}


def ratio_ci(a, b, level=0.95):
    """mean(b) / mean(a) with its confidence interval, by the delta
    method on log(mean(b)/mean(a)): its variance is taken as
    var(a)/(na mean(a)^2) + var(b)/(nb mean(b)^2) and its degrees of
    freedom by Welch-Satterthwaite, and the interval
    exp(log r +- t * se) does not cross zero, as a ratio must not.
    Returns (ratio, low, high); low and high are None when a side has one
    value or a mean is not positive."""
    ma, mb = statistics.fmean(a), statistics.fmean(b)
    if ma <= 0 or mb <= 0:
        return (mb / ma if ma else None), None, None
    r = mb / ma
    if len(a) < 2 or len(b) < 2:
        return r, None, None
    qa = statistics.variance(a) / (len(a) * ma * ma)
    qb = statistics.variance(b) / (len(b) * mb * mb)
    se2 = qa + qb
    if se2 == 0.0:
        return r, r, r
    df = se2 * se2 / (qa * qa / (len(a) - 1) + qb * qb / (len(b) - 1))
    half = t_quantile(0.5 + level / 2.0, df) * math.sqrt(se2)
    return r, r * math.exp(-half), r * math.exp(half)


# ---- change points ----

# A change is reported where a segment splits into two parts, each of at
# least MIN_SEGMENT runs, whose Mann-Whitney test (the verdict's, above)
# gives p <= CHANGE_ALPHA / (the number of places tried) (a Bonferroni
# bound) and whose Hodges-Lehmann ratio moves by at least MIN_EFFECT
# (dbench-history(1), TREND).
MIN_SEGMENT = 4
MIN_EFFECT = 0.05
CHANGE_ALPHA = 0.05


def _median(xs):
    v = sorted(xs)
    h = len(v) // 2
    return v[h] if len(v) % 2 else (v[h - 1] + v[h]) / 2.0


def _ranks(xs):
    """Mid-ranks (1-based) of xs."""
    order = sorted(range(len(xs)), key=xs.__getitem__)
    ranks = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for t in range(i, j + 1):
            ranks[order[t]] = (i + j) / 2.0 + 1.0
        i = j + 1
    return ranks


def best_split(seg, min_segment):
    """(score, k) of the best place to split seg (before index k): the
    split that most reduces the squared deviations from each part's mean
    (the likelihood ratio of a step under normal noise), on the logs of
    the values (the values when not all positive), each first clipped to
    the segment's median +- 3 robust standard deviations, so that an odd
    run cannot draw the split to itself.  Linear in the length."""
    ys = [math.log(v) for v in seg] if min(seg) > 0 else list(seg)
    med = _median(ys)
    mad = 1.4826 * _median([abs(y - med) for y in ys])
    if mad > 0:
        ys = [min(max(y, med - 3.0 * mad), med + 3.0 * mad) for y in ys]
    n = len(ys)
    total = math.fsum(ys)
    prefix = 0.0
    best = None
    for k in range(1, n - min_segment + 1):
        prefix += ys[k - 1]
        if k < min_segment:
            continue
        d = prefix / k - (total - prefix) / (n - k)
        score = k * (n - k) / n * d * d
        if best is None or score > best[0]:
            best = (score, k)
    return best


OUTLIER_SDS = 3.5


def outliers(values, min_effect=MIN_EFFECT):
    """Indexes of the values far from the others: more than OUTLIER_SDS
    robust standard deviations (1.4826 median absolute deviations, of
    the logs when every value is positive) and min_effect away from the
    median; none in fewer than 4 values."""
    if len(values) < 4:
        return []
    positive = min(values) > 0
    xs = [math.log(v) for v in values] if positive else list(values)
    med = _median(xs)
    mad = 1.4826 * _median([abs(x - med) for x in xs])
    floor = math.log1p(min_effect) if positive else \
        abs(_median(values)) * min_effect
    if floor <= 0 and mad <= 0:
        return []  # zeros with no spread: no scale to be far on
    return [i for i, x in enumerate(xs)
            if abs(x - med) > OUTLIER_SDS * mad and abs(x - med) >= floor]


def without_outliers(values, min_effect=MIN_EFFECT, keep=MIN_SEGMENT):
    """values less their outliers, unless fewer than keep would be left."""
    odd = set(outliers(values, min_effect))
    kept = [v for i, v in enumerate(values) if i not in odd]
    return kept if len(kept) >= keep else list(values)


def level_change(before, after, level=0.95, min_effect=MIN_EFFECT,
                 keep=MIN_SEGMENT):
    """The verdict (Verdict) on the runs after a change against those
    before it, each side without its outliers: the ratio of the levels
    with its interval and p."""
    return verdict(without_outliers(before, min_effect, keep),
                   without_outliers(after, min_effect, keep), level=level)


def _effect(left, right):
    """The relative size of the move from left to right: the
    Hodges-Lehmann ratio less one, or for values that are not all
    positive the difference of the medians over the median of left."""
    if min(left) > 0 and min(right) > 0:
        xs = sorted(math.log(v) for v in left)
        ys = sorted(math.log(v) for v in right)
        return math.expm1(_median_difference(xs, ys))
    base = abs(_median(left))
    diff = _median(right) - _median(left)
    return diff / base if base > 0 else (math.inf if diff else 0.0)


def change_points(xs, min_segment=MIN_SEGMENT, min_effect=MIN_EFFECT,
                  alpha=CHANGE_ALPHA):
    """The indexes where a new level starts (sorted), by binary
    segmentation: the best split of a segment, if its Mann-Whitney test
    passes the Bonferroni bound and its effect reaches min_effect,
    splits it, and each part is searched again."""
    found = []

    def search(lo, hi):
        seg = xs[lo:hi]
        if len(seg) < 2 * min_segment:
            return
        _, k = best_split(seg, min_segment)
        tried = len(seg) - 2 * min_segment + 1
        # each side less its odd runs (a busy machine's): one run far
        # off must not hide a step, nor make one
        left = without_outliers(seg[:k], min_effect, min_segment)
        right = without_outliers(seg[k:], min_effect, min_segment)
        below, ties = _pair_counts(sorted(left), right)
        above = len(left) * len(right) - below - ties
        dist = u_distribution(len(left), len(right))
        p = min(1.0, 2.0 * min(dist.cdf(below + ties),
                               dist.cdf(above + ties)))
        if p * tried > alpha or abs(_effect(left, right)) < min_effect:
            return
        found.append(lo + k)
        search(lo, lo + k)
        search(lo + k, hi)

    search(0, len(xs))
    return sorted(found)


# ---- the verdict: Mann-Whitney with the Hodges-Lehmann interval ----
#
# Every verdict (compare, trend, the report) uses one method: the exact
# Mann-Whitney test of B against A and the Hodges-Lehmann estimate of
# the shift of log(B) against log(A) (the median of every pairwise log
# ratio log(b_j / a_i)) with its distribution-free interval (Moses): the
# interval holds the pairwise log ratios between the (c+1)-th smallest
# and the (c+1)-th largest, where c is the largest count with
# P(U <= c) <= (1 - level) / 2 under the null distribution of U.  The
# p-value counts a tie against the side it would favour:
#   p = min(1, 2 * min(P(U <= #(b <= a)), P(U <= #(b >= a)))),
# so that p <= 1 - level exactly when the interval leaves out 0 (no
# change): the lower end is above 0 when at most c pairwise ratios are
# <= 1, which is P(U <= #(b <= a)) <= (1 - level) / 2.  The null
# distribution of U is exact (the coefficients of the Gaussian binomial
# [m+n choose m]) while min(m, n) * m * n <= EXACT_LIMIT, else normal
# with a continuity correction; either way p and the interval come from
# the same distribution function and agree.

EXACT_LIMIT = 400000
# the smallest runs a side with which the exact test can reach p <= 0.05
MIN_RUNS_TO_TELL = 4
# the power that "needed runs" aims at
POWER = 0.8


def _u_counts(m, n):
    """[number of orderings of m and n values with U = u for u = 0..mn]:
    the coefficients of prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i)."""
    if m > n:
        m, n = n, m
    size = m * n + 1
    c = [0] * size
    c[0] = 1
    for i in range(1, m + 1):
        step = n + i
        for k in range(size - 1, step - 1, -1):
            c[k] -= c[k - step]
        for k in range(i, size):
            c[k] += c[k - i]
    return c


class UDistribution:
    """The null distribution function of the Mann-Whitney U of sizes m
    and n: cdf(u) = P(U <= u)."""

    def __init__(self, m, n):
        self.m, self.n = m, n
        self.mn = m * n
        self.exact = min(m, n) * m * n <= EXACT_LIMIT
        if self.exact:
            counts = _u_counts(m, n)
            total = math.comb(m + n, m)
            run = 0
            self.table = []
            for x in counts:
                run += x
                self.table.append(run / total)
        else:
            self.sd = math.sqrt(self.mn * (m + n + 1) / 12.0)

    def cdf(self, u):
        u = math.floor(u)
        if u < 0:
            return 0.0
        if u >= self.mn:
            return 1.0
        if self.exact:
            return self.table[u]
        return statistics.NormalDist().cdf((u + 0.5 - self.mn / 2.0) /
                                           self.sd)

    def critical(self, alpha):
        """The largest c with cdf(c) <= alpha / 2, or -1 when even
        U = 0 is likelier (too few runs for an interval at this level)."""
        lo, hi = -1, self.mn // 2
        half = alpha / 2.0
        while lo < hi:  # the largest u in [-1, mn/2] with cdf(u) <= half
            mid = (lo + hi + 1) // 2
            if self.cdf(mid) <= half:
                lo = mid
            else:
                hi = mid - 1
        return lo


_U_CACHE = {}


def u_distribution(m, n):
    key = (min(m, n), max(m, n))
    if key not in _U_CACHE:
        if len(_U_CACHE) > 256:
            _U_CACHE.clear()
        _U_CACHE[key] = UDistribution(*key)
    return _U_CACHE[key]


def _pair_counts(xs, ys):
    """(#(y < x), #(y == x)) over every pair, xs sorted."""
    below = ties = 0
    for y in ys:
        lo = bisect.bisect_left(xs, y)
        hi = bisect.bisect_right(xs, y)
        below += len(xs) - hi
        ties += hi - lo
    return below, ties


def _count_le(xs, ys, d):
    """#(y - x <= d) over every pair; xs and ys sorted."""
    count = 0
    i = len(xs)  # xs[i:] are the x >= y - d
    for y in reversed(ys):
        while i > 0 and xs[i - 1] >= y - d:
            i -= 1
        count += len(xs) - i
    return count


class Differences:
    """Every pairwise difference y - x of sorted xs and ys, for order
    statistics: sorted once up to SORT_LIMIT pairs, else each found by
    bisection on the value, then snapped to the pairwise difference
    it converged on (so that a difference of exactly 0 stays 0)."""

    SORT_LIMIT = 40000

    def __init__(self, xs, ys):
        self.xs, self.ys = xs, ys
        self.mn = len(xs) * len(ys)
        self.all = None
        if self.mn <= self.SORT_LIMIT:
            self.all = sorted(y - x for x in xs for y in ys)

    def kth(self, k):
        """The k-th smallest (1-based)."""
        if self.all is not None:
            return self.all[k - 1]
        xs, ys = self.xs, self.ys
        lo, hi = ys[0] - xs[-1], ys[-1] - xs[0]
        if _count_le(xs, ys, lo) >= k:
            return lo
        # count_le(lo) < k <= count_le(hi) all along
        for _ in range(200):
            mid = (lo + hi) / 2.0
            if not lo < mid < hi:
                break
            if _count_le(xs, ys, mid) >= k:
                hi = mid
            else:
                lo = mid
        # the pairwise difference nearest to where it converged (the
        # comparisons in _count_le round: snap to a real difference)
        best = None
        for y in ys:
            i = bisect.bisect_left(xs, y - hi)
            for j in (i - 1, i):
                if 0 <= j < len(xs):
                    d = y - xs[j]
                    if best is None or abs(d - hi) < abs(best - hi):
                        best = d
        return best

    def median(self):
        if self.mn % 2:
            return self.kth(self.mn // 2 + 1)
        return (self.kth(self.mn // 2) + self.kth(self.mn // 2 + 1)) / 2.0


def kth_difference(xs, ys, k):
    """The k-th smallest (1-based) of y - x over every pair; xs, ys
    sorted."""
    return Differences(xs, ys).kth(k)


def _median_difference(xs, ys):
    return Differences(xs, ys).median()


class Verdict:
    """The answer on one figure, B against A.

    ratio (B/A, or None when a value is not positive: then shift is
    B - A in the figure's unit and ratio, lo, hi are None), lo and hi
    (the interval of the ratio, or of the shift; None when the runs are
    too few for one at this level), shift_lo/shift_hi, p, n_a, n_b,
    level, method, significant (p <= 1 - level, the same as the interval
    leaving out no change), spread (the pooled standard deviation of
    log values, or of values), needed (runs a side to tell a difference
    of `detect` apart with 80% power, None without spread) and
    too_few (not significant, and the interval still holds a change of
    `detect` either way: "too few runs to tell")."""

    def __init__(self, **kw):
        self.__dict__.update(kw)

    def __repr__(self):
        return "Verdict(%r)" % self.__dict__


def _pooled_sd(xs, ys):
    dof = len(xs) + len(ys) - 2
    if dof < 1:
        return None
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    ss = math.fsum((x - mx) ** 2 for x in xs) + \
        math.fsum((y - my) ** 2 for y in ys)
    return math.sqrt(ss / dof)


def runs_needed(spread, detect, alpha=0.05, power=POWER,
                method="mann-whitney"):
    """Runs a side to tell a relative difference detect (on the log
    scale: log(1 + detect)) apart at level alpha with the given power,
    from a spread (standard deviation of log values): the normal
    approximation n = 2 (z_{1-alpha/2} + z_power)^2 s^2 / d^2, divided
    for Mann-Whitney by its efficiency against the t test under normal
    noise (3/pi), and never below what the exact test can reach."""
    if spread is None or detect <= 0:
        return None
    nd = statistics.NormalDist()
    z = nd.inv_cdf(1.0 - alpha / 2.0) + nd.inv_cdf(power)
    d = math.log1p(detect)
    n = 2.0 * (z * spread / d) ** 2
    if method == "mann-whitney":
        n /= 3.0 / math.pi
    floor = MIN_RUNS_TO_TELL if method == "mann-whitney" else 2
    return max(floor, int(math.ceil(n)))


def _welch_log(xs, ys, level):
    """(p, estimate, lo, hi) of Welch's t test on xs and ys (logs, or
    values), the interval from the same t distribution."""
    test = welch(xs, ys)
    est = statistics.fmean(ys) - statistics.fmean(xs)
    if test is None:
        return None, est, None, None
    qa = statistics.variance(xs) / len(xs)
    qb = statistics.variance(ys) / len(ys)
    if qa + qb == 0.0:
        return test["p"], est, est, est
    half = t_quantile(0.5 + level / 2.0, test["df"]) * math.sqrt(qa + qb)
    return test["p"], est, est - half, est + half


def verdict(a, b, higher_is_better=True, level=0.95, method="mann-whitney",
            detect=0.05):
    """The verdict on values a (side A) and b (side B): a Verdict.
    method "mann-whitney" (the default, above) or "welch" (Welch's t
    test on the logs, its interval from the same t: a ratio of geometric
    means)."""
    positive = min(a) > 0 and min(b) > 0
    xs = sorted(math.log(v) for v in a) if positive else sorted(a)
    ys = sorted(math.log(v) for v in b) if positive else sorted(b)
    alpha = 1.0 - level
    m, n = len(xs), len(ys)
    if method == "welch":
        p, est, lo, hi = _welch_log(xs, ys, level)
    else:
        diffs = Differences(xs, ys)
        est = diffs.median()
        below, ties = _pair_counts(xs, ys)
        above = m * n - below - ties
        dist = u_distribution(m, n)
        p = min(1.0, 2.0 * min(dist.cdf(below + ties),
                               dist.cdf(above + ties)))
        c = dist.critical(alpha)
        if c < 0:
            lo = hi = None
        else:
            lo = diffs.kth(c + 1)
            hi = diffs.kth(m * n - c)
    if m < 2 or n < 2:
        p = None if method == "welch" else p
    spread = _pooled_sd(xs, ys) if positive else None
    significant = p is not None and p <= alpha
    conv = math.exp if positive else (lambda v: v)
    ratio = conv(est) if positive else None
    out = Verdict(ratio=ratio, shift=None if positive else est,
                  lo=None if lo is None else conv(lo),
                  hi=None if hi is None else conv(hi),
                  p=p, n_a=m, n_b=n, level=level, method=method,
                  significant=significant, spread=spread,
                  higher_is_better=higher_is_better, detect=detect,
                  needed=runs_needed(spread, detect, alpha, method=method))
    # too few runs to tell: not significant, and the interval (or its
    # absence) leaves a change of detect possible either way
    if significant or not positive:
        out.too_few = not significant and lo is None
    else:
        out.too_few = (lo is None or lo < -math.log1p(detect) or
                       hi > math.log1p(detect))
    return out
