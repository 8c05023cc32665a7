"""dbench-capture's entry point: python3 -m dbench_capture, or the zipped
command that make builds."""

import sys

from dbench_capture.cli import main

sys.exit(main())
