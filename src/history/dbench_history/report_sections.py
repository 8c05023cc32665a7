"""The sections of the report's index page: the first screen (the
servers table, their figures with 95% intervals on one scale, and with
--baseline each server's verdict as compare gives it), then "Did it get
slower?" (a label's figures over real time with its change points),
"How many clients?" (each saved curve) and "Latency" (p50 and p99 per
operation over time)."""

from . import report_data as data
from .common import fmt_num, safe
from .report_svg import (Linear, Log, Plot, Time, colour, esc,
                         interval_chart, parse_time)


def lab(text):
    """A label (or any recorded text) for HTML: control characters shown
    as escapes (as the terminal commands show them), then HTML-escaped."""
    return esc(safe(text))


def fmt(v, digits):
    """fmt_num, with a small latency (under 0.1 ms) in 2 significant
    digits rather than rounded to 0.000."""
    if v is not None and digits == 3 and 0 < abs(v) < 0.1:
        return "%.2g" % v
    return fmt_num(v, digits)


def _cell(cell, digits=1):
    if cell is None:
        return "-"
    mean, lo, hi, n = cell
    if lo is None:
        return '<span class="mean">%s</span> <span class="ci">(n=%d, ' \
            'no interval)</span>' % (esc(fmt(mean, digits)), n)
    return '<span class="mean">%s</span> <span class="ci">[%s\u2013%s] ' \
        '(n=%d)</span>' % (esc(fmt(mean, digits)),
                           esc(fmt(lo, digits)), esc(fmt(hi, digits)),
                           n)


COLUMNS = [("MB/s", "MB/s", 1), ("ops/s", "ops/s", 1),
           ("p99 ms", "p99 ms (slowest op)", 3)]


def glance_html(trends, curves, anchors):
    """In a line per label: did it get slower, and when (its newest
    change point in MB/s, else in its first figure, with what changed
    in the environment there), and how many clients its newest curve
    holds."""
    from .curves import Curve, held_text
    newest = {}
    for gid, label, created, s in curves:
        newest[label] = Curve("group:%d" % gid, gid, label, created, s)
    out = ['<ul id="glance">']
    labels = [label for label, _ in trends] + sorted(
        label for label in newest if label not in dict(trends))
    for label in labels:
        t = dict(trends).get(label)
        parts = []
        if t is not None:
            keys = [k for k in t["keys"] if k[0] == "mb_per_s"] or \
                t["keys"][:1]
            cps = [cp for cp in t["points"] if cp["key"] in keys]
            if cps:
                cp = cps[-1]
                parts.append(
                    '<span class="glance-change %s">%s: %s %+.1f%% from run '
                    '#%d (<a href="runs/%d.html">run %d</a>, %s)%s</span>' % (
                        "worse" if cp["worse"] else "better",
                        "slower" if cp["worse"] else "faster",
                        esc(cp["title"]), cp["rel"], cp["index"] + 1,
                        cp["run"], cp["run"], esc(cp["started"][:10]),
                        "; " + esc("; ".join(cp["env"])) if cp["env"]
                        else ""))
            else:
                parts.append("no change point in %d run%s" % (
                    len(t["ids"]), "" if len(t["ids"]) == 1 else "s"))
        c = newest.get(label)
        if c is not None:
            held = held_text(c)
            parts.append('<span class="glance-capacity">%s within %s '
                         '(<a href="#curve-group-%d">curve</a>)</span>' % (
                             esc("holds " + held if held else
                                 "holds no point"),
                             esc(safe(c.bounds_text())), c.gid))
        name = ('<a href="#%s">%s</a>' % (anchors[label], lab(label))
                if label in anchors else lab(label))
        out.append('<li data-label="%s"><b>%s</b>: %s</li>' % (
            lab(label), name, "; ".join(parts)))
    out.append("</ul>")
    return "".join(out) if len(out) > 2 else ""


