"""SMB2/3 messages to loadfile ops: creates, reads, writes, locks, info
levels and directory listings of one share, with their statuses.
"""

from .common import CaptureError
from .model import Handles, Namespace, Output, loadfile_path
from .pcap_reader import read_pcap
from .writer import emit_outputs, prepare_lines, report


SMB2_CMDS = {0: "NEGOTIATE", 1: "SESSION_SETUP", 2: "LOGOFF",
             3: "TREE_CONNECT", 4: "TREE_DISCONNECT", 5: "CREATE",
             6: "CLOSE", 7: "FLUSH", 8: "READ", 9: "WRITE", 10: "LOCK",
             11: "IOCTL", 12: "CANCEL", 13: "ECHO", 14: "QUERY_DIRECTORY",
             15: "CHANGE_NOTIFY", 16: "QUERY_INFO", 17: "SET_INFO",
             18: "OPLOCK_BREAK"}
STATUS_PENDING = 0x00000103
STATUS_NO_MORE_FILES = 0x80000006
STATUS_BUFFER_OVERFLOW = 0x80000005
STATUS_END_OF_FILE = 0xC0000011
STATUS_COLLISION = 0xC0000035
RELATED_FID = "ffffffff-ffff-ffff-ffff-ffffffffffff"
CREATE_OPTIONS_KEPT = 0x1 | 0x2 | 0x8 | 0x40   # what a backend acts on
DELETE_ON_CLOSE = 0x1000


class Smb2Open:
    def __init__(self, rel, handle, is_dir, doc):
        self.rel, self.handle, self.is_dir, self.doc = rel, handle, is_dir, doc


