"""compare A B: per metric the two means and standard deviations, and a
verdict in one sentence each (stats.verdict: the Mann-Whitney test and
the Hodges-Lehmann ratio with its interval, from one method; how many
runs would tell a given difference apart); a warning, as dbench-compare
gives, when the runs differ in workload, and a note on the runs taken on
a busy machine."""

from . import stats
from .common import HistoryError, clip, fmt_num, safe, warn
from .runs import (Side, metric_sort_key, metric_title, metrics_of,
                   resolve_side)
from .workload import print_diffs, workload_diffs


def _pct(x):
    """A change in percent: one decimal, two below 0.1% (never "0.0%
    faster")."""
    x = abs(x) * 100.0
    return "%.1f" % x if x >= 0.095 or x == 0 else "%.2g" % x


def _ptext(p):
    return "p<0.001" if p < 0.001 else "p=%.3f" % p


def _words(better, up):
    if better:
        return "faster" if up else "slower"
    return "higher (worse)" if up else "lower (better)"


def _interval(v, signed=False):
    """The interval as text: magnitudes in the estimate's direction
    ("95% CI 5.2% to 15.3%"), or signed when it holds no change."""
    level = "%g%% CI" % (v.level * 100)
    if v.lo is None:
        return "no %s: too few runs for one" % level
    if v.ratio is None:
        return "%s %+.3g to %+.3g" % (level, v.lo, v.hi)
    if signed or v.lo < 1.0 < v.hi or v.lo == 1.0 or v.hi == 1.0:
        return "%s %+.1f%% to %+.1f%%" % (level, (v.lo - 1) * 100,
                                          (v.hi - 1) * 100)
    if v.ratio >= 1.0:
        return "%s %s%% to %s%%" % (level, _pct(v.lo - 1), _pct(v.hi - 1))
    return "%s %s%% to %s%%" % (level, _pct(1 - v.hi), _pct(1 - v.lo))


def power_text(v):
    """"telling 5% apart needs about N runs each side", or ""."""
    if v.needed is None:
        return ""
    return "telling %s%% apart needs about %d runs each side" % (
        "%g" % (v.detect * 100), v.needed)


def sentence(title, better, a, b, name_a="A", name_b="B", detect=0.05,
             method="mann-whitney"):
    """The verdict on one metric (values a of side name_a, b of name_b),
    in one line: stats.verdict's estimate, interval and p, from one
    method, naming the sides."""
    counts = "%d vs %d runs" % (len(a), len(b))
    if len(a) < 2 or len(b) < 2:
        one = name_a if len(a) < 2 else name_b
        v = stats.verdict(a, b, better, detect=detect, method=method)
        if v.ratio is None:
            return "%s: no ratio (a value is not positive); %s has one run " \
                "(%s)" % (title, one, counts)
        if v.ratio == 1.0:
            return "%s: no change between %s and %s; no test: %s has one " \
                "run (%s)" % (title, name_a, name_b, one, counts)
        return ("%s: %s is %s%% %s than %s; no interval or test: %s has "
                "one run (%s)" % (title, name_b, _pct(v.ratio - 1.0),
                                  _words(better, v.ratio > 1.0), name_a,
                                  one, counts))
    v = stats.verdict(a, b, better, detect=detect, method=method)
    how = "" if method == "mann-whitney" else ", Welch's t on logs"
    if v.significant:
        if v.ratio is None:
            size = "%.3g" % abs(v.shift)
            up = v.shift > 0
        else:
            size = "%s%%" % _pct(v.ratio - 1.0)
            up = v.ratio > 1.0
        return "%s: %s is %s %s than %s (%s, %s%s, %s)" % (
            title, name_b, size, _words(better, up), name_a, _interval(v),
            _ptext(v.p), how, counts)
    if v.ratio is None:
        est = "%s-%s %+.3g" % (name_b, name_a, v.shift) if v.shift \
            else "no change"
    elif v.ratio == 1.0:
        est = "no change"
    else:
        est = "%s/%s %+.1f%%" % (name_b, name_a, (v.ratio - 1.0) * 100.0)
    head = "%s: no significant difference between %s and %s" % (
        title, name_a, name_b)
    if v.too_few:
        head += ", but too few runs to tell"
    tail = ""
    if v.too_few and v.needed:
        tail = "; " + power_text(v)
    elif v.ratio is not None and v.lo is not None:
        tail = "; any change is under %g%%" % (detect * 100)
    return "%s (%s%s; %s, %s, %s)%s" % (
        head, _ptext(v.p), how, est, _interval(v, signed=True), counts,
        tail)


def _values(m, use_samples):
    if not use_samples:
        return m["values"]
    out = []
    for s in m["samples"]:
        out += s or []
    return out


