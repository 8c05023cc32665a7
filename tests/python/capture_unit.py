#!/usr/bin/python3
"""capture_unit.py - unit tests of dbench-capture's pieces (the package
src/capture/dbench_capture): strace argument splitting and string
decoding, open flags to NTCreateX, the errno -> NT status table (checked
against src/loadfile/ntstatus.c), and the SMB2 converter on messages
built by hand (compounds, locks, info levels, the statuses SMB uses for
"no more data").  Run by capture_unit.sh; prints TAP (one test point per
test, the plan last) for make check's TAP driver."""

import os
import re
import sys
import types
import unittest

from tap_unittest import run_module

SRCDIR = os.environ.get("SRCDIR") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..")
# the package from the source tree, without leaving __pycache__ in it
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(SRCDIR, "src", "capture"))

from dbench_capture import (common, model, pcap_reader,  # noqa: E402
                            smb2_convert, strace_handlers, strace_reader)


class StraceText(unittest.TestCase):
    def test_split_args(self):
        args, rest = strace_reader.split_args(
            '3</a, b>, "x,\\"y)", {st_mode=S_IFREG|0644, st_size=5, ...}, '
            '[{iov_base="(", iov_len=1}]) = 5 <0.000010>', 1)
        self.assertEqual(args, ["3</a, b>", '"x,\\"y)"',
                                "{st_mode=S_IFREG|0644, st_size=5, ...}",
                                '[{iov_base="(", iov_len=1}]'])
        self.assertEqual(rest, " = 5 <0.000010>")

    def test_split_args_comment_and_empty(self):
        self.assertEqual(strace_reader.split_args(") = 7", 1), ([], " = 7"))
        args, _ = strace_reader.split_args("3, 0x55 /* 3 entries, (x */, 10) = 80", 1)
        self.assertEqual(args, ["3", "0x55 /* 3 entries, (x */", "10"])

    def test_split_args_unterminated(self):
        with self.assertRaises(common.CaptureError) as cm:
            strace_reader.split_args('3, "abc', 42)
        self.assertIn("line 42", str(cm.exception))

    def test_unquote(self):
        self.assertEqual(strace_reader.unquote('"a\\tb\\\\c\\"d"'), 'a\tb\\c"d')
        self.assertEqual(strace_reader.unquote('"\\x41\\102\\0"...'), "AB\0")
        self.assertEqual(strace_reader.unquote('"caf\\303\\251"'), "caf\u00e9")
        self.assertIsNone(strace_reader.unquote("NULL"))

    def test_parse_fd(self):
        self.assertEqual(strace_reader.parse_fd("3</x/y>"), (3, "/x/y"))
        self.assertEqual(strace_reader.parse_fd("AT_FDCWD</w>"), ("cwd", "/w"))
        self.assertEqual(strace_reader.parse_fd("AT_FDCWD"), ("cwd", None))
        self.assertEqual(strace_reader.parse_fd("-100"), (-100, None))

    def test_stat_info(self):
        self.assertEqual(strace_reader.stat_info("{st_mode=S_IFDIR|0755, st_size=40"),
                         ("dir", 40))
        self.assertEqual(strace_reader.stat_info("{stx_mode=S_IFREG|0644, stx_size=9"),
                         ("file", 9))
        self.assertEqual(strace_reader.stat_info("{st_mode=S_IFLNK|0777, ...}")[0],
                         "other")

    def test_loadfile_path(self):
        self.assertEqual(model.loadfile_path(""), '"\\clients\\client1"')
        self.assertEqual(model.loadfile_path("a b/c"),
                         '"\\clients\\client1\\a b\\c"')
        self.assertIsNone(model.loadfile_path('a"b'))
        self.assertIsNone(model.loadfile_path("a\\b"))


