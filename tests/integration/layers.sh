#!/bin/bash
# layers.sh - the source keeps its layering: every #include and every call
# between the folders of src/ goes down the layers, never up and never in
# a circle, and no file or function grows past its size limit.
#
# The layers are doc/ARCHITECTURE.md's table ("    layer N: folder ..."),
# lowest first; today:
#     0 util safety
#     1 vfs smb_semantics stats loadfile net history
#     2 backends engine
#     3 run
#     4 report disktest
#     5 sweep
#     6 cli
#     7 programs
# (a folder may use its own layer's folders, as long as no two of them use
# each other, and any lower layer's).  Includes: the #include "..." lines
# of src/**/*.[ch]; every header sits in the folder of its owner and is
# included as "folder/x.h" (or by its bare name beside it).  Calls: nm of
# the object files in the build tree, each undefined symbol mapped to the folder whose object defines it.  Sizes: no
# .c file of src/ over 800 lines, no function over 100 lines (from its
# opening brace to its closing one).  Each violation is a failed check of
# its own (one line in make check's summary); a rule that holds is one
# passed check.  Skipped (visibly) without python3 or nm, or before a build.
if [ -z "$BASH_VERSION" ]; then exec bash "$0" "$@"; fi
. "$(dirname "$0")/lib.sh"
not_under_sanitizers "the layering is the source's and the objects' symbols, whatever the build flags (checked by make check)"

BUILDDIR=$(cd "$(dirname "$DBENCH")" && pwd)

need_tools() {
	command -v python3 >/dev/null || skip "python3 is not installed"
	command -v nm >/dev/null || skip "nm (binutils) is not installed"
	[ -n "$(find "$BUILDDIR/src" -name '*.o' 2>/dev/null | head -n 1)" ] ||
		skip "no object files under $BUILDDIR/src (build first)"
}

