#!/usr/bin/env python3
"""Generate single_include/utf8dfa.hpp: every project header reachable from include/utf8dfa.hpp, in one file.

    tools/amalgamate.py                  # (re)write single_include/utf8dfa.hpp
    tools/amalgamate.py -o OUT.hpp       # write elsewhere
    tools/amalgamate.py --check          # exit 1 with a diff summary if the committed file is stale

Rules (so the output is correct for any set of headers, not only today's):
- Project includes (quoted, resolved against the including file's folder then include/; angled
  <utf8dfa...> resolved against include/) are inlined recursively at the place of their first
  inclusion, so each header appears once and after everything it includes (dependency order).
- Include guards of inlined headers are kept, all of them. A header first included inside an
  #if branch (e.g. an ISA-specific kernel) is inlined there; a later include of it is dropped only
  where that earlier copy is certainly in effect (same or enclosing #if branch), else it is inlined
  again and its guard makes whichever copy comes second a no-op.
- System includes stay where they are, dropped by the same rule when already in effect.
- So the single header keeps both build modes: detail/dispatch.hpp includes the kernels
  (detail/kernel_list.hpp and the SIMD headers) inside
  `#if !defined(UTF8DFA_SEPARATE_COMPILATION) || defined(UTF8DFA_IMPLEMENTATION)`, and they are
  inlined there (tests/package/amalgamate_test.py builds and links both modes).
- The output is a pure function of the headers' contents: no dates, no paths, LF line endings.
"""

import argparse
import difflib
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
DIRECTIVE_RE = re.compile(r"^\s*#\s*(\w+)")
GUARD_IFNDEF_RE = re.compile(r"^\s*#\s*ifndef\s+(\w+)\s*$")
GUARD_DEFINE_RE = re.compile(r"^\s*#\s*define\s+(\w+)\s*$")
PRAGMA_ONCE_RE = re.compile(r"^\s*#\s*pragma\s+once\b")


class Amalgamator:
    def __init__(self, include_dir):
        self.include_dir = os.path.realpath(include_dir)
        self.branches = []  # ids of the #if branches open at the current output position
        self.next_branch = 0
        self.emitted = {}  # header (project path or <system> name) -> branch stacks where it was emitted
        self.stack = []  # headers being inlined, to report cycles
        self.out = []

    def rel(self, path):
        return os.path.relpath(path, self.include_dir).replace(os.sep, "/")

    def in_effect(self, key):
        """True if `key` was emitted in the current #if branch or one enclosing it."""
        return any(self.branches[: len(stack)] == stack for stack in self.emitted.get(key, ()))

    def mark(self, key):
        self.emitted.setdefault(key, []).append(list(self.branches))

    def open_branch(self):
        self.next_branch += 1
        return self.next_branch

    def resolve(self, kind, name, including_dir):
        """The project header an include names, or None for a system header."""
        candidates = []
        if kind == '"':
            candidates.append(os.path.join(including_dir, name))
        candidates.append(os.path.join(self.include_dir, name))
        for c in candidates:
            real = os.path.realpath(c)
            if os.path.isfile(real) and real.startswith(self.include_dir + os.sep):
                return real
        if kind == '"' or name == "utf8dfa.hpp" or name.startswith("utf8dfa/"):
            raise SystemExit(f"amalgamate: cannot resolve #include {kind}{name} from {self.rel(including_dir)}/")
        return None

    @staticmethod
    def logical_lines(text):
        """Source lines with backslash continuations joined to their directive (kept verbatim)."""
        lines = text.replace("\r\n", "\n").split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        i = 0
        while i < len(lines):
            chunk = [lines[i]]
            while chunk[-1].endswith("\\") and i + 1 < len(lines):
                i += 1
                chunk.append(lines[i])
            yield chunk
            i += 1

    @staticmethod
    def guard_of(chunks):
        """Indices (ifndef, define, endif) of the include guard, or None."""
        code = [k for k, c in enumerate(chunks) if c[0].strip() and not c[0].lstrip().startswith("//")]
        if len(code) < 3:
            return None
        m1 = GUARD_IFNDEF_RE.match(chunks[code[0]][0])
        m2 = GUARD_DEFINE_RE.match(chunks[code[1]][0])
        if not (m1 and m2 and m1.group(1) == m2.group(1)):
            return None
        last = code[-1]
        if DIRECTIVE_RE.match(chunks[last][0]) and DIRECTIVE_RE.match(chunks[last][0]).group(1) == "endif":
            return code[0], code[1], last
        return None

    def emit_file(self, path):
        if path in self.stack:
            cycle = " -> ".join(self.rel(p) for p in self.stack + [path])
            raise SystemExit(f"amalgamate: include cycle: {cycle}")
        self.stack.append(path)
        self.mark(path)
        with open(path, encoding="utf-8") as f:
            chunks = list(self.logical_lines(f.read()))
        guard = self.guard_of(chunks)
        guard_lines = set(guard) if guard else set()
        self.out.append(f"// ---- begin {self.rel(path)} ----")
        depth = 0  # #if nesting inside this file, not counting its include guard
        for k, chunk in enumerate(chunks):
            line = chunk[0]
            if k in guard_lines:
                self.out.extend(chunk)
                continue
            if PRAGMA_ONCE_RE.match(line):
                continue
            m = INCLUDE_RE.match(line)
            if m:
                kind, name = m.group(1), m.group(2).strip()
                target = self.resolve(kind, name, os.path.dirname(path))
                if target is not None:
                    if not self.in_effect(target):
                        self.emit_file(target)
                    continue
                key = kind + name
                if not self.in_effect(key):
                    self.mark(key)
                    self.out.extend(chunk)
                continue
            d = DIRECTIVE_RE.match(line)
            if d:
                word = d.group(1)
                if word in ("if", "ifdef", "ifndef"):
                    depth += 1
                    self.branches.append(self.open_branch())
                elif word in ("elif", "else", "elifdef", "elifndef") and depth > 0:
                    self.branches[-1] = self.open_branch()
                elif word == "endif":
                    depth -= 1
                    if depth < 0:
                        raise SystemExit(f"amalgamate: unbalanced #endif in {self.rel(path)}")
                    self.branches.pop()
            self.out.extend(chunk)
        if depth != 0:
            raise SystemExit(f"amalgamate: unbalanced #if/#endif in {self.rel(path)}")
        self.out.append(f"// ---- end {self.rel(path)} ----")
        self.stack.pop()


