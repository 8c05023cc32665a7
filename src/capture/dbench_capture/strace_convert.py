"""An strace trace to loadfile ops: the converter that walks the calls and
hands each to its handler (strace_handlers.py).
"""

import collections
import os
import stat

from .common import (CHANGES_TREE, CaptureError, IGNORED_SYSCALLS,
                     NO_OP_SYSCALLS, UNREPLAYABLE_ERRNO)
from .model import (Desc, FdTable, Handles, Namespace, Output, Proc,
                    loadfile_path)
from .strace_handlers import HANDLERS
from .strace_reader import Call, StraceReader, parse_fd, unquote
from .writer import emit_outputs, prepare_lines, report


class StraceConverter:
    """Turns the calls of an strace trace into loadfile ops."""

    def __init__(self, opts, out):
        self.opts, self.out = opts, out
        root = os.path.abspath(opts.root)
        self.roots = sorted({root, os.path.realpath(root)}, key=len,
                            reverse=True)
        self.ns = Namespace()
        self.procs, self.parents = {}, {}
        self.handles = Handles()
        self.leaked = 0
        self.first_ts = None
        self.current = None
        self.listed = set()     # directories listed that existed before
        self.listed_only = set()    # entries known only from a listing

    # -- paths --
    def rel(self, path):
        if path is None:
            return None
        if path.endswith(" (deleted)"):
            path = path[:-10]
        for r in self.roots:
            if path == r:
                return ""
            if path.startswith(r + "/"):
                return path[len(r) + 1:]
        return None

    def base(self, proc, dirarg):
        """The directory a relative path of this call starts from."""
        if dirarg is None:
            return proc.cwd
        fd, annot = parse_fd(dirarg)
        if fd == "cwd":
            if annot:
                proc.cwd = annot
            return proc.cwd
        if annot:
            return annot
        ent = proc.fds.get(fd)
        return ent[0].path if ent else None

    def resolve(self, proc, dirarg, patharg):
        path = unquote(patharg)
        if path is None:
            return None
        if not path.startswith("/"):
            base = self.base(proc, dirarg)
            if base is None:
                return None
            path = os.path.join(base, path)
        return os.path.normpath(path)

    # -- processes --
    def proc(self, pid):
        p = self.procs.get(pid)
        if p is None:
            parent = self.parents.get(pid)
            if parent is not None and parent[0] in self.procs:
                p = self.fork(self.procs[parent[0]], pid, parent[1])
            else:
                p = self.procs[pid] = Proc(pid, FdTable(), self.opts.cwd)
        return p

    def fork(self, parent, pid, share):
        if share:
            fds = parent.fds
            fds.users += 1
        else:
            fds = FdTable()
            for fd, (desc, cloexec) in parent.fds.items():
                desc.refs += 1
                fds[fd] = [desc, cloexec]
        p = self.procs[pid] = Proc(pid, fds, parent.cwd)
        return p

    def release(self, desc):
        """An fd of desc went away without a Close the replay sees."""
        desc.refs -= 1
        if desc.refs == 0 and desc.handle is not None:
            self.leaked += 1

    def exit(self, pid):
        p = self.procs.get(pid)
        if p is None or p.exited:
            return
        p.exited = True
        p.fds.users -= 1
        if p.fds.users == 0:
            for desc, _ in p.fds.values():
                self.release(desc)
            p.fds.clear()

    # -- descriptors --
    def desc(self, c, proc, fdarg):
        """The tracked description an fd argument names, or None (the call
        is then dropped and counted)."""
        fd, annot = parse_fd(fdarg)
        ent = proc.fds.get(fd)
        if ent is None:
            if self.rel(annot) is not None:
                self.out.drop("descriptor opened before the trace")
            else:
                self.out.drop("outside --root")
            return None
        desc = ent[0]
        if desc.handle is None:
            self.out.drop(desc.why)
            return None
        if self.opts.per_process and desc.owner != proc.pid:
            self.out.drop("descriptor of another process (--per-process)")
            return None
        return desc

    def new_desc(self, path, rel, why, is_dir=False, append=False):
        desc = Desc(path, rel, None, is_dir, append)
        desc.why = why
        return desc

    def install(self, proc, fd, desc, cloexec):
        old = proc.fds.get(fd)
        if old is not None:
            self.release(old[0])
        desc.refs += 1
        proc.fds[fd] = [desc, cloexec]

    def renamed_descs(self, old, new):
        seen = set()
        for p in self.procs.values():
            for desc, _ in p.fds.values():
                if id(desc) in seen or desc.rel is None:
                    continue
                seen.add(id(desc))
                if desc.rel == old or desc.rel.startswith(old + "/"):
                    desc.rel = new + desc.rel[len(old):]

    # -- common checks --
    def usable(self, c):
        """False (and counted) for a call whose outcome the replay cannot
        reproduce."""
        if c.ret is None:
            self.out.drop("no result (the process ended in the call)")
            return False
        if c.err in UNREPLAYABLE_ERRNO:
            self.out.drop("failed with %s (not reproducible)" % c.err)
            return False
        return True

    def path_of(self, c, proc, dirarg, patharg):
        """(rel, loadfile path) of a path argument, or None if dropped."""
        path = self.resolve(proc, dirarg, patharg)
        rel = self.rel(path)
        if rel is None:
            self.out.drop("outside --root")
            return None
        if not self.usable(c):
            return None
        node = self.ns.nodes.get(rel)
        if node is not None and node.phantom and node.exists:
            self.out.drop("on a name the replay does not have "
                          "(symlink or hard link)")
            return None
        lp = loadfile_path(rel)
        if lp is None:
            self.out.drop("a name the loadfile cannot spell")
            return None
        return rel, lp

    def convert(self, calls):
        """calls() gives the trace's calls afresh: a first reading learns
        who forked whom (a child's calls may come before its parent's
        clone returns), the second converts."""
        self.parents = {}
        for c in calls():
            if c.name in ("clone", "clone3", "fork", "vfork") and \
                    c.ret is not None and c.ret > 0:
                flags = " ".join(c.args)
                self.parents[c.ret] = (c.pid, "CLONE_FILES" in flags)
        for c in calls():
            if c.name == "+++exit":
                self.exit(c.pid)
                continue
            if self.first_ts is None:
                self.first_ts = c.ts
            proc = self.proc(c.pid)
            self.current = c
            self.dispatch(c, proc)
        self.unseen_entries()

    def unseen_entries(self):
        """Entries of listed directories that no call of the trace named
        (and so no call changed): they are on disk as they were before the
        trace, and --prepare must create them for the listing counts."""
        for rel in sorted(self.listed):
            path = os.path.join(self.roots[0], rel)
            try:
                names = os.listdir(path)
            except OSError:
                continue
            for name in names:
                child = rel + "/" + name if rel else name
                node = self.ns.nodes.get(child)
                if node is not None and (child not in self.listed_only or
                                         node.modified or node.size):
                    continue
                try:
                    st = os.lstat(os.path.join(path, name))
                except OSError:
                    continue
                isdir = stat.S_ISDIR(st.st_mode)
                self.ns.existing(child, "dir" if isdir else "file",
                                 0 if isdir or not stat.S_ISREG(st.st_mode)
                                 else st.st_size)

    def dispatch(self, c, proc):
        handler = HANDLERS.get(c.name)
        before = sum(self.out.ops.values())
        if handler is not None:
            handler(self, c, proc)
        elif c.name in IGNORED_SYSCALLS:
            self.out.drop("not a file call")
        elif c.name in NO_OP_SYSCALLS:
            self.no_op(c, proc)
        elif self.opts.ignore_unknown:
            self.out.warn_once(c.name, "line %d: unknown system call %s "
                               "(dropped: --ignore-unknown)"
                               % (c.lineno, c.name))
            self.out.drop("unknown system call")
        else:
            raise CaptureError("line %d: unknown system call %s (use "
                               "--ignore-unknown to drop such calls)"
                               % (c.lineno, c.name))
        self.out.count_call(c.name, sum(self.out.ops.values()) - before)

    def no_op(self, c, proc):
        """A file call without a loadfile op: dropped; warned about when
        it changes beneath --root what the replay rebuilds."""
        paths = [a for a in c.args if a.startswith('"')]
        fdp = parse_fd(c.args[0])[1] if c.args else None
        rel = self.rel(self.resolve(proc, None, paths[0])) if paths else \
            self.rel(fdp)
        if rel is None:
            self.out.drop("outside --root")
            return
        if c.name in CHANGES_TREE and c.err is None:
            self.out.warn_once(c.name, "line %d: %s changes %s, which the "
                               "replay cannot do" % (c.lineno, c.name, rel))
        self.out.drop("%s (no loadfile op)" % c.name)


