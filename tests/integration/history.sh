#!/bin/bash
# history.sh - dbench-history on real runs: documents written by --json
# imported and shown verbatim; labels with quotes, newlines, markup,
# unicode and 10 KB printed safely; rm refusing without a terminal; a
# runs held at 40 MB/s and runs held at 20 MB/s compared (4 runs each,
# the fewest with which the Mann-Whitney test can reach p < 0.05: the
# faster named); a trend of 8 runs whose last 4 sleep longer (the change
# point at run 5); two saved curves compared (the
# one holding more clients within the bound named, with the counts);
# the HTML report read by a real
# browser (headless chromium: the servers table and the SVG charts in
# the DOM, no script error), skipped where chromium is missing.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"
not_under_sanitizers "dbench-history is Python and the report is checked in a browser (checked by make check; the saving is checked by history_save.sh)"

need_history
export DBENCH_HISTORY=$TOP/history.sqlite

# one_error_line WHAT: exactly one line on stderr, from dbench-history.
one_error_line() {
	[ "$(wc -l <"$W/err")" -eq 1 ] ||
		fail "$1: expected one line on stderr, found $(wc -l <"$W/err")"
	assert_grep '^dbench-history: ' "$W/err" "$1"
}

# Documents made once for the checks below.
DOCS=$TOP/docs
mkdir -p "$DOCS"
LF_FAST=$TOP/sleep-short.txt
LF_SLOW=$TOP/sleep-long.txt
for pair in "$LF_FAST 2000" "$LF_SLOW 6000"; do
	set -- $pair
	cat >"$1" <<LF
NTCreateX "\\clients\\client1\\f.dat" 0x0 0x2 1 NT_STATUS_OK
WriteX 1 0 65536 65536 NT_STATUS_OK
Close 1 NT_STATUS_OK
SLEEP $2
LF
done

check_import_show() {
	run_db -B null -t 1 --json="$DOCS/null.json" 1
	assert_rc 0
	run_db --disk-test -D "$W" --size 1M --repeat 2 --json="$DOCS/disk.json"
	assert_rc 0
	run_h --history "$W/h.sqlite" import --label one "$DOCS/null.json" \
		"$DOCS/disk.json"
	assert_rc 0
	run_h --history "$W/h.sqlite" list
	assert_rc 0
	assert_eq 3 "$(wc -l <"$W/out")" "list lines (header and 2 runs)"
	assert_grep ' one +[^ ]+ +load ' "$W/out" "the load run"
	assert_grep ' one +[^ ]+ +disk test ' "$W/out" "the disk test"
	run_h --history "$W/h.sqlite" show --json 1
	cmp -s "$W/out" "$DOCS/null.json" ||
		fail "show --json is not the document as written"
	run_h --history "$W/h.sqlite" show 2
	assert_rc 0
	assert_grep '^kind: +disk test$' "$W/out" "show's kind"
	assert_grep 'write\+fdatasync' "$W/out" "show's measurements"
	run_h --history "$W/h.sqlite" import --label one "$DOCS/null.json"
	assert_grep 'already in the history as run 1' "$W/out" "a second import"
	run_h --history "$W/h.sqlite" servers
	assert_grep '^one ' "$W/out" "servers row"
	run_h --history "$W/h.sqlite" export --csv
	assert_eq 3 "$(wc -l <"$W/out")" "CSV lines"
	run_h --history "$W/h.sqlite" export --json
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["runs"]) == 2 and d["runs"][0]["result"]["tool"]["name"] == "dbench"' "$W/out" ||
		fail "export --json is not the two runs"
}
check "import of --json documents, list, show --json verbatim, servers, export" check_import_show

check_bad_input() {
	printf '{"x": 1}\n' >"$W/not.json"
	run_h --history "$W/h.sqlite" import --label x "$W/not.json"
	assert_rc 2
	one_error_line "a JSON file that is no dbench document"
	run_h --history "$W/h.sqlite" import "$DOCS/null.json"
	assert_rc 2
	one_error_line "no label"
	run_h --history "$W/h.sqlite" show 99
	assert_rc 2
	one_error_line "an unknown run"
	head -c 4096 /dev/urandom >"$W/bad.sqlite"
	run_h --history "$W/bad.sqlite" list
	assert_rc 3
	one_error_line "a file that is no database"
	assert_grep "bad.sqlite" "$W/err" "the file named"
}
check "bad input: one line, exit 2; no database: one line, exit 3" check_bad_input

