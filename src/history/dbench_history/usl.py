"""The Universal Scalability Law (Gunther) fitted to a curve's points:
throughput X(N) = lam N / (1 + sigma (N - 1) + kappa N (N - 1)) against
N clients, sigma the contention (serialised work), kappa the coherency
cost (crosstalk), lam the throughput of one client.  Least squares on
X: lam in closed form for each (sigma, kappa), those two by a grid, then
a pattern search.  An aid to reading a curve, never its answer: the
answer is the points measured within the bounds."""

import math

# below this R^2 (or with fewer than MIN_POINTS points) the fit is poor
GOOD_R2 = 0.9
MIN_POINTS = 4


def model(lam, sigma, kappa, n):
    return lam * n / (1.0 + sigma * (n - 1.0) + kappa * n * (n - 1.0))


def _fit_lam(points, sigma, kappa):
    """(lam, sse) best for this sigma and kappa."""
    num = den = 0.0
    for n, x in points:
        g = model(1.0, sigma, kappa, n)
        num += x * g
        den += g * g
    lam = num / den if den > 0 else 0.0
    sse = math.fsum((x - lam * model(1.0, sigma, kappa, n)) ** 2
                    for n, x in points)
    return lam, sse


def fit(points):
    """points [(clients, throughput)] -> a dict: lam, sigma, kappa, r2,
    n (points used), peak_clients and peak (None without a coherency
    cost: no peak), poor (True when the fit cannot be trusted) and why;
    None when fewer than 3 usable points."""
    pts = sorted((float(n), float(x)) for n, x in points
                 if n is not None and x is not None and n >= 1 and x > 0)
    if len(pts) < 3:
        return None
    grid_s = [0.0] + [10 ** (e / 4.0) for e in range(-16, 1)]
    grid_k = [0.0] + [10 ** (e / 4.0) for e in range(-28, 1)]
    best = None
    for s in grid_s:
        for k in grid_k:
            lam, sse = _fit_lam(pts, s, k)
            if best is None or sse < best[0]:
                best = (sse, s, k, lam)
    sse, s, k, lam = best
    # pattern search on (sigma, kappa), each kept in [0, 1]
    ds, dk = max(s, 1e-3), max(k, 1e-5)
    for _ in range(200):
        moved = False
        for ns, nk in ((s + ds, k), (s - ds, k), (s, k + dk), (s, k - dk)):
            if not (0.0 <= ns <= 1.0 and 0.0 <= nk <= 1.0):
                continue
            nlam, nsse = _fit_lam(pts, ns, nk)
            if nsse < sse:
                sse, s, k, lam, moved = nsse, ns, nk, nlam, True
        if not moved:
            ds, dk = ds / 2.0, dk / 2.0
            if ds < 1e-9 and dk < 1e-12:
                break
    mean = math.fsum(x for _, x in pts) / len(pts)
    sst = math.fsum((x - mean) ** 2 for _, x in pts)
    r2 = 1.0 - sse / sst if sst > 0 else 1.0
    out = {"lam": lam, "sigma": s, "kappa": k, "r2": r2, "n": len(pts),
           "peak_clients": None, "peak": None, "max_clients": pts[-1][0]}
    if k > 0 and s < 1.0:
        peak_n = math.sqrt((1.0 - s) / k)
        out["peak_clients"] = peak_n
        out["peak"] = model(lam, s, k, peak_n)
    out["poor"], out["why"] = False, None
    if len(pts) < MIN_POINTS:
        out["poor"], out["why"] = True, "%d points for 3 parameters" % len(
            pts)
    elif r2 < GOOD_R2:
        out["poor"], out["why"] = True, "R\u00b2 %.2f" % r2
    return out


def text(f, unit="MB/s"):
    """The fit in one line, saying plainly when it is poor."""
    if f is None:
        return "USL model: too few points to fit (3 or more needed)"
    if f["poor"]:
        return ("USL model: poor fit (%s): the model does not describe this "
                "curve; read the points" % f["why"])
    head = ("USL model: %.3g %s a client, contention sigma %.3g, coherency "
            "kappa %.3g, R\u00b2 %.3f (%d points)" % (
                f["lam"], unit, f["sigma"], f["kappa"], f["r2"], f["n"]))
    if f["peak_clients"] is None:
        if f["sigma"] > 0:
            return head + "; no peak: it levels off towards %.4g %s" % (
                f["lam"] / f["sigma"], unit)
        return head + "; no peak: linear"
    where = ""
    if f["peak_clients"] > 2 * f["max_clients"]:
        where = ", far beyond the points measured"
    elif f["peak_clients"] > f["max_clients"]:
        where = ", beyond the points measured"
    return head + "; predicted peak %.0f %s at %.1f clients%s" % (
        f["peak"], unit, f["peak_clients"], where)


def curve_points(summary_points):
    """The (clients, MB/s) pairs of a curve's measured points (not the
    failed or interrupted ones)."""
    return [(p.get("clients"), p.get("mb_per_s")) for p in summary_points
            if p.get("status") not in ("FAILED", "INTERRUPTED") and
            isinstance(p.get("clients"), (int, float)) and
            isinstance(p.get("mb_per_s"), (int, float))]
