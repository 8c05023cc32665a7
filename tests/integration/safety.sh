#!/bin/bash
# safety.sh - the guarantees of README's "Safety" section, each checked by
# a run: nothing outside the target is touched (symlinks planted on the
# way and at the end of paths, absolute paths, -D that cannot be used),
# interruption in every phase (exit 130/143, results marked interrupted,
# cleanup, a second SIGINT aborting it), a killed worker and a killed
# parent (no process left, nothing written afterwards), faults from the
# filesystem (ENOSPC and EROFS on tmpfs mounts made here, EMFILE), limits
# checked before forking, and bad loadfiles and option values.
#
# Checks that need root (mounts) or an unprivileged user (process limits,
# permissions) skip with the reason when they cannot run.  No check
# depends on timing: waits are bounded by generous limits whose expiry is
# a failure.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"

BASIC=$DATA/basic.txt
TREE=$DATA/tree.txt

# ---- helpers ----

# need_root: skip unless running as root.
need_root() {
	[ "$(id -u)" -eq 0 ] || skip "needs root (mounts a tmpfs)"
}

# mount_tmpfs DIR OPTS: mount a tmpfs on DIR (unmounted when the check
# ends, see unmount_all); skip if that is not possible here.
MOUNTS=""
mount_tmpfs() {
	need_root
	mkdir -p "$1"
	mount -t tmpfs -o "$2" dbench-test "$1" 2>/dev/null ||
		skip "cannot mount a tmpfs here"
	MOUNTS="$1 $MOUNTS"
	trap unmount_all EXIT
}

unmount_all() {
	local m
	for m in $MOUNTS; do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
}

# start_session, wait_for_line, wait_exit, workers...: lib_session.sh
. "$IT_DIR/lib_session.sh"

# ---- nothing outside the target is touched ----

# precious DIR: a directory of files that must survive, and its listing.
make_precious() {
	mkdir -p "$1/sub"
	echo gold >"$1/p1"
	echo gold >"$1/p2"
	echo gold >"$1/sub/p3"
	mkdir "$1/empty"
	(cd "$1" && find . -printf '%p %y %s\n' | sort) >"$W/precious.before"
}

assert_precious() {
	(cd "$1" && find . -printf '%p %y %s\n' | sort) >"$W/precious.after"
	assert_same_lines "$W/precious.before" "$W/precious.after" "the files behind the symlinks"
	assert_eq "gold" "$(cat "$1/p1")" "content of a file behind a symlink"
}

# assert_only_clients WHAT: the target t holds only the clients/ that was
# made before the run (a run removes only the shared directories it made).
assert_only_clients() {
	tree_listing "$W/t" >found.tree
	assert_eq "clients d" "$(tr '\n' ' ' <found.tree | sed 's/ $//')" "$1"
}

# Symlinks planted in clients/client0 (to a directory of precious files
# and to /) used as intermediate and last components by every kind of
# path operation, then removed by Deltree and by the cleanup as links.
# The link to / is used by read-only operations only: a regression must
# never let this test damage the machine it runs on (every operation that
# writes or deletes goes through links to the scratch directory).
symlinks_planted() {
	mkdir t
	make_precious "$W/outside"
	mkdir -p t/clients/client0
	ln -s "$W/outside" t/clients/client0/abs
	ln -s ../../../outside t/clients/client0/rel
	ln -s / t/clients/client0/root
	ln -s "$W/outside" t/clients/client0/gone
	cat >lf.txt <<'EOF'
NTCreateX "\clients\client1\abs\p1" 0x40 0 1 *
NTCreateX "\clients\client1\rel\p2" 0x40 5 2 *
NTCreateX "\clients\client1\abs\new.dat" 0x40 2 3 *
NTCreateX "\clients\client1\abs" 0x40 0 4 *
NTCreateX "\clients\client1\rel\newdir" 0x1 2 5 *
Mkdir "\clients\client1\abs\made" *
Unlink "\clients\client1\abs\p2" *
Unlink "\clients\client1\rel\sub\p3" *
Rmdir "\clients\client1\abs\empty" *
Rename "\clients\client1\abs\p1" "\clients\client1\stolen" *
Deltree "\clients\client1\abs\sub" *
QUERY_PATH_INFORMATION "\clients\client1\root\etc\passwd" 1004 *
FIND_FIRST "\clients\client1\root\*" 260 1366 0 *
Deltree "\clients\client1\gone" *
EOF
	# links in clients/client0 before the run: refused before anything
	# is done (the run removes only what it created)
	run_db --run-once -t 60 -c "$W/lf.txt" -D "$W/t" 1
	pretree_refused clients/client0
	assert_precious "$W/outside"
	[ -e "$W/stolen" ] && fail "a file appeared outside the target"
	for l in abs rel root gone; do
		[ -L "t/clients/client0/$l" ] || fail "the link $l was not kept"
	done
}

