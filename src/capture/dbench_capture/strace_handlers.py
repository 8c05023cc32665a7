"""One handler per system call kind: each turns a call into at most the
loadfile ops it stands for (or counts why it was dropped).
"""

import re

from .common import LOCK_TO_EOF, nt_status
from .model import Desc, loadfile_path
from .strace_reader import flag_set, num, parse_fd, stat_info, unquote


# ---- one handler per system call family ----

def open_options(flags, err):
    """(create_options, disposition) of an open's flags."""
    opts = 0
    if "O_DIRECTORY" in flags:
        opts |= 0x1
    elif err == "EISDIR":
        opts |= 0x40          # a file was wanted: the replay must refuse too
    if flags & {"O_SYNC", "O_DSYNC"}:
        opts |= 0x2
    if "O_DIRECT" in flags:
        opts |= 0x8
    create, excl, trunc = ("O_CREAT" in flags, "O_EXCL" in flags,
                           "O_TRUNC" in flags)
    if create and excl:
        disp = 2
    elif create and trunc:
        disp = 5
    elif create:
        disp = 3
    elif trunc:
        disp = 4
    else:
        disp = 1
    return opts, disp


def h_open_common(cv, c, proc, dirarg, patharg, flags):
    path = cv.resolve(proc, dirarg, patharg)
    rel = cv.rel(path)
    cloexec = "O_CLOEXEC" in flags
    if rel is None:
        if c.err is None and c.ret is not None:
            cv.install(proc, c.ret, cv.new_desc(path, None, "outside --root"),
                       cloexec)
        cv.out.drop("outside --root")
        return
    pl = cv.path_of(c, proc, dirarg, patharg)
    if pl is None:
        if c.err is None and c.ret is not None:
            cv.install(proc, c.ret, cv.new_desc(path, rel, "on a name the "
                                                "loadfile cannot have"),
                       cloexec)
        return
    opts, disp = open_options(flags, c.err)
    status = nt_status(c.err, {"EINVAL": "NOT_SUPPORTED"}
                       if "O_DIRECT" in flags else None)
    if c.err is not None:
        if c.err == "ENOENT":
            cv.ns.absent(rel)
        elif c.err == "EEXIST":
            cv.ns.existing(rel)
        cv.out.emit(c, "NTCreateX", [pl[1], "0x%x" % opts, "0x%x" % disp,
                                     cv.handles.peek()], status)
        return
    is_dir = "O_DIRECTORY" in flags
    node = cv.ns.nodes.get(rel)
    if "O_CREAT" in flags and (node is None or not node.exists):
        node = cv.ns.created(rel, "file")
    else:
        node = cv.ns.existing(rel, "dir" if is_dir else None)
    if "O_TRUNC" in flags and node is not None:
        node.size, node.modified = 0, True
    handle = cv.handles.take()
    desc = Desc(path, rel, handle, is_dir, "O_APPEND" in flags)
    desc.owner = proc.pid
    cv.install(proc, c.ret, desc, cloexec)
    cv.out.emit(c, "NTCreateX", [pl[1], "0x%x" % opts, "0x%x" % disp,
                                 handle], status)


def h_open(cv, c, proc):
    h_open_common(cv, c, proc, None, c.args[0], flag_set(c.args[1]))


def h_openat(cv, c, proc):
    flags = c.args[2]
    if c.name == "openat2":
        m = re.search(r"flags=([A-Z_|0-9x]+)", flags)
        flags = m.group(1) if m else ""
    h_open_common(cv, c, proc, c.args[0], c.args[1], flag_set(flags))


def h_creat(cv, c, proc):
    h_open_common(cv, c, proc, None, c.args[0],
                  {"O_CREAT", "O_WRONLY", "O_TRUNC"})


def node_of(cv, desc):
    return cv.ns.nodes.get(desc.rel) if desc.rel is not None else None


def io_sizes(c):
    """Bytes asked for by a read/write call (readv/writev: the iovecs)."""
    if c.name.endswith("v") or c.name.endswith("v2"):
        return sum(int(x) for x in re.findall(r"iov_len=(\d+)", c.args[1]))
    return num(c.args[2])


def io_offset(c):
    """The explicit offset of a p* call, or None (the fd's offset)."""
    if c.name in ("pread64", "pwrite64", "pread", "pwrite"):
        return num(c.args[3])
    if c.name in ("preadv", "pwritev", "preadv2", "pwritev2"):
        off = num(c.args[3], -1)
        return off if off >= 0 else None
    return None


