# Language levels and flags, each leg one build of the whole suite (examples included) that differs
# from core-gcc/core-clang in several ways at once; the [exhaustive] enumerations are core-gcc's.
# Built at -O1: these legs look for what the language level or a flag changes, not for speed.
#  - cxx20-gcc: g++ C++20, -fno-exceptions -fno-rtti -fno-char8_t, UTF8DFA_NO_SIMD (only the scalar
#    DFA compiled), header-only;
#  - cxx23-clang16: clang++ 16 C++23 (clang 14 cannot compile libstdc++ 12's <ranges>; char8_t and
#    C++23's resize_and_overwrite) with -march=native (the headers must behave the same when the
#    whole program may use AVX2 or AVX-512), in the separate-compilation mode
#    (UTF8DFA_SEPARATE_COMPILATION: the suite links utf8dfa_compiled), the dispatcher's kernel.
packages+=(clang-16)
legs+=(cxx20-gcc cxx23-clang16)
matrix_common=(-DUTF8DFA_BUILD_BENCHMARKS=OFF -DUTF8DFA_BUILD_PACKAGE_TESTS=OFF -DUTF8DFA_BUILD_HEADER_CHECKS=OFF
  -DUTF8DFA_TEST_EXHAUSTIVE=NONE -DCMAKE_CXX_EXTENSIONS=OFF -DUTF8DFA_TEST_UNITY=ON "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG")
# Catch2 v2 detects -fno-exceptions itself (CATCH_CONFIG_DISABLE_EXCEPTIONS).
leg_cxx20_gcc() {
  cmake_leg cxx20-gcc -DCMAKE_CXX_COMPILER=g++ -DCMAKE_CXX_STANDARD=20 "${matrix_common[@]}" \
    "-DCMAKE_CXX_FLAGS=-fno-exceptions -fno-rtti -fno-char8_t -DUTF8DFA_NO_SIMD"
}
leg_cxx23_clang16() {
  cmake_leg cxx23-clang16 -DCMAKE_CXX_COMPILER=clang++-16 -DCMAKE_CXX_STANDARD=23 "${matrix_common[@]}" \
    -DUTF8DFA_TEST_ALL_KERNELS=OFF -DUTF8DFA_TEST_SEPARATE_COMPILATION=ON "-DCMAKE_CXX_FLAGS=-march=native"
}
