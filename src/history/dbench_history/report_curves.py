"""The report's "How many clients?" section (each saved curve: MB/s on a
linear axis and the bound's figure on a log axis, the bound line, the
invalid and failed points, the capacity with its interval and the
fitted model where the curve has them) and its "Latency" section (p50
and p99 per operation of a label's runs over real time)."""

import math

from . import usl
from . import report_data as data
from .common import fmt_num, safe
from .curves import Curve, held_text
from .report_svg import Linear, Log, Plot, Time, colour, esc, parse_time
from .report_sections import lab


def _num(v):
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) \
        and math.isfinite(v) else None


def _figure(p, bound_no):
    """A point's figure for its first bound (ms), else its p99."""
    bs = p.get("bounds")
    if isinstance(bs, list) and len(bs) > bound_no and \
            isinstance(bs[bound_no], dict):
        v = _num(bs[bound_no].get("figure_ms"))
        if v is not None:
            return v
    return _num(p.get("p99_ms"))


def capacity_interval(s):
    """(low, high) of the capacity's interval where the curve has one
    (answer_interval as [low, high] or {low, high}), else None."""
    iv = s.get("answer_interval")
    if isinstance(iv, list) and len(iv) == 2:
        lo, hi = _num(iv[0]), _num(iv[1])
    elif isinstance(iv, dict):
        lo = _num(iv.get("low", iv.get("lo")))
        hi = _num(iv.get("high", iv.get("hi")))
    else:
        return None
    return (lo, hi) if lo is not None and hi is not None else None


def _model(c):
    """The curve's saved model, else dbench-history's USL fit of its
    points (usl.fit), else None."""
    m = c.s.get("model")
    if isinstance(m, dict) and m:
        return m
    return c.model()


def model_curve(model, clients):
    """[(clients, MB/s)] of a fitted model: its own points where it lists
    them, else the universal scalability law from its parameters."""
    if not isinstance(model, dict):
        return []
    pts = model.get("points") or model.get("curve")
    if isinstance(pts, list):
        out = []
        for q in pts:
            if isinstance(q, dict):
                n, v = _num(q.get("clients")), _num(q.get("mb_per_s"))
            elif isinstance(q, list) and len(q) == 2:
                n, v = _num(q[0]), _num(q[1])
            else:
                continue
            if n is not None and v is not None:
                out.append((n, v))
        return sorted(out)
    if model.get("poor"):
        return []
    lam = _num(model.get("lambda", model.get("lam", model.get("gamma"))))
    sig = _num(model.get("sigma", model.get("alpha")))
    kap = _num(model.get("kappa", model.get("beta")))
    if lam is None or sig is None or kap is None:
        return []
    top = max(clients) if clients else 1
    out = []
    for i in range(0, 41):
        n = max(1.0, top * i / 40.0)
        out.append((n, lam * n / (1 + sig * (n - 1) + kap * n * (n - 1))))
    return out


def _bound_title(c):
    bs = c.s.get("bounds") or []
    if not bs or not isinstance(bs[0], dict):
        return "p99 of all ops (ms, log scale)"
    b = bs[0]
    stat = b.get("stat")
    what = ("p%s" % tick(b.get("percentile")) if stat == "percentile"
            else stat or "latency")
    return "%s of %s (ms, log scale)" % (what, b.get("op") or "all ops")


def tick(v):
    return fmt_num(v, 0) if _num(v) is not None and v == int(v) else str(v)


