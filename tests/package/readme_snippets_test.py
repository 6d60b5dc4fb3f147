#!/usr/bin/env python3
"""The documented consumption snippets are the files the consumer tests build.

packaging/README.md, and README.md once it carries the marker line
`<!-- utf8dfa:package-snippets -->`, must contain every snippet file below verbatim inside a fenced
code block."""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SNIPPETS = [
    "consumer/main.cpp",
    "single_header/build.sh",
    "add_subdirectory/CMakeLists.txt",
    "fetchcontent/CMakeLists.txt",
    "find_package/CMakeLists.txt",
    "pkgconfig/build.sh",
]
MARKER = "<!-- utf8dfa:package-snippets -->"


def check(doc, readme):
    blocks = [m.group(1) for m in re.finditer(r"^```[^\n]*\n(.*?)^```", readme, re.M | re.S)]
    missing = []
    for rel in SNIPPETS:
        with open(os.path.join(HERE, rel), encoding="utf-8") as f:
            text = f.read()
        if not any(text in block for block in blocks):
            missing.append(rel)
    for rel in missing:
        print(f"{doc} lacks tests/package/{rel} verbatim in a code block")
    print(f"{doc}: {len(SNIPPETS) - len(missing)}/{len(SNIPPETS)} snippets found")
    return not missing


def main():
    ok = True
    for doc, required in (("packaging/README.md", True), ("README.md", False)):
        try:
            with open(os.path.join(ROOT, doc), encoding="utf-8") as f:
                text = f.read()
        except OSError:
            text = ""
        if MARKER not in text:
            if required:
                print(f"{doc} lacks the {MARKER} marker")
                ok = False
            else:
                print(f"{doc}: no {MARKER} section (not checked)")
            continue
        ok = check(doc, text) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
