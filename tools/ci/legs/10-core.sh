# The library and its tests, warnings as errors, under every kernel the CPU has:
#  - core-gcc: g++ C++17, the modular headers, in the separate-compilation mode (the kernels
#    compiled once, at -O2, in utf8dfa_compiled; the test files at -O1, as unity sources: building
#    the suite is most of a leg's time, and the tests' own templates most of that), the [exhaustive]
#    enumerations of short inputs under the first kernel (they stay below the vector kernels' block
#    size, so every kernel would run them on the same scalar code; the block-edge and page-boundary
#    cases run under every kernel), utf8tool and the examples (also the quick check before a
#    commit: tools/test.sh --quick);
#  - core-clang: clang++ 16 C++23 (ranges, char8_t, resize_and_overwrite) with -march=native (the
#    headers must behave the same when the whole program may use AVX2 or AVX-512), against the
#    generated single header alone, header-only (examples included), the suite as unity sources at
#    -O1 (bench-smoke checks clang's -O2 kernels on real text), no enumerations (core-gcc and
#    asan-clang run them), under every kernel but sse4 where the CPU has a better one (its entries
#    beyond validation and counting are the scalar ones; core-gcc runs it).
# The ODR test (tests/odr) runs in core-gcc: header-only whatever the suite's mode, baseline flags.
# tests/CMakeLists.txt runs the files about the bulk operations under every kernel, the others under
# the first. The header-only mode is also built by cxx20-gcc (20-cxx20.sh, scalar), every header
# alone by strict-headers (40-headers.sh); C++17 with clang by strict-headers and asan-clang.
packages+=(clang-16)
legs+=(core-gcc core-clang)
core_args=(-DUTF8DFA_BUILD_BENCHMARKS=OFF -DUTF8DFA_BUILD_PACKAGE_TESTS=OFF -DUTF8DFA_BUILD_HEADER_CHECKS=OFF)
leg_core_gcc() {
  cmake_leg core-gcc -DCMAKE_CXX_COMPILER=g++ -DCMAKE_CXX_STANDARD=17 "${core_args[@]}" \
    -DUTF8DFA_TEST_SEPARATE_COMPILATION=ON -DUTF8DFA_COMPILED_OPTIONS=-O2 "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG" \
    -DUTF8DFA_TEST_UNITY=ON -DUTF8DFA_TEST_EXHAUSTIVE=ONCE
}
leg_core_clang() {
  cmake_leg core-clang -DCMAKE_CXX_COMPILER=clang++-16 -DCMAKE_CXX_STANDARD=23 "${core_args[@]}" \
    -DUTF8DFA_TEST_SINGLE_HEADER=ON -DUTF8DFA_TEST_EXHAUSTIVE=NONE -DCMAKE_CXX_EXTENSIONS=OFF -DUTF8DFA_TEST_UNITY=ON \
    -DUTF8DFA_COMPILED_LIBRARY=OFF -DUTF8DFA_TEST_ODR=OFF "-DCMAKE_CXX_FLAGS=-march=native" \
    -DUTF8DFA_TEST_KERNELS_EXCLUDE=sse4 \
    "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG"
}