def read_trace(path):
    """A function giving the calls of the trace as they are read, each
    process's exit in its place (nothing is kept: a trace is read twice
    rather than held in memory), and a dict whose "reader" is the
    StraceReader of the last reading (its counts)."""
    state = {}

    def calls():
        exits = collections.deque()
        reader = state["reader"] = StraceReader(
            path, lambda pid, lineno: exits.append(
                Call(pid, None, "+++exit", lineno)))
        for c in reader.calls():
            while exits:
                yield exits.popleft()
            yield c
        while exits:
            yield exits.popleft()
    return calls, state


def cmd_strace(opts):
    if opts.root is None:
        raise CaptureError("--root DIR is needed: the directory whose "
                           "files the loadfile works on")
    if not os.path.isdir(opts.root):
        raise CaptureError("--root %s: not a directory" % opts.root)
    calls, state = read_trace(opts.input)
    out = Output()
    cv = StraceConverter(opts, out)
    try:
        cv.convert(calls)
    except (IndexError, ValueError, KeyError, TypeError) as e:
        raise CaptureError("line %d: cannot read the arguments of %s (%s)"
                           % (cv.current.lineno, cv.current.name, e))
    reader = state["reader"]
    if reader.cut:
        out.dropped["no result (the process ended in the call)"] = reader.cut
    prep = prepare_lines(cv.ns, opts.prepare)
    emit_outputs(opts, opts.input, prep, out, cv.first_ts)
    extra = "%d lines, %d processes" % (reader.lines, len(cv.procs))
    if cv.leaked:
        extra += ", %d handles left open by exiting processes" % cv.leaked
    report(opts.input, out, prep, extra)
    return out, prep
