#!/bin/bash
# capture.sh - dbench-capture turns real workloads into loadfiles that
# replay them: known programs run under strace (tar, cp -r, make, git) and
# ls -R lists entries it never names in a call (it needs no stat):
# --prepare must still create them, from strace -v's listing or from the
# disk (the directories are as the trace left them).
listing_only() {
	need_strace
	mkdir lsroot
	make_tree lsroot/t
	echo hidden >lsroot/t/.hidden
	mkdir lsroot/t/.hiddendir
	head -c 3000 /dev/urandom >lsroot/t/sub/.dot
	capture_run "ls -R" "$W/lsroot" ls -R lsroot
	assert_grep '^NTCreateX "\\clients\\client1\\t\\.hidden" 0x40 0x2' \
		"$W/my.txt" "ls -R: an entry no call named is prepared"
	STRACE_EXTRA=-v capture_run "ls -R (strace -v)" "$W/lsroot" ls -R lsroot
}

# The hand-written trace data/capture-formats.tr (two processes, a
# call split in unfinished/resumed halves, dup2, fork-shared offsets,
# O_APPEND, locks, failures) in the formats strace can write: every form
# gives the same ops, the expected ones (data/capture-formats.txt).
formats_trace() {
	mkdir r
	sed "s#/R#$W/r#g" "$DATA/capture-formats.tr" >y.tr
}

ops_of() {
	grep -v '^#' "$1"
}

format_variants() {
	need python3
	formats_trace
	# without -y
	sed 's#</[^>]*>##g' y.tr >noy.tr
	# with -T
	awk '/\) += / { print $0 " <0.000012>"; next } { print }' y.tr >T.tr
	# -tt times and [pid N] prefixes (strace's stderr form)
	awk '{ $1 = "[pid " $1 "]"; split($2, t, "."); if (t[2] != "")
		$2 = sprintf("10:00:%02d.%s", t[1], t[2]); print }' y.tr >tt.tr
	# -f without timestamps
	awk '{ $2 = ""; print }' y.tr >nots.tr
	"$CAPTURE" --root "$W/r" -o y.txt y.tr 2>y.err ||
		{ cat y.err; fail "the -y trace was refused"; }
	ops_of y.txt >want.ops
	ops_of "$DATA/capture-formats.txt" >golden.ops
	assert_same_lines golden.ops want.ops "ops of the hand-written trace"
	for v in noy T tt nots; do
		"$CAPTURE" --root "$W/r" --cwd "$W/r" -o $v.txt $v.tr 2>$v.err ||
			{ cat $v.err; fail "variant $v was refused"; }
		ops_of $v.txt >$v.ops
		assert_same_lines want.ops $v.ops "ops of the $v variant"
	done
}

# The replay of the hand-written trace leaves the tree the trace implies.
format_replay() {
	need python3
	formats_trace
	"$CAPTURE" --root "$W/r" -o y.txt y.tr 2>y.err || fail "refused"
	mkdir -p tree/out
	head -c 8001 /dev/zero >tree/in.dat
	head -c 5 /dev/zero >tree/child.txt
	replay_check "$W/y.txt" "$W/y.err" "$W/tree" "hand-written trace"
	assert_grep 'dropped 1: a name the loadfile cannot spell' y.err \
		"the name with a double quote is reported"
	assert_grep 'dropped 1: end of a directory listing' y.err \
		"the empty getdents64 is reported"
}

format_timed() {
	need python3
	formats_trace
	"$CAPTURE" --timed --root "$W/r" -o t.txt y.tr 2>t.err ||
		{ cat t.err; fail "refused"; }
	assert_grep '^0\.000000 Deltree ' t.txt "prepare at time 0"
	assert_grep '^0\.000200 ReadX 1 0 4096 4096 NT_STATUS_OK$' t.txt \
		"a read at its time since the first call"
	assert_grep '^0\.003500 Unlink ' t.txt "the last op at its time"
	mkdir -p tree/out
	head -c 8001 /dev/zero >tree/in.dat
	head -c 5 /dev/zero >tree/child.txt
	replay_check "$W/t.txt" "$W/t.err" "$W/tree" "timed"
}

