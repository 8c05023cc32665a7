#!/bin/bash
# tests/soak/soak.sh - a long soak of the stop paths: runs of 64
# clients, one after another, each hit by a random event (nothing,
# SIGINT/SIGTERM/SIGHUP to the parent or to the whole process group, two
# SIGINTs, SIGSTOP or SIGKILL to one worker) on a small filesystem that
# a filler file makes fill up at random.  After every run it checks that
# the run ended (within its time, the stall bound and a margin), that its
# exit status fits the event, that no process of its session is left,
# that a decoy tree inside -D is byte for byte as it was, and that
# nothing but the run's own files (clients/, only after a double SIGINT
# abandoned the cleanup) is left beside it.  Not part of make check.
#
#   tests/soak/soak.sh [--minutes N] [--short] [--clients N] [--size SIZE]
#                 [--dbench PATH] [--loadfile FILE] [--keep DIR]
#
# --short: 2 minutes.  Default 30 minutes, 64 clients, a 1g tmpfs (as
# root, where mounts are allowed; otherwise a directory under /dev/shm,
# which does not fill up: said at the start).  64 clients of client.txt
# write about 1 GB in 4 s: half the runs are paced (-R 1: 64 MB/s in all,
# so that they end with room to spare and the pacing waits meet the
# signals), the other half run flat out beside a filler file that leaves
# 2-50% free, and fill it.  Every run's output goes to
# a directory under --keep (default: a fresh one under /var/tmp), removed
# at the end when everything passed.  Run it inside a sandbox or on a
# machine whose disks you do not mind: it starts hundreds of runs.
# Exit status: 0 when every run passed, 1 otherwise (the failed runs and
# their logs are listed).
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
set -u
export LC_ALL=C

HERE=$(cd "$(dirname "$0")/.." && pwd)
SRC=$(dirname "$HERE")
MINUTES=30
CLIENTS=64
SIZE=1g
DBENCH=${DBENCH:-$SRC/dbench}
LOADFILE=$SRC/loadfiles/client.txt
KEEP=""
# the parent's bound on a worker making no progress in the cleanup
STALL=10
while [ $# -gt 0 ]; do
	case $1 in
	--minutes) MINUTES=$2; shift ;;
	--short) MINUTES=2 ;;
	--clients) CLIENTS=$2; shift ;;
	--size) SIZE=$2; shift ;;
	--dbench) DBENCH=$2; shift ;;
	--loadfile) LOADFILE=$2; shift ;;
	--keep) KEEP=$2; shift ;;
	-h|--help) sed -n '2,24p' "$0"; exit 0 ;;
	*) echo "soak.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done
[ -x "$DBENCH" ] || { echo "soak.sh: no dbench at $DBENCH" >&2; exit 2; }
[ -r "$LOADFILE" ] || { echo "soak.sh: cannot read $LOADFILE" >&2; exit 2; }

TOP=${KEEP:-$(mktemp -d /var/tmp/dbench-soak.XXXXXX)}
mkdir -p "$TOP/runs" "$TOP/fs"
FS=$TOP/fs
MOUNTED=0
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o "size=$SIZE" dbench-soak "$FS" 2>/dev/null; then
	MOUNTED=1
	echo "soak: a $SIZE tmpfs at $FS (it fills up)"
else
	FS=$(mktemp -d /dev/shm/dbench-soak.XXXXXX)
	echo "soak: no tmpfs mount allowed here: $FS, which does not fill up"
fi
cleanup() {
	[ "$MOUNTED" -eq 1 ] && umount "$FS" 2>/dev/null
	[ "$MOUNTED" -eq 0 ] && rm -rf "$FS"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

D=$FS/d
mkdir -p "$D/decoy/sub/deeper"
# the decoy: files, a symlink, modes, an empty directory, beside clients/
for i in $(seq 1 20); do
	head -c $((i * 997)) /dev/urandom >"$D/decoy/f$i"
done
echo precious >"$D/decoy/sub/deeper/p.txt"
chmod 600 "$D/decoy/f1"
ln -s ../f2 "$D/decoy/sub/link"
mkdir "$D/decoy/empty"
decoy_sum() {
	(cd "$D/decoy" && find . -printf '%p %y %m %s %l\n' | sort &&
		find . -type f -exec sha256sum {} + | sort) | sha256sum
}
DECOY=$(decoy_sum)

# what one worker of the loadfile needs in descriptors, roughly: a
# process may run as many clients as the hard limit allows
HARD=$(ulimit -Hn)
CPP_CHOICES="1"
for k in 2 4; do
	[ $((k * 14000)) -le "$HARD" ] && CPP_CHOICES="$CPP_CHOICES $k"
done
EVENTS="none int term hup gint gterm ghup int2 stop kill"

pick() { local a=($1); echo "${a[$((RANDOM % ${#a[@]}))]}"; }

# expected EVENT RC ERRFILE: whether status RC fits EVENT (1 is always
# allowed: the filesystem may be full first).
expected() {
	local ev=$1 rc=$2
	[ "$rc" -eq 1 ] && return 0
	case $ev in
	none) [ "$rc" -eq 0 ] ;;
	int|gint|int2) [ "$rc" -eq 130 ] ;;
	term|gterm) [ "$rc" -eq 143 ] ;;
	hup|ghup) [ "$rc" -eq 129 ] ;;
	stop|kill) false ;;	# a lost worker is exit 1
	esac
}

