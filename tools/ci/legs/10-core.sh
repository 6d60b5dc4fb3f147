# The library and its tests in C++17, warnings as errors, under every kernel the CPU has:
#  - core-gcc: g++ in the separate-compilation mode (the kernels compiled once, at -O2, in
#    utf8dfa_compiled; the test files at -O1, as unity sources: building the suite is most of a
#    leg's time, and the tests' own templates most of that), the [exhaustive] enumerations of short
#    inputs under the first kernel (they stay below the vector kernels' block size, so every kernel
#    runs them on the same scalar code; the block-edge and page-boundary cases run under every
#    kernel), utf8tool and the examples (also the quick check before a commit: tools/test.sh --quick);
#  - core-clang: clang++ 14, against the generated single header alone, header-only (examples
#    included), the suite as unity sources, the enumerations under the first kernel.
# The header-only mode with g++ is built by cxx20-gcc (20-cxx20.sh, scalar) and the package leg's
# consumers, every header alone by strict-headers (40-headers.sh).
legs+=(core-gcc core-clang)
core_args=(-DCMAKE_CXX_STANDARD=17 -DUTF8DFA_BUILD_BENCHMARKS=OFF -DUTF8DFA_BUILD_PACKAGE_TESTS=OFF
  -DUTF8DFA_BUILD_HEADER_CHECKS=OFF)
leg_core_gcc() {
  cmake_leg core-gcc -DCMAKE_CXX_COMPILER=g++ "${core_args[@]}" -DUTF8DFA_TEST_SEPARATE_COMPILATION=ON \
    -DUTF8DFA_COMPILED_OPTIONS=-O2 "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG" -DUTF8DFA_TEST_UNITY=ON \
    -DUTF8DFA_TEST_EXHAUSTIVE=ONCE
}
leg_core_clang() {
  cmake_leg core-clang -DCMAKE_CXX_COMPILER=clang++ "${core_args[@]}" -DUTF8DFA_TEST_SINGLE_HEADER=ON \
    -DUTF8DFA_TEST_EXHAUSTIVE=ONCE -DCMAKE_CXX_EXTENSIONS=OFF -DUTF8DFA_TEST_UNITY=ON
}
