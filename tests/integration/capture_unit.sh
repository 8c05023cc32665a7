#!/bin/bash
# capture_unit.sh - runs capture_unit.py, the unit tests of the
# dbench-capture package (src/capture/dbench_capture; Python's unittest,
# reported as TAP; a visible skip without python3).
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
: "${SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
export SRCDIR
if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 is not installed: dbench-capture's unit tests not run"
	exit 0
fi
exec python3 "$SRCDIR/tests/python/capture_unit.py"
