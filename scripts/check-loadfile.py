#!/usr/bin/env python3
"""check-loadfile.py - replay a dbench loadfile and check every result.

An independent check of a loadfile against the fileio semantics described
in doc COMPAT.md: every operation is carried out with plain system calls
in a real directory, and its outcome is compared with what the loadfile
expects: the NT status, the count of FIND_FIRST and the "returned" bytes of
ReadX and WriteX.  It does not share code with the C implementation, so it
can catch errors in a loadfile and in the replay alike.

    scripts/check-loadfile.py loadfiles/client.txt
    scripts/check-loadfile.py -D /dev/shm/x --clients 0,1,2 --passes 2 FILE

Mismatches are printed with the loadfile's name and line; the exit status
is 1 if there was any, 2 on a usage or parse error.  Only the plain
operations are supported (no LOOP, RANDOMSTRING, random values etc.).
Python 3 standard library only.
"""

import argparse
import errno
import fcntl
import os
import re
import shutil
import sys
import tempfile
from collections import Counter

STATUS = {
    "NT_STATUS_OK": 0x00000000,
    "NT_STATUS_UNSUCCESSFUL": 0xC0000001,
    "NT_STATUS_INVALID_HANDLE": 0xC0000008,
    "NT_STATUS_INVALID_PARAMETER": 0xC000000D,
    "NT_STATUS_NO_SUCH_FILE": 0xC000000F,
    "NT_STATUS_END_OF_FILE": 0xC0000011,
    "NT_STATUS_ACCESS_DENIED": 0xC0000022,
    "NT_STATUS_OBJECT_NAME_INVALID": 0xC0000033,
    "NT_STATUS_OBJECT_NAME_NOT_FOUND": 0xC0000034,
    "NT_STATUS_OBJECT_NAME_COLLISION": 0xC0000035,
    "NT_STATUS_OBJECT_PATH_NOT_FOUND": 0xC000003A,
    "NT_STATUS_SHARING_VIOLATION": 0xC0000043,
    "NT_STATUS_LOCK_NOT_GRANTED": 0xC0000055,
    "NT_STATUS_RANGE_NOT_LOCKED": 0xC000007E,
    "NT_STATUS_DISK_FULL": 0xC000007F,
    "NT_STATUS_FILE_IS_A_DIRECTORY": 0xC00000BA,
    "NT_STATUS_NOT_SUPPORTED": 0xC00000BB,
    "NT_STATUS_DIRECTORY_NOT_EMPTY": 0xC0000101,
    "NT_STATUS_NOT_A_DIRECTORY": 0xC0000103,
    "NT_STATUS_TOO_MANY_OPENED_FILES": 0xC000011F,
}
NAMES = {v: k for k, v in STATUS.items()}
OK = 0
NOT_FOUND_FAMILY = {STATUS["NT_STATUS_NO_SUCH_FILE"],
                    STATUS["NT_STATUS_OBJECT_NAME_NOT_FOUND"],
                    STATUS["NT_STATUS_OBJECT_PATH_NOT_FOUND"]}

ERRNO_STATUS = {
    errno.ENOENT: "NT_STATUS_OBJECT_NAME_NOT_FOUND",
    errno.ENOTDIR: "NT_STATUS_OBJECT_PATH_NOT_FOUND",
    errno.EEXIST: "NT_STATUS_OBJECT_NAME_COLLISION",
    errno.EISDIR: "NT_STATUS_FILE_IS_A_DIRECTORY",
    errno.ENOTEMPTY: "NT_STATUS_DIRECTORY_NOT_EMPTY",
    errno.EACCES: "NT_STATUS_ACCESS_DENIED",
    errno.EPERM: "NT_STATUS_ACCESS_DENIED",
    errno.EAGAIN: "NT_STATUS_LOCK_NOT_GRANTED",
    errno.ENOSPC: "NT_STATUS_DISK_FULL",
    errno.EMFILE: "NT_STATUS_TOO_MANY_OPENED_FILES",
    errno.EBADF: "NT_STATUS_INVALID_HANDLE",
    errno.EINVAL: "NT_STATUS_INVALID_PARAMETER",
}

WILDCARDS = set('*?<>"')
TOKEN = re.compile(r'"[^"]*"|\S+')
TIME = re.compile(r"^[0-9]+\.[0-9]+$")

