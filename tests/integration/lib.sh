# lib.sh - helpers shared by the integration tests (sourced by bash).
#
# A test script sources this file, defines one shell function per check and
# runs each with `check "what it asserts" function [args]`.  A check runs in
# a subshell inside its own fresh directory $W under a temporary directory
# on /dev/shm that is removed when the script exits; `fail` (or a failed
# assertion) ends only that check.  The output is TAP, read by automake's
# tap-driver.sh: one "ok"/"not ok" line per check (a skip is "ok - ... #
# SKIP reason", a failure carries its reason on its line), and `finish`
# prints the plan "1..N" last and exits 0 (nothing failed) or 1.  A script
# that cannot run at all calls skip_all (plan "1..0 # SKIP reason") or
# bail_out ("Bail out!", an ERROR in make check's summary).
#
# Environment: DBENCH = the binary under test, SRCDIR = the source root
# (both set by `make check`; defaults suit running a script by hand from
# a built source tree).  IT_TIMEOUT bounds any single dbench run (seconds).

# shellcheck disable=SC2034 # the variables below are used by the scripts
IT_DIR=$(cd "$(dirname "$0")" && pwd)
DATA=$IT_DIR/data
: "${SRCDIR:=$(cd "$IT_DIR/../.." && pwd)}"
: "${DBENCH:=$SRCDIR/dbench}"
: "${IT_TIMEOUT:=120}"
IT_NAME=$(basename "$0" .sh)
export LC_ALL=C
# no "dbench: note: busy" line on stderr: under make -j2 the test beside
# this one makes the machine busy, and checks compare stderr (the facts
# stay in the JSON and the history; the check of the note turns it on)
export DBENCH_TEST_NO_NOISE_NOTE=1

# Regular expressions for the output shapes of COMPAT.md.
RE_PROGRESS='^ *[0-9]+ +[0-9]+ +[0-9]+\.[0-9]{2} MB/sec  (warmup|execute) +[0-9]+ sec  latency [0-9]+\.[0-9]{3} ms$'
RE_CLEANUP='^ *[0-9]+  cleanup +[0-9]+ sec$'
RE_HEADER='^ Operation      Count    AvgLat    MaxLat$'
DASHES=' ----------------------------------------'
RE_ROW='^ [A-Za-z]+ +[0-9]+ +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3}$'
RE_ROW_COLS='^ [A-Za-z ]{12} [ 0-9]{7} [ 0-9.]{9} [ 0-9.]{9}$'
RE_THROUGHPUT='^Throughput [0-9.e+]+ MB/sec( \(sync open\))?( \(sync dirs\))?  [0-9]+ clients  [0-9]+ procs  max_latency=[0-9]+\.[0-9]{3} ms$'
RE_EXEC_TIME='^ *[0-9]+ completed in [0-9]+ ms at time [0-9]+ ms$'

# skip_all REASON: nothing in this script can run here: an empty plan
# with the reason, which make check shows as a SKIP.
skip_all() {
	echo "1..0 # SKIP $*"
	exit 0
}

# bail_out REASON: the script cannot go on (a broken setup, not a skip).
bail_out() {
	echo "Bail out! $*"
	exit 99
}

if [ ! -x "$DBENCH" ]; then
	bail_out "dbench binary not found: DBENCH=$DBENCH"
fi

if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	IT_BASE=/dev/shm
else
	IT_BASE=${TMPDIR:-/tmp}
fi
TOP=$(mktemp -d "$IT_BASE/dbench-it-$IT_NAME.XXXXXX") ||
	bail_out "cannot create a temporary directory under $IT_BASE"

