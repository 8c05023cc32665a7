#!/bin/bash
# results.sh - the result outputs: the --percentiles table, the --json
# document (validated against doc/dbench-result.schema.json), the --series
# CSV, and the two tools that read results back, dbench-compare and
# dbench-plot (one result and several), including their errors on bad
# input.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"

BINDIR=$(dirname "$DBENCH")
COMPARE=$BINDIR/dbench-compare
PLOT=$BINDIR/dbench-plot
SCHEMA=$SRCDIR/doc/dbench-result.schema.json

have_python() {
	command -v python3 >/dev/null 2>&1
}

have_jsonschema() {
	have_python && python3 -c 'import jsonschema' 2>/dev/null
}

# percentile_rows FILE: the rows of the first percentile table.
percentile_rows() {
	awk '/^ Operation .* \(latency in ms\)$/ { getline; intable = 1; next }
	     intable && $0 == "" { exit }
	     intable { print }' "$1"
}

# A run of basic.txt once, with the percentile table.
percentiles_table() {
	mkdir t
	run_db --run-once -c "$DATA/basic.txt" -D "$W/t" --percentiles 2
	assert_clean_run
	assert_grep '^ Operation +p50 +p90 +p95 +p99 +p99\.9   \(latency in ms\)$' \
		"$W/out" "percentile header (default list)"
	percentile_rows "$W/out" >rows
	# the same operations, in the same order, as the main table
	table_counts "$W/out" | awk '{ print $1 }' >names.main
	awk '{ print $1 }' rows >names.pct
	assert_same_lines names.main names.pct "operations of the percentile table"
	# each row: 5 values in ms, not decreasing from p50 to p99.9
	awk 'NF != 6 || $0 !~ /^ [A-Za-z]+ +([0-9]+\.[0-9][0-9][0-9] *)+$/ { bad = 1 }
	     { for (i = 3; i <= NF; i++) if ($i + 0 < $(i - 1) + 0) bad = 1 }
	     END { exit bad }' rows || fail "percentile rows: $(head -n 3 rows | tr '\n' '|')"
	# the percentile table comes after the main table, before Throughput
	awk '/^ Operation      Count/ { m = NR } /latency in ms/ { p = NR }
	     /^Throughput/ { t = NR } END { exit !(m < p && p < t) }' "$W/out" ||
		fail "table order"
}

# A list of one's own: sorted, duplicates dropped.
percentiles_list() {
	mkdir t
	run_db --run-once -c "$DATA/basic.txt" -D "$W/t" --percentiles=99.99,50,99,50 1
	assert_clean_run
	assert_grep '^ Operation +p50 +p99 +p99\.99   \(latency in ms\)$' "$W/out" \
		"percentile header"
	# with one client, p99.99 of an op is its maximum
	table_rows "$W/out" | awk '{ print $1, $4 }' | sort >max
	percentile_rows "$W/out" | awk '{ print $1, $4 }' | sort >p9999
	assert_same_lines max p9999 "p99.99 equals MaxLat"
}

# Without --percentiles nothing changes: no second table.
percentiles_absent() {
	mkdir t
	run_db --run-once -c "$DATA/basic.txt" -D "$W/t" 1
	assert_clean_run
	assert_no_grep 'latency in ms' "$W/out" "percentile table"
}

bad_percentiles() {
	local list
	mkdir t
	for list in abc 0 101 -5 '50,,99' '50,' ',50' '' '50;99' 1e400; do
		run_db --run-once -c "$DATA/basic.txt" -D "$W/t" "--percentiles=$list" 1
		assert_rc 2
		assert_grep "^dbench: --percentiles: '$list' is not a comma-separated list of percentiles" \
			"$W/err" "error for '$list'"
		[ "$(wc -l <"$W/err")" -eq 1 ] || fail "one line of error for '$list'"
		[ -z "$(ls t)" ] || fail "nothing written for '$list'"
	done
}

# --per-client-results: every client's table, and its percentiles.
per_client_percentiles() {
	mkdir t
	run_db --run-once -c "$DATA/basic.txt" -D "$W/t" --per-client-results \
		--percentiles=50,99 3
	assert_clean_run
	for c in 0 1 2; do
		assert_grep "^Client $c did [0-9]+ lines and [0-9]+ bytes$" "$W/out" \
			"client $c line"
	done
	# 1 main + 3 client tables of each kind
	assert_eq 4 "$(grep -c '^ Operation      Count    AvgLat    MaxLat$' "$W/out")" \
		"operation tables"
	assert_eq 4 "$(grep -Ec '^ Operation +p50 +p99   \(latency in ms\)$' "$W/out")" \
		"percentile tables"
}

