"""Curves (dbench --curve --label): which of two servers holds more
clients within the latency bounds.  A curve group's summary_json is the
--curve section of the JSON document: its bounds, its points, the
answer (answer_clients, answer_mb_per_s, answer_is_lower_bound) and the
overall response time."""

import json

from . import usl
from .common import HistoryError, fmt_num, safe
from .runs import parse_id
from .validate import figure
from .workload import split_servers


def _clients(v):
    """A count of clients, or None unless a whole number in range."""
    v = figure(v)
    return int(v) if v is not None and v == int(v) and v >= 0 else None


def _text(v):
    return v if isinstance(v, str) else None


def _objects(v):
    return [x for x in v if isinstance(x, dict)] if isinstance(v, list) \
        else []


def clean_summary(s):
    """A curve group's summary as the readers expect it, whatever is
    stored (text in place of a number, by hand or by an older version):
    each value of the wrong type left out, never an exception."""
    if isinstance(s, str):
        try:
            s = json.loads(s, parse_constant=lambda c: None)
        except (ValueError, RecursionError):
            s = None
    if not isinstance(s, dict):
        return {}
    out = {"answer": _text(s.get("answer")),
           "answer_clients": _clients(s.get("answer_clients")),
           "answer_mb_per_s": figure(s.get("answer_mb_per_s")),
           "overall_response_time_ms":
               figure(s.get("overall_response_time_ms")),
           "answer_is_lower_bound": s.get("answer_is_lower_bound") is True,
           "complete": s.get("complete") is not False}
    out["bounds"] = [{"text": _text(b.get("text")) or "?",
                      "op": _text(b.get("op")), "stat": _text(b.get("stat")),
                      "percentile": figure(b.get("percentile")),
                      "limit_ms": figure(b.get("limit_ms"))}
                     for b in _objects(s.get("bounds"))]
    out["points"] = [{"order": _clients(p.get("order")),
                      "clients": _clients(p.get("clients")),
                      "mb_per_s": figure(p.get("mb_per_s")),
                      "p99_ms": figure(p.get("p99_ms")),
                      "status": _text(p.get("status")),
                      "broken": _text(p.get("broken"))}
                     for p in _objects(s.get("points"))]
    # what this reader does not check (a capacity's interval, a fitted
    # model) goes on as stored, for readers that check it themselves
    for key, value in s.items():
        out.setdefault(key, value)
    return out


class Curve:
    """One saved curve: its group, label and summary."""

    def __init__(self, spec, gid, label, created, summary):
        self.spec = spec
        self.gid = gid
        self.label = label
        self.created = created
        self.s = clean_summary(summary)

    def bounds_text(self):
        return ", ".join(b.get("text", "?") for b in self.s.get("bounds")
                         or []) or "no bound"

    def bounds_key(self):
        """The bounds as a comparable value, whatever their order."""
        def norm(v):  # 20 and 20.0 ms are one bound
            return float(v) if isinstance(v, (int, float)) and \
                not isinstance(v, bool) else v
        return sorted(json.dumps({k: norm(b.get(k)) for k in
                                  ("op", "stat", "percentile", "limit_ms")},
                                 sort_keys=True)
                      for b in self.s.get("bounds") or [])

    def points(self):
        return sorted(self.s.get("points") or [],
                      key=lambda p: p.get("clients") or 0)

    def model(self):
        """The USL fit of its points (usl.fit), or None."""
        return usl.fit(usl.curve_points(self.points()))

    def first_run(self, hist):
        rows = hist.query("SELECT id FROM runs WHERE group_id = ? "
                          "ORDER BY seq LIMIT 1", (self.gid,))
        return rows[0][0] if rows else None


def _group(hist, gid):
    rows = hist.query("SELECT id, kind, label, created_utc, summary_json "
                      "FROM groups WHERE id = ?", (gid,))
    if not rows:
        raise HistoryError("group %d: no such group in %s" % (gid, hist.path))
    return rows[0]


def is_curve_spec(hist, spec):
    """True when spec names a curve: group:N of kind curve, or a label
    that holds curves and nothing else."""
    if spec.startswith("group:"):
        gid = spec[6:]
        return _group(hist, parse_id(gid, "group:N with a group id",
                                     spec))[1] == "curve"
    if spec.startswith("run:"):
        return False
    label = spec[6:] if spec.startswith("label:") else spec
    kinds = set(r[0] for r in hist.query(
        "SELECT DISTINCT kind FROM groups WHERE label = ?", (label,)))
    return kinds == {"curve"}