# our_procs [IGNORE_RE]: the live processes (not zombies) whose
# environment carries DBENCH_MPI_TEST_MARK=$TOP, the mark mpi.sh and
# slurm.sh give every process of their jobs (so only their own count under
# make -j2), as "PID COMMAND LINE" lines; those matching the extended
# IGNORE_RE left out.  (Filtered here, not by a grep after it: that grep
# would carry the mark.)
our_procs() {
	local f p st line
	# one grep over every environment (a few processes per /proc entry
	# took seconds on a busy machine); itself without the mark
	for f in $(env -u DBENCH_MPI_TEST_MARK grep -lzx -- \
		"DBENCH_MPI_TEST_MARK=$TOP" /proc/[0-9]*/environ 2>/dev/null); do
		p=${f#/proc/}
		p=${p%/environ}
		[ "$p" = "$$" ] && continue
		st=$(awk '{ print $3 }' "/proc/$p/stat" 2>/dev/null) || continue
		[ "$st" = Z ] && continue
		line="$p $(tr '\0' ' ' <"/proc/$p/cmdline" | cut -c1-60)"
		[ -n "${1:-}" ] && [[ $line =~ $1 ]] && continue
		echo "$line"
	done
	return 0
}

# assert_no_procs [IGNORE_RE]: none of our_procs is left (5 s allowed for
# the launcher's last kills); lines matching the extended IGNORE_RE (a
# process the job's manager keeps, e.g. slurm.sh's ' srun ') do not count.
assert_no_procs() {
	local i
	for i in $(seq 1 10); do
		[ -z "$(our_procs "${1:-}")" ] && return 0
		sleep 0.5
	done
	our_procs >"$W/left"
	show_file "$W/left" "processes left"
	fail "processes of the job are left"
}

it_cleanup() {
	# -D unwritable tests chmod directories: make everything removable.
	chmod -R u+rwx "$TOP" 2>/dev/null
	rm -rf "$TOP"
}
trap it_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

N_OK=0
N_FAIL=0
N_SKIP=0
FAILED=""
LAST_CMD=""

# note TEXT...: a diagnostic line (TAP comment).
note() {
	printf '#   %s\n' "$*"
}

# show_file FILE LABEL [MAXLINES]: print a file as indented diagnostics.
show_file() {
	local f=$1 label=$2 max=${3:-30} n
	[ -f "$f" ] || return 0
	n=$(wc -l <"$f")
	note "$label ($n lines):"
	head -n "$max" "$f" | sed 's/^/#     | /'
	[ "$n" -gt "$max" ] && note "    ... ($((n - max)) more)"
	return 0
}

# show_last_run: the last dbench command, its status and output.
show_last_run() {
	[ -n "$LAST_CMD" ] || return 0
	note "command: $LAST_CMD"
	note "exit status: $RC"
	show_file "$W/out" "stdout" 40
	show_file "$W/err" "stderr" 15
}

# fail MESSAGE: the current check failed; print why and leave it (the
# message goes on the check's "not ok" line too).
fail() {
	note "FAIL: $*"
	printf '%s\n' "$*" >"$TOP/.fail"
	show_last_run
	exit 1
}

# skip REASON: the current check cannot run here.
skip() {
	printf '%s\n' "$*" >"$TOP/.skip"
	exit 77
}

# capture_start FILTER: tshark captures loopback's packets that match
# FILTER into $W/cap.pcapng, in the background, once it says it does
# (a busy machine may take it many seconds to start: it is waited for
# while it lives, up to 120 s); a tshark that ends without capturing
# skips the check, with its first line.  capture_stop: the last answers
# reach the capture, then tshark ends.  A check that fails in between
# stops the capture too.
capture_start() {
	local i
	command -v tshark >/dev/null || skip "tshark is not installed"
	tshark -i lo -f "$1" -w "$W/cap.pcapng" >"$W/tshark.out" \
		2>"$W/tshark.err" </dev/null &
	CAPTURE_PID=$!
	trap 'kill -INT "$CAPTURE_PID" 2>/dev/null' EXIT
	for i in $(seq 1 1200); do
		grep -q '^Capturing on' "$W/tshark.err" && return 0
		kill -0 "$CAPTURE_PID" 2>/dev/null || break
		sleep 0.1
	done
	kill "$CAPTURE_PID" 2>/dev/null
	wait "$CAPTURE_PID" 2>/dev/null
	trap - EXIT
	skip "tshark cannot capture on loopback here: $(grep -v '^Running as' "$W/tshark.err" | head -n 1)"
}

capture_stop() {
	sleep 0.5
	kill -INT "$CAPTURE_PID" 2>/dev/null
	wait "$CAPTURE_PID" 2>/dev/null
	trap - EXIT
}

# check DESCRIPTION FUNCTION [ARGS...]: run one check in a subshell, in a
# fresh directory $W, and print "ok - ..." / "not ok - ...".
check() {
	local desc=$1 rc why
	shift
	# IT_ONLY=REGEX (by hand, while working on one check): the others
	# are skipped, visibly
	if [ -n "${IT_ONLY:-}" ] && ! printf '%s\n' "$desc" | grep -Eq -- "$IT_ONLY"; then
		echo "ok - $desc # SKIP not matched by IT_ONLY"
		N_SKIP=$((N_SKIP + 1))
		return 0
	fi
	W=$(mktemp -d "$TOP/check.XXXXXX")
	rm -f "$TOP/.skip" "$TOP/.fail"
	(
		cd "$W" || exit 1
		LAST_CMD=""
		"$@"
	)
	rc=$?
	case $rc in
	0)
		echo "ok - $desc"
		N_OK=$((N_OK + 1))
		;;
	77)
		echo "ok - $desc # SKIP $(cat "$TOP/.skip" 2>/dev/null)"
		N_SKIP=$((N_SKIP + 1))
		;;
	*)
		# the reason on one line, without "#" (a TAP directive)
		why=$(head -n 1 "$TOP/.fail" 2>/dev/null | tr -d '#' | cut -c 1-200)
		[ -n "$why" ] || why="exit status $rc"
		echo "not ok - $desc -- $why"
		N_FAIL=$((N_FAIL + 1))
		FAILED="$FAILED
    $desc"
		;;
	esac
	chmod -R u+rwx "$W" 2>/dev/null
	rm -rf "$W"
	return 0
}

