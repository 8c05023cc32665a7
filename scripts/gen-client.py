#!/usr/bin/env python3
"""gen-client.py - generate dbench's default loadfile, loadfiles/client.txt.

The loadfile models one office-suite user working on a file server, the
kind of client the NetBench trace behind the original dbench recorded:
a dozen application folders under \\clients\\client1\\~dmtmp holding about
250 documents, and a long series of application sessions that open
documents, read them, save them through temporary files, search folders,
probe for files that do not exist and lock ranges now and then.

The generator keeps a model of the client's file tree (which files and
folders exist, how large every file is, which handles are open), so every
expected status, every FIND_FIRST count and every ReadX "returned" value is
what a replay in a fresh directory produces.  It only uses constructs on
which dbench 4.00 and this project agree (see COMPAT.md): files are
created with disposition 2 only when missing, opened with disposition 1
(options 0x40 or 0x0), rewritten with disposition 5; directories are
created with options 0x1 and disposition 2 and opened only when they
exist; renames never replace a file; no handle is 0 and only a few handles
are open at a time.

mmtests cuts two loadfiles out of the installed client.txt
(shellpack_src/src/dbench/dbench-install): client-warmup.txt, its first
600 lines, and client-tiny.txt, lines 601 to 4173, which it runs, time
limited, in the tree the warmup left.  So line 600 ends the setup of the
first application folders, with no handle open, and lines 601 to 4173
are sessions in those folders only that end with every handle closed and
the tree as it was at line 600 (what they created is deleted, what they
deleted or resized is written again): each cut replays on its own, the
tiny one again and again, without a mismatch.  The rest of the setup
follows line 4173.

Output is deterministic for a given --seed.  Python 3 standard library only.

    scripts/gen-client.py -o loadfiles/client.txt
    scripts/gen-client.py --stats -o /dev/null
"""

import argparse
import copy
import random
import re
import sys
from collections import Counter

ROOT = "\\clients\\client1"
DMTMP = ROOT + "\\~dmtmp"

OK = "NT_STATUS_OK"
NAME_NOT_FOUND = "NT_STATUS_OBJECT_NAME_NOT_FOUND"
PATH_NOT_FOUND = "NT_STATUS_OBJECT_PATH_NOT_FOUND"
NO_SUCH_FILE = "NT_STATUS_NO_SUCH_FILE"

OPT_DIR = 0x1
OPT_FILE = 0x40
OPT_ANY = 0x0
DISP_OPEN = 0x1
DISP_CREATE = 0x2
DISP_OVERWRITE_IF = 0x5

FIND_LEVEL = 260
FIND_MAX = 1366
MAX_IO = 65536          # dbench 4.00's buffer holds 64 KiB

# mmtests' cuts (see the top): client-warmup.txt is lines 1..600,
# client-tiny.txt lines 601..4173.
MMTESTS_WARMUP_END = 600
MMTESTS_TINY_END = 4173

# Share of all lines per op kind that the mix aims at (NetBench-like).
TARGET_MIX = {
    "ReadX": 27.0, "NTCreateX": 17.0, "QUERY_PATH_INFORMATION": 16.0,
    "Close": 13.0, "WriteX": 9.0, "FIND_FIRST": 6.0, "Unlink": 3.5,
    "QUERY_FS_INFORMATION": 3.0, "QUERY_FILE_INFORMATION": 3.0,
    "SET_FILE_INFORMATION": 1.4, "Flush": 1.2, "Rename": 0.7,
    "LockX": 0.06, "UnlockX": 0.06,
}


def parent_of(path):
    return path.rsplit("\\", 1)[0]


def base_of(path):
    return path.rsplit("\\", 1)[1]


def wild_match(pattern, name):
    """Case-insensitive match of name against a pattern using '*' and '?'."""
    p, n = pattern.upper(), name.upper()
    pi = ni = 0
    star_p, star_n = -1, 0
    while ni < len(n):
        if pi < len(p) and (p[pi] == "?" or p[pi] == n[ni]):
            pi += 1
            ni += 1
        elif pi < len(p) and p[pi] == "*":
            star_p, star_n = pi, ni
            pi += 1
        elif star_p >= 0:
            star_n += 1
            pi, ni = star_p + 1, star_n
        else:
            return False
    while pi < len(p) and p[pi] == "*":
        pi += 1
    return pi == len(p)


class Tree:
    """The client's simulated file tree, keyed case-insensitively."""

    def __init__(self):
        self.dirs = {}          # key -> real path
        self.files = {}         # key -> [real path, size]
        self.children = {}      # dir key -> {name key: real name}
        self.peak_files = 0

    @staticmethod
    def key(path):
        return path.upper()

    def is_dir(self, path):
        return self.key(path) in self.dirs

    def is_file(self, path):
        return self.key(path) in self.files

    def exists(self, path):
        return self.is_dir(path) or self.is_file(path)

    def size(self, path):
        return self.files[self.key(path)][1]

    def set_size(self, path, size):
        self.files[self.key(path)][1] = size

    def _link(self, path):
        par = self.key(parent_of(path))
        self.children.setdefault(par, {})[self.key(base_of(path))] = \
            base_of(path)

    def _unlink(self, path):
        del self.children[self.key(parent_of(path))][self.key(base_of(path))]

    def add_dir(self, path):
        self.dirs[self.key(path)] = path
        self.children.setdefault(self.key(path), {})
        if "\\" in path[1:]:
            self._link(path)

    def add_file(self, path, size=0):
        self.files[self.key(path)] = [path, size]
        self._link(path)
        self.peak_files = max(self.peak_files, len(self.files))

    def remove_file(self, path):
        del self.files[self.key(path)]
        self._unlink(path)

    def rename_file(self, old, new):
        size = self.size(old)
        self.remove_file(old)
        self.add_file(new, size)

    def remove_tree(self, path):
        k = self.key(path)
        pre = k + "\\"
        for f in [f for f in self.files if f == k or f.startswith(pre)]:
            del self.files[f]
        for d in [d for d in self.dirs if d == k or d.startswith(pre)]:
            del self.dirs[d]
            self.children.pop(d, None)
        par = self.key(parent_of(path))
        if par in self.children:
            self.children[par].pop(self.key(base_of(path)), None)

    def listing(self, directory):
        return list(self.children.get(self.key(directory), {}).values())

    def missing_status(self, path):
        """Status for a path that does not exist."""
        return NAME_NOT_FOUND if self.is_dir(parent_of(path)) \
            else PATH_NOT_FOUND


