"""compare A B: per metric the two means, their ratio with its 95%
confidence interval and Welch's t test, in one sentence each; a warning,
as dbench-compare gives, when the runs differ in workload."""

import json

from . import stats
from .common import fmt_num, safe
from .runs import (Side, metric_sort_key, metric_title, metrics_of,
                   resolve_side)

# The options that define a run's workload, as dbench-compare has them.
LOAD_SETTINGS = [
    ("loadfiles", "loadfile (-c)"),
    ("clients", "clients"),
    ("clients_per_process", "clients per process"),
    ("backend", "backend (-B)"),
    ("sync_open", "sync open (-s)"),
    ("sync_dirs", "sync directories (-S)"),
    ("fsync_writes", "fsync after writes (-F)"),
    ("xattr", "xattrs (-x)"),
    ("target_rate_mb_per_s", "target rate MB/s (-R)"),
    ("trunc_io", "--trunc-io"),
    ("fake_io", "--fake-io"),
    ("one_byte_write_fix", "--one-byte-write-fix"),
    ("no_resolve", "--no-resolve"),
    ("stat_check", "--stat-check"),
]
# What says where a run was measured: comparing these is comparing
# servers (or transports), not a workload that differs.
SERVER_SETTINGS = ("backend (-B)", "server")
DISK_SETTINGS = [
    ("block_size_bytes", "block size (--block-size)"),
    ("size_bytes", "size asked (--size, 0: the default)"),
    ("repeat", "runs (--repeat)"),
    ("drop_caches", "--drop-caches"),
]


