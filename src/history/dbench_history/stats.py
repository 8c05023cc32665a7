"""The statistics of compare and trend, with the standard library only:
Student's t distribution through the regularized incomplete beta
function (a continued fraction, evaluated by the modified Lentz method),
Welch's t test with the Welch-Satterthwaite degrees of freedom, the
ratio of two means with its confidence interval by the delta method on
the log of the ratio, and change points by robust binary segmentation."""

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
# least MIN_SEGMENT runs, whose medians differ by more than
# CHANGE_THRESHOLD robust standard errors and by more than MIN_SHIFT of
# the segment's median, and whose means (over as many runs on each side
# of the split as the shorter part has) differ by Welch's t test with
# p < CHANGE_ALPHA / (the number of splits tried) (dbench-history(1),
# TREND).
MIN_SEGMENT = 3
CHANGE_THRESHOLD = 5.0
MIN_SHIFT = 0.02
CHANGE_ALPHA = 0.01


def _median(xs):
    v = sorted(xs)
    h = len(v) // 2
    return v[h] if len(v) % 2 else (v[h - 1] + v[h]) / 2.0


def split_score(xs, k, whole=None):
    """(z, shift) of splitting xs before index k: z is the difference of
    the two medians over its robust standard error (the pooled median
    absolute deviation of each run from its own part's median, scaled
    to a standard deviation, times sqrt(pi/2) for the median's
    efficiency), shift the difference relative to the whole median."""
    left, right = xs[:k], xs[k:]
    ml, mr = _median(left), _median(right)
    resid = [abs(x - ml) for x in left] + [abs(x - mr) for x in right]
    scale = 1.4826 * _median(resid)
    se = scale * math.sqrt(math.pi / 2.0) * math.sqrt(
        1.0 / len(left) + 1.0 / len(right))
    diff = abs(mr - ml)
    whole = abs(_median(xs)) if whole is None else whole
    shift = diff / whole if whole > 0 else math.inf
    if se == 0.0:
        return (math.inf if diff > 0 else 0.0), shift
    return diff / se, shift


# A segment with fewer than twice this many places to split is searched
# at every place; a longer one on a grid of about this many places, then
# ever finer around the best.
FULL_SEARCH = 60


def best_split(seg, min_segment):
    """(z, shift, k) of the best split of seg: every place of a short
    segment; of a long one (thousands of runs), a grid of places, refined
    around the best, so that a trend of 10,000 runs answers in a second."""
    lo, hi = min_segment, len(seg) - min_segment
    step = max(1, (hi - lo) // FULL_SEARCH)
    whole = abs(_median(seg))
    best = None
    seen = set()
    while True:
        for k in range(lo, hi + 1, step):
            if k in seen:
                continue
            seen.add(k)
            z, shift = split_score(seg, k, whole)
            if best is None or z > best[0] or (z == best[0] and
                                               shift > best[1]):
                best = (z, shift, k)
        if step == 1:
            return best
        lo = max(min_segment, best[2] - step)
        hi = min(len(seg) - min_segment, best[2] + step)
        step = max(1, step // 10)


def change_points(xs, min_segment=MIN_SEGMENT, threshold=CHANGE_THRESHOLD,
                  min_shift=MIN_SHIFT, alpha=CHANGE_ALPHA):
    """The indexes where a new level starts (sorted), by binary
    segmentation: the best split of a segment, if it passes the test,
    splits it, and each part is searched again."""
    found = []

    def search(lo, hi):
        seg = xs[lo:hi]
        if len(seg) < 2 * min_segment:
            return
        z, shift, k = best_split(seg, min_segment)
        tried = len(seg) - 2 * min_segment + 1
        if z > threshold and shift > min_shift:
            # the test compares as many runs on each side as the shorter
            # side has, next to the split: a further change farther away
            # then cannot hide this one
            w = min(k, len(seg) - k)
            test = welch(seg[k - w:k], seg[k:k + w])
            if test is None or test["p"] * tried >= alpha:
                return
            found.append(lo + k)
            search(lo, lo + k)
            search(lo + k, hi)

    search(0, len(xs))
    return sorted(found)
