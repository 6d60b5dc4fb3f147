# Language level and flags: one build of the whole suite (examples included) that differs from
# core-gcc and core-clang in several ways at once, built at -O1 (it looks for what the language
# level or a flag changes, not for speed), the dispatcher's kernel, no [exhaustive] enumerations:
#  - cxx20-gcc: g++ C++20, -fno-exceptions -fno-rtti -fno-char8_t, UTF8DFA_NO_SIMD (only the scalar
#    DFA compiled), header-only.
# Catch2 v2 detects -fno-exceptions itself (CATCH_CONFIG_DISABLE_EXCEPTIONS).
legs+=(cxx20-gcc)
leg_cxx20_gcc() {
  cmake_leg cxx20-gcc -DCMAKE_CXX_COMPILER=g++ -DCMAKE_CXX_STANDARD=20 -DUTF8DFA_BUILD_BENCHMARKS=OFF \
    -DUTF8DFA_BUILD_PACKAGE_TESTS=OFF -DUTF8DFA_BUILD_HEADER_CHECKS=OFF -DUTF8DFA_TEST_EXHAUSTIVE=NONE \
    -DCMAKE_CXX_EXTENSIONS=OFF -DUTF8DFA_TEST_UNITY=ON "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG" \
    -DUTF8DFA_COMPILED_LIBRARY=OFF -DUTF8DFA_TEST_ODR=OFF "-DCMAKE_CXX_FLAGS=-fno-exceptions -fno-rtti -fno-char8_t -DUTF8DFA_NO_SIMD"
}
