"""report -o DIR [--baseline LABEL]: a static HTML report that works
offline (no script, nothing fetched, readable from a file:// URL on a
phone and a desktop).  index.html answers on its first screen which
server is faster (its servers table and their figures with 95%
intervals on one scale; with --baseline, each server's verdict as
compare gives it), then "Did it get slower?", "How many clients?" and
"Latency"; runs/N.html holds everything recorded about run N."""

import io
import os
import tempfile

from . import report_data as data
from .basic import cmd_show
from .common import EXIT_DB, HistoryError, fmt_num, safe
from .report_curves import curves_section, latency_section
from .report_sections import glance_html, servers_section, slower_section
from .report_svg import esc

STYLE = """
* { box-sizing: border-box; }
body { font-family: system-ui, sans-serif; margin: 0 auto; padding: 0.8em;
  max-width: 1240px; color: #222; line-height: 1.35; }
h1 { font-size: 1.4em; margin: 0.2em 0; }
h2 { border-bottom: 2px solid #ccd; margin-top: 1.6em; }
header { display: flex; flex-wrap: wrap; align-items: baseline;
  gap: 0.2em 1.5em; }
#first h2 { margin-top: 0.5em; }
header .note { overflow-wrap: anywhere; }
.newest a { white-space: nowrap; }
h3 { margin-bottom: 0.3em; }
nav a { margin-right: 1em; }
.note, .sub { color: #555; font-size: 0.9em; }
.wide { overflow-x: auto; }
table { border-collapse: collapse; margin: 0.6em 0; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.5em; vertical-align: top; }
th { background: #f2f3f7; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.ci { color: #555; font-size: 0.85em; white-space: nowrap; }
.mean { font-weight: bold; }
.label, td.label { overflow-wrap: anywhere; }
.swatch, .key { display: inline-block; width: 0.8em; height: 0.8em;
  margin-right: 0.3em; vertical-align: middle; border-radius: 2px; }
.charts { display: flex; flex-wrap: wrap; gap: 0.8em; }
figure { margin: 0.4em 0; flex: 1 1 440px; max-width: 600px; min-width: 0; }
figure.small { flex: 1 1 300px; max-width: 400px; }
figure > svg { width: 100%; height: auto; display: block;
  font-family: system-ui, sans-serif; }
.axis-title { font-weight: bold; }
.legend { list-style: none; padding: 0; margin: 0.2em 0; font-size: 0.85em;
  display: flex; flex-wrap: wrap; gap: 0.4em 1.2em; }
.key.dot { background: #1f77b4; border-radius: 50%; }
.key.reddot { background: #d62728; border-radius: 50%; }
.key.diamond { background: #ff7f0e; transform: rotate(45deg); }
.key.ring { border: 2px solid #f08000; border-radius: 50%; }
.key.worse { border-left: 3px dashed #c00; border-radius: 0; }
.key.better { border-left: 3px dashed #080; border-radius: 0; }
.key.bound { border-top: 3px dashed #d62728; border-radius: 0; }
.key.cross { background: linear-gradient(45deg, transparent 40%, #d00 40%,
  #d00 60%, transparent 60%); }
.key.capacity { border-left: 3px solid #2ca02c; border-radius: 0; }
.key.model { border-top: 3px dashed #7f7f7f; border-radius: 0; }
.changes li { margin-bottom: 0.4em; }
.change-point.worse b, .change-point.worse .rel { color: #c00; }
.change-point.better .rel { color: #080; }
.env { color: #444; font-size: 0.9em; }
.warning, .error { color: #a40; }
.busy-note { color: #b60; font-size: 0.85em; }
.verdict ul { margin: 0.2em 0; padding-left: 1.2em; }
#glance { padding-left: 1.2em; margin: 0.4em 0; }
.glance-change.worse, .level.worse { color: #c00; }
.level { font-size: 0.85em; white-space: nowrap; }
.glance-change.better { color: #080; }
dl.facts { display: grid; grid-template-columns: max-content 1fr;
  gap: 0.15em 1em; }
dl.facts dt { font-weight: bold; }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
table.kv td { word-break: break-all; }
pre { background: #f6f6f6; padding: 0.8em; overflow-x: auto; }
@media (max-width: 700px) {
  body { padding: 0.5em; font-size: 15px; }
  #servers, #servers tbody, #servers tr, #servers td {
    display: block; width: 100%; }
  #servers thead { display: none; }
  #servers tr { border: 1px solid #ccc; margin-bottom: 0.6em;
    padding: 0.3em; }
  #servers td { border: none; text-align: left; padding: 0.1em 0.3em; }
  #servers td::before { content: attr(data-title) ": "; color: #555;
    font-weight: normal; }
  #servers td.label { font-weight: bold; }
  #servers td.label::before { content: ""; }
  figure { flex-basis: 100%; }
  th, td { padding: 0.2em 0.3em; }
}
"""


