# lib_session.sh - helpers for runs started in a session of their own
# (sourced after lib.sh by safety.sh and signals.sh): start dbench with
# setsid, wait for a line of its output or its end, find its workers,
# and make sure nothing of its session is left.

# session_procs SID: the processes still in session SID (one per line).
session_procs() {
	pgrep -s "$1" 2>/dev/null
}

# start_session ARGS...: start dbench in a session of its own (PID and
# session id in $BG), its output in $W/out and $W/err.
start_session() {
	command -v setsid >/dev/null || skip "setsid not installed"
	command -v pgrep >/dev/null || skip "pgrep not installed"
	LAST_CMD="dbench $* (in the background, own session)"
	setsid "$DBENCH" "$@" >"$W/out" 2>"$W/err" </dev/null &
	BG=$!
	# setsid execs dbench in place when it is not a group leader
	for _ in $(seq 1 50); do
		[ "$(ps -o sid= -p "$BG" 2>/dev/null | tr -d ' ')" = "$BG" ] && break
		sleep 0.1
	done
	[ "$(ps -o sid= -p "$BG" 2>/dev/null | tr -d ' ')" = "$BG" ] ||
		{ kill -9 "$BG" 2>/dev/null; fail "dbench did not start in its own session"; }
}

# wait_for_line REGEX [SECS]: wait until stdout has a line matching REGEX.
wait_for_line() {
	local secs=${2:-30}
	for _ in $(seq 1 $((secs * 10))); do
		grep -Eq -- "$1" "$W/out" 2>/dev/null && return 0
		kill -0 "$BG" 2>/dev/null || break
		sleep 0.1
	done
	grep -Eq -- "$1" "$W/out" 2>/dev/null && return 0
	kill_session
	fail "no line matching /$1/ in stdout within $secs s"
}

# kill_session: end everything left of the session (after a failure).
kill_session() {
	local p
	for p in $(session_procs "$BG"); do kill -CONT "$p" 2>/dev/null; kill -9 "$p" 2>/dev/null; done
}

# workers: the worker processes of $BG.
workers() {
	pgrep -P "$BG"
}

# wait_exit [SECS]: wait for $BG to exit (at most SECS, default 30),
# status in $RC; then no process of its session may remain (after a few
# seconds for the kernel to deliver the parent-death signal).
wait_exit() {
	local secs=${1:-30} left
	for _ in $(seq 1 $((secs * 10))); do
		kill -0 "$BG" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$BG" 2>/dev/null; then
		kill_session
		wait "$BG" 2>/dev/null
		fail "dbench still running $secs s later"
	fi
	wait "$BG"
	RC=$?
	split_noise_notes
	assert_no_orphans
}

# assert_no_orphans: no process of session $BG is alive (5 s allowed).
assert_no_orphans() {
	local left
	for _ in $(seq 1 50); do
		left=$(session_procs "$BG" | tr '\n' ' ')
		[ -z "$left" ] && return 0
		sleep 0.1
	done
	kill_session
	fail "processes left in the run's session: $left"
}
