#!/bin/bash
# bench/lib/common.sh - what every measurement of bench/ shares: the
# options, the builds and the reference, a scratch tmpfs, running a tool
# bounded in time and memory, and the report.  Sourced, not run.
#
# Options (every measurement script takes them):
#   --quick       shorter runs and smaller inputs, for development.  The
#                 default (--full) is what BENCHMARKS.md reports: 5 rounds
#                 of 20 s throughput runs, 60 s with 1,024 clients, whole
#                 loadfiles.
#   --build DIR   the build measured (default: the current directory; it
#                 needs ./dbench and bench/bench-engine, bench/bench-compile,
#                 bench/bench-syscall-cost, which `make bench` builds)
#   --base DIR    a second build of ours, the "before", run alternately
#                 with --build's and 4.00 in every round
#   --ref PATH    dbench 4.00 (default /usr/bin/dbench when it is 4.00)
#   --pairs N     rounds of alternated throughput runs (quick 3, full 5);
#                 ratios are taken within a round and reported as median
#                 and spread
#   --deep N      path components of the deep -D (default 12); the shallow
#                 -D is the bench's own directory under /dev/shm
#
# Installs nothing; a missing reference (or tool: strace, valgrind, perf)
# skips the columns or figures that need it, visibly.  Every run works in
# fresh directories under /dev/shm (tmpfs), removed at exit.  Wall-clock
# figures need a quiet machine (BENCHMARKS.md, "Method"); instruction
# counts (callgrind) and system call counts do not.
set -u
export LC_ALL=C

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SRC=$(dirname "$HERE")
BUILD=$PWD
QUICK=0
REF=${DBENCH_REFERENCE:-/usr/bin/dbench}
BASE=
PAIRS=
DEPTH_DEEP=12
while [ $# -gt 0 ]; do
	case $1 in
	--quick) QUICK=1 ;;
	--full) QUICK=0 ;;
	--build) BUILD=$2; shift ;;
	--base) BASE=$2; shift ;;
	--pairs) PAIRS=$2; shift ;;
	--deep) DEPTH_DEEP=$2; shift ;;
	--ref) REF=$2; shift ;;
	-h|--help) sed -n '2,/^[^#]/{/^#/p}' "$0"; sed -n '2,/^[^#]/{/^#/p}' "$HERE/lib/common.sh"; exit 0 ;;
	*) echo "$0: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done

BUILD=$(cd "$BUILD" && pwd) || exit 2
DB=$BUILD/dbench
ENGINE=$BUILD/bench/bench-engine
COMPILE=$BUILD/bench/bench-compile
SYSCOST=$BUILD/bench/bench-syscall-cost
for f in "$DB" "$ENGINE" "$COMPILE" "$SYSCOST"; do
	if [ ! -x "$f" ]; then
		echo "bench: $f not found: run 'make bench' (or make" \
			"bench/bench-engine bench/bench-compile" \
			"bench/bench-syscall-cost) in the build" \
			"directory, or pass --build DIR" >&2
		exit 2
	fi
done
if [ -n "$BASE" ]; then
	BASE=$(cd "$BASE" && pwd) || exit 2
	for f in "$BASE/dbench" "$BASE/bench/bench-compile"; do
		if [ ! -x "$f" ]; then
			echo "bench: --base: $f not found: run 'make dbench" \
				"bench/bench-compile' in $BASE" >&2
			exit 2
		fi
	done
fi
HAVE_REF=0
if [ -x "$REF" ] && "$REF" --help 2>&1 | head -n 1 | grep -q 'version 4\.00'; then
	HAVE_REF=1
fi
REF_LF=/usr/share/dbench/client.txt
OUR_LF=$SRC/loadfiles/client.txt
[ -r "$REF_LF" ] || REF_LF=
have() { command -v "$1" >/dev/null 2>&1; }

if [ $QUICK = 1 ]; then
	T_TPUT=10 T_SCALE=10 T_NULL=3 SYS_LINES=60000 MODE=quick
	: "${PAIRS:=3}"
	SHORT_LINES=4000000
