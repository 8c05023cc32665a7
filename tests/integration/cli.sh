#!/bin/bash
# cli.sh - the command line: --version, --help, and usage errors (exit 2,
# one "dbench: ..." line on stderr, nothing created in the target dir).
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"

LF=$DATA/basic.txt

version() {
	run_db --version
	assert_rc 0
	assert_grep '^dbench' "$W/out" "--version names the program"
	assert_grep '[0-9]+\.[0-9]+' "$W/out" "--version gives a version number"
	run_db -V
	assert_rc 0
	assert_grep '^dbench.*[0-9]+\.[0-9]+' "$W/out" "-V"
	assert_eq "dbench $(sed -n 's/^AC_INIT(\[dbench\], *\[\([^]]*\)\].*/\1/p' \
		"$SRCDIR/configure.ac")" "$(head -n 1 "$W/out")" \
		"-V's first line: the version alone, as scripts read it"
	assert_eq "features:" "$(sed -n 2p "$W/out")" "-V's feature list"
	# the history's line agrees with what --label does
	if "$DBENCH" -B null --label "" 1 2>&1 | grep -q 'built without SQLite'; then
		assert_grep '^  history +no +--label saves runs: built without SQLite' \
			"$W/out" "-V: the history not built"
		run_db --help
		assert_grep '^ +--label=NAME ' "$W/out" "--help lists --label"
		assert_grep '\(not built: no SQLite' "$W/out" \
			"--help marks --label"
	else
		assert_grep '^  history +yes +--label saves runs$' "$W/out" \
			"-V: the history built"
	fi
	for f in smb nfs iscsi blkid; do
		assert_grep "^  $f +(yes|no) " "$W/out" "-V: $f"
	done
}

help() {
	local opt
	run_db --help
	assert_rc 0
	for opt in -t -c -D -B -s -S -F -x -R --timelimit --loadfile \
		--directory --backend --run-once --warmup --skip-cleanup \
		--clients-per-process --machine-readable --per-client-results \
		--show-execute-time --strict --keep-going; do
		grep -Eq -- "(^|[^-A-Za-z])$opt\\b" "$W/out" ||
			fail "--help: expected it to list $opt, it does not"
	done
	# -t is the execute phase; the warmup comes on top
	assert_no_grep 'warmup included' "$W/out" "--help: -t's old, wrong text"
	# popt wraps the help at a width that depends on the longest option:
	# read it with the wrapping undone
	tr -s ' \n' '  ' <"$W/out" >"$W/help.flat"
	assert_grep '--timelimit=SECS seconds of the execute phase, after the warmup \(600\)' "$W/help.flat" "--help: -t's text"
	assert_grep '--output-dialect=4.00\|5.0' "$W/out" "--help: --output-dialect"
	assert_grep '--clients-per-process=K K clients in each of the NUMCLIENTS' "$W/help.flat" "--help: --clients-per-process"
	run_db '-?'
	assert_rc 0
	assert_grep '--run-once' "$W/out" "-? lists the options"
	run_db --usage
	assert_rc 0
	[ -s "$W/out" ] || fail "--usage: expected text on stdout, found none"
}

# usage_error [DBENCH ARGS...]: the run is refused with exit 2, one line
# on stderr starting "dbench: ", and the (empty) target dir t stays empty.
# Callers create $W/t first unless they test -D itself.  RUN_DB is the
# function that runs dbench (run_db_unprivileged for permission checks).
RUN_DB=run_db
usage_error() {
	local before after
	before=$(cd "$W" && find . | grep -Ev '^\./(out|err)$' | sort)
	"$RUN_DB" "$@"
	assert_usage_error
	[ -d "$W/t" ] && assert_empty_dir "$W/t" "target directory"
	after=$(cd "$W" && find . | grep -Ev '^\./(out|err)$' | sort)
	[ "$before" = "$after" ] ||
		fail "files appeared in the working directory: $(diff <(echo "$before") <(echo "$after") | grep '^>' | tr '\n' ' ')"
	return 0
}

