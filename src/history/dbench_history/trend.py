"""trend LABEL (a label's runs over time and where their level changed)
and servers (the dd guides' table: a row per label)."""

import json

from . import stats
from .basic import print_table
from .common import HistoryError, clip, fmt_num, safe
from .runs import metric_sort_key, metric_title, metrics_of


def curve_runs(hist, label):
    """The ids of a label's runs saved by --curve."""
    return [r[0] for r in hist.query(
        "SELECT r.id FROM groups g JOIN runs r ON r.group_id = g.id "
        "WHERE g.label = ? AND g.kind = 'curve'", (label,))]


def label_runs(hist, label):
    """[(id, started_utc, workload)] of a label's runs that ended well,
    oldest first (read from the index runs_label_workload alone)."""
    rows = hist.query(
        "SELECT id, started_utc, workload FROM runs INDEXED BY "
        "runs_label_workload WHERE label = ? AND exit_status = 0",
        (label,))
    # interrupted runs are left out too (a column outside that index),
    # and a --curve's runs (each at another load: points of a curve, not
    # repeats of one measurement)
    bad = set(r[0] for r in hist.query(
        "SELECT id FROM runs WHERE label = ? AND interrupted != 0",
        (label,)))
    bad.update(curve_runs(hist, label))
    rows = [r for r in rows if r[0] not in bad]
    rows.sort(key=lambda r: (r[1], r[0]))
    return rows


# runs.workload's keys as the user knows them
WORKLOAD_NAMES = {
    "loadfiles": "loadfiles", "loadfile_crc32": "loadfile (crc32)",
    "clients": "clients", "clients_per_process": "clients per process",
    "backend": "backend", "sync_open": "-s", "sync_dirs": "-S",
    "fsync_writes": "-F", "xattr": "-x", "target_rate_mb_per_s": "-R",
    "trunc_io": "--trunc-io", "fake_io": "--fake-io",
    "one_byte_write_fix": "--one-byte-write-fix",
    "no_resolve": "--no-resolve", "stat_check": "--stat-check",
    "disk_test": "disk test", "block_size_bytes": "--block-size",
    "size_bytes": "--size", "repeat": "--repeat",
    "drop_caches": "--drop-caches"}


def _workload(text):
    try:
        w = json.loads(text) if text else {}
    except ValueError:
        w = {}
    return w if isinstance(w, dict) else {}


def _value(v):
    if isinstance(v, bool):
        return "on" if v else "off"
    return "-" if v is None else safe(str(v))


def workload_text(work, others):
    """What sets workload work (runs.workload) apart from others: the
    settings in which they differ, with work's values ("clients 2,
    backend smb")."""
    mine = _workload(work)
    all_w = [_workload(o) for o in others]
    keys = []
    for w in [mine] + all_w:
        keys += [k for k in w if k not in keys]
    parts = ["%s %s" % (WORKLOAD_NAMES.get(k, k), _value(mine.get(k)))
             for k in keys if len(set(json.dumps(w.get(k))
                                      for w in all_w)) > 1]
    return ", ".join(parts) or "another workload"


def workload_change(before, after):
    """The settings that differ from workload before to after: "clients
    1 -> 2, backend null -> fileio"."""
    a, b = _workload(before), _workload(after)
    keys = list(a) + [k for k in b if k not in a]
    parts = ["%s %s -> %s" % (WORKLOAD_NAMES.get(k, k), _value(a.get(k)),
                              _value(b.get(k)))
             for k in keys if a.get(k) != b.get(k)]
    return ", ".join(parts) or "the workload"


def analyse(hist, label):
    """The trend of a label: a dict with runs, keys (metrics in order),
    metrics, per metric its change points (run indexes), and the run
    indexes where the workload changed."""
    runs = label_runs(hist, label)
    ids = [r[0] for r in runs]
    metrics = metrics_of(hist, ids)
    keys = sorted(metrics, key=metric_sort_key)
    # where the workload changed (runs.workload): said beside the
    # figures, which are still searched as one series (a change of
    # workload is a change the user wants to see too)
    wchanges = [i for i in range(1, len(runs))
                if runs[i][2] != runs[i - 1][2]]
    changes = {}
    for key in keys:
        by_run = dict(zip(metrics[key]["runs"], metrics[key]["values"]))
        idx = [i for i in range(len(ids)) if ids[i] in by_run]
        values = [by_run[ids[i]] for i in idx]
        changes[key] = [idx[k] for k in stats.change_points(values)]
    return {"runs": runs, "ids": ids, "keys": keys, "metrics": metrics,
            "changes": changes, "workload_changes": wchanges}


def _segment_median(values, cuts, i):
    """The median of the level that index i belongs to."""
    lo = max([c for c in cuts if c <= i], default=0)
    hi = min([c for c in cuts if c > i], default=len(values))
    seg = [v for v in values[lo:hi] if v is not None]
    return stats.statistics.median(seg) if seg else None


