#!/bin/bash
# history_save.sh - `--label` saves a run to the history database:
# without it nothing is saved or probed and the text is as before; with
# it the report and --json come first, then one group of one run, its
# derived rows (ops with p50/p99, metrics, targets) there; a disk test,
# tbench and labels of any bytes too.  A corrupt, unwritable, full (a
# file-size limit), locked or newer database: report and --json still
# out, one line naming the file, exit 3, the runs saved before intact
# (PRAGMA integrity_check, their count).  A signal while the save waits
# for a lock ends the wait (exit 130); another program's SQLite database
# is left untouched; a read-only file system is named as such.  8 runs
# ending together all saved.  A schema 2 database migrated, ids not
# reused.  Short -B null runs (1 s): about 40 s in all.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"

command -v sqlite3 >/dev/null || skip_all "the sqlite3 command is missing"
# an empty label is refused after the check for SQLite: nothing runs
if "$DBENCH" -B null --label "" 1 2>&1 | grep -q 'built without SQLite'; then
	skip_all "dbench was built without SQLite"
fi

# dbench-history, for reading a saved database back
: "${HISTORY:=$SRCDIR/dbench-history}"

# the short run every check makes; more options after
NULLRUN=(-B null -t 1 --warmup=0)

# q DB SQL: the answer of the sqlite3 command line
q() {
	sqlite3 "$1" "$2"
}

# assert_intact DB N WHAT: DB passes integrity_check and holds N runs
assert_intact() {
	assert_eq ok "$(q "$1" 'PRAGMA integrity_check')" "$3: integrity_check"
	assert_eq "$2" "$(q "$1" 'SELECT count(*) FROM runs')" "$3: runs"
}

# assert_not_saved DB: the report and --json out, one line naming DB, exit 3
assert_not_saved() {
	assert_rc 3
	assert_grep '^Throughput ' "$W/out" "the report"
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' \
		"$W/res.json" || fail "--json not written"
	assert_eq 1 "$(wc -l <"$W/err")" "lines on stderr"
	assert_grep "^dbench: the run was not saved: $1" "$W/err" "the message"
}

# seed DB: one run saved in DB, the earlier run the faults must not harm
# (one saved run, made once and copied)
seed() {
	if [ ! -s "$TOP/seed.sqlite" ]; then
		run_db "${NULLRUN[@]}" --label seed --history "$TOP/seed.sqlite" 1
		assert_rc 0
	fi
	cp "$TOP/seed.sqlite" "$1" || fail "cannot copy the seeded database"
	assert_intact "$1" 1 "seeded"
}

no_label() {
	export DBENCH_HISTORY=$W/env.sqlite
	run_db "${NULLRUN[@]}" 1
	assert_rc 0
	[ ! -e "$W/env.sqlite" ] || fail "a database made without --label"
	assert_eq 0 "$(wc -l <"$W/err")" "lines on stderr"
	run_db "${NULLRUN[@]}" --history "$W/h.sqlite" 1
	assert_usage_error "--history without --label"
	run_db "${NULLRUN[@]}" --label "" 1
	assert_usage_error "an empty label"
}

# a database of schema 2 (before 003): dbench migrates it; the id of a
# run removed is not handed out again
migrate_ids() {
	local db=$W/old.sqlite
	{
		echo 'BEGIN;'
		cat "$SRCDIR/src/history/schema/001-history.sql" \
			"$SRCDIR/src/history/schema/002-workload.sql"
		echo 'PRAGMA user_version = 2; COMMIT;'
	} | sqlite3 "$db" || fail "cannot make a schema 2 database"
	run_db "${NULLRUN[@]}" --label one --history "$db" 1
	assert_rc 0
	assert_grep '^dbench: saved as run 1 \(group 1,' "$W/err" "the first run"
	assert_eq 3 "$(q "$db" 'PRAGMA user_version')" "the schema migrated"
	q "$db" 'PRAGMA foreign_keys = ON; DELETE FROM runs WHERE id = 1;
		DELETE FROM groups WHERE id = 1' || fail "cannot remove run 1"
	run_db "${NULLRUN[@]}" --label two --history "$db" 1
	assert_rc 0
	assert_grep '^dbench: saved as run 2 \(group 2,' "$W/err" \
		"a new id after the removed one"
	assert_intact "$db" 1 "migrated"
	assert_eq "2|3" "$(q "$db" 'SELECT run_id, count(*) FROM metrics
		GROUP BY run_id')" "only the new run's metrics"
}