# layers_py MODE: the checker (MODE includes, calls, files or functions);
# prints one violation per line.
layers_py() {
	python3 - "$1" "$SRCDIR" "$BUILDDIR" <<'EOF'
import os, re, subprocess, sys

mode, srcdir, builddir = sys.argv[1:4]
# the layers as doc/ARCHITECTURE.md names them ("    layer N: folder ...")
LAYER = {}
with open(os.path.join(srcdir, "doc", "ARCHITECTURE.md")) as f:
    for line in f:
        m = re.match(r"    layer (\d+): ([a-z_ ]+)$", line)
        if m:
            for folder in m.group(2).split():
                LAYER[folder] = int(m.group(1))
if not LAYER:
    print("doc/ARCHITECTURE.md names no layers ('    layer N: folder ...')")
    sys.exit(0)
for d in sorted(os.listdir(os.path.join(srcdir, "src"))):
    if os.path.isdir(os.path.join(srcdir, "src", d)) and d not in LAYER \
            and d != "capture":
        print(f"src/{d}/ is in no layer of doc/ARCHITECTURE.md")
def folder_of(path):
    """src/F/... -> F (the folder of the layer table), or None."""
    parts = os.path.normpath(path).split(os.sep)
    if len(parts) >= 3 and parts[0] == "src" and parts[1] in LAYER:
        return parts[1]
    return None

def sources(exts):
    out = []
    for root, dirs, files in os.walk(os.path.join(srcdir, "src")):
        dirs.sort()
        for f in sorted(files):
            if f.endswith(exts):
                out.append(os.path.relpath(os.path.join(root, f), srcdir))
    return out

def nm_of(objs):
    """object path -> nm -P's output for it: one nm for 100 objects at a
    time (-A names each line's object; one nm per object cost ~0.2 s each
    on a busy machine)"""
    out = {o: [] for o in objs}
    for i in range(0, len(objs), 100):
        part = objs[i:i + 100]
        text = subprocess.run(["nm", "-P", "-A"] + part,
                              capture_output=True, text=True).stdout
        for line in text.splitlines():
            obj, sep, rest = line.partition(": ")
            if sep and obj in out:
                out[obj].append(rest)
    return out

def defined_symbols():
    """symbol -> set of folders whose objects define it"""
    defs, undefs, objs = {}, [], []
    for root, dirs, files in os.walk(os.path.join(builddir, "src")):
        for f in sorted(files):
            if not f.endswith(".o"):
                continue
            obj = os.path.join(root, f)
            if folder_of(os.path.relpath(obj, builddir)) is not None:
                objs.append(obj)
    nm = nm_of(objs)
    for obj in objs:
        folder = folder_of(os.path.relpath(obj, builddir))
        for line in nm[obj]:
            fields = line.split()
            if len(fields) < 2:
                continue
            sym, kind = fields[0], fields[1]
            if kind == "U":
                undefs.append((os.path.relpath(obj, builddir), folder, sym))
            elif kind.isupper():
                defs.setdefault(sym, set()).add(folder)
    return defs, undefs

def strip_code(text):
    """C text without comments, string and character literals (newlines
    kept, so that line numbers stay)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)

def report_edges(edges):
    """edges: (from_folder, to_folder) -> first example; print upward ones
    and circles between folders of one layer."""
    for (a, b), ex in sorted(edges.items()):
        if LAYER[b] > LAYER[a]:
            print(f"upward: {a} (layer {LAYER[a]}) -> {b} (layer {LAYER[b]}): {ex}")
    for (a, b), ex in sorted(edges.items()):
        if LAYER[a] == LAYER[b] and (b, a) in edges and a < b:
            print(f"circle: {a} <-> {b}: {ex}; {edges[(b, a)]}")

if mode == "includes":
    edges = {}
    for p in sources((".c", ".h")):
        src = folder_of(p)
        if src is None:
            continue
        for ln, line in enumerate(open(os.path.join(srcdir, p), errors="replace"), 1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not m:
                continue
            name = m.group(1)
            cands = [os.path.join(os.path.dirname(p), name),
                     os.path.join("src", name)]
            target = next((os.path.normpath(c) for c in cands
                           if os.path.exists(os.path.join(srcdir, c))), None)
            if target is None:
                continue        # config.h and other generated headers
            dst = folder_of(target)
            if dst is None or dst == src:
                continue
            edges.setdefault((src, dst), f"{p}:{ln} includes {name}")
    report_edges(edges)
elif mode == "calls":
    defs, undefs = defined_symbols()
    edges = {}
    for obj, src, sym in undefs:
        homes = defs.get(sym)
        if not homes or src in homes:
            continue        # the C library, or defined beside it
        dst = min(homes, key=lambda f: LAYER[f])
        edges.setdefault((src, dst), f"{obj} calls {sym}")
    report_edges(edges)
elif mode == "circles":
    # inside one folder: the objects of its .c files, each undefined
    # symbol tied to the file of the folder that defines it; a circle is
    # a strongly connected group of two files or more
    objs, paths = {}, {}
    for root, dirs, files in os.walk(os.path.join(builddir, "src")):
        for f in sorted(files):
            if not f.endswith(".o"):
                continue
            rel = os.path.relpath(root, builddir)
            stem, c = f[:-2], None
            while True:
                if os.path.exists(os.path.join(srcdir, rel, stem + ".c")):
                    c = os.path.join(rel, stem + ".c")
                    break
                if "-" not in stem:
                    break
                stem = stem.split("-", 1)[1]
            if c is None or c in paths:
                continue
            paths[c] = os.path.join(root, f)
    nm = nm_of(list(paths.values()))
    for c, obj in paths.items():
        d, u = set(), set()
        for line in nm[obj]:
            fields = line.split()
            if len(fields) < 2:
                continue
            if fields[1] == "U":
                u.add(fields[0])
            elif fields[1] in "TDBR":
                d.add(fields[0])
        objs[c] = (d, u)
    by_dir = {}
    for c in objs:
        by_dir.setdefault(os.path.dirname(c), []).append(c)
    for folder, cs in sorted(by_dir.items()):
        edges = {}
        for a in cs:
            for b in cs:
                if a != b:
                    names = sorted(objs[a][1] & objs[b][0])
                    if names:
                        edges[(a, b)] = names
        # Tarjan's strongly connected components
        index, low, stack, on, comps, n = {}, {}, [], set(), [], [0]
        def visit(v):
            index[v] = low[v] = n[0]
            n[0] += 1
            stack.append(v)
            on.add(v)
            for w in sorted(cs):
                if (v, w) not in edges:
                    continue
                if w not in index:
                    visit(w)
                    low[v] = min(low[v], low[w])
                elif w in on:
                    low[v] = min(low[v], index[w])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    comps.append(sorted(comp))
        for v in sorted(cs):
            if v not in index:
                visit(v)
        for comp in comps:
            ties = "; ".join(f"{os.path.basename(a)} -> {os.path.basename(b)} "
                             f"({', '.join(edges[(a, b)][:3])})"
                             for a in comp for b in comp if (a, b) in edges)
            print(f"circle inside {folder}/: {ties}")
elif mode == "files":
    for p in sources((".c",)):
        n = sum(1 for _ in open(os.path.join(srcdir, p), errors="replace"))
        if n > 800:
            print(f"{p}: {n} lines (limit 800)")
elif mode == "functions":
    for p in sources((".c", ".h")):
        text = strip_code(open(os.path.join(srcdir, p), errors="replace").read())
        depth, start, head, line = 0, 0, "", 1
        for c in text:
            if c == "\n":
                line += 1
            if c == "{":
                if depth == 0:
                    start, fhead = line, head
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    # a function: its head (preprocessor lines left
                    # out) has a parameter list and no "="
                    fhead = "\n".join(l for l in fhead.split("\n")
                                       if not l.lstrip().startswith("#"))
                    m = re.search(r"(\w+)\s*\([^()]*(\([^()]*\)[^()]*)*\)\s*$",
                                  re.sub(r"\s+", " ", fhead))
                    if m and "=" not in fhead and line - start + 1 > 100:
                        print(f"{p}:{start}: {m.group(1)}(): "
                              f"{line - start + 1} lines (limit 100)")
                    head = ""
            elif depth == 0:
                if c == ";":
                    head = ""
                else:
                    head += c
EOF
}

# rule MODE WHAT: one check WHAT when the rule holds (or cannot be
# checked here: a skip); otherwise one failed check per violation, so that
# make check's summary lists every violation on a line of its own.
rule() {
	local mode=$1 what=$2 v
	if ! (need_tools) >/dev/null 2>&1; then
		check "$what" need_tools
		return 0
	fi
	if ! layers_py "$mode" >"$TOP/$mode.violations" 2>"$TOP/$mode.err"; then
		check "$what" fail "the checker failed: $(tail -n 1 "$TOP/$mode.err")"
		return 0
	fi
	if [ ! -s "$TOP/$mode.violations" ]; then
		check "$what" true
		return 0
	fi
	while IFS= read -r v; do
		check "$mode: $v" fail "violation"
	done <"$TOP/$mode.violations"
}

rule includes "includes (quoted include lines) go down the layers, no circle"
rule calls "calls (nm of the built objects) go down the layers, no circle"
rule circles "calls (nm) inside a folder: no circle between its files"
rule files "no .c file of src/ over 800 lines"
rule functions "no function over 100 lines"
finish