check_labels() {
	local long label
	long=$(head -c 10240 /dev/zero | tr '\0' 'x')
	label=$(printf 'q"uo'"'"'te\nnew<b>line</b> Grüße 東京 \033[31m%s' "$long")
	run_h --history "$W/h.sqlite" import --label "$label" "$DOCS/null.json"
	assert_rc 0
	run_h --history "$W/h.sqlite" list
	assert_eq 2 "$(wc -l <"$W/out")" "list lines with a newline in a label"
	assert_grep 'q"uo.te\\nnew<b>line</b> Grüße 東京 \\x\.\.\.' "$W/out" \
		"the label escaped and cut to 40 columns"
	assert_no_grep $'\033' "$W/out" "no raw escape character"
	run_h --history "$W/h.sqlite" show 1
	assert_grep '^label: +q"uo.te\\nnew<b>line</b> Grüße 東京 \\x1b\[31mx{10240}$' \
		"$W/out" "show: the whole label, escaped"
	assert_no_grep $'\033' "$W/out" "show: no raw escape character"
	run_h --history "$W/h.sqlite" trend "$label"
	assert_rc 0
	[ "$(grep -c 'x' "$W/out")" -ge 1 ] || fail "trend printed no label"
	assert_no_grep $'\033' "$W/out" "trend: no raw escape character"
	run_h --history "$W/h.sqlite" report -o "$W/rep"
	assert_rc 0
	assert_grep 'new&lt;b&gt;line&lt;/b&gt;' "$W/rep/index.html" \
		"the label HTML-escaped"
	assert_no_grep '<b>line' "$W/rep/index.html" "no raw markup from a label"
	run_h --history "$W/h.sqlite" rm --label "$label"
	assert_rc 2
	one_error_line "rm without a terminal or --yes"
	run_h --history "$W/h.sqlite" list
	assert_eq 2 "$(wc -l <"$W/out")" "the run is still there"
	if command -v script >/dev/null 2>&1; then
		# on a terminal (script(1) makes one): "n" keeps the run
		printf 'n\n' | script -qec "'$HISTORY' --history '$W/h.sqlite' rm 1" \
			/dev/null >"$W/tty" 2>&1
		assert_grep 'Remove run 1 from .*\? \[y/N\]' "$W/tty" "the question"
		assert_grep 'nothing removed' "$W/tty" "the answer no"
		run_h --history "$W/h.sqlite" list
		assert_eq 2 "$(wc -l <"$W/out")" "the run kept after no"
	fi
	run_h --history "$W/h.sqlite" rm --yes --label "$label"
	assert_rc 0
	run_h --history "$W/h.sqlite" list
	assert_eq 0 "$(wc -l <"$W/out")" "list after rm"
}
check "labels with quotes, newlines, markup, unicode and 10 KB; rm asks" check_labels

# check_compare: two "servers" whose difference the test plants: 4 runs
# of the null backend held at 20 MB/s (-R 20) and 4 held at 40 MB/s (4
# a side: the fewest with which the Mann-Whitney test can reach p <
# 0.05).  Paced runs vary by a fraction of a percent, so "fast" is named
# faster whatever the machine's own speed; two real filesystems are no
# known difference on a shared virtual machine.  The target rates differ,
# so the comparison warns that the workloads differ, naming the setting.
check_compare() {
	local i
	for i in 1 2 3 4; do
		run_db -B null -t 1 -R 20 --json="$W/slow$i.json" 1
		assert_rc 0
		run_db -B null -t 1 -R 40 --json="$W/fast$i.json" 1
		assert_rc 0
	done
	run_h --history "$W/h.sqlite" import --label slow "$W"/slow?.json
	assert_rc 0
	run_h --history "$W/h.sqlite" import --label fast "$W"/fast?.json
	assert_rc 0
	run_h --history "$W/h.sqlite" compare slow fast
	assert_rc 0
	show_file "$W/out" "compare slow fast" 20
	# a run starved for most of its second misses its rate: the spread
	# then says so (a coefficient of variation over 40%) and the check
	# cannot judge
	if ! grep -Eq '^MB/s: fast is [0-9.]+% faster than slow \(95% CI [0-9.]+% to [0-9.]+%, p(<0\.001|=0\.0[0-4][0-9]), 4 vs 4 runs\)$' "$W/out"; then
		cv=$(awk '$1 == "MB/s" && NF == 6 { a = $3 / $2; b = $5 / $4;
			print (a > b ? a : b) * 100; exit }' "$W/out")
		if [ -n "$cv" ] && awk -v c="$cv" 'BEGIN { exit !(c > 40) }'; then
			skip "the machine is too busy: runs varied by ${cv%.*}% (CV)"
		fi
		fail "fast not named faster than slow with p < 0.05 (MB/s line: $(grep '^MB/s:' "$W/out"))"
	fi
	assert_grep 'differ in workload' "$W/out" "the workload warning"
	assert_grep '^ *target rate MB/s \(-R\): 20 \(A\), 40 \(B\)$' "$W/out" \
		"the differing setting named"
	run_h --history "$W/h.sqlite" compare slow run:1
	assert_grep 'no interval or test: run 1 has one run' "$W/out" "one run"
}
check "compare: runs held at 40 MB/s named faster than runs held at 20, p < 0.05" check_compare

