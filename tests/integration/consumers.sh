#!/bin/bash
# consumers.sh - the parsers of the suites that read dbench's text output,
# run on our output: mmtests' dbench extraction modules and the Phoronix
# Test Suite's result parser for its dbench profile.  Each is a minimal
# stub written here around their extraction logic: their regular
# expressions, splits and field indexes, quoted below with the file they
# come from.  consumer_checks runs every parser on one output dialect;
# another dialect is one more call of it at the end.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"

LOADFILE=$DATA/basic.txt
NCLIENTS=2

# ---- mmtests (gormanm/mmtests) ----
#
# bin/lib/MMTests/ExtractDbench4tput.pm, extractReport(), per log line:
#     $line =~ s/^\s+//;
#     if ($line =~ /sec  execute/) {
#         my @elements = split(/\s+/, $line);
#         $self->addData("$client", $elements[5], $elements[2]);
# (x: the progress line's seconds, value: its MB/sec).
#
# bin/lib/MMTests/ExtractDbench4opslatency.pm, extractReport(): the names
#     my %dbench_ops = ("NTCreateX" => 1, "Close" => 1, "Rename" => 1,
#         "Unlink" => 1, "Deltree" => 1, "Mkdir" => 1, "Qpathinfo" => 1,
#         "WriteX" => 1, "ReadX" => 1, "Qfileinfo" => 1, "Qfsinfo" => 1,
#         "Flush" => 1, "Sfileinfo" => 1, "LockX" => 1, "UnlockX" => 1,
#         "Find" => 1);
# and, for $header "count", "avg", "max" ($index 2, 3, 4), per log line:
#     if ($line =~ /Operation/) { $readingOperations = 1; }
#     if ($readingOperations != 1) { next; }
#     my @elements = split(/\s+/, $line);
#     if ($dbench_ops{$elements[1]} == 1) {
#         $self->addData("$header-$elements[1]-$client", 0, $elements[$index]);
# ($readingOperations is never reset: every later line whose second
# field names an operation is read as one more row.)
#
# bin/lib/MMTests/ExtractDbench4.pm (loadfile completion times, from
# --show-execute-time, which shellpack_src/src/dbench/dbench-bench
# passes), per log line:
#     if ($line =~ /completed in/) {
#         $line =~ s/^\s+//;
#         my @elements = split(/\s+/, $line);
#         next if ($elements[3] > (1<<31));
#         $self->addData("$client", $elements[7] / 1000, $elements[3] );
#
# The stub: those three loops over one log, addData() printing
# "module<TAB>name<TAB>x<TAB>value".
MMTESTS_STUB='
use strict;
my %dbench_ops = map { $_ => 1 } qw(NTCreateX Close Rename Unlink Deltree
	Mkdir Qpathinfo WriteX ReadX Qfileinfo Qfsinfo Flush Sfileinfo LockX
	UnlockX Find);
my ($log, $client) = @ARGV;
sub addData { print join("\t", @_), "\n"; }
sub lines { open(my $f, "<", $log) or die "$log: $!"; my @l = <$f>; close($f); return @l; }
for my $line (lines()) {
	$line =~ s/^\s+//;
	if ($line =~ /sec  execute/) {
		my @elements = split(/\s+/, $line);
		addData("tput", "$client", $elements[5], $elements[2]);
	}
}
my $index = 1;
foreach my $header ("count", "avg", "max") {
	$index++;
	my $readingOperations = 0;
	for my $line (lines()) {
		$readingOperations = 1 if ($line =~ /Operation/);
		next if ($readingOperations != 1);
		my @elements = split(/\s+/, $line);
		if (defined $elements[1] && $dbench_ops{$elements[1]}) {
			addData("ops", "$header-$elements[1]-$client", 0, $elements[$index]);
		}
	}
}
for my $line (lines()) {
	if ($line =~ /completed in/) {
		$line =~ s/^\s+//;
		my @elements = split(/\s+/, $line);
		next if ($elements[3] > (1<<31));
		addData("loadfile", "$client", $elements[7] / 1000, $elements[3]);
	}
}
'

