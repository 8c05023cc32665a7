#!/bin/bash
# tree.sh - the files a run leaves: with --skip-cleanup exactly what the
# loadfile leaves under clients/clientN, without it nothing at all; -D with
# several directories; client10 is not mangled; cleanup never follows
# symlinks and never touches what the run did not create; the record of
# kept trees (clients/.dbench-kept) lets a later run use them.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"

TREE=$DATA/tree.txt

# expected_client N: the listing tree.txt leaves for client N (derived by
# following the file: sizes are the highest offset written, or 0 after a
# truncating open; gone/, tmpdir/, del.dat and old.dat do not survive;
# only the "client1" right after "clients" becomes clientN).
expected_client() {
	sed "s/clientN/client$1/" <<'EOF'
clients/clientN d
clients/clientN/client1 d
clients/clientN/client1/client1.dat f 0
clients/clientN/empty.dat f 0
clients/clientN/keep d
clients/clientN/keep/deeper d
clients/clientN/keep/deeper/big.dat f 100000
clients/clientN/keep/one.dat f 65535
clients/clientN/keep/renamed.dat f 77
clients/clientN/newdir d
clients/clientN/over.dat f 0
clients/clientN/pattern.dat f 10
clients/clientN/reopen.dat f 4100
clients/clientN/trunc.dat f 10
EOF
}