def h_read(cv, c, proc):
    desc = cv.desc(c, proc, c.args[0])
    if desc is None or not cv.usable(c):
        return
    off = io_offset(c)
    explicit = off is not None
    if not explicit:
        off = desc.offset
    got = c.ret if c.err is None else 0
    cv.out.emit(c, "ReadX", [desc.handle, off, io_sizes(c), got],
                nt_status(c.err))
    if not explicit:
        desc.offset += got
    if desc.rel is not None and got > 0:
        cv.ns.existing(desc.rel, None, off + got, (off, got))


def h_write(cv, c, proc):
    desc = cv.desc(c, proc, c.args[0])
    if desc is None or not cv.usable(c):
        return
    node = node_of(cv, desc)
    off = io_offset(c)
    explicit = off is not None
    if not explicit:
        off = node.size if desc.append and node is not None else desc.offset
    done = c.ret if c.err is None else 0
    size = done if c.err is None else io_sizes(c)
    cv.out.emit(c, "WriteX", [desc.handle, off, size, done],
                nt_status(c.err))
    if not explicit:
        desc.offset = off + done
    if node is not None and done > 0:
        node.size, node.modified = max(node.size, off + done), True


def h_close(cv, c, proc):
    fd, annot = parse_fd(c.args[0])
    ent = proc.fds.get(fd)
    if ent is None:
        cv.out.drop("descriptor opened before the trace"
                    if cv.rel(annot) is not None else "outside --root")
        return
    desc = ent[0]
    if c.err is None or c.err != "EBADF":
        del proc.fds[fd]
        desc.refs -= 1
    if desc.handle is None:
        cv.out.drop(desc.why)
        return
    if desc.refs > 0:
        cv.out.drop("close of a duplicated descriptor")
        return
    if cv.opts.per_process and desc.owner != proc.pid:
        cv.leaked += 1
        cv.out.drop("descriptor of another process (--per-process)")
        return
    cv.out.emit(c, "Close", [desc.handle], "NT_STATUS_OK")
    cv.handles.give_back(desc.handle)


def h_fsync(cv, c, proc):
    desc = cv.desc(c, proc, c.args[0])
    if desc is not None and cv.usable(c):
        cv.out.emit(c, "Flush", [desc.handle], nt_status(c.err))


def h_unlink(cv, c, proc):
    dirarg, patharg = (c.args[0], c.args[1]) if c.name == "unlinkat" \
        else (None, c.args[0])
    rmdir = c.name == "rmdir" or (c.name == "unlinkat" and
                                  "AT_REMOVEDIR" in c.args[2])
    path = cv.resolve(proc, dirarg, patharg)
    rel = cv.rel(path)
    if rel == "" and not rmdir:
        # unlink of --root (EISDIR): in the replay that is the client's
        # own directory, which no Unlink may name
        cv.out.drop("unlink of --root itself")
        return
    node = cv.ns.nodes.get(rel) if rel is not None else None
    if node is not None and node.phantom and node.exists and c.err is None:
        cv.ns.removed(rel)
        cv.out.drop("on a name the replay does not have "
                    "(symlink or hard link)")
        return
    pl = cv.path_of(c, proc, dirarg, patharg)
    if pl is None:
        return
    if rmdir:
        cv.out.emit(c, "Rmdir", [pl[1]],
                    nt_status(c.err, {"EEXIST": "DIRECTORY_NOT_EMPTY"}))
    else:
        cv.out.emit(c, "Unlink", [pl[1]], nt_status(c.err))
    if c.err is None:
        cv.ns.existing(rel, "dir" if rmdir else "file")
        cv.ns.removed(rel)
    elif c.err == "ENOENT":
        cv.ns.absent(rel)


