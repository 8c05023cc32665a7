#!/bin/bash
# output.sh - the shape of what dbench prints: progress lines, the table,
# the Throughput line, machine-readable lines, per-client results and
# execute times, checked against COMPAT.md and against the way mmtests and
# the Phoronix Test Suite read them.  No timing assertions.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"

LF=$DATA/basic.txt
TIMED=$DATA/timed.txt
ORDER="NTCreateX Close Rename Unlink Deltree Rmdir Mkdir Qpathinfo Qfileinfo Qfsinfo Sfileinfo Find WriteX ReadX LockX UnlockX Flush DropCache"

# assert_table_shape FILE: blank line, header, dashes, rows in the
# ` %-12s %7u %9.03f %9.03f` format and COMPAT order, blank line.
assert_table_shape() {
	local f=$1 hl
	hl=$(grep -nE "$RE_HEADER" "$f" | head -n 1 | cut -d: -f1)
	[ -n "$hl" ] || fail "table header: expected ' Operation      Count    AvgLat    MaxLat', not found"
	assert_eq "" "$(sed -n "$((hl - 1))p" "$f")" "line before the table header"
	assert_eq "$DASHES" "$(sed -n "$((hl + 1))p" "$f")" "line after the table header (one space, 40 dashes)"
	table_rows "$f" >rows
	assert_all_match "$RE_ROW" rows "table rows"
	assert_all_match "$RE_ROW_COLS" rows "table row columns (%-12s %7u %9.03f %9.03f)"
	if awk '$2 == 0' rows | grep -q .; then
		fail "table: rows with a zero count must be left out, found: $(awk '$2 == 0' rows | head -n 1)"
	fi
	awk -v order="$ORDER" '
		BEGIN { n = split(order, o, " "); for (i = 1; i <= n; i++) idx[o[i]] = i }
		!($1 in idx) { print "unknown op name " $1; exit 1 }
		idx[$1] <= last { print $1 " is out of order"; exit 1 }
		{ last = idx[$1] }' rows >order.err ||
		fail "table rows: $(cat order.err)"
	# the line after the last row is blank
	local nrows
	nrows=$(wc -l <rows)
	assert_eq "" "$(sed -n "$((hl + 2 + nrows))p" "$f")" "line after the table"
}

# assert_progress_shapes FILE: every line from the first progress line to
# the blank line before the table is a progress or cleanup line; at least
# one execute line.
assert_progress_shapes() {
	local f=$1
	local first
	first=$(grep -nE "($RE_PROGRESS)|($RE_CLEANUP)" "$f" | head -n 1 | cut -d: -f1)
	[ -n "$first" ] || fail "progress: expected progress lines, found none"
	tail -n "+$first" "$f" | sed '/^$/,$d' >progress
	assert_all_match "($RE_PROGRESS)|($RE_CLEANUP)" progress "progress lines"
	assert_grep ' execute +[0-9]+ sec ' progress "progress: an execute line"
}

# A run shorter than a second: the whole stdout, line by line.
shape_run_once() {
	local thr
	mkdir t
	run_db --run-once -t 60 -c "$LF" -D "$W/t" 2
	assert_clean_run
	assert_match '^dbench.* [0-9]+\.[0-9]+' "$(head -n 1 "$W/out")" "first line names dbench and its version"
	assert_grep "^Running for [0-9]+ seconds with load '[^']*basic\\.txt' and minimum warmup 0 secs\$" "$W/out" "Running for line (--run-once: warmup 0)"
	assert_progress_shapes "$W/out"
	assert_table_shape "$W/out"
	assert_match "$RE_THROUGHPUT" "$(tail -n 1 "$W/out")" "last line is the Throughput line"
	assert_grep '^Throughput .*  2 clients  2 procs  ' "$W/out" "Throughput clients/procs"
	thr=$(throughput_field "$W/out")
	is_positive "$thr" || fail "Throughput of a sub-second run: expected > 0, found $thr"
}