zero_clients() { mkdir t; usage_error --run-once -c "$LF" -D "$W/t" 0; }
negative_clients() { mkdir t; usage_error --run-once -c "$LF" -D "$W/t" -- -1; }
alpha_clients() { mkdir t; usage_error --run-once -c "$LF" -D "$W/t" abc; }
trailing_clients() { mkdir t; usage_error --run-once -c "$LF" -D "$W/t" 2x; }
no_clients() { mkdir t; usage_error --run-once -c "$LF" -D "$W/t"; }
two_numbers() { mkdir t; usage_error --run-once -c "$LF" -D "$W/t" 1 2; }
t_alpha() { mkdir t; usage_error -t abc -c "$LF" -D "$W/t" 1; }
t_negative() { mkdir t; usage_error -t -5 -c "$LF" -D "$W/t" 1; }
unknown_option() {
	mkdir t
	usage_error --no-such-option --run-once -c "$LF" -D "$W/t" 1
	assert_grep 'no-such-option' "$W/err" "message names the option"
}

# A mistyped --smb-user=USER%PASSWORD: the option is named, the password
# after the '%' is not.
unknown_option_masked() {
	mkdir t
	usage_error --smb-usr=user%Secret --run-once -c "$LF" -D "$W/t" 1
	assert_grep '^dbench: --smb-usr=user%\*\*\*: unknown option \(try --help\)$' \
		"$W/err" "message names the option, masked"
	assert_no_grep 'Secret' "$W/err" "stderr"
}

missing_loadfile() {
	mkdir t
	usage_error --run-once -c "$W/nosuch.txt" -D "$W/t" 1
	assert_grep 'nosuch\.txt' "$W/err" "message names the loadfile"
}

# (as root, run as uid 65534: root reads every file)
unreadable_loadfile() {
	mkdir t
	chmod 777 t
	cp "$LF" lf.txt
	chmod 000 lf.txt
	RUN_DB=run_db_unprivileged usage_error --run-once -c "$W/lf.txt" -D "$W/t" 1
	assert_grep 'lf\.txt' "$W/err" "message names the loadfile"
}

loadfile_is_dir() {
	mkdir t lfdir
	usage_error --run-once -c "$W/lfdir" -D "$W/t" 1
}

parse_error() {
	mkdir t
	printf 'Deltree "\\clients\\client1" NT_STATUS_OK\nMkdir "\\clients" NT_STATUS_OK\nFrobnicate "\\clients\\client1\\x" NT_STATUS_OK\n' >lf-parse.txt
	usage_error --run-once -c "$W/lf-parse.txt" -D "$W/t" 1
	assert_grep 'lf-parse\.txt:3\b' "$W/err" "message has file:line"
}

dir_missing() {
	usage_error --run-once -c "$LF" -D "$W/nosuchdir" 1
	[ -e "$W/nosuchdir" ] && fail "-D nosuchdir: expected it not to be created, it was"
	assert_grep 'nosuchdir' "$W/err" "message names the directory"
}

dir_is_file() {
	echo data >plain
	usage_error --run-once -c "$LF" -D "$W/plain" 1
	assert_eq "data" "$(cat plain)" "the regular file given to -D"
}

# (as root, run as uid 65534: root writes in every directory)
dir_unwritable() {
	mkdir t
	chmod 555 t
	cp "$LF" lf.txt
	chmod 644 lf.txt
	RUN_DB=run_db_unprivileged usage_error --run-once -c "$W/lf.txt" -D "$W/t" 1
	assert_grep "$W/t" "$W/err" "message names the directory"
	chmod 755 t
}

second_dir_missing() {
	mkdir t
	usage_error --run-once -c "$LF" -D "$W/t,$W/nosuchdir" 2
}

backend_unknown() {
	mkdir t
	usage_error --run-once -B nosuch -c "$LF" -D "$W/t" 1
	assert_grep 'fileio' "$W/err" "message lists the fileio backend"
	assert_grep 'null' "$W/err" "message lists the null backend"
}