# The removal of shared paths (outside clients/clientN) the run created
# does not follow a symlink planted on the way during the run: "lnk" does
# not exist when the run starts (so "lnk/empty" is the run's to remove),
# then becomes a link to a scratch directory that holds an empty "empty".
shared_path_link_planted() {
	mkdir t
	make_precious "$W/outside"
	printf '%s\n' 'Mkdir "\lnk\empty" *' >lf.txt
	start_session -c "$W/lf.txt" -D "$W/t" -t 600 --warmup 0 1
	wait_for_line ' execute +[0-9]+ sec '
	ln -s "$W/outside" t/lnk
	kill -0 "$BG" 2>/dev/null || fail "the run ended before the link was planted"
	kill -INT "$BG"
	wait_exit 30
	assert_rc 130
	assert_precious "$W/outside"
	[ -L t/lnk ] || fail "the planted link was removed or replaced"
}

# The same with --skip-cleanup: only Deltree removed "gone"; the other
# links are still there, as links, and nothing was created behind them.
symlinks_skip_cleanup() {
	mkdir -p t/clients/client0
	make_precious "$W/outside"
	ln -s "$W/outside" t/clients/client0/abs
	ln -s "$W/outside" t/clients/client0/gone
	printf '%s\n' 'NTCreateX "\clients\client1\abs\x.dat" 0x40 2 1 *' \
		'Mkdir "\clients\client1\abs\made" *' \
		'Deltree "\clients\client1\gone" NT_STATUS_OK' >lf.txt
	run_db --run-once -t 60 --skip-cleanup -c "$W/lf.txt" -D "$W/t" 1
	pretree_refused clients/client0
	assert_precious "$W/outside"
	[ -L t/clients/client0/abs ] || fail "the link abs was not kept as a link"
	[ -L t/clients/client0/gone ] || fail "the link gone was not kept"
	[ -e t/clients/client0/abs/made ] && fail "made behind a link"
	return 0
}

# An absolute path in the loadfile is relative to the client's target.
absolute_path_confined() {
	mkdir t
	printf '%s\n' "Mkdir \"$(printf '%s' "$W" | tr / '\\')\\made\" *" \
		"NTCreateX \"$(printf '%s' "$W" | tr / '\\')\\abs.dat\" 0x40 2 1 *" \
		"Close 1 *" >lf.txt
	run_db --run-once -t 60 --skip-cleanup -c "$W/lf.txt" -D "$W/t" 1
	assert_rc 0
	[ -e "$W/made" ] && fail "Mkdir of an absolute path made $W/made"
	[ -e "$W/abs.dat" ] && fail "NTCreateX of an absolute path made $W/abs.dat"
	return 0
}

# -D on a read-only filesystem (root can write anywhere else): refused
# before anything starts.
dir_read_only() {
	mount_tmpfs "$W/ro" ro,size=1m
	run_db --run-once -c "$BASIC" -D "$W/ro" 1
	assert_usage_error "-D read-only"
	assert_grep 'not writable' "$W/err" "message says why"
	assert_grep 'Read-only file system' "$W/err" "message gives the reason"
	assert_no_grep 'prepared for launch' "$W/out" "nothing started"
}

# as_nobody CMD...: run CMD as an unprivileged user, with a copy of the
# binary and the loadfiles it can reach; skip when not possible.
as_nobody() {
	[ "$(id -u)" -eq 0 ] || skip "needs root to switch to an unprivileged user"
	command -v setpriv >/dev/null || skip "setpriv not installed"
	id nobody >/dev/null 2>&1 || skip "no user 'nobody'"
	chmod 755 "$TOP" "$W"
	cp "$DBENCH" "$W/dbench.bin"
	cp "$BASIC" "$W/basic.txt"
	chmod 755 "$W/dbench.bin"
	chmod 644 "$W/basic.txt"
	LAST_CMD="(as nobody) $*"
	timeout -k 5 "$IT_TIMEOUT" setpriv --reuid=nobody --regid=nogroup \
		--clear-groups --inh-caps=-all bash -c "$*" >"$W/out" 2>"$W/err" </dev/null
	RC=$?
}

dir_unwritable_user() {
	mkdir t
	chmod 555 t
	as_nobody "'$W/dbench.bin' --run-once -c '$W/basic.txt' -D '$W/t' 1"
	assert_usage_error "-D unwritable for the user"
	assert_grep 'not writable' "$W/err" "message says why"
	assert_empty_dir "$W/t" "the unwritable directory"
}

# ---- resource limits, before anything is forked ----

# More clients than RLIMIT_NPROC allows (not applied to root, so as an
# unprivileged user): exit 2, one line, nothing started or created.
nproc_limit() {
	mkdir t
	chown nobody t 2>/dev/null
	as_nobody "ulimit -u 6 && '$W/dbench.bin' --run-once -c '$W/basic.txt' -D '$W/t' 20"
	assert_usage_error "20 clients, ulimit -u 6"
	assert_grep 'process limit \(ulimit -u\) is 6' "$W/err" "message names the limit"
	assert_no_grep 'prepared for launch' "$W/out" "nothing started"
	assert_empty_dir "$W/t" "target"
	# 20 clients as 2 processes of 10 (--clients-per-process 10 with 2)
	as_nobody "ulimit -u 6 && '$W/dbench.bin' --run-once --clients-per-process 10 -c '$W/basic.txt' -D '$W/t' 2"
	assert_clean_run "20 clients in 2 processes under ulimit -u 6"
}