def read_version(include_dir):
    with open(os.path.join(include_dir, "utf8dfa", "version.hpp"), encoding="utf-8") as f:
        text = f.read()
    parts = []
    for part in ("MAJOR", "MINOR", "PATCH"):
        m = re.search(rf"#define UTF8DFA_VERSION_{part} (\d+)", text)
        if not m:
            raise SystemExit(f"amalgamate: UTF8DFA_VERSION_{part} not found in version.hpp")
        parts.append(m.group(1))
    return ".".join(parts)


def read_license_line(root):
    try:
        with open(os.path.join(root, "LICENSE"), encoding="utf-8") as f:
            lines = [line.strip() for line in f if line.strip()]
    except OSError:
        return "SPDX-License-Identifier: MIT"
    name = lines[0] if lines else "MIT License"
    holder = next((line for line in lines if line.startswith("Copyright")), "")
    spdx = "MIT" if name.startswith("MIT") else name
    return f"SPDX-License-Identifier: {spdx}" + (f" -- {holder}" if holder else "")


def amalgamate(root):
    include_dir = os.path.join(root, "include")
    a = Amalgamator(include_dir)
    a.emit_file(os.path.realpath(os.path.join(include_dir, "utf8dfa.hpp")))
    version = read_version(include_dir)
    banner = [
        f"// utf8dfa {version}: single-header edition.",
        "// GENERATED FILE: do not edit. Produced by tools/amalgamate.py from include/utf8dfa.hpp and every",
        "// project header it includes; edit those and rerun the script (CI checks that this copy is in sync).",
        f"// {read_license_line(root)}",
        "// Headers inlined, in order:",
    ]
    order = [line[len("// ---- begin ") : -len(" ----")] for line in a.out if line.startswith("// ---- begin ")]
    banner += [f"//   {name}" for name in order]
    return "\n".join(banner + [""] + a.out) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--root", default=ROOT, help="project root (default: this script's parent folder)")
    p.add_argument("-o", "--output", help="output file (default: ROOT/single_include/utf8dfa.hpp)")
    p.add_argument("--check", action="store_true", help="compare with the committed file instead of writing it")
    args = p.parse_args()
    root = os.path.abspath(args.root)
    output = args.output or os.path.join(root, "single_include", "utf8dfa.hpp")
    text = amalgamate(root)
    if args.check:
        try:
            with open(output, encoding="utf-8", newline="") as f:
                current = f.read()
        except OSError:
            current = ""
        if current == text:
            print(f"amalgamate: {os.path.relpath(output, root)} is up to date")
            return 0
        diff = list(
            difflib.unified_diff(
                current.splitlines(), text.splitlines(), "committed", "regenerated", n=1, lineterm=""
            )
        )
        shown = diff[:60]
        print("\n".join(shown))
        if len(diff) > len(shown):
            print(f"... ({len(diff) - len(shown)} more diff lines)")
        print(
            f"amalgamate: {os.path.relpath(output, root)} is out of date; run tools/amalgamate.py and commit it",
            file=sys.stderr,
        )
        return 1
    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    with open(output, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
