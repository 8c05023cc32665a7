#!/bin/bash
# bench/history/history.sh - how fast dbench-history answers over a large
# history: 10,000 runs (10 labels of 1,000 runs: 9 of a load run's
# document, one of a disk test's, as dbench --json writes them) inserted
# through the schema (src/history/schema: the same triggers and generated columns as
# a save), then `list`, `compare`, `trend` and `servers` timed, the
# median of ROUNDS runs each with the database in the page cache, and
# once after dropping the caches (root only).  A benchmark, not a test:
# it asserts nothing and is not part of `make check`.
#
#     bench/history/history.sh [DIR]      (default /var/tmp)
#
# Environment: DBENCH (default ./dbench), HISTORY (default
# ./dbench-history), RUNS (default 10000), ROUNDS (default 5), KEEP=1
# (leave the work directory with the database).
set -u
export LC_ALL=C

DIR=${1:-/var/tmp}
RUNS=${RUNS:-10000}
ROUNDS=${ROUNDS:-5}
DBENCH=${DBENCH:-./dbench}
HISTORY=${HISTORY:-./dbench-history}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
[ -x "$DBENCH" ] || { echo "bench/history: no dbench binary (set DBENCH)" >&2; exit 2; }
[ -x "$HISTORY" ] || { echo "bench/history: no dbench-history (set HISTORY)" >&2; exit 2; }
WORK=$(mktemp -d "$DIR/dbench-bench-history.XXXXXX") || exit 2
trap '[ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"$DBENCH" -B null -t 2 --json="$WORK/load.json" 2 >/dev/null || exit 1
"$DBENCH" --disk-test -D "$WORK" --size 4M --repeat 3 \
	--json="$WORK/disk.json" >/dev/null || exit 1
export DBENCH_HISTORY=$WORK/history.sqlite

# 10 labels (server-9 of disk tests, the others of load runs); every 5
# runs a group (--repeat 5); the later half of each label 10% slower (a
# change for trend)
start=$(date +%s.%N)
PYTHONPATH=$SRC/src/history python3 - "$WORK" "$RUNS" <<'PY' || exit 1
import random, sys
from dbench_history.db import History
work, runs = sys.argv[1], int(sys.argv[2])
h = History(work + "/history.sqlite", write=True)
load = open(work + "/load.json").read()
disk = open(work + "/disk.json").read()
random.seed(1)
h.begin()
per_label = runs // 10
for i in range(runs):
    label, n = "server-%d" % (i % 10), i // 10
    if n % 5 == 0:
        gid = h.conn.execute(
            "INSERT INTO groups (kind, label, created_utc) VALUES "
            "('repeat', ?, '2026-01-01T00:00:00Z')", (label,)).lastrowid
    t = "2026-%02d-%02dT%02d:%02d:%02d.000Z" % (
        1 + n * 12 // per_label, 1 + n % 28, i % 24, i % 60, n % 60)
    level = 1000.0 * (0.9 if n >= per_label // 2 else 1.0)
    if i % 10 == 9:
        doc = ("json_set(?, '$.start_time', ?, "
               "'$.disk_test.directories[0].measurements[0].mb_per_s_median', ?)")
        text = disk
    else:
        doc = ("json_set(?, '$.start_time', ?, "
               "'$.result.throughput_mb_per_s', ?)")
        text = load
    h.conn.execute(
        "INSERT INTO runs (group_id, seq, label, saved_utc, exit_status, "
        "result_json) VALUES (?, ?, ?, ?, 0, %s)" % doc,
        (gid, n % 5, label, t, text, t, random.gauss(level, 30.0)))
h.commit()
PY
end=$(date +%s.%N)
size=$(du -k "$WORK/history.sqlite" | cut -f1)
echo "history: $RUNS runs, $((size / 1024)) MiB, inserted in $(echo "$end - $start" | bc) s"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

# timeit NAME ARGS...: the median wall and CPU (user+system) seconds of
# ROUNDS runs, their wall range, and one run's wall time with cold caches
timeit() {
	local name=$1 i cold=-
	shift
	if [ "$(id -u)" -eq 0 ]; then
		sync
		if echo 3 >/proc/sys/vm/drop_caches 2>/dev/null; then
			/usr/bin/time -f "%e" -o "$WORK/t" "$HISTORY" "$@" >/dev/null ||
				echo "bench/history: $name failed" >&2
			cold=$(cat "$WORK/t")
		fi
	fi
	for i in $(seq "$ROUNDS"); do
		/usr/bin/time -f "%e %U %S" -o "$WORK/t" "$HISTORY" "$@" >/dev/null ||
			echo "bench/history: $name failed" >&2
		cat "$WORK/t"
	done | awk -v n="$name" -v c="$cold" '
		{ w[NR] = $1; u[NR] = $2 + $3 }
		function med(a, k,  i, j, t) {
			for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++)
				if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			return a[int((k + 1) / 2)]
		}
		END { m = med(w, NR); printf "%-28s wall %6.2f s  cpu %6.2f s  (wall %.2f-%.2f; cold %s s)\n",
			n, m, med(u, NR), w[1], w[NR], c }'
}

timeit "list (all $RUNS runs)" list
timeit "list --label server-3" list --label server-3
timeit "compare server-1 server-2" compare server-1 server-2
timeit "trend server-3" trend server-3
timeit "servers" servers
"$HISTORY" trend server-3 | grep '^change point' | head -3
