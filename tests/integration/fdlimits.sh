#!/bin/bash
# fdlimits.sh - the up-front descriptor check counts what a client really
# holds open: the default loadfile (ours and Debian's) runs under the
# usual soft/hard limits, and a limit that is really too small is still
# refused with its numbers and only the advice that can help.
. "$(dirname "$0")/lib.sh"

DEB_LF=/usr/share/dbench/client.txt

# default_runs LOADFILE SOFT HARD: a short run, one client per process
# and two, is not refused.
default_runs() {
	local lf=$1
	[ -r "$lf" ] || skip "$lf is not installed"
	mkdir t
	run_limited "-Sn $2;-Hn $3" -t 2 -c "$lf" -D "$W/t" 1
	assert_clean_run "$lf, 1 client, ulimit -Sn $2 -Hn $3"
	run_limited "-Sn $2;-Hn $3" -t 2 --clients-per-process=2 -c "$lf" -D "$W/t" 1
	assert_clean_run "$lf, 2 clients per process, ulimit -Sn $2 -Hn $3"
}

# A limit below what one client holds: refused with the numbers, and
# without advising fewer clients per process when that is already 1.
too_small_one_client() {
	mkdir t
	run_limited "-Sn 30;-Hn 30" --run-once -c "$SRCDIR/loadfiles/client.txt" -D "$W/t" 1
	assert_usage_error "ulimit -n 30"
	assert_grep '^dbench: each worker process runs 1 clients and needs about [0-9]+ file descriptors \(up to [0-9]+ open files per client\), but the limit \(ulimit -n\) is 30; raise the limit$' \
		"$W/err" "message names the numbers"
	assert_empty_dir "$W/t" "target"
}

# Too small for many clients in one process: fewer clients per process
# is advised.
too_small_many_clients() {
	mkdir t
	run_limited "-Sn 100;-Hn 100" --run-once --clients-per-process=50 \
		-c "$SRCDIR/loadfiles/client.txt" -D "$W/t" 1
	assert_usage_error "50 clients per process, ulimit -n 100"
	assert_grep '^dbench: each worker process runs 50 clients and needs about [0-9]+ file descriptors \(up to [0-9]+ open files per client\), but the limit \(ulimit -n\) is 100; use fewer --clients-per-process or raise the limit$' \
		"$W/err" "message names the numbers"
}

for lim in "1024 4096" "1024 524288"; do
	# shellcheck disable=SC2086 # two words: soft and hard
	check "our client.txt, ulimit soft/hard ${lim/ //}: runs" default_runs "$SRCDIR/loadfiles/client.txt" $lim
	# shellcheck disable=SC2086
	check "Debian's client.txt, ulimit soft/hard ${lim/ //}: runs" default_runs "$DEB_LF" $lim
done
check "ulimit -n 30, one client: refused, 'raise the limit' only" too_small_one_client
check "ulimit -n 100, 50 clients per process: refused, fewer per process advised" too_small_many_clients
finish