def resolve_curve(hist, spec):
    """group:N (a curve) or a label (its newest curve) -> Curve."""
    if spec.startswith("group:"):
        row = _group(hist, parse_id(spec[6:], "group:N with a group id",
                                    spec))
        if row[1] != "curve":
            raise HistoryError("%r is a group of kind %s, not a curve: "
                               "compare a curve with a curve" % (spec, row[1]))
    elif spec.startswith("run:"):
        raise HistoryError("%r: a run is not a curve (give a label or "
                           "group:N)" % spec)
    else:
        label = spec[6:] if spec.startswith("label:") else spec
        rows = hist.query("SELECT id, kind, label, created_utc, summary_json "
                          "FROM groups WHERE label = ? AND kind = 'curve' "
                          "ORDER BY created_utc DESC, id DESC LIMIT 1",
                          (label,))
        if not rows:
            raise HistoryError("%r: no curve saved under this label in %s"
                               % (spec, hist.path))
        row = rows[0]
    summary = row[4]
    return Curve(spec, row[0], row[2], row[3], summary)


def ended_early(c):
    """Did a point fail or get interrupted?  Such a curve gives no
    capacity (dbench says "the curve ended early"); older documents
    only say complete: false."""
    return bool(c.s.get("ended_early")) or not c.s.get("complete", True)


def held_text(c):
    """'at most 24 clients' / 'at least 4 clients' / 'no point'."""
    n = c.s.get("answer_clients")
    if n is None:
        return None
    word = "at least" if c.s.get("answer_is_lower_bound") else "at most"
    return "%s %d client%s" % (word, n, "" if n == 1 else "s")


def side_lines(tag, c):
    """A side's facts: the bounds, the most clients within them and the
    throughput there, the overall response time."""
    pts = c.points()
    span = ("%d point%s, %s-%s clients" % (
        len(pts), "" if len(pts) == 1 else "s", pts[0].get("clients"),
        pts[-1].get("clients"))) if pts else "no points"
    lines = ["%s: %s (group %d, curve: %s, saved %s)" % (
        tag, safe(c.label), c.gid, span, safe(c.created))]
    lines.append("   bounds: %s" % safe(c.bounds_text()))
    held = held_text(c)
    if ended_early(c):
        n = c.s.get("held_clients", c.s.get("answer_clients"))
        lines.append("   within the bounds: no capacity: the curve ended "
                     "early%s" % ("" if n is None else
                                  " (%d client%s held before it)" % (
                                      n, "" if n == 1 else "s")))
    elif held is None:
        small = pts[0].get("clients") if pts else "-"
        lines.append("   within the bounds: no point (not even %s "
                     "client%s)" % (small, "" if small == 1 else "s"))
    else:
        lines.append("   within the bounds: %s, %s MB/s there" % (
            held, fmt_num(c.s.get("answer_mb_per_s"))))
    ort = c.s.get("overall_response_time_ms")
    lines.append("   overall response time: %s" % (
        "-" if ort is None else "%.3f ms" % ort))
    if not c.s.get("complete", True):
        last = c.points()[-1].get("status") if pts else "-"
        lines.append("   the curve did not complete (a point %s)" % last)
    lines.append("   " + usl.text(c.model()))
    return lines


