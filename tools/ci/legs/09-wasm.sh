# WebAssembly: wasm32-wasi (32-bit size_t, no SIMD kernel: the dispatcher has the scalar one only),
# cross-compiled with clang++ 16 and Debian's WASI sysroot, run under Node's WASI
# (cmake/toolchains/wasm32-wasi.cmake, tools/wasi_run.mjs). Built like the other cross legs
# (08-cross.sh's cross_leg: separate compilation, unity test sources at -O1, no [exhaustive]
# enumerations, no package checks), without exceptions (these packages have no wasm exception
# handling): the suite runs the library's exception-free forms, and the test cases that need a
# throw leave those checks out (UTF8DFA_HAS_EXCEPTIONS). Not run there:
#  - the guard-page cases (page_boundary_test, the mmap cases of simd_test, simd_transcode_test,
#    simd_units_test and utf_views_test): WASI has no mmap or memory protection;
#  - length_test's count past 2^32 units (maps one page thousands of times: Linux x86-64 only);
#  - utf8tool: only the groups about the tool's own input and output (io: files, pipes read as
#    data arrives, a non-blocking stdin, a full disk, chunk edges; usage): each run starts Node
#    (about 0.3 s), and the other groups make hundreds to thousands of runs each (about 15 minutes
#    in all) of code the suite checks here already and the native legs run through the tool. In
#    io, the closed-stdout case (Node reopens a closed stdout on /dev/null before the program
#    starts); the memory group (it measures the process: here Node) in no cross leg.
packages+=(nodejs clang-16 lld-16 wasi-libc libc++-16-dev-wasm32 libc++abi-16-dev-wasm32 libclang-rt-16-dev-wasm32)
legs+=(wasm)
leg_wasm() {
  cross_leg wasm wasm32-wasi scalar "-DUTF8DFA_UTF8TOOL_TEST_GROUPS=usage;io"
}
