"""trend LABEL (a label's runs over time and where their level changed)
and servers (the dd guides' table: a row per label)."""

import json
import statistics

from . import stats
from .basic import print_table
from .common import HistoryError, clip, fmt_num, safe
from .runs import metric_sort_key, metric_title, metrics_of
from .validate import figure


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


# the facts compared across a change point: (title, column of runs)
ENV_COLUMNS = [("host", "host"), ("kernel", "kernel"),
               ("dbench version", "version"), ("backend", "backend"),
               ("loadfile", "loadfile_path"), ("CPUs", "cpus"),
               ("memory bytes", "memory_bytes")]


def _environment(hist, rid):
    """{fact: value text} of a run: ENV_COLUMNS, the loadfile's content
    (runs.workload) and each directory's file system, source and mount
    options."""
    cols = ", ".join(c for _, c in ENV_COLUMNS)
    row = hist.query("SELECT %s, workload FROM runs WHERE id = ?" % cols,
                     (rid,))
    if not row:
        return {}
    out = {}
    for (name, _), value in zip(ENV_COLUMNS, row[0]):
        out[name] = "-" if value is None else str(value)
    try:
        crc = json.loads(row[0][-1] or "{}").get("loadfile_crc32")
    except (ValueError, AttributeError):
        crc = None
    if crc is not None:
        out["loadfile content"] = "crc32 %s" % crc
    for seq, fs, src, mopts in hist.query(
            "SELECT seq, fs_type, mount_source, mount_options FROM targets "
            "WHERE run_id = ? ORDER BY seq", (rid,)):
        where = "directory %d " % (seq + 1) if seq else ""
        out[where + "file system"] = "%s on %s" % (fs or "-", src or "-")
        out[where + "mount options"] = mopts or "-"
    return out


def environment_changes(hist, before_id, after_id):
    """["kernel 6.1 -> 6.2", ...]: the recorded facts that differ
    between two runs."""
    a, b = _environment(hist, before_id), _environment(hist, after_id)
    out = []
    for name in list(a) + [n for n in b if n not in a]:
        va, vb = a.get(name, "-"), b.get(name, "-")
        if va != vb:
            out.append("%s %s -> %s" % (name, clip(va, 60), clip(vb, 60)))
    return out


def _outliers(values, cuts, min_effect):
    """Indexes of runs far from their own level (stats.outliers)."""
    out = []
    bounds = [0] + list(cuts) + [len(values)]
    for lo, hi in zip(bounds, bounds[1:]):
        out += [lo + i for i in stats.outliers(values[lo:hi], min_effect)]
    return out


def analyse(hist, label, min_effect=None, min_runs=None, quiet_only=False):
    """The trend of a label: a dict with runs, keys (metrics in order),
    metrics, per metric its change points (run indexes) and outliers,
    per change point (key, index) its verdict (the runs after the change
    against those before, to the neighbouring changes) and what changed
    in the recorded environment there, the run indexes where the
    workload changed, each run's noise facts, and how many busy runs
    --quiet-only left out."""
    from . import noise
    min_effect = stats.MIN_EFFECT if min_effect is None else min_effect
    min_runs = stats.MIN_SEGMENT if min_runs is None else min_runs
    runs = label_runs(hist, label)
    facts = noise.noise_of(hist, [r[0] for r in runs])
    dropped = 0
    if quiet_only:
        kept = [r for r in runs if not noise.is_busy(facts.get(r[0]))]
        dropped = len(runs) - len(kept)
        runs = kept
    ids = [r[0] for r in runs]
    metrics = metrics_of(hist, ids)
    keys = sorted(metrics, key=metric_sort_key)
    # where the workload changed (runs.workload): said beside the
    # figures, which are still searched as one series (a change of
    # workload is a change the user wants to see too)
    wchanges = [i for i in range(1, len(runs))
                if runs[i][2] != runs[i - 1][2]]
    changes, outliers, info = {}, {}, {}
    for key in keys:
        by_run = dict(zip(metrics[key]["runs"], metrics[key]["values"]))
        idx = [i for i in range(len(ids)) if ids[i] in by_run]
        values = [by_run[ids[i]] for i in idx]
        cuts = stats.change_points(values, min_segment=min_runs,
                                   min_effect=min_effect)
        changes[key] = [idx[k] for k in cuts]
        outliers[key] = [idx[k] for k in _outliers(values, cuts,
                                                   min_effect)]
        bounds = [0] + cuts + [len(values)]
        for j, k in enumerate(cuts):
            before, after = values[bounds[j]:k], values[k:bounds[j + 2]]
            info[(key, idx[k])] = {
                "verdict": stats.level_change(before, after, 0.95,
                                              min_effect, min_runs),
                "before_median": statistics.median(before),
                "after_median": statistics.median(after),
                "environment": environment_changes(hist, ids[idx[k - 1]],
                                                   ids[idx[k]]),
                "busy_before": [ids[i] for i in idx[bounds[j]:k]
                                if noise.is_busy(facts.get(ids[i]))],
                "busy_after": [ids[i] for i in idx[k:bounds[j + 2]]
                               if noise.is_busy(facts.get(ids[i]))],
                "n_before": len(before), "n_after": len(after)}
    return {"runs": runs, "ids": ids, "keys": keys, "metrics": metrics,
            "changes": changes, "outliers": outliers, "info": info,
            "workload_changes": wchanges, "noise": facts,
            "dropped": dropped, "min_effect": min_effect,
            "min_runs": min_runs}


