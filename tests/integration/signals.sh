#!/bin/bash
# signals.sh - every wait of a client ends on the stop, and the stop comes
# however it is asked for: a long SLEEP, a timed line far in the future,
# a tiny -R rate end with the time limit and with SIGINT; clients sharing
# a process progress as if apart (WAITSP against a sibling's SETSP, a
# SLEEP beside a busy sibling); a signal to the whole process group
# (timeout, kill -- -PGID) gives the clean result of one to the parent,
# also with timeout's SIGCONT to the group coming late;
# a worker stopped with SIGSTOP is named, ended, its tree removed, exit 1.
# The bounds below are generous ceilings on runs that would otherwise go
# on for minutes or forever, not measurements.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"
. "$IT_DIR/lib_session.sh"

# the runs that used to sleep through the end are given this long
BOUND=${BOUND:-40}

# the tree of one client, then a wait of the kind given (lines of $1)
waiter() {
	{
		echo 'Mkdir "\clients" NT_STATUS_OK'
		echo 'NTCreateX "\clients\client1" 0x1 0x2 1 NT_STATUS_OK'
		echo 'Close 1 NT_STATUS_OK'
		printf '%s\n' "$@"
	} >"$W/wait.txt"
}

# run_bounded ARGS...: run_db with the run bounded by $BOUND seconds.
run_bounded() {
	IT_TIMEOUT=$BOUND run_db "$@"
}

# A SLEEP of 1000 s ends with the 2 s time limit: exit 0, tree removed.
sleep_time_limit() {
	mkdir t
	waiter 'SLEEP 1000000000' 'Mkdir "\clients\client1\late" NT_STATUS_OK'
	run_bounded -t 2 -c "$W/wait.txt" -D "$W/t" 2
	assert_rc 0
	assert_no_grep 'killed|signal' "$W/err" "messages about killed workers"
	assert_empty_dir "$W/t" "target after the run"
}

# A timed line 100,000 s into the pass ends with the time limit, and the
# line is never run.
timed_far() {
	mkdir t
	cat >"$W/timed.txt" <<'EOF'
0.000 Mkdir "\clients" NT_STATUS_OK
0.001 Mkdir "\clients\client1" NT_STATUS_OK
100000.000 Mkdir "\clients\client1\late" NT_STATUS_OK
EOF
	run_bounded -t 2 -c "$W/timed.txt" -D "$W/t" 1
	assert_rc 0
	printf 'Mkdir 2\n' >expected
	assert_counts expected "ops before the far line"
	assert_empty_dir "$W/t" "target after the run"
}

# -R at a millionth of a MB/s: after the first 64 KB write the next op
# is due in days; the run still ends with its time limit.
tiny_rate() {
	mkdir t
	run_bounded -t 2 -R 0.000001 -c "$DATA/basic.txt" -D "$W/t" 1
	assert_rc 0
	assert_empty_dir "$W/t" "target after the run"
}

# start_released ARGS...: start dbench in a session of its own (PID = PGID in
# $BG), and wait until it has released its clients and run a second.
start_released() {
	start_session "$@"
	wait_for_line '^releasing clients'
	sleep 1
}

# Ctrl-C while the clients sleep for 1000 s: the run stops at once, as
# interrupted (130), and cleans up.
sigint_in_sleep() {
	mkdir t
	waiter 'SLEEP 1000000000'
	start_released -t 600 -c "$W/wait.txt" -D "$W/t" 2
	kill -INT "$BG"
	wait_exit "$BOUND"
	assert_rc 130
	assert_grep '^Interrupted' "$W/out" "the report says it was interrupted"
	assert_no_grep 'killed|signal' "$W/err" "messages about killed workers"
	assert_empty_dir "$W/t" "target after the run"
}

# The result of one clean interruption: the report says so and has its
# Throughput line, nothing on stderr, the target left empty.
assert_one_interruption() {
	assert_grep '^Interrupted' "$W/out" "the report says it was interrupted"
	assert_grep "$RE_THROUGHPUT" "$W/out" "a Throughput line"
	[ -s "$W/err" ] && { show_file "$W/err" stderr; fail "messages on stderr"; }
	assert_empty_dir "$W/t" "target after the run"
}

# group SIG: the signal to the whole process group, as `timeout`,
# systemd and `kill -- -PGID` send it: the result of one Ctrl-C.
group_signal() {
	local sig=$1
	mkdir t
	start_released -t 600 -c "$DATA/basic.txt" -D "$W/t" 3
	kill -"$sig" -- "-$BG"
	wait_exit "$BOUND"
	assert_rc $((128 + $(kill -l "$sig")))
	assert_no_grep 'killed|signal' "$W/err" "messages about killed workers"
	assert_one_interruption
}

# `timeout -s SIG` signals dbench and then its group: one request.
timeout_signal() {
	local sig=$1
	mkdir t
	LAST_CMD="timeout -s $sig 3 dbench -t 600 -c basic.txt -D t 3"
	timeout -k "$BOUND" -s "$sig" 3 "$DBENCH" -t 600 -c "$DATA/basic.txt" \
		-D "$W/t" 3 >"$W/out" 2>"$W/err" </dev/null
	RC=$?
	[ "$RC" -eq 124 ] || fail "timeout's status: expected 124, found $RC"
	assert_one_interruption
}