def servers_section(hist, rows, baseline, anchors, glance=""):
    """The first screen: the servers table, the glance lines, a chart per
    figure with every server on one scale, and the --baseline verdicts."""
    out = ['<section id="first"><h2>Servers</h2>',
           '<p class="note">Each server (label): its runs that ended well '
           '(not --curve points), the newest run, and the mean with its '
           '95% interval [low\u2013high] of MB/s, ops/s and the p99 of '
           'its slowest operation.</p>']
    if not rows:
        out.append("<p>No runs saved yet.</p></section>")
        return "".join(out)
    out.append('<div class="wide"><table id="servers">'
               '<thead><tr><th>server (label)</th><th>runs</th>'
               '<th>newest run</th>')
    out += ["<th>%s<br>mean [95%% interval]</th>" % esc(t)
            for _, t, _ in COLUMNS]
    out.append("</tr></thead><tbody>")
    for i, r in enumerate(rows):
        latest = r["latest"]
        newest = "-"
        if latest:
            newest = '<a href="runs/%d.html">%s</a>' % (
                latest["id"], esc(latest["started"][:16].replace("T", " ")))
            if latest["mb"] is not None:
                newest += ": %s MB/s" % esc(fmt_num(latest["mb"]))
        busy = (' <span class="busy-note">(%d on a busy machine)</span>'
                % r["busy"]) if r["busy"] else ""
        out.append('<tr class="server" data-label="%s"><td class="label" '
                   'data-title="server"><span class="swatch" style="'
                   'background:%s"></span><a href="#%s">%s</a></td>'
                   '<td class="n runs" data-title="runs">%d%s</td>'
                   '<td class="newest" data-title="newest run">%s</td>' % (
                       lab(r["label"]), colour(i), anchors[r["label"]],
                       lab(r["label"]), r["runs"], busy, newest))
        for key, title, digits in COLUMNS:
            text = _cell(r["cells"].get(key), digits)
            if key == "MB/s" and key not in r["cells"] and r["servers"]:
                # a disk test: its measurements' MB/s, as servers gives them
                text = "<br>".join(
                    '%s: <span class="mean">%s</span>' % (
                        esc(name), esc(fmt_num(cell[0])))
                    for name, cell in r["servers"].items())
            if key == "MB/s" and r.get("level"):
                cp = r["level"]
                text += ('<br><span class="level %s">since run #%d: %s '
                         '(median)</span>' % (
                             "worse" if cp["worse"] else "better",
                             cp["index"] + 1, esc(fmt_num(cp["after"]))))
            out.append('<td class="n fig" data-title="%s" data-metric="%s">'
                       '%s</td>' % (esc(title), esc(key), text))
        out.append("</tr>")
    out.append("</tbody></table></div>" + glance + "<div class=\"charts\">")
    for key, title, digits in COLUMNS:
        crow = []
        for i, r in enumerate(rows):
            cell = r["cells"].get(key)
            if cell is None:
                continue
            mean, lo, hi, n = cell
            tip = "%s: %s %s, 95%% interval %s-%s, %d runs" % (
                safe(r["label"]), fmt(mean, digits), key,
                fmt(lo, digits), fmt(hi, digits), n)
            crow.append((safe(r["label"]), colour(i), mean, lo, hi, tip))
        unit = "p99 of the slowest op (ms, log scale)" if key == "p99 ms" \
            else "%s (mean, 95%% interval)" % key
        svg = interval_chart("servers-%s" % key.split()[0].replace(
            "/", ""), "%s per server" % title, unit, crow,
            log=key == "p99 ms")
        if svg:
            out.append('<figure class="small">%s</figure>' % svg)
    out.append("</div>")
    if baseline is not None:
        out.append(baseline_html(hist, rows, baseline))
    out.append("</section>")
    return "".join(out)


def baseline_html(hist, rows, baseline):
    """Each other server's verdict against baseline, as compare prints it."""
    out = ['<div id="verdicts"><h3>Against the baseline %s</h3>'
           '<p class="note">As <code>dbench-history compare %s LABEL</code> '
           'gives it (A is the baseline, B the server).</p>' % (
               lab(baseline), lab(baseline))]
    for r in rows:
        if r["label"] == baseline:
            continue
        text, errors = data.compare_text(hist, baseline, r["label"])
        out.append('<div class="verdict" data-label="%s"><h4>%s</h4>' % (
            lab(r["label"]), lab(r["label"])))
        if text is None:
            out.append('<p class="error">%s</p></div>' % esc(errors[0]))
            continue
        warnings, lines = data.verdict_lines(text)
        if warnings:
            out.append('<details class="warning"><summary>%s</summary>'
                       '<ul>%s</ul></details>' % (esc(warnings[0]), "".join(
                           "<li>%s</li>" % esc(w) for w in warnings[1:])))
        out.append("<ul>%s</ul></div>" % "".join(
            '<li class="sentence">%s</li>' % esc(ln) for ln in lines))
    if not any(r["label"] == baseline for r in rows):
        out.append('<p class="error">%s: no runs that ended well under '
                   'this label</p>' % lab(baseline))
    out.append("</div>")
    return "".join(out)