class OpenFlags(unittest.TestCase):
    CASES = [
        ("O_RDONLY", None, (0x0, 1)),
        ("O_WRONLY|O_CREAT|O_EXCL", None, (0x0, 2)),
        ("O_WRONLY|O_CREAT|O_TRUNC", None, (0x0, 5)),
        ("O_RDWR|O_CREAT", None, (0x0, 3)),
        ("O_WRONLY|O_TRUNC", None, (0x0, 4)),
        ("O_RDONLY|O_DIRECTORY", None, (0x1, 1)),
        ("O_WRONLY", "EISDIR", (0x40, 1)),
        ("O_RDWR|O_SYNC", None, (0x2, 1)),
        ("O_RDWR|O_DSYNC|O_DIRECT", None, (0xa, 1)),
    ]

    def test_open_options(self):
        for flags, err, want in self.CASES:
            with self.subTest(flags=flags, err=err):
                self.assertEqual(strace_handlers.open_options(strace_reader.flag_set(flags), err),
                                 want)


class ErrnoTable(unittest.TestCase):
    """ERRNO_NT must be the errno table of src/loadfile/ntstatus.c."""

    def c_table(self):
        path = os.path.join(SRCDIR, "src", "loadfile", "ntstatus.c")
        with open(path) as f:
            text = f.read()
        m = re.search(r"errno_table\[\] = \{\n(.*?)\n\};", text, re.S)
        self.assertIsNotNone(m, "errno_table[] not found in " + path)
        return {e: s for e, s in re.findall(
            r"\{\s*(E[A-Z0-9]+),\s*NT_STATUS_([A-Z_]+),", m.group(1))}

    def test_same_as_ntstatus_c(self):
        want = self.c_table()
        self.assertGreater(len(want), 15)
        got = {e: s for e, s in common.ERRNO_NT.items() if e in want}
        self.assertEqual(got, want)
        self.assertEqual(set(common.ERRNO_NT) - set(want), set())

    def test_unknown_errno(self):
        self.assertEqual(common.nt_status("EPROTO"), "NT_STATUS_UNSUCCESSFUL")
        self.assertEqual(common.nt_status(None), "NT_STATUS_OK")


def smb_msg(cmd, msg_id, response=False, status=0, frame=1, **fields):
    f = {"smb2.cmd": [str(cmd)], "smb2.msg_id": [str(msg_id)],
         "smb2.flags.response": ["1" if response else "0"],
         "smb2.nt_status": ["0x%08x" % status],
         "smb2.tree": ["\\\\127.0.0.1\\share"]}
    for k, v in fields.items():
        f[k.replace("__", ".").replace("_DOT_", ".")] = \
            v if isinstance(v, list) else [str(v)]
    return pcap_reader.Smb2Msg(f, frame, float(frame), "0", 0)


def smb_convert(msgs, share=None):
    opts = types.SimpleNamespace(share=share, prepare=True)
    out = model.Output()
    cv = smb2_convert.Smb2Converter(opts, out)
    cv.convert(msgs)
    return [text for _pid, _ts, text in out.lines()], out, cv


FID = "11111111-0000-0000-0000-000000000001"


def create(msg_id, name, fid=FID, disp=1, options=0x40, status=0,
           action=1, attr=0x20, eof=0, frame=1):
    return [smb_msg(5, msg_id, frame=frame, **{
        "smb2__filename": name, "smb2__create__disposition": disp,
        "smb__create_options": "0x%08x" % options}),
        smb_msg(5, msg_id, True, status, frame=frame, **{
            "smb2__fid": fid, "smb2__create__action": action,
            "smb2__file_attribute": "0x%08x" % attr, "smb2__eof": eof})]


