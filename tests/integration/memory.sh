#!/bin/bash
# memory.sh - a -D in memory (tmpfs) that the run would fill: refused up
# front with the estimate and the memory available unless --force, and
# a run stopped cleanly (a line, exit status 1, the trees removed) when
# available memory runs low while it goes.
#
# The memory figures come from a fake meminfo file named by
# $DBENCH_TEST_MEMINFO (a test-only variable, see memcheck.h), so that
# nothing here needs the host's memory to be short.  The checks need the
# test directory on tmpfs (/dev/shm) and skip with the reason otherwise.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"

BASIC=$DATA/basic.txt

in_tmpfs() {
	[ "$(stat -f -c %T "$W")" = tmpfs ] ||
		skip "the test directory $W is not on tmpfs"
}

# meminfo TOTAL_KB AVAILABLE_KB: (re)write the fake meminfo at once
meminfo() {
	printf 'MemTotal: %s kB\nMemAvailable: %s kB\n' "$1" "$2" >"$W/mi.new"
	mv "$W/mi.new" "$W/meminfo"
}

# big.txt: 8 MiB written into one file per pass (128 relative 64 KiB
# appends), removed at the end of the pass: 8 MiB a client at most
big_loadfile() {
	printf '%s\n' 'Mkdir "\clients" *' 'Mkdir "\clients\client1" *' \
		'NTCreateX "\clients\client1\big" 0x40 0x5 1 *' \
		'LOOP 128' 'WriteX 1 +65536 65536 65536 *' 'ENDLOOP' \
		'Close 1 *' 'Unlink "\clients\client1\big" 0x16 *' >big.txt
}

estimate_refused() {
	in_tmpfs
	big_loadfile
	mkdir t
	meminfo 1000000 40960
	DBENCH_TEST_MEMINFO=$W/meminfo run_db --run-once -c "$W/big.txt" -D "$W/t" 3
	assert_usage_error "3 clients of 8 MiB, 40 MiB available"
	assert_grep "^dbench: -D $W/t is in memory \(tmpfs\): 3 clients may hold about 24\.0 MiB of data there \(estimated from the loadfile\), more than half of the 40\.0 MiB of memory available \(MemAvailable\); use fewer clients or a directory on disk, or --force to run anyway$" \
		"$W/err" "message with the numbers"
	[ -s "$W/out" ] && fail "the refused run printed on stdout"
	assert_empty_dir "$W/t" "target"
	# --force runs it; so does more memory
	DBENCH_TEST_MEMINFO=$W/meminfo run_db --force --run-once -c "$W/big.txt" -D "$W/t" 3
	assert_clean_run "--force"
	assert_empty_dir "$W/t" "target after --force"
	meminfo 1000000 61440
	DBENCH_TEST_MEMINFO=$W/meminfo run_db --run-once -c "$W/big.txt" -D "$W/t" 3
	assert_clean_run "24 MiB of 60 MiB"
	# a directory on disk is not in memory
	[ "$(stat -f -c %T /var/tmp)" = tmpfs ] && return 0
	mkdir -p /var/tmp 2>/dev/null
	d=$(mktemp -d /var/tmp/dbench-memory.XXXXXX) || return 0
	meminfo 1000000 4096
	DBENCH_TEST_MEMINFO=$W/meminfo run_db --run-once -c "$W/big.txt" -D "$d" 3
	rm -rf -- "$d"
	assert_clean_run "-D on disk"
}

low_memory_stop() {
	in_tmpfs
	mkdir t
	meminfo 1000000 900000
	LAST_CMD="dbench -t 600 -c basic.txt -D t 2 (in the background)"
	DBENCH_TEST_MEMINFO=$W/meminfo "$DBENCH" -t 600 -c "$BASIC" -D "$W/t" 2 \
		>"$W/out" 2>"$W/err" </dev/null &
	pid=$!
	for _ in $(seq 1 600); do
		grep -q 'warmup *[0-9]* sec' "$W/out" && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	grep -q 'warmup *[0-9]* sec' "$W/out" ||
		{ kill -INT "$pid"; wait "$pid"; fail "the run did not start"; }
	meminfo 1000000 10000
	for _ in $(seq 1 600); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill -KILL "$pid"
		fail "the run did not stop within 60 s of memory running low"
	fi
	wait "$pid"
	RC=$?
	assert_rc 1
	assert_grep "^dbench: memory is running low \(9\.8 MiB available of 976\.6 MiB\) and a -D is in memory \(tmpfs or ramfs\): stopping the run$" \
		"$W/err" "the line"
	[ "$(grep -c 'memory is running low' "$W/err")" = 1 ] || fail "said more than once"
	assert_grep "$RE_CLEANUP" "$W/out" "the cleanup ran"
	assert_empty_dir "$W/t" "target"
}

check "a run on tmpfs whose data passes half the memory available: refused with the numbers unless --force" estimate_refused
check "memory running low during a run on tmpfs: one line, exit 1, trees removed" low_memory_stop
finish