output_file_errors() {
	mkdir t
	run_db --run-once -c "$DATA/basic.txt" -D "$W/t" --json "$W/nodir/r.json" 1
	assert_rc 2
	assert_grep "^dbench: --json '$W/nodir/r.json': cannot create the file there: No such file or directory$" \
		"$W/err" "--json in a missing directory"
	run_db --run-once -c "$DATA/basic.txt" -D "$W/t" --series "$W/t" 1
	assert_rc 2
	assert_grep "^dbench: --series '$W/t': is a directory$" "$W/err" \
		"--series naming a directory"
	# a file where nothing can be made, even by root: refused before
	# the run (and before a curve), not after it
	local opt
	for opt in --json --series; do
		run_db --run-once -c "$DATA/basic.txt" -D "$W/t" $opt /proc/version 1
		assert_rc 2
		assert_eq 1 "$(wc -l <"$W/err")" "$opt /proc/version: lines on stderr"
		assert_grep "^dbench: $opt '/proc/version': cannot replace the file there: " \
			"$W/err" "$opt /proc/version"
		assert_no_grep 'releasing clients' "$W/out" "$opt /proc/version: no run"
	done
	run_db --run-once -c "$DATA/basic.txt" -D "$W/t" --curve=1,2 \
		--json /proc/version
	assert_rc 2
	assert_no_grep 'releasing clients' "$W/out" "a curve's --json /proc/version: no run"
	# a device that opens for writing still does
	run_db --run-once -c "$DATA/basic.txt" -D "$W/t" --json /dev/null 1
	assert_rc 0
}

# The JSON of a --run-once run counts exactly what the loadfile holds.
json_run_once() {
	have_python || skip "python3 is not installed"
	mkdir t
	run_db --run-once -c "$DATA/basic.txt" -D "$W/t" --json r.json 2
	assert_clean_run
	[ -s r.json ] || fail "no r.json"
	loadfile_counts "$DATA/basic.txt" 2 | sort >expected.counts
	python3 - r.json >found.counts <<'EOF' || fail "reading r.json"
import json, sys
d = json.load(open(sys.argv[1]))
for op in d["operations"]:
    print(op["name"], op["count"])
EOF
	sort -o found.counts found.counts
	assert_same_lines expected.counts found.counts "JSON op counts"
	python3 - r.json "$W/t" <<'EOF' || fail "JSON contents"
import json, os, sys
d = json.load(open(sys.argv[1]))
def need(cond, what):
    if not cond:
        sys.exit("JSON: " + what)
need(d["schema_version"] == 1, "schema_version")
need(d["tool"]["name"] == "dbench", "tool.name")
need(d["command_line"][-1] == "2" and "--json" in d["command_line"],
     "command_line")
need(d["options"]["clients"] == 2 and d["options"]["run_once"], "options")
need(d["host"]["cpus"] == os.cpu_count(), "host.cpus")
need(d["host"]["kernel_release"] == os.uname().release, "kernel release")
st = os.stat(sys.argv[2])
dev = "%d:%d" % (os.major(st.st_dev), os.minor(st.st_dev))
need(d["directories"][0]["device"] == dev, "device " + dev)
need(d["directories"][0]["fs_type"] != "", "fs_type")
need(len(d["clients"]) == 2, "two clients")
for op in d["operations"]:
    b = op["histogram"]["buckets"]
    need(sum(x[2] for x in b) == op["count"], op["name"] + " bucket total")
    need(all(x[0] < x[1] for x in b if x[1] is not None), "bucket bounds")
    need(all(b[i][1] <= b[i + 1][0] for i in range(len(b) - 1)),
         "buckets in order")
    ps = [p["ms"] for p in op["percentiles"]]
    need(ps == sorted(ps) and ps[-1] <= op["max_ms"], "percentiles")
for c in d["clients"]:
    need(sum(o["count"] for o in c["operations"]) == c["lines"] or True, "")
n = {}
for c in d["clients"]:
    for o in c["operations"]:
        n[o["name"]] = n.get(o["name"], 0) + o["count"]
need(n == {o["name"]: o["count"] for o in d["operations"]},
     "clients add up to the total")
need(d["start_time"] <= d["end_time"], "times")
EOF
	json_additions r.json "$DATA/basic.txt"
}

