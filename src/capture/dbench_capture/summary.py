"""--summary: the op mix, bytes, file-size and I/O-size distributions of a
trace, a capture or a loadfile.
"""

import collections
import re
import sys

from .common import OP_SHORT
from .model import Output
from .smb2_convert import cmd_pcap
from .strace_convert import StraceConverter, read_trace


# ---- --summary ----

LOADFILE_OPS = set(OP_SHORT) | {"DropCache", "LOOP", "ENDLOOP", "REPEAT",
                                "SLEEP", "SETSP", "WAITSP", "WRITEPATTERN",
                                "RANDOMSTRING"}
TIME_RE = re.compile(r"^\d+(?:\.\d+)?$")


def loadfile_words(line):
    """The fields of a loadfile line (quoted paths kept whole), without a
    leading time; None for comments and blank lines."""
    line = line.strip()
    if not line or line.startswith("#"):
        return None
    words = re.findall(r'"[^"]*"|\S+', line)
    if words and TIME_RE.match(words[0]) and len(words) > 1:
        words = words[1:]
    return words


def is_loadfile(path):
    with open(path, "rb") as f:
        for raw in f:
            words = loadfile_words(raw.decode("utf-8", "replace"))
            if words:
                return words[0] in LOADFILE_OPS
    return False


def bucket(n):
    """The power-of-two bucket label of a size."""
    if n <= 0:
        return "0"
    b = 1
    while b < n:
        b <<= 1
    for unit, div in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= div:
            return "<= %d %s" % (b // div, unit)
    return "<= %d B" % b


def intval(word):
    try:
        return int(word, 0)
    except ValueError:
        return None       # a random value (*...) or a bare +y


class Summary:
    def __init__(self):
        self.ops = collections.Counter()
        self.bytes = {"ReadX": 0, "WriteX": 0}
        self.io = {"ReadX": collections.Counter(),
                   "WriteX": collections.Counter()}
        self.extent = {}
        self.handle_path = {}

    def add(self, words, times=1):
        op = words[0]
        self.ops[op] += times
        if op == "NTCreateX" and len(words) >= 5:
            self.handle_path[words[4]] = words[1]
            self.extent.setdefault(words[1], 0)
        if op in ("ReadX", "WriteX") and len(words) >= 5:
            off, size, got = (intval(w) for w in words[2:5])
            if size is None or off is None:
                return
            n = got if op == "ReadX" and got is not None else size
            self.bytes[op] += n * times
            self.io[op][bucket(size)] += times
            path = self.handle_path.get(words[1])
            if path is not None:
                self.extent[path] = max(self.extent[path], off + n)

    def add_loadfile(self, path):
        mult = [1]
        repeat = 1
        with open(path, "rb") as f:
            for raw in f:
                words = loadfile_words(raw.decode("utf-8",
                                                  "surrogateescape"))
                if not words:
                    continue
                if words[0] == "LOOP":
                    mult.append(mult[-1] * max(intval(words[1]) or 0, 0))
                elif words[0] == "ENDLOOP":
                    if len(mult) > 1:
                        mult.pop()
                elif words[0] == "REPEAT":
                    repeat = max(intval(words[1]) or 0, 0)
                elif words[0] in OP_SHORT or words[0] == "DropCache":
                    self.add(words, mult[-1] * repeat)
                    repeat = 1

    def write(self, f, source):
        total = sum(self.ops.values())
        f.write("%s: %d ops\n\nop mix:\n" % (source, total))
        for op, n in self.ops.most_common():
            f.write("  %-24s %10d  %5.1f%%\n" % (op, n, 100.0 * n / total))
        f.write("\nbytes read:    %d\nbytes written: %d\n"
                % (self.bytes["ReadX"], self.bytes["WriteX"]))
        sizes = collections.Counter(bucket(v) for v in self.extent.values())
        self.histogram(f, "file sizes (largest offset read or written, "
                       "per file opened)", sizes)
        self.histogram(f, "read sizes", self.io["ReadX"])
        self.histogram(f, "write sizes", self.io["WriteX"])

    @staticmethod
    def histogram(f, title, counter):
        f.write("\n%s:\n" % title)
        if not counter:
            f.write("  (none)\n")

        def key(label):
            if label == "0":
                return 0
            n, unit = label.split()[1:3]
            return int(n) * {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20,
                             "GiB": 1 << 30}[unit]
        for label in sorted(counter, key=key):
            f.write("  %-12s %10d\n" % (label, counter[label]))


def cmd_summary(opts):
    summary = Summary()
    if opts.pcap:
        out, prep = cmd_pcap(opts, write=False)
    elif is_loadfile(opts.input):
        summary.add_loadfile(opts.input)
        summary.write(sys.stdout, opts.input)
        return
    else:
        if opts.root is None:
            opts.root = "/"
        calls, _ = read_trace(opts.input)
        out = Output()
        cv = StraceConverter(opts, out)
        cv.convert(calls)
        prep = []
    for _pid, _ts, text in out.lines():
        summary.add(loadfile_words(text))
    summary.write(sys.stdout, opts.input)
