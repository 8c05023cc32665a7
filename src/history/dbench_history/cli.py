"""The command line of dbench-history and its main()."""

import argparse
import sys

from .common import EXIT_DB, EXIT_USAGE, PROG, HistoryError, safe
from .db import History, history_path

VERSION = "5.1.0"


class Parser(argparse.ArgumentParser):
    """argparse, with a usage error as one line and exit status 2."""

    def error(self, message):
        raise HistoryError("%s (see %s --help)" % (message, PROG),
                           EXIT_USAGE)


def add_filters(p):
    p.add_argument("--label", help="only runs saved under this label")
    p.add_argument("--host", help="only runs made on this host")
    p.add_argument("--since", help="only runs started since: YYYY-MM-DD, "
                   "an ISO 8601 time, or 12h, 30d, 2w ago")


def parse_args(argv):
    ap = Parser(prog=PROG, description="List, compare and follow over "
                "time the runs that dbench --label saved.")
    ap.add_argument("--history", metavar="FILE", help="the history "
                    "database (default: $DBENCH_HISTORY, else "
                    "$XDG_DATA_HOME/dbench/history.sqlite)")
    ap.add_argument("--version", action="version",
                    version="%s %s" % (PROG, VERSION))
    # --history also after the command (dbench-history list --history F)
    common = Parser(add_help=False)
    common.add_argument("--history", metavar="FILE", dest="history_late",
                        help=argparse.SUPPRESS)
    sub = ap.add_subparsers(dest="command", metavar="COMMAND",
                            parser_class=Parser)
    real_add = sub.add_parser

    def add_parser(name, **kw):
        return real_add(name, parents=[common], **kw)
    sub.add_parser = add_parser
    p = sub.add_parser("list", help="the saved runs, oldest first")
    add_filters(p)
    sel = ("run ids (as list's run column), ranges N-M, G.S (as list's "
           "group column), group:G, labels (or label:L)")
    p = sub.add_parser("show", help="runs' facts and figures")
    p.add_argument("runs", metavar="RUN", nargs="+", help=sel)
    p.add_argument("--json", action="store_true",
                   help="print the run's JSON document as saved")
    p = sub.add_parser("rm", help="remove runs (ids are not reused)")
    p.add_argument("runs", metavar="RUN", nargs="*", help=sel)
    p.add_argument("--label", help="remove every run of this label")
    p.add_argument("--yes", action="store_true",
                   help="do not ask (needed without a terminal)")
    p = sub.add_parser("compare", help="is B faster than A?")
    p.add_argument("a", metavar="A", help="a label, group:N or run:N[,M...]")
    p.add_argument("b", metavar="B", help="the same for the other side")
    p.add_argument("--last", type=int, metavar="N",
                   help="only each side's N newest runs")
    p.add_argument("--curve", action="store_true",
                   help="compare curves: a label's newest curve")
    p.add_argument("--difference", type=float, metavar="PCT",
                   help="the difference (percent) the advice on the "
                   "number of runs aims to tell apart (default 5)")
    p.add_argument("--method", choices=("mann-whitney", "welch"),
                   help="the test: mann-whitney (the default) or welch "
                   "(Welch's t on the logs)")
    p.add_argument("--quiet-only", action="store_true",
                   help="leave out the runs taken on a busy machine")
    p = sub.add_parser("trend", help="a label's runs over time, and where "
                       "their level changed")
    p.add_argument("label", metavar="LABEL")
    p.add_argument("--metric", help="only this metric (mb_per_s, "
                   "ops_per_s, max_latency_ms, or a disk test's "
                   "measurement)")
    p.add_argument("--min-effect", type=float, metavar="PCT",
                   help="report a change of at least this size only "
                   "(percent, default 5)")
    p.add_argument("--min-runs", type=int, metavar="N",
                   help="a change must last N runs on each side "
                   "(default 4)")
    p.add_argument("--quiet-only", action="store_true",
                   help="leave out the runs taken on a busy machine")
    sub.add_parser("servers", help="a row per label: MB/s mean ± sd and n")
    p = sub.add_parser("export", help="the runs as CSV or JSON")
    fmt = p.add_mutually_exclusive_group(required=True)
    fmt.add_argument("--csv", action="store_true")
    fmt.add_argument("--json", action="store_true")
    add_filters(p)
    p = sub.add_parser("import", help="save documents written by --json")
    p.add_argument("files", metavar="FILE.json", nargs="+")
    p.add_argument("--label", help="the label (default: the document's)")
    p = sub.add_parser("report", help="a static HTML report")
    p.add_argument("-o", "--output", metavar="DIR", required=True)
    p.add_argument("--baseline", metavar="LABEL", help="each server's "
                   "verdict against this label, as compare gives it")
    args = ap.parse_args(argv)
    if getattr(args, "history_late", None):
        args.history = args.history_late
    if args.command is None:
        ap.error("a command is required (list, show, rm, compare, trend, "
                 "servers, export, import, report)")
    if getattr(args, "last", None) is not None and args.last < 1:
        ap.error("--last wants a positive number")
    if getattr(args, "difference", None) is not None and \
            not 0 < args.difference < 1000:
        ap.error("--difference wants a percentage above 0")
    if getattr(args, "min_effect", None) is not None and \
            not 0 <= args.min_effect < 1000:
        ap.error("--min-effect wants a percentage, 0 or more")
    if getattr(args, "min_runs", None) is not None and args.min_runs < 2:
        ap.error("--min-runs wants 2 or more")
    return args


def run(args, out):
    from . import basic, compare, report, trend
    commands = {
        "list": (basic.cmd_list, False),
        "show": (basic.cmd_show, False),
        "rm": (basic.cmd_rm, True),
        "compare": (compare.cmd_compare, False),
        "trend": (trend.cmd_trend, False),
        "servers": (trend.cmd_servers, False),
        "export": (basic.cmd_export, False),
        "import": (basic.cmd_import, True),
        "report": (report.cmd_report, False),
    }
    func, write = commands[args.command]
    hist = History(history_path(args.history), write=write)
    try:
        return func(hist, args, out)
    finally:
        if hist.conn is not None:
            hist.conn.close()


def main(argv=None):
    try:
        args = parse_args(sys.argv[1:] if argv is None else argv)
        return run(args, sys.stdout)
    except HistoryError as e:
        print("%s: %s" % (PROG, safe(str(e))), file=sys.stderr)
        return e.status
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130
    except (ArithmeticError, LookupError, TypeError, ValueError,
            AttributeError, RecursionError) as e:
        # the last guard: a value stored by hand (or by an older dbench)
        # that a command did not expect is one line, never a traceback
        print("%s: a stored value this command cannot use (%s: %s)" % (
            PROG, type(e).__name__, safe(str(e))[:200]), file=sys.stderr)
        return EXIT_DB