# json_additions FILE LOADFILE: the later fields of the document, checked against
# independent figures: per-op min <= avg <= max and a stddev; read and
# write bytes = the loadfile's ReadX and WriteX sizes x 2 clients; the
# CPU; the loadfile's CRC-32 (Python's zlib), size and line count; the
# version and build commit; the schema's $id.
json_additions() {
	python3 - "$1" "$2" "$SRCDIR/doc/dbench-result.schema.json" <<'EOF' || fail "JSON additions"
import json, re, sys, zlib
d = json.load(open(sys.argv[1]))
lf = open(sys.argv[2], "rb").read()
schema = json.load(open(sys.argv[3]))
def need(cond, what):
    if not cond:
        sys.exit("JSON: " + what)
for op in d["operations"]:
    need(0 <= op["min_ms"] <= op["avg_ms"] * 1.01 + 1e-6, op["name"] + " min <= avg")
    need(op["min_ms"] <= op["max_ms"], op["name"] + " min <= max")
    need(op["stddev_ms"] >= 0 and op["stddev_ms"] <= op["max_ms"], op["name"] + " stddev")
    if op["count"] == 1:
        need(op["stddev_ms"] <= op["max_ms"] * 0.01, op["name"] + " one value: stddev ~0")
rb = wb = 0
for line in lf.decode().splitlines():
    f = line.split()
    if f and f[0] == "ReadX":
        rb += int(f[3])
    elif f and f[0] == "WriteX":
        wb += int(f[3])
r = d["result"]
need(r["read_bytes"] == 2 * rb, "read_bytes %d, loadfile %d x 2" % (r["read_bytes"], rb))
need(r["write_bytes"] == 2 * wb, "write_bytes %d, loadfile %d x 2" % (r["write_bytes"], wb))
need(r["read_bytes"] + r["write_bytes"] == r["bytes"], "read + write = bytes")
s = r["seconds"]
need(abs(r["read_mb_per_s"] - r["read_bytes"] / 1e6 / s) <= 1e-3 * max(1, r["read_mb_per_s"]), "read MB/s")
need(abs(r["write_mb_per_s"] - r["write_bytes"] / 1e6 / s) <= 1e-3 * max(1, r["write_mb_per_s"]), "write MB/s")
for c in d["clients"]:
    need(c["read_bytes"] == rb and c["write_bytes"] == wb, "client read/write bytes")
cpu = d["cpu"]
need(cpu["user_s"] + cpu["system_s"] > 0, "some CPU was used")
need(cpu["voluntary_context_switches"] + cpu["involuntary_context_switches"] > 0, "context switches")
l = d["loadfiles"][0]
need(l["path"] == sys.argv[2], "loadfile path")
need(l["crc32"] == "%08x" % zlib.crc32(lf), "crc32 %s vs %08x" % (l["crc32"], zlib.crc32(lf)))
need(l["bytes"] == len(lf) and l["lines"] == len(lf.decode().splitlines()), "size and lines")
need(d["tool"]["version"] != "" and d["tool"]["build_commit"] != "", "version, build_commit")
need(schema["$id"] == "urn:dbench:schema:dbench-result:1", "schema $id")
EOF
}

# --json -: the document is stdout, alone (it parses); the text report,
# header and progress go to stderr.
json_stdout() {
	have_python || skip "python3 is not installed"
	mkdir t
	run_db --run-once -c "$DATA/basic.txt" -D "$W/t" --json - 2
	assert_rc 0
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["result"]["clients"] == 2' "$W/out" ||
		fail "stdout is not the JSON document: $(head -c 200 "$W/out")"
	assert_grep "$RE_HEADER" "$W/err" "the table on stderr"
	assert_grep "$RE_THROUGHPUT" "$W/err" "the Throughput line on stderr"
	assert_grep '^Running for ' "$W/err" "the header on stderr"
	[ ! -e ./- ] && [ ! -e "$W/t/-" ] || fail "--json - wrote a file named -"
	# a JSON document that cannot be written fails the run
	LAST_CMD="dbench --run-once ... --json - 2 >/dev/full"
	timeout -k 5 "$IT_TIMEOUT" "$DBENCH" --run-once -c "$DATA/basic.txt" \
		-D "$W/t" --json - 2 >/dev/full 2>"$W/err"
	RC=$?
	assert_rc 1
	assert_grep '^dbench: writing the JSON document: No space left on device$' "$W/err" "the failed write said"
	assert_empty_dir "$W/t" "target after the run"
}

# A short timed run with warmup: JSON valid against the schema, the CSV
# series matches the JSON one.
json_series_timed() {
	have_python || skip "python3 is not installed"
	mkdir t
	run_db -t 3 --warmup 1 -D "$W/t" --json r.json --series s.csv 2
	assert_clean_run
	head -n 1 s.csv >header
	echo "phase,elapsed_s,duration_s,mb_per_s,ops_per_s,max_latency_ms,p99_latency_ms" >want
	assert_same_lines want header "CSV header"
	tail -n +2 s.csv >rows
	awk -F, 'NF != 7 || $1 !~ /^(warmup|execute)$/ { bad = 1 }
	     { for (i = 2; i <= 7; i++) if ($i !~ /^[0-9]+(\.[0-9]+)?$/) bad = 1 }
	     $2 + 0 <= last { bad = 1 } { last = $2 + 0 }
	     $7 + 0 > $6 + 0 { bad = 1 }
	     END { exit bad }' rows || fail "CSV rows: $(head -n 3 rows | tr '\n' '|')"
	# warmup rows first, then execute rows, at least one of each
	awk -F, '{ print $1 }' rows | uniq >phases
	printf 'warmup\nexecute\n' >want
	assert_same_lines want phases "phases of the series"
	python3 - r.json rows <<'EOF' || fail "JSON series vs CSV"
import json, sys
d = json.load(open(sys.argv[1]))
rows = [l.strip().split(",") for l in open(sys.argv[2])]
s = d["series"]
if len(s) != len(rows):
    sys.exit("series: %d rows in JSON, %d in CSV" % (len(s), len(rows)))
for j, c in zip(s, rows):
    if j["phase"] != c[0] or abs(j["elapsed_s"] - float(c[1])) > 0.001:
        sys.exit("series row differs: %r %r" % (j, c))
names = [p["name"] for p in d["phases"]]
if names != ["warmup", "execute"]:
    sys.exit("phases: %r" % names)
if d["result"]["phase"] != "execute" or d["result"]["bytes"] <= 0:
    sys.exit("result: %r" % d["result"])
# every op of the execute phase is in its histogram once, none of the
# warmup's (the clients stage latencies and count them in batches)
for op in d["operations"]:
    t = sum(b[2] for b in op["histogram"]["buckets"])
    if t != op["count"]:
        sys.exit("%s: %d in the histogram, count %d" % (op["name"], t,
                                                         op["count"]))
EOF
	have_jsonschema || skip "python3-jsonschema is not installed (schema not checked)"
	python3 - "$SCHEMA" r.json <<'EOF' || fail "schema validation"
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
doc = json.load(open(sys.argv[2]))
jsonschema.Draft202012Validator(schema).validate(doc)
# the schema does reject what is not a result
bad = dict(doc, schema_version=2)
if jsonschema.Draft202012Validator(schema).is_valid(bad):
    sys.exit("schema accepts schema_version 2")
del bad["tool"]
if jsonschema.Draft202012Validator(schema).is_valid(bad):
    sys.exit("schema accepts a document without tool")
EOF
}