# mmtests_extract LOG: the stub's records for LOG (a run of NCLIENTS).
mmtests_extract() {
	perl -e "$MMTESTS_STUB" "$1" "$NCLIENTS" || fail "the mmtests stub failed on $1"
}

# ---- the Phoronix Test Suite (phoronix-test-suite/phoronix-test-suite) ----
#
# ob-cache/test-profiles/pts/dbench-1.0.2/results-definition.xml:
#     <OutputTemplate>Throughput #_RESULT_# MB/sec  1 clients  1 procs  max_latency=682.759 ms</OutputTemplate>
# pts-core/objects/pts_test_result_parser.php, parse_result_process(),
# for a template without hints: both the template line and the result
# line are tokenised as
#     explode(' ', pts_strings::trim_spaces(str_replace($space_out_chars,
#         ' ', str_replace('=', ' = ', $line))))
# with $space_out_chars = array('(', ')', "\t"); the search key is
#     substr($result_template_line, 0, strpos($result_template_line, $result_key[$i]))
# ("Throughput ", then trim()med); the result line is the one holding its
# last occurrence in the log:
#     $result_line = substr($result_output, 0, strpos($result_output, "\n", strrpos($result_output, $search_key)));
#     $result_line = substr($result_line, strrpos($result_line, "\n") + 1);
# and the result is the token at the template's #_RESULT_# position,
# kept if is_numeric().  The stub does the same in Python and prints the
# result, then the tokens of the result line and of the template.
PTS_TEMPLATE='Throughput #_RESULT_# MB/sec  1 clients  1 procs  max_latency=682.759 ms'
PTS_STUB='
import re, sys
template, log = sys.argv[1], open(sys.argv[2]).read()
key = "#_RESULT_#"
def tokens(line):
    line = line.replace("=", " = ")
    for c in "()\t":
        line = line.replace(c, " ")
    return re.sub(" +", " ", line).strip().split(" ")
t = tokens(template)
pos = t.index(key)
search = template[:template.index(key)].strip()
last = log.rindex(search)
end = log.index("\n", last)
line = log[:end]
line = line[line.rindex("\n") + 1:]
r = tokens(line)
value = r[pos] if pos < len(r) else ""
try:
    float(value)
except ValueError:
    sys.exit("not numeric: %r in %r" % (value, line))
print(value)
print(" ".join(r))
print(" ".join(t))
'

# ---- the checks, for one dialect ----

# dialect_run NAME ARGS...: a --run-once of LOADFILE by NCLIENTS clients
# with the dialect's ARGS; its output kept as NAME.out.
dialect_run() {
	local name=$1
	shift
	mkdir -p t
	run_db --run-once -c "$LOADFILE" -D "$W/t" "$@" "$NCLIENTS"
	assert_rc 0
	assert_no_mismatch
	# either dialect's header (--show-execute-time alone selects 5.0)
	assert_grep '^ Operation +Count    AvgLat    MaxLat$' "$W/out" "$name: table header"
	assert_grep "$RE_THROUGHPUT" "$W/out" "$name: Throughput line"
	keep "$name"
}

# mmtests' throughput: one record per execute progress line, with that
# line's MB/sec and seconds, all numbers.
mmtests_tput() {
	dialect_run run "$@"
	mmtests_extract run.out | awk -F'\t' '$1 == "tput" { print $3, $4 }' >found
	grep -E "$RE_PROGRESS" run.out | awk '$5 == "execute" { print $6, $3 }' >want
	[ -s want ] || fail "no execute progress line in the output"
	assert_same_lines want found "mmtests tput records (seconds, MB/sec)"
	awk '$1 !~ /^[0-9]+$/ || $2 !~ /^[0-9]+\.[0-9]+$/ { exit 1 }' found ||
		fail "tput records are not numbers: $(head -n 3 found | tr '\n' '|')"
}

# dialect_rows FILE: the rows of the first table, in either dialect (4.00:
# 40 dashes, 5.0: 50).
dialect_rows() {
	awk '/^ -+$/ { intable = 1; next } intable && $0 == "" { exit }
		intable { print }' "$1"
}