format_per_process() {
	need python3
	formats_trace
	"$CAPTURE" --per-process --root "$W/r" -o p y.tr 2>p.err ||
		{ cat p.err; fail "refused"; }
	[ -f p-1.txt ] && [ -f p-2.txt ] && [ ! -e p-3.txt ] ||
		fail "--per-process: expected p-1.txt and p-2.txt"
	assert_grep '^NTCreateX "\\clients\\client1\\child.txt"' p-2.txt \
		"the child's own open is in the child's loadfile"
	assert_no_grep 'child.txt' p-1.txt "the parent's loadfile"
	assert_grep 'dropped 1: descriptor of another process' p.err \
		"the child's read of its parent's descriptor is dropped"
	mkdir replay
	run_db --run-once --skip-cleanup -c "$W/p-1.txt,$W/p-2.txt" \
		-D "$W/replay" 2
	assert_clean_run "per-process replay"
	[ -f replay/clients/client1/child.txt ] ||
		fail "client 1 did not run the child's loadfile"
}

format_summary() {
	need python3
	"$CAPTURE" --summary "$DATA/capture-formats.txt" >sum.out 2>sum.err ||
		{ cat sum.err; fail "--summary of a loadfile failed"; }
	assert_grep '^bytes read: *5146$' sum.out "bytes read"
	assert_grep '^bytes written: *4113$' sum.out "bytes written"
	assert_grep '^  NTCreateX  *7 ' sum.out "NTCreateX in the op mix"
	assert_grep '^read sizes:$' sum.out "the read size distribution"
	sed -n '/^read sizes:$/,/^$/p' sum.out >reads.out
	assert_grep '^  <= 64 B  *1$' reads.out "a read of 50 bytes"
	assert_grep '^  <= 1 KiB  *1$' reads.out "a read of 1000 bytes"
	assert_grep '^  <= 4 KiB  *1$' reads.out "a read of 4096 bytes"
	assert_grep '^file sizes' sum.out "the file size distribution"
	formats_trace
	"$CAPTURE" --summary --root "$W/r" y.tr >tsum.out 2>tsum.err ||
		{ cat tsum.err; fail "--summary of a trace failed"; }
	assert_grep '^  ReadX  *3 ' tsum.out "ReadX in the trace's op mix"
	assert_grep '^bytes read: *5146$' tsum.out "bytes read of the trace"
}

# smbclient against a private smbd (captured with tcpdump), each converted,
# replayed once with the fileio backend, and the replay must leave the same
# files with the same sizes as the program did, run exactly one op per
# call the converter kept, and have no status mismatch.  Bad input fails
# with the trace's line number.  Checks needing a missing tool skip.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"

# the command make zips from src/capture (beside the dbench under test)
CAPTURE=${CAPTURE:-$(dirname "$DBENCH")/dbench-capture}

need_capture() {
	[ -x "$CAPTURE" ] ||
		skip "dbench-capture not built ($CAPTURE; configure found no python3)"
}

need() {
	local t
	for t in "$@"; do
		command -v "$t" >/dev/null 2>&1 || skip "$t is not installed"
	done
	need_capture
}

need_strace() {
	need strace python3
	strace -f -o /dev/null true 2>/dev/null ||
		skip "strace cannot trace here (ptrace not permitted)"
}

# expected_counts ERRFILE: the converter's reported ops and prepare ops as
# "TableName count" lines, sorted (the names the op table prints).
expected_counts() {
	sed -n 's/^dbench-capture: \(ops\|prepare\): //p' "$1" | tr ' ' '\n' |
		awk -F= '
		BEGIN {
			m["QUERY_PATH_INFORMATION"] = "Qpathinfo"
			m["QUERY_FILE_INFORMATION"] = "Qfileinfo"
			m["QUERY_FS_INFORMATION"] = "Qfsinfo"
			m["SET_FILE_INFORMATION"] = "Sfileinfo"
			m["FIND_FIRST"] = "Find"
		}
		NF == 2 { n[($1 in m) ? m[$1] : $1] += $2 }
		END { for (k in n) print k, n[k] }' | sort
}