# one_run N: a run with a random event; 0 when every check passed.
one_run() {
	local n=$1 dir=$TOP/runs/$1 t ev cpp fill pid sid w rc=0 bound left
	local rate=()
	local problems=""
	mkdir -p "$dir"
	t=$((2 + RANDOM % 6))
	ev=$(pick "$EVENTS")
	cpp=$(pick "$CPP_CHOICES")
	rm -f "$FS/filler"
	if [ "$MOUNTED" -eq 1 ]; then
		# half the runs have the room they need, half fill it up
		fill=0
		if [ $((RANDOM % 2)) -eq 0 ]; then
			fill=$((50 + RANDOM % 49))
		else
			rate=(-R 1)
		fi
		avail=$(df -k --output=avail "$FS" | tail -n 1)
		head -c $((avail * 1024 / 100 * fill)) /dev/zero >"$FS/filler" 2>/dev/null
	fi
	echo "dbench -t $t ${rate[*]} --clients-per-process $cpp -c $LOADFILE -D $D $CLIENTS; event $ev" >"$dir/cmd"
	setsid "$DBENCH" -t "$t" "${rate[@]}" --clients-per-process "$cpp" -c "$LOADFILE" \
		-D "$D" "$CLIENTS" >"$dir/out" 2>"$dir/err" </dev/null &
	pid=$!
	sid=$pid
	# the event comes at a random moment of the run (or its cleanup; or
	# before the start, when dbench dies of it as any program would:
	# then nothing may be left either)
	sleep "$((RANDOM % (t + 2))).$((RANDOM % 10))"
	w=$(pgrep -P "$pid" | head -n 1)
	case $ev in
	int) kill -INT "$pid" ;;
	term) kill -TERM "$pid" ;;
	hup) kill -HUP "$pid" ;;
	gint) kill -INT -- "-$pid" ;;
	gterm) kill -TERM -- "-$pid" ;;
	ghup) kill -HUP -- "-$pid" ;;
	int2) kill -INT "$pid"; sleep 0.3; kill -INT "$pid" ;;
	stop) [ -n "$w" ] && kill -STOP "$w" ;;
	kill) [ -n "$w" ] && kill -KILL "$w" ;;
	esac 2>/dev/null
	# bounded: its time, the stall bound, the cleanup of 64 trees
	bound=$((t + STALL + 60))
	for _ in $(seq 1 $((bound * 10))); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		problems="$problems; still running $bound s after the start"
		kill -KILL -- "-$sid" 2>/dev/null
	fi
	wait "$pid"
	rc=$?
	echo "$rc" >"$dir/rc"
	# the event may have come after the end: then the run was plain
	if [ -n "$w" ] || [ "$ev" = none ]; then
		expected "$ev" "$rc" || problems="$problems; exit status $rc after '$ev'"
	fi
	sleep 0.2
	left=$(ps -o pid= -s "$sid" 2>/dev/null | tr -d ' ' | tr '\n' ' ')
	if [ -n "$left" ]; then
		problems="$problems; processes left: $left"
		# shellcheck disable=SC2086
		kill -KILL $left 2>/dev/null
	fi
	[ "$(decoy_sum)" = "$DECOY" ] || problems="$problems; THE DECOY TREE CHANGED"
	extra=$(cd "$D" && ls -A | grep -v -x -e decoy -e clients | tr '\n' ' ')
	[ -n "$extra" ] && problems="$problems; left in -D: $extra"
	if [ -e "$D/clients" ] && [ "$ev" != int2 ]; then
		problems="$problems; clients/ left after '$ev'"
	fi
	if grep -q 'was killed by signal' "$dir/err" && [ "$ev" != kill ] &&
	   [ "$ev" != int2 ]; then
		problems="$problems; a worker reported killed after '$ev'"
	fi
	rm -rf "$D/clients" "$D/.dbench.lock"
	echo "$ev" >"$dir/event"
	if [ -n "$problems" ]; then
		echo "run $n: FAIL (${problems#; })" | tee "$dir/FAIL"
		return 1
	fi
	printf 'run %d: ok   %-5s -t %d %-5s cpp %d exit %d\n' "$n" "$ev" "$t" \
		"${rate[*]:-}" "$cpp" "$rc"
	return 0
}

END=$(($(date +%s) + MINUTES * 60))
N=0
BAD=0
while [ "$(date +%s)" -lt "$END" ]; do
	N=$((N + 1))
	one_run "$N" || BAD=$((BAD + 1))
done
echo
echo "soak: $N runs in $MINUTES min, $BAD failed; events:" \
	"$(cat "$TOP"/runs/*/event | sort | uniq -c | awk '{ printf "%s %s, ", $2, $1 }')"
echo "soak: exit statuses: $(cat "$TOP"/runs/*/rc | sort -n | uniq -c | awk '{ printf "%s x%s, ", $2, $1 }')"
if [ "$BAD" -gt 0 ]; then
	echo "soak: logs of the failed runs: $(dirname "$(ls "$TOP"/runs/*/FAIL | head -n 1)")/..."
	exit 1
fi
[ -z "$KEEP" ] && { cleanup; trap - EXIT; rm -rf "$TOP"; }
exit 0