# More clients per process than the descriptors allow (a limit applied
# to root too): exit 2 before forking.
nofile_limit() {
	mkdir t
	LAST_CMD="(ulimit -n 40) dbench --clients-per-process 30 ... 1"
	(ulimit -n 40 && exec timeout -k 5 "$IT_TIMEOUT" "$DBENCH" --run-once \
		--clients-per-process 30 -c "$BASIC" -D "$W/t" 1) >"$W/out" 2>"$W/err" </dev/null
	RC=$?
	assert_usage_error "30 clients per process, ulimit -n 40"
	assert_grep 'ulimit -n\) is 40' "$W/err" "message names the limit"
	assert_empty_dir "$W/t" "target"
	# a soft limit below the need is raised up to the hard limit
	LAST_CMD="(ulimit -Sn 40) dbench --clients-per-process 30 ... 1"
	(ulimit -Sn 40 && exec timeout -k 5 "$IT_TIMEOUT" "$DBENCH" --run-once \
		--clients-per-process 30 -c "$BASIC" -D "$W/t" 1) >"$W/out" 2>"$W/err" </dev/null
	RC=$?
	assert_clean_run "soft limit 40 raised"
	assert_empty_dir "$W/t" "target"
}

# ---- interruption ----

# interrupt PHASE SIG EXPECTED_RC [OPTS...]: signal the parent while
# PHASE's progress lines are printed.
interrupt() {
	local phase=$1 sig=$2 want=$3
	shift 3
	mkdir t
	start_session -c "$TREE" -D "$W/t" "$@" 3
	wait_for_line " $phase +[0-9]+ sec "
	kill -"$sig" "$BG"
	wait_exit 30
	assert_rc "$want"
	assert_grep "^Interrupted: these results cover [0-9.]+ seconds of the $phase phase" "$W/out" "results marked interrupted"
	assert_grep "$RE_HEADER" "$W/out" "the results so far"
	assert_grep "$RE_THROUGHPUT" "$W/out" "the Throughput line"
}

sigint_warmup() {
	interrupt warmup INT 130 -t 600 --warmup 300
	assert_empty_dir "$W/t" "target after SIGINT in the warmup"
}
sigterm_warmup() {
	interrupt warmup TERM 143 -t 600 --warmup 300
	assert_empty_dir "$W/t" "target after SIGTERM in the warmup"
}
sigint_execute() {
	interrupt execute INT 130 -t 600 --warmup 0
	assert_empty_dir "$W/t" "target after SIGINT in the execute phase"
}
sigterm_execute() {
	interrupt execute TERM 143 -t 600 --warmup 0
	assert_empty_dir "$W/t" "target after SIGTERM in the execute phase"
}
sighup_execute() {
	interrupt execute HUP 129 -t 600 --warmup 0
	assert_empty_dir "$W/t" "target after SIGHUP"
}
sigint_skip_cleanup() {
	interrupt execute INT 130 -t 600 --warmup 0 --skip-cleanup
	# (the loadfile starts each pass with a Deltree of its client's own
	# directory, so only clients/ is there at every moment)
	[ -d t/clients ] || fail "--skip-cleanup: clients/ was removed"
}

# stop_workers_until_cleanup: freeze the workers (SIGSTOP) so that the
# parent reaches the cleanup phase with every worker still busy.
stop_workers_until_cleanup() {
	mkdir t
	start_session -c "$TREE" -D "$W/t" -t 2 --warmup 0 3
	wait_for_line '^releasing clients'
	STOPPED=$(workers)
	[ -n "$STOPPED" ] || { kill_session; fail "no workers found"; }
	# shellcheck disable=SC2086
	kill -STOP $STOPPED
	wait_for_line "$RE_CLEANUP"
}

# SIGINT in the cleanup phase: the cleanup goes on to the end.
sigint_cleanup() {
	stop_workers_until_cleanup
	kill -INT "$BG"
	# shellcheck disable=SC2086
	kill -CONT $STOPPED
	wait_exit 30
	assert_rc 130
	assert_grep '^Interrupted: ' "$W/out" "results marked interrupted"
	assert_empty_dir "$W/t" "target: the cleanup finished"
}

# A second SIGINT aborts the cleanup at once, even with every worker
# frozen (they are killed): exit 130, nothing left running.
second_sigint() {
	stop_workers_until_cleanup
	kill -INT "$BG"
	sleep 0.2
	kill -INT "$BG"
	wait_exit 30
	assert_rc 130
	assert_grep '^Interrupted: ' "$W/out" "results marked interrupted"
	[ -d t/clients ] || fail "expected the aborted cleanup to leave the tree, found it removed"
}

