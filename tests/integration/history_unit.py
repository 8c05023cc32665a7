#!/usr/bin/python3
"""history_unit.py - unit tests of dbench-history's pieces (the package
src/history/dbench_history): its statistics against values computed
independently, the change point search, the schema runner (a migration
from schema 1 only, a newer schema refused and left untouched, a file
that is no database), the verdict on two curves and the escaping of
labels.  Run by history_unit.sh; prints TAP (one test point per test, the plan last)."""

import hashlib
import io
import json
import os
import sqlite3
import sys
import tempfile
import unittest

from tap_unittest import run_module

SRCDIR = os.environ.get("SRCDIR") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(SRCDIR, "src", "history"))

from dbench_history import cli, common, curves, db, stats  # noqa: E402

SCHEMA = os.path.join(SRCDIR, "src", "history", "schema")

# Reference values: SciPy 1.10.1 (Debian 12's python3-scipy):
# scipy.special.betainc, scipy.stats.t.ppf / t.sf, and
# scipy.stats.ttest_ind(b, a, equal_var=False) for t and p; the
# Welch-Satterthwaite df and the delta-method interval with numpy and
# scipy.stats.t.ppf.  Printed with repr(), compared to 1e-9 relative.
BETAINC = [  # a, b, x, I_x(a, b)
    (2.5, 0.5, 0.3, 0.01892712407194565),
    (0.5, 0.5, 0.9, 0.7951672353008662),
    (10, 20, 0.4, 0.785318389762826),
    (1.5, 0.5, 0.999, 0.9597433418849682),
]
T975 = [  # df, 97.5% quantile, P(|T| >= 2)
    (1, 12.706204736432095, 0.2951672353008664),
    (2, 4.302652729911275, 0.1835034190722739),
    (3.7, 2.8675207071912086, 0.12181720190523394),
    (5, 2.5705818366147395, 0.10193947882985828),
    (10, 2.2281388519649385, 0.07338803477074039),
    (30, 2.0422724563012373, 0.0546250449629831),
    (100, 1.9839715184496334, 0.04821217873113364),
]
# (A, B, t, p, df, ratio, low, high).  The second pair is the first
# worked example of Wikipedia's "Welch's t-test" article (t = 2.46,
# df = 25.0, p = 0.021 there).
WELCH = [
    ([1012.4, 998.1, 1005.6, 1020.3, 991.8],
     [1101.7, 1123.4, 1098.2, 1130.9, 1115.0],
     13.499795784851916, 1.281583899272953e-06, 7.66937101323761,
     1.1075931744958436, 1.088533350490544, 1.1269867291038385),
    ([27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1,
      19.6, 19.0, 21.7, 21.4],
     [27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9,
      22.1, 22.9, 20.5, 24.4],
     2.455356398286006, 0.021378001462866985, 24.988529290231416,
     1.1040666026256805, 1.0141538069570923, 1.2019508822738019),
    ([100.0, 103.0, 98.0], [101.0, 99.5, 104.0, 97.0],
     0.020207175225251173, 0.9846888796127451, 4.813132427727989,
     1.0004152823920267, 0.9483535715405772, 1.0553350219556756),
]


class Statistics(unittest.TestCase):
    def test_betainc(self):
        for a, b, x, want in BETAINC:
            self.assertAlmostEqual(stats.betainc(a, b, x) / want, 1.0,
                                   places=9, msg=(a, b, x))

    def test_t_quantiles_and_tails(self):
        for df, q, p2 in T975:
            self.assertAlmostEqual(stats.t_quantile(0.975, df) / q, 1.0,
                                   places=9, msg=df)
            self.assertAlmostEqual(stats.t_two_sided_p(2.0, df) / p2, 1.0,
                                   places=9, msg=df)

    def test_t_table(self):
        # a printed table of Student's t (two-sided 5%, 1%), 3 decimals
        table = {1: (12.706, 63.657), 4: (2.776, 4.604), 8: (2.306, 3.355),
                 20: (2.086, 2.845), 60: (2.000, 2.660)}
        for df, (t5, t1) in table.items():
            self.assertEqual(round(stats.t_quantile(0.975, df), 3), t5)
            self.assertEqual(round(stats.t_quantile(0.995, df), 3), t1)

    def test_welch_and_ratio(self):
        for a, b, t, p, df, r, lo, hi in WELCH:
            w = stats.welch(a, b)
            self.assertAlmostEqual(w["t"] / t, 1.0, places=9)
            self.assertAlmostEqual(w["p"] / p, 1.0, places=8)
            self.assertAlmostEqual(w["df"] / df, 1.0, places=9)
            ratio, low, high = stats.ratio_ci(a, b)
            self.assertAlmostEqual(ratio / r, 1.0, places=9)
            self.assertAlmostEqual(low / lo, 1.0, places=9)
            self.assertAlmostEqual(high / hi, 1.0, places=9)

    def test_one_run_gives_no_test(self):
        self.assertIsNone(stats.welch([1.0], [1.0, 2.0]))
        self.assertEqual(stats.ratio_ci([2.0], [3.0, 3.0])[1:], (None, None))

    def test_no_spread(self):
        self.assertEqual(stats.welch([5.0, 5.0], [5.0, 5.0])["p"], 1.0)
        self.assertEqual(stats.welch([5.0, 5.0], [6.0, 6.0])["p"], 0.0)