# A timed run: warmup then execute ticks, then cleanup.  Emulates mmtests
# (execute lines' 3rd field, table columns) and Phoronix (Throughput's 2nd
# field).
shape_timed() {
	local thr
	mkdir t
	run_db -t 4 --warmup 2 -c "$LF" -D "$W/t" 2
	assert_clean_run
	assert_grep "^Running for 4 seconds with load '[^']*basic\\.txt' and minimum warmup 2 secs\$" "$W/out" "Running for line"
	assert_progress_shapes "$W/out"
	assert_grep ' warmup +[0-9]+ sec ' progress "progress: a warmup line"
	assert_grep "$RE_CLEANUP" progress "progress: a cleanup line"
	# warmup lines, then execute lines, then cleanup lines
	awk '/ warmup /{ k = 1 } / execute /{ k = 2 } / cleanup /{ k = 3 }
		{ if (k < last) { print "line " NR ": " $0; exit 1 }; last = k }' \
		progress >phase.err || fail "progress phases out of order at $(cat phase.err)"
	# execute seconds increase
	awk '/ execute /{ s = $6 + 0; if (n++ && s <= prev) { print prev " then " s; exit 1 }; prev = s }' \
		progress >sec.err || fail "execute seconds do not increase: $(cat sec.err)"
	# no tick before the first second: the first warmup tick is >= 1 sec
	assert_match '^[1-9]' "$(awk '/ warmup /{ print $6; exit }' progress)" "first warmup tick's second"
	# clients field on execute lines
	[ -z "$(awk '/ execute / && $1 != 2' progress)" ] ||
		fail "execute lines: expected 2 clients in field 1, found: $(awk '/ execute / && $1 != 2' progress | head -n 1)"
	# mmtests: MB/sec of every execute line is field 3
	awk '/ execute / { if ($3 !~ /^[0-9]+\.[0-9][0-9]$/ || $4 != "MB/sec") { print; exit 1 } }' \
		progress >mm.err || fail "mmtests parse of execute line: '$(cat mm.err)'"
	# mmtests: table columns name, count, avg, max
	table_rows "$W/out" >rows
	awk '{ if (NF != 4 || $2 !~ /^[0-9]+$/ || $3 !~ /^[0-9.]+$/ || $4 !~ /^[0-9.]+$/) { print; exit 1 } }' \
		rows >cols.err || fail "mmtests parse of table row: '$(cat cols.err)'"
	assert_table_shape "$W/out"
	# Phoronix: 2nd field of the Throughput line
	thr=$(throughput_field "$W/out")
	assert_match '^[0-9.]+(e\+[0-9]+)?$' "$thr" "Phoronix: Throughput field 2"
	is_positive "$thr" || fail "Throughput: expected > 0, found $thr"
	assert_match "$RE_THROUGHPUT" "$(tail -n 1 "$W/out")" "last line is the Throughput line"
}

sync_open() {
	mkdir t
	run_db --run-once -t 60 -s -c "$LF" -D "$W/t" 1
	assert_clean_run
	assert_grep '^Throughput [0-9.e+]+ MB/sec \(sync open\)  1 clients  1 procs  max_latency=' "$W/out" "Throughput with -s"
}

sync_dirs() {
	mkdir t
	run_db --run-once -t 60 -S -c "$LF" -D "$W/t" 1
	assert_clean_run
	assert_grep '^Throughput [0-9.e+]+ MB/sec \(sync dirs\)  1 clients  1 procs  max_latency=' "$W/out" "Throughput with -S"
}

sync_both() {
	mkdir t
	run_db --run-once -t 60 -s -S -F -c "$LF" -D "$W/t" 1
	assert_clean_run
	assert_grep '^Throughput [0-9.e+]+ MB/sec \(sync open\) \(sync dirs\)  1 clients  1 procs  max_latency=' "$W/out" "Throughput with -s -S"
}

no_sync_marks() {
	mkdir t
	run_db --run-once -t 60 -c "$LF" -D "$W/t" 1
	assert_no_grep 'sync (open|dirs)' "$W/out" "Throughput without -s/-S"
}