# `timeout` follows its signal with a SIGCONT to the whole group, which
# comes late when the machine is busy: in the middle of the cleanup, or
# when LeakSanitizer's check (sanitized builds) has just stopped a
# process to scan it, where it undid the stop and the check waited for
# ever.  Here the group's leader is a shell, as timeout is, and SIGCONTs
# go to the group, back to back, from the stop until dbench has left.
late_sigcont() {
	local pid end
	command -v setsid >/dev/null || skip "setsid not installed"
	command -v pgrep >/dev/null || skip "pgrep not installed"
	mkdir t
	LAST_CMD="dbench -t 600 -c basic.txt -D t 3 (in a group led by a shell): SIGTERM, then SIGCONTs to the group until it ends"
	setsid bash -c '"$@" & echo $! >"$0"; wait $!' "$W/pid" \
		"$DBENCH" -t 600 -c "$DATA/basic.txt" -D "$W/t" 3 \
		>"$W/out" 2>"$W/err" </dev/null &
	BG=$!
	wait_for_line "$RE_PROGRESS"
	pid=$(cat "$W/pid")
	[ -n "$pid" ] || { kill_session; fail "no pid of dbench"; }
	kill -TERM "$pid"
	end=$((SECONDS + BOUND))
	while kill -0 "$pid" 2>/dev/null && [ "$SECONDS" -lt "$end" ]; do
		# (as often as the shell can: the check's window is short)
		kill -CONT -- "-$BG" 2>/dev/null
	done
	wait_exit 5
	assert_rc 143
	assert_one_interruption
}

# Two clients in one process: client 0 waits for client 1's SETSP 5,
# which comes after client 0 has started waiting.  Both finish their pass.
waitsp_sibling() {
	mkdir t
	cat >"$W/a.txt" <<'EOF'
Mkdir "\clients" NT_STATUS_OK
NTCreateX "\clients\client1" 0x1 0x2 1 NT_STATUS_OK
Close 1 NT_STATUS_OK
WAITSP 1 5
Mkdir "\clients\client1\after" NT_STATUS_OK
EOF
	cat >"$W/b.txt" <<'EOF'
Mkdir "\clients" NT_STATUS_OK
NTCreateX "\clients\client1" 0x1 0x2 1 NT_STATUS_OK
Close 1 NT_STATUS_OK
Close 1 NT_STATUS_INVALID_HANDLE
Close 1 NT_STATUS_INVALID_HANDLE
Close 1 NT_STATUS_INVALID_HANDLE
SETSP 5
Mkdir "\clients\client1\after" NT_STATUS_OK
EOF
	run_bounded --run-once -t 600 --clients-per-process 2 \
		-c "$W/a.txt,$W/b.txt" -D "$W/t" 1
	assert_rc 0
	grep -q '^ Mkdir  *4 ' "$W/out" ||
		{ show_file "$W/out" stdout; fail "expected 4 Mkdir (both passes complete)"; }
	assert_empty_dir "$W/t" "target after the run"
}

# Two clients in one process: client 0 sleeps 1000 s, client 1 goes on
# with its passes meanwhile (and the sleep ends with the time limit).
sleep_sibling() {
	mkdir t
	waiter 'SLEEP 1000000000'
	cp "$W/wait.txt" "$W/a.txt"
	run_bounded -t 3 --clients-per-process 2 \
		-c "$W/a.txt,$DATA/basic.txt" -D "$W/t" 1
	assert_rc 0
	local n
	n=$(awk '$1 == "WriteX" { print $2; exit }' "$W/out")
	[ "${n:-0}" -gt 0 ] || { show_file "$W/out" stdout; fail "the sleeping client's sibling did no WriteX"; }
	assert_empty_dir "$W/t" "target after the run"
}

# A worker stopped with SIGSTOP: the cleanup names it, ends it after its
# bound, removes its tree; exit 1.
stopped_worker() {
	local victim
	mkdir t
	start_released -t 5 -c "$DATA/basic.txt" -D "$W/t" 3
	victim=$(workers | head -n 1)
	[ -n "$victim" ] || { kill_session; fail "no worker found"; }
	kill -STOP "$victim"
	wait_exit "$BOUND"
	assert_rc 1
	assert_grep "\(process $victim\) is stopped" "$W/err" "the stopped worker named"
	assert_grep "\(process $victim\) made no progress .*killed it" "$W/err" "the worker ended and named"
	assert_grep "$RE_CLEANUP" "$W/out" "cleanup lines keep their shape"
	assert_empty_dir "$W/t" "target after the run"
}

check "a 1000 s SLEEP ends with the time limit" sleep_time_limit
check "a timed line 100000 s ahead ends with the time limit" timed_far
check "-R 0.000001 ends with the time limit" tiny_rate
check "SIGINT during a 1000 s SLEEP: 130, clean" sigint_in_sleep
check "kill -INT -- -PGID: one clean interruption" group_signal INT
check "kill -TERM -- -PGID: one clean interruption" group_signal TERM
check "kill -HUP -- -PGID: one clean interruption" group_signal HUP
check "timeout -s INT: one clean interruption" timeout_signal INT
check "timeout -s TERM: one clean interruption" timeout_signal TERM
check "timeout -s HUP: one clean interruption" timeout_signal HUP
check "SIGCONTs to the group through the stop and cleanup" late_sigcont
check "WAITSP on a sibling's later SETSP (one process)" waitsp_sibling
check "a SLEEP does not stall its sibling (one process)" sleep_sibling
check "a SIGSTOPped worker is named, ended, cleaned up (exit 1)" stopped_worker
finish