def h_rename(cv, c, proc):
    if c.name == "rename":
        a, b = (None, c.args[0]), (None, c.args[1])
    else:
        a, b = (c.args[0], c.args[1]), (c.args[2], c.args[3])
    flags = c.args[4] if c.name == "renameat2" else ""
    old = cv.rel(cv.resolve(proc, *a))
    new = cv.rel(cv.resolve(proc, *b))
    if old is None and new is None:
        cv.out.drop("outside --root")
        return
    if old is None or new is None or "RENAME_EXCHANGE" in flags:
        if c.err is None:
            cv.out.warn_once("rename-out", "line %d: a rename into, out of "
                             "or within --root that the replay cannot make"
                             % c.lineno)
            if new is not None:
                cv.ns.created(new, "file").phantom = True
            if old is not None:
                cv.ns.removed(old)
        cv.out.drop("rename across --root or exchange")
        return
    if "RENAME_NOREPLACE" in flags and c.err == "EEXIST":
        cv.out.drop("rename without replacing failed (no loadfile op)")
        return
    pa = cv.path_of(c, proc, *a)
    pb = pa and cv.path_of(c, proc, *b)
    if pa is None or pb is None:
        return
    cv.out.emit(c, "Rename", [pa[1], pb[1]], nt_status(c.err))
    if c.err is None:
        cv.ns.renamed(old, new)
        cv.renamed_descs(old, new)
    elif c.err == "ENOENT":
        cv.ns.absent(old)


def h_mkdir(cv, c, proc):
    dirarg, patharg = (None, c.args[0]) if c.name == "mkdir" else \
        (c.args[0], c.args[1])
    pl = cv.path_of(c, proc, dirarg, patharg)
    if pl is None:
        return
    rel = pl[0]
    if rel == "" and c.err is None:
        cv.out.warn_once("mkdir-root", "line %d: the trace creates --root "
                         "itself; choose a directory that existed before "
                         "the trace" % c.lineno)
    cv.out.emit(c, "Mkdir", [pl[1]], nt_status(c.err))
    if c.err is None:
        cv.ns.created(rel, "dir")
    elif c.err == "EEXIST":
        cv.ns.existing(rel, "dir")


def h_lookup(cv, c, proc, dirarg, patharg, statbuf):
    """A stat, access or readlink of a path: QUERY_PATH_INFORMATION."""
    pl = cv.path_of(c, proc, dirarg, patharg)
    if pl is None:
        return
    rel = pl[0]
    status = nt_status(c.err)
    if c.err is None:
        kind, size = stat_info(statbuf)
        if kind == "other":
            cv.ns.existing(rel, "file").phantom = True
            cv.out.drop("on a name the replay does not have "
                        "(symlink or hard link)")
            return
        cv.ns.existing(rel, kind, size)
    elif c.err in ("ENOENT", "ENOTDIR"):
        cv.ns.absent(rel)
        if cv.ns.case_twin(rel):
            # a file server's lookup is case-insensitive: it finds the twin
            status = "NT_STATUS_OK"
            cv.out.warn_once("case", "line %d: %s is missing but a name "
                             "differing only in case exists; the replay "
                             "(case-insensitive, as a file server) finds it"
                             % (c.lineno, rel))
    cv.out.emit(c, "QUERY_PATH_INFORMATION", [pl[1], 1004], status)


def h_stat(cv, c, proc):
    h_lookup(cv, c, proc, None, c.args[0], c.args[1])


def h_fstatat(cv, c, proc):
    if unquote(c.args[1]) == "" and "AT_EMPTY_PATH" in c.args[-1]:
        h_fstat_common(cv, c, proc, c.args[0], c.args[2])
        return
    h_lookup(cv, c, proc, c.args[0], c.args[1], c.args[2])


def h_statx(cv, c, proc):
    if unquote(c.args[1]) == "" and "AT_EMPTY_PATH" in c.args[2]:
        h_fstat_common(cv, c, proc, c.args[0], c.args[4])
        return
    h_lookup(cv, c, proc, c.args[0], c.args[1], c.args[4])


def h_access(cv, c, proc):
    if c.name == "access":
        h_lookup(cv, c, proc, None, c.args[0], "")
    else:
        h_lookup(cv, c, proc, c.args[0], c.args[1], "")


def h_fstat_common(cv, c, proc, fdarg, statbuf):
    desc = cv.desc(c, proc, fdarg)
    if desc is None or not cv.usable(c):
        return
    kind, size = stat_info(statbuf)
    if c.err is None and desc.rel is not None:
        cv.ns.existing(desc.rel, kind, size)
    cv.out.emit(c, "QUERY_FILE_INFORMATION", [desc.handle, 1004],
                nt_status(c.err))


def h_fstat(cv, c, proc):
    h_fstat_common(cv, c, proc, c.args[0], c.args[1])