# argument layout: number of quoted paths, then numeric fields (incl. handle)
LAYOUT = {
    "NTCreateX": (1, 3), "Close": (0, 1), "Rename": (2, 0),
    "Unlink": (1, None), "Deltree": (1, 0), "Rmdir": (1, 0),
    "Mkdir": (1, 0), "QUERY_PATH_INFORMATION": (1, 1),
    "QUERY_FILE_INFORMATION": (0, 2), "QUERY_FS_INFORMATION": (0, 1),
    "SET_FILE_INFORMATION": (0, 2), "FIND_FIRST": (1, 3),
    "WriteX": (0, 4), "ReadX": (0, 4), "LockX": (0, 3),
    "UnlockX": (0, 3), "Flush": (0, 1),
}


class ParseError(Exception):
    pass


class Mismatch(Exception):
    """An operation whose outcome differs from the expectation."""


def status_name(code):
    return NAMES.get(code, "0x%08X" % code)


def parse_status(tok):
    """Return ('any'|'ok'|'fail'|'exact', code)."""
    if tok == "*":
        return ("any", None)
    if tok.upper() in ("SUCCESS",):
        return ("ok", OK)
    if tok.upper() == "ERROR":
        return ("fail", None)
    if tok.upper().startswith("NT_STATUS_"):
        if tok.upper() not in STATUS:
            raise ParseError("unknown status %s" % tok)
        code = STATUS[tok.upper()]
    else:
        try:
            code = int(tok, 16) if tok.lower().startswith("0x") else None
        except ValueError:
            code = None
        if code is None:
            raise ParseError("bad status %r" % tok)
    return ("ok", OK) if code == OK else ("exact", code)


def parse_number(tok):
    try:
        return int(tok, 0) if tok.lower().startswith("0x") else int(tok)
    except ValueError:
        raise ParseError("bad number %r (only constants are supported)"
                         % tok)


def parse(filename):
    """Return a list of (line number, op, paths, numbers, status)."""
    ops = []
    with open(filename, "r", newline="") as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\r\n")
            toks = TOKEN.findall(line)
            if not toks or toks[0].startswith("#"):
                continue
            if TIME.match(toks[0]):
                toks = toks[1:]
            if not toks:
                continue
            op = toks[0]
            if op not in LAYOUT:
                raise ParseError("%s:%d: unsupported command %s" %
                                 (filename, lineno, op))
            npaths, nnums = LAYOUT[op]
            args = toks[1:-1]
            try:
                paths = [a[1:-1] for a in args[:npaths]]
                if len(paths) != npaths or \
                        any(not a.startswith('"') for a in args[:npaths]):
                    raise ParseError("expected %d quoted path(s)" % npaths)
                nums = [parse_number(a) for a in args[npaths:]]
                if nnums is not None and len(nums) != nnums:
                    raise ParseError("expected %d numbers, found %d" %
                                     (nnums, len(nums)))
                status = parse_status(toks[-1])
            except ParseError as err:
                raise ParseError("%s:%d: %s: %s" %
                                 (filename, lineno, op, err))
            ops.append((lineno, op, paths, nums, status))
    return ops


_MATCHED = {}


def dos_match(pattern, name):
    """Case-insensitive SMB wildcard match: * ? and the DOS forms < > "."""
    key = (pattern, name)
    r = _MATCHED.get(key)
    if r is None:
        if len(_MATCHED) > 100000:
            _MATCHED.clear()
        r = _MATCHED[key] = _dos_match(pattern, name)
    return r


def _dos_match(pattern, name):
    p, n = pattern.upper(), name.upper()
    memo = {}

    def m(i, j):
        key = (i, j)
        if key in memo:
            return memo[key]
        if i == len(p):
            r = j == len(n)
        else:
            c = p[i]
            if c == "*":
                r = any(m(i + 1, k) for k in range(j, len(n) + 1))
            elif c == "<":
                # any run of characters up to and including the last dot
                last = n.rfind(".")
                r = any(m(i + 1, k) for k in range(j, len(n) + 1)
                        if last < 0 or k <= last or "." not in n[j:k])
            elif c == "?":
                r = j < len(n) and m(i + 1, j + 1)
            elif c == ">":
                r = (j < len(n) and n[j] != "." and m(i + 1, j + 1)) or \
                    ((j == len(n) or n[j] == ".") and m(i + 1, j))
            elif c == '"':
                r = (j < len(n) and n[j] == "." and m(i + 1, j + 1)) or \
                    (j == len(n) and m(i + 1, j))
            else:
                r = j < len(n) and n[j] == c and m(i + 1, j + 1)
        memo[key] = r
        return r

    return m(0, 0)