def page(title, body):
    """A whole HTML page: the style inline, nothing fetched."""
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, "
            "initial-scale=1\"><title>%s</title><style>%s</style></head>"
            "<body>\n%s\n</body></html>\n" % (esc(title), STYLE, body))


def index_html(hist, baseline):
    """index.html's body, the labels in it and the runs to give a page."""
    rows = data.first_screen(hist)
    labels = [r["label"] for r in rows]
    anchors = {label: "label-%d" % i for i, label in enumerate(labels)}
    trends = [(label, data.label_trend(hist, label)) for label in labels]
    for r, (_, t) in zip(rows, trends):
        # the level MB/s settled at after its newest change, as trend says
        cps = [cp for cp in t["points"] if cp["key"][0] == "mb_per_s"]
        r["level"] = cps[-1] if cps else None
    body = ['<header><h1>dbench run history</h1><nav>'
            '<a href="#first">servers</a><a href="#slower">slower?</a>'
            '<a href="#clients">clients</a><a href="#latency">latency</a>'
            '</nav><span class="note">%s</span></header>' % esc(safe(
                hist.path)),
            servers_section(hist, rows, baseline, anchors, glance_html(
                trends, data.curve_groups(hist), anchors)),
            slower_section(trends, anchors),
            curves_section(hist, baseline),
            latency_section(hist, trends, anchors),
            '<p class="note">Intervals: 95%, Student\'s t on the runs\' '
            'mean; verdicts as <code>dbench-history compare</code>; change '
            'points as <code>dbench-history trend</code> '
            '(dbench-history(1)).</p>']
    run_ids = [rid for _, t in trends for rid in t["ids"]]
    run_ids += [rid for rid, in hist.query(
        "SELECT r.id FROM runs r JOIN groups g ON g.id = r.group_id "
        "WHERE g.kind = 'curve' ORDER BY r.id")]
    return "\n".join(body), labels, sorted(set(run_ids))


def cmd_report(hist, args, out):
    target = args.output
    baseline = getattr(args, "baseline", None)
    try:
        os.makedirs(os.path.join(target, "runs"), exist_ok=True)
    except OSError as e:
        raise HistoryError("%s: cannot make the directory (%s)" % (
            target, e.strerror), EXIT_DB)
    # the pages go into DIR/runs itself, never where a link there points
    if os.path.islink(os.path.join(target, "runs")):
        raise HistoryError("%s: a symbolic link, not a directory; not "
                           "written through" % os.path.join(target, "runs"),
                           EXIT_DB)
    body, labels, run_ids = index_html(hist, baseline)
    write(os.path.join(target, "index.html"),
          page("dbench run history", body))
    for rid in run_ids:
        write(os.path.join(target, "runs", "%d.html" % rid),
              page("run %d" % rid, run_page(hist, rid)))
    print("%s/index.html: %d labels, %d runs" % (target, len(labels),
                                                  len(run_ids)), file=out)
    return 0


def _show_text(hist, rid):
    text = io.StringIO()
    cmd_show(hist, data.Options(run=str(rid), json=False), text)
    return text.getvalue()


