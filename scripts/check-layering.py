#!/usr/bin/env python3
"""Fails on an include that crosses the layering the wrong way.

The folders form a pipeline (docs/architecture.md): a folder may include itself and the folders
below it, never one above. The backend (analysis/) includes no Qt, no view and no app code; the
views include no app code. Every project header is included by its path from the source root.

usage: check-layering.py [SOURCE_ROOT]   (exit 1 and one line per violation)
"""
import pathlib
import re
import subprocess
import sys

# Lowest first. A file in a folder may include headers of its own folder and of folders earlier
# in the same list; the lists themselves are ordered too (analysis < views < app).
LAYERS = [
    "analysis/trace",
    "analysis/metrics",
    "analysis/report",
    "analysis/replay",
    "analysis/patterns",
    "analysis/causes",
    "analysis/analyzer",
    "analysis/timeline",
    "analysis/profile",
    "analysis/online",
    "analysis/measure",
    "analysis/tools",
    "views/model",
    "views/source",
    "views/widgets",
    "views/timeline",
    "app/launch",
    "app",  # with app/live: the window's own parts
]
# Peers: folders of the same rank that may not include each other.
PEERS = {"views/source", "views/widgets", "views/timeline"}
# Standalone programs users read and copy: they include their neighbours by file name.
STANDALONE = ("tests/apps/", "resources/examples/")
# The recording library's public header, as an instrumented program includes it.
PUBLIC_HEADERS = {"waitscope.h"}
ROOTS = ("analysis/", "views/", "app/", "tests/", "bench/")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
QT_HEADER = re.compile(r"^Q[A-Za-z]*(/|$)|^Qt[A-Z]")


def layer_of(path):
    """The layer a file belongs to (longest matching folder), or None outside the product."""
    best = None
    for index, folder in enumerate(LAYERS):
        if path.startswith(folder + "/") and (best is None or len(folder) > len(LAYERS[best])):
            best = index
    return best


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    listed = subprocess.run(["git", "-C", str(root), "ls-files", "*.h", "*.cpp", "*.c"],
                            capture_output=True, text=True, check=False)
    if listed.returncode == 0:
        files = listed.stdout.split()
    else:  # a source tree without git (a release tarball): every source file under the roots
        files = sorted(str(p.relative_to(root)) for top in ROOTS for p in (root / top).rglob("*")
                       if p.suffix in (".h", ".cpp", ".c"))
    problems = []
    for name in files:
        if name.startswith(STANDALONE):
            continue
        text = (root / name).read_text(encoding="utf-8", errors="replace")
        here = layer_of(name)
        for match in INCLUDE.finditer(text):
            kind, target = match.groups()
            line = text.count("\n", 0, match.start()) + 1
            where = f"{name}:{line}: #include {kind}{target}{'>' if kind == '<' else chr(34)}"
            if kind == "<":
                if name.startswith("analysis/") and QT_HEADER.search(target):
                    problems.append(f"{where}: the backend (analysis/) includes no Qt")
                continue
            if target.endswith(".moc") or target in PUBLIC_HEADERS:
                continue
            if target.startswith(("tests/", "bench/")) and not name.startswith(("tests/", "bench/")):
                problems.append(f"{where}: product code includes no test or benchmark code")
                continue
            if not target.startswith(ROOTS) or not (root / target).is_file():
                problems.append(f"{where}: include project headers by their path from the source root")
                continue
            there = layer_of(target)
            if here is None or there is None or here == there:
                continue
            if LAYERS[here] in PEERS and LAYERS[there] in PEERS:
                problems.append(f"{where}: {LAYERS[here]}/ and {LAYERS[there]}/ are peers; "
                                "share through views/model/")
            elif there > here:
                problems.append(f"{where}: {LAYERS[here]}/ is below {LAYERS[there]}/ and may not include it")
    for problem in problems:
        print(problem)
    if problems:
        print(f"check-layering: {len(problems)} include(s) cross the layering the wrong way "
              "(the order is in scripts/check-layering.py)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