class ChangePoints(unittest.TestCase):
    def test_step_found(self):
        self.assertEqual(stats.change_points(
            [100, 102, 99, 60, 61, 59]), [3])
        xs = [500, 505, 498, 502, 501, 499, 503, 350, 352, 348, 351,
              349, 353, 350, 700, 702, 698, 701]
        self.assertEqual(stats.change_points(xs), [7, 14])

    def test_no_change(self):
        self.assertEqual(stats.change_points(
            [100, 103, 98, 101, 99, 102, 97, 100, 104, 99]), [])

    def test_one_outlier_is_no_change(self):
        self.assertEqual(stats.change_points(
            [100, 101, 99, 100, 40, 101, 100, 99, 102, 100]), [])
        self.assertEqual(stats.change_points(
            [100, 101, 99, 100, 98, 101, 100, 99, 102, 40]), [])

    def test_tiny_shift_of_quiet_series(self):
        # 0.5% apart with no noise at all: under the 2% floor
        self.assertEqual(stats.change_points([1000.0] * 4 + [995.0] * 4),
                         [])


def make_db(path, upto):
    """A database made by the schema files up to version upto only."""
    conn = sqlite3.connect(path, isolation_level=None)
    for name in sorted(os.listdir(SCHEMA)):
        n = int(name[:3])
        if n <= upto:
            with open(os.path.join(SCHEMA, name), encoding="utf-8") as f:
                conn.executescript("BEGIN;" + f.read() +
                                   "PRAGMA user_version = %d; COMMIT;" % n)
    return conn


DOC = {"schema_version": 1, "tool": {"name": "dbench", "version": "5.1.0"},
       "command_line": ["dbench", "8"],
       "options": {"clients": 8, "backend": "fileio", "loadfiles": ["c.txt"],
                   "sync_open": False},
       "host": {"hostname": "h1", "kernel_release": "6.1", "cpus": 4,
                "memory_bytes": 8 << 30},
       "directories": [{"path": "/srv", "fs_type": "xfs",
                        "source": "/dev/sdb"}],
       "start_time": "2026-01-02T03:04:05.000Z",
       "loadfiles": [{"path": "c.txt", "crc32": "0badcafe"}],
       "result": {"phase": "execute", "seconds": 60.0, "clients": 8,
                  "throughput_mb_per_s": 812.5, "max_latency_ms": 12.5,
                  "interrupted": False},
       "phases": [{"name": "execute", "ops_per_s": 4321.0}],
       "operations": [{"name": "ReadX", "count": 10, "errors": 0,
                       "avg_ms": 0.5, "max_ms": 2.0, "percentiles": [
                           {"percentile": 50, "ms": 0.4},
                           {"percentile": 99, "ms": 1.5}]}]}


def insert(conn, doc, label="srv"):
    cur = conn.execute("INSERT INTO groups (kind, label, created_utc) "
                       "VALUES ('single', ?, '2026-01-02T00:00:00Z')",
                       (label,))
    conn.execute("INSERT INTO runs (group_id, seq, label, saved_utc, "
                 "exit_status, result_json) VALUES (?, 0, ?, "
                 "'2026-01-02T00:00:00Z', 0, ?)",
                 (cur.lastrowid, label, json.dumps(doc)))


