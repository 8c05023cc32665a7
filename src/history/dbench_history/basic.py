"""list, show, rm, import and export."""

import csv
import datetime
import json
import math
import re
import shlex
import sys

from . import validate
from .validate import figure
from .common import EXIT_USAGE, HistoryError, clip, fmt_num, safe
from .runs import metric_sort_key, select_runs, where_clause


def now_utc():
    return datetime.datetime.now(datetime.timezone.utc).strftime(
        "%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def print_table(rows, out, right=()):
    """rows of text cells, the first the header, columns aligned."""
    from .common import width
    cols = [[width(c) for c in r] for r in rows]
    widths = [max(w[i] for w in cols) for i in range(len(rows[0]))]
    lines = []
    for r, w in zip(rows, cols):
        cells = [(" " * (widths[i] - w[i]) + c) if i in right else
                 (c + " " * (widths[i] - w[i])) for i, c in enumerate(r)]
        lines.append("  ".join(cells).rstrip() + "\n")
    out.write("".join(lines))


def cmd_list(hist, args, out):
    where, qargs = where_clause(args.label, args.host, args.since)
    # from the index runs_list alone (schema 002), sorted here
    rows = hist.query(
        "SELECT id, group_id, seq, started_utc, label, host, kind, clients, "
        "mb_per_s, exit_status FROM runs INDEXED BY runs_list%s" % where,
        qargs)
    rows.sort(key=lambda r: (r[3] or "", r[0]))
    if not rows:
        if not hist.exists:
            print("no runs saved yet (%s does not exist)" % safe(hist.path),
                  file=sys.stderr)
        return 0
    # a curve's runs are its points; its answer is printed below the table
    curves = {gid: answer for gid, answer in hist.query(
        "SELECT id, summary_json FROM groups WHERE kind = 'curve'")}
    table = [("run", "group", "started (UTC)", "label", "host", "kind",
              "clients", "MB/s", "exit")]
    shown = []
    for rid, gid, seq, started, label, host, kind, clients, mbps, rc in rows:
        if gid in curves and gid not in shown:
            shown.append(gid)
        table.append((str(rid), "%s.%s" % (gid, seq),
                      (started or "")[:19].replace("T", " "),
                      clip(label, 40), clip(host, 20),
                      "disk test" if kind == "disk_test" else
                      "curve point" if gid in curves else "load",
                      "-" if clients is None else str(clients),
                      fmt_num(mbps), str(rc)))
    print_table(table, out, right=(0, 6, 7, 8))
    if shown:
        from .curves import curve_line
        print("", file=out)
        for gid in shown:
            print("curve group %d: %s" % (gid, curve_line(curves[gid])),
                  file=out)
    return 0


def _run_row(hist, rid):
    rows = hist.query("SELECT r.*, g.kind, g.created_utc FROM runs r "
                      "JOIN groups g ON g.id = r.group_id WHERE r.id = ?",
                      (rid,))
    if not rows:
        raise HistoryError("run %d: no such run in %s" % (rid, hist.path))
    names = [d[0] for d in hist.conn.execute(
        "SELECT r.*, g.kind AS group_kind, g.created_utc FROM runs r "
        "JOIN groups g ON g.id = r.group_id LIMIT 0").description]
    return dict(zip(names, rows[0]))


def _show_curve_point(hist, run, out):
    """A curve's point: its status there and the curve's answer."""
    from .curves import clean_summary, curve_line
    summary = hist.query("SELECT summary_json FROM groups WHERE id = ?",
                         (run["group_id"],))[0][0]
    points = clean_summary(summary).get("points", [])
    for p in points:
        if p.get("order") == run["seq"]:
            status = safe(p.get("status"))
            if p.get("broken"):
                status += " (%s)" % safe(p.get("broken"))
            print("%-15s %s at %s clients" % ("curve point:", status,
                                              p.get("clients")), file=out)
    print("%-15s %s" % ("curve answer:", curve_line(summary)), file=out)


def _gib(v):
    """Bytes as GiB for show; "-" when missing, "?" when not a number."""
    if v is None:
        return "-"
    v = figure(v)
    return "?" if v is None else "%.1f GiB" % (v / 2.0 ** 30)


def _json_list(text):
    """A stored JSON array's items ([] when it is none)."""
    try:
        v = json.loads(text) if text else []
    except (TypeError, ValueError, RecursionError):
        return []
    return v if isinstance(v, list) else []


def _command_line(text):
    """The stored command line (a JSON array) as a shell would quote it."""
    if not text:
        return "-"
    args = _json_list(text)
    return safe(shlex.join(str(a) for a in args)) if args else safe(text)


def cmd_show(hist, args, out):
    # args.runs: the selectors; args.run: one run id (the HTML report's)
    runs = getattr(args, "runs", None) or [str(args.run)]
    for i, rid in enumerate(select_runs(hist, runs)):
        if i and not args.json:
            print("", file=out)
        _show_one(hist, _run_row(hist, rid), args, out)
    return 0


def _show_one(hist, run, args, out):
    if args.json:
        out.write(run["result_json"])
        if not run["result_json"].endswith("\n"):
            out.write("\n")
        return 0
    fields = [
        ("run", run["id"]),
        ("label", safe(run["label"])),
        ("group", "%d (%s), run %d of it" % (run["group_id"],
                                             run["group_kind"],
                                             run["seq"] + 1)),
        ("kind", "disk test" if run["kind"] == "disk_test" else "load"),
        ("started (UTC)", run["started_utc"]),
        ("saved (UTC)", run["saved_utc"]),
        ("exit status", run["exit_status"]),
        ("interrupted", "yes" if run["interrupted"] else "no"),
        ("host", safe(run["host"])),
        ("kernel", safe(run["kernel"])),
        ("CPU", "%s, %s CPUs" % (safe(run["cpu_model"]), run["cpus"])),
        ("memory", _gib(run["memory_bytes"])),
        ("dbench", safe(run["version"])),
        ("command line", _command_line(run["command_line"])),
        ("backend", safe(run["backend"])),
        ("server", safe(run["server_url"])),
        ("loadfile", "%s%s" % (safe(run["loadfile_path"]),
                               " (sha256 %s)" % run["loadfile_sha256"]
                               if run["loadfile_sha256"] else "")),
        ("clients", run["clients"]),
        ("seconds", fmt_num(run["seconds"], 2)),
        ("MB/s", fmt_num(run["mb_per_s"], 2)),
        ("ops/s", fmt_num(run["ops_per_s"], 1)),
    ]
    for name, value in fields:
        print("%-15s %s" % (name + ":", "-" if value is None else value),
              file=out)
    if run["group_kind"] == "curve":
        _show_curve_point(hist, run, out)
    for w in _json_list(run["warnings_json"]):
        print("%-15s %s" % ("warning:", safe(w)), file=out)
    targets = hist.query(
        "SELECT path, fs_type, mount_source, mount_options, device_model, "
        "free_bytes FROM targets WHERE run_id = ? ORDER BY seq", (run["id"],))
    for path, fs, src, mopts, model, free in targets:
        extra = [safe(fs), "on " + safe(src)]
        if mopts:
            extra.append("(" + safe(mopts) + ")")
        if model:
            extra.append("device " + safe(model))
        if free is not None:
            extra.append("%s free" % _gib(free))
        print("%-15s %s: %s" % ("directory:", safe(path), " ".join(extra)),
              file=out)
    metrics = hist.query(
        "SELECT name, target, value, unit, target_seq FROM metrics "
        "WHERE run_id = ? AND target_seq >= 0", (run["id"],))
    metrics.sort(key=lambda m: metric_sort_key((m[0], m[4])))
    if metrics:
        print("", file=out)
        table = [("directory", "measurement", "MB/s (median)")]
        for name, target, value, unit, _ in metrics:
            table.append((clip(target, 30), safe(name), fmt_num(value)))
        print_table(table, out, right=(2,))
    ops = hist.query(
        "SELECT name, count, errors, mean_ms, p50_ms, p99_ms, max_ms, "
        "target_seq FROM ops WHERE run_id = ? ORDER BY seq", (run["id"],))
    if ops:
        print("", file=out)
        table = [("operation", "count", "errors", "mean ms", "p50 ms",
                  "p99 ms", "max ms")]
        for name, count, errors, mean, p50, p99, mx, tseq in ops:
            if tseq is not None:
                name = "%s (dir %d)" % (name, tseq + 1)
            table.append((safe(name), str(count), "-" if errors is None
                          else str(errors), fmt_num(mean, 3),
                          fmt_num(p50, 3), fmt_num(p99, 3), fmt_num(mx, 3)))
        print_table(table, out, right=(1, 2, 3, 4, 5, 6))
    return 0


def _confirm(question, yes):
    if yes:
        return True
    if not sys.stdin.isatty():
        raise HistoryError("rm: standard input is not a terminal to ask "
                           "on; give --yes to remove without asking")
    sys.stderr.write(question + " [y/N] ")
    sys.stderr.flush()
    answer = sys.stdin.readline().strip().lower()
    return answer in ("y", "yes")


def _ids_text(ids):
    """Run ids as ranges: "3, 5-9"."""
    ids = sorted(ids)
    parts, start = [], 0
    for i in range(1, len(ids) + 1):
        if i == len(ids) or ids[i] != ids[i - 1] + 1:
            lo, hi = ids[start], ids[i - 1]
            parts.append(str(lo) if lo == hi else "%d-%d" % (lo, hi))
            start = i
    return ", ".join(parts)


def cmd_rm(hist, args, out):
    selectors = list(args.runs)
    if args.label is not None:
        selectors.append("label:" + args.label)
    if not selectors:
        raise HistoryError("rm: give the runs (ids, N-M, G.S, group:G, "
                           "labels) or --label LABEL")
    ids = select_runs(hist, selectors)
    what = "%s %s" % ("run" if len(ids) == 1 else "%d runs," % len(ids),
                      _ids_text(ids))
    if not ids:
        raise HistoryError("rm: no such run (%s) in %s" % (
            what, hist.path))
    if not _confirm("Remove %s from %s?" % (what, safe(hist.path)),
                    args.yes):
        print("nothing removed", file=out)
        return 0
    hist.begin()
    try:
        for i in range(0, len(ids), 500):
            part = ids[i:i + 500]
            hist.conn.execute("DELETE FROM runs WHERE id IN (%s)" %
                              ",".join("?" * len(part)), part)
        hist.conn.execute("DELETE FROM groups WHERE id NOT IN "
                          "(SELECT group_id FROM runs)")
    except Exception:
        hist.rollback()
        raise
    hist.commit()
    print("removed %s" % what, file=out)
    return 0


def _finite(text):
    v = float(text)
    if not math.isfinite(v):
        # 1e999: beyond a double; JSON has no infinity
        raise ValueError("%s is beyond a finite number" % text)
    return v


def _finite_or_none(text):
    v = float(text)
    return v if math.isfinite(v) else None


def _read_document(path):
    """(text to store, decoded document) of the file path: JSON, a
    dbench --json document whose typed values have their schema's types
    (validate.py), its passwords masked."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise HistoryError("%s: cannot read (%s)" % (path, e.strerror))

    def no_constant(name):
        # NaN and Infinity are not JSON (SQLite's json_valid refuses them)
        raise ValueError("%s is not a JSON value" % name)

    try:
        text = raw.decode("utf-8")
        doc = json.loads(text, parse_constant=no_constant,
                         parse_float=_finite)
    except RecursionError:
        raise HistoryError("%s: not a dbench --json document (nested too "
                           "deeply)" % path)
    except (UnicodeDecodeError, ValueError) as e:
        raise HistoryError("%s: not JSON (%s)" % (path, e))
    if not isinstance(doc, dict) or not any(k in doc for k in (
            "result", "disk_test", "repeats", "curve",
            "dbench_history_export")):
        raise HistoryError("%s: not a dbench --json document (no result, "
                           "disk_test, repeats or curve) nor an export "
                           "--json" % path)
    if "result" in doc or "disk_test" in doc:
        check_run_document(path, doc)
    masked = mask_document(doc)
    if masked != doc:
        return json.dumps(masked, ensure_ascii=False), masked
    return text, doc


def check_run_document(path, doc):
    """A run's document checked against the schema's types (validate.py),
    else a usage error naming the file."""
    try:
        validate.check_document(doc)
    except validate.Invalid as e:
        raise HistoryError("%s: not a dbench --json document: %s" % (
            path, e))


def _url_passwords(s):
    """The (start, end) of every password in the URLs of s, as dbench
    reads them: scheme://USER:PASSWORD@HOST or scheme://USER%PASSWORD@HOST
    (iSCSI), the user part ending at the last '@' before a '/', '?', '#'
    or ','."""
    spans = []
    p = s.find("://")
    while p >= 0:
        auth = p + 3
        end = auth
        while end < len(s) and s[end] not in "/?#,":
            end += 1
        at = s.rfind("@", auth, end)
        if at > auth:
            colon = s.find(":", auth, at)
            pct = s.find("%", auth, at)
            sep = colon if colon >= 0 else pct
            if sep >= 0 and sep + 1 < at and s[sep + 1:at] != "***":
                spans.append((sep + 1, at))
        p = s.find("://", max(end, auth))
    return spans


def mask_text(s):
    """s with every URL password and the PASSWORD of an
    --smb-user=USER%PASSWORD replaced by "***"."""
    for start, end in reversed(_url_passwords(s)):
        s = s[:start] + "***" + s[end:]
    m = SMB_USER.search(s)
    while m is not None:
        if m.group(2) != "***":
            s = s[:m.start(2)] + "***" + s[m.end(2):]
        m = SMB_USER.search(s, m.start(2) + 3)
    return s


# --smb-user=[DOMAIN/]USER%PASSWORD (the rest of the word is the password)
SMB_USER = re.compile(r"--smb-user=([^%\s]*)%(\S+)")


def _mask_after_percent(s):
    pct = s.find("%")
    return s if pct < 0 or s[pct + 1:] in ("", "***") else \
        s[:pct + 1] + "***"


def mask_document(v, key=""):
    """A copy of the decoded document v with its passwords masked, as
    dbench writes them since it saves runs (a document written by an
    older dbench, or by hand, may hold one; none goes in the database):
    URLs in any string, --smb-user=USER%PASSWORD anywhere, the argument
    after a separate --smb-user in an array (the command line), and the
    value of any key naming a user (smb_user) or a password."""
    if isinstance(v, dict):
        return {k: mask_document(x, k) for k, x in v.items()}
    if isinstance(v, list):
        out = [mask_document(x, key) for x in v]
        for i in range(1, len(out)):
            if v[i - 1] == "--smb-user" and isinstance(out[i], str):
                out[i] = _mask_after_percent(out[i])
        return out
    if isinstance(v, str):
        low = key.lower()
        if "password" in low or "passwd" in low or low == "secret":
            return "***" if v else v
        if "user" in low:
            v = _mask_after_percent(v)
        return mask_text(v)
    return v


def cmd_import(hist, args, out):
    from .imports import groups_of, save_groups
    docs = []
    for path in args.files:
        text, doc = _read_document(path)
        groups = groups_of(path, text, doc, args.label)
        # the runs of a --repeat or --curve document or of an export,
        # each checked as a document of its own
        for g in groups:
            for run in g.runs:
                if run[1] is not doc:
                    check_run_document(path, run[1])
        docs.append((path, groups))
    stamp = now_utc()
    done = []
    hist.begin()
    try:
        for path, groups in docs:
            done += save_groups(hist, path, groups, stamp)
    except Exception as e:
        hist.rollback()
        import sqlite3
        if isinstance(e, sqlite3.Error):
            raise HistoryError("%s: import failed, nothing imported (%s)"
                               % (hist.path, e), 3)
        raise
    hist.commit()
    for line in done:
        print(line, file=out)
    return 0


EXPORT_COLUMNS = ["id", "group_id", "seq", "group_kind", "label",
                  "started_utc", "saved_utc", "kind", "host", "kernel",
                  "cpu_model", "cpus", "memory_bytes", "backend",
                  "server_url", "loadfile_path", "loadfile_sha256",
                  "version", "clients", "seconds", "mb_per_s", "ops_per_s",
                  "exit_status", "interrupted"]


def cmd_export(hist, args, out):
    if args.csv == args.json:
        raise HistoryError("export: give --csv or --json", EXIT_USAGE)
    where, qargs = where_clause(args.label, args.host, args.since)
    where = where.replace("label", "r.label").replace("host", "r.host") \
        .replace("started_utc", "r.started_utc")
    cols = ", ".join("g.kind" if c == "group_kind" else "r." + c
                     for c in EXPORT_COLUMNS)
    sql = ("SELECT %s%s FROM runs r JOIN groups g ON g.id = r.group_id%s "
           "ORDER BY r.started_utc, r.id" % (
               cols, ", r.warnings_json, r.result_json, g.summary_json"
               if args.json else "", where))
    rows = hist.query(sql, qargs)
    if args.csv:
        w = csv.writer(out, lineterminator="\n")
        w.writerow(EXPORT_COLUMNS)
        for r in rows:
            w.writerow(["" if v is None else v for v in r])
        return 0
    out.write('{"dbench_history_export": 1, "runs": [')
    for i, r in enumerate(rows):
        item = dict(zip(EXPORT_COLUMNS, r[:len(EXPORT_COLUMNS)]))
        # a column derived from 1e999 stored by hand is infinite: JSON
        # has no such number, null stands for it
        for k, v in item.items():
            if isinstance(v, float) and not math.isfinite(v):
                item[k] = None
        item["warnings"] = _json_list(r[-3])
        try:
            item["group_summary"] = json.loads(
                r[-1], parse_float=_finite_or_none) if r[-1] else None
        except (ValueError, RecursionError):
            item["group_summary"] = None
        body = json.dumps(item, ensure_ascii=False, allow_nan=False)
        # the document as stored, verbatim
        out.write("%s\n%s, \"result\": %s}" % (
            "," if i else "", body[:-1], r[-2].rstrip()))
    out.write("\n]}\n")
    return 0
