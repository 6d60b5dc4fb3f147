# Language levels: the whole suite as C++20 with g++ and with clang 16 (clang 14 cannot compile
# libstdc++ 12's <ranges>), and as C++17 without exceptions and without RTTI (examples included).
# C++23 and -fno-char8_t: 40-matrix.sh.
packages+=(clang-16)
legs+=(cxx20-gcc cxx20-clang16 noexcept-nortti)
leg_cxx20_gcc() { cmake_leg cxx20-gcc -DCMAKE_CXX_COMPILER=g++ -DCMAKE_CXX_STANDARD=20 "${suite_once[@]}"; }
leg_cxx20_clang16() { cmake_leg cxx20-clang16 -DCMAKE_CXX_COMPILER=clang++-16 -DCMAKE_CXX_STANDARD=20 "${suite_once[@]}"; }
# Catch2 v2 detects -fno-exceptions itself (CATCH_CONFIG_DISABLE_EXCEPTIONS).
leg_noexcept_nortti() {
  cmake_leg noexcept-nortti -DCMAKE_CXX_COMPILER=g++ -DCMAKE_CXX_STANDARD=17 \
    "-DCMAKE_CXX_FLAGS=-fno-exceptions -fno-rtti" -DUTF8DFA_BUILD_HEADER_CHECKS=OFF "${suite_once[@]}"
}
