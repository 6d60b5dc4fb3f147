# Windows: 64-bit Windows programs built with Debian's mingw-w64 (posix thread model, static runtime)
# and run under wine (cmake/toolchains/x86_64-w64-mingw32.cmake). What differs there: the Windows
# x64 calling convention under the kernels' target regions, 2-byte wchar_t (tests/wide_test.cpp),
# VirtualProtect guard pages, utf8tool's binary stdin/stdout/stderr, CR LF files and Windows paths
# (the utf8tool `platform` group). The whole suite and utf8tool's tests, as the cross legs build
# them (separate compilation, unity, -O1, no [exhaustive] enumerations), under the kernel the dispatcher
# picks under wine, which must be the one it picks natively on this CPU (kernel/dispatched: the list
# comes from a native build of tests/list_kernels.cpp), and the per-kernel files also under scalar.
# MSVC (cpu.hpp's __cpuidex/_xgetbv path) is not built here: no MSVC runs on CI.
packages+=(g++-mingw-w64-x86-64-posix wine wine64)
legs+=(windows)

leg_windows() {
  local dir="$build_root/windows"
  mkdir -p "$dir"
  # The kernels of this CPU, best first, as a native build of the library sees them.
  g++ -std=c++17 -O0 -I"$root/include" "$root/tests/list_kernels.cpp" -o "$dir/list_kernels.native" || return 1
  local kernels
  kernels=$("$dir/list_kernels.native") || return 1
  local best=${kernels%%;*}
  [[ $best == scalar ]] && kernels=scalar || kernels="$best;scalar"
  echo "windows: kernels $kernels (native dispatch: $best)"
  # A wine prefix of the leg's own and one wine server for the whole leg: a program then starts in a
  # few hundredths of a second instead of about one (each start otherwise starts a server, which
  # stays 3 s; utf8tool's tests start the tool about 1700 times), and no start meets a server on its
  # way out. wineboot starts wine's services under it before any test, with no output: a service
  # started by a test would hold the test's output pipes open (ctest would wait for them).
  export WINEPREFIX="$dir-wine" WINEDEBUG=-all
  mkdir -p "$WINEPREFIX"
  wineserver --persistent || return 1
  wineboot --init </dev/null >/dev/null 2>&1 || return 1
  # -Wno-psabi: at -O2 mingw's g++ 12 warns, at the end of the unit that compiles the kernels, that
  # "AVX512F vector return without AVX512F enabled changes the ABI" (not with -fno-ipa-icf: about a
  # function that identical code folding makes). Every function with AVX-512 vectors is in the
  # kernel's target region, and the suite checks the kernel's results under wine.
  local status=0
  # Under wine a test program has ended, after its whole and correct output, with wine's own loader
  # failing on the way out (exit 127, "Inconsistency detected by ld.so: dl-fini.c ... _dl_fini"), and
  # once with exit 1 and no message; each passed when run again. A failing test is run once more
  # here, so that only a failure that repeats fails the leg.
  local cross_ctest_extra=(--repeat until-pass:2)
  # utf8tool: every group but dialect and corpora (library code the suite checks under wine; the
  # native legs run them through the tool).
  cross_leg windows x86_64-w64-mingw32 "$kernels" -DCMAKE_CXX_FLAGS=-Wno-psabi \
    "-DUTF8DFA_UTF8TOOL_TEST_GROUPS=validate;sanitize;count;convert;usage;io;stream_file;platform;encodings" ||
    status=1
  wineserver -k >/dev/null 2>&1 || true
  return $status
}