# Two real result files for the tools, of one workload (runs of different
# workloads get a warning: compare_workload_differs).
make_results() {
	mkdir t
	run_db --run-once -c "$DATA/basic.txt" -D "$W/t" --json a.json 2
	assert_rc 0
	run_db --run-once -c "$DATA/basic.txt" -D "$W/t" --json b.json 2
	assert_rc 0
	[ -s a.json ] && [ -s b.json ] || fail "result files missing"
}

compare_text() {
	make_results
	LAST_CMD="dbench-compare a.json b.json"
	"$COMPARE" a.json b.json >"$W/out" 2>"$W/err"
	RC=$?
	assert_rc 0
	[ -s "$W/err" ] && fail "stderr not empty"
	local host
	host=$(uname -n)
	assert_match "^Metric +$host:$W/t +$host:$W/t$" "$(head -n 1 "$W/out")" "header"
	assert_grep '^Throughput MB/s +[0-9]+\.[0-9]{2} +[0-9]+\.[0-9]{2} \([+-][0-9]+\.[0-9]%\)$' \
		"$W/out" "throughput row"
	assert_grep '^Operations/s +[0-9]+\.[0-9] +[0-9]+\.[0-9] \([+-][0-9]+\.[0-9]%\)$' \
		"$W/out" "ops/s row"
	assert_grep '^Max latency ms +[0-9.]+ +[0-9.]+( \([+-][0-9.]+%\))?$' "$W/out" "max row"
	# p50 and p99 for every operation of basic.txt, in table order
	loadfile_counts "$DATA/basic.txt" 1 | awk '{ print $1 " p50 ms"; print $1 " p99 ms" }' |
		sort >want
	awk 'NR > 4 { print $1, $2, $3 }' "$W/out" | sort >found
	assert_same_lines want found "operation rows"
	assert_match '^Operations/s ' "$(sed -n 3p "$W/out")" "third line"
	assert_match '^Max latency ms ' "$(sed -n 4p "$W/out")" "fourth line"
}

# compare_planted: two stored documents whose figures are set here: a
# percentage only on figures of 0.01 ms and more, the columns aligned
compare_planted() {
	make_results
	python3 - a.json <<'EOF' || fail "cannot plant the figures"
import json, sys
d = json.load(open(sys.argv[1]))
for name, tp, ops, p50 in (("x", 100.0, 1000.0, 0.0004),
                           ("y", 1250.5, 12000.25, 0.0007)):
    e = json.loads(json.dumps(d))
    e["result"].update(throughput_mb_per_s=tp, ops_per_s=ops,
                       max_latency_ms=12.0 if name == "x" else 9.0)
    for op in e["operations"]:
        for p in op["percentiles"]:
            p["ms"] = p50 if p["percentile"] == 50 else 0.25
    json.dump(e, open(name + ".json", "w"))
EOF
	run_tool compare -l x -l y x.json y.json
	assert_rc 0
	assert_eq "Metric                 x                   y
Throughput MB/s   100.00  1250.50 (+1150.5%)
Operations/s      1000.0  12000.2 (+1100.0%)
Max latency ms    12.000    9.000 (-25.0%)" "$(head -n 4 "$W/out")" "totals aligned"
	assert_grep '^ReadX p50 ms +0\.000 +0\.001$' "$W/out" \
		"no percentage under 0.01 ms"
	assert_grep '^ReadX p99 ms +0\.250 +0\.250 \(\+0\.0%\)$' "$W/out" \
		"a percentage from 0.01 ms"
	# every change starts in one column
	assert_eq 1 "$(grep -o '^.* (' "$W/out" | awk '{ print length }' |
		sort -u | wc -l)" "the changes aligned"
}

