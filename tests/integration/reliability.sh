#!/bin/bash
# reliability.sh - the hostile-user cases that are refused up front:
# a loadfile that would remove or move what the run did not create, a
# run the kernel's or the cgroup's process limits cannot carry (root
# included), two runs on one -D at once, and small input traps (a UTF-8
# byte order mark, a pacing rate too small to compute, output files in
# a directory that cannot take them).
#
# Checks that need root or a writable pids cgroup skip with the reason
# when they cannot run.  No check depends on timing: waits are bounded
# by generous limits whose expiry is a failure.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"

BASIC=$DATA/basic.txt

# decoy: files in the target that the run did not create; decoy_sum
# prints their names and checksums (to compare before and after).
decoy() {
	mkdir -p t/keep t/clients/client7
	echo precious >t/precious.txt
	echo mine >t/keep/mine.txt
	echo other >t/clients/client7/other.txt
}
decoy_sum() {
	(cd t && find . -type f | sort | xargs md5sum)
}

# ---- loadfiles that remove or move what the run did not create ----

# refused LOADFILE_TEXT LINE REGEX: the loadfile is a usage error at
# LINE whose message matches REGEX, and the target is untouched.
refused() {
	decoy
	printf '%s\n' "$1" >lf.txt
	decoy_sum >before
	run_db --run-once -c "$W/lf.txt" -D "$W/t" 2
	assert_usage_error "loadfile: $1"
	assert_grep "^dbench: $W/lf\\.txt:$2: $3" "$W/err" "message"
	decoy_sum >after
	assert_same_lines before after "the decoy files"
	[ -e t/clients/client0 ] && fail "clients/client0 was created"
	return 0
}

lf_deltree_root() {
	refused "$(printf '%s\n' 'Mkdir "\clients" *' 'Deltree "\" NT_STATUS_OK')" 2 \
		'Deltree: path "\\" is outside the client'"'"'s directory'
}
lf_deltree_clients() {
	refused 'Deltree "\clients" *' 1 'Deltree: path "\\clients" is outside'
}
lf_unlink_outside() {
	refused 'Unlink "\precious.txt" *' 1 'Unlink: path "\\precious\.txt" is outside'
}
lf_rename_out() {
	refused 'Rename "\clients\client1\a" "\keep\a" *' 1 \
		'Rename: path "\\keep\\a" is outside'
	refused 'Rename "\keep\mine.txt" "\clients\client1\m" *' 1 \
		'Rename: path "\\keep\\mine\.txt" is outside'
}
lf_other_client() {
	refused 'Deltree "\clients\client7" *' 1 'Deltree: path .* is outside'
}

# (the shipped client.txt and Debian's still replay without a mismatch:
# default_loadfile.sh)

# ---- processes: kernel.pid_max and the cgroup's pids.max, root included ----

# mount_point FSTYPE [OPTION]: the first mount of FSTYPE (with OPTION among
# its super options) in /proc/self/mountinfo.
mount_point() {
	awk -v t="$1" -v o="$2" '{
		n = index($0, " - ")
		split(substr($0, 1, n), a, " ")
		split(substr($0, n + 3), b, " ")
		if (b[1] == t && (o == "" || ("," b[3] ",") ~ ("," o ",")))
			{ print a[5]; exit }
	}' /proc/self/mountinfo
}

# make_pids_cgroup MAX: a child of our pids cgroup (v1, or v2 with the
# pids controller enabled for children) limited to MAX tasks, its
# directory in $CG, removed when the check ends; skips when none can be
# made here.
make_pids_cgroup() {
	local mp path
	[ "$(id -u)" -eq 0 ] || skip "needs root to make a cgroup"
	mp=$(mount_point cgroup pids)
	if [ -n "$mp" ]; then
		path=$(awk -F: '("," $2 ",") ~ /,pids,/ { print $3; exit }' /proc/self/cgroup)
	else
		mp=$(mount_point cgroup2)
		path=$(awk -F: '$1 == "0" { print $3; exit }' /proc/self/cgroup)
		[ -n "$mp" ] && grep -qw pids "$mp${path%/}/cgroup.subtree_control" 2>/dev/null ||
			skip "no pids cgroup controller usable here"
	fi
	CG="$mp${path%/}/dbench-test.$BASHPID"
	mkdir "$CG" 2>/dev/null || skip "cannot create a cgroup in $mp${path%/}"
	trap 'rmdir "$CG/inner" "$CG" 2>/dev/null' EXIT
	echo "$1" >"$CG/pids.max" || skip "cannot set pids.max in $CG"
}

