#!/bin/bash
# compare_reference.sh - run Debian's dbench 4.00 (when installed) and ours
# on the same loadfile, the same client count, 3 seconds each, and compare:
# the same set of operations in both tables, and per-op counts normalised
# by the NTCreateX count within 5% of each other and of the loadfile.
# 4.00 has no --run-once, so only ratios can be compared.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"

REF=${DBENCH_REFERENCE:-/usr/bin/dbench}
LF=$DATA/compare.txt
N=2

if [ ! -x "$REF" ] || ! "$REF" --help 2>&1 | head -n 1 | grep -q 'version 4\.00'; then
	skip_all "dbench 4.00 not installed ($REF; Debian's dbench package)"
fi

# per_pass OUT COUNTS: from OUT's table, "Name count-per-pass" where a pass
# is NTCreateX count / (NTCreateX per pass in the loadfile) / N.
per_pass() {
	local ntc_file
	ntc_file=$(loadfile_counts "$LF" 1 | awk '$1 == "NTCreateX" { print $2 }')
	table_counts "$1" | awk -v k="$ntc_file" '
		{ c[$1] = $2 }
		END {
			passes = c["NTCreateX"] / k
			if (passes < 20) { print "TOO_FEW_PASSES", passes; exit }
			for (o in c) printf "%s %.4f\n", o, c[o] / passes
		}' | sort
}

# Both tables list the same operations, in the same output shape.
same_ops() {
	mkdir ref ours
	run_db -t 3 -c "$LF" -D "$W/ours" "$N"
	assert_clean_run "ours"
	keep ours
	LAST_CMD="$REF -t 3 -c $LF -D $W/ref $N"
	timeout -k 5 60 "$REF" -t 3 -c "$LF" -D "$W/ref" "$N" >"$W/out" 2>"$W/err" </dev/null
	RC=$?
	assert_rc 0
	keep ref
	assert_grep "$RE_HEADER" ref.out "4.00 table header"
	table_rows ref.out >ref.rows
	table_rows ours.out >ours.rows
	assert_all_match "$RE_ROW" ours.rows "our rows"
	awk '{ print $1 }' ref.rows >ref.ops
	awk '{ print $1 }' ours.rows >ours.ops
	assert_same_lines ref.ops ours.ops "operations (in table order) vs 4.00"
	assert_match "$RE_THROUGHPUT" "$(grep '^Throughput' ref.out)" "4.00's Throughput line fits our regex"
	assert_match "$RE_THROUGHPUT" "$(grep '^Throughput' ours.out)" "our Throughput line"
	grep -E "$RE_PROGRESS" ref.out >ref.progress
	grep -E "$RE_PROGRESS" ours.out >ours.progress
	[ -s ours.progress ] || fail "our run printed no progress line"
	[ -s ref.progress ] || fail "4.00 printed no progress line matching our regex"

	# per-pass counts
	per_pass ref.out >ref.pp
	per_pass ours.out >ours.pp
	grep -q TOO_FEW_PASSES ref.pp && fail "4.00 ran too few passes to compare: $(cat ref.pp)"
	grep -q TOO_FEW_PASSES ours.pp && fail "we ran too few passes to compare: $(cat ours.pp)"
	loadfile_counts "$LF" 1 >file.pp
	note "per pass: op loadfile 4.00 ours"
	join file.pp ref.pp | join - ours.pp | sed 's/^/#     /'
	join file.pp ref.pp | join - ours.pp | awk '
		{
			c = $2; r = $3; o = $4; tol = 0.05 * c
			if (o - r > tol || r - o > tol || o - c > tol || c - o > tol) {
				print $1 ": loadfile " c ", 4.00 " r ", ours " o; bad = 1
			}
		}
		END { exit bad }' >ratio.err ||
		fail "per-pass counts differ by more than 5%: $(tr '\n' ';' <ratio.err)"
	[ "$(wc -l <file.pp)" -eq "$(join file.pp ours.pp | wc -l)" ] ||
		fail "our table lacks some of the loadfile's ops"
	assert_empty_dir "$W/ours" "our target after the run"
}

check "dbench 4.00 vs ours on compare.txt, $N clients, -t 3: same ops, same ratios" same_ops
finish
