"""Reading strace output: lines to calls (unfinished and resumed calls
joined, pids, times), and the argument parsers (quoted strings, fds,
flags, stat buffers, numbers).
"""

import re

from .common import CaptureError


# ---- strace text ----

class Call:
    """One finished syscall of a trace."""
    __slots__ = ("pid", "ts", "name", "args", "ret", "err", "annot",
                 "lineno", "tail")

    def __init__(self, pid, ts, name, lineno):
        self.pid, self.ts, self.name, self.lineno = pid, ts, name, lineno
        self.args, self.ret, self.err, self.annot = [], None, None, None
        self.tail = ""


def split_args(text, lineno):
    """Split 'a, b, {c, d}) = R' into (['a', 'b', '{c, d}'], ' = R')."""
    args, depth, i, start, n = [], 0, 0, 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c == "/" and text.startswith("/*", i):
            j = text.find("*/", i)
            i = n if j < 0 else j + 1
        elif c == "<" and i > 0 and (text[i - 1].isdigit()
                                     or text[i - 1] == "D"):
            # a -y annotation, 3</a/path>: it may hold anything but ">,"
            m = re.compile(r">(?=[,)\]} ]|$)").search(text, i + 1)
            i = n if m is None else m.start()
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                if c != ")":
                    break
                if text[start:i].strip():
                    args.append(text[start:i].strip())
                return args, text[i + 1:]
            depth -= 1
        elif c == "," and depth == 0:
            args.append(text[start:i].strip())
            start = i + 1
        i += 1
    raise CaptureError("line %d: the argument list does not end "
                       "(truncated trace?)" % lineno)


RET_RE = re.compile(r"\s*=\s*(-?\d+|0x[0-9a-fA-F]+|\?)(?:<(.*?)>)?"
                    r"(?:\s+(E[A-Z0-9_]+)\b)?")
LINE_RE = re.compile(r"^(?:\[pid\s+(\d+)\]\s*|(\d+)\s+)?"
                     r"(?:(\d+\.\d+|\d\d:\d\d:\d\d(?:\.\d+)?)\s+)?(.*)$")
CALL_RE = re.compile(r"^([a-z_][a-z0-9_]*)\((.*)$")
RESUMED_RE = re.compile(r"^<\.\.\. ([a-z_][a-z0-9_]*) resumed>\s?(.*)$")
UNFINISHED = " <unfinished ...>"


def parse_time(text):
    """Seconds from an -ttt, -tt or -t timestamp (or None)."""
    if text is None:
        return None
    if ":" in text:
        h, m, s = text.split(":")
        return int(h) * 3600 + int(m) * 60 + float(s)
    return float(text)


