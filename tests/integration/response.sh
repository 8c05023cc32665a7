#!/bin/bash
# response.sh - response time from when each op was due: with a schedule
# (a timed loadfile, -R) the report shows it beside the service time, in
# the text and in the JSON's operations[].response; without one, neither.
# The late ops are planted: a SLEEP of 0.5 s holds back ten ops due
# within the next 0.1 s, so each of them responds at least 0.4 s after it
# was due while its service (-B null) takes microseconds.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"

# late_loadfile FILE: ten ops 10 ms apart, a 0.5 s SLEEP, ten more ops
# due from 0.1 to 0.19 s.
late_loadfile() {
	awk 'BEGIN {
		for (i = 0; i < 10; i++)
			printf "%.3f QUERY_FS_INFORMATION 259 NT_STATUS_OK\n", i * 0.01
		print "SLEEP 500000"
		for (i = 0; i < 10; i++)
			printf "%.3f QUERY_FS_INFORMATION 259 NT_STATUS_OK\n", 0.1 + i * 0.01
	}' >"$1"
}

late_ops() {
	command -v python3 >/dev/null || skip "python3 is not installed"
	late_loadfile late.txt
	run_db -B null -c late.txt --run-once --percentiles=25,75 \
		--json r.json 1
	assert_clean_run
	assert_grep "^Response time from when each op was due \(the loadfile's timestamps\), in ms:$" \
		"$W/out" "response table title"
	assert_grep '^Operation +Count +AvgResp +MaxResp +p25 +p75$' \
		"$W/out" "response table header"
	assert_grep '^Qfsinfo +20 +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3}$' \
		"$W/out" "response row"
	# every op has a response time; the ten late ones (>= 0.4 s) are
	# the upper half, the first ten the lower
	python3 - r.json <<'PY' || fail "response figures: $(json_field r.json 'd["operations"]')"
import json, sys
op = json.load(open(sys.argv[1]))["operations"][0]
r = op["response"]
svc = {p["percentile"]: p["ms"] for p in op["percentiles"]}
resp = {p["percentile"]: p["ms"] for p in r["percentiles"]}
assert op["name"] == "Qfsinfo" and op["count"] == 20, op
assert r["count"] == 20, r
assert r["max_ms"] >= 490, r
assert resp[75] >= 400, resp
assert resp[25] < 400, resp
assert svc[75] < 100 and op["max_ms"] < 400, svc
assert r["avg_ms"] >= 200, r
PY
}

# Without a schedule: no response time anywhere.
unscheduled() {
	command -v python3 >/dev/null || skip "python3 is not installed"
	run_db -B null -c "$DATA/basic.txt" --run-once --json r.json 1
	assert_clean_run
	assert_no_grep 'Response time|AvgResp' "$W/out" "no response table"
	assert_eq "0" "$(json_field r.json \
		'sum("response" in o for o in d["operations"])')" \
		"operations with a response"
}

# -R paces the ops: a schedule too, named as such.
paced() {
	command -v python3 >/dev/null || skip "python3 is not installed"
	run_db -B null -c "$DATA/basic.txt" --run-once -R 100 --json r.json 1
	assert_clean_run
	assert_grep '^Response time from when each op was due \(the -R pace\), in ms:$' \
		"$W/out" "response table title"
	assert_eq "True" "$(json_field r.json \
		'all(o["response"]["count"] == o["count"] for o in d["operations"] if o["count"])')" \
		"every op's response count"
}

check "late ops: response time from when due, service time apart" late_ops
check "no schedule: no response time" unscheduled
check "-R: response time from the pace" paced
finish
