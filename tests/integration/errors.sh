#!/bin/bash
# errors.sh - what goes wrong and how it is reported: a failed open and a
# later use of its handle, non-fatal and fatal-kind mismatches under the
# three policies, loadfile parse errors (exit 2 with file:line), and
# loadfiles that are gzipped, CRLF or lack the last newline.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"

# A failed open (line 9) then ReadX of its handle (line 10): fatal.
failed_open_n() {
	local n=$1
	mkdir t
	run_db --run-once -t 60 -c "$DATA/failopen.txt" -D "$W/t" "$n"
	assert_rc 1
	assert_grep '^dbench: client [0-9]+, [^ ]*failopen\.txt:10: ' "$W/err" "error names client and file:line of the ReadX"
	assert_grep 'failopen\.txt:10: ReadX' "$W/err" "error names the op"
	assert_grep 'failopen\.txt:9\b' "$W/err" "error names the line of the failed open"
	assert_grep 'handle 9937\b' "$W/err" "error names the loadfile's handle number"
	assert_grep 'NT_STATUS_OBJECT_NAME_NOT_FOUND' "$W/err" "error gives the open's NT status"
	assert_grep 'No such file or directory' "$W/err" "error gives the open's errno text"
	assert_no_grep 'was not found' "$W/err" "4.00's 'handle ... was not found' message"
	assert_empty_dir "$W/t" "target after the failed run (cleanup must still run)"
	# a summary of non-fatal mismatches may list the failed open, but not
	# the fatal ReadX
	awk '/not fatal/ { s = 1; next } s && /^$/ { s = 0 } s' "$W/out" >nonfatal
	assert_no_grep 'ReadX' nonfatal "the fatal ReadX listed under a 'not fatal' heading"
}
failed_open_1() {
	failed_open_n 1
	assert_grep '^dbench: client 0, ' "$W/err" "client number"
}
failed_open_3() { failed_open_n 3; }

# FIND_FIRST with the right status and the wrong count (line 8): counted
# and summarised with both numbers; fatal under --strict.  Lines 9 and 10
# (a wildcard matching case-insensitively, one name in another case)
# must not be mismatches.
find_count() {
	mkdir t
	run_db --run-once -t 60 -c "$DATA/find_count.txt" -D "$W/t" 2
	assert_rc 0
	assert_grep 'Find +2 .*find_count\.txt:8\b.*expected 99 entries, found 4' "$W/err" "summary gives both counts"
	assert_no_grep 'find_count\.txt:(9|10)\b' "$W/out" "case-insensitive FIND_FIRST lines"
	run_db --run-once -t 60 --strict -c "$DATA/find_count.txt" -D "$W/t" 1
	assert_rc 1
	assert_grep 'find_count\.txt:8: FIND_FIRST .*expected 99 entries, found 4' "$W/err" "fatal under --strict"
	assert_empty_dir "$W/t" "target after the runs"
}

# A mismatch in every pass, with a warmup: the warmup's mismatches still
# count, so --keep-going exits 1 even if the execute phase is short.
warmup_keep_going() {
	mkdir t
	run_db -t 1 --warmup 1 --keep-going -c "$DATA/qpi_mismatch.txt" -D "$W/t" 1
	assert_rc 1
	assert_grep 'Qpathinfo.*qpi_mismatch\.txt:6\b' "$W/err" "summary names the op and file:line"
}

# The reader of stdout goes away in the middle of the run (it stops at the
# first execute line; the next tick's write finds the pipe closed): the
# run must still finish and clean up, and no process may be left.
closed_stdout() {
	mkdir t
	timeout -k 5 "$IT_TIMEOUT" "$DBENCH" -t 4 -D "$W/t" 2 </dev/null 2>"$W/err" |
		sed -u -n 'p; / execute /q' >"$W/out"
	# the pipeline ends when dbench does: give its workers a moment
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		pgrep -f -- "-D $W/t" >/dev/null || break
		sleep 0.5
	done
	pgrep -f -- "-D $W/t" >/dev/null && fail "dbench processes left running"
	assert_grep ' execute ' "$W/out" "the reader saw the first execute line"
	assert_empty_dir "$W/t" "target after the run (cleanup must still run)"
}

