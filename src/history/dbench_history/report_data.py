"""What the report shows, gathered from the history through the
commands' own functions (trend.analyse, trend.servers_table,
compare.cmd_compare, curves.Curve), so that the report's figures are the
figures those commands print: per label its runs with their figures,
noise facts and environment, its change points with their size and what
changed in the environment there, and the first screen's table."""

import contextlib
import io
import json

from . import stats, trend
from .common import HistoryError, safe
from .runs import metric_title

# the per-run facts whose change is "an environment difference"
ENV_FIELDS = [("host", "host"), ("kernel", "kernel"), ("cpu", "CPU"),
              ("version", "dbench"), ("backend", "backend"),
              ("server", "server"), ("fs", "file system"),
              ("mount", "mounted from"), ("mount_options", "mount options"),
              ("device", "device"), ("loadfile", "loadfile sha256"),
              ("clients", "clients")]


def _json(text):
    try:
        v = json.loads(text) if text else None
    except ValueError:
        return None
    return v


def run_facts(hist, ids):
    """{run id: facts}: started, figures (mb, ops, p99 of the slowest op),
    the environment (ENV_FIELDS), the noise object, busy, the group."""
    out = {}
    for part in range(0, len(ids), 500):
        chunk = ids[part:part + 500]
        marks = ",".join("?" * len(chunk))
        for row in hist.query(
                "SELECT r.id, r.started_utc, r.host, r.kernel, r.cpu_model, "
                "r.version, r.backend, r.server_url, r.loadfile_sha256, "
                "json_extract(r.result_json, '$.loadfiles[0].crc32'), "
                "r.clients, r.mb_per_s, r.ops_per_s, "
                "json_extract(r.result_json, '$.noise'), r.group_id, "
                "g.kind, r.seq, t.fs_type, t.mount_source, "
                "t.mount_options, t.device_model "
                "FROM runs r JOIN groups g ON g.id = r.group_id "
                "LEFT JOIN targets t ON t.run_id = r.id AND t.seq = 0 "
                "WHERE r.id IN (%s)" % marks, chunk):
            (rid, started, host, kernel, cpu, version, backend, server,
             sha, crc, clients, mb, ops, noise, gid, gkind, seq, fs, src,
             mopts, model) = row
            noise = _json(noise)
            noise = noise if isinstance(noise, dict) else {}
            out[rid] = {
                "id": rid, "started": started or "", "mb": mb, "ops": ops,
                "p99": None, "noise": noise,
                "busy": noise.get("busy") is True,
                "group": gid, "group_kind": gkind, "seq": seq,
                "env": {"host": host, "kernel": kernel, "cpu": cpu,
                        "version": version, "backend": backend,
                        "server": server, "fs": fs, "mount": src,
                        "mount_options": mopts, "device": model,
                        "loadfile": sha or (crc and "crc32 " + crc),
                        "clients": clients}}
        for rid, p99 in hist.query(
                "SELECT run_id, max(p99_ms) FROM ops WHERE run_id IN (%s) "
                "AND target_seq IS NULL GROUP BY run_id" % marks, chunk):
            if rid in out:
                out[rid]["p99"] = p99
    return out


def env_diff(a, b):
    """["NAME: A -> B"] for the environment facts in which runs a and b
    (facts of run_facts) differ."""
    lines = []
    for key, name in ENV_FIELDS:
        va, vb = a["env"].get(key), b["env"].get(key)
        if va != vb:
            lines.append("%s: %s \u2192 %s" % (name, safe(va), safe(vb)))
    return lines


def interval(values):
    """(mean, low, high) of the 95% interval of the mean (stats.mean_ci);
    (None, None, None) without values."""
    values = [v for v in values if v is not None]
    if not values:
        return None, None, None
    return stats.mean_ci(values)


def label_trend(hist, label):
    """trend.analyse with, per change point, what trend prints (the
    medians either side and the change in percent, as cmd_trend computes
    them) and the environment difference between the run before and the
    run at the change; the runs' facts; the --repeat groups."""
    t = trend.analyse(hist, label)
    facts = run_facts(hist, t["ids"])
    t["facts"] = facts
    t["cols"] = {}
    for k in t["keys"]:
        by_run = dict(zip(t["metrics"][k]["runs"], t["metrics"][k]["values"]))
        t["cols"][k] = [by_run.get(rid) for rid in t["ids"]]
    points = []
    for k in t["keys"]:
        cuts = t["changes"][k]
        title = metric_title(k, t["metrics"][k]["unit"])
        for c in cuts:
            before = trend._segment_median(t["cols"][k], cuts, c - 1)
            after = trend._segment_median(t["cols"][k], cuts, c)
            rel = (after / before - 1) * 100 if before else 0.0
            better = t["metrics"][k]["better"]
            worse = (rel < 0) if better else (rel > 0)
            points.append({
                "key": k, "title": title, "index": c, "run": t["ids"][c],
                "started": t["runs"][c][1], "before": before,
                "after": after, "rel": rel, "worse": worse,
                "workload": c in t["workload_changes"],
                "text": trend.change_text(t, k, c),
                "env": env_diff(facts[t["ids"][c - 1]],
                                facts[t["ids"][c]])})
    t["points"] = points
    groups = {}
    for rid in t["ids"]:
        f = facts[rid]
        if f["group_kind"] == "repeat":
            groups.setdefault(f["group"], []).append(rid)
    t["repeat_groups"] = groups
    return t


