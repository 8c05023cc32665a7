#!/bin/bash
# disk_test.sh - `dbench --disk-test` and the dd loadfiles, for real:
# on a disk-backed directory the cold read starts with (almost) nothing in
# the page cache; on tmpfs the cold row says it could not evict; the test
# file is gone after a normal run and after SIGINT or SIGTERM mid-run, and
# has no name at all (a SIGKILL leaves nothing); files of earlier runs are
# reported and left alone; a
# size larger than the free space is refused; the shipped dd-*.txt
# loadfiles replay with the op counts they promise; DropCache errors name
# file:line; --json writes the disk_test section (validated against
# doc/dbench-result.schema.json), also when interrupted, and dbench-compare
# and dbench-plot read it.  Small files and one run each: no timing
# assertions.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"

LOADFILES=$SRCDIR/loadfiles
BINDIR=$(dirname "$DBENCH")
COMPARE=$BINDIR/dbench-compare
PLOT=$BINDIR/dbench-plot
SCHEMA=$SRCDIR/doc/dbench-result.schema.json

# A directory on a disk-backed filesystem (not tmpfs), removed at exit.
DISK=""
for base in /var/tmp "${TMPDIR:-/tmp}"; do
	case $(stat -f -c %T "$base" 2>/dev/null) in
	tmpfs | ramfs | "") continue ;;
	esac
	DISK=$(mktemp -d "$base/dbench-it-disk.XXXXXX" 2>/dev/null) && break
	DISK=""
done
trap 'it_cleanup; [ -n "$DISK" ] && rm -rf "$DISK"' EXIT

# The column headers of both tables (two lines each).
HEAD1='write\+      cold       hot  O_DIRECT  O_DIRECT$'
HEAD2='^directory +fdatasync      read      read     write      read$'

# label DIR: what the tables call DIR: its name, or "#N" for a long one
# (with a legend line "#N = DIR").
label() {
	local l
	l=$(sed -nE "s|^(#[0-9]+) = $1\$|\1|p" "$W/out")
	echo "${l:-$1}"
}

# mbps_row DIR: DIR's first line in the MB/s table.
mbps_row() {
	awk -v l="$(label "$1")" '$1 == l { print; exit }' "$W/out"
}

# table TITLE: the lines of the table under TITLE ("MB/s", "latency ms").
table() {
	awk -v t="$1" 'index($0, t " ") == 1 { on = 1 } on && /^$/ { exit } on' "$W/out"
}