# SIGINT after the release while staggered clients still wait to start:
# they must not start, and the run stops and cleans up.
sigint_staggered() {
	mkdir t
	start_session -c "$TREE" -D "$W/t" -t 600 --warmup 0 --stagger 1 30
	wait_for_line '^releasing clients'
	kill -INT "$BG"
	wait_exit 60
	assert_rc 130
	assert_empty_dir "$W/t" "target after SIGINT with clients still to start"
}

# ---- a worker dies; the parent dies ----

# A worker killed with SIGKILL: the parent names the client and the
# loadfile line it was at, stops the others, cleans up, exits 1, and no
# process of the run remains.
worker_sigkill() {
	local victim
	mkdir t
	start_session -c "$TREE" -D "$W/t" -t 600 --warmup 0 4
	wait_for_line ' execute +[0-9]+ sec '
	victim=$(workers | head -n 1)
	[ -n "$victim" ] || { kill_session; fail "no worker found"; }
	kill -KILL "$victim"
	wait_exit 30
	assert_rc 1
	assert_grep "^dbench: client [0-9]+ \\(process $victim\\) was killed by signal 9" "$W/err" "message names the client and the signal"
	assert_grep "process $victim\\).* at [^ ]*tree\\.txt:[0-9]+ \\([A-Za-z]+\\)" "$W/err" "message names the loadfile line and op"
	assert_empty_dir "$W/t" "target: the others stopped and everything was cleaned"
}

# The parent killed with SIGKILL: every worker goes (parent-death
# signal), and once they are gone the tree no longer changes.
parent_sigkill() {
	mkdir t
	start_session -c "$TREE" -D "$W/t" -t 600 --warmup 0 4
	wait_for_line ' execute +[0-9]+ sec '
	kill -KILL "$BG"
	wait "$BG" 2>/dev/null
	assert_no_orphans
	(cd t && find . -printf '%p %y %s %T@\n' | sort) >tree.1
	sleep 1
	(cd t && find . -printf '%p %y %s %T@\n' | sort) >tree.2
	assert_same_lines tree.1 tree.2 "the tree after every worker has gone"
}

# ---- faults from the filesystem ----

# --series on a full filesystem: an error naming the file, exit 1, and
# neither an empty nor a partial CSV; the CSV of an earlier run at that
# path stays as it was.  /dev/full: the same error, in place.
series_enospc() {
	mkdir t
	mount_tmpfs "$W/full" size=4k
	echo 'phase,earlier' >"$W/full/old.csv"
	dd if=/dev/zero of="$W/full/fill" bs=4k count=1 2>/dev/null
	run_db -t 2 -c "$DATA/basic.txt" -D "$W/t" 1 --series "$W/full/s.csv"
	assert_rc 1
	assert_grep "^dbench: --series $W/full/s\.csv: No space left on device\$" "$W/err" "the error names the file and the reason"
	[ -e "$W/full/s.csv" ] && fail "a CSV was left: $(wc -c <"$W/full/s.csv") bytes"
	run_db -t 2 -c "$DATA/basic.txt" -D "$W/t" 1 --series "$W/full/old.csv"
	assert_rc 1
	[ "$(cat "$W/full/old.csv")" = 'phase,earlier' ] || fail "the earlier CSV was changed"
	[ "$(ls "$W/full" | sort | tr '\n' ' ')" = 'fill old.csv ' ] ||
		fail "files left beside it: $(ls "$W/full" | tr '\n' ' ')"
	run_db -t 2 -c "$DATA/basic.txt" -D "$W/t" 1 --series /dev/full
	assert_rc 1
	assert_grep '^dbench: --series /dev/full: No space left on device$' "$W/err" "/dev/full named"
	assert_empty_dir "$W/t" "target after the runs"
}

# A loadfile that fills a 4 MB filesystem: WriteX fails with ENOSPC.
write_fill() {
	cat >"$1" <<'EOF'
Deltree "\clients\client1" *
Mkdir "\clients" *
Mkdir "\clients\client1" NT_STATUS_OK
NTCreateX "\clients\client1\big.dat" 0x40 5 1 NT_STATUS_OK
WriteX 1 0 1048576 1048576 NT_STATUS_OK
WriteX 1 1048576 1048576 1048576 NT_STATUS_OK
WriteX 1 2097152 1048576 1048576 NT_STATUS_OK
WriteX 1 3145728 1048576 1048576 NT_STATUS_OK
WriteX 1 4194304 1048576 1048576 NT_STATUS_OK
WriteX 1 5242880 1048576 1048576 NT_STATUS_OK
Close 1 NT_STATUS_OK
NTCreateX "\clients\client1\after.dat" 0x40 5 2 NT_STATUS_OK
Close 2 NT_STATUS_OK
EOF
}

# used KB of the filesystem of DIR
used_kb() {
	df -Pk "$1" | awk 'NR == 2 { print $3 }'
}

