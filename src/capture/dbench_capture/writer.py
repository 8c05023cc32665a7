"""Writing the loadfile: the lines that rebuild the tree first, the ops
(timed or not), and the report of what was kept and dropped on stderr.
"""

import collections
import sys

from .common import CLIENT_DIR, CaptureError, WRITE_CHUNK, warn
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
        for off in range(0, node.pre_size, WRITE_CHUNK):
            n = min(WRITE_CHUNK, node.pre_size - off)
            lines.append("WriteX 1 %d %d %d NT_STATUS_OK" % (off, n, n))
        lines.append("Close 1 NT_STATUS_OK")
    return lines


def write_loadfile(f, source, prep, lines, t0, timed):
    f.write("# dbench loadfile made by dbench-capture from %s\n" % source)
    f.write("# replay: dbench --run-once -c THIS_FILE 1 -D DIR\n")
    for text in prep:
        f.write(("0.000000 " if timed else "") + text + "\n")
    for _pid, ts, text in lines:
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
        write_loadfile(f, source, prep, out.lines, t0, opts.timed)
        if f is not sys.stdout:
            f.close()
        return
    if opts.output in (None, "-"):
        raise CaptureError("--per-process needs -o PREFIX")
    order = []
    for pid, _ts, _text in out.lines:
        if pid not in order:
            order.append(pid)
    names = []
    for i, pid in enumerate(order):
        name = "%s-%d.txt" % (opts.output, i + 1)
        with open_out(name) as f:
            write_loadfile(f, "%s (process %d)" % (source, pid), prep,
                           [x for x in out.lines if x[0] == pid], t0,
                           opts.timed)
        names.append(name)
    warn("%d loadfiles, one per process: dbench -c %s %d"
         % (len(names), ",".join(names), len(names)))
