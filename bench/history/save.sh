#!/bin/bash
# bench/history/save.sh - what `--label` adds to a run: the same short
# run (-B null -t 1, 1 client) without and with --label, alternated round
# by round, wall-clock time of each process; the difference within each
# round, median and range over the rounds, once into a fresh database
# and once into one already holding PREFILL runs (the indexes and
# triggers at work).  A benchmark, not a test: it asserts nothing and is
# not part of `make check`.
#
#     bench/history/save.sh
#
# Environment: DBENCH (default: ./dbench, then dbench in PATH), ROUNDS
# (default 10), PREFILL (runs copied into the second database, default
# 2000).  The save builds the whole JSON document (histograms, the
# once-a-second series) and writes it in one transaction; with WAL and
# synchronous=FULL (SQLite's default) that is a commit's fsync.
set -u
export LC_ALL=C

ROUNDS=${ROUNDS:-10}
PREFILL=${PREFILL:-2000}
if [ -z "${DBENCH:-}" ]; then
	if [ -x ./dbench ]; then DBENCH=./dbench; else DBENCH=$(command -v dbench); fi
fi
[ -x "$DBENCH" ] || { echo "bench/history/save.sh: no dbench binary (set DBENCH)" >&2; exit 2; }
command -v sqlite3 >/dev/null || { echo "bench/history/save.sh: needs sqlite3" >&2; exit 2; }
WORK=$(mktemp -d /var/tmp/dbench-bench-hist.XXXXXX) || exit 2
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT

RUN=(-B null -t 1 --warmup=0 -D "$WORK")

# ms ARGS...: run dbench with ARGS, print its wall-clock milliseconds
ms() {
	local t0 t1
	t0=$(date +%s%N)
	"$DBENCH" "${RUN[@]}" "$@" >/dev/null 2>&1 || {
		echo "bench/history/save.sh: dbench $* failed" >&2
		exit 1
	}
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000))
}

# stats FILE: median [min-max] of one number per line
stats() {
	sort -n "$1" | awk '{ v[NR] = $1 } END {
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%g [%g-%g]", m, v[1], v[NR] }'
}

# one DB NAME: ROUNDS alternated rounds into database DB
one() {
	local db=$1 name=$2 a b
	: >"$WORK/plain" && : >"$WORK/diff" && : >"$WORK/ratio"
	for _ in $(seq 1 "$ROUNDS"); do
		a=$(ms 1) || exit 1
		b=$(ms --label bench --history "$db" 1) || exit 1
		echo "$a" >>"$WORK/plain"
		echo $((b - a)) >>"$WORK/diff"
		awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f\n", b / a }' \
			>>"$WORK/ratio"
	done
	printf '| %s | %s | %s | %s |\n' "$name" "$(stats "$WORK/plain")" \
		"$(stats "$WORK/diff")" "$(stats "$WORK/ratio")"
}

# the second database: one real run, copied PREFILL times (each copy a
# group and a run, derived by the same triggers as a save)
"$DBENCH" "${RUN[@]}" --label seed --history "$WORK/big.sqlite" 1 \
	>/dev/null 2>&1 || { echo "bench/history/save.sh: seed run failed" >&2; exit 1; }
sqlite3 "$WORK/big.sqlite" "
	WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n
				WHERE i < $PREFILL)
	INSERT INTO groups (kind, label, created_utc)
	SELECT 'single', 'copy' || (i % 20), '2026-01-01T00:00:00Z' FROM n;
	INSERT INTO runs (group_id, seq, label, saved_utc, exit_status,
			  result_json)
	SELECT g.id, 0, g.label, g.created_utc, 0,
	       (SELECT result_json FROM runs WHERE id = 1)
	FROM groups g WHERE g.label LIKE 'copy%';" ||
	{ echo "bench/history/save.sh: prefill failed" >&2; exit 1; }

echo "dbench ${RUN[*]} 1, $ROUNDS alternated rounds, $(git describe --always --dirty 2>/dev/null || echo '?'), $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "database on $(stat -f -c %T "$WORK") ($WORK)"
echo
echo "| database | run without --label, ms | --label adds, ms | with/without |"
echo "|---|---:|---:|---:|"
one "$WORK/fresh.sqlite" "new (made by the first save)"
rm -f "$WORK"/fresh.sqlite*
one "$WORK/big.sqlite" "$(sqlite3 "$WORK/big.sqlite" 'SELECT count(*) FROM runs') runs already"