def _time_plot(cls, cid, title, t, y, y_title):
    times = [parse_time(f["started"]) for f in t["facts"].values()]
    times = [v for v in times if v is not None]
    if not times:
        return None
    x = Time(min(times), max(times))
    return Plot(cls, cid, title, x, y, x.title(), y_title)


def _series_scale(values, log=False):
    vals = [v for v in values if v is not None]
    if log:
        pos = [v for v in vals if v > 0] or [0.001]
        return Log(min(pos), max(pos))
    lo, hi = min(vals), max(vals)
    pad = (hi - lo) * 0.15 or abs(hi) * 0.05 or 1.0
    return Linear(max(0.0, lo - pad) if lo >= 0 else lo - pad, hi + pad)


def trend_chart(t, key, no, log=False, values=None):
    """A figure of a label over real time: a point per run, a diamond
    with its 95% interval per --repeat group, busy-machine runs ringed,
    change points as dashed lines with their size."""
    ids = t["ids"]
    if values is None:
        values = t["cols"][key]
        unit = t["metrics"][key]["unit"]
        name = {"mb_per_s": "throughput", "ops_per_s": "operations",
                "max_latency_ms": "max latency"}.get(key[0], key[0])
        y_title = "%s (%s)" % (name, unit)
        title = "%s over time" % name
    else:
        y_title = "p99, slowest op (ms, log scale)"
        title = "p99 latency over time"
    if not any(v is not None for v in values):
        return ""
    y = _series_scale(values, log)
    p = _time_plot("trend", "trend-%d-%s" % (no, "p99" if key is None else
                                             key[0]), title, t, y, y_title)
    if p is None:
        return ""
    when = [parse_time(t["facts"][r]["started"]) for r in ids]
    p.line([(w, v) for w, v in zip(when, values) if w is not None],
           "#1f77b4", width=1)
    if key is not None:
        for cp in t["points"]:
            if cp["key"] != key:
                continue
            c = cp["index"]
            if when[c - 1] is None or when[c] is None:
                continue
            mid = (when[c - 1] + when[c]) / 2
            p.vline(mid, "#c00" if cp["worse"] else "#080",
                    "change point before run %d: %s" % (cp["run"],
                                                        _change_text(cp)),
                    "change", text="%+.1f%%" % cp["rel"])
    for i, rid in enumerate(ids):
        v, w = values[i], when[i]
        if v is None or w is None:
            continue
        f = t["facts"][rid]
        busy = ""
        if f["busy"]:
            busy = " (busy machine: %s)" % ", ".join(
                "%s %s" % (safe(k), safe(n)) for k, n in f["noise"].items()
                if k != "busy" and not isinstance(n, (dict, list)))
        tip = "run %d, %s: %s%s" % (rid, f["started"][:16].replace("T", " "),
                                    fmt_num(v, 3 if log else 1), busy)
        p.dot(w, v, "#1f77b4", tip, r=3)
        if f["busy"]:
            p.ring(w, v, tip)
    for gid, rids in sorted(t["repeat_groups"].items()):
        vals = [values[ids.index(r)] for r in rids
                if values[ids.index(r)] is not None]
        if len(vals) < 2:
            continue
        mean, lo, hi = data.interval(vals)
        ws = [when[ids.index(r)] for r in rids]
        p.whisker(sum(ws) / len(ws), lo, mean, hi, "#ff7f0e",
                  "--repeat group %d: mean %s, 95%% interval %s-%s, %d "
                  "runs" % (gid, fmt_num(mean, 3 if log else 1),
                            fmt_num(lo, 3 if log else 1),
                            fmt_num(hi, 3 if log else 1), len(vals)))
    return '<figure>%s</figure>' % p.render()


def _change_text(cp):
    word = "worse" if cp["worse"] else "better"
    return "%s %s \u2192 %s (%+.1f%%, %s)" % (
        cp["title"], fmt_num(cp["before"]), fmt_num(cp["after"]), cp["rel"],
        word)