else
	T_TPUT=20 T_SCALE=60 T_NULL=10 SYS_LINES=0 MODE=full
	: "${PAIRS:=5}"
	SHORT_LINES=10000000
fi
HZ=$(getconf CLK_TCK)
# the tools of the alternated runs, by name
declare -A BIN=([ref]=$REF [base]=$BASE/dbench [ours]=$DB)
TOOLS=ours
[ -n "$BASE" ] && TOOLS="base $TOOLS"
[ $HAVE_REF = 1 ] && TOOLS="ref $TOOLS"
has_tool() { case " $TOOLS " in *" $1 "*) return 0 ;; esac; return 1; }
NSCALE=${BENCH_SCALE_CLIENTS:-1024}

W=$(mktemp -d /dev/shm/dbench-bench.XXXXXX) || exit 1
FS=$(mktemp -d /dev/shm/dbb.XXXXXX) || exit 1
# The clients' files go to $FS.  Hundreds of clients can fill a tmpfs
# faster than they delete: where we may, $FS is a tmpfs of our own,
# limited to half the available memory, so that the filesystem fills up
# (failed writes, see scale/clients.sh) long before the machine runs out of
# memory (bounded also stops a run when less than 2 GB stay available,
# or when /dev/shm itself is full where we cannot mount).
# 1,024 clients of the default loadfile wrote about 14 GB in 60 s on the
# 24 GiB machine of BENCHMARKS.md in November; ours now writes some 20 GB
# in its first 25-35 s (on an unlimited /dev/shm the machine stalled and
# the OOM killer came), so scale/clients.sh runs on a full filesystem.
# Our own outputs stay in $W, outside it.  $FS is a directory of its own
# under /dev/shm, so that the shallow -D of the throughput runs has as
# few components as /dev/shm/b (see engine/throughput.sh).
MOUNTED=0
if [ "$(id -u)" = 0 ]; then
	avail=$(awk '/^MemAvailable/ { print int($2 * 0.5) }' /proc/meminfo)
	mount -t tmpfs -o "size=${avail}k,mode=0700" dbench-bench "$FS" 2>/dev/null &&
		MOUNTED=1
