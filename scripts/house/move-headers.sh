#!/bin/sh
# move-headers.sh - put each header of the old flat include/ beside the
# code that owns it (src/FOLDER/x.h) and rewrite every reference to it:
#     #include "x.h"      ->  #include "FOLDER/x.h"   (C sources, tests, bench)
#     include/x.h         ->  src/FOLDER/x.h          (Makefile.am, *.mk, docs,
#                                                      scripts, comments)
# Idempotent: a header already moved is left alone, and a rewritten line no
# longer matches, so the script can be run again over any tree (after a
# merge, say, to fix the includes that the merged branches added).
#
# Usage: scripts/house/move-headers.sh [TOP]   (TOP: the checkout, default
# the one the script sits in).  Moves with `git mv` inside a git work tree,
# with mv elsewhere.  Prints what it moved; silent when nothing was left.
set -eu
TOP=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$TOP"

# header  owning folder under src/
MAP='
atomic.h util
backend.h backends
backends.h backends
cli.h cli
client.h engine
client_tree.h loadfile
coord.h run
dbench_main.h cli
dirlock.h safety
disktest.h disktest
histogram.h stats
noise.h stats
history.h history
host.h stats
memcheck.h safety
nbsmb5.h smb_semantics
nbvfs.h smb_semantics
ntstatus.h loadfile
options.h util
program.h loadfile
report.h report
report_json.h report
result.h stats
result_load.h report
rlimits.h safety
series.h stats
stats.h stats
steady.h stats
supervisor.h run
sweep.h sweep
tbench_wire.h net
timer.h util
util.h util
vfs.h vfs
vfs_kept.h vfs
wildcard.h smb_semantics
'

ingit=false
git rev-parse --is-inside-work-tree >/dev/null 2>&1 && ingit=true

# 1. the moves
echo "$MAP" | while read -r h dir; do
	[ -n "$h" ] || continue
	[ -e "include/$h" ] || continue
	if [ -e "src/$dir/$h" ]; then
		echo "move-headers: both include/$h and src/$dir/$h exist; merge them by hand" >&2
		exit 1
	fi
	if $ingit; then
		git mv "include/$h" "src/$dir/$h"
	else
		mv "include/$h" "src/$dir/$h"
	fi
	echo "moved include/$h -> src/$dir/$h"
done
if [ -d include ] && [ -z "$(ls -A include)" ]; then
	rmdir include
fi

# 1b. files moved between folders of src/ (old path, new path): the
# NT status table is the loadfile's vocabulary (status names, the
# expected-status check), used by the layers above it
SRC_MOVES='
src/smb_semantics/ntstatus.c src/loadfile/ntstatus.c
src/smb_semantics/ntstatus.h src/loadfile/ntstatus.h
'
echo "$SRC_MOVES" | while read -r old new; do
	[ -n "$old" ] || continue
	[ -e "$old" ] || continue
	if [ -e "$new" ]; then
		echo "move-headers: both $old and $new exist; merge them by hand" >&2
		exit 1
	fi
	if $ingit; then
		git mv "$old" "$new"
	else
		mv "$old" "$new"
	fi
	echo "moved $old -> $new"
done

# 2. the references: one perl program built from the map
prog=$(echo "$MAP" | while read -r h dir; do
	[ -n "$h" ] || continue
	q=$(printf '%s' "$h" | sed 's/\./\\./g')
	printf 's{^(\\s*#\\s*include\\s*)"%s"}{$1"%s/%s"};\n' "$q" "$dir" "$h"
	printf 's{(?<![\\w/.\$-])include/%s\\b}{src/%s/%s}g;\n' "$q" "$dir" "$h"
	printf 's{(\\$(?:SRCDIR|\\(top_srcdir\\)|\\(srcdir\\)|\\{SRCDIR\\})/)include/%s\\b}{$1src/%s/%s}g;\n' "$q" "$dir" "$h"
done
echo "$SRC_MOVES" | while read -r old new; do
	[ -n "$old" ] || continue
	qo=$(printf '%s' "$old" | sed 's/\./\\./g')
	qi=$(printf '%s' "${old#src/}" | sed 's/\./\\./g')
	printf 's{(?<![\\w/.-])%s\\b}{%s}g;\n' "$qo" "$new"
	printf 's{^(\\s*#\\s*include\\s*)"%s"}{$1"%s"};\n' "$qi" "${new#src/}"
done)

# the files to rewrite: every tracked (or, outside git, every) text file
# of the kinds that name headers, this script left out
if $ingit; then
	list() { git ls-files; }
else
	list() { find . -type f ! -path './.git/*' | sed 's|^\./||'; }
fi
list | grep -E '\.(c|h|am|mk|sh|md|[1-8]|py|ac|in)$|^README$|^\.ci/' |
	grep -v '^scripts/house/' | while read -r f; do
	[ -f "$f" ] || continue
	perl -i -pe "$prog" "$f"
done

# 3. the include path of the build: no include/ left, no -I for it
if [ ! -d include ] && [ -f Makefile.am ]; then
	perl -i -pe 's{-I\$\(top_srcdir\)/include\s+}{}' Makefile.am
fi
if [ -f tests/fuzz/fuzz_loadfile.c ]; then
	perl -i -pe 's{-Iinclude -Isrc}{-Isrc}' tests/fuzz/fuzz_loadfile.c
fi