# finish: the summary, the plan (TAP allows it last: a script that dies
# before it has no plan, an ERROR) and the exit status.
finish() {
	local n=$((N_OK + N_FAIL + N_SKIP))
	echo "# $IT_NAME: $N_OK passed, $N_FAIL failed, $N_SKIP skipped"
	if [ "$n" -eq 0 ]; then
		echo "1..0 # SKIP $IT_NAME ran no checks"
	else
		echo "1..$n"
	fi
	if [ "$N_FAIL" -gt 0 ]; then
		echo "# failed checks:$FAILED"
		exit 1
	fi
	exit 0
}

# run_db ARGS...: run dbench with ARGS (bounded by IT_TIMEOUT); stdout goes
# to $W/out, stderr to $W/err, the exit status to $RC.
run_db() {
	LAST_CMD="dbench $*"
	timeout -k 5 "$IT_TIMEOUT" "$DBENCH" "$@" >"$W/out" 2>"$W/err" </dev/null
	RC=$?
	if [ "$RC" -eq 124 ] || [ "$RC" -eq 137 ]; then
		fail "dbench did not finish within $IT_TIMEOUT s"
	fi
	split_noise_notes
	return 0
}

# run_limited "LIMIT[;LIMIT...]" ARGS...: run_db under `ulimit LIMIT`,
# each in turn, in a subshell: "-n 300", or "-Sn 30;-Hn 30" (the soft
# limit first: the hard one may be below the current soft one).  Skips
# the check when a limit cannot be set here.
run_limited() {
	local limits=$1
	shift
	LAST_CMD="(ulimit ${limits//;/; ulimit }) dbench $*"
	(
		local l
		IFS=';'
		for l in $limits; do
			IFS=$' \t\n'
			# shellcheck disable=SC2086 # "-n 300" is two words
			ulimit $l || exit 99
		done
		exec timeout -k 5 "$IT_TIMEOUT" "$DBENCH" "$@"
	) >"$W/out" 2>"$W/err" </dev/null
	RC=$?
	[ "$RC" -eq 99 ] && skip "cannot set ulimit ${limits//;/, ulimit } here"
	if [ "$RC" -eq 124 ] || [ "$RC" -eq 137 ]; then
		fail "dbench did not finish within $IT_TIMEOUT s"
	fi
	split_noise_notes
	return 0
}

