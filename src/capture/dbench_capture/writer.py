"""Writing the loadfile: the lines that rebuild the tree first, the ops
(timed or not), and the report of what was kept and dropped on stderr.
"""

import collections
import sys

from .common import CLIENT_DIR, CaptureError, PREPARE_CAP, WRITE_CHUNK, warn
from .model import loadfile_path


# ---- writing loadfiles ----

def prepare_lines(ns, with_files):
    """The lines that rebuild, at the top of the loadfile, the client
    directory and (--prepare) what existed beneath --root before."""
    lines = ['Deltree "%s" NT_STATUS_OK' % CLIENT_DIR,
             'Mkdir "\\clients" NT_STATUS_OK',
             'Mkdir "%s" NT_STATUS_OK' % CLIENT_DIR]
    if not with_files:
        return lines
    for rel, node in ns.prepared():
        lp = loadfile_path(rel)
        if lp is None or node.phantom:
            continue
        if node.kind == "dir":
            lines.append("Mkdir %s NT_STATUS_OK" % lp)
            continue
        lines.append("NTCreateX %s 0x40 0x2 1 NT_STATUS_OK" % lp)
        lines.extend(file_writes(rel, node))
        lines.append("Close 1 NT_STATUS_OK")
    return lines


def merged_ranges(ranges, size):
    """The (start, end) byte ranges of ranges, sorted, merged, within
    size."""
    out = []
    for off, n in sorted(ranges):
        end = min(off + n, size)
        if off >= end:
            continue
        if out and off <= out[-1][1]:
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([off, end])
    return out


def file_writes(rel, node):
    """The WriteX lines that make a file that existed before the trace:
    the bytes the trace read of it (at most PREPARE_CAP of them), and its
    size (a byte at its end, the rest a hole: a sparse file of 16 TB read
    at one place costs one write, not 16 TB of them)."""
    lines, budget, last = [], PREPARE_CAP, 0
    for start, end in merged_ranges(node.touched, node.pre_size):
        capped = end - start > budget
        if capped:
            warn("%s: --prepare writes at most %d MiB of a file (the "
                 "bytes the trace read); the rest of its %d bytes is a "
                 "hole" % (rel, PREPARE_CAP >> 20, node.pre_size))
            end = start + budget
        budget -= end - start
        for off in range(start, end, WRITE_CHUNK):
            n = min(WRITE_CHUNK, end - off)
            lines.append("WriteX 1 %d %d %d NT_STATUS_OK" % (off, n, n))
        last = max(last, end)
        if capped:
            break
    if node.pre_size > last:
        lines.append("WriteX 1 %d 1 1 NT_STATUS_OK" % (node.pre_size - 1))
    return lines


def write_head(f, source, prep, timed):
    f.write("# dbench loadfile made by dbench-capture from %s\n" % source)
    f.write("# replay: dbench --run-once -c THIS_FILE 1 -D DIR\n")
    for text in prep:
        f.write(("0.000000 " if timed else "") + text + "\n")


def write_op(f, ts, text, t0, timed):
    if timed:
        f.write("%.6f " % max(ts - t0, 0.0))
    f.write(text + "\n")


def op_counts(lines):
    c = collections.Counter()
    for text in lines:
        c[text.split()[0]] += 1
    return c


def counts_text(counter):
    return " ".join("%s=%d" % kv for kv in sorted(counter.items())) or "-"


def report(source, out, prep, extra):
    warn("%s: %s; %d calls kept as %d ops; %d prepare ops"
         % (source, extra, out.calls, sum(out.ops.values()), len(prep)))
    warn("ops: " + counts_text(out.ops))
    if out.several:
        warn("ops beyond one per call: " + counts_text(out.several))
    warn("prepare: " + counts_text(op_counts(prep)))
    for reason, n in sorted(out.dropped.items(), key=lambda kv: -kv[1]):
        warn("dropped %d: %s" % (n, reason))


def open_out(path):
    if path is None or path == "-":
        return sys.stdout
    return open(path, "w", encoding="utf-8", errors="surrogateescape")


def emit_outputs(opts, source, prep, out, t0):
    """Write the merged loadfile, or one per process (--per-process)."""
    if opts.timed and t0 is None:
        raise CaptureError("--timed needs timestamps in the input "
                           "(strace -ttt or -tt)")
    if not opts.per_process:
        f = open_out(opts.output)
        write_head(f, source, prep, opts.timed)
        for _pid, ts, text in out.lines():
            write_op(f, ts, text, t0, opts.timed)
        if f is not sys.stdout:
            f.close()
        return
    if opts.output in (None, "-"):
        raise CaptureError("--per-process needs -o PREFIX")
    names = {pid: "%s-%d.txt" % (opts.output, i + 1)
             for i, pid in enumerate(out.pids)}
    for pid, name in names.items():
        with open_out(name) as f:
            write_head(f, "%s (process %d)" % (source, pid), prep,
                       opts.timed)
    # one pass over the ops, a few files open at a time
    files = collections.OrderedDict()
    for pid, ts, text in out.lines():
        f = files.pop(pid, None)
        if f is None:
            if len(files) >= 64:
                files.popitem(last=False)[1].close()
            f = open(names[pid], "a", encoding="utf-8",
                     errors="surrogateescape")
        files[pid] = f
        write_op(f, ts, text, t0, opts.timed)
    for f in files.values():
        f.close()
    names = list(names.values())
    warn("%d loadfiles, one per process: dbench -c %s %d"
         % (len(names), ",".join(names), len(names)))