# --machine-readable, short run: @R@ ticks, :op: rows, ;...; last line.
machine_readable_once() {
	local last
	mkdir t
	run_db --run-once -t 60 --machine-readable -c "$LF" -D "$W/t" 2
	assert_rc 0
	assert_no_mismatch
	assert_grep '^@R@' "$W/out" "an @R@ (execute) tick"
	grep '^@[WR]@' "$W/out" >ticks
	assert_all_match '^@[WR]@[0-9]+@[0-9]+@[0-9]+(\.[0-9]+)?@[0-9]+@[0-9]+(\.[0-9]+)?@$' ticks "@W@/@R@ lines"
	if grep -q '^@C@' "$W/out"; then
		grep '^@C@' "$W/out" >cticks
		assert_all_match '^@C@[0-9]+@[0-9]+@$' cticks "@C@ lines"
	fi
	assert_no_grep "$RE_PROGRESS" "$W/out" "human progress lines in machine-readable mode"
	assert_grep "$RE_HEADER" "$W/out" "the table header stays human"
	assert_no_grep "$RE_ROW" "$W/out" "human table rows in machine-readable mode"
	grep '^:' "$W/out" >mrows
	assert_all_match '^:[A-Za-z]+:[0-9]+:[0-9]+(\.[0-9]+)?:[0-9]+(\.[0-9]+)?:$' mrows ":op: rows"
	mr_counts "$W/out" | sort >found.counts
	loadfile_counts "$LF" 2 >expected.counts
	assert_same_lines expected.counts found.counts ":op: row counts"
	last=$(tail -n 1 "$W/out")
	assert_match '^;[0-9.e+]+;2;2;[0-9]+(\.[0-9]+)?;$' "$last" "last line ;throughput;clients;procs;max_latency;"
	is_positive "$(echo "$last" | cut -d';' -f2)" ||
		fail "machine-readable throughput: expected > 0 (5.0 printed 0), found $last"
	assert_no_grep '^Throughput ' "$W/out" "human Throughput line in machine-readable mode"
}

machine_readable_timed() {
	mkdir t
	run_db -t 3 --warmup 1 --machine-readable -c "$LF" -D "$W/t" 2
	assert_rc 0
	assert_grep '^@R@' "$W/out" "an @R@ (execute) tick"
	grep '^@[WRC]@' "$W/out" >ticks
	assert_all_match '^(@[WR]@[0-9]+@[0-9]+@[0-9]+(\.[0-9]+)?@[0-9]+@[0-9]+(\.[0-9]+)?@|@C@[0-9]+@[0-9]+@)$' ticks "@W@/@R@/@C@ lines"
	assert_grep '^@C@' "$W/out" "an @C@ (cleanup) tick"
	assert_match '^;[0-9.e+]+;2;2;[0-9]+(\.[0-9]+)?;$' "$(tail -n 1 "$W/out")" "last line"
}

# --per-client-results: after the main table, one block per client.
per_client() {
	local i bytes
	mkdir t
	run_db --run-once -t 60 --per-client-results -c "$LF" -D "$W/t" 3
	assert_rc 0
	assert_no_mismatch
	loadfile_counts "$LF" 3 >expected.counts
	assert_counts expected.counts "main table counts"
	assert_grep '^Per client results:$' "$W/out" "'Per client results:' line"
	# it comes after the main table
	[ "$(grep -n '^Per client results:$' "$W/out" | cut -d: -f1)" -gt \
	  "$(grep -n "$RE_HEADER" "$W/out" | head -n 1 | cut -d: -f1)" ] ||
		fail "'Per client results:' must follow the main table"
	grep '^Client ' "$W/out" >clines
	assert_all_match '^Client [0-9]+ did [0-9]+ lines and [0-9]+ bytes$' clines "Client lines"
	assert_eq "0 1 2" "$(awk '{ print $2 }' clines | tr '\n' ' ' | sed 's/ $//')" "clients listed"
	bytes=$(loadfile_bytes "$LF")
	[ -z "$(awk -v b="$bytes" '$7 != b' clines)" ] ||
		fail "Client lines: expected $bytes bytes each (sum of ReadX/WriteX sizes), found: $(awk -v b="$bytes" '$7 != b' clines | head -n 1)"
	[ -z "$(awk '$4 + 0 <= 0' clines)" ] || fail "Client lines: expected a positive line count"
	# each client's own table has the counts of one pass
	loadfile_counts "$LF" 1 >one.counts
	for i in 0 1 2; do
		awk -v c="Client $i did" -v dashes="$DASHES" '
			index($0, c) == 1 { inblock = 1; next }
			inblock && $0 == dashes { intable = 1; next }
			intable && ($0 == "" || /^Client / || /^Throughput /) { exit }
			intable { print $1, $2 }' "$W/out" | sort >"client$i.counts"
		assert_same_lines one.counts "client$i.counts" "client $i's own table"
	done
}