def curve_chart(c, no):
    """A curve's chart: MB/s (linear, left) and the first bound's figure
    (log, right) against clients, with the bound, capacity and model."""
    pts = [p for p in c.points() if isinstance(p, dict) and
           _num(p.get("clients")) is not None]
    if not pts:
        return ""
    clients = [p["clients"] for p in pts]
    mbs = [_num(p.get("mb_per_s")) for p in pts]
    figs = [_figure(p, 0) for p in pts]
    limits = [_num(b.get("limit_ms")) for b in c.s.get("bounds") or []
              if isinstance(b, dict)]
    limits = [v for v in limits if v is not None and v > 0]
    model = model_curve(_model(c), clients)
    x = Linear(0, max(clients), zero=True)
    y = Linear(0, max([v for v in mbs if v is not None] +
                      [v for _, v in model] + [1e-9]) * 1.05, zero=True)
    lat = [v for v in figs + limits[:1] if v is not None and v > 0]
    y2 = Log(min(lat), max(lat)) if lat else None
    p = Plot("curve", "curve-%d" % no, "MB/s and latency against clients",
             x, y, "clients (concurrent)", "throughput (MB/s)", y2=y2,
             y2_title=_bound_title(c))
    iv = capacity_interval(c.s)
    held = _num(c.s.get("answer_clients"))
    if iv is not None:
        p.band(iv[0], iv[1], "#2ca02c", "capacity's interval: %s-%s "
               "clients" % (tick(iv[0]), tick(iv[1])), "capacity-interval")
    if held is not None:
        p.vline(held, "#2ca02c", held_text(c) or "", "capacity",
                dash="2 0", text="capacity %s" % tick(held))
    if y2 is not None and limits:
        p.hline(limits[0], "#d62728", "bound %s" % safe(
            c.bounds_text()), "bound", second=True,
            text="bound %s ms" % tick_ms(limits[0]))
    if model:
        p.line(model, "#7f7f7f", dash="6 3", width=1.5)
    p.line(list(zip(clients, mbs)), "#1f77b4")
    if y2 is not None:
        p.line([(n, v) for n, v in zip(clients, figs)], "#d62728", True,
               width=1)
    for pt, n, mb, fig in zip(pts, clients, mbs, figs):
        status = safe(pt.get("status") or "-")
        tip = "%s clients: %s MB/s, %s ms, %s%s" % (
            n, fmt_num(mb), fmt_num(fig, 3), status,
            " (%s)" % safe(pt.get("broken")) if pt.get("broken") else "")
        ok = pt.get("status") in ("VALID", "UNSTEADY")
        if mb is not None:
            if ok:
                p.dot(n, mb, "#1f77b4", tip,
                      hollow=pt.get("status") == "UNSTEADY")
            else:
                p.cross(n, mb, "#000" if pt.get("status") != "INVALID"
                        else "#d00", tip)
        elif not ok:
            # no figure: the point failed; its cross on the clients axis
            p.cross(n, y.lo, "#000", tip)
        if fig is not None and y2 is not None and fig > 0:
            if ok:
                p.dot(n, fig, "#d62728", tip, second=True, r=3)
            else:
                p.cross(n, fig, "#d00", tip, second=True)
    return p.render()


def tick_ms(v):
    return ("%.3f" % v).rstrip("0").rstrip(".")


LEGEND_CURVE = ('<ul class="legend"><li><span class="key dot"></span>MB/s '
                '(left axis)</li><li><span class="key reddot"></span>the '
                'bound\'s figure (right axis, log)</li><li><span class="key '
                'bound"></span>the bound</li><li><span class="key cross">'
                '</span>a point that broke the bound (red) or failed (black)'
                '</li><li><span class="key capacity"></span>capacity</li>'
                '<li><span class="key model"></span>fitted model</li></ul>')


def curves_section(hist, baseline):
    """"How many clients?": each saved curve, oldest first."""
    groups = data.curve_groups(hist)
    out = ['<section id="clients"><h2>How many clients?</h2>']
    if not groups:
        out.append('<p class="note">No curve saved (dbench --curve '
                   '--label).</p></section>')
        return "".join(out)
    out.append('<p class="note">Each saved curve: the most clients whose '
               'point held every bound (the capacity).</p>')
    for gid, label, created, s in groups:
        c = Curve("group:%d" % gid, gid, label, created, s)
        out.append('<section class="curve" id="curve-group-%d"><h3 '
                   'class="label">%s <span class="sub">(curve, group %d, '
                   '%s)</span></h3>' % (gid, lab(label), gid,
                                        esc(created[:10])))
        out.append(capacity_html(c))
        out.append('<figure>%s</figure>%s' % (curve_chart(c, gid),
                                              LEGEND_CURVE))
        if baseline is not None and label != baseline:
            out.append(curve_verdict(hist, baseline, label, gid))
        out.append(points_table(c))
        out.append("</section>")
    out.append("</section>")
    return "".join(out)