# expected_tree N...: the listing of a directory holding clients N...
# kept with --skip-cleanup: their trees, and the record of them
# (clients/.dbench-kept, one clientN a line) beside them.
expected_tree() {
	local i size=0
	{
		echo "clients d"
		for i in "$@"; do
			expected_client "$i"
			size=$((size + ${#i} + 7))
		done
		echo "clients/.dbench-kept f $size"
	} | sort
}

# assert_kept DIR N...: DIR's record of kept trees names clients N...
assert_kept() {
	local dir=$1 i want=
	shift
	for i in "$@"; do want="${want}client$i "; done
	assert_eq "${want% }" "$(tr '\n' ' ' <"$dir/clients/.dbench-kept" | sed 's/ $//')" \
		"$dir/clients/.dbench-kept"
}

skip_cleanup_n() {
	local n=$1
	mkdir t
	run_db --run-once -t 60 --skip-cleanup -c "$TREE" -D "$W/t" "$n"
	assert_clean_run
	expected_tree $(seq 0 $((n - 1))) >expected.tree
	tree_listing "$W/t" >found.tree
	assert_same_lines expected.tree found.tree "tree left with --skip-cleanup"
	assert_kept "$W/t" $(seq 0 $((n - 1)))
}

skip_cleanup_1() { skip_cleanup_n 1; }
skip_cleanup_3() { skip_cleanup_n 3; }

writepattern_content() {
	mkdir t
	run_db --run-once -t 60 --skip-cleanup -c "$TREE" -D "$W/t" 1
	assert_clean_run
	assert_eq "abcabcabca" "$(cat t/clients/client0/pattern.dat)" "pattern.dat (WRITEPATTERN abc, 10 bytes)"
}

# no_leftovers LOADFILE N [OPTS]: a normal run leaves the target empty.
no_leftovers() {
	local lf=$1 n=$2
	shift 2
	mkdir t
	run_db --run-once -t 60 -c "$lf" -D "$W/t" "$@" "$n"
	assert_clean_run
	assert_empty_dir "$W/t" "target directory after a normal run"
}

clean_tree_3() { no_leftovers "$TREE" 3; }
clean_basic_2() { no_leftovers "$DATA/basic.txt" 2; }
clean_loops_2() { no_leftovers "$DATA/loops.txt" 2; }
clean_cpp() { no_leftovers "$TREE" 3 --clients-per-process 2; }

clean_timed() {
	mkdir t
	run_db -t 2 --warmup 0 -c "$TREE" -D "$W/t" 2
	assert_clean_run
	assert_empty_dir "$W/t" "target directory after a 2 s run"
}

# Two directories: client i uses dir i mod 2.
two_dirs_skip() {
	mkdir a b
	run_db --run-once -t 60 --skip-cleanup -c "$TREE" -D "$W/a,$W/b" 3
	assert_clean_run
	expected_tree 0 2 >expected.a
	expected_tree 1 >expected.b
	tree_listing "$W/a" >found.a
	tree_listing "$W/b" >found.b
	assert_same_lines expected.a found.a "dir a (clients 0 and 2)"
	assert_same_lines expected.b found.b "dir b (client 1)"
	assert_kept "$W/a" 0 2
	assert_kept "$W/b" 1
}

two_dirs_clean() {
	mkdir a b
	run_db --run-once -t 60 -c "$TREE" -D "$W/a,$W/b" 3
	assert_clean_run
	assert_empty_dir "$W/a" "dir a after a normal run"
	assert_empty_dir "$W/b" "dir b after a normal run"
}

# 11 clients: client10 keeps its name (4.00 made it client00).
client10_skip() {
	mkdir t
	run_db --run-once -t 60 --skip-cleanup -c "$TREE" -D "$W/t" 11
	assert_clean_run
	expected_tree $(seq 0 10) >expected.tree
	tree_listing "$W/t" >found.tree
	assert_same_lines expected.tree found.tree "tree of 11 clients"
	[ -d t/clients/client10/keep/deeper ] || fail "clients/client10/keep/deeper missing"
}

client10_clean() { no_leftovers "$TREE" 11; }

# Files the run did not create stay; clients/ stays when not empty.
foreign_files_kept() {
	mkdir -p t/clients/notaclient
	echo keep >t/keepme.txt
	echo keep >t/clients/notaclient/x
	run_db --run-once -t 60 -c "$TREE" -D "$W/t" 2
	assert_clean_run
	printf '%s\n' "clients d" "clients/notaclient d" "clients/notaclient/x f 5" "keepme.txt f 5" >expected.tree
	tree_listing "$W/t" >found.tree
	assert_same_lines expected.tree found.tree "target after a run among foreign files"
}

# assert_only_old_clients DIR WHAT: DIR is empty, or holds only an empty
# clients/ that existed before the run (an earlier --skip-cleanup run made
# it; the implementation removes only the shared directories this run
# created, and either is within the spec).
assert_only_old_clients() {
	tree_listing "$1" >found.tree
	[ ! -s found.tree ] && return 0
	assert_eq "clients d" "$(tr '\n' ' ' <found.tree | sed 's/ $//')" "$2 (nothing, or the earlier empty clients/)"
}

# A tree left by an earlier --skip-cleanup run is replaced, then cleaned
# (dbench recognises the trees a run of its own kept).
rerun_over_leftovers() {
	mkdir t
	run_db --run-once -t 60 --skip-cleanup -c "$TREE" -D "$W/t" 2
	assert_clean_run
	run_db --run-once -t 60 --skip-cleanup -c "$TREE" -D "$W/t" 2
	assert_clean_run
	expected_tree 0 1 >expected.tree
	tree_listing "$W/t" >found.tree
	assert_same_lines expected.tree found.tree "tree after a second --skip-cleanup run"
	run_db --run-once -t 60 -c "$TREE" -D "$W/t" 2
	assert_clean_run
	assert_only_old_clients "$W/t" "target after a third, normal run (record gone)"
}

# A clients/ tree dbench 4.00 left (client.txt's ~dmtmp, no record): the
# run is refused, the message names 4.00 and how to remove it, the tree
# is untouched.
refuse_400_leftovers() {
	mkdir -p t/clients/client0/~dmtmp/PWRPNT
	echo old >t/clients/client0/~dmtmp/PWRPNT/ZD16.BMP
	run_db --run-once -t 60 -c "$TREE" -D "$W/t" 1
	assert_usage_error "4.00's tree"
	assert_grep "^dbench: $W/t/clients/client0 looks like dbench 4\.00's leftovers" \
		"$W/err" "the refusal names dbench 4.00"
	assert_grep "rm -r -- '$W/t/clients'" "$W/err" "the refusal says how to remove it"
	[ "$(cat t/clients/client0/~dmtmp/PWRPNT/ZD16.BMP)" = old ] ||
		fail "the old tree was touched"
}

# A normal run of fewer clients cleans up its trees and drops them from
# the record; the others stay recorded, and a run of all of them runs.
rerun_fewer_clients() {
	mkdir t
	run_db --run-once -t 60 --skip-cleanup -c "$TREE" -D "$W/t" 3
	assert_clean_run
	run_db --run-once -t 60 -c "$TREE" -D "$W/t" 1
	assert_clean_run
	[ -e t/clients/client0 ] && fail "client0's tree was not cleaned up"
	assert_kept "$W/t" 1 2
	run_db --run-once -t 60 -c "$TREE" -D "$W/t" 3
	assert_clean_run
	assert_only_old_clients "$W/t" "target after a normal run of all three"
}

# Deltree and cleanup never follow a symlink out of the client's tree:
# links planted in a tree an earlier run kept are removed as links.
symlinks_not_followed() {
	mkdir t outside
	echo precious >outside/precious.txt
	run_db --run-once -t 60 --skip-cleanup -c "$TREE" -D "$W/t" 1
	assert_clean_run
	ln -s "$W/outside" t/clients/client0/keep/link
	ln -s "$W/outside" t/clients/client0/link2
	run_db --run-once -t 60 -c "$TREE" -D "$W/t" 1
	assert_clean_run
	[ -f outside/precious.txt ] || fail "a file behind a symlink was deleted by Deltree/cleanup"
	assert_only_old_clients "$W/t" "target after the run"
}

check "--skip-cleanup, 1 client: exactly the loadfile's tree and sizes" skip_cleanup_1
check "--skip-cleanup, 3 clients: exactly the loadfile's tree and sizes" skip_cleanup_3
check "WRITEPATTERN: file content is the pattern repeated" writepattern_content
check "no --skip-cleanup, tree.txt, 3 clients: nothing left" clean_tree_3
check "no --skip-cleanup, basic.txt, 2 clients: nothing left" clean_basic_2
check "no --skip-cleanup, loops.txt, 2 clients: nothing left" clean_loops_2
check "no --skip-cleanup, --clients-per-process 2: nothing left" clean_cpp
check "no --skip-cleanup, -t 2 run: nothing left" clean_timed
check "-D a,b --skip-cleanup, 3 clients: clients alternate dirs" two_dirs_skip
check "-D a,b, 3 clients: nothing left in either" two_dirs_clean
check "11 clients --skip-cleanup: clients/client10, not mangled" client10_skip
check "11 clients: nothing left" client10_clean
check "foreign files in the target dir are kept" foreign_files_kept
check "runs over a previous --skip-cleanup tree (recorded in clients/.dbench-kept)" rerun_over_leftovers
check "a clients/ tree of dbench 4.00: refused, naming 4.00 and how to remove it" refuse_400_leftovers
check "a normal run of fewer clients drops its trees from the record; the rest stay usable" rerun_fewer_clients
check "Deltree/cleanup do not follow symlinks planted in a kept tree" symlinks_not_followed
finish