# Qpathinfo of a missing file expecting OK: counted, summarised, exit 0.
qpi_default() {
	mkdir t
	run_db --run-once -t 60 -c "$DATA/qpi_mismatch.txt" -D "$W/t" 2
	assert_rc 0
	assert_grep "$RE_THROUGHPUT" "$W/out" "Throughput line"
	assert_grep_i 'mismatch' "$W/err" "a mismatch summary"
	assert_grep 'Qpathinfo.*qpi_mismatch\.txt:6\b' "$W/err" "summary names the op and file:line"
	assert_grep 'qpi_mismatch\.txt:6\b.*NT_STATUS_OBJECT_NAME_NOT_FOUND' "$W/err" "summary gives the status found"
	# on stderr: mmtests reads every stdout line after "Operation" as a
	# table row
	assert_no_grep 'qpi_mismatch\.txt:6|^Status mismatches' "$W/out" \
		"the mismatch summary on stdout"
	# the run went on after the mismatch
	assert_grep '^ NTCreateX +2 ' "$W/out" "NTCreateX after the mismatch ran for both clients"
	assert_empty_dir "$W/t" "target after the run"
}

qpi_strict() {
	mkdir t
	run_db --run-once -t 60 --strict -c "$DATA/qpi_mismatch.txt" -D "$W/t" 1
	assert_rc 1
	assert_grep '^dbench: client 0, [^ ]*qpi_mismatch\.txt:6: ' "$W/err" "fatal error names client and file:line"
	assert_grep '(Qpathinfo|QUERY_PATH_INFORMATION)' "$W/err" "fatal error names the op"
	assert_empty_dir "$W/t" "target after the failed run"
}

qpi_keep_going() {
	mkdir t
	run_db --run-once -t 60 --keep-going -c "$DATA/qpi_mismatch.txt" -D "$W/t" 1
	assert_rc 1
	assert_grep 'Qpathinfo.*qpi_mismatch\.txt:6\b' "$W/err" "summary names the op and file:line"
	assert_empty_dir "$W/t" "target after the run"
}

# misc.txt looks up ZERO.DAT for a file created as zero.dat: found by the
# case-insensitive resolution, a (non-fatal) mismatch with --no-resolve.
no_resolve() {
	local line
	line=$(grep -n 'ZERO\.DAT' "$DATA/misc.txt" | cut -d: -f1)
	mkdir t
	run_db --run-once -t 60 --no-resolve -c "$DATA/misc.txt" -D "$W/t" 1
	assert_rc 0
	assert_grep "Qpathinfo.*misc\.txt:$line\b" "$W/err" "summary names the Qpathinfo of ZERO.DAT"
	assert_empty_dir "$W/t" "target after the run"
}

# Unlink of a missing file expecting OK: fatal by default.
unlink_default() {
	mkdir t
	run_db --run-once -t 60 -c "$DATA/unlink_mismatch.txt" -D "$W/t" 1
	assert_rc 1
	assert_grep '^dbench: client 0, [^ ]*unlink_mismatch\.txt:6: Unlink' "$W/err" "fatal error names client, file:line, op"
	assert_grep 'NT_STATUS_OBJECT_NAME_NOT_FOUND' "$W/err" "fatal error gives the status found"
	assert_empty_dir "$W/t" "target after the failed run"
}

# --keep-going: the same mismatch does not stop the run; exit 1 at the end.
unlink_keep_going() {
	mkdir t
	run_db --run-once -t 60 --keep-going -c "$DATA/unlink_mismatch.txt" -D "$W/t" 2
	assert_rc 1
	assert_grep '^ NTCreateX +2 ' "$W/out" "NTCreateX after the mismatch ran for both clients"
	assert_grep '^ Close +2 ' "$W/out" "Close after the mismatch ran for both clients"
	assert_grep 'Unlink.*unlink_mismatch\.txt:6\b' "$W/err" "summary names the op and file:line"
	assert_grep "$RE_THROUGHPUT" "$W/out" "Throughput line"
	assert_empty_dir "$W/t" "target after the run"
}

# ---- parse errors: exit 2, one "dbench: " line with file:line ----

HEAD='Deltree "\clients\client1" NT_STATUS_OK
Mkdir "\clients" NT_STATUS_OK'

# -D naming a directory no file can be created in: said so, exit 2
dir_not_writable_proc() {
	[ -d /proc/self ] || skip "no /proc here"
	run_db --run-once -c "$DATA/basic.txt" -D /proc 1
	assert_usage_error "-D /proc"
	assert_grep "^dbench: directory '/proc' is not a place dbench can write" \
		"$W/err" "-D /proc: says dbench cannot write there"
}