class Emitter:
    """Writes loadfile lines, applying each operation to the model."""

    def __init__(self):
        self.tree = Tree()
        self.lines = []
        self.ops = Counter()
        self.failures = Counter()
        self.bytes_read = 0
        self.bytes_written = 0
        self.handles = {}       # handle -> path
        self.next_handle = 10001
        self.max_open = 0

    def _emit(self, op, text, status):
        self.lines.append("%s %s %s" % (op, text, status))
        self.ops[op] += 1
        if status != OK:
            self.failures[status] += 1

    # -- namespace operations ------------------------------------------
    def deltree(self, path):
        self.tree.remove_tree(path)
        self._emit("Deltree", '"%s"' % path, OK)

    def mkdir_shared(self, path):
        """Mkdir of a directory above the client's own (shared by all)."""
        self.tree.add_dir(path)
        self._emit("Mkdir", '"%s"' % path, OK)

    def qpathinfo(self, path, level=1004):
        t = self.tree
        status = OK if t.exists(path) else t.missing_status(path)
        self._emit("QUERY_PATH_INFORMATION", '"%s" %d' % (path, level),
                   status)
        return status == OK

    def qfsinfo(self, level=259):
        self._emit("QUERY_FS_INFORMATION", "%d" % level, OK)

    def find_first(self, directory, pattern):
        t = self.tree
        if not t.is_dir(directory):
            count, status = 0, PATH_NOT_FOUND
        else:
            names = t.listing(directory) + [".", ".."]
            count = min(FIND_MAX,
                        sum(1 for n in names if wild_match(pattern, n)))
            status = OK if count else NO_SUCH_FILE
        self._emit("FIND_FIRST", '"%s\\%s" %d %d %d' %
                   (directory, pattern, FIND_LEVEL, FIND_MAX, count), status)
        return count

    def unlink(self, path):
        t = self.tree
        assert not t.is_dir(path)
        # dbench 4.00 checks unlink: only expect what both agree on
        if t.is_file(path):
            t.remove_file(path)
            status = OK
        else:
            status = t.missing_status(path)
        self._emit("Unlink", '"%s" 0x6' % path, status)

    def rename(self, old, new):
        t = self.tree
        assert t.is_file(old) and not t.exists(new), (old, new)
        assert t.is_dir(parent_of(new))
        t.rename_file(old, new)
        self._emit("Rename", '"%s" "%s"' % (old, new), OK)

    # -- handles -------------------------------------------------------
    def _new_handle(self):
        while True:
            h = self.next_handle
            self.next_handle += 1
            if self.next_handle > 65000:
                self.next_handle = 10001
            if h not in self.handles:
                return h

    def _open(self, path, options, disposition):
        h = self._new_handle()
        self.handles[h] = path
        self.max_open = max(self.max_open, len(self.handles))
        self._emit("NTCreateX", '"%s" 0x%x 0x%x %d' %
                   (path, options, disposition, h), OK)
        return h

    def mkdir_open(self, path):
        """Create a missing directory with NTCreateX (options 0x1, disp 2)."""
        t = self.tree
        assert not t.exists(path) and t.is_dir(parent_of(path))
        t.add_dir(path)
        return self._open(path, OPT_DIR, DISP_CREATE)

    def open_dir(self, path):
        assert self.tree.is_dir(path)
        return self._open(path, OPT_DIR, DISP_OPEN)

    def open_file(self, path, options=OPT_FILE):
        """Open an existing file (disposition 1)."""
        assert self.tree.is_file(path), path
        return self._open(path, options, DISP_OPEN)

    def open_missing(self, path):
        """Try to open a file that does not exist: an expected failure."""
        t = self.tree
        assert not t.exists(path)
        h = self._new_handle()
        self._emit("NTCreateX", '"%s" 0x%x 0x%x %d' %
                   (path, OPT_FILE, DISP_OPEN, h), t.missing_status(path))

    def create_file(self, path):
        """Create a file that must not exist yet (disposition 2)."""
        t = self.tree
        assert not t.exists(path) and t.is_dir(parent_of(path)), path
        t.add_file(path, 0)
        return self._open(path, OPT_FILE, DISP_CREATE)

    def overwrite_file(self, path):
        """Create or truncate (disposition 5)."""
        t = self.tree
        assert not t.is_dir(path) and t.is_dir(parent_of(path))
        if t.is_file(path):
            t.set_size(path, 0)
        else:
            t.add_file(path, 0)
        return self._open(path, OPT_FILE, DISP_OVERWRITE_IF)

    def close(self, h):
        del self.handles[h]
        self._emit("Close", "%d" % h, OK)

    def qfileinfo(self, h, level):
        self._emit("QUERY_FILE_INFORMATION", "%d %d" % (h, level), OK)

    def sfileinfo(self, h, level=1004):
        self._emit("SET_FILE_INFORMATION", "%d %d" % (h, level), OK)

    def flush(self, h):
        self._emit("Flush", "%d" % h, OK)

    def lock(self, h, offset, size):
        self._emit("LockX", "%d %d %d" % (h, offset, size), OK)

    def unlock(self, h, offset, size):
        self._emit("UnlockX", "%d %d %d" % (h, offset, size), OK)

    def size_of(self, h):
        return self.tree.size(self.handles[h])

    def read(self, h, offset, size):
        assert 0 < size <= MAX_IO
        fsize = self.size_of(h)
        assert offset < fsize, (offset, fsize)
        got = min(size, fsize - offset)
        self.bytes_read += size
        self._emit("ReadX", "%d %d %d %d" % (h, offset, size, got), OK)
        return got

    def write(self, h, offset, size):
        assert 0 < size <= MAX_IO
        path = self.handles[h]
        self.tree.set_size(path, max(self.tree.size(path), offset + size))
        self.bytes_written += size
        self._emit("WriteX", "%d %d %d %d" % (h, offset, size, size), OK)