# dialect_names FILE: "Name Count" lines on stdin with the names as FILE's
# table spells them (5.0 names five ops by their loadfile commands).
dialect_names() {
	if grep -qE '^ Operation {16}Count' "$1"; then
		sed -e 's/^Qpathinfo /QUERY_PATH_INFORMATION /' \
		    -e 's/^Qfileinfo /QUERY_FILE_INFORMATION /' \
		    -e 's/^Qfsinfo /QUERY_FS_INFORMATION /' \
		    -e 's/^Sfileinfo /SET_FILE_INFORMATION /' -e 's/^Find /FIND_FIRST /'
	else
		cat
	fi | sort
}

# mmtests' per-operation figures: every row of our table whose name it
# knows, once, with its count, average and maximum; the counts those of
# the loadfile times the clients.
mmtests_ops() {
	dialect_run run "$@"
	mmtests_extract run.out | awk -F'\t' '$1 == "ops" { print $2, $4 }' |
		sort >found
	dialect_rows run.out | awk -v c="$NCLIENTS" -v known="NTCreateX Close Rename Unlink Deltree Mkdir Qpathinfo WriteX ReadX Qfileinfo Qfsinfo Flush Sfileinfo LockX UnlockX Find" '
		BEGIN { n = split(known, k, " "); for (i = 1; i <= n; i++) ok[k[i]] = 1 }
		ok[$1] { print "count-" $1 "-" c, $2; print "avg-" $1 "-" c, $3;
			 print "max-" $1 "-" c, $4 }
		!ok[$1] { print $1 >"unknown" }' | sort >want
	[ -s want ] || fail "no operation table rows in the output"
	assert_same_lines want found "mmtests op records (each table row once)"
	# the counts are the run's: the loadfile's times the clients
	awk '/^count-/ { split($1, p, "-"); print p[2], $2 }' found | sort >counts
	loadfile_counts "$LOADFILE" "$NCLIENTS" | dialect_names run.out >expected
	if [ -f unknown ]; then
		note "table rows mmtests does not know (not extracted): $(paste -sd' ' unknown)"
		grep -Ev "^($(paste -sd'|' unknown)) " expected >expected.known
	else
		cp expected expected.known
	fi
	assert_same_lines expected.known counts "extracted counts vs the loadfile"
}

# mmtests' loadfile completion times (--show-execute-time): one record
# per client and pass (--run-once: NCLIENTS), each a number of ms.
mmtests_loadfile_times() {
	dialect_run run --show-execute-time "$@"
	mmtests_extract run.out | awk -F'\t' '$1 == "loadfile" { print $3, $4 }' >found
	assert_eq "$NCLIENTS" "$(wc -l <found)" "completion time records"
	awk '$1 !~ /^[0-9.]+$/ || $2 !~ /^[0-9]+$/ { exit 1 }' found ||
		fail "completion records are not numbers: $(head -n 3 found | tr '\n' '|')"
}

# PTS: the result is our Throughput figure; the line has the template's
# shape (the same tokens but for the numbers), so the clients and procs
# figures sit where the template has them.
pts_throughput() {
	dialect_run run "$@"
	python3 -c "$PTS_STUB" "$PTS_TEMPLATE" run.out >pts ||
		fail "the PTS stub found no numeric result: $(cat pts)"
	assert_eq "$(throughput_field run.out)" "$(sed -n 1p pts)" "PTS result"
	local shape='{ for (i = 1; i <= NF; i++)
		if ($i ~ /^[0-9][0-9.e+]*$/ || $i == "#_RESULT_#") $i = "N"; print }'
	assert_eq "$(sed -n 3p pts | awk "$shape")" "$(sed -n 2p pts | awk "$shape")" \
		"token shape of the Throughput line vs the template"
	# clients and procs: tokens 4 to 7, as in the template's "1 clients  1 procs"
	assert_eq "$NCLIENTS clients $NCLIENTS procs" \
		"$(sed -n 2p pts | cut -d' ' -f4-7)" "clients and procs where the template has them"
}