# parse_error NAME LINE TEXT: write NAME (TEXT) and expect a usage error
# naming NAME:LINE (LINE may be a regex).
parse_error() {
	local name=$1 line=$2
	mkdir t
	printf '%s\n' "$3" >"$name"
	run_db --run-once -t 60 -c "$W/$name" -D "$W/t" 1
	assert_usage_error "parse error"
	assert_grep "${name//./\\.}:$line\\b" "$W/err" "message names file:line"
	assert_empty_dir "$W/t" "target after a refused run"
}

pe_unknown_op() {
	parse_error unknown_op.txt 3 "$HEAD
Frobnicate \"\\clients\\client1\\x\" NT_STATUS_OK"
	assert_grep 'Frobnicate' "$W/err" "message names the unknown op"
}
pe_bad_status() {
	parse_error bad_status.txt 4 "$HEAD
Mkdir \"\\clients\\client1\" NT_STATUS_OK
Rmdir \"\\clients\\client1\" BOGUS"
}
pe_unknown_status_name() {
	parse_error status_name.txt 3 "$HEAD
Mkdir \"\\clients\\client1\" NT_STATUS_NOT_A_REAL_STATUS_NAME"
}
pe_no_status() {
	parse_error no_status.txt 3 "$HEAD
Mkdir \"\\clients\\client1\""
}
pe_too_few_args() {
	parse_error few_args.txt 4 "$HEAD
NTCreateX \"\\clients\\client1\\x\" 0x40 0x2 1 NT_STATUS_OK
WriteX 1 0 NT_STATUS_OK"
}
pe_mod_zero() {
	parse_error mod_zero.txt 4 "$HEAD
NTCreateX \"\\clients\\client1\\x\" 0x40 0x2 1 NT_STATUS_OK
WriteX 1 *%0 10 10 NT_STATUS_OK"
}
pe_align_zero() {
	parse_error align_zero.txt 4 "$HEAD
NTCreateX \"\\clients\\client1\\x\" 0x40 0x2 1 NT_STATUS_OK
ReadX 1 */0 10 10 NT_STATUS_OK"
}
pe_dotdot() {
	parse_error dotdot.txt 3 "$HEAD
NTCreateX \"\\clients\\client1\\..\\..\\escape.dat\" 0x40 0x2 1 NT_STATUS_OK"
	[ -e "$W/escape.dat" ] && fail "escape.dat was created outside the target"
	return 0
}
pe_loop_no_end() {
	parse_error loop_no_end.txt '[0-9]+' "$HEAD
LOOP 2
Mkdir \"\\clients\\client1\" NT_STATUS_OK
Rmdir \"\\clients\\client1\" NT_STATUS_OK"
}
pe_endloop_no_loop() {
	parse_error endloop.txt 3 "$HEAD
ENDLOOP"
}
pe_unterminated_quote() {
	parse_error quote.txt 3 "$HEAD
Mkdir \"\\clients\\client1 NT_STATUS_OK"
}
pe_dbench1() {
	parse_error dbench1.txt 2 "# a dbench 1 loadfile
SMBopenX \\clients\\client1\\x 0 0
SMBclose 1"
	assert_grep_i 'dbench[ -]?1|version 1' "$W/err" "message says it is a dbench-1 loadfile"
}
# The error is in the second of two loadfiles.
pe_second_loadfile() {
	mkdir t
	printf '%s\n' "$HEAD" "Frobnicate 1 NT_STATUS_OK" >second.txt
	run_db --run-once -t 60 -c "$DATA/basic.txt,$W/second.txt" -D "$W/t" 2
	assert_usage_error "parse error"
	assert_grep 'second\.txt:3\b' "$W/err" "message names file:line"
}

# ---- loadfile encodings that must run like the plain file ----

# runs_like_basic FILE N: FILE replays with basic.txt's counts, cleanly.
runs_like_basic() {
	local lf=$1 n=$2
	mkdir t
	run_db --run-once -t 60 -c "$lf" -D "$W/t" "$n"
	assert_clean_run
	loadfile_counts "$DATA/basic.txt" "$n" >expected.counts
	assert_counts expected.counts "op counts"
	assert_empty_dir "$W/t" "target after the run"
}