# assert_table DIR...: the two tables with their exact headers, a line
# (three with several runs: median, lowest, highest) per DIR in the MB/s
# table and three (p50, p99, max) in the latency table, 80 columns, no
# [lowest-highest] range.
assert_table() {
	local d per=1 bad
	grep -qE '^Disk test: .*, 1 run of' "$W/out" || per=3
	table "MB/s" | head -n 1 | grep -qE "^MB/s +$HEAD1" || fail "MB/s table header"
	table "latency ms" | head -n 1 | grep -qE "^latency ms +$HEAD1" ||
		fail "latency table header"
	assert_eq 2 "$(grep -cE "$HEAD2" "$W/out")" "second header line of each table"
	assert_eq $((2 + per * $#)) "$(table "MB/s" | wc -l)" "MB/s table lines"
	assert_eq $((2 + 3 * $#)) "$(table "latency ms" | wc -l)" "latency table lines"
	for d in "$@"; do
		[ -n "$(mbps_row "$d")" ] || fail "no MB/s row for $d"
	done
	bad=$( (table "MB/s"; table "latency ms") | awk 'length($0) > 80')
	[ -z "$bad" ] || fail "table lines wider than 80 columns: $bad"
	assert_no_grep '\[[0-9.]+-[0-9.]+\]' "$W/out" "no [lowest-highest] range"
}

# cached_before DIR MEASUREMENT: the share of the file cached before it.
cached_before() {
	grep -E "^$1: fdatasync " "$W/out" | sed -nE "s/.*[:,] $2 ([0-9.]+)%.*/\1/p"
}

# mbps_cell DIR N: the Nth figure (1: write+fdatasync ... 5: O_DIRECT
# read) of DIR's first MB/s line (the median with several runs).
mbps_cell() {
	mbps_row "$1" | awk -v n="$2" '{ f = ($2 ~ /^[a-z]+$/ && NF == 7) ? 2 : 1; print $(f + n) }'
}

disk_cold() {
	[ -n "$DISK" ] || skip "no disk-backed temporary directory (/var/tmp is tmpfs)"
	local d pct
	d=$(mktemp -d "$DISK/check.XXXXXX")
	run_db --disk-test -D "$d" --size 16M --repeat 1
	assert_rc 0
	assert_table "$d"
	pct=$(cached_before "$d" "cold read")
	[ -n "$pct" ] || fail "cold read: no 'cold read N%' cached figure"
	awk -v p="$pct" 'BEGIN { exit !(p <= 1.0) }' ||
		fail "cold read: expected at most 1% of the file cached before reading, found $pct%"
	mbps_cell "$d" 2 | grep -qE '^[0-9]+\.[0-9]$' ||
		fail "cold read has no speed: $(mbps_row "$d")"
	pct=$(cached_before "$d" "hot read")
	awk -v p="$pct" 'BEGIN { exit !(p >= 99.0) }' ||
		fail "hot read: expected the file cached before reading, found '$pct'%"
	assert_grep "^$d: 16 MiB test file" "$W/out" "directory line"
	assert_empty_dir "$d" "test file removed"
	rmdir "$d"
}

tmpfs_not_evicted() {
	mkdir t
	run_db --disk-test -D "$W/t" --size 16M --repeat 1
	assert_rc 0
	assert_table "$W/t"
	assert_eq cached "$(mbps_cell "$W/t" 2)" "cold read cell on tmpfs"
	assert_grep "^$W/t: cold read: could not evict: 100\.0% of the file stayed in the page cache" \
		"$W/out" "cold read note on tmpfs"
	assert_grep "none of its figures is a disk's speed" "$W/out" "memory-backed note"
	assert_empty_dir t "test file removed"
}

two_dirs() {
	local d
	mkdir a b
	run_db --disk-test -D "$W/a,$W/b" --size 8M --block-size 256K --repeat 2
	assert_rc 0
	assert_table "$W/a" "$W/b"
	assert_grep '^Disk test: 256 KiB blocks, 2 runs of each measurement' "$W/out" "title"
	for d in "$W/a" "$W/b"; do
		table "MB/s" | grep -A2 -E "^$(label "$d") " >"$W/rows"
		assert_grep '^[^ ]+ +median +[0-9.]+ +' "$W/rows" "median line of $d"
		assert_grep '^ +lowest +[0-9.]+ +' "$W/rows" "lowest line of $d"
		assert_grep '^ +highest +[0-9.]+ +' "$W/rows" "highest line of $d"
		assert_grep "^$d: fdatasync [0-9.]+ ms; cached before reading: cold read [0-9.]+%, hot read [0-9.]+%\$" \
			"$W/out" "flush and cache figures of $d"
	done
	assert_empty_dir a "test file removed from the first directory"
	assert_empty_dir b "test file removed from the second directory"
}

# progress: a line per run of each measurement, in the order they run,
# between the header and the table, also when stdout is a pipe.
progress() {
	[ -n "$DISK" ] || skip "no disk-backed temporary directory (/var/tmp is tmpfs)"
	local d1 d2 want
	d1=$(mktemp -d "$DISK/p1.XXXXXX")
	d2=$(mktemp -d "$DISK/p2.XXXXXX")
	LAST_CMD="dbench --disk-test -D $d1,$d2 --size 1M --repeat 2 | cat"
	"$DBENCH" --disk-test -D "$d1,$d2" --size 1M --repeat 2 2>"$W/err" </dev/null |
		cat >"$W/out"
	RC=${PIPESTATUS[0]}
	assert_rc 0
	grep -E '^  /' "$W/out" | sed -E 's/  \.\.\.  .*//' >"$W/lines"
	want=$(for d in "$d1" "$d2"; do for r in 1 2; do
		printf '  %s  %-15s  run %s/2\n' "$d" "write+fdatasync" "$r" \
			"$d" "cold read" "$r" "$d" "hot read" "$r" \
			"$d" "O_DIRECT write" "$r" "$d" "O_DIRECT read" "$r"
	done; done)
	assert_eq "$want" "$(cat "$W/lines")" "progress lines, in order"
	assert_eq 20 "$(grep -cE '^  /.*  run [12]/2  \.\.\.  +[0-9]+\.[0-9] MB/sec  [0-9]+\.[0-9]{2} sec$' "$W/out")" \
		"progress lines with their MB/sec and seconds"
	# after the header, before the title of the tables
	assert_eq 3 "$(grep -nE '^  /' "$W/out" | head -n 1 | cut -d: -f1)" "first progress line"
	assert_eq 24 "$(grep -n '^Disk test:' "$W/out" | cut -d: -f1)" "the tables after them"
	rmdir "$d1" "$d2"
}

# has_test_file PID DIR: process PID holds a file of DIR open (named or
# not: an O_TMPFILE file shows as "DIR/#INODE (deleted)").
has_test_file() {
	# not the directory's lock (.dbench.lock), which is opened before
	# the disk test's signal handlers are in place
	ls -l "/proc/$1/fd" 2>/dev/null | grep -- "-> $2/" |
		grep -qv -- "-> $2/\.dbench\.lock\$"
}

# start_long_test: a long --disk-test of $W/t in the background (PID in
# $pid), once its test file is open.
start_long_test() {
	local i
	mkdir t
	"$DBENCH" --disk-test -D "$W/t" --size 64M --repeat 1000 --json "$W/i.json" \
		>"$W/out" 2>"$W/err" </dev/null &
	pid=$!
	for i in $(seq 200); do
		has_test_file "$pid" "$W/t" && return 0
		sleep 0.05
	done
	kill -KILL "$pid" 2>/dev/null
	fail "the test never opened a file in $W/t"
}

# interrupted SIGNAL STATUS: signal a long run once its file exists.
interrupted() {
	local sig=$1 want=$2 pid
	LAST_CMD="dbench --disk-test -D $W/t --size 64M --repeat 1000 (then SIG$sig)"
	start_long_test
	sleep 0.3
	kill -"$sig" "$pid"
	wait "$pid"
	RC=$?
	assert_rc "$want"
	assert_grep '^INTERRUPTED by ' "$W/out" "interrupted mark"
	assert_table "$W/t"
	assert_empty_dir t "test file removed after SIG$sig"
	# the JSON is written too, and says it was interrupted
	[ -s "$W/i.json" ] || fail "no --json document after SIG$sig"
	command -v python3 >/dev/null ||
		skip "python3 is not installed (the interrupted --json document not checked)"
	python3 - "$W/i.json" "$(kill -l "$sig")" <<'PY' || fail "interrupted JSON"
import json, sys
dt = json.load(open(sys.argv[1]))["disk_test"]
assert dt["interrupted"] is True, dt["interrupted"]
assert dt["signal"] == int(sys.argv[2]), dt.get("signal")
rows = dt["directories"][0]["measurements"]
assert len(rows) == 5
assert any(r["interrupted"] or r["state"] == "not run" for r in rows), rows
PY
}

sigint() { interrupted INT 130; }
sigterm() { interrupted TERM 143; }

# SIGKILL leaves nothing (the file has no name), and the next run works.
sigkill() {
	local pid
	LAST_CMD="dbench --disk-test -D $W/t --size 64M --repeat 1000 (then SIGKILL)"
	start_long_test
	# (the directory's lock, .dbench.lock, is all there is)
	[ "$(ls -A t)" = .dbench.lock ] || fail "the test file has a name: $(ls -A t | tr '\n' ' ')"
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	[ "$(ls -A t)" = .dbench.lock ] || fail "after SIGKILL: $(ls -A t | tr '\n' ' ')"
	run_db --disk-test -D "$W/t" --size 1M --repeat 1
	assert_rc 0
	assert_no_grep 'stale' "$W/out" "no stale file reported"
	[ "$(ls -A t)" = .dbench.lock ] || fail "after the next run: $(ls -A t | tr '\n' ' ')"
}

# Files a killed older version left (named after its PID, which a
# container may give again): reported, left alone, the run goes on.
stale_files() {
	mkdir t
	head -c 5000 /dev/zero >"t/.dbench-disktest.$$"
	: >t/.dbench-disktest.1
	run_db --disk-test -D "$W/t" --size 1M --repeat 1
	assert_rc 0
	assert_table "$W/t"
	assert_grep "^$W/t: 2 stale test files from earlier runs \(4\.9 KiB\), left alone: \.dbench-disktest\.[0-9]+, \.dbench-disktest\.[0-9]+; remove them if no dbench runs there$" \
		"$W/out" "stale files reported"
	[ "$(ls -A t | wc -l)" -eq 2 ] || fail "expected the 2 stale files only, found: $(ls -A t | tr '\n' ' ')"
	[ "$(stat -c %s "t/.dbench-disktest.$$")" -eq 5000 ] || fail "a stale file was changed"
}

too_large() {
	mkdir t
	run_db --disk-test -D "$W/t" --size 1000T
	assert_usage_error "size larger than the free space"
	[ -s "$W/out" ] && fail "expected nothing on stdout, found: $(head -n 2 "$W/out" | tr '\n' '|')"
	assert_grep "^dbench: $W/t: not enough free space for a 1000 TiB test file: [0-9.]+ [KMGT]iB free, and [0-9.]+ [KMGT]iB must stay free for others; the largest --size allowed is " \
		"$W/err" "message naming the directory, free space and size"
	assert_empty_dir t "nothing created"
}

usage_errors() {
	mkdir t
	local args
	while IFS= read -r args; do
		# shellcheck disable=SC2086 # word splitting wanted
		run_db $args
		assert_usage_error "dbench $args"
	done <<EOF
--disk-test -D $W/t --size 3X
--disk-test -D $W/t --size 1.5G
--disk-test -D $W/t --size 0
--disk-test -D $W/t --size 1M --block-size 3M
--disk-test -D $W/t --size 3M --block-size 2M
--disk-test -D $W/t --block-size 1000
--disk-test -D $W/t --block-size 2G
--disk-test -D $W/t --repeat 0
--disk-test -D $W/t --repeat x
--disk-test -D $W/t 4
--disk-test -D $W/t/missing
--size 1M 1
--repeat 0 1
--drop-caches 1
--disk-test -D $W/t --series $W/t/s.csv
--disk-test -D $W/t -t 10
--disk-test -D $W/t --loadfile $LOADFILES/dd-write.txt
--disk-test -D $W/t --json $W/t/nodir/x.json
--disk-test -D $W/t --percentiles 0
EOF
	run_db --disk-test -D "$W/t" --series "$W/t/s.csv"
	assert_grep '^dbench: --series does not go with --disk-test' "$W/err" \
		"--series refused by name"
	assert_empty_dir t "nothing created"
}

drop_caches_needs_root() {
	mkdir t
	chmod 777 t
	# let the unprivileged user reach t (the temporary tree is 0700)
	chmod a+x "$TOP" "$W"
	if [ "$(id -u)" -eq 0 ]; then
		command -v setpriv >/dev/null || skip "running as root and setpriv is missing"
		setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null ||
			skip "cannot switch to uid 65534"
		setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$DBENCH" ||
			skip "uid 65534 cannot run $DBENCH"
		LAST_CMD="(as uid 65534) dbench --disk-test --drop-caches -D $W/t --size 1M"
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$DBENCH" --disk-test --drop-caches -D "$W/t" --size 1M \
			>"$W/out" 2>"$W/err" </dev/null
		RC=$?
	else
		run_db --disk-test --drop-caches -D "$W/t" --size 1M
	fi
	assert_usage_error "--drop-caches without root"
	assert_grep '^dbench: --drop-caches needs root: cannot write /proc/sys/vm/drop_caches: ' \
		"$W/err" "message"
	assert_empty_dir t "nothing created"
}

# dd_loadfile NAME COUNTS...: replay loadfiles/NAME once with one client,
# compare the table with COUNTS ("Name Count" pairs).
dd_loadfile() {
	local lf=$LOADFILES/$1
	shift
	mkdir t
	printf '%s %s\n' "$@" | sort >expected.counts
	run_db -c "$lf" --run-once -D "$W/t" 1
	assert_clean_run "$(basename "$lf")"
	assert_counts expected.counts "op counts of $(basename "$lf")"
	assert_empty_dir t "cleanup removed the file"
}

dd_write() {
	dd_loadfile dd-write.txt Mkdir 2 NTCreateX 1 WriteX 1024 Flush 1 Close 1
}

dd_read_cold() {
	dd_loadfile dd-read-cold.txt Mkdir 2 NTCreateX 1 WriteX 1024 \
		DropCache 1 ReadX 1024 Close 1
}

dd_read_hot() {
	dd_loadfile dd-read-hot.txt Mkdir 2 NTCreateX 1 WriteX 1024 Flush 1 \
		ReadX 1024 Close 1
}

dd_direct() {
	mkdir probe
	if ! dd if=/dev/zero of=probe/x bs=4096 count=1 oflag=direct 2>/dev/null; then
		# a kernel whose tmpfs refuses O_DIRECT (before 6.6): the
		# refusal must be a clear error, not a crash
		mkdir t
		run_db -c "$LOADFILES/dd-direct.txt" --run-once -D "$W/t" 1
		assert_rc 1
		assert_grep 'NTCreateX "clients/client0/dd.dat": expected NT_STATUS_OK, got NT_STATUS_NOT_SUPPORTED: Invalid argument' \
			"$W/err" "O_DIRECT refusal message"
		return 0
	fi
	dd_loadfile dd-direct.txt Mkdir 2 NTCreateX 1 WriteX 1024 ReadX 1024 Close 1
}

# The disk-backed variant of dd-direct: O_DIRECT with aligned buffers on a
# real block device (tmpfs does not check alignment).
dd_direct_disk() {
	[ -n "$DISK" ] || skip "no disk-backed temporary directory"
	local d
	d=$(mktemp -d "$DISK/check.XXXXXX")
	sed 's/REPEAT 1023/REPEAT 15/' "$LOADFILES/dd-direct.txt" >direct16.txt
	run_db -c direct16.txt --run-once -D "$d" 1
	assert_clean_run "dd-direct (16 MiB) on $d"
	printf '%s\n' "Close 1" "Mkdir 2" "NTCreateX 1" "ReadX 16" "WriteX 16" >expected.counts
	assert_counts expected.counts "op counts"
	assert_empty_dir "$d" "cleanup removed the file"
	rmdir "$d"
}

dropcache_errors() {
	printf 'NTCreateX "\\\\f" 0x40 2 1 *\nDropCache\n' >missing.txt
	run_db -c missing.txt --run-once -D "$W" 1
	assert_usage_error "DropCache without a handle"
	assert_grep "^dbench: missing.txt:2: DropCache: expected 'DropCache handle status', found 1 field$" \
		"$W/err" "message"
	printf 'NTCreateX "\\\\f" 0x40 2 1 *\nDropCache 5 NT_STATUS_OK\n' >unknown.txt
	run_db -c unknown.txt --run-once -D "$W" 1
	assert_usage_error "DropCache on a handle never opened"
	assert_grep "^dbench: unknown.txt:2: DropCache: handle 5 is never opened" \
		"$W/err" "message"
}

# make_json: a.json (tmpfs, $W/t) and b.json (a disk-backed directory
# when there is one, else tmpfs again): 8 MiB, one run each.
make_json() {
	local d
	mkdir t
	run_db --disk-test -D "$W/t" --size 8M --repeat 1 --json a.json
	assert_rc 0
	[ -s a.json ] || fail "a.json not written"
	if [ -n "$DISK" ]; then
		d=$(mktemp -d "$DISK/json.XXXXXX")
	else
		mkdir u
		d=$W/u
	fi
	run_db --disk-test -D "$d" --size 8M --repeat 1 --json b.json
	assert_rc 0
	[ -s b.json ] || fail "b.json not written"
	assert_empty_dir "$d" "test file removed"
	[ "$d" = "$W/u" ] || rmdir "$d"
	if [ -n "$DISK" ]; then B_ON_DISK=1; else B_ON_DISK=0; fi
}

json_fields() {
	command -v python3 >/dev/null || skip "python3 is not installed"
	make_json
	python3 - a.json b.json "$B_ON_DISK" <<'PY' || fail "disk_test fields"
import json, sys
names = ["write+fdatasync", "cold read", "hot read", "O_DIRECT write",
         "O_DIRECT read"]
for f, on_disk in ((sys.argv[1], False), (sys.argv[2], sys.argv[3] == "1")):
    doc = json.load(open(f))
    assert "result" not in doc and "operations" not in doc, f
    assert doc["options"]["disk_test"] is True and \
        doc["options"]["repeat"] == 1, doc["options"]
    assert "--disk-test" in doc["command_line"], doc["command_line"]
    dt = doc["disk_test"]
    assert dt["block_size_bytes"] == 1 << 20 and dt["repeat"] == 1, dt
    assert dt["interrupted"] is False and dt["failed"] is False, dt
    assert len(dt["directories"]) == 1
    d = dt["directories"][0]
    assert d["file_size_bytes"] == 8 << 20 and not d["size_reduced"], d
    assert d["free_bytes"] > 0 and d["total_bytes"] >= d["free_bytes"], d
    assert d["memory_backed"] is (not on_disk), (f, d["memory_backed"])
    rows = d["measurements"]
    assert [r["name"] for r in rows] == names, [r["name"] for r in rows]
    for r in rows:
        assert len(r["mb_per_s"]) == r["runs"], r
        if r["state"] == "measured":
            assert r["runs"] == 1 and r["mb_per_s_median"] > 0, r
            # 8 blocks of 1 MiB, each timed
            assert r["count"] == 8, (r["name"], r["count"])
            assert sum(b[2] for b in r["histogram"]["buckets"]) == 8, r
            ps = [p["percentile"] for p in r["percentiles"]]
            assert ps == doc["options"]["percentiles"], ps
            ms = [p["ms"] for p in r["percentiles"]]
            assert ms == sorted(ms) and ms[-1] <= r["max_ms"], r
        else:
            assert r["count"] == 0 and r["note"], r
    w, cold, hot = rows[0], rows[1], rows[2]
    assert w["state"] == "measured" and len(w["fdatasync_ms"]) == 1, w
    assert "resident_pct_before" not in w
    assert hot["state"] == "measured" and hot["resident_pct_before"] >= 99
    if on_disk:
        assert cold["state"] == "measured", cold
        assert cold["resident_pct_before"] <= 1.0, cold
    else:
        assert cold["state"] == "not evicted", cold
        assert cold["resident_pct_before"] > 1.0, cold
PY
}

json_schema() {
	command -v python3 >/dev/null || skip "python3 is not installed"
	python3 -c 'import jsonschema' 2>/dev/null ||
		skip "python3-jsonschema is not installed (schema not checked)"
	make_json
	python3 - "$SCHEMA" a.json b.json <<'PY' || fail "schema validation"
import copy, json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
v = jsonschema.Draft202012Validator(schema)
for f in sys.argv[2:]:
    doc = json.load(open(f))
    v.validate(doc)
# and the schema rejects what a disk-test document must not be
bad = copy.deepcopy(doc); del bad["disk_test"]
assert not v.is_valid(bad), "accepts a document without result or disk_test"
bad = copy.deepcopy(doc)
bad["disk_test"]["directories"][0]["measurements"].pop()
assert not v.is_valid(bad), "accepts four measurements"
bad = copy.deepcopy(doc)
bad["disk_test"]["directories"][0]["measurements"][1]["state"] = "cold"
assert not v.is_valid(bad), "accepts an unknown state"
PY
}

DT_ROWS="(write\\+fdatasync|cold read|hot read|O_DIRECT write|O_DIRECT read) (MB/s|p99 ms)"

compare_text() {
	make_json
	LAST_CMD="dbench-compare a.json b.json"
	"$COMPARE" a.json b.json >"$W/out" 2>"$W/err"
	RC=$?
	assert_rc 0
	assert_eq 12 "$(wc -l <"$W/out")" "lines (header, filesystem and 5 x 2 rows)"
	assert_grep '^Metric +[^ ]+:.*/t +[^ ]+:' "$W/out" "header: host:dir per run"
	assert_eq 10 "$(grep -cE "^$DT_ROWS  " "$W/out")" "measurement rows"
	# a.json is on tmpfs: its column says the figures are memory's
	if [ "$B_ON_DISK" = 1 ]; then
		assert_grep '^filesystem +tmpfs \(in memory\) +[a-z0-9]+$' "$W/out" \
			"filesystem row: tmpfs in memory, then b's"
	else
		assert_grep '^filesystem +tmpfs \(in memory\) +tmpfs \(in memory\)$' \
			"$W/out" "filesystem row: both in memory"
	fi
	[ -s "$W/err" ] && fail "no warning expected: $(cat "$W/err")"
	assert_grep '^write\+fdatasync MB/s +[0-9.]+ +[0-9.]+ \([+-][0-9.]+%\)$' \
		"$W/out" "write MB/s with the change against the first"
	assert_grep '^hot read p99 ms +[0-9.]+ +[0-9.]+ \([+-][0-9.]+%\)$' \
		"$W/out" "hot read p99 with the change"
	# a.json is on tmpfs: its cold read has no figure, only its state
	assert_grep '^cold read MB/s +not evicted ' "$W/out" "tmpfs cold read state"
	assert_grep '^cold read p99 ms +- ' "$W/out" "no tmpfs cold read p99"
}

compare_markdown() {
	make_json
	LAST_CMD="dbench-compare --markdown -l one -l two a.json b.json"
	"$COMPARE" --markdown -l one -l two a.json b.json >"$W/out" 2>"$W/err"
	RC=$?
	assert_rc 0
	assert_eq 13 "$(wc -l <"$W/out")" "Markdown lines"
	assert_grep '^\| filesystem \| tmpfs \(in memory\) \| ' "$W/out" "filesystem cell"
	assert_grep '^\| Metric \| one \| two \|$' "$W/out" "Markdown header"
	assert_grep '^\|---\|---:\|---:\|$' "$W/out" "Markdown rule"
	assert_grep '^\| hot read MB/s \| [0-9.]+ \| [0-9.]+ \([+-][0-9.]+%\) \|$' \
		"$W/out" "hot read row"
	# (O_DIRECT on tmpfs depends on the kernel: only the name is certain)
	assert_grep '^\| O\\_DIRECT read MB/s \| ' "$W/out" "O_DIRECT row, escaped"
	assert_grep '^\| cold read MB/s \| not evicted \| ' "$W/out" "state cell"
}

# Disk tests with different settings: compared, under a warning that
# names each setting that differs (as for load runs of unlike workloads).
compare_settings() {
	mkdir t u
	run_db --disk-test -D "$W/t" --size 4M --repeat 1 --json a.json
	assert_rc 0
	run_db --disk-test -D "$W/u" --size 2M --block-size 256K --repeat 2 --json c.json
	assert_rc 0
	LAST_CMD="dbench-compare a.json c.json"
	"$COMPARE" a.json c.json >"$W/out" 2>"$W/err"
	RC=$?
	assert_rc 0
	assert_grep '^dbench-compare: warning: these runs differ in workload; their figures do not measure the same thing:$' \
		"$W/err" "warning on stderr"
	assert_grep '^dbench-compare:   block size \(--block-size\): 1048576 \(a\.json\), 262144 \(c\.json\)$' \
		"$W/err" "block size named"
	assert_grep '^dbench-compare:   size asked \(--size, 0: the default\): 4194304 \(a\.json\), 2097152 \(c\.json\)$' \
		"$W/err" "size named"
	assert_grep '^dbench-compare:   runs \(--repeat\): 1 \(a\.json\), 2 \(c\.json\)$' \
		"$W/err" "repeat named"
	assert_grep '^dbench-compare:   test file size: 4194304 \(a\.json\), 2097152 \(c\.json\)$' \
		"$W/err" "file size named"
	assert_eq 5 "$(wc -l <"$W/err")" "stderr lines"
	assert_eq "Warning: these runs differ in workload; their figures do not measure the same thing:" \
		"$(head -n 1 "$W/out")" "the warning above the table"
	assert_grep '^  runs \(--repeat\): 1 \(a\.json\), 2 \(c\.json\)$' "$W/out" "repeat above the table"
	assert_grep '^write\+fdatasync MB/s ' "$W/out" "the table follows"
}

compare_mixed() {
	local order
	mkdir t l
	run_db --disk-test -D "$W/t" --size 4M --repeat 1 --json a.json
	assert_rc 0
	run_db --run-once -c "$DATA/basic.txt" -D "$W/l" --json l.json 1
	assert_rc 0
	for order in "l.json a.json" "a.json l.json"; do
		LAST_CMD="dbench-compare $order"
		# shellcheck disable=SC2086 # word splitting wanted
		"$COMPARE" $order >"$W/out" 2>"$W/err"
		RC=$?
		assert_rc 1
		assert_eq 1 "$(wc -l <"$W/err")" "one line of error ($order)"
		assert_grep '^dbench-compare: a\.json is a disk test \(dbench --disk-test\) and l\.json a load run: they cannot be compared$' \
			"$W/err" "mixed kinds named ($order)"
		[ -s "$W/out" ] && fail "nothing on stdout expected ($order)"
	done
	return 0
}

plot_disk_test() {
	local real
	command -v gnuplot >/dev/null ||
		skip "gnuplot is not installed (Debian: gnuplot-nox)"
	make_json
	mkdir png
	mkdir scratch
	LAST_CMD="TMPDIR=scratch dbench-plot b.json -o png"
	TMPDIR=$W/scratch "$PLOT" b.json -o png >"$W/out" 2>"$W/err"
	RC=$?
	assert_rc 0
	assert_eq "" "$(ls -A scratch)" "the scratch directory removed"
	assert_eq "png/disk_test.png" "$(cat "$W/out")" "the chart named"
	[ -s png/disk_test.png ] || fail "png/disk_test.png is empty"
	[ "$(head -c 4 png/disk_test.png | od -An -tx1 | tr -d ' ')" = 89504e47 ] ||
		fail "png/disk_test.png is not a PNG"
	assert_eq 1 "$(find png -type f | wc -l)" "only the disk-test chart"
	# two disk tests: a bar series per run and directory, on one chart
	real=$(command -v gnuplot)
	printf '#!/bin/sh\ncp "$1" "%s/plot.gp" && exec "%s" "$1"\n' "$W" "$real" >gp-keep
	chmod +x gp-keep
	LAST_CMD="dbench-plot a.json b.json -l tmpfs -o png2"
	GNUPLOT=$W/gp-keep "$PLOT" a.json b.json -l tmpfs -o png2 >"$W/out" 2>"$W/err"
	RC=$?
	assert_rc 0
	assert_eq "png2/disk_test.png" "$(cat "$W/out")" "one chart for both"
	assert_grep '^set title "2 disk tests' "$W/plot.gp" "title of several"
	assert_grep "using 2:3:4:xtic\(1\) title \"tmpfs: $W/t \(in memory: not a disk\), [0-9T:.Z-]+\"" \
		"$W/plot.gp" "first run's bar: label, directory, in memory, start"
	assert_grep "using 5:6:7 title \"[^\"]+:[^\"]+, [0-9T:.Z-]+\"$" \
		"$W/plot.gp" "second run's bar: host:directory, start"
}

check "disk-backed directory: cold read starts with at most 1% cached" disk_cold
check "tmpfs: the cold row says it could not evict" tmpfs_not_evicted
check "two directories: a row each, both files removed" two_dirs
check "progress: a line per run of each measurement, in order, in a pipe" progress
check "SIGINT mid-run: exit 130, results marked, file removed" sigint
check "SIGTERM mid-run: exit 143, results marked, file removed" sigterm
check "SIGKILL mid-run: no file left (unnamed), the next run works" sigkill
check "stale test files of earlier runs: reported and left alone, the run works" stale_files
check "a size larger than the free space is refused (exit 2)" too_large
check "bad --disk-test options are usage errors" usage_errors
check "--drop-caches without root is a clear error" drop_caches_needs_root
check "loadfiles/dd-write.txt replays with its op counts" dd_write
check "loadfiles/dd-read-cold.txt replays with its op counts" dd_read_cold
check "loadfiles/dd-read-hot.txt replays with its op counts" dd_read_hot
check "loadfiles/dd-direct.txt replays with its op counts" dd_direct
check "dd-direct on a disk: aligned O_DIRECT transfers" dd_direct_disk
check "DropCache parse errors name file:line" dropcache_errors
check "--json: the disk_test section on tmpfs and on disk" json_fields
check "--json: the documents are valid against the schema" json_schema
check "dbench-compare: two disk tests, a row per measurement" compare_text
check "dbench-compare --markdown on two disk tests" compare_markdown
check "dbench-compare: disk tests with different settings, a warning" compare_settings
check "dbench-compare: a disk test and a load run is an error" compare_mixed
check "dbench-plot: disk_test.png from one disk test and from two" plot_disk_test
finish