# ----------------------------------------------------------------------
# The office: folders, their initial documents, and how each application
# names its temporary files.

class App:
    """One application folder and the habits of the program using it."""

    def __init__(self, folder, docs, **kw):
        self.folder = folder
        self.path = DMTMP + "\\" + folder
        self.docs = docs                        # [(name, size)]
        self.doc_exts = kw.get("doc_exts")      # extensions users open
        self.min_size = kw.get("min_size", 4096)
        self.max_size = kw.get("max_size", 4 << 20)
        self.chunks = kw.get("chunks", [(4096, 1)])  # (read size, weight)
        # how documents are saved: "word" (temp file, old version renamed
        # away, temp renamed in), "excel"/"ppt" (the same with the app's
        # own temp names), "replace" (temp file, unlink, rename), "bak"
        # (old version becomes .BAK, new file written), "inplace"
        # (overwrite-if), "db" (pages rewritten in place), "none"
        self.save = kw.get("save", "word")
        self.tmp = kw.get("tmp")
        self.owner = kw.get("owner", False)     # Office "~$" owner file
        self.scratch = kw.get("scratch", None)  # scratch file name
        self.locks = kw.get("locks", False)
        self.probes = kw.get("probes", [])      # files that never exist
        self.find_ok = kw.get("find_ok", [])    # search patterns
        self.find_miss = kw.get("find_miss", [])
        self.weight = kw.get("weight", 1.0)
        self.counter = 0


def numbered(fmt, count, lo, hi, rng, align=1):
    out = []
    for i in range(1, count + 1):
        size = int(lo * (hi / lo) ** rng.random())
        out.append((fmt % i, max(align, size - size % align)))
    return out


def named(names, lo, hi, rng, align=1):
    out = []
    for n in names:
        size = int(lo * (hi / lo) ** rng.random())
        out.append((n, max(align, size - size % align)))
    return out