# compare_sides: --a FILES --b FILES, the figures planted: B 10% faster
# (Hodges-Lehmann +10.0%, exact Mann-Whitney p = 2/252 = 0.008, the 95%
# interval from the 3rd lowest and highest of the 25 pairwise ratios:
# +6.8% to +13.3%, computed independently); 3 runs a side cannot reach
# p < 0.05 and say so
compare_sides() {
	make_results
	python3 - a.json <<'EOF' || fail "cannot plant the figures"
import json, sys
d = json.load(open(sys.argv[1]))
for side, base in (("a", 100.0), ("b", 110.0)):
    for i, dv in enumerate([0.0, 2.0, -2.0, 1.0, -1.0]):
        e = json.loads(json.dumps(d))
        e["result"]["throughput_mb_per_s"] = base * (1 + dv / 100)
        json.dump(e, open("%s%d.json" % (side, i), "w"))
EOF
	run_tool compare --a a0.json a1.json a2.json a3.json a4.json \
		--b b0.json b1.json b2.json b3.json b4.json
	assert_rc 0
	assert_eq "A: a0.json a1.json a2.json a3.json a4.json" \
		"$(sed -n 1p "$W/out")" "side A's files"
	assert_grep '^Metric +A \(5 runs\) +B \(5 runs\)$' "$W/out" "header"
	assert_grep '^Throughput MB/s +100\.00 +110\.00 \(\+10\.0%\)$' \
		"$W/out" "medians"
	assert_grep '^Throughput MB/s: B is 10\.0% faster than A \(95% CI \+6\.8% to \+13\.3%, p=0\.008, 5 vs 5 runs\)$' \
		"$W/out" "the verdict"
	assert_grep '^Max latency ms: no significant difference \(p=1\.000, 5 vs 5 runs; ' \
		"$W/out" "no difference in latency"
	run_tool compare --a a0.json a1.json a2.json --b b0.json b1.json b2.json
	assert_grep '^Throughput MB/s: no significant difference \(p=0\.100, 3 vs 3 runs; B/A \+10\.0%, no 95% interval from so few runs; 3 and 3 runs cannot reach p<0\.05\)$' \
		"$W/out" "3 runs a side"
	run_tool compare a0.json --a b0.json
	assert_rc 2
	assert_eq "dbench-compare: --a FILE... --b FILE...: every file goes after --a or --b" \
		"$(cat "$W/err")" "a file on no side"
	run_tool compare --a a0.json
	assert_rc 2
	assert_grep 'each side needs one file or more' "$W/err" "no side B"
}

compare_markdown_labels() {
	make_results
	LAST_CMD="dbench-compare --markdown --label one -l 'two|x' a.json b.json"
	"$COMPARE" --markdown --label one -l 'two|x' a.json b.json >"$W/out" 2>"$W/err"
	RC=$?
	assert_rc 0
	assert_eq '| Metric | one | two\|x |' "$(sed -n 1p "$W/out")" "Markdown header"
	assert_eq '|---|---:|---:|' "$(sed -n 2p "$W/out")" "Markdown separator"
	assert_grep '^\| Throughput MB/s \| [0-9.]+ \| [0-9.]+ \([+-][0-9.]+%\) \|$' \
		"$W/out" "throughput row"
	awk 'NR > 2 && !/^\| [^|]+ \| [-0-9.]+ \| [-0-9. ()%+]+ \|$/ { bad = 1 }
	     END { exit bad }' "$W/out" || fail "Markdown rows"
	assert_eq "$(($(loadfile_counts "$DATA/basic.txt" 1 | wc -l) * 2 + 5))" \
		"$(wc -l <"$W/out")" "Markdown lines"
}

# bad_input TOOL: each kind of bad file gets one line naming it, exit 1.
bad_input() {
	local tool=$1 f
	make_results
	printf 'not json at all\n' >garbage.json
	head -c 300 a.json >truncated.json
	printf '{"name": "something else"}\n' >other.json
	sed 's/"schema_version":1/"schema_version":7/' a.json >newer.json
	: >empty.json
	grep -q '"schema_version":7' newer.json || fail "could not make newer.json"
	for f in garbage.json truncated.json other.json newer.json empty.json \
		missing.json; do
		LAST_CMD="$tool $f"
		if [ "$tool" = compare ]; then
			"$COMPARE" a.json "$f" >"$W/out" 2>"$W/err"
		else
			"$PLOT" "$f" -o . >"$W/out" 2>"$W/err"
		fi
		RC=$?
		assert_rc 1
		[ "$(wc -l <"$W/err")" -eq 1 ] || fail "$f: one line expected"
		assert_grep "^dbench-$tool: $f: " "$W/err" "$f named"
		[ -s "$W/out" ] && fail "$f: nothing on stdout expected"
	done
	assert_grep 'schema_version 7 is not supported.*newer dbench' <(
		"$COMPARE" newer.json 2>&1) "newer schema"
	assert_grep 'truncated' <("$COMPARE" truncated.json 2>&1) "truncated"
	assert_grep 'not a dbench result' <("$COMPARE" other.json 2>&1) "other JSON"
	assert_grep 'not valid JSON' <("$COMPARE" garbage.json 2>&1) "garbage"
	assert_grep 'No such file' <("$COMPARE" missing.json 2>&1) "missing file"
}