# replay_check LOADFILE ERRFILE TREEDIR WHAT: replay LOADFILE once under
# --strict; the op table must match the converter's counts, nothing may
# mismatch, and the client's tree must equal TREEDIR (names, types, file
# sizes).
replay_check() {
	local lf=$1 errf=$2 tree=$3 what=$4 kept ops extra
	rm -rf "$W/replay" && mkdir "$W/replay"
	run_db --run-once --strict --skip-cleanup -c "$lf" -D "$W/replay" 1
	assert_clean_run "$what replay"
	expected_counts "$errf" >"$W/expected.counts"
	assert_counts "$W/expected.counts" "$what: replayed ops vs kept calls"
	kept=$(sed -n 's/.*; \([0-9]*\) calls kept as \([0-9]*\) ops;.*/\1 \2/p' "$errf")
	[ -n "$kept" ] || fail "$what: no 'calls kept' line in the report"
	ops=${kept#* }
	kept=${kept% *}
	[ "$kept" -gt 0 ] || fail "$what: no call kept"
	# every kept call is one op, but for the calls the report names
	# (copy_file_range, sendfile: two; chmod by name: three)
	extra=$(sed -n 's/^dbench-capture: ops beyond one per call: //p' "$errf" |
		tr ' ' '\n' | awk -F= 'NF == 2 { n += $2 } END { print n + 0 }')
	assert_eq "$ops" "$((kept + extra))" "$what: ops per kept call"
	tree_listing "$tree" >"$W/want.tree"
	tree_listing "$W/replay/clients/client0" >"$W/got.tree"
	assert_same_lines "$W/want.tree" "$W/got.tree" "$what: replayed tree"
}

# capture_run WHAT ROOT CMD...: run CMD under strace, convert with
# --root ROOT, replay, compare.
capture_run() {
	local what=$1 root=$2
	shift 2
	# shellcheck disable=SC2086 # STRACE_EXTRA: more strace options
	strace -f -ttt -y $STRACE_EXTRA -o "$W/trace" "$@" >"$W/cmd.out" 2>&1 ||
		{ cat "$W/cmd.out"; fail "$what: the traced command failed"; }
	"$CAPTURE" --root "$root" -o "$W/my.txt" "$W/trace" 2>"$W/capture.err" ||
		{ cat "$W/capture.err"; fail "$what: dbench-capture failed"; }
	replay_check "$W/my.txt" "$W/capture.err" "$root" "$what"
}

# make_tree DIR: a small tree of files of several sizes.
make_tree() {
	local d=$1 i
	mkdir -p "$d/sub/deeper" "$d/empty"
	for i in 1 2 3 4 5; do
		head -c $((i * 7919)) /dev/urandom >"$d/file$i"
	done
	head -c 200000 /dev/urandom >"$d/sub/big"
	: >"$d/sub/zero"
	echo hello >"$d/sub/deeper/hello.txt"
}

tar_extract() {
	need_strace
	need tar
	make_tree src
	tar -cf a.tar src
	mkdir extracted
	capture_run "tar -xf" "$W/extracted" tar -xf a.tar -C extracted
}

cp_recursive() {
	need_strace
	mkdir root
	make_tree root/src
	capture_run "cp -r" "$W/root" cp -r root/src root/dst
	assert_grep 'NTCreateX "\\clients\\client1\\src\\sub\\big" 0x40 0x2' \
		"$W/my.txt" "cp -r: the source tree is prepared"
}

make_project() {
	need_strace
	need make cc
	local i
	mkdir proj
	for i in 1 2 3; do
		printf 'int f%d(void) { return %d; }\n' "$i" "$i" >"proj/f$i.c"
	done
	printf 'int f1(void); int f2(void); int f3(void);\n' >proj/main.c
	printf 'int main(void) { return f1() + f2() + f3() - 6; }\n' >>proj/main.c
	printf 'prog: main.o f1.o f2.o f3.o\n\t$(CC) -o $@ $^\n' >proj/Makefile
	capture_run "make" "$W/proj" make -C proj
	[ -x proj/prog ] || fail "make: no program built"
}

git_commit() {
	need_strace
	need git
	mkdir repo
	make_tree repo
	capture_run "git" "$W/repo" sh -c 'cd repo && git init -q . &&
		git add . && git -c user.name=t -c user.email=t@t commit -qm t'
}

# pcap_settle FILE: wait (up to 20 s) until FILE has kept its size for 1 s.
pcap_settle() {
	local last=-1 size same=0 i
	for i in $(seq 1 100); do
		size=$(stat -c %s "$1" 2>/dev/null || echo 0)
		if [ "$size" = "$last" ]; then
			same=$((same + 1))
			[ "$same" -ge 5 ] && return 0
		else
			same=0
		fi
		last=$size
		sleep 0.2
	done
}

# smbclient against a private smbd, captured with tcpdump on lo: put,
# get, ls, rename, del, mkdir, rmdir on a share holding files from before
# the capture (which --prepare must recreate).
# smb_share_reset: the share as it is before each capture attempt.
smb_share_reset() {
	rm -rf "${SMBD_SHARE:?}"/* local
	mkdir -p local "$SMBD_SHARE/old/deep"
	head -c 150000 /dev/urandom >local/big
	echo small >local/small
	head -c 12345 /dev/urandom >"$SMBD_SHARE/old/deep/before"
	echo x >"$SMBD_SHARE/old/kept"
}

# smb_capture_once: the smbclient session, captured into smb.pcap.
# Returns 1 if tcpdump lost packets (the machine was too busy).
smb_capture_once() {
	local i
	smb_share_reset
	# a 64 KiB snapshot (lo's MTU) and a 32 MiB buffer: with the default
	# 256 KiB snapshot, 2 MiB holds only 8 packets
	tcpdump -i lo -s 65600 -B 32768 -U --immediate-mode -w smb.pcap \
		"tcp port $SMBD_PORT" 2>tcpdump.err &
	td=$!
	for i in $(seq 1 100); do
		grep -q listening tcpdump.err && break
		sleep 0.1
	done
	grep -q listening tcpdump.err ||
		{ kill "$td"; skip "tcpdump cannot capture on lo here"; }
	smbd_client 'mkdir d; cd d; lcd local; put big; put small;
		get big big.back; ls; rename small renamed; put small gone;
		del gone; cd ..; mkdir e; mkdir e/f; rmdir e/f;
		get old/deep/before before.back; ls old/*' >smbclient.out 2>&1 ||
		{ kill -INT "$td"; cat smbclient.out; fail "smbclient failed"; }
	# let tcpdump write the last packets before it stops: wait until the
	# capture has not grown for a second (a loaded machine delays it)
	pcap_settle smb.pcap
	kill -INT "$td"
	wait "$td"
	td=
	grep -q '^0 packets dropped by kernel' tcpdump.err
}

smb_client() {
	local rc try td
	need python3 tshark tcpdump smbclient
	. "$IT_DIR/lib_smbd.sh"
	td=
	trap '[ -z "$td" ] || kill "$td" 2>/dev/null; smbd_stop' EXIT
	smbd_start "$W/srv" >smbd.msg
	rc=$?
	[ "$rc" -eq 77 ] && skip "$(cat smbd.msg)"
	[ "$rc" -eq 0 ] || { cat smbd.msg; fail "smbd did not start"; }
	for try in 1 2 3; do
		smb_capture_once && break
		note "attempt $try: tcpdump lost packets: $(tail -n 1 tcpdump.err)"
		[ "$try" -lt 3 ] || fail "tcpdump lost packets three times"
	done
	smbd_stop
	"$CAPTURE" --pcap --port "$SMBD_PORT" -o my.txt smb.pcap \
		2>capture.err || { cat capture.err; fail "dbench-capture failed"; }
	show_file capture.err "dbench-capture's report"
	show_file tcpdump.err "tcpdump"
	assert_grep '^NTCreateX "\\clients\\client1\\old\\deep\\before" 0x40 0x2' \
		my.txt "the file from before the capture is prepared"
	assert_grep '^Rename ' my.txt "the rename is in the loadfile"
	assert_grep '^Unlink ' my.txt "the delete is in the loadfile"
	replay_check "$W/my.txt" "$W/capture.err" "$SMBD_SHARE" "smbclient"
	"$CAPTURE" --summary --pcap --port "$SMBD_PORT" smb.pcap >sum.out ||
		fail "--summary of the capture failed"
	assert_grep '^bytes written: *150012$' sum.out \
		"bytes the client wrote (150000 + 6 + 6)"
	assert_grep '^  Rename  *1 ' sum.out "the rename in the op mix"
}

# Bad input: a message with the line number, exit status 1, no loadfile.
bad_input() {
	local input=$1 want=$2 what=$3
	printf '%s' "$input" >bad.tr
	"$CAPTURE" --root "$W" -o bad.txt bad.tr 2>bad.err
	RC=$?
	assert_rc 1
	assert_grep "$want" bad.err "$what"
	[ ! -e bad.txt ] || fail "$what: a loadfile was written anyway"
}

bad_truncated_line() {
	need python3
	bad_input '1 1.0 openat(AT_FDCWD, "x", O_RDONLY) = 3
1 1.1 read(3, "ab"..., 10' 'line 2: .*truncated' "cut-off last line"
}

bad_unfinished() {
	need python3
	bad_input '1 1.0 openat(AT_FDCWD, "x", O_RDONLY) = 3
1 1.1 read(3,  <unfinished ...>
' 'line 2: read of process 1 never finished' "unfinished call at the end"
}

bad_cut_at_line_end() {
	need python3
	bad_input '1 1.0 openat(AT_FDCWD, "x", O_RDONLY) = 3
1 1.1 close(3) = 0
' 'line 2: the trace ends before process 1 exited' "trace cut between lines"
}

bad_not_strace() {
	need python3
	bad_input 'hello world
this is not a trace
' 'line 1: not an strace line' "non-strace file"
}

bad_unknown_syscall() {
	need python3
	bad_input '1 1.0 openat(AT_FDCWD, "x", O_RDONLY) = 3
1 1.1 frobnicate(3, 7) = 0
1 1.2 +++ exited with 0 +++
' 'line 2: unknown system call frobnicate' "unknown syscall"
}

# --port outside 1..65535: a usage error, one line naming it.
bad_port() {
	need python3
	printf '1 1.0 +++ exited with 0 +++\n' >ok.tr
	for port in 0 65536 -1; do
		"$CAPTURE" --pcap --port "$port" -o out.txt ok.tr 2>bad.err
		RC=$?
		assert_rc 2
		assert_eq 1 "$(wc -l <bad.err)" "--port $port: lines on stderr"
		assert_grep "^dbench-capture: --port $port: not a TCP port number from 1 to 65535\$" \
			bad.err "--port $port: the message"
		[ ! -e out.txt ] || fail "--port $port: a loadfile was written"
	done
}

# strict_replay LOADFILE WHAT: one --strict pass of LOADFILE, clean.
strict_replay() {
	rm -rf "$W/replay" && mkdir "$W/replay"
	run_db --run-once --strict --skip-cleanup -c "$1" -D "$W/replay" 1
	assert_clean_run "$2 replay"
}

# A sparse file of 1 PiB read at two places far into it, once after an
# lseek to 10^15: --prepare writes the bytes read and one at the end (for
# the size), not a PiB of WriteX lines.
sparse_read() {
	need python3
	local size=1125899906842624
	mkdir r
	cat >s.tr <<EOF
100 1.000000 openat(AT_FDCWD</R>, "big", O_RDONLY) = 3</R/big>
100 1.000100 fstat(3</R/big>, {st_mode=S_IFREG|0644, st_size=$size, ...}) = 0
100 1.000200 pread64(3</R/big>, "\\0\\0"..., 4096, $((size - 8192))) = 4096
100 1.000300 lseek(3</R/big>, 1000000000000000, SEEK_SET) = 1000000000000000
100 1.000400 read(3</R/big>, "\\0\\0"..., 65536) = 65536
100 1.000500 close(3</R/big>) = 0
100 1.000600 exit_group(0) = ?
100 1.000700 +++ exited with 0 +++
EOF
	sed -i "s#/R#$W/r#g" s.tr
	timeout 60 "$CAPTURE" --root "$W/r" -o s.txt s.tr 2>s.err || { cat s.err; fail "refused (or over 60 s)"; }
	[ "$(stat -c %s s.txt)" -lt 4096 ] || fail "the loadfile has $(stat -c %s s.txt) bytes"
	assert_grep "^WriteX 1 $((size - 8192)) 4096 4096 NT_STATUS_OK\$" s.txt "the range read at the end"
	assert_grep '^WriteX 1 1000000000000000 65536 65536 NT_STATUS_OK$' s.txt "the range read after the lseek"
	assert_grep "^WriteX 1 $((size - 1)) 1 1 NT_STATUS_OK\$" s.txt "the size"
	[ "$(grep -c '^WriteX' s.txt)" -eq 3 ] || fail "expected 3 WriteX lines, found $(grep -c '^WriteX' s.txt)"
	strict_replay "$W/s.txt" "sparse"
	assert_eq "$size" "$(stat -c %s "$W/replay/clients/client0/big")" "the replayed file's size"
	# 300 MiB read of a file that was there: --prepare writes 256 MiB
	# of it and says so (the loadfile only: no replay of it here)
	cat >c.tr <<EOF
100 1.000000 openat(AT_FDCWD</R>, "huge", O_RDONLY) = 3</R/huge>
100 1.000100 read(3</R/huge>, "\\0"..., 314572800) = 314572800
100 1.000200 close(3</R/huge>) = 0
100 1.000300 exit_group(0) = ?
100 1.000400 +++ exited with 0 +++
EOF
	sed -i "s#/R#$W/r#g" c.tr
	timeout 60 "$CAPTURE" --root "$W/r" -o c.txt c.tr 2>c.err || { cat c.err; fail "refused (or over 60 s)"; }
	assert_grep 'huge: --prepare writes at most 256 MiB of a file' c.err "the cap is said"
	[ "$(grep -c '^WriteX 1 [0-9]* 1048576 1048576 NT_STATUS_OK$' c.txt)" -eq 256 ] ||
		fail "expected 256 WriteX lines of 1 MiB in the prepare"
	assert_grep '^WriteX 1 314572799 1 1 NT_STATUS_OK$' c.txt "the size of the capped file"
}

# A generated trace of about 6 MB (open, write, read, close of 200 files,
# over and over): the converter's peak memory grows by far less than the
# trace's size over that of a trace of a few lines (it was 11 times it).
stream_memory() {
	need python3
	mkdir r
	python3 - "$W/r" >big.tr <<'EOF'
import sys
r = sys.argv[1]
t = 1.0
print('100 1.000000 execve("/bin/app", ["app"], 0x7ffd /* 1 var */) = 0')
for i in range(12000):
    f = "%s/f%03d" % (r, i % 200)
    t += 0.0001
    print('100 %.6f openat(AT_FDCWD<%s>, "f%03d", O_RDWR|O_CREAT, 0644) = 3<%s>' % (t, r, i % 200, f))
    print('100 %.6f write(3<%s>, "abcdefgh"..., 4096) = 4096' % (t, f))
    print('100 %.6f pread64(3<%s>, "abcdefgh"..., 4096, 0) = 4096' % (t, f))
    print('100 %.6f close(3<%s>) = 0' % (t, f))
print('100 %.6f exit_group(0) = ?' % t)
print('100 %.6f +++ exited with 0 +++' % t)
EOF
	head -n 5 big.tr >small.tr
	tail -n 2 big.tr >>small.tr
	python3 - "$CAPTURE" "$W/r" big.tr small.tr >rss.out 2>rss.err <<'EOF' || { cat rss.err; fail "the capture failed"; }
import os, resource, subprocess, sys
cap, root, big, small = sys.argv[1:]
def peak(trace):
    # one child at a time: RUSAGE_CHILDREN's maximum is then its own
    pid = os.fork()
    if pid == 0:
        r = subprocess.run([cap, "--root", root, "-o", trace + ".txt", trace],
                           stderr=subprocess.DEVNULL)
        os._exit(r.returncode)
    _, status = os.waitpid(pid, 0)
    assert status == 0, status
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
print(peak(small), peak(big), os.path.getsize(big))
EOF
	read -r small big size <rss.out
	note "peak RSS: $small bytes (a few lines), $big bytes (a trace of $size bytes)"
	[ $((big - small)) -lt $((size / 2)) ] ||
		fail "the converter's memory grew by $((big - small)) bytes for a trace of $size bytes"
	strict_replay "$W/big.tr.txt" "generated trace"
}