def legend_trend(t):
    """The legend of a label's charts: only the marks they have."""
    items = [("dot", "a run")]
    if any(len(g) > 1 for g in t["repeat_groups"].values()):
        items.append(("diamond", "a --repeat group: mean and 95% interval"))
    if any(f["busy"] for f in t["facts"].values()):
        items.append(("ring", "a run on a busy machine"))
    if any(cp["worse"] for cp in t["points"]):
        items.append(("worse", "change point, worse"))
    if any(not cp["worse"] for cp in t["points"]):
        items.append(("better", "change point, better"))
    return '<ul class="legend">%s</ul>' % "".join(
        '<li><span class="key %s"></span>%s</li>' % (k, esc(text))
        for k, text in items)


def slower_section(trends, anchors):
    """"Did it get slower?": per label its change points, its charts over
    real time and its runs."""
    out = ['<section id="slower"><h2>Did it get slower?</h2>',
           '<p class="note">Each server\'s figures against real time; '
           'change points by robust binary segmentation, as '
           '<code>dbench-history trend</code> finds them.</p>']
    for no, (label, t) in enumerate(trends):
        out.append('<section class="label-trend" id="%s"><h3 class="label">'
                   '%s</h3>' % (anchors[label], lab(label)))
        out.append(change_list(t))
        out.append('<div class="charts">')
        mb = [k for k in t["keys"] if k[0] == "mb_per_s"] or t["keys"][:1]
        for k in mb:
            out.append(trend_chart(t, k, no))
        p99 = [t["facts"][r]["p99"] for r in t["ids"]]
        out.append(trend_chart(t, None, no, log=True, values=p99))
        out.append("</div>" + legend_trend(t))
        out.append(runs_table(t))
        out.append("</section>")
    out.append("</section>")
    return "".join(out)


def change_list(t):
    """A label's change points in words (trend's figures) with what
    changed in the environment there."""
    if not t["points"] and not t["workload_changes"]:
        n = len(t["ids"])
        return '<p class="no-change">No change point (%d run%s).</p>' % (
            n, "" if n == 1 else "s")
    out = ['<ul class="changes">']
    for cp in t["points"]:
        # trend's own sentence (direction, size, interval, p, what
        # changed), the title in bold and the run linked after it
        words = cp["text"]
        if words.startswith("change point: " + cp["title"] + " "):
            words = words[len("change point: " + cp["title"] + " "):]
        out.append('<li class="change-point %s" data-run="%d">'
                   '<b>%s</b> <span class="rel">%s</span> '
                   '(<a href="runs/%d.html">run %d</a>)' % (
                       "worse" if cp["worse"] else "better", cp["run"],
                       esc(cp["title"]), esc(safe(words)), cp["run"],
                       cp["run"]))
        if cp["env"]:
            out.append('<br><span class="env">What changed there: %s</span>'
                       % esc("; ".join(cp["env"])))
        else:
            out.append('<br><span class="env">No environment difference '
                       'recorded there.</span>')
        out.append("</li>")
    for c in t["workload_changes"]:
        out.append('<li class="workload">The workload changed at run #%d '
                   '(run %d): the runs before and after do not measure '
                   'the same thing.</li>' % (c + 1, t["ids"][c]))
    out.append("</ul>")
    return "".join(out)


def runs_table(t):
    """A label's runs, folded: figures, p99, busy machine, group."""
    keys = t["keys"]
    out = ['<details><summary>the %d runs</summary><div class="wide">'
           '<table class="runs"><thead><tr><th>#</th><th>run</th>'
           '<th>started (UTC)</th>' % len(t["ids"])]
    out += ["<th>%s</th>" % esc(data.metric_title(k, t["metrics"][k]["unit"]))
            for k in keys]
    out.append("<th>p99 ms (slowest op)</th><th>notes</th></tr></thead>"
               "<tbody>")
    for i, rid in enumerate(t["ids"]):
        f = t["facts"][rid]
        notes = []
        if f["busy"]:
            notes.append("busy machine")
        if f["group_kind"] == "repeat":
            notes.append("--repeat group %d" % f["group"])
        out.append('<tr><td class="n">%d</td><td class="n"><a href="runs/'
                   '%d.html">%d</a></td><td>%s</td>' % (
                       i + 1, rid, rid,
                       esc(f["started"][:19].replace("T", " "))))
        out += ['<td class="n">%s</td>' % esc(fmt_num(t["cols"][k][i]))
                for k in keys]
        out.append('<td class="n">%s</td><td>%s</td></tr>' % (
            esc(fmt_num(f["p99"], 3)), esc(", ".join(notes))))
    out.append("</tbody></table></div></details>")
    return "".join(out)