def _busy_lines(hist, sides):
    """Lines naming each side's runs taken on a busy machine."""
    from . import noise
    lines = []
    for side in sides:
        facts = noise.noise_of(hist, side.run_ids)
        busy = [r for r in side.run_ids if noise.is_busy(facts.get(r))]
        if busy:
            lines.append("%s: %d of %d run%s taken on a busy machine (run%s "
                         "%s: %s); --quiet-only leaves them out" % (
                             clip(side.name, 40), len(busy),
                             len(side.run_ids),
                             "" if len(side.run_ids) == 1 else "s",
                             "" if len(busy) == 1 else "s",
                             ",".join(str(r) for r in busy[:10]) +
                             (",..." if len(busy) > 10 else ""),
                             noise.run_text(facts[busy[0]])))
        bound = [r for r in side.run_ids
                 if (facts.get(r) or {}).get("client_bound") is True]
        if bound:
            lines.append("%s: %d of %d run%s bound by dbench's own clients "
                         "(the CPUs used up): the figures may measure the "
                         "client machine, not the server" % (
                             clip(side.name, 40), len(bound),
                             len(side.run_ids),
                             "" if len(side.run_ids) == 1 else "s"))
    return lines


def _apply_quiet(hist, side):
    from . import noise
    kept, dropped = noise.quiet_only(hist, side.run_ids)
    if not kept:
        raise HistoryError("%r: every run was taken on a busy machine "
                           "(--quiet-only left none)" % side.spec)
    side.run_ids = kept
    return dropped


def cmd_compare(hist, args, out):
    # curves: on --curve, or when both sides are curves (group:N of a
    # curve, or a label that holds only curves): dbench-history(1)
    from . import curves
    if getattr(args, "curve", False) or all(
            curves.is_curve_spec(hist, s) for s in (args.a, args.b)):
        return curves.cmd_compare_curves(hist, args, out, workload_diffs,
                                         Side)
    a = resolve_side(hist, args.a, args.last)
    b = resolve_side(hist, args.b, args.last)
    quiet = getattr(args, "quiet_only", False)
    dropped = [_apply_quiet(hist, s) if quiet else 0 for s in (a, b)]
    print("A: %s (%d run%s)" % (safe(a.name), len(a.run_ids),
                               "" if len(a.run_ids) == 1 else "s"), file=out)
    print("B: %s (%d run%s)" % (safe(b.name), len(b.run_ids),
                               "" if len(b.run_ids) == 1 else "s"), file=out)
    for side, n in zip((a, b), dropped):
        if n:
            print("(%s: %d run%s taken on a busy machine left out: "
                  "--quiet-only)" % (clip(side.name, 40), n,
                                     "" if n == 1 else "s"), file=out)
    print_diffs(workload_diffs(hist, [a, b]), out)
    for line in _busy_lines(hist, [a, b]):
        print("Note: " + line, file=out)
    ma, mb = metrics_of(hist, a.run_ids), metrics_of(hist, b.run_ids)
    keys = sorted((k for k in ma if k in mb), key=metric_sort_key)
    if not keys:
        print("no metric in common", file=out)
        return 0
    # one run a side, each a disk test that repeated its measurements:
    # its runs within the test are the samples
    use_samples = (len(a.run_ids) == 1 and len(b.run_ids) == 1 and
                   all(all(s and len(s) > 1 for s in m[k]["samples"])
                       for m in (ma, mb) for k in keys))
    if use_samples:
        print("(one disk test a side: its repeated measurements are the "
              "samples)", file=out)
    rows = [("metric", "A mean", "A sd", "B mean", "B sd", "B/A")]
    verdicts = []
    names = (clip(a.name, 40), clip(b.name, 40))
    if names[0] == names[1]:
        names = ("A", "B")
    detect = getattr(args, "difference", None)
    detect = 0.05 if detect is None else detect / 100.0
    method = getattr(args, "method", None) or "mann-whitney"
    for key in keys:
        title = metric_title(key, ma[key]["unit"])
        va, vb = _values(ma[key], use_samples), _values(mb[key], use_samples)
        mean_a, sd_a = stats.mean_sd(va)
        mean_b, sd_b = stats.mean_sd(vb)
        ratio = "%+.1f%%" % ((mean_b / mean_a - 1) * 100) if mean_a else "-"
        rows.append((title, fmt_num(mean_a), fmt_num(sd_a), fmt_num(mean_b),
                     fmt_num(sd_b), ratio))
        verdicts.append(sentence(title, ma[key]["better"], va, vb,
                                 names[0], names[1], detect, method))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    print("", file=out)
    for r in rows:
        print("  ".join(c.ljust(widths[i]) if i == 0 else
                        c.rjust(widths[i]) for i, c in enumerate(r)).rstrip(),
              file=out)
    print("", file=out)
    for v in verdicts:
        print(v, file=out)
    return 0
