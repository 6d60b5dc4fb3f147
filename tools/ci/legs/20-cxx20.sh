# Language levels: the whole suite as C++20 with g++ and with clang 16 (clang 14 cannot compile
# libstdc++ 12's <ranges>), once more with g++ and -fno-char8_t, and as C++17 without exceptions.
packages+=(clang-16)
legs+=(cxx20-gcc cxx20-clang16 cxx20-nochar8-gcc noexcept-gcc)
leg_cxx20_gcc() { cmake_leg cxx20-gcc -DCMAKE_CXX_COMPILER=g++ -DCMAKE_CXX_STANDARD=20 -DUTF8DFA_BUILD_BENCHMARKS=OFF; }
leg_cxx20_clang16() {
  cmake_leg cxx20-clang16 -DCMAKE_CXX_COMPILER=clang++-16 -DCMAKE_CXX_STANDARD=20 -DUTF8DFA_BUILD_BENCHMARKS=OFF
}
leg_cxx20_nochar8_gcc() {
  cmake_leg cxx20-nochar8-gcc -DCMAKE_CXX_COMPILER=g++ -DCMAKE_CXX_STANDARD=20 -DCMAKE_CXX_FLAGS=-fno-char8_t \
    -DUTF8DFA_BUILD_BENCHMARKS=OFF
}
# Catch2 v2 detects -fno-exceptions itself (CATCH_CONFIG_DISABLE_EXCEPTIONS).
leg_noexcept_gcc() {
  cmake_leg noexcept-gcc -DCMAKE_CXX_COMPILER=g++ -DCMAKE_CXX_STANDARD=17 -DCMAKE_CXX_FLAGS=-fno-exceptions \
    -DUTF8DFA_BUILD_BENCHMARKS=OFF
}