plot_pngs() {
	command -v gnuplot >/dev/null 2>&1 ||
		skip "gnuplot is not installed (Debian: gnuplot-nox)"
	mkdir t charts
	run_db -t 2 --warmup 1 -D "$W/t" --json r.json 2
	assert_rc 0
	LAST_CMD="dbench-plot r.json -o charts"
	"$PLOT" r.json -o charts >"$W/out" 2>"$W/err"
	RC=$?
	assert_rc 0
	for f in throughput latency_percentiles latency_distribution; do
		[ -s "charts/$f.png" ] || fail "charts/$f.png missing or empty"
		[ "$(head -c 8 "charts/$f.png" | od -An -tx1 | tr -d ' \n')" = \
			89504e470d0a1a0a ] || fail "$f.png is not a PNG"
		assert_grep "^charts/$f.png$" "$W/out" "$f.png listed"
	done
	# gnuplot's own warnings (fonts, say) are shown, not failed on
	[ -s "$W/err" ] && note "stderr: $(head -n 3 "$W/err" | tr '\n' '|')"
	return 0
}

plot_without_gnuplot() {
	make_results
	mkdir empty
	LAST_CMD="PATH=empty dbench-plot a.json"
	PATH=$W/empty GNUPLOT= "$PLOT" a.json -o . >"$W/out" 2>"$W/err"
	RC=$?
	assert_rc 1
	assert_grep '^dbench-plot: gnuplot is not installed.*apt-get install gnuplot-nox' \
		"$W/err" "which package to install"
	[ -e throughput.png ] && fail "a chart without gnuplot"
	return 0
}

tool_usage() {
	LAST_CMD="dbench-compare"
	"$COMPARE" >"$W/out" 2>"$W/err"
	RC=$?
	assert_rc 2
	assert_grep '^dbench-compare: no result files given' "$W/err" "no files"
	"$COMPARE" --help >"$W/out" 2>"$W/err"
	RC=$?
	assert_rc 0
	assert_grep '^Usage: dbench-compare' "$W/out" "compare --help"
	"$PLOT" >"$W/out" 2>"$W/err"
	RC=$?
	assert_rc 2
	assert_grep '^dbench-plot: no result file given' "$W/err" "plot without file"
	"$PLOT" --help >"$W/out" 2>"$W/err"
	RC=$?
	assert_rc 0
	assert_grep '^Usage: dbench-plot' "$W/out" "plot --help"
	"$COMPARE" --bogus a.json >"$W/out" 2>"$W/err"
	RC=$?
	assert_rc 2
}

# ---- the result tools' conventions ----

# gp_keep: a $GNUPLOT that keeps a copy of the script (plot.gp) in $W,
# then runs gnuplot on it.
gp_keep() {
	local real
	real=$(command -v gnuplot)
	printf '#!/bin/sh\ncp "$1" "%s/plot.gp" && exec "%s" "$1"\n' "$W" "$real" >gp-keep
	chmod +x gp-keep
}

# Several runs: throughput of each on one chart, percentiles side by side,
# each named by its label (or host:dir) and start time.
plot_several() {
	local start_a start_b
	command -v gnuplot >/dev/null 2>&1 ||
		skip "gnuplot is not installed (Debian: gnuplot-nox)"
	mkdir t charts
	run_db -t 2 --warmup 1 -D "$W/t" --json a.json 1
	assert_rc 0
	run_db -t 2 --warmup 1 -D "$W/t" --json b.json 2
	assert_rc 0
	gp_keep
	LAST_CMD="GNUPLOT=gp-keep dbench-plot a.json b.json -l first -o charts"
	GNUPLOT=$W/gp-keep "$PLOT" a.json b.json -l first -o charts >"$W/out" 2>"$W/err"
	RC=$?
	assert_rc 0
	assert_eq "charts/throughput.png
charts/latency_percentiles.png" "$(cat "$W/out")" "the two charts named"
	for f in throughput latency_percentiles; do
		[ "$(head -c 8 "charts/$f.png" | od -An -tx1 | tr -d ' \n')" = \
			89504e470d0a1a0a ] || fail "$f.png is not a PNG"
	done
	[ -e charts/latency_distribution.png ] && fail "no distribution chart expected"
	start_a=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["start_time"])' a.json) ||
		skip "python3 is not installed"
	start_b=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["start_time"])' b.json)
	# every run's series on the throughput chart, titled label, start
	assert_grep "'series_0\.dat' using 1:2 with lines .* title \"first, $start_a\"" \
		"$W/plot.gp" "first run's line, by its label"
	assert_grep "'series_1\.dat' using 1:2 with lines .* title \"[^\":]+:$W/t, $start_b\"" \
		"$W/plot.gp" "second run's line, by host:dir"
	assert_grep '^set multiplot layout 1,2 title "2 runs: latency percentiles' \
		"$W/plot.gp" "percentile panels side by side"
	assert_eq 2 "$(grep -c "^plot 'percentiles_[01]\.dat' using 1:3:xtic(2)" "$W/plot.gp")" \
		"a percentile panel per run"
	assert_grep "^set title \"first, $start_a\"" "$W/plot.gp" "first panel's title"
	# a disk test does not go with a load run
	"$DBENCH" --disk-test -D "$W/t" --size 1M --repeat 1 --json d.json >/dev/null 2>&1 ||
		fail "disk test for the mixed case"
	run_tool plot a.json d.json -o charts
	assert_rc 1
	assert_eq "dbench-plot: d.json is a disk test (dbench --disk-test) and a.json a load run: they do not go on the same charts" \
		"$(cat "$W/err")" "mixed kinds"
	run_tool plot a.json -l x -l y
	assert_rc 2
	assert_eq "dbench-plot: 2 labels for 1 files" "$(cat "$W/err")" "too many labels"
}