# split_noise_notes: the notes a run gives on stderr when the machine was
# busy besides it or it was client-bound ("dbench: note: busy: ...") come
# and go with whatever else the machine runs (another test under make -j2):
# they move from $W/err to $NOISE_NOTES (outside $W, whose listings checks
# compare), where the checks of them look.
split_noise_notes() {
	local re='^dbench: note: (busy|client-bound): '
	NOISE_NOTES=$W.noise
	: >"$NOISE_NOTES"
	[ -s "$W/err" ] && grep -Eq "$re" "$W/err" || return 0
	grep -E "$re" "$W/err" >"$NOISE_NOTES"
	grep -Ev "$re" "$W/err" >"$W.err.rest"
	mv "$W.err.rest" "$W/err"
}

# run_db_unprivileged ARGS...: run_db, but as uid/gid 65534 when running
# as root (root reads and writes everything, so permission checks would not
# bite; CI runs as root).  That user runs a copy of dbench in $TOP/nobody
# (the build tree may be closed to it); $TOP and $W are opened for it to
# traverse.  Skips when there is no way to switch users.
run_db_unprivileged() {
	local as=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	if [ "$(id -u)" -ne 0 ]; then
		run_db "$@"
		return 0
	fi
	command -v setpriv >/dev/null ||
		skip "running as root and setpriv (util-linux) is missing"
	"${as[@]}" true 2>/dev/null || skip "cannot switch to uid 65534"
	chmod a+x "$TOP" "$W"
	if [ ! -x "$TOP/nobody/dbench" ]; then
		mkdir -p "$TOP/nobody" && cp "$DBENCH" "$TOP/nobody/dbench" &&
			chmod 755 "$TOP/nobody" "$TOP/nobody/dbench" ||
			fail "cannot copy dbench to $TOP/nobody for uid 65534"
	fi
	LAST_CMD="(as uid 65534) dbench $*"
	timeout -k 5 "$IT_TIMEOUT" "${as[@]}" "$TOP/nobody/dbench" "$@" \
		>"$W/out" 2>"$W/err" </dev/null
	RC=$?
	if [ "$RC" -eq 124 ] || [ "$RC" -eq 137 ]; then
		fail "dbench did not finish within $IT_TIMEOUT s"
	fi
	return 0
}

# keep NAME: copy the last run's stdout/stderr to $W/NAME.out, NAME.err.
keep() {
	cp "$W/out" "$W/$1.out"
	cp "$W/err" "$W/$1.err"
}

# ---- assertions (each fails the check with expected and found) ----

# assert_eq EXPECTED FOUND WHAT
assert_eq() {
	[ "$1" = "$2" ] || fail "$3: expected '$1', found '$2'"
}

# assert_rc EXPECTED: the last run's exit status.
assert_rc() {
	[ "$RC" = "$1" ] || fail "exit status: expected $1, found $RC"
}

# assert_match REGEX STRING WHAT: STRING matches the extended REGEX.
assert_match() {
	printf '%s\n' "$2" | grep -Eq -- "$1" ||
		fail "$3: expected to match /$1/, found '$2'"
}

# assert_grep REGEX FILE WHAT: some line of FILE matches.
assert_grep() {
	grep -Eq -- "$1" "$2" ||
		fail "$3: expected a line matching /$1/ in ${2##*/}, found none"
}

# assert_grep_i REGEX FILE WHAT: the same, ignoring case.
assert_grep_i() {
	grep -Eiq -- "$1" "$2" ||
		fail "$3: expected a line matching /$1/ (any case) in ${2##*/}, found none"
}

# assert_no_grep REGEX FILE WHAT: no line of FILE matches.
assert_no_grep() {
	if grep -Eq -- "$1" "$2"; then
		fail "$3: expected no line matching /$1/, found: $(grep -E -- "$1" "$2" | head -n 3 | tr '\n' '|')"
	fi
}

# assert_all_match REGEX FILE WHAT: every line of FILE matches (FILE
# must not be empty).
assert_all_match() {
	[ -s "$2" ] || fail "$3: expected lines matching /$1/, found none"
	if grep -Evq -- "$1" "$2"; then
		fail "$3: expected every line to match /$1/, found: '$(grep -Ev -- "$1" "$2" | head -n 1)'"
	fi
}