class Smb2(unittest.TestCase):
    def test_compound_create_info_close(self):
        rel = "ffffffff-ffff-ffff-ffff-ffffffffffff"
        msgs = create(1, "dir\\f", eof=77) + [
            smb_msg(16, 2, **{"smb2__fid": rel, "smb2__class": "0x01",
                              "smb2__file_info__infolevel": "0x12"}),
            smb_msg(16, 2, True, 0x80000005),
            smb_msg(6, 3, **{"smb2__fid": rel}),
            smb_msg(6, 3, True)]
        lines, out, cv = smb_convert(msgs)
        self.assertEqual(lines, [
            'NTCreateX "\\clients\\client1\\dir\\f" 0x40 0x1 1 NT_STATUS_OK',
            "QUERY_FILE_INFORMATION 1 1018 NT_STATUS_OK",
            "Close 1 NT_STATUS_OK"])
        self.assertEqual(out.calls, 3)
        self.assertEqual(cv.ns.pre["dir/f"].pre_size, 77)
        self.assertEqual(cv.ns.pre["dir"].kind, "dir")

    def test_lock_unlock_and_eof_read(self):
        msgs = create(1, "f") + [
            smb_msg(10, 2, **{"smb2__fid": FID, "smb2__file_offset": "10",
                              "smb2__lock_length": "5",
                              "smb2__lock_flags__unlock": "0"}),
            smb_msg(10, 2, True),
            smb_msg(10, 3, **{"smb2__fid": FID, "smb2__file_offset": "10",
                              "smb2__lock_length": "5",
                              "smb2__lock_flags__unlock": "1"}),
            smb_msg(10, 3, True),
            smb_msg(8, 4, **{"smb2__fid": FID, "smb2__file_offset": "100",
                             "smb2__read_length": "10"}),
            smb_msg(8, 4, True, 0xC0000011)]
        lines, _, _ = smb_convert(msgs)
        self.assertEqual(lines[1:], ["LockX 1 10 5 NT_STATUS_OK",
                                     "UnlockX 1 10 5 NT_STATUS_OK",
                                     "ReadX 1 100 10 0 NT_STATUS_OK"])

    def test_failed_create_and_find(self):
        msgs = create(1, "nothere", status=0xC0000034) + \
            create(2, "d", fid="d", options=0x1, attr=0x10) + [
                smb_msg(14, 3, **{"smb2__fid": "d",
                                  "smb2__find__pattern": "*"}),
                smb_msg(14, 3, True, **{
                    "smb2__filename": [".", "..", "x"],
                    "smb2__eof": ["0", "0", "5"],
                    "smb2__file_attribute": ["0x10", "0x10", "0x20"]}),
                smb_msg(14, 4, **{"smb2__fid": "d",
                                  "smb2__find__pattern": "*"}),
                smb_msg(14, 4, True, 0x80000006)]
        lines, out, cv = smb_convert(msgs)
        self.assertEqual(lines, [
            'NTCreateX "\\clients\\client1\\nothere" 0x40 0x1 1 0xC0000034',
            'NTCreateX "\\clients\\client1\\d" 0x1 0x1 1 NT_STATUS_OK',
            'FIND_FIRST "\\clients\\client1\\d\\*" 260 3 3 NT_STATUS_OK'])
        self.assertEqual(out.dropped["end of a directory listing"], 1)
        self.assertEqual(cv.ns.pre["d/x"].pre_size, 5)

    def test_rename_delete_setinfo(self):
        msgs = create(1, "a") + [
            smb_msg(17, 2, **{"smb2__fid": FID, "smb2__class": "0x01",
                              "smb2__file_info__infolevel": "0x0a",
                              "smb2__filename": "b"}),
            smb_msg(17, 2, True),
            smb_msg(17, 3, **{"smb2__fid": FID, "smb2__class": "0x01",
                              "smb2__file_info__infolevel": "0x04"}),
            smb_msg(17, 3, True),
            smb_msg(17, 4, **{"smb2__fid": FID, "smb2__class": "0x01",
                              "smb2__file_info__infolevel": "0x0d",
                              "smb2__disposition__delete_on_close": "1"}),
            smb_msg(17, 4, True)]
        lines, _, cv = smb_convert(msgs)
        self.assertEqual(lines[1:], [
            'Rename "\\clients\\client1\\a" "\\clients\\client1\\b" '
            'NT_STATUS_OK',
            "SET_FILE_INFORMATION 1 1004 NT_STATUS_OK",
            'Unlink "\\clients\\client1\\b" NT_STATUS_OK'])
        self.assertFalse(cv.ns.nodes["b"].exists)

    def test_other_share_dropped(self):
        msgs = create(1, "a")
        lines, out, _ = smb_convert(msgs, share="other")
        self.assertEqual(lines, [])
        self.assertEqual(out.dropped["another share or IPC$"], 1)


if __name__ == "__main__":
    sys.exit(run_module(__name__))