def run_cli(argv):
    """(exit status, stdout, stderr) of dbench-history with argv."""
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        rc = cli.main(argv)
    finally:
        sys.stdout, sys.stderr = old
    return rc, out.getvalue(), err.getvalue()


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


class Schema(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.tmp.name, "h.sqlite")

    def tearDown(self):
        self.tmp.cleanup()

    def test_derived_columns(self):
        conn = make_db(self.path, 99)
        insert(conn, DOC)
        row = conn.execute("SELECT kind, host, cpus, clients, mb_per_s, "
                           "ops_per_s, backend, started_utc FROM runs"
                           ).fetchone()
        self.assertEqual(row, ("load", "h1", 4, 8, 812.5, 4321.0, "fileio",
                               "2026-01-02T03:04:05.000Z"))
        self.assertEqual(conn.execute(
            "SELECT name, count, p50_ms, p99_ms FROM ops").fetchall(),
            [("ReadX", 10, 0.4, 1.5)])
        self.assertEqual(conn.execute(
            "SELECT path, fs_type, mount_source FROM targets").fetchall(),
            [("/srv", "xfs", "/dev/sdb")])
        self.assertEqual(sorted(conn.execute(
            "SELECT name, value FROM metrics").fetchall()),
            [("max_latency_ms", 12.5), ("mb_per_s", 812.5),
             ("ops_per_s", 4321.0)])
        with self.assertRaises(sqlite3.IntegrityError):
            insert(conn, ["not", "an", "object"])

    def test_migration_from_schema_1(self):
        conn = make_db(self.path, 1)
        insert(conn, DOC)
        insert(conn, dict(DOC, start_time="2026-01-03T00:00:00.000Z"))
        conn.close()
        rc, out, err = run_cli(["--history", self.path, "list"])
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(len(out.splitlines()), 3)
        conn = sqlite3.connect(self.path)
        self.assertEqual(conn.execute("PRAGMA user_version").fetchone()[0],
                         db.schema_files()[-1][0])
        self.assertEqual(conn.execute("PRAGMA integrity_check").fetchone(),
                         ("ok",))
        work = conn.execute("SELECT DISTINCT workload FROM runs").fetchall()
        self.assertEqual(len(work), 1)
        self.assertEqual(json.loads(work[0][0])["loadfile_crc32"],
                         "0badcafe")
        self.assertEqual(conn.execute("SELECT count(*) FROM sqlite_master "
                                      "WHERE name = 'runs_list'"
                                      ).fetchone()[0], 1)

    def test_newer_schema_refused_untouched(self):
        conn = make_db(self.path, 99)
        insert(conn, DOC)
        conn.execute("PRAGMA user_version = 999")
        conn.close()
        before = digest(self.path)
        for argv in (["list"], ["import", "--label", "x", self.path]):
            rc, out, err = run_cli(["--history", self.path] + argv)
            self.assertEqual(rc, common.EXIT_DB)
            self.assertEqual(len(err.splitlines()), 1)
            self.assertIn("made by a newer dbench", err)
        self.assertEqual(digest(self.path), before)
        self.assertFalse(os.path.exists(self.path + "-wal"))

    def test_not_a_database(self):
        with open(self.path, "wb") as f:
            f.write(b"this is no SQLite file\n" * 100)
        before = digest(self.path)
        rc, out, err = run_cli(["--history", self.path, "list"])
        self.assertEqual(rc, common.EXIT_DB)
        self.assertEqual(len(err.splitlines()), 1)
        self.assertIn(self.path, err)
        self.assertEqual(digest(self.path), before)

    def test_other_sqlite_database_untouched(self):
        conn = sqlite3.connect(self.path)
        conn.execute("CREATE TABLE mine (x)")
        conn.commit()
        conn.close()
        before = digest(self.path)
        rc, out, err = run_cli(["--history", self.path, "list"])
        self.assertEqual(rc, common.EXIT_DB)
        self.assertIn("not a dbench history", err)
        self.assertEqual(digest(self.path), before)

    def test_import_masks_url_passwords(self):
        doc = dict(DOC, command_line=[
            "dbench", "-B", "nfs", "--nfs=nfs://bob:s3cret@srv/exp,"
            "nfs://srv2:2049/e", "8"])
        src = os.path.join(self.tmp.name, "old.json")
        with open(src, "w") as f:
            json.dump(doc, f)
        rc, out, err = run_cli(["--history", self.path, "import",
                                "--label", "old", src])
        self.assertEqual((rc, err), (0, ""))
        with open(self.path, "rb") as f:
            self.assertNotIn(b"s3cret", f.read())
        conn = sqlite3.connect(self.path)
        line = conn.execute("SELECT command_line FROM runs").fetchone()[0]
        self.assertIn("nfs://bob:***@srv/exp,nfs://srv2:2049/e", line)

    def test_missing_database_is_empty(self):
        rc, out, err = run_cli(["--history", self.path, "list"])
        self.assertEqual((rc, out), (0, ""))
        self.assertFalse(os.path.exists(self.path))

    def test_path_order(self):
        env = dict(os.environ)
        try:
            os.environ["DBENCH_HISTORY"] = "/e/h.sqlite"
            self.assertEqual(db.history_path("/o/h"), "/o/h")
            self.assertEqual(db.history_path(None), "/e/h.sqlite")
            del os.environ["DBENCH_HISTORY"]
            os.environ["XDG_DATA_HOME"] = "/x"
            self.assertEqual(db.history_path(None),
                             "/x/dbench/history.sqlite")
            del os.environ["XDG_DATA_HOME"]
            os.environ["HOME"] = "/home/u"
            self.assertEqual(db.history_path(None),
                             "/home/u/.local/share/dbench/history.sqlite")
        finally:
            os.environ.clear()
            os.environ.update(env)