def cmd_trend(hist, args, out):
    t = analyse(hist, args.label)
    if not t["runs"]:
        raise HistoryError("%s: no runs that ended well under this label "
                           "in %s" % (safe(args.label), hist.path))
    keys = t["keys"]
    if args.metric:
        keys = [k for k in keys if k[0] == args.metric]
        if not keys:
            raise HistoryError("--metric %s: the label has no such metric "
                               "(it has: %s)" % (safe(args.metric), ", ".join(
                                   sorted(set(k[0] for k in t["keys"])))))
    print("label: %s, %d runs" % (clip(args.label, 200), len(t["runs"])),
          file=out)
    header = ["#", "run", "started (UTC)"] + [
        metric_title(k, t["metrics"][k]["unit"]) for k in keys]
    table = [tuple(header + [""])]
    cols = {}
    for k in keys:
        by_run = dict(zip(t["metrics"][k]["runs"], t["metrics"][k]["values"]))
        cols[k] = [by_run.get(rid) for rid in t["ids"]]
    for i, (rid, started, _) in enumerate(t["runs"]):
        marks = []
        if i in t["workload_changes"]:
            marks.append("workload changed")
        if any(i in t["changes"][k] for k in keys):
            marks.append("<- change")
        table.append(tuple([str(i + 1), str(rid),
                            (started or "")[:19].replace("T", " ")] +
                           [fmt_num(cols[k][i]) for k in keys] +
                           [", ".join(marks)]))
    print_table(table, out, right=tuple(range(0, 3 + len(keys))))
    print("", file=out)
    any_change = False
    for k in keys:
        title = metric_title(k, t["metrics"][k]["unit"])
        cuts = t["changes"][k]
        for c in cuts:
            any_change = True
            before = _segment_median(cols[k], cuts, c - 1)
            after = _segment_median(cols[k], cuts, c)
            rel = (after / before - 1) * 100 if before else 0.0
            print("change point: %s from run #%d (run %d, %s): median "
                  "%s -> %s (%+.1f%%)%s" % (
                      title, c + 1, t["ids"][c],
                      t["runs"][c][1][:10], fmt_num(before),
                      fmt_num(after), rel,
                      "; the workload changed there too"
                      if c in t["workload_changes"] else ""), file=out)
    for c in t["workload_changes"]:
        print("workload changed at run #%d (run %d): %s; the runs before "
              "and after do not measure the same thing" % (
                  c + 1, t["ids"][c], workload_change(
                      t["runs"][c - 1][2], t["runs"][c][2])), file=out)
    if not any_change:
        print("no change point (robust binary segmentation; at least %d "
              "runs on each side of a change)" % stats.MIN_SEGMENT,
              file=out)
    return 0


def servers_table(hist):
    """The rows of the servers table: (label, what or None, n runs, last
    started, {column: (mean, sd, n)}), and the column titles in order:
    MB/s of load runs, then a disk test's measurements (MB/s); a disk
    test of several directories has a row per directory, and a label
    that holds runs of several workloads a row per workload (what: how
    it differs), never their average.  Two queries over every run that
    ended well."""
    good = ("r.exit_status = 0 AND r.interrupted = 0 AND r.group_id NOT IN "
            "(SELECT id FROM groups WHERE kind = 'curve')")
    labels = hist.query(
        "SELECT r.label, r.workload, count(*), max(r.started_utc) FROM runs r "
        "WHERE %s GROUP BY r.label, r.workload ORDER BY r.label, "
        "min(r.started_utc)" % good)
    values = {}
    targets = {}
    for label, work, name, tseq, target, value in hist.query(
            "SELECT r.label, r.workload, m.name, m.target_seq, m.target, "
            "m.value FROM runs r JOIN metrics m ON m.run_id = r.id WHERE %s "
            "AND m.name NOT IN ('max_latency_ms', 'ops_per_s')" % good):
        values.setdefault((label, work, name, tseq), []).append(value)
        targets.setdefault((label, tseq), target)
    works = {}
    for label, work, _, _ in labels:
        works.setdefault(label, []).append(work)
    rows, columns = [], []
    for label, work, n, last in labels:
        per_dir = {}
        keys = sorted((k[2:] for k in values if k[:2] == (label, work)),
                      key=metric_sort_key)
        for name, tseq in keys:
            title = "MB/s" if name == "mb_per_s" else name
            vals = values[(label, work, name, tseq)]
            mean, sd = stats.mean_sd(vals)
            where = None if tseq is None or tseq < 0 else tseq
            row = per_dir.setdefault(where, [targets[(label, tseq)], {}])
            row[1][title] = (mean, sd, len(vals))
            if title not in columns:
                columns.append(title)
        what = (workload_text(work, works[label])
                if len(works[label]) > 1 else None)
        several = len([d for d in per_dir if d is not None]) > 1
        for where in sorted(per_dir, key=lambda d: -1 if d is None else d):
            target, cells = per_dir[where]
            shown = ("directory %d: %s" % (where + 1, target)
                     if several and where is not None else None)
            if what:
                shown = what + ("; " + shown if shown else "")
            rows.append((label, shown, n, last, cells))
    if "MB/s" in columns:
        columns.remove("MB/s")
        columns.insert(0, "MB/s")
    return rows, columns


def cmd_servers(hist, args, out):
    rows, columns = servers_table(hist)
    if not rows:
        print("no runs saved yet", file=out)
        return 0
    print("mean ± standard deviation (number of runs) of MB/s; a disk "
          "test's MB/s per measurement", file=out)
    table = [tuple(["label", "runs", "last run"] + columns)]
    for label, shown, n, last, cells in rows:
        name = clip(label, 40)
        if shown:
            name += " (" + clip(shown, 40) + ")"
        line = [name, str(n), (last or "")[:10]]
        for c in columns:
            if c not in cells:
                line.append("-")
                continue
            mean, sd, k = cells[c]
            line.append("%s ± %s (%d)" % (fmt_num(mean), fmt_num(sd), k))
        table.append(tuple(line))
    print_table(table, out, right=tuple(range(1, 3 + len(columns))))
    return 0
