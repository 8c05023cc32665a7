#!/bin/bash
# syscalls.sh - the system calls each operation of a loadfile costs stay
# what they were: one --run-once pass of data/compare.txt, 1 client, traced
# with strace -ff, gives per loadfile line the count of each listed system
# call, which must equal data/syscalls.expected exactly.
# (bench/engine/same-calls.sh compares a pass's totals with dbench 4.00's,
# whose Deltree removes nothing.)  A change that adds or drops a system
# call on the hot path fails here with the line, the operation and the
# call.
#
# To tell one operation's calls from the next, a QUERY_PATH_INFORMATION of
# a marker file (made beforehand in the target directory, so that it costs
# one stat and nothing else) follows every line of the loadfile; the calls
# between two markers are the operation's.  The client's start-up before
# the first marker and its exit after the last are left out.
#
# After an intended change, regenerate the expected counts with
#     tests/integration/syscalls.sh --generate >tests/integration/data/syscalls.expected
# (from a built source tree, or with DBENCH=path/to/dbench) and review the
# diff.  Skipped (visibly) without strace, when strace cannot trace here,
# and in a sanitized build.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"

LF=$DATA/compare.txt
EXPECTED=$DATA/syscalls.expected
MARK=zz_syscall_mark_

# The system calls compared: those the operations are made of (what
# allocation or the run's own bookkeeping costs, mmap, brk, futex and
# the like, is not listed and not counted).
LISTED="open openat openat2 close read write pread64 pwrite64 lseek
fsync fdatasync stat lstat fstat newfstatat statx statfs fstatfs
getdents64 rename renameat renameat2 unlink unlinkat mkdir mkdirat rmdir
fcntl flock utime utimes utimensat futimesat ftruncate fallocate"

# marked_loadfile: the loadfile with a marker after each line that is an
# operation, the marker named by that line's number (marker 0 first).
marked_loadfile() {
	awk -v mark="$MARK" '
		BEGIN { printf "QUERY_PATH_INFORMATION \"\\%s0\" 1004 NT_STATUS_OK\n", mark }
		{ sub(/\r$/, "") }
		/^[ \t]*$/ || /^[ \t]*#/ { next }
		{
			print
			printf "QUERY_PATH_INFORMATION \"\\%s%d\" 1004 NT_STATUS_OK\n", mark, NR
		}' "$LF"
}

# trace_counts: trace one pass in $W; print "LINE OP SYSCALL COUNT" for
# every operation line and listed call, in line order.
trace_counts() {
	local i n trace
	command -v strace >/dev/null || skip "strace is not installed"
	strace -o /dev/null true 2>/dev/null ||
		skip "strace cannot trace here (no ptrace permission)"
	# the sanitizers make calls of their own, and LeakSanitizer's exit
	# check cannot attach under strace: the counts are the product's
	! ldd "$DBENCH" 2>/dev/null | grep -q libasan ||
		skip "a sanitized build (its system calls are not the product's)"
	marked_loadfile >"$W/marked.txt"
	mkdir "$W/t"
	n=$(wc -l <"$LF")
	for i in $(seq 0 "$n"); do
		: >"$W/t/$MARK$i"
	done
	LAST_CMD="strace -f -ff -o $W/tr dbench --run-once -c $W/marked.txt -D $W/t 1"
	timeout -k 5 "$IT_TIMEOUT" strace -f -ff -o "$W/tr" "$DBENCH" \
		--run-once -c "$W/marked.txt" -D "$W/t" 1 \
		>"$W/out" 2>"$W/err" </dev/null
	RC=$?
	assert_clean_run "the traced pass"
	trace=$(grep -l "\"${MARK}0\"" "$W"/tr.*)
	[ "$(printf '%s\n' "$trace" | grep -c .)" -eq 1 ] ||
		fail "expected one traced process with the first marker, found: $trace"
	awk -v mark="$MARK" -v listed="$LISTED" -v lf="$LF" '
		BEGIN {
			split(listed, l, /[ \n]+/)
			for (i in l) want[l[i]] = 1
			# the operation of each line of the loadfile; next_op[K]:
			# the line whose calls follow marker K
			prev = 0
			while ((getline line < lf) > 0) {
				nr++
				sub(/\r$/, "", line)
				if (line ~ /^[ \t]*$/ || line ~ /^[ \t]*#/) continue
				split(line, f, /[ \t]+/)
				op[nr] = f[1] ~ /^[0-9.]+$/ ? f[2] : f[1]
				next_op[prev] = nr
				prev = nr
			}
			cur = ""
		}
		index($0, "\"" mark) {
			s = substr($0, index($0, "\"" mark) + length(mark) + 1)
			sub(/".*/, "", s)
			seen[s + 0] = 1
			cur = (s + 0) in next_op ? next_op[s + 0] : ""
			next
		}
		cur == "" || !match($0, /^[a-z0-9_]+\(/) { next }
		{
			name = substr($0, 1, RLENGTH - 1)
			if (name in want) n[cur " " op[cur] " " name]++
		}
		END {
			for (ln in op)
				if (!(ln in seen)) print ln, op[ln], "marker-not-reached", 1
			for (k in n) print k, n[k]
		}' "$trace" | sort -k1,1n -k3,3
}

# The expected counts (comments and blank lines left out).
expected_counts() {
	grep -Ev '^[[:space:]]*(#|$)' "$EXPECTED"
}

syscalls_per_op() {
	[ -f "$EXPECTED" ] || fail "no expected counts: $EXPECTED"
	trace_counts >"$W/found"
	expected_counts >"$W/expected"
	assert_same_lines "$W/expected" "$W/found" \
		"system calls per operation (LINE OP SYSCALL COUNT)"
}

if [ "${1:-}" = --generate ]; then
	W=$TOP/generate
	mkdir "$W"
	cat <<EOF
# syscalls.expected - the system calls of each operation of one --run-once
# pass of compare.txt, 1 client, fileio backend (tests/integration/
# syscalls.sh compares them exactly).  Generated by
#     tests/integration/syscalls.sh --generate >tests/integration/data/syscalls.expected
# LINE (of compare.txt) OP SYSCALL COUNT
EOF
	( trace_counts ) || { cat "$W/err" >&2; exit 1; }
	exit 0
fi

check "one pass of compare.txt: each operation's system calls as expected" syscalls_per_op
finish