# --show-execute-time with --run-once: exactly one line per client.
execute_time_once() {
	mkdir t
	run_db --run-once -t 60 --show-execute-time --output-dialect=4.00 -c "$LF" -D "$W/t" 3
	assert_clean_run
	grep 'completed in' "$W/out" >etimes
	assert_all_match "$RE_EXEC_TIME" etimes "execute-time lines"
	assert_eq "0 1 2" "$(awk '{ print $1 }' etimes | sort -n | tr '\n' ' ' | sed 's/ $//')" "clients with an execute-time line (one each)"
	# mmtests reads fields 4 and 8: pass duration and time since start
	awk '{ if ($4 !~ /^[0-9]+$/ || $8 !~ /^[0-9]+$/ || $8 + 0 < $4 + 0) { print; exit 1 } }' \
		etimes >f.err || fail "fields 4/8 of '$(cat f.err)': expected numbers with time >= duration"
}

execute_time_machine() {
	mkdir t
	run_db --run-once -t 60 --show-execute-time --output-dialect=4.00 --machine-readable -c "$LF" -D "$W/t" 2
	assert_rc 0
	grep '^@E@' "$W/out" >etimes
	assert_all_match '^@E@[0-9]+@[0-9]+@$' etimes "@E@ lines"
	assert_eq "0 1" "$(cut -d@ -f3 etimes | sort -n | tr '\n' ' ' | sed 's/ $//')" "clients with an @E@ line"
	assert_no_grep 'completed in' "$W/out" "human execute-time lines in machine-readable mode"
}

# A timed loadfile looping for 3 seconds: execute ticks in increasing
# order; every completed pass has an execute-time line, and each client's
# "at time" grows.
execute_time_timed() {
	mkdir t
	run_db -t 3 --show-execute-time --output-dialect=4.00 -c "$TIMED" -D "$W/t" 2
	assert_clean_run
	assert_progress_shapes "$W/out"
	awk '/ execute /{ s = $6 + 0; if (n++ && s <= prev) { print prev " then " s; exit 1 }; prev = s }' \
		progress >sec.err || fail "execute seconds do not increase: $(cat sec.err)"
	grep 'completed in' "$W/out" >etimes
	assert_all_match "$RE_EXEC_TIME" etimes "execute-time lines"
	assert_eq "0 1" "$(awk '{ print $1 }' etimes | sort -nu | tr '\n' ' ' | sed 's/ $//')" "clients with execute-time lines"
	awk '{ if (($1 in t) && $8 + 0 <= t[$1]) { print; exit 1 }; t[$1] = $8 + 0 }' \
		etimes >f.err || fail "execute-time 'at time' does not grow for a client: $(cat f.err)"
}

# ---- the 5.0 dialect (--output-dialect=5.0, or implied) ----
# 5.0's table (upstream dbench.c, show_one_latency()): header
# " Operation                Count    AvgLat    MaxLat", 50 dashes, rows
# " %-22s %7u %9.03f %9.03f" named by the loadfile commands.
RE_HEADER_50='^ Operation                Count    AvgLat    MaxLat$'
DASHES_50=" $(printf -- '-%.0s' $(seq 50))"
NAMES_50="NTCreateX Close Rename Unlink Deltree Rmdir Mkdir QUERY_PATH_INFORMATION QUERY_FILE_INFORMATION QUERY_FS_INFORMATION SET_FILE_INFORMATION FIND_FIRST WriteX ReadX LockX UnlockX Flush DropCache"

# to_50 < "Name Count" lines: the 4.00 short names as 5.0 spells them
to_50() {
	sed -e 's/^Qpathinfo /QUERY_PATH_INFORMATION /' \
	    -e 's/^Qfileinfo /QUERY_FILE_INFORMATION /' \
	    -e 's/^Qfsinfo /QUERY_FS_INFORMATION /' \
	    -e 's/^Sfileinfo /SET_FILE_INFORMATION /' -e 's/^Find /FIND_FIRST /' | sort
}

# rows_50 FILE: the rows of the first 5.0 table
rows_50() {
	awk -v dashes="$DASHES_50" '
		$0 == dashes { intable = 1; next }
		intable && $0 == "" { exit }
		intable { print }' "$1"
}

