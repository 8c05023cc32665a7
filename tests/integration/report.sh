#!/bin/bash
# report.sh - dbench-history report read by a real browser: a history of
# known structure (report_history.py: two servers, one twice as fast as
# the other; a slowdown of 20% planted at a known run, where the kernel
# changed; a saved curve whose knee is at 8 clients; a run on a busy
# machine) reported with --baseline, opened in headless chromium at 1280
# and 390 pixels wide; from the rendered DOM (report_check.py): the
# first screen's figures are those servers and compare print (and the
# planted intervals), the change point with its direction, size and the
# kernel's change, the curve's capacity, axis titles with units on every
# chart, no console message.  Screenshots of both widths are kept as
# tests/integration/report-1280.png and report-390.png (not compared).
# Without a browser (report_unit.py): the charts' scales give ticks a
# reader can read, and the interval is Student's t's.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"
not_under_sanitizers "dbench-history is Python and the report is read in a browser (checked by make check)"

need_history
ARTIFACTS=$(pwd)/tests/integration
[ -d "$ARTIFACTS" ] || ARTIFACTS=$TOP

BROWSER=""
for b in chromium chromium-browser google-chrome; do
	command -v "$b" >/dev/null 2>&1 && { BROWSER=$b; break; }
done

# browse WIDTH ARGS...: headless chromium at WIDTH pixels wide, its own
# profile, no background connections (this machine's network is closed).
browse() {
	local width=$1
	shift
	timeout -k 5 60 "$BROWSER" --headless --no-sandbox --disable-gpu \
		--no-first-run --disable-background-networking \
		--disable-component-update --disable-sync --hide-scrollbars \
		--user-data-dir="$TOP/profile" --window-size="$width" "$@"
}

check_report() {
	[ -n "$BROWSER" ] || skip "chromium is not installed"
	local db=$W/h.sqlite l
	python3 "$SRCDIR/tests/python/report_history.py" docs "$W/docs" ||
		fail "the planted documents"
	for l in slow fast drift; do
		run_h --history "$db" import --label "$l" "$W/docs/$l"-*.json
		assert_rc 0
	done
	python3 "$SRCDIR/tests/python/report_history.py" groups "$db" ||
		fail "the --repeat group and the curve"
	mkdir "$W/cli"
	run_h --history "$db" servers
	cp "$W/out" "$W/cli/servers.txt"
	run_h --history "$db" trend drift
	cp "$W/out" "$W/cli/trend-drift.txt"
	for l in fast drift; do
		run_h --history "$db" compare slow "$l"
		assert_rc 0
		cp "$W/out" "$W/cli/compare-$l.txt"
	done
	run_h --history "$db" report -o "$W/rep" --baseline slow
	assert_rc 0
	browse 1280,900 --enable-logging=stderr --v=0 --dump-dom \
		"file://$W/rep/index.html" >"$W/dom" 2>"$W/console"
	[ -s "$W/dom" ] || fail "chromium rendered nothing"
	if ! python3 "$SRCDIR/tests/python/report_check.py" "$W/dom" "$W/cli" >"$W/out"; then
		show_file "$W/out" "report_check.py" 40
		fail "the report's DOM (see above)"
	fi
	assert_no_grep 'CONSOLE' "$W/console" "a console message"
	browse 390,844 --enable-logging=stderr --v=0 --dump-dom \
		"file://$W/rep/runs/18.html" >"$W/dom18" 2>"$W/console18"
	assert_grep '<table class="kv noise">' "$W/dom18" "a run's noise facts"
	assert_grep 'kernel_release</th><td>6.5.0' "$W/dom18" "a run's kernel"
	assert_grep '<td>ReadX</td>' "$W/dom18" "a run's per-op table"
	assert_no_grep 'CONSOLE' "$W/console18" "a console message (run page)"
	for w in 1280,900 390,844; do
		browse "$w" --screenshot="$ARTIFACTS/report-${w%,*}.png" \
			"file://$W/rep/index.html" >/dev/null 2>&1
		[ -s "$ARTIFACTS/report-${w%,*}.png" ] ||
			fail "no screenshot at ${w%,*} pixels"
	done
}
check "report: the first screen, the slowdown, the curve and the axes in a real browser" check_report

check_scales() {
	python3 "$SRCDIR/tests/python/report_unit.py" >"$W/out" ||
		fail "$(head -n 3 "$W/out" | tr '\n' ' ')"
}
check "report: readable ticks on linear, log and time axes; the 95% interval" check_scales

finish
