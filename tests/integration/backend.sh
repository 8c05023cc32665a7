#!/bin/bash
# backend.sh - what each backend owns, seen from the command line: the
# check of every -D target (its exact messages, exit 2, nothing created)
# and the descriptors a client needs (the up-front check refuses the run,
# or raises the soft limit, instead of a run that dies half-started).
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"

LF=$DATA/basic.txt

# assert_one_line TEXT: stderr is exactly this line.
assert_one_line() {
	assert_usage_error
	assert_eq "$1" "$(cat "$W/err")" "the message"
}

# ---- the target check (fileio's, which null shares) ----

target_missing() {
	run_db --run-once -c "$LF" -D "$W/nosuchdir" 1
	assert_one_line "dbench: directory '$W/nosuchdir': No such file or directory"
	[ -e "$W/nosuchdir" ] && fail "-D nosuchdir: it was created"
	return 0
}

target_not_dir() {
	echo data >plain
	run_db --run-once -c "$LF" -D "$W/plain" 1
	assert_one_line "dbench: directory '$W/plain': Not a directory"
	assert_eq "data" "$(cat plain)" "the regular file given to -D"
}

target_second() {
	mkdir t
	run_db --run-once -c "$LF" -D "$W/t,$W/gone" 2
	assert_one_line "dbench: directory '$W/gone': No such file or directory"
	assert_empty_dir "$W/t" "the first target"
}

target_null() {
	run_db --run-once -B null -c "$LF" -D "$W/nosuchdir" 1
	assert_one_line "dbench: directory '$W/nosuchdir': No such file or directory"
}

target_disk_test() {
	run_db --disk-test -D "$W/nosuchdir"
	assert_one_line "dbench: directory '$W/nosuchdir': No such file or directory"
}

# A directory without write permission; root writes anywhere, so as root
# the run is made as nobody.
target_unwritable() {
	local db=$DBENCH lf=$LF
	mkdir t
	chmod 555 t
	if [ "$(id -u)" -eq 0 ]; then
		command -v setpriv >/dev/null || skip "setpriv not installed"
		id nobody >/dev/null 2>&1 || skip "no user 'nobody'"
		chmod 755 "$TOP" "$W"
		cp "$DBENCH" "$W/dbench.bin" && cp "$LF" "$W/lf.txt" &&
			chmod 755 "$W/dbench.bin" && chmod 644 "$W/lf.txt" ||
			fail "cannot copy dbench for nobody"
		db="setpriv --reuid=nobody --regid=nogroup --clear-groups $W/dbench.bin"
		lf=$W/lf.txt
	fi
	LAST_CMD="$db --run-once -c $lf -D $W/t 1"
	# shellcheck disable=SC2086 # $db is a command with its arguments
	timeout -k 5 "$IT_TIMEOUT" $db --run-once -c "$lf" -D "$W/t" 1 \
		>"$W/out" 2>"$W/err" </dev/null
	RC=$?
	assert_one_line "dbench: directory '$W/t' is not writable: Permission denied"
	chmod 755 t
	assert_empty_dir "$W/t" "target"
}

# ---- descriptors per client ----

# lf40.txt: each client makes 40 directories and opens a file in each, so
# fileio keeps FILEIO_DIRCACHE (32) directories open per client.
make_lf40() {
	{
		echo 'Mkdir "\clients" *'
		echo 'Mkdir "\clients\client1" *'
		for i in $(seq 1 40); do
			echo "Mkdir \"\\clients\\client1\\d$i\" NT_STATUS_OK"
			echo "NTCreateX \"\\clients\\client1\\d$i\\f\" 0x0 2 1 NT_STATUS_OK"
			echo "Close 1 NT_STATUS_OK"
		done
	} >"$W/lf40.txt"
}

# The scenario of a descriptor budget too small: 4 descriptors per client were budgeted, the
# check passed, and the run died with NT_STATUS_TOO_MANY_OPENED_FILES.
# One worker process of 50 clients (--clients-per-process 50 with
# NUMCLIENTS 1, the meaning of dbench 4.00 and 5.0).
fd_refused() {
	local need
	mkdir t
	make_lf40
	run_limited "-n 300" --run-once --clients-per-process 50 \
		-c "$W/lf40.txt" -D "$W/t" 1
	assert_usage_error "50 clients in one process, 32 kept directories each, ulimit -n 300"
	assert_grep '^dbench: each worker process runs 50 clients and needs about [0-9]+ file descriptors \(up to 1 open files per client\), but the limit \(ulimit -n\) is 300; use fewer --clients-per-process or raise the limit$' \
		"$W/err" "message names the numbers"
	need=$(sed -n 's/.*needs about \([0-9]*\) file descriptors.*/\1/p' "$W/err")
	# each client: its directory, 32 kept ones and its open file
	[ "$need" -ge $((50 * 34)) ] ||
		fail "the estimate $need is below 50 clients x 34 descriptors"
	assert_empty_dir "$W/t" "target"
}

# Under exactly the limit the estimate asks for, the same run completes:
# the estimate is not too low.
fd_estimate_enough() {
	local need
	mkdir t
	make_lf40
	run_limited "-n 300" --run-once --clients-per-process 50 \
		-c "$W/lf40.txt" -D "$W/t" 1
	need=$(sed -n 's/.*needs about \([0-9]*\) file descriptors.*/\1/p' "$W/err")
	[ -n "$need" ] || fail "no estimate in the refusal"
	run_limited "-n $need" --run-once --clients-per-process 50 \
		-c "$W/lf40.txt" -D "$W/t" 1
	assert_clean_run "ulimit -n $need"
	assert_no_grep 'TOO_MANY_OPENED_FILES' "$W/out" "stdout"
	assert_eq "" "$(cat "$W/err")" "stderr"
	assert_empty_dir "$W/t" "target"
}

# A soft limit below the estimate is raised towards the hard one.
fd_soft_raised() {
	local hard
	hard=$(ulimit -Hn)
	[ "$hard" = unlimited ] || [ "$hard" -ge 4000 ] ||
		skip "hard descriptor limit $hard is too low"
	mkdir t
	make_lf40
	run_limited "-Sn 300" --run-once --clients-per-process 50 \
		-c "$W/lf40.txt" -D "$W/t" 1
	assert_clean_run "soft limit 300 raised"
	assert_no_grep 'TOO_MANY_OPENED_FILES' "$W/out" "stdout"
	assert_empty_dir "$W/t" "target"
}

# The null backend holds no descriptor: the same run is no problem.
fd_null() {
	mkdir t
	make_lf40
	run_limited "-n 300" --run-once -B null --clients-per-process 50 \
		-c "$W/lf40.txt" -D "$W/t" 1
	assert_rc 0
	assert_grep "$RE_THROUGHPUT" "$W/out" "Throughput line"
	assert_empty_dir "$W/t" "target"
}

check "-D missing: exit 2, the unchanged message" target_missing
check "-D a regular file: exit 2, the unchanged message" target_not_dir
check "-D ok,missing: the second target is named" target_second
check "-B null -D missing: the same check" target_null
check "--disk-test -D missing: the same check" target_disk_test
check "-D unwritable: exit 2, the unchanged message" target_unwritable
check "40 directories, 50 clients per process, ulimit -n 300: refused up front" fd_refused
check "ulimit -n at the estimate: the run completes" fd_estimate_enough
check "soft ulimit -n 300: raised, the run completes" fd_soft_raised
check "-B null under ulimit -n 300: no descriptors needed" fd_null
finish
