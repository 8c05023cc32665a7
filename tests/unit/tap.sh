#!/bin/bash
# tap.sh TEST: run a cmocka unit test so that automake's TAP driver reads
# one line per case: cmocka writes TAP (CMOCKA_MESSAGE_OUTPUT=TAP), and a
# case that called skip() ("not ok N # SKIP name" in cmocka's words, a
# failure to the driver) becomes "ok N - name # SKIP", a visible skip in
# make check's summary.  The exit status is the test's own.
CMOCKA_MESSAGE_OUTPUT=TAP
export CMOCKA_MESSAGE_OUTPUT
set -o pipefail
"$@" | sed -e 's/^not ok \([0-9][0-9]*\) # SKIP \(.*\)$/ok \1 - \2 # SKIP/'