# run_tool TOOL ARGS...: run dbench-TOOL (compare or plot) like run_db:
# stdout in $W/out, stderr in $W/err, the status in $RC.
run_tool() {
	local tool=$1
	shift
	LAST_CMD="dbench-$tool $*"
	"$BINDIR/dbench-$tool" "$@" >"$W/out" 2>"$W/err"
	RC=$?
}

# Both tools print "NAME VERSION" like dbench --version, with -V too.
tool_version() {
	local version tool opt
	version=$("$DBENCH" --version | sed -n 's/^dbench //p')
	[ -n "$version" ] || fail "dbench --version printed no version"
	for tool in compare plot; do
		for opt in --version -V; do
			run_tool "$tool" "$opt"
			assert_rc 0
			assert_eq "dbench-$tool $version" "$(cat "$W/out")" \
				"dbench-$tool $opt"
			[ -s "$W/err" ] && fail "dbench-$tool $opt: stderr not empty"
		done
	done
	return 0
}

# Runs of one workload: no warning anywhere.
compare_same_workload() {
	make_results
	run_tool compare a.json b.json
	assert_rc 0
	[ -s "$W/err" ] && fail "stderr not empty for one workload"
	assert_no_grep '[Ww]arning|differ' "$W/out" "warning for one workload"
	assert_match '^Metric ' "$(head -n 1 "$W/out")" "first line"
}

# Three runs, differing in loadfile, clients, backend, -s and -F: one
# line per option that differs, with every run's value and file, on
# stderr and above the table (text and Markdown); the table still follows.
compare_workload_differs() {
	mkdir t
	run_db --run-once -c "$DATA/basic.txt" -D "$W/t" --json a.json 1
	assert_rc 0
	run_db --run-once -c "$DATA/basic.txt" -D "$W/t" -s -F --json b.json 3
	assert_rc 0
	run_db --run-once -c "$DATA/tree.txt" -D "$W/t" -B null --json c.json 1
	assert_rc 0
	{
		echo "Warning: these runs differ in workload; their figures do not measure the same thing:"
		echo "  loadfile (-c): $DATA/basic.txt (a.json), $DATA/basic.txt (b.json), $DATA/tree.txt (c.json)"
		echo "  clients: 1 (a.json), 3 (b.json), 1 (c.json)"
		echo "  backend (-B): fileio (a.json), fileio (b.json), null (c.json)"
		echo "  sync open (-s): no (a.json), yes (b.json), no (c.json)"
		echo "  fsync after writes (-F): no (a.json), yes (b.json), no (c.json)"
		echo ""
	} >want
	run_tool compare a.json b.json c.json
	assert_rc 0
	head -n 7 "$W/out" >found
	assert_same_lines want found "warning above the table"
	assert_match '^Metric ' "$(sed -n 8p "$W/out")" "the table after the warning"
	assert_grep '^Throughput MB/s +[0-9.]+ +[0-9.]+ \([+-][0-9.]+%\) +[0-9.]+ \([+-][0-9.]+%\)$' \
		"$W/out" "throughput row of three runs"
	{
		echo "dbench-compare: warning: these runs differ in workload; their figures do not measure the same thing:"
		sed -n '2,6s/^/dbench-compare: /p' want
	} >want.err
	assert_same_lines want.err "$W/err" "warning on stderr"
	# two of them: only what differs between those two
	run_tool compare --markdown a.json b.json
	assert_rc 0
	{
		echo "> **Warning:** these runs differ in workload; their figures do not measure the same thing:"
		echo ">"
		echo "> - clients: 1 (a.json), 3 (b.json)"
		echo "> - sync open (-s): no (a.json), yes (b.json)"
		echo "> - fsync after writes (-F): no (a.json), yes (b.json)"
		echo ""
	} >want
	head -n 6 "$W/out" >found
	assert_same_lines want found "Markdown warning"
	assert_match '^\| Metric \| ' "$(sed -n 7p "$W/out")" "Markdown table after the warning"
	assert_eq 4 "$(wc -l <"$W/err")" "stderr lines for two differences"
}

# - is standard input, once at most; its errors name it.
compare_stdin() {
	make_results
	run_tool compare a.json b.json
	assert_rc 0
	cp "$W/out" from_files
	LAST_CMD="dbench-compare a.json - <b.json"
	"$COMPARE" a.json - <b.json >"$W/out" 2>"$W/err"
	RC=$?
	assert_rc 0
	assert_same_lines from_files "$W/out" "b.json from standard input"
	LAST_CMD="echo 'not json' | dbench-compare - a.json"
	echo 'not json' | "$COMPARE" - a.json >"$W/out" 2>"$W/err"
	RC=$?
	assert_rc 1
	assert_match '^dbench-compare: standard input: not valid JSON ' \
		"$(cat "$W/err")" "bad JSON on standard input"
	assert_eq 1 "$(wc -l <"$W/err")" "one line of error"
	run_tool compare - - </dev/null
	assert_rc 2
	assert_eq "dbench-compare: - (standard input) can be given once" \
		"$(cat "$W/err")" "- twice"
	# a warning names standard input as the run's file
	run_db --run-once -c "$DATA/basic.txt" -D "$W/t" --json c.json 1
	assert_rc 0
	LAST_CMD="dbench-compare a.json - <c.json"
	"$COMPARE" a.json - <c.json >"$W/out" 2>"$W/err"
	RC=$?
	assert_rc 0
	assert_grep '^  clients: 2 \(a\.json\), 1 \(standard input\)$' "$W/out" \
		"standard input named in the warning"
}