check_trend() {
	local i lf
	for i in 1 2 3 4 5 6 7 8; do
		lf=$LF_FAST
		[ "$i" -le 4 ] || lf=$LF_SLOW
		run_db -B null -t 1 -c "$lf" --json="$W/t$i.json" 1
		assert_rc 0
		# one at a time, so that each has its own time
		run_h --history "$W/h.sqlite" import --label nas "$W/t$i.json"
		assert_rc 0
	done
	run_h --history "$W/h.sqlite" trend nas
	assert_rc 0
	show_file "$W/out" "trend nas" 20
	assert_grep '^change point: MB/s fell [0-9.]+% \[[0-9.]+-[0-9.]+%\] from run #5 ' "$W/out" "the change at run 5"
	[ "$(grep -c '^change point: MB/s' "$W/out")" -eq 1 ] ||
		fail "expected one MB/s change point"
	cp "$W/h.sqlite" "$TOP/trend.sqlite"
}
check "trend: 8 runs whose last 4 sleep longer: the change point at run 5" check_trend

# Two curves whose knees are known (as sweep.sh's curve_knee: client i
# runs loadfile i mod N and only the slow one runs Deltree, which a
# bound of 1 ns cannot hold): a breaks at 3 clients, b at 4.  compare
# names b, with the counts; a curve with no valid point and one with
# other bounds are said so.
check_curves() {
	local db=$W/c.sqlite f=$W/fast.txt s=$W/slow.txt
	mkdir "$W/t"
	printf '%s\n' 'Mkdir "\clients" NT_STATUS_OK' \
		'NTCreateX "\clients\client1" 0x1 0x3 1 NT_STATUS_OK' \
		'Close 1 NT_STATUS_OK' >"$f"
	cp "$f" "$s"
	printf '%s\n' 'Mkdir "\clients\client1\d" NT_STATUS_OK' \
		'Deltree "\clients\client1\d" NT_STATUS_OK' >>"$s"
	set -- -D "$W/t" --strict -t 1 --warmup 0 --history "$db"
	run_db "$@" -c "$f" --label a 1
	assert_rc 0
	run_db "$@" -c "$f,$f,$s" --curve=1,2,3 --slo 'Deltree:max<=1ns' --label a
	assert_rc 0
	run_db "$@" -c "$f,$f,$f,$s" --curve=1,2,3,4 --slo 'Deltree:max<=1ns' \
		--label b
	assert_rc 0
	run_db "$@" -c "$s" --curve=1 --slo 'Deltree:max<=1ns' --label none
	assert_rc 0
	run_db "$@" -c "$f" --curve=1 --slo 'p99<=10s' --label other
	assert_rc 0
	# a holds a run besides its curve: --curve takes its newest curve
	run_h --history "$db" compare a b
	assert_rc 2
	one_error_line "a curve and a label's runs"
	assert_grep 'only curves: compare --curve' "$W/err" "the hint"
	run_h --history "$db" compare --curve a b
	assert_rc 0
	show_file "$W/out" "compare a b" 20
	assert_grep '^B holds 3 clients within Deltree:max<=1ns, A 2: B holds 50% more \(2 -> 3 clients; [0-9.]+ -> [0-9.]+ MB/s\)$' \
		"$W/out" "the verdict"
	assert_grep '^   within the bounds: at most 2 clients, ' "$W/out" "A's answer"
	assert_grep '^   bounds: Deltree:max<=1ns$' "$W/out" "the bounds"
	assert_grep '^   overall response time: [0-9.]+ ms$' "$W/out" "the summary figure"
	assert_no_grep 'not like for like' "$W/out" "no bounds warning"
	run_h --history "$db" compare group:3 group:2
	assert_grep '^A holds 3 clients within Deltree:max<=1ns, B 2: A holds 50% more ' \
		"$W/out" "by group"
	run_h --history "$db" compare none group:2
	assert_grep '^   within the bounds: no point \(not even 1 client\)$' \
		"$W/out" "no valid point"
	assert_grep '^B holds at most 2 clients within Deltree:max<=1ns, A none$' \
		"$W/out" "the verdict with no valid point"
	run_h --history "$db" compare other b
	assert_grep '^Warning: the bounds differ .*not like for like$' "$W/out" \
		"bounds differ"
	assert_grep '^undecided: B holds at most 3 clients within its own bounds, and A held every point it ran \(to 1 client\)' \
		"$W/out" "a curve that never broke"
	run_h --history "$db" compare --curve a run:1
	assert_rc 2
	one_error_line "a run is not a curve"
	run_h --history "$db" list --label a
	assert_grep ' a +[^ ]+ +curve point +3 ' "$W/out" "a curve point listed"
	assert_grep '^curve group 2: at most 2 clients within Deltree:max<=1ns: ' \
		"$W/out" "the curve's answer listed"
	run_h --history "$db" show 4
	assert_grep '^curve point: +INVALID \(Deltree:max<=1ns\) at 3 clients$' \
		"$W/out" "show: the point"
	run_h --history "$db" report -o "$W/rep"
	assert_rc 0
	assert_grep '<svg[^>]* class="curve" id="curve-2"' "$W/rep/index.html" \
		"the curve's chart"
	[ "$(grep -o 'class="invalid"' "$W/rep/index.html" | wc -l)" -eq 6 ] ||
		fail "expected 6 invalid marks (a, b: MB/s and p99; none: both)"
}
check "curves: compare names the one holding more clients" check_curves