# The table: 5.0 header, dashes, 22-wide names in table order, counts of
# the loadfile under 5.0 names, no 4.00 short name anywhere.
dialect_50_table() {
	mkdir t
	run_db --run-once --output-dialect=5.0 -c "$DATA/misc.txt" -D "$W/t" 2
	assert_rc 0
	assert_no_mismatch
	assert_grep "$RE_HEADER_50" "$W/out" "5.0 table header"
	assert_no_grep "$RE_HEADER" "$W/out" "4.00 table header"
	assert_eq "$DASHES_50" "$(grep -A1 -E "$RE_HEADER_50" "$W/out" | tail -n 1)" "line after the header (one space, 50 dashes)"
	rows_50 "$W/out" >rows
	assert_all_match '^ [A-Za-z_]{1,22} +[0-9]+ +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3}$' rows "5.0 rows"
	assert_all_match '^ [A-Za-z_ ]{22} [ 0-9]{7} [ 0-9.]{9} [ 0-9.]{9}$' rows "5.0 row columns (%-22s %7u %9.03f %9.03f)"
	awk -v order="$NAMES_50" '
		BEGIN { n = split(order, o, " "); for (i = 1; i <= n; i++) idx[o[i]] = i }
		!($1 in idx) { print "unknown op name " $1; exit 1 }
		idx[$1] <= last { print $1 " is out of order"; exit 1 }
		{ last = idx[$1] }' rows >order.err || fail "5.0 rows: $(cat order.err)"
	awk '{ print $1, $2 }' rows | sort >found.counts
	loadfile_counts "$DATA/misc.txt" 2 | to_50 >expected.counts
	assert_same_lines expected.counts found.counts "5.0 row counts"
	grep -q QUERY_PATH_INFORMATION found.counts || fail "misc.txt has no QUERY_PATH_INFORMATION: the check proves nothing"
	assert_no_grep '^ (Qpathinfo|Qfileinfo|Qfsinfo|Sfileinfo|Find) ' "$W/out" "4.00 names in the 5.0 table"
	assert_grep "$RE_THROUGHPUT" "$W/out" "Throughput line (the same in both)"
}

# --machine-readable: :op: rows under 5.0 names; @E@client@ms with no
# trailing @ (mmtests' fork, child.c); @C@ with the five fields of @R@
# (5.0's sig_alarm()).
dialect_50_machine() {
	mkdir t
	run_db --run-once --output-dialect=5.0 --machine-readable --show-execute-time -c "$DATA/misc.txt" -D "$W/t" 2
	assert_rc 0
	awk -F: '/^:[A-Za-z_]+:[0-9]+:/ { print $2, $3 }' "$W/out" | sort >found.counts
	loadfile_counts "$DATA/misc.txt" 2 | to_50 >expected.counts
	assert_same_lines expected.counts found.counts ":op: rows under 5.0 names"
	grep '^@E@' "$W/out" >etimes
	assert_all_match '^@E@[0-9]+@[0-9]+$' etimes "@E@ lines (no trailing @)"
	assert_eq 2 "$(wc -l <etimes)" "@E@ lines, one per client"
	rm -rf t && mkdir t
	run_db -t 3 --warmup 1 --output-dialect=5.0 --machine-readable -c "$LF" -D "$W/t" 2
	assert_rc 0
	grep '^@C@' "$W/out" >cticks
	[ -s cticks ] || fail "no @C@ (cleanup) tick"
	assert_all_match '^@C@[0-9]+@[0-9]+@[0-9]+\.[0-9]{2}@[0-9]+@[0-9]+\.[0-9]{3}@$' cticks "@C@active@lines@MB/s@sec@latency_ms@"
}

# --show-execute-time (only mmtests' 5.0 fork has it) implies 5.0 unless
# the dialect is given.
dialect_implied() {
	mkdir t
	run_db --run-once --show-execute-time -c "$DATA/misc.txt" -D "$W/t" 1
	assert_rc 0
	assert_grep "$RE_HEADER_50" "$W/out" "--show-execute-time alone: 5.0 header"
	assert_grep '^ QUERY_PATH_INFORMATION +1 ' "$W/out" "--show-execute-time alone: 5.0 names"
	run_db --run-once --show-execute-time --output-dialect=4.00 -c "$DATA/misc.txt" -D "$W/t" 1
	assert_rc 0
	assert_grep "$RE_HEADER" "$W/out" "--output-dialect=4.00 wins"
	assert_grep '^ Qpathinfo +1 ' "$W/out" "--output-dialect=4.00: 4.00 names"
	run_db --run-once -c "$DATA/misc.txt" -D "$W/t" 1
	assert_grep "$RE_HEADER" "$W/out" "default: 4.00"
	run_db --run-once --output-dialect=6 -c "$DATA/misc.txt" -D "$W/t" 1
	assert_usage_error "--output-dialect=6"
	assert_grep "output-dialect: '6' is not 4.00 or 5.0" "$W/err" "the message names the choices"
}

