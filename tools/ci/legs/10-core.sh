# The library and its tests in C++17, warnings as errors, under every kernel the CPU has:
#  - core-gcc: g++, the modular headers, each test file compiled alone, the [exhaustive]
#    enumerations under every kernel, utf8tool and the examples (also the quick check before a
#    commit: tools/test.sh --quick);
#  - core-clang: clang++ 14, against the generated single header alone (examples included), the
#    suite as unity sources (UTF8DFA_TEST_UNITY, as in every other leg that builds it), the
#    enumerations under the first kernel.
# The strict-warning header checks are the strict-headers leg's (40-matrix.sh).
legs+=(core-gcc core-clang)
core_args=(-DCMAKE_CXX_STANDARD=17 -DUTF8DFA_BUILD_BENCHMARKS=OFF -DUTF8DFA_BUILD_PACKAGE_TESTS=OFF
  -DUTF8DFA_BUILD_HEADER_CHECKS=OFF)
leg_core_gcc() { cmake_leg core-gcc -DCMAKE_CXX_COMPILER=g++ "${core_args[@]}"; }
leg_core_clang() {
  cmake_leg core-clang -DCMAKE_CXX_COMPILER=clang++ "${core_args[@]}" -DUTF8DFA_TEST_SINGLE_HEADER=ON \
    -DUTF8DFA_TEST_EXHAUSTIVE=ONCE -DCMAKE_CXX_EXTENSIONS=OFF -DUTF8DFA_TEST_UNITY=ON
}
