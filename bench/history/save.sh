#!/bin/bash
# bench/history/save.sh - what `--label` adds to a run: the same short
# run (-B null -t 1, 1 client) without and with --label, alternated round
# by round, once into a fresh database and once into one already holding
# PREFILL runs (the indexes and triggers at work).  Two figures per run:
# the "tail", from the report's write to the process's exit (stamped by
# strace), where the save happens (building the document,
# the loadfile's SHA-256, the transaction); and the whole process's
# wall-clock time, which a shared machine spreads by +-100 ms.  The
# differences are taken within each round; median and range over the
# rounds.  A benchmark, not a test: it asserts nothing and is not part
# of `make check`.
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
command -v strace >/dev/null || { echo "bench/history/save.sh: needs strace" >&2; exit 2; }
WORK=$(mktemp -d /var/tmp/dbench-bench-hist.XXXXXX) || exit 2
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT

RUN=(-B null -t 1 --warmup=0 -D "$WORK")

# ms ARGS...: run dbench with ARGS; print its wall-clock milliseconds and
# those from its report's write (the table, then the Throughput line) to
# its exit_group, as strace stamps them (--seccomp-bpf: only those two
# calls stop the process; -B null's workers make neither)
ms() {
	local t0 t1
	t0=$(date +%s%N)
	strace --seccomp-bpf -f -ttt -e trace=write,exit_group \
		-o "$WORK/trace" "$DBENCH" "${RUN[@]}" "$@" >/dev/null 2>&1 || {
		echo "bench/history/save.sh: dbench $* failed" >&2
		return 1
	}
	t1=$(date +%s%N)
	awk -v ms=$(((t1 - t0) / 1000000)) '
		/write\(1, "\\n Operation/ { pid = $1; w = $2 }
		$1 == pid && /exit_group/ { e = $2 }
		END { if (w == "" || e == "") exit 1
		      printf "%d %.1f\n", ms, (e - w) * 1000 }' "$WORK/trace"
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
	: >"$WORK/tail0" && : >"$WORK/tail1" && : >"$WORK/taild"
	for _ in $(seq 1 "$ROUNDS"); do
		a=$(ms 1) && [ -n "$a" ] || exit 1
		b=$(ms --label bench --history "$db" 1) && [ -n "$b" ] || exit 1
		set -- $a $b
		echo "$1" >>"$WORK/plain"
		echo "$2" >>"$WORK/tail0"
		echo "$4" >>"$WORK/tail1"
		awk -v a="$1" -v b="$3" -v p="$2" -v q="$4" 'BEGIN {
			printf "%.1f\n", b - a >> "'"$WORK/diff"'"
			printf "%.4f\n", b / a >> "'"$WORK/ratio"'"
			printf "%.1f\n", q - p >> "'"$WORK/taild"'" }'
	done
	printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$name" \
		"$(stats "$WORK/tail0")" "$(stats "$WORK/tail1")" \
		"$(stats "$WORK/taild")" "$(stats "$WORK/plain")" \
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
echo "| database | tail without, ms | tail with --label, ms | tail: --label adds, ms | whole run without, ms | whole run: --label adds, ms | whole run with/without |"
echo "|---|---:|---:|---:|---:|---:|---:|"
one "$WORK/fresh.sqlite" "new (made by the first save)"
rm -f "$WORK"/fresh.sqlite*
one "$WORK/big.sqlite" "$(sqlite3 "$WORK/big.sqlite" 'SELECT count(*) FROM runs') runs already"