# assert_empty_dir DIR WHAT: DIR exists and is empty.
assert_empty_dir() {
	[ -d "$1" ] || fail "$2: expected directory $1 to exist, it does not"
	if [ -n "$(ls -A "$1")" ]; then
		fail "$2: expected $1 to be empty, found: $(cd "$1" && find . -mindepth 1 | sort | head -n 10 | tr '\n' ' ')"
	fi
}

# assert_same_lines EXPECTED_FILE FOUND_FILE WHAT: identical contents.
assert_same_lines() {
	if ! cmp -s "$1" "$2"; then
		note "expected (${1##*/}) vs found (${2##*/}):"
		diff -u "$1" "$2" | sed 's/^/#     /' | head -n 60
		fail "$3: differs from the expected list (diff above)"
	fi
}

# assert_usage_error [WHAT]: exit 2 and exactly one line on stderr that
# starts with "dbench: ".
assert_usage_error() {
	local n
	assert_rc 2
	n=$(wc -l <"$W/err")
	[ "$n" -eq 1 ] ||
		fail "${1:-usage error}: expected exactly 1 line on stderr, found $n"
	assert_grep '^dbench: ' "$W/err" "${1:-usage error} message"
}

# assert_no_mismatch: no mismatch summary (on stderr; nothing on stdout).
assert_no_mismatch() {
	if grep -iq 'mismatch' "$W/out"; then
		fail "expected no status mismatch summary, found: $(grep -i -A3 'mismatch' "$W/out" | tr '\n' '|')"
	fi
	if [ -f "$W/err" ] && grep -q '^Status mismatches' "$W/err"; then
		fail "expected no status mismatch summary, found on stderr: $(grep -A3 '^Status mismatches' "$W/err" | tr '\n' '|')"
	fi
}

# ---- parsing the output ----

# table_counts FILE: "Name Count" for each row of the first operation
# table (human format), in output order.
table_counts() {
	awk -v dashes="$DASHES" '
		$0 == dashes { intable = 1; next }
		intable && $0 == "" { exit }
		intable { print $1, $2 }' "$1"
}

# table_rows FILE: the row lines of the first operation table.
table_rows() {
	awk -v dashes="$DASHES" '
		$0 == dashes { intable = 1; next }
		intable && $0 == "" { exit }
		intable { print }' "$1"
}

# mr_counts FILE: "Name Count" for each machine-readable row :Name:count:..:
mr_counts() {
	awk -F: '/^:[A-Za-z]+:[0-9]+:/ { print $2, $3 }' "$1"
}

# loadfile_counts FILE [MULT]: "ShortName Count" for each measured op of a
# loadfile without LOOP or REPEAT, each count multiplied by MULT, sorted
# by name.  Control commands, comments and blank lines are not counted.
loadfile_counts() {
	awk -v m="${2:-1}" '
		BEGIN {
			split("NTCreateX Close Rename Unlink Deltree Rmdir Mkdir " \
			      "WriteX ReadX LockX UnlockX Flush DropCache", k, " ")
			for (i in k) canon[toupper(k[i])] = k[i]
			canon["QUERY_PATH_INFORMATION"] = "Qpathinfo"
			canon["QUERY_FILE_INFORMATION"] = "Qfileinfo"
			canon["QUERY_FS_INFORMATION"] = "Qfsinfo"
			canon["SET_FILE_INFORMATION"] = "Sfileinfo"
			canon["FIND_FIRST"] = "Find"
		}
		{ sub(/\r$/, "") }
		/^[ \t]*$/ || /^[ \t]*#/ { next }
		{
			op = $1
			if (op ~ /^[0-9.]+$/) op = $2
			u = toupper(op)
			if (u ~ /^(LOOP|ENDLOOP|REPEAT|SLEEP|SETSP|WAITSP|WRITEPATTERN|RANDOMSTRING)$/) next
			if (u in canon) op = canon[u]
			n[op]++
		}
		END { for (o in n) print o, n[o] * m }' "$1" | sort
}

