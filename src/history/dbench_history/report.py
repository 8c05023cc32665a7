"""report -o DIR: a static HTML report that works offline (no script,
nothing fetched): index.html with the servers table and, per label, an
SVG chart of its runs over time with its change points marked, per
saved curve its answer and a chart against clients, and
runs/N.html with each run's facts and figures."""

import html
import io
import os

from . import trend
from .basic import cmd_show
from .common import EXIT_DB, HistoryError, fmt_num
from .runs import metric_title

STYLE = """
body { font-family: sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #bbb; padding: 0.2em 0.6em; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
svg { border: 1px solid #ddd; background: #fff; }
pre { background: #f6f6f6; padding: 1em; overflow-x: auto; }
.label { word-break: break-all; }
"""
COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
           "#8c564b", "#e377c2", "#7f7f7f"]


def esc(text):
    return html.escape("" if text is None else str(text), quote=True)


def page(title, body):
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<title>%s</title><style>%s</style></head><body>\n%s\n"
            "</body></html>\n" % (esc(title), STYLE, body))


def chart(t, label_no):
    """An SVG line chart of a label's metrics (the first directory's of a
    disk test), a point per run, change points as dashed lines."""
    keys = [k for k in t["keys"] if k[0] in ("mb_per_s",) or
            (k[1] == 0)] or t["keys"][:1]
    n = len(t["ids"])
    w, h, left, bottom, top, right = 720, 260, 60, 40, 20, 160
    series = []
    top_value = 0.0
    for k in keys:
        by_run = dict(zip(t["metrics"][k]["runs"], t["metrics"][k]["values"]))
        vals = [by_run.get(rid) for rid in t["ids"]]
        series.append((k, vals))
        top_value = max([top_value] + [v for v in vals if v is not None])
    top_value = top_value * 1.1 or 1.0

    def x(i):
        span = w - left - right
        return left + (span * i / (n - 1) if n > 1 else span / 2)

    def y(v):
        return h - bottom - (h - top - bottom) * v / top_value

    out = ['<svg xmlns="http://www.w3.org/2000/svg" class="trend" '
           'id="chart-%d" width="%d" height="%d" viewBox="0 0 %d %d" '
           'role="img"><title>%s</title>' % (label_no, w, h, w, h,
                                             esc("trend chart"))]
    out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#444"/>' % (
        left, h - bottom, w - right, h - bottom))
    out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#444"/>' % (
        left, top, left, h - bottom))
    for frac in (0.0, 0.5, 1.0):
        v = top_value / 1.1 * frac
        out.append('<text x="%d" y="%.1f" font-size="11" text-anchor="end">'
                   '%s</text>' % (left - 4, y(v) + 4, esc(fmt_num(v, 0))))
    if n:
        out.append('<text x="%d" y="%d" font-size="11">%s</text>' % (
            left, h - bottom + 16, esc(t["runs"][0][1][:10])))
        out.append('<text x="%d" y="%d" font-size="11" text-anchor="end">'
                   '%s</text>' % (w - right, h - bottom + 16,
                                  esc(t["runs"][-1][1][:10])))
    drawn = set()
    for k, _ in series:
        for c in t["changes"].get(k, []):
            if c in drawn:
                continue
            drawn.add(c)
            cx = (x(c - 1) + x(c)) / 2
            out.append('<line class="change" x1="%.1f" y1="%d" x2="%.1f" '
                       'y2="%d" stroke="#d00" stroke-dasharray="4 3">'
                       '<title>change point before run #%d</title></line>'
                       % (cx, top, cx, h - bottom, c + 1))
    for c in t["workload_changes"]:
        cx = (x(c - 1) + x(c)) / 2
        out.append('<line class="workload" x1="%.1f" y1="%d" x2="%.1f" '
                   'y2="%d" stroke="#888" stroke-dasharray="1 3">'
                   '<title>workload changed</title></line>'
                   % (cx, top, cx, h - bottom))
    for s, (k, vals) in enumerate(series):
        colour = COLOURS[s % len(COLOURS)]
        pts = ["%.1f,%.1f" % (x(i), y(v)) for i, v in enumerate(vals)
               if v is not None]
        if len(pts) > 1:
            out.append('<polyline fill="none" stroke="%s" stroke-width="1.5" '
                       'points="%s"/>' % (colour, " ".join(pts)))
        for i, v in enumerate(vals):
            if v is not None:
                out.append('<circle cx="%.1f" cy="%.1f" r="2.5" fill="%s">'
                           '<title>run #%d: %s</title></circle>' % (
                               x(i), y(v), colour, i + 1,
                               esc(fmt_num(v))))
        title = metric_title(k, t["metrics"][k]["unit"])
        out.append('<text x="%d" y="%d" font-size="11" fill="%s">%s</text>'
                   % (w - right + 8, top + 14 * (s + 1), colour, esc(title)))
    out.append("</svg>")
    return "".join(out)