# in_cgroup DIR ARGS...: run dbench with ARGS as a member of cgroup DIR.
in_cgroup() {
	local dir=$1
	shift
	LAST_CMD="(in cgroup $dir) dbench $*"
	timeout -k 5 "$IT_TIMEOUT" bash -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' \
		_ "$dir" "$DBENCH" "$@" >"$W/out" 2>"$W/err" </dev/null
	RC=$?
	split_noise_notes
}

cgroup_pids_max() {
	make_pids_cgroup 40
	mkdir t
	in_cgroup "$CG" --run-once -c "$BASIC" -D "$W/t" 60
	assert_usage_error "60 clients, pids.max 40"
	assert_grep "60 clients need 60 worker processes, but the cgroup $CG allows 40 tasks \(pids\.max\) and already has [0-9]+ \(pids\.current\)" \
		"$W/err" "message names the cgroup and its numbers"
	assert_empty_dir "$W/t" "target"
	# a limit on a parent binds its children
	mkdir "$CG/inner" || fail "cannot make $CG/inner"
	in_cgroup "$CG/inner" --run-once -c "$BASIC" -D "$W/t" 60
	assert_usage_error "60 clients, parent's pids.max 40"
	assert_grep "but the cgroup $CG allows 40 tasks" "$W/err" "message names the parent"
	# 60 clients in 6 processes fit (6 processes of 10 clients each)
	in_cgroup "$CG" --run-once --clients-per-process 10 -c "$BASIC" -D "$W/t" 6
	assert_clean_run "60 clients in 6 processes under pids.max 40"
	assert_empty_dir "$W/t" "target"
}

# dbench 100000 as root: refused when kernel.pid_max cannot hold it (in
# a cgroup of 200 tasks, so that a missing check cannot exhaust the host).
kernel_pid_max() {
	local pid_max tasks
	pid_max=$(cat /proc/sys/kernel/pid_max)
	tasks=$(awk '{ split($4, a, "/"); print a[2] }' /proc/loadavg)
	[ $((pid_max - 300 - tasks - 64)) -lt 100000 ] ||
		skip "kernel.pid_max $pid_max has room for 100000 workers here"
	make_pids_cgroup 200
	mkdir t
	in_cgroup "$CG" --run-once -c "$BASIC" -D "$W/t" 100000
	assert_usage_error "100000 clients, kernel.pid_max $pid_max"
	assert_grep "100000 clients need 100000 worker processes, but kernel\.pid_max is $pid_max and [0-9]+ tasks already run" \
		"$W/err" "message names kernel.pid_max"
	assert_empty_dir "$W/t" "target"
}

# ---- two runs on one -D ----

# start_first ARGS...: start dbench in the background (its PID in $FIRST,
# output in $W/first.out) and wait until its workers are released.
start_first() {
	LAST_CMD="dbench $* (in the background)"
	"$DBENCH" "$@" >"$W/first.out" 2>"$W/first.err" </dev/null &
	FIRST=$!
	for _ in $(seq 1 600); do
		grep -q 'releasing clients' "$W/first.out" && return 0
		kill -0 "$FIRST" 2>/dev/null || break
		sleep 0.1
	done
	show_file "$W/first.out" "first run's stdout"
	show_file "$W/first.err" "first run's stderr"
	fail "the first run did not start"
}

