#!/usr/bin/env python3
"""Compile-time benchmark: how long one translation unit that uses utf8dfa takes to compile, next to
the same use of utfcpp (Debian/Ubuntu libutfcpp-dev, <utf8cpp/utf8.h>) measured in the same run.

Each TU is compiled to an object file (-c, default -O2 -std=c++17) with every compiler found
(g++, clang++ or those given with --cxx), best of --reps rounds, each TU once per round (the compiler's CPU time, user + sys,
steadier than wall-clock time on a busy machine; --wall for wall-clock time), and printed as a
table: seconds (the best round) and the ratio to the utfcpp TU that does the same job, timed just
before it in each round (the median of the rounds' ratios) (`utfcpp + is_valid` for the
TUs that only validate, `utfcpp: full use` for the full use).
Without utfcpp the ratios are left out. The separate-compilation TUs ("separate: ...") define
UTF8DFA_SEPARATE_COMPILATION, as the default CMake target utf8dfa::utf8dfa and the packages do for
their users; `src.hpp` is the one TU that compiles the kernels in that mode (the static library).

    bench/compile_time.py                      # g++ and clang++, -O2, best of 5
    bench/compile_time.py --cxx g++-12 --flags="-O2 -std=c++20" --reps 3
    bench/compile_time.py --markdown           # the table as Markdown (README)
    bench/compile_time.py --include OLD/include  # another copy of the headers (before/after)
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

VALIDATE_BODY = """
int main(int argc, char** argv) {
  const std::string_view s(argv[argc - 1]);
  return %s ? 0 : 1;
}
"""

FULL_UTF8DFA = """#include <utf8dfa.hpp>
#include <cstdio>
#include <string_view>
int main(int argc, char** argv) {
  const std::string_view s(argv[argc - 1]);
  if (!utf8dfa::is_valid(s)) return 1;
  const std::u16string u = utf8dfa::to_utf16_lossy(s);
  char32_t sum = 0;
  for (char32_t c : utf8dfa::code_points(s)) sum += c;
  std::printf("%zu %u\\n", u.size(), static_cast<unsigned>(sum));
  return 0;
}
"""

FULL_UTFCPP = """#include <utf8cpp/utf8.h>
#include <cstdio>
#include <iterator>
#include <string>
#include <string_view>
int main(int argc, char** argv) {
  const std::string_view s(argv[argc - 1]);
  if (!utf8::is_valid(s.begin(), s.end())) return 1;
  std::string fixed;
  utf8::replace_invalid(s.begin(), s.end(), std::back_inserter(fixed));
  std::u16string u;
  utf8::utf8to16(fixed.begin(), fixed.end(), std::back_inserter(u));
  char32_t sum = 0;
  for (utf8::iterator<const char*> it(s.data(), s.data(), s.data() + s.size()),
       end(s.data() + s.size(), s.data(), s.data() + s.size());
       it != end; ++it)
    sum += static_cast<char32_t>(*it);
  std::printf("%zu %u\\n", u.size(), static_cast<unsigned>(sum));
  return 0;
}
"""

WALL = False
INCLUDE = os.path.join(ROOT, "include")

SEPARATE = "#define UTF8DFA_SEPARATE_COMPILATION 1\n"

# (name, source, baseline name or None, needs utfcpp, needs src.hpp)
TUS = [
    ("string_view only", "#include <string_view>\n" + VALIDATE_BODY % "!s.empty()", "utfcpp + is_valid", False, False),
    ("utfcpp + is_valid", "#include <utf8cpp/utf8.h>\n#include <string_view>\n" +
     VALIDATE_BODY % "utf8::is_valid(s.begin(), s.end())", None, True, False),
    ("utf8dfa.hpp, nothing used", "#include <utf8dfa.hpp>\nint main() { return 0; }\n", "utfcpp + is_valid", False,
     False),
    ("validate.hpp + is_valid", "#include <utf8dfa/validate.hpp>\n#include <string_view>\n" +
     VALIDATE_BODY % "utf8dfa::is_valid(s)", "utfcpp + is_valid", False, False),
    ("utf8dfa.hpp + is_valid", "#include <utf8dfa.hpp>\n#include <string_view>\n" +
     VALIDATE_BODY % "utf8dfa::is_valid(s)", "utfcpp + is_valid", False, False),
    ("utfcpp: full use", FULL_UTFCPP, None, True, False),
    ("utf8dfa.hpp: full use", FULL_UTF8DFA, "utfcpp: full use", False, False),
    ("separate: utf8dfa.hpp, nothing used", SEPARATE + "#include <utf8dfa.hpp>\nint main() { return 0; }\n",
     "utfcpp + is_valid", False, True),
    ("separate: validate.hpp + is_valid", SEPARATE + "#include <utf8dfa/validate.hpp>\n#include <string_view>\n" +
     VALIDATE_BODY % "utf8dfa::is_valid(s)", "utfcpp + is_valid", False, True),
    ("separate: utf8dfa.hpp + is_valid", SEPARATE + "#include <utf8dfa.hpp>\n#include <string_view>\n" +
     VALIDATE_BODY % "utf8dfa::is_valid(s)", "utfcpp + is_valid", False, True),
    ("separate: utf8dfa.hpp: full use", SEPARATE + FULL_UTF8DFA, "utfcpp: full use", False, True),
    ("separate: src.hpp (once)", SEPARATE + "#include <utf8dfa/src.hpp>\n", None, False, True),
]


def have_utfcpp(cxx, flags, tmp):
    path = os.path.join(tmp, "probe.cpp")
    with open(path, "w") as f:
        f.write("#include <utf8cpp/utf8.h>\nint main() { return 0; }\n")
    r = subprocess.run([cxx] + flags + ["-fsyntax-only", path], capture_output=True)
    return r.returncode == 0


def time_tu(cxx, flags, src, tmp):
    """One compile of one TU: seconds, or None if it failed."""
    path = os.path.join(tmp, "tu.cpp")
    with open(path, "w") as f:
        f.write(src)
    cmd = [cxx] + flags + ["-I", INCLUDE, "-c", path, "-o", os.path.join(tmp, "tu.o")]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        sys.stderr.write("compile failed: %s\n%s\n" % (" ".join(cmd), err.decode(errors="replace")[:2000]))
        return None
    # CPU time of the compiler and its children (cc1plus): steadier than wall time on a busy
    # machine; --wall measures wall-clock time instead.
    return wall if WALL else usage.ru_utime + usage.ru_stime


def main():
    global WALL, INCLUDE
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cxx", action="append", help="compiler (repeatable); default: g++ and clang++ if found")
    ap.add_argument("--flags", default="-O2 -std=c++17", help="compiler flags (default: %(default)s)")
    ap.add_argument("--reps", type=int, default=5, help="runs per TU, the best is kept (default: 5)")
    ap.add_argument("--only", help="run only the TUs whose name contains this text (and their baselines)")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    ap.add_argument("--include", default=INCLUDE, help="the headers' folder (default: this checkout's include/)")
    ap.add_argument("--wall", action="store_true", help="wall-clock time instead of the compiler's CPU time")
    args = ap.parse_args()
    WALL = args.wall
    INCLUDE = os.path.abspath(args.include)

    compilers = args.cxx or [c for c in ("g++", "clang++") if shutil.which(c)]
    if not compilers:
        sys.exit("no C++ compiler found (give one with --cxx)")
    flags = args.flags.split()
    has_src = os.path.exists(os.path.join(INCLUDE, "utf8dfa", "src.hpp"))

    tus = TUS
    if args.only:
        keep = {t[0] for t in TUS if args.only in t[0]}
        keep |= {t[2] for t in TUS if t[0] in keep and t[2]}
        tus = [t for t in TUS if t[0] in keep]

    results = {}  # (tu, compiler) -> seconds or None
    pairs = {}  # (tu, compiler) -> its time over its baseline's, one per round
    with tempfile.TemporaryDirectory() as tmp:
        for cxx in compilers:
            utfcpp = have_utfcpp(cxx, flags, tmp)
            if not utfcpp:
                sys.stderr.write("%s: <utf8cpp/utf8.h> not found (libutfcpp-dev): utfcpp TUs and ratios skipped\n" % cxx)
            todo = [(name, src, base) for name, src, base, needs_utfcpp, needs_src in tus
                    if not ((needs_utfcpp and not utfcpp) or (needs_src and not has_src))]
            sources = {name: src for name, src, _ in todo}
            # Round-robin: every TU once per round, each right after its utfcpp baseline (timed again
            # for it), so that a slow spell of a shared machine falls on both times of a ratio alike;
            # the best round is kept as the TU's time.
            failed = set()

            def timed(name):
                if name in failed:
                    return None
                t = time_tu(cxx, flags, sources[name], tmp)
                if t is None:
                    failed.add(name)
                    results[(name, cxx)] = None
                    return None
                old = results.get((name, cxx))
                results[(name, cxx)] = t if old is None else min(old, t)
                return t

            for _ in range(args.reps):
                for name, _, base in todo:
                    tb = timed(base) if base in sources else None
                    t = timed(name)
                    if t is not None and tb is not None:
                        pairs.setdefault((name, cxx), []).append(t / tb)

    def cell(name, base, cxx):
        t = results.get((name, cxx))
        if t is None:
            return ("-", "")
        if not base or not pairs.get((name, cxx)):
            return ("%.2f" % t, "")
        # The ratio: the median over the rounds of the TU's time over its baseline's, timed just
        # before it, which cancels most of a shared machine's slow and fast spells.
        return ("%.2f" % t, "%.2fx" % statistics.median(pairs[(name, cxx)]))

    header = ["TU"]
    for cxx in compilers:
        header += [cxx + " s", "ratio"]
    rows = []
    for name, _, base, _, _ in tus:
        if not any((name, c) in results for c in compilers):
            continue
        row = [name]
        for cxx in compilers:
            row += list(cell(name, base, cxx))
        rows.append(row)

    print("flags: %s; %s, best of %d rounds; ratio: to the utfcpp TU doing the same job, timed just before it (median of the rounds)"
          % (" ".join(flags), "wall-clock time" if WALL else "CPU time (user + sys)", args.reps))
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|")
        for row in rows:
            print("| " + " | ".join(row) + " |")
    else:
        widths = [max(len(r[k]) for r in rows + [header]) for k in range(len(header))]
        for row in [header] + rows:
            print("  ".join(c.ljust(widths[k]) if k == 0 else c.rjust(widths[k]) for k, c in enumerate(row)))


if __name__ == "__main__":
    main()