enospc_default() {
	mount_tmpfs "$W/small" size=4m
	write_fill lf.txt
	run_db --run-once -c "$W/lf.txt" -D "$W/small" 1
	assert_rc 1
	assert_grep '^dbench: client 0, [^ ]*lf\.txt:[0-9]+: WriteX "clients/client0/big\.dat": .*NT_STATUS_DISK_FULL: No space left on device' "$W/err" "message names op, path and the error"
	assert_empty_dir "$W/small" "the small filesystem after the run"
	assert_eq 0 "$(used_kb "$W/small")" "KB used after the cleanup"
}

enospc_keep_going() {
	mount_tmpfs "$W/small" size=4m
	write_fill lf.txt
	run_db --run-once --keep-going -c "$W/lf.txt" -D "$W/small" 2
	assert_rc 1
	assert_grep '^ WriteX +[0-9]+ +first: client [0-9], [^ ]*lf\.txt:[0-9]+: expected NT_STATUS_OK, got NT_STATUS_DISK_FULL: No space left on device' "$W/err" "summary counts WriteX failures with the error"
	# the run went on after the failures: after.dat was opened and closed
	table_counts "$W/out" | grep -Eq '^NTCreateX 4$' ||
		fail "expected 4 NTCreateX (the run continued past ENOSPC), found: $(table_counts "$W/out" | tr '\n' ' ')"
	assert_empty_dir "$W/small" "the small filesystem after the run"
	assert_eq 0 "$(used_kb "$W/small")" "KB used after the cleanup"
}

# A read-only filesystem mounted inside the client's tree: creates there
# fail with EROFS; --keep-going counts them per op and goes on.
erofs_keep_going() {
	# the client's own directory is the read-only mount: an empty
	# directory, so the run may use it (a tree in it would be refused)
	mkdir -p t/clients/client0
	mount_tmpfs "$W/t/clients/client0" ro,size=1m
	printf '%s\n' \
		'NTCreateX "\clients\client1\f.dat" 0x40 2 1 NT_STATUS_OK' \
		'Mkdir "\clients\client1\d" NT_STATUS_OK' \
		'Mkdir "\clients\client1\e" NT_STATUS_OK' >lf.txt
	run_db --run-once --keep-going --skip-cleanup -c "$W/lf.txt" -D "$W/t" 1
	assert_rc 1
	assert_grep '^ NTCreateX +1 +first: client 0, [^ ]*lf\.txt:1 "clients/client0/f\.dat": expected NT_STATUS_OK, got NT_STATUS_MEDIA_WRITE_PROTECTED: Read-only file system' "$W/err" "NTCreateX counted with the error"
	# the run went on after EROFS: both Mkdirs came after it
	assert_grep '^ Mkdir +2 +first: client 0, [^ ]*lf\.txt:2 "clients/client0/d": .*Read-only file system' "$W/err" "Mkdir counted twice with the error"
	# default policy: the first EROFS stops the run with a clear message
	run_db --run-once --skip-cleanup -c "$W/lf.txt" -D "$W/t" 1
	assert_rc 1
	assert_grep 'lf\.txt:1: NTCreateX "clients/client0/f\.dat": .*Read-only file system' "$W/err" "message names op, path and the error"
}

# Too many open files (EMFILE): descriptors inherited from the shell eat
# the margin of the up-front check, so opens fail during the run.
emfile_keep_going() {
	local i
	mkdir t
	{
		echo 'Deltree "\clients\client1" *'
		echo 'Mkdir "\clients" *'
		echo 'Mkdir "\clients\client1" NT_STATUS_OK'
		for i in $(seq 1 12); do
			echo "NTCreateX \"\\clients\\client1\\f$i\" 0x40 2 $i NT_STATUS_OK"
		done
		for i in $(seq 1 12); do echo "Close $i *"; done
	} >lf.txt
	LAST_CMD="(ulimit -n 48, fds 3-36 open) dbench --keep-going ... 1"
	(
		ulimit -n 48
		for i in $(seq 3 36); do eval "exec $i</dev/null"; done
		exec timeout -k 5 "$IT_TIMEOUT" "$DBENCH" --run-once --keep-going \
			-c "$W/lf.txt" -D "$W/t" 1
	) >"$W/out" 2>"$W/err" </dev/null
	RC=$?
	assert_rc 1
	assert_grep '^ NTCreateX +[0-9]+ +first: .*NT_STATUS_TOO_MANY_OPENED_FILES: Too many open files' "$W/err" "NTCreateX failures counted with the error"
	assert_empty_dir "$W/t" "target after the run"
}

# ---- bad loadfiles: exit 2, one line naming file:line ----

# bad_loadfile FILE REGEX: the run is refused with a message matching
# REGEX, nothing is created.
bad_loadfile() {
	mkdir -p t
	run_db --run-once -c "$1" -D "$W/t" 2
	assert_usage_error "loadfile ${1##*/}"
	assert_grep "$2" "$W/err" "message"
	assert_empty_dir "$W/t" "target"
}