# stop_first: SIGINT the first run and wait (bounded) for it to end.
stop_first() {
	kill -INT "$FIRST" 2>/dev/null
	for _ in $(seq 1 600); do
		kill -0 "$FIRST" 2>/dev/null || { wait "$FIRST"; return 0; }
		sleep 0.1
	done
	kill -KILL "$FIRST" 2>/dev/null
	fail "the first run did not end within 60 s of SIGINT"
}

two_runs() {
	decoy
	mkdir elsewhere
	# a loadfile whose passes leave the tree as it was: a directory and
	# a file of 4 KiB in each client's (the same after every pass)
	printf '%s\n' 'Mkdir "\clients" *' 'Mkdir "\clients\client1" *' \
		'Mkdir "\clients\client1\d" *' \
		'NTCreateX "\clients\client1\d\f" 0 3 1 NT_STATUS_OK' \
		'WriteX 1 0 4096 4096 NT_STATUS_OK' 'Close 1 NT_STATUS_OK' \
		'Qfsinfo 1 *' >stable.txt
	decoy_sum >before
	start_first -t 600 -c "$W/stable.txt" -D "$W/t" 2
	[ -f t/.dbench.lock ] || { stop_first; fail "no t/.dbench.lock during the run"; }
	# (bounded: the first pass makes the files)
	for _ in $(seq 1 600); do
		tree_listing t/clients >tree.before
		[ "$(grep -c '^client[01]/d/f f 4096$' tree.before)" -eq 2 ] &&
			break
		sleep 0.1
	done
	[ "$(grep -c '^client[01]/d/f f 4096$' tree.before)" -eq 2 ] || {
		stop_first
		fail "the first run's trees hold no files: $(tr '\n' ' ' <tree.before)"
	}
	run_db --run-once -c "$BASIC" -D "$W/t" 3
	keep second
	run_db --disk-test --size 1M --repeat 1 -D "$W/t"
	keep disktest
	run_db --run-once -c "$BASIC" -D "$W/elsewhere,$W/t" 1
	keep list
	tree_listing t/clients >tree.after
	stop_first
	for r in second disktest list; do
		cp "$W/$r.out" "$W/out"; cp "$W/$r.err" "$W/err"
		RC=2
		[ -s "$W/$r.out" ] && fail "$r: the refused run printed on stdout"
		assert_grep "^dbench: another dbench \(pid $FIRST\) is using $W/t\$" "$W/err" "$r: message"
	done
	assert_same_lines tree.before tree.after "the first run's client trees"
	assert_grep 'Interrupted' "$W/first.out" "the first run ended by SIGINT"
	[ -e t/.dbench.lock ] && fail "the first run left t/.dbench.lock"
	[ -e elsewhere/.dbench.lock ] && fail "the refused run left elsewhere/.dbench.lock"
	[ -e t/clients/client0 ] && fail "the first run's cleanup left t/clients/client0"
	decoy_sum >after
	assert_same_lines before after "the decoy files"
}