class Replay:
    """Replays parsed ops for one client in one base directory."""

    def __init__(self, base, filename, family, max_report, out):
        self.base = base
        self.filename = filename
        self.family = family
        self.max_report = max_report
        self.out = out
        self.mismatches = Counter()
        self.reported = 0
        self.ops = Counter()
        self.renamed_over = 0
        self.buf = b"\x01" * 65536

    # -- paths -------------------------------------------------------------
    def map_path(self, client, path):
        """Loadfile path -> (path relative to base, is inside client dir)."""
        comps = [c for c in path.replace("\\", "/").split("/") if c]
        inside = False
        for i in range(1, len(comps)):
            if comps[i] == "client1" and comps[i - 1] == "clients":
                comps[i] = "client%d" % client
                inside = True
                break
        return comps, inside

    def resolve(self, comps):
        """Case-insensitive lookup, as a server does.  Returns
        (full path, True if found, True if the parent exists)."""
        full = os.path.join(self.base, *comps)
        if os.path.lexists(full):
            return full, True, True
        cur = self.base
        for i, c in enumerate(comps):
            cand = os.path.join(cur, c)
            if not os.path.lexists(cand):
                match = None
                try:
                    with os.scandir(cur) as it:
                        for ent in it:
                            if ent.name.upper() == c.upper():
                                match = ent.name
                                break
                except (FileNotFoundError, NotADirectoryError):
                    pass
                if match is None:
                    rest = os.path.join(cur, *comps[i:])
                    parent_ok = i == len(comps) - 1 and os.path.isdir(cur)
                    return rest, False, parent_ok
                cand = os.path.join(cur, match)
            cur = cand
        return cur, True, True

    def path_of(self, client, path):
        comps, inside = self.map_path(client, path)
        full, found, parent_ok = self.resolve(comps)
        return full, found, parent_ok, inside

    @staticmethod
    def missing(parent_ok):
        return STATUS["NT_STATUS_OBJECT_NAME_NOT_FOUND" if parent_ok
                      else "NT_STATUS_OBJECT_PATH_NOT_FOUND"]

    @staticmethod
    def from_errno(err):
        return STATUS[ERRNO_STATUS.get(err.errno, "NT_STATUS_UNSUCCESSFUL")]

    def fd_of(self, handles, h):
        if h not in handles:
            raise Mismatch("handle %d is not open" % h)
        return handles[h]

    # -- one pass --------------------------------------------------------
    def run(self, ops, client, tag):
        handles = {}
        for lineno, op, paths, nums, expect in ops:
            self.ops[op] += 1
            try:
                status, extra = self.execute(client, handles, op, paths,
                                             nums)
                self.compare(expect, status, op, nums, extra)
            except Mismatch as err:
                self.report(lineno, op, tag, str(err))
        for fd in handles.values():
            os.close(fd)
        return len(handles)

    def report(self, lineno, op, tag, text):
        self.mismatches[op] += 1
        if self.reported < self.max_report:
            self.out.write("%s:%d: %s: %s: %s\n" %
                           (self.filename, lineno, tag, op, text))
        self.reported += 1

    def compare(self, expect, status, op, nums, extra):
        kind, code = expect
        if kind == "any":
            good = True
        elif kind == "ok":
            good = status == OK
        elif kind == "fail":
            good = status != OK
        else:
            good = status == code or (self.family and
                                      status in NOT_FOUND_FAMILY and
                                      code in NOT_FOUND_FAMILY)
        if not good:
            want = {"ok": "success", "fail": "a failure"}.get(
                kind, status_name(code) if code is not None else "")
            raise Mismatch("expected %s, got %s%s" %
                           (want, status_name(status),
                            " (%s)" % extra if extra else ""))
        if status == OK and op in ("ReadX", "WriteX") and \
                extra != nums[3]:
            raise Mismatch("expected %d bytes, got %d" % (nums[3], extra))
        if op == "FIND_FIRST" and kind != "any" and extra != nums[2]:
            raise Mismatch("expected count %d, got %d" % (nums[2], extra))

    def execute(self, client, handles, op, paths, nums):
        """Carry out one op; return (status, extra value)."""
        if op == "NTCreateX":
            return self.ntcreatex(client, handles, paths[0], *nums)
        if op == "Close":
            fd = self.fd_of(handles, nums[0])
            del handles[nums[0]]
            os.close(fd)
            return OK, None
        if op in ("QUERY_FILE_INFORMATION", "SET_FILE_INFORMATION",
                  "Flush"):
            fd = self.fd_of(handles, nums[0])
            try:
                if op == "QUERY_FILE_INFORMATION":
                    os.fstat(fd)
                elif op == "SET_FILE_INFORMATION":
                    os.utime(fd)
                else:
                    os.fsync(fd)
            except OSError as err:
                return self.from_errno(err), str(err)
            return OK, None
        if op == "ReadX":
            fd = self.fd_of(handles, nums[0])
            try:
                got = len(os.pread(fd, nums[2], nums[1]))
            except OSError as err:
                return self.from_errno(err), str(err)
            return OK, got
        if op == "WriteX":
            fd = self.fd_of(handles, nums[0])
            size = nums[2]
            if size > len(self.buf):
                self.buf = b"\x01" * size
            try:
                got = os.pwrite(fd, memoryview(self.buf)[:size], nums[1])
            except OSError as err:
                return self.from_errno(err), str(err)
            return OK, got
        if op in ("LockX", "UnlockX"):
            fd = self.fd_of(handles, nums[0])
            cmd = fcntl.LOCK_EX | fcntl.LOCK_NB if op == "LockX" \
                else fcntl.LOCK_UN
            try:
                fcntl.lockf(fd, cmd, nums[2], nums[1], os.SEEK_SET)
            except OSError as err:
                return self.from_errno(err), str(err)
            return OK, None
        if op == "QUERY_FS_INFORMATION":
            os.statvfs(self.base)
            return OK, None
        if op == "QUERY_PATH_INFORMATION":
            full, found, parent_ok, _ = self.path_of(client, paths[0])
            if not found:
                return self.missing(parent_ok), None
            try:
                os.stat(full)
            except OSError as err:
                return self.from_errno(err), str(err)
            return OK, None
        if op == "FIND_FIRST":
            return self.find_first(client, paths[0], nums[1])
        if op == "Unlink":
            full, found, parent_ok, _ = self.path_of(client, paths[0])
            if not found:
                return self.missing(parent_ok), None
            try:
                os.unlink(full)
            except OSError as err:
                return self.from_errno(err), str(err)
            return OK, None
        if op == "Rename":
            old, found, parent_ok, _ = self.path_of(client, paths[0])
            if not found:
                return self.missing(parent_ok), None
            new, nfound, nparent_ok, _ = self.path_of(client, paths[1])
            if not nfound and not nparent_ok:
                return self.missing(False), None
            if nfound:
                self.renamed_over += 1
            try:
                os.rename(old, new)
            except OSError as err:
                return self.from_errno(err), str(err)
            return OK, None
        if op == "Mkdir":
            full, found, parent_ok, inside = self.path_of(client, paths[0])
            if found:
                if not inside and os.path.isdir(full):
                    return OK, None     # a shared directory above clients
                return STATUS["NT_STATUS_OBJECT_NAME_COLLISION"], None
            if not parent_ok:
                return self.missing(False), None
            os.mkdir(full)
            return OK, None
        if op == "Rmdir":
            full, found, parent_ok, _ = self.path_of(client, paths[0])
            if not found:
                return self.missing(parent_ok), None
            try:
                os.rmdir(full)
            except OSError as err:
                return self.from_errno(err), str(err)
            return OK, None
        if op == "Deltree":
            full, found, _, _ = self.path_of(client, paths[0])
            if found:
                if os.path.isdir(full) and not os.path.islink(full):
                    shutil.rmtree(full)
                else:
                    os.unlink(full)
            return OK, None
        raise Mismatch("unsupported op")

    def ntcreatex(self, client, handles, path, options, disposition, h):
        full, found, parent_ok, _ = self.path_of(client, path)
        if disposition > 5:
            return STATUS["NT_STATUS_INVALID_PARAMETER"], None
        creates = disposition in (0, 2, 3, 5)
        if not found:
            if not parent_ok:
                return self.missing(False), None
            if not creates:
                return self.missing(True), None
        elif disposition == 2:
            return STATUS["NT_STATUS_OBJECT_NAME_COLLISION"], None
        is_dir = found and os.path.isdir(full)
        try:
            if options & 0x1:
                if found and not is_dir:
                    return STATUS["NT_STATUS_NOT_A_DIRECTORY"], None
                if not found:
                    os.mkdir(full, 0o755)
                fd = os.open(full, os.O_RDONLY | os.O_DIRECTORY)
            elif is_dir:
                if options & 0x40:
                    return STATUS["NT_STATUS_FILE_IS_A_DIRECTORY"], None
                fd = os.open(full, os.O_RDONLY | os.O_DIRECTORY)
            else:
                flags = os.O_RDWR
                if not found:
                    flags |= os.O_CREAT | os.O_EXCL
                elif disposition in (0, 4, 5):
                    flags |= os.O_TRUNC
                fd = os.open(full, flags, 0o644)
        except OSError as err:
            return self.from_errno(err), str(err)
        if h in handles:
            # a failed open may name a busy handle; a successful one not
            os.close(fd)
            raise Mismatch("handle %d is already open" % h)
        handles[h] = fd
        return OK, None

    def find_first(self, client, pattern, maxcount):
        comps, _ = self.map_path(client, pattern)
        if not comps:
            return STATUS["NT_STATUS_OBJECT_NAME_INVALID"], 0
        mask = comps[-1]
        if len(comps) > 1:
            d, found, _ = self.resolve(comps[:-1])
        else:
            d, found = self.base, True
        if not found or not os.path.isdir(d):
            return STATUS["NT_STATUS_OBJECT_PATH_NOT_FOUND"], 0
        names = [".", ".."] + os.listdir(d)
        if WILDCARDS & set(mask):
            count = sum(1 for n in names if dos_match(mask, n))
        else:
            count = sum(1 for n in names if n.upper() == mask.upper())
        count = min(count, maxcount)
        return (OK if count else STATUS["NT_STATUS_NO_SUCH_FILE"]), count


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("loadfile")
    ap.add_argument("-D", "--directory",
                    help="replay here (default: a new directory under "
                    "/dev/shm, removed afterwards)")
    ap.add_argument("--clients", default="0",
                    help="comma-separated client numbers, replayed one "
                    "after the other (default 0)")
    ap.add_argument("--passes", type=int, default=1,
                    help="passes over all clients (default 1)")
    ap.add_argument("--family", action="store_true",
                    help="accept NAME_NOT_FOUND, PATH_NOT_FOUND and "
                    "NO_SUCH_FILE for one another, as errno cannot tell "
                    "them apart")
    ap.add_argument("--max-report", type=int, default=50,
                    help="mismatches printed in full (default 50)")
    args = ap.parse_args()

    try:
        clients = [int(c) for c in args.clients.split(",")]
    except ValueError:
        ap.error("--clients: a comma-separated list of numbers")
    try:
        ops = parse(args.loadfile)
    except (ParseError, OSError) as err:
        print("check-loadfile: %s" % err, file=sys.stderr)
        return 2

    tmp = None
    base = args.directory
    if base is None:
        root = "/dev/shm" if os.path.isdir("/dev/shm") else None
        tmp = base = tempfile.mkdtemp(prefix="check-loadfile.", dir=root)
    try:
        r = Replay(base, args.loadfile, args.family, args.max_report,
                   sys.stdout)
        leftover = 0
        for p in range(1, args.passes + 1):
            for c in clients:
                leftover += r.run(ops, c, "client %d pass %d" % (c, p))
        left = sorted(os.listdir(os.path.join(base, "clients"))) \
            if os.path.isdir(os.path.join(base, "clients")) else []
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)

    total = sum(r.mismatches.values())
    print("%s: %d ops per pass, clients %s, %d pass(es): %d mismatch(es)"
          % (args.loadfile, len(ops), ",".join(map(str, clients)),
             args.passes, total))
    for op, n in r.mismatches.most_common():
        print("  %-24s %d" % (op, n))
    if leftover:
        print("  handles still open at the end of a pass: %d" % leftover)
    if r.renamed_over:
        print("  renames that replaced an existing file: %d" %
              r.renamed_over)
    print("  left in clients/: %s" % (" ".join(left) if left else "nothing"))
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
