"""What the converters track while they read: open descriptions, processes,
the tree of files (Namespace) mapped to loadfile paths, the output and
its counters, and the handle numbers of the loadfile.
"""

import collections
import heapq
import tempfile

from .common import CLIENT_DIR, warn


# ---- the state of the traced processes ----

class Desc:
    """An open file description (shared by dup'ed and inherited fds)."""

    def __init__(self, path, rel, handle, is_dir, append):
        self.path, self.rel, self.handle = path, rel, handle
        self.is_dir, self.append = is_dir, append
        self.offset, self.refs, self.owner = 0, 0, None


class Proc:
    def __init__(self, pid, fds, cwd):
        self.pid, self.fds, self.cwd = pid, fds, cwd
        self.exited = False


class Node:
    """What the trace told us about one path beneath --root."""

    def __init__(self, kind, exists, pre=False, size=0):
        self.kind, self.exists, self.pre, self.size = kind, exists, pre, size
        self.pre_size = size    # the size before the trace changed it
        self.modified = not pre
        self.phantom = False    # exists in the trace, not in the replay
        self.touched = []       # (offset, length) read of what was there


class NodeMap(dict):
    """rel -> Node, with the paths indexed by their lower-case spelling."""

    def __init__(self):
        super().__init__()
        self.by_lower = {}

    def __setitem__(self, rel, node):
        if rel not in self:
            self.by_lower.setdefault(rel.lower(), []).append(rel)
        super().__setitem__(rel, node)


class Namespace:
    """The tree beneath --root as the trace shows it: tells which paths
    existed before the trace (for --prepare) and how big they were."""

    def __init__(self):
        self.nodes = NodeMap()
        self.pre = {}           # rel -> Node, for what existed before

    def _pre(self, rel, kind, size=0):
        node = self.nodes[rel] = Node(kind, True, pre=True, size=size)
        self.pre.setdefault(rel, node)
        return node

    def _ancestors(self, rel):
        parts = rel.split("/")
        for i in range(1, len(parts)):
            yield "/".join(parts[:i])

    def _pre_parents(self, rel):
        for a in self._ancestors(rel):
            if a not in self.nodes:
                self._pre(a, "dir")

    def existing(self, rel, kind=None, size=None, touched=None):
        """rel was found to exist; it existed before if not seen yet.
        touched: the (offset, length) of its bytes a call read, which
        --prepare writes when they are what was there before."""
        if rel == "":
            return None
        self._links_are_dirs(rel)
        node = self.nodes.get(rel)
        if node is None:
            self._pre_parents(rel)
            node = self._pre(rel, kind or "file")
        elif not node.exists:
            # made by something the trace does not show as a creation
            node = self.nodes[rel] = Node(kind or node.kind, True)
        if node.pre and not node.modified:
            if kind is not None:
                node.kind = kind
            if size is not None and kind != "dir":
                node.size = max(node.size, size)
                node.pre_size = node.size
            if touched is not None and touched[1] > 0:
                node.touched.append(touched)
        return node

    def _links_are_dirs(self, rel):
        """A symbolic link (a phantom) that calls go through to reach rel
        leads to a directory (maybe outside --root): the replay, which
        has no links, needs a directory there, made by --prepare."""
        for a in self._ancestors(rel):
            node = self.nodes.get(a)
            if node is not None and node.phantom and node.exists:
                node.phantom, node.kind = False, "dir"

    def absent(self, rel):
        if rel != "" and rel not in self.nodes:
            self.nodes[rel] = Node("file", False)

    def created(self, rel, kind):
        if rel == "":
            return None
        self._pre_parents(rel)
        node = self.nodes.get(rel)
        if node is not None and node.exists and node.kind == kind:
            if kind == "file":
                node.modified = True
            return node
        node = self.nodes[rel] = Node(kind, True)
        return node

    def removed(self, rel):
        for k in self._subtree(rel):
            n = self.nodes[k]
            self.nodes[k] = Node(n.kind, False)

    def _subtree(self, rel):
        node = self.nodes.get(rel)
        if node is not None and node.kind == "file":
            return [rel]
        pre = rel + "/"
        return [k for k in self.nodes if k == rel or k.startswith(pre)]

    def renamed(self, old, new, kind=None):
        self.existing(old, kind)
        self.removed(new)
        moved = {}
        for k in self._subtree(old):
            moved[new + k[len(old):]] = self.nodes[k]
            self.nodes[k] = Node(self.nodes[k].kind, False)
        self._pre_parents(new)
        for k, n in moved.items():
            if n.exists:
                n.modified = True
                self.nodes[k] = n

    def case_twin(self, rel):
        """Another existing name in rel's directory equal but for case."""
        return any(k != rel and self.nodes[k].exists
                   for k in self.nodes.by_lower.get(rel.lower(), ()))

    def prepared(self):
        items = list(self.pre.items())
        items.sort(key=lambda kn: (kn[0].count("/"), kn[0]))
        return items


def loadfile_path(rel):
    """The quoted loadfile path of a path relative to --root, or None if
    the loadfile cannot spell it."""
    if any(ch in rel for ch in '"\\\n\r'):
        return None
    if rel == "":
        return '"%s"' % CLIENT_DIR
    return '"%s\\%s"' % (CLIENT_DIR, rel.replace("/", "\\"))


class Output:
    """Loadfile lines per traced process, and the counts of what was kept
    and dropped.  The lines go to a temporary file as they come (a trace
    of millions of calls is not held in memory); lines() reads them
    back."""

    def __init__(self):
        self.spool = tempfile.TemporaryFile("w+", encoding="utf-8",
                                            errors="surrogateescape")
        self.pids = []            # the processes, in order of first op
        self.pid_index = {}       # pid -> its index in pids
        self.ops = collections.Counter()
        self.dropped = collections.Counter()
        self.several = collections.Counter()    # name -> ops beyond one
        self.calls = 0
        self.warned = set()

    def emit(self, call, op, fields, status):
        if call.pid not in self.pid_index:
            self.pid_index[call.pid] = len(self.pids)
            self.pids.append(call.pid)
        # a process by its index in pids (an SMB stream's is a string)
        self.spool.write("%d\t%s\t%s\n" % (
            self.pid_index[call.pid],
            "" if call.ts is None else repr(call.ts),
            " ".join([op] + [str(f) for f in fields] + [status])))
        self.ops[op] += 1

    def lines(self):
        """The (pid, ts, text) of every op, in order."""
        self.spool.flush()
        self.spool.seek(0)
        for line in self.spool:
            pid, ts, text = line.rstrip("\n").split("\t", 2)
            yield self.pids[int(pid)], (float(ts) if ts else None), text
        self.spool.seek(0, 2)

    def drop(self, reason):
        self.dropped[reason] += 1

    def count_call(self, name, nops):
        """A call or request made nops ops: kept if any; more than one
        (copy_file_range, chmod by name) is reported by name."""
        if nops > 0:
            self.calls += 1
        if nops > 1:
            self.several[name] += nops - 1

    def warn_once(self, key, msg):
        if key not in self.warned:
            self.warned.add(key)
            warn(msg)


class Handles:
    """Loadfile handle numbers: the lowest free one is given out."""

    def __init__(self):
        self.free, self.next = [], 1

    def peek(self):
        return self.free[0] if self.free else self.next

    def take(self):
        if self.free:
            return heapq.heappop(self.free)
        self.next += 1
        return self.next - 1

    def give_back(self, h):
        heapq.heappush(self.free, h)


class FdTable(dict):
    """fd -> [Desc, cloexec]; shared by threads (CLONE_FILES)."""
    users = 1