def make_apps(rng):
    k = 1024
    apps = [
        App("WORD",
            numbered("CHAP%02d.DOC", 18, 20 * k, 300 * k, rng, 512) +
            named(["TIPS.DOC", "HANDOUT.DOC", "MEMO.DOC", "AGENDA.DOC",
                   "MINUTES.DOC", "PROPOSAL.DOC", "RESUME.DOC",
                   "NEWSLTR.DOC", "INVOICE.DOC", "CONTRACT.DOC",
                   "REPORT.DOC", "SUMMARY.DOC"], 12 * k, 200 * k, rng, 512) +
            named(["NORMAL.DOT", "LETTER.DOT", "FAX.DOT", "MEMO.DOT"],
                  20 * k, 60 * k, rng, 512),
            doc_exts=("DOC",), chunks=[(512, 1), (4096, 5), (8192, 2),
                                       (16384, 3), (32768, 1)],
            save="word", tmp="~WRD%04d.TMP", owner=True,
            scratch="~WRF%04d.TMP",
            probes=["AUTOEXEC.DOT", "~$NORMAL.DOT", "WINWORD.INI",
                    "CUSTOM.DIC", "MACROS.DOT"],
            find_ok=["*.DOC", "*.DOT", "CHAP*.DOC"],
            find_miss=["*.ASD", "*.WBK", "~WRL*.TMP"],
            min_size=10 * k, max_size=600 * k, weight=3.0),
        App("EXCEL",
            numbered("BOOK%d.XLS", 10, 16 * k, 400 * k, rng, 512) +
            named(["BUDGET.XLS", "SALES.XLS", "FORECAST.XLS", "PAYROLL.XLS",
                   "EXPENSES.XLS", "INVENTRY.XLS", "LOAN.XLS", "GRADES.XLS",
                   "TIMESHT.XLS", "Q1.XLS", "Q2.XLS", "Q3.XLS", "Q4.XLS",
                   "REGION.XLS", "STOCKS.XLS", "SURVEY.XLS", "CHART1.XLS",
                   "PERSONAL.XLS"], 16 * k, 500 * k, rng, 512),
            doc_exts=("XLS",), chunks=[(512, 1), (4096, 4), (8192, 2),
                                       (16384, 2), (65536, 1)],
            save="excel", tmp="%04X0000", owner=True,
            probes=["EXCEL5.XLB", "BOOK.XLT", "SHEET.XLT", "~$BOOK.XLS"],
            find_ok=["*.XLS"], find_miss=["*.XLT", "*.XLA", "*.XAR"],
            min_size=8 * k, max_size=900 * k, weight=2.5),
        App("PWRPNT",
            named(["SALES.PPT", "PRODUCT.PPT", "TRAINING.PPT", "NEWPCB.PPT",
                   "NEWTIPS.PPT", "KICKOFF.PPT", "REVIEW.PPT", "STRATEGY.PPT",
                   "MARKET.PPT", "TEAM.PPT", "STATUS.PPT", "QUARTER.PPT",
                   "SEMINAR.PPT", "LAUNCH.PPT", "ROADMAP.PPT", "BRIEF.PPT"],
                  100 * k, 1800 * k, rng, 512) +
            named(["BLUEPRNT.POT", "CONTEMP.POT", "DADSTIE.POT", "MARBLE.POT",
                   "NOTEBOOK.POT", "SOFTTONE.POT"], 40 * k, 160 * k, rng, 512),
            doc_exts=("PPT",), chunks=[(512, 1), (4096, 4), (16384, 1),
                                       (32768, 2), (65536, 2)],
            save="ppt", tmp="PPT%04X.TMP", owner=True,
            probes=["PP7TRANS.DLL", "~$SALES.PPT", "POWERPNT.INI"],
            find_ok=["*.PPT", "*.POT"], find_miss=["*.PPS", "*.PPA"],
            min_size=60 * k, max_size=2400 * k, weight=1.5),
        App("COREL",
            named(["GRAPH1.CDR", "GRAPH2.CDR", "GRAPHIC1.CDR",
                   "GRAPHIC2.CDR", "TRAIN.CDR", "LOGO.CDR", "MAP.CDR",
                   "POSTER.CDR", "FLYER.CDR", "BANNER.CDR", "SIGN1.CPT",
                   "SIGN2.CPT", "ROSE.CPT", "TEAPOT2.CPT", "MAILBOX2.CPT",
                   "CORELDRW.CDT", "CDRBARS.CFG", "ARTISTIC.ACL",
                   "COREL.INI", "USER.PAL", "FONTS.INI", "CLIPART.CDR",
                   "CHART.CDR", "BADGE.CDR"], 30 * k, 1200 * k, rng),
            doc_exts=("CDR", "CPT"), chunks=[(2048, 3), (4096, 3),
                                             (16384, 2), (65536, 2)],
            save="bak", scratch="@@@CDRW.TMP",
            probes=["CORELDRW.CDT.BAK", "USER.CFG", "PRNFLT.INI"],
            find_ok=["*.CDR", "*.CPT"], find_miss=["*.JNK", "*.SYM"],
            min_size=20 * k, max_size=1600 * k, weight=1.0),
        App("WORDPRO",
            named(["BENCHS.LWP", "NEWS1_1.LWP", "RESULTS.LWP", "LETTER.LWP",
                   "REPORT.LWP", "PROPOSAL.LWP", "BROCHURE.LWP",
                   "MANUAL.LWP", "THESIS.LWP", "PRESS.LWP", "FAXCOVER.LWP",
                   "CATALOG.LWP", "DEFAULT.STY", "LETTER.STY", "MEMO.STY",
                   "REPORT.STY"], 20 * k, 500 * k, rng),
            doc_exts=("LWP",), chunks=[(1024, 2), (4096, 5), (8192, 2),
                                       (65536, 1)],
            save="replace", tmp="LWPSAV%d.TMP",
            probes=["WORDPRO.INI", "SMARTM.LWP", "LWPUSER.DIC"],
            find_ok=["*.LWP", "*.STY"], find_miss=["*.BAK", "~*.TMP"],
            min_size=10 * k, max_size=800 * k, weight=1.2),
        App("PM",
            named(["NEWSLTR.PM5", "BROCHURE.PM5", "CATALOG.PM5", "FLYER.PM5",
                   "MENU.PM5", "POSTER.PM5", "ANNUAL.PM5", "T1.XLS",
                   "EVENTS.DOC", "LOGO.TIF", "PHOTO1.TIF", "PHOTO2.TIF",
                   "MAP.TIF", "CHART.TIF", "TEMPLATE.PT5"],
                  40 * k, 1500 * k, rng),
            doc_exts=("PM5",), chunks=[(2048, 2), (4096, 3), (16384, 2),
                                       (65536, 2)],
            save="inplace", scratch="PM5%04X.TMP",
            probes=["PM5.CNF", "PMRECOV.PM5", "KERNING.PM5"],
            find_ok=["*.PM5", "*.TIF"], find_miss=["*.PM6", "*.EPS"],
            min_size=30 * k, max_size=1800 * k, weight=0.8),
        App("PARADOX",
            [(t + e, s) for t in ("CUSTOMER", "ORDERS", "PARTS", "VENDORS",
                                  "EMPLOYEE", "LINEITEM", "STOCK", "SALES")
             for e, s in ((".DB", rng.randint(8, 160) * 2048),
                          (".PX", rng.randint(2, 24) * 2048),
                          (".MB", rng.randint(2, 40) * 2048),
                          (".VAL", rng.randint(1, 4) * 512))] +
            named(["PDOXUSRS.NET", "ANSWER.DB", "QUERY1.QBE", "REPORT1.RSL"],
                  2 * k, 40 * k, rng, 512),
            doc_exts=("DB",), chunks=[(2048, 5), (4096, 3), (16384, 2)],
            save="db", locks=True, scratch="__QB%d.MB",
            probes=["PDOXUSRS.LCK", "PARADOX.LCK", "CUSTOMER.X02"],
            find_ok=["*.DB", "CUSTOMER.*", "ORDERS.*"],
            find_miss=["*.Y02", "*.LCK"],
            min_size=4 * k, max_size=640 * k, weight=1.2),
        App("ACCESS",
            named(["NWIND.MDB", "ORDERS.MDB", "CONTACTS.MDB", "ASSETS.MDB",
                   "SYSTEM.MDW", "INVENTRY.MDB", "EVENTS.MDB", "MUSIC.MDB",
                   "RECIPES.MDB", "DONATION.MDB"], 200 * k, 2400 * k, rng,
                  2048),
            doc_exts=("MDB",), chunks=[(2048, 6), (4096, 3), (32768, 2)],
            save="db", locks=True,
            probes=["SYSTEM.LDB", "UTILITY.MDA", "WZLIB.MDA"],
            find_ok=["*.MDB"], find_miss=["*.LDB", "*.BAK"],
            min_size=100 * k, max_size=3 << 20, weight=1.0),
        App("SEED",
            named(["SEED%02d.DAT" % i for i in range(1, 11)] +
                  ["README.TXT", "LICENSE.TXT", "SETUP.INF", "SPLASH.BMP",
                   "BACKGRND.BMP", "CHIMES.WAV", "LOGO.BMP", "INDEX.DAT",
                   "SAMPLE.TXT", "CONFIG.DAT"], 8 * k, 1200 * k, rng),
            doc_exts=("DAT", "BMP", "TXT", "WAV"),
            chunks=[(4096, 2), (16384, 2), (65536, 3)],
            save="none", probes=["SEED.LOG", "SEED00.DAT"],
            find_ok=["SEED*.DAT", "*.BMP"], find_miss=["*.OLD"],
            min_size=8 * k, max_size=1200 * k, weight=0.6),
        App("QPRO",
            named(["BUDGET.WB3", "SALES.WB3", "LEDGER.WB3", "CASHFLOW.WB3",
                   "TAXES.WB3", "LOANS.WB3", "RATES.WB3", "PLAN.WB3",
                   "STAFF.WB3", "QUOTES.WB3", "DEFAULT.WB3", "QPW.INI",
                   "CHART1.WB3", "CHART2.WB3"], 16 * k, 450 * k, rng),
            doc_exts=("WB3",), chunks=[(1024, 2), (4096, 5), (16384, 2),
                                       (65536, 1)],
            save="replace", tmp="QPW%04X.TMP",
            probes=["QPW.CNF", "QPWRECOV.WB3"],
            find_ok=["*.WB3"], find_miss=["*.WB2", "*.BAK"],
            min_size=8 * k, max_size=700 * k, weight=0.8),
        App("FREELANC",
            named(["KICKOFF.PRZ", "SALES.PRZ", "PITCH.PRZ", "AWARDS.PRZ",
                   "BUDGET.PRZ", "TRAINING.PRZ", "ORGCHART.PRZ",
                   "TIMELINE.PRZ", "SMILES.MAS", "BLUE.MAS", "CLIPART.SYM",
                   "FLW.INI"], 60 * k, 1400 * k, rng),
            doc_exts=("PRZ",), chunks=[(4096, 4), (16384, 2), (65536, 2)],
            save="ppt", tmp="FLW%04X.TMP",
            probes=["FLWRECOV.PRZ", "FLW.DIC"],
            find_ok=["*.PRZ", "*.MAS"], find_miss=["*.PRE"],
            min_size=40 * k, max_size=1800 * k, weight=0.6),
        App("APPROACH",
            named(["CONTACTS.APR", "CONTACTS.DBF", "ORDERS.APR",
                   "ORDERS.DBF", "INVOICES.APR", "INVOICES.DBF",
                   "MEMBERS.APR", "MEMBERS.DBF", "ITEMS.DBF", "ITEMS.MDX",
                   "CONTACTS.MDX", "ORDERS.MDX"], 8 * k, 700 * k, rng, 512),
            doc_exts=("DBF",), chunks=[(512, 1), (2048, 3), (4096, 4),
                                       (16384, 2)],
            save="db", locks=True,
            probes=["APPROACH.INI", "CONTACTS.ADX"],
            find_ok=["*.APR", "*.DBF"], find_miss=["*.VEW"],
            min_size=4 * k, max_size=900 * k, weight=0.6),
    ]
    return apps


