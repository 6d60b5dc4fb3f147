# The kernels under other build flags: with UTF8DFA_NO_SIMD (only the scalar DFA is compiled) and
# with -march=native (the headers must behave the same when the whole program may use AVX-512).
legs+=(simd-nosimd simd-native)
leg_simd_nosimd() {
  cmake_leg simd-nosimd -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_CXX_FLAGS=-DUTF8DFA_NO_SIMD \
    -DUTF8DFA_BUILD_BENCHMARKS=OFF -DUTF8DFA_BUILD_PACKAGE_TESTS=OFF -DUTF8DFA_BUILD_EXAMPLES=OFF
}
leg_simd_native() {
  cmake_leg simd-native -DCMAKE_CXX_COMPILER=g++ -DCMAKE_CXX_FLAGS=-march=native \
    -DUTF8DFA_BUILD_BENCHMARKS=OFF -DUTF8DFA_BUILD_PACKAGE_TESTS=OFF -DUTF8DFA_BUILD_EXAMPLES=OFF
}
