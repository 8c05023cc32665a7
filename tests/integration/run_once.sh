#!/bin/bash
# run_once.sh - --run-once replays each client's loadfile exactly once: the
# operation table must count exactly what the loadfile(s) contain, times
# the number of clients, whatever the process layout or backend.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"

# assert_run_ok ARGS...: exit 0, table, Throughput, no mismatch summary
# (the null backend's results are not compared with expected statuses).
assert_run_ok() {
	assert_clean_run
}

# counts_for LOADFILE NCLIENTS [DBENCH OPTIONS...]: run once and compare
# the table with the loadfile's own op counts times the clients: NCLIENTS,
# or $TOTAL when set (NCLIENTS x --clients-per-process).
counts_for() {
	local lf=$1 n=$2 total=${TOTAL:-$2}
	shift 2
	mkdir t
	run_db --run-once -t 60 -c "$lf" -D "$W/t" "$@" "$n"
	assert_run_ok "$@"
	loadfile_counts "$lf" "$total" >expected.counts
	assert_counts expected.counts "op counts of $(basename "$lf") x $total"
	assert_grep "  $total clients  " "$W/out" "Throughput client count"
}

basic_1() { counts_for "$DATA/basic.txt" 1; }
basic_3() { counts_for "$DATA/basic.txt" 3; }
misc_1() { counts_for "$DATA/misc.txt" 1; }
misc_3() { counts_for "$DATA/misc.txt" 3; }
disp_1() { counts_for "$DATA/dispositions.txt" 1; }
disp_3() { counts_for "$DATA/dispositions.txt" 3; }
timed_2() { counts_for "$DATA/timed.txt" 2; }
null_basic_3() { counts_for "$DATA/basic.txt" 3 -B null; }
null_misc_2() { counts_for "$DATA/misc.txt" 2 -B null; }

# Procs: one per client by default.
procs_default() {
	counts_for "$DATA/basic.txt" 3
	assert_grep '^Throughput .*  3 clients  3 procs  ' "$W/out" "Throughput line"
}

# NUMCLIENTS 3, 2 per process: as in dbench 4.00 and 5.0, 3 worker
# processes of 2 clients each, 6 clients.
clients_per_process() {
	TOTAL=6 counts_for "$DATA/basic.txt" 3 --clients-per-process 2
	assert_grep '^Throughput .*  6 clients  3 procs  ' "$W/out" "Throughput line"
}

# the example of dbench(1): --clients-per-process=4 with 8 is 32 clients 8 procs
clients_per_process_32() {
	TOTAL=32 counts_for "$DATA/basic.txt" 8 --clients-per-process=4 -B null
	assert_grep '^Throughput .*  32 clients  8 procs  ' "$W/out" "Throughput line"
}

clients_per_process_null() {
	TOTAL=3 loops_for 1 --clients-per-process 3 -B null
	assert_grep '^Throughput .*  3 clients  1 procs  ' "$W/out" "Throughput line"
}

# loops.txt, per client (see the file):
#   Deltree   1
#   Mkdir     2                    (\clients, \clients\client1)
#   NTCreateX 1 + 2       = 3      (f.dat; g.dat in the last LOOP 2)
#   WriteX    3                    (outer LOOP 3)
#   ReadX     3 * 4       = 12     (LOOP 4 nested in LOOP 3)
#   Qfileinfo 3 * 4       = 12
#   Flush     3 * 0 + 3   = 3      (LOOP 0 body never runs; the Flush right
#                                   after its ENDLOOP runs once per pass of
#                                   the outer loop)
#   LockX     5                    (REPEAT 5)
#   UnlockX   1                    (REPEAT applies to one command only)
#   Close     1 + 2       = 3
#   Qfsinfo   2                    (LOOP 2)
#   Qpathinfo 2 * 3       = 6      (REPEAT 3 inside LOOP 2)
#   Unlink    2                    (last LOOP 2, ENDLOOP on the last line)
loops_expected() {
	local n=$1
	cat <<EOF | awk -v n="$n" '{ print $1, $2 * n }' | sort
Deltree 1
Mkdir 2
NTCreateX 3
WriteX 3
ReadX 12
Qfileinfo 12
Flush 3
LockX 5
UnlockX 1
Close 3
Qfsinfo 2
Qpathinfo 6
Unlink 2
EOF
}

