#!/bin/bash
# bench/sweep/curve.sh - what a sweep costs besides its measurements:
# the time between two runs of --repeat (the trees set up and removed,
# the workers forked and reaped), and a 6-point --curve=auto (1, 2, 4, 8,
# 16, 32 clients: every point holds a generous bound, --curve-max 32)
# against the sum of its points' warmups and windows.  Target: the curve
# ends within that sum plus 10%.
#
#   bench/sweep/curve.sh [--quick] [--build DIR] [-D DIR]
#
#   --quick    -t 2 instead of -t 10 (the target is stated for -t 10)
#   --build    the build measured (default: the current directory)
#   -D DIR     the target (default: a fresh directory under /dev/shm)
#
# Needs python3 (to read the JSON).  Not part of make check; the figures
# are in BENCHMARKS.md ("Repeats and curves").
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
set -u
export LC_ALL=C

BUILD=$PWD
T=10
DIR=
while [ $# -gt 0 ]; do
	case $1 in
	--quick) T=2 ;;
	--build) BUILD=$2; shift ;;
	-D) DIR=$2; shift ;;
	-h|--help) sed -n '2,/^[^#]/{/^#/p}' "$0"; exit 0 ;;
	*) echo "$0: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done
DB=$(cd "$BUILD" && pwd)/dbench
[ -x "$DB" ] || { echo "bench: $DB not found (--build DIR)" >&2; exit 2; }
SCRATCH=$(mktemp -d /dev/shm/bench-sweep.XXXXXX) || exit 1
trap 'rm -rf "$SCRATCH"' EXIT
[ -n "$DIR" ] || { DIR=$SCRATCH/t; mkdir "$DIR"; }

now() { date +%s.%N; }

# spent JSON: the sum over the sweep's runs of their warmup and window
# (seconds), and the runs' count
spent() {
	python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
docs = ([p["result"] for p in d["curve"]["points"]] if "curve" in d
        else d["repeats"]["runs"])
total = 0.0
for r in docs:
    total += sum(ph["seconds"] for ph in r.get("phases", [])
                 if ph["name"] in ("warmup", "execute"))
print("%.3f %d" % (total, len(docs)))
PY
}

echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(git -C "$BUILD" rev-parse --short HEAD 2>/dev/null || echo '?'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# target: $DIR"

# between runs: --repeat 5 of 4 clients with -t 1 --warmup 0 (the
# default loadfile, so that the trees are the real ones)
t0=$(now)
"$DB" -D "$DIR" -t 1 --warmup 0 --repeat 5 --json "$SCRATCH/r.json" 4 \
	>"$SCRATCH/r.out" 2>&1 || { echo "repeat failed"; cat "$SCRATCH/r.out"; exit 1; }
t1=$(now)
read -r sum n <<<"$(spent "$SCRATCH/r.json")"
awk -v a="$t0" -v b="$t1" -v s="$sum" -v n="$n" 'BEGIN {
	printf "repeat 5 x 4 clients, -t 1: wall %.2f s, measured %.2f s, between runs %.3f s per run\n",
		b - a, s, (b - a - s) / n }'

# the 6-point auto curve
t0=$(now)
"$DB" -D "$DIR" -t "$T" --curve=auto --curve-max 32 --slo 'p99<=60s' \
	--json "$SCRATCH/c.json" >"$SCRATCH/c.out" 2>&1 ||
	{ echo "curve failed"; tail -n 20 "$SCRATCH/c.out"; exit 1; }
t1=$(now)
read -r sum n <<<"$(spent "$SCRATCH/c.json")"
awk -v a="$t0" -v b="$t1" -v s="$sum" -v n="$n" -v t="$T" 'BEGIN {
	r = (b - a) / s
	printf "curve=auto, %d points, -t %d: wall %.2f s, warmups+windows %.2f s, ratio %.3f (target <= 1.10: %s), %.3f s between points\n",
		n, t, b - a, s, r, r <= 1.10 ? "met" : "MISSED", (b - a - s) / n }'