def run_page(hist, rid):
    """Everything recorded about a run: show's facts, the options, the
    per-op table, the noise facts and the directories, each a table."""
    shown = _show_text(hist, rid)
    facts, rest = [], []
    for line in shown.splitlines():
        name, sep, value = line.partition(":")
        if not rest and sep and len(name) < 16 and line[:15].strip() and \
                (len(line) < 16 or line[15] == " "):
            facts.append((name, value.strip()))
        elif line.strip() or rest:
            rest.append(line)
    doc = data.document(hist, rid)
    out = ['<p><a href="../index.html">\u2190 the report</a></p>',
           '<h1>run %d</h1>' % rid, '<h2>Facts</h2><dl class="facts">']
    out += ['<dt>%s</dt><dd>%s</dd>' % (esc(n), esc(v)) for n, v in facts]
    out.append("</dl>")
    noise = doc.get("noise")
    out.append("<h2>Noise</h2>")
    if isinstance(noise, dict) and noise:
        out.append(kv_table("noise", noise))
    else:
        out.append("<p>No noise facts recorded.</p>")
    out.append(ops_table(hist, rid))
    for name, key in (("Options", "options"), ("Loadfiles", "loadfiles"),
                      ("Directories", "directories"), ("Host", "host"),
                      ("Result", "result"), ("CPU", "cpu")):
        v = doc.get(key)
        if isinstance(v, dict) and v:
            out.append("<h2>%s</h2>%s" % (name, kv_table(key, v)))
        elif isinstance(v, list) and v:
            out.append("<h2>%s</h2>" % name)
            for i, item in enumerate(v):
                out.append(kv_table(key, item) if isinstance(item, dict)
                           else "<p>%s</p>" % esc(safe(item)))
    if rest:
        out.append("<h2>As <code>dbench-history show %d</code> prints it"
                   "</h2><pre>%s</pre>" % (rid, esc("\n".join(rest))))
    return "".join(out)


def kv_table(cls, d):
    """A table of a document's object: a row per key."""
    rows = []
    for k, v in d.items():
        if isinstance(v, (dict, list)):
            v = data.compact(v)
        elif isinstance(v, bool):
            v = "true" if v else "false"
        rows.append('<tr><th>%s</th><td>%s</td></tr>' % (
            esc(safe(k)), esc(safe("-" if v is None else v))))
    return '<div class="wide"><table class="kv %s">%s</table></div>' % (
        esc(cls), "".join(rows))


def ops_table(hist, rid):
    """A run's per-operation table (the ops table of the history)."""
    ops = hist.query(
        "SELECT name, count, errors, mean_ms, p50_ms, p99_ms, max_ms, "
        "target_seq FROM ops WHERE run_id = ? ORDER BY seq", (rid,))
    if not ops:
        return "<h2>Operations</h2><p>No per-operation figures.</p>"
    out = ['<h2>Operations</h2><div class="wide"><table class="ops"><thead>'
           '<tr><th>operation</th><th>count</th><th>errors</th>'
           '<th>mean ms</th><th>p50 ms</th><th>p99 ms</th><th>max ms</th>'
           '</tr></thead><tbody>']
    for name, count, errors, mean, p50, p99, mx, tseq in ops:
        if tseq is not None:
            name = "%s (directory %d)" % (name, tseq + 1)
        out.append('<tr><td>%s</td>%s</tr>' % (esc(safe(name)), "".join(
            '<td class="n">%s</td>' % esc(v) for v in (
                "-" if count is None else count,
                "-" if errors is None else errors, fmt_num(mean, 3),
                fmt_num(p50, 3), fmt_num(p99, 3), fmt_num(mx, 3)))))
    out.append("</tbody></table></div>")
    return "".join(out)


def write(path, text):
    """text into path through a temporary file of the same directory,
    created exclusively and never through a link (a planted
    path.tmp symlink is not followed), then renamed over path; on any
    failure the temporary file is removed and path is as it was."""
    data = text.encode("utf-8")
    tmp = None
    try:
        folder, name = os.path.split(path)
        fd, tmp = tempfile.mkstemp(prefix="." + name + ".", suffix=".tmp",
                                   dir=folder or ".")
        try:
            os.fchmod(fd, 0o644 & ~_umask())
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
        os.replace(tmp, path)
        tmp = None
    except OSError as e:
        raise HistoryError("%s: cannot write (%s)" % (
            path, e.strerror or e), EXIT_DB)
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _umask():
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