def _value_text(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return ",".join(_value_text(x) for x in v)
    if v is None:
        return "-"
    return str(v)


def _settings(doc):
    """{setting name: value text} of a document."""
    opts = doc.get("options") or {}
    out = {}
    if "disk_test" in doc:
        out["kind"] = "disk test"
        for key, name in DISK_SETTINGS:
            out[name] = _value_text(opts.get(key))
        dirs = (doc.get("disk_test") or {}).get("directories") or []
        out["test file size"] = ",".join(
            _value_text(d.get("file_size_bytes")) for d in dirs)
    else:
        out["kind"] = "load"
        for key, name in LOAD_SETTINGS:
            if key == "loadfiles":
                # the loadfile by its content: the same file installed
                # elsewhere is the same workload
                files = doc.get("loadfiles") or []
                out[name] = ",".join(
                    "crc32 %s" % f.get("crc32") for f in files) or \
                    _value_text(opts.get(key))
            else:
                out[name] = _value_text(opts.get(key))
        out["server"] = _value_text((doc.get("server") or {}).get("url"))
    return out


def _one_per_workload(hist, run_ids):
    """A run of each workload (runs.workload, read from its index) among
    run_ids: only those documents need reading.  A disk test's file sizes
    are not in runs.workload: disk tests are all read."""
    wanted = set(run_ids)
    labels = set()
    for part in range(0, len(run_ids), 500):
        chunk = run_ids[part:part + 500]
        labels.update(r[0] for r in hist.query(
            "SELECT DISTINCT label FROM runs WHERE id IN (%s)"
            % ",".join("?" * len(chunk)), chunk))
    first = {}
    disk = []
    for label in sorted(labels):
        for rid, workload in hist.query(
                "SELECT id, workload FROM runs INDEXED BY "
                "runs_label_workload WHERE label = ?", (label,)):
            if rid not in wanted:
                continue
            if workload and json.loads(workload).get("disk_test"):
                disk.append(rid)
            elif workload not in first:
                first[workload] = rid
    # disk tests: their test file sizes by SQL (no document parsed here)
    for part in range(0, len(disk), 500):
        chunk = disk[part:part + 500]
        for rid, workload, sizes in hist.query(
                "SELECT id, workload, (SELECT group_concat(json_extract("
                "d.value, '$.file_size_bytes')) FROM json_each(result_json, "
                "'$.disk_test.directories') AS d) FROM runs WHERE id IN (%s)"
                % ",".join("?" * len(chunk)), chunk):
            first.setdefault((workload, sizes), rid)
    return sorted(first.values())


def workload_diffs(hist, sides):
    """Lines "NAME: VALUE (SIDE), VALUE (SIDE)" for the settings in which
    the runs differ (the loadfile counts by its content only)."""
    per_side = []
    for side in sides:
        seen = {}
        for rid in _one_per_workload(hist, side.run_ids):
            row = hist.query("SELECT result_json FROM runs WHERE id = ?",
                             (rid,))
            for name, value in _settings(json.loads(row[0][0])).items():
                seen.setdefault(name, [])
                if value not in seen[name]:
                    seen[name].append(value)
        per_side.append(seen)
    lines = []
    names = []
    for seen in per_side:
        names += [n for n in seen if n not in names]
    for name in names:
        values = set()
        for seen in per_side:
            values.update(seen.get(name, ["-"]))
        if len(values) <= 1:
            continue
        shown = [seen.get(name, ["-"]) for seen in per_side]
        parts = ["%s (%s)" % (", ".join(safe(v) for v in vals), tag)
                 for vals, tag in zip(shown, ("A", "B"))]
        lines.append("%s: %s" % (name, ", ".join(parts)))
    return lines


def split_servers(lines):
    """workload_diffs' lines as (server lines, the other lines): the
    backend and server say where the runs were measured."""
    where = [x for x in lines if x.split(":")[0] in SERVER_SETTINGS]
    return where, [x for x in lines if x not in where]


def print_diffs(lines, out):
    """What the sides differ in, once (on stdout): the servers compared
    (the transport or server differs: the point of comparing them), and
    a warning for any other difference of workload."""
    where, other = split_servers(lines)
    if where:
        print("Comparing servers: " + "; ".join(where), file=out)
    if other:
        print("Warning: these runs differ in workload%s; their figures do "
              "not measure the same thing:" % (" too" if where else ""),
              file=out)
        for line in other:
            print("  " + line, file=out)


def _pct(x):
    return "%.1f" % (abs(x) * 100.0)


def sentence(title, better, a, b, n_a, n_b):
    """The verdict on one metric (values a of A, b of B)."""
    ratio, lo, hi = stats.ratio_ci(a, b)
    counts = "%d vs %d runs" % (n_a, n_b)
    if ratio is None:
        return "%s: no ratio (a mean is zero)" % title
    change = ratio - 1.0
    if better:
        word = "faster" if change > 0 else "slower"
    else:
        word = "higher (worse)" if change > 0 else "lower (better)"
    test = stats.welch(a, b)
    if test is None:
        one = "A" if n_a < 2 else "B"
        return ("%s: B is %s%% %s than A; no interval or test: %s has one "
                "run (%s)" % (title, _pct(change), word, one, counts))
    p = test["p"]
    ptext = "p<0.001" if p < 0.001 else "p=%.3f" % p
    if lo is not None:
        if change >= 0:
            ci = "95%% CI %s-%s%%" % (_pct(lo - 1.0), _pct(hi - 1.0))
            if lo < 1.0:
                ci = "95%% CI %+.1f%% to %+.1f%%" % ((lo - 1) * 100,
                                                    (hi - 1) * 100)
        else:
            ci = "95%% CI %s-%s%%" % (_pct(1.0 - hi), _pct(1.0 - lo))
            if hi > 1.0:
                ci = "95%% CI %+.1f%% to %+.1f%%" % ((lo - 1) * 100,
                                                    (hi - 1) * 100)
    else:
        ci = "no interval"
    if p < 0.05:
        return "%s: B is %s%% %s than A (%s, %s, %s)" % (
            title, _pct(change), word, ci, ptext, counts)
    if lo is not None:
        ci = "95%% CI %+.1f%% to %+.1f%%" % ((lo - 1) * 100, (hi - 1) * 100)
    return ("%s: no significant difference (%s, %s; B/A %+.1f%%, %s)" % (
        title, ptext, counts, change * 100.0, ci))


def _values(m, use_samples):
    if not use_samples:
        return m["values"]
    out = []
    for s in m["samples"]:
        out += s or []
    return out


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
    print("A: %s (%d run%s)" % (safe(a.name), len(a.run_ids),
                               "" if len(a.run_ids) == 1 else "s"), file=out)
    print("B: %s (%d run%s)" % (safe(b.name), len(b.run_ids),
                               "" if len(b.run_ids) == 1 else "s"), file=out)
    print_diffs(workload_diffs(hist, [a, b]), out)
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
    for key in keys:
        title = metric_title(key, ma[key]["unit"])
        va, vb = _values(ma[key], use_samples), _values(mb[key], use_samples)
        mean_a, sd_a = stats.mean_sd(va)
        mean_b, sd_b = stats.mean_sd(vb)
        ratio = "%+.1f%%" % ((mean_b / mean_a - 1) * 100) if mean_a else "-"
        rows.append((title, fmt_num(mean_a), fmt_num(sd_a), fmt_num(mean_b),
                     fmt_num(sd_b), ratio))
        verdicts.append(sentence(title, ma[key]["better"], va, vb,
                                 len(va), len(vb)))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    print("", file=out)
    for r in rows:
        print("  ".join(c.ljust(widths[i]) if i == 0 else
                        c.rjust(widths[i]) for i, c in enumerate(r)).rstrip(),
              file=out)
    print("", file=out)
    for v in verdicts:
        print(v, file=out)
    if min(len(a.run_ids), len(b.run_ids)) < 4 and not use_samples:
        print("(Welch's t test with so few runs finds only large "
              "differences; --repeat 5 or more gives a sharper answer)",
              file=out)
    return 0