# the same text (its numbers aside) with and without --label
saved_run() {
	local db=$W/a/b/h.sqlite sum
	run_db "${NULLRUN[@]}" 1
	keep plain
	run_db "${NULLRUN[@]}" --label "srv A" --history "$db" \
		--json="$W/res.json" 1
	assert_rc 0
	assert_eq "dbench: saved as run 1 (group 1, label \"srv A\") in $db" \
		"$(cat "$W/err")" "the one line on stderr"
	assert_eq "$(sed 's/[0-9.]\+/N/g; s/ \+/ /g' "$W/plain.out")" \
		"$(sed 's/[0-9.]\+/N/g; s/ \+/ /g' "$W/out")" "text with --label"
	assert_eq 700 "$(stat -c %a "$W/a")" "mode of the directory made"
	assert_intact "$db" 1 "saved"
	assert_eq "single|srv A|null|0|1" "$(q "$db" "SELECT g.kind, r.label,
		r.backend, r.exit_status, r.clients FROM runs r JOIN groups g
		ON g.id = r.group_id")" "group and run"
	# the saved figures are --json's
	sum=$(sha256sum <"$SRCDIR/loadfiles/client.txt" | cut -d' ' -f1)
	assert_eq "$sum" "$(q "$db" 'SELECT loadfile_sha256 FROM runs')" \
		"loadfile SHA-256 (sha256sum's)"
	assert_eq "$(python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))["result"]
print(d["throughput_mb_per_s"], d["ops_per_s"])' "$W/res.json")" \
		"$(q "$db" "SELECT json_extract(result_json,
			'\$.result.throughput_mb_per_s') || ' ' ||
			json_extract(result_json, '\$.result.ops_per_s')
			FROM runs")" "MB/s and ops/s as --json says"
	# p50 and p99 of every op although --percentiles was not asked
	assert_eq 0 "$(q "$db" 'SELECT count(*) FROM ops WHERE p50_ms IS NULL
		OR p99_ms IS NULL')" "ops without p50/p99"
	[ "$(q "$db" 'SELECT count(*) FROM ops')" -gt 5 ] || fail "no ops"
	assert_eq 3 "$(q "$db" 'SELECT count(*) FROM metrics')" "metrics"
	assert_eq 1 "$(q "$db" 'SELECT count(*) FROM targets WHERE
		free_bytes > 0 AND mount_options IS NOT NULL')" "target"
	assert_eq 1 "$(q "$db" 'SELECT count(*) FROM hosts WHERE cpus > 0')" \
		"host"
	assert_no_grep '"percentile": 99,' "$W/res.json" \
		"--json's percentiles as asked"
}

# a run that failed is saved too, with its exit status and warnings
mismatches() {
	run_db -t 1 --warmup 1 --keep-going -c "$DATA/qpi_mismatch.txt" \
		-D "$W" --label mm --history "$W/h.sqlite" 1
	assert_rc 1
	assert_eq "1|1" "$(q "$W/h.sqlite" "SELECT exit_status,
		warnings_json LIKE '%status mismatches%' FROM runs")" \
		"exit status and warning saved"
}

# $DBENCH_HISTORY, then XDG_DATA_HOME
default_paths() {
	DBENCH_HISTORY=$W/env.sqlite run_db "${NULLRUN[@]}" --label e 1
	assert_rc 0
	assert_intact "$W/env.sqlite" 1 "DBENCH_HISTORY"
	XDG_DATA_HOME=$W/xdg run_db "${NULLRUN[@]}" --label x 1
	assert_rc 0
	assert_intact "$W/xdg/dbench/history.sqlite" 1 "XDG_DATA_HOME"
}

disk_test() {
	mkdir "$W/d"
	run_db --disk-test -D "$W/d" --size 1M --block-size 64K --repeat 1 \
		--label disk --history "$W/h.sqlite"
	assert_rc 0
	assert_eq "disk_test|disk" "$(q "$W/h.sqlite" 'SELECT kind, label
		FROM runs')" "the disk test saved"
	[ "$(q "$W/h.sqlite" 'SELECT count(*) FROM metrics')" -gt 0 ] ||
		fail "no disk test metrics"
}