lf_garbage() {
	# deterministic binary data: every byte value, twice
	for _ in 1 2; do
		for i in $(seq 0 255); do printf "\\$(printf '%03o' "$i")"; done
	done >garbage.bin
	bad_loadfile "$W/garbage.bin" 'garbage\.bin:[0-9]+: '
}
lf_nul() {
	printf 'Qfsinfo 1 *\nQfs\000info 1 *\n' >nul.txt
	bad_loadfile "$W/nul.txt" 'nul\.txt:2: .*NUL'
}
lf_empty() {
	: >empty.txt
	bad_loadfile "$W/empty.txt" 'empty\.txt: .*no operations'
}
lf_comments() {
	printf '# only\n   # comments\n\n\t\n' >comments.txt
	bad_loadfile "$W/comments.txt" 'comments\.txt: .*no operations'
}
lf_long_line() {
	head -c 10485760 /dev/zero | tr '\0' x >long.txt
	bad_loadfile "$W/long.txt" 'long\.txt:1: .*line longer than 1048576 bytes'
}
lf_truncated_gzip() {
	gzip -c "$BASIC" >full.gz
	head -c $(($(stat -c %s full.gz) / 2)) full.gz >half.gz
	bad_loadfile "$W/half.gz" 'half\.gz: .*truncated gzip'
}
lf_no_endloop() {
	printf 'LOOP 3\nQfsinfo 1 *\n' >loop.txt
	bad_loadfile "$W/loop.txt" 'loop\.txt:1: .*LOOP without a matching ENDLOOP'
}
lf_repeat_last() {
	printf 'Qfsinfo 1 *\nREPEAT 5\n' >repeat.txt
	bad_loadfile "$W/repeat.txt" 'repeat\.txt:2: .*REPEAT is the last command'
}
lf_deep_loops() {
	{ for _ in $(seq 1 65); do echo 'LOOP 1'; done
	  echo 'Qfsinfo 1 *'
	  for _ in $(seq 1 65); do echo 'ENDLOOP'; done; } >deep.txt
	bad_loadfile "$W/deep.txt" 'deep\.txt:65: .*nested more than 64 deep'
}
lf_dotdot() {
	printf 'Unlink "\\clients\\client1\\..\\..\\..\\etc\\passwd" *\n' >dotdot.txt
	bad_loadfile "$W/dotdot.txt" "dotdot\\.txt:1: .*'\\.\\.'"
}
lf_long_name() {
	printf 'Unlink "\\clients\\%s" *\n' "$(head -c 256 /dev/zero | tr '\0' a)" >name.txt
	bad_loadfile "$W/name.txt" 'name\.txt:1: .*256 bytes long; expected at most 255'
}
lf_long_path() {
	local c
	c=$(head -c 200 /dev/zero | tr '\0' a)
	printf 'Unlink "%s" *\n' "$(for _ in $(seq 1 25); do printf '\\%s' "$c"; done)" >path.txt
	bad_loadfile "$W/path.txt" 'path\.txt:1: .*longer than 4095 bytes'
}
lf_crlf_comments_only() {
	printf '# a\r\n\r\n' >crlf.txt
	bad_loadfile "$W/crlf.txt" 'crlf\.txt: .*no operations'
}

# ---- option values out of range: exit 2, one line ----

opt_out_of_range() {
	local args n=0
	mkdir t
	while IFS= read -r args; do
		[ -z "$args" ] && continue
		# shellcheck disable=SC2086
		run_db --run-once -c "$BASIC" -D "$W/t" $args
		assert_usage_error "dbench $args"
		n=$((n + 1))
	done <<'EOF'
100001
99999999999999999999
0x
-t 0 1
-t 99999999999 1
-t 1.5 1
--warmup 99999999999 1
--warmup x 1
--clients-per-process 100001 1
--clients-per-process -1 1
--stagger -1 1
--stagger 1000001 1
--trunc-io 0 1
--trunc-io -5 1
--trunc-io 9223372036854775807 1
-R 1e13 1
-R -0.5 1
-R nan 1
-R inf 1
-R 5x 1
--strict --keep-going 1
EOF
	assert_empty_dir "$W/t" "target after $n refused runs"
}

# ---- client trees that existed before the run ----

# pretree_refused PATH: the last run was refused (exit 2, one line)
# naming $W/t/PATH and why.
pretree_refused() {
	assert_usage_error "run over an existing $1"
	assert_grep "^dbench: $W/t/$1 (already exists|is behind)" "$W/err" "message names the path"
	assert_grep 'dbench removes only what it creates; remove it or use another -D$' "$W/err" "message says why"
	assert_no_grep 'execute|cleanup' "$W/out" "stdout of the refused run"
}