# A symbolic link beneath --root to a directory outside it, listed with
# lstat (ls -l, find) and then gone through: the replay has no links, so
# the link becomes a directory that --prepare makes, with what the trace
# read through it.
symlink_outside() {
	need_strace
	mkdir -p root outside/sub
	echo hi >outside/f
	echo deep >outside/sub/g
	ln -s ../outside root/link
	strace -f -ttt -y -o trace sh -c 'ls -l root; find root; cat root/link/f;
		cat root/link/sub/g; echo x >root/link/new' >cmd.out 2>&1 ||
		{ cat cmd.out; fail "the traced command failed"; }
	"$CAPTURE" --root "$W/root" -o my.txt trace 2>capture.err ||
		{ cat capture.err; fail "dbench-capture failed"; }
	assert_grep '^Mkdir "\\clients\\client1\\link" NT_STATUS_OK$' my.txt "the link's directory is prepared"
	strict_replay "$W/my.txt" "symlink"
	[ -d replay/clients/client0/link ] && [ -f replay/clients/client0/link/new ] ||
		fail "the link's directory in the replay: $(ls -R replay/clients/client0)"
}

# unlink("ROOT") = -1 EISDIR: in the replay --root is the client's own
# directory, which no Unlink may name (dbench refuses such a loadfile).
unlink_root() {
	need python3
	mkdir r
	cat >u.tr <<'EOF'
100 1.000000 unlink("/R") = -1 EISDIR (Is a directory)
100 1.000100 openat(AT_FDCWD</R>, "a", O_WRONLY|O_CREAT, 0644) = 3</R/a>
100 1.000200 close(3</R/a>) = 0
100 1.000300 unlink("/R/a") = 0
100 1.000400 exit_group(0) = ?
100 1.000500 +++ exited with 0 +++
EOF
	sed -i "s#/R#$W/r#g" u.tr
	"$CAPTURE" --root "$W/r" -o u.txt u.tr 2>u.err || { cat u.err; fail "refused"; }
	assert_no_grep '^Unlink "\\clients\\client1" ' u.txt "an Unlink of the client's directory"
	assert_grep 'dropped 1: unlink of --root itself' u.err "the drop is reported"
	assert_grep '^Unlink "\\clients\\client1\\a" NT_STATUS_OK$' u.txt "the other unlink"
	strict_replay "$W/u.txt" "unlink of --root"
}

