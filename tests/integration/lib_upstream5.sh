# lib_upstream5.sh - dbench 5.0's own smb loadfiles (tests/upstream-5.0/,
# unmodified) and the trees 5.0 makes with them (sourced by bash, after
# lib.sh).
#
# 5.0 resolves the smb dialect's paths from the share's root (or -D),
# "client1" becoming the client's name, client0 for the first: so with N
# clients smb_1.load leaves client<i>/test.txt, written 10 times 4 KiB at
# random 4 KiB-aligned offsets below 0x10000000; smb_2.load (no MKDIR:
# the client's directory is made for it) client<i>/test.txt of 40960
# bytes written in order; smb_3.load client<i>/file<d>.dat, d a random
# digit (RANDOMSTRING), written as smb_1.load writes.  A random size is
# checked for what 5.0 allows (a multiple of 4 KiB, at most 0x10000000),
# then shown as RANDOM.

UPSTREAM5=$SRCDIR/tests/upstream-5.0

# upstream5_expected LOADFILE N: the tree 5.0 makes, as upstream5_tree
# prints it.
upstream5_expected() {
	local i name size
	case $(basename "$1") in
	smb_1.load) name=test.txt size=RANDOM ;;
	smb_2.load) name=test.txt size=40960 ;;
	smb_3.load) name='file#.dat' size=RANDOM ;;
	esac
	for ((i = 0; i < $2; i++)); do
		printf '%s\n' "client$i d" "client$i/$name f $size"
	done | sort
}

# upstream5_tree DIR: the tree under DIR (without dbench's record of kept
# trees), random sizes checked and shown as RANDOM, a random digit in a
# file name shown as #.
upstream5_tree() {
	tree_listing "$1" | grep -v '\.dbench-kept ' |
		awk '$2 == "f" && $1 ~ /\/(test\.txt|file[0-9]\.dat)$/ &&
			$3 != 40960 {
			if ($3 % 4096 != 0 || $3 > 268435456 || $3 == 0) {
				print $1, $2, "BAD-SIZE-" $3
				next
			}
			$3 = "RANDOM"
		}
		{ sub(/\/file[0-9]\.dat /, "/file#.dat "); print }' | sort
}