class Commands(unittest.TestCase):
    """compare, trend and list on runs whose figures are known."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.tmp.name, "h.sqlite")
        conn = make_db(self.path, 99)
        day = 1
        for label, values in (("a", [100.0, 102.0, 98.0]),
                              ("b", [110.0, 112.5, 108.0])):
            for v in values:
                doc = json.loads(json.dumps(DOC))
                doc["result"]["throughput_mb_per_s"] = v
                doc["start_time"] = "2026-01-%02dT00:00:00.000Z" % day
                day += 1
                insert(conn, doc, label)
        conn.close()

    def tearDown(self):
        self.tmp.cleanup()

    def test_compare_sentence(self):
        # SciPy 1.10.1: ttest_ind(b, a, equal_var=False).pvalue =
        # 0.00447; the delta-method interval of mean(b)/mean(a) =
        # 1.10167 [1.05226, 1.15339] (t.ppf at the Welch df)
        rc, out, err = run_cli(["--history", self.path, "compare", "a", "b"])
        self.assertEqual((rc, err), (0, ""))
        self.assertIn("MB/s: B is 10.2% faster than A (95% CI 5.2-15.3%, "
                      "p=0.004, 3 vs 3 runs)\n", out)
        self.assertIn("ops/s: no significant difference (p=1.000, 3 vs 3 "
                      "runs", out)
        rc, out, err = run_cli(["--history", self.path, "compare", "b",
                                "run:1"])
        self.assertIn("MB/s: B is 9.2% slower than A; no interval or test: "
                      "B has one run (3 vs 1 runs)", out)
        rc, out, err = run_cli(["--history", self.path, "compare", "a",
                                "nosuch"])
        self.assertEqual(rc, 2)
        self.assertEqual(len(err.splitlines()), 1)

    def test_curve_runs_left_out_of_a_label(self):
        conn = sqlite3.connect(self.path)
        cur = conn.execute("INSERT INTO groups (kind, label, created_utc) "
                           "VALUES ('curve', 'a', '2026-02-01T00:00:00Z')")
        doc = json.loads(json.dumps(DOC))
        doc["result"]["throughput_mb_per_s"] = 5000.0
        conn.execute("INSERT INTO runs (group_id, seq, label, saved_utc, "
                     "exit_status, result_json) VALUES (?, 0, 'a', "
                     "'2026-02-01T00:00:00Z', 0, ?)",
                     (cur.lastrowid, json.dumps(doc)))
        gid = cur.lastrowid
        conn.commit()
        conn.close()
        rc, out, err = run_cli(["--history", self.path, "compare", "a", "b"])
        self.assertIn("MB/s: B is 10.2% faster than A", out)
        rc, out, err = run_cli(["--history", self.path, "servers"])
        self.assertIn("100.0 ± 2.0 (3)", out)
        rc, out, err = run_cli(["--history", self.path, "compare",
                                "group:%d" % gid, "a"])
        self.assertIn("A: group %d (1 run)" % gid, out)
        self.assertRegex(out, r"\nMB/s +5000\.0 +- +100\.0 +2\.0 +-98\.0%")

    def test_list_filters(self):
        rc, out, err = run_cli(["--history", self.path, "list", "--label",
                                "b", "--since", "2026-01-05"])
        self.assertEqual([ln.split()[0] for ln in out.splitlines()],
                         ["run", "5", "6"])
        rc, out, err = run_cli(["--history", self.path, "list", "--host",
                                "h2"])
        self.assertEqual((rc, out), (0, ""))

    def test_trend_table(self):
        rc, out, err = run_cli(["--history", self.path, "trend", "a"])
        self.assertEqual(rc, 0)
        self.assertIn("no change point", out)
        self.assertEqual(len([ln for ln in out.splitlines()
                              if ln.startswith(("1 ", "2 ", "3 "))]), 3)


class HistoryCommands(unittest.TestCase):
    """show and rm's selectors, ids never reused, compare across servers,
    servers and trend on a label of unlike runs, import of --repeat,
    --curve and export documents."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.tmp.name, "h.sqlite")
        conn = make_db(self.path, 99)
        for i, (label, clients) in enumerate((("a", 8), ("a", 8), ("a", 8),
                                              ("a", 16), ("b", 8))):
            insert(conn, self.doc(i, clients), label)
        conn.close()

    def tearDown(self):
        self.tmp.cleanup()

    def doc(self, day, clients=8, **opts):
        doc = json.loads(json.dumps(DOC))
        doc["start_time"] = "2026-01-%02dT00:00:00.000Z" % (day + 1)
        doc["options"].update(clients=clients, **opts)
        doc["result"]["throughput_mb_per_s"] = 100.0 + day
        return doc

    def cli(self, *argv):
        return run_cli(["--history", self.path] + list(argv))

    def shown(self, out):
        return [int(ln.split()[1]) for ln in out.splitlines()
                if ln.startswith("run:")]

    def test_show_selectors(self):
        for sel, runs in ((["a"], [1, 2, 3, 4]), (["2-4"], [2, 3, 4]),
                          (["run:5"], [5]), (["3.0"], [3]),
                          (["group:2-3", "label:b"], [2, 3, 5]),
                          (["1", "1-2"], [1, 2])):
            rc, out, err = self.cli("show", *sel)
            self.assertEqual((rc, err), (0, ""), sel)
            self.assertEqual(self.shown(out), runs, sel)
        for sel in ("nosuch", "9", "4-2", "group:x"):
            rc, out, err = self.cli("show", sel)
            self.assertEqual((rc, out), (2, ""), sel)
            self.assertEqual(len(err.splitlines()), 1, sel)

    def test_rm_several_ids_not_reused(self):
        rc, out, err = self.cli("rm", "4-5", "1")
        self.assertEqual(rc, 2)
        self.assertIn("--yes", err)
        rc, out, err = self.cli("rm", "--yes", "4-5", "1")
        self.assertEqual((rc, out), (0, "removed 3 runs, 1, 4-5\n"))
        src = os.path.join(self.tmp.name, "d.json")
        with open(src, "w") as f:
            json.dump(self.doc(20), f)
        rc, out, err = self.cli("import", "--label", "c", src)
        self.assertEqual(out, "%s: run 6, group 6, label c\n" % src)
        rc, out, err = self.cli("list")
        self.assertEqual([ln.split()[0] for ln in out.splitlines()[1:]],
                         ["2", "3", "6"])

    def test_migration_from_schema_2_keeps_derived_rows(self):
        path = os.path.join(self.tmp.name, "old.sqlite")
        conn = make_db(path, 2)
        for i in range(3):
            insert(conn, self.doc(i))
        conn.close()
        rc, out, err = run_cli(["--history", path, "rm", "--yes", "3"])
        self.assertEqual((rc, err), (0, ""))
        conn = sqlite3.connect(path)
        self.assertEqual(conn.execute("PRAGMA user_version").fetchone()[0],
                         3)
        self.assertEqual(conn.execute("PRAGMA integrity_check").fetchall(),
                         [("ok",)])
        self.assertEqual(conn.execute("PRAGMA foreign_key_check").fetchall(),
                         [])
        self.assertEqual(conn.execute(
            "SELECT run_id, count(*) FROM metrics GROUP BY run_id"
            ).fetchall(), [(1, 3), (2, 3)])
        self.assertEqual(conn.execute(
            "SELECT run_id, name FROM ops ORDER BY run_id").fetchall(),
            [(1, "ReadX"), (2, "ReadX")])
        conn.close()
        insert(make_db(path, 0), self.doc(9))
        conn = sqlite3.connect(path)
        self.assertEqual(conn.execute("SELECT max(id) FROM runs").fetchone(),
                         (4,))

    def test_compare_servers(self):
        conn = sqlite3.connect(self.path)
        for i in range(2):
            insert(conn, dict(self.doc(10 + i, backend="smb"), server={
                "url": "smb://127.0.0.1/share"}), "s")
            insert(conn, dict(self.doc(12 + i, 16, backend="smb")), "t")
        conn.commit()
        conn.close()
        rc, out, err = self.cli("compare", "b", "s")
        self.assertEqual((rc, err), (0, ""))
        self.assertIn("Comparing servers: backend (-B): fileio (A), smb (B); "
                      "server: - (A), smb://127.0.0.1/share (B)\n", out)
        self.assertNotIn("differ in workload", out)
        rc, out, err = self.cli("compare", "b", "t")
        self.assertEqual((rc, err), (0, ""))
        self.assertIn("Comparing servers: backend (-B): fileio (A), smb (B)",
                      out)
        self.assertEqual(out.count("differ in workload"), 1)
        self.assertIn("\n  clients: 8 (A), 16 (B)\n", out)

    def test_servers_and_trend_say_what_differs(self):
        rc, out, err = self.cli("servers")
        rows = [ln.split("  ")[0] for ln in out.splitlines()[2:]]
        self.assertEqual(rows, ["a (clients 8)", "a (clients 16)", "b"])
        self.assertRegex(out, r"a \(clients 8\) +3 .* 101\.0 ± 1\.0 \(3\)")
        rc, out, err = self.cli("trend", "a")
        self.assertIn("workload changed at run #4 (run 4): clients 8 -> 16;",
                      out)

    def test_import_sweeps(self):
        rep = {k: v for k, v in DOC.items() if k not in (
            "result", "phases", "operations")}
        rep["repeats"] = {"requested": 2, "n": 2, "warnings": ["w1"],
                          "runs": [self.doc(30), self.doc(31)]}
        cur = dict(rep)
        del cur["repeats"]
        bad = dict(self.doc(33), result=dict(self.doc(33)["result"],
                                             interrupted=True))
        cur["curve"] = {"answer_clients": 8, "points": [
            {"order": 1, "clients": 16, "exit_status": 1, "result": bad},
            {"order": 0, "clients": 8, "exit_status": 0,
             "result": self.doc(32)}]}
        paths = []
        for name, d in (("rep", rep), ("cur", cur)):
            paths.append(os.path.join(self.tmp.name, name + ".json"))
            with open(paths[-1], "w") as f:
                json.dump(d, f)
        rc, out, err = self.cli("import", "--label", "sw", *paths)
        self.assertEqual((rc, err), (0, ""))
        self.assertIn("runs 6, 7, group 6, label sw", out)
        conn = sqlite3.connect(self.path)
        self.assertEqual(conn.execute(
            "SELECT g.kind, r.seq, r.clients, r.exit_status, r.warnings_json, "
            "json_extract(g.summary_json, '$.points[0].result') FROM runs r "
            "JOIN groups g ON g.id = r.group_id WHERE r.id > 5 "
            "ORDER BY r.id").fetchall(),
            [("repeat", 0, 8, 0, '["w1"]', None),
             ("repeat", 1, 8, 0, '["w1"]', None),
             ("curve", 0, 8, 0, "[]", None), ("curve", 1, 8, 1, "[]", None)])

    def test_export_import_round_trip(self):
        conn = sqlite3.connect(self.path)
        cur = conn.execute("INSERT INTO groups (kind, label, created_utc, "
                           "summary_json) VALUES ('repeat', 'r', 'x', "
                           "'{\"n\": 2}')")
        for seq in range(2):
            conn.execute("INSERT INTO runs (group_id, seq, label, saved_utc, "
                         "exit_status, warnings_json, result_json) VALUES "
                         "(?, ?, 'r', 'x', ?, '[\"slow\"]', ?)",
                         (cur.lastrowid, seq, seq, json.dumps(
                             self.doc(40 + seq))))
        conn.commit()
        conn.close()
        rc, exported, err = self.cli("export", "--json")
        src = os.path.join(self.tmp.name, "export.json")
        with open(src, "w") as f:
            f.write(exported)
        other = os.path.join(self.tmp.name, "other.sqlite")
        rc, out, err = run_cli(["--history", other, "import", src])
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(len(out.splitlines()), 6)
        rc, back, err = run_cli(["--history", other, "export", "--json"])

        def runs(text):
            return [{k: v for k, v in r.items() if k != "saved_utc"}
                    for r in json.loads(text)["runs"]]
        self.assertEqual(runs(back), runs(exported))
        rc, out, err = run_cli(["--history", other, "import", src])
        self.assertEqual(out.count("already in the history"), 7)