def h_statfs(cv, c, proc):
    if c.name == "fstatfs":
        if cv.desc(c, proc, c.args[0]) is None:
            return
        if not cv.usable(c):
            return
    elif cv.path_of(c, proc, None, c.args[0]) is None:
        return
    cv.out.emit(c, "QUERY_FS_INFORMATION", [1], nt_status(c.err))


DIRENT_RE = re.compile(r'd_type=(DT_[A-Z]+), d_name=("(?:[^"\\]|\\.)*")')


def h_getdents(cv, c, proc):
    desc = cv.desc(c, proc, c.args[0])
    if desc is None or not cv.usable(c):
        return
    if c.err is not None:
        cv.out.drop("failed directory read")
        return
    m = re.search(r"/\* (\d+) entries \*/", c.args[1])
    n = int(m.group(1)) if m else c.args[1].count("d_ino=")
    if n == 0:
        cv.out.drop("end of a directory listing")
        return
    lp = loadfile_path(desc.rel)
    node = cv.ns.existing(desc.rel, "dir")
    # strace -v prints the entries: what no call made yet existed before
    for dtype, quoted in DIRENT_RE.findall(c.args[1]):
        name = unquote(quoted)
        child = desc.rel + "/" + name if desc.rel else name
        if name not in (".", "..") and child not in cv.ns.nodes:
            cv.ns.existing(child, "dir" if dtype == "DT_DIR" else "file")
            cv.listed_only.add(child)
    if node is None or node.pre:
        cv.listed.add(desc.rel)
    pattern = lp[:-1] + "\\*" + '"'
    cv.out.emit(c, "FIND_FIRST", [pattern, 260, n, n], "NT_STATUS_OK")


def h_setinfo(cv, c, proc):
    """ftruncate, fchmod, futimens: SET_FILE_INFORMATION on the handle."""
    if c.name == "utimensat" and c.args[1] != "NULL":
        h_path_setinfo(cv, c, proc)
        return
    desc = cv.desc(c, proc, c.args[0])
    if desc is None or not cv.usable(c):
        return
    level = 1004
    if c.name == "ftruncate":
        level = 1020
        node = node_of(cv, desc)
        size = num(c.args[1])
        if node is not None and c.err is None and node.size != size:
            cv.out.warn_once("ftruncate", "line %d: ftruncate changes the "
                             "size of %s; the replay keeps the size the "
                             "writes give" % (c.lineno, desc.rel))
            node.size, node.modified = size, True
    cv.out.emit(c, "SET_FILE_INFORMATION", [desc.handle, level],
                nt_status(c.err))


def h_path_setinfo(cv, c, proc):
    """chmod, utimensat and utimes of a name: what an SMB client sends for
    them, an open, a SET_FILE_INFORMATION and a close (one call, three
    ops; a failed one is the failed open alone)."""
    if c.name in ("chmod", "utime", "utimes"):
        dirarg, patharg = None, c.args[0]
    else:
        dirarg, patharg = c.args[0], c.args[1]
    pl = cv.path_of(c, proc, dirarg, patharg)
    if pl is None:
        return
    handle = cv.handles.peek()
    cv.out.emit(c, "NTCreateX", [pl[1], "0x0", "0x1", handle],
                nt_status(c.err))
    if c.err is not None:
        if c.err == "ENOENT":
            cv.ns.absent(pl[0])
        return
    cv.ns.existing(pl[0])
    cv.out.emit(c, "SET_FILE_INFORMATION", [handle, 1004], "NT_STATUS_OK")
    cv.out.emit(c, "Close", [handle], "NT_STATUS_OK")


def lock_op(cv, c, desc, unlock, start, length):
    if length == 0:
        length = LOCK_TO_EOF
    op = "UnlockX" if unlock else "LockX"
    status = nt_status(c.err, {"EAGAIN": "LOCK_NOT_GRANTED"})
    cv.out.emit(c, op, [desc.handle, start, length], status)


def h_flock(cv, c, proc):
    desc = cv.desc(c, proc, c.args[0])
    if desc is None or not cv.usable(c):
        return
    lock_op(cv, c, desc, "LOCK_UN" in c.args[1], 0, 1)