# mmtests' calibration (dbench-bench, init step): the first @E@ line's
# 4th @-field, through its own pipeline, is a whole number of ms:
#     FACTOR=$(./bin/dbench $DBENCH_OSYNC_COMMAND $DBENCH_SYNC_COMMAND \
#         $DBENCH_FSYNC_COMMAND $DBENCH_STAGGER_COMMAND \
#         --show-execute-time --run-once \
#         -D $SHELLPACK_DATA --loadfile $LOADDIR/client-tiny.txt \
#         --machine-readable -t 10000 $DBENCH_MAX_CLIENTS |
#         grep "^@E@" | cut -d '@' -f 4 | head -n 1)
#     FACTOR=$((FACTOR * 3 / DBENCH_MAX_CLIENTS))
mmtests_factor() {
	local factor
	mkdir -p t
	LAST_CMD="dbench --show-execute-time --run-once -D t --loadfile $LOADFILE --machine-readable -t 10000 $NCLIENTS"
	factor=$(timeout -k 5 "$IT_TIMEOUT" "$DBENCH" --show-execute-time --run-once \
		-D "$W/t" --loadfile "$LOADFILE" --machine-readable -t 10000 "$NCLIENTS" 2>"$W/err" |
		grep "^@E@" | cut -d '@' -f 4 | head -n 1)
	[[ $factor =~ ^[0-9]+$ ]] || fail "FACTOR: expected a whole number of ms, found '$factor'"
	factor=$((factor * 3 / NCLIENTS)) || fail "FACTOR arithmetic failed"
}

# consumer_checks DIALECT [DBENCH ARGS...]: every parser on our output in
# DIALECT (selected by the ARGS).
consumer_checks() {
	local dialect=$1
	shift
	check "$dialect: mmtests ExtractDbench4tput reads every execute line" mmtests_tput "$@"
	check "$dialect: mmtests ExtractDbench4opslatency reads every known op row once" mmtests_ops "$@"
	check "$dialect: mmtests ExtractDbench4 reads a completion time per client" mmtests_loadfile_times "$@"
	check "$dialect: PTS pts/dbench template reads Throughput, clients, procs" pts_throughput "$@"
}

command -v perl >/dev/null 2>&1 || skip_all "perl is not installed"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
consumer_checks "4.00 (default)"
consumer_checks "5.0 (--output-dialect=5.0)" --output-dialect=5.0
# mmtests' own benchmark command line, unchanged (dbench-bench):
#     BENCH_CMD="dbench $DBENCH_OSYNC_COMMAND $DBENCH_SYNC_COMMAND $DBENCH_FSYNC_COMMAND $DBENCH_STAGGER_COMMAND \
#         -D $SHELLPACK_DATA --warmup 0 \
#         -t $((DBENCH_DURATION_BASE + FACTOR*CLIENT/1000)) \
#         --loadfile $LOADDIR/client-tiny.txt --show-execute-time \
#         $CLIENT"
# --show-execute-time (only the 5.0 fork has it) selects the 5.0 dialect.
mmtests_bench_cmd() {
	mkdir t
	run_db -D "$W/t" --warmup 0 -t 2 --loadfile "$LOADFILE" --show-execute-time "$NCLIENTS"
	assert_rc 0
	assert_no_mismatch
	grep -qE '^ Operation {16}Count +AvgLat +MaxLat$' "$W/out" ||
		fail "mmtests' command line: expected the 5.0 table header"
	keep run
	mmtests_extract run.out >records
	grep -q '^tput' records || fail "no ExtractDbench4tput record"
	grep -q '^loadfile' records || fail "no ExtractDbench4 completion record"
	grep -q '^ops	count-NTCreateX-' records || fail "no ExtractDbench4opslatency record"
}
# A schedule (-R) adds the response-time table after the Throughput
# line: its rows must not read as more op rows (ExtractDbench4opslatency
# reads on to the end), nor its lines as the Throughput line.
check "4.00 with -R: mmtests ExtractDbench4opslatency reads every known op row once" mmtests_ops -R 1000
check "4.00 with -R: PTS pts/dbench template reads Throughput, clients, procs" pts_throughput -R 1000
check "5.0: mmtests' dbench-bench command line unchanged: 5.0 output, every parser reads it" mmtests_bench_cmd
check "5.0: mmtests' calibration pipeline (@E@ field 4) gives a whole number" mmtests_factor
finish
