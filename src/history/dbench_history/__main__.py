"""dbench-history's entry point: python3 -m dbench_history, or the zipped
command that make builds."""

import sys

from dbench_history.cli import main

sys.exit(main())
