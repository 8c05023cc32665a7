#!/usr/bin/python3
"""stats_reference.py - computes, once, with SciPy and NumPy, the
reference values that tests/python/history_unit.py checks
dbench-history's verdict against (tests/integration/data/
history_stats.json): the two-sided Mann-Whitney p-value
(scipy.stats.mannwhitneyu, exact below 8 000 pairs, else asymptotic with
continuity correction), the Hodges-Lehmann estimate of the log ratio
(numpy.median of every pairwise log ratio) and its 95% interval, whose
order statistic c comes from enumerating every split of the pooled
values (itertools; up to 100 pairs), SciPy's exact distribution of U
(up to 400 pairs) or the normal quantile (more; no ties); and the
Universal Scalability Law fitted to a noisy curve by
scipy.optimize.curve_fit.
Needs python3-scipy; the test itself does not.  Run from the top of the
tree: python3 bench/history/stats_reference.py."""

import itertools
import json
import math

import numpy as np
from scipy import optimize, stats
from scipy.stats._mannwhitneyu import _mwu_state

CASES = [
    ([100.0, 102.0, 98.0, 101.0], [110.0, 112.5, 108.0, 109.0]),
    ([497.1, 503.2, 489.9, 500.4, 495.0], [430.2, 421.7, 440.3, 427.7,
                                           419.9, 433.0]),
    ([12.1, 30.5, 8.7, 15.2, 11.0, 90.3, 13.3],
     [9.9, 10.4, 25.0, 7.1, 8.8, 11.9, 60.2, 9.0]),
    ([1012.4, 998.1, 1005.6, 1020.3, 991.8],
     [1101.7, 1123.4, 1098.2, 1130.9, 1115.0]),
    # Wikipedia's first Welch example, as positive figures
    ([27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1,
      19.6, 19.0, 21.7, 21.4],
     [27.1, 22.0, 20.8, 23.45, 23.4, 23.5, 25.8, 22.05, 24.8, 20.2, 21.9,
      22.1, 22.9, 20.5, 24.4]),
]


def exact_c(m, n, alpha=0.05):
    """The largest c with P(U <= c) <= alpha/2, by enumeration."""
    pooled = list(range(m + n))
    counts = {}
    for pick in itertools.combinations(pooled, m):
        chosen = set(pick)
        # U of the other side against pick: pairs (x in pick, y out)
        u = sum(1 for x in pick for y in pooled if y not in chosen and y < x)
        counts[u] = counts.get(u, 0) + 1
    total = math.comb(m + n, m)
    run, c = 0, -1
    for u in range(m * n + 1):
        run += counts.get(u, 0)
        if run / total <= alpha / 2:
            c = u
    return c


def main():
    rng = np.random.default_rng(37)
    big_a = list(np.round(rng.lognormal(math.log(500), 0.05, 90), 6))
    big_b = list(np.round(rng.lognormal(math.log(510), 0.05, 80), 6))
    out = []
    for a, b in CASES + [(big_a, big_b)]:
        m, n = len(a), len(b)
        d = np.sort(np.subtract.outer(np.log(b), np.log(a)).ravel())
        if m * n <= 400:
            p = stats.mannwhitneyu(b, a, method="exact").pvalue
            if m * n <= 100:
                c = exact_c(m, n)
            else:  # SciPy's own exact distribution of U
                cdf = _mwu_state.cdf(k=np.arange(m * n + 1), m=m, n=n)
                c = int(np.max(np.nonzero(cdf <= 0.025)[0], initial=-1))
        else:
            p = stats.mannwhitneyu(b, a, method="asymptotic",
                                   use_continuity=True).pvalue
            sd = math.sqrt(m * n * (m + n + 1) / 12.0)
            # P(U <= c) = Phi((c + 0.5 - mn/2) / sd) <= 0.025
            c = math.floor(m * n / 2.0 - 0.5 + stats.norm.ppf(0.025) * sd)
        out.append({"a": [float(x) for x in a], "b": [float(x) for x in b],
                    "p": float(p), "ratio": float(math.exp(np.median(d))),
                    "lo": float(math.exp(d[c])),
                    "hi": float(math.exp(d[m * n - c - 1]))})
    # the Universal Scalability Law fitted by scipy.optimize.curve_fit
    # (least squares on throughput, sigma and kappa bounded to [0, 1])
    # to a curve with 3% noise
    clients = np.array([1, 2, 4, 8, 12, 16, 24, 32, 48, 64], dtype=float)
    truth = 100 * clients / (1 + 0.05 * (clients - 1) +
                             0.002 * clients * (clients - 1))
    mbps = np.round(truth * (1 + rng.normal(0, 0.03, len(clients))), 2)

    def usl(n, lam, sigma, kappa):
        return lam * n / (1 + sigma * (n - 1) + kappa * n * (n - 1))
    (lam, sigma, kappa), _ = optimize.curve_fit(
        usl, clients, mbps, p0=(90, 0.1, 0.001),
        bounds=([0, 0, 0], [np.inf, 1, 1]))
    fitted = usl(clients, lam, sigma, kappa)
    r2 = 1 - np.sum((mbps - fitted) ** 2) / np.sum((mbps - mbps.mean()) ** 2)
    curve = {"clients": clients.tolist(), "mb_per_s": mbps.tolist(),
             "lam": float(lam), "sigma": float(sigma), "kappa": float(kappa),
             "r2": float(r2)}
    with open("tests/integration/data/history_stats.json", "w") as f:
        json.dump({"source": "bench/history/stats_reference.py, SciPy %s"
                   % __import__("scipy").__version__, "cases": out,
                   "usl": curve}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