# --help, the unknown-backend error, dbench(1) and doc/GUIDE.md name the
# same backends
# (the registry's), each unavailable one with its reason
backend_lists() {
	local help_list err_list names name para
	run_db --help
	assert_rc 0
	help_list=$(awk '/^  -B, --backend=NAME/ { on = 1 }
		on && /^  -/ && !/--backend/ { exit }
		on { sub(/^.*--backend=NAME */, ""); sub(/^ */, ""); printf "%s ", $0 }' \
		"$W/out" | sed 's/^backend: //; s/ *$//')
	[ -n "$help_list" ] || fail "--help: no backend list on -B's line"
	mkdir t
	usage_error --run-once -B nosuch -c "$LF" -D "$W/t" 1
	err_list=$(sed -n "s/^dbench: unknown backend 'nosuch'; the backends: //p" \
		"$W/err")
	[ "$help_list" = "$err_list" ] ||
		fail "--help lists '$help_list', the error '$err_list'"
	names=$(printf '%s\n' "$err_list" |
		sed 's/ ([^)]*)//g; s/,//g')
	[ "$(echo "$names" | wc -w)" -ge 6 ] ||
		fail "expected the registry's six backends, found '$names'"
	para=$(awk '/^\.BR \\-B ", " \\-\\-backend/ { on = 1; next }
		on && /^\.TP/ { exit } on' "$SRCDIR/doc/dbench.1")
	for name in $names; do
		printf '%s\n' "$para" | grep -qx "\.B $name" ||
			fail "dbench.1's -B does not describe backend $name"
		grep -q "^| \`$name\`" "$SRCDIR/doc/GUIDE.md" ||
			fail "doc/GUIDE.md's table of backends lacks $name"
	done
}

# dbench(1)'s SEE ALSO names every installed program and page (the man
# pages Makefile.am installs), and man formats it without a warning
man_page() {
	local page name sect seealso warn
	seealso=$(sed -n '/^\.SH SEE ALSO/,/^\.SH [^S]/p' "$SRCDIR/doc/dbench.1")
	for page in $(sed -n '/^dist_man_MANS *+*=/,/[^\\]$/p' "$SRCDIR/Makefile.am" |
		grep -o 'doc/[A-Za-z_.-]*\.[1-8]'); do
		name=$(basename "$page")
		sect=${name##*.}
		name=${name%.*}
		[ "$name" = dbench ] && continue
		printf '%s\n' "$seealso" |
			grep -qxF ".BR ${name//-/\\-} ($sect)," ||
			printf '%s\n' "$seealso" |
			grep -qxF ".BR ${name//-/\\-} ($sect)" ||
			fail "dbench(1)'s SEE ALSO does not name $name($sect)"
	done
	command -v man >/dev/null 2>&1 || skip "no man(1) here"
	warn=$(MANWIDTH=80 man --warnings -l "$SRCDIR/doc/dbench.1" 2>&1 >/dev/null)
	[ -z "$warn" ] || fail "man warns about dbench.1: $warn"
}

# README's Quick start says the default loadfile is not 4.00's and how to
# keep a series comparable with 4.00's numbers; README stays short
readme_quick_start() {
	local qs
	qs=$(sed -n '/^Quick start$/,/^Install$/p' "$SRCDIR/README" | tr '\n' ' ')
	printf '%s\n' "$qs" | grep -q "not 4\.00's" ||
		fail "README's Quick start does not say the default loadfile is not 4.00's"
	printf '%s\n' "$qs" | grep -qF -- "-c /usr/share/dbench/client.txt" ||
		fail "README's Quick start does not give -c /usr/share/dbench/client.txt"
	[ "$(wc -l <"$SRCDIR/README")" -lt 300 ] || fail "README has 300 lines or more"
}

cpp_zero() { mkdir t; usage_error --run-once --clients-per-process 0 -c "$LF" -D "$W/t" 2; }
cpp_alpha() { mkdir t; usage_error --run-once --clients-per-process x -c "$LF" -D "$W/t" 2; }
# NUMCLIENTS x K over the limit
cpp_product() {
	mkdir t
	usage_error --run-once --clients-per-process 1000 -c "$LF" -D "$W/t" 101
	assert_grep '^dbench: 101000 clients in 101 processes of 1000 \(--clients-per-process\) are more than 100000 clients$' "$W/err" "the message"
}
rate_negative() { mkdir t; usage_error --run-once -R -1 -c "$LF" -D "$W/t" 1; }
rate_alpha() { mkdir t; usage_error --run-once -R fast -c "$LF" -D "$W/t" 1; }
warmup_negative() { mkdir t; usage_error --warmup -1 -t 5 -c "$LF" -D "$W/t" 1; }

# The accepted spellings really are accepted (exit 0).
accepted_options() {
	mkdir t
	run_db --run-once -t 60 --loadfile="$LF" --directory="$W/t" --backend=fileio \
		--stagger 1 1
	assert_rc 0
	assert_empty_dir "$W/t" "target directory after the run"
}

# -T is the socket backend's (tbench): with fileio (which has no sockets)
# it is refused, not silently ignored.
# SO_SNDLOWAT: Linux never lets it be set: refused before any connection
# (no server runs here), naming it.
tcp_sndlowat_refused() {
	mkdir t
	usage_error --run-once -B sockio -T SO_SNDLOWAT=1 1
	assert_grep '^dbench: --tcp-options: SO_SNDLOWAT cannot be set on Linux' \
		"$W/err" "message names the option"
	LAST_CMD="tbench_srv -t so_sndlowat=1"
	timeout -k 5 "$IT_TIMEOUT" "$(dirname "$DBENCH")/tbench_srv" \
		--address 127.0.0.1 -t so_sndlowat=1 >"$W/out" 2>"$W/err" </dev/null
	RC=$?
	assert_rc 2
	assert_grep '^tbench_srv: -t: SO_SNDLOWAT cannot be set on Linux' \
		"$W/err" "tbench_srv's message"
}

tcp_options_refused() {
	mkdir t
	usage_error --run-once --loadfile="$LF" --directory="$W/t" --backend=fileio \
		-T TCP_NODELAY 1
	assert_grep "^dbench: --tcp-options applies to the socket backend \(tbench\) only, not to backend 'fileio'\$" \
		"$W/err" "message names the socket backend and the selected one"
	usage_error --run-once -c "$LF" -D "$W/t" --tcp-options=SO_SNDBUF=1000 1
	assert_grep "not to backend 'fileio'" "$W/err" "--tcp-options, default backend"
	usage_error --run-once -c "$LF" -D "$W/t" -B null -T TCP_NODELAY 1
	assert_grep "not to backend 'null'" "$W/err" "-T with the null backend"
	usage_error --disk-test -D "$W/t" -T TCP_NODELAY
	assert_grep "^dbench: --tcp-options applies to the socket backend \(tbench\) only, not to --disk-test\$" \
		"$W/err" "-T with --disk-test"
}

check "--version: exit 0, names dbench and a version; -V lists the features built (the history as --label behaves)" version
check "--help: exit 0, lists the options" help
check "0 clients: usage error" zero_clients
check "-1 clients: usage error" negative_clients
check "'abc' clients: usage error" alpha_clients
check "'2x' clients: usage error" trailing_clients
check "no client count: usage error" no_clients
check "two client counts: usage error" two_numbers
check "-t abc: usage error" t_alpha
check "-t -5: usage error" t_negative
check "unknown option: usage error naming it" unknown_option
check "unknown option with USER%PASSWORD: the password is masked" unknown_option_masked
check "missing loadfile: usage error naming it" missing_loadfile
check "unreadable loadfile: usage error" unreadable_loadfile
check "loadfile is a directory: usage error" loadfile_is_dir
check "loadfile parse error: usage error with file:line" parse_error
check "-D nonexistent: usage error, not created" dir_missing
check "-D a regular file: usage error, file untouched" dir_is_file
check "-D unwritable: usage error" dir_unwritable
check "-D ok,nonexistent: usage error" second_dir_missing
check "-B nosuch: usage error listing fileio and null" backend_unknown
check "--help, the -B error and dbench(1) list the same backends" backend_lists
check "dbench(1): SEE ALSO names every installed page; man has no warning" man_page
check "README's Quick start: the default loadfile is not 4.00's; -c for 4.00's" readme_quick_start
check "--clients-per-process 0: usage error" cpp_zero
check "--clients-per-process x: usage error" cpp_alpha
check "--clients-per-process 1000 with 101: over 100000 clients" cpp_product
check "-R -1: usage error" rate_negative
check "-R fast: usage error" rate_alpha
check "--warmup -1: usage error" warmup_negative
check "long forms, --stagger: accepted" accepted_options
check "-T without a socket backend: usage error naming tbench" tcp_options_refused
check "-T SO_SNDLOWAT: usage error naming it, before connecting" tcp_sndlowat_refused
finish