def first_screen(hist):
    """The servers table's rows: [{label, runs, busy, last, latest (MB/s
    of the newest run), cells {"MB/s"|"ops/s"|"p99 ms": (mean, lo, hi,
    n)}, servers (the cells of trend.servers_table: mean, sd, n)}], and
    the labels in order."""
    rows, _ = trend.servers_table(hist)
    out = []
    for label, shown, n, last, cells in rows:
        if any(e["label"] == label for e in out):
            continue    # a disk test's further directories: in `servers`
        ids = [r[0] for r in trend.label_runs(hist, label)]
        facts = run_facts(hist, ids)
        newest = facts[ids[-1]] if ids else None
        entry = {"label": label, "runs": n, "last": last or "",
                 "busy": sum(1 for f in facts.values() if f["busy"]),
                 "latest": newest, "servers": cells, "cells": {}}
        for name, key in (("MB/s", "mb"), ("ops/s", "ops"),
                          ("p99 ms", "p99")):
            vals = [facts[r][key] for r in ids if facts[r][key] is not None]
            if vals:
                entry["cells"][name] = interval(vals) + (len(vals),)
        out.append(entry)
    return out


class Options:
    """The options a command's function reads, as the command line would
    give them: those named, and None (not given) for any other."""

    def __init__(self, **given):
        self.__dict__.update(given)

    def __getattr__(self, name):
        return None


def compare_text(hist, baseline, label, curve=False):
    """What `dbench-history compare BASELINE LABEL` prints (its verdict
    lines and its warnings), or the one line it fails with."""
    from . import compare

    args = Options(a=baseline, b=label, last=None, curve=curve)
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stderr(err):
            compare.cmd_compare(hist, args, out)
    except HistoryError as e:
        return None, [safe(str(e))]
    return out.getvalue(), []


def verdict_lines(text):
    """The verdict part of compare's output: the warning lines and the
    lines after its table (the sentences and the notes)."""
    lines = text.splitlines()
    warnings = [ln.strip() for ln in lines if ln.startswith("Warning") or
                ln.startswith("  ")]
    blanks = [i for i, ln in enumerate(lines) if ln == ""]
    if len(blanks) >= 2:
        tail = lines[blanks[1] + 1:]
    else:   # no table: what is not a side or a warning
        tail = [ln for ln in lines if not ln.startswith(
            ("A: ", "B: ", "Warning", "  "))]
    return warnings, [ln for ln in tail if ln.strip()]


def curve_groups(hist):
    """[(gid, label, created, summary)] of every saved curve, oldest
    first."""
    out = []
    for gid, label, created, summary in hist.query(
            "SELECT id, label, created_utc, summary_json FROM groups "
            "WHERE kind = 'curve' ORDER BY created_utc, id"):
        s = _json(summary)
        out.append((gid, label, created or "", s if isinstance(s, dict)
                    else {}))
    return out


def op_latency(hist, ids):
    """{op name: [(run id, p50, p99)]} of a label's load runs."""
    out = {}
    for part in range(0, len(ids), 500):
        chunk = ids[part:part + 500]
        for rid, name, p50, p99 in hist.query(
                "SELECT run_id, name, p50_ms, p99_ms FROM ops WHERE run_id "
                "IN (%s) AND target_seq IS NULL ORDER BY seq" % ",".join(
                    "?" * len(chunk)), chunk):
            out.setdefault(name, []).append((rid, p50, p99))
    return out


def document(hist, rid):
    """A run's document (a dict; empty when it cannot be read)."""
    rows = hist.query("SELECT result_json FROM runs WHERE id = ?", (rid,))
    doc = _json(rows[0][0]) if rows else None
    return doc if isinstance(doc, dict) else {}


def compact(v):
    """A JSON value as short text for a table cell."""
    return json.dumps(v, ensure_ascii=False, separators=(", ", ": "))