loops_for() {
	local n=$1 total=${TOTAL:-$1}
	shift
	mkdir t
	run_db --run-once -t 60 -c "$DATA/loops.txt" -D "$W/t" "$@" "$n"
	assert_run_ok "$@"
	loops_expected "$total" >expected.counts
	assert_counts expected.counts "loop arithmetic x $total"
}

loops_1() { loops_for 1; }
loops_3() { loops_for 3; }
loops_null_3() { loops_for 3 -B null; }

# 250 files open at once, with handle numbers 0, 1, ... and large ones
# (dbench 4.00 allowed at most 200 open handles).
many_handles() {
	local i h
	{
		printf '%s\n' 'Deltree "\clients\client1" NT_STATUS_OK' \
			'Mkdir "\clients" NT_STATUS_OK' \
			'Mkdir "\clients\client1" NT_STATUS_OK'
		for i in $(seq 0 249); do
			h=$((i * 40000))
			printf 'NTCreateX "\\clients\\client1\\f%d.dat" 0x40 0x2 %d NT_STATUS_OK\n' "$i" "$h"
			printf 'WriteX %d 0 10 10 NT_STATUS_OK\n' "$h"
		done
		for i in $(seq 0 249); do
			echo "Close $((i * 40000)) NT_STATUS_OK"
		done
		printf '%s\n' 'Deltree "\clients\client1" NT_STATUS_OK'
	} >many.txt
	counts_for "$W/many.txt" 2
}

# Several loadfiles: client i uses file i mod 2, so with 3 clients
# basic.txt runs twice and timed.txt once.
two_loadfiles() {
	mkdir t
	run_db --run-once -t 60 -c "$DATA/basic.txt,$DATA/timed.txt" -D "$W/t" 3
	assert_clean_run
	{ loadfile_counts "$DATA/basic.txt" 2; loadfile_counts "$DATA/timed.txt" 1; } |
		awk '{ n[$1] += $2 } END { for (o in n) print o, n[o] }' | sort >expected.counts
	assert_counts expected.counts "op counts of basic.txt x 2 + timed.txt x 1"
}

# Options that change how ops are done, not which: the same counts, no
# mismatch.  (--trunc-io uses timed.txt: capped writes make basic.txt's
# read past the shorter end of file.)
option_same_counts() {
	local lf=$1
	shift
	counts_for "$lf" 2 "$@"
}

check "basic.txt, 1 client: counts = loadfile" basic_1
check "basic.txt, 3 clients: counts = 3 x loadfile" basic_3
check "misc.txt, 1 client: counts = loadfile" misc_1
check "misc.txt, 3 clients: counts = 3 x loadfile" misc_3
check "dispositions.txt, 1 client: statuses as COMPAT.md, counts" disp_1
check "dispositions.txt, 3 clients: statuses as COMPAT.md, counts" disp_3
check "timed.txt, 2 clients: counts = 2 x loadfile" timed_2
check "loops.txt, 1 client: nested LOOP/REPEAT arithmetic" loops_1
check "loops.txt, 3 clients: nested LOOP/REPEAT arithmetic" loops_3
check "250 open handles incl. handle 0, 2 clients" many_handles
check "3 clients: Throughput says 3 clients  3 procs" procs_default
check "--clients-per-process 2 with 3: 6 clients' counts, 3 procs" clients_per_process
check "--clients-per-process=4 with 8: 32 clients 8 procs (as 4.00 and 5.0)" clients_per_process_32
check "-B null --clients-per-process 3 with 1: 3 clients' loop counts, 1 procs" clients_per_process_null
check "-B null, basic.txt, 3 clients: same counts" null_basic_3
check "-B null, misc.txt, 2 clients: same counts" null_misc_2
check "-B null, loops.txt, 3 clients: same loop arithmetic" loops_null_3
check "-c basic.txt,timed.txt, 3 clients: client i uses file i mod 2" two_loadfiles
for opt in "-x" "-F" "-s -S" "--fake-io" "--one-byte-write-fix" \
	"--no-resolve" "--stat-check" "-R 100" "-O 2"; do
	# shellcheck disable=SC2086 # opt holds an option and its value
	check "$opt, basic.txt, 2 clients: same counts, no mismatch" option_same_counts "$DATA/basic.txt" $opt
done
check "--trunc-io 1000, timed.txt, 2 clients: same counts" option_same_counts "$DATA/timed.txt" --trunc-io 1000
finish