gzip_loadfile() {
	gzip -c "$DATA/basic.txt" >basic.txt.gz
	runs_like_basic "$W/basic.txt.gz" 2
}
gzip_no_suffix() {
	gzip -c "$DATA/basic.txt" >zipped-load.txt
	runs_like_basic "$W/zipped-load.txt" 1
}
gzip_corrupt() {
	mkdir t
	gzip -c "$DATA/basic.txt" | head -c 200 >broken.gz
	run_db --run-once -t 60 -c "$W/broken.gz" -D "$W/t" 1
	assert_usage_error "corrupt gzip"
	assert_grep 'broken\.gz' "$W/err" "message names the file"
}
crlf_loadfile() {
	sed 's/$/\r/' "$DATA/basic.txt" >crlf.txt
	runs_like_basic "$W/crlf.txt" 2
}
no_final_newline() {
	printf '%s' "$(cat "$DATA/basic.txt")" >nonl.txt
	runs_like_basic "$W/nonl.txt" 1
}
crlf_gzip_no_newline() {
	printf '%s' "$(sed 's/$/\r/' "$DATA/basic.txt")" | gzip -c >all.gz
	runs_like_basic "$W/all.gz" 1
}

# ---- interruptions ----

# start_bg ARGS...: start dbench in the background (PID in $BG), wait
# until it has released its clients and run for a second.
start_bg() {
	LAST_CMD="dbench $* (in the background)"
	"$DBENCH" "$@" >"$W/out" 2>"$W/err" </dev/null &
	BG=$!
	for _ in $(seq 1 100); do
		grep -q '^releasing clients' "$W/out" 2>/dev/null && break
		kill -0 "$BG" 2>/dev/null || break
		sleep 0.1
	done
	grep -q '^releasing clients' "$W/out" ||
		{ kill -9 "$BG" 2>/dev/null; fail "no 'releasing clients' line within 10 s"; }
	sleep 1
	WORKERS=$(pgrep -P "$BG")
	[ -n "$WORKERS" ] || { kill -9 "$BG"; fail "no worker processes found under $BG"; }
}

# wait_bg SECS: wait for $BG to exit (at most SECS), status in $RC.
wait_bg() {
	for _ in $(seq 1 $(($1 * 10))); do
		kill -0 "$BG" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$BG" 2>/dev/null; then
		kill -9 "$BG" 2>/dev/null
		wait "$BG"
		assert_workers_gone
		fail "dbench still running $1 s after the signal"
	fi
	wait "$BG"
	RC=$?
}

# is_our_worker PID: PID is alive and still runs the dbench binary (and is
# not a recycled PID of something else).
is_our_worker() {
	[ "$(readlink -f "/proc/$1/exe" 2>/dev/null)" = "$(readlink -f "$DBENCH")" ]
}

# assert_workers_gone: no worker of the (reaped) run $BG is alive.
assert_workers_gone() {
	local p
	for p in $WORKERS; do
		if is_our_worker "$p"; then
			kill -9 "$p"
			fail "worker $p outlived dbench"
		fi
	done
}

# SIGINT during a run: it stops soon, with a failure status, cleans up and
# leaves no worker behind.
sigint() {
	mkdir t
	start_bg -t 60 -c "$DATA/basic.txt" -D "$W/t" 3
	kill -INT "$BG"
	wait_bg 15
	[ "$RC" -ne 0 ] || fail "exit status after SIGINT: expected non-zero, found 0"
	assert_workers_gone
	assert_empty_dir "$W/t" "target after an interrupted run"
}

sigterm() {
	mkdir t
	start_bg -t 60 -c "$DATA/basic.txt" -D "$W/t" 2
	kill -TERM "$BG"
	wait_bg 15
	[ "$RC" -ne 0 ] || fail "exit status after SIGTERM: expected non-zero, found 0"
	assert_workers_gone
	assert_empty_dir "$W/t" "target after a terminated run"
}

# A worker killed with SIGKILL: the run stops with exit 1, says so on
# stderr, and the dead worker's tree is cleaned up by the parent.
worker_killed() {
	local victim
	mkdir t
	start_bg -t 60 -c "$DATA/tree.txt" -D "$W/t" 3
	victim=$(echo "$WORKERS" | head -n 1)
	is_our_worker "$victim" || fail "worker $victim is not running dbench"
	kill -KILL "$victim"
	wait_bg 15
	assert_rc 1
	assert_grep '^dbench: ' "$W/err" "a message about the dead worker"
	assert_grep_i 'kill|signal 9' "$W/err" "the message names the signal"
	assert_workers_gone
	assert_empty_dir "$W/t" "target after a run whose worker was killed"
}

# Start N clients (default 2), kill the parent with SIGKILL, and check
# that within 10 s none of its workers is left (they ask the kernel to
# signal them when the parent dies).
check_parent_killed() {
	local n=${1:-2} p left
	mkdir t
	start_bg -t 60 -c "$DATA/basic.txt" -D "$W/t" "$n"
	kill -KILL "$BG"
	wait "$BG" 2>/dev/null
	for _ in $(seq 1 100); do
		left=""
		for p in $WORKERS; do
			is_our_worker "$p" && left="$left $p"
		done
		[ -z "$left" ] && break
		sleep 0.1
	done
	if [ -n "$left" ]; then
		# shellcheck disable=SC2086
		kill -9 $left 2>/dev/null
		fail "workers$left still running 10 s after their parent was killed"
	fi
}