# The progress lines' second column counts on from the warmup into the
# execute phase, in both dialects (4.00's and 5.0's sig_alarm() sum
# child->line, which the warmup's end does not reset).
lines_count_on() {
	local d
	mkdir t
	for d in 4.00 5.0; do
		run_db -t 2 --warmup 2 --output-dialect=$d -c "$TIMED" -D "$W/t" 1
		assert_rc 0
		grep -E "$RE_PROGRESS" "$W/out" >progress
		grep -q ' warmup ' progress && grep -q ' execute ' progress ||
			fail "$d: expected warmup and execute lines: $(tr '\n' '|' <progress)"
		awk '{ if (n++ && $2 + 0 < prev) { print prev " then " $2; exit 1 }; prev = $2 + 0 }' \
			progress >col.err || fail "$d: the lines column went back: $(cat col.err)"
		awk '/ warmup / { w = $2 } / execute / { print ($2 + 0 >= w + 0) ? "ok" : "restarted " w " " $2; exit }' \
			progress >first
		assert_eq ok "$(cat first)" "$d: first execute line vs last warmup line"
	done
}

# ---- output that cannot be written ----

# stdout into a pipe whose reader goes away (| head -n 1): the run stops
# at the next write as SIGPIPE would stop it (status 141, a message),
# and the clients clean up.
lost_pipe() {
	mkdir t
	LAST_CMD="dbench -t 600 --warmup 0 ... 2 | head -n 1"
	(set -o pipefail; timeout -k 5 "$IT_TIMEOUT" "$DBENCH" -t 600 --warmup 0 \
		-c "$TIMED" -D "$W/t" 2 2>"$W/err" | head -n 1 >"$W/out")
	RC=$?
	assert_rc 141
	assert_grep '^dbench .*load generator$' "$W/out" "head's one line"
	assert_grep '^dbench: writing the progress lines: Broken pipe; stopping the run$' "$W/err" "the stop said on stderr"
	assert_empty_dir "$W/t" "target after the run (cleanup ran)"
}

# stdout to /dev/full, or closed: refused before anything starts (status
# 1, a message on stderr), nothing created.
lost_full_closed() {
	mkdir t
	LAST_CMD="dbench -t 600 ... 2 >/dev/full"
	timeout -k 5 "$IT_TIMEOUT" "$DBENCH" -t 600 -c "$TIMED" -D "$W/t" 2 \
		>/dev/full 2>"$W/err"
	RC=$?
	assert_rc 1
	assert_grep '^dbench: writing the output: No space left on device$' "$W/err" "/dev/full said"
	assert_empty_dir "$W/t" "target"
	LAST_CMD="dbench -t 600 ... 2 >&-"
	timeout -k 5 "$IT_TIMEOUT" "$DBENCH" -t 600 -c "$TIMED" -D "$W/t" 2 \
		>&- 2>"$W/err"
	RC=$?
	assert_rc 1
	assert_grep '^dbench: standard output is closed' "$W/err" "closed stdout said"
	assert_empty_dir "$W/t" "target"
}

check "run shorter than 1 s: header, progress, table, Throughput > 0" shape_run_once
check "-t 4 --warmup 2: warmup/execute/cleanup lines, mmtests and Phoronix parse" shape_timed
check "-s: (sync open) in the Throughput line" sync_open
check "-S: (sync dirs) in the Throughput line" sync_dirs
check "-s -S -F: (sync open) (sync dirs)" sync_both
check "no -s/-S: no sync marks" no_sync_marks
check "--machine-readable --run-once: @R@, :op:, ;...; shapes and counts" machine_readable_once
check "--machine-readable -t 3: @W@/@R@/@C@ shapes" machine_readable_timed
check "--per-client-results: per-client lines and tables" per_client
check "--show-execute-time --run-once: one line per client" execute_time_once
check "--show-execute-time --machine-readable: @E@ lines" execute_time_machine
check "-t 3 timed loadfile --show-execute-time: execute ticks, lines per pass" execute_time_timed
check "--output-dialect=5.0: 50-dash header, 22-wide 5.0 names, counts" dialect_50_table
check "--output-dialect=5.0 --machine-readable: :op: names, @E@ without @, five-field @C@" dialect_50_machine
check "--show-execute-time implies 5.0; --output-dialect=4.00 wins; bad value" dialect_implied
check "progress lines count on from the warmup into execute (both dialects)" lines_count_on
check "stdout into a closed pipe (| head -n 1): stops at once, 141, message, cleanup" lost_pipe
check "stdout to /dev/full or closed: status 1, message, nothing started" lost_full_closed
finish
