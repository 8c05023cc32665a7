#!/usr/bin/python3
"""detector.py - measures dbench-history's change point detector (trend)
on generated histories: its false alarms on 12-50 runs at 3-8% normal
noise with no step; a 10% step (up or down) at 3% noise with at least 6
runs on each side, found within one run of its start (over 12-50 runs,
and in the hardest case, 6 + 6 runs); steps under the 5% minimum effect
(3% at 1% noise) reported at all; and one busy-machine outlier (a run
at half the level) planted into no-step histories.  A fixed seed: the
same figures each time.  Usage: bench/history/detector.py [HISTORIES]
(default 2000 a case); from the top of the tree."""

import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "src", "history"))
from dbench_history import stats  # noqa: E402


def history(rng, n, noise, step=0.0, at=None):
    return [497.0 * (1 + (step if at is not None and i >= at else 0)) *
            (1 + rng.gauss(0, noise)) for i in range(n)]


def rate(count, make, judge):
    hits = 0
    for _ in range(count):
        xs, truth = make()
        hits += judge(stats.change_points(xs), truth)
    return hits / count


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    rng = random.Random(2026)
    started = time.time()

    def flat():
        return history(rng, rng.randint(12, 50), rng.uniform(0.03, 0.08)), 0

    def step(n=None, size=0.10, noise=0.03):
        n = n or rng.randint(12, 50)
        at = rng.randint(6, n - 6)
        return history(rng, n, noise, rng.choice((-size, size)), at), at

    def outlier():
        xs, _ = flat()
        xs[rng.randrange(len(xs))] *= 0.5
        return xs, 0

    def near(cuts, at):
        return any(abs(c - at) <= 1 for c in cuts)

    def any_cut(cuts, _):
        return bool(cuts)
    rows = [
        ("false alarms, 12-50 runs, 3-8% noise, no step", rate(
            count, flat, any_cut), "<= 5%"),
        ("10% step, 3% noise, 12-50 runs: found within one run", rate(
            count, step, near), ">= 95%"),
        ("10% step, 3% noise, 6 + 6 runs: found within one run", rate(
            count, lambda: step(12), near), ""),
        ("3% step, 1% noise (under the 5% minimum): reported", rate(
            count, lambda: step(size=0.03, noise=0.01), any_cut), "0%"),
        ("no step, one run at half the level: a change reported", rate(
            count, outlier, any_cut), "<= 5%"),
    ]
    for name, value, goal in rows:
        print("%-58s %6.1f%%  %s" % (name, value * 100, goal))
    print("(%d histories a case, %.1f s)" % (count, time.time() - started))


if __name__ == "__main__":
    main()