fi
cleanup() {
	# our own background jobs only
	for p in $(jobs -p); do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "${FS:?}"/* 2>/dev/null
	[ $MOUNTED = 1 ] && umount "$FS"
	rmdir "$FS"
	rm -rf "${W:?}"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

RESULTS=$W/results
: >"$RESULTS"
R2=$W/results19
: >"$R2"
# result TARGET LABEL REF OURS RATIO GOAL VERDICT
result() {
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$RESULTS"
}
# r2 ITEM LABEL REF BEFORE AFTER AFTER/REF AFTER/BEFORE GOAL VERDICT: a
# row of the before/after table (4.00, --base, --build)
r2() {
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$R2"
}
log() { printf '[bench %s] %s\n' "$(date -u +%T)" "$*" >&2; }
fresh() {
	rm -rf "$FS/t"
	mkdir -p "$FS/t"
}
# percentage of $FS in use
fs_used() { df -P "$FS" | awk 'NR == 2 { sub("%", "", $5); print $5 }'; }
# ratio A B: A/B with 3 decimals, "-" when either is missing
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (a == "-" || b == "-" || a == "" || b == "" || b + 0 == 0)
			print "-"
		else
			printf "%.3f", a / b }'
}
# the median of the numbers given (empty ones ignored)
median() {
	printf '%s\n' "$@" | awk 'NF' | sort -g | awk '{ v[++n] = $1 } END {
		if (n == 0) exit
		print (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }'
}
# the Throughput figure of a dbench output
tput() { awk '/^Throughput/ { print $2 }' "$1" | tail -n 1; }
# sum of the Count column of the final table
table_ops() {
	awk '/^ *-+$/ { t = 1; next } t && NF == 4 { n += $2 } t && NF == 0 { t = 0 }
	     END { print n + 0 }' "$1"
}
# timestamp each line of stdin (bash 5: microseconds); as a real-time
# task when allowed, so that the stamp is when the line was written, not
# when a busy machine let us read it
STAMP='while IFS= read -r l; do printf "%s %s\n" "$EPOCHREALTIME" "$l"; done'
stamper() { realtime bash -c "$STAMP"; }
# realtime CMD...: CMD as a real-time task when allowed
realtime() {
	if [ "$(id -u)" = 0 ] && have chrt; then
		chrt -f 2 "$@"
	else
		"$@"
	fi
}

machine() {
	echo "machine: $(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)," \
		"$(nproc) CPUs, $(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo) RAM," \
		"kernel $(uname -r), clocksource" \
		"$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo '?')," \
		"/dev/shm on $(df -PT /dev/shm | awk 'NR == 2 { print $2 }')"
	echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
	if [ $HAVE_REF = 1 ]; then
		echo "reference: $REF (dbench 4.00)"
	else
		echo "reference: none ($REF is not dbench 4.00): reference columns SKIPPED"
	fi
	echo "ours: $DB ($("$DB" --version 2>&1 | head -n 1))"
	[ -n "$BASE" ] && echo "before (--base): $BASE/dbench"
	echo "mode: $MODE, $PAIRS rounds of ${T_TPUT}s throughput runs," \
		"-D of $DEPTH_SHALLOW and $DEPTH_DEEP components"
	echo "system call cost: $SYSCALL_COST"
}

# bounded SECS OUT ERR CMD...: run CMD in a session of its own with stdout
# to OUT (a file or fifo); after SECS, or when memory runs low, stop the
# whole session (4.00 leaves its children running when its parent dies).
# Returns 0, or 124 when it had to be stopped.
bounded() {
	local secs=$1 out=$2 err=$3 pid rc=0 end
	shift 3
	setsid "$@" >"$out" 2>"$err" </dev/null &
	pid=$!
	# the session id, for bench/lib/watch.sh (see watched)
	[ -n "${BOUNDED_SIDFILE:-}" ] && echo "$pid" >"$BOUNDED_SIDFILE"
	end=$((SECONDS + secs))
	# twice a second, and with as few processes as possible: the checks
	# run beside the tool they watch (at ten a second, the df, awk and
	# sleep processes cost ~16% of this 2-CPU machine and added ~0.7 s to
	# a start of 1,024 clients)
	while kill -0 "$pid" 2>/dev/null; do
		# (a full filesystem of our own is harmless: its size is
		# capped; a full shared /dev/shm is memory running out)
		if [ $SECONDS -ge $end ] ||
		   { [ $MOUNTED = 0 ] && [ "$(fs_used)" -ge 98 ]; } ||
		   [ "$(mem_available)" -lt 2000000 ]; then
			kill -TERM -- -"$pid" 2>/dev/null
			sleep 2
			kill -KILL -- -"$pid" 2>/dev/null
			settle "$pid"
			rc=124
			break
		fi
		sleep 0.5
	done
	wait "$pid" 2>/dev/null
	[ $rc = 0 ] || echo "    (stopped: ${secs}s passed, memory low or $FS full ($(fs_used)%): $*)" >&2
	return $rc
}
# settle SID: wait (up to 60 s) until no process of session SID is left.
# 4.00's clients outlive their parent and take a second or more to exit
# by the thousand: the next measurement must not run beside them.
settle() {
	local i=0
	while pgrep -s "$1" >/dev/null 2>&1 && [ $i -lt 120 ]; do
		sleep 0.5
		i=$((i + 1))
	done
}
# MemAvailable in kB, read without starting a process
mem_available() {
	local k v _
	while read -r k v _; do
		[ "$k" = MemAvailable: ] && { echo "$v"; return; }
	done </proc/meminfo
}



# clear_fs: an empty $FS (4.00 leaves its files behind)
clear_fs() { rm -rf "${FS:?}"/*; }
# depth_dir N: a directory of N path components, $FS itself or under it
depth_dir() {
	local d=$FS i
	i=$(echo "$FS" | awk -F/ '{ print NF - 1 }')
	while [ "$i" -lt "$1" ]; do
		i=$((i + 1))
		d=$d/d$i
	done
	echo "$d"
}
# watched OUTPREFIX PSS_LINE SECS CMD...: CMD (a tool run, bounded to
# SECS) with its output read by bench/lib/watch.sh into OUTPREFIX.out, .cpu
# and .mem; waits until the run's processes are all gone
watched() {
	local o=$1 pl=$2 secs=$3 wpid sid
	shift 3
	rm -f "$o.fifo" "$o.sid"
	mkfifo "$o.fifo"
	stamper <"$o.fifo" |
		realtime bash "$HERE/lib/watch.sh" "$o" "$o.sid" "$pl" &
	wpid=$!
	BOUNDED_SIDFILE=$o.sid bounded "$secs" "$o.fifo" "$o.err" "$@"
	wait "$wpid"
	read -r sid <"$o.sid" && settle "$sid"
	rm -f "$o.fifo"
}
# ok_if VALUE OP LIMIT: "ok", "MISS", or "-" for no value
ok_if() {
	awk -v v="$1" -v op="$2" -v l="$3" 'BEGIN {
		if (v == "-" || v == "") { print "-"; exit }
		if (op == "<=") print ((v + 0 <= l + 0) ? "ok" : "MISS")
		else print ((v + 0 >= l + 0) ? "ok" : "MISS") }'
}
# r2_cols FILE COL DIV FMT: column COL of the ref, base and ours lines of
# FILE ("TOOL v1 v2 v3 v4"), divided by DIV, printed with FMT, "-" where
# missing
r2_cols() {
	local t
	for t in ref base ours; do
		awk -v t="$t" -v c="$2" -v d="$3" -v f="$4" '$1 == t { v = $(c + 1) }
			END { print (v == "" || v == "-") ? "-" : sprintf(f, v / d) }' "$1"
	done
}

# what this machine charges per system call, in user time (it differs
# from machine to machine by 20x): the median of three runs of bench-syscall-cost, printed with every run
syscall_cost() {
	local k f u=() s=()
	for k in 1 2 3; do
		read -r -a f <<<"$("$SYSCOST")"
		u+=("${f[3]}")
		s+=("${f[5]}")
	done
	SYSCALL_USER_NS=$(median "${u[@]}")
	SYSCALL_COST="getppid() ${SYSCALL_USER_NS} ns user, $(median "${s[@]}") ns system"
	SYSCALL_COST="$SYSCALL_COST (bench-syscall-cost, median of 3; user ${u[*]})"
}
DEPTH_SHALLOW=$(echo "$FS" | awk -F/ '{ print NF - 1 }')

DEPTH_SHALLOW=$(echo "$FS" | awk -F/ '{ print NF - 1 }')
syscall_cost
machine | tee "$W/machine" >&2

# bench_report: the tables of what the measurement script recorded
bench_report() {
	echo
	cat "$W/machine"
	if [ -s "$RESULTS" ]; then
		echo
		awk -F'\t' '
			BEGIN { printf "%-11s %-62s %12s %12s %9s %12s  %s\n", "measure",
				"figure", "4.00", "ours", "ours/4.00", "goal", "verdict" }
			{ printf "%-11s %-62s %12s %12s %9s %12s  %s\n", $1, $2, $3, $4, $5, $6, $7 }' \
			"$RESULTS"
	fi
	if [ -s "$R2" ]; then
		echo
		echo "4.00, before (--base), after (--build); ratios are medians of the"
		echo "ratios within each round of alternated runs"
		awk -F'\t' '
			BEGIN { printf "%-11s %-78s %9s %9s %9s %10s %12s %14s  %s\n", "measure",
				"figure", "4.00", "before", "after", "after/4.00", "after/before",
				"goal", "verdict" }
			{ printf "%-11s %-78s %9s %9s %9s %10s %12s %14s  %s\n", $1, $2, $3, $4, $5,
				$6, $7, $8, $9 }' "$R2"
	fi
	if [ -f "$W/t1.table" ]; then
		echo
		echo "system calls per client pass (summed over clients):"
		sed 's/^/  /' "$W/t1.table"
	fi
}
