"""report_unit.py - the report's scales and its interval, without a
browser: ticks a reader can read (round steps, 1-2-5 on a log axis, real
time in round units, never a lone tick), and stats.mean_ci against
Student's t quantiles from a table.  Each failed check is a line on
stdout; the exit status is 1 when one failed."""

import os
import sys

SRCDIR = os.environ.get("SRCDIR") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(SRCDIR, "src", "history"))

from dbench_history import stats  # noqa: E402
from dbench_history.report_svg import Linear, Log, Time, parse_time  # noqa

FAILS = []


def eq(got, want, what):
    if got != want:
        FAILS.append("%s: %r, expected %r" % (what, got, want))


def labels(scale):
    return [t for _, t in scale.ticks()]


def times(a, b):
    return Time(parse_time(a), parse_time(b))


def main():
    eq(labels(Linear(192, 208)), ["190", "195", "200", "205", "210"],
       "a linear axis around 200")
    eq(labels(Linear(0, 12500, zero=True)),
       ["0", "2.5k", "5.0k", "7.5k", "10.0k", "12.5k"],
       "steps of 2.5k keep their decimal")
    eq(labels(Linear(0, 15e6, zero=True)), ["0", "5M", "10M", "15M"],
       "millions")
    eq(labels(Log(0.03, 3)), ["0.02", "0.05", "0.1", "0.2", "0.5", "1", "2",
                              "5"], "a log axis of tmpfs p99s under 2 ms")
    eq(labels(Log(0.001, 100)), ["0.001", "0.01", "0.1", "1", "10", "100"],
       "a log axis of 5 decades: decades only")
    t = times("2026-11-01T10:00:00Z", "2026-11-10T12:00:00Z")
    eq((t.title(), labels(t)), ("date (UTC)", ["Nov 03", "Nov 05", "Nov 07",
                                               "Nov 09"]), "ten days")
    t = times("2026-12-06T06:00:00Z", "2026-12-06T06:20:00Z")
    eq((t.title(), labels(t)), ("time of day on 2026-12-06 (UTC)",
                                ["06:00", "06:05", "06:10", "06:15",
                                 "06:20"]), "runs of one morning")
    t = times("2026-01-01T00:00:00Z", "2026-05-25T00:00:00Z")
    eq(labels(t), ["Jan 2026", "Feb 2026", "Mar 2026", "Apr 2026",
                   "May 2026"], "five months")
    t = times("2026-12-05T20:00:00Z", "2026-12-06T06:20:00Z")
    eq(labels(t), ["Dec 05 21:00", "Dec 06 00:00", "03:00", "06:00"],
       "over midnight: the day at each new day")
    # t(0.975, 5) = 2.570582 (any t table): 100 +- 2.570582 * sqrt(2/6)
    m, lo, hi = stats.mean_ci([100, 102, 98, 101, 99, 100])
    eq(("%.4f %.4f %.4f" % (m, lo, hi)), "100.0000 98.5159 101.4841",
       "the 95% interval of slow's MB/s")
    eq(stats.mean_ci([5.0]), (5.0, None, None), "one value: no interval")
    for f in FAILS:
        print(f)
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