def servers_html(hist):
    rows, columns = trend.servers_table(hist)
    out = ['<table id="servers"><thead><tr><th>label</th><th>runs</th>'
           '<th>last run</th>']
    out += ["<th>%s<br>mean ± sd (n)</th>" % esc(c) for c in columns]
    out.append("</tr></thead><tbody>")
    labels = []
    for label, shown, n, last, cells in rows:
        if label not in labels:
            labels.append(label)
        out.append('<tr><td class="label"><a href="#label-%d">%s</a>%s</td>'
                   '<td class="n">%d</td><td>%s</td>' % (
                       labels.index(label), esc(label),
                       " (%s)" % esc(shown) if shown else "", n,
                       esc((last or "")[:10])))
        for c in columns:
            if c in cells:
                mean, sd, k = cells[c]
                out.append('<td class="n">%s ± %s (%d)</td>' % (
                    esc(fmt_num(mean)), esc(fmt_num(sd)), k))
            else:
                out.append('<td class="n">-</td>')
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out), labels


def label_section(hist, label, no):
    t = trend.analyse(hist, label)
    out = ['<section id="label-%d"><h2 class="label">%s</h2>' % (
        no, esc(label))]
    out.append(chart(t, no))
    for k in t["keys"]:
        for c in t["changes"][k]:
            # the trend command's own sentence (trend.change_text)
            text = trend.change_text(t, k, c)
            out.append("<p>%s</p>" % esc(text[0].upper() + text[1:]))
    out.append("<table><thead><tr><th>#</th><th>run</th><th>started (UTC)"
               "</th>")
    out += ["<th>%s</th>" % esc(metric_title(k, t["metrics"][k]["unit"]))
            for k in t["keys"]]
    out.append("</tr></thead><tbody>")
    cols = {k: dict(zip(t["metrics"][k]["runs"], t["metrics"][k]["values"]))
            for k in t["keys"]}
    for i, (rid, started, _) in enumerate(t["runs"]):
        out.append('<tr><td class="n">%d</td><td class="n"><a href="runs/'
                   '%d.html">%d</a></td><td>%s</td>' % (
                       i + 1, rid, rid, esc(started[:19].replace("T", " "))))
        out += ['<td class="n">%s</td>' % esc(fmt_num(cols[k].get(rid)))
                for k in t["keys"]]
        out.append("</tr>")
    out.append("</tbody></table></section>")
    return "".join(out), t["ids"]


def cmd_report(hist, args, out):
    target = args.output
    try:
        os.makedirs(os.path.join(target, "runs"), exist_ok=True)
    except OSError as e:
        raise HistoryError("%s: cannot make the directory (%s)" % (
            target, e.strerror), EXIT_DB)
    table, labels = servers_html(hist)
    body = ["<h1>dbench run history</h1>",
            "<p>%s</p>" % esc(hist.path),
            "<h2>Servers</h2>", table,
            "<p>Change points: binary segmentation, the Mann-Whitney test "
            "and the Hodges-Lehmann ratio (dbench-history(1), TREND); "
            "dashed red lines.</p>"]
    run_ids = []
    for no, label in enumerate(labels):
        section, ids = label_section(hist, label, no)
        body.append(section)
        run_ids += ids
    from .curves import curves_html
    body.append(curves_html(hist, esc, fmt_num))
    write(os.path.join(target, "index.html"),
          page("dbench run history", "\n".join(body)))
    for rid in run_ids:
        text = io.StringIO()

        class A:
            run = str(rid)
            json = False
        cmd_show(hist, A, text)
        write(os.path.join(target, "runs", "%d.html" % rid),
              page("run %d" % rid, '<p><a href="../index.html">back</a></p>'
                   "<h1>run %d</h1><pre>%s</pre>" % (rid,
                                                     esc(text.getvalue()))))
    print("%s/index.html: %d labels, %d runs" % (target, len(labels),
                                                  len(run_ids)), file=out)
    return 0


def write(path, text):
    try:
        with open(path + ".tmp", "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(path + ".tmp", path)
    except OSError as e:
        raise HistoryError("%s: cannot write (%s)" % (path, e.strerror),
                           EXIT_DB)