def verdict(a, b):
    """The one-line answer: which side holds more clients."""
    na, nb = a.s.get("answer_clients"), b.s.get("answer_clients")
    early = [t for t, c in (("A", a), ("B", b)) if ended_early(c)]
    if early:
        return ("undecided: %s ended early (a point failed or was "
                "interrupted), so %s no capacity to compare: run %s again"
                % (" and ".join("%s's curve" % t for t in early),
                   "they give" if len(early) > 1 else "it gives",
                   "them" if len(early) > 1 else "it"))
    same = a.bounds_key() == b.bounds_key()
    within = "within " + (safe(a.bounds_text()) if same else
                          "its own bounds")
    if na is None and nb is None:
        return "neither A nor B holds a point %s" % within
    if na is None or nb is None:
        win, tag, other = (b, "B", "A") if na is None else (a, "A", "B")
        return "%s holds %s %s, %s none" % (tag, held_text(win), within,
                                            other)
    lb_a = bool(a.s.get("answer_is_lower_bound"))
    lb_b = bool(b.s.get("answer_is_lower_bound"))
    mbs = "%s -> %s MB/s" % (fmt_num(a.s.get("answer_mb_per_s")),
                             fmt_num(b.s.get("answer_mb_per_s")))
    if na == nb:
        note = ""
        if lb_a or lb_b:
            note = "; %s held every point run: its limit is higher" % (
                "both" if lb_a and lb_b else ("A" if lb_a else "B"))
        return "A and B both hold %d client%s %s (%s)%s" % (
            na, "" if na == 1 else "s", within, mbs, note)
    if na > nb:
        win, lose, wt, lt, nw, nl = a, b, "A", "B", na, nb
        mbs = "%s -> %s MB/s" % (fmt_num(b.s.get("answer_mb_per_s")),
                                 fmt_num(a.s.get("answer_mb_per_s")))
    else:
        win, lose, wt, lt, nw, nl = b, a, "B", "A", nb, na
    if lose.s.get("answer_is_lower_bound"):
        return ("undecided: %s holds %s %s, and %s held every point it ran "
                "(to %d client%s): run %s's curve further (--curve-max)" % (
                    wt, held_text(win), within, lt, nl,
                    "" if nl == 1 else "s", lt))
    least = "at least " if win.s.get("answer_is_lower_bound") else ""
    return "%s holds %s%d clients %s, %s %d: %s holds %s%.0f%% more " \
        "(%d -> %d clients; %s)" % (
            wt, least, nw, within, lt, nl, wt, least,
            (nw - nl) * 100.0 / nl, nl, nw, mbs)


def cmd_compare_curves(hist, args, out, workload_diffs, side_class):
    a = resolve_curve(hist, args.a)
    b = resolve_curve(hist, args.b)
    for tag, c in (("A", a), ("B", b)):
        for line in side_lines(tag, c):
            print(line, file=out)
    if a.bounds_key() != b.bounds_key():
        print("Warning: the bounds differ (A: %s; B: %s): the comparison is "
              "not like for like" % (safe(a.bounds_text()),
                                     safe(b.bounds_text())), file=out)
    ra, rb = a.first_run(hist), b.first_run(hist)
    if ra is not None and rb is not None:
        diffs = [d for d in workload_diffs(hist, [
            side_class(args.a, a.label, [ra]),
            side_class(args.b, b.label, [rb])])
            if not d.startswith("clients:")]
        where, diffs = split_servers(diffs)
        if where:
            print("Comparing servers: " + "; ".join(where), file=out)
        if diffs:
            print("Warning: these curves differ in workload; their points "
                  "do not measure the same thing:", file=out)
            for line in diffs:
                print("  " + line, file=out)
    print("", file=out)
    print(verdict(a, b), file=out)
    return 0


def curve_line(summary_json):
    """A curve group's answer line, for list and show."""
    s = clean_summary(summary_json)
    return safe(s.get("answer") or "no answer saved")