# A target inside or above a running one is refused naming both (the
# outer run's cleanup would remove the inner one's tree and lock), and
# so are two targets of one -D list inside each other.
nested_runs() {
	mkdir -p t/sub up
	printf '%s\n' 'Mkdir "\clients" *' 'Mkdir "\clients\client1" *' \
		'NTCreateX "\clients\client1\f" 0 3 1 *' \
		'WriteX 1 0 4096 4096 *' 'Close 1 *' 'Qfsinfo 1 *' >stable.txt
	start_first -t 600 -c "$W/stable.txt" -D "$W/t" 1
	run_db --run-once -c "$BASIC" -D "$W/t/clients/client0" 1
	keep inner
	run_db --run-once -c "$BASIC" -D "$W/t/sub" 1
	keep sub
	run_db --run-once -c "$BASIC" -D "$W" 1
	keep above
	run_db --disk-test --size 1M --repeat 1 -D "$W"
	keep above_disk
	tree_listing t/clients >tree.now
	stop_first
	assert_grep 'Interrupted' "$W/first.out" "the first run ended by SIGINT"
	grep -q '^client0/f f 4096$' tree.now ||
		fail "the first run's tree was changed: $(cat tree.now)"
	for r in inner sub; do
		cp "$W/$r.out" "$W/out"; cp "$W/$r.err" "$W/err"; RC=2
		assert_usage_error "$r"
		assert_grep "^dbench: $W/t/[a-z0-9/]+ is inside $W/t, which another dbench \(pid $FIRST\) is using" \
			"$W/err" "$r: message names both and the PID"
	done
	[ -e t/sub/.dbench.lock ] && fail "the refused run left t/sub/.dbench.lock"
	for r in above above_disk; do
		cp "$W/$r.out" "$W/out"; cp "$W/$r.err" "$W/err"; RC=2
		assert_usage_error "$r"
		assert_grep "^dbench: $W holds $W/t, which another dbench \(pid $FIRST\) is using" \
			"$W/err" "$r: message names both and the PID"
	done
	[ -e .dbench.lock ] && fail "the refused run left $W/.dbench.lock"
	# the other way round: the inner run first
	start_first -t 600 -c "$W/stable.txt" -D "$W/t/sub" 1
	run_db --run-once -c "$BASIC" -D "$W/t" 1
	keep outer
	run_db --run-once -c "$BASIC" -D "$W/up" 1
	keep beside
	beside_rc=$RC
	stop_first
	cp "$W/outer.out" "$W/out"; cp "$W/outer.err" "$W/err"; RC=2
	assert_usage_error "outer run"
	assert_grep "^dbench: $W/t holds $W/t/sub, which another dbench \(pid $FIRST\) is using" \
		"$W/err" "outer: message names both and the PID"
	cp "$W/beside.out" "$W/out"; cp "$W/beside.err" "$W/err"; RC=$beside_rc
	assert_clean_run "a run beside the first"
	# one list
	run_db --run-once -c "$BASIC" -D "$W/up,$W/t/sub" 1
	assert_clean_run "-D up,t/sub"
	run_db --run-once -c "$BASIC" -D "$W/t/sub,$W/t" 2
	assert_usage_error "-D t/sub,t"
	assert_grep "^dbench: -D: $W/t/sub is inside $W/t \(both in the list\)" "$W/err" "message"
	assert_empty_dir "$W/t/sub" "t/sub"
}

# The same directory twice in one -D list (or by two names) is one lock.
same_dir_twice() {
	mkdir t
	ln -s t t2
	run_db --run-once -c "$BASIC" -D "$W/t,$W/t,$W/t2" 3
	assert_clean_run "-D t,t,t2"
	assert_empty_dir "$W/t" "target"
}

# A symlink planted at DIR/.dbench.lock is never followed.
lock_symlink() {
	mkdir t
	echo precious >victim
	ln -s "$W/victim" t/.dbench.lock
	run_db --run-once -c "$BASIC" -D "$W/t" 1
	assert_usage_error "symlink at .dbench.lock"
	assert_grep "\.dbench\.lock is a symbolic link or not a regular file" "$W/err" "message"
	assert_eq precious "$(cat victim)" "the file behind the link"
	[ -L t/.dbench.lock ] || fail "the planted link was removed"
	rm t/.dbench.lock
	mkfifo t/.dbench.lock
	run_db --run-once -c "$BASIC" -D "$W/t" 1
	assert_usage_error "FIFO at .dbench.lock"
	[ -p t/.dbench.lock ] || fail "the FIFO was removed"
}

# A lock file left by a killed run (no lock held) does not block the
# next run, which leaves it where it was (it did not create it).
lock_stale_file() {
	mkdir t
	echo 999999 >t/.dbench.lock
	run_db --run-once -c "$BASIC" -D "$W/t" 1
	assert_clean_run "stale .dbench.lock"
	[ -f t/.dbench.lock ] || fail "a lock file the run did not create was removed"
	[ -e t/clients ] && fail "t/clients left"
	return 0
}

# ---- small input traps ----