# A file left in clients/client1 (a client of this run): refused, kept.
pretree_file() {
	mkdir -p t/clients/client1
	echo mine >t/clients/client1/mine.txt
	run_db --run-once -c "$BASIC" -D "$W/t" 2
	pretree_refused clients/client1
	assert_grep '^dbench: .* already exists \(left by an earlier run, or someone else.s files\)' "$W/err" "the reason"
	assert_eq mine "$(cat t/clients/client1/mine.txt)" "the file left there"
	[ -d t/clients/client0 ] && fail "the refused run created clients/client0"
	return 0
}

# An empty clients/client0 is the run's to use (and to remove).
pretree_empty_dir() {
	mkdir -p t/clients/client0
	run_db --run-once -c "$BASIC" -D "$W/t" 1
	assert_clean_run
	assert_only_clients "target after the run"
}

# clients/client0 is a symlink into the check's scratch directory:
# refused; the link and what it points to are untouched.
pretree_symlink() {
	mkdir -p t/clients
	make_precious "$W/outside"
	ln -s "$W/outside" t/clients/client0
	run_db --run-once -c "$BASIC" -D "$W/t" 1
	pretree_refused clients/client0
	assert_grep 'already exists as a symlink' "$W/err" "the reason"
	assert_precious "$W/outside"
	assert_eq "$W/outside" "$(readlink t/clients/client0)" "the link"
}

# A second run over a --skip-cleanup tree runs (dbench recorded the tree
# as its own in clients/.dbench-kept) and removes it, and the record.
pretree_skip_cleanup_rerun() {
	mkdir t
	run_db --run-once --skip-cleanup -c "$TREE" -D "$W/t" 1
	assert_clean_run
	assert_eq client0 "$(cat t/clients/.dbench-kept)" "the record of kept trees"
	[ -L t/clients/.dbench-kept ] && fail "the record is a symlink"
	run_db --run-once -c "$TREE" -D "$W/t" 1
	assert_clean_run
	assert_only_clients "target after the second run (tree and record gone)"
}

# A file a user adds into a tree a dbench run kept goes with that tree
# (README: it counts as the run's); a clients/client1 of the user's own,
# not in the record, is refused and kept.
pretree_kept_and_foreign() {
	mkdir t
	run_db --run-once --skip-cleanup -c "$TREE" -D "$W/t" 1
	assert_clean_run
	echo added >t/clients/client0/added.txt
	mkdir t/clients/client1
	echo mine >t/clients/client1/mine.txt
	run_db --run-once -c "$TREE" -D "$W/t" 2
	pretree_refused clients/client1
	assert_no_grep 'client0' "$W/err" "the refusal (client0 is dbench's)"
	assert_eq mine "$(cat t/clients/client1/mine.txt)" "the user's file"
	assert_eq added "$(cat t/clients/client0/added.txt)" "the file in the kept tree (refused run)"
	rm -r t/clients/client1
	run_db --run-once -c "$TREE" -D "$W/t" 2
	assert_clean_run
	[ -e t/clients/client0 ] && fail "the kept tree (with the added file) was left"
	assert_only_clients "target after the run"
}

# A kept tree replaced by a symlink: refused even though the record names
# it; nothing behind the link touched.
pretree_kept_now_symlink() {
	mkdir t
	run_db --run-once --skip-cleanup -c "$TREE" -D "$W/t" 1
	assert_clean_run
	make_precious "$W/outside"
	mv t/clients/client0 kept.away
	ln -s "$W/outside" t/clients/client0
	run_db --run-once -c "$TREE" -D "$W/t" 1
	pretree_refused clients/client0
	assert_grep 'already exists as a symlink' "$W/err" "the reason"
	assert_precious "$W/outside"
}

# A symlink planted as the record: never followed.  Read, it names
# nothing (the user's clients/client0 is refused); written by a
# --skip-cleanup run, it is left alone (said on stderr) and what it points
# to is untouched.
pretree_record_symlink() {
	mkdir -p t/clients/client0 outside
	echo mine >t/clients/client0/mine.txt
	echo client0 >outside/list
	ln -s "$W/outside/list" t/clients/.dbench-kept
	run_db --run-once -c "$TREE" -D "$W/t" 1
	pretree_refused clients/client0
	assert_eq mine "$(cat t/clients/client0/mine.txt)" "the user's file"
	rm -r t/clients/client0
	run_db --run-once --skip-cleanup -c "$TREE" -D "$W/t" 1
	assert_rc 0
	assert_no_mismatch
	assert_grep "^dbench: $W/t: cannot record the client trees kept \\(a later run over them is refused\\): Too many levels of symbolic links\$" \
		"$W/err" "the record not written"
	[ -L t/clients/.dbench-kept ] || fail "the planted link was replaced"
	assert_eq client0 "$(cat outside/list)" "the file the link points to"
	assert_eq list "$(ls -A outside)" "the directory the link points into"
	run_db --run-once -c "$TREE" -D "$W/t" 1
	pretree_refused clients/client0
}