# The parent killed with SIGKILL: the workers must not go on.
parent_killed() {
	check_parent_killed 2
}

# Many workers: every worker is the parent's child, and when all are
# killed the run stops with exit 1, naming each, and the parent cleans up
# every tree.
many_workers_killed() {
	local n
	mkdir t
	start_bg -t 60 -c "$DATA/tree.txt" -D "$W/t" 96
	n=$(echo "$WORKERS" | wc -l)
	[ "$n" -eq 96 ] || fail "$n worker processes are the parent's children, expected 96"
	# all stopped first: on a busy machine this script can lose the CPU
	# between two of its 96 kills, and the parent, seeing the first
	# deaths, would end the run and let the others exit well before
	# their SIGKILL came (a stopped worker runs nothing until killed)
	# shellcheck disable=SC2086
	kill -STOP $WORKERS
	# shellcheck disable=SC2086
	kill -KILL $WORKERS
	wait_bg 60
	assert_rc 1
	n=$(grep -c '^dbench: client [0-9]* (process [0-9]*) was killed by signal 9' "$W/err")
	[ "$n" -eq 96 ] || fail "$n messages about killed workers, expected 96"
	assert_workers_gone
	assert_empty_dir "$W/t" "target after a run whose 96 workers were killed"
}

# The parent of many workers killed with SIGKILL: none of them goes on.
many_parent_killed() {
	check_parent_killed 96
}

check "failed open, then ReadX of its handle, 1 client: exit 1, full message, cleanup ran" failed_open_1
check "failed open, then ReadX of its handle, 3 clients: exit 1, cleanup ran" failed_open_3
check "FIND_FIRST count mismatch: summarised with both counts, fatal with --strict" find_count
check "mismatches in the warmup count for --keep-going" warmup_keep_going
check "stdout closed in the middle of the run: it still cleans up" closed_stdout
check "Qpathinfo mismatch: exit 0, summary with op and file:line" qpi_default
check "Qpathinfo mismatch --strict: exit 1 with file:line" qpi_strict
check "Qpathinfo mismatch --keep-going: exit 1, summary" qpi_keep_going
check "--no-resolve: case-mismatched Qpathinfo is a non-fatal mismatch" no_resolve
check "Unlink mismatch: fatal, exit 1 with file:line" unlink_default
check "Unlink mismatch --keep-going: run continues, exit 1" unlink_keep_going
check "parse error: unknown op" pe_unknown_op
check "parse error: bad status" pe_bad_status
check "parse error: unknown NT_STATUS name" pe_unknown_status_name
check "parse error: missing status" pe_no_status
check "parse error: too few arguments" pe_too_few_args
check "parse error: *%0" pe_mod_zero
check "parse error: */0" pe_align_zero
check "parse error: .. in a path" pe_dotdot
check "parse error: LOOP without ENDLOOP" pe_loop_no_end
check "parse error: ENDLOOP without LOOP" pe_endloop_no_loop
check "parse error: unterminated quote" pe_unterminated_quote
check "parse error: dbench-1 SMB loadfile" pe_dbench1
check "parse error in the second of two loadfiles" pe_second_loadfile
check "gzip loadfile (.gz) runs like the plain one" gzip_loadfile
check "gzip loadfile without .gz suffix runs" gzip_no_suffix
check "truncated gzip loadfile: usage error" gzip_corrupt
check "CRLF loadfile runs like the plain one" crlf_loadfile
check "loadfile without a final newline runs" no_final_newline
check "gzip + CRLF + no final newline runs" crlf_gzip_no_newline
check "-D /proc: not a place dbench can write, exit 2" dir_not_writable_proc
check "SIGINT during a run: stops, non-zero exit, cleanup, no orphans" sigint
check "SIGTERM during a run: stops, non-zero exit, cleanup, no orphans" sigterm
check "a worker killed by SIGKILL: exit 1, message, its tree cleaned" worker_killed
check "the parent killed by SIGKILL: the workers stop" parent_killed
check "96 workers, all the parent's children; all killed: exit 1, 96 messages, trees cleaned" many_workers_killed
check "the parent of 96 workers killed by SIGKILL: they all stop" many_parent_killed
finish
