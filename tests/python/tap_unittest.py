"""tap_unittest - Python's unittest reported as TAP, for the test
scripts of the Python parts (capture_unit.py, history_unit.py): a line a
test, skips and expected failures marked as TAP marks them, a failure's
traceback as comments before its line."""

import sys
import unittest


class TapResult(unittest.TestResult):
    """Each test as a TAP line: "ok", "not ok" (the traceback as TAP
    comments before it) or "ok ... # SKIP reason"."""

    def __init__(self):
        super().__init__()
        self.n = 0

    def line(self, test, status, extra=""):
        self.n += 1
        name = test.id().replace("__main__.", "", 1)
        print("%s %d - %s%s" % (status, self.n, name, extra), flush=True)

    def addSuccess(self, test):
        super().addSuccess(test)
        self.line(test, "ok")

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.line(test, "ok", " # SKIP " + reason)

    def comment_failure(self, test, err, status):
        for ln in self._exc_info_to_string(err, test).splitlines():
            print("#   " + ln)
        self.line(test, "not ok", " -- " + status)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.comment_failure(test, err, "failed")

    def addError(self, test, err):
        super().addError(test, err)
        self.comment_failure(test, err, "error")

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self.line(test, "ok", " # TODO expected failure")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self.line(test, "not ok", " # TODO unexpected success")


def run_module(name):
    """Runs every test of module name; returns the exit status."""
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[name])
    result = TapResult()
    suite.run(result)
    print("1..%d" % result.n)
    return 0 if result.wasSuccessful() else 1