def h_fcntl(cv, c, proc):
    cmd = c.args[1] if len(c.args) > 1 else ""
    fd = parse_fd(c.args[0])[0]
    if cmd in ("F_DUPFD", "F_DUPFD_CLOEXEC"):
        dup_to(cv, c, proc, fd, c.ret, cmd == "F_DUPFD_CLOEXEC")
        return
    if cmd == "F_SETFL":
        ent = proc.fds.get(fd)
        if ent is not None and c.err is None and len(c.args) > 2:
            ent[0].append = "O_APPEND" in c.args[2]
        cv.out.drop("descriptor bookkeeping")
        return
    if cmd == "F_SETFD":
        ent = proc.fds.get(fd)
        if ent is not None and c.err is None:
            ent[1] = "FD_CLOEXEC" in c.args[2]
        cv.out.drop("descriptor bookkeeping")
        return
    if cmd not in ("F_SETLK", "F_SETLKW", "F_OFD_SETLK", "F_OFD_SETLKW"):
        cv.out.drop("fcntl without a loadfile op")
        return
    desc = cv.desc(c, proc, c.args[0])
    if desc is None or not cv.usable(c):
        return
    lk = c.args[2]
    start = int((re.search(r"l_start=(-?\d+)", lk) or [0, 0])[1])
    length = int((re.search(r"l_len=(-?\d+)", lk) or [0, 0])[1])
    if "SEEK_CUR" in lk:
        start += desc.offset
    elif "SEEK_END" in lk:
        node = node_of(cv, desc)
        start += node.size if node is not None else 0
    if length < 0:
        start, length = start + length, -length
    lock_op(cv, c, desc, "F_UNLCK" in lk, max(start, 0), length)


def dup_to(cv, c, proc, old, new, cloexec):
    cv.out.drop("descriptor bookkeeping")
    ent = proc.fds.get(old)
    if c.err is not None or c.ret is None or ent is None:
        return
    cv.install(proc, new, ent[0], cloexec)


def h_dup(cv, c, proc):
    old = parse_fd(c.args[0])[0]
    cloexec = c.name == "dup3" and "O_CLOEXEC" in c.args[2]
    dup_to(cv, c, proc, old, c.ret, cloexec)


def h_lseek(cv, c, proc):
    cv.out.drop("descriptor bookkeeping")
    ent = proc.fds.get(parse_fd(c.args[0])[0])
    if ent is None or c.err is not None or c.ret is None:
        return
    if c.name == "_llseek":
        ent[0].offset = num(c.args[3])
    else:
        ent[0].offset = c.ret


def h_chdir(cv, c, proc):
    cv.out.drop("descriptor bookkeeping")
    if c.err is not None:
        return
    if c.name == "fchdir":
        fd, annot = parse_fd(c.args[0])
        ent = proc.fds.get(fd)
        path = annot or (ent[0].path if ent else None)
    else:
        path = cv.resolve(proc, None, c.args[0])
    if path is not None:
        proc.cwd = path


def h_getcwd(cv, c, proc):
    cv.out.drop("not a file call")
    if c.err is None and c.args and c.args[0].startswith('"'):
        proc.cwd = unquote(c.args[0])


def h_clone(cv, c, proc):
    cv.out.drop("not a file call")
    if c.err is None and c.ret and c.ret > 0 and c.ret not in cv.procs:
        cv.fork(proc, c.ret, "CLONE_FILES" in " ".join(c.args))


def h_execve(cv, c, proc):
    cv.out.drop("not a file call")
    if c.err is not None or c.ret is None:
        return
    for fd in [fd for fd, ent in proc.fds.items() if ent[1]]:
        cv.release(proc.fds.pop(fd)[0])


def h_copy(cv, c, proc):
    """copy_file_range and sendfile: a ReadX and a WriteX (the one call
    kept as two ops, the only such case)."""
    if c.name == "sendfile":
        fin, fout, offarg = c.args[1], c.args[0], c.args[2]
        offout = "NULL"
    else:
        fin, offarg, fout, offout = c.args[0], c.args[1], c.args[2], \
            c.args[3]
    n = c.ret if c.err is None and c.ret is not None else 0
    for fdarg, off, write in ((fin, offarg, False), (fout, offout, True)):
        desc = cv.desc(c, proc, fdarg)
        if desc is None or not cv.usable(c):
            continue
        pos = desc.offset if off == "NULL" else num(off)
        if write:
            cv.out.emit(c, "WriteX", [desc.handle, pos, n, n],
                        nt_status(c.err))
            node = node_of(cv, desc)
            if node is not None and n > 0:
                node.size, node.modified = max(node.size, pos + n), True
        else:
            cv.out.emit(c, "ReadX", [desc.handle, pos, n, n],
                        nt_status(c.err))
        if off == "NULL":
            desc.offset += n