class StraceReader:
    """Yields Call objects from strace -o output, pairing unfinished and
    resumed halves.  Process lifetimes are reported through callbacks."""

    def __init__(self, path, on_exit):
        self.path, self.on_exit = path, on_exit
        self.pending = {}
        self.pids, self.exited = set(), set()
        self.cut = 0
        self.lines = 0
        self.seen_syscall = False

    def _finish(self, call, text):
        args, rest = split_args(text, call.lineno)
        m = RET_RE.match(rest)
        if m is None:
            raise CaptureError("line %d: no result after the arguments "
                               "(truncated trace?)" % call.lineno)
        call.args = args
        val, call.annot, call.err = m.group(1), m.group(2), m.group(3)
        call.tail = rest[m.end():]
        if val == "?":
            call.ret = None
        elif re.match(r"^0[0-7]+$", val):
            call.ret = int(val, 8)      # umask() and the like
        else:
            call.ret = int(val, 0)
        return call

    def calls(self):
        try:
            f = open(self.path, "rb")
        except OSError as e:
            raise CaptureError(e.strerror)
        with f:
            for raw in f:
                self.lines += 1
                line = raw.decode("utf-8", "surrogateescape")
                if not line.endswith("\n"):
                    raise CaptureError("line %d: the last line is cut off "
                                       "(truncated trace)" % self.lines)
                call = self._line(line.rstrip("\n"))
                if call is not None:
                    yield call
        if not self.seen_syscall:
            raise CaptureError("line 1: this is not an strace trace "
                               "(no system call found)")
        for pid, (call, _text) in self.pending.items():
            raise CaptureError("line %d: %s of process %s never finished "
                               "(truncated trace?)"
                               % (call.lineno, call.name, pid))
        running = sorted(self.pids - self.exited)
        if running:
            raise CaptureError("line %d: the trace ends before process %d "
                               "exited (truncated trace?)"
                               % (self.lines, running[0]))

    def _line(self, line):
        n = self.lines
        if not line.strip() or line.startswith("strace: "):
            return None
        m = LINE_RE.match(line.lstrip())
        pid = int(m.group(1) or m.group(2) or 0)
        ts, body = parse_time(m.group(3)), m.group(4)
        if body.startswith("+++ "):
            if "exited with" in body or "killed by" in body:
                self.exited.add(pid)
                if self.pending.pop(pid, None) is not None:
                    self.cut += 1     # the process ended inside the call
                self.on_exit(pid, n)
                return None
            raise CaptureError("line %d: cannot parse %r" % (n, body[:60]))
        if body.startswith("--- ") or body.startswith("<... ") and \
                "resuming interrupted" in body:
            return None
        rm = RESUMED_RE.match(body)
        if rm is not None:
            if pid not in self.pending:
                raise CaptureError("line %d: %s resumed but never started "
                                   "(truncated trace?)" % (n, rm.group(1)))
            call, text = self.pending.pop(pid)
            if call.name != rm.group(1):
                raise CaptureError("line %d: %s resumed while %s was "
                                   "pending" % (n, rm.group(1), call.name))
            return self._unfinished_or_done(call, text + rm.group(2), n)
        cm = CALL_RE.match(body)
        if cm is None:
            raise CaptureError("line %d: not an strace line: %r "
                               "(a trace from strace -f -ttt -y -o FILE?)"
                               % (n, body[:60]))
        self.seen_syscall = True
        self.pids.add(pid)
        call = Call(pid, ts, cm.group(1), n)
        return self._unfinished_or_done(call, cm.group(2), n)

    def _unfinished_or_done(self, call, text, n):
        if text.endswith(UNFINISHED):
            self.pending[call.pid] = (call, text[:-len(UNFINISHED)])
            return None
        if text.endswith("<unfinished ...>)") and "= ?" not in text:
            self.pending[call.pid] = (call, text)
            return None
        return self._finish(call, text)


def unquote(arg):
    """The bytes an strace string argument stands for, as a str."""
    if not arg.startswith('"'):
        return None
    out, i, n = bytearray(), 1, len(arg)
    esc = {"n": 10, "t": 9, "r": 13, "v": 11, "f": 12, "a": 7, "b": 8,
           "\\": 92, '"': 34}
    while i < n and arg[i] != '"':
        c = arg[i]
        if c != "\\":
            out += c.encode("utf-8", "surrogateescape")
            i += 1
            continue
        d = arg[i + 1]
        if d == "x":
            out.append(int(arg[i + 2:i + 4], 16))
            i += 4
        elif d.isdigit():
            j = i + 1
            while j < n and j < i + 4 and arg[j] in "01234567":
                j += 1
            out.append(int(arg[i + 1:j], 8) & 0xFF)
            i = j
        else:
            out.append(esc.get(d, ord(d)))
            i += 2
    return out.decode("utf-8", "surrogateescape")


FD_RE = re.compile(r"^(-?\d+|AT_FDCWD)(?:<(.*)>)?$")


def parse_fd(arg):
    """(fd number or 'cwd', -y path or None) of a descriptor argument."""
    m = FD_RE.match(arg.strip())
    if m is None:
        return None, None
    fd = "cwd" if m.group(1) == "AT_FDCWD" else int(m.group(1))
    return fd, m.group(2)


def flag_set(arg):
    return set(re.split(r"[|\s]+", arg.strip()))


def stat_info(text):
    """(kind, size) from a printed stat or statx structure."""
    kind = size = None
    m = re.search(r"(?:st_mode|stx_mode)=S_IF([A-Z]+)", text)
    if m:
        kind = {"DIR": "dir", "REG": "file"}.get(m.group(1), "other")
    m = re.search(r"(?:st_size|stx_size)=(\d+)", text)
    if m:
        size = int(m.group(1))
    return kind, size


def num(arg, default=0):
    try:
        return int(arg.strip("[]").split()[0], 0)
    except (ValueError, IndexError):
        return default
