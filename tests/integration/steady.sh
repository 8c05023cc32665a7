#!/bin/bash
# steady.sh - --warmup auto: the warmup ends when the loadfile lines per
# second are steady, or at --warmup-max when they never are, and says
# which in the report (text and JSON); its bad input.  The loads are
# timed loadfiles over -B null, so their throughput is the schedule's.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"

# slow_start FILE: 10 lines/s for 2 s, then 200 lines/s for 60 s.
slow_start() {
	awk 'BEGIN {
		for (i = 0; i < 20; i++)
			printf "%.3f QUERY_FS_INFORMATION 259 NT_STATUS_OK\n", i * 0.1
		for (i = 0; i < 12000; i++)
			printf "%.3f QUERY_FS_INFORMATION 259 NT_STATUS_OK\n", 2 + i * 0.005
	}' >"$1"
}

# swinging FILE: 50 and 200 lines/s in turn, a second each, for 60 s.
swinging() {
	awk 'BEGIN {
		for (s = 0; s < 60; s++) {
			n = s % 2 ? 200 : 50
			for (i = 0; i < n; i++)
				printf "%.4f QUERY_FS_INFORMATION 259 NT_STATUS_OK\n", s + i / n
		}
	}' >"$1"
}

# Slow first seconds: the warmup waits them out, then a window.
steady_after_slow_start() {
	command -v python3 >/dev/null || skip "python3 is not installed"
	slow_start slow.txt
	run_db -B null -c slow.txt --warmup auto --warmup-max 30 -t 1 \
		--json r.json 1
	assert_clean_run
	assert_grep '^Running for 1 seconds .* warmup until steady, at most 30 secs$' \
		"$W/out" "header"
	assert_grep '^Warmup: steady after [0-9]+ s \(lines/s within 10% of their mean over 5 s\)$' \
		"$W/out" "warmup line"
	assert_eq "auto True 5 10 30" "$(json_field r.json \
		'" ".join(str(d["warmup"][k]) for k in ("mode", "steady", "window_s", "bound_pct", "max_s"))')" \
		".warmup"
	# 2 slow seconds, then a full 5-second window of the fast ones
	s=$(json_field r.json 'int(d["warmup"]["seconds"])')
	[ "$s" -ge 6 ] && [ "$s" -lt 30 ] ||
		fail "warmup took $s s: expected from 6 to 29"
}

# Never steady: measured after --warmup-max, and said so.
not_steady_at_max() {
	command -v python3 >/dev/null || skip "python3 is not installed"
	swinging swing.txt
	run_db -B null -c swing.txt --warmup auto --warmup-max 3 -t 1 \
		--json r.json 1
	assert_clean_run
	assert_grep '^Warmup: NOT steady after 3 s \(--warmup-max 3 s\): measured anyway$' \
		"$W/out" "warmup line"
	assert_eq "False 3" "$(json_field r.json \
		'"%s %d" % (d["warmup"]["steady"], round(d["warmup"]["seconds"]))')" \
		".warmup"
}

# A wider bound and a shorter window of one's own: the swinging load
# (50 and 200 lines/s: a range of 150 around 100 or 150) is steady.
own_window_and_bound() {
	command -v python3 >/dev/null || skip "python3 is not installed"
	swinging swing.txt
	run_db -B null -c swing.txt --warmup auto --warmup-window 3 \
		--warmup-bound 200 --warmup-max 20 -t 1 --json r.json 1
	assert_clean_run
	assert_grep '^Warmup: steady after [0-9]+ s \(lines/s within 200% of their mean over 3 s\)$' \
		"$W/out" "warmup line"
	assert_eq "True 3 200 20" "$(json_field r.json \
		'" ".join(str(d["warmup"][k]) for k in ("steady", "window_s", "bound_pct", "max_s"))')" \
		".warmup"
}

# Without --warmup auto: no new line; the JSON says the fixed warmup.
fixed_warmup() {
	command -v python3 >/dev/null || skip "python3 is not installed"
	run_db -B null -c "$DATA/timed.txt" --warmup 1 -t 1 --json r.json 1
	assert_clean_run
	assert_no_grep '^Warmup' "$W/out" "no warmup line"
	assert_grep 'and minimum warmup 1 secs$' "$W/out" "header"
	assert_eq "fixed 1" "$(json_field r.json \
		'"%s %d" % (d["warmup"]["mode"], round(d["warmup"]["seconds"]))')" \
		".warmup"
}

bad_warmup() {
	run_db -B null --warmup often 1
	assert_rc 2
	assert_grep "^dbench: --warmup: 'often' is not a whole number of seconds from 0 to [0-9]+, or auto$" \
		"$W/err" "message"
	run_db -B null --warmup 3 --warmup-max 5 1
	assert_rc 2
	assert_grep '^dbench: --warmup-max: only with --warmup auto$' "$W/err" \
		"message"
	run_db -B null --warmup auto --warmup-max 0 1
	assert_rc 2
	assert_grep '^dbench: --warmup-max: ' "$W/err" "message"
	run_db -B null --warmup-window 3 1
	assert_rc 2
	assert_grep '^dbench: --warmup-window: only with --warmup auto$' \
		"$W/err" "message"
	run_db -B null --warmup auto --warmup-window 61 1
	assert_rc 2
	assert_grep "^dbench: --warmup-window: '61' is not a whole number from 1 to 60$" \
		"$W/err" "message"
	run_db -B null --warmup auto --warmup-bound 0 1
	assert_rc 2
	assert_grep "^dbench: --warmup-bound: '0' is not a percentage above 0 and at most 1000$" \
		"$W/err" "message"
}

check "--warmup auto ends after slow first seconds" steady_after_slow_start
check "--warmup auto never steady: measured after --warmup-max" not_steady_at_max
check "--warmup-window and --warmup-bound of one's own" own_window_and_bound
check "a fixed --warmup: no new text, JSON mode fixed" fixed_warmup
check "bad --warmup, --warmup-max, --warmup-window, --warmup-bound" bad_warmup
finish