class Smb2Converter:
    """SMB2 requests, with the statuses of their responses, as loadfile
    ops: every request kept is one op."""

    def __init__(self, opts, out):
        self.opts, self.out = opts, out
        self.ns = Namespace()
        self.handles = Handles()
        self.opens = {}          # (stream, fid) -> Smb2Open
        self.first_ts = None
        self.left_open = 0

    def convert(self, msgs):
        replies = {}
        for m in msgs:
            if m.response and m.status != STATUS_PENDING:
                replies[(m.stream, m.msg_id)] = m
        last_fid = {}
        for m in msgs:
            if m.response:
                continue
            rep = replies.get((m.stream, m.msg_id))
            if self.first_ts is None:
                self.first_ts = m.ts
            if rep is None:
                self.out.drop("no response in the capture")
                continue
            fid = m.get("smb2.fid")
            if fid == RELATED_FID:
                fid = last_fid.get((m.stream, m.frame))
            if m.cmd == 5 and rep.status == 0:
                last_fid[(m.stream, m.frame)] = rep.get("smb2.fid")
            before = sum(self.out.ops.values())
            self.request(m, rep, fid)
            self.out.count_call(SMB2_CMDS.get(m.cmd, "?"),
                                sum(self.out.ops.values()) - before)

    def share_ok(self, m):
        tree = m.get("smb2.tree", "")
        share = tree.rsplit("\\", 1)[-1]
        if share.upper() == "IPC$":
            return False
        return self.opts.share is None or \
            share.lower() == self.opts.share.lower()

    def request(self, m, rep, fid):
        name = SMB2_CMDS.get(m.cmd, "command %d" % m.cmd)
        handler = SMB2_HANDLERS.get(m.cmd)
        if handler is None:
            self.out.drop("%s (no loadfile op)" % name)
            return
        if not self.share_ok(m):
            self.out.drop("another share or IPC$")
            return
        if m.cmd == 5:
            handler(self, m, rep)
            return
        op = self.opens.get((m.stream, fid))
        if op is None:
            self.out.drop("file id opened before the capture")
            return
        handler(self, m, rep, op)

    def status(self, rep):
        return "NT_STATUS_OK" if rep.status == 0 else "0x%08X" % rep.status

    def create(self, m, rep):
        rel = m.get("smb2.filename", "").replace("\\", "/").strip("/")
        lp = loadfile_path(rel)
        if lp is None:
            self.out.drop("a name the loadfile cannot spell")
            return
        opts = m.num("smb.create_options")
        disp = m.num("smb2.create.disposition", 1)
        ok = rep.status == 0
        handle = self.handles.take() if ok else self.handles.peek()
        self.out.emit(m, "NTCreateX", [lp, "0x%x" % (opts &
                                                    CREATE_OPTIONS_KEPT),
                                       "0x%x" % disp, handle],
                      self.status(rep))
        if not ok:
            if rep.status in (0xC0000034, 0xC000003A):
                self.ns.absent(rel)
            return
        is_dir = bool(rep.num("smb2.file_attribute") & 0x10)
        kind = "dir" if is_dir else "file"
        action = rep.num("smb2.create.action", 1)
        if action == 2:
            self.ns.created(rel, kind)
        else:
            node = self.ns.existing(rel, kind, rep.num("smb2.eof"))
            if action in (0, 3) and node is not None:
                node.size, node.modified = 0, True
        self.opens[(m.stream, rep.get("smb2.fid"))] = Smb2Open(
            rel, handle, is_dir, bool(opts & DELETE_ON_CLOSE))

    def remove(self, m, rep, op):
        """A delete (delete-on-close or SET_INFO disposition): Unlink or
        Rmdir of the open's path."""
        lp = loadfile_path(op.rel)
        self.out.emit(m, "Rmdir" if op.is_dir else "Unlink", [lp],
                      self.status(rep))
        if rep.status == 0:
            self.ns.removed(op.rel)

    def close(self, m, rep, op):
        del self.opens[(m.stream, m.get("smb2.fid") if m.get("smb2.fid")
                        != RELATED_FID else self.fid_of(op))]
        if op.doc and rep.status == 0:
            # the delete happens at this close: the replay deletes by name
            # and leaves its descriptor open
            self.left_open += 1
            self.remove(m, rep, op)
            return
        self.out.emit(m, "Close", [op.handle], self.status(rep))
        self.handles.give_back(op.handle)

    def fid_of(self, op):
        for k, v in self.opens.items():
            if v is op:
                return k[1]
        return None

    def read(self, m, rep, op):
        got = rep.num("smb2.olb.length") if rep.status == 0 else 0
        status = self.status(rep)
        if rep.status == STATUS_END_OF_FILE:
            status = "NT_STATUS_OK"   # SMB's way of saying "0 bytes"
        off = m.num("smb2.file_offset")
        self.out.emit(m, "ReadX", [op.handle, off,
                                   m.num("smb2.read_length"), got], status)
        if got:
            self.ns.existing(op.rel, "file", off + got, (off, got))

    def write(self, m, rep, op):
        off, n = m.num("smb2.file_offset"), m.num("smb2.write_length")
        done = rep.num("smb2.write.count") if rep.status == 0 else 0
        self.out.emit(m, "WriteX", [op.handle, off, n, done],
                      self.status(rep))
        node = self.ns.nodes.get(op.rel)
        if node is not None and done:
            node.size, node.modified = max(node.size, off + done), True

    def flush(self, m, rep, op):
        self.out.emit(m, "Flush", [op.handle], self.status(rep))

    def lock(self, m, rep, op):
        offs = m.f.get("smb2.file_offset", [])
        lens = m.f.get("smb2.lock_length", [])
        unl = m.f.get("smb2.lock_flags.unlock", [])
        if len(offs) != 1:
            self.out.drop("LOCK of several ranges (not one op)")
            return
        self.out.emit(m, "UnlockX" if unl and unl[0] == "1" else "LockX",
                      [op.handle, int(offs[0], 0), int(lens[0], 0)],
                      self.status(rep))

    def query_info(self, m, rep, op):
        cls = m.num("smb2.class")
        status = "NT_STATUS_OK" if rep.status == STATUS_BUFFER_OVERFLOW \
            else self.status(rep)
        if cls == 1:
            self.out.emit(m, "QUERY_FILE_INFORMATION",
                          [op.handle, 1000 + m.num("smb2.file_info.infolevel")],
                          status)
        elif cls == 2:
            self.out.emit(m, "QUERY_FS_INFORMATION",
                          [m.num("smb2.fs_info.infolevel")], status)
        else:
            self.out.drop("QUERY_INFO of security or quota")

    def set_info(self, m, rep, op):
        level = m.num("smb2.file_info.infolevel")
        if m.num("smb2.class") != 1:
            self.out.drop("SET_INFO of security or quota")
        elif level == 10:
            self.rename(m, rep, op)
        elif level in (13, 64):
            if m.get("smb2.disposition.delete_on_close", "1") == "1":
                self.remove(m, rep, op)
            else:
                self.out.drop("SET_INFO undoing a delete")
        else:
            self.out.emit(m, "SET_FILE_INFORMATION", [op.handle,
                                                      1000 + level],
                          self.status(rep))

    def rename(self, m, rep, op):
        names = m.f.get("smb2.filename", [])
        new = names[-1].replace("\\", "/").strip("/") if names else None
        lp = loadfile_path(new) if new is not None else None
        if lp is None:
            self.out.drop("a name the loadfile cannot spell")
            return
        if rep.status == STATUS_COLLISION and \
                m.get("smb2.rename.replace_if", "0") == "0":
            self.out.drop("rename without replacing failed (no loadfile op)")
            return
        self.out.emit(m, "Rename", [loadfile_path(op.rel), lp],
                      self.status(rep))
        if rep.status == 0:
            self.ns.renamed(op.rel, new)
            for o in self.opens.values():
                if o.rel == op.rel or o.rel.startswith(op.rel + "/"):
                    o.rel = new + o.rel[len(op.rel):]

    def find(self, m, rep, op):
        if rep.status == STATUS_NO_MORE_FILES:
            self.out.drop("end of a directory listing")
            return
        pattern = m.get("smb2.find.pattern", "*")
        lp = loadfile_path(op.rel + "/" + pattern if op.rel else pattern)
        if lp is None:
            self.out.drop("a name the loadfile cannot spell")
            return
        names = rep.f.get("smb2.filename", []) if rep.status == 0 else []
        sizes = rep.f.get("smb2.eof", [])
        attrs = rep.f.get("smb2.file_attribute", [])
        for i, name in enumerate(names):
            if name in (".", "..") or i >= len(sizes) or i >= len(attrs):
                continue
            rel = op.rel + "/" + name if op.rel else name
            kind = "dir" if int(attrs[i], 16) & 0x10 else "file"
            self.ns.existing(rel, kind, int(sizes[i]))
        n = len(names)
        self.out.emit(m, "FIND_FIRST", [lp, 260, n, n], self.status(rep))


SMB2_HANDLERS = {
    5: Smb2Converter.create, 6: Smb2Converter.close,
    7: Smb2Converter.flush, 8: Smb2Converter.read, 9: Smb2Converter.write,
    10: Smb2Converter.lock, 14: Smb2Converter.find,
    16: Smb2Converter.query_info, 17: Smb2Converter.set_info,
}


def cmd_pcap(opts, write=True):
    msgs = read_pcap(opts)
    out = Output()
    cv = Smb2Converter(opts, out)
    cv.convert(msgs)
    prep = prepare_lines(cv.ns, opts.prepare)
    if write:
        if opts.per_process:
            raise CaptureError("--per-process is for strace traces")
        emit_outputs(opts, opts.input, prep, out, cv.first_ts)
        extra = "%d SMB2 messages" % len(msgs)
        if cv.left_open:
            extra += ", %d deleted-on-close opens left open" % cv.left_open
        report(opts.input, out, prep, extra)
    return out, prep