tbench_run() {
	local srv=${DBENCH%/*}/tbench_srv port=$((20000 + $$ % 20000)) pid
	[ -x "$srv" ] || skip "tbench_srv not built"
	"$srv" -a 127.0.0.1 -p "$port" >/dev/null 2>&1 &
	pid=$!
	sleep 0.3
	run_db "${NULLRUN[@]/null/sockio}" --server "127.0.0.1:$port" \
		--label tb --history "$W/h.sqlite" 1
	kill "$pid"
	wait "$pid" 2>/dev/null
	assert_rc 0
	assert_eq "sockio|127.0.0.1:$port|tbench" "$(q "$W/h.sqlite" "SELECT
		backend, server_url, json_extract(result_json,
		'\$.server.protocol') FROM runs")" "the tbench server"
}

# quotes, a newline, UTF-8, 10 KB: stored byte for byte
labels() {
	local long i=0 l
	long=$(head -c 10240 /dev/zero | tr '\0' 'L')
	for l in "it's \"quoted\"; DROP TABLE runs; --
two lines, größe ☃ 試験" "$long"; do
		run_db "${NULLRUN[@]}" --label "$l" --history "$W/h.sqlite" 1
		assert_rc 0
		i=$((i + 1))
		assert_eq "$l" "$(q "$W/h.sqlite" "SELECT label FROM runs
			WHERE id = $i")" "label $i"
		# the saved line stays one line: quotes and newlines escaped
		assert_eq 1 "$(wc -l <"$W/err")" "label $i: lines on stderr"
	done
	grep -qF "(group 2, label \"$long\")" "$W/err" ||
		fail "the saved line of the 10 KB label"
	run_db "${NULLRUN[@]}" --label 'a "b"
c' --history "$W/h.sqlite" 1
	assert_eq "dbench: saved as run 3 (group 3, label \"a \\x22b\\x22\\x0ac\") in $W/h.sqlite" \
		"$(cat "$W/err")" "the saved line of quotes and a newline"
	assert_intact "$W/h.sqlite" 3 "labels"
	assert_eq 10240 "$(q "$W/h.sqlite" 'SELECT length(label) FROM runs
		WHERE id = 2')" "10 KB label's length"
}

corrupt() {
	head -c 20000 /dev/urandom >"$W/h.sqlite"
	cp "$W/h.sqlite" "$W/before"
	run_db "${NULLRUN[@]}" --label c --history "$W/h.sqlite" \
		--json="$W/res.json" 1
	assert_not_saved "$W/h.sqlite"
	cmp -s "$W/h.sqlite" "$W/before" || fail "the corrupt file was changed"
}

unwritable() {
	: >"$W/file"
	run_db "${NULLRUN[@]}" --label u --history "$W/file/h.sqlite" \
		--json="$W/res.json" 1
	assert_not_saved "$W/file/h.sqlite"
	mkdir "$W/dir.sqlite"
	run_db "${NULLRUN[@]}" --label u --history "$W/dir.sqlite" \
		--json="$W/res.json" 1
	assert_not_saved "$W/dir.sqlite"
}

# full: the database on a small tmpfs of its own (a private mount
# namespace), filled up after an earlier run was saved
full() {
	local m=$W/mnt
	mkdir "$m"
	unshare -m true 2>/dev/null || skip "no private mount namespace (unshare -m)"
	unshare -m bash -c '
		m=$1 db=$2 W=$3
		shift 3
		mount -t tmpfs -o size=1M tmpfs "$m" || exit 77
		"$db" "$@" --label seed --history "$m/h.sqlite" 1 >/dev/null ||
			exit 1
		dd if=/dev/zero of="$m/fill" bs=4k 2>/dev/null
		"$db" "$@" --label f --history "$m/h.sqlite" \
			--json="$W/res.json" 1 >"$W/out" 2>"$W/err"
		echo $? >"$W/rc"
		rm -f "$m/fill"
		sqlite3 "$m/h.sqlite" "PRAGMA integrity_check" >"$W/integrity"
		sqlite3 "$m/h.sqlite" "SELECT count(*) FROM runs" >"$W/count"
	' full "$m" "$DBENCH" "$W" "${NULLRUN[@]}"
	case $? in
	0) ;;
	77) skip "cannot mount a tmpfs" ;;
	*) fail "the full-disk setup failed" ;;
	esac
	RC=$(cat "$W/rc")
	split_noise_notes
	assert_not_saved "$m/h.sqlite"
	assert_eq ok "$(cat "$W/integrity")" "integrity_check after a full disk"
	assert_eq 1 "$(cat "$W/count")" "runs after a full disk"
}

# another process holds a write transaction longer than the busy timeout
# (shortened for the test, DBENCH_HISTORY_TEST_BUSY_MS)
locked() {
	local pid
	seed "$W/h.sqlite"
	python3 -c 'import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN IMMEDIATE")
c.execute("INSERT INTO groups (kind, label, created_utc) VALUES (?, ?, ?)",
          ("single", "holder", "2020-01-01T00:00:00Z"))
open(sys.argv[2], "w").close()
time.sleep(60)' "$W/h.sqlite" "$W/locked" &
	pid=$!
	for _ in $(seq 1 100); do
		[ -e "$W/locked" ] && break
		sleep 0.1
	done
	[ -e "$W/locked" ] || { kill "$pid"; fail "the lock was not taken"; }
	DBENCH_HISTORY_TEST_BUSY_MS=300 run_db "${NULLRUN[@]}" --label l \
		--history "$W/h.sqlite" --json="$W/res.json" 1
	kill "$pid"
	wait "$pid" 2>/dev/null
	assert_not_saved "$W/h.sqlite"
	assert_grep 'locked' "$W/err" "says it is locked"
	assert_intact "$W/h.sqlite" 1 "after the lock"
}

# hold_lock DB: another process holds a write transaction on DB (for
# 60 s at most, or until the check ends); its pid in HOLDER
hold_lock() {
	rm -f "$W/locked"
	python3 -c 'import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN IMMEDIATE")
c.execute("INSERT INTO groups (kind, label, created_utc) VALUES (?, ?, ?)",
          ("single", "holder", "2020-01-01T00:00:00Z"))
open(sys.argv[2], "w").close()
time.sleep(60)' "$1" "$W/locked" &
	HOLDER=$!
	# (each check runs in a subshell: a failed assertion ends the holder)
	trap 'kill "$HOLDER" 2>/dev/null' EXIT
	for _ in $(seq 1 100); do
		[ -e "$W/locked" ] && break
		sleep 0.1
	done
	[ -e "$W/locked" ] || { kill "$HOLDER"; fail "the lock was not taken"; }
}

# SIGINT while the save waits for the lock (the full 10 s timeout): the
# wait ends, the report is out, one line, exit 130, earlier run intact
locked_signal() {
	local pid
	seed "$W/h.sqlite"
	hold_lock "$W/h.sqlite"
	"$DBENCH" "${NULLRUN[@]}" --label l --history "$W/h.sqlite" 1 \
		>"$W/out" 2>"$W/err" </dev/null &
	pid=$!
	for _ in $(seq 1 300); do
		grep -q '^Throughput ' "$W/out" && break
		sleep 0.1
	done
	sleep 0.5
	kill -INT "$pid"
	wait "$pid"
	RC=$?
	assert_rc 130
	assert_grep '^Throughput ' "$W/out" "the report"
	assert_eq 1 "$(wc -l <"$W/err")" "lines on stderr"
	assert_grep 'not waited for after a stop signal' "$W/err" "says why"
	# the same for a sweep's save (--repeat: its summary first)
	"$DBENCH" "${NULLRUN[@]}" --repeat 2 --label r --history "$W/h.sqlite" \
		1 >"$W/out" 2>"$W/err" </dev/null &
	pid=$!
	for _ in $(seq 1 300); do
		grep -q '^2 runs of ' "$W/out" && break
		sleep 0.1
	done
	sleep 0.5
	kill -INT "$pid"
	wait "$pid"
	RC=$?
	assert_rc 130
	assert_grep 'runs were not saved: .*not waited for after a stop' \
		"$W/err" "--repeat: says why"
	# a run interrupted itself: its save waits a second at most
	"$DBENCH" -B null -t 60 --warmup=0 --label i --history "$W/h.sqlite" \
		1 >"$W/out" 2>"$W/err" </dev/null &
	pid=$!
	# once it runs (its handlers in place: a sanitized start is slow)
	for _ in $(seq 1 300); do
		grep -q 'execute' "$W/out" && break
		sleep 0.1
	done
	kill -INT "$pid"
	wait "$pid"
	RC=$?
	kill "$HOLDER"
	wait "$HOLDER" 2>/dev/null
	assert_rc 130
	assert_grep '^Interrupted' "$W/out" "the interrupted run's report"
	assert_grep 'not waited for after a stop signal' "$W/err" \
		"an interrupted run: says why"
	assert_intact "$W/h.sqlite" 1 "after the signals"
}

# another program's SQLite database: not a history, not touched, exit 3
foreign() {
	q "$W/other.sqlite" 'CREATE TABLE mine (x); INSERT INTO mine VALUES (1)'
	cp "$W/other.sqlite" "$W/before"
	run_db "${NULLRUN[@]}" --label f --history "$W/other.sqlite" \
		--json="$W/res.json" 1
	assert_not_saved "$W/other.sqlite"
	assert_grep 'not a dbench history' "$W/err" "says why"
	cmp -s "$W/other.sqlite" "$W/before" || fail "the database changed"
	[ ! -e "$W/other.sqlite-wal" ] || fail "a -wal file made"
}

# a database on a read-only file system (a private read-only bind
# mount): "cannot write: Read-only file system", not a stale errno
read_only_fs() {
	mkdir "$W/ro"
	seed "$W/ro/h.sqlite"
	unshare -m true 2>/dev/null || skip "no private mount namespace (unshare -m)"
	W=$W H=$HISTORY unshare -m bash -c '
		mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" || exit 77
		shift
		"$@" >"$W/out" 2>"$W/err" </dev/null
		echo $? >"$W/rc"
		[ -x "$H" ] || exit 0
		"$H" --history "$W/ro/h.sqlite" list >"$W/hout" 2>"$W/herr"
		echo $? >"$W/hrc"
	' ro "$W/ro" "$DBENCH" "${NULLRUN[@]}" --label r \
		--history "$W/ro/h.sqlite" --json="$W/res.json" 1
	[ $? -eq 77 ] && skip "cannot make a read-only bind mount"
	RC=$(cat "$W/rc")
	assert_not_saved "$W/ro/h.sqlite"
	assert_grep 'cannot write: Read-only file system' "$W/err" "says why"
	# reading needs no writing: dbench-history lists the saved run
	[ -e "$W/hrc" ] || skip "dbench-history not built (HISTORY=$HISTORY)"
	assert_eq 0 "$(cat "$W/hrc")" "dbench-history list: exit status"
	assert_eq "" "$(cat "$W/herr")" "dbench-history list: stderr"
	assert_eq 2 "$(wc -l <"$W/hout")" "dbench-history list: header and run"
}

newer() {
	seed "$W/h.sqlite"
	q "$W/h.sqlite" 'PRAGMA user_version = 999' || fail "user_version"
	cp "$W/h.sqlite" "$W/before"
	run_db "${NULLRUN[@]}" --label n --history "$W/h.sqlite" \
		--json="$W/res.json" 1
	assert_not_saved "$W/h.sqlite"
	assert_grep 'newer dbench' "$W/err" "says why"
	cmp -s "$W/h.sqlite" "$W/before" || fail "the newer database changed"
	assert_intact "$W/h.sqlite" 1 "the newer database"
}

# 8 runs ending at once, each saved (WAL and the busy timeout)
together() {
	local pids=() i
	seed "$W/h.sqlite"
	for i in 1 2 3 4 5 6 7 8; do
		mkdir "$W/d$i"
		"$DBENCH" "${NULLRUN[@]}" -D "$W/d$i" --label "r$i" \
			--history "$W/h.sqlite" 1 >"$W/out$i" 2>&1 &
		pids+=($!)
	done
	for i in 0 1 2 3 4 5 6 7; do
		wait "${pids[$i]}" || fail "run $((i + 1)): $(tail -n 1 "$W/out$((i + 1))")"
	done
	assert_intact "$W/h.sqlite" 9 "8 runs at once"
	assert_eq 8 "$(q "$W/h.sqlite" "SELECT count(DISTINCT label) FROM runs
		WHERE label LIKE 'r%'")" "every label"
}

check "without --label: nothing saved, no new line; --history alone refused" no_label
check "--label: text as before, one line on stderr naming the run, group, label and file; figures as --json, p50/p99" saved_run
check "a run with mismatches (exit 1): saved with its status and a warning" mismatches
check "\$DBENCH_HISTORY and \$XDG_DATA_HOME name the database" default_paths
check "--disk-test --label: saved as a disk test with its metrics" disk_test
check "tbench --label: the server and protocol saved" tbench_run
check "labels with quotes, newlines, UTF-8, 10 KB stored byte for byte; the saved line one line" labels
check "a corrupt database: report, --json, one line, exit 3, untouched" corrupt
check "an unwritable path: report, --json, one line, exit 3" unwritable
check "a full disk: exit 3, the earlier run intact" full
check "a locked database: exit 3 after the busy timeout, earlier run intact" locked
check "a newer schema: refused untouched, exit 3" newer
check "SIGINT while waiting for a locked database: exit 130 at once" locked_signal
check "another program's SQLite database: untouched, one line, exit 3" foreign
check "a read-only file system: says so, exit 3; dbench-history reads it" read_only_fs
check "8 runs ending at once: all saved" together
check "a schema 2 database migrated (ids AUTOINCREMENT): a removed run's id not given again" migrate_ids
finish