class CurveVerdict(unittest.TestCase):
    """compare's verdict on two curves, from their summaries alone."""

    BOUND = [{"text": "p99<=20ms", "op": None, "stat": "percentile",
              "percentile": 99, "limit_ms": 20}]

    def curve(self, clients, mbps, lower=False, bounds=None):
        return curves.Curve("x", 1, "x", "t", {
            "bounds": bounds or self.BOUND, "answer_clients": clients,
            "answer_mb_per_s": mbps, "answer_is_lower_bound": lower,
            "points": [{"clients": 1}, {"clients": 64}]})

    def test_more_clients(self):
        self.assertEqual(
            curves.verdict(self.curve(24, 812.0), self.curve(32, 1030.0)),
            "B holds 32 clients within p99<=20ms, A 24: B holds 33% more "
            "(24 -> 32 clients; 812.0 -> 1030.0 MB/s)")
        self.assertEqual(
            curves.verdict(self.curve(32, 1030.0, lower=True),
                           self.curve(24, 812.0)),
            "A holds at least 32 clients within p99<=20ms, B 24: A holds "
            "at least 33% more (24 -> 32 clients; 812.0 -> 1030.0 MB/s)")

    def test_same_none_undecided(self):
        self.assertEqual(
            curves.verdict(self.curve(8, 10.0), self.curve(8, 12.0)),
            "A and B both hold 8 clients within p99<=20ms "
            "(10.0 -> 12.0 MB/s)")
        self.assertEqual(
            curves.verdict(self.curve(None, None), self.curve(2, 5.0)),
            "B holds at most 2 clients within p99<=20ms, A none")
        self.assertEqual(
            curves.verdict(self.curve(None, None), self.curve(None, None)),
            "neither A nor B holds a point within p99<=20ms")
        self.assertEqual(
            curves.verdict(self.curve(4, 1.0, lower=True),
                           self.curve(8, 2.0)),
            "undecided: B holds at most 8 clients within p99<=20ms, and A "
            "held every point it ran (to 4 clients): run A's curve further "
            "(--curve-max)")

    def test_bounds_compared_by_value(self):
        other = [{"text": "p99 <= 20 ms", "op": None, "stat": "percentile",
                  "percentile": 99, "limit_ms": 20.0}]
        self.assertEqual(self.curve(1, 1).bounds_key(),
                         self.curve(1, 1, bounds=other).bounds_key())
        looser = [dict(other[0], limit_ms=50)]
        self.assertIn("within its own bounds",
                      curves.verdict(self.curve(1, 1.0),
                                     self.curve(2, 1.0, bounds=looser)))


class Text(unittest.TestCase):
    def test_safe(self):
        self.assertEqual(common.safe('a "b"\nc\x1b[31m\u202e'),
                         'a "b"\\nc\\x1b[31m\\u202e')
        self.assertEqual(common.safe("Grüße 東京"), "Grüße 東京")

    def test_clip(self):
        self.assertEqual(common.clip("x" * 10240, 10), "xxxxxxx...")
        self.assertLessEqual(common.width(common.clip("東" * 50, 11)), 11)

    def test_usage_error_is_one_line(self):
        rc, out, err = run_cli(["frobnicate"])
        self.assertEqual(rc, 2)
        self.assertEqual(len(err.splitlines()), 1)
        rc, out, err = run_cli(["list", "--since", "yesterday-ish"])
        self.assertEqual(rc, 2)
        self.assertEqual(len(err.splitlines()), 1)
        self.assertIn("--since", err)


if __name__ == "__main__":
    sys.exit(run_module(__name__))
