#!/bin/bash
# history_save.sh - `--label` saves a run to the history database:
# without it nothing is saved or probed and the text is as before; with
# it the report and --json come first, then one group of one run, its
# derived rows (ops with p50/p99, metrics, targets) there; a disk test,
# tbench and labels of any bytes too.  A corrupt, unwritable, full (a
# file-size limit), locked or newer database: report and --json still
# out, one line naming the file, exit 3, the runs saved before intact
# (PRAGMA integrity_check, their count).  8 runs ending together all
# saved.  Short -B null runs (1 s): about 30 s in all.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"

command -v sqlite3 >/dev/null || skip_all "the sqlite3 command is missing"
# an empty label is refused after the check for SQLite: nothing runs
if "$DBENCH" -B null --label "" 1 2>&1 | grep -q 'built without SQLite'; then
	skip_all "dbench was built without SQLite"
fi

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

# the same text (its numbers aside) with and without --label
saved_run() {
	local db=$W/a/b/h.sqlite sum
	run_db "${NULLRUN[@]}" 1
	keep plain
	run_db "${NULLRUN[@]}" --label "srv A" --history "$db" \
		--json="$W/res.json" 1
	assert_rc 0
	assert_eq 0 "$(wc -l <"$W/err")" "lines on stderr"
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
	done
	assert_intact "$W/h.sqlite" 2 "labels"
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
check "--label: text as before, one run saved, figures as --json, p50/p99" saved_run
check "a run with mismatches (exit 1): saved with its status and a warning" mismatches
check "\$DBENCH_HISTORY and \$XDG_DATA_HOME name the database" default_paths
check "--disk-test --label: saved as a disk test with its metrics" disk_test
check "tbench --label: the server and protocol saved" tbench_run
check "labels with quotes, newlines, UTF-8, 10 KB stored byte for byte" labels
check "a corrupt database: report, --json, one line, exit 3, untouched" corrupt
check "an unwritable path: report, --json, one line, exit 3" unwritable
check "a full disk: exit 3, the earlier run intact" full
check "a locked database: exit 3 after the busy timeout, earlier run intact" locked
check "a newer schema: refused untouched, exit 3" newer
check "8 runs ending at once: all saved" together
finish