def pick(rng, weighted):
    """Choose from [(value, weight), ...]."""
    total = sum(w for _, w in weighted)
    x = rng.random() * total
    for v, w in weighted:
        x -= w
        if x < 0:
            return v
    return weighted[-1][0]


class Office:
    """Drives the emitter through setup, application sessions and cleanup."""

    def __init__(self, seed, target_lines):
        self.rng = random.Random(seed)
        self.e = Emitter()
        self.apps = make_apps(self.rng)
        self.target = target_lines

    # -- helpers ---------------------------------------------------------
    def temp_name(self, app, fmt):
        """A temporary file name in app's folder that does not exist yet."""
        while True:
            app.counter = (app.counter + self.rng.randint(1, 97)) % 0x10000
            if "%d" in fmt:
                n = app.counter % 10
            elif "%04d" in fmt:
                n = app.counter % 10000
            else:
                n = app.counter         # %04X
            path = app.path + "\\" + fmt % n
            if not self.e.tree.exists(path):
                return path

    def documents(self, app):
        t = self.e.tree
        return sorted(n for n in t.listing(app.path)
                      if "." in n and n.rsplit(".", 1)[1] in app.doc_exts
                      and t.is_file(app.path + "\\" + n))

    def new_size(self, app, old):
        size = int(old * self.rng.uniform(0.9, 1.12))
        return max(app.min_size, min(app.max_size, size))

    def write_file(self, h, size, chunks, preallocate=False):
        """Write a whole file of size bytes from offset 0."""
        e = self.e
        if preallocate and size > 1:
            e.write(h, size - 1, 1)
        off = 0
        while off < size:
            n = min(pick(self.rng, chunks), size - off)
            e.write(h, off, n)
            off += n

    def read_run(self, app, h):
        """Read a document the way app does: a sequential run from the
        start (to the end or for up to 160 KiB), or the header and some
        scattered blocks."""
        e, rng = self.e, self.rng
        size = e.size_of(h)
        style = rng.random()
        if style < 0.45:
            # sequential from the start, often to the end
            off = 0
            stop = size if rng.random() < 0.3 else \
                rng.randint(1, min(size, 160 * 1024))
            while off < stop:
                n = pick(rng, app.chunks)
                got = e.read(h, off, n)
                off += got
        else:
            # header, then scattered block reads
            e.read(h, 0, pick(rng, [(512, 1), (4096, 4)]))
            for _ in range(rng.randint(1, 6)):
                n = pick(rng, app.chunks)
                blocks = max(1, size // n)
                off = rng.randrange(blocks) * n
                if off >= size:
                    off = 0
                e.read(h, off, n)

    # -- session building blocks -------------------------------------------
    def probe_missing(self, app, count):
        e, rng = self.e, self.rng
        for _ in range(count):
            path = app.path + "\\" + rng.choice(app.probes)
            if e.tree.exists(path):
                continue
            r = rng.random()
            if r < 0.3:
                e.qpathinfo(path, 1004)
                e.open_missing(path)
            elif r < 0.85:
                e.open_missing(path)
            else:
                e.qpathinfo(path, rng.choice((1004, 1035)))

    def probe_missing_dir(self, app):
        """Look for a folder that does not exist (startup, templates)."""
        e, rng = self.e, self.rng
        sub = rng.choice(("STARTUP", "TEMPLATE", "BACKUP", "XLSTART",
                          "AUTOSAVE"))
        d = app.path + "\\" + sub
        if e.tree.exists(d):
            return
        r = rng.random()
        if r < 0.45:
            e.qpathinfo(d + "\\" + rng.choice(app.probes), 1004)
        elif r < 0.8:
            e.find_first(d, "*")
        else:
            e.open_missing(d + "\\" + rng.choice(app.probes))

    def browse(self, app, thorough=False):
        """A file-open dialog: list the folder, look at some entries."""
        e, rng = self.e, self.rng
        if rng.random() < 0.5:
            e.qfsinfo(259)
        dh = e.open_dir(app.path) if rng.random() < 0.3 else None
        e.find_first(app.path, "*")
        if app.find_ok and rng.random() < 0.7:
            e.find_first(app.path, rng.choice(app.find_ok))
        if app.find_miss:
            e.find_first(app.path, rng.choice(app.find_miss))
        names = [n for n in e.tree.listing(app.path)
                 if e.tree.is_file(app.path + "\\" + n)]
        for n in rng.sample(sorted(names),
                            min(len(names), rng.randint(1, 5 if thorough
                                                        else 3))):
            path = app.path + "\\" + n
            e.qpathinfo(path, 1004)
            if rng.random() < 0.45:
                # the shell reads the file's header for its icon
                h = e.open_file(path, OPT_ANY)
                e.read(h, 0, pick(rng, [(512, 1), (2048, 1), (4096, 2)]))
                e.close(h)
        if dh is not None:
            e.close(dh)

    def owner_path(self, doc):
        name = base_of(doc)
        stem = name.split(".")[0]
        owner = "~$" + (name[2:] if len(stem) > 6 else name)
        return parent_of(doc) + "\\" + owner

    def open_document(self, app, doc):
        """Open doc; returns (handle, owner handle or None)."""
        e, rng = self.e, self.rng
        e.qpathinfo(doc, 1004)
        if rng.random() < 0.35:
            e.qpathinfo(doc, 1035)
        owner_h = None
        if app.owner:
            owner = self.owner_path(doc)
            if not e.tree.exists(owner):
                e.qpathinfo(owner, 1004)
                if rng.random() < 0.7:
                    e.open_missing(owner)
                owner_h = e.create_file(owner)
                e.write(owner_h, 0, 162)
        if rng.random() < 0.7:
            # open for attributes first, as Office does
            h = e.open_file(doc, OPT_ANY)
            e.close(h)
        h = e.open_file(doc)
        if rng.random() < 0.5:
            e.qfileinfo(h, rng.choice((1004, 1005, 258)))
        self.read_run(app, h)
        return h, owner_h

    def close_document(self, app, doc, h, owner_h):
        e = self.e
        if self.rng.random() < 0.05:
            e.sfileinfo(h, 1004)
        e.close(h)
        if owner_h is not None:
            owner = e.handles[owner_h]
            e.close(owner_h)
            e.qpathinfo(owner, 1004)
            e.unlink(owner)

    def scratch_work(self, app, fmt):
        """A scratch file: written, read back, deleted."""
        e, rng = self.e, self.rng
        path = self.temp_name(app, fmt)
        if rng.random() < 0.6:
            e.qpathinfo(path, 1004)
        h = e.create_file(path)
        if rng.random() < 0.3:
            e.qfileinfo(h, 258)
        size = rng.choice((4096, 8192, 16384, 24576, 40960, 65536,
                           98304, 131072, 196608))
        self.write_file(h, size, [(8192, 1), (16384, 1), (32768, 1),
                                  (65536, 2)])
        if rng.random() < 0.5:
            e.flush(h)
        if rng.random() < 0.6:
            e.read(h, 0, min(size, pick(rng, [(4096, 1), (16384, 1),
                                              (65536, 1)])))
        if rng.random() < 0.4:
            e.sfileinfo(h, 1004)
        e.close(h)
        if rng.random() < 0.5:
            e.qpathinfo(path, 1004)
        e.unlink(path)

    def write_document(self, app, h, size):
        """Write a saved document: big chunks, then the header again."""
        e, rng = self.e, self.rng
        e.qfileinfo(h, 258)
        self.write_file(h, size, [(32768, 1), (65536, 4)])
        if rng.random() < 0.5:
            e.write(h, 0, 512)         # header rewritten last
        if rng.random() < 0.8:
            e.flush(h)
        e.sfileinfo(h, 1004)

    def save_document(self, app, doc):
        """Save doc the way app does (doc is closed at this point)."""
        e, rng = self.e, self.rng
        size = self.new_size(app, e.tree.size(doc))
        e.qfsinfo(259)
        if app.save in ("word", "excel", "ppt", "replace"):
            if rng.random() < 0.5:
                e.find_first(app.path, re.sub("%0?4?[dX]", "*", app.tmp))
            tmp = self.temp_name(app, app.tmp)
            if rng.random() < 0.7:
                e.qpathinfo(tmp, 1004)
            h = e.create_file(tmp)
            self.write_document(app, h, size)
            e.close(h)
            e.qpathinfo(doc, 1004)
            if app.save == "replace":
                e.unlink(doc)
                e.rename(tmp, doc)
            else:
                # the old version is renamed away, the new one takes its
                # name, then the old one is deleted
                bak = self.temp_name(app, "~WRL%04d.TMP"
                                     if app.save == "word" else app.tmp)
                if rng.random() < 0.6:
                    e.qpathinfo(bak, 1004)
                e.rename(doc, bak)
                e.rename(tmp, doc)
                e.qpathinfo(bak, rng.choice((1004, 1035)))
                e.unlink(bak)
        elif app.save == "bak":
            bak = doc.rsplit(".", 1)[0] + ".BAK"
            if e.tree.exists(bak):
                e.qpathinfo(bak, 1004)
                e.unlink(bak)
            else:
                e.qpathinfo(bak, 1004)
            e.rename(doc, bak)
            h = e.create_file(doc)
            self.write_document(app, h, size)
            e.close(h)
        elif app.save == "inplace":
            h = e.overwrite_file(doc)
            self.write_document(app, h, size)
            e.close(h)
        e.qpathinfo(doc, 1004)

    def db_session(self, app, doc):
        """Databases: a table stays open, records are locked and updated."""
        e, rng = self.e, self.rng
        h = e.open_file(doc)
        e.qfileinfo(h, rng.choice((1004, 258)))
        size = e.size_of(h)
        page = 2048 if app.folder != "APPROACH" else 512
        for _ in range(rng.randint(3, 12)):
            n = pick(rng, app.chunks)
            off = rng.randrange(max(1, size // n)) * n
            e.read(h, min(off, size - 1), n)
        if app.locks and rng.random() < 0.2:
            # record lock range, in the region Jet and Paradox use
            base = 0x7FFFFF00 + rng.randrange(0, 0xF0)
            e.lock(h, base, 1)
            pg = rng.randrange(max(1, size // page)) * page
            e.read(h, pg, page)
            e.write(h, pg, page)
            e.unlock(h, base, 1)
        if rng.random() < 0.5:
            for _ in range(rng.randint(1, 6)):
                pg = rng.randrange(max(1, size // page)) * page
                e.write(h, pg, page * rng.choice((1, 2, 4, 8)))
            if rng.random() < 0.7:
                e.flush(h)
            e.sfileinfo(h, 1004)
        return h

    # -- sessions ----------------------------------------------------------
    def open_support(self, app, hold=False):
        """Open a file that is not the document (template, style, settings)
        and look at its header; close it again unless hold is set."""
        e, rng = self.e, self.rng
        docs = set(self.documents(app))
        names = sorted(n for n in e.tree.listing(app.path) if n not in docs
                       and e.tree.is_file(app.path + "\\" + n))
        if not names:
            names = sorted(docs)
        path = app.path + "\\" + rng.choice(names)
        if rng.random() < 0.5:
            e.qpathinfo(path, 1004)
        h = e.open_file(path, OPT_ANY if rng.random() < 0.3 else OPT_FILE)
        if rng.random() < 0.25:
            e.qfileinfo(h, 1005)
        size = e.size_of(h)
        e.read(h, 0, pick(rng, [(512, 2), (1024, 1), (4096, 3)]))
        for _ in range(rng.randint(0, 2)):
            n = pick(rng, [(2048, 1), (4096, 3), (8192, 1)])
            e.read(h, rng.randrange(max(1, size // n)) * n % size, n)
        if hold:
            return h
        e.close(h)
        return None

    def app_session(self, app):
        e, rng = self.e, self.rng
        if rng.random() < 0.85:
            e.qfsinfo(259)
        self.probe_missing(app, rng.randint(1, 3))
        if rng.random() < 0.1:
            self.probe_missing_dir(app)
        if rng.random() < 0.8:
            self.browse(app)
        for _ in range(rng.randint(0, 2)):
            self.open_support(app)
        docs = self.documents(app)

        if app.save == "db":
            doc = app.path + "\\" + rng.choice(docs)
            ldb = None
            if app.folder == "ACCESS":
                ldb = doc.rsplit(".", 1)[0] + ".LDB"
                e.qpathinfo(ldb, 1004)
                lh = e.create_file(ldb)
                e.write(lh, 0, 64)
            h = self.db_session(app, doc)
            if rng.random() < 0.3:
                self.scratch_work(app, app.scratch or "~DB%04d.TMP")
            e.close(h)
            if ldb:
                e.close(lh)
                e.unlink(ldb)
            return

        held = self.open_support(app, hold=True) \
            if rng.random() < 0.4 else None
        scratch_h = None
        if app.scratch and "%" not in app.scratch and \
                rng.random() < 0.8:
            # a scratch file held open for the whole session
            sp = app.path + "\\" + app.scratch
            if not e.tree.exists(sp):
                e.qpathinfo(sp, 1004)
                scratch_h = e.create_file(sp)
                e.write(scratch_h, 0, 4096)
        ndocs = pick(rng, [(1, 5), (2, 3), (3, 1)])
        for doc in rng.sample(docs, min(ndocs, len(docs))):
            self.document_work(app, app.path + "\\" + doc, scratch_h)
        if scratch_h is not None:
            sp = e.handles[scratch_h]
            e.close(scratch_h)
            e.unlink(sp)
        if held is not None:
            e.close(held)

    def document_work(self, app, doc, scratch_h):
        e, rng = self.e, self.rng
        h, owner_h = self.open_document(app, doc)
        if scratch_h is not None:
            for _ in range(rng.randint(1, 4)):
                n = rng.choice((4096, 16384, 32768, 65536))
                off = rng.randrange(0, 8) * 4096
                e.write(scratch_h, off, n)
                e.read(scratch_h, off, n)
        if rng.random() < 0.4:
            e.find_first(app.path, rng.choice(app.find_ok))
        fmt = app.scratch if app.scratch and "%" in app.scratch else app.tmp
        if fmt:
            for _ in range(pick(rng, [(0, 5), (1, 4), (2, 2)])):
                self.scratch_work(app, fmt)
        if rng.random() < 0.2:
            self.read_run(app, h)
        if app.save != "none" and rng.random() < 0.22:
            e.close(h)
            self.save_document(app, doc)
            h = e.open_file(doc)
            e.read(h, 0, rng.choice((512, 4096)))
        self.close_document(app, doc, h, owner_h)

    def explorer_session(self):
        """The shell: browse a few folders, look at files."""
        e, rng = self.e, self.rng
        e.qfsinfo(259)
        e.find_first(DMTMP, "*")
        for app in rng.sample(self.apps, rng.randint(1, 3)):
            self.browse(app, thorough=True)

    def copy_session(self):
        """Copy a SEED file into some folder, then delete the copy."""
        e, rng = self.e, self.rng
        seed = self.apps_by_name["SEED"]
        src = seed.path + "\\" + rng.choice(self.documents(seed))
        dst_app = rng.choice(self.apps)
        dst = dst_app.path + "\\COPY%04d.TMP" % rng.randrange(10000)
        if e.tree.exists(dst):
            return
        e.qfsinfo(259)
        e.qpathinfo(src, 1004)
        e.qpathinfo(dst, 1004)
        hs = e.open_file(src)
        e.qfileinfo(hs, 258)
        hd = e.create_file(dst)
        size = e.size_of(hs)
        e.write(hd, size - 1, 1)
        e.qfileinfo(hd, 258)
        off = 0
        while off < size:
            got = e.read(hs, off, 65536)
            e.write(hd, off, got)
            off += got
        e.sfileinfo(hd, 1004)
        e.close(hd)
        e.close(hs)
        e.qpathinfo(dst, 1004)
        e.unlink(dst)

    # -- mmtests' cuts ------------------------------------------------------
    def snapshot(self):
        """Everything a trial may change (the model, the lines, the
        random state, the apps' counters), to roll it back."""
        return copy.deepcopy(self.__dict__)

    def rollback(self, snap):
        """Back to snap.  The emitter, the model and the apps are new
        objects then: callers must not hold on to the old ones."""
        self.__dict__.update(snap)

    def attempt(self, fn, limit):
        """Run fn; undo it and return False when the lines pass limit."""
        snap = self.snapshot()
        fn()
        if len(self.e.lines) <= limit:
            return True
        self.rollback(snap)
        return False

    def pad_to(self, limit):
        """Harmless lines (an fs query, a look at ~dmtmp) up to limit."""
        e = self.e
        while len(e.lines) < limit:
            if len(e.lines) % 2:
                e.qfsinfo(259)
            else:
                e.qpathinfo(DMTMP, 1004)

    def restore_tree(self, files):
        """Put the files back as they were (files: Tree.files then):
        delete the new ones, write the missing or resized ones again."""
        e, t = self.e, self.e.tree
        for k in sorted(set(t.files) - set(files)):
            e.unlink(t.files[k][0])
        for k in sorted(files):
            path, size = files[k]
            if k in t.files and t.files[k][1] == size:
                continue
            h = e.overwrite_file(path) if k in t.files else \
                e.create_file(path)
            self.write_file(h, size, [(65536, 1)])
            e.close(h)

    def tiny_block(self, ready, limit):
        """Sessions in the folders set up so far (indexes in ready), then
        the tree restored, ending at most at line limit."""
        start_files = copy.deepcopy(self.e.tree.files)
        start_dirs = set(self.e.tree.dirs)
        while True:
            snap = self.snapshot()
            app = pick(self.rng, [(self.apps[i], self.apps[i].weight)
                                  for i in ready])
            self.app_session(app)
            kept = self.snapshot()
            self.restore_tree(start_files)
            if len(self.e.lines) > limit:
                self.rollback(snap)
                break
            self.rollback(kept)
        self.restore_tree(start_files)
        assert not self.e.handles and set(self.e.tree.dirs) == start_dirs
        assert self.e.tree.files == start_files
        self.pad_to(limit)

    def setup_app(self, i):
        e, app = self.e, self.apps[i]
        h = e.mkdir_open(app.path)
        e.close(h)
        for name, size in app.docs:
            f = e.create_file(app.path + "\\" + name)
            self.write_file(f, size, [(65536, 1)], preallocate=True)
            e.qfileinfo(f, 258)
            e.close(f)

    # -- whole pass --------------------------------------------------------
    def setup(self):
        e = self.e
        e.deltree(ROOT)
        e.mkdir_shared("\\clients")
        h = e.mkdir_open(ROOT)
        e.close(h)
        e.qpathinfo(DMTMP, 1004)
        e.find_first(ROOT, "*.TMP")
        h = e.mkdir_open(DMTMP)
        e.close(h)
        e.qfsinfo(1)
        # the folders that fit before mmtests' warmup cut, then its tiny
        # block, then the rest
        self.ready = []
        for i in range(len(self.apps)):
            if self.attempt(lambda: self.setup_app(i), MMTESTS_WARMUP_END):
                self.ready.append(i)
        assert self.ready, "no folder fits in the warmup cut"
        self.pad_to(MMTESTS_WARMUP_END)
        self.tiny_block(self.ready, MMTESTS_TINY_END)
        for i in range(len(self.apps)):
            if i not in self.ready:
                self.setup_app(i)
        e = self.e              # a rollback replaced the emitter
        e.find_first(DMTMP, "*")
        self.setup_files = len(e.tree.files)
        self.setup_bytes = sum(f[1] for f in e.tree.files.values())

    def run(self):
        self.apps_by_name = {a.folder: a for a in self.apps}
        self.setup()
        weighted = [(a, a.weight) for a in self.apps]
        while len(self.e.lines) < self.target:
            r = self.rng.random()
            if r < 0.09:
                self.explorer_session()
            elif r < 0.12:
                self.copy_session()
            else:
                self.app_session(pick(self.rng, weighted))
        assert not self.e.handles, self.e.handles
        self.end_files = len(self.e.tree.files)
        self.end_bytes = sum(f[1] for f in self.e.tree.files.values())
        self.e.find_first(DMTMP, "*")
        self.e.deltree(ROOT)
        return self.e


def report(office, out):
    e = office.e
    total = len(e.lines)
    out.write("lines %d\n" % total)
    for op, n in e.ops.most_common():
        out.write("  %-24s %7d %6.2f%%  (target %.2f%%)\n" %
                  (op, n, 100.0 * n / total, TARGET_MIX.get(op, 0)))
    nfail = sum(e.failures.values())
    out.write("failure statuses %d (%.2f%%)\n" %
              (nfail, 100.0 * nfail / total))
    for st, n in e.failures.most_common():
        out.write("  %-36s %6d\n" % (st, n))
    nr, nw = e.ops["ReadX"], e.ops["WriteX"]
    out.write("reads %d, %.0f bytes avg, %.3f GB\n" %
              (nr, e.bytes_read / max(1, nr), e.bytes_read / 1e9))
    out.write("writes %d, %.0f bytes avg, %.3f GB\n" %
              (nw, e.bytes_written / max(1, nw), e.bytes_written / 1e9))
    out.write("files after setup %d (%.1f MB), before the final Deltree "
              "%d (%.1f MB), at most %d; at most %d handles open\n" %
              (office.setup_files, office.setup_bytes / 1e6, office.end_files,
               office.end_bytes / 1e6, e.tree.peak_files, e.max_open))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-o", "--output", help="write here instead of stdout")
    ap.add_argument("--seed", type=int, default=4000,
                    help="random seed (default %(default)s)")
    ap.add_argument("--lines", type=int, default=400000,
                    help="approximate number of lines (default %(default)s)")
    ap.add_argument("--stats", action="store_true",
                    help="print the op mix and byte counts on stderr")
    args = ap.parse_args()

    office = Office(args.seed, args.lines)
    e = office.run()
    text = "\n".join(e.lines) + "\n"
    if args.output:
        with open(args.output, "w", newline="\n") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    if args.stats:
        report(office, sys.stderr)


if __name__ == "__main__":
    main()
