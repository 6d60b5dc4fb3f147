#!/usr/bin/env python3
"""Self-test of tools/amalgamate.py on small synthetic header trees (the rules its docstring states),
then on the real include/: the output compiles alone and holds every reachable header exactly once."""

import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.join(ROOT, "tools"))
import amalgamate  # noqa: E402

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def tree(files):
    root = tempfile.mkdtemp(prefix="amalgamate_test_")
    with open(os.path.join(root, "LICENSE"), "w") as f:
        f.write("MIT License\n\nCopyright (c) Someone\n")
    base = {
        "utf8dfa/version.hpp": "#ifndef V\n#define V\n#define UTF8DFA_VERSION_MAJOR 3\n"
        "#define UTF8DFA_VERSION_MINOR 14\n#define UTF8DFA_VERSION_PATCH 15\n#endif\n",
    }
    base.update(files)
    for name, text in base.items():
        path = os.path.join(root, "include", name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    return root


def begins(out):
    return re.findall(r"^// ---- begin (\S+) ----$", out, re.M)


def guarded(name, body):
    g = "G_" + re.sub(r"\W", "_", name).upper()
    return f"#ifndef {g}\n#define {g}\n{body}#endif\n"


# 1. Dependency order, each header once, quoted and angled includes, system includes deduplicated.
r = tree({
    "utf8dfa.hpp": guarded("u", '#include "utf8dfa/b.hpp"\n#include <utf8dfa/a.hpp>\n#include "utf8dfa/version.hpp"\n'),
    "utf8dfa/a.hpp": guarded("a", "#include <vector>\n#include \"detail/c.hpp\"\nint a;\n"),
    "utf8dfa/b.hpp": guarded("b", "#include <vector>\n#include \"a.hpp\"\n#include <utf8dfa/detail/c.hpp>\nint b;\n"),
    "utf8dfa/detail/c.hpp": guarded("c", "#include <vector>\n#include \"../version.hpp\"\nint c;\n"),
})
out = amalgamate.amalgamate(r)
order = begins(out)
check(order == ["utf8dfa.hpp", "utf8dfa/b.hpp", "utf8dfa/a.hpp", "utf8dfa/detail/c.hpp", "utf8dfa/version.hpp"],
      f"dependency order: {order}")
check(out.count("#include <vector>") == 1, "an unconditional system include is kept once")
check(out.index("int c;") < out.index("int a;") < out.index("int b;"), "definitions follow their dependencies")
check("#include \"" not in out and "#include <utf8dfa" not in out, "no project include is left")
check("utf8dfa 3.14.15" in out and "GENERATED" in out and "SPDX-License-Identifier: MIT" in out, "banner")
check(out == amalgamate.amalgamate(r), "deterministic")
check(all(f"#ifndef G_{n}" in out for n in ("U", "A", "B", "C")), "include guards kept")
shutil.rmtree(r)

# 2. Conditional includes: inlined inside their #if; again where the first copy might not be in effect.
r = tree({
    "utf8dfa.hpp": "#pragma once\n#include \"utf8dfa/version.hpp\"\n"
    "#if defined(X)\n#include \"utf8dfa/k.hpp\"\n#include <immintrin.h>\n#elif defined(Y)\n#include \"utf8dfa/k.hpp\"\n"
    "#include <immintrin.h>\n#else\n#include <utf8dfa/k.hpp>\n#endif\n#include \"utf8dfa/k.hpp\"\n#include <immintrin.h>\n"
    "#include <immintrin.h>\n#include \"utf8dfa/k.hpp\"\n",
    "utf8dfa/k.hpp": guarded("k", "#if defined(X)\n#include \"t.hpp\"\n#endif\n#include \"t.hpp\"\nint k;\n"),
    "utf8dfa/t.hpp": guarded("t", "#define LONG_MACRO(a) \\\n  a\n#if 1\n#endif\nint t;\n"),
})
out = amalgamate.amalgamate(r)
check(out.count("// ---- begin utf8dfa/k.hpp") == 4, "k.hpp once per #if branch and once unconditionally")
check(out.count("#include <immintrin.h>") == 3, "conditional system includes kept per branch, then once")
check("#pragma once" not in out, "#pragma once dropped")
check("#define LONG_MACRO(a) \\\n  a\n" in out, "continuation lines kept verbatim")
with tempfile.TemporaryDirectory() as d:
    # Compiles and each copy behaves under every branch (guards make later copies no-ops).
    src = os.path.join(d, "x.cpp")
    hdr = os.path.join(d, "single.hpp")
    with open(hdr, "w") as f:
        f.write(out.replace("#include <immintrin.h>", ""))
    with open(src, "w") as f:
        f.write('#include "single.hpp"\nint main() { return k + t; }\n')
    cxx = os.environ.get("CXX", "c++")
    for flag in ([], ["-DX"], ["-DY"]):
        res = subprocess.run([cxx, "-std=c++17", "-fsyntax-only", *flag, src], capture_output=True, text=True)
        check(res.returncode == 0, f"conditional tree compiles with {flag}: {res.stderr}")
shutil.rmtree(r)

# 3. A guarded include cycle ends as the compiler's would (each header once); a missing project
#    header is an error, not silently left as an #include.
r = tree({"utf8dfa.hpp": '#include "utf8dfa/x.hpp"\n', "utf8dfa/x.hpp": guarded("x", '#include "y.hpp"\nint x;\n'),
          "utf8dfa/y.hpp": guarded("y", '#include "x.hpp"\nint y;\n')})
check(begins(amalgamate.amalgamate(r)) == ["utf8dfa.hpp", "utf8dfa/x.hpp", "utf8dfa/y.hpp"], "cycle")
shutil.rmtree(r)
for files, what in (
    ({"utf8dfa.hpp": '#include "utf8dfa/missing.hpp"\n'}, "missing header"),
    ({"utf8dfa.hpp": '#include <utf8dfa/missing.hpp>\n'}, "missing angled header"),
    ({"utf8dfa.hpp": '#if 1\n#include <vector>\n'}, "unbalanced #if"),
):
    r = tree(files)
    try:
        amalgamate.amalgamate(r)
        check(False, f"{what} is an error")
    except SystemExit as e:
        check(str(e).startswith("amalgamate:"), f"{what} message: {e}")
    shutil.rmtree(r)

# 4. The real tree: every header reachable from include/utf8dfa.hpp appears exactly once.
out = amalgamate.amalgamate(ROOT)
reach, todo = set(), ["utf8dfa.hpp"]
while todo:
    h = todo.pop()
    if h in reach:
        continue
    reach.add(h)
    with open(os.path.join(ROOT, "include", h)) as f:
        for kind, name in re.findall(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', f.read(), re.M):
            cand = os.path.normpath(os.path.join(os.path.dirname(h), name)) if kind == '"' else name
            if os.path.isfile(os.path.join(ROOT, "include", cand)):
                todo.append(cand.replace(os.sep, "/"))
            elif os.path.isfile(os.path.join(ROOT, "include", name)):
                todo.append(name)
order = begins(out)
check(set(order) == reach, f"real tree: inlined {sorted(order)} vs reachable {sorted(reach)}")

# 5. The real single header in the separate compilation mode: the kernels (detail/kernel_list.hpp and
#    what it includes) are inlined inside dispatch.hpp's #if, so one file with UTF8DFA_IMPLEMENTATION
#    compiles them and the others only declare them; linked, the program dispatches.
check(re.search(r"^#if !defined\(UTF8DFA_SEPARATE_COMPILATION\) \|\| defined\(UTF8DFA_IMPLEMENTATION\)\n"
                r"// ---- begin utf8dfa/detail/kernel_list.hpp ----$", out, re.M) is not None,
      "kernel_list.hpp is inlined inside dispatch.hpp's separate-compilation #if")
cxx = os.environ.get("CXX", "c++")
if shutil.which(cxx):
    d = tempfile.mkdtemp(prefix="amalgamate_test_")
    with open(os.path.join(d, "utf8dfa.hpp"), "w") as f:
        f.write(out)
    with open(os.path.join(d, "impl.cpp"), "w") as f:
        f.write('#define UTF8DFA_IMPLEMENTATION 1\n#include "utf8dfa.hpp"\n')
    with open(os.path.join(d, "main.cpp"), "w") as f:
        f.write('#include "utf8dfa.hpp"\n#include <cstdio>\nint main() {\n'
                '  const bool ok = utf8dfa::is_valid(std::string_view("h\\xC3\\xA9")) &&\n'
                '                  !utf8dfa::is_valid(std::string_view("\\xC0\\xAF")) && utf8dfa::select_kernel("scalar");\n'
                '  std::puts(ok ? "ok" : "FAILED");\n  return ok ? 0 : 1;\n}\n')
    exe = os.path.join(d, "main")
    res = subprocess.run([cxx, "-std=c++17", "-DUTF8DFA_SEPARATE_COMPILATION", os.path.join(d, "impl.cpp"),
                          os.path.join(d, "main.cpp"), "-o", exe], capture_output=True, text=True)
    check(res.returncode == 0, "separate compilation with the single header builds: " + res.stderr[-2000:])
    if res.returncode == 0:
        run = subprocess.run([exe], capture_output=True, text=True)
        check(run.returncode == 0 and run.stdout.strip() == "ok", "separate compilation with the single header runs")
    res = subprocess.run([cxx, "-std=c++17", "-DUTF8DFA_SEPARATE_COMPILATION", os.path.join(d, "main.cpp"),
                          "-o", exe], capture_output=True, text=True)
    check(res.returncode != 0, "without the UTF8DFA_IMPLEMENTATION file the kernels are missing at link time")
    shutil.rmtree(d)

print(f"amalgamate_test: {'FAILED ' + str(len(failures)) if failures else 'all checks passed'}")
sys.exit(1 if failures else 0)
