"""What a run's workload is, as compare and compare --curve tell it:
the settings that define it (as dbench-compare has them), the lines
naming those in which two sides' runs differ, and which of those only
say where the runs were measured (the server or transport compared)."""

import json

from .common import safe

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


def _object(v):
    """v when a JSON object, else {} (a value stored by hand)."""
    return v if isinstance(v, dict) else {}


def _list(v):
    return v if isinstance(v, list) else []


def _settings(doc):
    """{setting name: value text} of a document."""
    opts = _object(doc.get("options"))
    out = {}
    if "disk_test" in doc:
        out["kind"] = "disk test"
        for key, name in DISK_SETTINGS:
            out[name] = _value_text(opts.get(key))
        dirs = _list(_object(doc.get("disk_test")).get("directories"))
        out["test file size"] = ",".join(
            _value_text(_object(d).get("file_size_bytes")) for d in dirs)
    else:
        out["kind"] = "load"
        for key, name in LOAD_SETTINGS:
            if key == "loadfiles":
                # the loadfile by its content: the same file installed
                # elsewhere is the same workload
                files = _list(doc.get("loadfiles"))
                out[name] = ",".join(
                    "crc32 %s" % _object(f).get("crc32") for f in files) or \
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
            if workload and _object(json.loads(workload)).get("disk_test"):
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
            doc = _object(json.loads(row[0][0]))
            for name, value in _settings(doc).items():
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