def change_text(t, key, c):
    """The sentence on a change point: direction, size and interval,
    where, what changed in the environment, and a busy machine."""
    from . import noise
    inf = t["info"][(key, c)]
    v = inf["verdict"]
    title = metric_title(key, t["metrics"][key]["unit"])
    where = "from run #%d (run %d, %s)" % (c + 1, t["ids"][c],
                                           (t["runs"][c][1] or "")[:10])
    if v.ratio is None:
        size = "moved by %s" % fmt_num(inf["after_median"] -
                                       inf["before_median"])
    else:
        word = "rose" if v.ratio > 1.0 else "fell"
        if v.lo is None:
            ci = "no interval"
        elif v.ratio > 1.0:
            ci = "%.1f-%.1f%%" % ((v.lo - 1) * 100, (v.hi - 1) * 100)
        else:
            ci = "%.1f-%.1f%%" % ((1 - v.hi) * 100, (1 - v.lo) * 100)
        size = "%s %.1f%% [%s]" % (word, abs(v.ratio - 1) * 100, ci)
    trimmed = (v.n_a, v.n_b) != (inf["n_before"], inf["n_after"])
    text = "change point: %s %s %s: median %s -> %s (%s, %d vs %d runs%s)" \
        % (title, size, where, fmt_num(inf["before_median"]),
           fmt_num(inf["after_median"]),
           "p<0.001" if v.p < 0.001 else "p=%.3f" % v.p,
           v.n_a, v.n_b, ", outliers left out" if trimmed else "")
    if inf["environment"]:
        text += "; changed there: " + ", ".join(inf["environment"])
    else:
        text += "; no recorded fact changed there"
    if c in t["workload_changes"]:
        text += "; the workload changed there too"
    # a level taken mostly on a busy machine, the other mostly not
    for side, other in (("after", "before"), ("before", "after")):
        busy, n = inf["busy_" + side], inf["n_" + side]
        share = len(busy) / n - len(inf["busy_" + other]) / inf["n_" + other]
        if busy and len(busy) * 2 >= n and share >= 0.5:
            facts = noise.run_text(t["noise"].get(busy[0]))
            text += ("; %d of the %d runs %s it were taken on %s: the "
                     "machine, not the server, may have changed" % (
                         len(busy), n, side, facts or "a busy machine"))
            break
    return text


def outlier_text(t, key, i, values):
    from . import noise
    title = metric_title(key, t["metrics"][key]["unit"])
    cuts = t["changes"][key]
    level = _segment_median(values, cuts, i)
    text = "outlier: %s at run #%d (run %d): %s against a level of %s" % (
        title, i + 1, t["ids"][i], fmt_num(values[i]), fmt_num(level))
    if level:
        text += " (%+.1f%%)" % ((values[i] / level - 1) * 100)
    why = noise.run_text(t["noise"].get(t["ids"][i]))
    if why and noise.is_busy(t["noise"].get(t["ids"][i])):
        text += "; taken on " + why
    return text


def _segment_median(values, cuts, i):
    """The median of the level that index i belongs to."""
    lo = max([c for c in cuts if c <= i], default=0)
    hi = min([c for c in cuts if c > i], default=len(values))
    seg = [v for v in values[lo:hi] if v is not None]
    return stats.statistics.median(seg) if seg else None


def cmd_trend(hist, args, out):
    from . import noise
    pct = getattr(args, "min_effect", None)
    t = analyse(hist, args.label,
                min_effect=None if pct is None else pct / 100.0,
                min_runs=getattr(args, "min_runs", None),
                quiet_only=getattr(args, "quiet_only", False))
    if not t["runs"]:
        raise HistoryError("%s: no runs that ended well under this label "
                           "in %s%s" % (safe(args.label), hist.path,
                                        " (--quiet-only left out %d)" %
                                        t["dropped"] if t["dropped"]
                                        else ""))
    keys = t["keys"]
    if args.metric:
        keys = [k for k in keys if k[0] == args.metric]
        if not keys:
            raise HistoryError("--metric %s: the label has no such metric "
                               "(it has: %s)" % (safe(args.metric), ", ".join(
                                   sorted(set(k[0] for k in t["keys"])))))
    print("label: %s, %d runs" % (clip(args.label, 200), len(t["runs"])),
          file=out)
    if t["dropped"]:
        print("(%d run%s taken on a busy machine left out: --quiet-only)"
              % (t["dropped"], "" if t["dropped"] == 1 else "s"), file=out)
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
        if any(i in t["outliers"][k] for k in keys):
            marks.append("outlier")
        if noise.is_busy(t["noise"].get(rid)):
            marks.append("busy machine")
        elif (t["noise"].get(rid) or {}).get("client_bound") is True:
            marks.append("client-bound")
        table.append(tuple([str(i + 1), str(rid),
                            (started or "")[:19].replace("T", " ")] +
                           [fmt_num(cols[k][i]) for k in keys] +
                           [", ".join(marks)]))
    print_table(table, out, right=tuple(range(0, 3 + len(keys))))
    print("", file=out)
    any_change = False
    for k in keys:
        for c in t["changes"][k]:
            any_change = True
            print(change_text(t, k, c), file=out)
        for i in t["outliers"][k]:
            print(outlier_text(t, k, i, cols[k]), file=out)
    for c in t["workload_changes"]:
        print("workload changed at run #%d (run %d): %s; the runs before "
              "and after do not measure the same thing" % (
                  c + 1, t["ids"][c], workload_change(
                      t["runs"][c - 1][2], t["runs"][c][2])), file=out)
    if not any_change:
        print("no change point (of at least %g%%, lasting %d runs on each "
              "side)" % (t["min_effect"] * 100, t["min_runs"]), file=out)
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
        value = figure(value)
        if value is None:   # text stored by hand: no statistic of it
            continue
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