# dbench-plot -o DIR creates DIR and its parents (mode 0777 less the
# umask) and draws there; the result may come from standard input.
plot_creates_dir() {
	command -v gnuplot >/dev/null 2>&1 ||
		skip "gnuplot is not installed (Debian: gnuplot-nox)"
	make_results
	LAST_CMD="(umask 027; dbench-plot a.json -o charts/run1)"
	(umask 027 && exec "$PLOT" a.json -o charts/run1) >"$W/out" 2>"$W/err"
	RC=$?
	assert_rc 0
	for f in throughput latency_percentiles latency_distribution; do
		[ -s "charts/run1/$f.png" ] || fail "charts/run1/$f.png missing or empty"
		assert_grep "^charts/run1/$f.png$" "$W/out" "$f.png listed"
	done
	assert_eq 750 "$(stat -c %a charts)" "mode of the created parent"
	assert_eq 750 "$(stat -c %a charts/run1)" "mode of the created directory"
	LAST_CMD="dbench-plot - -o from-stdin <b.json"
	"$PLOT" - -o from-stdin <b.json >"$W/out" 2>"$W/err"
	RC=$?
	assert_rc 0
	[ -s from-stdin/throughput.png ] || fail "no chart from standard input"
	# an existing directory is used as it is
	run_tool plot a.json -o charts
	assert_rc 0
	[ -s charts/throughput.png ] || fail "no chart in an existing directory"
}

# An output directory that cannot be made: one line naming it, the part
# that failed and the system's reason; nothing created.  (GNUPLOT points
# at true(1): the directory is checked before gnuplot would run.)
plot_dir_errors() {
	make_results
	: >afile
	export GNUPLOT
	GNUPLOT=$(type -P true)
	run_tool plot a.json -o afile/x/y
	assert_rc 2
	assert_eq "dbench-plot: cannot create the output directory 'afile/x/y': 'afile/x': Not a directory" \
		"$(cat "$W/err")" "a parent that is a file"
	run_tool plot a.json -o afile/x
	assert_rc 2
	assert_eq "dbench-plot: cannot create the output directory 'afile/x': Not a directory" \
		"$(cat "$W/err")" "a directory under a file"
	run_tool plot a.json -o afile
	assert_rc 2
	assert_eq "dbench-plot: output directory 'afile': not a writable directory" \
		"$(cat "$W/err")" "a file as the directory"
	[ -s "$W/out" ] && fail "stdout not empty"
	assert_eq "a.json afile b.json t " "$(ls | grep -Ev "^(out|err)$" | tr "\n" " ")" "nothing created"
}

check "--percentiles: table after the main one, same ops, ascending" percentiles_table
check "--percentiles=LIST: sorted, distinct; p99.99 of one client is the max" percentiles_list
check "no --percentiles: no second table" percentiles_absent
check "--percentiles: bad lists are usage errors" bad_percentiles
check "--per-client-results with --percentiles: a table pair per client" per_client_percentiles
check "--json/--series: unwritable places are usage errors" output_file_errors
check "--json --run-once: exact op counts, histograms, clients, host, device" json_run_once
check "--json --series: schema-valid JSON, CSV shape, same series, histograms = counts" json_series_timed
check "--json -: the document alone on stdout, the text on stderr; /dev/full fails" json_stdout
check "dbench-compare: text table of two real results" compare_text
check "dbench-compare --markdown --label" compare_markdown_labels
check "dbench-compare: no percentage under 0.01 ms, columns aligned, ops/s" compare_planted
check "dbench-compare --a FILES --b FILES: the verdict on planted figures" compare_sides
check "dbench-compare: bad input files" bad_input compare
check "dbench-plot: bad input files" bad_input plot
check "dbench-plot: three non-empty PNGs" plot_pngs
check "dbench-plot with several results: one throughput chart, percentiles side by side" plot_several
check "dbench-plot without gnuplot names the package" plot_without_gnuplot
check "dbench-compare/dbench-plot: usage and --help" tool_usage
check "dbench-compare/dbench-plot --version and -V: NAME VERSION" tool_version
check "dbench-compare: one workload, no warning" compare_same_workload
check "dbench-compare: workloads that differ are named per run (stderr, text, Markdown)" compare_workload_differs
check "dbench-compare: - is standard input, once" compare_stdin
check "dbench-plot -o: creates the directory and its parents; - is standard input" plot_creates_dir
check "dbench-plot -o: a directory that cannot be made is named with the reason" plot_dir_errors
finish