def capacity_html(c):
    """A curve's capacity in words, its interval and model where saved."""
    held = held_text(c)
    out = ['<p class="capacity">']
    if held is None:
        out.append("Capacity: <b>no point held</b> %s" % esc(safe(
            c.bounds_text())))
    else:
        out.append("Capacity: <b class=\"capacity-clients\">%s</b> within "
                   "%s, %s MB/s there" % (
                       esc(held), esc(safe(c.bounds_text())),
                       esc(fmt_num(_num(c.s.get("answer_mb_per_s"))))))
    iv = capacity_interval(c.s)
    if iv is not None:
        out.append(' <span class="capacity-interval">(95%% interval '
                   '%s\u2013%s clients)</span>' % (esc(tick(iv[0])),
                                                   esc(tick(iv[1]))))
    out.append("</p>")
    if c.s.get("answer"):
        out.append('<p class="answer">dbench said: %s</p>' % esc(safe(
            c.s["answer"])))
    m = c.s.get("model")
    if not isinstance(m, dict) or not m:
        # dbench-history's own fit of the points (usl.fit), said plainly
        out.append('<p class="model usl">%s</p>' % esc(usl.text(c.model())))
    elif isinstance(m, dict) and m:
        facts = ", ".join("%s %s" % (safe(k), safe(v)) for k, v in
                          sorted(m.items()) if not isinstance(v, (list,
                                                                  dict)))
        out.append('<p class="model">Fitted model: %s</p>' % esc(facts))
    return "".join(out)


def curve_verdict(hist, baseline, label, gid):
    """compare --curve BASELINE group:GID's verdict line."""
    text, errors = data.compare_text(hist, baseline, "group:%d" % gid,
                                     curve=True)
    if text is None:
        return ""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return '<p class="verdict curve-verdict">Against %s (compare --curve)' \
        ': %s</p>' % (lab(baseline), esc(lines[-1] if lines else "-"))


def points_table(c):
    """A curve's points, folded."""
    out = ['<details><summary>the %d points</summary><div class="wide">'
           '<table class="points"><thead><tr><th>clients</th><th>status'
           '</th><th>MB/s</th><th>ops/s</th><th>p50 ms</th><th>p99 ms</th>'
           '<th>broke</th></tr></thead><tbody>' % len(c.points())]
    for p in c.points():
        if not isinstance(p, dict):
            continue
        out.append('<tr><td class="n">%s</td><td>%s</td><td class="n">%s'
                   '</td><td class="n">%s</td><td class="n">%s</td>'
                   '<td class="n">%s</td><td>%s</td></tr>' % (
                       esc(p.get("clients")), esc(safe(p.get("status"))),
                       esc(fmt_num(_num(p.get("mb_per_s")))),
                       esc(fmt_num(_num(p.get("ops_per_s")), 0)),
                       esc(fmt_num(_num(p.get("p50_ms")), 3)),
                       esc(fmt_num(_num(p.get("p99_ms")), 3)),
                       esc(safe(p.get("broken") or ""))))
    out.append("</tbody></table></div></details>")
    return "".join(out)


def latency_section(hist, trends, anchors):
    """"Latency": per label, each operation's p99 and p50 over time."""
    out = ['<section id="latency"><h2>Latency</h2>',
           '<p class="note">Per server, each operation\'s p50 and p99 '
           'over time (a line per operation).</p>']
    for no, (label, t) in enumerate(trends):
        ops = data.op_latency(hist, t["ids"])
        if not ops:
            continue
        out.append('<section class="label-latency"><h3 class="label">%s'
                   '</h3><div class="charts">' % lab(label))
        for idx, name in ((2, "p99"), (1, "p50")):
            out.append(op_chart(t, ops, idx, name, no))
        out.append('</div><ul class="legend">%s</ul></section>' % "".join(
            '<li><span class="key" style="background:%s"></span>%s</li>'
            % (colour(i), esc(safe(op))) for i, op in enumerate(ops)))
    out.append("</section>")
    return "".join(out)


def op_chart(t, ops, idx, name, no):
    """A chart of one percentile (idx 1: p50, 2: p99) of every operation
    of a label over real time, on a log axis."""
    vals = [row[idx] for rows in ops.values() for row in rows
            if row[idx] is not None and row[idx] > 0]
    times = [parse_time(t["facts"][r]["started"]) for r in t["ids"]]
    times = [v for v in times if v is not None]
    if not vals or not times:
        return ""
    x = Time(min(times), max(times))
    p = Plot("latency", "latency-%d-%s" % (no, name), "%s per operation "
             "over time" % name, x, Log(min(vals), max(vals)), x.title(),
             "%s latency (ms, log scale)" % name)
    for i, (op, rows) in enumerate(ops.items()):
        pts = []
        for rid, *figs in rows:
            v = figs[idx - 1]
            w = parse_time(t["facts"][rid]["started"]) if rid in \
                t["facts"] else None
            if w is not None and v is not None and v > 0:
                pts.append((w, v))
        pts.sort()
        p.line(pts, colour(i), width=1.2)
        for w, v in pts:
            p.dot(w, v, colour(i), "%s %s: %s ms" % (safe(op), name,
                                                     fmt_num(v, 3)), r=2)
    return '<figure>%s</figure>' % p.render()