# loadfile_bytes FILE: the bytes one pass of a loop-free loadfile moves
# (the size argument of every ReadX and WriteX).
loadfile_bytes() {
	awk '
		{ sub(/\r$/, "") }
		/^[ \t]*$/ || /^[ \t]*#/ { next }
		{
			i = 1
			if ($1 ~ /^[0-9.]+$/) i = 2
			u = toupper($i)
			if (u == "READX" || u == "WRITEX") b += $(i + 3)
		}
		END { printf "%.0f\n", b }' "$1"
}

# assert_counts EXPECTED_FILE WHAT: the first table of $W/out has exactly
# the rows of EXPECTED_FILE ("Name Count" lines, sorted by name).
assert_counts() {
	table_counts "$W/out" | sort >"$W/found.counts"
	[ -s "$W/found.counts" ] || fail "${2:-op counts}: no operation table in stdout"
	assert_same_lines "$1" "$W/found.counts" "${2:-op counts}"
}

# throughput_field FILE: the 2nd field of the Throughput line (as Phoronix
# reads it).
throughput_field() {
	awk '/^Throughput / { print $2; exit }' "$1"
}

# is_positive NUMBER: NUMBER > 0 (accepts %g output such as 1.2e+06).
is_positive() {
	awk -v x="$1" 'BEGIN { exit !(x + 0 > 0) }'
}

# assert_clean_run [WHAT]: exit 0, no mismatch summary, an operation
# table and a Throughput line.
assert_clean_run() {
	assert_rc 0
	assert_no_mismatch
	assert_grep "$RE_HEADER" "$W/out" "${1:-run}: table header"
	assert_grep "$RE_THROUGHPUT" "$W/out" "${1:-run}: Throughput line"
}

# tree_listing DIR: "path type [size]" for everything under DIR, sorted;
# sizes for regular files only.
tree_listing() {
	(cd "$1" && find . -mindepth 1 -printf '%P %y %s\n') |
		awk '$2 == "f" { print; next } { print $1, $2 }' | sort
}

# json_field FILE EXPR: the value of a Python expression over the JSON
# document d read from FILE.
json_field() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(eval(sys.argv[2]))' "$1" "$2"
}

# built_without KIND: say why, and succeed, when dbench has no -B KIND
# (smb, nfs) built in.
built_without() {
	case $1 in
	smb) "$DBENCH" -B smb 1 2>&1 | grep -q 'built without libsmbclient' &&
		echo "dbench was built without libsmbclient" ;;
	nfs) "$DBENCH" -B nfs --nfs=nfs://127.0.0.1/x 1 2>&1 |
		grep -q "built with" && echo "dbench was built without libnfs" ;;
	*) return 1 ;;
	esac
}

# need_history: (at the top of a script of dbench-history's) the tool in
# HISTORY (default: the one built beside dbench), or no check at all: a
# skip without python3 (then it is not built), a bail out when missing.
need_history() {
	: "${HISTORY:=$SRCDIR/dbench-history}"
	command -v python3 >/dev/null 2>&1 ||
		skip_all "python3 is not installed: dbench-history is not built"
	[ -x "$HISTORY" ] || bail_out "dbench-history not found: HISTORY=$HISTORY"
}

# run_h ARGS...: dbench-history (stdout $W/out, stderr $W/err, $RC).
run_h() {
	LAST_CMD="dbench-history $*"
	timeout -k 5 "$IT_TIMEOUT" "$HISTORY" "$@" >"$W/out" 2>"$W/err" </dev/null
	RC=$?
}

# sanitizers_skip REASON: in a check, under make check-sanitize, a check
# whose C code another sanitized check runs already ends as a visible
# skip (its plain run in make check still checks everything).
sanitizers_skip() {
	[ -z "${ASAN_OPTIONS:-}" ] || skip "under check-sanitize: $1"
}

# not_under_sanitizers REASON: under make check-sanitize (ASan's options
# set), a script whose checks the sanitizers add nothing to ends here with
# a visible skip (its plain run in make check has run every check).
not_under_sanitizers() {
	if [ -n "${ASAN_OPTIONS:-}" ]; then
		echo "1..0 # SKIP under check-sanitize: $1"
		exit 0
	fi
}