# A curve whose second point failed (its second client's loadfile does)
# gives no capacity: compare --curve says it ended early and decides
# nothing, whichever side it is.
check_curve_early() {
	local db=$W/e.sqlite f=$W/fast.txt
	mkdir "$W/t"
	printf '%s\n' 'Mkdir "\clients" NT_STATUS_OK' \
		'NTCreateX "\clients\client1" 0x1 0x3 1 NT_STATUS_OK' \
		'Close 1 NT_STATUS_OK' >"$f"
	set -- -D "$W/t" --strict -t 1 --warmup 0 --history "$db" \
		--slo 'p99<=10s'
	run_db "$@" -c "$f" --curve=1,2 --label good
	assert_rc 0
	run_db "$@" -c "$f,$DATA/unlink_mismatch.txt" --curve=1,2 --label early
	assert_rc 1
	run_h --history "$db" compare --curve good early
	assert_rc 0
	assert_grep "^undecided: B's curve ended early \(a point failed or was interrupted\), so it gives no capacity to compare: run it again$" \
		"$W/out" "the verdict"
	assert_grep '^   within the bounds: no capacity: the curve ended early \(1 client held before it\)$' \
		"$W/out" "the early side"
	assert_no_grep 'holds' "$W/out" "a side said to hold more"
}
check "curves: one that ended early gives no capacity to compare" check_curve_early

check_browser() {
	local browser="" b
	for b in chromium chromium-browser google-chrome; do
		command -v "$b" >/dev/null 2>&1 && { browser=$b; break; }
	done
	[ -n "$browser" ] || skip "chromium is not installed"
	[ -f "$TOP/trend.sqlite" ] || skip "the trend check made no history"
	run_h --history "$TOP/trend.sqlite" report -o "$W/rep"
	assert_rc 0
	# a profile of its own (a read-only or shared $HOME refuses one);
	# no background connections (this machine's network is closed)
	set -- --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-background-networking --disable-component-update \
		--disable-sync --user-data-dir="$W/profile"
	timeout -k 5 60 "$browser" "$@" \
		--enable-logging=stderr --v=0 --dump-dom \
		"file://$W/rep/index.html" >"$W/dom" 2>"$W/console"
	assert_grep '<table id="servers">' "$W/dom" "the servers table in the DOM"
	assert_grep '<svg[^>]* class="trend"' "$W/dom" "an SVG chart in the DOM"
	assert_grep 'class="change"' "$W/dom" "the change point drawn"
	assert_no_grep 'Uncaught' "$W/console" "script errors"
	timeout -k 5 60 "$browser" "$@" \
		--dump-dom "file://$W/rep/runs/1.html" >"$W/dom1" 2>/dev/null
	assert_grep 'NTCreateX' "$W/dom1" "a run's page"
}
check "report: the servers table and SVG charts in a real browser" check_browser

finish
