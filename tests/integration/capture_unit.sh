#!/bin/bash
# capture_unit.sh - runs capture_unit.py, the unit tests of
# tools/dbench-capture (Python's unittest; exit 77, a skip, without python3).
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
: "${SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
export SRCDIR
if ! command -v python3 >/dev/null 2>&1; then
	echo "python3 is not installed: dbench-capture's unit tests skipped"
	exit 77
fi
exec python3 "$SRCDIR/tests/integration/capture_unit.py"
