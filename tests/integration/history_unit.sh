#!/bin/bash
# history_unit.sh - runs history_unit.py, the unit tests of the
# dbench-history package (src/history/dbench_history: statistics against
# independently computed values, change points, the schema runner;
# Python's unittest, reported as TAP; a visible skip without python3).
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
: "${SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
export SRCDIR
if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 is not installed: dbench-history's unit tests not run"
	exit 0
fi
exec python3 "$SRCDIR/tests/python/history_unit.py"