# A UTF-8 byte order mark before the first command is skipped.
lf_bom() {
	mkdir t
	{ printf '\357\273\277'; cat "$BASIC"; } >bom.txt
	run_db --run-once -c "$W/bom.txt" -D "$W/t" 1
	assert_clean_run "loadfile with a byte order mark"
	assert_no_mismatch
	assert_eq "$(loadfile_counts "$BASIC" | sort)" \
		"$(table_counts "$W/out" | sort)" "op counts"
}

# A timestamp whose nanoseconds would not fit: usage error at its line.
lf_huge_time() {
	mkdir t
	printf '%s\n' '0.0 Qfsinfo 1 *' '18446744073.71 Qfsinfo 1 *' >time.txt
	run_db --run-once -c "$W/time.txt" -D "$W/t" 1
	assert_usage_error "timestamp 1.8e10"
	assert_grep "time\\.txt:2: time '18446744073\\.71' is more than" "$W/err" "message"
	assert_empty_dir "$W/t" "target"
}

# -R too small to compute a pacing delay with: usage error.
rate_tiny() {
	mkdir t
	for r in 1e-300 4.9e-324 0.0000009; do
		run_db --run-once -R "$r" -c "$BASIC" -D "$W/t" 1
		assert_usage_error "-R $r"
		assert_grep "'$r' is not a number of MB/s" "$W/err" "message"
	done
	assert_empty_dir "$W/t" "target"
}

# --json and --series where the file cannot be created: the reason.
output_file_reasons() {
	mkdir t
	run_db --run-once -c "$BASIC" -D "$W/t" --json "$W/nodir/r.json" 1
	assert_usage_error "--json in a missing directory"
	assert_grep "cannot create the file there: No such file or directory$" "$W/err" "reason"
	touch notdir
	run_db --run-once -c "$BASIC" -D "$W/t" --series "$W/notdir/s.csv" 1
	assert_usage_error "--series under a file"
	assert_grep "cannot create the file there: Not a directory$" "$W/err" "reason"
	assert_empty_dir "$W/t" "target"
}

# --json on a read-only filesystem (a read-only tmpfs: needs root).
output_file_erofs() {
	mkdir t ro
	[ "$(id -u)" -eq 0 ] || skip "needs root to mount a read-only tmpfs"
	mount -t tmpfs -o ro,size=64k dbench-ro "$W/ro" 2>/dev/null ||
		skip "cannot mount a read-only tmpfs here"
	run_db --run-once -c "$BASIC" -D "$W/t" --json "$W/ro/r.json" 1
	umount "$W/ro"
	assert_usage_error "--json on a read-only filesystem"
	assert_grep "cannot create the file there: Read-only file system$" "$W/err" "reason"
	assert_empty_dir "$W/t" "target"
}

check "Deltree \"\\\" (after Mkdir): usage error at its line, nothing touched" lf_deltree_root
check "Deltree \"\\clients\": usage error, nothing touched" lf_deltree_clients
check "Unlink of a file outside the client's directory: usage error" lf_unlink_outside
check "Rename out of or into the client's directory from outside: usage error" lf_rename_out
check "Deltree of another client's directory: usage error" lf_other_client
check "a cgroup's pids.max (or its parent's) too small for the workers, as root: usage error naming it" cgroup_pids_max
check "dbench 100000 as root beyond kernel.pid_max: usage error naming it" kernel_pid_max
check "two runs on one -D (load run, --disk-test, in a -D list): the second refused naming the first's PID, the first's tree intact" two_runs
check "a target inside or above a running one, or two nested in one -D list: refused naming both" nested_runs
check "the same directory twice in -D (and by a symlink): locked once, the run works" same_dir_twice
check "a symlink or FIFO planted at DIR/.dbench.lock: refused, never followed or removed" lock_symlink
check "a stale .dbench.lock from a killed run: the run goes on, the file is left" lock_stale_file
check "a UTF-8 byte order mark before the first command is skipped" lf_bom
check "a timestamp of 1.8e10 s: usage error at its line" lf_huge_time
check "-R 1e-300 and other rates under 1 byte/s: usage error" rate_tiny
check "--json/--series that cannot be created: the errno text" output_file_reasons
check "--json on a read-only filesystem: the errno text" output_file_erofs
finish