def curve_svg(c, no, esc, fmt):
    """An SVG chart of a curve: MB/s (left axis) and p99 (right axis)
    against clients, a bound on all ops' p99 as a dashed line, the points
    that broke a bound (or failed) drawn as red crosses."""
    pts = [p for p in c.points() if p.get("clients") is not None]
    w, h, left, right, top, bottom = 560, 240, 60, 70, 20, 40
    cmax = max([p["clients"] for p in pts] + [1])
    mmax = max([p.get("mb_per_s") or 0.0 for p in pts] + [0.0]) * 1.1 or 1.0
    p99_bounds = [b["limit_ms"] for b in c.s.get("bounds") or []
                  if b.get("op") is None and b.get("stat") == "percentile"
                  and b.get("percentile") == 99 and b.get("limit_ms")]
    lmax = max([p.get("p99_ms") or 0.0 for p in pts] + p99_bounds +
               [0.0]) * 1.1 or 1.0

    def x(n):
        return left + (w - left - right) * n / cmax

    def y(v, top_value):
        return h - bottom - (h - top - bottom) * v / top_value
    out = ['<svg xmlns="http://www.w3.org/2000/svg" class="curve" '
           'id="curve-%d" width="%d" height="%d" viewBox="0 0 %d %d" '
           'role="img"><title>%s</title>' % (no, w, h, w, h, esc(
               "MB/s and p99 against clients"))]
    for x1, y1, x2, y2 in ((left, h - bottom, w - right, h - bottom),
                           (left, top, left, h - bottom),
                           (w - right, top, w - right, h - bottom)):
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#444"/>'
                   % (x1, y1, x2, y2))
    labels = [(left - 4, "end", mmax, 1, "#1f77b4", " MB/s"),
              (w - right + 4, "start", lmax, 3, "#d62728", " ms p99")]
    for lx, anchor, top_value, digits, colour, unit in labels:
        v = top_value / 1.1
        out.append('<text x="%d" y="%.1f" font-size="11" text-anchor="%s" '
                   'fill="%s">%s%s</text>' % (lx, y(v, top_value) + 4,
                                              anchor, colour,
                                              esc(fmt(v, digits)), unit))
    out.append('<text x="%d" y="%d" font-size="11" text-anchor="middle">'
               'clients (0-%d)</text>' % ((left + w - right) / 2,
                                          h - bottom + 16, cmax))
    for limit in p99_bounds:
        out.append('<line class="bound" x1="%d" y1="%.1f" x2="%d" y2="%.1f" '
                   'stroke="#d62728" stroke-dasharray="5 3"><title>bound '
                   'p99 &lt;= %s ms</title></line>' % (
                       left, y(limit, lmax), w - right, y(limit, lmax),
                       esc(fmt(limit, 3))))
    fitted = c.model()
    if fitted is not None and not fitted["poor"]:
        # the USL model, dotted, over the clients measured
        xy = []
        for i in range(41):
            n = 1 + (cmax - 1) * i / 40.0
            v = usl.model(fitted["lam"], fitted["sigma"], fitted["kappa"], n)
            xy.append("%.1f,%.1f" % (x(n), y(min(v, mmax), mmax)))
        out.append('<polyline class="usl" fill="none" stroke="#1f77b4" '
                   'stroke-dasharray="2 3" points="%s"><title>%s</title>'
                   '</polyline>' % (" ".join(xy), esc(usl.text(fitted))))
    for key, top_value, colour in (("mb_per_s", mmax, "#1f77b4"),
                                   ("p99_ms", lmax, "#d62728")):
        xy = [(x(p["clients"]), y(p.get(key) or 0.0, top_value), p)
              for p in pts if p.get(key) is not None]
        if len(xy) > 1:
            out.append('<polyline fill="none" stroke="%s" stroke-width="1.5"'
                       ' points="%s"/>' % (colour, " ".join(
                           "%.1f,%.1f" % (a, b) for a, b, _ in xy)))
        for a, b, p in xy:
            text = esc("%s clients: %s %s, %s" % (
                p["clients"], fmt(p.get(key), 3), key,
                p.get("status") or "-"))
            if p.get("status") == "VALID":
                out.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s">'
                           '<title>%s</title></circle>' % (a, b, colour,
                                                          text))
            else:
                out.append('<path class="invalid" d="M%.1f %.1fl6 6m0 -6l-6 '
                           '6" stroke="#d00" stroke-width="2"><title>%s'
                           '</title></path>' % (a - 3, b - 3, text))
    out.append("</svg>")
    return "".join(out)


def curves_html(hist, esc, fmt):
    """The report's section on curves: per curve its answer and chart."""
    rows = hist.query("SELECT id, kind, label, created_utc, summary_json "
                      "FROM groups WHERE kind = 'curve' ORDER BY id")
    if not rows:
        return ""
    out = ["<h2>Curves</h2>"]
    for gid, _, label, created, summary in rows:
        s = clean_summary(summary)
        c = Curve("group:%d" % gid, gid, label, created, s)
        out.append('<section id="curve-group-%d"><h3 class="label">%s '
                   '(group %d, %s)</h3><p>%s</p>%s<p class="usl">%s (dotted;'
                   ' an aid to reading the curve, not its answer)</p>'
                   '</section>' % (
                       gid, esc(label), gid, esc((created or "")[:10]),
                       esc(s.get("answer") or "no answer saved"),
                       curve_svg(c, gid, esc, fmt), esc(usl.text(c.model()))))
    return "".join(out)