check "tar -xf of a generated archive replays to the same tree" tar_extract
check "cp -r of a generated tree replays to the same tree" cp_recursive
check "make of a generated C project replays to the same tree" make_project
check "git init/add/commit replays to the same tree" git_commit
check "ls -R: entries only a listing shows are prepared" listing_only
check "strace's output forms (-y or not, -T, -tt, [pid]) give the same ops" format_variants
check "the hand-written trace replays to the tree it implies" format_replay
check "--timed keeps each call's time" format_timed
check "--per-process writes one loadfile per process" format_per_process
check "--summary of a loadfile and of a trace" format_summary
check "smbclient traffic (SMB3) replays to the same tree" smb_client
check "a read far into a sparse 1 PiB file: prepared as the bytes read and the size, replays" sparse_read
check "a trace of several MB: converted in streaming (peak memory well under the trace's size)" stream_memory
check "calls through a symlink to a directory outside --root: the link is a directory in the replay" symlink_outside
check "unlink of --root itself (EISDIR): dropped, not an Unlink of the client's directory" unlink_root
check "--port 0, 65536, -1: usage error, one line" bad_port
check "a trace cut in the middle of a line is refused" bad_truncated_line
check "a trace ending inside a call is refused" bad_unfinished
check "a trace cut between two lines is refused" bad_cut_at_line_end
check "a file that is not an strace trace is refused" bad_not_strace
check "an unknown system call is refused" bad_unknown_syscall
finish