# A tree 20,000 deep inside the client's tree (made by the check while
# the run sleeps) is removed by the cleanup under `ulimit -n 64`.
deep_tree_cleanup() {
	command -v perl >/dev/null || skip "perl not installed"
	mkdir t
	printf '%s\n' 'Mkdir "\clients" *' 'Mkdir "\clients\client1" *' \
		'Mkdir "\clients\client1\deep" *' 'SLEEP 100000' >lf.txt
	ulimit -n 64 || skip "cannot lower the descriptor limit"
	start_session -c "$W/lf.txt" -D "$W/t" -t 600 --warmup 0 1
	wait_for_line ' execute +[0-9]+ sec '
	for _ in $(seq 1 300); do
		[ -d t/clients/client0/deep ] && break
		sleep 0.1
	done
	(cd t/clients/client0/deep &&
		perl -e 'for (1..20000) { mkdir "d" or die "mkdir: $!"; chdir "d" or die "chdir: $!"; } open(F, ">f") or die; print F "x"; close F') ||
		{ kill_session; fail "could not make the deep tree"; }
	kill -INT "$BG"
	wait_exit 60
	assert_rc 130
	assert_no_grep 'Too many open files' "$W/err" "the cleanup"
	assert_empty_dir "$W/t" "target after the cleanup"
}

check "symlinks planted in clients/client0 (to precious files and to /): nothing behind them touched, links removed" symlinks_planted
check "symlinks planted, --skip-cleanup: links kept as links, nothing created behind them" symlinks_skip_cleanup
check "a symlink planted during the run on a shared path: the end-of-run removal does not follow it" shared_path_link_planted
check "absolute paths in the loadfile stay inside the target" absolute_path_confined
check "-D on a read-only filesystem: usage error before starting" dir_read_only
check "-D unwritable for an unprivileged user: usage error" dir_unwritable_user
check "more clients than ulimit -u allows: usage error before forking" nproc_limit
check "more clients per process than ulimit -n allows: usage error; soft limit raised" nofile_limit
check "SIGINT in the warmup: exit 130, results marked, cleaned, no orphans" sigint_warmup
check "SIGTERM in the warmup: exit 143, results marked, cleaned" sigterm_warmup
check "SIGINT in the execute phase: exit 130, results marked, cleaned" sigint_execute
check "SIGTERM in the execute phase: exit 143, results marked, cleaned" sigterm_execute
check "SIGHUP in the execute phase: exit 129, cleaned" sighup_execute
check "SIGINT with --skip-cleanup: exit 130, tree kept" sigint_skip_cleanup
check "SIGINT in the cleanup phase: the cleanup finishes, exit 130" sigint_cleanup
check "a second SIGINT aborts the cleanup at once (workers frozen), exit 130" second_sigint
check "SIGINT while staggered clients wait to start: exit 130, cleaned" sigint_staggered
check "a worker SIGKILLed: client, signal and loadfile line named, exit 1, cleaned, no orphans" worker_sigkill
check "the parent SIGKILLed: no process left, the tree stops changing" parent_sigkill
check "--series on a full filesystem: error, exit 1, no empty CSV" series_enospc
check "ENOSPC on a 4 MB tmpfs: op and path named, exit 1, space freed" enospc_default
check "ENOSPC with --keep-going: counted per op, the run goes on, space freed" enospc_keep_going
check "EROFS inside the tree: counted per op with --keep-going; fatal message by default" erofs_keep_going
check "EMFILE: counted per op with --keep-going, cleaned" emfile_keep_going
check "loadfile of binary garbage: usage error" lf_garbage
check "loadfile with a NUL byte: usage error" lf_nul
check "empty loadfile: usage error" lf_empty
check "loadfile of only comments and blanks: usage error" lf_comments
check "loadfile with a 10 MB line: usage error" lf_long_line
check "truncated gzip loadfile: usage error" lf_truncated_gzip
check "LOOP without ENDLOOP: usage error" lf_no_endloop
check "REPEAT at the end of the file: usage error" lf_repeat_last
check "LOOP nested 65 deep: usage error" lf_deep_loops
check "'..' in a path: usage error" lf_dotdot
check "a 256-byte name: usage error" lf_long_name
check "a path over 4095 bytes: usage error" lf_long_path
check "CRLF loadfile of only comments: usage error" lf_crlf_comments_only
check "option values out of range: each a usage error" opt_out_of_range
check "a file already in clients/client1: refused (exit 2), the file kept" pretree_file
check "an empty clients/client0: the run uses and removes it" pretree_empty_dir
check "clients/client0 a symlink: refused (exit 2), the link and its target kept" pretree_symlink
check "--skip-cleanup, then a second run on the same -D: runs, removes the kept tree and its record" pretree_skip_cleanup_rerun
check "a file added into a kept tree goes with it; a clients/client1 of the user's own: refused (exit 2), kept" pretree_kept_and_foreign
check "a kept tree replaced by a symlink: refused, nothing behind it touched" pretree_kept_now_symlink
check "a symlink planted as clients/.dbench-kept: not followed when read or written" pretree_record_symlink
check "a 20,000-deep tree in a client's tree: removed by the cleanup under ulimit -n 64" deep_tree_cleanup
finish
