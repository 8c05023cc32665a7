#!/bin/bash
# smb5_paths.sh - dbench 5.0's smb dialect resolves its paths as 5.0 has
# since 2010: from the target's root (the share, or -D), "client1" the
# client's name.  Our own loadfiles with the path shapes of 5.0's
# (smb_1.load's "/client1/test.txt", "/clients/client1/work"), over
# -B fileio with 1 and 3 clients: the trees kept are the ones 5.0's rules
# give; without --skip-cleanup nothing is left; the confinement holds.
# (-B smb: tests/integration/smb.sh.)
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_upstream5.sh"

PATHS=$DATA/smb5_paths.txt
NOMKDIR=$DATA/smb5_nomkdir.txt

# expected_paths N...: the tree smb5_paths.txt leaves for clients N...
# under 5.0's rules, written out by hand from the file: client<N>/test.txt
# of 8 KiB at the root, clients/client<N>/work/data.bin of 1000 bytes
# (work/gone is unlinked)
expected_paths() {
	local n
	{
		[ $# -gt 0 ] && echo "clients d"
		for n in "$@"; do
			printf '%s\n' "client$n d" "client$n/test.txt f 8192" \
				"clients/client$n d" "clients/client$n/work d" \
				"clients/client$n/work/data.bin f 1000"
		done
	} | sort
}

# the listing of DIR without dbench's own record of kept trees
listing() {
	tree_listing "$1" | grep -v '\.dbench-kept '
}

kept_paths() {
	local n=$1 ids
	mkdir t
	run_db --run-once -t 60 --skip-cleanup -B fileio -c "$PATHS" -D "$W/t" "$n"
	assert_clean_run "smb5_paths.txt x $n"
	ids=$(seq 0 $((n - 1)))
	# shellcheck disable=SC2086 # the ids are words
	expected_paths $ids >expected.tree
	listing "$W/t" >found.tree
	assert_same_lines expected.tree found.tree "the tree 5.0's rules give"
	# the kept trees are recorded: a later run uses them, and cleans up
	run_db --run-once -t 60 -B fileio -c "$PATHS" -D "$W/t" "$n"
	assert_clean_run "a run over the kept trees"
	listing "$W/t" >found.tree
	[ ! -s found.tree ] || [ "$(cat found.tree)" = "clients d" ] ||
		fail "left after the second run: $(tr '\n' ' ' <found.tree)"
}
kept_1() { kept_paths 1; }
kept_3() { kept_paths 3; }

clean_3() {
	mkdir t
	run_db --run-once -t 60 -B fileio -c "$PATHS" -D "$W/t" 3
	assert_clean_run "smb5_paths.txt x 3"
	assert_empty_dir "$W/t" "the target after the run"
}

# dbench 5.0's own loadfiles, as its repository has them: each runs
# once per client with no mismatch (--strict) and leaves 5.0's tree;
# without --skip-cleanup, nothing
upstream_fileio() {
	local lf n
	for lf in "$UPSTREAM5"/smb_[123].load; do
		for n in 1 3; do
			rm -rf "$W/t" && mkdir "$W/t"
			run_db --run-once --strict --skip-cleanup -B fileio \
				-c "$lf" -D "$W/t" "$n"
			assert_clean_run "$(basename "$lf") x $n"
			upstream5_expected "$lf" "$n" >expected.tree
			upstream5_tree "$W/t" >found.tree
			assert_same_lines expected.tree found.tree \
				"$(basename "$lf") x $n: the tree 5.0 makes"
		done
		rm -rf "$W/t" && mkdir "$W/t"
		run_db --run-once --strict -B fileio -c "$lf" -D "$W/t" 3
		assert_clean_run "$(basename "$lf") x 3, cleaned up"
		assert_empty_dir "$W/t" "$(basename "$lf") x 3: the target after the run"
	done
}

# smb_2.load's shape: no MKDIR; the client's directory is made for it
no_mkdir() {
	mkdir t
	run_db --run-once -t 60 --skip-cleanup -B fileio -c "$NOMKDIR" -D "$W/t" 2
	assert_clean_run "smb5_nomkdir.txt x 2"
	printf '%s\n' "client0 d" "client0/test.txt f 40960" "client1 d" \
		"client1/test.txt f 40960" >expected.tree
	listing "$W/t" >found.tree
	assert_same_lines expected.tree found.tree "the tree 5.0's rules give"
}

# a path that would leave the target, and a removal outside the client's
# directory, are refused before the run; a foreign client<N> is refused
# and kept
confined() {
	mkdir t
	printf '%s\n' 'OPEN "/../x" 0x0c SUCCESS' >up.txt
	run_db --run-once -B fileio -c "$W/up.txt" -D "$W/t" 1
	assert_usage_error "'..'"
	assert_grep "'\\.\\.' component" "$W/err" "the '..' refusal"
	printf '%s\n' 'OPEN "/x" 0x0c SUCCESS' 'CLOSE "/x" SUCCESS' \
		'UNLINK "/x" SUCCESS' >rm.txt
	run_db --run-once -B fileio -c "$W/rm.txt" -D "$W/t" 1
	assert_usage_error "a removal outside"
	assert_grep "rm\\.txt:3: UNLINK: path \"\\\\x\" is outside the client's directory" \
		"$W/err" "the removal refused"
	assert_empty_dir "$W/t" "the target after the refusals"
	mkdir t/client0
	echo mine >t/client0/mine.txt
	run_db --run-once -B fileio -c "$PATHS" -D "$W/t" 1
	assert_usage_error "a foreign client0"
	assert_grep "^dbench: $W/t/client0 already exists" "$W/err" "the foreign tree refused"
	assert_eq mine "$(cat t/client0/mine.txt)" "the foreign file"
}

check "5.0's own smb_1/2/3.load, unchanged, 1 and 3 clients over fileio: --strict, 5.0's trees" upstream_fileio
check "smb5 paths, 1 client --skip-cleanup: 5.0's tree; kept, then cleaned" kept_1
check "smb5 paths, 3 clients --skip-cleanup: 5.0's tree; kept, then cleaned" kept_3
check "smb5 paths, 3 clients: nothing left" clean_3
check "smb5 paths without MKDIR (smb_2.load's shape): the client's directory is made" no_mkdir
check "smb5 paths: '..' and removals outside the client's directory refused; a foreign tree kept" confined
finish