def h_link(cv, c, proc):
    """A hard link: the replay moves the file to the new name (what a
    link followed by an unlink of the old name, git's way, leaves)."""
    if c.name == "link":
        a, b = (None, c.args[0]), (None, c.args[1])
    else:
        a, b = (c.args[0], c.args[1]), (c.args[2], c.args[3])
    old = cv.rel(cv.resolve(proc, *a))
    new = cv.rel(cv.resolve(proc, *b))
    if old is None or new is None or c.err is not None:
        cv.out.drop("outside --root" if old is None and new is None
                    else "failed or crossing hard link")
        return
    pa = cv.path_of(c, proc, *a)
    pb = pa and cv.path_of(c, proc, *b)
    if pa is None or pb is None:
        return
    cv.out.warn_once("link", "line %d: hard links are replayed as renames "
                     "(the old name is gone in the replay)" % c.lineno)
    cv.out.emit(c, "Rename", [pa[1], pb[1]], "NT_STATUS_OK")
    node = cv.ns.existing(old, "file")
    size = node.size
    cv.ns.renamed(old, new)
    cv.renamed_descs(old, new)
    ghost = cv.ns.created(old, "file")
    ghost.phantom, ghost.size = True, size


def h_symlink(cv, c, proc):
    path = c.args[1] if c.name == "symlink" else c.args[2]
    dirarg = None if c.name == "symlink" else c.args[1]
    rel = cv.rel(cv.resolve(proc, dirarg, path))
    if rel is None:
        cv.out.drop("outside --root")
        return
    if c.err is None:
        cv.ns.created(rel, "file").phantom = True
    cv.out.drop("on a name the replay does not have (symlink or hard link)")


HANDLERS = {
    "open": h_open, "openat": h_openat, "openat2": h_openat,
    "creat": h_creat,
    "read": h_read, "pread64": h_read, "readv": h_read, "preadv": h_read,
    "preadv2": h_read,
    "write": h_write, "pwrite64": h_write, "writev": h_write,
    "pwritev": h_write, "pwritev2": h_write,
    "close": h_close,
    "fsync": h_fsync, "fdatasync": h_fsync,
    "unlink": h_unlink, "unlinkat": h_unlink, "rmdir": h_unlink,
    "rename": h_rename, "renameat": h_rename, "renameat2": h_rename,
    "mkdir": h_mkdir, "mkdirat": h_mkdir,
    "stat": h_stat, "lstat": h_stat, "stat64": h_stat, "lstat64": h_stat,
    "newfstatat": h_fstatat, "fstatat64": h_fstatat, "statx": h_statx,
    "access": h_access, "faccessat": h_access, "faccessat2": h_access,
    "fstat": h_fstat, "fstat64": h_fstat,
    "statfs": h_statfs, "fstatfs": h_statfs, "statfs64": h_statfs,
    "fstatfs64": h_statfs,
    "getdents": h_getdents, "getdents64": h_getdents,
    "ftruncate": h_setinfo, "fchmod": h_setinfo, "utimensat": h_setinfo,
    "chmod": h_path_setinfo, "fchmodat": h_path_setinfo,
    "fchmodat2": h_path_setinfo, "utime": h_path_setinfo,
    "utimes": h_path_setinfo, "futimesat": h_path_setinfo,
    "flock": h_flock, "fcntl": h_fcntl, "fcntl64": h_fcntl,
    "dup": h_dup, "dup2": h_dup, "dup3": h_dup,
    "lseek": h_lseek, "_llseek": h_lseek,
    "chdir": h_chdir, "fchdir": h_chdir, "getcwd": h_getcwd,
    "clone": h_clone, "clone3": h_clone, "fork": h_clone, "vfork": h_clone,
    "execve": h_execve, "execveat": h_execve,
    "copy_file_range": h_copy, "sendfile": h_copy, "sendfile64": h_copy,
    "link": h_link, "linkat": h_link,
    "symlink": h_symlink, "symlinkat": h_symlink,
}
