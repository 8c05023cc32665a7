#!/bin/bash
# dist_layout.sh - the source tarball (`make dist`) and the installed tree
# are laid out where the suites that build dbench from source look: each
# check unpacks a fresh tarball and runs, unchanged but for the names, the
# command sequence of the Phoronix Test Suite's or mmtests' dbench install
# script, then checks the build and the client.txt they copy.  Everything
# happens under $W; the build tree is only read (by `make distdir`).
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"
not_under_sanitizers "the tarball's layout and install do not depend on the build flags (checked by make check)"

BUILDDIR=$(dirname "$DBENCH")
OURS=$SRCDIR/loadfiles/client.txt
JOBS=2	# the -j of their `make`: their NUM_CPU_JOBS / NUMCPUS

# make_tarball: $TOP/dist/NAME.tar.gz made by `make dist`, run in a copy
# of this tree (`make distdir`, as check-sanitize does) configured in $W;
# made once, for all the checks.  Sets TARBALL (its path) and TOPDIR (the
# directory it unpacks to).
make_tarball() {
	command -v autoreconf >/dev/null 2>&1 ||
		skip "autoreconf is not installed (both suites run ./autogen.sh)"
	if ! [ -f "$TOP"/dist/*.tar.gz ]; then
		LAST_CMD="make distdir distdir=$W/src"
		make -s -C "$BUILDDIR" distdir distdir="$W/src" >"$W/out" 2>"$W/err" ||
			fail "make distdir failed"
		LAST_CMD="(cd src && ./configure && make dist)"
		(cd src && ./configure -q && make -s dist) >"$W/out" 2>&1 ||
			fail "make dist failed"
		mkdir -p "$TOP/dist"
		mv src/*.tar.gz "$TOP/dist/" || fail "make dist wrote no tarball"
		rm -rf src
	fi
	TARBALL=$(echo "$TOP"/dist/*.tar.gz)
	TOPDIR=$(basename "$TARBALL" .tar.gz)
	LAST_CMD=""
}

# run_step LOG COMMAND...: one step of their sequence; its output is
# appended to LOG, shown when it fails.
run_step() {
	local log=$1
	shift
	echo "+ $*" >>"$log"
	"$@" >>"$log" 2>&1 && return 0
	note "the last lines of its log:"
	tail -n 25 "$log" | sed 's/^/#     | /'
	fail "step failed: $*"
}

# The tarball itself: one top directory, listed first (mmtests takes the
# first entry's directory as the tree), and client.txt at the top, the
# same bytes as loadfiles/client.txt.
tarball_layout() {
	make_tarball
	local first
	first=$(tar tzf "$TARBALL" | head -n 1)
	assert_eq "$TOPDIR/" "$first" "first entry of the tarball"
	tar tzf "$TARBALL" | awk -F/ '{ print $1 }' | sort -u >tops
	echo "$TOPDIR" >want
	assert_same_lines want tops "top-level entries"
	tar tzf "$TARBALL" >list
	for f in client.txt loadfiles/client.txt autogen.sh configure README COPYING; do
		grep -qx "$TOPDIR/$f" list || fail "$f is not in the tarball"
	done
	tar xzf "$TARBALL" "$TOPDIR/client.txt" || fail "cannot extract client.txt"
	cmp -s "$TOPDIR/client.txt" "$OURS" ||
		fail "the tarball's client.txt differs from loadfiles/client.txt"
	# stored once: the tarball is not twice the size of one compressed copy
	local one size
	one=$(gzip -c "$OURS" | wc -c)
	size=$(wc -c <"$TARBALL")
	[ "$size" -lt $((one * 3 / 2)) ] ||
		fail "tarball $size bytes for a client.txt of $one compressed: stored twice?"
}

# Every file of the checkout is in the tarball, but for these, left out
# on purpose: the CI job and the editors' settings (they serve the
# repository, not a build).
DIST_LEFT_OUT='^(\.ci/|\.clang-format$|\.editorconfig$|\.gitignore$)'

# The tarball against `git ls-files` (the checkout's own files): a file a
# document names and `make dist` forgets is caught here.
tarball_complete() {
	command -v git >/dev/null 2>&1 || skip "git is not installed"
	git -C "$SRCDIR" rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
		skip "$SRCDIR is not a git checkout (a tarball's tree)"
	make_tarball
	tar tzf "$TARBALL" | sed -n "s|^$TOPDIR/||p" | grep -v '/$' |
		sort >in_tarball
	git -C "$SRCDIR" ls-files | grep -Ev "$DIST_LEFT_OUT" | sort >tracked
	comm -23 tracked in_tarball >missing
	[ ! -s missing ] || {
		sed 's/^/#     not in the tarball: /' missing
		fail "$(wc -l <missing) file(s) of git ls-files not in make dist's tarball (add them to EXTRA_DIST, or to DIST_LEFT_OUT in dist_layout.sh)"
	}
}

# The Phoronix Test Suite, profile pts/dbench (AppVersion 4.0), its
# install.sh (phoronix-test-suite/phoronix-test-suite,
# pts/test-profiles/dbench/install.sh; the same lines in the profiles
# ob-cache/test-profiles/pts/dbench-1.0.x), with dbench-4.0 replaced by
# our tarball's name:
#   tar -zxvf dbench-4.0.tar.gz
#   mkdir $HOME/dbench_/
#   cd dbench-4.0/
#   ./autogen.sh
#   ./configure --prefix=$HOME/dbench_/
#   make -j $NUM_CPU_JOBS
#   echo $? > ~/install-exit-status
#   make install
#   cp client.txt ../
#   cd ..
#   rm -rf dbench-4.0/
# and the test it writes ($LOG_FILE being the run's log):
#   ./dbench_/bin/dbench $@ -c client.txt > $LOG_FILE 2>&1
pts_install() {
	make_tarball
	mkdir -p pts/home
	cp "$TARBALL" pts/
	local log=$W/pts.log
	(
		export HOME=$W/pts/home
		cd pts || exit 1
		run_step "$log" tar -zxvf "$TOPDIR.tar.gz"
		run_step "$log" mkdir "$HOME/dbench_/"
		cd "$TOPDIR/" || fail "no $TOPDIR/ after unpacking"
		run_step "$log" ./autogen.sh
		run_step "$log" ./configure --prefix="$HOME/dbench_/"
		make -j "$JOBS" >>"$log" 2>&1
		echo $? >~/install-exit-status
		run_step "$log" make install
		run_step "$log" cp client.txt ../
		cd .. || exit 1
		rm -rf "${TOPDIR:?}/"
	) || exit 1
	assert_eq 0 "$(cat pts/home/install-exit-status)" "install-exit-status (make)"
	[ -f pts/client.txt ] || fail "client.txt was not copied"
	cmp -s pts/client.txt "$OURS" || fail "the copied client.txt is not ours"
	[ -x pts/home/dbench_/bin/dbench ] || fail "no dbench_/bin/dbench"
	# its test command, for one client on a short run
	mkdir t
	LAST_CMD="./dbench_/bin/dbench -t 1 --warmup 0 -D $W/t 1 -c client.txt"
	(cd pts && timeout -k 5 "$IT_TIMEOUT" ./home/dbench_/bin/dbench \
		-t 1 --warmup 0 -D "$W/t" 1 -c client.txt) >"$W/out" 2>"$W/err"
	RC=$?
	assert_rc 0
	assert_grep "$RE_THROUGHPUT" "$W/out" "Throughput line"
}

# mmtests, shellpacks/shellpack-install-dbench (gormanm/mmtests; generated
# from shellpack_src/src/dbench/dbench-install), with $SHELLPACK_SOURCES
# in $W and mmtests' fetch replaced by a copy of our tarball:
#   cd $SHELLPACK_SOURCES
#   tar -xf $TARFILE
#   DST_DIR=`tar tf $TARFILE | head -n 1 | awk -F / '{print $1}'`
#   mv $DST_DIR dbench-${VERSION}
#   pushd dbench-${VERSION} > /dev/null || die Failed to rename tar
#   ./autogen.sh || die Failed to run autogen
#   ./configure --prefix=$SHELLPACK_SOURCES/dbench-${VERSION}-installed
#   make -j$NUMCPUS
#   make install
#   # Fixups
#   if [ ! -e $SHELLPACK_SOURCES/dbench-${VERSION}-installed/share/client.txt ]; then
#       cp $SHELLPACK_SOURCES/dbench-${VERSION}-installed/share/doc/dbench/loadfiles/client.txt $SHELLPACK_SOURCES/dbench-${VERSION}-installed/share
#   fi
#   # Extract our loadfiles from the original one
#   head -n 600 .../share/client.txt >.../share/client-warmup.txt
#   head -n 4173 .../share/client.txt | tail -n 3573 >.../share/client-tiny.txt
# (the last three from shellpack_src/src/dbench/dbench-install); then
# shellpack_src/src/dbench/dbench-bench, from the installed tree, runs
#   ./bin/dbench --run-once --skip-cleanup -D $SHELLPACK_DATA \
#       --loadfile $LOADDIR/client-warmup.txt $DBENCH_MAX_CLIENTS
# with LOADDIR=$SHELLPACK_SOURCES/dbench-${VERSION}-installed/share/.
# The install is also staged with DESTDIR, as packagers do.
mmtests_install() {
	make_tarball
	local src=$W/sources version=mmtests log=$W/mmtests.log
	local inst=$W/sources/dbench-mmtests-installed
	mkdir sources
	cp "$TARBALL" sources/
	(
		TARFILE=$(basename "$TARBALL")
		cd "$src" || exit 1
		run_step "$log" tar -xf "$TARFILE"
		DST_DIR=$(tar tf "$TARFILE" | head -n 1 | awk -F / '{print $1}')
		run_step "$log" mv "$DST_DIR" "dbench-$version"
		cd "dbench-$version" || exit 1
		run_step "$log" ./autogen.sh
		run_step "$log" ./configure --prefix="$inst"
		run_step "$log" make -j"$JOBS"
		run_step "$log" make install
		[ -e "$inst/share/doc/dbench/loadfiles/client.txt" ] ||
			fail "share/doc/dbench/loadfiles/client.txt is not installed"
		if [ ! -e "$inst/share/client.txt" ]; then
			run_step "$log" cp "$inst/share/doc/dbench/loadfiles/client.txt" "$inst/share"
		fi
		head -n 600 "$inst/share/client.txt" >"$inst/share/client-warmup.txt"
		head -n 4173 "$inst/share/client.txt" | tail -n 3573 >"$inst/share/client-tiny.txt"
		run_step "$log" make install DESTDIR="$W/staged"
	) || exit 1
	cmp -s "$inst/share/client.txt" "$OURS" || fail "share/client.txt is not ours"
	assert_eq 600 "$(wc -l <"$inst/share/client-warmup.txt")" "client-warmup.txt lines"
	assert_eq 3573 "$(wc -l <"$inst/share/client-tiny.txt")" "client-tiny.txt lines"
	# README and COPYING in $(docdir), beside the loadfiles link
	local f
	for f in README COPYING; do
		cmp -s "$inst/share/doc/dbench/$f" "$SRCDIR/$f" ||
			fail "share/doc/dbench/$f is not installed"
		cmp -s "$W/staged$inst/share/doc/dbench/$f" "$SRCDIR/$f" ||
			fail "DESTDIR: share/doc/dbench/$f is not installed"
	done
	# the staged link names the final place, not the staging one
	assert_eq "$inst/share/dbench/client.txt" \
		"$(readlink "$W/staged$inst/share/doc/dbench/loadfiles/client.txt")" \
		"DESTDIR: the loadfiles/client.txt link"
	cmp -s "$W/staged$inst/share/dbench/client.txt" "$OURS" ||
		fail "DESTDIR: share/dbench/client.txt is not installed"
	# with the installed client.txt moved away, the staged binary finds
	# no loadfile: none is built into it (the build tree's is not a
	# fallback), and the message names the file
	mkdir nodef
	mv "$inst/share/dbench/client.txt" "$W/client.txt.away"
	(cd "$W/nodef" && timeout -k 5 "$IT_TIMEOUT" \
		"$W/staged$inst/bin/dbench" --run-once 1) >"$W/out" 2>"$W/err"
	RC=$?
	mv "$W/client.txt.away" "$inst/share/dbench/client.txt"
	assert_rc 2
	assert_grep "^dbench: no loadfile given \\(-c\\) and the default loadfile $inst/share/dbench/client\\.txt cannot be read: No such file or directory\$" \
		"$W/err" "the missing default loadfile named"
	if grep -aq "$SRCDIR" "$W/staged$inst/bin/dbench"; then
		fail "the installed binary embeds the source tree's path"
	fi
	# dbench-bench's warmup command, from the installed tree
	mkdir data
	LAST_CMD="./bin/dbench --run-once --skip-cleanup -D $W/data --loadfile share/client-warmup.txt 2"
	(cd "$inst" && timeout -k 5 "$IT_TIMEOUT" ./bin/dbench --run-once \
		--skip-cleanup -D "$W/data" --loadfile "$inst/share/client-warmup.txt" 2) \
		>"$W/out" 2>"$W/err"
	RC=$?
	assert_rc 0
	assert_no_mismatch
	assert_grep "$RE_THROUGHPUT" "$W/out" "Throughput line"
	# in the tree the warmup left: dbench-bench's calibration, then its
	# benchmark (time limited: client-tiny.txt replays again and again)
	#   ./bin/dbench ... --show-execute-time --run-once -D $SHELLPACK_DATA
	#       --loadfile $LOADDIR/client-tiny.txt --machine-readable -t 10000 $DBENCH_MAX_CLIENTS
	# and, in its loop (below),
	#   dbench ... -D $SHELLPACK_DATA --warmup 0 -t $((...))
	#       --loadfile $LOADDIR/client-tiny.txt --show-execute-time $CLIENT
	# they replay client-tiny.txt over the tree the
	# warmup kept, and need it (client-tiny.txt opens the warmup's
	# files): dbench recorded that tree as its own, so the run may use it.
	LAST_CMD="./bin/dbench --show-execute-time --run-once -D $W/data --loadfile share/client-tiny.txt --machine-readable -t 10000 2"
	(cd "$inst" && timeout -k 5 "$IT_TIMEOUT" ./bin/dbench --show-execute-time \
		--run-once -D "$W/data" --loadfile "$inst/share/client-tiny.txt" \
		--machine-readable -t 10000 2) >"$W/out" 2>"$W/err"
	RC=$?
	assert_rc 0
	assert_no_mismatch
	assert_grep '^@E@[0-9]+@[0-9]+$' "$W/out" "the calibration's @E@ lines"
	# its loop: a clean tree, the warmup cut again, then the benchmark
	#   rm -rf $SHELLPACK_DATA/clients
	#   ./bin/dbench --run-once --skip-cleanup -D $SHELLPACK_DATA \
	#       --loadfile $LOADDIR/client-warmup.txt $CLIENT
	rm -rf "$W/data/clients"
	(cd "$inst" && timeout -k 5 "$IT_TIMEOUT" ./bin/dbench --run-once \
		--skip-cleanup -D "$W/data" --loadfile "$inst/share/client-warmup.txt" 2) \
		>"$W/out" 2>"$W/err"
	RC=$?
	assert_rc 0
	assert_no_mismatch
	LAST_CMD="./bin/dbench -D $W/data --warmup 0 -t 3 --loadfile share/client-tiny.txt --show-execute-time 2"
	(cd "$inst" && timeout -k 5 "$IT_TIMEOUT" ./bin/dbench -D "$W/data" \
		--warmup 0 -t 3 --loadfile "$inst/share/client-tiny.txt" \
		--show-execute-time 2) >"$W/out" 2>"$W/err"
	RC=$?
	assert_rc 0
	assert_no_mismatch
	assert_grep "$RE_THROUGHPUT" "$W/out" "Throughput line"
	[ "$(grep -c 'completed in' "$W/out")" -ge 2 ] ||
		fail "client-tiny.txt: expected passes to complete, found $(grep -c 'completed in' "$W/out")"
	# the benchmark cleaned up the warmup's trees, and their record
	[ -e "$W/data/clients/client0" ] && fail "the benchmark left clients/client0"
	[ -e "$W/data/clients/.dbench-kept" ] && fail "the benchmark left the record of kept trees"
	return 0
}

check "make dist: one top directory, listed first; client.txt at the top, stored once" tarball_layout
check "make dist: every file of git ls-files but the deliberate exclusions" tarball_complete
check "Phoronix Test Suite pts/dbench install.sh on our tarball: builds, copies client.txt, runs" pts_install
check "mmtests dbench install script on our tarball: builds, finds loadfiles/client.txt; DESTDIR; its warmup and tiny cuts replay (over the warmup's kept tree)" mmtests_install
finish
